/* The strain-limit terms (terms/strain_limit.h): singular values of a triangle's
 * deformation gradient against closed forms, their derivatives and the barrier terms'
 * against central differences, the band, positive semi-definiteness, the feasible step
 * and the stiffness weight.
 *
 * Finite differences.  Every quantity here is a function of a stretch (sigma - 1 or
 * l/l0 - 1) that is evaluated from positions with a rounding error of about eps
 * (eps = DBL_EPSILON) in the stretch, whatever its size.  If the quantity's derivatives
 * change on a stretch s (1; the gap sigma1 - sigma2, since sigma alone has curvature
 * 1/(sigma1 - sigma2); sigma2, for the curvature 1/sigma2; the barrier gap g and g^; the
 * distance to the band's start, where psi''' jumps), a central difference with step
 * h (as a stretch) has truncation error ~ (h/s)^2 and rounding error ~ eps/h, relative
 * to the derivative.  The two balance at h = (eps s^2)^(1/3), where both are
 * ~ (eps/s)^(2/3): 4e-11 for s = 1, 2e-8 for s = 1e-4, the smallest scale below.  In
 * positions the step is h times the element's length L (the smallest rest altitude of a
 * triangle, the rest length of an edge).  FD_TOL = 1e-6 is 50 times the estimate at
 * s = 1e-4, room for the constants of the problem.  Measured: at most 1e-7 (gradients
 * and Hessians) at s = 1e-4, 1e-8 at s = 1e-3 and about 1e-9 for s >= 0.02. */
#include "terms/barrier.h"
#include "linalg/dense.h"
#include "terms/spring.h"
#include "terms/stiffness.h"
#include "terms/strain_limit.h"
#include "suites.h"
#include "testutil.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define FD_TOL 1e-6

/* ------------------------------------------------------------ configurations */

typedef struct rng { unsigned long long s; } rng;

static double uniform(rng *r, double lo, double hi)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return lo + (hi - lo) * (double)(r->s >> 11) / 9007199254740992.0;
}

/* A rotation matrix (row-major) from a random unit quaternion. */
static void random_rotation(rng *r, double R[9])
{
    double q[4], l = 0;
    for (int k = 0; k < 4; k++) {
        q[k] = uniform(r, -1, 1);
        l += q[k] * q[k];
    }
    l = sqrt(l);
    double w = q[0] / l, x = q[1] / l, y = q[2] / l, z = q[3] / l;
    double M[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                   2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                   2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
    memcpy(R, M, sizeof M);
}

static void rotate(const double R[9], const double p[3], double out[3])
{
    for (int r = 0; r < 3; r++)
        out[r] = R[3 * r] * p[0] + R[3 * r + 1] * p[1] + R[3 * r + 2] * p[2];
}

/* A triangle with 2D rest coordinates P (edges about size), its rest vertices X in 3D (P
 * placed in a random plane), and current positions x_i = U diag(sigma) V^T P_i + t for
 * random U (3x2, orthonormal columns) and V: F has the singular values sigma1, sigma2
 * whatever rest frame measures it. */
typedef struct tri {
    double P[6];                /* 2D rest coordinates                                */
    double X[9];                /* 3D rest vertices                                   */
    double Dm_inv[4];           /* from X                                             */
    double x[9];                /* current positions                                  */
    double L;                   /* smallest rest altitude (m)                         */
} tri;

static void make_tri(rng *r, double size, double s1, double s2, tri *t)
{
    double a = uniform(r, 0, 2 * M_PI), ca = cos(a), sa = sin(a);
    double Q[6] = {0, 0, size * uniform(r, 0.8, 1.2), 0, size * uniform(r, -0.2, 0.6),
                   size * uniform(r, 0.7, 1.1)};
    double R[9], U[9], shift[3], t3[3];
    random_rotation(r, R);
    random_rotation(r, U);
    double th = uniform(r, 0, 2 * M_PI), cv = cos(th), sv = sin(th);
    for (int k = 0; k < 3; k++) {
        shift[k] = uniform(r, -1, 1);
        t3[k] = uniform(r, -1, 1);
    }
    for (int i = 0; i < 3; i++) {
        /* P: Q turned by a and moved */
        double px = ca * Q[2 * i] - sa * Q[2 * i + 1] + 0.3;
        double py = sa * Q[2 * i] + ca * Q[2 * i + 1] - 0.2;
        t->P[2 * i] = px;
        t->P[2 * i + 1] = py;
        double p3[3] = {px, py, 0}, X[3];
        rotate(R, p3, X);
        for (int k = 0; k < 3; k++)
            t->X[3 * i + k] = X[k] + shift[k];
        /* V^T P_i, scaled by sigma, then U's first two columns */
        double y1 = s1 * (cv * px + sv * py), y2 = s2 * (-sv * px + cv * py);
        for (int k = 0; k < 3; k++)
            t->x[3 * i + k] = U[3 * k] * y1 + U[3 * k + 1] * y2 + t3[k];
    }
    double area = cloth__strain_rest(t->X, t->Dm_inv), longest = 0;
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3;
        longest = fmax(longest, hypot(t->P[2 * j] - t->P[2 * i], t->P[2 * j + 1] - t->P[2 * i + 1]));
    }
    t->L = 2 * area / longest;
}

