/* Barrier stiffness rules on hand-built contacts, with elastic blocks from the spring
 * module. */
#include "terms/barrier.h"
#include "terms/spring.h"
#include "terms/stiffness.h"
#include "suites.h"

#include <math.h>
#include <string.h>

/* The 3x3 block of vertex a (the first end) of one spring's 6x6 PSD Hessian, added to B. */
static void add_first_block(const double xa[3], const double xb[3], double k, double l0,
                            double B[9])
{
    double H[36];
    cloth__spring_hessian(xa, xb, k, l0, 1, H);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            B[3 * r + c] += H[6 * r + c];
}

/* A vertex at the origin held by a spring at rest along x (k = 10: block 10 e_x e_x^T)
 * and a spring stretched to twice its length along y (k = 5: block 5 diag(0.5, 1, 0.5)).
 * Normal n = (1, 1, 0)/sqrt 2: n^T H n = 10/2 + 5 (0.25 + 0.5) = 8.75; with m = 0.02 and
 * g = 0.004, m/g^2 = 1250, so kappa = 1258.75.  With n = e_y: 1250 + 5. */
START_TEST(dynamic_kappa_single_vertex_contact)
{
    const double x[3] = {0, 0, 0}, right[3] = {1, 0, 0}, up[3] = {0, 2, 0};
    double H[9] = {0};
    add_first_block(x, right, 10, 1, H);
    add_first_block(x, up, 5, 1, H);
    double s = 1 / sqrt(2.0);
    const double n[3] = {s, s, 0}, ey[3] = {0, 1, 0};
    double paper = cloth__kappa_mass(CLOTH__KAPPA_FORM_PAPER, 0.02, 0.004, 0.01, 0.01, 1);
    ck_assert_double_eq_tol(cloth__kappa_stencil_vertex(n, H) + paper, 1258.75, 1e-9);
    ck_assert_double_eq_tol(cloth__kappa_stencil_vertex(ey, H) + paper, 1255.0, 1e-9);
}
END_TEST

/* Two unconnected vertices, each with its own springs: H = blockdiag(H_i, H_j) and
 * w = (n, -n)/sqrt 2 gives w^T H w = (n^T H_i n + n^T H_j n)/2; mean mass 0.015. */
START_TEST(dynamic_kappa_vertex_pair)
{
    const double xi[3] = {0, 0, 0}, xj[3] = {0, 0.01, 0};
    const double ai[3] = {1, 0, 0}, aj[3] = {0, 1.01, 0};
    double Hi[9] = {0}, Hj[9] = {0}, H[36] = {0};
    add_first_block(xi, ai, 10, 1, Hi);  /* 10 e_x e_x^T */
    add_first_block(xj, aj, 4, 0.5, Hj); /* 4 diag(0.5, 1, 0.5) */
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            H[6 * r + c] = Hi[3 * r + c];
            H[6 * (r + 3) + c + 3] = Hj[3 * r + c];
        }
    const double n[3] = {0, 1, 0};
    /* (0 + 4)/2 = 2, and 0.015 / 0.002^2 = 3750 */
    ck_assert_double_eq_tol(cloth__kappa_stencil_pair(n, H) +
                                cloth__kappa_mass(CLOTH__KAPPA_FORM_PAPER, 0.015, 0.002, 0.01,
                                                  0.01, 1),
                            3752.0, 1e-9);
}
END_TEST

/* One stretched edge alone: H = [[K, -K], [-K, K]] with u^T K u = k, so the unit
 * stencil gives w^T H w = 2k. */
START_TEST(dynamic_kappa_strain_edge)
{
    const double xa[3] = {0, 0, 0}, xb[3] = {0.6 * 1.015, 0.8 * 1.015, 0};
    const double u[3] = {0.6, 0.8, 0};
    double H[36];
    cloth__spring_hessian(xa, xb, 30, 1, 1, H);
    ck_assert_double_eq_tol(cloth__kappa_stencil_pair(u, H), 60, 1e-12);
}
END_TEST

/* The two mass terms: paper m / g^2 as published; si (m w2 / h^2)(g^/g)^2, which equals
 * m w2/h^2 at g = g^ and grows as 1/g^2 like the paper form; both down to g = g^/100. */
START_TEST(mass_term_paper_and_si)
{
    ck_assert_double_eq_tol(cloth__kappa_mass(CLOTH__KAPPA_FORM_PAPER, 0.01, 0.005, 0.02, 0.01,
                                              3), 0.01 / 25e-6, 1e-9);
    ck_assert_double_eq_tol(cloth__kappa_mass(CLOTH__KAPPA_FORM_SI, 0.01, 0.02, 0.02, 0.01, 3),
                            0.01 * 3 / 1e-4, 1e-9);
    ck_assert_double_eq_tol(cloth__kappa_mass(CLOTH__KAPPA_FORM_SI, 0.01, 0.005, 0.02, 0.01, 3),
                            0.01 * 3 / 1e-4 * 16, 1e-9);
    /* below g^/100 both see g^/100 = 2e-4 (a gap of 0, which rounding can leave, is not
     * an infinite kappa): paper 0.01 / 4e-8, si (0.03 / 1e-4) 100^2 */
    for (int i = 0; i < 3; i++) {
        double g = (double[]){0, 1e-300, 1e-4}[i];
        ck_assert_double_eq_tol(cloth__kappa_mass(CLOTH__KAPPA_FORM_PAPER, 0.01, g, 0.02, 0.01,
                                                  3), 0.01 / 4e-8, 1e-6);
        ck_assert_double_eq_tol(cloth__kappa_mass(CLOTH__KAPPA_FORM_SI, 0.01, g, 0.02, 0.01, 3),
                                0.03 / 1e-4 * 1e4, 1e-6);
    }
}
END_TEST

