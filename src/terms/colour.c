/* Greedy colouring of items (springs, constraints) by their shared vertices; colour.h. */
#include "terms/colour.h"

#include "core/status.h"

#include <stdint.h>
#include <stdlib.h>

cloth_status cloth__colour_items(int n_items, int arity, const int *ends, int n_vertices,
                                 cloth__colouring *c, cloth_error *err)
{
    c->n_items = n_items;
    c->n_colours = 0;
    c->order = malloc(sizeof(int) * (size_t)(n_items + 1));
    /* used[v]: bit q set when a colour-q item already touches vertex v */
    uint64_t *used = calloc((size_t)n_vertices + 1, sizeof *used);
    unsigned char *colour = malloc((size_t)n_items + 1);
    if (!c->order || !used || !colour) {
        free(used);
        free(colour);
        cloth__colouring_free(c);
        return cloth__fail(err, CLOTH_ENOMEM, "colouring: out of memory for %d items",
                           n_items);
    }
    int count[CLOTH__MAX_COLOURS] = {0};
    for (int i = 0; i < n_items; i++) {
        uint64_t taken = 0;
        for (int q = 0; q < arity; q++)
            taken |= used[ends[arity * i + q]];
        if (taken == UINT64_MAX) {
            free(used);
            free(colour);
            cloth__colouring_free(c);
            return cloth__fail(err, CLOTH_EINVAL,
                               "colouring: item %d needs more than %d colours (a vertex "
                               "in too many constraints)", i, CLOTH__MAX_COLOURS);
        }
        int q = 0;
        while (taken >> q & 1)
            q++;
        colour[i] = (unsigned char)q;
        count[q]++;
        if (q + 1 > c->n_colours)
            c->n_colours = q + 1;
        for (int e = 0; e < arity; e++)
            used[ends[arity * i + e]] |= (uint64_t)1 << q;
    }
    /* counting sort by colour keeps ascending item order within a colour */
    c->start[0] = 0;
    for (int q = 0; q < CLOTH__MAX_COLOURS; q++)
        c->start[q + 1] = c->start[q] + (q < c->n_colours ? count[q] : 0);
    int next[CLOTH__MAX_COLOURS];
    for (int q = 0; q < CLOTH__MAX_COLOURS; q++)
        next[q] = c->start[q];
    for (int i = 0; i < n_items; i++)
        c->order[next[colour[i]]++] = i;
    free(used);
    free(colour);
    return CLOTH_OK;
}

void cloth__colouring_free(cloth__colouring *c)
{
    free(c->order);
    c->order = NULL;
}
