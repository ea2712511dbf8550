/* Private: the skinning back-transform of a query point into the rest pose, the method
 * of the thesis on collision detection for clothing on animated avatars (in our words,
 * README "Avatar").
 *
 * Every joint j owns a bone, the segment from its position a_j to its tip b_j (unit
 * direction u_j, length L_j), which moves rigidly with the joint's transform T_j.
 *
 * - Cylinder: around each bone, radius R_j and axial range [lo_j, hi_j] covering the
 *   joint's capsules plus a reach; a point outside every cylinder is far from the body
 *   and is not transformed at all.
 * - Separation plane between a joint c and its parent p: through a_c, normal
 *   n_c = (u_c + v_c)/|u_c + v_c|, the bisector of the child's bone u_c and the
 *   direction v_c from the parent's joint to a_c (both as posed).  The half-space
 *   (x - a_c).n_c >= 0 is c's, the other p's.  A point is a candidate of bone j when it
 *   is inside j's cylinder; the winner is the candidate whose flesh (its capsules, as
 *   posed) is nearest, and between equally near ones the one whose half-space holds x.
 *   (The thesis lets the nearest bone win only where half-spaces overlap; on our
 *   mannequin the chest's flesh reaches past the bisector plane of a lowered arm, whose
 *   rigid transform would then carry chest points, so flesh decides and the planes
 *   break ties.)
 * - Bone planes: at a joint c, the plane across the child's bone at distance w_c from the
 *   joint, s_c = (x - a_c).u_c = w_c, and the plane across the parent's direction,
 *   s_p = (a_c - x).v_c = w_c.  Between them (d_c = w_c - s_c > 0 and d_p = w_c - s_p > 0)
 *   the point is interpolated between the two joints with the weights
 *
 *     w_child = d_p / (d_p + d_c),   w_parent = d_c / (d_p + d_c),
 *
 *   1 on the child's bone plane, 0 on the parent's, continuous across the separation
 *   plane (both sides compute the same pair); elsewhere it moves rigidly with its bone.
 *   Inside a bend, beyond both bone planes, the winner changes between two rigid bones:
 *   a seam (7 cm at the elbow bent 70 degrees, 3 and 6 cm off the bones; make bench).
 *   The winner changes where both bones' flesh is equally near, so both rest places
 *   see the same distance (measured: 1 mm and 1e-11 m apart): the distance is
 *   continuous there, the normal switches as the true distance's gradient does.
 *   Bone planes parallel to the separation plane (weights from sigma = (x - a).n alone)
 *   close it, but their slab, tilted with a lowered arm, then blends the chest's back
 *   with the arm and the cape went 11.5 mm into the skin; we keep these.
 *
 * The rest place of x is then y = sum_k w_k T_k^-1 x (exact, T_j^-1 x, in a rigid zone). */
#ifndef CLOTH_BODY_BACKTRANSFORM_H
#define CLOTH_BODY_BACKTRANSFORM_H

#include "body/mannequin.h"

typedef struct cloth__bt_bone {
    double len;                 /* L_j, rest length of the bone (m)                   */
    double u_rest[3];           /* bone direction at rest                             */
    double v_rest[3];           /* direction from the parent's joint to this one, rest */
    double radius;              /* R_j: the cylinder's radius (m)                     */
    double lo, hi;              /* the cylinder's axial range along u from a_j (m)    */
    double blend;               /* w_j: half-width of the zone with the parent (m), 0
                                 * for the root                                       */
} cloth__bt_bone;

typedef struct cloth__backtransform {
    const cloth__skeleton *skel;
    int n;                                  /* joints                                 */
    cloth__bt_bone bone[CLOTH__MAX_JOINTS];
    int n_children[CLOTH__MAX_JOINTS];
    int child[CLOTH__MAX_JOINTS][6];
    int n_caps;                             /* the body's capsules, for the flesh     */
    int cap_joint[CLOTH__MAX_CAPSULES];
    double cap_r[CLOTH__MAX_CAPSULES];
} cloth__backtransform;

/* A pose as the back-transform reads it: transforms and the posed planes. */
typedef struct cloth__bt_pose {
    cloth__xform xf[CLOTH__MAX_JOINTS];
    double a[CLOTH__MAX_JOINTS][3];         /* joint positions                         */
    double b[CLOTH__MAX_JOINTS][3];         /* bone tips                               */
    double u[CLOTH__MAX_JOINTS][3];         /* bone directions                         */
    double v[CLOTH__MAX_JOINTS][3];         /* parent's joint -> this joint, unit      */
    double n[CLOTH__MAX_JOINTS][3];         /* separation plane normals                */
    double cap_a[CLOTH__MAX_CAPSULES][3];   /* the capsules' segments, posed           */
    double cap_b[CLOTH__MAX_CAPSULES][3];
} cloth__bt_pose;

/* Which joints move a point, and how much (n = 0: outside every cylinder). */
typedef struct cloth__bt_weights {
    int n;
    int joint[2];
    double w[2];
} cloth__bt_weights;

/* Cylinders, bone lengths and zones from the body; reach (m) widens every cylinder
 * beyond the capsules (at least the skin offset plus what a point may travel in a step).
 * The mannequin (capsules exact): also writes its surface's skinning weights, the
 * back-transform's at rest.  An OBJ body keeps its own weights, and each cylinder also
 * covers the vertices skinned mainly (first weight) to its bone, plus the reach. */
void cloth__bt_init(cloth__backtransform *bt, cloth__body *body, double reach);

/* The posed planes and transforms of pose. */
void cloth__bt_set_pose(const cloth__backtransform *bt, const cloth__body *body,
                        const cloth__pose *pose, cloth__bt_pose *out);

/* The weights of the posed point x; returns their count (0: skip, far from the body). */
int cloth__bt_weights_of(const cloth__backtransform *bt, const cloth__bt_pose *p,
                         const double x[3], cloth__bt_weights *w);

/* y = sum w_k T_k^-1 x (to rest) and x = sum w_k T_k y (to the pose). */
void cloth__bt_to_rest(const cloth__bt_pose *p, const cloth__bt_weights *w, const double x[3],
                       double y[3]);
void cloth__bt_to_pose(const cloth__bt_pose *p, const cloth__bt_weights *w, const double y[3],
                       double x[3]);

/* A rest direction carried into the pose, sum w_k R_k d, normalised. */
void cloth__bt_direction_to_pose(const cloth__bt_pose *p, const cloth__bt_weights *w,
                                 const double d[3], double out[3]);

#endif
