/* newton_linesearch: the hidden tests (kept by the instructor, run only by make grade).
 * Closed forms again: the barrier from g^ on and its smoothness at g^, the cubic below 0,
 * a full Newton step on the quadratic, and the known minimiser of the 1-D
 * quadratic-plus-barrier reached by whole steps with every gap positive. */
#include "bench.h"
#include "terms/barrier.h"

/* The judge's closed forms (the students' bench has none of them). */
/* psi = (2/(3 g^)) (g^ - g)^3 below g^, 0 above (the handout's formula) */
static double rule_psi(double g)
{
    double s = B_DHAT - g;
    return g < B_DHAT ? 2 / (3 * B_DHAT) * s * s * s : 0;
}

/* E of both vertices at height y */
static double rule_energy(double y, double y_tilde)
{
    double d = y - y_tilde;
    return 2 * (B_M / (2 * B_H * B_H) * d * d + B_KAPPA * rule_psi(y));
}

/* The alpha the handout's rule gives, from the closed forms: alpha = min(1, (1 - eta) y0 /
 * -d) when d < 0 (the largest step keeping the gap y above eta y0), else 1; halved until
 * E(y0 + alpha d) <= E(y0) + c alpha slope, slope = E'(y0) d. */
static double rule_alpha(double y0, double v0, double d)
{
    double yt = bench_y_tilde(y0, v0), e0 = rule_energy(y0, yt);
    double s = B_DHAT - y0, dpsi = y0 < B_DHAT ? -2 / B_DHAT * s * s : 0;
    double slope = 2 * (B_M / (B_H * B_H) * (y0 - yt) + B_KAPPA * dpsi) * d;
    double alpha = d < 0 ? fmin(1, (1 - B_ETA) * y0 / -d) : 1;
    for (int k = 0; k < 60; k++, alpha *= 0.5)
        if (rule_energy(y0 + alpha * d, yt) <= e0 + B_ARMIJO * alpha * slope)
            return alpha;
    return 0;
}

/* psi, psi' and psi'' are exactly 0 from g^ on. */
static int cubic_barrier_zero_beyond_dhat(void)
{
    const double dhat = kit_uniform(0.005, 0.05);
    const double gs[] = {dhat, dhat * (1 + 1e-5), dhat * kit_uniform(1.1, 3), kit_uniform(1, 10),
                         1e6};
    for (int q = 0; q < 5; q++) {
        double d1 = 1, d2 = 1, psi = cloth__barrier(CLOTH__BARRIER_CUBIC, gs[q], dhat, &d1, &d2);
        psi = KIT_GOT(psi), d1 = KIT_GOT(d1), d2 = KIT_GOT(d2);
        KIT_CHECK(psi == 0 && d1 == 0 && d2 == 0, "g = %g >= g^ = %g: psi, psi', psi'' = %g, "
                  "%g, %g, expected 0", gs[q], dhat, psi, d1, d2);
    }
    return 0;
}

/* C^2 at g^: below it psi = (2/(3 g^)) e^3, psi' = -(2/g^) e^2, psi'' = (4/g^) e with
 * e = g^ - g, so psi/e^3, psi'/e^2 and psi''/e are those constants as e -> 0 (and all
 * three tend to their value 0 above g^); psi''' = -4/g^ jumps, so it is not C^3.  Below
 * 0 the cubic goes on as the polynomial: psi(-g^) = (2/(3 g^)) (2 g^)^3 = 16 g^2 / 3. */
static int cubic_barrier_c2_at_dhat(void)
{
    const double dhat = kit_uniform(0.005, 0.05);
    for (double e = 1e-3 * dhat; e >= 1e-6 * dhat; e /= 10) {
        double d1, d2, psi = cloth__barrier(CLOTH__BARRIER_CUBIC, dhat - e, dhat, &d1, &d2);
        psi = KIT_GOT(psi), d1 = KIT_GOT(d1), d2 = KIT_GOT(d2);
        KIT_CHECK(fabs(psi / (e * e * e) - 2 / (3 * dhat)) < 1e-6 / dhat &&
                  fabs(d1 / (e * e) + 2 / dhat) < 1e-6 / dhat &&
                  fabs(d2 / e - 4 / dhat) < 1e-6 / dhat,
                  "g^ - g = %g: psi/e^3, psi'/e^2, psi''/e = %.10g, %.10g, %.10g, expected "
                  "2/(3 g^), -2/g^, 4/g^ = %.10g, %.10g, %.10g", e, psi / (e * e * e),
                  d1 / (e * e), d2 / e, 2 / (3 * dhat), -2 / dhat, 4 / dhat);
    }
    double d1, d2, psi = KIT_GOT(cloth__barrier(CLOTH__BARRIER_CUBIC, -dhat, dhat, &d1, &d2));
    KIT_CHECK(fabs(psi - 16 * dhat * dhat / 3) < 1e-15 + 1e-13 * 16 * dhat * dhat / 3, "psi(-g^) = %.17g, expected 16 g^2/3 "
              "= %.17g", psi, 16 * dhat * dhat / 3);
    return 0;
}

