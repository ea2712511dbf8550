/* Private: a skeleton (joints with parents, rest offsets and rotation limits), its poses
 * and forward kinematics.
 *
 * A pose gives each joint a local rotation R_j relative to the rest pose (identity in
 * the rest pose) and the root a translation.  Forward kinematics composes them down the
 * tree (parents come before their children):
 *
 *   W_j = W_parent R_j,          p_j = p_parent + W_parent o_j      (root: p = o + t)
 *
 * and a point attached rigidly to joint j moves from its rest place y to
 *
 *   x = W_j (y - p_j^rest) + p_j  =  R y + t   with R = W_j, t = p_j - W_j p_j^rest,
 *
 * the joint's skinning transform (cloth__xform).  Matrices are 3x3 row-major. */
#ifndef CLOTH_BODY_SKELETON_H
#define CLOTH_BODY_SKELETON_H

#include "cloth.h"

#define CLOTH__MAX_JOINTS 32
#define CLOTH__JOINT_NAME 64     /* a body joint's name (a Mixamo skeleton's reach ~30) */

typedef struct cloth__joint {
    char name[CLOTH__JOINT_NAME]; /* "l_elbow", ...                                    */
    int parent;                   /* index of the parent (smaller), -1 for the root     */
    double offset[3];             /* rest position relative to the parent's (m)         */
    double limit;                 /* largest rotation from rest IK may give it (rad)    */
} cloth__joint;

typedef struct cloth__skeleton {
    int n;                                  /* joints                                   */
    cloth__joint joint[CLOTH__MAX_JOINTS];
    double rest[CLOTH__MAX_JOINTS][3];      /* rest world positions (from the offsets)  */
} cloth__skeleton;

typedef struct cloth__pose {
    double rot[CLOTH__MAX_JOINTS][9];       /* local rotation of each joint from rest   */
    double root[3];                         /* the root's translation from rest (m)     */
} cloth__pose;

/* x = R y + t: a joint's skinning transform from the rest pose to the current one. */
typedef struct cloth__xform {
    double R[9];
    double t[3];
} cloth__xform;

/* Appends a joint; returns its index, or -1 when the skeleton is full, the parent is not
 * an earlier joint or the name is taken. */
int cloth__skeleton_add(cloth__skeleton *s, const char *name, int parent,
                        const double offset[3], double limit);

/* Index of the joint called name, or -1. */
int cloth__skeleton_find(const cloth__skeleton *s, const char *name);

/* The rest pose: every rotation the identity, no translation. */
void cloth__pose_rest(const cloth__skeleton *s, cloth__pose *pose);

/* World joint positions pos (may be NULL) and skinning transforms xf (may be NULL). */
void cloth__skeleton_fk(const cloth__skeleton *s, const cloth__pose *pose,
                        double pos[][3], cloth__xform *xf);

/* ------------------------------------------------------- rotation helpers */

/* C = A B */
void cloth__mat_mul(const double A[9], const double B[9], double C[9]);
/* C = A^T B */
void cloth__mat_tmul(const double A[9], const double B[9], double C[9]);
/* y = A x, y = A^T x (y may not alias x) */
void cloth__mat_vec(const double A[9], const double x[3], double y[3]);
void cloth__mat_tvec(const double A[9], const double x[3], double y[3]);
/* The rotation by angle (rad) about the unit axis (Rodrigues). */
void cloth__rot_axis_angle(const double axis[3], double angle, double R[9]);
/* The angle (rad, in [0, pi]) and the unit axis of a rotation. */
double cloth__rot_angle(const double R[9], double axis[3]);
/* Rotation about x, y or z (axis 0, 1, 2) by angle (rad). */
void cloth__rot_basic(int axis, double angle, double R[9]);

#endif
