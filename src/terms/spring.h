/* Private: the energy of one Hooke spring, E = 1/2 k (l - l0)^2, and its derivatives.
 * Shared by the metrics (every kernel), the force kernels and the newton kernel. */
#ifndef CLOTH_SPRING_H
#define CLOTH_SPRING_H

#include "cloth.h"

/* E(xa, xb) = 1/2 k (|xb - xa| - l0)^2 */
double cloth__spring_energy(const double xa[3], const double xb[3], double k, double l0);

/* The tension T = dE/dl = k (l - l0) and the unit direction u = (xb - xa)/l (u = 0 when
 * l = 0); the force on a is T u, on b -T u.  CLOTH_OK, or CLOTH_ENOTIMPL from an
 * assignment's student stub (assignments/spring_euler). */
cloth_status cloth__spring_tension(const double xa[3], const double xb[3], double k,
                                  double l0, double u[3], double *tension);

/* g = (dE/dxa, dE/dxb): dE/dxb = k (l - l0) u, u = (xb - xa)/l, dE/dxa = -dE/dxb. */
void cloth__spring_gradient(const double xa[3], const double xb[3], double k, double l0,
                            double g[6]);

/* 6x6 Hessian, row-major, blocks [[K, -K], [-K, K]] with
 * K = k (u u^T + (1 - l0/l)(I - u u^T)).  psd != 0 clamps (1 - l0/l) at 0, which makes
 * K positive semi-definite (SPEC 4.4). */
void cloth__spring_hessian(const double xa[3], const double xb[3], double k, double l0,
                           int psd, double H[36]);

#endif
