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
        kit_got_array(got, 3);
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

/* v0 and d drawn from the grading run's seed */
static int free_fall_damped(void)
{
    const double v0[3] = {kit_uniform(-2, 2), kit_uniform(-2, 3), kit_uniform(-2, 2)};
    const double d = kit_uniform(0.8, 0.99);
    double x0[3];
    cloth_sim *sim = free_fall(d, v0, x0);
    KIT_CHECK(sim, "no scene");
    return fall_matches(sim, d, v0, x0);
}

/* A random spring (the seed): xa, the unit direction u, the length l and the limit
 * L < l; xb = xa + l u. */
static void random_spring(double xa[3], double xb[3], double u[3], double *l, double *limit)
{
    kit_direction(u);
    *l = kit_uniform(0.5, 8);
    *limit = *l * kit_uniform(0.5, 0.95);
    for (int k = 0; k < 3; k++) {
        xa[k] = kit_uniform(-3, 3);
        xb[k] = xa[k] + *l * u[k];
    }
    *l = bench_dist(xa, xb); /* as stored */
    for (int k = 0; k < 3; k++)
        u[k] = (xb[k] - xa[k]) / *l;
}

/* b pinned: b stays, a moves the whole l - limit along +u. */
static int provot_other_end_pinned(void)
{
    double xa[3], xb[3], u[3], l, limit, wa[3], b0[3];
    random_spring(xa, xb, u, &l, &limit);
    for (int k = 0; k < 3; k++) {
        wa[k] = xa[k] + (l - limit) * u[k];
        b0[k] = xb[k];
    }
    cloth_status st = KIT_GOTI(cloth__provot_shorten(xa, xb, 0, 1, limit));
    kit_got_array(xa, 3);
    kit_got_array(xb, 3);
    KIT_CHECK(st == CLOTH_OK, "cloth__provot_shorten returned %s", cloth_status_string(st));
    KIT_CHECK(xb[0] == b0[0] && xb[1] == b0[1] && xb[2] == b0[2],
              "the pinned end moved to (%.15g, %.15g, %.15g)", xb[0], xb[1], xb[2]);
    KIT_CHECK(bench_near3(xa, wa, 1e-12), "l = %g, limit %g: xa = (%.15g, %.15g, %.15g), "
              "expected xa + (l - limit) u = (%.15g, %.15g, %.15g)", l, limit, xa[0], xa[1],
              xa[2], wa[0], wa[1], wa[2]);
    return 0;
}

/* A spring within the limit (a little stretched, or compressed) and one between two pins
 * are left exactly as they are (each drawn from the seed). */
static int provot_leaves_alone(void)
{
    for (int q = 0; q < 3; q++) {
        double xa[3], xb[3], u[3], l, limit, a0[3], b0[3];
        random_spring(xa, xb, u, &l, &limit);
        int pinned = q == 2;
        if (q == 0)
            limit = l * kit_uniform(1.0001, 1.5); /* within the limit */
        if (q == 1)
            limit = 2 * l; /* compressed, well within it */
        memcpy(a0, xa, sizeof a0);
        memcpy(b0, xb, sizeof b0);
        cloth_status st = KIT_GOTI(cloth__provot_shorten(xa, xb, pinned, pinned, limit));
        kit_got_array(xa, 3);
        kit_got_array(xb, 3);
        KIT_CHECK(st == CLOTH_OK, "case %d: returned %s", q, cloth_status_string(st));
        KIT_CHECK(memcmp(xa, a0, sizeof a0) == 0 && memcmp(xb, b0, sizeof b0) == 0,
                  "case %d (l = %g, limit %g, pins %d): moved (a = (%g, %g, %g), b = (%g, %g, "
                  "%g))", q, l, limit, pinned, xa[0], xa[1], xa[2], xb[0], xb[1], xb[2]);
    }
    return 0;
}

/* A point outside the sphere stays (and nothing is hit); the centre itself has no radial
 * direction and goes to c + (r + offset) (0, 1, 0) (the handout's choice). */
