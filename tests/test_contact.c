/* Gap functions: gradients and Hessians against central differences; feasible steps
 * exactly on the boundary for hand-built paths; the strain-limit term's Hessian. */
#include "terms/barrier.h"
#include "terms/contact.h"
#include "terms/obstacle.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <string.h>

/* -------------------------------------------------------------- derivatives */

enum { GAP_SPHERE, GAP_FLOOR, GAP_PAIR, GAP_STRAIN, GAP_KINDS };
static const int gap_dofs[GAP_KINDS] = {3, 3, 6, 6};

static const double centre[3] = {0.2, -0.1, 0.3};

/* The gap of kind k at the 3 or 6 coordinates x, with its derivatives. */
static double gap_of_kind(int k, const double *x, double *grad, double *hess)
{
    switch (k) {
    case GAP_SPHERE: return cloth__gap_sphere(x, centre, 0.5, 0.05, grad, hess);
    case GAP_FLOOR: return cloth__gap_floor(x, -0.4, 0.02, grad, hess);
    case GAP_PAIR: return cloth__gap_pair(x, x + 3, 0.03, grad, hess);
    default: return cloth__gap_strain(x, x + 3, 0.9, 0.02, grad, hess);
    }
}

static double gap_value(const double *x, void *ctx)
{
    return gap_of_kind(*(int *)ctx, x, NULL, NULL);
}

static void gap_gradient(const double *x, void *ctx, double *g)
{
    gap_of_kind(*(int *)ctx, x, g, NULL);
}

static const double points[][6] = {
    {0.9, 0.4, -0.2, 0.1, 0.2, 0.3},
    {-0.3, 0.8, 0.7, 0.6, -0.5, 0.1},
    {0.21, 0.35, 0.31, 0.25, 0.36, 1.2},
};

/* Every gap's gradient and Hessian against central differences (relative 1e-6);
 * _i runs over the gap kinds, three configurations each. */
START_TEST(gap_derivatives_match_finite_differences)
{
    int k = _i, n = gap_dofs[k];
    for (int p = 0; p < 3; p++) {
        double grad[6], hess[36], fd[36];
        gap_of_kind(k, points[p], grad, hess);
        tu_fd_gradient(gap_value, &k, points[p], n, 1e-6, fd);
        ck_assert_double_le(tu_rel_error(grad, fd, n, 1e-3), 1e-6);
        tu_fd_jacobian(gap_gradient, &k, points[p], n, 1e-6, fd);
        ck_assert_double_le(tu_rel_error(hess, fd, n * n, 1e-3), 1e-6);
    }
}
END_TEST

/* ------------------------------------------------------ the strain-limit term */

typedef struct { cloth__barrier_kind kind; double kappa, l0, tau; } strain_term;

static double strain_energy(const double *x, void *ctx)
{
    strain_term *t = ctx;
    double gs = cloth__gap_strain(x, x + 3, t->l0, t->tau, NULL, NULL);
    return t->kappa * cloth__barrier(t->kind, gs, t->tau, NULL, NULL);
}

static void strain_gradient(const double *x, void *ctx, double *g)
{
    strain_term *t = ctx;
    double dg[6], d1;
    double gs = cloth__gap_strain(x, x + 3, t->l0, t->tau, dg, NULL);
    cloth__barrier(t->kind, gs, t->tau, &d1, NULL);
    for (int k = 0; k < 6; k++)
        g[k] = t->kappa * d1 * dg[k];
}

/* SPEC 4.4: the strain term kappa psi(g_s) has the block
 * kappa (psi''/l0^2 u u^T - psi'/(l0 l) (I - u u^T)), and that block (with its signs in
 * [[K, -K], [-K, K]]) matches central differences of the gradient; its transverse part
 * is positive because psi' < 0.  _i picks the barrier. */
START_TEST(strain_term_hessian_is_spec_block)
{
    strain_term t = {(cloth__barrier_kind)_i, 7.0, 0.9, 0.02};
    /* an edge stretched by 1.5 % (inside the 2 % band), tilted */
    double x[6] = {0.1, 0.2, -0.1, 0, 0, 0};
    const double dir[3] = {0.6, 0.0, 0.8};
    double l = 0.9 * 1.015;
    for (int c = 0; c < 3; c++)
        x[3 + c] = x[c] + l * dir[c];
    double d1, d2, gs = cloth__gap_strain(x, x + 3, t.l0, t.tau, NULL, NULL);
    cloth__barrier(t.kind, gs, t.tau, &d1, &d2);
    ck_assert_double_lt(d1, 0);
    double H[36], fd[36];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            double uu = dir[r] * dir[c];
            double K = t.kappa * (d2 / (t.l0 * t.l0) * uu
                                  - d1 / (t.l0 * l) * ((r == c ? 1.0 : 0.0) - uu));
            H[6 * r + c] = H[6 * (r + 3) + c + 3] = K;
            H[6 * r + c + 3] = H[6 * (r + 3) + c] = -K;
        }
    tu_fd_jacobian(strain_gradient, &t, x, 6, 1e-8, fd);
    ck_assert_double_le(tu_rel_error(H, fd, 36, 1e-3), 1e-6);
    double g[6], fdg[6];
    strain_gradient(x, &t, g);
    tu_fd_gradient(strain_energy, &t, x, 6, 1e-8, fdg);
    ck_assert_double_le(tu_rel_error(g, fdg, 6, 1e-3), 1e-6);
}
END_TEST