/* Far above the plane along the Newton step d = y~ - y0 of the quadratic: alpha = 1 is
 * accepted at once, and x_trial is the minimiser y~. */
static int line_search_full_newton_step(void)
{
    double y0 = kit_uniform(0.5, 2), v0 = kit_uniform(-1, 1), yt = bench_y_tilde(y0, v0), y[2];
    double alpha = bench_line_search(y0, v0, yt - y0, y);
    KIT_CHECK(alpha == 1, "alpha = %.15g, expected 1 (the Newton step of a quadratic)", alpha);
    KIT_CHECK(fabs(y[0] - yt) < 1e-15 && y[1] == y[0], "x_trial at %.17g, expected y~ = %.17g",
              y[0], yt);
    return 0;
}

/* Inside the barrier's band (y0 = 0.005 < g^, moving down at 0.3 m/s: y~ = 0.001019;
 * each of y0, v0 and d drawn within 10 % of these from the grading run's seed)
 * the barrier pushes up harder than inertia pulls down, E'(y0) < 0.  Along four times the
 * Newton step, d = 0.0076 (upwards: no cap), alpha = 1 overshoots out of the band and is
 * rejected; the rule on the closed form E (whose slope E'(y0) d includes kappa psi'(y0))
 * gives the alpha to expect. */
static int line_search_inside_band(void)
{
    double y0 = 0.005 * kit_uniform(0.9, 1.1), v0 = -0.3 * kit_uniform(0.9, 1.1);
    double d = 0.0076 * kit_uniform(0.9, 1.1);
    double y[2], alpha = bench_line_search(y0, v0, d, y);
    double want = rule_alpha(y0, v0, d);
    KIT_CHECK(fabs(alpha - want) <= 1e-12 * want, "y0 = %g, v0 = %g, d = %g: alpha = %.15g, "
              "expected %.15g", y0, v0, d, alpha, want);
    KIT_CHECK(y[0] == y0 + alpha * d, "x_trial at %.15g, expected y0 + alpha d = %.15g", y[0],
              y0 + alpha * d);
    return 0;
}

/* A fast fall (v0 = -10 m/s: y~ = -0.081, far below the plane) from y0 = 0.02: one step
 * minimises E(y) = m/(2h^2) (y - y~)^2 + kappa psi(y).  Below g^, with s = g^ - y,
 * E' = 0 reads (2 kappa / g^) s^2 + (m/h^2) s - (m/h^2)(g^ - y~) = 0, so
 *     s = (-(m/h^2) + sqrt((m/h^2)^2 + 8 (kappa/g^)(m/h^2)(g^ - y~))) / (4 kappa/g^),
 * y* = g^ - s = 0.00095 > 0: the step must end there, with v = (y* - y0)/h.  The seed
 * draws y0 in [0.015, 0.03) and v0 in [-10.5, -7): y~ in [-0.091, -0.041), y* in
 * [0.0004, 0.0034), always inside the band and above the plane. */
static int step_reaches_known_minimiser(void)
{
    const double y0 = kit_uniform(0.015, 0.03), v0 = kit_uniform(-10.5, -7);
    const double mh = B_M / (B_H * B_H), a = 2 * B_KAPPA / B_DHAT;
    double yt = bench_y_tilde(y0, v0);
    double s = (-mh + sqrt(mh * mh + 4 * a * mh * (B_DHAT - yt))) / (2 * a), want = B_DHAT - s;
    cloth_sim *sim = bench_sim(y0, v0, 1e-10);
    KIT_CHECK(sim, "no problem");
    cloth_frame f;
    cloth_error err;
    err.msg[0] = 0;
    cloth_status st = KIT_GOTI(cloth_sim_frame(sim, &f, &err));
    double y = KIT_GOT(cloth_sim_positions(sim)[1]), v = KIT_GOT(cloth_sim_velocities(sim)[1]);
    cloth_sim_destroy(sim);
    KIT_CHECK(st == CLOTH_OK, "the step failed: %s: %s (y = %g)", cloth_status_string(st),
              KIT_MSG(err.msg), y);
    KIT_CHECK(fabs(y - want) < 1e-10, "y = %.15g after the step, expected the minimiser %.15g",
              y, want);
    KIT_CHECK(fabs(v - (want - y0) / B_H) < 1e-7, "v = %.12g, expected (y* - y0)/h = %.12g", v,
              (want - y0) / B_H);
    return 0;
}

