/* xpbd: the public tests (the students have these).  Every expected value is a closed
 * form: one XPBD projection of one distance constraint (Macklin, Mueller and Chentanez
 * 2016: dlambda = -C / (w_a + w_b + alpha~), alpha~ = 1/(k h^2)), and the static
 * extension m g / k of a spring carrying the weight m g. */
#include "bench.h"

/* One spring from a pinned vertex (w = 0) to a free one of mass m = 0.5 (w = 2), started
 * at length l = 1.2 (C = 0.2), no gravity, one pass of one step: p = x, then
 * dlambda = -C / (w + alpha~) and the free end moves w |dlambda| = w C / (w + alpha~)
 * towards the pin (alpha~ = 1/(k h^2) = 100 for k = 100, h = 0.01). */
static int single_projection_pinned(void)
{
    const double h = 0.01, w = 1 / ONCE_M, alpha = 1 / (ONCE_K * h * h);
    double y[4], side;
    KIT_CHECK(project_once("top-row", 1, h, y, &side) == 0, "the step failed");
    double C = (y[0] - y[1]) - 1, want = y[1] + w * C / (w + alpha);
    KIT_CHECK(fabs(y[3] - want) < 1e-13, "free end at y = %.15g, expected y + w C / (w + "
              "alpha~) = %.15g (it moved %.6g, expected %.6g)", y[3], want, y[3] - y[1],
              want - y[1]);
    KIT_CHECK(y[2] == y[0] && side == 0, "the pinned end moved (y %.15g) or an end left "
              "the line (|x| + |z| = %g)", y[2], side);
    return 0;
}

/* A mass m on one spring k under gravity g settles where k (l - l0) = m g: extension
 * m g / k (XPBD's compliance alpha = 1/k gives k its meaning in N/m), with one pass per
 * step or several. */
static int hanging_mass_extension(void)
{
    const double want = SETTLE_M * SETTLE_G / SETTLE_K;
    const int passes[] = {1, 3};
    for (int q = 0; q < 2; q++) {
        double e;
        KIT_CHECK(settle(1, passes[q], 1, &e) == 0, "%d passes: a step failed", passes[q]);
        KIT_CHECK(fabs(e - want) < 1e-9 * want, "%d passes: extension %.12g after 30 s, "
                  "expected m g / k = %.12g", passes[q], e, want);
    }
    return 0;
}

/* A chain of four masses below a pin: spring j (from the top) carries the weight of the
 * 4 - j masses below it, so its static extension is (4 - j) m g / k, whatever the number
 * of Gauss-Seidel passes once they converge (10, 20 or 50 here). */
static int pass_count_independence(void)
{
    const int passes[] = {10, 20, 50};
    for (int q = 0; q < 3; q++) {
        double e[4];
        KIT_CHECK(settle(4, passes[q], 1, e) == 0, "%d passes: a step failed", passes[q]);
        for (int j = 0; j < 4; j++) {
            double want = (4 - j) * SETTLE_M * SETTLE_G / SETTLE_K;
            KIT_CHECK(fabs(e[j] - want) < 1e-6 * want, "%d passes: spring %d extended %.10g, "
                      "expected (4 - %d) m g / k = %.10g", passes[q], j, e[j], j, want);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    static const kit_test tests[] = {
        {"public/single_projection_pinned", 2, single_projection_pinned},
        {"public/hanging_mass_extension", 2, hanging_mass_extension},
        {"public/pass_count_independence", 2, pass_count_independence},
    };
    return kit_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
