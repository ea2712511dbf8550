/* A symmetric matrix of 3 x 3 blocks in upper compressed sparse columns; contract and
 * layout in sparse.h. */
#include "linalg/sparse.h"

#include "core/status.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cloth__sparse_destroy(cloth__sparse *A)
{
    if (!A)
        return;
    free(A->bstart);
    free(A->brow);
    free(A->colp);
    free(A->rowi);
    free(A->val);
    free(A);
}

cloth_status cloth__sparse_create(int nb, int block_cap, cloth__sparse **out, cloth_error *err)
{
    *out = NULL;
    /* 9 entries an off-diagonal block, 6 a diagonal one (its upper triangle); colp holds
     * entry indices as int (CHOLMOD's int interface), so their count must fit one */
    if (nb < 0 || block_cap < 0 || 9.0 * block_cap + 6.0 * nb > INT_MAX)
        return cloth__fail(err, CLOTH_EINVAL,
                           "sparse: %d x %d blocks with %d off the diagonal (need counts >= 0 "
                           "and at most %d stored entries)", nb, nb, block_cap, INT_MAX);
    cloth__sparse *A = calloc(1, sizeof *A);
    size_t blocks = (size_t)block_cap + (size_t)nb, nnz = 9 * (size_t)block_cap + 6 * (size_t)nb;
    if (A) {
        A->nb = nb;
        A->n = 3 * nb;
        A->block_cap = block_cap;
        A->bstart = malloc(((size_t)nb + 1) * sizeof *A->bstart);
        A->brow = malloc((blocks + 1) * sizeof *A->brow);
        A->colp = malloc(((size_t)A->n + 1) * sizeof *A->colp);
        A->rowi = malloc((nnz + 1) * sizeof *A->rowi);
        A->val = malloc((nnz + 1) * sizeof *A->val);
    }
    if (!A || !A->bstart || !A->brow || !A->colp || !A->rowi || !A->val) {
        cloth__sparse_destroy(A);
        return cloth__fail(err, CLOTH_ENOMEM,
                           "sparse: out of memory for %d x %d blocks with %d off the diagonal",
                           nb, nb, block_cap);
    }
    /* the block diagonal */
    int *start = malloc(((size_t)nb + 1) * sizeof *start);
    if (!start) {
        cloth__sparse_destroy(A);
        return cloth__fail(err, CLOTH_ENOMEM, "sparse: out of memory for %d blocks", nb);
    }
    for (int j = 0; j <= nb; j++)
        start[j] = 0;
    cloth_status st = cloth__sparse_set_pattern(A, start, NULL, err);
    free(start);
    if (st != CLOTH_OK) {
        cloth__sparse_destroy(A);
        return st;
    }
    *out = A;
    return CLOTH_OK;
}

cloth_status cloth__sparse_set_pattern(cloth__sparse *A, const int *start, const int *rows,
                                       cloth_error *err)
{
    int off = start[A->nb];
    if (off > A->block_cap)
        return cloth__fail(err, CLOTH_EINVAL,
                           "sparse: %d off-diagonal blocks, room for %d", off, A->block_cap);
    int k = 0;
    long e = 0;
    for (int j = 0; j < A->nb; j++) {
        A->bstart[j] = k;
        int first = k;
        for (int p = start[j]; p < start[j + 1]; p++)
            A->brow[k++] = rows[p];
        A->brow[k++] = j;
        /* column 3j + c: 3 rows of each block above the diagonal, then c + 1 of it */
        for (int c = 0; c < 3; c++) {
            A->colp[3 * j + c] = (int)e;
            for (int b = first; b < k; b++) {
                int i = A->brow[b], nr = i == j ? c + 1 : 3;
                for (int r = 0; r < nr; r++)
                    A->rowi[e++] = 3 * i + r;
            }
        }
    }
    A->bstart[A->nb] = k;
    A->colp[A->n] = (int)e;
    A->n_blocks = off;
    A->nnz = e;
    A->pattern_id++;
    cloth__sparse_zero(A);
    return CLOTH_OK;
}

