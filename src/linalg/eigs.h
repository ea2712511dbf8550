/* Private: the extreme eigenvalues of a large sparse symmetric matrix, and its exact 2-norm
 * condition number, by ARPACK's implicitly restarted Lanczos (dsaupd/dseupd), the only file
 * that calls ARPACK (STYLE 8).  Every ARPACK workspace is sized at create.
 *
 * ARPACK keeps its iteration state in Fortran SAVE variables, shared by the whole process:
 * two Lanczos runs at once (two sims in two threads of a sweep) would corrupt each other.
 * So every run holds one process-wide lock (eigs.c), the only global of the library; other
 * threads wait their turn. */
#ifndef CLOTH_LINALG_EIGS_H
#define CLOTH_LINALG_EIGS_H

#include "cloth.h"
#include "linalg/cholmod.h"
#include "linalg/sparse.h"

typedef struct cloth__eigs cloth__eigs;

/* Lanczos workspaces for n x n matrices (n >= 2), up to min(n, 40) basis vectors.
 * CLOTH_EINVAL for n < 2; CLOTH_ENOMEM ("ARPACK: out of memory ...") when out of memory. */
cloth_status cloth__eigs_create(int n, cloth__eigs **out, cloth_error *err);
void cloth__eigs_destroy(cloth__eigs *e);

/* The smallest and largest eigenvalue of A, each to relative accuracy about tol (ARPACK
 * stops when a Ritz pair's residual |A y - theta y| <= tol |theta|; 1e-8 gives the ratio
 * to 1e-6 with room to spare):
 *  - *hi by Lanczos on A (mode 1, which = "LA"),
 *  - *lo by shift-invert Lanczos (mode 3, sigma = -eps): the largest nu of
 *    (A + eps I)^-1, whose products are solves with ch, which must hold the factor of
 *    this A + eps I (cloth__chol_factor's eps_used); then lo = 1/nu - eps.
 * The start vector is fixed (ones, perturbed by a hash of the index), so results repeat
 * run to run (with a floor, calls reuse the last one's Ritz vectors: cloth__eigs_forget).  CLOTH_EINVAL when A is not n x n or tol is not in (0, 1); CLOTH_ENUMERIC
 * "ARPACK: dsaupd: <reason> for lambda_max|lambda_min (info = K)" (or dseupd) when ARPACK
 * does not converge or fails; a failed solve with ch returns its CHOLMOD message.  With a
 * floor, when neither A - sigma I nor A + eps I can be factored (A is finite but not
 * positive definite), *lo = -inf (and cloth__eigs_cond gives +inf). */
cloth_status cloth__eigs_range(cloth__eigs *e, const cloth__sparse *A, cloth__chol *ch,
                               double eps, double tol, double *lo, double *hi,
                               cloth_error *err);

/* A number the caller knows to be <= lambda_min of the matrices it will pass (-inf, the
 * default, when none is known).  The newton kernel knows one: its matrix is
 * M/h^2 + (c/h) I plus positive semi-definite terms, so lambda_min >= min m/h^2 + c/h
 * (less a bound on the compressed springs' negative part when their Hessians are not
 * projected, newton_system.c).  A wrong floor gives a wrong lambda_min: the last bottom
 * Ritz vector's Rayleigh quotient at or below it is taken for lambda_min.
 * With a floor, lambda_min is found by shift-invert about sigma = (1 - 1e-3) floor, with
 * a factor of A - sigma I that cloth__eigs_range makes in ch (so ch no longer holds the
 * caller's factor afterwards).  This is what makes a cloth's matrix tractable: thousands
 * of its bottom eigenvalues (motions across the cloth, which flat springs do not resist)
 * lie within 1e-7 of m/h^2, a cluster that shift-invert about 0 cannot resolve: ARPACK's
 * residual test never passes, in any number of restarts. */
void cloth__eigs_set_floor(cloth__eigs *e, double floor);

/* With a floor, each call remembers its lambda_min, to choose the next call's tolerance
 * for the shift-invert pass, and its top Ritz vector, to start the next call's lambda_max
 * from it (accepted only when a Cholesky factor of theta (1 + tol) I - A proves that no
 * eigenvalue lies above the tolerance, else found again from the fixed start: eigs.c).
 * The results are to the same tolerance either way, but their last bits depend on that
 * memory; forget clears it, so that a run after a reset repeats the first bit for bit.
 * The proof factors -A over A's own values, negated in place and negated back (exactly),
 * so A must not be read by another thread during a call with a floor. */
void cloth__eigs_forget(cloth__eigs *e);

/* Exact 2-norm condition number lambda_max / lambda_min of A from cloth__eigs_range; +inf
 * when lambda_min <= 0. */
cloth_status cloth__eigs_cond(cloth__eigs *e, const cloth__sparse *A, cloth__chol *ch,
                              double eps, double tol, double *cond, cloth_error *err);

#endif
