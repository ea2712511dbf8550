/* Private: the sphere and the floor.  Gaps include the offset (skin): a vertex is in
 * contact when its gap is 0 and penetrates when it is negative. */
#ifndef CLOTH_OBSTACLE_H
#define CLOTH_OBSTACLE_H

#include "cloth.h"

/* Centre of the sphere at time t (static, orbit or path motion). */
void cloth__sphere_center(const cloth_sphere_def *sphere, double t, double c[3]);

/* g = |x - c| - r - offset */
double cloth__sphere_gap(const cloth_sphere_def *sphere, const double c[3], const double x[3]);

/* g = y - height - offset */
double cloth__floor_gap(const cloth_floor_def *floor, const double x[3]);

enum { CLOTH__HIT_NONE = 0, CLOTH__HIT_SPHERE = 1, CLOTH__HIT_FLOOR = 2 };

/* Moves x onto the surface of every obstacle it is inside (the Verlet cloth web demo's
 * projection).  Returns CLOTH__HIT_NONE if it did not move, else which surface it was
 * put on last, with that surface's outward normal in normal. */
int cloth__push_out(const cloth_scene *scene, const double c[3], double x[3],
                    double normal[3]);

#endif