/* The right triangle (0,0,0), (0.1,0,0), (0,0.1,0) stretched by s: F = s [e1, e2]
 * exactly, so F^T F = s^2 I with no rounding and sigma1 = sigma2 exactly. */
static void make_uniform(double s, tri *t)
{
    const double X[9] = {0, 0, 0, 0.1, 0, 0, 0, 0.1, 0};
    memcpy(t->X, X, sizeof X);
    for (int k = 0; k < 9; k++)
        t->x[k] = s * X[k];
    cloth__strain_rest(t->X, t->Dm_inv);
    t->L = 0.1 / sqrt(2.0);
}

/* ------------------------------------------------------------ FD plumbing */

typedef struct fd_ctx {
    const double *Dm_inv;
    int which;                  /* sigma index, or 2 for the mean                     */
    const cloth__strain_band *band;
    double l0;                  /* edge rest length                                   */
} fd_ctx;

static double sigma_value(const double *x, void *ctx)
{
    fd_ctx *c = ctx;
    double s[2];
    cloth__strain_sigma(x, c->Dm_inv, s, NULL, NULL, 0);
    return c->which == 2 ? 0.5 * (s[0] + s[1]) : s[c->which];
}

static void sigma_grad(const double *x, void *ctx, double *g)
{
    fd_ctx *c = ctx;
    double s[2], G[18];
    cloth__strain_sigma(x, c->Dm_inv, s, G, NULL, 0);
    memcpy(g, G + 9 * c->which, 9 * sizeof *g);
}

static double tri_value(const double *x, void *ctx)
{
    fd_ctx *c = ctx;
    return cloth__strain_tri_energy(c->band, x, c->Dm_inv, NULL, NULL);
}

static void tri_grad(const double *x, void *ctx, double *g)
{
    fd_ctx *c = ctx;
    cloth__strain_tri_energy(c->band, x, c->Dm_inv, g, NULL);
}

static double edge_value(const double *x, void *ctx)
{
    fd_ctx *c = ctx;
    return cloth__strain_edge_energy(c->band, x, x + 3, c->l0, NULL, NULL);
}

static void edge_grad(const double *x, void *ctx, double *g)
{
    fd_ctx *c = ctx;
    cloth__strain_edge_energy(c->band, x, x + 3, c->l0, g, NULL);
}

/* The step for an element of length L whose derivatives change on the stretch s. */
static double fd_step(double L, double s) { return L * cbrt(DBL_EPSILON * s * s); }

/* Relative errors of grad against central differences of f and of hess against central
 * differences of g, with step h; also checks that hess is symmetric. */
static void fd_errors(tu_scalar_fn f, tu_vector_fn g, void *ctx, const double *x, int n,
                      double h, const double *grad, const double *hess, double *eg,
                      double *eh)
{
    double fg[9], fh[81];
    tu_fd_gradient(f, ctx, x, n, h, fg);
    tu_fd_jacobian(g, ctx, x, n, h, fh);
    *eg = tu_rel_error(grad, fg, n, 1e-300);
    *eh = tu_rel_error(hess, fh, n * n, 1e-300);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < r; c++)
            ck_assert_double_eq(hess[n * r + c], hess[n * c + r]);
}

