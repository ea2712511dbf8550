/* xpbd: the hidden tests (kept by the instructor, run only by make grade).  Closed forms
 * again: one projection with both ends free, the compliance's h^2, the multiplier's
 * accumulation over passes, and the static extensions with substeps. */
#include "bench.h"

/* Both ends free (w = 2 each), l = 1.2 (C = 0.2), no gravity, one pass: each end moves
 * w C / (w_a + w_b + alpha~) towards the other, the midpoint stays. */
static int single_projection_both_free(void)
{
    const double h = 0.01, k = kit_uniform(50, 200), m = kit_uniform(0.2, 1);
    const double w = 1 / m, alpha = 1 / (k * h * h);
    double y[4], side;
    KIT_CHECK(project_once_kmp("none", 1, h, k, m, kit_uniform(0.05, 0.5), y, &side) == 0,
              "the step failed");
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
    const double k = kit_uniform(50, 200), m = kit_uniform(0.2, 1), w = 1 / m;
    const double hs[] = {0.1, 0.001};
    for (int q = 0; q < 2; q++) {
        double h = hs[q], alpha = 1 / (k * h * h), y[4], side;
        KIT_CHECK(project_once_kmp("top-row", 1, h, k, m, kit_uniform(0.05, 0.5), y, &side) ==
                  0, "h = %g: the step failed", h);
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
    const double h = 0.01, k = kit_uniform(50, 200), m = kit_uniform(0.2, 1);
    const double w = 1 / m, alpha = 1 / (k * h * h);
    const int passes[] = {2, 7};
    for (int q = 0; q < 2; q++) {
        double y[4], side;
        KIT_CHECK(project_once_kmp("top-row", passes[q], h, k, m, kit_uniform(0.05, 0.5), y,
                                   &side) == 0,
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
    const double k = kit_uniform(30, 80), m = kit_uniform(0.05, 0.15);
    for (int q = 0; q < 3; q++) {
        double e[4];
        KIT_CHECK(settle_km(4, 10, substeps[q], k, m, e) == 0, "%d substeps: a step failed",
                  substeps[q]);
        for (int j = 0; j < 4; j++) {
            double want = (4 - j) * m * SETTLE_G / k;
            KIT_CHECK(fabs(e[j] - want) < 1e-6 * want, "%d substeps: spring %d extended "
                      "%.10g, expected %.10g", substeps[q], j, e[j], want);
        }
    }
    return 0;
}

/* k = 0 makes alpha~ = 1/(k h^2) infinite: the constraint exerts nothing, so a spring of
 * k = 0 stretched to 1.2 l0 (top pinned, no gravity) leaves the free end where it was
 * (and finite: without the guard dlambda = (-C - inf 0)/(w + inf) is NaN). */
static int zero_stiffness_exerts_nothing(void)
{
    cloth_sim *sim = chain("top-row", 1, 0, kit_uniform(0.2, 1), 0, kit_uniform(0.05, 0.5), 3,
                           0.01, 1, 0);
    KIT_CHECK(sim, "no scene");
    double y0 = chain_y(sim, 1);
    cloth_status st = bench_step(sim, 1);
    double y = KIT_GOT(chain_y(sim, 1));
    cloth_sim_destroy(sim);
    KIT_CHECK(st == CLOTH_OK, "the step failed (k = 0: is infinite alpha~ guarded?)");
    KIT_CHECK(y == y0, "free end at %.15g, expected it to stay at %.15g (k = 0 exerts "
              "nothing)", y, y0);
    return 0;
}

/* Both ends of a spring at the same point (l = 0: no direction), both free, no gravity:
 * the spring is skipped, so nothing moves and nothing becomes NaN (n = d/l would be 0/0). */
static int zero_length_spring_skipped(void)
{
    cloth_sim *sim = chain("none", 1, kit_uniform(50, 200), kit_uniform(0.2, 1), 0, 0, 3, 0.01,
                           1, 0);
    KIT_CHECK(sim, "no scene");
    double *x = cloth_sim_positions(sim), at[3];
    for (int c = 0; c < 3; c++)
        at[c] = x[3 + c] = x[c];
    cloth_status st = bench_step(sim, 1);
    x = cloth_sim_positions(sim);
    int same = 1;
    for (int i = 0; i < 2; i++)
        for (int c = 0; c < 3; c++)
            same = same && KIT_GOT(x[3 * i + c]) == at[c];
    double y0 = KIT_GOT(x[1]), y1 = KIT_GOT(x[4]);
    cloth_sim_destroy(sim);
    KIT_CHECK(st == CLOTH_OK, "the step failed (a spring of zero length must be skipped)");
    KIT_CHECK(same, "the ends moved to y = %.15g and %.15g from %.15g (a spring of zero "
              "length must be skipped)", y0, y1, at[1]);
    return 0;
}

/* The plain PBD variant (Mueller 2007): n passes with k' = 1 - (1 - k)^(1/n) leave a lone
 * constraint (linear along its line, one end pinned) with (1 - k')^n C0 = (1 - k) C0,
 * whatever n.  springs is "structural" (k' from pbd.k_pbd) or "bend" (a chain of three
 * whose only spring joins 0 and 2: k' from pbd.k_pbd_bend); the other stiffness is 1, so
 * the wrong k' leaves C = 0. */
static int pbd_remaining_violation(const char *springs, int ny, double k, double k_bend,
                                   int passes, double *c0, double *c)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 1\nny = %d\nspacing = 1\nprestretch = 0.2\npins = top-row\n"
             "springs = %s\n[material]\nvertex_mass = 0.1\nspring_damping = 0\n"
             "[world]\ngravity = 0 0 0\nair_damping = 0\n"
             "[run]\nkernel = pbd\ndt = 0.01\nsubsteps = 1\n"
             "[pbd]\nvariant = pbd\niterations = %d\ndamping = 0\nbending = springs\n"
             "k_pbd = %.17g\nk_pbd_bend = %.17g\n",
             ny, springs, passes, k, k_bend);
    cloth_scene s;
    cloth_error err;
    cloth_sim *sim = NULL;
    if (cloth_scene_parse(text, "pbd.ini", &s, &err) != CLOTH_OK ||
        cloth_sim_create(&s, &sim, &err) != CLOTH_OK) {
        printf("could not make the scene: %s\n", err.msg);
        return 1;
    }
    int last = ny - 1;
    double rest = last;
    *c0 = chain_y(sim, 0) - chain_y(sim, last) - rest;
    cloth_status st = bench_step(sim, last);
    *c = KIT_GOT(chain_y(sim, 0) - chain_y(sim, last) - rest);
    cloth_sim_destroy(sim);
    return st != CLOTH_OK;
}

static int pbd_per_pass_stiffness(void)
{
    const double k = kit_uniform(0.2, 0.8);
    const int passes[] = {1, 3, 8};
    for (int q = 0; q < 3; q++) {
        double c0, c;
        KIT_CHECK(pbd_remaining_violation("structural", 2, k, 1, passes[q], &c0, &c) == 0,
                  "%d passes: the step failed", passes[q]);
        KIT_CHECK(fabs(c - (1 - k) * c0) < 1e-12, "%d passes, k_pbd = %g: C = %.15g after "
                  "the step, expected (1 - k) C0 = %.15g (k' = 1 - (1 - k)^(1/n) per pass)",
                  passes[q], k, c, (1 - k) * c0);
    }
    return 0;
}

static int pbd_bend_stiffness(void)
{
    const double k_bend = kit_uniform(0.2, 0.8);
    double c0, c;
    KIT_CHECK(pbd_remaining_violation("bend", 3, 1, k_bend, 3, &c0, &c) == 0,
              "the step failed");
    KIT_CHECK(fabs(c - (1 - k_bend) * c0) < 1e-12, "a bend spring, k_pbd_bend = %g: C = "
              "%.15g after the step, expected (1 - k_bend) C0 = %.15g (kprime is w->k_bend for "
              "s >= w->n_stretch)", k_bend, c, (1 - k_bend) * c0);
    return 0;
}

int main(int argc, char **argv)
{
    static const kit_test tests[] = {
        {"hidden/single_projection_both_free", 1, single_projection_both_free},
        {"hidden/compliance_scales_with_h2", 1, compliance_scales_with_h2},
        {"hidden/multiplier_accumulates", 2, multiplier_accumulates},
        {"hidden/substep_independence", 2, substep_independence},
        {"hidden/zero_stiffness_exerts_nothing", 1, zero_stiffness_exerts_nothing},
        {"hidden/zero_length_spring_skipped", 1, zero_length_spring_skipped},
        {"hidden/pbd_per_pass_stiffness", 1, pbd_per_pass_stiffness},
        {"hidden/pbd_bend_stiffness", 1, pbd_bend_stiffness},
    };
    return kit_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