/* The same fall (y0 and v0 drawn from the seed) over 300 frames: every frame ends with a positive gap (the feasibility
 * filter), and the vertices come to rest where m g = -kappa psi'(y), i.e.
 * (2 kappa / g^) (g^ - y)^2 = m g: y = g^ - sqrt(m g g^ / (2 kappa)). */
static int fall_stays_feasible(void)
{
    cloth_sim *sim = bench_sim(kit_uniform(0.015, 0.03), kit_uniform(-10.5, -3), 1e-10);
    KIT_CHECK(sim, "no problem");
    double y = 0;
    for (int n = 1; n <= 300; n++) {
        cloth_frame f;
        cloth_error err;
        err.msg[0] = 0;
        cloth_status st = KIT_GOTI(cloth_sim_frame(sim, &f, &err));
        y = KIT_GOT(fmin(cloth_sim_positions(sim)[1], cloth_sim_positions(sim)[4]));
        if (st != CLOTH_OK || !(y > 0)) {
            cloth_sim_destroy(sim);
            KIT_CHECK(0, "frame %d: %s (%s), lowest gap %g", n, cloth_status_string(st),
                      st == CLOTH_OK ? "" : KIT_MSG(err.msg), y);
        }
    }
    cloth_sim_destroy(sim);
    double rest = B_DHAT - sqrt(B_M * B_G * B_DHAT / (2 * B_KAPPA));
    KIT_CHECK(fabs(y - rest) < 1e-6, "at rest at y = %.10g after 3 s, expected g^ - sqrt(m g "
              "g^ / (2 kappa)) = %.10g", y, rest);
    return 0;
}

/* When no halving is accepted the search gives up: alpha = 0 and x_trial back at x.  A
 * slope far below any the energy can follow (-1e300: the Armijo line e0 + c alpha slope
 * lies below every E(x + alpha d) for alpha >= 2^-60) makes every trial fail.  The
 * vertices start 0.5e-6 to 2e-6 (the seed) above the plane and move up (d = 1: no feasibility cap), so even
 * the last trial, alpha = 2^-59, lands on a y other than y0 (2^-59 > ulp(1e-6)): only
 * putting x back leaves x_trial at x. */
static int line_search_none_accepted(void)
{
    cloth_sim *sim = bench_sim(kit_uniform(0.5e-6, 2e-6), 0, 1e-3);
    KIT_CHECK(sim, "no problem");
    cloth__newton *w = sim->work;
    cloth__newton_prepare(w, sim, B_H);
    memcpy(w->x, sim->x, sizeof(double) * 3 * (size_t)w->n);
    memset(w->dir, 0, sizeof(double) * 3 * (size_t)w->n);
    w->dir[1] = w->dir[4] = 1;
    for (int i = 0; i < 3 * w->n; i++)
        w->x_trial[i] = -7; /* so that "left at x" cannot hold by accident */
    double e0 = cloth__newton_potential(w, sim, w->x, NULL, 0, 0);
    cloth__newton_ctx ctx;
    cloth__newton_ctx_build(&ctx, sim, B_H);
    double alpha = KIT_GOT(cloth__newton_line_search(w, &ctx, e0, -1e300));
    int back = 1;
    for (int i = 0; i < 3 * w->n; i++)
        back &= KIT_GOT(w->x_trial[i]) == w->x[i];
    cloth_sim_destroy(sim);
    KIT_CHECK(alpha == 0, "alpha = %.17g, expected 0 (no trial meets Armijo)", alpha);
    KIT_CHECK(back, "x_trial is not x after a search that accepted nothing");
    return 0;
}

int main(int argc, char **argv)
{
    static const kit_test tests[] = {
        {"hidden/cubic_barrier_zero_beyond_dhat", 1, cubic_barrier_zero_beyond_dhat},
        {"hidden/cubic_barrier_c2_at_dhat", 1, cubic_barrier_c2_at_dhat},
        {"hidden/line_search_full_newton_step", 1, line_search_full_newton_step},
        {"hidden/line_search_inside_band", 1, line_search_inside_band},
        {"hidden/line_search_none_accepted", 1, line_search_none_accepted},
        {"hidden/step_reaches_known_minimiser", 2, step_reaches_known_minimiser},
        {"hidden/fall_stays_feasible", 2, fall_stays_feasible},
    };
    return kit_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