/* Smallest and largest eigenvalue of an n x n symmetric matrix. */
static void eig_range(const double *H, int n, double *lo, double *hi)
{
    cloth__linalg *la;
    cloth_error err;
    ck_assert_int_eq(cloth__linalg_create(n, &la, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__linalg_eig_range(la, H, lo, hi, &err), CLOTH_OK);
    cloth__linalg_destroy(la);
}

/* ------------------------------------------------------------ singular values */

/* F = [[1, gamma], [0, 1], [0, 0]]: sigma^2 = 1 + gamma^2/2 +- gamma sqrt(1 + gamma^2/4). */
START_TEST(pure_shear)
{
    const double gammas[] = {1e-3, 0.1, 0.5, 2.0, 10.0};
    const double X[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    double Dm_inv[4];
    ck_assert_double_eq(cloth__strain_rest(X, Dm_inv), 0.5);
    for (int k = 0; k < 5; k++) {
        double g = gammas[k];
        double x[9] = {0, 0, 0, 1, 0, 0, g, 1, 0}, s[2];
        cloth__strain_sigma(x, Dm_inv, s, NULL, NULL, 0);
        double root = g * sqrt(1 + g * g / 4);
        double e1 = sqrt(1 + g * g / 2 + root), e2 = sqrt(1 + g * g / 2 - root);
        ck_assert_msg(fabs(s[0] - e1) <= 1e-14 * e1 && fabs(s[1] - e2) <= 1e-13 * e2,
                      "gamma %g: sigma (%.17g, %.17g), expected (%.17g, %.17g)", g, s[0],
                      s[1], e1, e2);
    }
}
END_TEST

/* x = s R X + t: sigma1 = sigma2 = s; and any configuration's sigma does not change under
 * a rigid motion, nor with the rest frame (3D rest vs the 2D coordinates). */
START_TEST(uniform_stretch_and_rigid_invariance)
{
    rng r = {0x9e3779b97f4a7c15ULL};
    for (int trial = 0; trial < 50; trial++) {
        tri t;
        make_tri(&r, uniform(&r, 0.01, 2), 1, 1, &t);
        double s = uniform(&r, 0.3, 3), R[9], x[9], sig[2];
        random_rotation(&r, R);
        for (int i = 0; i < 3; i++) {
            rotate(R, t.X + 3 * i, x + 3 * i);
            for (int k = 0; k < 3; k++)
                x[3 * i + k] = s * x[3 * i + k] + 0.5;
        }
        cloth__strain_sigma(x, t.Dm_inv, sig, NULL, NULL, 0);
        ck_assert_msg(fabs(sig[0] - s) <= 1e-13 * s && fabs(sig[1] - s) <= 1e-13 * s,
                      "uniform %g: (%.17g, %.17g)", s, sig[0], sig[1]);

        double s1 = uniform(&r, 0.5, 2), s2 = uniform(&r, 0.1, s1), a[2], b[2], c[2];
        make_tri(&r, uniform(&r, 0.01, 2), s1, s2, &t);
        cloth__strain_sigma(t.x, t.Dm_inv, a, NULL, NULL, 0);
        double shift[3] = {uniform(&r, -3, 3), uniform(&r, -3, 3), uniform(&r, -3, 3)};
        random_rotation(&r, R);
        for (int i = 0; i < 3; i++) {
            rotate(R, t.x + 3 * i, x + 3 * i);
            for (int k = 0; k < 3; k++)
                x[3 * i + k] += shift[k];
        }
        cloth__strain_sigma(x, t.Dm_inv, b, NULL, NULL, 0);
        double Dm2[4];
        cloth__strain_rest_2d(t.P, Dm2);
        cloth__strain_sigma(t.x, Dm2, c, NULL, NULL, 0);
        for (int k = 0; k < 2; k++) {
            double want = k ? s2 : s1;
            ck_assert_msg(fabs(a[k] - want) <= 1e-12 * want, "sigma%d %.17g, built %.17g",
                          k + 1, a[k], want);
            ck_assert_msg(fabs(b[k] - a[k]) <= 1e-13 * a[k], "rigid motion changed sigma");
            ck_assert_msg(fabs(c[k] - a[k]) <= 1e-13 * a[k], "2D rest frame changed sigma");
        }
    }
}
END_TEST

/* The rest frame: F = I at x = X, and the area. */
START_TEST(rest_frame)
{
    rng r = {12345};
    for (int trial = 0; trial < 20; trial++) {
        tri t;
        make_tri(&r, uniform(&r, 0.01, 2), 1, 1, &t);
        double F[6], area2, Dm2[4];
        cloth__strain_deformation(t.X, t.Dm_inv, F);
        /* F^T F = I */
        double a = F[0] * F[0] + F[2] * F[2] + F[4] * F[4];
        double d = F[1] * F[1] + F[3] * F[3] + F[5] * F[5];
        double b = F[0] * F[1] + F[2] * F[3] + F[4] * F[5];
        ck_assert_double_le(fabs(a - 1) + fabs(d - 1) + fabs(b), 1e-13);
        area2 = cloth__strain_rest_2d(t.P, Dm2);
        ck_assert_double_le(fabs(area2 - cloth__strain_rest(t.X, t.Dm_inv)), 1e-14 * area2);
    }
    /* degenerate: collinear and coincident vertices */
    const double line[9] = {0, 0, 0, 1, 1, 1, 2, 2, 2}, point[9] = {0};
    double Dm[4] = {1, 1, 1, 1};
    ck_assert_double_eq(cloth__strain_rest(line, Dm), 0);
    ck_assert(Dm[0] == 0 && Dm[1] == 0 && Dm[2] == 0 && Dm[3] == 0);
    ck_assert_double_eq(cloth__strain_rest(point, Dm), 0);
}
END_TEST

/* Gradients and Hessians of sigma1 and sigma2 (unprojected) against central differences,
 * generic and with sigma1 - sigma2 = 1e-4 and 1e-4 sigma (step from the gap, see top). */
START_TEST(sigma_derivatives_match_finite_differences)
{
    const double cases[][2] = {{1.3, 0.8}, {1.05, 0.6}, {0.7, 0.2}, {2.5, 2.4},
                               {1 + 1e-4, 1.0}, {0.5 + 1e-4, 0.5}, {1.2 * (1 + 1e-4), 1.2}};
    rng r = {777};
    double worst_g = 0, worst_h = 0;
    for (int k = 0; k < 7; k++)
        for (int trial = 0; trial < 5; trial++) {
            double s1 = cases[k][0], s2 = cases[k][1];
            tri t;
            make_tri(&r, 0.1, s1, s2, &t);
            double sig[2], G[18], H[162];
            cloth__strain_sigma(t.x, t.Dm_inv, sig, G, H, 0);
            double h = fd_step(t.L, fmin(1, fmin((s1 - s2) / s1, s2 / s1)));
            for (int which = 0; which < 2; which++) {
                fd_ctx c = {t.Dm_inv, which, NULL, 0};
                double eg, eh;
                fd_errors(sigma_value, sigma_grad, &c, t.x, 9, h, G + 9 * which,
                          H + 81 * which, &eg, &eh);
                worst_g = fmax(worst_g, eg);
                worst_h = fmax(worst_h, eh);
                ck_assert_msg(eg <= FD_TOL && eh <= FD_TOL,
                              "sigma%d at (%g, %g): gradient error %.3g, Hessian error %.3g",
                              which + 1, s1, s2, eg, eh);
            }
        }
    (void)worst_g;
    (void)worst_h;
}
END_TEST

/* sigma1 = sigma2 exactly: both get the derivatives of the mean (sigma1 + sigma2)/2,
 * checked against differences of the mean (the Hessian by second differences of the
 * value, step eps^(1/4) L, error ~ eps^(1/2)); the gradient is also the average of
 * sigma1's gradients on the two sides of the crossing. */
START_TEST(sigma_at_equal_singular_values)
{
    tri t;
    make_uniform(1.07, &t);
    double sig[2], G[18], H[162];
    cloth__strain_sigma(t.x, t.Dm_inv, sig, G, H, 0);
    ck_assert_double_eq(sig[0], sig[1]);
    fd_ctx c = {t.Dm_inv, 2, NULL, 0};
    double fg[9], h = fd_step(t.L, 1);
    tu_fd_gradient(sigma_value, &c, t.x, 9, h, fg);
    double hh = pow(DBL_EPSILON, 0.25) * t.L, fh[81], y[9];
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 9; j++) {
            double v[4];
            for (int s = 0; s < 4; s++) {
                memcpy(y, t.x, sizeof y);
                y[i] += (s & 1) ? -hh : hh;
                y[j] += (s & 2) ? -hh : hh;
                v[s] = sigma_value(y, &c);
            }
            fh[9 * i + j] = (v[0] - v[1] - v[2] + v[3]) / (4 * hh * hh);
        }
    for (int which = 0; which < 2; which++) {
        double eg = tu_rel_error(G + 9 * which, fg, 9, 1e-300);
        double eh = tu_rel_error(H + 81 * which, fh, 81, 1e-300);
        ck_assert_msg(eg <= FD_TOL && eh <= 1e-5, "sigma%d at equality: %.3g, %.3g",
                      which + 1, eg, eh);
    }
    /* move x1 along e1 by +-1e-3: sigma1 follows f1 on one side and f2 on the other */
    double gp[18], gm[18], xp[9], xm[9], s[2];
    memcpy(xp, t.x, sizeof xp);
    memcpy(xm, t.x, sizeof xm);
    xp[3] += 1e-3;
    xm[3] -= 1e-3;
    cloth__strain_sigma(xp, t.Dm_inv, s, gp, NULL, 0);
    cloth__strain_sigma(xm, t.Dm_inv, s, gm, NULL, 0);
    for (int r = 0; r < 9; r++)
        ck_assert_double_le(fabs(G[r] - 0.5 * (gp[r] + gm[r])), 1e-12);
}
END_TEST

/* sigma2's Hessian has the negative flip curvature -1/(sigma1 - sigma2); psd = 1 removes
 * it, and sigma1's Hessian is PSD as it is. */
START_TEST(sigma_hessian_projection)
{
    rng r = {4242};
    for (int trial = 0; trial < 50; trial++) {
        double s1 = uniform(&r, 0.5, 2), s2 = s1 * uniform(&r, 0.1, 0.999);
        tri t;
        make_tri(&r, uniform(&r, 0.01, 1), s1, s2, &t);
        double sig[2], H[162], P[162], lo, hi;
        cloth__strain_sigma(t.x, t.Dm_inv, sig, NULL, H, 0);
        cloth__strain_sigma(t.x, t.Dm_inv, sig, NULL, P, 1);
        eig_range(H, 9, &lo, &hi);
        ck_assert_double_ge(lo, -1e-9 * hi);
        eig_range(H + 81, 9, &lo, &hi);
        ck_assert_double_lt(lo, -1e-3 * hi);
        eig_range(P + 81, 9, &lo, &hi);
        ck_assert_double_ge(lo, -1e-9 * hi);
    }
}
END_TEST

/* ------------------------------------------------------------ barrier terms */

/* The dimensionless scale of the triangle term at (s1, s2): the barrier gap of sigma1,
 * g^, and both sigmas' distances to the band's start. */
static double term_scale(const cloth__strain_band *b, double s1, double s2)
{
    double start = 1 + (1 - b->beta) * b->tau;
    double s = fmin(1, fmin(b->beta * b->tau, b->tau - (s1 - 1)));
    return fmin(s, fmin(fabs(s1 - start), fabs(s2 - start)));
}

/* Energy gradient and Hessian of the triangle term against central differences: one
 * sigma in the band, both, nearly equal (gap 1e-4, step from g, not from the gap: the
 * term is smooth there), compressed sigma2, band from zero (beta = 1), near the limit. */
START_TEST(triangle_term_matches_finite_differences)
{
    const struct { double s1, s2, beta; } cases[] = {
        {1.08, 0.9, 0.5},  {1.09, 1.07, 0.5}, {1.07 + 1e-4, 1.07, 0.5}, {1.095, 0.5, 0.5},
        {1.02, 1.01, 1.0}, {1.099, 1.0, 0.5}, {1.0999, 1.0998, 0.25},   {1.06, 1.06 - 1e-6, 0.5},
        {1.06, 1.06 - 1e-9, 0.5},
    };
    rng r = {2024};
    for (int kind = CLOTH__BARRIER_LOG; kind <= CLOTH__BARRIER_CUBIC; kind++)
        for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++)
            for (int trial = 0; trial < 4; trial++) {
                cloth__strain_band band = {(cloth__barrier_kind)kind, 0.1, cases[k].beta, 3.0};
                double s1 = cases[k].s1, s2 = cases[k].s2;
                tri t;
                make_tri(&r, 0.1, s1, s2, &t);
                double G[9], H[81];
                double e = cloth__strain_tri_energy(&band, t.x, t.Dm_inv, G, H);
                ck_assert_double_gt(e, 0);
                fd_ctx c = {t.Dm_inv, 0, &band, 0};
                double eg, eh, h = fd_step(t.L, term_scale(&band, s1, s2));
                fd_errors(tri_value, tri_grad, &c, t.x, 9, h, G, H, &eg, &eh);
                ck_assert_msg(eg <= FD_TOL && eh <= FD_TOL,
                              "%s (%g, %g) beta %g: gradient error %.3g, Hessian %.3g",
                              cloth__barrier_name(band.barrier), s1, s2, band.beta, eg, eh);
            }
}
END_TEST

