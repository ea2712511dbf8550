/* Private: a 1-norm condition number estimate |A|_1 |A^-1|_1 of a symmetric matrix for
 * which only solves are at hand (a sparse factor): Hager's method as refined by Higham
 * (LAPACK's dlacn2, the estimator behind dpocon), which needs a few solves with A (A is
 * symmetric, so A^-T = A^-1).  Like dpocon's, the estimate of |A^-1|_1 never exceeds the
 * true value and is rarely below a third of it. */
#ifndef CLOTH_LINALG_CONDEST_H
#define CLOTH_LINALG_CONDEST_H

#include "cloth.h"
#include "linalg/sparse.h"

typedef struct cloth__condest cloth__condest;

/* Work for n unknowns (every vector sized here). */
cloth_status cloth__condest_create(int n, cloth__condest **out, cloth_error *err);
void cloth__condest_destroy(cloth__condest *c);

/* x <- A^-1 x in place (a solve with the factor), CLOTH_OK or a status with a message. */
typedef cloth_status (*cloth__solve_fn)(void *ctx, double *x, cloth_error *err);

/* *cond <- |A|_1 * (estimate of |A^-1|_1), with A^-1 applied by solve(ctx, .).  Pass the
 * matrix that was factored (A + eps I when the factor needed a shift, eps added here). */
cloth_status cloth__condest_1norm(cloth__condest *c, const cloth__sparse *A, double eps,
                                  cloth__solve_fn solve, void *ctx, double *cond,
                                  cloth_error *err);

#endif
