/* Private: the sphere and the floor ([plane] in scene files): where the sphere is, and
 * the projection of a vertex out of them.  Their gaps, with derivatives, are in
 * contact.h (cloth__gap_sphere, cloth__gap_floor). */
#ifndef CLOTH_OBSTACLE_H
#define CLOTH_OBSTACLE_H

#include "cloth.h"

/* Centre of the sphere at time t (static, orbit or path motion). */
void cloth__sphere_center(const cloth_sphere_def *sphere, double t, double c[3]);

enum { CLOTH__HIT_NONE = 0, CLOTH__HIT_SPHERE = 1, CLOTH__HIT_FLOOR = 2 };

/* Moves x onto the surface of every obstacle it is inside (the Verlet cloth web demo's
 * projection).  Returns CLOTH__HIT_NONE if it did not move, else which surface it was
 * put on last, with that surface's outward normal in normal. */
int cloth__push_out(const cloth_scene *scene, const double c[3], double x[3],
                    double normal[3]);

#endif
