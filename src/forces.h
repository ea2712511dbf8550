/* Private: the forces shared by the force-based kernels (explicit, verlet provot) and,
 * for external forces, by pbd and newton.  Each adds into f (3n); none allocates. */
#ifndef CLOTH_FORCES_H
#define CLOTH_FORCES_H

#include "sim.h"

/* Gravity m g on every free vertex. */
void cloth__add_gravity(const cloth_sim *sim, double *f);

/* Aerodynamic triangle force (seed 004): v_rel = w(t, centroid) - mean vertex velocity,
 * F = 1/2 rho C_d A (n.v_rel)|v_rel| n, a third to each vertex.  v may be NULL (at rest). */
void cloth__add_wind(const cloth_sim *sim, const double *x, const double *v, double t,
                     double *f);

/* Air damping -c v per vertex. */
void cloth__add_air_damping(const cloth_sim *sim, const double *v, double *f);

/* Gravity + wind + air damping. */
void cloth__add_external_forces(const cloth_sim *sim, const double *x, const double *v,
                                double t, double *f);

/* Hooke forces -k (l - l0) u of every spring, plus spring damping
 * -c_d ((v_i - v_j).u) u when v is not NULL. */
void cloth__add_spring_forces(const cloth_sim *sim, const double *x, const double *v,
                              double *f);

#endif
