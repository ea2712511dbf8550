/* Private to the collision stage (collide.h, (c)): the rigid impact zones
 * (collide_zones.c; one zone's rigid motion in rigid_zone.c). */
#ifndef CLOTH_COLLIDE_ZONES_H
#define CLOTH_COLLIDE_ZONES_H

#include "terms/collide_state.h"

/* (c): impact zones until no pair hits. */
void cloth__collide_impact_zones(cloth__collide *c, const cloth__collide_def *def, double h,
                                 const double *x0, double *x1, double *v,
                                 const double *inv_mass, cloth__collide_result *res);

#endif
