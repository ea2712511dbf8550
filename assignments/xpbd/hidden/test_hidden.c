/* xpbd: the hidden tests (kept by the instructor, run only by make grade).  Closed forms
 * again: one projection with both ends free, the compliance's h^2, the multiplier's
 * accumulation over passes, and the static extensions with substeps. */
#include "bench.h"

/* Both ends free (w = 2 each), l = 1.2 (C = 0.2), no gravity, one pass: each end moves
 * w C / (w_a + w_b + alpha~) towards the other, the midpoint stays. */
static int single_projection_both_free(void)
{
    const double h = 0.01, w = 1 / ONCE_M, alpha = 1 / (ONCE_K * h * h);
    double y[4], side;
    KIT_CHECK(project_once("none", 1, h, y, &side) == 0, "the step failed");
    double C = (y[0] - y[1]) - 1, move = w * C / (2 * w + alpha);
    KIT_CHECK(fabs(y[2] - (y[0] - move)) < 1e-13 && fabs(y[3] - (y[1] + move)) < 1e-13,
              "ends at y = %.15g and %.15g, expected %.15g and %.15g (each moves w C / (w_a "
              "+ w_b + alpha~) = %.6g)", y[2], y[3], y[0] - move, y[1] + move, move);
    KIT_CHECK(side == 0, "an end left the line (|x| + |z| = %g)", side);
    return 0;
}

/* alpha~ = 1/(k h^2): at h = 0.1 and h = 0.001 the single projection moves the free end
 * w C / (w + 1/(k h^2)): almost all of C at the long step, little at the short one. */
static int compliance_scales_with_h2(void)
{
    const double w = 1 / ONCE_M, hs[] = {0.1, 0.001};
    for (int q = 0; q < 2; q++) {
        double h = hs[q], alpha = 1 / (ONCE_K * h * h), y[4], side;
        KIT_CHECK(project_once("top-row", 1, h, y, &side) == 0, "h = %g: the step failed", h);
        double C = (y[0] - y[1]) - 1, want = y[1] + w * C / (w + alpha);
        KIT_CHECK(fabs(y[3] - want) < 1e-13, "h = %g: free end at %.15g, expected %.15g", h,
                  y[3], want);
    }
    return 0;
}

/* After one projection a lone distance constraint satisfies C + alpha~ lambda = 0 exactly
 * (it is linear along its line), so further passes of the same step find dlambda = 0:
 * with 2 or 7 passes the free end ends exactly where one pass puts it. */
static int multiplier_accumulates(void)
{
    const double h = 0.01, w = 1 / ONCE_M, alpha = 1 / (ONCE_K * h * h);
    const int passes[] = {2, 7};
    for (int q = 0; q < 2; q++) {
        double y[4], side;
        KIT_CHECK(project_once("top-row", passes[q], h, y, &side) == 0,
                  "%d passes: the step failed", passes[q]);
        double C = (y[0] - y[1]) - 1, want = y[1] + w * C / (w + alpha);
        KIT_CHECK(fabs(y[3] - want) < 1e-12, "%d passes: free end at %.15g, expected where "
                  "one pass puts it, %.15g", passes[q], y[3], want);
    }
    return 0;
}

/* The chain of four masses again, 10 passes, at 1, 2 and 5 substeps a frame: the static
 * extensions (4 - j) m g / k do not depend on h (the compliance alpha = 1/k is per unit
 * of stiffness, not per step). */
static int substep_independence(void)
{
    const int substeps[] = {1, 2, 5};
    for (int q = 0; q < 3; q++) {
        double e[4];
        KIT_CHECK(settle(4, 10, substeps[q], e) == 0, "%d substeps: a step failed",
                  substeps[q]);
        for (int j = 0; j < 4; j++) {
            double want = (4 - j) * SETTLE_M * SETTLE_G / SETTLE_K;
            KIT_CHECK(fabs(e[j] - want) < 1e-6 * want, "%d substeps: spring %d extended "
                      "%.10g, expected %.10g", substeps[q], j, e[j], want);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    static const kit_test tests[] = {
        {"hidden/single_projection_both_free", 1, single_projection_both_free},
        {"hidden/compliance_scales_with_h2", 1, compliance_scales_with_h2},
        {"hidden/multiplier_accumulates", 2, multiplier_accumulates},
        {"hidden/substep_independence", 2, substep_independence},
    };
    return kit_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
