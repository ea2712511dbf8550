/* The tunnelled metric (terms/tunnel.h): a vertex through a triangle between two frames,
 * one that stops short, pairs that share a vertex; and the flat sheet drop of issue 32,
 * where a sheet passes through another unseen by the intersection count. */
#include "terms/tunnel.h"
#include "terms/ccd.h"
#include "suites.h"

#include <stdio.h>
#include <string.h>

/* A hand-built mesh: the metric reads n, n_tris and tris only. */
typedef struct small_mesh {
    cloth_mesh mesh;
    int tris[6];
} small_mesh;

static long tunnelled(const small_mesh *m, const double *x0, const double *x1)
{
    cloth__tunnel *work;
    cloth_error err;
    ck_assert_int_eq(cloth__tunnel_create(&m->mesh, &work, &err), CLOTH_OK);
    long count = cloth__count_tunnelled(&m->mesh, x0, x1, work);
    cloth__tunnel_destroy(work);
    return count;
}

/* Triangle (0, 1, 2) in the plane z = 0 and vertex 3 in no triangle, 10 cm above its
 * centroid: moved to 10 cm below it crosses (1 pair), moved to 1 mm above it does not. */
START_TEST(vertex_through_triangle_counts_once)
{
    small_mesh m = {{0}, {0, 1, 2}};
    m.mesh.n = 4;
    m.mesh.n_tris = 1;
    m.mesh.tris = m.tris;
    double x0[12] = {0, 0, 0, 0.3, 0, 0, 0, 0.3, 0, 0.1, 0.1, 0.1};
    double x1[12];
    memcpy(x1, x0, sizeof x1);
    x1[11] = -0.1;
    ck_assert_int_eq(tunnelled(&m, x0, x1), 1);
    x1[11] = 0.001;
    ck_assert_int_eq(tunnelled(&m, x0, x1), 0);
    /* the triangle moves up through the resting vertex instead: the same crossing */
    memcpy(x1, x0, sizeof x1);
    for (int v = 0; v < 3; v++)
        x1[3 * v + 2] = 0.2;
    ck_assert_int_eq(tunnelled(&m, x0, x1), 1);
    ck_assert_int_eq(tunnelled(&m, x0, x0), 0);
    /* a position that is not finite: -1 */
    x1[0] = 0.0 / 0.0;
    ck_assert_int_eq(tunnelled(&m, x0, x1), -1);
}
END_TEST

/* Triangle (0, 1, 2) inverts: vertex 0 moves through the opposite edge 1-2 (in the
 * plane, then through it and out of the plane), so the pairs of 0 with its own triangle
 * reach separation 0; they share a vertex and never count.  Vertex 3, in no triangle,
 * rests 5 cm above the middle of the triangle's start, and is passed by none of the
 * triangle's motion that it shares no vertex with: no pair counts. */
START_TEST(pairs_sharing_a_vertex_never_count)
{
    small_mesh m = {{0}, {0, 1, 2}};
    m.mesh.n = 4;
    m.mesh.n_tris = 1;
    m.mesh.tris = m.tris;
    double x0[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0.3, 0.3, 0.05};
    double x1[12];
    memcpy(x1, x0, sizeof x1);
    x1[0] = x1[1] = 0.9; /* through the middle of edge 1-2 */
    ck_assert_int_eq(tunnelled(&m, x0, x1), 0);
    x1[2] = -0.5;
    ck_assert_int_eq(tunnelled(&m, x0, x1), 0);
    /* the check that the pair 3-triangle is seen: the triangle lifted past vertex 3 */
    memcpy(x1, x0, sizeof x1);
    for (int v = 0; v < 3; v++)
        x1[3 * v + 2] = 0.1;
    ck_assert_int_eq(tunnelled(&m, x0, x1), 1);
}
END_TEST

/* The metric's cap on the CCD (tunnel.h): vertex 3 slides 1 m along the triangle at a
 * constant height g above it.  The gap never falls, so only the step count can end the
 * CCD: about 1/(0.9 g) steps (ccd.h), 1.1e5 for g = 1e-5 m, between the metric's cap of
 * 1e4 and the simulation's 1e6: the public query clears the pair, the metric counts it.
 * At g = 1 mm (about 1100 steps) both clear it.  The triangle is tilted (its third
 * corner 1 cm up, the plane z = y/400) so that the boxes of the motion overlap, as they
 * do for cloth lying on cloth; the vertex keeps the distance g from that plane (to
 * 3e-6 relative) while it slides along x. */
