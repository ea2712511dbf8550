/* The newton kernel's Hessian of compressed springs (issue 31): newton.spring_hessian =
 * project clamps the negative part k (1 - l0/l)(I - u u^T) of a compressed spring's
 * Hessian at 0, which along a fold overstates E's curvature and makes Newton creep;
 * adaptive keeps it once a full step shows the model's error, whenever H stays positive
 * definite.  On one vertex between two compressed springs both rules are worked out
 * here in closed form and the kernel must follow them. */
#include "cloth.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Three vertices 10 cm apart along x (springs of rest length l0 = 0.1, k = 50), the two
 * ends pinned and moved 5 mm inwards before the first step (x = +-a about the middle,
 * a = 0.095), the middle one lifted to y0 = 1 mm out of the line, at rest, no gravity,
 * no damping.  By symmetry only y moves, and a step minimises
 *   E(y) = M/2 (y - y0)^2 + k (l - l0)^2,  l = sqrt(a^2 + y^2),  M = m/h^2 = 6,
 * E'(y)  = M (y - y0) + 2 k (l - l0) y / l,
 * E''(y) = M + 2 k (y^2/l^2 + c a^2/l^2),  c = 1 - l0/l < 0 while compressed.
 * project takes c+ = max(c, 0): E'' ~ M + 2k y^2/l^2 ~ 6 against a true 0.74 at y0, so
 * each step covers about a tenth of the way and the step needs 56 iterations to reach
 * |dy|/h < tol L (tol 1e-6, L = 0.2 the rest diagonal), more than max_iters = 50.  The
 * unprojected H stays positive definite along the path (its smallest eigenvalue, across
 * both springs, M + 2 k c >= 6 - 5.26 > 0), so adaptive takes one projected step, sees
 * its decrease exceed 1.5 times the model's prediction (the model's curvature is 8 times
 * E''), and goes on by Newton's method on E itself. */
static const char *fold_scene =
    "[mesh]\nnx = 3\nny = 1\nspacing = 0.1\nplane = xz\nsprings = structural\npins = 0 2\n"
    "[material]\nk_structural = 50\nvertex_mass = 0.0006\nspring_damping = 0\n"
    "[world]\ngravity = 0 0 0\nair_damping = 0\n"
    "[run]\nkernel = newton\ndt = 0.01\n"
    "[newton]\ntol = 1e-6\nmax_iters = 50\ncond = off\n";

#define K 50.0
#define L0 0.1
#define A 0.095
#define Y0 0.001
#define M (0.0006 / (0.01 * 0.01))
#define H 0.01
#define TOL (1e-6 * 0.2)

static double fold_energy(double y)
{
    double l = hypot(A, y);
    return 0.5 * M * (y - Y0) * (y - Y0) + K * (l - L0) * (l - L0);
}

static double fold_gradient(double y)
{
    double l = hypot(A, y);
    return M * (y - Y0) + 2 * K * (l - L0) * y / l;
}

static double fold_curvature(double y, int projected)
{
    double l = hypot(A, y), c = 1 - L0 / l;
    if (projected && c < 0)
        c = 0;
    return M + 2 * K * (y * y + c * A * A) / (l * l);
}

/* Newton's method on E(y) with Armijo backtracking (c = 1e-4, halving) as the kernel
 * runs it, the curvature projected for the first `projected` iterations; the number of
 * iterations to |dy|/h < tol (or `cap`), the last y in *y. */
static int fold_newton(int projected, int cap, double *y)
{
    *y = Y0;
    for (int it = 1; it <= cap; it++) {
        double g = fold_gradient(*y), d = -g / fold_curvature(*y, it <= projected), alpha = 1;
        while (fold_energy(*y + alpha * d) > fold_energy(*y) + 1e-4 * alpha * g * d)
            alpha *= 0.5;
        *y += alpha * d;
        if (fabs(d) / H < TOL)
            return it;
    }
    return cap + 1;
}

