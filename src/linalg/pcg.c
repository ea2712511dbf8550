/* Conjugate gradients with a 3 x 3 block-Jacobi preconditioner; contract in pcg.h.
 * The iteration is Saad's Algorithm 9.1 (Iterative Methods for Sparse Linear Systems,
 * 2nd ed., 2003), from x = 0. */
#include "linalg/pcg.h"

#include "core/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cloth__pcg {
    int n;          /* unknowns, 3 per block                                   */
    double *r;      /* n: residual b - A x, by the recurrence                  */
    double *z;      /* n: preconditioned residual M^-1 r                       */
    double *d;      /* n: search direction                                     */
    double *q;      /* n: A d                                                  */
    double *minv;   /* 9 per block: the block of M^-1, row-major (symmetric)   */
};

cloth_status cloth__pcg_create(int n, cloth__pcg **out, cloth_error *err)
{
    *out = NULL;
    if (n < 3 || n % 3 != 0)
        return cloth__fail(err, CLOTH_EINVAL,
                           "PCG: %d unknowns (need a positive multiple of 3)", n);
    cloth__pcg *p = calloc(1, sizeof *p);
    if (p) {
        p->n = n;
        p->r = malloc((size_t)n * sizeof *p->r);
        p->z = malloc((size_t)n * sizeof *p->z);
        p->d = malloc((size_t)n * sizeof *p->d);
        p->q = malloc((size_t)n * sizeof *p->q);
        p->minv = malloc((size_t)n * 3 * sizeof *p->minv);
    }
    if (!p || !p->r || !p->z || !p->d || !p->q || !p->minv) {
        cloth__pcg_destroy(p);
        return cloth__fail(err, CLOTH_ENOMEM, "PCG: out of memory for %d unknowns", n);
    }
    *out = p;
    return CLOTH_OK;
}

void cloth__pcg_destroy(cloth__pcg *p)
{
    if (!p)
        return;
    free(p->r);
    free(p->z);
    free(p->d);
    free(p->q);
    free(p->minv);
    free(p);
}

/* ------------------------------------------------------------------ the preconditioner */

/* M <- D^-1 for a symmetric 3 x 3 D (row-major) through D = L L'; 0 when a pivot L_kk^2
 * is <= 1e-12 max D_ii (D not positive definite, or too near singular to trust). */
static int invert_spd3(const double D[9], double M[9])
{
    double tiny = 1e-12 * fmax(fmax(D[0], D[4]), D[8]);
    double L[3][3] = {{0}};
    for (int j = 0; j < 3; j++) {
        double piv = D[3 * j + j];
        for (int k = 0; k < j; k++)
            piv -= L[j][k] * L[j][k];
        if (!(piv > tiny))
            return 0;
        L[j][j] = sqrt(piv);
        for (int i = j + 1; i < 3; i++) {
            double s = D[3 * i + j];
            for (int k = 0; k < j; k++)
                s -= L[i][k] * L[j][k];
            L[i][j] = s / L[j][j];
        }
    }
    /* W = L^-1 (lower triangular), then D^-1 = W' W */
    double W[3][3] = {{0}};
    for (int c = 0; c < 3; c++)
        for (int i = c; i < 3; i++) {
            double s = i == c ? 1 : 0;
            for (int k = c; k < i; k++)
                s -= L[i][k] * W[k][c];
            W[i][c] = s / L[i][i];
        }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++)
                s += W[k][i] * W[k][j];
            M[3 * i + j] = s;
        }
    return 1;
}

/* Each diagonal block's inverse, or its fallback (pcg.h). */
static void build_preconditioner(cloth__pcg *p, const cloth__sparse *A)
{
    for (int j = 0; j < A->nb; j++) {
        double D[9], *M = p->minv + 9 * j;
        cloth__sparse_diag_block(A, j, D);
        if (invert_spd3(D, M))
            continue;
        memset(M, 0, 9 * sizeof *M);
        for (int k = 0; k < 3; k++)
            M[4 * k] = D[4 * k] > 0 ? 1 / D[4 * k] : 1;
    }
}

static void apply_preconditioner(const cloth__pcg *p, const double *r, double *z)
{
    for (int j = 0; j < p->n / 3; j++) {
        const double *M = p->minv + 9 * j, *rj = r + 3 * j;
        for (int i = 0; i < 3; i++)
            z[3 * j + i] = M[3 * i] * rj[0] + M[3 * i + 1] * rj[1] + M[3 * i + 2] * rj[2];
    }
}

/* ------------------------------------------------------------------ the iteration */

