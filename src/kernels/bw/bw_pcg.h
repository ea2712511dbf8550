/* Private: Baraff and Witkin's modified PCG with a constraint filter (bw_pcg.c), for
 * the bw kernel's step and tests/test_bw.c. */
#ifndef CLOTH_KERNELS_BW_PCG_H
#define CLOTH_KERNELS_BW_PCG_H

#include "linalg/sparse.h"

typedef struct cloth__bw_pcg cloth__bw_pcg;

/* What the filter S does at a vertex (section 5.3): nothing, all three directions
 * prescribed (a pin), or the one direction n prescribed (a contact). */
enum { CLOTH__BW_FREE = 0, CLOTH__BW_PINNED = 1, CLOTH__BW_NORMAL = 2 };

/* The constraints of a solve: kind[i] per vertex; with CLOTH__BW_NORMAL, normal[3i..]
 * the unit normal n; z (3 per vertex) the prescribed part of dv (0 on a pin, along n on
 * a contact; may be NULL for z = 0). */
typedef struct cloth__bw_filter {
    const unsigned char *kind;
    const double *normal;
    const double *z;
} cloth__bw_filter;

/* Vectors for nb vertices (3 nb unknowns); CLOTH_ENOMEM with a message. */
cloth_status cloth__bw_pcg_create(int nb, cloth__bw_pcg **out, cloth_error *err);
void cloth__bw_pcg_destroy(cloth__bw_pcg *p);

/* Baraff and Witkin's modified PCG (section 5.3) on A dv = b under the constraints of f
 * (S_i dv_i = S_i guess_i, (I - S_i) dv_i = z_i).  dv holds the first guess on entry (its
 * constrained parts are replaced by z; the guess is dropped for z when its residual is
 * larger than b in the preconditioned norm) and the solution on return.  Stops when
 * delta_new <= eps^2 delta_0, delta_0 = filter(b)^T P^-1 filter(b), or after max_iters
 * iterations; returns 1 when the rule was met, *iters the iterations made. */
int cloth__bw_pcg_solve(cloth__bw_pcg *p, const cloth__sparse *A, const double *b,
                        cloth__bw_filter f, double *dv, double eps, int max_iters,
                        int *iters);

#endif
