/* verlet_provot: the hidden tests (kept by the instructor, run only by make grade).
 * Closed forms again: damped free fall, the other pinned end, springs Provot must leave
 * alone, the point at the sphere's centre; and two invariants of whole runs (a hanging
 * chain never longer than the limit, a cloth dropped on a sphere over a plane never
 * inside either). */
#include "bench.h"
#include "terms/obstacle.h"
#include "terms/strain_limit.h"

/* Damped free fall: x_{n+1} = x_n + d (x_n - x_{n-1}) + g h^2.  The differences
 * D_n = x_n - x_{n-1} obey D_{n+1} = d D_n + g h^2 from D_0 = h v0, so
 *     D_j = d^j h v0 + g h^2 (1 - d^j)/(1 - d)
 *     x_n = x0 + h v0 S + g h^2 (n - S)/(1 - d),   S = sum_{j=1..n} d^j = d (1 - d^n)/(1 - d). */
static int fall_matches(cloth_sim *sim, double d, const double v0[3], const double x0[3])
{
    const double h = 0.01, g = -9.81;
    for (int n = 1; n <= 30; n++) {
        if (bench_step(sim) != CLOTH_OK) {
            cloth_sim_destroy(sim);
            KIT_CHECK(0, "step %d failed", n);
        }
        double got[3], S = d * (1 - pow(d, n)) / (1 - d), want[3];
        memcpy(got, cloth_sim_positions(sim), sizeof got);
        for (int k = 0; k < 3; k++)
            want[k] = x0[k] + h * v0[k] * S + (k == 1 ? g : 0) * h * h * (n - S) / (1 - d);
        if (!bench_near3(got, want, 1e-11)) {
            cloth_sim_destroy(sim);
            KIT_CHECK(0, "step %d: x = (%.15g, %.15g, %.15g), expected (%.15g, %.15g, %.15g) "
                      "with d = %.15g", n, got[0], got[1], got[2], want[0], want[1], want[2], d);
        }
    }
    cloth_sim_destroy(sim);
    return 0;
}

static int free_fall_damped(void)
{
    const double v0[3] = {0.5, 2, -1};
    double x0[3];
    cloth_sim *sim = free_fall(0.9, v0, x0);
    KIT_CHECK(sim, "no scene");
    return fall_matches(sim, 0.9, v0, x0);
}

/* b pinned: b stays, a moves the whole l - limit = 1.5 along +u. */
static int provot_other_end_pinned(void)
{
    double xa[3] = {1, -2, 0.5}, xb[3] = {3, 1, 6.5}, u[3] = {2 / 7.0, 3 / 7.0, 6 / 7.0};
    double wa[3];
    for (int k = 0; k < 3; k++)
        wa[k] = xa[k] + 1.5 * u[k];
    cloth_status st = cloth__provot_shorten(xa, xb, 0, 1, 5.5);
    KIT_CHECK(st == CLOTH_OK, "cloth__provot_shorten returned %s", cloth_status_string(st));
    KIT_CHECK(xb[0] == 3 && xb[1] == 1 && xb[2] == 6.5,
              "the pinned end moved to (%.15g, %.15g, %.15g)", xb[0], xb[1], xb[2]);
    KIT_CHECK(bench_near3(xa, wa, 1e-12), "xa = (%.15g, %.15g, %.15g), expected xa + 1.5 u "
              "= (%.15g, %.15g, %.15g)", xa[0], xa[1], xa[2], wa[0], wa[1], wa[2]);
    return 0;
}

/* A spring within the limit (compressed or a little stretched) and one between two pins
 * are left exactly as they are. */
