/* The Hooke spring: gradient and Hessian against central finite differences. */
#include "terms/spring.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>

typedef struct { double k, l0; } spring_ctx;

static double energy_of(const double *x, void *ctx)
{
    spring_ctx *s = ctx;
    return cloth__spring_energy(x, x + 3, s->k, s->l0);
}

static void gradient_of(const double *x, void *ctx, double *g)
{
    spring_ctx *s = ctx;
    cloth__spring_gradient(x, x + 3, s->k, s->l0, g);
}

/* Stretched, compressed and nearly-rest configurations. */
static const double configs[][6] = {
    {0.1, -0.2, 0.3, 1.4, 0.5, -0.6},
    {0.0, 0.0, 0.0, 0.3, 0.2, 0.1},
    {1.0, 2.0, 3.0, 1.0, 2.0, 4.0001},
};

START_TEST(gradient_matches_finite_differences)
{
    spring_ctx s = {37.0, 1.0};
    double g[6], fd[6];
    cloth__spring_gradient(configs[_i], configs[_i] + 3, s.k, s.l0, g);
    tu_fd_gradient(energy_of, &s, configs[_i], 6, 1e-6, fd);
    ck_assert_double_le(tu_rel_error(g, fd, 6, 1e-3), 1e-6);
}
END_TEST

START_TEST(hessian_matches_finite_differences)
{
    spring_ctx s = {37.0, 1.0};
    double H[36], fd[36];
    cloth__spring_hessian(configs[_i], configs[_i] + 3, s.k, s.l0, 0, H);
    tu_fd_jacobian(gradient_of, &s, configs[_i], 6, 1e-6, fd);
    ck_assert_double_le(tu_rel_error(H, fd, 36, 1e-3), 1e-6);
}
END_TEST

/* A compressed spring has a negative transverse curvature; the PSD form drops it, so
 * v^T H v >= 0 for a transverse v, while the exact form gives k (1 - l0/l) |v|^2 < 0. */
START_TEST(psd_hessian_clamps_compression)
{
    const double xa[3] = {0, 0, 0}, xb[3] = {0.5, 0, 0};
    double H[36], Hpsd[36];
    cloth__spring_hessian(xa, xb, 10.0, 1.0, 0, H);
    cloth__spring_hessian(xa, xb, 10.0, 1.0, 1, Hpsd);
    const double v[6] = {0, 1, 0, 0, -1, 0};
    double q = 0, qpsd = 0;
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 6; c++) {
            q += v[r] * H[r * 6 + c] * v[c];
            qpsd += v[r] * Hpsd[r * 6 + c] * v[c];
        }
    /* exact: 10 (1 - 1/0.5) * (|v_a - v_b|^2 = 4) = -40 */
    ck_assert_double_eq_tol(q, -40.0, 1e-12);
    ck_assert_double_eq_tol(qpsd, 0.0, 1e-12);
}
END_TEST

Suite *suite_spring(void)
{
    Suite *s = suite_create("spring");
    TCase *tc = tcase_create("derivatives");
    tcase_add_loop_test(tc, gradient_matches_finite_differences, 0, 3);
    tcase_add_loop_test(tc, hessian_matches_finite_differences, 0, 3);
    tcase_add_test(tc, psd_hessian_clamps_compression);
    suite_add_tcase(s, tc);
    return s;
}
