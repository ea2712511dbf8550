/* The strain-limit barrier per triangle (singular values of F) and per edge; the maths
 * and the sources are in strain_limit.h. */
#include "terms/strain_limit.h"

#include "terms/barrier.h"
#include "terms/contact.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------ small vectors */

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* A unit vector perpendicular to the unit vector u: u x e for the axis e least aligned
 * with u. */
static void perpendicular(const double u[3], double out[3])
{
    int k = 0;
    for (int c = 1; c < 3; c++)
        if (fabs(u[c]) < fabs(u[k]))
            k = c;
    double e[3] = {0, 0, 0};
    e[k] = 1;
    cross3(u, e, out);
    double l = sqrt(dot3(out, out));
    for (int c = 0; c < 3; c++)
        out[c] /= l;
}

/* ------------------------------------------------------------ rest frame, F */

double cloth__strain_rest_2d(const double P[6], double Dm_inv[4])
{
    /* Dm = [[a, b], [c, d]]: its columns are the rest edges P1 - P0 and P2 - P0 */
    double a = P[2] - P[0], c = P[3] - P[1];
    double b = P[4] - P[0], d = P[5] - P[1];
    double det = a * d - b * c;
    if (!(fabs(det) > 1e-12 * (a * a + b * b + c * c + d * d))) {
        memset(Dm_inv, 0, 4 * sizeof *Dm_inv);
        return 0;
    }
    Dm_inv[0] = d / det;
    Dm_inv[1] = -b / det;
    Dm_inv[2] = -c / det;
    Dm_inv[3] = a / det;
    return 0.5 * fabs(det);
}

double cloth__strain_rest(const double X[9], double Dm_inv[4])
{
    double E1[3], E2[3], N[3], e1[3], e2[3];
    for (int k = 0; k < 3; k++) {
        E1[k] = X[3 + k] - X[k];
        E2[k] = X[6 + k] - X[k];
    }
    double l1 = sqrt(dot3(E1, E1));
    cross3(E1, E2, N);
    double lN = sqrt(dot3(N, N));
    if (!(l1 > 0) || !(lN > 0)) {
        memset(Dm_inv, 0, 4 * sizeof *Dm_inv);
        return 0;
    }
    /* e1 along the first edge, e2 = n x e1 in the plane: the 2D rest coordinates are
     * P0 = 0, P1 = (l1, 0), P2 = (E2.e1, E2.e2) */
    for (int k = 0; k < 3; k++) {
        e1[k] = E1[k] / l1;
        N[k] /= lN;
    }
    cross3(N, e1, e2);
    double P[6] = {0, 0, l1, 0, dot3(E2, e1), dot3(E2, e2)};
    return cloth__strain_rest_2d(P, Dm_inv);
}

void cloth__strain_shape_weights(const double Dm_inv[4], double c[3][2])
{
    c[1][0] = Dm_inv[0];
    c[1][1] = Dm_inv[1];
    c[2][0] = Dm_inv[2];
    c[2][1] = Dm_inv[3];
    c[0][0] = -(c[1][0] + c[2][0]);
    c[0][1] = -(c[1][1] + c[2][1]);
}

void cloth__strain_deformation(const double x[9], const double Dm_inv[4], double F[6])
{
    for (int k = 0; k < 3; k++) {
        double e1 = x[3 + k] - x[k], e2 = x[6 + k] - x[k];
        F[2 * k] = e1 * Dm_inv[0] + e2 * Dm_inv[2];
        F[2 * k + 1] = e1 * Dm_inv[1] + e2 * Dm_inv[3];
    }
}

/* ------------------------------------------------------------ the 3x2 SVD */

/* F = sigma1 u1 v1^T + sigma2 u2 v2^T, with n = u1 x u2. */
typedef struct svd32 {
    double sigma[2];            /* sigma1 >= sigma2 >= 0                              */
    double gap;                 /* sigma1 - sigma2, as 2 r / (sigma1 + sigma2)        */
    double u[2][3];             /* left singular vectors                              */
    double n[3];                /* u1 x u2: the deformed normal                       */
    double v[2][2];             /* right singular vectors (eigenvectors of F^T F)     */
    int equal;                  /* r = 0: sigma1 = sigma2 exactly, V arbitrary (= I)  */
} svd32;

