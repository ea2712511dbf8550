/* spring_euler: the hidden tests (kept by the instructor, run only by make grade).  Closed
 * forms again: Hooke's law in compression, the zero-length spring, one exact step of each
 * Euler map, and symplectic Euler's stability bound h < 2/omega. */
#include "oscillator.h"
#include "terms/spring.h"

/* A compressed spring, l < l0 (k, l0, l, the position and the direction drawn from the
 * seed): T = k (l - l0) < 0, the gradient (-T u, T u); the force on b, -T u, pushes b
 * away from a. */
static int spring_force_compressed(void)
{
    double xa[3], xb[3], u[3], g[6], want[6];
    double k = kit_uniform(1, 20), l0 = kit_uniform(0.5, 2), l = l0 * kit_uniform(0.2, 0.9);
    kit_direction(u);
    for (int c = 0; c < 3; c++) {
        xa[c] = kit_uniform(-2, 2);
        xb[c] = xa[c] + l * u[c];
    }
    /* the direction and length as stored (xb - xa rounded), not as drawn */
    double d[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
    l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    double T = k * (l - l0);
    for (int c = 0; c < 3; c++) {
        want[c] = -T * d[c] / l;
        want[3 + c] = T * d[c] / l;
    }
    cloth__spring_gradient(xa, xb, k, l0, g);
    kit_got_array(g, 6);
    for (int c = 0; c < 6; c++)
        KIT_CHECK(fabs(g[c] - want[c]) < 1e-12 * (1 + fabs(want[c])), "k = %g, l0 = %g, l = "
                  "%g: gradient[%d] = %.17g, expected %.17g", k, l0, l, c, g[c], want[c]);
    return 0;
}

/* A spring of zero length has no direction: no force, and never NaN. */
static int spring_zero_length(void)
{
    const double x[3] = {kit_uniform(-2, 2), kit_uniform(-2, 2), kit_uniform(-2, 2)};
    double g[6];
    cloth__spring_gradient(x, x, kit_uniform(1, 20), kit_uniform(0.5, 2), g);
    kit_got_array(g, 6);
    for (int c = 0; c < 6; c++)
        KIT_CHECK(g[c] == 0, "gradient[%d] = %g, expected 0", c, g[c]);
    return 0;
}

/* Three steps of each Euler map from (u0, 0) against the recurrence, the velocity then
 * multiplied by decay d (explicit.decay):
 *   forward:    u' = u + h v,       v' = d (v - h w^2 u)
 *   symplectic: vt = v - h w^2 u,   u' = u + h vt,   v' = d vt                         */
static int euler_steps(const char *scheme, int forward, double d)
{
    /* drawn from the seed: omega h stays below 0.45 */
    double k = kit_uniform(20, 80), m = kit_uniform(0.4, 1), h = kit_uniform(0.004, 0.02);
    double w2 = k / m;
    cloth_sim *sim = oscillator(scheme, k, m, h);
    KIT_CHECK(sim, "no oscillator");
    if (d != 1) {
        char set[64];
        cloth_error err;
        snprintf(set, sizeof set, "explicit.decay=%.17g", d);
        if (cloth_sim_set(sim, set, &err) != CLOTH_OK) {
            cloth_sim_destroy(sim);
            KIT_CHECK(0, "%s: %s", set, KIT_MSG(err.msg));
        }
    }
    double u = oscillator_u(sim), v = oscillator_v(sim);
    cloth_frame f;
    for (int step = 1; step <= 3; step++) {
        if (oscillator_step(sim, &f) != CLOTH_OK) {
            cloth_sim_destroy(sim);
            KIT_CHECK(0, "step %d failed", step);
        }
        if (forward) {
            double un = u + h * v;
            v = d * (v - h * w2 * u);
            u = un;
        } else {
            double vt = v - h * w2 * u;
            u += h * vt;
            v = d * vt;
        }
        double gu = KIT_GOT(oscillator_u(sim)), gv = KIT_GOT(oscillator_v(sim));
        if (!(fabs(gu - u) < 1e-12 && fabs(gv - v) < 1e-12)) {
            cloth_sim_destroy(sim);
            KIT_CHECK(0, "%s, decay %g, step %d: (u, v) = (%.15g, %.15g), expected (%.15g, "
                      "%.15g) (k = %g, m = %g, h = %g)", scheme, d, step, gu, gv, u, v, k, m, h);
        }
    }
    cloth_sim_destroy(sim);
    return 0;
}

static int forward_euler_exact_steps(void) { return euler_steps("forward", 1, 1); }
static int symplectic_euler_exact_steps(void) { return euler_steps("symplectic", 0, 1); }

/* Symplectic Euler's map has det 1 and trace 2 - z^2 (z = omega h): |eigenvalues| = 1 for
 * z <= 2, one of them beyond -1 for z > 2.  Below the bound the invariant
 * Q = w^2 u^2 + v^2 - h w^2 u v >= w^2 u^2 (1 - z^2/4) bounds |u|; above it |u| grows by
 * about |1 - z^2/2 - sqrt((1 - z^2/2)^2 - 1)| per step (1.88 at z = 2.1). */
static int symplectic_stability_bound(void)
{
    double k = kit_uniform(20, 80), m = kit_uniform(0.4, 1), w2 = k / m, w = sqrt(w2);
    /* stable: z = 1.9 */
    double h = 1.9 / w;
    cloth_sim *sim = oscillator("symplectic", k, m, h);
    KIT_CHECK(sim, "no oscillator");
    double u0 = oscillator_u(sim), bound = fabs(u0) / sqrt(1 - 1.9 * 1.9 / 4);
    cloth_frame f;
    for (int step = 1; step <= 2000; step++) {
        cloth_status st = oscillator_step(sim, &f);
        double u = KIT_GOT(oscillator_u(sim));
        if (st != CLOTH_OK || !(fabs(u) <= bound * (1 + 1e-9))) {
            cloth_sim_destroy(sim);
            KIT_CHECK(0, "h = 1.9/omega (below 2/omega): step %d: |u| = %g beyond %g", step,
                      fabs(u), bound);
        }
    }
    cloth_sim_destroy(sim);
    /* unstable: z = 2.1; 30 steps multiply |u| by about 1.88^30 > 1e8 */
    h = 2.1 / w;
    sim = oscillator("symplectic", k, m, h);
    KIT_CHECK(sim, "no oscillator");
    double u = u0;
    for (int step = 1; step <= 30; step++) {
        cloth_status st = oscillator_step(sim, &f);
        u = KIT_GOT(oscillator_u(sim));
        if (st == CLOTH_ENUMERIC)
            break; /* diverged: the run stopped, as it should */
        if (st != CLOTH_OK) {
            cloth_sim_destroy(sim);
            KIT_CHECK(0, "h = 2.1/omega: step %d failed", step);
        }
    }
    cloth_sim_destroy(sim);
    KIT_CHECK(!(fabs(u) < 1e6 * fabs(u0)),
              "h = 2.1/omega (above 2/omega): |u| = %g after 30 steps, expected > %g",
              fabs(u), 1e6 * fabs(u0));
    return 0;
}

/* decay d (drawn in [0.5, 0.95)): the same three steps of each map, the velocity
 * multiplied after each */
static int velocity_decay(void)
{
    double d = kit_uniform(0.5, 0.95);
    int r = euler_steps("forward", 1, d);
    return r ? r : euler_steps("symplectic", 0, d);
}

int main(int argc, char **argv)
{
    static const kit_test tests[] = {
        {"hidden/spring_force_compressed", 1, spring_force_compressed},
        {"hidden/spring_zero_length", 1, spring_zero_length},
        {"hidden/forward_euler_exact_steps", 1, forward_euler_exact_steps},
        {"hidden/symplectic_euler_exact_steps", 1, symplectic_euler_exact_steps},
        {"hidden/symplectic_stability_bound", 2, symplectic_stability_bound},
        {"hidden/velocity_decay", 1, velocity_decay},
    };
    return kit_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