/* ----------------------------------------------------------- feasible steps */

static void along(const double *x, const double *d, double a, int n, double *out)
{
    for (int k = 0; k < n; k++)
        out[k] = x[k] + a * d[k];
}

/* A vertex 2 above the centre of a unit sphere (offset 0.1) falling at 3 per unit alpha:
 * g0 = 0.9, stop at eta g0 = 0.09, i.e. at y = 1.19, alpha = 0.27 exactly. */
START_TEST(sphere_head_on_stops_on_the_boundary)
{
    const double c[3] = {0, 0, 0}, x[3] = {0, 2, 0}, d[3] = {0, -3, 0};
    double a = cloth__alpha_sphere(x, d, c, 1.0, 0.1, 0.1);
    ck_assert_double_eq_tol(a, 0.27, 1e-15);
    double y[3];
    along(x, d, a, 3, y);
    ck_assert_double_eq_tol(cloth__gap_sphere(y, c, 1.0, 0.1, NULL, NULL), 0.09, 1e-15);
}
END_TEST

/* Oblique approaches: the gap at alpha is eta g0 (to rounding) and larger before it. */
START_TEST(sphere_oblique_stops_on_the_boundary)
{
    const double c[3] = {0.3, -0.2, 0.1};
    const double xs[][3] = {{1.5, 0.9, 0.2}, {0.3, 2.0, -0.4}, {-1.0, -1.2, 1.3}};
    for (int k = 0; k < 3; k++) {
        double d[3] = {2 * (c[0] - xs[k][0]) + 0.3, 2 * (c[1] - xs[k][1]) - 0.2,
                       2 * (c[2] - xs[k][2]) + 0.1};
        double g0 = cloth__gap_sphere(xs[k], c, 0.7, 0.05, NULL, NULL);
        double a = cloth__alpha_sphere(xs[k], d, c, 0.7, 0.05, 0.1);
        ck_assert(isfinite(a) && a > 0);
        double y[3];
        along(xs[k], d, a, 3, y);
        ck_assert_double_eq_tol(cloth__gap_sphere(y, c, 0.7, 0.05, NULL, NULL), 0.1 * g0,
                                1e-13);
        for (int s = 1; s < 10; s++) {
            along(xs[k], d, a * s / 10.0, 3, y);
            ck_assert_double_gt(cloth__gap_sphere(y, c, 0.7, 0.05, NULL, NULL), 0.1 * g0);
        }
    }
}
END_TEST

/* Moving away, or passing by tangentially out of reach: no limit. */
START_TEST(sphere_miss_is_unbounded)
{
    const double c[3] = {0, 0, 0}, x[3] = {0, 2, 0};
    const double away[3] = {0, 1, 0}, past[3] = {1, 0, 0};
    ck_assert(isinf(cloth__alpha_sphere(x, away, c, 1.0, 0.1, 0.1)));
    ck_assert(isinf(cloth__alpha_sphere(x, past, c, 1.0, 0.1, 0.1)));
    /* an already penetrating vertex may not move at all */
    const double inside[3] = {0, 0.5, 0};
    ck_assert(cloth__alpha_sphere(inside, away, c, 1.0, 0.1, 0.1) == 0);
}
END_TEST

/* Floor at y = -1 with offset 0.1; vertex at y = 0.1 (g0 = 1) falling at 2: stop at
 * gap 0.1, alpha = 0.45. */
START_TEST(plane_stops_on_the_boundary)
{
    const double x[3] = {0.3, 0.1, 0.2}, d[3] = {5, -2, 1}, up[3] = {0, 1, 0};
    ck_assert_double_eq_tol(cloth__alpha_floor(x, d, -1, 0.1, 0.1), 0.45, 1e-15);
    ck_assert(isinf(cloth__alpha_floor(x, up, -1, 0.1, 0.1)));
}
END_TEST

