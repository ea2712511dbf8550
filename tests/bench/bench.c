/*
 * make bench: time per frame of every kernel on grids 30x24 .. 256x256 (SPEC 9).
 *
 * Each kernel runs the same hanging cloth (top row pinned, gravity, no wind, no
 * obstacle) for a few frames after a warm-up frame.  Reported per kernel and grid:
 * milliseconds per frame, kernel steps per frame, kernel passes per frame (the
 * iterations column), and spring visits per second = springs x steps x max(1, passes per
 * step) / time, i.e. force evaluations (explicit) or constraint projections (verlet, pbd).
 * Each kernel runs with the substeps its table entry asks for at 60 frames a second
 * (cloth_kernel_facts), only on grids within its dense limit, and with its condition
 * numbers off (they are diagnostics, and exact eigenvalues would dominate the time).
 * Output: a CSV table on stdout; `make bench` also stores it in
 * tests/bench/results/<host>.csv.
 */
#include "cloth.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
    static const int grids[][2] = {{30, 24}, {64, 64}, {128, 128}, {256, 256}};
    printf("kernel,nx,ny,vertices,springs,substeps,frames,ms_per_frame,passes_per_frame,"
           "spring_visits_per_s\n");
    cloth_kernel_facts facts;
    for (int k = 0; cloth_kernel_info(k, &facts) == CLOTH_OK; k++) {
        const char *kernel = facts.name;
        for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
            int nx = grids[g][0], ny = grids[g][1];
            if (facts.dense_max > 0 && 3 * nx * ny > facts.dense_max)
                continue;
            cloth_scene s;
            cloth_default_scene(&s);
            cloth_error err;
            char set[128];
            const char *sets[] = {"run.kernel=%s", "mesh.nx=%d", "mesh.ny=%d",
                                  "mesh.spacing=%g", "run.dt=%g", "run.substeps=%d"};
            int substeps = facts.frame_substeps;
            double spacing = 2.9 / (nx - 1); /* the same 2.9 m wide cloth at every size */
            int ok = 1;
            for (int i = 0; i < 6 && ok; i++) {
                switch (i) {
                case 0: snprintf(set, sizeof set, sets[i], kernel); break;
                case 1: snprintf(set, sizeof set, sets[i], nx); break;
                case 2: snprintf(set, sizeof set, sets[i], ny); break;
                case 3: snprintf(set, sizeof set, sets[i], spacing); break;
                case 4: snprintf(set, sizeof set, sets[i], 1.0 / 60); break;
                default: snprintf(set, sizeof set, sets[i], substeps); break;
                }
                ok = cloth_scene_set(&s, set, i + 1, &err) == CLOTH_OK;
            }
            if (ok && facts.cond_off) {
                snprintf(set, sizeof set, "%s.%s", kernel, facts.cond_off);
                ok = cloth_scene_set(&s, set, 7, &err) == CLOTH_OK;
            }
            cloth_sim *sim;
            if (!ok || cloth_sim_create(&s, &sim, &err) != CLOTH_OK) {
                fprintf(stderr, "bench: %s %dx%d: %s\n", kernel, nx, ny, err.msg);
                continue;
            }
            cloth_frame f;
            cloth_sim_frame(sim, &f, &err); /* warm-up */
            int frames = 0;
            long passes = 0;
            double start = now_s(), elapsed = 0;
            /* at least 3 frames and 0.5 s */
            while (frames < 3 || elapsed < 0.5) {
                if (cloth_sim_frame(sim, &f, &err) != CLOTH_OK)
                    break;
                frames++;
                passes += f.iterations;
                elapsed = now_s() - start;
                if (elapsed > 20)
                    break;
            }
            const cloth_mesh *m = cloth_sim_mesh(sim);
            double per_step = fmax(1.0, (double)passes / frames / substeps);
            printf("%s,%d,%d,%d,%d,%d,%d,%.4g,%.4g,%.4g\n", kernel, nx, ny, m->n,
                   m->n_springs, substeps, frames, 1e3 * elapsed / frames,
                   (double)passes / frames,
                   m->n_springs * (double)substeps * per_step * frames / elapsed);
            fflush(stdout);
            cloth_sim_destroy(sim);
        }
    }
    return 0;
}