/* At sigma1 = sigma2 exactly the term is still C^2: its derivatives match differences
 * taken straight across the crossing. */
START_TEST(triangle_term_at_equal_singular_values)
{
    for (int kind = CLOTH__BARRIER_LOG; kind <= CLOTH__BARRIER_CUBIC; kind++) {
        cloth__strain_band band = {(cloth__barrier_kind)kind, 0.1, 0.5, 3.0};
        tri t;
        make_uniform(1.08, &t);
        double G[9], H[81], eg, eh;
        cloth__strain_tri_energy(&band, t.x, t.Dm_inv, G, H);
        fd_ctx c = {t.Dm_inv, 0, &band, 0};
        double h = fd_step(t.L, term_scale(&band, 1.08, 1.08));
        fd_errors(tri_value, tri_grad, &c, t.x, 9, h, G, H, &eg, &eh);
        ck_assert_msg(eg <= FD_TOL && eh <= FD_TOL, "%s: %.3g, %.3g",
                      cloth__barrier_name(band.barrier), eg, eh);
    }
}
END_TEST

/* The edge term against central differences (L = l0). */
START_TEST(edge_term_matches_finite_differences)
{
    const struct { double a, beta; } cases[] = {
        {0.06, 0.5}, {0.09, 0.5}, {0.099, 0.5}, {0.01, 1.0}, {0.0999, 0.25}};
    rng r = {99};
    for (int kind = CLOTH__BARRIER_LOG; kind <= CLOTH__BARRIER_CUBIC; kind++)
        for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++)
            for (int trial = 0; trial < 4; trial++) {
                cloth__strain_band band = {(cloth__barrier_kind)kind, 0.1, cases[k].beta, 2.0};
                double R[9], e1[3] = {1, 0, 0}, u[3], x[6], l0 = 0.1, a = cases[k].a;
                random_rotation(&r, R);
                rotate(R, e1, u);
                for (int c = 0; c < 3; c++) {
                    x[c] = uniform(&r, -1, 1);
                    x[3 + c] = x[c] + l0 * (1 + a) * u[c];
                }
                double G[6], H[36], eg, eh;
                double e = cloth__strain_edge_energy(&band, x, x + 3, l0, G, H);
                ck_assert_double_gt(e, 0);
                double start = (1 - band.beta) * band.tau;
                double s = fmin(fmin(1, band.beta * band.tau),
                                fmin(band.tau - a, fabs(a - start)));
                fd_ctx c = {NULL, 0, &band, l0};
                fd_errors(edge_value, edge_grad, &c, x, 6, fd_step(l0, s), G, H, &eg, &eh);
                ck_assert_msg(eg <= FD_TOL && eh <= FD_TOL,
                              "%s edge a = %g, beta %g: gradient %.3g, Hessian %.3g",
                              cloth__barrier_name(band.barrier), a, band.beta, eg, eh);
            }
}
END_TEST