/* Index k (into brow) of block row i in block column j (i <= j), or -1. */
static int find_block(const cloth__sparse *A, int i, int j)
{
    int lo = A->bstart[j], hi = A->bstart[j + 1] - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (A->brow[mid] == i)
            return mid;
        if (A->brow[mid] < i)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

int cloth__sparse_has_block(const cloth__sparse *A, int i, int j)
{
    return i <= j ? find_block(A, i, j) >= 0 : find_block(A, j, i) >= 0;
}

void cloth__sparse_zero(cloth__sparse *A)
{
    memset(A->val, 0, (size_t)A->nnz * sizeof *A->val);
}

int cloth__sparse_add_block(cloth__sparse *A, int i, int j, const double *B, int stride,
                            double s)
{
    if (i > j)
        return cloth__sparse_has_block(A, i, j) ? 0 : -1;
    int k = find_block(A, i, j);
    if (k < 0)
        return -1;
    cloth__sparse_add_block_at(A, k, i, j, B, stride, s);
    return 0;
}

int cloth__sparse_block_index(const cloth__sparse *A, int i, int j)
{
    return i <= j ? find_block(A, i, j) : -1;
}

void cloth__sparse_add_diag(cloth__sparse *A, int q, double s)
{
    /* the diagonal entry is the last of its column */
    A->val[A->colp[q + 1] - 1] += s;
}

void cloth__sparse_mul(const cloth__sparse *A, const double *x, double *y)
{
    memset(y, 0, (size_t)A->n * sizeof *y);
    for (int q = 0; q < A->n; q++) {
        double xq = x[q], yq = 0;
        for (int e = A->colp[q]; e < A->colp[q + 1]; e++) {
            int r = A->rowi[e];
            double a = A->val[e];
            y[r] += a * xq;
            if (r != q)
                yq += a * x[r];
        }
        y[q] += yq;
    }
}

void cloth__sparse_to_dense(const cloth__sparse *A, double *D)
{
    size_t n = (size_t)A->n;
    memset(D, 0, n * n * sizeof *D);
    for (int q = 0; q < A->n; q++)
        for (int e = A->colp[q]; e < A->colp[q + 1]; e++) {
            int r = A->rowi[e];
            D[(size_t)q * n + r] = A->val[e];
            D[(size_t)r * n + q] = A->val[e];
        }
}

void cloth__sparse_diag_block(const cloth__sparse *A, int j, double B[9])
{
    int local = A->bstart[j + 1] - 1 - A->bstart[j];
    for (int c = 0; c < 3; c++) {
        const double *col = A->val + A->colp[3 * j + c] + 3 * local;
        for (int r = 0; r <= c; r++)
            B[3 * r + c] = B[3 * c + r] = col[r];
    }
}

cloth_status cloth__sparse_create_scalar(int n, const int *start, const int *rows,
                                         cloth__sparse **out, cloth_error *err)
{
    *out = NULL;
    double entries = n > 0 ? (double)start[n] + n : 0;
    if (n < 1 || entries > INT_MAX)
        return cloth__fail(err, CLOTH_EINVAL, "sparse: a %d x %d scalar matrix with %.0f "
                           "stored entries (need n >= 1, at most %d)", n, n, entries, INT_MAX);
    size_t nnz = (size_t)start[n] + (size_t)n;
    cloth__sparse *A = calloc(1, sizeof *A);
    if (A) {
        A->n = n;
        A->colp = malloc(((size_t)n + 1) * sizeof *A->colp);
        A->rowi = malloc(nnz * sizeof *A->rowi);
        A->val = calloc(nnz, sizeof *A->val);
    }
    if (!A || !A->colp || !A->rowi || !A->val) {
        cloth__sparse_destroy(A);
        return cloth__fail(err, CLOTH_ENOMEM,
                           "sparse: out of memory for a %d x %d matrix of %zu entries", n, n,
                           nnz);
    }
    long e = 0;
    for (int j = 0; j < n; j++) {
        A->colp[j] = (int)e;
        for (int p = start[j]; p < start[j + 1]; p++)
            A->rowi[e++] = rows[p];
        A->rowi[e++] = j;
    }
    A->colp[n] = (int)e;
    A->nnz = e;
    A->pattern_id = 1;
    *out = A;
    return CLOTH_OK;
}

int cloth__sparse_add_entry(cloth__sparse *A, int i, int j, double s)
{
    if (i > j) {
        int t = i;
        i = j;
        j = t;
    }
    int lo = A->colp[j], hi = A->colp[j + 1] - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (A->rowi[mid] == i) {
            A->val[mid] += s;
            return 0;
        }
        if (A->rowi[mid] < i)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

long cloth__sparse_find_nonfinite(const cloth__sparse *A, int *row, int *col)
{
    for (int q = 0; q < A->n; q++)
        for (int e = A->colp[q]; e < A->colp[q + 1]; e++)
            if (!isfinite(A->val[e])) {
                *row = A->rowi[e];
                *col = q;
                return e;
            }
    return -1;
}
