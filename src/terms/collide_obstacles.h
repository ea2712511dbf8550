/* Private to the collision stage (collide.h, (d)): the obstacles' impulses, on single
 * vertices and on impact zones (collide_obstacles.c). */
#ifndef CLOTH_COLLIDE_OBSTACLES_H
#define CLOTH_COLLIDE_OBSTACLES_H

#include "terms/collide_state.h"

/* (d): every free vertex whose x1 is inside an obstacle put on its surface by an impulse;
 * returns the vertices moved, *most (unless NULL) the longest move. */
int cloth__collide_obstacle_pass(cloth__collide *c, const cloth__collide_def *def, double h,
                                 double *x1, double *v, double *most,
                                 cloth__collide_result *res);

/* (d) for one zone just moved rigidly: the zone translated out of the obstacles. */
void cloth__collide_zone_obstacles(cloth__collide *c, const cloth__collide_def *def, double h,
                                   const int *verts, int count, double *x1, double *v,
                                   const double *inv_mass, cloth__collide_result *res);

/* The free vertices whose x1 lies inside an obstacle. */
int cloth__collide_count_inside(const cloth__collide *c, const cloth__collide_def *def,
                                const double *x1);

#endif
