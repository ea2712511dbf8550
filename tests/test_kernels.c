/* Properties every kernel in the ops table must have (STYLE 11): each test loops over
 * cloth_kernel_count(), so a new kernel is tested by adding its table line. */
#include "cloth.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A 6 x 5 cloth with the kernel's own defaults, air off, undamped Verlet. */
static cloth_sim *cloth_for(int kernel, const char *extra)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 6\nny = 5\nspacing = 0.1\n%s\n"
             "[world]\nair_density = 0\n[run]\nkernel = %s\ndt = 0.002\n"
             "[verlet]\ndamping = 1\n",
             extra, cloth_kernel_name(kernel));
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(text, "kernels.ini", &s, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s: %s",
                  cloth_kernel_name(kernel), err.msg);
    return sim;
}

/* A cloth at its rest shape with no gravity and no wind is in equilibrium: nothing
 * moves. */
START_TEST(rest_shape_without_forces_stays_put)
{
    cloth_sim *sim = cloth_for(_i, "pins = none\n[world]\ngravity = 0 0 0");
    tu_frames(sim, 20);
    const double *x = cloth_sim_positions(sim);
    const cloth_mesh *m = cloth_sim_mesh(sim);
    for (int i = 0; i < 3 * m->n; i++)
        ck_assert_msg(fabs(x[i] - m->x0[i]) <= 1e-12, "%s: coordinate %d moved by %g",
                      cloth_kernel_name(_i), i, x[i] - m->x0[i]);
    cloth_sim_destroy(sim);
}
END_TEST

/* An unpinned, unstretched cloth falls as a rigid body: no spring changes length, and
 * after n steps of h its centroid has fallen between g h^2 n(n-1)/2 (forward Euler) and
 * g h^2 n(n+1)/2 (symplectic Euler, Verlet, PBD, implicit Euler). */
START_TEST(free_fall_is_rigid)
{
    cloth_sim *sim = cloth_for(_i, "pins = none");
    int n = 40;
    tu_frames(sim, n);
    cloth_frame f;
    cloth_sim_measure(sim, &f);
    ck_assert_msg(fabs(f.stretch_max) < 1e-9, "%s: stretch %g", cloth_kernel_name(_i),
                  f.stretch_max);
    const double *x = cloth_sim_positions(sim);
    const cloth_mesh *m = cloth_sim_mesh(sim);
    double fall = 0, h = 0.002, g = 9.81;
    for (int i = 0; i < m->n; i++)
        fall += (m->x0[3 * i + 1] - x[3 * i + 1]) / m->n;
    ck_assert_msg(fall >= g * h * h * n * (n - 1) / 2 * (1 - 1e-9) &&
                      fall <= g * h * h * n * (n + 1) / 2 * (1 + 1e-9),
                  "%s: fell %g", cloth_kernel_name(_i), fall);
    cloth_sim_destroy(sim);
}
END_TEST

/* Pinned vertices stay exactly where they were put, and two sims of the same scene
 * agree bit for bit. */
START_TEST(pins_hold_and_runs_repeat)
{
    cloth_sim *a = cloth_for(_i, "pins = top-corners\n[world]\nwind = 1 0 2\nturbulence = 0.5");
    cloth_sim *b = cloth_for(_i, "pins = top-corners\n[world]\nwind = 1 0 2\nturbulence = 0.5");
    tu_frames(a, 15);
    tu_frames(b, 15);
    const double *xa = cloth_sim_positions(a), *xb = cloth_sim_positions(b);
    const cloth_mesh *m = cloth_sim_mesh(a);
    ck_assert(memcmp(xa, xb, sizeof(double) * 3 * (size_t)m->n) == 0);
    for (int i = 0; i < m->n; i++)
        if (m->pinned[i])
            ck_assert(memcmp(xa + 3 * i, m->x0 + 3 * i, 3 * sizeof(double)) == 0);
    ck_assert(xa[3 * (m->n - 1) + 1] < m->x0[3 * (m->n - 1) + 1]); /* the rest moved */
    cloth_sim_destroy(a);
    cloth_sim_destroy(b);
}
END_TEST

/* With run.self_collision off (the scene's default) nothing keeps the sheets apart: in
 * experiments/two_sheets.ini the upper sheet falls through the lower one, which sags
 * from its corners.  The intersection metric must see it: no crossing at frame 0 (the
 * sheets are 3 cm apart), crossings in some frame. */
START_TEST(sheets_passing_through_each_other_show_intersections)
{
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_load("../experiments/two_sheets.ini", &s, &err) == CLOTH_OK, "%s",
                  err.msg);
    char set[64];
    snprintf(set, sizeof set, "run.kernel=%s", cloth_kernel_name(_i));
    ck_assert(cloth_scene_set(&s, set, 1, &err) == CLOTH_OK);
    ck_assert(cloth_scene_set(&s, "newton.cond=off", 2, &err) == CLOTH_OK);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    cloth_frame f;
    cloth_sim_measure(sim, &f);
    ck_assert_int_eq(f.intersections, 0);
    long most = 0;
    for (int i = 0; i < s.run.frames; i++) {
        ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
        most = f.intersections > most ? f.intersections : most;
    }
    ck_assert_msg(most > 0, "%s: the sheets passed through each other unseen",
                  cloth_kernel_name(_i));
    cloth_sim_destroy(sim);
}
END_TEST

/* What the kernel table says of a kernel holds of it: its keys exist and take values,
 * its condition numbers come and go as it says, its dense limit refuses a larger mesh. */
