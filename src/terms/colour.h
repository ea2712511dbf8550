/* Colouring of constraints (or springs, or triangles) so that no two of one colour share
 * a vertex, and the order of a pass over them in tiles.
 *
 * A colour's items have no dependencies: SIMD lanes and threads may split them in any
 * way and still produce the same numbers (each vertex is written by one item of a
 * colour).  A pass colour by colour, over the whole mesh each time, reads every vertex
 * once a colour: out of cache (256 x 256 and up) that is a sweep of the positions from
 * memory per colour.  So a pass runs in tiles instead: tile t holds the items whose
 * lowest vertex id lies in [t T, (t + 1) T) and whose span (highest minus lowest id) is
 * at most T, so tile t touches only ids in [t T, (t + 2) T) and tiles t and t + 2 share
 * no vertex.  A pass is then
 *   step 0: the even tiles, any of them at once on different threads;
 *   step 1: the odd tiles, the same;
 *   step 2 ...: the items of a longer span (a seam between far-apart panels), one colour
 *           a step, each colour split among the threads;
 * and within a tile colour by colour: a run of one colour in one tile (a "segment")
 * shares no vertex, and is what a vectorised loop takes.  The order is fixed by the
 * items and T alone (never by the thread count), so the numbers are the same on any
 * number of threads; a tile's vertices (T + span of them) stay in cache across its
 * colours. */
#ifndef CLOTH_TERMS_COLOUR_H
#define CLOTH_TERMS_COLOUR_H

#include "cloth.h"

#define CLOTH__MAX_COLOURS 64
/* T is the 99th percentile of the items' spans, and at least this (vertex ids) */
#define CLOTH__TILE_MIN 256

typedef struct cloth__colouring {
    int n_items;                /* items coloured                                     */
    int n_colours;              /* colours used, at most CLOTH__MAX_COLOURS           */
    int *order;                 /* n_items item ids in the order of a pass            */
    int n_segments;             /* runs of one colour in one tile (or of long items)  */
    int *segment;               /* segment g is order[segment[g] .. segment[g + 1])   */
    int n_tiles[2];             /* even tiles, odd tiles                              */
    int *tile;                  /* tile k is segments [tile[k], tile[k + 1]): the even
                                 * tiles, then the odd ones; tile[n_tiles[0] +
                                 * n_tiles[1]] is the first long items' segment, one
                                 * a colour, up to n_segments                         */
    int tile_size;              /* T                                                  */
    int n_steps;                /* steps of a pass: 2 + the long items' colours       */
} cloth__colouring;

/* Greedy first-fit colouring of n_items items, item i touching the `arity` vertices
 * ends[arity i .. arity i + arity - 1] (ids in [0, n_vertices)): each item takes the
 * lowest colour none of its vertices has yet; then the order above (within a segment by
 * lowest vertex, then item id).  A mesh whose vertices meet at most d items needs at most
 * 2d - 1 colours for springs (arity 2).  CLOTH_EINVAL when more than CLOTH__MAX_COLOURS
 * would be needed, CLOTH_ENOMEM; on success the arrays are the caller's to release with
 * cloth__colouring_free (on failure they are NULL). */
cloth_status cloth__colour_items(int n_items, int arity, const int *ends, int n_vertices,
                                 cloth__colouring *c, cloth_error *err);

void cloth__colouring_free(cloth__colouring *c);

/* Thread `part` of `parts` takes [*lo, *hi) of n things (vertices, triangles): an even,
 * contiguous split that depends only on the part and the count. */
void cloth__share(int n, int part, int parts, int *lo, int *hi);

/* The k-th range of positions in order (k = 0, 1, ... until it returns 0) that thread
 * `part` of `parts` takes in step `step` of a pass; each range lies within one segment.
 * Tiles are split among the threads whole; a long colour in runs of whole blocks of 8
 * (vector lanes).  Between steps the threads must meet at a barrier. */
int cloth__colouring_range(const cloth__colouring *c, int step, int part, int parts, int k,
                           int *lo, int *hi);

#endif