static int sphere_outside_and_centre(void)
{
    cloth_scene s;
    char text[256];
    double r = kit_uniform(0.2, 1), off = kit_uniform(0, 0.05), q = kit_uniform(0.58, 1);
    snprintf(text, sizeof text, "[sphere]\ncenter = %.17g %.17g %.17g\nradius = %.17g\n"
             "offset = %.17g\n", kit_uniform(-1, 1), kit_uniform(-1, 1), kit_uniform(-1, 1),
             r, off);
    KIT_CHECK(bench_scene(text, &s) == 0, "no scene");
    const double *c = s.sphere.center, e = q * (r + off) * 1.01; /* |x - c| = 1.01 q sqrt3 R */
    double x[3] = {c[0] + e, c[1] + e, c[2] + e}, x0[3], normal[3];
    memcpy(x0, x, sizeof x0);
    int hit = KIT_GOTI(cloth__push_out(&s, c, NULL, x, normal));
    kit_got_array(x, 3);
    KIT_CHECK(hit == CLOTH__HIT_NONE, "outside: returned %d, expected CLOTH__HIT_NONE", hit);
    KIT_CHECK(x[0] == x0[0] && x[1] == x0[1] && x[2] == x0[2],
              "outside (distance %g > %g): moved to (%g, %g, %g)", bench_dist(c, x0), r + off,
              x[0], x[1], x[2]);
    double y[3] = {c[0], c[1], c[2]}, want[3] = {c[0], c[1] + (r + off), c[2]};
    hit = KIT_GOTI(cloth__push_out(&s, c, NULL, y, normal));
    kit_got_array(y, 3);
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
    /* k and m drawn from the seed: the top spring would stretch by 4 m g / k >= 39 % */
    double tau = kit_uniform(0.05, 0.2), k = kit_uniform(10, 30), m = kit_uniform(0.03, 0.08);
    char text[1024];
    snprintf(text, sizeof text, "[mesh]\nnx = 1\nny = 5\nspacing = 0.1\npins = top-row\n"
             "springs = structural\n"
             "[material]\nk_structural = %.17g\nvertex_mass = %.17g\n"
             "[world]\ngravity = 0 -9.81 0\n"
             "[run]\nkernel = verlet\ndt = 0.005\nsubsteps = 1\n"
             "[verlet]\nmode = provot\ndamping = 0.99\nstrain_limit = %.17g\n"
             "strain_tol = 1e-6\nstrain_passes = 1000\n", k, m, tau);
    cloth_sim *sim = bench_sim(text);
    KIT_CHECK(sim, "no scene");
    double limit = (1 + tau) * 0.1, top = 0;
    for (int n = 1; n <= 200; n++) {
        if (bench_step(sim) != CLOTH_OK) {
            cloth_sim_destroy(sim);
            KIT_CHECK(0, "step %d failed", n);
        }
        double x[15];
        memcpy(x, cloth_sim_positions(sim), sizeof x);
        kit_got_array(x, 15);
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
    /* the sphere's centre and radius drawn from the seed */
    const double c[3] = {kit_uniform(-0.05, 0.1), 0, kit_uniform(-0.05, 0.05)};
    const double radius = kit_uniform(0.15, 0.22), r = radius + 0.005;
    char text[1024];
    snprintf(text, sizeof text, "[mesh]\nnx = 5\nny = 5\nspacing = 0.1\nplane = xz\n"
             "origin = -0.2 0.25 -0.2\npins = none\nsprings = structural,shear\n"
             "[material]\nk_structural = 200\nk_shear = 50\nvertex_mass = 0.01\n"
             "[world]\ngravity = 0 -9.81 0\n"
             "[sphere]\ncenter = %.17g 0 %.17g\nradius = %.17g\noffset = 0.005\n"
             "[plane]\nheight = -0.3\n"
             "[run]\nkernel = verlet\ndt = 0.005\nsubsteps = 1\n"
             "[verlet]\nmode = provot\ndamping = 0.99\nstrain_limit = 0.1\n", c[0], c[2],
             radius);
    cloth_sim *sim = bench_sim(text);
    KIT_CHECK(sim, "no scene");
    for (int n = 1; n <= 150; n++) {
        if (bench_step(sim) != CLOTH_OK) {
            cloth_sim_destroy(sim);
            KIT_CHECK(0, "step %d failed", n);
        }
        double x[75];
        memcpy(x, cloth_sim_positions(sim), sizeof x);
        kit_got_array(x, 75);
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
 * damped free fall above holds with that d (c drawn in [2, 10) per second, h = 0.01,
 * while verlet.damping says 0.5, which must be ignored). */
static int free_fall_damping_rate(void)
{
    const double v0[3] = {kit_uniform(-2, 2), kit_uniform(-2, 3), kit_uniform(-2, 2)};
    const double rate = kit_uniform(2, 10);
    double x0[3];
    cloth_sim *sim = free_fall(0.5, v0, x0);
    KIT_CHECK(sim, "no scene");
    cloth_error err;
    char set[64];
    snprintf(set, sizeof set, "verlet.damping_rate=%.17g", rate);
    if (cloth_sim_set(sim, set, &err) != CLOTH_OK) {
        cloth_sim_destroy(sim);
        KIT_CHECK(0, "%s: %s", set, err.msg);
    }
    return fall_matches(sim, exp(-rate * 0.01), v0, x0);
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
