/* Dense SPD solves and condition numbers through LAPACKE; contract in dense.h. */
#include "core/status.h"
#include "linalg/dense.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cloth__linalg {
    int n;
    double *factor;     /* n*n: Cholesky factor of the last factored matrix (upper)   */
    double *scratch;    /* n*n: copy that dsyevd overwrites                           */
    double *eig;        /* n eigenvalues, ascending                                   */
    double anorm;       /* |A + eps I|_1 of the last factored matrix (for dpocon)     */
    int factored;       /* 1 once factor holds a valid factor                         */
    double *work;       /* max(dsyevd's queried lwork, 3n for dpocon, n for dlansy)   */
    lapack_int lwork_eig;
    lapack_int *iwork;  /* max(dsyevd's queried liwork, n for dpocon)                 */
    lapack_int liwork_eig;
};

/* info < 0 from any routine: LAPACK says argument -info was illegal, a bug here. */
static cloth_status illegal(cloth_error *err, const char *what, const char *routine,
                            lapack_int info)
{
    return cloth__fail(err, CLOTH_EINVAL, "%s failed (%s: argument %d is illegal)", what,
                       routine, (int)-info);
}

cloth_status cloth__linalg_create(int n, cloth__linalg **out, cloth_error *err)
{
    *out = NULL;
    if (n < 1) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "linalg: %d unknowns (need at least 1)", n);
        return CLOTH_EINVAL;
    }
    cloth__linalg *la = calloc(1, sizeof *la);
    if (!la)
        goto fail_alloc;
    la->n = n;
    size_t nn = (size_t)n * (size_t)n;
    la->factor = malloc(nn * sizeof *la->factor);
    la->scratch = malloc(nn * sizeof *la->scratch);
    la->eig = malloc((size_t)n * sizeof *la->eig);
    if (!la->factor || !la->scratch || !la->eig)
        goto fail_alloc;

    /* Workspace query, once: lwork = liwork = -1 asks dsyevd for its sizes. */
    double wq = 0;
    lapack_int iwq = 0;
    lapack_int info = LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'N', 'U', n, la->scratch, n,
                                          la->eig, &wq, -1, &iwq, -1);
    if (info != 0) {
        cloth__linalg_destroy(la);
        return illegal(err, "eigenvalue workspace query", "dsyevd", info);
    }
    la->lwork_eig = (lapack_int)wq;
    la->liwork_eig = iwq;
    size_t lwork = (size_t)la->lwork_eig > 3 * (size_t)n ? (size_t)la->lwork_eig : 3 * (size_t)n;
    size_t liwork = (size_t)la->liwork_eig > (size_t)n ? (size_t)la->liwork_eig : (size_t)n;
    la->work = malloc(lwork * sizeof *la->work);
    la->iwork = malloc(liwork * sizeof *la->iwork);
    if (!la->work || !la->iwork)
        goto fail_alloc;
    *out = la;
    return CLOTH_OK;

fail_alloc:
    cloth__linalg_destroy(la);
    if (err)
        snprintf(err->msg, sizeof err->msg,
                 "linalg: out of memory for %d unknowns (two %d x %d matrices)", n, n, n);
    return CLOTH_ENOMEM;
}

void cloth__linalg_destroy(cloth__linalg *la)
{
    if (!la)
        return;
    free(la->factor);
    free(la->scratch);
    free(la->eig);
    free(la->work);
    free(la->iwork);
    free(la);
}

/* factor <- A + eps I, and its 1-norm (dlansy needs n doubles of work). */
static void load_shifted(cloth__linalg *la, const double *A, double eps)
{
    int n = la->n;
    memcpy(la->factor, A, (size_t)n * (size_t)n * sizeof *A);
    for (int i = 0; i < n; i++)
        la->factor[(size_t)i * n + i] += eps;
    la->anorm = LAPACKE_dlansy_work(LAPACK_COL_MAJOR, '1', 'U', n, la->factor, n, la->work);
}

/* The first non-finite entry of the upper triangle, as (row, column) from 0; 0 when none.
 * A NaN or inf anywhere would fail every shifted factor, so it is named instead. */
static int find_non_finite(const double *A, int n, int *row, int *col)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= j; i++)
            if (!isfinite(A[(size_t)j * n + i])) {
                *row = i;
                *col = j;
                return 1;
            }
    return 0;
}