START_TEST(facts_match_the_kernel)
{
    cloth_kernel_facts f;
    ck_assert_int_eq(cloth_kernel_info(_i, &f), CLOTH_OK);
    ck_assert_str_eq(f.name, cloth_kernel_name(_i));
    ck_assert_str_eq(f.summary, cloth_kernel_summary(_i));
    ck_assert_int_eq(cloth_kernel_find(f.name), _i);
    ck_assert_int_ge(f.frame_substeps, 1);
    ck_assert(f.interactive_max >= 0 && f.dense_max >= 0);
    if (f.dense_max > 0)
        ck_assert(f.interactive_max > 0 && f.interactive_max <= f.dense_max);

    cloth_scene s;
    cloth_error err;
    char a[128], value[64];
    cloth_default_scene(&s);
    if (f.iteration_key) {
        snprintf(a, sizeof a, "%s.%s", f.name, f.iteration_key);
        ck_assert_msg(cloth_scene_get(&s, a, value, sizeof value, &err) == CLOTH_OK, "%s",
                      err.msg);
        snprintf(a, sizeof a, "%s.%s=3", f.name, f.iteration_key);
        ck_assert_msg(cloth_scene_set(&s, a, 1, &err) == CLOTH_OK, "%s", err.msg);
    }
    if (f.stiffness_key) {
        ck_assert(f.stiffness_max > 0);
        snprintf(a, sizeof a, "%s.%s=%.17g", f.name, f.stiffness_key, f.stiffness_max);
        ck_assert_msg(cloth_scene_set(&s, a, 1, &err) == CLOTH_OK, "%s", err.msg);
    }
    ck_assert(!f.cond_off || f.reports_cond);
    if (f.interactive_set) { /* a key of its own that a viewer may set */
        ck_assert(f.interactive_max > 0);
        snprintf(a, sizeof a, "%s.%s", f.name, f.interactive_set);
        ck_assert_msg(cloth_scene_set(&s, a, 1, &err) == CLOTH_OK, "%s", err.msg);
    }

    cloth_sim *sim = cloth_for(_i, "pins = top-row");
    cloth_frame fr;
    ck_assert_msg(cloth_sim_frame(sim, &fr, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_int_eq(fr.has_cond, f.reports_cond);
    if (f.cond_off) {
        snprintf(a, sizeof a, "%s.%s", f.name, f.cond_off);
        ck_assert_msg(cloth_sim_set(sim, a, &err) == CLOTH_OK, "%s", err.msg);
        ck_assert_msg(cloth_sim_frame(sim, &fr, &err) == CLOTH_OK, "%s", err.msg);
        ck_assert_int_eq(fr.has_cond, 0);
    }
    cloth_sim_destroy(sim);

    if (f.dense_max > 0) { /* n free vertices just past the limit: refused, no 300 MB */
        int n = f.dense_max / 3 + 1, nx = (int)ceil(sqrt(n));
        snprintf(a, sizeof a, "run.kernel=%s", f.name);
        ck_assert(cloth_scene_set(&s, a, 1, &err) == CLOTH_OK);
        snprintf(a, sizeof a, "mesh.nx=%d", nx);
        ck_assert(cloth_scene_set(&s, a, 2, &err) == CLOTH_OK);
        snprintf(a, sizeof a, "mesh.ny=%d", (n + nx - 1) / nx);
        ck_assert(cloth_scene_set(&s, a, 3, &err) == CLOTH_OK);
        ck_assert(cloth_scene_set(&s, "mesh.pins=none", 4, &err) == CLOTH_OK);
        ck_assert(cloth_sim_create(&s, &sim, &err) == CLOTH_EINVAL);
    }
}
END_TEST

/* Past the table there is nothing, and the CLI prints a row a kernel. */
START_TEST(facts_past_the_end_and_in_the_cli)
{
    cloth_kernel_facts f;
    ck_assert_int_eq(cloth_kernel_info(cloth_kernel_count(), &f), CLOTH_EINVAL);
    ck_assert_int_eq(cloth_kernel_info(-1, &f), CLOTH_EINVAL);
    ck_assert_int_eq(cloth_kernel_find("no-such-kernel"), -1);
    ck_assert_int_eq(cloth_kernel_find(NULL), -1);
    char out[4096];
    ck_assert_int_eq(tu_run_cli("list --kernels", out, sizeof out), 0);
    const char *line = strchr(out, '\n');
    ck_assert(strncmp(out, "name,interactive_max,", 21) == 0 && line);
    for (int k = 0; k < cloth_kernel_count(); k++) {
        char row[128];
        cloth_kernel_info(k, &f);
        snprintf(row, sizeof row, "%s,%d,%d,", f.name, f.interactive_max, f.dense_max);
        ck_assert_msg(strncmp(line + 1, row, strlen(row)) == 0, "row %d: %.60s", k, line + 1);
        line = strchr(line + 1, '\n');
        ck_assert(line);
    }
    ck_assert_str_eq(line, "\n");
}
END_TEST

Suite *suite_kernels(void)
{
    Suite *s = suite_create("kernels");
    TCase *tc = tcase_create("every kernel");
    tcase_set_timeout(tc, 60);
    int n = cloth_kernel_count();
    tcase_add_loop_test(tc, rest_shape_without_forces_stays_put, 0, n);
    tcase_add_loop_test(tc, free_fall_is_rigid, 0, n);
    tcase_add_loop_test(tc, pins_hold_and_runs_repeat, 0, n);
    tcase_add_loop_test(tc, sheets_passing_through_each_other_show_intersections, 0, n);
    tcase_add_loop_test(tc, facts_match_the_kernel, 0, n);
    tcase_add_test(tc, facts_past_the_end_and_in_the_cli);
    suite_add_tcase(s, tc);
    return s;
}