/* Largest eigenvalue of F^T F = [[a, b], [b, d]] is m + r, m = (a + d)/2,
 * r = hypot((a - d)/2, b); a - d is formed as (f1 - f2).(f1 + f2), which keeps its
 * relative accuracy when |f1| ~ |f2|. */
static void gram(const double F[6], double *m, double *p, double *b)
{
    double f1[3] = {F[0], F[2], F[4]}, f2[3] = {F[1], F[3], F[5]};
    double s[3] = {f1[0] + f2[0], f1[1] + f2[1], f1[2] + f2[2]};
    double t[3] = {f1[0] - f2[0], f1[1] - f2[1], f1[2] - f2[2]};
    *m = 0.5 * (dot3(f1, f1) + dot3(f2, f2));
    *p = 0.5 * dot3(t, s);
    *b = dot3(f1, f2);
}

static double sigma1_of(const double F[6])
{
    double m, p, b;
    gram(F, &m, &p, &b);
    return sqrt(m + hypot(p, b));
}

static void decompose(const double F[6], svd32 *s)
{
    double m, p, b, c[3];
    gram(F, &m, &p, &b);
    double r = hypot(p, b);
    double f1[3] = {F[0], F[2], F[4]}, f2[3] = {F[1], F[3], F[5]};
    cross3(f1, f2, c);
    double area = sqrt(dot3(c, c));                 /* |f1 x f2| = sigma1 sigma2 */
    double s1 = sqrt(m + r);
    double s2 = s1 > 0 ? fmin(area / s1, s1) : 0;
    s->sigma[0] = s1;
    s->sigma[1] = s2;
    s->gap = s1 > 0 ? 2 * r / (s1 + s2) : 0;
    s->equal = r == 0;

    /* v1 = (cos t, sin t) with tan 2t = b / ((a - d)/2): the eigenvector of m + r */
    double t = 0.5 * atan2(b, p), ct = cos(t), st = sin(t);
    s->v[0][0] = ct;
    s->v[0][1] = st;
    s->v[1][0] = -st;
    s->v[1][1] = ct;

    if (s1 > 0)
        for (int k = 0; k < 3; k++)
            s->u[0][k] = (F[2 * k] * ct + F[2 * k + 1] * st) / s1;
    else {
        s->u[0][0] = 1;
        s->u[0][1] = s->u[0][2] = 0;
    }
    /* f1 x f2 = sigma1 sigma2 det(V) u1 x u2 and det(V) = 1: n is the deformed normal.
     * u2 = n x u1 rather than F v2 / sigma2, which loses accuracy as sigma2 -> 0. */
    if (area > 0)
        for (int k = 0; k < 3; k++)
            s->n[k] = c[k] / area;
    else
        perpendicular(s->u[0], s->n);
    cross3(s->n, s->u[0], s->u[1]);
}

/* The six eigenmodes of F space (strain_limit.h) mapped to the vertices: block i of q_k
 * is M_k c_i.  Order: stretch 1, stretch 2, twist, flip, out of plane 1, 2. */
enum { M_STRETCH1, M_STRETCH2, M_TWIST, M_FLIP, M_NORMAL1, M_NORMAL2, N_MODES };

static void modes(const svd32 *s, double c[3][2], double q[N_MODES][9])
{
    const double r2 = sqrt(0.5);
    const double *u1 = s->u[0], *u2 = s->u[1], *n = s->n;
    for (int i = 0; i < 3; i++) {
        /* v_j . c_i: how vertex i moves F along v_j */
        double w1 = s->v[0][0] * c[i][0] + s->v[0][1] * c[i][1];
        double w2 = s->v[1][0] * c[i][0] + s->v[1][1] * c[i][1];
        for (int k = 0; k < 3; k++) {
            q[M_STRETCH1][3 * i + k] = u1[k] * w1;
            q[M_STRETCH2][3 * i + k] = u2[k] * w2;
            q[M_TWIST][3 * i + k] = r2 * (u1[k] * w2 - u2[k] * w1);
            q[M_FLIP][3 * i + k] = r2 * (u1[k] * w2 + u2[k] * w1);
            q[M_NORMAL1][3 * i + k] = n[k] * w1;
            q[M_NORMAL2][3 * i + k] = n[k] * w2;
        }
    }
}

