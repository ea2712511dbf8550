/* Private: preconditioned conjugate gradients on a cloth__sparse matrix, with a 3 x 3
 * block-Jacobi preconditioner (ZOZO's choice: one inverted block per vertex).  Every
 * vector is sized at create; a solve allocates nothing. */
#ifndef CLOTH_LINALG_PCG_H
#define CLOTH_LINALG_PCG_H

#include "cloth.h"
#include "linalg/sparse.h"

typedef struct cloth__pcg cloth__pcg;

/* A solver for n unknowns (n a multiple of 3).  CLOTH_EINVAL for n < 3 or not a multiple
 * of 3; CLOTH_ENOMEM ("PCG: out of memory ...") when out of memory. */
cloth_status cloth__pcg_create(int n, cloth__pcg **out, cloth_error *err);
void cloth__pcg_destroy(cloth__pcg *p);

/* Solves A x = b from x = 0 (x may alias b) until |r| <= tol |b|, r = b - A x carried by
 * the recurrence, or max_iters iterations (products with A); *iters is how many ran and
 * *converged is 1 when the tolerance was met.  Reaching max_iters is no error: the status
 * is CLOTH_OK with *converged = 0, for the caller to report.  b = 0 gives x = 0 in 0
 * iterations.
 *
 * The preconditioner is M^-1 = diag(D_j^-1) over the 3 x 3 diagonal blocks D_j; a block
 * whose Cholesky factor has a pivot <= 1e-12 times its largest diagonal entry (not
 * positive definite, or nearly singular) contributes instead 1 / D_j,ii for each positive
 * diagonal entry and 1 (the identity) for any other, so M^-1 is always positive definite.
 *
 * CLOTH_EINVAL when tol is not > 0, max_iters < 0 or A is not n x n; CLOTH_ENUMERIC
 * naming the entry when A or b holds a value that is not finite, and "PCG: breakdown at
 * iteration K: d'A d = X <= 0 ..." when a search direction d has d'A d <= 0 (A is not
 * positive definite along d). */
cloth_status cloth__pcg_solve(cloth__pcg *p, const cloth__sparse *A, const double *b, double *x,
                              double tol, int max_iters, int *iters, int *converged,
                              cloth_error *err);

/* z = M^-1 r for a symmetric positive definite M of the caller's (z never aliases r); a
 * status other than CLOTH_OK stops the solve with it. */
typedef cloth_status (*cloth__pcg_precond)(void *ctx, const double *r, double *z,
                                           cloth_error *err);

/* cloth__pcg_solve with the caller's preconditioner instead of block Jacobi: the
 * Cholesky factor of an earlier matrix (a Newton iteration's factor reused while H
 * changes little, issue 34), for which a few iterations suffice. */
cloth_status cloth__pcg_solve_with(cloth__pcg *p, const cloth__sparse *A, const double *b,
                                   double *x, double tol, int max_iters,
                                   cloth__pcg_precond precond, void *ctx, int *iters,
                                   int *converged, cloth_error *err);

#endif
