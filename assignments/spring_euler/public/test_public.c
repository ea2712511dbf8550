/* spring_euler: the public tests (the students have these).  Every expected value is a
 * closed form: Hooke's law, central differences of E = 1/2 k (l - l0)^2 written here,
 * forward Euler's energy factor 1 + (omega h)^2 per step, symplectic Euler's invariant. */
#include "oscillator.h"
#include "terms/spring.h"

/* l = 5 along u = (0.6, 0.8, 0): T = k (l - l0) = 10 (5 - 2) = 30, dE/dxb = T u. */
static int spring_force_hooke(void)
{
    const double xa[3] = {1, 1, 1}, xb[3] = {4, 5, 1};
    double u[3] = {0, 0, 0}, T = 0, g[6];
    cloth_status st = KIT_GOTI(cloth__spring_tension(xa, xb, 10, 2, u, &T));
    T = KIT_GOT(T);
    kit_got_array(u, 3);
    KIT_CHECK(st == CLOTH_OK, "cloth__spring_tension returned %s", cloth_status_string(st));
    KIT_CHECK(fabs(T - 30) < 1e-12, "tension %.17g, expected k (l - l0) = 30", T);
    KIT_CHECK(fabs(u[0] - 0.6) < 1e-12 && fabs(u[1] - 0.8) < 1e-12 && fabs(u[2]) < 1e-12,
              "direction (%g, %g, %g), expected (xb - xa)/l = (0.6, 0.8, 0)", u[0], u[1],
              u[2]);
    cloth__spring_gradient(xa, xb, 10, 2, g);
    kit_got_array(g, 6);
    const double want[6] = {-18, -24, 0, 18, 24, 0};
    for (int c = 0; c < 6; c++)
        KIT_CHECK(fabs(g[c] - want[c]) < 1e-12, "gradient[%d] = %.17g, expected %g", c,
                  g[c], want[c]);
    return 0;
}

static double hooke_energy(const double *x, double k, double l0)
{
    double d[3] = {x[3] - x[0], x[4] - x[1], x[5] - x[2]};
    double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    return 0.5 * k * (l - l0) * (l - l0);
}

/* dE/dx_i ~ (E(x + e_i eps) - E(x - e_i eps)) / (2 eps): error O(eps^2). */
static int spring_gradient_central_differences(void)
{
    static const double configs[][6] = {
        {0.1, -0.2, 0.3, 1.4, 0.5, -0.6},  /* stretched */
        {0.0, 0.0, 0.0, 0.3, 0.2, 0.1},    /* compressed */
        {1.0, 2.0, 3.0, 1.0, 2.0, 4.0001}, /* nearly at rest */
    };
    const double k = 37, l0 = 1, eps = 1e-6;
    for (int n = 0; n < 3; n++) {
        double g[6], x[6];
        cloth__spring_gradient(configs[n], configs[n] + 3, k, l0, g);
        kit_got_array(g, 6);
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 6; j++)
                x[j] = configs[n][j];
            x[i] += eps;
            double ep = hooke_energy(x, k, l0);
            x[i] -= 2 * eps;
            double fd = (ep - hooke_energy(x, k, l0)) / (2 * eps);
            KIT_CHECK(fabs(g[i] - fd) <= 1e-6 * (1 + fabs(fd)),
                      "configuration %d, coordinate %d: gradient %.10g, central difference "
                      "%.10g", n, i, g[i], fd);
        }
    }
    return 0;
}

/* Forward Euler: omega^2 u'^2 + v'^2 = (1 + h^2 omega^2)(omega^2 u^2 + v^2), so the energy
 * grows by exactly 1 + (omega h)^2 at every step. */
static int forward_euler_energy_growth(void)
{
    double k = 50, m = 0.5, h = 0.01, factor = 1 + h * h * k / m;
    cloth_sim *sim = oscillator("forward", k, m, h);
    KIT_CHECK(sim, "no oscillator");
    cloth_frame f;
    cloth_sim_measure(sim, &f);
    double previous = f.total;
    int bad = -1;
    double ratio = 0;
    for (int step = 0; step < 200 && bad < 0; step++) {
        if (oscillator_step(sim, &f) != CLOTH_OK) {
            cloth_sim_destroy(sim);
            KIT_CHECK(0, "step %d failed", step);
        }
        ratio = f.total / previous;
        if (!(fabs(ratio - factor) < 1e-10))
            bad = step;
        previous = f.total;
    }
    cloth_sim_destroy(sim);
    KIT_CHECK(bad < 0, "step %d: energy ratio %.15g, expected 1 + (omega h)^2 = %.15g", bad,
              ratio, factor);
    return 0;
}

/* Symplectic Euler (v first) conserves Q = omega^2 u^2 + v^2 - h omega^2 u v, so
 * E = m/2 (omega^2 u^2 + v^2) stays within Q m/2 / (1 -+ h omega / 2), with no trend. */
static int symplectic_euler_energy_bounded(void)
{
    double k = 50, m = 0.5, h = 0.01, w2 = k / m, w = sqrt(w2);
    cloth_sim *sim = oscillator("symplectic", k, m, h);
    KIT_CHECK(sim, "no oscillator");
    cloth_frame f;
    double u = oscillator_u(sim), v = oscillator_v(sim);
    double Q0 = w2 * u * u + v * v - h * w2 * u * v;
    int period_steps = (int)(2 * M_PI / w / h), periods = 50, failed = 0;
    double first = 0, last = 0, E = 0;
    int step;
    for (step = 1; step <= periods * period_steps && !failed; step++) {
        if (oscillator_step(sim, &f) != CLOTH_OK) {
            failed = 1;
            break;
        }
        E = f.total / (0.5 * m);
        if (!(E >= Q0 / (1 + h * w / 2) * (1 - 1e-9) && E <= Q0 / (1 - h * w / 2) * (1 + 1e-9)))
            failed = 2;
        if (step <= 10 * period_steps)
            first += E;
        if (step > (periods - 10) * period_steps)
            last += E;
    }
    cloth_sim_destroy(sim);
    KIT_CHECK(failed != 1, "step %d failed", step);
    KIT_CHECK(failed == 0, "step %d: 2E/m = %.10g outside [%.10g, %.10g]", step - 1, E,
              Q0 / (1 + h * w / 2), Q0 / (1 - h * w / 2));
    KIT_CHECK(fabs(first / last - 1) < 1e-3,
              "mean energy of the first and last ten periods differ: %.10g vs %.10g", first,
              last);
    return 0;
}

int main(int argc, char **argv)
{
    static const kit_test tests[] = {
        {"public/spring_force_hooke", 2, spring_force_hooke},
        {"public/spring_gradient_central_differences", 2, spring_gradient_central_differences},
        {"public/forward_euler_energy_growth", 2, forward_euler_energy_growth},
        {"public/symplectic_euler_energy_bounded", 2, symplectic_euler_energy_bounded},
    };
    return kit_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
