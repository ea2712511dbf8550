/* Private: the strain-limit barrier of the newton kernel (SPEC 4.4, issue 12), per
 * triangle on the singular values of its deformation gradient (ZOZO, Ando 2024, "A Cubic
 * Barrier with Elasticity-Inclusive Dynamic Stiffness"; Codim-IPC, Li et al. 2021,
 * "Codimensional Incremental Potential Contact") or per edge on its stretch.
 *
 * Deformation gradient.  A triangle with rest vertices X0, X1, X2 gets a 2D rest frame
 * (an orthonormal basis of its plane); Dm = [X1 - X0, X2 - X0] in that frame is 2x2.
 * With the current positions x0, x1, x2 (3D),
 *
 *     F = [x1 - x0, x2 - x0] Dm^-1 = x0 c0^T + x1 c1^T + x2 c2^T           (3x2)
 *
 * where c1, c2 are the rows of Dm^-1 and c0 = -(c1 + c2): F is linear in the nine
 * coordinates, dF/dx_i = (.) c_i^T, and a rigid motion of the triangle rotates F from the
 * left.  F^T F = [[a, b], [b, d]] (a = |f1|^2, b = f1.f2, d = |f2|^2, f1 and f2 the
 * columns of F) has the eigenvalues sigma1^2 >= sigma2^2:
 *
 *     sigma1^2 = (a + d)/2 + r,   r = sqrt(((a - d)/2)^2 + b^2)
 *     sigma2   = |f1 x f2| / sigma1          (sigma1 sigma2 = area ratio, no cancellation)
 *     sigma1 - sigma2 = 2 r / (sigma1 + sigma2),   a - d = (f1 - f2).(f1 + f2)
 *
 * so both the singular values and their gap keep full relative accuracy when
 * sigma1 ~ sigma2 and when sigma2 << sigma1.
 *
 * Derivatives.  With the thin SVD F = sigma1 u1 v1^T + sigma2 u2 v2^T (v the eigenvectors
 * of F^T F, u_i = F v_i / sigma_i, n = u1 x u2 the normal), d sigma_i / dF = u_i v_i^T.  A
 * spectral energy E = phi(sigma1) + phi(sigma2) has, in F space, the six eigenmodes
 * (Smith, de Goes and Kim 2019, "Analytic Eigensystems for Isotropic Distortion
 * Energies"; the same system ZOZO's solver projects):
 *
 *     mode                                  curvature
 *     u1 v1^T, u2 v2^T      (stretch)       phi''(sigma1), phi''(sigma2)
 *     (u1 v2^T - u2 v1^T)/sqrt 2  (twist)   (phi'(sigma1) + phi'(sigma2)) / (sigma1 + sigma2)
 *     (u1 v2^T + u2 v1^T)/sqrt 2  (flip)    (phi'(sigma1) - phi'(sigma2)) / (sigma1 - sigma2)
 *     n v1^T, n v2^T        (out of plane)  phi'(sigma1)/sigma1, phi'(sigma2)/sigma2
 *
 * and the 9x9 Hessian is sum_k lambda_k q_k q_k^T, q_k the mode M_k mapped to the
 * vertices (block i of q_k is M_k c_i).  One sigma alone is phi(s) = s for one index and
 * 0 for the other: sigma1 has flip curvature +1/(sigma1 - sigma2), sigma2 has
 * -1/(sigma1 - sigma2), unbounded as the two meet, where neither is differentiable.
 *
 * The barrier on a stretch a (a = sigma - 1 per singular value, or a = l/l0 - 1 per edge),
 * with limit tau and band beta in (0, 1] (issue 12; ZOZO's code at f23b356 has beta = 1,
 * g^ = tau; its 2024 examples 1/2):
 *
 *     g = tau - a,   g^ = beta tau,   energy kappa psi(g; g^)   (psi from barrier.h)
 *
 * psi is zero for g >= g^, so the term acts only when a > (1 - beta) tau.  As a function of
 * sigma, phi(sigma) = kappa psi(tau + 1 - sigma) is convex and non-decreasing (psi'' >= 0,
 * psi' <= 0), so all six curvatures above are >= 0: the triangle term's exact Hessian is
 * positive semi-definite and needs no projection (each curvature is still clamped at 0
 * against rounding).  Projecting sigma1's and sigma2's Hessians separately instead would
 * throw away sigma1's share of the flip curvature: sum first, then project.  The edge term
 * kappa (psi'' dg dg^T + psi' d2g) is PSD as well (psi' <= 0 and -d2g = d2l/l0 is PSD), as
 * SPEC 4.4 says; it keeps its full Hessian.
 *
 * Units: sigma, a, g, g^ and psi are dimensionless (psi is the curve of barrier.h, which
 * scales as g^2), so kappa is an energy (J).  ZOZO's stiffness for a limited element is
 * kappa = w^T H_el w + m / g^2 with w the element's vertex offsets from their centroid
 * (metres, not normalised) and H_el the elastic Hessian of its vertices (N/m): w^T H_el w
 * is in joules.  cloth__strain_kappa_weight computes that first term. */
