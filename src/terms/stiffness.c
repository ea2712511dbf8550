/* Barrier stiffness rules; formulas and sources in stiffness.h. */
#include "terms/stiffness.h"

#include "terms/barrier.h"

#include <math.h>

/* v^T A v for a 3-vector and a row-major 3x3 block of a matrix with row stride s. */
static double quad3(const double *A, int stride, const double a[3], const double b[3])
{
    double q = 0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            q += a[r] * A[stride * r + c] * b[c];
    return q;
}

/* w^T H w for w = (n, -n)/sqrt 2 and H 6x6: (n^T (H_ii - H_ij - H_ji + H_jj) n) / 2 */
static double two_point_quadratic(const double n[3], const double H[36])
{
    return 0.5 * (quad3(H, 6, n, n) - quad3(H + 3, 6, n, n) - quad3(H + 18, 6, n, n) +
                  quad3(H + 21, 6, n, n));
}

double cloth__kappa_stencil_vertex(const double n[3], const double H[9])
{
    return quad3(H, 3, n, n);
}

double cloth__kappa_stencil_pair(const double n[3], const double H[36])
{
    return two_point_quadratic(n, H);
}

double cloth__kappa_mass(cloth__kappa_form form, double m, double g, double dhat, double h,
                         double w2)
{
    g = fmax(g, CLOTH__KAPPA_GAP_FLOOR * dhat);
    if (form == CLOTH__KAPPA_FORM_PAPER)
        return m / (g * g);
    double ratio = dhat / g;
    return m * w2 / (h * h) * ratio * ratio;
}

void cloth__kappa_ipc_bounds(cloth__barrier_kind kind, double dhat, double diag, double mean_mass,
                             double h, double *kappa_min, double *kappa_max)
{
    double d0 = 1e-8 * diag, d2 = 0;
    if (d0 >= dhat)
        d0 = 0.5 * dhat;
    cloth__barrier(kind, d0, dhat, NULL, &d2);
    *kappa_min = d2 > 0 ? 1e11 * mean_mass / (h * h * d2) : 0;
    *kappa_max = 100 * *kappa_min;
}

double cloth__kappa_ipc_initial(const double *grad_e, const double *grad_b, int n,
                                double kappa_min, double kappa_max)
{
    double eb = 0, bb = 0;
    for (int k = 0; k < n; k++) {
        eb += grad_e[k] * grad_b[k];
        bb += grad_b[k] * grad_b[k];
    }
    double kappa = bb > 0 ? -eb / bb : kappa_min;
    return fmin(fmax(kappa, kappa_min), kappa_max);
}

double cloth__kappa_ipc_update(double kappa, double kappa_max, double prev_min_gap,
                               double min_gap, double eps_gap)
{
    if (prev_min_gap < eps_gap && min_gap < eps_gap && min_gap < prev_min_gap)
        return fmin(kappa_max, 2 * kappa);
    return kappa;
}