/* Copies the upper triangle of the n x n H to the lower: exactly symmetric. */
static void mirror(double *H, int n)
{
    for (int r = 0; r < n; r++)
        for (int c = 0; c < r; c++)
            H[n * r + c] = H[n * c + r];
}

/* H = sum_k lambda_k q_k q_k^T (9x9, overwritten); psd clamps each lambda at 0. */
static void assemble(double q[N_MODES][9], const double lambda[N_MODES], int psd,
                     double H[81])
{
    memset(H, 0, 81 * sizeof *H);
    for (int k = 0; k < N_MODES; k++) {
        double l = psd ? fmax(lambda[k], 0) : lambda[k];
        if (l == 0)
            continue;
        for (int r = 0; r < 9; r++)
            for (int c = r; c < 9; c++)
                H[9 * r + c] += l * q[k][r] * q[k][c];
    }
    mirror(H, 9);
}

void cloth__strain_sigma(const double x[9], const double Dm_inv[4], double sigma[2],
                         double grad[18], double hess[162], int psd)
{
    double F[6], c[3][2], q[N_MODES][9];
    svd32 s;
    cloth__strain_deformation(x, Dm_inv, F);
    cloth__strain_shape_weights(Dm_inv, c);
    decompose(F, &s);
    modes(&s, c, q);
    sigma[0] = s.sigma[0];
    sigma[1] = s.sigma[1];
    double s1 = s.sigma[0], s2 = s.sigma[1];

    if (grad) {
        /* d sigma_i/dx = (u_i v_i^T) c; at sigma1 = sigma2 the mean's, (UV^T/2) c */
        for (int r = 0; r < 9; r++) {
            double g1 = s1 > 0 ? q[M_STRETCH1][r] : 0, g2 = s1 > 0 ? q[M_STRETCH2][r] : 0;
            grad[r] = s.equal ? 0.5 * (g1 + g2) : g1;
            grad[9 + r] = s.equal ? 0.5 * (g1 + g2) : g2;
        }
    }
    if (!hess)
        return;
    if (!(s1 > 0)) {
        memset(hess, 0, 162 * sizeof *hess);
        return;
    }
    /* The curvatures of phi(s) = s for one index and 0 for the other (strain_limit.h);
     * sigma has no second derivative in its own stretch mode. */
    double twist = 1 / (s1 + s2), inv2 = s2 > 0 ? 1 / s2 : 0;
    double l1[N_MODES] = {0, 0, twist, 0, 1 / s1, 0};
    double l2[N_MODES] = {0, 0, twist, 0, 0, inv2};
    if (s.equal) {
        /* the mean (sigma1 + sigma2)/2: flip 0, half of each out-of-plane curvature */
        l1[M_NORMAL1] = l2[M_NORMAL1] = 0.5 / s1;
        l1[M_NORMAL2] = l2[M_NORMAL2] = 0.5 * inv2;
    } else {
        l1[M_FLIP] = 1 / s.gap;
        l2[M_FLIP] = -1 / s.gap;
    }
    assemble(q, l1, psd, hess);
    assemble(q, l2, psd, hess + 81);
}

/* ------------------------------------------------------------ barrier terms */

/* phi(sigma) = kappa psi(g; g^), g = tau - (sigma - 1): phi' = -kappa psi',
 * phi'' = kappa psi''. */
static double phi(const cloth__strain_band *band, double sigma, double *d1, double *d2)
{
    double g = band->tau - (sigma - 1), p1, p2;
    double v = cloth__barrier(band->barrier, g, band->beta * band->tau, &p1, &p2);
    *d1 = -band->kappa * p1;
    *d2 = band->kappa * p2;
    return band->kappa * v;
}

