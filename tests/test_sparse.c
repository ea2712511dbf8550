/* The sparse linear algebra: the block matrix against a dense assembly, CHOLMOD against
 * the dense LAPACK path, PCG's tolerance, cap and breakdown, and ARPACK's extreme
 * eigenvalues against dsyevd and the closed form of the (-1, 2, -1) matrix. */
#include "linalg/cholmod.h"
#include "linalg/dense.h"
#include "linalg/eigs.h"
#include "linalg/pcg.h"
#include "linalg/sparse.h"
#include "suites.h"
#include "testutil.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ matrices */

/* A pattern of nb blocks: block column j couples to j - 1 and to up to `extra` random
 * earlier blocks. */
static cloth__sparse *random_pattern(int nb, int extra, unsigned long *seed)
{
    int *start = malloc(((size_t)nb + 1) * sizeof *start);
    int *rows = malloc(((size_t)nb * (size_t)nb / 2 + 1) * sizeof *rows), k = 0;
    for (int j = 0; j < nb; j++) {
        start[j] = k;
        for (int i = 0; i < j; i++) {
            int pick = i == j - 1;
            for (int e = 0; e < extra && !pick && j > 1; e++)
                pick = (tu_random(seed) + 1) / 2 < 1.0 / (j - 1);
            if (pick)
                rows[k++] = i; /* ascending, as set_pattern asks */
        }
    }
    start[nb] = k;
    cloth__sparse *A;
    cloth_error err;
    ck_assert_int_eq(cloth__sparse_create(nb, k, &A, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__sparse_set_pattern(A, start, rows, &err), CLOTH_OK);
    free(start);
    free(rows);
    return A;
}

/* K = G G' with G random: symmetric positive semi-definite, |K| up to about 3. */
static void random_psd3(double K[9], unsigned long *seed)
{
    double G[9];
    for (int k = 0; k < 9; k++)
        G[k] = tu_random(seed);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            K[3 * r + c] = G[3 * r] * G[3 * c] + G[3 * r + 1] * G[3 * c + 1] +
                           G[3 * r + 2] * G[3 * c + 2];
}

/* Values like a Newton matrix on A's pattern: each block (i, j) of the pattern is a spring
 * [K -K; -K K] (K random, positive semi-definite), plus mass on the diagonal, so every
 * eigenvalue is at least mass (and the largest a few tens). */
static void fill_spd(cloth__sparse *A, double mass, unsigned long *seed)
{
    cloth__sparse_zero(A);
    for (int j = 0; j < A->nb; j++)
        for (int b = A->bstart[j]; b < A->bstart[j + 1] - 1; b++) {
            int i = A->brow[b];
            double K[9];
            random_psd3(K, seed);
            cloth__sparse_add_block(A, i, i, K, 3, 1);
            cloth__sparse_add_block(A, j, j, K, 3, 1);
            cloth__sparse_add_block(A, i, j, K, 3, -1);
            cloth__sparse_add_block(A, j, i, K, 3, -1);
        }
    for (int q = 0; q < A->n; q++)
        cloth__sparse_add_diag(A, q, mass);
}

/* The (-1, 2, -1) matrix of 3 nb unknowns, as 3 x 3 blocks, plus shift I.  Its
 * eigenvalues are 2 - 2 cos(k pi / (n + 1)) + shift, k = 1 .. n. */
static cloth__sparse *tridiagonal_blocks(int nb, double shift)
{
    int *start = malloc(((size_t)nb + 1) * sizeof *start);
    int *rows = malloc((size_t)nb * sizeof *rows);
    for (int j = 0; j < nb; j++) {
        start[j] = j > 0 ? j - 1 : 0;
        if (j > 0)
            rows[j - 1] = j - 1;
    }
    start[nb] = nb > 0 ? nb - 1 : 0;
    cloth__sparse *A;
    cloth_error err;
    ck_assert_int_eq(cloth__sparse_create(nb, nb, &A, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__sparse_set_pattern(A, start, rows, &err), CLOTH_OK);
    /* the diagonal block, and the coupling of unknown 3 j + 2 with 3 (j + 1) */
    const double D[9] = {2 + shift, -1, 0, -1, 2 + shift, -1, 0, -1, 2 + shift};
    const double U[9] = {0, 0, 0, 0, 0, 0, -1, 0, 0}, L[9] = {0, 0, -1, 0, 0, 0, 0, 0, 0};
    for (int j = 0; j < nb; j++) {
        cloth__sparse_add_block(A, j, j, D, 3, 1);
        if (j + 1 < nb) {
            cloth__sparse_add_block(A, j, j + 1, U, 3, 1);
            cloth__sparse_add_block(A, j + 1, j, L, 3, 1);
        }
    }
    free(start);
    free(rows);
    return A;
}

static double tridiagonal_eigenvalue(int n, int k, double shift)
{
    return 2 - 2 * cos(k * M_PI / (n + 1)) + shift;
}

static double *random_vector(int n, unsigned long seed)
{
    double *v = malloc((size_t)n * sizeof *v);
    for (int i = 0; i < n; i++)
        v[i] = tu_random(&seed);
    return v;
}

/* |A x - b| / |b| */
static double residual(const cloth__sparse *A, const double *x, const double *b)
{
    double *y = malloc((size_t)A->n * sizeof *y), r = 0, bb = 0;
    cloth__sparse_mul(A, x, y);
    for (int i = 0; i < A->n; i++) {
        r += (y[i] - b[i]) * (y[i] - b[i]);
        bb += b[i] * b[i];
    }
    free(y);
    return sqrt(r / bb);
}

/* ------------------------------------------------------------------ the block matrix */

/* Random blocks B added at (i, j) and B' at (j, i), as an assembly does, random symmetric
 * diagonal blocks and scalar diagonal terms: to_dense gives the dense sum bit for bit,
 * diag_block its diagonal blocks, mul its product to rounding, and has_block its pattern.
 * Blocks outside the pattern are refused with -1. */
START_TEST(mul_and_to_dense_match_dense_assembly)
{
    unsigned long seed = 7 + (unsigned long)_i;
    cloth__sparse *A = random_pattern(40, 3, &seed);
    int n = A->n;
    size_t nn = (size_t)n * (size_t)n;
    double *D = calloc(nn, sizeof *D), *E = malloc(nn * sizeof *E);
    char *in = calloc((size_t)A->nb * (size_t)A->nb, 1);
    for (int j = 0; j < A->nb; j++)
        for (int b = A->bstart[j]; b < A->bstart[j + 1] - 1; b++) {
            int i = A->brow[b];
            double B[9], Bt[9], s = 1 + tu_random(&seed);
            for (int k = 0; k < 9; k++)
                B[k] = tu_random(&seed);
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++)
                    Bt[3 * c + r] = B[3 * r + c];
            ck_assert_int_eq(cloth__sparse_add_block(A, i, j, B, 3, s), 0);
            ck_assert_int_eq(cloth__sparse_add_block(A, j, i, Bt, 3, s), 0);
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++) {
                    D[(size_t)(3 * j + c) * n + 3 * i + r] += s * B[3 * r + c];
                    D[(size_t)(3 * i + r) * n + 3 * j + c] += s * B[3 * r + c];
                }
            in[(size_t)j * A->nb + i] = in[(size_t)i * A->nb + j] = 1;
        }
    for (int j = 0; j < A->nb; j++) {
        /* a symmetric block, given with row stride 4 */
        double S[12] = {0};
        for (int r = 0; r < 3; r++)
            for (int c = r; c < 3; c++)
                S[4 * r + c] = S[4 * c + r] = tu_random(&seed);
        ck_assert_int_eq(cloth__sparse_add_block(A, j, j, S, 4, 2), 0);
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                D[(size_t)(3 * j + c) * n + 3 * j + r] += 2 * S[4 * r + c];
        in[(size_t)j * A->nb + j] = 1;
    }
    for (int q = 0; q < n; q += 5) {
        cloth__sparse_add_diag(A, q, 0.25);
        D[(size_t)q * n + q] += 0.25;
    }
    cloth__sparse_to_dense(A, E);
    ck_assert(memcmp(D, E, nn * sizeof *D) == 0);
    for (int j = 0; j < A->nb; j++) {
        double B[9];
        cloth__sparse_diag_block(A, j, B);
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                ck_assert(B[3 * r + c] == D[(size_t)(3 * j + c) * n + 3 * j + r]);
    }
    double *x = random_vector(n, seed), *y = malloc((size_t)n * sizeof *y);
    double *want = calloc((size_t)n, sizeof *want);
    for (int c = 0; c < n; c++)
        for (int r = 0; r < n; r++)
            want[r] += D[(size_t)c * n + r] * x[c];
    cloth__sparse_mul(A, x, y);
    ck_assert_double_le(tu_rel_error(y, want, n, 0), 1e-14);
    double B[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    for (int i = 0; i < A->nb; i++)
        for (int j = 0; j < A->nb; j++) {
            ck_assert_int_eq(cloth__sparse_has_block(A, i, j), in[(size_t)j * A->nb + i]);
            if (!in[(size_t)j * A->nb + i])
                ck_assert_int_eq(cloth__sparse_add_block(A, i, j, B, 3, 1), -1);
        }
    cloth__sparse_to_dense(A, E); /* the refused blocks changed nothing */
    ck_assert(memcmp(D, E, nn * sizeof *D) == 0);
    free(D);
    free(E);
    free(in);
    free(x);
    free(y);
    free(want);
    cloth__sparse_destroy(A);
}
END_TEST

/* More blocks than the capacity: refused with the counts, the matrix as it was. */
START_TEST(set_pattern_over_capacity_refused)
{
    cloth__sparse *A;
    cloth_error err = {{0}};
    ck_assert_int_eq(cloth__sparse_create(4, 2, &A, &err), CLOTH_OK);
    unsigned long id = A->pattern_id;
    int start[5] = {0, 0, 1, 2, 3}, rows[3] = {0, 1, 2};
    ck_assert_int_eq(cloth__sparse_set_pattern(A, start, rows, &err), CLOTH_EINVAL);
    ck_assert_str_eq(err.msg, "sparse: 3 off-diagonal blocks, room for 2");
    ck_assert_int_eq(A->n_blocks, 0);
    ck_assert(A->pattern_id == id);
    ck_assert_int_eq(A->nnz, 4 * 6);
    int start2[5] = {0, 0, 1, 1, 2};
    ck_assert_int_eq(cloth__sparse_set_pattern(A, start2, rows, &err), CLOTH_OK);
    ck_assert(A->pattern_id != id && A->n_blocks == 2 && A->nnz == 4 * 6 + 2 * 9);
    ck_assert(cloth__sparse_has_block(A, 0, 1) && cloth__sparse_has_block(A, 3, 1));
    ck_assert(!cloth__sparse_has_block(A, 0, 2));
    int row, col;
    ck_assert_int_eq(cloth__sparse_find_nonfinite(A, &row, &col), -1);
    cloth__sparse_add_diag(A, 7, NAN);
    ck_assert_int_ge(cloth__sparse_find_nonfinite(A, &row, &col), 0);
    ck_assert(row == 7 && col == 7);
    cloth__sparse_destroy(A);
    ck_assert_int_eq(cloth__sparse_create(-1, 0, &A, &err), CLOTH_EINVAL);
    ck_assert_int_eq(cloth__sparse_create(10, INT_MAX / 8, &A, &err), CLOTH_EINVAL);
    ck_assert(A == NULL && strstr(err.msg, "stored entries"));
}
END_TEST

/* ------------------------------------------------------------------ CHOLMOD */

static const int chol_blocks[] = {1, 10, 100, 400};

/* Random sparse SPD systems: CHOLMOD's solution equals dense LAPACK's (dpotrf/dpotrs) to
 * 1e-10 relative, also after new values on the same pattern (no second analysis) and
 * when x aliases b. */
START_TEST(cholmod_matches_dense_lapack)
{
    unsigned long seed = 100 + (unsigned long)_i;
    cloth__sparse *A = random_pattern(chol_blocks[_i], 3, &seed);
    int n = A->n;
    double *D = malloc((size_t)n * n * sizeof *D), *b = random_vector(n, seed);
    double *x = malloc((size_t)n * sizeof *x), *xd = malloc((size_t)n * sizeof *xd);
    cloth__linalg *la;
    cloth__chol *ch;
    cloth_error err;
    ck_assert_int_eq(cloth__linalg_create(n, &la, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__chol_create(n, &ch, &err), CLOTH_OK);
    for (int round = 0; round < 2; round++) {
        fill_spd(A, 0.1, &seed);
        cloth__sparse_to_dense(A, D);
        double eps, eps_d;
        ck_assert_int_eq(cloth__linalg_factor(la, D, &eps_d, &err), CLOTH_OK);
        ck_assert_int_eq(cloth__linalg_solve(la, b, xd, &err), CLOTH_OK);
        ck_assert_msg(cloth__chol_factor(ch, A, &eps, &err) == CLOTH_OK, "%s", err.msg);
        ck_assert(eps == 0 && eps_d == 0);
        ck_assert_msg(cloth__chol_solve(ch, b, x, &err) == CLOTH_OK, "%s", err.msg);
        ck_assert_double_le(tu_rel_error(x, xd, n, 0), 1e-10);
        ck_assert_double_le(residual(A, x, b), 1e-13);
        memcpy(x, b, (size_t)n * sizeof *x);
        ck_assert_int_eq(cloth__chol_solve(ch, x, x, &err), CLOTH_OK);
        ck_assert_double_le(tu_rel_error(x, xd, n, 0), 1e-10);
    }
    long fill, analyses;
    int super;
    cloth__chol_info(ch, &fill, &super, &analyses);
    ck_assert(analyses == 1 && fill >= A->nnz);
    /* a new pattern is analysed again */
    int start[2] = {0, 0};
    if (A->nb == 1) {
        ck_assert_int_eq(cloth__sparse_set_pattern(A, start, NULL, &err), CLOTH_OK);
        fill_spd(A, 0.1, &seed);
        double eps;
        ck_assert_int_eq(cloth__chol_factor(ch, A, &eps, &err), CLOTH_OK);
        cloth__chol_info(ch, &fill, &super, &analyses);
        ck_assert(analyses == 2);
    }
    cloth__chol_destroy(ch);
    cloth__linalg_destroy(la);
    cloth__sparse_destroy(A);
    free(D);
    free(b);
    free(x);
    free(xd);
}
END_TEST

/* The block pattern of a k x k grid of vertices, each coupled to its neighbours at
 * (1, 0), (0, 1), (1, 1), (-1, 1), (2, 0) and (0, 2): a triangulated cloth with its
 * bending stencil, as the drape's Newton matrix.  `extra`: one more block, (0, k^2 - 1),
 * for another pattern. */
static cloth__sparse *grid_pattern(int k, int extra)
{
    static const int off[6][2] = {{-2, 0}, {-1, -1}, {0, -2}, {1, -1}, {0, -1}, {-1, 0}};
    int nb = k * k, *start = malloc(((size_t)nb + 1) * sizeof *start);
    int *rows = malloc(((size_t)nb * 6 + 1) * sizeof *rows), m = 0;
    for (int j = 0; j < nb; j++) {
        int x = j % k, y = j / k;
        start[j] = m;
        if (extra && j == nb - 1)
            rows[m++] = 0;
        for (int o = 0; o < 6; o++) {
            int xi = x + off[o][0], yi = y + off[o][1];
            if (xi >= 0 && xi < k && yi >= 0)
                rows[m++] = yi * k + xi;
        }
        /* sort the few rows of this column (insertion sort) */
        for (int a = start[j] + 1; a < m; a++)
            for (int b = a; b > start[j] && rows[b - 1] > rows[b]; b--) {
                int t = rows[b];
                rows[b] = rows[b - 1];
                rows[b - 1] = t;
            }
    }
    start[nb] = m;
    cloth__sparse *A;
    cloth_error err;
    ck_assert_int_eq(cloth__sparse_create(nb, m, &A, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__sparse_set_pattern(A, start, rows, &err), CLOTH_OK);
    free(start);
    free(rows);
    return A;
}

/* The fill-reducing ordering (cholmod.c, analyse_ordered): on a 110 x 110 grid (36 300
 * unknowns, where AMD needs more than 300 flops an entry of L) nested dissection fills
 * less than minimum degree (George 1973): a fresh context keeps METIS's ordering, with
 * fewer entries in L than the AMD ordering a context keeps when its last pattern was
 * factorised only once (METIS's dearer analysis is then not tried).  Both solve the
 * same system to 1e-12 relative. */
START_TEST(cholmod_ordering_metis_on_a_grid)
{
    unsigned long seed = 7;
    cloth__sparse *A = grid_pattern(110, 0), *B = grid_pattern(110, 1);
    int n = A->n;
    fill_spd(A, 0.1, &seed);
    fill_spd(B, 0.1, &seed);
    double *b = random_vector(n, 8), *x = malloc((size_t)n * sizeof *x), eps;
    cloth__chol *fresh, *busy;
    cloth_error err;
    long fill_fresh, fill_busy, analyses;
    int super;
    ck_assert_int_eq(cloth__chol_create(n, &fresh, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__chol_create(n, &busy, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__chol_factor(fresh, A, &eps, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__chol_solve(fresh, b, x, &err), CLOTH_OK);
    ck_assert_double_le(residual(A, x, b), 1e-12);
    cloth__chol_info(fresh, &fill_fresh, &super, &analyses);
    ck_assert_int_eq(cloth__chol_factor(busy, B, &eps, &err), CLOTH_OK); /* once */
    ck_assert_int_eq(cloth__chol_factor(busy, A, &eps, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__chol_solve(busy, b, x, &err), CLOTH_OK);
    ck_assert_double_le(residual(A, x, b), 1e-12);
    cloth__chol_info(busy, &fill_busy, &super, &analyses);
    ck_assert_int_eq(analyses, 2);
    ck_assert_msg(fill_fresh < fill_busy, "METIS %ld, AMD %ld entries", fill_fresh,
                  fill_busy);
    cloth__chol_destroy(fresh);
    cloth__chol_destroy(busy);
    cloth__sparse_destroy(A);
    cloth__sparse_destroy(B);
    free(b);
    free(x);
}
END_TEST

/* (-1, 2, -1) - 0.5 I has lambda_min near -0.5: CHOLMOD records the same Tikhonov shift as
 * the dense path (here 1e-8 max|A_ii| 10^8 = 1.5) and solves (A + eps I) x = b. */
START_TEST(cholmod_tikhonov_shift_on_indefinite)
{
    cloth__sparse *A = tridiagonal_blocks(100, -0.5);
    int n = A->n;
    double *D = malloc((size_t)n * n * sizeof *D), *b = random_vector(n, 3);
    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    cloth__sparse_to_dense(A, D);
    cloth__linalg *la;
    cloth__chol *ch;
    cloth_error err;
    double eps, eps_d;
    ck_assert_int_eq(cloth__linalg_create(n, &la, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__linalg_factor(la, D, &eps_d, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__chol_create(n, &ch, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__chol_factor(ch, A, &eps, &err), CLOTH_OK);
    ck_assert(eps > 0.5 && eps == eps_d);
    ck_assert_int_eq(cloth__chol_solve(ch, b, x, &err), CLOTH_OK);
    cloth__sparse_mul(A, x, y);
    for (int i = 0; i < n; i++)
        ck_assert_double_le(fabs(y[i] + eps * x[i] - b[i]), 1e-12);
    cloth__chol_destroy(ch);
    cloth__linalg_destroy(la);
    cloth__sparse_destroy(A);
    free(D);
    free(b);
    free(x);
    free(y);
}
END_TEST

START_TEST(cholmod_errors_are_messages)
{
    cloth__chol *ch;
    cloth_error err = {{0}};
    ck_assert_int_eq(cloth__chol_create(0, &ch, &err), CLOTH_EINVAL);
    ck_assert(ch == NULL && strstr(err.msg, "CHOLMOD: 0 unknowns"));
    cloth__sparse *A = tridiagonal_blocks(2, 0), *B = tridiagonal_blocks(3, 0);
    ck_assert_int_eq(cloth__chol_create(A->n, &ch, &err), CLOTH_OK);
    double eps, x[6];
    ck_assert_int_eq(cloth__chol_solve(ch, x, x, &err), CLOTH_EINVAL);
    ck_assert_str_eq(err.msg, "CHOLMOD: solve: no factor (none made, or the last one failed)");
    ck_assert_int_eq(cloth__chol_factor(ch, B, &eps, &err), CLOTH_EINVAL);
    ck_assert_str_eq(err.msg, "CHOLMOD: a 9 x 9 matrix for a context of 6");
    cloth__sparse_add_diag(A, 1, NAN);
    ck_assert_int_eq(cloth__chol_factor(ch, A, &eps, &err), CLOTH_ENUMERIC);
    ck_assert_str_eq(err.msg, "CHOLMOD: entry (2, 2) is nan");
    /* eigenvalues -100 and 100 from a zero diagonal: no shift up to 10 max(|A_ii|, 1)
     * helps; which pivot fails first depends on CHOLMOD's ordering */
    cloth__sparse_zero(A);
    double C[9] = {0, 100, 0, 100, 0, 0, 0, 0, 1};
    cloth__sparse_add_block(A, 0, 0, C, 3, 1);
    cloth__sparse_add_block(A, 1, 1, C, 3, 1);
    ck_assert_int_eq(cloth__chol_factor(ch, A, &eps, &err), CLOTH_ENUMERIC);
    ck_assert_msg(strstr(err.msg, "CHOLMOD: not positive definite (the pivot of column ") ==
                      err.msg && strstr(err.msg, "), nor with a Tikhonov shift of up to 10 "
                                                 "max|A_ii| = 10"), "%s", err.msg);
    ck_assert_int_eq(cloth__chol_solve(ch, x, x, &err), CLOTH_EINVAL);
    cloth__chol_destroy(ch);
    cloth__sparse_destroy(A);
    cloth__sparse_destroy(B);
}
END_TEST

/* ------------------------------------------------------------------ PCG */

/* Random sparse SPD systems: PCG stops with |b - A x| <= tol |b| (the recurrence's residual
 * is the true one to rounding). */
START_TEST(pcg_converges_to_tolerance)
{
    unsigned long seed = 200 + (unsigned long)_i;
    cloth__sparse *A = random_pattern(_i == 0 ? 30 : 300, 3, &seed);
    fill_spd(A, 0.1, &seed);
    double *b = random_vector(A->n, seed), *x = malloc((size_t)A->n * sizeof *x);
    cloth__pcg *p;
    cloth_error err;
    int iters, converged;
    ck_assert_int_eq(cloth__pcg_create(A->n, &p, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__pcg_solve(p, A, b, x, 1e-8, 10000, &iters, &converged, &err),
                     CLOTH_OK);
    ck_assert(converged && iters > 1 && iters < A->n);
    ck_assert_double_le(residual(A, x, b), 1.01e-8);
    cloth__pcg_destroy(p);
    cloth__sparse_destroy(A);
    free(b);
    free(x);
}
END_TEST

/* On a block-diagonal matrix the block-Jacobi preconditioner is A^-1: one iteration.  One
 * block, diag(1, 2, 1e-14), is too near singular for the block inverse and takes the
 * scalar diagonal, which is its exact inverse too. */
START_TEST(pcg_block_jacobi_exact_on_block_diagonal)
{
    unsigned long seed = 5;
    cloth__sparse *A;
    cloth_error err;
    ck_assert_int_eq(cloth__sparse_create(20, 0, &A, &err), CLOTH_OK);
    double N[9] = {1, 0, 0, 0, 2, 0, 0, 0, 1e-14};
    for (int j = 0; j < A->nb; j++) {
        double K[9];
        random_psd3(K, &seed);
        for (int k = 0; k < 3; k++)
            K[4 * k] += 0.1;
        cloth__sparse_add_block(A, j, j, j == 7 ? N : K, 3, 1);
    }
    double *b = random_vector(A->n, 9), *x = malloc((size_t)A->n * sizeof *x);
    cloth__pcg *p;
    int iters, converged;
    ck_assert_int_eq(cloth__pcg_create(A->n, &p, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__pcg_solve(p, A, b, x, 1e-12, 10, &iters, &converged, &err),
                     CLOTH_OK);
    ck_assert(converged && iters == 1);
    ck_assert_double_le(residual(A, x, b), 1e-12);
    cloth__pcg_destroy(p);
    cloth__sparse_destroy(A);
    free(b);
    free(x);
}
END_TEST

/* The cap is reported, not an error: converged = 0 after exactly max_iters iterations; a
 * zero right-hand side (here also aliased by x) gives x = 0 in 0 iterations. */
START_TEST(pcg_cap_and_zero_rhs)
{
    cloth__sparse *A = tridiagonal_blocks(1000, 0);
    double *b = random_vector(A->n, 11), *x = malloc((size_t)A->n * sizeof *x);
    cloth__pcg *p;
    cloth_error err;
    int iters, converged;
    ck_assert_int_eq(cloth__pcg_create(A->n, &p, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__pcg_solve(p, A, b, x, 1e-10, 5, &iters, &converged, &err),
                     CLOTH_OK);
    ck_assert(!converged && iters == 5);
    ck_assert_int_eq(cloth__pcg_solve(p, A, b, x, 1e-10, 0, &iters, &converged, &err),
                     CLOTH_OK);
    ck_assert(!converged && iters == 0 && x[0] == 0);
    memset(b, 0, (size_t)A->n * sizeof *b);
    ck_assert_int_eq(cloth__pcg_solve(p, A, b, b, 1e-10, 5, &iters, &converged, &err),
                     CLOTH_OK);
    ck_assert(converged && iters == 0);
    for (int i = 0; i < A->n; i++)
        ck_assert(b[i] == 0);
    cloth__pcg_destroy(p);
    cloth__sparse_destroy(A);
    free(b);
    free(x);
}
END_TEST

/* -I: the blocks are not positive definite (the identity stands in), and the first search
 * direction has d'A d < 0: a breakdown naming the iteration.  Bad input is named too. */
START_TEST(pcg_errors_are_messages)
{
    cloth__sparse *A;
    cloth__pcg *p;
    cloth_error err = {{0}};
    int iters, converged;
    ck_assert_int_eq(cloth__pcg_create(4, &p, &err), CLOTH_EINVAL);
    ck_assert(p == NULL && strstr(err.msg, "PCG: 4 unknowns"));
    ck_assert_int_eq(cloth__sparse_create(2, 0, &A, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__pcg_create(6, &p, &err), CLOTH_OK);
    for (int q = 0; q < 6; q++)
        cloth__sparse_add_diag(A, q, -1);
    double b[6] = {1, 1, 1, 1, 1, 1}, x[6];
    ck_assert_int_eq(cloth__pcg_solve(p, A, b, x, 1e-6, 10, &iters, &converged, &err),
                     CLOTH_ENUMERIC);
    ck_assert_str_eq(err.msg, "PCG: breakdown at iteration 1: d'A d = -6 <= 0 (the matrix is "
                              "not positive definite along the search direction d)");
    ck_assert_int_eq(cloth__pcg_solve(p, A, b, x, 0, 10, &iters, &converged, &err),
                     CLOTH_EINVAL);
    b[1] = NAN;
    ck_assert_int_eq(cloth__pcg_solve(p, A, b, x, 1e-6, 10, &iters, &converged, &err),
                     CLOTH_ENUMERIC);
    ck_assert_str_eq(err.msg, "PCG: right-hand side entry 2 is nan");
    cloth__sparse_add_diag(A, 0, INFINITY);
    ck_assert_int_eq(cloth__pcg_solve(p, A, b, x, 1e-6, 10, &iters, &converged, &err),
                     CLOTH_ENUMERIC);
    ck_assert_str_eq(err.msg, "PCG: entry (1, 1) is inf");
    cloth__pcg_destroy(p);
    cloth__sparse_destroy(A);
}
END_TEST

/* ------------------------------------------------------------------ ARPACK */

static double rel(double a, double b)
{
    return fabs(a - b) / fabs(b);
}

/* lambda_min and lambda_max of (-1, 2, -1) at n = 3000 against the closed form, each to
 * the tolerance asked (1e-8), so the condition number (3.65e6) to 1e-6 at least. */
START_TEST(eigs_tridiagonal_closed_form)
{
    const int nb = 1000, n = 3 * nb;
    cloth__sparse *A = tridiagonal_blocks(nb, 0);
    cloth__chol *ch;
    cloth__eigs *e;
    cloth_error err;
    double eps, lo, hi;
    ck_assert_int_eq(cloth__chol_create(n, &ch, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__chol_factor(ch, A, &eps, &err), CLOTH_OK);
    ck_assert(eps == 0);
    ck_assert_int_eq(cloth__eigs_create(n, &e, &err), CLOTH_OK);
    ck_assert_msg(cloth__eigs_range(e, A, ch, eps, 1e-8, &lo, &hi, &err) == CLOTH_OK, "%s",
                  err.msg);
    double want_lo = tridiagonal_eigenvalue(n, 1, 0), want_hi = tridiagonal_eigenvalue(n, n, 0);
    ck_assert_msg(rel(lo, want_lo) <= 1e-8, "lo %.15g vs %.15g", lo, want_lo);
    ck_assert_msg(rel(hi, want_hi) <= 1e-8, "hi %.15g vs %.15g", hi, want_hi);
    ck_assert_double_le(rel(hi / lo, want_hi / want_lo), 1e-6);
    cloth__eigs_destroy(e);
    cloth__chol_destroy(ch);
    cloth__sparse_destroy(A);
}
END_TEST

/* A cloth's spectrum in miniature: 3000 unknowns, A = I + D with D diagonal, D_ii = 1e-6
 * u_i for all but 30 (u_i reproducible in [0, 1)) and 1e3 (1 + u_i) for those: the bottom
 * 2970 eigenvalues 1 + D_ii lie within 1e-6 of each other, as m/h^2 I clusters a cloth's
 * matrix.  The closed form: lambda = 1 + D_ii.  With the floor 1 (I + PSD) lambda_min is
 * found by shift-invert below the spectrum (the path the newton kernel takes), to the
 * tolerance asked (1e-8), and lambda_max too.  (This diagonal cluster ARPACK also
 * resolves about 0; the 64 x 64 drape of experiments/pcg_iters.ini, at frame 3, is a
 * matrix it does not: its run is the test of that.) */
START_TEST(eigs_with_a_floor_resolve_a_cluster)
{
    const int nb = 1000, n = 3 * nb;
    cloth__sparse *A;
    cloth__chol *ch;
    cloth__eigs *e;
    cloth_error err;
    ck_assert_int_eq(cloth__sparse_create(nb, 0, &A, &err), CLOTH_OK);
    unsigned long seed = 17;
    double want_lo = INFINITY, want_hi = 0;
    for (int q = 0; q < n; q++) {
        double u = 0.5 * (tu_random(&seed) + 1), d = q % 100 == 7 ? 1e3 * (1 + u) : 1e-6 * u;
        cloth__sparse_add_diag(A, q, 1 + d);
        want_lo = fmin(want_lo, 1 + d);
        want_hi = fmax(want_hi, 1 + d);
    }
    double eps, lo, hi;
    ck_assert_int_eq(cloth__chol_create(n, &ch, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__chol_factor(ch, A, &eps, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__eigs_create(n, &e, &err), CLOTH_OK);
    cloth__eigs_set_floor(e, 1.0);
    ck_assert_msg(cloth__eigs_range(e, A, ch, eps, 1e-8, &lo, &hi, &err) == CLOTH_OK, "%s",
                  err.msg);
    ck_assert_msg(rel(lo, want_lo) <= 1e-8, "lo %.15g vs %.15g", lo, want_lo);
    ck_assert_msg(rel(hi, want_hi) <= 1e-8, "hi %.15g vs %.15g", hi, want_hi);
    cloth__eigs_destroy(e);
    cloth__chol_destroy(ch);
    cloth__sparse_destroy(A);
}
END_TEST

/* n = 3, 6, 300, 1200 and 3999 unknowns. */
static const int eig_blocks[] = {1, 2, 100, 400, 1333};

/* Random block-sparse SPD matrices (condition numbers 1e2 to 3e4): lambda_min, lambda_max
 * and their ratio from ARPACK equal dsyevd's to the tolerance asked (1e-8), the ratio to
 * 1e-6 at least. */
START_TEST(eigs_match_dsyevd)
{
    unsigned long seed = 300 + (unsigned long)_i;
    cloth__sparse *A = random_pattern(eig_blocks[_i], 2, &seed);
    fill_spd(A, _i % 2 ? 1e-3 : 0.05, &seed);
    int n = A->n;
    double *D = malloc((size_t)n * n * sizeof *D);
    cloth__sparse_to_dense(A, D);
    cloth__linalg *la;
    cloth__chol *ch;
    cloth__eigs *e;
    cloth_error err;
    double eps, lo, hi, lo_d, hi_d;
    ck_assert_int_eq(cloth__linalg_create(n, &la, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__linalg_eig_range(la, D, &lo_d, &hi_d, &err), CLOTH_OK);
    cloth__linalg_destroy(la);
    free(D);
    ck_assert_int_eq(cloth__chol_create(n, &ch, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__chol_factor(ch, A, &eps, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__eigs_create(n, &e, &err), CLOTH_OK);
    ck_assert_msg(cloth__eigs_range(e, A, ch, eps, 1e-8, &lo, &hi, &err) == CLOTH_OK, "%s",
                  err.msg);
    ck_assert_msg(rel(lo, lo_d) <= 1e-8 && rel(hi, hi_d) <= 1e-8,
                  "n = %d: [%.15g, %.15g] vs dsyevd [%.15g, %.15g]", n, lo, hi, lo_d, hi_d);
    ck_assert_double_le(rel(hi / lo, hi_d / lo_d), 1e-6);
    cloth__eigs_destroy(e);
    cloth__chol_destroy(ch);
    cloth__sparse_destroy(A);
}
END_TEST

/* n = 180 and 189 (either side of newton.cond_exact_max's default) and 768 unknowns. */
static const int cond_blocks[] = {60, 63, 256};

/* The exact condition number two ways, as the newton kernel computes it at either side
 * of cond_exact_max: dsyevd on the dense matrix, and ARPACK with a floor (shift-invert
 * below the spectrum, the kernel's path, here at tolerance 1e-11).  A = (-1, 2, -1) + c I
 * with c = 0.01 (a cloth's m/h^2 floor in miniature), eigenvalues 2 - 2 cos(k pi/(n+1)) + c
 * >= c: both equal the closed form lambda_n / lambda_1 to 1e-9, and each other. */
START_TEST(cond_exact_two_ways_closed_form)
{
    const int nb = cond_blocks[_i], n = 3 * nb;
    const double c = 0.01;
    cloth__sparse *A = tridiagonal_blocks(nb, c);
    double *D = malloc((size_t)n * n * sizeof *D);
    cloth__sparse_to_dense(A, D);
    cloth__linalg *la;
    cloth__chol *ch;
    cloth__eigs *e;
    cloth_error err;
    double eps, by_dsyevd, by_arpack;
    ck_assert_int_eq(cloth__linalg_create(n, &la, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__linalg_cond_exact(la, D, &by_dsyevd, &err), CLOTH_OK);
    cloth__linalg_destroy(la);
    free(D);
    ck_assert_int_eq(cloth__chol_create(n, &ch, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__chol_factor(ch, A, &eps, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__eigs_create(n, &e, &err), CLOTH_OK);
    cloth__eigs_set_floor(e, c);
    ck_assert_msg(cloth__eigs_cond(e, A, ch, eps, 1e-11, &by_arpack, &err) == CLOTH_OK, "%s",
                  err.msg);
    double want = tridiagonal_eigenvalue(n, n, c) / tridiagonal_eigenvalue(n, 1, c);
    ck_assert_msg(rel(by_dsyevd, want) <= 1e-9 && rel(by_arpack, want) <= 1e-9 &&
                      rel(by_arpack, by_dsyevd) <= 1e-9,
                  "n = %d: dsyevd %.15g, ARPACK %.15g, closed form %.15g", n, by_dsyevd,
                  by_arpack, want);
    cloth__eigs_destroy(e);
    cloth__chol_destroy(ch);
    cloth__sparse_destroy(A);
}
END_TEST

/* Two uncoupled (-1, 2, -1) chains of m = 3 nb / 2 unknowns each (nb even), scaled by a1
 * and a2, plus c I, in the pattern of tridiagonal_blocks(nb, .): the eigenvalues are
 * c + a_k (2 - 2 cos(j pi / (m + 1))), j = 1..m, for each chain k. */
static void two_chains(cloth__sparse *A, int nb, double a1, double a2, double c)
{
    int m = 3 * nb / 2;
    cloth__sparse_zero(A);
    for (int j = 0; j < nb; j++) {
        double D[9] = {0}, U[9] = {0}, L[9] = {0};
        for (int r = 0; r < 3; r++) {
            int i = 3 * j + r;
            double a = i < m ? a1 : a2;
            D[4 * r] = 2 * a + c;
            if (r < 2 && i + 1 != m)
                D[3 * r + r + 1] = D[3 * (r + 1) + r] = -a;
        }
        cloth__sparse_add_block(A, j, j, D, 3, 1);
        if (j + 1 < nb && 3 * j + 3 != m) {
            double a = 3 * j + 2 < m ? a1 : a2;
            U[6] = -a; /* unknown 3 j + 2 with 3 (j + 1) */
            L[2] = -a;
            cloth__sparse_add_block(A, j, j + 1, U, 3, 1);
            cloth__sparse_add_block(A, j + 1, j, L, 3, 1);
        }
    }
}

/* The newton kernel's pattern of calls: one workspace, a floor, a sequence of matrices
 * whose extreme eigenvalues move.  Two uncoupled chains (two_chains, m = 600 each, floor
 * c = 1) whose top eigenvalues are 5e-6 apart relative, the top one in chain 1, then in
 * chain 2, then in chain 1 again, and with the whole spectrum scaled by 100 and back (so
 * lambda_min moves from 2.7e-5 to 2.7e-3 above the floor and back): each call's
 * lambda_min and lambda_max equal the closed form to the tolerance asked (1e-8).  A start
 * vector carried from the last call's top eigenvector (which lies in one chain and has no
 * component in the other) would find the other chain's top, 5e-6 too low: the wrong
 * member of the top cluster.  Each chain's own top eigenvalues are 2e-5 apart relative.
 * With a = 1e-4 lambda_min is 2.7e-9 above the floor, within the tolerance: there the last
 * bottom Ritz vector's Rayleigh quotient proves it (eigs.c), until a = 1 again lifts it. */
START_TEST(eigs_sequence_with_a_moving_top_cluster)
{
    const int nb = 400, n = 3 * nb, m = n / 2;
    const double c = 1, d = 5e-6;
    const double a[][2] = {{1, 1 - d},   {1, 1 + d},          {100, 100 * (1 - d)},
                           {1 + d, 1},   {1, 1},              {1e-4, 1e-4 * (1 - d)},
                           {1e-4, 1e-4}, {1e-4 * (1 - d), 1}, {1, 1 - d}};
    cloth__sparse *A = tridiagonal_blocks(nb, 0);
    cloth__chol *ch;
    cloth__eigs *e;
    cloth_error err;
    ck_assert_int_eq(cloth__chol_create(n, &ch, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__eigs_create(n, &e, &err), CLOTH_OK);
    cloth__eigs_set_floor(e, c);
    for (int k = 0; k < (int)(sizeof a / sizeof a[0]); k++) {
        two_chains(A, nb, a[k][0], a[k][1], c);
        double eps, lo, hi;
        ck_assert_int_eq(cloth__chol_factor(ch, A, &eps, &err), CLOTH_OK);
        ck_assert_msg(cloth__eigs_range(e, A, ch, eps, 1e-8, &lo, &hi, &err) == CLOTH_OK,
                      "%s", err.msg);
        double top = 2 - 2 * cos(m * M_PI / (m + 1)), bottom = 2 - 2 * cos(M_PI / (m + 1));
        double want_hi = c + fmax(a[k][0], a[k][1]) * top;
        double want_lo = c + fmin(a[k][0], a[k][1]) * bottom;
        ck_assert_msg(rel(hi, want_hi) <= 1e-8, "call %d: hi %.15g vs %.15g", k, hi, want_hi);
        ck_assert_msg(rel(lo, want_lo) <= 1e-8, "call %d: lo %.15g vs %.15g", k, lo, want_lo);
    }
    cloth__eigs_destroy(e);
    cloth__chol_destroy(ch);
    cloth__sparse_destroy(A);
}
END_TEST

/* eigs_cond is the ratio of the range, and +inf for an indefinite matrix, whose lambda_min
 * comes from the shifted factor (sigma = -eps): (-1, 2, -1) - 0.5 I at n = 300. */
START_TEST(eigs_cond_and_indefinite)
{
    const int nb = 100, n = 3 * nb;
    for (int k = 0; k < 2; k++) {
        double shift = k == 0 ? 0 : -0.5;
        cloth__sparse *A = tridiagonal_blocks(nb, shift);
        cloth__chol *ch;
        cloth__eigs *e;
        cloth_error err;
        double eps, lo, hi, cond;
        ck_assert_int_eq(cloth__chol_create(n, &ch, &err), CLOTH_OK);
        ck_assert_int_eq(cloth__chol_factor(ch, A, &eps, &err), CLOTH_OK);
        ck_assert(k == 0 ? eps == 0 : eps > 0.5);
        ck_assert_int_eq(cloth__eigs_create(n, &e, &err), CLOTH_OK);
        ck_assert_int_eq(cloth__eigs_range(e, A, ch, eps, 1e-8, &lo, &hi, &err), CLOTH_OK);
        ck_assert_int_eq(cloth__eigs_cond(e, A, ch, eps, 1e-8, &cond, &err), CLOTH_OK);
        double want_lo = tridiagonal_eigenvalue(n, 1, shift);
        double want_hi = tridiagonal_eigenvalue(n, n, shift);
        /* relative to lambda + eps, which is what shift-invert resolves */
        ck_assert_double_le(fabs(lo - want_lo), 1e-8 * (want_lo + eps));
        ck_assert_double_le(rel(hi, want_hi), 1e-8);
        if (k == 0)
            ck_assert(cond == hi / lo);
        else
            ck_assert(lo < 0 && isinf(cond) && cond > 0);
        cloth__eigs_destroy(e);
        cloth__chol_destroy(ch);
        cloth__sparse_destroy(A);
    }
}
END_TEST

/* One Lanczos run in each of two threads at once (two sims of a sweep): ARPACK's shared
 * state is behind eigs.c's lock, so each gets what it gets alone, bit for bit. */
typedef struct eigs_job {
    cloth__sparse *A;   /* (-1, 2, -1) + shift I                   */
    double lo, hi;      /* its extreme eigenvalues                 */
    cloth_status st;    /* of the factor, then of the eigenvalues  */
} eigs_job;

static void *run_eigs_job(void *arg)
{
    eigs_job *job = arg;
    cloth__chol *ch;
    cloth__eigs *e;
    cloth_error err;
    double eps;
    job->st = cloth__chol_create(job->A->n, &ch, &err);
    if (job->st == CLOTH_OK && (job->st = cloth__eigs_create(job->A->n, &e, &err)) == CLOTH_OK) {
        job->st = cloth__chol_factor(ch, job->A, &eps, &err);
        if (job->st == CLOTH_OK)
            job->st = cloth__eigs_range(e, job->A, ch, eps, 1e-8, &job->lo, &job->hi, &err);
        cloth__eigs_destroy(e);
    }
    cloth__chol_destroy(ch);
    return NULL;
}

START_TEST(eigs_two_threads_at_once)
{
    eigs_job alone[2], together[2];
    pthread_t thread[2];
    for (int k = 0; k < 2; k++) {
        alone[k].A = together[k].A = tridiagonal_blocks(100 + 50 * k, 0.1 * k);
        run_eigs_job(&alone[k]);
        ck_assert_int_eq(alone[k].st, CLOTH_OK);
    }
    for (int k = 0; k < 2; k++)
        ck_assert_int_eq(pthread_create(&thread[k], NULL, run_eigs_job, &together[k]), 0);
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(pthread_join(thread[k], NULL), 0);
        ck_assert_int_eq(together[k].st, CLOTH_OK);
        ck_assert(together[k].lo == alone[k].lo && together[k].hi == alone[k].hi);
        cloth__sparse_destroy(alone[k].A);
    }
}
END_TEST

START_TEST(eigs_errors_are_messages)
{
    cloth__eigs *e;
    cloth__chol *ch;
    cloth_error err = {{0}};
    double lo, hi;
    ck_assert_int_eq(cloth__eigs_create(1, &e, &err), CLOTH_EINVAL);
    ck_assert(e == NULL && strstr(err.msg, "ARPACK: 1 unknowns"));
    cloth__sparse *A = tridiagonal_blocks(3, 0), *B = tridiagonal_blocks(2, 0);
    ck_assert_int_eq(cloth__eigs_create(A->n, &e, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__chol_create(A->n, &ch, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__eigs_range(e, B, ch, 0, 1e-8, &lo, &hi, &err), CLOTH_EINVAL);
    ck_assert_str_eq(err.msg, "ARPACK: a 6 x 6 matrix for workspaces of 9");
    ck_assert_int_eq(cloth__eigs_range(e, A, ch, 0, 0, &lo, &hi, &err), CLOTH_EINVAL);
    ck_assert_str_eq(err.msg, "ARPACK: tolerance 0 (need 0 < tol < 1)");
    /* shift-invert needs the factor */
    ck_assert_int_eq(cloth__eigs_range(e, A, ch, 0, 1e-8, &lo, &hi, &err), CLOTH_EINVAL);
    ck_assert_str_eq(err.msg, "CHOLMOD: solve: no factor (none made, or the last one failed)");
    cloth__chol_destroy(ch);
    cloth__eigs_destroy(e);
    cloth__sparse_destroy(A);
    cloth__sparse_destroy(B);
}
END_TEST

Suite *suite_sparse(void)
{
    Suite *s = suite_create("sparse");
    TCase *tc = tcase_create("block matrix");
    tcase_add_loop_test(tc, mul_and_to_dense_match_dense_assembly, 0, 3);
    tcase_add_test(tc, set_pattern_over_capacity_refused);
    suite_add_tcase(s, tc);

    tc = tcase_create("cholmod");
    tcase_set_timeout(tc, 60); /* the 110 x 110 grid: about 1 s alone, more under load */
    tcase_add_loop_test(tc, cholmod_matches_dense_lapack, 0,
                        (int)(sizeof chol_blocks / sizeof chol_blocks[0]));
    tcase_add_test(tc, cholmod_tikhonov_shift_on_indefinite);
    tcase_add_test(tc, cholmod_errors_are_messages);
    tcase_add_test(tc, cholmod_ordering_metis_on_a_grid);
    suite_add_tcase(s, tc);

    tc = tcase_create("pcg");
    tcase_add_loop_test(tc, pcg_converges_to_tolerance, 0, 2);
    tcase_add_test(tc, pcg_block_jacobi_exact_on_block_diagonal);
    tcase_add_test(tc, pcg_cap_and_zero_rhs);
    tcase_add_test(tc, pcg_errors_are_messages);
    suite_add_tcase(s, tc);

    /* dsyevd at 3999 unknowns takes seconds, more under the sanitizers */
    tc = tcase_create("eigs");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, eigs_tridiagonal_closed_form);
    tcase_add_loop_test(tc, eigs_match_dsyevd, 0,
                        (int)(sizeof eig_blocks / sizeof eig_blocks[0]));
    tcase_add_test(tc, eigs_with_a_floor_resolve_a_cluster);
    tcase_add_loop_test(tc, cond_exact_two_ways_closed_form, 0,
                        (int)(sizeof cond_blocks / sizeof cond_blocks[0]));
    tcase_add_test(tc, eigs_sequence_with_a_moving_top_cluster);
    tcase_add_test(tc, eigs_cond_and_indefinite);
    tcase_add_test(tc, eigs_two_threads_at_once);
    tcase_add_test(tc, eigs_errors_are_messages);
    suite_add_tcase(s, tc);
    return s;
}
