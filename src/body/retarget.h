/* Private: a clip's motion carried onto a body whose joint names, rest pose and units
 * are not the clip's (docs/avatar.md, "Motion capture").
 *
 * Rotations.  In a BVH clip and in the body every joint's rest frame is the world's, so
 * a joint's rotation acts on the world's axes at rest.  Body joint j takes the rotation
 * of its clip joint m(j) composed with those of the unmapped clip joints between it and
 * the clip joint of j's nearest mapped body ancestor p (a clavicle, CMU's LHipJoint or
 * LowerBack: folded in, their bones part of p's),
 *
 *   Q_j = Q_{k1} Q_{k2} ... Q_{m(j)}        (k1, k2, ...: the clip path below m(p)),
 *
 * and carries it over by the rest directions of j's bone in the two skeletons: c_j in
 * the clip (m(j) to the clip joint of j's bone's child, or to the mean of m(j)'s
 * children and End Site), b_j in the body (the joint to its bone's tip), A_j the
 * shortest rotation taking c_j to b_j,
 *
 *   R_j = A_j Q_j A_j^T.
 *
 * The clip's rest pose (every Q = I) gives the body's rest pose; a rotation by an angle
 * about an axis becomes the rotation by the same angle about A_j axis, so an elbow bend
 * stays an elbow bend of the same angle, and a rotation about the bone stays a twist.
 * Limits: A_j fixes the bone's direction, not its roll about itself (a clip whose rest
 * pose rolls a bone differently from the body's bends it about a rolled axis); a body
 * joint without a clip joint stays at rest relative to its parent, its clip rotation, if
 * any, going to its mapped child.  The body's own names (joint_map.h) keep A = I.
 *
 * Root.  The clip's root position v (its position channels; without them the root stays
 * at rest) becomes the translation
 *
 *   T = s (v - o)                       the body's own names (o: the root's OFFSET),
 *   T = s v + (low_body - r_body)       retargeted: the clip's floor y = 0 at the level
 *                                       of the body's lowest joint or bone tip low_body,
 *                                       r_body the body root's rest position,
 *
 * s the body's metres per clip unit: avatar.motion_scale, else the body's own names
 * avatar.scale, else the ratio of rest hip heights (root above the lowest joint or End
 * Site) h_body / h_clip.  Unless avatar.keep_root_offset, T's horizontal part in the
 * first frame is taken away from every frame.
 *
 * Sampling at time t: between frames f0 and f1 at fraction a (bvh.h), each clip joint's
 * rotation is the geodesic Q0 (Q0^T Q1)^a (slerp), the root's position linear. */
#ifndef CLOTH_BODY_RETARGET_H
#define CLOTH_BODY_RETARGET_H

#include "body/joint_map.h"
#include "body/mannequin.h"

#define CLOTH__RETARGET_PATH 32 /* clip joints folded into one body joint at most     */

typedef struct cloth__retarget {
    char naming[64];            /* the joint map's naming, for the run's output       */
    int own;                    /* 1: the body's own names: A = I, T = s (v - o)      */
    int n_path[CLOTH__MAX_JOINTS];  /* clip joints composed into each body joint      */
    int path[CLOTH__MAX_JOINTS][CLOTH__RETARGET_PATH]; /* their indices, top first    */
    int aligned[CLOTH__MAX_JOINTS]; /* 1: A_j is not the identity                     */
    double A[CLOTH__MAX_JOINTS][9]; /* the clip bone's rest direction to the body's    */
    double units;               /* s: body metres per clip unit                       */
    int moves_root;             /* 1: the clip's root has position channels           */
    double shift[3];            /* T = s v + shift (retargeted) or s (v - o) + shift  */
} cloth__retarget;

/* The retargeting of clip (clip_name for messages) onto body by map.  motion_scale 0:
 * s from the hip heights (the body's own names: scale). */
cloth_status cloth__retarget_bind(cloth__retarget *rt, const cloth__clip *clip,
                                  const cloth__joint_map *map, const cloth__body *body,
                                  double scale, double motion_scale, int keep_root_offset,
                                  const char *clip_name, cloth_error *err);

/* The body's pose at time t (s; the clip loops).  Allocates nothing. */
void cloth__retarget_pose(const cloth__retarget *rt, const cloth__clip *clip,
                          const cloth__skeleton *s, double t, cloth__pose *pose);

/* The geodesic from R0 (a = 0) to R1 (a = 1): R0 (R0^T R1)^a. */
void cloth__rot_slerp(const double R0[9], const double R1[9], double a, double R[9]);

#endif
