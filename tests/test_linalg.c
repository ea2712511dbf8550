/* Dense linear algebra: exact and estimated condition numbers against closed forms,
 * solve residuals, and the Tikhonov fallback. */
#include "linalg/dense.h"
#include "suites.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The (-1, 2, -1) tridiagonal matrix of size n, column-major (caller frees). */
static double *tridiagonal(int n)
{
    double *A = calloc((size_t)n * n, sizeof *A);
    for (int i = 0; i < n; i++) {
        A[(size_t)i * n + i] = 2;
        if (i + 1 < n)
            A[(size_t)i * n + i + 1] = A[(size_t)(i + 1) * n + i] = -1;
    }
    return A;
}

/* A reproducible number in [-1, 1). */
static double next_random(unsigned long *state)
{
    *state = *state * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(*state >> 11) / (double)(1UL << 52) - 1.0;
}

/* A = B^T B + n I with B random: symmetric positive definite. */
static double *random_spd(int n, unsigned long seed)
{
    double *B = malloc((size_t)n * n * sizeof *B), *A = calloc((size_t)n * n, sizeof *A);
    for (size_t k = 0; k < (size_t)n * n; k++)
        B[k] = next_random(&seed);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = i == j ? n : 0;
            for (int k = 0; k < n; k++)
                s += B[(size_t)i * n + k] * B[(size_t)j * n + k];
            A[(size_t)j * n + i] = s;
        }
    free(B);
    return A;
}

static double one_norm(const double *A, int n)
{
    double best = 0;
    for (int j = 0; j < n; j++) {
        double s = 0;
        for (int i = 0; i < n; i++)
            s += fabs(A[(size_t)j * n + i]);
        best = fmax(best, s);
    }
    return best;
}

static const int sizes[] = {2, 5, 10, 50, 200};

/* SPEC 10: the eigenvalues of (-1, 2, -1) are 2 - 2 cos(k pi/(n+1)), so
 * kappa_2 = (2 - 2cos(n pi/(n+1))) / (2 - 2cos(pi/(n+1))). */
START_TEST(exact_condition_of_tridiagonal)
{
    int n = sizes[_i];
    double *A = tridiagonal(n);
    cloth__linalg *la;
    cloth_error err;
    ck_assert_int_eq(cloth__linalg_create(n, &la, &err), CLOTH_OK);
    double cond;
    ck_assert_int_eq(cloth__linalg_cond_exact(la, A, &cond, &err), CLOTH_OK);
    double want = (2 - 2 * cos(n * M_PI / (n + 1))) / (2 - 2 * cos(M_PI / (n + 1)));
    ck_assert_msg(fabs(cond - want) <= 1e-10 * want, "n = %d: %.15g vs %.15g", n, cond, want);
    cloth__linalg_destroy(la);
    free(A);
}
END_TEST

/* The dpocon estimate lies within its documented factor of the exact 1-norm condition
 * number: kappa_1/3 <= estimate <= kappa_1.  The inverse of (-1, 2, -1) is known in
 * closed form, (A^-1)_ij = min(i,j) (n + 1 - max(i,j)) / (n + 1) (1-based). */
