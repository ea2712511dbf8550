/* Private: sparse Cholesky of a cloth__sparse matrix through SuiteSparse's CHOLMOD, the
 * only file that calls CHOLMOD (STYLE 8).  The contract of dense.h for sparse matrices:
 * create for n unknowns, analyse once per pattern, factor (with the same Tikhonov retry
 * as dense.c), solve, destroy; every CHOLMOD status becomes a message that begins
 * "CHOLMOD: ".
 *
 * The matrix is read in place: CHOLMOD sees a header over the cloth__sparse arrays (upper
 * triangle, stype = 1, 32-bit indices), never a copy.  32-bit indices bound the factor
 * to 2^31 - 1 stored entries; a 2-D cloth of 200 000 unknowns needs a few 10^7 (measured
 * in src/linalg/README.md), and a larger factor fails with "CHOLMOD: ... too large".
 *
 * Allocation: analyse allocates the symbolic factor (CHOLMOD's own calls); the first
 * factor of a pattern allocates the numeric factor, kept for later factors of the same
 * pattern; each factor allocates CHOLMOD's temporaries (a permuted copy of A, the
 * supernodal update workspace), which no CHOLMOD setting avoids; with a supernodal factor
 * solve allocates its workspace on its first call after an analyse and nothing after,
 * with a simplicial one (small or very sparse matrices) CHOLMOD reallocates a 4 x n
 * workspace on every solve (cholmod_solve2 reshapes it, so the next call finds it the
 * wrong shape). */
#ifndef CLOTH_LINALG_CHOLMOD_H
#define CLOTH_LINALG_CHOLMOD_H

#include "cloth.h"
#include "linalg/sparse.h"

typedef struct cloth__chol cloth__chol;

/* A CHOLMOD context for n x n matrices: supernodal or simplicial as CHOLMOD judges it
 * pays (CHOLMOD_AUTO), LL' in both, no printing.  CLOTH_EINVAL for n < 1, CLOTH_ENOMEM
 * ("CHOLMOD: out of memory ...") when out of memory. */
cloth_status cloth__chol_create(int n, cloth__chol **out, cloth_error *err);
void cloth__chol_destroy(cloth__chol *ch);

/* Fill-reducing ordering and symbolic factor of A's pattern (cholmod_analyze: AMD, and
 * METIS too where AMD's fill is poor; the one with fewer flops, cholmod.c), only when A is another object than the one last
 * analysed or has another pattern_id; otherwise a no-op.  As the address and the id are
 * the key, a context must not outlive its matrix: one created later at the same address
 * could carry the same id with another pattern (destroy and create both together).
 * CLOTH_EINVAL when A is not n x n; CLOTH_ENOMEM or CLOTH_ENUMERIC ("CHOLMOD: analyse:
 * ...") when CHOLMOD fails. */
cloth_status cloth__chol_analyse(cloth__chol *ch, const cloth__sparse *A, cloth_error *err);

/* Numeric factor L L' = P (A + eps I) P' (cholmod_factorize_p with beta = eps), A analysed
 * first if its pattern is new.  eps = 0 first; when A is not positive definite, retries
 * with eps = 1e-8 s, 1e-7 s, ..., 10 s, s = max |A_ii| (1 if 0), as dense.c does, and
 * reports the eps that worked in *eps_used (0 when none was needed).  CLOTH_ENUMERIC with
 * "CHOLMOD: entry (i, j) is nan" (1-based) for a value that is not finite, and "CHOLMOD:
 * not positive definite (pivot of column K), nor with a Tikhonov shift of up to 10
 * max|A_ii| = X" when no shift helps; CLOTH_ENOMEM "CHOLMOD: out of memory ...".  A
 * failed factor leaves no factor to solve with. */
cloth_status cloth__chol_factor(cloth__chol *ch, const cloth__sparse *A, double *eps_used,
                                cloth_error *err);

/* Numeric factor of A + beta I for the given beta alone (no retries), A analysed first if
 * its pattern is new: for a shift-invert whose shift is known to lie below the spectrum
 * (eigs.c).  CLOTH_ENUMERIC "CHOLMOD: A + beta I is not positive definite (pivot of column
 * K)" when it is not; the factor then is gone. */
cloth_status cloth__chol_factor_shifted(cloth__chol *ch, const cloth__sparse *A, double beta,
                                        cloth_error *err);

/* x = (A + eps I)^-1 b with the last factor (cholmod_solve2, workspaces kept between
 * calls); x may alias b.  CLOTH_EINVAL when there is no factor; CLOTH_ENOMEM "CHOLMOD:
 * solve: out of memory ..." when its workspace cannot be had. */
cloth_status cloth__chol_solve(cloth__chol *ch, const double *b, double *x, cloth_error *err);

/* For benchmarks: entries stored in the factor (after analyse: those the numeric factor
 * will hold, with the zeros of supernodal amalgamation), 1 when it is supernodal, and how
 * many analyses have run since create.  Zeros before the first analyse. */
void cloth__chol_info(const cloth__chol *ch, long *factor_nnz, int *is_supernodal,
                      long *analyses);

#endif
