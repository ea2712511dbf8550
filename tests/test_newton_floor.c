/* ARPACK's eigenvalue floor (newton_system.c, issue 45 item 6): the exact condition
 * number's lambda_min search starts from a lower bound of H's spectrum, min m/h^2 + c/h,
 * which holds while every spring's Hessian is projected.  With newton.spring_hessian =
 * adaptive switched on, a compressed spring's Hessian enters H as it is, indefinite
 * across the spring, and lambda_min falls below that bound; the floor must then drop.
 *
 * Two free vertices, one spring (k = 50 N/m, l0 = 0.1 m) compressed to l = 0.06 m along x,
 * m = 0.01 kg each, h = 0.01 s, no damping, no gravity, no contact: H = M I + [K -K; -K K],
 * M = m/h^2 = 100, K = k (u u^T + c (I - u u^T)), c = 1 - l0/l = -2/3.  [K -K; -K K] has
 * eigenvalues 0 (x_a = x_b, three translations), 2k = 100 (along the spring) and 2kc =
 * -66.67 (across it, twice), so
 *   projected   (c -> 0): lambda = 100 (x5), 200;  cond = 2;
 *   unprojected:         lambda = 33.33 (x2), 100 (x3), 200;  cond = 200/33.33 = 6.
 * The projected H comes first, so ARPACK keeps a bottom Ritz vector of its eigenvalue 100
 * (mostly a translation: its start vector is nearly all ones); with the floor left at 100
 * for the unprojected H that vector's Rayleigh quotient, about 100, passes as lambda_min
 * "at the floor" and cond comes out near 2, not 6. */
#include "kernels/newton/newton.h"
#include "kernels/newton/newton_potential.h"
#include "kernels/newton/newton_work.h"
#include "sim/sim.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>

static const char *scene_text =
    "[mesh]\nnx = 2\nny = 1\nspacing = 0.1\nplane = xz\nsprings = structural\npins = none\n"
    "[material]\nk_structural = 50\nvertex_mass = 0.01\nspring_damping = 0\n"
    "[world]\ngravity = 0 0 0\nair_damping = 0\n"
    "[run]\nkernel = newton\ndt = 0.01\n"
    "[newton]\nbarrier = none\ncond = exact\ncond_exact_max = 0\n";

/* cond of H assembled with the springs projected or not, at the compressed x */
static double cond_of(cloth__newton *w, cloth_sim *sim, int unprojected)
{
    w->spring_exact = unprojected;
    double grad[6];
    cloth__newton_potential(w, sim, cloth_sim_positions(sim), grad, 1, 0);
    ck_assert_int_eq(w->h_springs_exact, unprojected);
    cloth__newton_ctx ctx;
    cloth__newton_ctx_build(&ctx, sim, w->h);
    double cond;
    cloth_error err;
    ck_assert_msg(cloth__newton_system_cond(w, &ctx, &cond, &err) == CLOTH_OK, "%s", err.msg);
    return cond;
}

START_TEST(arpack_floor_drops_for_an_unprojected_compressed_spring)
{
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(scene_text, "floor.ini", &s, &err) == CLOTH_OK, "%s",
                  err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    cloth__newton *w = sim->work;
    ck_assert_int_eq(cloth__newton_ndof(w), 6);
    double *x = cloth_sim_positions(sim);
    for (int c = 0; c < 3; c++)
        x[3 + c] = x[c] + (c == 0 ? 0.06 : 0); /* l = 0.06 along x */
    cloth__newton_prepare(w, sim, 0.01);
    const double M = 0.01 / (0.01 * 0.01), k = 50, cc = 1 - 0.1 / 0.06;
    double projected = cond_of(w, sim, 0);
    ck_assert_msg(fabs(projected / ((M + 2 * k) / M) - 1) < 1e-5, "projected cond %.9g, not 2",
                  projected);
    double exact = cond_of(w, sim, 1);
    double want = (M + 2 * k) / (M + 2 * k * cc);
    ck_assert_msg(fabs(exact / want - 1) < 1e-5, "unprojected cond %.9g, not %.9g", exact,
                  want);
    cloth_sim_destroy(sim);
}
END_TEST

Suite *suite_newton_floor(void)
{
    Suite *s = suite_create("newton_floor");
    TCase *tc = tcase_create("floor");
    tcase_add_test(tc, arpack_floor_drops_for_an_unprojected_compressed_spring);
    suite_add_tcase(s, tc);
    return s;
}