/* The band: for a <= (1 - beta) tau energy, gradient and Hessian are exactly 0, for
 * either measure; above it the energy is positive and increases towards a = tau, where
 * the log barrier is +inf and the cubic reaches kappa 2 g^2/3 (finite: the line search's
 * feasibility filter keeps a < tau, SPEC 4.4). */
START_TEST(band)
{
    const double betas[] = {0.25, 0.5, 1.0}, tau = 0.1, kappa = 2.0, l0 = 0.1;
    const double xa[3] = {0.1, 0.2, 0.3}, u[3] = {0.6, 0, 0.8};
    for (int kind = CLOTH__BARRIER_LOG; kind <= CLOTH__BARRIER_CUBIC; kind++)
        for (int b = 0; b < 3; b++) {
            cloth__strain_band band = {(cloth__barrier_kind)kind, tau, betas[b], kappa};
            double start = (1 - band.beta) * tau, ghat = band.beta * tau;
            const double below[] = {-0.5, -0.01, 0, 0.5 * start, start * (1 - 1e-9)};
            for (int k = 0; k < 5; k++) {
                if (below[k] > start)
                    continue;
                double xb[3], G[9], H[81], g6[6], h36[36];
                for (int c = 0; c < 3; c++)
                    xb[c] = xa[c] + l0 * (1 + below[k]) * u[c];
                double e = cloth__strain_edge_energy(&band, xa, xb, l0, g6, h36);
                ck_assert_double_eq(e, 0);
                for (int r = 0; r < 36; r++)
                    ck_assert(h36[r] == 0 && g6[r % 6] == 0);
                tri t;
                make_uniform(1 + below[k], &t);
                e = cloth__strain_tri_energy(&band, t.x, t.Dm_inv, G, H);
                ck_assert_double_eq(e, 0);
                for (int r = 0; r < 81; r++)
                    ck_assert(H[r] == 0 && G[r % 9] == 0);
            }
            /* a from just above the start to g = 1e-12 g^ */
            double prev_edge = 0, prev_tri = 0, e_edge = 0, e_tri = 0;
            for (int k = 0; k <= 22; k++) {
                double g = k < 12 ? ghat * (1 - (k + 1) / 13.0) : ghat * pow(10.0, -(k - 10));
                double a = tau - g, xb[3];
                for (int c = 0; c < 3; c++)
                    xb[c] = xa[c] + l0 * (1 + a) * u[c];
                e_edge = cloth__strain_edge_energy(&band, xa, xb, l0, NULL, NULL);
                tri t;
                make_uniform(1 + a, &t);
                e_tri = cloth__strain_tri_energy(&band, t.x, t.Dm_inv, NULL, NULL);
                ck_assert_msg(e_edge > prev_edge && e_tri > prev_tri,
                              "%s beta %g: energy not increasing at a = tau - %g",
                              cloth__barrier_name(band.barrier), band.beta, g);
                prev_edge = e_edge;
                prev_tri = e_tri;
            }
            double xb[3];
            for (int c = 0; c < 3; c++)
                xb[c] = xa[c] + l0 * (1 + tau) * 1.000001 * u[c];
            double past = cloth__strain_edge_energy(&band, xa, xb, l0, NULL, NULL);
            if (kind == CLOTH__BARRIER_LOG) {
                ck_assert(isinf(past) && past > 0);
                /* psi ~ g^2 ln(g^/g): still growing as ln at g = 1e-12 g^ */
                ck_assert_double_gt(e_edge, 0.9 * kappa * ghat * ghat * 12 * log(10.0));
            } else {
                ck_assert_double_le(fabs(e_edge - kappa * 2 * ghat * ghat / 3),
                                    1e-9 * e_edge);
                /* both sigmas of the uniform stretch are limited */
                ck_assert_double_le(fabs(e_tri - 2 * kappa * 2 * ghat * ghat / 3),
                                    1e-9 * e_tri);
            }
        }
}
END_TEST

