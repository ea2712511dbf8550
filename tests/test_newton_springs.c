/* The newton kernel's Hessian of compressed springs (issue 31): newton.spring_hessian =
 * project clamps the negative part k (1 - l0/l)(I - u u^T) of a compressed spring's
 * Hessian at 0, which along a fold overstates E's curvature and makes Newton creep;
 * adaptive keeps it once a full step shows the model's error (shifting H by a multiple
 * of I when it is then indefinite).  On one vertex between two compressed springs both
 * rules are worked out here in closed form and the kernel must follow them. */
#include "cloth.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Three vertices 10 cm apart along x (springs of rest length l0 = 0.1, k = 50), the two
 * ends pinned and moved 5 mm inwards before the first step (x = +-a about the middle,
 * a = 0.095), the middle one lifted to y0 = 1 mm out of the line, at rest, no gravity,
 * no damping.  By symmetry only y moves (H of the middle vertex is diagonal: the two
 * springs' x-y terms cancel), and a step minimises
 *   E(y) = M/2 (y - y0)^2 + k (l - l0)^2,  l = sqrt(a^2 + y^2),  M = m/h^2,
 * E'(y)  = M (y - y0) + 2 k (l - l0) y / l,
 * E''(y) = M + 2 k (y^2/l^2 + c a^2/l^2),  c = 1 - l0/l < 0 while compressed,
 * and H's z-z entry is M + 2 k c (both springs wholly across z).  project takes
 * c+ = max(c, 0): E'' ~ M + 2k y^2/l^2 ~ M, several times E'' itself near y0, so each step
 * covers a fraction of the way.  The step converges when |dy|/h < tol L (tol 1e-6,
 * L = 0.2 the rest diagonal); max_iters = 50.  Two masses:
 *   - m = 6e-4 (M = 6): the unprojected H is positive definite along the path (its
 *     smallest entry M + 2 k c >= 6 - 5.26 > 0); project needs 56 iterations.
 *   - m = 5.2e-4 (M = 5.2): at y0, E'' = -0.05 and M + 2kc = -0.06, so H is indefinite
 *     there; adaptive shifts it by tau = 0.01 or 0.1 times 4 k (l0/l - 1) (the middle
 *     vertex's two springs, the Gershgorin bound of what projection adds), the first
 *     that makes both entries positive, or falls back to the projected curvature; project
 *     needs 51 iterations.
 * adaptive takes one projected step first: its decrease exceeds 1.5 times the model's
 * prediction (the model's curvature is many times E''), and the rest is Newton's method
 * on E, shifted where it must be. */
static const char *fold_scene =
    "[mesh]\nnx = 3\nny = 1\nspacing = 0.1\nplane = xz\nsprings = structural\npins = 0 2\n"
    "[material]\nk_structural = 50\nvertex_mass = %g\nspring_damping = 0\n"
    "[world]\ngravity = 0 0 0\nair_damping = 0\n"
    "[run]\nkernel = newton\ndt = 0.01\n"
    "[newton]\ntol = 1e-6\nmax_iters = 50\ncond = off\nspring_hessian = %s\n";

#define K 50.0
#define L0 0.1
#define A 0.095
#define Y0 0.001
#define H 0.01
#define TOL (1e-6 * 0.2)

static const double masses[2] = {6e-4, 5.2e-4};

static double fold_energy(double M, double y)
{
    double l = hypot(A, y);
    return 0.5 * M * (y - Y0) * (y - Y0) + K * (l - L0) * (l - L0);
}

static double fold_gradient(double M, double y)
{
    double l = hypot(A, y);
    return M * (y - Y0) + 2 * K * (l - L0) * y / l;
}

static double fold_curvature(double M, double y, int projected)
{
    double l = hypot(A, y), c = 1 - L0 / l;
    if (projected && c < 0)
        c = 0;
    return M + 2 * K * (y * y + c * A * A) / (l * l);
}

/* The curvature adaptive's solve uses at y (after its first, projected, step): E'' when
 * H is positive definite, else E'' + tau for the first shift that makes it so, else the
 * projected one.  *shifted is set when a shift was needed. */
static double fold_adaptive_curvature(double M, double y, int *shifted)
{
    static const double shifts[] = {0, 0.01, 0.1};
    double l = hypot(A, y), c = 1 - L0 / l, least = fmin(fold_curvature(M, y, 0), M + 2 * K * c);
    double bound = 4 * K * fmax(L0 / l - 1, 0);
    *shifted = 0;
    for (int k = 0; k < 3; k++)
        if (least + shifts[k] * bound > 0) {
            *shifted = k > 0;
            return fold_curvature(M, y, 0) + shifts[k] * bound;
        }
    return fold_curvature(M, y, 1);
}

/* Newton's method on E(y) with Armijo backtracking (c = 1e-4, halving) as the kernel
 * runs it, projected throughout or adaptive; the number of iterations to |dy|/h < tol
 * (cap + 1 when cap is reached), the last y in *y, the shifted solves in *shifts. */
static int fold_newton(double M, int adaptive, int cap, double *y, int *shifts)
{
    *y = Y0;
    *shifts = 0;
    for (int it = 1; it <= cap; it++) {
        int shifted = 0;
        double curv = adaptive && it > 1 ? fold_adaptive_curvature(M, *y, &shifted)
                                         : fold_curvature(M, *y, 1);
        *shifts += shifted;
        double g = fold_gradient(M, *y), d = -g / curv, alpha = 1;
        while (fold_energy(M, *y + alpha * d) > fold_energy(M, *y) + 1e-4 * alpha * g * d)
            alpha *= 0.5;
        *y += alpha * d;
        if (fabs(d) / H < TOL)
            return it;
    }
    return cap + 1;
}

static cloth_sim *fold_sim(double mass, const char *rule)
{
    char text[1024];
    snprintf(text, sizeof text, fold_scene, mass, rule);
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

/* _i: the mass (above) */
START_TEST(projected_springs_creep_past_max_iters)
{
    double y;
    int shifts;
    ck_assert_int_gt(fold_newton(masses[_i] / (H * H), 0, 50, &y, &shifts), 50);
    cloth_sim *sim = fold_sim(masses[_i], "project");
    cloth_frame f;
    cloth_error err;
    ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
    const cloth_iter *rows;
    int n = cloth_sim_log(sim, &rows);
    ck_assert_int_eq(n, 50);
    ck_assert_int_eq(f.not_converged, 1);
    ck_assert_str_eq(rows[n - 1].stop, "max_iters");
    cloth_sim_destroy(sim);
}
END_TEST

START_TEST(adaptive_springs_converge_at_newtons_rate)
{
    double M = masses[_i] / (H * H), want;
    int shifts, iters = fold_newton(M, 1, 50, &want, &shifts);
    ck_assert_int_le(iters, 8);
    ck_assert_int_eq(shifts > 0, _i == 1); /* the second mass takes the shifted path */
    cloth_sim *sim = fold_sim(masses[_i], "adaptive");
    const double *x = cloth_sim_positions(sim);
    cloth_frame f;
    cloth_error err;
    ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
    const cloth_iter *rows;
    int n = cloth_sim_log(sim, &rows);
    ck_assert_int_eq(f.not_converged, 0);
    ck_assert_str_eq(rows[n - 1].stop, "converged");
    ck_assert_msg(n <= iters + 1, "%d iterations, the closed form's Newton %d", n, iters);
    int regularized = 0;
    for (int r = 0; r < n; r++)
        regularized += tu_log_value(sim, &rows[r], "regularized");
    ck_assert_int_eq(regularized, shifts); /* a shifted solve says so in newton.csv */
    /* E at the step's start is the springs' alone: 2 x 1/2 k (l - l0)^2 */
    double e0 = fold_energy(M, Y0);
    ck_assert_msg(fabs(rows[0].energy - e0) <= 1e-12 * e0, "E %.17g, closed form %.17g",
                  rows[0].energy, e0);
    for (int r = 1; r < n; r++)
        ck_assert_msg(rows[r].energy <= rows[r - 1].energy, "row %d: E %.17g after %.17g",
                      r, rows[r].energy, rows[r - 1].energy);
    /* the step ends at E's minimiser: E'(y) = 0 to the tolerance, and only y moved */
    ck_assert_msg(fabs(x[3 + 1] - want) <= 10 * TOL * H, "y %.17g, closed form %.17g",
                  x[3 + 1], want);
    ck_assert_msg(fabs(fold_gradient(M, x[3 + 1])) <= fold_curvature(M, want, 0) * 10 * TOL * H,
                  "E'(y) = %g", fold_gradient(M, x[3 + 1]));
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
    tcase_add_loop_test(tc, projected_springs_creep_past_max_iters, 0, 2);
    tcase_add_loop_test(tc, adaptive_springs_converge_at_newtons_rate, 0, 2);
    tcase_add_test(tc, spring_hessian_refuses_an_unknown_rule);
    suite_add_tcase(s, tc);
    return s;
}
