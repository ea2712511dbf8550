/* Private: the barrier stiffness rules of the newton kernel (SPEC 4.4), as pure
 * functions of the quantities they need.  The kernel decides when to call them.
 *
 * ZOZO's elasticity-inclusive dynamic stiffness (Ando 2024, eq. 4): a contact with gap
 * g, stencil weights w (unit length) and elastic Hessian H_el of its stencil (springs
 * only, no inertia) gets
 *     kappa = m / g^2 + w^T H_el w
 * so that the barrier is at least as stiff as the material it pushes against, and stiffer
 * than the inertia of the mass m as the gap closes.  Held constant in derivatives.
 *   vertex-obstacle: w = n (the gap gradient), m = the vertex mass
 *   vertex-vertex:   w = (n, -n)/sqrt 2, m = the mean of the two masses
 *   strain edge:     w = (u, -u)/sqrt 2, m = the mean of the two masses, g = g_s
 * The formula adds its two terms as numbers, as ZOZO's does: m/g^2 is in kg/m^2 for a
 * contact (kg for the dimensionless strain gap) and w^T H w in N/m; SI values are assumed.
 *
 * IPC's adaptive stiffness (Li et al. 2020, supplement; ipc-toolkit's rule) in the units
 * of this kernel's potential, which is IPC's divided by h^2:
 *     kappa_min = 1e11 m_mean / (h^2 psi''(d0)),  d0 = 1e-8 L,  kappa_max = 100 kappa_min
 *     kappa_0   = clamp(-grad_E . grad_B / |grad_B|^2, kappa_min, kappa_max)
 * (grad_B the barrier gradient at kappa = 1), then doubled (up to kappa_max) whenever the
 * smallest gap was below eps_d in the previous iteration and is below it and smaller
 * now.  The 1e11 scale is tuned for the log barrier; with the cubic (psi'' <= 4) it gives
 * a very stiff kappa. */
#ifndef CLOTH_STIFFNESS_H
#define CLOTH_STIFFNESS_H

#include "cloth.h"

/* m / g^2 + n^T H n, H the 3x3 (row-major) elastic block of the vertex. */
double cloth__kappa_vertex(double m, double g, const double n[3], const double H[9]);

/* (mi + mj)/2 / g^2 + w^T H w, w = (n, -n)/sqrt 2, H the 6x6 elastic block of (i, j). */
double cloth__kappa_pair(double mi, double mj, double g, const double n[3], const double H[36]);

/* w^T H w + (ma + mb)/2 / g_s^2, w = (u, -u)/sqrt 2, u the edge direction, H the 6x6
 * elastic block of the edge's two vertices. */
double cloth__kappa_edge(double ma, double mb, double gs, const double u[3], const double H[36]);

/* kappa_value = auto: the dynamic formula at rest with g = g^/2,
 * m / (g^/2)^2 + wHw (wHw = w^T H_el w of the rest shape). */
double cloth__kappa_auto(double m, double dhat, double wHw);

/* IPC's bounds for barrier kind with activation dhat, rest bounding-box diagonal L,
 * mean vertex mass and step h. */
void cloth__kappa_ipc_bounds(cloth_barrier kind, double dhat, double diag, double mean_mass,
                             double h, double *kappa_min, double *kappa_max);

/* IPC's initial kappa from the gradients (length n) of the rest of the potential and of
 * the barrier sum at kappa = 1; kappa_min when grad_b is zero. */
double cloth__kappa_ipc_initial(const double *grad_e, const double *grad_b, int n,
                                double kappa_min, double kappa_max);

/* IPC's update: 2 kappa (at most kappa_max) when prev_min_gap < eps_gap,
 * min_gap < eps_gap and min_gap < prev_min_gap; otherwise kappa. */
double cloth__kappa_ipc_update(double kappa, double kappa_max, double prev_min_gap,
                               double min_gap, double eps_gap);

#endif