/* The Hessians are PSD on random configurations: sigma1 in the band, sigma2 anywhere
 * below it, a fifth of them with sigma1 - sigma2 < 1e-6 sigma1; edges across the band. */
START_TEST(hessians_are_psd)
{
    rng r = {31337};
    for (int trial = 0; trial < 400; trial++) {
        cloth__strain_band band = {trial % 2 ? CLOTH__BARRIER_CUBIC : CLOTH__BARRIER_LOG,
                                   uniform(&r, 0.01, 0.3), uniform(&r, 0.1, 1), 1.0};
        double start = 1 + (1 - band.beta) * band.tau;
        double s1 = start + band.beta * band.tau * uniform(&r, 0.001, 0.999);
        double s2 = trial % 5 == 0 ? s1 * (1 - uniform(&r, 0, 1e-6)) : uniform(&r, 0.2, s1);
        tri t;
        make_tri(&r, uniform(&r, 0.01, 1), s1, s2, &t);
        double H[81], lo, hi;
        cloth__strain_tri_energy(&band, t.x, t.Dm_inv, NULL, H);
        eig_range(H, 9, &lo, &hi);
        ck_assert_msg(hi > 0 && lo >= -1e-9 * hi, "triangle (%g, %g): eigenvalues %g .. %g",
                      s1, s2, lo, hi);

        double a = band.tau * uniform(&r, 1 - band.beta, 0.999), x[6], h36[36];
        for (int c = 0; c < 3; c++) {
            x[c] = uniform(&r, -1, 1);
            x[3 + c] = x[c];
        }
        x[3 + trial % 3] += 0.1 * (1 + a);
        cloth__strain_edge_energy(&band, x, x + 3, 0.1, NULL, h36);
        eig_range(h36, 6, &lo, &hi);
        ck_assert_msg(hi > 0 && lo >= -1e-9 * hi, "edge a = %g: eigenvalues %g .. %g", a, lo, hi);
    }
}
END_TEST

