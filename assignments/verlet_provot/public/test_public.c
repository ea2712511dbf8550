/* verlet_provot: the public tests (the students have these).  Every expected value is a
 * closed form: the exact solution of position Verlet's recurrence under constant gravity,
 * Provot's correction of one spring (its length and how it splits between the ends), the
 * projection of one point onto a sphere and onto a plane. */
#include "bench.h"
#include "terms/obstacle.h"
#include "terms/strain_limit.h"

/* Two free vertices, no spring force (k = 0), no damping (d = 1), no limit, gravity g,
 * both started with the velocity v0.  x_prev = x0 - h v0 (the library's start from a
 * written velocity) and x_{n+1} = 2 x_n - x_{n-1} + g h^2 give
 *     x_n = x0 + n h v0 + g h^2 n (n + 1) / 2
 * (by induction: the second difference of the right side is g h^2), i.e. the continuous
 * x0 + v0 t + g t^2 / 2 at t = n h plus the start-up term g h t / 2. */
static int free_fall_exact(void)
{
    const double h = 0.01, g = -9.81, v0[3] = {0.5, 2, -1};
    double x0[3];
    cloth_sim *sim = free_fall(1, v0, x0);
    KIT_CHECK(sim, "no scene");
    for (int n = 1; n <= 40; n++) {
        if (bench_step(sim) != CLOTH_OK) {
            cloth_sim_destroy(sim);
            KIT_CHECK(0, "step %d failed", n);
        }
        double got[3], want[3];
        memcpy(got, cloth_sim_positions(sim), sizeof got);
        kit_got_array(got, 3);
        for (int k = 0; k < 3; k++)
            want[k] = x0[k] + n * h * v0[k] + (k == 1 ? g : 0) * h * h * n * (n + 1) / 2;
        if (!bench_near3(got, want, 1e-11)) {
            cloth_sim_destroy(sim);
            KIT_CHECK(0, "step %d: x = (%.15g, %.15g, %.15g), expected x0 + n h v0 + g h^2 "
                      "n (n+1)/2 = (%.15g, %.15g, %.15g)", n, got[0], got[1], got[2], want[0],
                      want[1], want[2]);
        }
    }
    cloth_sim_destroy(sim);
    return 0;
}

/* d = (2, 3, 6), l = 7, limit 5.5: c = (l - limit)/l, each end moves (l - limit)/2 = 0.75
 * along u = d/7, towards the other; the midpoint stays. */
static int provot_both_free(void)
{
    double xa[3] = {1, -2, 0.5}, xb[3] = {3, 1, 6.5}, u[3] = {2 / 7.0, 3 / 7.0, 6 / 7.0};
    double wa[3], wb[3];
    for (int k = 0; k < 3; k++) {
        wa[k] = xa[k] + 0.75 * u[k];
        wb[k] = xb[k] - 0.75 * u[k];
    }
    cloth_status st = KIT_GOTI(cloth__provot_shorten(xa, xb, 0, 0, 5.5));
    kit_got_array(xa, 3);
    kit_got_array(xb, 3);
    KIT_CHECK(st == CLOTH_OK, "cloth__provot_shorten returned %s", cloth_status_string(st));
    KIT_CHECK(fabs(bench_dist(xa, xb) - 5.5) < 1e-12, "length %.17g, expected the limit 5.5",
              bench_dist(xa, xb));
    KIT_CHECK(bench_near3(xa, wa, 1e-12), "xa = (%.15g, %.15g, %.15g), expected xa + 0.75 u "
              "= (%.15g, %.15g, %.15g)", xa[0], xa[1], xa[2], wa[0], wa[1], wa[2]);
    KIT_CHECK(bench_near3(xb, wb, 1e-12), "xb = (%.15g, %.15g, %.15g), expected xb - 0.75 u "
              "= (%.15g, %.15g, %.15g)", xb[0], xb[1], xb[2], wb[0], wb[1], wb[2]);
    return 0;
}