START_TEST(estimate_within_factor_tridiagonal)
{
    int n = sizes[_i];
    double *A = tridiagonal(n), *Ainv = malloc((size_t)n * n * sizeof *Ainv);
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            Ainv[(size_t)(j - 1) * n + i - 1] =
                (double)(i < j ? i : j) * (n + 1 - (i > j ? i : j)) / (n + 1);
    double kappa1 = one_norm(A, n) * one_norm(Ainv, n);
    cloth__linalg *la;
    cloth_error err;
    double eps, est;
    ck_assert_int_eq(cloth__linalg_create(n, &la, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__linalg_factor(la, A, &eps, &err), CLOTH_OK);
    ck_assert(eps == 0);
    ck_assert_int_eq(cloth__linalg_cond_estimate(la, &est, &err), CLOTH_OK);
    ck_assert_msg(est <= kappa1 * (1 + 1e-10) && est >= kappa1 / 3,
                  "n = %d: estimate %g, exact %g", n, est, kappa1);
    cloth__linalg_destroy(la);
    free(A);
    free(Ainv);
}
END_TEST

/* The same bound on random SPD matrices, their inverses built column by column with the
 * solver; the solve residual |A x - b| / |b| is at rounding level. */
START_TEST(solve_and_estimate_random_spd)
{
    const int n = 40;
    double *A = random_spd(n, 17 + (unsigned long)_i);
    double *Ainv = malloc((size_t)n * n * sizeof *Ainv), b[40], x[40];
    cloth__linalg *la;
    cloth_error err;
    double eps, est;
    ck_assert_int_eq(cloth__linalg_create(n, &la, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__linalg_factor(la, A, &eps, &err), CLOTH_OK);
    ck_assert(eps == 0);
    unsigned long seed = 99;
    for (int i = 0; i < n; i++)
        b[i] = next_random(&seed);
    ck_assert_int_eq(cloth__linalg_solve(la, b, x, &err), CLOTH_OK);
    double res = 0, bn = 0;
    for (int i = 0; i < n; i++) {
        double r = -b[i];
        for (int j = 0; j < n; j++)
            r += A[(size_t)j * n + i] * x[j];
        res += r * r;
        bn += b[i] * b[i];
    }
    ck_assert_double_le(sqrt(res / bn), 1e-13);
    for (int j = 0; j < n; j++) {
        memset(b, 0, sizeof b);
        b[j] = 1;
        ck_assert_int_eq(cloth__linalg_solve(la, b, Ainv + (size_t)j * n, &err), CLOTH_OK);
    }
    double kappa1 = one_norm(A, n) * one_norm(Ainv, n);
    ck_assert_int_eq(cloth__linalg_cond_estimate(la, &est, &err), CLOTH_OK);
    ck_assert_msg(est <= kappa1 * (1 + 1e-10) && est >= kappa1 / 3, "estimate %g, exact %g",
                  est, kappa1);
    cloth__linalg_destroy(la);
    free(A);
    free(Ainv);
}
END_TEST

/* An indefinite matrix (eigenvalues 3, 1, -0.5 after a rotation) makes dpotrf fail; the
 * factor reports a shift eps > 0.5 and the solve then solves (A + eps I) x = b. */
START_TEST(indefinite_matrix_falls_back_to_tikhonov)
{
    const int n = 3;
    /* Q diag(3, 1, -0.5) Q^T with Q a rotation about z by 30 degrees */
    double c = cos(M_PI / 6), s = sin(M_PI / 6);
    double A[9] = {3 * c * c + s * s, (3 - 1) * c * s, 0,
                   (3 - 1) * c * s, 3 * s * s + c * c, 0,
                   0, 0, -0.5};
    cloth__linalg *la;
    cloth_error err;
    double eps, cond;
    ck_assert_int_eq(cloth__linalg_create(n, &la, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__linalg_cond_exact(la, A, &cond, &err), CLOTH_OK);
    ck_assert(isinf(cond));
    ck_assert_int_eq(cloth__linalg_factor(la, A, &eps, &err), CLOTH_OK);
    ck_assert_double_gt(eps, 0.5);
    double b[3] = {1, 2, 3}, x[3];
    ck_assert_int_eq(cloth__linalg_solve(la, b, x, &err), CLOTH_OK);
    for (int i = 0; i < n; i++) {
        double r = eps * x[i] - b[i];
        for (int j = 0; j < n; j++)
            r += A[j * n + i] * x[j];
        ck_assert_double_le(fabs(r), 1e-12);
    }
    cloth__linalg_destroy(la);
}
END_TEST

/* Bad input becomes a status and a message, never a crash. */
START_TEST(errors_are_messages)
{
    cloth__linalg *la;
    cloth_error err = {{0}};
    ck_assert_int_eq(cloth__linalg_create(0, &la, &err), CLOTH_EINVAL);
    ck_assert(la == NULL && err.msg[0] != '\0');
    ck_assert_int_eq(cloth__linalg_create(2, &la, &err), CLOTH_OK);
    double A[4] = {1, 0, 0, NAN}, eps, cond, x[2];
    err.msg[0] = '\0';
    ck_assert_int_eq(cloth__linalg_factor(la, A, &eps, &err), CLOTH_ENUMERIC);
    ck_assert_str_eq(err.msg, "Cholesky failed (entry (2, 2) is nan)");
    /* no factor, nothing to solve with */
    err.msg[0] = '\0';
    ck_assert_int_eq(cloth__linalg_solve(la, A, x, &err), CLOTH_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.msg, "Cholesky solve failed (no factor"));
    ck_assert_int_eq(cloth__linalg_cond_estimate(la, &cond, &err), CLOTH_EINVAL);
    ck_assert_ptr_nonnull(strstr(err.msg, "condition estimate failed (no factor"));
    /* eigenvalues -100 and 100 on a zero diagonal: shifts up to 10 max(|A_ii|, 1) = 10
     * cannot help, and the first leading minor (0) is where dpotrf stops */
    double B[4] = {0, 100, 100, 0};
    ck_assert_int_eq(cloth__linalg_factor(la, B, &eps, &err), CLOTH_ENUMERIC);
    ck_assert_str_eq(err.msg, "Cholesky failed (leading minor 1 not positive definite, nor "
                              "with a Tikhonov shift of up to 10 max|A_ii| = 10)");
    cloth__linalg_destroy(la);
}
END_TEST

/* The PSD projection of Q diag(lambda) Q^T, Q a product of plane rotations (orthogonal
 * by construction), is Q diag(max(lambda, 0)) Q^T; a PSD matrix is unchanged; a NaN entry
 * gives an error and a zero matrix.  n = 12, a contact stencil's size. */
START_TEST(psd_projection_clamps_eigenvalues)
{
    enum { N = 12 };
    double Q[N * N], A[N * N], want[N * N], lambda[N];
    for (int i = 0; i < N * N; i++)
        Q[i] = i % (N + 1) == 0;
    for (int p = 0; p < N - 1; p++) { /* Q <- Q G(p, p + 1, angle p) */
        double c = cos(0.3 + p), s = sin(0.3 + p);
        for (int r = 0; r < N; r++) {
            double a = Q[N * r + p], b = Q[N * r + p + 1];
            Q[N * r + p] = c * a - s * b;
            Q[N * r + p + 1] = s * a + c * b;
        }
    }
    for (int k = 0; k < N; k++)
        lambda[k] = k % 3 == 0 ? -(k + 1.0) : k + 0.5;
    for (int pass = 0; pass < 2; pass++) {
        for (int r = 0; r < N; r++)
            for (int c = 0; c < N; c++) {
                A[N * r + c] = want[N * r + c] = 0;
                for (int k = 0; k < N; k++) {
                    double l = pass ? fmax(lambda[k], 0) : lambda[k];
                    A[N * r + c] += Q[N * r + k] * l * Q[N * c + k];
                    want[N * r + c] += Q[N * r + k] * fmax(lambda[k], 0) * Q[N * c + k];
                }
            }
        ck_assert_int_eq(cloth__linalg_project_psd(N, A), 0);
        for (int i = 0; i < N * N; i++)
            ck_assert_msg(fabs(A[i] - want[i]) <= 1e-12 * N, "pass %d, entry %d: %g, want %g",
                          pass, i, A[i], want[i]);
    }
    A[5] = NAN;
    ck_assert_int_ne(cloth__linalg_project_psd(N, A), 0);
    for (int i = 0; i < N * N; i++)
        ck_assert(A[i] == 0);
}
END_TEST

Suite *suite_linalg(void)
{
    Suite *s = suite_create("linalg");
    TCase *tc = tcase_create("dense");
    int n_sizes = (int)(sizeof sizes / sizeof sizes[0]);
    tcase_add_loop_test(tc, exact_condition_of_tridiagonal, 0, n_sizes);
    tcase_add_loop_test(tc, estimate_within_factor_tridiagonal, 0, n_sizes);
    tcase_add_loop_test(tc, solve_and_estimate_random_spd, 0, 3);
    tcase_add_test(tc, indefinite_matrix_falls_back_to_tikhonov);
    tcase_add_test(tc, errors_are_messages);
    tcase_add_test(tc, psd_projection_clamps_eigenvalues);
    suite_add_tcase(s, tc);
    return s;
}