/* Two vertices 1 apart closing head-on at speed 2, offset 0.2: g0 = 0.8, stop at
 * gap 0.08, i.e. distance 0.28, alpha = 0.36. */
START_TEST(pair_head_on_stops_on_the_boundary)
{
    const double xi[3] = {0, 0, 0}, xj[3] = {1, 0, 0};
    const double di[3] = {1, 0, 0}, dj[3] = {-1, 0, 0};
    double a = cloth__alpha_pair(xi, xj, di, dj, 0.2, 0.1);
    ck_assert_double_eq_tol(a, 0.36, 1e-15);
    /* the same relative motion split differently gives the same alpha */
    const double zero[3] = {0, 0, 0}, dj2[3] = {-2, 0, 0};
    ck_assert_double_eq_tol(cloth__alpha_pair(xi, xj, zero, dj2, 0.2, 0.1), 0.36, 1e-15);
    /* a skew approach lands on eta g0 */
    const double xk[3] = {0.5, 1.0, -0.3}, dk[3] = {-0.9, -2.1, 0.5};
    double g0 = cloth__gap_pair(xk, xi, 0.2, NULL, NULL);
    a = cloth__alpha_pair(xk, xi, dk, zero, 0.2, 0.1);
    double y[3];
    along(xk, dk, a, 3, y);
    ck_assert_double_eq_tol(cloth__gap_pair(y, xi, 0.2, NULL, NULL), 0.1 * g0, 1e-14);
}
END_TEST

/* An edge at rest length 1 (strain 0, g_s0 = tau = 0.02) pulled along itself at unit
 * speed: the strain may grow to tau - eta tau = 0.018, alpha = 0.018.  A rotating,
 * stretching edge stops where its strain is exactly tau - eta g_s0. */
START_TEST(strain_stops_on_the_boundary)
{
    const double xa[3] = {0, 0, 0}, xb[3] = {1, 0, 0};
    const double da[3] = {0, 0, 0}, db[3] = {1, 0, 0};
    ck_assert_double_eq_tol(cloth__alpha_strain(xa, xb, da, db, 1.0, 0.02, 0.1), 0.018,
                            1e-15);
    /* shortening never reaches the limit before it has passed through rest, and a
     * compressing edge is limited only after it has turned round: here it never does */
    const double back[3] = {-0.5, 0, 0};
    double a = cloth__alpha_strain(xa, xb, da, back, 1.0, 0.02, 0.1);
    ck_assert(a > 1.0);
    const double ya[3] = {0.1, 0.2, 0.3}, yb[3] = {0.1 + 0.6 * 1.01, 0.2, 0.3 + 0.8 * 1.01};
    const double ea[3] = {0.2, -0.1, 0.0}, eb[3] = {-0.1, 0.3, 0.2};
    double g0 = cloth__gap_strain(ya, yb, 1.0, 0.02, NULL, NULL);
    a = cloth__alpha_strain(ya, yb, ea, eb, 1.0, 0.02, 0.1);
    ck_assert(isfinite(a) && a > 0);
    double pa[3], pb[3];
    along(ya, ea, a, 3, pa);
    along(yb, eb, a, 3, pb);
    ck_assert_double_eq_tol(cloth__gap_strain(pa, pb, 1.0, 0.02, NULL, NULL), 0.1 * g0,
                            1e-14);
    /* past the limit (length 1.03 > 1.02): it may not get longer, but may shorten as far
     * as it comes back to its length, |p + a d| = |p| at a = -2 p.d / |d|^2: for p =
     * (1.03, 0, 0) and d = (-0.5, 0.5, 0) that is 2 * 0.515 / 0.5 = 2.06 */
    const double za[3] = {0, 0, 0}, zb[3] = {1.03, 0, 0}, shrink[3] = {-0.5, 0.5, 0};
    ck_assert_double_eq_tol(cloth__alpha_strain(za, zb, da, shrink, 1.0, 0.02, 0.1), 2.06,
                            1e-14);
    ck_assert_double_eq(cloth__alpha_strain(za, zb, da, db, 1.0, 0.02, 0.1), 0);
}
END_TEST

/* ---------------------------------------------------------- sphere motion */

/* The centre's velocity is the derivative of its position: central differences of
 * cloth__sphere_center (step 1e-6 s) for orbit, path and static motion. */
