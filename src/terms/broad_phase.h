/* Private: the broad phase of cloth-cloth contact — the point-triangle and edge-edge pairs
 * of a triangle mesh whose bounding boxes, each grown by r/2 on every side, overlap
 * (so every pair closer than r is among them), optionally over a linear motion x -> x +
 * dx (the boxes then hold both ends, so every pair that comes closer than r at some
 * time of the motion is among them).  Pairs that share a vertex are left out, and so
 * are pairs whose vertices are all fixed.
 *
 * Method: a hashed uniform grid (as terms/intersect.c's).  The cell edge s is twice
 * the triangles' mean box extent (grown boxes).  Each triangle (and, in a second grid,
 * each edge) whose box fits in s is stored once, in the cell of its box's lower corner;
 * a box B with extent <= s overlaps a box Q only if B.lo lies in [Q.lo - s, Q.hi] on
 * every axis, so a vertex (or an edge) looks in the cells from that of Q.lo - s to that
 * of Q.hi.  Larger triangles and edges are kept in a list that every query tests, and
 * a query box that would span more than 4 cells on an axis tests all primitives, so
 * the result is the exact set of overlapping pairs whatever the geometry (the tests
 * compare it with all pairs).  Every pair is found once.
 *
 * All memory is sized at creation; a query allocates nothing. */
#ifndef CLOTH_BROAD_PHASE_H
#define CLOTH_BROAD_PHASE_H

#include "cloth.h"

#include <math.h>

typedef struct cloth__broad_phase cloth__broad_phase;

/* The pairs of the last query, valid until the next one: pt[2k] a vertex and pt[2k+1] a
 * triangle (an index into mesh->tris); ee[2k] < ee[2k+1] two edges (indices into the
 * broad phase's edge list).  overflow is set when more pairs existed than the capacity
 * (the first ones found are kept). */
typedef struct cloth__broad_pairs {
    const int *pt;
    int n_pt;
    const int *ee;
    int n_ee;
    int overflow;
} cloth__broad_pairs;

/* The unique sides of the mesh's triangles, (lower, higher) and sorted, into edges (room
 * for 6 n_tris ints); a side that joins a vertex to itself (a degenerate triangle) is
 * none.  Returns their number. */
int cloth__triangle_edges(const cloth_mesh *mesh, int *edges);

/* For mesh's triangles and their edges, with room for max_pairs pairs of each kind. */
cloth_status cloth__broad_phase_create(const cloth_mesh *mesh, int max_pairs,
                                       cloth__broad_phase **out, cloth_error *err);
void cloth__broad_phase_destroy(cloth__broad_phase *bp);

/* The mesh's unique triangle edges, 2 vertices each (lower index first); returns their
 * number. */
int cloth__broad_phase_edges(const cloth__broad_phase *bp, const int **edges);

/* The pairs at positions x (3 n), or over the motion x -> x + dx when dx is not NULL,
 * closer than r >= 0 (finite).  fixed (n entries, may be NULL): a pair whose vertices
 * are all fixed is left out. */
void cloth__broad_phase_query(cloth__broad_phase *bp, const double *x, const double *dx,
                              double r, const unsigned char *fixed, cloth__broad_pairs *out);

/* Sorts the last query's pairs (out's lists, which it keeps) into an order that does not
 * depend on the grid: point-triangle by vertex then triangle, edge-edge by lower then
 * higher edge.  A query lists them by vertex (lower edge) already, in the grid's order
 * within one; this sorts within each such run (insertion sort: the runs are short). */
void cloth__broad_phase_sort(cloth__broad_phase *bp);

/* The cell query, for the robust collision stage (terms/collide.c): the same pairs as
 * cloth__broad_phase_query, already sorted as cloth__broad_phase_sort sorts them, by
 * grids whose cells are about one mean box across, each box stored in every cell it
 * touches (up to 3 on an axis; larger boxes in a list every query tests), a pair kept
 * only in the cell of its boxes' intersection's lower corner (broad_phase.c).  When the
 * pairs overflow the room, which ones are kept differs from cloth__broad_phase_query's.
 * cloth__broad_phase_enable_cells allocates its grids, once (27 entries a primitive). */
cloth_status cloth__broad_phase_enable_cells(cloth__broad_phase *bp, cloth_error *err);
void cloth__broad_phase_query_cells(cloth__broad_phase *bp, const double *x,
                                    const double *dx, double r, const unsigned char *fixed,
                                    cloth__broad_pairs *out);

/* The boxes of the broad phase, as inline pieces so that a caller that filters pairs by
 * the broad phase's own test (collide.c) does the same arithmetic.  A box is lo[3],
 * hi[3].  Comparisons, not fmin and fmax (calls): they differ only in the sign of a
 * zero, which no comparison of boxes sees. */
static inline void cloth__box_reset(double box[6])
{
    for (int c = 0; c < 3; c++) {
        box[c] = INFINITY;
        box[3 + c] = -INFINITY;
    }
}

/* box grows to hold a and b on axis c (one coordinate's two ends of a motion). */
static inline void cloth__box_add(double box[6], int c, double a, double b)
{
    double lo = b < a ? b : a, hi = b > a ? b : a;
    box[c] = lo < box[c] ? lo : box[c];
    box[3 + c] = hi > box[3 + c] ? hi : box[3 + c];
}

static inline void cloth__box_grow(double box[6], double half)
{
    for (int c = 0; c < 3; c++) {
        box[c] -= half;
        box[3 + c] += half;
    }
}

static inline int cloth__boxes_meet(const double a[6], const double b[6])
{
    return a[0] <= b[3] && b[0] <= a[3] && a[1] <= b[4] && b[1] <= a[4] && a[2] <= b[5] &&
           b[2] <= a[5];
}

#endif