static cloth_sim *fold_sim(const char *rule)
{
    char text[1024];
    snprintf(text, sizeof text, "%sspring_hessian = %s\n", fold_scene, rule);
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(text, "newton_springs_test.ini", &s, &err) == CLOTH_OK,
                  "%s", err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    double *x = cloth_sim_positions(sim);
    x[0] += L0 - A;         /* vertex 0 at x = 0.005 */
    x[6] -= L0 - A;         /* vertex 2 at x = 0.195 */
    x[3 + 1] += Y0;         /* the middle one 1 mm out of the line */
    return sim;
}

START_TEST(projected_springs_creep_past_max_iters)
{
    double y;
    ck_assert_int_gt(fold_newton(50, 50, &y), 50); /* the closed form's count */
    cloth_sim *sim = fold_sim("project");
    cloth_frame f;
    cloth_error err;
    ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
    const cloth_newton_iter *rows;
    int n = cloth_sim_newton_log(sim, &rows);
    ck_assert_int_eq(n, 50);
    ck_assert_int_eq(f.not_converged, 1);
    ck_assert_str_eq(rows[n - 1].stop, "max_iters");
    cloth_sim_destroy(sim);
}
END_TEST

START_TEST(adaptive_springs_converge_at_newtons_rate)
{
    double want;
    int iters = fold_newton(1, 50, &want); /* one projected step, then Newton on E */
    ck_assert_int_le(iters, 8);
    cloth_sim *sim = fold_sim("adaptive");
    const double *x = cloth_sim_positions(sim);
    cloth_frame f;
    cloth_error err;
    ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
    const cloth_newton_iter *rows;
    int n = cloth_sim_newton_log(sim, &rows);
    ck_assert_int_eq(f.not_converged, 0);
    ck_assert_str_eq(rows[n - 1].stop, "converged");
    ck_assert_msg(n <= iters + 1, "%d iterations, the closed form's Newton %d", n, iters);
    /* E at the step's start is the springs' alone: 2 x 1/2 k (l - l0)^2 */
    double e0 = fold_energy(Y0);
    ck_assert_msg(fabs(rows[0].energy - e0) <= 1e-12 * e0, "E %.17g, closed form %.17g",
                  rows[0].energy, e0);
    for (int r = 1; r < n; r++)
        ck_assert_msg(rows[r].energy <= rows[r - 1].energy, "row %d: E %.17g after %.17g",
                      r, rows[r].energy, rows[r - 1].energy);
    /* the step ends at E's minimiser: E'(y) = 0 to the tolerance, and only y moved */
    ck_assert_msg(fabs(x[3 + 1] - want) <= 10 * TOL * H, "y %.17g, closed form %.17g",
                  x[3 + 1], want);
    ck_assert_msg(fabs(fold_gradient(x[3 + 1])) <= fold_curvature(want, 0) * 10 * TOL * H,
                  "E'(y) = %g", fold_gradient(x[3 + 1]));
    ck_assert(fabs(x[3] - L0) <= 1e-12 && fabs(x[3 + 2]) <= 1e-12);
    cloth_sim_destroy(sim);
}
END_TEST

START_TEST(spring_hessian_refuses_an_unknown_rule)
{
    const char *text = "[run]\nkernel = newton\n[newton]\nspring_hessian = exact\n";
    cloth_scene s;
    cloth_error err;
    ck_assert(cloth_scene_parse(text, "bad.ini", &s, &err) != CLOTH_OK);
    ck_assert_msg(strstr(err.msg, "bad.ini:4") && strstr(err.msg, "adaptive, project"), "%s",
                  err.msg);
}
END_TEST

Suite *suite_newton_springs(void)
{
    Suite *s = suite_create("newton_springs");
    TCase *tc = tcase_create("springs");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, projected_springs_creep_past_max_iters);
    tcase_add_test(tc, adaptive_springs_converge_at_newtons_rate);
    tcase_add_test(tc, spring_hessian_refuses_an_unknown_rule);
    suite_add_tcase(s, tc);
    return s;
}