double cloth__strain_tri_energy(const cloth__strain_band *band, const double x[9],
                                const double Dm_inv[4], double grad[9], double hess[81])
{
    double F[6], c[3][2], q[N_MODES][9];
    svd32 s;
    cloth__strain_deformation(x, Dm_inv, F);
    decompose(F, &s);
    double s1 = s.sigma[0], s2 = s.sigma[1], gap1 = band->tau - (s1 - 1);
    double dhat = band->beta * band->tau;
    if (grad)
        memset(grad, 0, 9 * sizeof *grad);
    if (hess)
        memset(hess, 0, 81 * sizeof *hess);
    /* sigma2 <= sigma1: when sigma1 is below the band both are */
    if (band->barrier == CLOTH__BARRIER_NONE || !(gap1 < dhat))
        return 0;

    double d1[2], d2[2];
    double e = phi(band, s1, &d1[0], &d2[0]) + phi(band, s2, &d1[1], &d2[1]);
    if (!grad && !hess)
        return e;
    cloth__strain_shape_weights(Dm_inv, c);
    modes(&s, c, q);
    if (grad)
        for (int r = 0; r < 9; r++)
            grad[r] = d1[0] * q[M_STRETCH1][r] + d1[1] * q[M_STRETCH2][r];
    if (!hess)
        return e;

    /* Flip curvature: the divided difference (phi'(s1) - phi'(s2)) / (s1 - s2).  Its
     * rounding error is about eps phi' / gap, and the mean of phi''(s1), phi''(s2) differs
     * from it by about gap^2 phi''''/12; with l the length (in strain) on which phi
     * varies, min(g1, g^), the two balance at gap = eps^(1/3) l ~ 6e-6 l. */
    double l = fmin(fabs(gap1), dhat);
    double flip = s.gap > 6e-6 * l ? (d1[0] - d1[1]) / s.gap : 0.5 * (d2[0] + d2[1]);
    double lambda[N_MODES] = {
        d2[0], d2[1], (d1[0] + d1[1]) / (s1 + s2), flip,
        d1[0] != 0 ? d1[0] / s1 : 0,
        d1[1] != 0 ? d1[1] / s2 : 0,
    };
    /* Every lambda is >= 0 in exact arithmetic (phi convex, non-decreasing): the clamp
     * only removes rounding. */
    assemble(q, lambda, 1, hess);
    return e;
}

double cloth__strain_edge_energy(const cloth__strain_band *band, const double xa[3],
                                 const double xb[3], double l0, double grad[6],
                                 double hess[36])
{
    double dhat = band->beta * band->tau;
    double g = cloth__gap_strain(xa, xb, l0, band->tau, NULL, NULL);
    if (grad)
        memset(grad, 0, 6 * sizeof *grad);
    if (hess)
        memset(hess, 0, 36 * sizeof *hess);
    if (band->barrier == CLOTH__BARRIER_NONE || !(g < dhat))
        return 0;
    double dg[6], d2g[36], p1, p2;
    cloth__gap_strain(xa, xb, l0, band->tau, dg, d2g);
    double e = band->kappa * cloth__barrier(band->barrier, g, dhat, &p1, &p2);
    if (grad)
        for (int r = 0; r < 6; r++)
            grad[r] = band->kappa * p1 * dg[r];
    /* kappa (psi'' dg dg^T + psi' d2g): psi' <= 0 and -d2g is PSD (the tension) */
    if (hess) {
        for (int r = 0; r < 6; r++)
            for (int c = r; c < 6; c++)
                hess[6 * r + c] =
                    band->kappa * (p2 * dg[r] * dg[c] + fmin(p1, 0) * d2g[6 * r + c]);
        mirror(hess, 6);
    }
    return e;
}

/* sigma1 of F + alpha dF */
static double sigma1_along(const double F[6], const double dF[6], double alpha)
{
    double G[6];
    for (int k = 0; k < 6; k++)
        G[k] = F[k] + alpha * dF[k];
    return sigma1_of(G);
}

/* The shared body: `upto` > 0 allows the early answer of cloth__strain_tri_alpha_upto,
 * upto = 0 never takes it. */
