/* Uniform spatial hash; see spatial_hash.h. */
#include "terms/spatial_hash.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct cloth__spatial_hash {
    int n;              /* vertices                                                  */
    int max_pairs;      /* capacity of pairs                                         */
    uint32_t mask;      /* buckets - 1 (buckets is a power of two >= 2n)             */
    int64_t *cell;      /* 3n integer cell coordinates of each vertex                */
    uint32_t *bucket;   /* n: bucket of each vertex                                  */
    int *start;         /* buckets + 1: start of each bucket in sorted               */
    int *sorted;        /* n vertex indices grouped by bucket                        */
    int *pairs;         /* 2 max_pairs                                               */
    int *seen;          /* buckets: the last vertex whose neighbourhood scanned it   */
};

cloth_status cloth__spatial_hash_create(int n, int max_pairs, cloth__spatial_hash **out,
                                        cloth_error *err)
{
    *out = NULL;
    if (n < 1 || max_pairs < 0 || n > (1 << 28)) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "spatial hash: %d vertices, %d pairs (need n >= 1, pairs >= 0)", n,
                     max_pairs);
        return CLOTH_EINVAL;
    }
    cloth__spatial_hash *h = calloc(1, sizeof *h);
    if (!h)
        goto fail_alloc;
    uint32_t buckets = 2;
    while (buckets < 2u * (uint32_t)n)
        buckets <<= 1;
    h->n = n;
    h->max_pairs = max_pairs;
    h->mask = buckets - 1;
    h->cell = malloc(3 * (size_t)n * sizeof *h->cell);
    h->bucket = malloc((size_t)n * sizeof *h->bucket);
    h->start = malloc(((size_t)buckets + 1) * sizeof *h->start);
    h->sorted = malloc((size_t)n * sizeof *h->sorted);
    h->pairs = malloc((2 * (size_t)max_pairs + 1) * sizeof *h->pairs);
    h->seen = malloc((size_t)buckets * sizeof *h->seen);
    if (!h->cell || !h->bucket || !h->start || !h->sorted || !h->pairs || !h->seen)
        goto fail_alloc;
    *out = h;
    return CLOTH_OK;

fail_alloc:
    cloth__spatial_hash_destroy(h);
    if (err)
        snprintf(err->msg, sizeof err->msg, "spatial hash: out of memory for %d vertices", n);
    return CLOTH_ENOMEM;
}

void cloth__spatial_hash_destroy(cloth__spatial_hash *h)
{
    if (!h)
        return;
    free(h->cell);
    free(h->bucket);
    free(h->start);
    free(h->sorted);
    free(h->pairs);
    free(h->seen);
    free(h);
}

/* Cell coordinate of one number; clamped so that the cast stays defined for any finite
 * input (far-away vertices then share an edge cell, which costs time, not pairs). */
static int64_t cell_of(double v, double inv)
{
    double c = floor(v * inv);
    if (c > 1e15)
        c = 1e15;
    if (c < -1e15)
        c = -1e15;
    return (int64_t)c;
}

/* Teschner et al. 2003's hash of a cell (three large primes, xor). */
static uint32_t hash_cell(int64_t i, int64_t j, int64_t k, uint32_t mask)
{
    uint64_t h = ((uint64_t)i * 73856093u) ^ ((uint64_t)j * 19349663u) ^
                 ((uint64_t)k * 83492791u);
    return (uint32_t)(h ^ (h >> 32)) & mask;
}

int cloth__spatial_hash_query(cloth__spatial_hash *h, const double *x, double radius,
                              cloth__pair_filter keep, void *ctx, const int **pairs,
                              int *overflow)
{
    int n = h->n, count = 0;
    uint32_t buckets = h->mask + 1;
    double inv = 1.0 / radius, r2 = radius * radius;
    *overflow = 0;
    *pairs = h->pairs;

    /* counting sort of the vertices into buckets */
    for (uint32_t b = 0; b <= buckets; b++)
        h->start[b] = 0;
    for (int v = 0; v < n; v++) {
        int64_t *c = h->cell + 3 * (size_t)v;
        for (int d = 0; d < 3; d++)
            c[d] = cell_of(x[3 * v + d], inv);
        h->bucket[v] = hash_cell(c[0], c[1], c[2], h->mask);
        h->start[h->bucket[v] + 1]++;
    }
    for (uint32_t b = 0; b < buckets; b++)
        h->start[b + 1] += h->start[b];
    for (int v = 0; v < n; v++)
        h->sorted[h->start[h->bucket[v]]++] = v;
    for (uint32_t b = buckets; b > 0; b--) /* undo the shift the fill left behind */
        h->start[b] = h->start[b - 1];
    h->start[0] = 0;
    for (uint32_t b = 0; b < buckets; b++)
        h->seen[b] = -1;

    for (int i = 0; i < n; i++) {
        const int64_t *c = h->cell + 3 * (size_t)i;
        /* the 27 neighbour cells may hash to the same bucket: scan each bucket once
         * (seen[b] == i once vertex i has scanned bucket b) */
        for (int dx = -1; dx <= 1; dx++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dz = -1; dz <= 1; dz++) {
                    uint32_t b = hash_cell(c[0] + dx, c[1] + dy, c[2] + dz, h->mask);
                    if (h->seen[b] == i)
                        continue;
                    h->seen[b] = i;
                    for (int s = h->start[b]; s < h->start[b + 1]; s++) {
                        int j = h->sorted[s];
                        if (j <= i)
                            continue;
                        double d0 = x[3 * i] - x[3 * j], d1 = x[3 * i + 1] - x[3 * j + 1],
                               d2 = x[3 * i + 2] - x[3 * j + 2];
                        if (d0 * d0 + d1 * d1 + d2 * d2 >= r2)
                            continue;
                        if (keep && !keep(i, j, ctx))
                            continue;
                        if (count == h->max_pairs) {
                            *overflow = 1;
                            continue;
                        }
                        h->pairs[2 * count] = i;
                        h->pairs[2 * count + 1] = j;
                        count++;
                    }
                }
    }
    return count;
}
