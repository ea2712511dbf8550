/* Private: the inertia term of implicit Euler as energy minimisation (SPEC 4.4; the
 * "inertia" file of solid-sim-tutorial):
 *     x~ = x_n + h v_n + h^2 g,      E_I(x) = sum_i m_i/(2 h^2) |x_i - x~_i|^2
 * with gradient m_i/h^2 (x_i - x~_i) and Hessian m_i/h^2 I per vertex.  Its minimiser
 * alone is the free fall x~; everything else in the potential bends the path away from
 * it.  Pinned vertices are not unknowns: their x~ is their current position. */
#ifndef CLOTH_INERTIA_H
#define CLOTH_INERTIA_H

/* x~ (3n) from positions x, velocities v, acceleration g and step h. */
void cloth__inertia_predict(int n, const double *x, const double *v, const double g[3],
                            double h, const unsigned char *pinned, double *x_tilde);

/* E_I(x) over the free vertices. */
double cloth__inertia_energy(int n, const double *x, const double *x_tilde,
                             const double *mass, const unsigned char *pinned, double h);

#endif
