/* newton_linesearch: the public tests (the students have these).  Every expected value is
 * a closed form: the cubic barrier psi = (2/(3 g^)) (g^ - g)^3 and its derivatives
 * written out, central differences, and the line search's rule applied to the 1-D
 * quadratic-plus-barrier E(y) = m/(2 h^2) (y - y~)^2 + kappa psi(y) of bench.h. */
#include "bench.h"
#include "terms/barrier.h"

/* psi, psi' = -(2/g^) (g^ - g)^2 and psi'' = 4 (g^ - g)/g^ at a few gaps in (0, g^). */
static int cubic_barrier_closed_form(void)
{
    const double dhat = 0.02, gs[] = {0.001, 0.005, 0.01, 0.019};
    for (int q = 0; q < 4; q++) {
        double g = gs[q], s = dhat - g, d1 = 0, d2 = 0;
        double psi = cloth__barrier(CLOTH__BARRIER_CUBIC, g, dhat, &d1, &d2);
        double want[3] = {2 / (3 * dhat) * s * s * s, -2 / dhat * s * s, 4 * s / dhat};
        double got[3] = {KIT_GOT(psi), KIT_GOT(d1), KIT_GOT(d2)};
        const char *what[3] = {"psi", "psi'", "psi''"};
        for (int k = 0; k < 3; k++)
            KIT_CHECK(fabs(got[k] - want[k]) <= 1e-13 * fabs(want[k]),
                      "g = %g, g^ = %g: %s = %.17g, expected %.17g", g, dhat, what[k], got[k],
                      want[k]);
    }
    return 0;
}

/* psi' against (psi(g + e) - psi(g - e)) / 2e and psi'' against the same of psi': the
 * error of a central difference is O(e^2) (psi''' = -4/g^ is constant: e^2 psi''' / 6
 * relative to psi' is below 1e-6 here). */
static int cubic_barrier_finite_differences(void)
{
    const double dhat = 0.02, e = 1e-6, gs[] = {0.002, 0.007, 0.013, 0.018};
    for (int q = 0; q < 4; q++) {
        double g = gs[q], d1, d2, a1, a2, b1, b2;
        cloth__barrier(CLOTH__BARRIER_CUBIC, g, dhat, &d1, &d2);
        double pa = cloth__barrier(CLOTH__BARRIER_CUBIC, g + e, dhat, &a1, &a2);
        double pb = cloth__barrier(CLOTH__BARRIER_CUBIC, g - e, dhat, &b1, &b2);
        d1 = KIT_GOT(d1), d2 = KIT_GOT(d2), pa = KIT_GOT(pa), pb = KIT_GOT(pb);
        a1 = KIT_GOT(a1), b1 = KIT_GOT(b1);
        double fd1 = (pa - pb) / (2 * e), fd2 = (a1 - b1) / (2 * e);
        KIT_CHECK(fabs(d1 - fd1) <= 1e-6 * fabs(fd1), "g = %g: psi' = %.12g, central "
                  "difference of psi %.12g", g, d1, fd1);
        KIT_CHECK(fabs(d2 - fd2) <= 1e-6 * fabs(fd2), "g = %g: psi'' = %.12g, central "
                  "difference of psi' %.12g", g, d2, fd2);
    }
    return 0;
}

/* From y0 = 0.02 at rest along d = -0.1 (the plane would be crossed at alpha = 0.2): the
 * feasible cap alpha = (1 - eta) y0 / 0.1 = 0.18, then halvings until Armijo holds.  With
 * y~ = 0.02 - g h^2 = 0.019019, E(y) = 100 (y - y~)^2 + 2 kappa psi(y) (per both
 * vertices), e0 = E(0.02) = 9.62e-5 and slope = -0.0196 (c alpha slope < 4e-7):
 *   alpha = 0.18:    y = 0.002,     E = 0.0145 + 0.0341 (the barrier)  rejected
 *   alpha = 0.09:    y = 0.011,     E = 6.43e-3                         rejected
 *   alpha = 0.045:   y = 0.0155,    E = 1.24e-3                         rejected
 *   alpha = 0.0225:  y = 0.01775,   E = 1.61e-4                         rejected
 *   alpha = 0.01125: y = 0.018875,  E = 2.1e-6 < e0                     accepted
 * so alpha = 0.18 / 16.  Starting from alpha = 1 instead (no cap) the halvings give
 * 1/64 = 0.015625 (E(0.0184375) = 3.4e-5). */
static int line_search_feasible_cap(void)
{
    double y[2], alpha = bench_line_search(0.02, 0, -0.1, y);
    double want = 0.18 / 16;
    KIT_CHECK(fabs(alpha - want) <= 1e-12 * want, "alpha = %.15g, expected %.15g (0.18 "
              "halved until Armijo holds)", alpha, want);
    KIT_CHECK(y[0] == 0.02 - 0.1 * alpha && y[1] == y[0], "x_trial at y = (%.15g, %.15g), "
              "expected y0 + alpha d = %.15g", y[0], y[1], 0.02 - 0.1 * alpha);
    KIT_CHECK(y[0] > 0, "the trial point has a gap %g <= 0", y[0]);
    return 0;
}