#ifndef CLOTH_STRAIN_LIMIT_H
#define CLOTH_STRAIN_LIMIT_H

#include "cloth.h"
#include "terms/barrier.h"

/* The barrier of one limited stretch. */
typedef struct cloth__strain_band {
    cloth__barrier_kind barrier;      /* log (IPC) or cubic (ZOZO); none gives zero           */
    double tau;                 /* limit of the stretch a (0.1 = 10 %)                */
    double beta;                /* band: active for a > (1 - beta) tau, g^ = beta tau  */
    double kappa;               /* stiffness (J), held constant in derivatives        */
} cloth__strain_band;

/* ------------------------------------------------------------ rest frame, F */

/* Dm^-1 (row-major 2x2) of the triangle with rest vertices X = (X0, X1, X2) in 3D, in the
 * frame e1 = (X1 - X0)/|X1 - X0|, e2 = n x e1 of its plane.  Returns the rest area (m^2);
 * 0, with Dm_inv zeroed, for a degenerate triangle (|det Dm| at most 1e-12 times the sum
 * of its squared entries). */
double cloth__strain_rest(const double X[9], double Dm_inv[4]);

/* The same from 2D rest coordinates P = (P0, P1, P2) of the triangle's own frame.  Returns
 * the rest area (positive for either orientation); 0, with Dm_inv zeroed, when
 * degenerate. */
double cloth__strain_rest_2d(const double P[6], double Dm_inv[4]);

/* The weights c_i of F = sum_i x_i c_i^T for a triangle with Dm^-1 (row-major 2 x 2):
 * c1, c2 the rows of Dm^-1, c0 = -(c1 + c2). */
void cloth__strain_shape_weights(const double Dm_inv[4], double c[3][2]);

/* F (3x2, row-major: F[2k + j] = component k of column j) at positions x = (x0, x1, x2). */
void cloth__strain_deformation(const double x[9], const double Dm_inv[4], double F[6]);

/* ------------------------------------------------------------ singular values */

/* sigma[0] = sigma1 >= sigma[1] = sigma2 >= 0 of F at x, and when not NULL their
 * gradients grad[9 i + .] and Hessians hess[81 i + .] (row-major 9x9) with respect to the
 * nine coordinates, i = 0 for sigma1, 1 for sigma2.
 *
 * Where a sigma is not differentiable these are what is returned:
 *   sigma1 = sigma2 (exactly, r = 0): both get the derivatives of their mean
 *     (sigma1 + sigma2)/2, which is smooth there: gradient F/(2 sigma) mapped to the
 *     vertices (the centre of each sigma's set of one-sided gradients), Hessian with flip
 *     curvature 0 (the +-1/(sigma1 - sigma2) of either side dropped), twist 1/(2 sigma),
 *     out of plane 1/(2 sigma) each.
 *   sigma2 = 0 (collapsed triangle): its out-of-plane curvature 1/sigma2 is returned as 0;
 *   F = 0: everything is 0.
 * psd != 0 clamps every mode curvature at 0, which only changes sigma2's flip mode
 * (-1/(sigma1 - sigma2) -> 0): a PSD stand-in for Newton.  The barrier terms below do not
 * use it (their summed Hessian is PSD as it is). */
void cloth__strain_sigma(const double x[9], const double Dm_inv[4], double sigma[2],
                         double grad[18], double hess[162], int psd);

/* ------------------------------------------------------------ barrier terms */

