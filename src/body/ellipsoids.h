/* Private: avatar.collision = ellipsoids, the comparison method of the mass-spring paper
 * on dressing animated bodies: adaptive ellipsoid bounds per body part, point-triangle
 * tests inside them (docs/avatar.md).
 *
 * - Parts: each surface triangle belongs to the bone with the largest weight summed over
 *   its three vertices ("skinned mainly to that bone").
 * - Ellipsoid of a bone: axes the principal axes of its triangles' rest vertices (the
 *   eigenvectors of their covariance), centre the middle of their extents e_k along
 *   those axes, semi-axes r_k = sqrt(s) e_k with s = max over the vertices of
 *   sum_k (l_k / e_k)^2 (l: the vertex in the ellipsoid's frame): the smallest ellipsoid
 *   of those proportions that holds every vertex.  It moves rigidly with its bone.
 * - Query bound: the ellipsoid scaled by lambda = 1 + margin / min_k r_k about its
 *   centre; since the ellipsoid holds the ball of radius min r_k about its centre,
 *   lambda E contains every point within margin of E (E + margin B is inside
 *   E + (lambda - 1) E = lambda E).  margin is the skin offset plus 2 cm for the
 *   blended vertices near a joint, which linear blend skinning moves off the rigid bone.
 *   A point outside every bound is skipped: no collision.
 * - Inside some bounds: the exact distance to those bones' triangles as posed (skinned),
 *   the sign of the nearest triangle's outward normal (trisurf.h), per closed part of
 *   the surface, combined over parts as trisurf.h says.  Within the margin of the
 *   surface this is exact where the bones move rigidly: the nearest triangle lies in its
 *   bone's ellipsoid, so its bound holds the point and it is tested.  Deeper, a part's
 *   nearest tested triangle may not be its nearest and its sign means nothing, so an
 *   "inside" deeper than the margin is not believed (a cloth vertex cannot get that far
 *   into the skin within a step).  The point is pushed out to the
 *   offset from its closest point q, x <- q + offset n, n = +-(x - q)/|x - q| outwards
 *   (the nearest triangle's normal when q is inside the face). */
#ifndef CLOTH_BODY_ELLIPSOIDS_H
#define CLOTH_BODY_ELLIPSOIDS_H

#include "body/mannequin.h"

typedef struct cloth__ellipsoid {
    int joint;                  /* the bone that moves it                             */
    double c[3];                /* centre in the rest pose (m)                        */
    double axis[9];             /* its unit axes, one a row (rest pose)               */
    double r[3];                /* semi-axes along them (m)                           */
    double lambda;              /* the query bound's scale, 1 + margin / min r        */
} cloth__ellipsoid;

typedef struct cloth__ellipsoids {
    int n;
    cloth__ellipsoid e[CLOTH__MAX_JOINTS];
    int first[CLOTH__MAX_JOINTS + 1]; /* ellipsoid i's triangles: tri[first[i] ..      */
    int *tri;                   /* body triangles grouped by bone                     */
    int *tri_part;              /* the surface part of each body triangle             */
    double margin;              /* the bounds' margin (m)                             */
} cloth__ellipsoids;

/* The ellipsoids of the body's bones (those with triangles); allocates. */
cloth_status cloth__ellipsoids_build(cloth__ellipsoids *E, const cloth__body *body,
                                     double margin, cloth_error *err);
void cloth__ellipsoids_free(cloth__ellipsoids *E);

/* sum_k (l_k / (scale r_k))^2 of the point x posed by the bone's transform xf: <= 1 when
 * inside the ellipsoid scaled by scale. */
double cloth__ellipsoid_level(const cloth__ellipsoid *e, const cloth__xform *xf,
                              const double x[3], double scale);

/* The signed distance from x to the posed surface (verts: the skinned vertices) over the
 * triangles of the bones whose query bound holds x, and the outward unit direction in
 * dir (the push-out's); HUGE_VAL when no bound holds it.  *tested (if not NULL): the
 * triangles tested. */
double cloth__ellipsoids_query(const cloth__ellipsoids *E, const cloth__body *body,
                               const double *verts, const cloth__xform *xf, const double x[3],
                               double dir[3], int *tested);

#endif