/* Far above the plane E is the quadratic alone, with its minimiser y~.  Along three times
 * the Newton step (d = 3 (y~ - y0)) alpha = 1 lands at 2 (y~ - y0) past it, E four times
 * E(y0): rejected; alpha = 1/2 lands at (y~ - y0)/2 past it: accepted. */
static int line_search_armijo_halves(void)
{
    double y0 = 1, d = 3 * (bench_y_tilde(y0, 0) - y0), y[2];
    double alpha = bench_line_search(y0, 0, d, y);
    KIT_CHECK(alpha == 0.5, "alpha = %.15g, expected 0.5", alpha);
    KIT_CHECK(y[0] == y0 + 0.5 * d && y[1] == y[0], "x_trial at y = (%.15g, %.15g), expected "
              "%.15g", y[0], y[1], y0 + 0.5 * d);
    return 0;
}

/* Sufficient decrease, not just decrease: along twice the Newton step of the quadratic,
 * d = 2 (y~ - y0), alpha = 1 lands at the mirror image of y0 about y~, where E equals
 * E(y0): no decrease of c alpha |slope|, rejected; alpha = 1/2 is the minimiser y~. */
static int line_search_sufficient_decrease(void)
{
    double y0 = 1, yt = bench_y_tilde(y0, 0), y[2];
    double alpha = bench_line_search(y0, 0, 2 * (yt - y0), y);
    KIT_CHECK(alpha == 0.5, "alpha = %.15g, expected 0.5 (alpha = 1 does not decrease E by "
              "c alpha |slope|)", alpha);
    KIT_CHECK(fabs(y[0] - yt) < 1e-15, "x_trial at %.17g, expected y~ = %.17g", y[0], yt);
    return 0;
}

/* Only the feasible cap keeps the gap positive: a fast fall (v0 = -10 m/s, y~ = 0.02 -
 * 0.1 - g h^2 = -0.080981, below the plane) from y0 = 0.02 along the inertia's Newton
 * step d = y~ - y0 = -0.100981.  e0 = 100 d^2 = 1.0197 and slope = -200 d^2.  The cap is
 * alpha = (1 - eta) y0 / |d| = 0.17826: y = 0.002, E = 100 (0.0830)^2 + 1000 psi = 0.69 +
 * 0.032 < e0: accepted at once.  Without it, alpha = 1 (y = y~: E = 1000 psi(y~) = 50) and
 * 1/2 (E = 4.7) are rejected but 1/4 lands at y = -0.00525, below the plane, where E =
 * 0.57 + 0.24 < e0 (the cubic goes on below 0): Armijo alone accepts a crossing. */
static int line_search_cap_keeps_gap_positive(void)
{
    double y0 = 0.02, yt = bench_y_tilde(y0, -10), d = yt - y0, y[2];
    double alpha = bench_line_search(y0, -10, d, y);
    double want = (1 - B_ETA) * y0 / -d;
    KIT_CHECK(y[0] > 0 && y[1] > 0, "the trial point y = %.10g has crossed the plane "
              "(alpha = %.10g): the search must start from the feasible cap", y[0], alpha);
    KIT_CHECK(fabs(alpha - want) <= 1e-12 * want, "alpha = %.15g, expected the cap (1 - eta) "
              "y0 / |d| = %.15g, accepted at once", alpha, want);
    return 0;
}

/* Sufficient decrease, not mere decrease: along (2 - 1e-4) times the Newton step of the
 * quadratic, alpha = 1 lands just short of y0's mirror image about y~, where E = (1 -
 * 1e-4)^2 e0 < e0: a decrease, but by less than c alpha |slope| = 2 c (2 - 1e-4) e0, so
 * Armijo (c = 1e-4) rejects it (the rule "E < e0" would accept it); alpha = 1/2 lands
 * 5e-5 |y~ - y0| from y~: accepted. */
static int line_search_armijo_not_mere_decrease(void)
{
    double y0 = 1, yt = bench_y_tilde(y0, 0), y[2];
    double alpha = bench_line_search(y0, 0, (2 - 1e-4) * (yt - y0), y);
    KIT_CHECK(alpha == 0.5, "alpha = %.15g, expected 0.5 (alpha = 1 decreases E, but by "
              "less than Armijo's c alpha |slope|)", alpha);
    return 0;
}

int main(int argc, char **argv)
{
    static const kit_test tests[] = {
        {"public/cubic_barrier_closed_form", 2, cubic_barrier_closed_form},
        {"public/cubic_barrier_finite_differences", 2, cubic_barrier_finite_differences},
        {"public/line_search_feasible_cap", 2, line_search_feasible_cap},
        {"public/line_search_armijo_halves", 2, line_search_armijo_halves},
        {"public/line_search_sufficient_decrease", 2, line_search_sufficient_decrease},
        {"public/line_search_cap_keeps_gap_positive", 1, line_search_cap_keeps_gap_positive},
        {"public/line_search_armijo_not_mere_decrease", 1, line_search_armijo_not_mere_decrease},
    };
    return kit_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
