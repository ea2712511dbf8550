/* Private: the barrier stiffness rules of the newton kernel (SPEC 4.4, issue 12), as
 * pure functions of the quantities they need.  The kernel decides when to call them.
 *
 * ZOZO's elasticity-inclusive dynamic stiffness (Ando 2024, eq. 4): a term with gap g,
 * stencil w and elastic Hessian H_el of its stencil (springs only, no inertia) gets
 *     kappa = w^T H_el w + (a mass term that grows as the gap closes)
 * so that the barrier is at least as stiff as the material it pushes against, and stiffer
 * than the inertia of the mass m as the gap closes.  Held constant in derivatives.
 *   vertex-obstacle: w = n (the gap gradient, unit), m = the vertex mass
 *   vertex-vertex:   w = (n, -n)/sqrt 2 (unit), m = the mean of the two masses
 *   strain element:  w = the element's vertex offsets from its centroid (metres, not
 *                    normalised: strain gaps are dimensionless, so kappa is an energy),
 *                    m = the mean of its vertex masses (terms/strain_limit.h)
 * The mass term comes in two forms (newton.kappa_form):
 *   paper   m / g^2 — exactly the published rule, and ZOZO's code.  It adds kg/m^2 (a
 *           contact) or kg (a strain gap) to N/m or J: a heuristic for metres, seconds
 *           and kilograms, whose results change when a scene is written in other units.
 *   si      (m |w|^2 / h^2) (g^ / g)^2 — the inertia m/h^2 of the stencil (h the time
 *           step; |w|^2 = 1 for the unit contact stencils, in m^2 for strain elements),
 *           growing as (g^/g)^2 as the gap closes, like m/g^2.  Every term is then in the
 *           units of w^T H_el w (N/m for contacts, J for strain elements) and a scene
 *           rescaled in length gives the same trajectory, rescaled.
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
#include "terms/barrier.h"

/* The mass term of the dynamic kappa (newton.kappa_form): as published, or unit-consistent. */
typedef enum { CLOTH__KAPPA_FORM_PAPER = 0, CLOTH__KAPPA_FORM_SI = 1 } cloth__kappa_form;

/* n^T H n, H the 3x3 (row-major) elastic block of the vertex: the stencil term of a
 * vertex-obstacle contact. */
double cloth__kappa_stencil_vertex(const double n[3], const double H[9]);

/* w^T H w with w = (n, -n)/sqrt 2, H the 6x6 elastic block of (i, j): the stencil term of
 * a vertex-vertex contact (and, with n = u, of an edge in the unit stencil). */
double cloth__kappa_stencil_pair(const double n[3], const double H[36]);

/* The smallest gap the mass term sees, as a fraction of dhat (see cloth__kappa_mass). */
#define CLOTH__KAPPA_GAP_FLOOR 0.01

/* The mass term in the chosen form: paper m / g^2; si (m w2 / h^2) (dhat / g)^2, with w2
 * = |w|^2 of the stencil (1 for contacts).  g is taken as at least
 * CLOTH__KAPPA_GAP_FLOOR dhat: the line search keeps a gap above eta times itself, so
 * gaps pressed on over many iterations shrink geometrically until rounding makes one 0,
 * and m / 0^2 is infinite.  ZOZO's solver floors the gap of moving constraints at the
 * same 0.01 g^ (its constraint-tol). */
double cloth__kappa_mass(cloth__kappa_form form, double m, double g, double dhat, double h,
                         double w2);

/* IPC's bounds for barrier kind with activation dhat, rest bounding-box diagonal L,
 * mean vertex mass and step h. */
void cloth__kappa_ipc_bounds(cloth__barrier_kind kind, double dhat, double diag, double mean_mass,
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
