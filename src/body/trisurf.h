/* Private: distances to a triangle surface made of closed parts (a body's skin).
 *
 * The closest point of a triangle is found by its Voronoi regions (Ericson, Real-Time
 * Collision Detection, 5.1.5).  The sign of a distance comes from the nearest triangle:
 * p is outside when (p - q).n > 0, q the closest point and n the triangle's outward
 * normal; when q is on an edge or a vertex several triangles are equally near, and the
 * one whose plane p is farthest from (largest |(p - q).n| / |n|) decides.  On a closed,
 * consistently oriented part whose neighbouring faces turn by less than 90 degrees this
 * is the sign of the angle-weighted pseudonormal (Baerentzen and Aanaes 2005), which it
 * replaces without the edge table.
 *
 * A body's surface may be several closed parts that overlap (the mannequin's capsules):
 * the signed distance to their union is, as for the capsules,
 *
 *   d(p) = -max { depth of p in part c : p inside c }   if p is inside some part,
 *          min_c dist(p, part c)                          otherwise,
 *
 * (exact outside; inside, the deepest single part).  An axis-aligned box tree per part
 * (median split, four triangles a leaf) makes a query about log(triangles). */
#ifndef CLOTH_BODY_TRISURF_H
#define CLOTH_BODY_TRISURF_H

#include "cloth.h"

/* Squared distance from p to the triangle (a, b, c); its closest point in q. */
double cloth__triangle_closest(const double p[3], const double a[3], const double b[3],
                               const double c[3], double q[3]);

/* The nearest triangle found so far by a search, with what decides its sign. */
typedef struct cloth__tri_hit {
    double d2;                  /* squared distance (HUGE_VAL: none yet)             */
    double side;                /* (p - q).n / |n| of the deciding triangle          */
    int tri;                    /* its index, -1: none                               */
    double q[3];                /* the closest point                                 */
} cloth__tri_hit;

/* Offers triangle t (corners a, b, c, counter-clockwise seen from outside) to hit. */
void cloth__tri_hit_offer(cloth__tri_hit *hit, const double p[3], int t, const double a[3],
                          const double b[3], const double c[3]);

typedef struct cloth__tri_node {
    double lo[3], hi[3];        /* the box of its triangles                          */
    int first, count;           /* a leaf: order[first .. first + count); else count
                                 * = 0 and the children are first and first + 1       */
} cloth__tri_node;

typedef struct cloth__trisurf {
    const double *x;            /* vertices (3 each), not owned                       */
    const int *tris;            /* triangles (3 each), not owned                      */
    int n_parts;
    const int *part_tri;        /* part c owns triangles [part_tri[c], part_tri[c+1]) */
    int *root;                  /* each part's root node                              */
    cloth__tri_node *node;
    int n_nodes;
    int *order;                 /* triangle indices, leaves' ranges into it           */
} cloth__trisurf;

/* Builds the trees of the parts of the surface (x, tris); allocates. */
cloth_status cloth__trisurf_build(cloth__trisurf *s, const double *x, const int *tris,
                                  int n_parts, const int *part_tri, cloth_error *err);
void cloth__trisurf_free(cloth__trisurf *s);

/* The signed distance from p to the union of the parts (above). */
double cloth__trisurf_distance(const cloth__trisurf *s, const double p[3]);

#endif
