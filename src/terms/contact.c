/* Gaps, their derivatives and feasible steps; formulas in contact.h. */
#include "terms/contact.h"

#include <math.h>
#include <stddef.h>

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Length of p and its direction n (zero when p is). */
static double direction(const double p[3], double n[3])
{
    double l = sqrt(dot3(p, p));
    for (int c = 0; c < 3; c++)
        n[c] = l > 0 ? p[c] / l : 0.0;
    return l;
}

/* s (I - n n^T), row-major 3x3 */
static void transverse(const double n[3], double s, double P[9])
{
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            P[3 * r + c] = s * ((r == c ? 1.0 : 0.0) - n[r] * n[c]);
}

/* H = [[P, -P], [-P, P]] * sign, 6x6 row-major */
static void two_point_blocks(const double P[9], double sign, double H[36])
{
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            double v = sign * P[3 * r + c];
            H[6 * r + c] = v;
            H[6 * (r + 3) + c + 3] = v;
            H[6 * r + c + 3] = -v;
            H[6 * (r + 3) + c] = -v;
        }
}

/* ------------------------------------------------------------------ gaps */

double cloth__gap_sphere(const double x[3], const double c[3], double radius, double offset,
                         double grad[3], double hess[9])
{
    double p[3] = {x[0] - c[0], x[1] - c[1], x[2] - c[2]}, n[3];
    double dist = direction(p, n);
    if (grad)
        for (int k = 0; k < 3; k++)
            grad[k] = n[k];
    if (hess)
        transverse(n, dist > 0 ? 1.0 / dist : 0.0, hess);
    return dist - radius - offset;
}

double cloth__gap_floor(const double x[3], double height, double offset, double grad[3],
                        double hess[9])
{
    if (grad) {
        grad[0] = grad[2] = 0;
        grad[1] = 1;
    }
    if (hess)
        for (int k = 0; k < 9; k++)
            hess[k] = 0;
    return x[1] - height - offset;
}

double cloth__gap_pair(const double xi[3], const double xj[3], double offset, double grad[6],
                       double hess[36])
{
    double p[3] = {xi[0] - xj[0], xi[1] - xj[1], xi[2] - xj[2]}, n[3];
    double dist = direction(p, n);
    if (grad)
        for (int k = 0; k < 3; k++) {
            grad[k] = n[k];
            grad[3 + k] = -n[k];
        }
    if (hess) {
        double P[9];
        transverse(n, dist > 0 ? 1.0 / dist : 0.0, P);
        two_point_blocks(P, 1.0, hess);
    }
    return dist - offset;
}

double cloth__gap_strain(const double xa[3], const double xb[3], double l0, double tau,
                         double grad[6], double hess[36])
{
    double p[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]}, u[3];
    double l = direction(p, u);
    if (grad)
        for (int k = 0; k < 3; k++) {
            grad[k] = u[k] / l0;
            grad[3 + k] = -u[k] / l0;
        }
    if (hess) {
        /* d2l = [[Q', -Q'], [-Q', Q']] with Q' = (I - u u^T)/l, and g_s = tau + 1 - l/l0 */
        double Q[9];
        transverse(u, l > 0 ? 1.0 / (l0 * l) : 0.0, Q);
        two_point_blocks(Q, -1.0, hess);
    }
    return tau - (l / l0 - 1);
}

/* ------------------------------------------------------------ feasible steps */

/* First alpha > 0 with |p + alpha d| = R when |p| > R now (approaching from outside):
 * |d|^2 a^2 + 2 (p.d) a + (|p|^2 - R^2) = 0.  Both roots share a sign (their product is
 * positive); they are positive only when p.d < 0.  The smaller one is taken in the form
 * c / (-b' + sqrt(disc)) that does not cancel. */
static double first_entry(const double p[3], const double d[3], double R)
{
    double a = dot3(d, d), b = dot3(p, d), c = dot3(p, p) - R * R;
    if (b >= 0 || a == 0)
        return INFINITY;
    double disc = b * b - a * c;
    if (disc < 0)
        return INFINITY;
    return c / (-b + sqrt(disc));
}

/* The alpha > 0 with |p + alpha d| = R when |p| < R now (leaving from inside): c < 0, so
 * exactly one root is positive. */
static double exit_time(const double p[3], const double d[3], double R)
{
    double a = dot3(d, d), b = dot3(p, d), c = dot3(p, p) - R * R;
    if (a == 0)
        return INFINITY;
    double root = sqrt(b * b - a * c);
    return b > 0 ? -c / (b + root) : (root - b) / a;
}

double cloth__alpha_sphere(const double x[3], const double d[3], const double c[3],
                           double radius, double offset, double eta)
{
    double g0 = cloth__gap_sphere(x, c, radius, offset, NULL, NULL);
    if (g0 <= 0)
        return 0;
    double p[3] = {x[0] - c[0], x[1] - c[1], x[2] - c[2]};
    return first_entry(p, d, radius + offset + eta * g0);
}

double cloth__alpha_floor(const double x[3], const double d[3], double height, double offset,
                          double eta)
{
    double g0 = cloth__gap_floor(x, height, offset, NULL, NULL);
    if (g0 <= 0)
        return 0;
    /* y + alpha d_y - h - offset = eta g0 */
    return d[1] < 0 ? (1 - eta) * g0 / -d[1] : INFINITY;
}

double cloth__alpha_pair(const double xi[3], const double xj[3], const double di[3],
                         const double dj[3], double offset, double eta)
{
    double g0 = cloth__gap_pair(xi, xj, offset, NULL, NULL);
    if (g0 <= 0)
        return 0;
    double p[3] = {xi[0] - xj[0], xi[1] - xj[1], xi[2] - xj[2]};
    double d[3] = {di[0] - dj[0], di[1] - dj[1], di[2] - dj[2]};
    return first_entry(p, d, offset + eta * g0);
}

double cloth__alpha_strain(const double xa[3], const double xb[3], const double da[3],
                           const double db[3], double l0, double tau, double eta)
{
    double g0 = cloth__gap_strain(xa, xb, l0, tau, NULL, NULL);
    double p[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
    double d[3] = {db[0] - da[0], db[1] - da[1], db[2] - da[2]};
    if (g0 <= 0) {
        /* at or past the limit (rounding can put it there): no longer than now, |p + a d|
         * <= |p|, for a in [0, -2 p.d / |d|^2] */
        double b = dot3(p, d), a = dot3(d, d);
        return b < 0 && a > 0 ? -2 * b / a : 0;
    }
    /* l/l0 - 1 <= tau - eta g0  <=>  l <= l0 (1 + tau - eta g0) */
    return exit_time(p, d, l0 * (1 + tau - eta * g0));
}
