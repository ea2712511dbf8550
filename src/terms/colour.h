/* Colouring of constraints (or springs) so that no two of one colour share a vertex:
 * each colour is then a loop without dependencies, which SIMD lanes and threads may split
 * in any way and still produce the same numbers (each vertex is written by one item of a
 * colour, and the colours run in a fixed order). */
#ifndef CLOTH_TERMS_COLOUR_H
#define CLOTH_TERMS_COLOUR_H

#include "cloth.h"

#define CLOTH__MAX_COLOURS 64

/* The items of colour c are order[start[c] .. start[c + 1]), in ascending item order. */
typedef struct cloth__colouring {
    int n_items;                /* items coloured                                     */
    int n_colours;              /* colours used, at most CLOTH__MAX_COLOURS           */
    int start[CLOTH__MAX_COLOURS + 1]; /* first position of each colour in order      */
    int *order;                 /* n_items item ids, grouped by colour                */
} cloth__colouring;

/* Greedy first-fit colouring of n_items items, item i touching the `arity` vertices
 * ends[arity i .. arity i + arity - 1] (ids in [0, n_vertices)): each item takes the
 * lowest colour none of its vertices has yet.  A mesh whose vertices meet at most d items
 * needs at most 2d - 1 colours for springs (arity 2).  CLOTH_EINVAL when more than
 * CLOTH__MAX_COLOURS would be needed, CLOTH_ENOMEM; on success c->order is the caller's
 * to release with cloth__colouring_free. */
cloth_status cloth__colour_items(int n_items, int arity, const int *ends, int n_vertices,
                                 cloth__colouring *c, cloth_error *err);

void cloth__colouring_free(cloth__colouring *c);

#endif
