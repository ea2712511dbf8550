/* Private: the dense symmetric linear algebra of the newton kernel.  The only file
 * that calls LAPACKE (STYLE 8).  One small contract in the manner of SCS's backends:
 * create for n unknowns (every workspace sized and every LAPACK workspace queried here,
 * once), factor, solve, condition numbers, destroy.  Every info != 0 becomes a message.
 *
 * Matrices are n x n, symmetric, column-major (for a symmetric matrix the same array as
 * row-major); only the upper triangle is read. */
#ifndef CLOTH_LINALG_H
#define CLOTH_LINALG_H

#include "cloth.h"

typedef struct cloth__linalg cloth__linalg;

/* The most unknowns of a dense system: one 6000 x 6000 matrix is 288 MB, and a kernel
 * keeps a few.  Larger meshes wait for a sparse path. */
#define CLOTH__LINALG_MAX 6000

cloth_status cloth__linalg_create(int n, cloth__linalg **out, cloth_error *err);
void cloth__linalg_destroy(cloth__linalg *la);

/* Cholesky factor (dpotrf) of a copy of A; A is not changed.  When A is not positive
 * definite, retries with A + eps I for eps = 1e-8 s, 1e-7 s, ... 10 s, s = max |A_ii|
 * (Tikhonov, the cubic-barrier article), and reports the eps that worked in *eps_used (0
 * when none was needed).  CLOTH_ENUMERIC when no shift up to 10 s helps ("Cholesky failed
 * (leading minor K not positive definite, ...)", K from 1 as LAPACK counts) or A holds
 * NaN/inf ("Cholesky failed (entry (i, j) is nan)"). */
cloth_status cloth__linalg_factor(cloth__linalg *la, const double *A, double *eps_used,
                                  cloth_error *err);

/* x = (A + eps I)^-1 b with the last factor (dpotrs); x may alias b. */
cloth_status cloth__linalg_solve(cloth__linalg *la, const double *b, double *x,
                                 cloth_error *err);

/* The smallest and largest eigenvalue of A (dsyevd, eigenvalues only). */
cloth_status cloth__linalg_eig_range(cloth__linalg *la, const double *A, double *lo,
                                     double *hi, cloth_error *err);

/* Exact 2-norm condition number lambda_max / lambda_min of A from its eigenvalues
 * (dsyevd, eigenvalues only).  +inf when lambda_min <= 0. */
cloth_status cloth__linalg_cond_exact(cloth__linalg *la, const double *A, double *cond,
                                      cloth_error *err);

/* 1-norm condition number estimate |A|_1 |A^-1|_1 of the matrix of the last factor
 * (dpocon, after Hager and Higham's estimator).  The estimate of |A^-1|_1 never exceeds
 * the true value and is, in Higham's experience, rarely below a third of it; tests hold
 * it to kappa_1 / 3 <= estimate <= kappa_1.  When the factor needed a shift this is the
 * condition number of A + eps I. */
cloth_status cloth__linalg_cond_estimate(cloth__linalg *la, double *cond, cloth_error *err);

/* The most rows of a small block that cloth__linalg_project_psd takes (a contact stencil
 * of four vertices). */
#define CLOTH__PSD_MAX 12

/* A (n x n, symmetric, row- or column-major, n <= CLOTH__PSD_MAX) <- its projection on
 * the positive semidefinite matrices: V max(Lambda, 0) V^T from its eigenvalues and
 * vectors (dsyev on a stack copy; allocates nothing).  Returns 0, or LAPACK's info (the
 * matrix is then set to 0, and a NaN entry gives -1 without calling LAPACK). */
int cloth__linalg_project_psd(int n, double *A);

#endif
