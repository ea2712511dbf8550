/* Private: Baraff and Witkin's modified PCG with a constraint filter (bw_pcg.c), for
 * the bw kernel's step and tests/test_bw.c. */
#ifndef CLOTH_KERNELS_BW_PCG_H
#define CLOTH_KERNELS_BW_PCG_H

#include "linalg/sparse.h"

typedef struct cloth__bw_pcg cloth__bw_pcg;

/* Vectors for nb vertices (3 nb unknowns); CLOTH_ENOMEM with a message. */
cloth_status cloth__bw_pcg_create(int nb, cloth__bw_pcg **out, cloth_error *err);
void cloth__bw_pcg_destroy(cloth__bw_pcg *p);

/* Baraff and Witkin's modified PCG (section 5.3) on A dv = b, every vertex with
 * fixed[i] != 0 constrained (the filter S_i = 0, dv_i = z_i = 0 there).  dv holds the
 * first guess on entry (its constrained rows are set to 0; dropped for 0 when its residual
 * is larger than b in the preconditioned norm) and the solution on return.  Stops when
 * delta_new <= eps^2 delta_0, delta_0 = filter(b)^T P^-1 filter(b), or after max_iters
 * iterations; returns 1 when the rule was met, *iters the iterations made. */
int cloth__bw_pcg_solve(cloth__bw_pcg *p, const cloth__sparse *A, const double *b,
                        const unsigned char *fixed, double *dv, double eps, int max_iters,
                        int *iters);

#endif
