/* Private: a body from files, avatar.model = an OBJ surface with avatar.skeleton = a BVH
 * file whose HIERARCHY is the skeleton (docs/avatar.md).
 *
 * - Skeleton: the BVH joints in their order, the OFFSETs (times the scale) giving the rest
 *   pose; a joint's bone runs to its first child JOINT, else to its End Site, else 5 cm
 *   on along its parent's direction.  IK limits are pi (none).  At most 32 joints.
 * - Surface: the OBJ's v and f lines (cloth_obj_read: polygons fanned, other records
 *   ignored), times the scale.  Every connected piece must be closed: each edge shared
 *   by exactly two faces that run it in opposite directions (else the sign of a distance
 *   has no meaning); a piece whose signed volume sum a.(b x c)/6 is negative is turned
 *   outside in.  Triangles are regrouped by piece (the body's parts).
 * - Bone weights, from the distances d_j of the rest vertex to the bone segments:
 *
 *     w_j = (d_j + eps)^-4 / sum over the 4 nearest bones,   eps = 1e-6 m,
 *
 *   the four nearest bones at most, the largest weight first: smooth where two bones
 *   meet (equal distances blend equally), about the nearest bone alone elsewhere.  The
 *   largest gives each vertex its bone (capsules, cylinders).  The surface is then
 *   skinned, as the mannequin's, with the back-transform's weights at its rest place
 *   (backtransform.h), so that the drawn surface, the penetration metric and the
 *   collision bend alike (skinned with the distance weights themselves, the cape of
 *   experiments/avatar/mannequin_cape.ini measured 17.8 mm deep in the first 30 frames
 *   where the collision kept it out of its own, differently bent body).
 * - Capsules (for the back-transform's flesh, avatar.collision = capsules and the exact
 *   distance far from the body, cloth__body_distance_posed): one per bone with vertices
 *   skinned mainly to it, the bone's segment with radius the mean distance of those
 *   vertices to it.  The surface, not the capsules, is the body: the rest field and the
 *   penetration metric use its triangles. */
#ifndef CLOTH_BODY_BODY_FILE_H
#define CLOTH_BODY_BODY_FILE_H

#include "body/bvh.h"
#include "body/mannequin.h"

/* The body of the OBJ file obj and the BVH file skel (paths as opened), scaled. */
cloth_status cloth__body_from_files(const char *obj, const char *skel, double scale,
                                    cloth__body *body, cloth_error *err);

/* The skeleton and bone tips of a BVH hierarchy (name for messages), scaled. */
cloth_status cloth__body_skeleton(const cloth__clip *clip, const char *name, double scale,
                                  cloth__body *body, cloth_error *err);

/* Adopts the surface (x: 3 n, tris: 3 n_tris, both allocated; owned by body from the
 * call on, even when it fails): checks it is closed, orients and groups its pieces,
 * computes the weights and the capsules.  name for messages. */
cloth_status cloth__body_adopt_surface(cloth__body *body, double *x, int n, int *tris,
                                       int n_tris, const char *name, cloth_error *err);

#endif