static double dot(const double *a, const double *b, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

static cloth_status check_input(const cloth__pcg *p, const cloth__sparse *A, const double *b,
                                double tol, int max_iters, cloth_error *err)
{
    if (A->n != p->n)
        return cloth__fail(err, CLOTH_EINVAL, "PCG: a %d x %d matrix for a solver of %d",
                           A->n, A->n, p->n);
    if (!(tol > 0) || max_iters < 0)
        return cloth__fail(err, CLOTH_EINVAL,
                           "PCG: tolerance %g and iteration cap %d (need > 0 and >= 0)", tol,
                           max_iters);
    int row, col;
    long bad = cloth__sparse_find_nonfinite(A, &row, &col);
    if (bad >= 0)
        return cloth__fail(err, CLOTH_ENUMERIC, "PCG: entry (%d, %d) is %g", row + 1, col + 1,
                           A->val[bad]);
    for (int i = 0; i < p->n; i++)
        if (!isfinite(b[i]))
            return cloth__fail(err, CLOTH_ENUMERIC, "PCG: right-hand side entry %d is %g",
                               i + 1, b[i]);
    return CLOTH_OK;
}

/* z = M^-1 r: the caller's preconditioner, or block Jacobi when there is none. */
static cloth_status precondition(const cloth__pcg *p, cloth__pcg_precond precond, void *ctx,
                                 const double *r, double *z, cloth_error *err)
{
    if (precond)
        return precond(ctx, r, z, err);
    apply_preconditioner(p, r, z);
    return CLOTH_OK;
}

static cloth_status pcg_run(cloth__pcg *p, const cloth__sparse *A, const double *b, double *x,
                            double tol, int max_iters, cloth__pcg_precond precond, void *ctx,
                            int *iters, int *converged, cloth_error *err)
{
    *iters = 0;
    *converged = 0;
    cloth_status st = check_input(p, A, b, tol, max_iters, err);
    if (st != CLOTH_OK)
        return st;
    int n = p->n;
    memcpy(p->r, b, (size_t)n * sizeof *b); /* r = b - A 0, before x (maybe b) is cleared */
    memset(x, 0, (size_t)n * sizeof *x);
    double rnorm = sqrt(dot(p->r, p->r, n)), goal = tol * rnorm;
    if (rnorm == 0) {
        *converged = 1;
        return CLOTH_OK;
    }
    if (!precond)
        build_preconditioner(p, A);
    if ((st = precondition(p, precond, ctx, p->r, p->z, err)) != CLOTH_OK)
        return st;
    memcpy(p->d, p->z, (size_t)n * sizeof *p->d);
    double rz = dot(p->r, p->z, n);
    int k = 0;
    while (rnorm > goal && k < max_iters) {
        cloth__sparse_mul(A, p->d, p->q);
        double dq = dot(p->d, p->q, n);
        if (!(dq > 0))
            return cloth__fail(err, CLOTH_ENUMERIC,
                               "PCG: breakdown at iteration %d: d'A d = %.3g <= 0 (the matrix "
                               "is not positive definite along the search direction d)",
                               k + 1, dq);
        /* x += alpha d, r -= alpha A d with alpha = r'z / d'A d */
        double alpha = rz / dq;
        for (int i = 0; i < n; i++) {
            x[i] += alpha * p->d[i];
            p->r[i] -= alpha * p->q[i];
        }
        k++;
        rnorm = sqrt(dot(p->r, p->r, n));
        if (rnorm <= goal)
            break;
        /* d = z + beta d, beta = r'z (new) / r'z (old): the next A-conjugate direction */
        if ((st = precondition(p, precond, ctx, p->r, p->z, err)) != CLOTH_OK)
            return st;
        double rz_new = dot(p->r, p->z, n), beta = rz_new / rz;
        rz = rz_new;
        for (int i = 0; i < n; i++)
            p->d[i] = p->z[i] + beta * p->d[i];
    }
    *iters = k;
    *converged = rnorm <= goal;
    return CLOTH_OK;
}

cloth_status cloth__pcg_solve(cloth__pcg *p, const cloth__sparse *A, const double *b, double *x,
                              double tol, int max_iters, int *iters, int *converged,
                              cloth_error *err)
{
    return pcg_run(p, A, b, x, tol, max_iters, NULL, NULL, iters, converged, err);
}

cloth_status cloth__pcg_solve_with(cloth__pcg *p, const cloth__sparse *A, const double *b,
                                   double *x, double tol, int max_iters,
                                   cloth__pcg_precond precond, void *ctx, int *iters,
                                   int *converged, cloth_error *err)
{
    return pcg_run(p, A, b, x, tol, max_iters, precond, ctx, iters, converged, err);
}
