/* omega_max from LAPACKE against the chain's closed form, and the step bound it gives
 * against the explicit kernel. */
#include "cloth.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>

static cloth_sim *chain(int N, double k, double m, double h, double prestretch)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 1\nny = %d\nspacing = 0.1\nsprings = structural\nprestretch = %g\n"
             "[material]\nk_structural = %g\nvertex_mass = %g\n"
             "[world]\ngravity = 0 0 0\n[run]\ndt = %.17g\nblowup_limit = 100\n",
             N + 1, prestretch, k, m, h);
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(text, "chain.ini", &s, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    return sim;
}

/* A chain of N free vertices below a pinned one: M^-1 K = (k/m) T, T tridiagonal
 * (-1, 2, -1) with a 1 in the last corner (the free end), eigenvalues
 * 4 sin^2((2j - 1) pi / (2 (2N + 1))), j = 1..N. */
START_TEST(chain_omega_max_matches_the_closed_form)
{
    int N = 3 + 5 * _i;
    double k = 100, m = 0.05;
    cloth_sim *sim = chain(N, k, m, 0.001, 0);
    double w, expect = sqrt(k / m) * 2 * sin((2 * N - 1) * M_PI / (2.0 * (2 * N + 1)));
    cloth_error err;
    ck_assert_msg(cloth_sim_omega_max(sim, &w, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_double_eq_tol(w, expect, 1e-10 * expect);
    cloth_sim_destroy(sim);
}
END_TEST

/* Symplectic Euler on the (linear, axial) chain is stable below 2/omega_max and blows
 * up above it: 2 % on either side decides within 3000 steps. */
START_TEST(symplectic_euler_is_stable_exactly_below_two_over_omega_max)
{
    int N = 8;
    double k = 100, m = 0.05, w;
    cloth_error err;
    cloth_sim *probe = chain(N, k, m, 0.001, 0.01);
    ck_assert(cloth_sim_omega_max(probe, &w, &err) == CLOTH_OK);
    cloth_sim_destroy(probe);
    double factor[2] = {0.98, 1.02};
    for (int c = 0; c < 2; c++) {
        cloth_sim *sim = chain(N, k, m, factor[c] * 2 / w, 0.01);
        cloth_frame f;
        int diverged = 0;
        for (int step = 0; step < 3000 && !diverged; step++)
            diverged = cloth_sim_frame(sim, &f, &err) != CLOTH_OK;
        ck_assert_int_eq(diverged, c == 1);
        cloth_sim_destroy(sim);
    }
}
END_TEST

Suite *suite_modes(void)
{
    Suite *s = suite_create("modes");
    TCase *tc = tcase_create("omega_max");
    tcase_add_loop_test(tc, chain_omega_max_matches_the_closed_form, 0, 4);
    tcase_add_test(tc, symplectic_euler_is_stable_exactly_below_two_over_omega_max);
    suite_add_tcase(s, tc);
    return s;
}