START_TEST(sliding_pair_past_the_cap_counts)
{
    small_mesh m = {{0}, {0, 1, 2}};
    m.mesh.n = 4;
    m.mesh.n_tris = 1;
    m.mesh.tris = m.tris;
    static const double gaps[2] = {1e-5, 1e-3};
    for (int k = 0; k < 2; k++) {
        double g = gaps[k];
        /* a large triangle, the vertex over it from x = 0.5 to 1.5 */
        double x0[12] = {0, 0, 0, 4, 0, 0, 0, 4, 0.01, 0.5, 0.5, 0.5 / 400 + g};
        double x1[12];
        memcpy(x1, x0, sizeof x1);
        x1[9] = 1.5;
        double toi;
        ck_assert_int_eq(cloth_ccd_point_triangle(x0 + 9, x0, x0 + 3, x0 + 6, x1 + 9, x1,
                                                  x1 + 3, x1 + 6, 0, &toi),
                         0);
        long steps = 0;
        double a[12] = {0.5, 0.5, 0.5 / 400 + g, 0, 0, 0, 4, 0, 0, 0, 4, 0.01};
        double b[12];
        memcpy(b, a, sizeof b);
        b[0] = 1.5;
        int hit = cloth__ccd_capped(CLOTH__CCD_POINT_TRIANGLE, a, b, 0, 1000000L, &toi, &steps);
        ck_assert_int_eq(hit, 0);
        ck_assert_msg(steps > 0.9 / (0.9 * g) && steps < 1.2 / (0.9 * g),
                      "g = %g: %ld steps, expected about %g", g, steps, 1 / (0.9 * g));
        ck_assert_int_eq(tunnelled(&m, x0, x1), (k == 0 ? 1 : 0));
    }
}
END_TEST

/* experiments/flat_sheet_drop.ini (issue 32): with vertex-pair self-collision
 * (run.self_collision = particles; the robust `on` is tests/test_collide_kernels.c) the
 * upper sheet falls straight through the lower one, which is pinned flat.  No frame holds
 * a crossing pair, so intersections reads 0 throughout; tunnelled sees the passage.
 * Each projecting kernel at the substeps. */
START_TEST(flat_sheet_drop_tunnels)
{
    static const struct {
        const char *kernel;
        int substeps;
    } runs[] = {{"explicit", 20}, {"verlet", 5}, {"pbd", 4}};
    for (int r = 0; r < 3; r++) {
        cloth_scene s;
        cloth_error err;
        ck_assert_msg(cloth_scene_load("../experiments/flat_sheet_drop.ini", &s, &err) ==
                          CLOTH_OK,
                      "%s", err.msg);
        char set[64];
        snprintf(set, sizeof set, "run.kernel=%s", runs[r].kernel);
        ck_assert(cloth_scene_set(&s, set, 1, &err) == CLOTH_OK);
        snprintf(set, sizeof set, "run.substeps=%d", runs[r].substeps);
        ck_assert(cloth_scene_set(&s, set, 2, &err) == CLOTH_OK);
        ck_assert(cloth_scene_set(&s, "run.self_collision=particles", 3, &err) == CLOTH_OK);
        cloth_sim *sim;
        ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
        cloth_frame f;
        cloth_sim_measure(sim, &f);
        ck_assert_int_eq(f.tunnelled, 0);
        long most = 0, crossings = 0;
        for (int i = 0; i < s.run.frames; i++) {
            ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
            most = f.tunnelled > most ? f.tunnelled : most;
            crossings = f.intersections > crossings ? f.intersections : crossings;
        }
        ck_assert_msg(most > 0, "%s: the sheet fell through unseen", runs[r].kernel);
        ck_assert_int_eq(crossings, 0);
        /* the upper sheet ends below the lower one (y = 0) */
        const double *x = cloth_sim_positions(sim);
        double mean = 0;
        for (int v = 25; v < 50; v++)
            mean += x[3 * v + 1] / 25;
        ck_assert_msg(mean < -0.1, "%s: mean height %g", runs[r].kernel, mean);
        cloth_sim_destroy(sim);
    }
}
END_TEST

Suite *suite_tunnel(void)
{
    Suite *s = suite_create("tunnel");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, vertex_through_triangle_counts_once);
    tcase_add_test(tc, pairs_sharing_a_vertex_never_count);
    tcase_add_test(tc, sliding_pair_past_the_cap_counts);
    tcase_add_test(tc, flat_sheet_drop_tunnels);
    suite_add_tcase(s, tc);
    return s;
}
