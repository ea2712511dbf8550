/* The log and cubic barriers: derivatives against central differences, the identities
 * of SPEC 10, and the unbounded curvature of the log barrier. */
#include "terms/barrier.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>

static const double dhats[] = {1e-3, 0.01, 0.5, 2.0};
static const double fractions[] = {0.01, 0.03, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99};
enum { N_DHAT = sizeof dhats / sizeof dhats[0], N_FRAC = sizeof fractions / sizeof fractions[0] };

typedef struct { cloth__barrier_kind kind; double dhat; } barrier_ctx;

static double value_of(const double *g, void *ctx)
{
    barrier_ctx *b = ctx;
    return cloth__barrier(b->kind, g[0], b->dhat, NULL, NULL);
}

static double first_of(const double *g, void *ctx)
{
    barrier_ctx *b = ctx;
    double d1;
    cloth__barrier(b->kind, g[0], b->dhat, &d1, NULL);
    return d1;
}

/* psi' and psi'' against central differences of psi and psi', relative error 1e-6,
 * for every g^ and every g = f g^ in [0.01 g^, 0.99 g^].  _i picks the barrier. */
START_TEST(derivatives_match_finite_differences)
{
    for (int a = 0; a < N_DHAT; a++)
        for (int f = 0; f < N_FRAC; f++) {
            barrier_ctx b = {(cloth__barrier_kind)_i, dhats[a]};
            double g = fractions[f] * b.dhat, step = 1e-5 * g;
            double d1, d2, fd1, fd2;
            cloth__barrier(b.kind, g, b.dhat, &d1, &d2);
            tu_fd_gradient(value_of, &b, &g, 1, step, &fd1);
            tu_fd_gradient(first_of, &b, &g, 1, step, &fd2);
            ck_assert_msg(fabs(d1 - fd1) <= 1e-6 * fabs(fd1),
                          "%s psi' at g = %g g^, g^ = %g: %.12g vs fd %.12g",
                          cloth__barrier_name(b.kind), fractions[f], b.dhat, d1, fd1);
            ck_assert_msg(fabs(d2 - fd2) <= 1e-6 * fabs(fd2),
                          "%s psi'' at g = %g g^, g^ = %g: %.12g vs fd %.12g",
                          cloth__barrier_name(b.kind), fractions[f], b.dhat, d2, fd2);
        }
}
END_TEST

/* Outside the activation band both barriers and their derivatives vanish. */
START_TEST(zero_outside_the_band)
{
    const double gs[] = {1.0, 1.0 + 1e-12, 2.0, 1e6};
    for (int k = 0; k < 4; k++) {
        double d1 = -1, d2 = -1;
        double v = cloth__barrier((cloth__barrier_kind)_i, gs[k] * 0.3, 0.3, &d1, &d2);
        ck_assert(v == 0 && d1 == 0 && d2 == 0);
    }
}
END_TEST

/* SPEC 10: psi(0) = 2 g^2/3, psi''(0) = 4, and psi, psi', psi'' all 0 at g^. */
START_TEST(cubic_identities)
{
    for (int a = 0; a < N_DHAT; a++) {
        double dh = dhats[a], d1, d2;
        double v = cloth__barrier(CLOTH__BARRIER_CUBIC, 0.0, dh, &d1, &d2);
        ck_assert_double_eq_tol(v, 2 * dh * dh / 3, 1e-15 * dh * dh);
        ck_assert_double_eq_tol(d1, -2 * dh, 1e-15 * dh);
        ck_assert_double_eq_tol(d2, 4.0, 1e-15);
        v = cloth__barrier(CLOTH__BARRIER_CUBIC, dh, dh, &d1, &d2);
        ck_assert(v == 0 && d1 == 0 && d2 == 0);
        /* just inside the band the curve starts from zero value, slope and curvature */
        v = cloth__barrier(CLOTH__BARRIER_CUBIC, dh * (1 - 1e-9), dh, &d1, &d2);
        ck_assert_double_le(fabs(d2), 4e-9 + 1e-15);
    }
}
END_TEST

/* The log barrier is C^2 at g^ too: psi''(g -> g^) -> 0. */
START_TEST(log_is_smooth_at_dhat)
{
    double d1, d2;
    cloth__barrier(CLOTH__BARRIER_LOG, 0.5 * (1 - 1e-6), 0.5, &d1, &d2);
    ck_assert_double_le(fabs(d2), 1e-5);
    ck_assert_double_le(fabs(d1), 1e-6);
}
END_TEST

/* psi''(g) of the log barrier increases strictly along g^ 10^-k, k = 1..14, and exceeds
 * every bound B in {1e3, 1e6, 1e12, 1e20} once g is small enough (found by halving). */
START_TEST(log_curvature_is_unbounded)
{
    const double dh = 0.01;
    double prev = 0;
    for (int k = 1; k <= 14; k++) {
        double d2;
        cloth__barrier(CLOTH__BARRIER_LOG, dh * pow(10.0, -k), dh, NULL, &d2);
        ck_assert_msg(d2 > prev, "psi'' not increasing at g = g^ 1e-%d", k);
        prev = d2;
    }
    const double bounds[] = {1e3, 1e6, 1e12, 1e20};
    for (int b = 0; b < 4; b++) {
        double g = dh / 2, d2 = 0;
        for (int halvings = 0; halvings < 200 && d2 <= bounds[b]; halvings++, g /= 2)
            cloth__barrier(CLOTH__BARRIER_LOG, g, dh, NULL, &d2);
        ck_assert_msg(d2 > bounds[b], "psi'' stayed below %g", bounds[b]);
    }
    /* while the cubic stays at most 4 */
    double d2c;
    cloth__barrier(CLOTH__BARRIER_CUBIC, 1e-300, dh, NULL, &d2c);
    ck_assert_double_le(d2c, 4.0);
}
END_TEST

Suite *suite_barrier(void)
{
    Suite *s = suite_create("barrier");
    TCase *tc = tcase_create("curves");
    tcase_add_loop_test(tc, derivatives_match_finite_differences, CLOTH__BARRIER_LOG,
                        CLOTH__BARRIER_CUBIC + 1);
    tcase_add_loop_test(tc, zero_outside_the_band, CLOTH__BARRIER_LOG, CLOTH__BARRIER_NONE + 1);
    tcase_add_test(tc, cubic_identities);
    tcase_add_test(tc, log_is_smooth_at_dhat);
    tcase_add_test(tc, log_curvature_is_unbounded);
    suite_add_tcase(s, tc);
    return s;
}
