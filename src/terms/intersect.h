/* Private: cloth-cloth intersections, counted as (edge, triangle) pairs of the mesh that
 * share no vertex and where the edge meets the triangle.  A metric, not a force: it says
 * whether and how much two parts of the cloth have passed through each other.
 *
 * The narrow phase decides from signs of orientation determinants only,
 *
 *   orient(a, b, c, d) = det [a - d; b - d; c - d]      (rows; 6 x the signed volume)
 *
 * which is > 0 when d lies below the plane of a, b, c (a, b, c counterclockwise seen
 * from above), < 0 above it, 0 on it.  The sign is exact: a floating-point evaluation
 * with Shewchuk's error bound ("Adaptive precision floating-point arithmetic and fast
 * robust geometric predicates", 1997) decides when it can, an exact evaluation in
 * floating-point expansions decides the rest.  So every answer below holds for the
 * positions as given, rounding included, and the decision never depends on a tolerance.
 *
 * The edge (p, q) meets the triangle (a, b, c) when
 *   sp = orient(a, b, c, p), sq = orient(a, b, c, q): not both 0 and not of one strict
 *     sign (the closed segment reaches the plane at one point X), and
 *   s1 = orient(p, q, a, b), s2 = orient(p, q, b, c), s3 = orient(p, q, c, a): not of
 *     two strict opposite signs (X lies in the closed triangle).
 * The second test is right because orient(p, q, a, b) = ((q - p).n) 2 A(X, a, b) with n
 * the unit normal and A(X, a, b) the signed area of (X, a, b) in the plane: the three
 * signs are the signs of X's barycentric coordinates times one common nonzero factor.
 *
 * What counts (a closed edge against a closed triangle, out of its plane):
 *   through the interior                                   1
 *   through a triangle edge or a vertex                    1  (each triangle around it)
 *   an endpoint of the edge on the triangle (face, edge,
 *     or vertex) while the other endpoint is off the plane 1
 *   edge in the triangle's plane (coplanar), overlapping
 *     or not                                               0
 *   degenerate triangle (zero area) or zero-length edge    0
 * Why: the metric must see every place where two sheets meet and never a pair that is
 * apart.  A pair at zero distance is not apart, and counting the closed cases is what
 * makes "at least once" hold.  Claim: when two non-degenerate triangles T1, T2 that
 * share no vertex meet and are not coplanar, one of their six (edge, triangle) pairs
 * counts.  T1 and T2 cut the intervals S1 = T1 n plane(T2) and S2 = T2 n plane(T1) from
 * the line where their planes meet, and S1 n S2 = T1 n T2 is not empty, so an endpoint
 * u of one interval, say S1, lies in the other, so in T2.  u is on the boundary of T1:
 * either a vertex, on two edges of which at most one lies in plane(T2), or inside an
 * edge that does not lie in plane(T2) (if it did, S1 would be that edge and u one of
 * its vertices).  That edge meets T2 at u out of its plane: it counts, through the
 * interior, a triangle edge or vertex, or by its endpoint.  So the count is positive
 * exactly when two such triangles meet.  Coplanar pairs do not count: an edge lying in
 * a triangle's plane is tangent contact, not a crossing, and a flat sheet must read 0;
 * two sheets lying flat on each other in one plane read 0 too.  Degenerate events count
 * several times (an edge through a shared triangle edge counts for both triangles); an
 * edge through the inside of a face counts once.
 *
 * Broad phase: a hashed uniform grid.  The cell edge s is twice the triangles' largest
 * bounding-box extent, capped at 8 x their mean extent (so that one stretched triangle
 * cannot make one cell of everything).  A triangle whose box fits in s/2 is stored
 * once, in the cell of its box's lower corner; an edge with box lo..hi looks in the
 * cells from that of lo - s/2 (a little more, for rounding) to that of hi, which hold
 * every such triangle whose box can overlap its own (at most 3 x 3 x 3 cells for an edge
 * no longer than s/2, most often 2 x 2 x 2).  Larger triangles, and edges
 * that would span more than 3 cells on an axis, are tested against everything, so the
 * count is exact whatever the geometry (the tests compare it with all pairs) and each
 * pair is tested at most once.  All memory is sized at creation; a count allocates
 * nothing. */
#ifndef CLOTH_INTERSECT_H
#define CLOTH_INTERSECT_H

#include "cloth.h"

/* The sign of orient(a, b, c, d) as defined above: -1, 0 or 1, exact for finite input
 * (products of three coordinates must neither overflow nor underflow, which holds for
 * coordinates between 1e-80 and 1e80 in magnitude, or 0). */
int cloth__orient3d(const double a[3], const double b[3], const double c[3],
                    const double d[3]);

/* 1 when the edge (p, q) meets the triangle (a, b, c) by the rules above, else 0. */
int cloth__edge_meets_triangle(const double p[3], const double q[3], const double a[3],
                               const double b[3], const double c[3]);

/* The work of a count for one mesh: its unique edges and the broad phase's grid. */
typedef struct cloth__intersect cloth__intersect;

/* Builds the edge list from mesh->tris (each unordered vertex pair of a triangle once)
 * and sizes the grid for mesh->n_tris triangles.  A mesh without triangles is valid
 * (the count is then 0). */
cloth_status cloth__intersect_create(const cloth_mesh *mesh, cloth__intersect **out,
                                     cloth_error *err);
void cloth__intersect_destroy(cloth__intersect *work);

/* The number of (edge, triangle) pairs that share no vertex and where the edge meets the
 * triangle, at positions x (3 mesh->n).  mesh is the one work was created for.  Returns
 * -1 when a position is not finite.  Allocates nothing. */
long cloth__count_intersections(const cloth_mesh *mesh, const double *x,
                                cloth__intersect *work);

/* The first pair that counts: the first edge in the order of the edge list (by its
 * smaller vertex, then its larger) that meets a triangle, and the smallest index of a
 * triangle it meets.  Returns 1 with the edge's vertices *a < *b and the triangle *tri,
 * 0 when no pair counts, -1 when a position is not finite.  Allocates nothing. */
int cloth__first_intersection(const cloth_mesh *mesh, const double *x, cloth__intersect *work,
                              int *a, int *b, int *tri);

/* The number of edges in work (for tests and reports). */
int cloth__intersect_edge_count(const cloth__intersect *work);

#endif
