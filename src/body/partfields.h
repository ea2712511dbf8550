/* Private: the body as the union of its rigidly moved parts, each with a rest-pose
 * distance field of its own flesh (newton's gap with avatar.collision = sdf).
 *
 * Part j is the flesh that joint j moves.  The mannequin: its capsules (exact).  An OBJ
 * body of several closed pieces (the exported mannequin): the pieces nearest j's rest
 * bone, their triangles' signed distance (trisurf.h), when every joint with capsules
 * gets a piece; otherwise (one closed surface) its estimated
 * capsules: the triangles skinned mainly to j are an open surface with no inside of
 * their own, and signing them by the whole surface would give back the phantoms below.
 * f_j is the trilinear field (sdf.h) of that exact distance at rest on a grid of its
 * own, the part's box plus a margin M on every side.  With T_j = (R_j, t_j) the joint's skinning transform, the body's distance
 * at a posed point x is
 *
 *   d(x) = min( C, min_j f_j(R_j^T (x - t_j)) ),   C = M (the far value),
 *
 * and its gradient R_j grad f_j of the minimising part (0 where C is the minimum).
 *
 * Why it is continuous.  Each f_j, composed with a rigid motion, is continuous on all of
 * space (sdf.h: outside its box the value at the nearest point of the box plus the
 * distance to it).  Outside part j's box f_j >= M: the nodes on the box's faces are at
 * least M from the capsules (the box is their bounding box grown by M), the interpolant
 * on a face is a convex combination of those nodes only, and outside the sample adds a
 * positive distance to that.  So min(C, f_j) = C wherever x's rest place is outside j's
 * box, and skipping those parts leaves d unchanged: d is the minimum of finitely many
 * continuous functions, continuous everywhere.  No back-transform, hence no seam where a
 * winner changes (two parts meet where their distances are equal) and no phantom: a
 * part's field holds only its own flesh, so its rigid transform cannot carry a point
 * beside another part's rest flesh.
 *
 * Lipschitz bound.  |grad f_j| <= sqrt 3 inside a grid (sdf.h), a rigid motion keeps
 * lengths, and min(C, f_j) is constant outside j's box, so along any segment d changes
 * by at most sqrt 3 times its length.  Accuracy: the union of the posed capsules has the
 * exact distance min_j dist_j(T_j^-1 x) (a union's distance is its parts' smallest;
 * inside two pieces the deeper one's depth, as trisurf.h's union), and
 * the trilinear interpolant of a 1-Lipschitz function errs by at most the weighted mean
 * of the distances to the cell's corners, <= sqrt(sum_k u_k (1 - u_k)) h <= (sqrt 3/2) h
 * (Jensen); a minimum of functions each within e of its exact one is within e of the
 * exact minimum.  So |d - exact| <= (sqrt 3/2) h where the exact distance is below C.
 *
 * The barrier sees g = d - offset; it is active for g < g^, so C >= offset + g^ (checked
 * where newton is created) keeps the cap out of every active barrier. */
#ifndef CLOTH_BODY_PARTFIELDS_H
#define CLOTH_BODY_PARTFIELDS_H

#include "body/mannequin.h"
#include "body/sdf.h"

typedef struct cloth__partfields {
    int n;                                  /* parts (joints that own capsules)       */
    int joint[CLOTH__MAX_JOINTS];           /* part k's joint                         */
    cloth__sdf f[CLOTH__MAX_JOINTS];        /* part k's rest field                    */
    double far;                             /* C: the distance's cap (m), = margin    */
    int from_pieces;                        /* 1: an OBJ body's pieces; 0: capsules   */
} cloth__partfields;

/* A field of spacing h for every joint with flesh (above), over its rest box grown by
 * margin (m).  Allocates; cloth__partfields_free releases (also after a failure). */
cloth_status cloth__partfields_build(cloth__partfields *pf, const cloth__body *body, double h,
                                     double margin, cloth_error *err);
void cloth__partfields_free(cloth__partfields *pf);

/* d(x) above with the parts moved by xf (the skeleton's skinning transforms); its
 * gradient in grad if not NULL. */
double cloth__partfields_distance(const cloth__partfields *pf, const cloth__xform *xf,
                                  const double x[3], double grad[3]);

/* The grids' nodes, summed over the parts. */
size_t cloth__partfields_nodes(const cloth__partfields *pf);

#endif
