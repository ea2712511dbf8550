/* Private: a signed distance field on a regular grid, sampled trilinearly with its
 * gradient.
 *
 * The grid holds the exact distance at its nodes (a callback gives it); between nodes
 * the field is the trilinear interpolant
 *
 *   f(x) = sum over the 8 corners c of w_c(x) d_c,   w_c = prod_k (1 - |x_k - c_k| / h),
 *
 * and its gradient is that interpolant's exact gradient (continuous across faces in the
 * value, piecewise in the gradient).  A distance is 1-Lipschitz, and so is its
 * trilinear interpolant in the max norm per axis: |grad f| <= sqrt(3) (the field's
 * Lipschitz bound, for conservative steps).  Outside the grid the field is the value at
 * the nearest grid point plus the distance to the grid's box, still a lower bound of
 * the true distance outside. */
#ifndef CLOTH_BODY_SDF_H
#define CLOTH_BODY_SDF_H

#include "cloth.h"

typedef struct cloth__sdf {
    int n[3];                   /* nodes along x, y, z                                */
    double lo[3];               /* the node (0, 0, 0) (m)                             */
    double h;                   /* spacing (m)                                        */
    double inv_h;               /* 1/h                                                */
    double *d;                  /* n[0] n[1] n[2] distances, x fastest                */
} cloth__sdf;

/* The exact signed distance at y. */
typedef double (*cloth__distance_fn)(const double y[3], const void *ctx);

/* A grid of spacing h covering the box [lo, hi], filled from dist.  Fails on a
 * non-positive h or a grid of more than 2^27 nodes. */
cloth_status cloth__sdf_build(cloth__sdf *f, const double lo[3], const double hi[3], double h,
                              cloth__distance_fn dist, const void *ctx, cloth_error *err);

void cloth__sdf_free(cloth__sdf *f);

/* The field at y; its gradient in grad if not NULL. */
double cloth__sdf_sample(const cloth__sdf *f, const double y[3], double grad[3]);

#endif
