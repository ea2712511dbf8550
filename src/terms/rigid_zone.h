/* Private: one rigid impact zone of the collision stage (collide.h, stage (c): Provot
 * 1997; Bridson, Fedkiw and Anderson 2002). */
#ifndef CLOTH_RIGID_ZONE_H
#define CLOTH_RIGID_ZONE_H

/* One impact zone: the count vertices verts[] move rigidly over the step as (c) of
 * collide.h says, from x0 and the average velocities (x1 - x0) / h, with the zone's
 * linear and angular momentum (inverse masses inv_mass); x1 and v of those vertices are
 * rewritten (the stage's own zone motion, public for the tests).  Allocates nothing. */
void cloth__collide_rigid_zone(const int *verts, int count, double h, const double *x0,
                               double *x1, double *v, const double *inv_mass);

#endif
