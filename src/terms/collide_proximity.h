/* Private to the collision stage (collide.h, (a)): the proximity impulses
 * (collide_proximity.c). */
#ifndef CLOTH_COLLIDE_PROXIMITY_H
#define CLOTH_COLLIDE_PROXIMITY_H

#include "terms/collide_state.h"

/* (a): the proximity impulses over the pairs closer than delta at x0 (since > 0: only
 * those with a vertex moved after the clock since); returns the impulses that moved a
 * pair's end separation by more than CLOTH__COLLIDE_OBSTACLE_ENOUGH of the thickness. */
int cloth__collide_proximity(cloth__collide *c, const cloth__collide_def *def, double h,
                             const double *x0, double *x1, double *v, const double *inv_mass,
                             unsigned since, cloth__collide_result *res);

#endif
