/* The robust collision stage (run.self_collision = on: the contact stage's robust phase,
 * sim/contact.h; Bridson, Fedkiw and Anderson 2002) for explicit, verlet, pbd, bw and pd
 * (issue 32).
 *
 * Flat sheet drop (experiments/flat_sheet_drop.ini, 30 frames instead of 60): two 5 x 5
 * sheets 3 cm apart, the lower pinned flat at y = 0.  With the vertex pairs (particles)
 * the upper sheet passes through between two frames (tunnelled > 0); with on no frame
 * has a tunnelled or crossing pair, and the upper sheet's vertices over the lower one end
 * at least a thickness above it, less one step's fall from rest: the stage's proximity
 * impulse acts on the distance at the step's start and lifts a pair within the thickness
 * back out by 0.1 of its overlap a step (Bridson 7.2), so a vertex resting on the sheet
 * sinks within a step at most by the kernel's proposal from rest, g h^2 (symplectic
 * Euler, Verlet and PBD all propose x + g h^2 for a vertex at rest).
 *
 * Jittered three-sheet drape (experiments/self_contact_drape3.ini as tests/
 * test_self_contact.c runs it for newton: mesh.jitter = 5 mm, seeds 1..10), 40 frames
 * instead of 60 (the sheets touch at frame 8 and lie folded over the sphere by 40), for
 * each projecting kernel at the figure's substeps: any frame with a crossing
 * (intersections) or a tunnelled pair fails, naming kernel, seed and frame, and so does
 * a vertex more than SPHERE_TOL inside the sphere's skin (radius + offset): the stage
 * treats the sphere as a collision object (terms/collide.h (d); before, its impulses
 * left 28-54 vertices up to 19 mm inside).  Cost
 * (2-core machine, one thread): about 1 s a run, 30 runs. */
#include "cloth.h"
#include "suites.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#define DROP "../experiments/flat_sheet_drop.ini"
#define DRAPE "../experiments/self_contact_drape3.ini"
#define DROP_FRAMES 30
#define DRAPE_FRAMES 40
#define SEEDS tu_seeds(10) /* make sanitize runs 3 (testutil.h) */
/* a vertex may end inside the sphere's skin by this much (m): the stage leaves moves
 * onto an obstacle shorter than 1e-9 of the thickness (5e-12 m here) undone, and the
 * projection's rounding is about 1e-16 m */
#define SPHERE_TOL 1e-9

static const struct {
    const char *kernel;
    int drop_substeps, drape_substeps;  /* the and the figure's */
} runs[] = {{"explicit", 20, 4}, {"verlet", 5, 2}, {"pbd", 4, 2},
            /* the implicit kernels at their own one step a frame on the drape */
            {"bw", 4, 1}, {"pd", 4, 1}};
#define N_RUNS ((int)(sizeof runs / sizeof runs[0]))

static cloth_sim *make_sim(const char *path, const char *const *sets, int n_sets,
                           cloth_scene *s)
{
    cloth_error err;
    ck_assert_msg(cloth_scene_load(path, s, &err) == CLOTH_OK, "%s", err.msg);
    for (int i = 0; i < n_sets; i++)
        ck_assert_msg(cloth_scene_set(s, sets[i], i + 1, &err) == CLOTH_OK, "%s: %s", sets[i],
                      err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    return sim;
}

START_TEST(flat_sheet_drop_particles_tunnel_on_does_not)
{
    const char *kernel = runs[_i].kernel;
    char k_set[64], sub_set[64];
    snprintf(k_set, sizeof k_set, "run.kernel=%s", kernel);
    snprintf(sub_set, sizeof sub_set, "run.substeps=%d", runs[_i].drop_substeps);
    for (int on = 0; on < 2; on++) {
        char frames_set[64];
        snprintf(frames_set, sizeof frames_set, "run.frames=%d", DROP_FRAMES);
        const char *sets[] = {k_set, sub_set, frames_set,
                              on ? "run.self_collision=on" : "run.self_collision=particles"};
        cloth_scene s;
        cloth_sim *sim = make_sim(DROP, sets, 4, &s);
        cloth_frame f;
        cloth_error err;
        long most = 0;
        for (int frame = 1; frame <= DROP_FRAMES; frame++) {
            ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s: %s", kernel, err.msg);
            most = f.tunnelled > most ? f.tunnelled : most;
            if (on)
                ck_assert_msg(f.tunnelled == 0 && f.intersections == 0,
                              "%s, on: frame %d: %ld tunnelled, %ld crossing pairs", kernel,
                              frame, f.tunnelled, f.intersections);
        }
        if (!on) {
            ck_assert_msg(most > 0, "%s, particles: nothing tunnelled", kernel);
        } else {
            /* the lower sheet: vertices 0..24 on [0, 0.4]^2 at y = 0 */
            const double *x = cloth_sim_positions(sim);
            double h = s.run.dt / s.run.substeps, g = 9.81, low = 1;
            int over = 0;
            for (int v = 25; v < 50; v++) {
                const double *p = x + 3 * v;
                if (p[0] < 0 || p[0] > 0.4 || p[2] < 0 || p[2] > 0.4)
                    continue;
                over++;
                low = p[1] < low ? p[1] : low;
            }
            ck_assert_int_gt(over, 0);
            ck_assert_msg(low >= s.material.thickness - g * h * h,
                          "%s, on: the upper sheet ends %g m above the lower one "
                          "(thickness %g, g h^2 %g)", kernel, low, s.material.thickness,
                          g * h * h);
        }
        cloth_sim_destroy(sim);
    }
}
END_TEST

START_TEST(jittered_drape_never_crosses)
{
    int r = _i / SEEDS, seed = 1 + _i % SEEDS;
    char k_set[64], sub_set[64], seed_set[64], frames_set[64];
    snprintf(k_set, sizeof k_set, "run.kernel=%s", runs[r].kernel);
    snprintf(sub_set, sizeof sub_set, "run.substeps=%d", runs[r].drape_substeps);
    snprintf(seed_set, sizeof seed_set, "run.seed=%d", seed);
    snprintf(frames_set, sizeof frames_set, "run.frames=%d", DRAPE_FRAMES);
    const char *sets[] = {k_set, sub_set, seed_set, frames_set, "mesh.jitter=0.005",
                          "run.self_collision=on"};
    cloth_scene s;
    cloth_sim *sim = make_sim(DRAPE, sets, 6, &s);
    cloth_frame f;
    cloth_error err;
    cloth_sim_measure(sim, &f);
    ck_assert_int_eq(f.intersections, 0);
    for (int frame = 1; frame <= DRAPE_FRAMES; frame++) {
        ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s, seed %d: frame %d: %s",
                      runs[r].kernel, seed, frame, err.msg);
        ck_assert_msg(f.intersections == 0 && f.tunnelled == 0,
                      "%s, seed %d: frame %d: %ld crossing pairs, %ld tunnelled",
                      runs[r].kernel, seed, frame, f.intersections, f.tunnelled);
        /* the stage keeps the sphere out (collide.h (d)): min_gap is the sphere's gap
         * here (no floor), |x - c| - radius - offset */
        ck_assert_msg(f.min_gap >= -SPHERE_TOL,
                      "%s, seed %d: frame %d: a vertex %g m inside the sphere's skin "
                      "(%d vertices)", runs[r].kernel, seed, frame, -f.min_gap,
                      f.penetrations);
    }
    cloth_sim_destroy(sim);
}
END_TEST