/* The same spring with a pinned: a stays, b moves the whole l - limit = 1.5 along -u. */
static int provot_one_pinned(void)
{
    double xa[3] = {1, -2, 0.5}, xb[3] = {3, 1, 6.5}, u[3] = {2 / 7.0, 3 / 7.0, 6 / 7.0};
    const double a0[3] = {1, -2, 0.5};
    double wb[3];
    for (int k = 0; k < 3; k++)
        wb[k] = xb[k] - 1.5 * u[k];
    cloth_status st = KIT_GOTI(cloth__provot_shorten(xa, xb, 1, 0, 5.5));
    kit_got_array(xa, 3);
    kit_got_array(xb, 3);
    KIT_CHECK(st == CLOTH_OK, "cloth__provot_shorten returned %s", cloth_status_string(st));
    KIT_CHECK(xa[0] == a0[0] && xa[1] == a0[1] && xa[2] == a0[2],
              "the pinned end moved to (%.15g, %.15g, %.15g)", xa[0], xa[1], xa[2]);
    KIT_CHECK(bench_near3(xb, wb, 1e-12), "xb = (%.15g, %.15g, %.15g), expected xb - 1.5 u "
              "= (%.15g, %.15g, %.15g)", xb[0], xb[1], xb[2], wb[0], wb[1], wb[2]);
    KIT_CHECK(fabs(bench_dist(xa, xb) - 5.5) < 1e-12, "length %.17g, expected 5.5",
              bench_dist(xa, xb));
    return 0;
}

#define SPHERE_SCENE "[sphere]\ncenter = 0.1 -0.2 0.3\nradius = 0.5\noffset = 0.01\n"

/* A point at c + 0.2 (1, 2, 2)/3 is inside the sphere of radius r + offset = 0.51: it
 * goes to c + 0.51 (1, 2, 2)/3 along its own radial direction, the normal (1, 2, 2)/3. */
static int sphere_push_out_radial(void)
{
    cloth_scene s;
    KIT_CHECK(bench_scene(SPHERE_SCENE, &s) == 0, "no scene");
    const double *c = s.sphere.center, n[3] = {1 / 3.0, 2 / 3.0, 2 / 3.0};
    double x[3], normal[3] = {0, 0, 0}, want[3];
    for (int k = 0; k < 3; k++) {
        x[k] = c[k] + 0.2 * n[k];
        want[k] = c[k] + 0.51 * n[k];
    }
    int hit = KIT_GOTI(cloth__push_out(&s, c, NULL, x, normal));
    kit_got_array(x, 3);
    kit_got_array(normal, 3);
    KIT_CHECK(bench_near3(x, want, 1e-12), "x = (%.15g, %.15g, %.15g), expected c + (r + "
              "offset) n = (%.15g, %.15g, %.15g)", x[0], x[1], x[2], want[0], want[1],
              want[2]);
    KIT_CHECK(hit == CLOTH__HIT_SPHERE, "returned %d, expected CLOTH__HIT_SPHERE", hit);
    KIT_CHECK(bench_near3(normal, n, 1e-12), "normal (%g, %g, %g), expected (1, 2, 2)/3",
              normal[0], normal[1], normal[2]);
    return 0;
}

/* The plane y = height + offset = -0.98: a point below it goes straight up onto it (x
 * and z kept), normal +y; a point above it stays. */
static int plane_push_out(void)
{
    cloth_scene s;
    KIT_CHECK(bench_scene("[plane]\nheight = -1\noffset = 0.02\n", &s) == 0, "no scene");
    const double c[3] = {0, 0, 0}, want[3] = {0.3, -0.98, 0.7};
    double x[3] = {0.3, -1.5, 0.7}, normal[3] = {0, 0, 0};
    int hit = KIT_GOTI(cloth__push_out(&s, c, NULL, x, normal));
    kit_got_array(x, 3);
    kit_got_array(normal, 3);
    KIT_CHECK(bench_near3(x, want, 1e-14), "x = (%.15g, %.15g, %.15g), expected (0.3, -0.98, "
              "0.7)", x[0], x[1], x[2]);
    KIT_CHECK(hit == CLOTH__HIT_FLOOR, "returned %d, expected CLOTH__HIT_FLOOR", hit);
    KIT_CHECK(normal[0] == 0 && normal[1] == 1 && normal[2] == 0,
              "normal (%g, %g, %g), expected (0, 1, 0)", normal[0], normal[1], normal[2]);
    double y[3] = {0.3, -0.5, 0.7};
    hit = KIT_GOTI(cloth__push_out(&s, c, NULL, y, normal));
    kit_got_array(y, 3);
    KIT_CHECK(hit == CLOTH__HIT_NONE && y[0] == 0.3 && y[1] == -0.5 && y[2] == 0.7,
              "a point above the plane: returned %d and moved to (%g, %g, %g)", hit, y[0],
              y[1], y[2]);
    return 0;
}

int main(int argc, char **argv)
{
    static const kit_test tests[] = {
        {"public/free_fall_exact", 2, free_fall_exact},
        {"public/provot_both_free", 2, provot_both_free},
        {"public/provot_one_pinned", 2, provot_one_pinned},
        {"public/sphere_push_out_radial", 2, sphere_push_out_radial},
        {"public/plane_push_out", 2, plane_push_out},
    };
    return kit_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