static int provot_leaves_alone(void)
{
    static const struct { double b[3], limit; int pa, pb; } cases[] = {
        {{3, 1, 6.5}, 7.5, 0, 0}, /* l = 7 < limit */
        {{1.2, -1.7, 1.1}, 5.5, 0, 0}, /* l = 0.7: compressed */
        {{3, 1, 6.5}, 5.5, 1, 1}, /* too long, both ends pinned */
    };
    for (int q = 0; q < 3; q++) {
        double xa[3] = {1, -2, 0.5}, xb[3];
        for (int k = 0; k < 3; k++)
            xb[k] = cases[q].b[k];
        cloth_status st = cloth__provot_shorten(xa, xb, cases[q].pa, cases[q].pb,
                                                cases[q].limit);
        KIT_CHECK(st == CLOTH_OK, "case %d: returned %s", q, cloth_status_string(st));
        KIT_CHECK(xa[0] == 1 && xa[1] == -2 && xa[2] == 0.5 && xb[0] == cases[q].b[0] &&
                  xb[1] == cases[q].b[1] && xb[2] == cases[q].b[2],
                  "case %d: moved (a = (%g, %g, %g), b = (%g, %g, %g))", q, xa[0], xa[1],
                  xa[2], xb[0], xb[1], xb[2]);
    }
    return 0;
}

/* A point outside the sphere stays (and nothing is hit); the centre itself has no radial
 * direction and goes to c + (r + offset) (0, 1, 0) (the handout's choice). */
static int sphere_outside_and_centre(void)
{
    cloth_scene s;
    KIT_CHECK(bench_scene("[sphere]\ncenter = 0.1 -0.2 0.3\nradius = 0.5\noffset = 0.01\n",
                          &s) == 0, "no scene");
    const double *c = s.sphere.center;
    double x[3] = {c[0] + 0.3, c[1] + 0.3, c[2] + 0.3}, normal[3];
    int hit = cloth__push_out(&s, c, NULL, x, normal);
    KIT_CHECK(hit == CLOTH__HIT_NONE, "outside: returned %d, expected CLOTH__HIT_NONE", hit);
    KIT_CHECK(x[0] == c[0] + 0.3 && x[1] == c[1] + 0.3 && x[2] == c[2] + 0.3,
              "outside (distance 0.52 > 0.51): moved to (%g, %g, %g)", x[0], x[1], x[2]);
    double y[3] = {c[0], c[1], c[2]}, want[3] = {c[0], c[1] + 0.51, c[2]};
    hit = cloth__push_out(&s, c, NULL, y, normal);
    KIT_CHECK(hit == CLOTH__HIT_SPHERE && bench_near3(y, want, 1e-14),
              "the centre: returned %d and went to (%.15g, %.15g, %.15g), expected "
              "(%.15g, %.15g, %.15g)", hit, y[0], y[1], y[2], want[0], want[1], want[2]);
    return 0;
}

/* A chain of five vertices hangs from its pinned top on soft springs (without the limit
 * the top spring would stretch by 4 m g / k = 98 %): after every step every spring is
 * within (1 + tau_c) l0 up to the kernel's tolerance, and the top one reaches the limit. */
static int chain_within_limit(void)
{
    cloth_sim *sim = bench_sim("[mesh]\nnx = 1\nny = 5\nspacing = 0.1\npins = top-row\n"
                               "springs = structural\n"
                               "[material]\nk_structural = 20\nvertex_mass = 0.05\n"
                               "[world]\ngravity = 0 -9.81 0\n"
                               "[run]\nkernel = verlet\ndt = 0.005\nsubsteps = 1\n"
                               "[verlet]\nmode = provot\ndamping = 0.99\nstrain_limit = 0.1\n"
                               "strain_tol = 1e-6\nstrain_passes = 1000\n");
    KIT_CHECK(sim, "no scene");
    double limit = 1.1 * 0.1, top = 0;
    for (int n = 1; n <= 200; n++) {
        if (bench_step(sim) != CLOTH_OK) {
            cloth_sim_destroy(sim);
            KIT_CHECK(0, "step %d failed", n);
        }
        const double *x = cloth_sim_positions(sim);
        for (int i = 0; i < 4; i++) {
            double l = bench_dist(x + 3 * i, x + 3 * i + 3);
            if (!(l <= limit * (1 + 2e-6))) {
                cloth_sim_destroy(sim);
                KIT_CHECK(0, "step %d: spring %d is %.10g long, beyond (1 + tau_c) l0 = %g",
                          n, i, l, limit);
            }
        }
        top = bench_dist(x, x + 3);
    }
    cloth_sim_destroy(sim);
    KIT_CHECK(top >= limit * (1 - 1e-3), "the top spring ends %.10g long: the limit %g "
              "should bind", top, limit);
    return 0;
}