/* ------------------------------------------------------------ feasible step */

static double sigma1_at(const tri *t, const double d[9], double alpha)
{
    double y[9], s[2];
    for (int k = 0; k < 9; k++)
        y[k] = t->x[k] + alpha * d[k];
    cloth__strain_sigma(y, t->Dm_inv, s, NULL, NULL, 0);
    return s[0];
}

/* The returned alpha keeps sigma1 at or below 1 + tau - eta g0, and a little more does
 * not; past the limit, at or below sigma1 now; INFINITY for a translation. */
START_TEST(feasible_step)
{
    rng r = {5150};
    const double tau = 0.1, eta = 0.1;
    int crossed = 0;
    for (int trial = 0; trial < 100; trial++) {
        tri t;
        double s1 = uniform(&r, 0.9, 1.099);
        make_tri(&r, 0.1, s1, uniform(&r, 0.5, s1), &t);
        double d[9];
        for (int k = 0; k < 9; k++)
            d[k] = uniform(&r, -0.05, 0.05);
        double target = 1 + tau - eta * (tau - (s1 - 1));
        double alpha = cloth__strain_tri_alpha(t.x, d, t.Dm_inv, tau, eta);
        ck_assert(isfinite(alpha) && alpha >= 0);
        ck_assert_double_le(sigma1_at(&t, d, alpha), target * (1 + 1e-12));
        ck_assert_double_gt(sigma1_at(&t, d, alpha * (1 + 1e-6) + 1e-300), target);
        crossed += alpha < 1;
        /* every step below alpha is feasible (sigma1 is convex along the line) */
        for (int k = 1; k < 8; k++)
            ck_assert_double_le(sigma1_at(&t, d, alpha * k / 8), target * (1 + 1e-12));
    }
    ck_assert_int_gt(crossed, 10);
    tri t;
    make_tri(&r, 0.1, 1.05, 1.0, &t);
    double d[9] = {1, 2, 3, 1, 2, 3, 1, 2, 3};
    ck_assert(isinf(cloth__strain_tri_alpha(t.x, d, t.Dm_inv, tau, eta)));
    /* past the limit (sigma1 = 1.2 > 1.1): growing about the centroid, d = x - c, sigma1
     * is (1 + alpha) 1.2, no alpha > 0 is allowed (but rounding); shrinking, d = -(x - c), it is |1 -
     * alpha| 1.2, at most 1.2 for alpha <= 2; a translation changes nothing */
    make_tri(&r, 0.1, 1.2, 1.0, &t);
    double grow[9], shrink[9];
    for (int k = 0; k < 9; k++) {
        double c = (t.x[k % 3] + t.x[3 + k % 3] + t.x[6 + k % 3]) / 3;
        grow[k] = t.x[k] - c;
        shrink[k] = c - t.x[k];
    }
    ck_assert_double_lt(cloth__strain_tri_alpha(t.x, grow, t.Dm_inv, tau, eta), 1e-12);
    ck_assert_double_eq_tol(cloth__strain_tri_alpha(t.x, shrink, t.Dm_inv, tau, eta), 2,
                            1e-12);
    ck_assert(isinf(cloth__strain_tri_alpha(t.x, d, t.Dm_inv, tau, eta)));
}
END_TEST

