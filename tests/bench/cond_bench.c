/*
 * The exact 2-norm condition number of the Newton matrix by dsyevd and by ARPACK, size by
 * size: where ARPACK becomes the faster one (issue 34, "exact condition numbers by the
 * faster method"; newton.cond_exact_max's default is that crossover).
 *
 * Scene: the hanging cloth of experiments/hanging.ini (same spacing, pins, wind, sphere)
 * at nx x ny, 3 (nx ny - nx) unknowns, newton with CHOLMOD, substeps 1, newton.cond =
 * exact; once with cond_exact_max = 100000 (every condition number by dsyevd) and once
 * with 0 (every one by ARPACK), after one warm-up frame, over a few frames.  The two runs
 * take the same steps (the condition number does not steer the step), so they see the
 * same matrices.
 *
 * Columns: nx, ny, unknowns, iterations timed, ms per condition number by dsyevd and by
 * ARPACK, their ratio, and the largest relative difference of the frames' cond_max.
 * Output: CSV on stdout (tests/bench/results/<machine>-cond.csv).  One thread (OpenBLAS).
 */
#include "cloth.h"
#include "kernels/newton/newton.h"
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define FRAMES 2

/* Runs the scene with cond_exact_max = cap: the condition numbers' ms per iteration and
 * each timed frame's cond_max; 0 when the run failed (printed). */
static int run(int nx, int ny, int cap, double *ms, long *iters, double *cond)
{
    cloth_scene s;
    cloth_sim *sim;
    cloth_error err;
    if (cloth_scene_load("experiments/hanging.ini", &s, &err) != CLOTH_OK) {
        fprintf(stderr, "cond_bench: %s (run from the repository's root)\n", err.msg);
        return 0;
    }
    char set[3][64];
    snprintf(set[0], sizeof set[0], "mesh.nx=%d", nx);
    snprintf(set[1], sizeof set[1], "mesh.ny=%d", ny);
    snprintf(set[2], sizeof set[2], "newton.cond_exact_max=%d", cap);
    const char *sets[] = {"run.kernel=newton", "run.substeps=1", "newton.solver=cholmod",
                          "newton.cond=exact", set[0], set[1], set[2]};
    for (int i = 0; i < (int)(sizeof sets / sizeof sets[0]); i++)
        if (cloth_scene_set(&s, sets[i], i + 1, &err) != CLOTH_OK) {
            fprintf(stderr, "cond_bench: %s\n", err.msg);
            return 0;
        }
    if (cloth_sim_create(&s, &sim, &err) != CLOTH_OK) {
        fprintf(stderr, "cond_bench: %dx%d: %s\n", nx, ny, err.msg);
        return 0;
    }
    cloth_frame f;
    int ok = cloth_sim_frame(sim, &f, &err) == CLOTH_OK;
    cloth__newton_profile p0, p1;
    cloth__newton_profile_get(sim->work, &p0);
    for (int k = 0; k < FRAMES && ok; k++) {
        ok = cloth_sim_frame(sim, &f, &err) == CLOTH_OK;
        cond[k] = f.has_cond ? f.cond_max : NAN;
    }
    if (!ok)
        fprintf(stderr, "cond_bench: %dx%d: %s\n", nx, ny, err.msg);
    cloth__newton_profile_get(sim->work, &p1);
    *iters = p1.iterations - p0.iterations;
    *ms = *iters > 0 ? (p1.cond_ms - p0.cond_ms) / (double)*iters : NAN;
    cloth_sim_destroy(sim);
    return ok;
}

int main(void)
{
    static const int sizes[][2] = {{6, 6},   {8, 7},   {8, 8},   {9, 8},   {10, 8},
                                   {10, 9},  {11, 9},  {11, 10}, {12, 10}, {14, 12},
                                   {16, 14}, {18, 16}, {22, 18}, {30, 24}};
    printf("nx,ny,unknowns,iterations,dsyevd_ms,arpack_ms,dsyevd_over_arpack,cond_rel_diff\n");
    for (int g = 0; g < (int)(sizeof sizes / sizeof sizes[0]); g++) {
        int nx = sizes[g][0], ny = sizes[g][1];
        double ms_d, ms_a, c_d[FRAMES], c_a[FRAMES], diff = 0;
        long it_d, it_a;
        if (!run(nx, ny, 100000, &ms_d, &it_d, c_d) || !run(nx, ny, 0, &ms_a, &it_a, c_a))
            return 1;
        for (int k = 0; k < FRAMES; k++)
            diff = fmax(diff, fabs(c_a[k] - c_d[k]) / c_d[k]);
        printf("%d,%d,%d,%ld,%.4g,%.4g,%.3g,%.2g\n", nx, ny, 3 * (nx * ny - nx), it_d, ms_d,
               ms_a, ms_d / ms_a, diff);
        fflush(stdout);
    }
    return 0;
}
