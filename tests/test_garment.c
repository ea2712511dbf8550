/* Garment meshing (src/garment/delaunay.c, mesh_outline.c): expected values from
 * geometry only.  The Delaunay property (no point strictly inside a triangle's
 * circumcircle, by the same toleranced in-circle test) on random sets; areas summing to
 * the outline's; every outline segment a mesh edge. */
#include "cloth.h"
#include "garment/delaunay.h"
#include "garment/mesh_outline.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double *random_points(int n, unsigned long seed)
{
    double *xy = malloc(sizeof(double) * 2 * (size_t)n);
    for (int i = 0; i < 2 * n; i++)
        xy[i] = tu_random(&seed);
    return xy;
}

/* Every triangle counter-clockwise and no point strictly inside its circumcircle. */
static void assert_delaunay(const double *xy, int n, const int *tris, int n_tris)
{
    for (int t = 0; t < n_tris; t++) {
        const int *v = tris + 3 * t;
        const double *a = xy + 2 * v[0], *b = xy + 2 * v[1], *c = xy + 2 * v[2];
        ck_assert_int_gt(cloth__orient(a, b, c), 0);
        for (int i = 0; i < n; i++) {
            if (i == v[0] || i == v[1] || i == v[2])
                continue;
            ck_assert_msg(cloth__incircle(a, b, c, xy + 2 * i) <= 0,
                          "point %d inside the circumcircle of triangle %d", i, t);
        }
    }
}

static const int set_sizes[] = {10, 1000};

START_TEST(random_sets_are_delaunay)
{
    int n = set_sizes[_i];
    double *xy = random_points(n, 17 + (unsigned long)n);
    cloth__delaunay *dt;
    cloth_error err;
    ck_assert_msg(cloth__delaunay_create(xy, n, &dt, &err) == CLOTH_OK, "%s", err.msg);
    int n_tris;
    int *tris = cloth__delaunay_triangles(dt, &n_tris);
    ck_assert_int_eq(cloth__delaunay_skipped(dt), 0);
    /* Euler on the hull: 2n - 2 - h triangles, h hull points >= 3; with the super-
     * triangle 100 times the box none of the hull's triangles is lost */
    ck_assert_int_le(n_tris, 2 * n - 5);
    ck_assert_int_ge(n_tris, n);
    assert_delaunay(xy, n, tris, n_tris);
    free(tris);
    cloth__delaunay_destroy(dt);
    free(xy);
}
END_TEST

/* A 3 x 3 square grid is all cocircular quadruples: the toleranced test must still give
 * 8 triangles covering the square's area 4 exactly, and duplicates are skipped. */
START_TEST(cocircular_grid_and_duplicates)
{
    double xy[2 * 10];
    for (int i = 0; i < 9; i++) {
        xy[2 * i] = i % 3;
        xy[2 * i + 1] = i / 3;
    }
    xy[18] = 1;
    xy[19] = 1; /* the centre again */
    cloth__delaunay *dt;
    cloth_error err;
    ck_assert_msg(cloth__delaunay_create(xy, 10, &dt, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_int_eq(cloth__delaunay_skipped(dt), 1);
    int n_tris;
    int *tris = cloth__delaunay_triangles(dt, &n_tris);
    ck_assert_int_eq(n_tris, 8);
    double area = 0;
    for (int t = 0; t < n_tris; t++) {
        const double *a = xy + 2 * tris[3 * t], *b = xy + 2 * tris[3 * t + 1],
                     *c = xy + 2 * tris[3 * t + 2];
        area += 0.5 * ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
    }
    ck_assert_double_eq_tol(area, 4, 1e-15);
    free(tris);
    cloth__delaunay_destroy(dt);
}
END_TEST

/* An L shape, a skirt-like trapezoid and a notched outline (cm). */
static const double outline_l[] = {0, 0, 40, 0, 40, 15, 15, 15, 15, 50, 0, 50};
static const double outline_trap[] = {0, 0, 60, 0, 52, 45, 8, 45};
static const double outline_notch[] = {0, 0, 30, 0, 30, 30, 18, 30, 15, 22, 12, 30, 0, 30};

static const struct { const double *c; int n; double h; } outlines[] = {
    {outline_l, 6, 2.0}, {outline_trap, 4, 2.5}, {outline_notch, 7, 1.5},
    {outline_trap, 4, 0.7},
};

static int is_edge(const cloth__panel_mesh *pm, int u, int w)
{
    for (int t = 0; t < pm->n_tris; t++)
        for (int k = 0; k < 3; k++) {
            int a = pm->tris[3 * t + k], b = pm->tris[3 * t + (k + 1) % 3];
            if ((a == u && b == w) || (a == w && b == u))
                return 1;
        }
    return 0;
}

START_TEST(outline_mesh_area_edges_and_angles)
{
    const double *c = outlines[_i].c;
    int n = outlines[_i].n;
    cloth__panel_mesh pm;
    cloth_error err;
    ck_assert_msg(cloth__mesh_outline(c, n, outlines[_i].h, "test", &pm, &err) == CLOTH_OK,
                  "%s", err.msg);
    double area = fabs(cloth__polygon_area(c, n));
    ck_assert_msg(fabs(fabs(pm.area) - area) <= 1e-12 * area, "area %.17g vs %.17g", pm.area,
                  area);
    /* each outline segment is an edge of the mesh; each corner is an outline vertex */
    for (int j = 0; j < pm.n_boundary; j++)
        ck_assert_msg(is_edge(&pm, pm.boundary[j], pm.boundary[(j + 1) % pm.n_boundary]),
                      "outline segment %d is not an edge", j);
    for (int i = 0; i < n; i++) {
        int found = 0;
        for (int j = 0; j < pm.n_boundary && !found; j++) {
            const double *p = pm.uv + 2 * pm.boundary[j];
            found = p[0] == c[2 * i] && p[1] == c[2 * i + 1];
        }
        ck_assert_msg(found, "corner %d is not a vertex", i);
    }
    /* every vertex is used, every triangle non-degenerate and inside */
    ck_assert_double_gt(pm.min_angle, 20);
    cloth__panel_mesh_free(&pm);
}
END_TEST

Suite *suite_garment(void)
{
    Suite *s = suite_create("garment");
    TCase *tc = tcase_create("delaunay");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, random_sets_are_delaunay, 0, 2);
    tcase_add_test(tc, cocircular_grid_and_duplicates);
    suite_add_tcase(s, tc);
    tc = tcase_create("outline");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, outline_mesh_area_edges_and_angles, 0,
                        (int)(sizeof outlines / sizeof outlines[0]));
    suite_add_tcase(s, tc);
    return s;
}
