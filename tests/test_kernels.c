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

static void frames(cloth_sim *sim, int n)
{
    cloth_frame f;
    cloth_error err;
    for (int i = 0; i < n; i++)
        ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
}

/* A cloth at its rest shape with no gravity and no wind is in equilibrium: nothing
 * moves. */
START_TEST(rest_shape_without_forces_stays_put)
{
    cloth_sim *sim = cloth_for(_i, "pins = none\n[world]\ngravity = 0 0 0");
    frames(sim, 20);
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
    frames(sim, n);
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
    frames(a, 15);
    frames(b, 15);
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

/* No kernel has cloth-cloth contact yet: in experiments/two_sheets.ini the upper sheet
 * falls through the lower one, which sags from its corners.  The intersection metric must
 * see it: no crossing at frame 0 (the sheets are 3 cm apart), crossings in some frame. */
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
    suite_add_tcase(s, tc);
    return s;
}