START_TEST(sphere_center_velocity_is_its_derivative)
{
    cloth_sphere_def sp = {0};
    sp.center[0] = 0.3, sp.center[1] = -0.2, sp.center[2] = 0.1;
    static const double path[6] = {-1, 0.5, 0.2, 1.5, -0.3, 0.9};
    for (int motion = 0; motion < 3; motion++) {
        sp.motion = (cloth_motion)motion;
        sp.amplitude = 0.7;
        sp.period = 2.5;
        memcpy(sp.path, path, sizeof path);
        for (double t = 0; t < 3; t += 0.37) {
            double v[3], a[3], b[3], h = 1e-6;
            cloth__sphere_center_velocity(&sp, t, v);
            cloth__sphere_center(&sp, t + h, a);
            cloth__sphere_center(&sp, t - h, b);
            for (int k = 0; k < 3; k++)
                ck_assert_msg(fabs(v[k] - (a[k] - b[k]) / (2 * h)) < 1e-8,
                              "motion %d, t %g, axis %d: %g vs %g", motion, t, k, v[k],
                              (a[k] - b[k]) / (2 * h));
        }
    }
}
END_TEST

/* A spinning sphere's surface velocity: omega x r with omega = (0, spin, 0), so it is
 * tangential, horizontal, |v| = |spin| times the distance from the axis, x -> -z for
 * spin > 0; the centre's velocity adds to it; no spin and no motion give 0. */
START_TEST(spinning_sphere_surface_velocity)
{
    cloth_sphere_def sp = {0};
    sp.center[0] = 0.3, sp.center[1] = -0.2, sp.center[2] = 0.1;
    sp.radius = 0.5;
    sp.spin = 2.0;
    double x[3] = {0.8, -0.2, 0.1}, v[3]; /* on the equator, +x from the centre */
    cloth__sphere_surface_velocity(&sp, 1.0, x, v);
    ck_assert_double_eq_tol(v[0], 0, 1e-15);
    ck_assert_double_eq_tol(v[1], 0, 1e-15);
    ck_assert_double_eq_tol(v[2], -1.0, 1e-15);
    for (int i = 0; i < 20; i++) {
        double r[3] = {0.5 * sin(i), 0.5 * cos(3 * i), 0.5 * sin(7 * i + 1)};
        double p[3] = {sp.center[0] + r[0], sp.center[1] + r[1], sp.center[2] + r[2]};
        cloth__sphere_surface_velocity(&sp, 0.0, p, v);
        ck_assert_double_eq_tol(v[0] * r[0] + v[1] * r[1] + v[2] * r[2], 0, 1e-15);
        ck_assert_double_eq(v[1], 0);
        ck_assert_double_eq_tol(hypot(v[0], v[2]), 2.0 * hypot(r[0], r[2]), 1e-14);
    }
    /* orbiting and spinning: the centre's velocity plus the spin's */
    sp.motion = CLOTH_MOTION_ORBIT;
    sp.amplitude = 0.4;
    sp.period = 3;
    double c[3], vc[3];
    cloth__sphere_center(&sp, 0.7, c);
    cloth__sphere_center_velocity(&sp, 0.7, vc);
    double p[3] = {c[0] + 0.1, c[1] + 0.2, c[2] - 0.3};
    cloth__sphere_surface_velocity(&sp, 0.7, p, v);
    ck_assert_double_eq_tol(v[0], vc[0] + 2.0 * -0.3, 1e-14);
    ck_assert_double_eq_tol(v[1], vc[1], 1e-14);
    ck_assert_double_eq_tol(v[2], vc[2] - 2.0 * 0.1, 1e-14);
    sp.motion = CLOTH_MOTION_STATIC;
    sp.spin = 0;
    cloth__sphere_surface_velocity(&sp, 0.7, p, v);
    ck_assert(v[0] == 0 && v[1] == 0 && v[2] == 0);
}
END_TEST

Suite *suite_contact(void)
{
    Suite *s = suite_create("contact");
    TCase *tc = tcase_create("gaps");
    tcase_add_loop_test(tc, gap_derivatives_match_finite_differences, 0, GAP_KINDS);
    tcase_add_loop_test(tc, strain_term_hessian_is_spec_block, CLOTH__BARRIER_LOG,
                        CLOTH__BARRIER_CUBIC + 1);
    suite_add_tcase(s, tc);
    tc = tcase_create("feasible_steps");
    tcase_add_test(tc, sphere_head_on_stops_on_the_boundary);
    tcase_add_test(tc, sphere_oblique_stops_on_the_boundary);
    tcase_add_test(tc, sphere_miss_is_unbounded);
    tcase_add_test(tc, plane_stops_on_the_boundary);
    tcase_add_test(tc, pair_head_on_stops_on_the_boundary);
    tcase_add_test(tc, strain_stops_on_the_boundary);
    suite_add_tcase(s, tc);
    tc = tcase_create("sphere_motion");
    tcase_add_test(tc, sphere_center_velocity_is_its_derivative);
    tcase_add_test(tc, spinning_sphere_surface_velocity);
    suite_add_tcase(s, tc);
    return s;
}
