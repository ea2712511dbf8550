/* The explicit kernel against closed forms: forward Euler's energy growth factor,
 * symplectic Euler's exact discrete invariant, the static hanging chain. */
#include "cloth.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>

/* One free vertex on one spring (k, m) below a pinned one, pulled down by prestretch e,
 * no gravity: a 1-D oscillator u'' = -omega^2 u with omega^2 = k/m, u = y - y_rest. */
static cloth_sim *oscillator(const char *scheme, double k, double m, double h)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 1\nny = 2\nspacing = 1\nprestretch = 0.2\nsprings = structural\n"
             "[material]\nk_structural = %.17g\nvertex_mass = %.17g\n"
             "[world]\ngravity = 0 0 0\n"
             "[run]\ndt = %.17g\nsubsteps = 1\n[explicit]\nscheme = %s\n",
             k, m, h, scheme);
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(text, "osc.ini", &s, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    return sim;
}

/* Forward Euler: omega^2 u'^2 + v'^2 = (1 + h^2 omega^2)(omega^2 u^2 + v^2), so the energy
 * grows by exactly 1 + h^2 k/m at every step. */
START_TEST(forward_euler_gains_energy_by_the_closed_form_factor)
{
    double k = 50, m = 0.5, h = 0.01, factor = 1 + h * h * k / m;
    cloth_sim *sim = oscillator("forward", k, m, h);
    cloth_frame f;
    cloth_error err;
    cloth_sim_measure(sim, &f);
    double previous = f.total;
    for (int step = 0; step < 200; step++) {
        ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
        ck_assert_double_eq_tol(f.total / previous, factor, 1e-10);
        previous = f.total;
    }
    cloth_sim_destroy(sim);
}
END_TEST

/* Symplectic Euler (v first) conserves Q = omega^2 u^2 + v^2 - h omega^2 u v exactly, so
 * E = m/2 (omega^2 u^2 + v^2) stays within Q m/2 / (1 +- h omega / 2): bounded, no trend. */
START_TEST(symplectic_euler_keeps_energy_bounded_without_trend)
{
    double k = 50, m = 0.5, h = 0.01, w2 = k / m, w = sqrt(w2);
    cloth_sim *sim = oscillator("symplectic", k, m, h);
    const double *x = cloth_sim_positions(sim), *v = cloth_sim_velocities(sim);
    cloth_frame f;
    cloth_error err;
    double u = x[4] + 1, Q0 = w2 * u * u + v[4] * v[4] - h * w2 * u * v[4];
    int period_steps = (int)(2 * M_PI / w / h), periods = 200;
    double first = 0, last = 0;
    for (int step = 1; step <= periods * period_steps; step++) {
        ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
        u = x[4] + 1;
        double Q = w2 * u * u + v[4] * v[4] - h * w2 * u * v[4];
        ck_assert_double_eq_tol(Q / Q0, 1.0, 1e-9);
        double E = f.total / (0.5 * m);
        ck_assert(E >= Q0 / (1 + h * w / 2) * (1 - 1e-12));
        ck_assert(E <= Q0 / (1 - h * w / 2) * (1 + 1e-12));
        if (step <= 10 * period_steps)
            first += E;
        if (step > (periods - 10) * period_steps)
            last += E;
    }
    /* means over the first and last ten periods agree: no trend */
    ck_assert_double_eq_tol(first / last, 1.0, 1e-3);
    cloth_sim_destroy(sim);
}
END_TEST

/* The linear oscillator u'' = -w^2 u (z = w h) under two second- and fourth-order schemes,
 * against their exact discrete maps:
 *   velocity Verlet: u' = (1 - z^2/2) u + h v,  v' = v - h w^2 (u + u')/2
 *   RK4: (u', v') = P (u, v) + h Q (v, -w^2 u),  P = 1 - z^2/2 + z^4/24,  Q = 1 - z^2/6 */
static void discrete_step(int rk4, double w2, double h, double *u, double *v)
{
    double z2 = w2 * h * h;
    if (rk4) {
        double P = 1 - z2 / 2 + z2 * z2 / 24, Q = 1 - z2 / 6;
        double un = P * *u + h * Q * *v, vn = P * *v - h * Q * w2 * *u;
        *u = un;
        *v = vn;
    } else {
        double un = (1 - z2 / 2) * *u + h * *v;
        *v -= h * w2 * (*u + un) / 2;
        *u = un;
    }
}

START_TEST(velocity_verlet_and_rk4_follow_their_discrete_maps)
{
    int rk4 = _i;
    double k = 50, m = 0.5, h = 0.01, w2 = k / m;
    cloth_sim *sim = oscillator(rk4 ? "rk4" : "velocity-verlet", k, m, h);
    const double *x = cloth_sim_positions(sim), *v = cloth_sim_velocities(sim);
    double u = x[4] + 1, vel = v[4], scale = fabs(u);
    cloth_frame f;
    cloth_error err;
    for (int step = 1; step <= 500; step++) {
        ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
        discrete_step(rk4, w2, h, &u, &vel);
        ck_assert_msg(fabs(x[4] + 1 - u) <= 1e-11 * scale, "step %d: u %.17g, map %.17g", step,
                      x[4] + 1, u);
        ck_assert(fabs(v[4] - vel) <= 1e-11 * scale * sqrt(w2));
    }
    cloth_sim_destroy(sim);
}
END_TEST

