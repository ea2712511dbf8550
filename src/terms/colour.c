/* Greedy colouring of items (springs, constraints, triangles) by their shared vertices,
 * and the tiled order of a pass over them; colour.h. */
#include "terms/colour.h"

#include "core/status.h"

#include <stdint.h>
#include <stdlib.h>

/* Greedy first-fit: colour[i] for every item; 0 when an item would need more than
 * CLOTH__MAX_COLOURS (its id in *bad), -1 when out of memory. */
static int greedy(int n_items, int arity, const int *ends, int n_vertices,
                  unsigned char *colour, int *n_colours, int *bad)
{
    /* used[v]: bit q set when a colour-q item already touches vertex v */
    uint64_t *used = calloc((size_t)n_vertices + 1, sizeof *used);
    if (!used)
        return -1;
    *n_colours = 0;
    for (int i = 0; i < n_items; i++) {
        uint64_t taken = 0;
        for (int e = 0; e < arity; e++)
            taken |= used[ends[arity * i + e]];
        if (taken == UINT64_MAX) {
            free(used);
            *bad = i;
            return 0;
        }
        int q = 0;
        while (taken >> q & 1)
            q++;
        colour[i] = (unsigned char)q;
        if (q + 1 > *n_colours)
            *n_colours = q + 1;
        for (int e = 0; e < arity; e++)
            used[ends[arity * i + e]] |= (uint64_t)1 << q;
    }
    free(used);
    return 1;
}

/* An item's place in a pass: its group (even tile, odd tile, or the long items), colour,
 * lowest vertex, id, sorted in that order; and its span (highest minus lowest vertex). */
typedef struct place {
    int group, colour, low, item, span;
} place;

static int by_place(const void *p, const void *q)
{
    const place *a = p, *b = q;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    if (a->colour != b->colour)
        return a->colour < b->colour ? -1 : 1;
    if (a->low != b->low)
        return a->low < b->low ? -1 : 1;
    return (a->item > b->item) - (a->item < b->item);
}

static int by_int(const void *p, const void *q)
{
    int a = *(const int *)p, b = *(const int *)q;
    return (a > b) - (a < b);
}

cloth_status cloth__colour_items(int n_items, int arity, const int *ends, int n_vertices,
                                 cloth__colouring *c, cloth_error *err)
{
    *c = (cloth__colouring){0};
    c->n_items = n_items;
    unsigned char *colour = malloc((size_t)n_items + 1);
    place *at = malloc(sizeof *at * ((size_t)n_items + 1));
    int *span = malloc(sizeof(int) * ((size_t)n_items + 1));
    if (!colour || !at || !span)
        goto fail_memory;
    int bad = 0, ok = greedy(n_items, arity, ends, n_vertices, colour, &c->n_colours, &bad);
    if (ok < 0)
        goto fail_memory;
    if (ok == 0) {
        free(colour);
        free(at);
        free(span);
        return cloth__fail(err, CLOTH_EINVAL,
                           "colouring: item %d needs more than %d colours (a vertex in too "
                           "many constraints)", bad, CLOTH__MAX_COLOURS);
    }
    /* T: the 99th percentile of the spans, at least CLOTH__TILE_MIN */
    for (int i = 0; i < n_items; i++) {
        int low = ends[arity * i], high = low;
        for (int e = 1; e < arity; e++) {
            int v = ends[arity * i + e];
            low = v < low ? v : low;
            high = v > high ? v : high;
        }
        at[i] = (place){0, colour[i], low, i, high - low};
        span[i] = high - low; /* sorted below for the percentile */
    }
    qsort(span, (size_t)n_items, sizeof(int), by_int);
    int p99 = n_items > 0 ? span[(int)(0.99 * (n_items - 1))] : 0;
    c->tile_size = p99 > CLOTH__TILE_MIN ? p99 : CLOTH__TILE_MIN;
    int tiles = (n_vertices + c->tile_size - 1) / c->tile_size;
    c->n_tiles[0] = (tiles + 1) / 2;
    c->n_tiles[1] = tiles / 2;
    for (int i = 0; i < n_items; i++) {
        int t = at[i].low / c->tile_size;
        at[i].group = at[i].span > c->tile_size ? tiles
                      : t % 2 == 0              ? t / 2
                                                : c->n_tiles[0] + t / 2;
    }
    qsort(at, (size_t)n_items, sizeof *at, by_place);
    c->order = malloc(sizeof(int) * ((size_t)n_items + 1));
    c->segment = malloc(sizeof(int) * ((size_t)n_items + 2));
    c->tile = malloc(sizeof(int) * ((size_t)tiles + 1));
    if (!c->order || !c->segment || !c->tile)
        goto fail_memory;
    /* a new segment wherever the group or the colour changes; every tile (empty ones
     * too) starts at the first segment of its group */
    int group = 0;
    c->tile[0] = 0;
    for (int j = 0; j < n_items; j++) {
        c->order[j] = at[j].item;
        if (j > 0 && at[j].group == at[j - 1].group && at[j].colour == at[j - 1].colour)
            continue;
        while (group < at[j].group)
            c->tile[++group] = c->n_segments;
        c->segment[c->n_segments++] = j;
    }
    while (group < tiles)
        c->tile[++group] = c->n_segments;
    c->segment[c->n_segments] = n_items;
    c->n_steps = 2 + c->n_segments - c->tile[tiles];
    free(colour);
    free(at);
    free(span);
    return CLOTH_OK;

fail_memory:
    free(colour);
    free(at);
    free(span);
    cloth__colouring_free(c);
    return cloth__fail(err, CLOTH_ENOMEM, "colouring: out of memory for %d items", n_items);
}

void cloth__colouring_free(cloth__colouring *c)
{
    free(c->order);
    free(c->segment);
    free(c->tile);
    c->order = c->segment = c->tile = NULL;
}

void cloth__share(int n, int part, int parts, int *lo, int *hi)
{
    *lo = (int)((long)n * part / parts);
    *hi = (int)((long)n * (part + 1) / parts);
}

int cloth__colouring_range(const cloth__colouring *c, int step, int part, int parts, int k,
                           int *lo, int *hi)
{
    if (step < 2) { /* whole tiles of one parity */
        int first = step == 0 ? 0 : c->n_tiles[0], t0, t1;
        cloth__share(c->n_tiles[step], part, parts, &t0, &t1);
        int g = c->tile[first + t0] + k;
        if (g >= c->tile[first + t1])
            return 0;
        *lo = c->segment[g];
        *hi = c->segment[g + 1];
        return 1;
    }
    if (k > 0)
        return 0;
    /* one long colour: runs of whole blocks of 8 */
    int g = c->tile[c->n_tiles[0] + c->n_tiles[1]] + step - 2;
    int first = c->segment[g], n = c->segment[g + 1] - first, b0, b1;
    cloth__share((n + 7) / 8, part, parts, &b0, &b1);
    *lo = first + 8 * b0 < first + n ? first + 8 * b0 : first + n;
    *hi = first + 8 * b1 < first + n ? first + 8 * b1 : first + n;
    return 1;
}