/* Units: written in centimetres (lengths x 100, masses and seconds kept) a contact's
 * stiffness must not change (N/m = kg/s^2 has no length in it) and a strain element's
 * must grow by 1e4 (J = kg m^2/s^2), as every energy of the scene does.  The si form does
 * both; the paper form does neither (its m/g^2 scales as 1e-4 for contacts). */
START_TEST(si_form_scales_with_the_units)
{
    const double m = 0.01, h = 0.004, g = 0.003, dhat = 0.01, w2 = 0.005, s = 100;
    double c_m = cloth__kappa_mass(CLOTH__KAPPA_FORM_SI, m, g, dhat, h, 1);
    double c_cm = cloth__kappa_mass(CLOTH__KAPPA_FORM_SI, m, g * s, dhat * s, h, 1);
    ck_assert_double_le(fabs(c_cm - c_m), 1e-12 * c_m);
    double e_m = cloth__kappa_mass(CLOTH__KAPPA_FORM_SI, m, 0.01, 0.02, h, w2);
    double e_cm = cloth__kappa_mass(CLOTH__KAPPA_FORM_SI, m, 0.01, 0.02, h, w2 * s * s);
    ck_assert_double_le(fabs(e_cm - s * s * e_m), 1e-12 * e_cm);
    double p_m = cloth__kappa_mass(CLOTH__KAPPA_FORM_PAPER, m, g, dhat, h, 1);
    double p_cm = cloth__kappa_mass(CLOTH__KAPPA_FORM_PAPER, m, g * s, dhat * s, h, 1);
    ck_assert_double_le(fabs(p_cm - p_m / (s * s)), 1e-12 * p_m);
}
END_TEST

/* IPC: the initial kappa balances the gradients (here -(-1, 0, 0).(3, 2, 0) / 1 = 3)
 * inside [kappa_min, kappa_max], is clamped outside, and falls back to kappa_min without
 * a barrier gradient.  The bounds follow 1e11 m / (h^2 psi''(1e-8 L)). */
START_TEST(ipc_initial_kappa)
{
    const double ge[3] = {3, 2, 0}, gb[3] = {-1, 0, 0}, zero[3] = {0, 0, 0};
    ck_assert_double_eq(cloth__kappa_ipc_initial(ge, gb, 3, 1, 100), 3);
    ck_assert_double_eq(cloth__kappa_ipc_initial(ge, gb, 3, 5, 100), 5);
    ck_assert_double_eq(cloth__kappa_ipc_initial(ge, gb, 3, 0.1, 2), 2);
    ck_assert_double_eq(cloth__kappa_ipc_initial(ge, zero, 3, 0.5, 2), 0.5);
    double kmin, kmax, d2;
    cloth__kappa_ipc_bounds(CLOTH__BARRIER_LOG, 0.01, 2.0, 0.01, 0.01, &kmin, &kmax);
    cloth__barrier(CLOTH__BARRIER_LOG, 2e-8, 0.01, NULL, &d2);
    ck_assert_double_eq_tol(kmin, 1e11 * 0.01 / (1e-4 * d2), 1e-12 * kmin);
    ck_assert_double_eq_tol(kmax, 100 * kmin, 1e-12 * kmax);
}
END_TEST

/* IPC: doubled only when the smallest gap stays below eps and keeps shrinking; capped. */
START_TEST(ipc_update_doubles)
{
    ck_assert_double_eq(cloth__kappa_ipc_update(3, 100, 1e-10, 5e-11, 1e-9), 6);
    ck_assert_double_eq(cloth__kappa_ipc_update(3, 100, 5e-11, 1e-10, 1e-9), 3);
    ck_assert_double_eq(cloth__kappa_ipc_update(3, 100, 2e-9, 5e-11, 1e-9), 3);
    ck_assert_double_eq(cloth__kappa_ipc_update(60, 100, 1e-10, 5e-11, 1e-9), 100);
}
END_TEST

Suite *suite_stiffness(void)
{
    Suite *s = suite_create("stiffness");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, dynamic_kappa_single_vertex_contact);
    tcase_add_test(tc, dynamic_kappa_vertex_pair);
    tcase_add_test(tc, dynamic_kappa_strain_edge);
    tcase_add_test(tc, mass_term_paper_and_si);
    tcase_add_test(tc, si_form_scales_with_the_units);
    tcase_add_test(tc, ipc_initial_kappa);
    tcase_add_test(tc, ipc_update_doubles);
    suite_add_tcase(s, tc);
    return s;
}