/* Their order: the error at t = 1 s against u0 cos(w t) falls by 2^2 (velocity Verlet) or
 * 2^4 (RK4) when h halves. */
START_TEST(velocity_verlet_is_second_order_and_rk4_fourth)
{
    int rk4 = _i;
    double k = 50, m = 0.5, w = sqrt(k / m), error[2];
    for (int half = 0; half < 2; half++) {
        double h = half ? 0.005 : 0.01;
        cloth_sim *sim = oscillator(rk4 ? "rk4" : "velocity-verlet", k, m, h);
        const double *x = cloth_sim_positions(sim);
        double u0 = x[4] + 1;
        cloth_frame f;
        cloth_error err;
        for (int step = 0; step < (int)lround(1 / h); step++)
            ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
        error[half] = fabs(x[4] + 1 - u0 * cos(w * 1.0));
        cloth_sim_destroy(sim);
    }
    double ratio = error[0] / error[1], want = rk4 ? 16 : 4;
    ck_assert_msg(fabs(ratio / want - 1) < 0.1, "error ratio %g (%g, %g), expected %g", ratio,
                  error[0], error[1], want);
}
END_TEST

/* A chain of N free nodes hanging from a pinned one: at rest spring j (counted from the
 * bottom) carries j m g, so it is stretched by j m g / k, and the whole chain by
 * m g N (N + 1) / (2k). */
START_TEST(damped_hanging_chain_settles_to_the_static_extension)
{
    int N = 5;
    double m = 0.1, k = 100, g = 9.81, s = 0.1;
    char text[1024];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 1\nny = %d\nspacing = %g\nsprings = structural\n"
             "[material]\nk_structural = %g\nvertex_mass = %g\n"
             "[world]\nair_damping = 0.3\n"
             "[run]\ndt = 0.01\nsubsteps = 10\n",
             N + 1, s, k, m);
    cloth_scene sc;
    cloth_error err;
    ck_assert(cloth_scene_parse(text, "chain.ini", &sc, &err) == CLOTH_OK);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&sc, &sim, &err) == CLOTH_OK, "%s", err.msg);
    cloth_frame f;
    for (int frame = 0; frame < 2000; frame++)
        ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
    const double *x = cloth_sim_positions(sim);
    double extension = -(x[3 * N + 1] + N * s);
    ck_assert_double_eq_tol(extension, m * g * N * (N + 1) / (2 * k),
                            1e-6 * m * g * N * (N + 1) / (2 * k));
    for (int j = 1; j <= N; j++) { /* spring between vertices N-j and N-j+1 */
        double l = x[3 * (N - j) + 1] - x[3 * (N - j + 1) + 1];
        ck_assert_double_eq_tol(l - s, j * m * g / k, 1e-6 * j * m * g / k);
    }
    cloth_sim_destroy(sim);
}
END_TEST

/* A vertex started inside the sphere ends outside radius + offset after one step, and
 * pinned vertices do not move. */
START_TEST(sphere_pushes_vertices_out_and_pins_hold)
{
    const char *text = "[mesh]\nnx = 4\nny = 4\nspacing = 0.2\nplane = xz\npins = 0\n"
                       "[sphere]\ncenter = 0.3 0 0.3\nradius = 0.2\noffset = 0.05\n"
                       "[run]\ndt = 0.01\n";
    cloth_scene sc;
    cloth_error err;
    ck_assert(cloth_scene_parse(text, "sphere.ini", &sc, &err) == CLOTH_OK);
    cloth_sim *sim;
    ck_assert(cloth_sim_create(&sc, &sim, &err) == CLOTH_OK);
    cloth_frame f;
    ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
    const double *x = cloth_sim_positions(sim);
    for (int i = 1; i < 16; i++) {
        const double *p = x + 3 * i;
        double r = sqrt((p[0] - 0.3) * (p[0] - 0.3) + p[1] * p[1] + (p[2] - 0.3) * (p[2] - 0.3));
        ck_assert(r >= 0.25 * (1 - 1e-12));
    }
    ck_assert(x[0] == 0 && x[1] == 0 && x[2] == 0);
    ck_assert_int_eq(f.penetrations, 0);
    cloth_sim_destroy(sim);
}
END_TEST

Suite *suite_explicit(void)
{
    Suite *s = suite_create("explicit");
    TCase *tc = tcase_create("closed forms");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, forward_euler_gains_energy_by_the_closed_form_factor);
    tcase_add_test(tc, symplectic_euler_keeps_energy_bounded_without_trend);
    tcase_add_loop_test(tc, velocity_verlet_and_rk4_follow_their_discrete_maps, 0, 2);
    tcase_add_loop_test(tc, velocity_verlet_is_second_order_and_rk4_fourth, 0, 2);
    tcase_add_test(tc, damped_hanging_chain_settles_to_the_static_extension);
    tcase_add_test(tc, sphere_pushes_vertices_out_and_pins_hold);
    suite_add_tcase(s, tc);
    return s;
}
