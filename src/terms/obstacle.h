/* Private: the sphere and the floor ([plane] in scene files): where the sphere is, and
 * the projection of a vertex out of them.  Their gaps, with derivatives, are in
 * contact.h (cloth__gap_sphere, cloth__gap_floor). */
#ifndef CLOTH_OBSTACLE_H
#define CLOTH_OBSTACLE_H

#include "cloth.h"

/* Centre of the sphere at time t (static, orbit or path motion). */
void cloth__sphere_center(const cloth_sphere_def *sphere, double t, double c[3]);

/* The centre's velocity at time t, dc/dt of cloth__sphere_center (0 when static). */
void cloth__sphere_center_velocity(const cloth_sphere_def *sphere, double t, double v[3]);

/* The velocity at time t of the sphere's own material at the point x, the sphere moving
 * as a rigid body:
 *
 *   v_s(x) = dc/dt + w x (x - c(t)),   w = (0, sphere.spin, 0)
 *          = dc/dt + spin ((x - c)_z, 0, -(x - c)_x).
 *
 * For friction: a vertex at x (on the surface or within the contact distance) with
 * velocity v slips over the sphere at the relative velocity v - v_s(x), whose tangential
 * part (I - n n^T)(v - v_s(x)), n = (x - c)/|x - c|, friction opposes.  A spin turns
 * the sphere in place: v_s is tangential to the surface and no vertex is pushed out by
 * it; without friction the spin changes nothing.  x need not be on the surface (points
 * inside or outside move with the same rigid motion).  The kernels that put vertices
 * back on the surface today (cloth__push_out) and Newton's sphere barrier use only the
 * centre; the explicit kernel's velocity correction uses the centre's motion. */
void cloth__sphere_surface_velocity(const cloth_sphere_def *sphere, double t,
                                    const double x[3], double v[3]);

enum { CLOTH__HIT_NONE = 0, CLOTH__HIT_SPHERE = 1, CLOTH__HIT_FLOOR = 2, CLOTH__HIT_BODY = 3 };

/* A body the cloth may not enter, handed down by the layer that owns it (the sim hands
 * its avatar's, body/avatar.h): this layer knows no body.  push_out(ctx, x, normal) moves
 * x onto the surface if it is inside and returns 1 with the outward normal there, else
 * returns 0; push_out NULL is no body. */
typedef struct cloth__push_body {
    int (*push_out)(const void *ctx, double x[3], double normal[3]);
    const void *ctx;            /* the body push_out reads                            */
} cloth__push_body;

/* Moves x onto the surface of every obstacle it is inside (the Verlet cloth web demo's
 * projection): the body first (body may be NULL), then the sphere, then the floor.
 * Returns CLOTH__HIT_NONE if it did not move, else which surface it was put on last,
 * with that surface's outward normal in normal. */
/* The smaller of x's gaps to the scene's sphere (centre c) and floor, each less its
 * offset (terms/contact.h); HUGE_VAL with neither. */
double cloth__obstacle_gap(const cloth_scene *scene, const double c[3], const double x[3]);

int cloth__push_out(const cloth_scene *scene, const double c[3], const cloth__push_body *body,
                    double x[3], double normal[3]);

/* A monotonic clock in milliseconds (the avatar's collision stage is timed with it). */
double cloth__clock_ms(void);

#endif
