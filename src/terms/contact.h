/* Private: the gap functions of the newton kernel (SPEC 4.4) with their gradients and
 * Hessians, and the largest feasible step of each along a straight path.
 *
 * A gap is positive when the primitive is clear of its limit:
 *   vertex-sphere   g = |x - c| - r - offset
 *   vertex-floor    g = y - h - offset
 *   vertex-vertex   g = |x_i - x_j| - offset   (as in the cubic-barrier article)
 *   strain edge     g_s = tau - (l/l0 - 1),  l = |x_b - x_a|
 *
 * Gradients and Hessians are with respect to the primitive's own vertices (3 or 6
 * numbers, Hessians row-major); either pointer may be NULL.  With n = (x - c)/|x - c|
 * (or the pair direction) and u = (x_b - x_a)/l:
 *   sphere:  dg = n,            d2g = (I - n n^T)/|x - c|
 *   floor:   dg = e_y,          d2g = 0
 *   pair:    dg = (n, -n),      d2g = [[P, -P], [-P, P]],  P = (I - n n^T)/|x_i - x_j|
 *   strain:  dg = (u, -u)/l0,   d2g = [[-Q, Q], [Q, -Q]],  Q = (I - u u^T)/(l0 l)
 *
 * Feasible steps (additive-CCD style, Li et al. 2020, here closed form): along
 * x(alpha) = x + alpha d the largest alpha >= 0 up to which the gap stays at or above
 * eta times its current value g0 (for the strain edge: l/l0 - 1 stays at or below
 * tau - eta g_s0).  For the sphere and the pair |p + alpha d| = R is a quadratic in
 * alpha; its first positive root is the answer.  INFINITY when the path never gets that
 * close; 0 when the primitive is already at or past its limit (g0 <= 0), except a
 * strain edge, which may then move as far as it gets no longer than it is (rounding can
 * leave an edge at its limit with the cubic barrier, whose energy is finite there; a 0
 * would stop every later line search). */
#ifndef CLOTH_CONTACT_H
#define CLOTH_CONTACT_H

double cloth__gap_sphere(const double x[3], const double c[3], double radius, double offset,
                         double grad[3], double hess[9]);

double cloth__gap_floor(const double x[3], double height, double offset, double grad[3],
                        double hess[9]);

double cloth__gap_pair(const double xi[3], const double xj[3], double offset, double grad[6],
                       double hess[36]);

/* The strain gap of the edge (x_a, x_b) with rest length l0 and limit tau. */
double cloth__gap_strain(const double xa[3], const double xb[3], double l0, double tau,
                         double grad[6], double hess[36]);

double cloth__alpha_sphere(const double x[3], const double d[3], const double c[3],
                           double radius, double offset, double eta);

double cloth__alpha_floor(const double x[3], const double d[3], double height, double offset,
                          double eta);

double cloth__alpha_pair(const double xi[3], const double xj[3], const double di[3],
                         const double dj[3], double offset, double eta);

double cloth__alpha_strain(const double xa[3], const double xb[3], const double da[3],
                           const double db[3], double l0, double tau, double eta);

#endif