/* The early answer of cloth__strain_tri_alpha_upto changes nothing the line search sees:
 * min(upto, .) equals min(upto, the full bisection) bit for bit, over triangles near and
 * far from their limit, long and short steps, and upto below and at 1; both the early
 * answer (the bound) and the bisection are taken many times, so neither side is vacuous. */
START_TEST(feasible_step_upto_is_the_same_below_upto)
{
    rng r = {4242};
    const double tau = 0.1, eta = 0.1;
    int early = 0, bisected = 0;
    for (int trial = 0; trial < 2000; trial++) {
        tri t;
        double s1 = uniform(&r, 0.9, 1.11); /* a few start past the limit 1.1 */
        make_tri(&r, 0.1, s1, uniform(&r, 0.5, s1), &t);
        double d[9], scale = pow(10, uniform(&r, -4, -0.5));
        for (int k = 0; k < 9; k++)
            d[k] = uniform(&r, -scale, scale);
        double upto = trial % 2 ? 1.0 : uniform(&r, 0.01, 1);
        double full = cloth__strain_tri_alpha(t.x, d, t.Dm_inv, tau, eta);
        double fast = cloth__strain_tri_alpha_upto(t.x, d, t.Dm_inv, tau, eta, upto);
        ck_assert_msg(fmin(upto, fast) == fmin(upto, full),
                      "trial %d: min(upto, .) %.17g against %.17g (upto %g)", trial,
                      fmin(upto, fast), fmin(upto, full), upto);
        if (isinf(fast) && isfinite(full))
            early++;
        else
            bisected++;
    }
    ck_assert_int_gt(early, 200);
    ck_assert_int_gt(bisected, 200);
}
END_TEST

/* ------------------------------------------------------------ stiffness weight */

/* An edge held by its own spring: w = (l/2)(-u, u) gives w^T H w = k l^2 =
 * (l^2/2) s^T H s with the unit stencil of cloth__kappa_stencil_pair; a triangle with H = I gives
 * sum |x_i - centroid|^2, unchanged by a translation and x4 when the element doubles. */
START_TEST(kappa_weight)
{
    const double xa[3] = {0.2, -0.1, 0.4}, u[3] = {0, 0.6, 0.8}, k = 30, l0 = 0.1;
    double x[6], H[36];
    for (int c = 0; c < 3; c++) {
        x[c] = xa[c];
        x[3 + c] = xa[c] + 0.107 * u[c];
    }
    cloth__spring_hessian(x, x + 3, k, l0, 1, H);
    double l = 0.107, w = cloth__strain_kappa_weight(x, 2, H, NULL);
    ck_assert_double_le(fabs(w - k * l * l), 1e-13 * k * l * l);
    ck_assert_double_le(fabs(w - 0.5 * l * l * cloth__kappa_stencil_pair(u, H)), 1e-13 * w);

    double y[9] = {0, 0, 0, 1, 0, 0, 0, 2, 0}, I[81] = {0}, z[9];
    for (int r = 0; r < 9; r++)
        I[10 * r] = 1;
    /* centroid (1/3, 2/3, 0): 5/9 + 8/9 + 17/9 = 30/9 */
    double w2;
    ck_assert_double_le(fabs(cloth__strain_kappa_weight(y, 3, I, &w2) - 30.0 / 9), 1e-14);
    ck_assert_double_le(fabs(w2 - 30.0 / 9), 1e-14); /* |w|^2 = w^T I w */
    for (int r = 0; r < 9; r++)
        z[r] = y[r] + 7.5;
    ck_assert_double_le(fabs(cloth__strain_kappa_weight(z, 3, I, NULL) - 30.0 / 9), 1e-13);
    for (int r = 0; r < 9; r++)
        z[r] = 2 * y[r];
    ck_assert_double_le(fabs(cloth__strain_kappa_weight(z, 3, I, NULL) - 4 * 30.0 / 9), 1e-13);
}
END_TEST

Suite *suite_strain_limit(void)
{
    Suite *s = suite_create("strain_limit");
    TCase *tc = tcase_create("singular values");
    tcase_add_test(tc, pure_shear);
    tcase_add_test(tc, uniform_stretch_and_rigid_invariance);
    tcase_add_test(tc, rest_frame);
    tcase_add_test(tc, sigma_derivatives_match_finite_differences);
    tcase_add_test(tc, sigma_at_equal_singular_values);
    tcase_add_test(tc, sigma_hessian_projection);
    suite_add_tcase(s, tc);
    tc = tcase_create("terms");
    tcase_add_test(tc, triangle_term_matches_finite_differences);
    tcase_add_test(tc, triangle_term_at_equal_singular_values);
    tcase_add_test(tc, edge_term_matches_finite_differences);
    tcase_add_test(tc, band);
    tcase_add_test(tc, hessians_are_psd);
    tcase_add_test(tc, feasible_step);
    tcase_add_test(tc, feasible_step_upto_is_the_same_below_upto);
    tcase_add_test(tc, kappa_weight);
    suite_add_tcase(s, tc);
    return s;
}