/* sum over sigma1, sigma2 of kappa psi(tau - (sigma - 1); beta tau), and when not NULL its
 * gradient (9) and Hessian (9x9 row-major; PSD), both overwritten.  Smooth (C^2 in x)
 * also where sigma1 = sigma2: the flip curvature is then the limit phi''.  With the log
 * barrier, +inf once sigma1 - 1 >= tau, and the derivatives are then not finite (the line
 * search never goes there); the cubic continues as its polynomial. */
double cloth__strain_tri_energy(const cloth__strain_band *band, const double x[9],
                                const double Dm_inv[4], double grad[9], double hess[81]);

/* kappa psi(tau - (l/l0 - 1); beta tau) of the edge (xa, xb) with rest length l0, and when
 * not NULL its gradient (6: xa then xb) and Hessian (6x6 row-major; PSD), overwritten.
 * (strain_measure = edge; beta = 1 is the kernel's behaviour before issue 12.) */
double cloth__strain_edge_energy(const cloth__strain_band *band, const double xa[3],
                                 const double xb[3], double l0, double grad[6],
                                 double hess[36]);

/* Largest alpha such that sigma1 of x + alpha' d stays at or below 1 + tau - eta g0 for
 * every alpha' in [0, alpha] (g0 = tau - (sigma1 - 1) now), the triangle's counterpart of
 * cloth__alpha_strain (contact.h) for the line search's feasibility filter.  sigma1 is
 * convex along the line (a norm of an affine function), so the feasible alphas form one
 * interval from 0; its end is bracketed by doubling and bisected to rounding, and the
 * feasible end of the bracket is returned.  INFINITY when d does not change F.  When g0
 * <= 0 (rounding can leave a triangle at its limit with the cubic barrier, whose energy
 * is finite there) the bound is sigma1 now: the triangle may move as far as it stretches
 * no further.  sigma2 <= sigma1 needs no check of its own. */
double cloth__strain_tri_alpha(const double x[9], const double d[9], const double Dm_inv[4],
                               double tau, double eta);

/* The same, for a caller that needs the answer only below `upto` (the line search, which
 * never steps past alpha = 1): returns INFINITY at once when Weyl's inequality,
 * sigma1(F + alpha dF) <= sigma1(F) + alpha |dF|_F, with a margin for rounding, shows
 * the bound holds on all of [0, upto]; otherwise cloth__strain_tri_alpha's value.
 * Either way min(upto, result) equals min(upto, cloth__strain_tri_alpha(...)) bit for
 * bit (tests/test_strain_project.c). */
double cloth__strain_tri_alpha_upto(const double x[9], const double d[9],
                                    const double Dm_inv[4], double tau, double eta,
                                    double upto);

/* ------------------------------------------------------------ stiffness weight */

/* w^T H w for the element of k = 2 (edge) or 3 (triangle) vertices at x (3k, interleaved),
 * w_i = x_i - centroid (metres, unnormalised; ZOZO's w), H its 3k x 3k elastic Hessian
 * block (row-major, N/m, without inertia).  The result is in joules: ZOZO's stiffness of
 * the element is this plus its mass term.  For an edge w = (l/2)(-u, u), so this is
 * (l^2/2) s^T H s with s = (u, -u)/sqrt 2 the unit stencil of cloth__kappa_stencil_pair
 * (stiffness.h).  w2, if not NULL, gets |w|^2 (m^2), the length scale of the si mass term. */
double cloth__strain_kappa_weight(const double *x, int k, const double *H, double *w2);

/* ------------------------------------------------------------ Provot's limit */

/* Provot 1995 (the verlet kernel's strain limit): when the spring from xa to xb is longer
 * than limit = (1 + tau_c) l0, moves its ends along d = xb - xa so that it is exactly
 * limit long: removing the fraction c = (l - limit)/l of d, half at each end
 * (xa += c d / 2, xb -= c d / 2), all at the free end when the other is pinned, nothing
 * when both are.  A spring no longer than limit is left as it is.  CLOTH_OK, or
 * CLOTH_ENOTIMPL from an assignment's stub (assignments/verlet_provot). */
cloth_status cloth__provot_shorten(double xa[3], double xb[3], int pinned_a, int pinned_b,
                                   double limit);

#endif