/* A 5 x 5 cloth dropped on a sphere above a plane: after every step no free vertex is
 * inside the sphere (|x - c| >= r + offset) or below the plane. */
static int drape_never_inside(void)
{
    cloth_sim *sim = bench_sim("[mesh]\nnx = 5\nny = 5\nspacing = 0.1\nplane = xz\n"
                               "origin = -0.2 0.25 -0.2\npins = none\n"
                               "springs = structural,shear\n"
                               "[material]\nk_structural = 200\nk_shear = 50\n"
                               "vertex_mass = 0.01\n"
                               "[world]\ngravity = 0 -9.81 0\n"
                               "[sphere]\ncenter = 0.05 0 0\nradius = 0.2\noffset = 0.005\n"
                               "[plane]\nheight = -0.3\n"
                               "[run]\nkernel = verlet\ndt = 0.005\nsubsteps = 1\n"
                               "[verlet]\nmode = provot\ndamping = 0.99\nstrain_limit = 0.1\n");
    KIT_CHECK(sim, "no scene");
    const double c[3] = {0.05, 0, 0}, r = 0.205;
    for (int n = 1; n <= 150; n++) {
        if (bench_step(sim) != CLOTH_OK) {
            cloth_sim_destroy(sim);
            KIT_CHECK(0, "step %d failed", n);
        }
        const double *x = cloth_sim_positions(sim);
        for (int i = 0; i < 25; i++) {
            double d = bench_dist(c, x + 3 * i);
            if (!(d >= r * (1 - 1e-9) && x[3 * i + 1] >= -0.3 - 1e-12)) {
                double got[3];
                memcpy(got, x + 3 * i, sizeof got);
                cloth_sim_destroy(sim);
                KIT_CHECK(0, "step %d: vertex %d at (%g, %g, %g): %g from the centre (radius "
                          "+ offset %g), plane at -0.3", n, i, got[0], got[1], got[2], d, r);
            }
        }
    }
    cloth_sim_destroy(sim);
    return 0;
}

/* verlet.damping_rate c > 0 replaces verlet.damping: d = exp(-c h) per step, so the
 * damped free fall above holds with that d (here c = 5 per second, h = 0.01, while
 * verlet.damping says 0.5, which must be ignored). */
static int free_fall_damping_rate(void)
{
    const double v0[3] = {-1, 3, 0.25};
    double x0[3];
    cloth_sim *sim = free_fall(0.5, v0, x0);
    KIT_CHECK(sim, "no scene");
    cloth_error err;
    if (cloth_sim_set(sim, "verlet.damping_rate=5", &err) != CLOTH_OK) {
        cloth_sim_destroy(sim);
        KIT_CHECK(0, "verlet.damping_rate=5: %s", err.msg);
    }
    return fall_matches(sim, exp(-5 * 0.01), v0, x0);
}

int main(int argc, char **argv)
{
    static const kit_test tests[] = {
        {"hidden/free_fall_damped", 1, free_fall_damped},
        {"hidden/free_fall_damping_rate", 1, free_fall_damping_rate},
        {"hidden/provot_other_end_pinned", 1, provot_other_end_pinned},
        {"hidden/provot_leaves_alone", 1, provot_leaves_alone},
        {"hidden/sphere_outside_and_centre", 1, sphere_outside_and_centre},
        {"hidden/chain_within_limit", 2, chain_within_limit},
        {"hidden/drape_never_inside", 2, drape_never_inside},
    };
    return kit_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
