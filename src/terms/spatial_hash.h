/* Private: a uniform spatial hash for vertex pairs closer than a radius (the newton
 * kernel's self-contact candidates).  Cells have the query radius as their edge, so every
 * partner of a vertex lies in its own cell or one of the 26 around it; cells are hashed
 * into a table of at least 2n buckets and the vertices counting-sorted into them.  All
 * memory is sized at creation: a query allocates nothing. */
#ifndef CLOTH_SPATIAL_HASH_H
#define CLOTH_SPATIAL_HASH_H

#include "cloth.h"

typedef struct cloth__spatial_hash cloth__spatial_hash;

/* Decides whether the pair (i, j), i < j, is wanted (e.g. not joined by a spring). */
typedef int (*cloth__pair_filter)(int i, int j, void *ctx);

/* For n vertices and at most max_pairs pairs per query. */
cloth_status cloth__spatial_hash_create(int n, int max_pairs, cloth__spatial_hash **out,
                                        cloth_error *err);
void cloth__spatial_hash_destroy(cloth__spatial_hash *hash);

/* Every pair i < j with |x_i - x_j| < radius that keep (if not NULL) accepts.  Returns
 * the number of pairs stored, and *pairs points at them (2 ints each, i then j), valid
 * until the next query.  When more pairs exist than max_pairs, *overflow is set and the
 * first max_pairs found are kept.  radius must be positive and finite. */
int cloth__spatial_hash_query(cloth__spatial_hash *hash, const double *x, double radius,
                              cloth__pair_filter keep, void *ctx, const int **pairs,
                              int *overflow);

#endif