cloth_status cloth__linalg_factor(cloth__linalg *la, const double *A, double *eps_used,
                                  cloth_error *err)
{
    int n = la->n, row, col;
    la->factored = 0;
    *eps_used = 0;
    if (find_non_finite(A, n, &row, &col))
        return cloth__fail(err, CLOTH_ENUMERIC, "Cholesky failed (entry (%d, %d) is %g)",
                           row + 1, col + 1, A[(size_t)col * n + row]);
    double scale = 0;
    for (int i = 0; i < n; i++)
        scale = fmax(scale, fabs(A[(size_t)i * n + i]));
    if (scale == 0)
        scale = 1;
    double eps = 0;
    lapack_int minor = 0;
    for (int attempt = 0; attempt <= 10; attempt++) {
        load_shifted(la, A, eps);
        lapack_int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'U', n, la->factor, n);
        if (info == 0) {
            if (!isfinite(la->anorm))
                return cloth__fail(err, CLOTH_ENUMERIC,
                                   "Cholesky failed (the 1-norm of the matrix overflows)");
            la->factored = 1;
            *eps_used = eps;
            return CLOTH_OK;
        }
        if (info < 0)
            return illegal(err, "Cholesky", "dpotrf", info);
        /* info > 0: the leading minor of order info is not positive: shift and retry */
        if (attempt == 0)
            minor = info;
        eps = 1e-8 * scale * pow(10.0, attempt);
    }
    return cloth__fail(err, CLOTH_ENUMERIC,
                       "Cholesky failed (leading minor %d not positive definite, nor with a "
                       "Tikhonov shift of up to 10 max|A_ii| = %.3g)",
                       (int)minor, 10 * scale);
}

cloth_status cloth__linalg_solve(cloth__linalg *la, const double *b, double *x,
                                 cloth_error *err)
{
    if (!la->factored)
        return cloth__fail(err, CLOTH_EINVAL,
                           "Cholesky solve failed (no factor: none made, or the last one failed)");
    if (x != b)
        memcpy(x, b, (size_t)la->n * sizeof *x);
    lapack_int info = LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'U', la->n, 1, la->factor, la->n,
                                          x, la->n);
    if (info != 0)
        return illegal(err, "Cholesky solve", "dpotrs", info);
    return CLOTH_OK;
}

cloth_status cloth__linalg_eig_range(cloth__linalg *la, const double *A, double *lo,
                                     double *hi, cloth_error *err)
{
    int n = la->n;
    memcpy(la->scratch, A, (size_t)n * (size_t)n * sizeof *A);
    lapack_int info = LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'N', 'U', n, la->scratch, n,
                                          la->eig, la->work, la->lwork_eig, la->iwork,
                                          la->liwork_eig);
    if (info < 0)
        return illegal(err, "eigenvalues", "dsyevd", info);
    if (info > 0)
        return cloth__fail(err, CLOTH_ENUMERIC,
                           "eigenvalues failed (dsyevd: %d off-diagonal elements of an "
                           "intermediate tridiagonal form did not converge to zero)",
                           (int)info);
    *lo = la->eig[0];
    *hi = la->eig[n - 1];
    return CLOTH_OK;
}

cloth_status cloth__linalg_cond_exact(cloth__linalg *la, const double *A, double *cond,
                                      cloth_error *err)
{
    double lo, hi;
    cloth_status st = cloth__linalg_eig_range(la, A, &lo, &hi, err);
    if (st == CLOTH_OK)
        *cond = lo > 0 ? hi / lo : INFINITY;
    return st;
}

cloth_status cloth__linalg_cond_estimate(cloth__linalg *la, double *cond, cloth_error *err)
{
    if (!la->factored)
        return cloth__fail(err, CLOTH_EINVAL,
                           "condition estimate failed (no factor: none made, or the last one "
                           "failed)");
    double rcond = 0;
    lapack_int info = LAPACKE_dpocon_work(LAPACK_COL_MAJOR, 'U', la->n, la->factor, la->n,
                                          la->anorm, &rcond, la->work, la->iwork);
    if (info != 0)
        return illegal(err, "condition estimate", "dpocon", info);
    *cond = rcond > 0 ? 1.0 / rcond : INFINITY;
    return CLOTH_OK;
}

int cloth__linalg_project_psd(int n, double *A)
{
    double V[CLOTH__PSD_MAX * CLOTH__PSD_MAX], lambda[CLOTH__PSD_MAX];
    double work[64 * CLOTH__PSD_MAX];
    int bad = n < 1 || n > CLOTH__PSD_MAX;
    for (int k = 0; k < n * n && !bad; k++)
        bad = !isfinite(A[k]);
    lapack_int info = -1;
    if (!bad) {
        memcpy(V, A, sizeof(double) * (size_t)(n * n));
        info = LAPACKE_dsyev_work(LAPACK_COL_MAJOR, 'V', 'U', n, V, n, lambda, work,
                                  64 * CLOTH__PSD_MAX);
    }
    if (info != 0) {
        for (int k = 0; k < n * n && n <= CLOTH__PSD_MAX; k++)
            A[k] = 0;
        return info ? (int)info : -1;
    }
    /* A = sum over positive eigenvalues of lambda v v^T (column k of V is v_k) */
    memset(A, 0, sizeof(double) * (size_t)(n * n));
    for (int k = 0; k < n; k++) {
        if (!(lambda[k] > 0))
            continue;
        const double *v = V + n * k;
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++)
                A[n * r + c] += lambda[k] * v[r] * v[c];
    }
    return 0;
}