static double tri_alpha(const double x[9], const double d[9], const double Dm_inv[4],
                        double tau, double eta, double upto)
{
    double F[6], dF[6];
    cloth__strain_deformation(x, Dm_inv, F);
    cloth__strain_deformation(d, Dm_inv, dF);
    double s1 = sigma1_of(F), g0 = tau - (s1 - 1);
    if (isnan(g0))
        return 0;
    if (dF[0] == 0 && dF[1] == 0 && dF[2] == 0 && dF[3] == 0 && dF[4] == 0 && dF[5] == 0)
        return INFINITY;
    /* at or past the limit (rounding can put it there): sigma1 no larger than now */
    double target = g0 > 0 ? 1 + tau - eta * g0 : s1;
    /* Weyl: sigma1(F + a dF) <= sigma1(F) + a sigma1(dF) <= s1 + a |dF|_F.  When that is
     * below the target by 1e-9 of it on [0, upto], every sigma1_along below evaluates at
     * most the target (its rounding is ~1e-15 relative), so the bisection's feasible end
     * would lie at or past upto: the caller's min(upto, .) is the same. */
    if (upto > 0) {
        double frob = 0;
        for (int k = 0; k < 6; k++)
            frob += dF[k] * dF[k];
        if (s1 + upto * sqrt(frob) <= target * (1 - 1e-9))
            return INFINITY;
    }
    /* sigma1(alpha) grows like alpha |dF|_2, so doubling brackets the end in a few
     * steps; 2100 doublings pass any double */
    double lo = 0, hi = 1;
    int k = 0;
    for (; k < 2100 && sigma1_along(F, dF, hi) <= target; k++) {
        lo = hi;
        hi *= 2;
    }
    if (k == 2100 || isinf(hi))
        return INFINITY;
    for (k = 0; k < 200; k++) {
        double mid = lo + 0.5 * (hi - lo);
        if (mid <= lo || mid >= hi)
            break;
        if (sigma1_along(F, dF, mid) <= target)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

double cloth__strain_tri_alpha(const double x[9], const double d[9], const double Dm_inv[4],
                               double tau, double eta)
{
    return tri_alpha(x, d, Dm_inv, tau, eta, 0);
}

double cloth__strain_tri_alpha_upto(const double x[9], const double d[9],
                                    const double Dm_inv[4], double tau, double eta,
                                    double upto)
{
    return tri_alpha(x, d, Dm_inv, tau, eta, upto);
}

/* ------------------------------------------------------------ stiffness weight */

double cloth__strain_kappa_weight(const double *x, int k, const double *H, double *w2)
{
    if (w2)
        *w2 = 0;
    if (k < 1 || k > 3)
        return 0;
    double centre[3] = {0, 0, 0}, w[9];
    int n = 3 * k;
    for (int i = 0; i < k; i++)
        for (int c = 0; c < 3; c++)
            centre[c] += x[3 * i + c] / k;
    for (int i = 0; i < k; i++)
        for (int c = 0; c < 3; c++)
            w[3 * i + c] = x[3 * i + c] - centre[c];
    for (int r = 0; w2 && r < n; r++)
        *w2 += w[r] * w[r];
    double q = 0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            q += w[r] * H[n * r + c] * w[c];
    return q;
}

/* ------------------------------------------------------------ Provot's limit */

cloth_status cloth__provot_shorten(double xa[3], double xb[3], int pinned_a, int pinned_b,
                                   double limit)
{
    /* ASSIGNMENT verlet_provot: provot_correction BEGIN */
    double d[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
    double l = sqrt(dot3(d, d));
    if (!(l > limit) || (pinned_a && pinned_b))
        return CLOTH_OK;
    /* |d - c d| = l - (l - limit) = limit: the spring ends exactly at the limit */
    double c = (l - limit) / l;
    double share_a = pinned_a ? 0 : pinned_b ? 1 : 0.5, share_b = 1 - share_a;
    for (int k = 0; k < 3; k++) {
        xa[k] += share_a * c * d[k];
        xb[k] -= share_b * c * d[k];
    }
    return CLOTH_OK;
    /* ASSIGNMENT verlet_provot: provot_correction END */
}