/* Bad input.  Two triangles: (0, 1, 2) flat in y = 0, and (3, 4, 5) in the plane x = 0.2
 * with its vertex 3 two millimetres above the first one's interior. */
static const char *write_scene(int slot, double thickness)
{
    static char paths[4][600];
    const char *dir = tu_temp_dir(slot);
    char path[600];
    snprintf(path, sizeof path, "%s/m.obj", dir);
    FILE *f = fopen(path, "w");
    ck_assert(f != NULL);
    fputs("v 0 0 0\nv 1 0 0\nv 0 0 1\nv 0.2 0.002 0.2\nv 0.2 1 0.2\nv 0.2 1 1.2\n"
          "f 1 2 3\nf 4 5 6\n", f);
    fclose(f);
    snprintf(paths[slot], sizeof paths[slot], "%s/bad.ini", dir);
    f = fopen(paths[slot], "w");
    ck_assert(f != NULL);
    fprintf(f, "[mesh]\nobj = m.obj\npins = none\n[material]\nthickness = %g\n"
               "[run]\nself_collision = on\n", thickness);
    fclose(f);
    return paths[slot];
}

static cloth_status create_kernel(const char *path, const char *kernel, cloth_error *err)
{
    cloth_scene s;
    ck_assert_msg(cloth_scene_load(path, &s, err) == CLOTH_OK, "%s", err->msg);
    char set[64];
    snprintf(set, sizeof set, "run.kernel=%s", kernel);
    ck_assert(cloth_scene_set(&s, set, 1, err) == CLOTH_OK);
    cloth_sim *sim = NULL;
    cloth_status st = cloth_sim_create(&s, &sim, err);
    cloth_sim_destroy(sim);
    return st;
}

/* on with a start pair closer than the thickness is refused naming the pair; with a
 * thickness below the pair's distance it is accepted; a thickness 0 is refused naming
 * the key's line. */
START_TEST(refuses_close_start_and_no_thickness)
{
    const char *kernel = runs[_i].kernel;
    cloth_error err;
    char want[1200];
    const char *close = write_scene(0, 0.005);
    ck_assert_int_eq(create_kernel(close, kernel, &err), CLOTH_EINVAL);
    snprintf(want, sizeof want, "%s: vertex 3 and triangle 0 (vertices 0 1 2) start 2 mm apart, "
             "closer than material.thickness = 5 mm (run.self_collision = on)", close);
    ck_assert_str_eq(err.msg, want);
    ck_assert_msg(create_kernel(write_scene(1, 0.001), kernel, &err) == CLOTH_OK, "%s: %s",
                  kernel, err.msg);
    const char *none = write_scene(2, 0);
    ck_assert_int_eq(create_kernel(none, kernel, &err), CLOTH_EINVAL);
    snprintf(want, sizeof want, "%s:5: material.thickness = 0: run.self_collision = on needs "
             "a thickness > 0", none);
    ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0, "%s", err.msg);
}
END_TEST

Suite *suite_collide_kernels(void)
{
    Suite *s = suite_create("collide_kernels");
    TCase *drop = tcase_create("flat_sheet_drop");
    /* 30 frames of 50 vertices, twice, per kernel: well under a second */
    tcase_set_timeout(drop, 30);
    tcase_add_loop_test(drop, flat_sheet_drop_particles_tunnel_on_does_not, 0, N_RUNS);
    suite_add_tcase(s, drop);
    TCase *bad = tcase_create("bad_input");
    tcase_add_loop_test(bad, refuses_close_start_and_no_thickness, 0, N_RUNS);
    suite_add_tcase(s, bad);
    TCase *drape = tcase_create("drape3_jittered");
    /* 40 frames of 192 vertices: about 1 s a run */
    tcase_set_timeout(drape, 60);
    tcase_add_loop_test(drape, jittered_drape_never_crosses, 0, N_RUNS * SEEDS);
    suite_add_tcase(s, drape);
    return s;
}
