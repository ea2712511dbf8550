/* Private: a symmetric matrix of 3 x 3 blocks, as the sparse Newton matrix of the newton
 * kernel (one block row and column per free vertex).
 *
 * Storage is the upper triangle in compressed sparse columns of scalars, the layout
 * CHOLMOD reads as stype = 1: column q = 3 j + c holds, for each block row i of block
 * column j in ascending order, the rows 3 i .. 3 i + 2, except that the diagonal block
 * (always present, always last) contributes only rows 3 j .. 3 j + c.  So the entry
 * (3 i + r, 3 j + c) of block k of column j sits at colp[3 j + c] + 3 k + r.
 *
 * The pattern (which blocks exist) is set by cloth__sparse_set_pattern, rarely: when the
 * set of coupled vertices changes.  Values are zeroed and added block by block without
 * allocation.  Every array is sized at create for at most block_cap off-diagonal blocks;
 * untouched capacity costs address space, not memory. */
#ifndef CLOTH_SPARSE_H
#define CLOTH_SPARSE_H

#include "cloth.h"

typedef struct cloth__sparse {
    int nb;                     /* block rows and columns                             */
    int n;                      /* scalar rows and columns, 3 nb                      */
    int block_cap;              /* off-diagonal blocks the arrays can hold            */
    int n_blocks;               /* off-diagonal blocks of the pattern                 */
    int *bstart;                /* nb + 1: block column j's blocks are bstart[j] ..   */
    int *brow;                  /* bstart[j+1] - 1; block rows, ascending, last = j   */
    int *colp;                  /* n + 1: scalar column starts                        */
    int *rowi;                  /* nnz: scalar row of each entry                      */
    double *val;                /* nnz: its value                                     */
    long nnz;                   /* stored entries (upper triangle)                    */
    unsigned long pattern_id;   /* changes whenever the pattern does                  */
} cloth__sparse;

/* A matrix of nb x nb blocks with room for block_cap off-diagonal blocks; its pattern is
 * the block diagonal until set.  CLOTH_EINVAL when nb or block_cap is negative or the
 * entries (9 block_cap + 6 nb) would not fit an int; CLOTH_ENOMEM with a message when out
 * of memory. */
cloth_status cloth__sparse_create(int nb, int block_cap, cloth__sparse **out, cloth_error *err);
void cloth__sparse_destroy(cloth__sparse *A);

/* The pattern: for each block column j, the block rows i < j of start[j] .. start[j+1]-1
 * in rows[], ascending and distinct (the diagonal block is implied).  Values become 0.
 * CLOTH_EINVAL naming the count when there are more than block_cap blocks (the matrix is
 * unchanged); 0 blocks at a column are allowed. */
cloth_status cloth__sparse_set_pattern(cloth__sparse *A, const int *start, const int *rows,
                                       cloth_error *err);

/* 1 when block (i, j) (either order) is in the pattern. */
int cloth__sparse_has_block(const cloth__sparse *A, int i, int j);

/* All values to 0 (the pattern stays). */
void cloth__sparse_zero(cloth__sparse *A);

/* Adds s B to block (i, j) of the symmetric matrix, B 3 x 3 row-major with row stride
 * `stride`.  The caller assembles the whole symmetric matrix (both (i, j) and (j, i));
 * only what lies in the upper triangle is kept: the call for i > j does nothing, and on
 * a diagonal block only the entries r <= c are added.  Returns -1 (adding nothing) when
 * the block is not in the pattern, else 0. */
int cloth__sparse_add_block(cloth__sparse *A, int i, int j, const double *B, int stride,
                            double s);

/* The index of block (i, j), i <= j, for cloth__sparse_add_block_at (no search there),
 * valid while pattern_id stays; -1 when the block is not in the pattern. */
int cloth__sparse_block_index(const cloth__sparse *A, int i, int j);

/* cloth__sparse_add_block for i <= j at k = cloth__sparse_block_index(A, i, j) >= 0:
 * the same additions in the same order (inline: assembly calls it for every block of
 * every spring). */
static inline void cloth__sparse_add_block_at(cloth__sparse *A, int k, int i, int j,
                                              const double *B, int stride, double s)
{
    int local = k - A->bstart[j];
    for (int c = 0; c < 3; c++) {
        double *col = A->val + A->colp[3 * j + c] + 3 * local;
        int nr = i == j ? c + 1 : 3;
        for (int r = 0; r < nr; r++)
            col[r] += s * B[stride * r + c];
    }
}

/* Adds s to the scalar diagonal entry (q, q). */
void cloth__sparse_add_diag(cloth__sparse *A, int q, double s);

/* y = A x (both triangles), x and y of length n, not aliased. */
void cloth__sparse_mul(const cloth__sparse *A, const double *x, double *y);

/* D (n x n, column-major, both halves) <- A. */
void cloth__sparse_to_dense(const cloth__sparse *A, double *D);

/* The 3 x 3 diagonal block of block column j, both halves, row-major, into B. */
void cloth__sparse_diag_block(const cloth__sparse *A, int j, double B[9]);

/* A symmetric n x n matrix of scalars (1 x 1 blocks) in the same upper compressed
 * columns, for a system that is the same for x, y and z (projective dynamics' global
 * matrix): column j holds the rows start[j] .. start[j+1]-1 of rows[] (ascending,
 * distinct, < j), then the diagonal, always present.  nb is 0, so the block functions
 * above do not apply; add_diag, add_entry, zero, mul, to_dense, find_nonfinite and
 * CHOLMOD (cholmod.h) do.  Values are 0.  CLOTH_EINVAL when n < 1 or the entries would
 * not fit an int; CLOTH_ENOMEM with a message when out of memory. */
cloth_status cloth__sparse_create_scalar(int n, const int *start, const int *rows,
                                         cloth__sparse **out, cloth_error *err);

/* Adds s to entry (i, j) of a scalar matrix (either order: the upper one is stored).
 * Returns -1 (adding nothing) when the entry is not in the pattern, else 0. */
int cloth__sparse_add_entry(cloth__sparse *A, int i, int j, double s);

/* Index of the first non-finite value, or -1 when every value is finite; its scalar row
 * and column into *row, *col. */
long cloth__sparse_find_nonfinite(const cloth__sparse *A, int *row, int *col);

#endif
