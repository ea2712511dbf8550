/* Private: a point attached to the avatar's skin (mesh.pins_follow = body: a pin that
 * moves with the body, docs/avatar.md).
 *
 * The point x0 takes the skinning weights w_k of the surface vertex nearest it in the
 * body's pose at t = 0 (the pose the cloth was placed for), and per weight its place in
 * joint k's rest frame, y_k = T_k(0)^-1 x0.  At time t it moves with the skin,
 *
 *   x(t) = x0 + sum_k w_k (T_k(t) y_k - x0),
 *
 * rigidly with joint k where one weight is 1 (x(t) = T_k(t) T_k(0)^-1 x0), and x(0) = x0
 * exactly in the rest pose (identity transforms); then pushed out of the skin to the
 * distance it started at, or the offset when that is less. */
#ifndef CLOTH_BODY_ATTACH_H
#define CLOTH_BODY_ATTACH_H

#include "body/avatar.h"

typedef struct cloth__attachment {
    int joint[CLOTH__SKIN];        /* the nearest surface vertex's joints (-1: none)  */
    double weight[CLOTH__SKIN];    /* and weights                                     */
    double y[CLOTH__SKIN][3];      /* x0 in each joint's rest frame                   */
    double x0[3];                  /* the place at t = 0                              */
    double keep;                   /* kept at least this far out of the skin (m)      */
} cloth__attachment;

/* The body's distance at x by avatar.collision in the current pose (HUGE_VAL: far). */
double cloth__avatar_attach_distance(const cloth_avatar *av, const double x[3]);

/* Attaches x0 to the skin of av's current pose (call with the avatar at t = 0; skins
 * the surface). */
void cloth__avatar_attach(cloth_avatar *av, const double x0[3], cloth__attachment *a);

/* The joint of a's largest weight (-1: none). */
int cloth__attachment_main_joint(const cloth__attachment *a);

/* a's point moved rigidly with joint alone (call with the avatar where cloth__avatar_attach
 * had it): x(t) = T_j(t) T_j(0)^-1 x0. */
void cloth__attachment_make_rigid(const cloth_avatar *av, int joint, cloth__attachment *a);

/* Where a's point is in the avatar's current pose. */
void cloth__avatar_attached(const cloth_avatar *av, const cloth__attachment *a, double x[3]);

#endif
