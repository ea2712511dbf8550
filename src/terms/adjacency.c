/* The mesh's adjacency (adjacency.h). */
#include "terms/adjacency.h"

#include <stdlib.h>

static int compare_int(const void *a, const void *b)
{
    int p = *(const int *)a, q = *(const int *)b;
    return (p > q) - (p < q);
}

int cloth__mesh_adjacency(const cloth_mesh *m, int **start_out, int **adj_out)
{
    int n = m->n;
    size_t ends = 2 * (size_t)m->n_springs + 6 * (size_t)m->n_tris;
    int *start = calloc((size_t)n + 1, sizeof *start);
    int *adj = malloc((ends + 1) * sizeof *adj);
    int *fill = calloc((size_t)n + 1, sizeof *fill);
    *start_out = *adj_out = NULL;
    if (!start || !adj || !fill) {
        free(start);
        free(adj);
        free(fill);
        return 0;
    }
    /* count both ends of every spring and triangle side, then place them */
    for (int s = 0; s < m->n_springs; s++) {
        start[m->springs[s].a + 1]++;
        start[m->springs[s].b + 1]++;
    }
    for (int k = 0; k < 3 * m->n_tris; k++)
        start[m->tris[k] + 1] += 2; /* the side to the next corner and from the previous */
    for (int i = 0; i < n; i++)
        start[i + 1] += start[i];
    for (int s = 0; s < m->n_springs; s++) {
        int a = m->springs[s].a, b = m->springs[s].b;
        adj[start[a] + fill[a]++] = b;
        adj[start[b] + fill[b]++] = a;
    }
    for (int t = 0; t < m->n_tris; t++)
        for (int e = 0; e < 3; e++) {
            int a = m->tris[3 * t + e], b = m->tris[3 * t + (e + 1) % 3];
            adj[start[a] + fill[a]++] = b;
            adj[start[b] + fill[b]++] = a;
        }
    /* sort each row and squeeze out duplicates, compacting in place */
    int out = 0;
    for (int i = 0; i < n; i++) {
        int lo = start[i], hi = lo + fill[i];
        qsort(adj + lo, (size_t)(hi - lo), sizeof *adj, compare_int);
        start[i] = out;
        for (int k = lo; k < hi; k++)
            if (k == lo || adj[k] != adj[k - 1])
                adj[out++] = adj[k];
    }
    start[n] = out;
    free(fill);
    *start_out = start;
    *adj_out = adj;
    return 1;
}

int cloth__adjacent(const int *start, const int *adj, int i, int j)
{
    const int *lo = adj + start[i];
    size_t count = (size_t)(start[i + 1] - start[i]);
    return bsearch(&j, lo, count, sizeof *lo, compare_int) != NULL;
}
