/* The intersection count: the exact orientation, the edge-triangle rules of
 * intersect.h on hand-built cases, and the grid count against all pairs. */
#include "terms/intersect.h"
#include "suites.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double next_random(unsigned long *state)
{
    *state = *state * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(*state >> 11) / (double)(1UL << 53);
}

/* v to the nearest multiple of 1/32 */
static double round_to(double v)
{
    return round(32 * v) / 32;
}

/* ------------------------------------------------------------- orientation */

/* The sign convention: d below the counterclockwise (seen from +z) triangle is +1. */
START_TEST(orient_sign_convention)
{
    double a[3] = {0, 0, 0}, b[3] = {1, 0, 0}, c[3] = {0, 1, 0};
    double below[3] = {0.2, 0.2, -1}, above[3] = {0.2, 0.2, 1}, on[3] = {5, -7, 0};
    ck_assert_int_eq(cloth__orient3d(a, b, c, below), 1);
    ck_assert_int_eq(cloth__orient3d(a, b, c, above), -1);
    ck_assert_int_eq(cloth__orient3d(a, b, c, on), 0);
    ck_assert_int_eq(cloth__orient3d(b, a, c, below), -1);
}
END_TEST

/* Points exactly on the plane z = x (and z = 2x, exact too) in random positions: the
 * sign is 0 however the rounded determinant comes out; moved one ulp off the plane, it
 * is the sign of the same point moved a whole unit (orient is affine in d). */
START_TEST(orient_exact_on_planes)
{
    unsigned long seed = 99;
    int rounded_nonzero = 0;
    for (int trial = 0; trial < 2000; trial++) {
        double scale = trial % 2 ? 1.0 : 2.0, p[4][3];
        for (int k = 0; k < 4; k++) {
            p[k][0] = 3 * next_random(&seed) - 1;
            p[k][1] = 3 * next_random(&seed) - 1;
            p[k][2] = scale * p[k][0];
        }
        ck_assert_int_eq(cloth__orient3d(p[0], p[1], p[2], p[3]), 0);
        /* the naive rounded determinant is often not 0 on these */
        double ad[3], bd[3], cd[3];
        for (int d = 0; d < 3; d++) {
            ad[d] = p[0][d] - p[3][d];
            bd[d] = p[1][d] - p[3][d];
            cd[d] = p[2][d] - p[3][d];
        }
        double naive = ad[2] * (bd[0] * cd[1] - cd[0] * bd[1]) +
                       bd[2] * (cd[0] * ad[1] - ad[0] * cd[1]) +
                       cd[2] * (ad[0] * bd[1] - bd[0] * ad[1]);
        rounded_nonzero += naive != 0;
        double up[3] = {p[3][0], p[3][1], nextafter(p[3][2], INFINITY)};
        double far[3] = {p[3][0], p[3][1], p[3][2] + 1};
        ck_assert_int_eq(cloth__orient3d(p[0], p[1], p[2], up),
                         cloth__orient3d(p[0], p[1], p[2], far));
    }
    ck_assert_int_gt(rounded_nonzero, 100); /* the exact stage was exercised */
}
END_TEST

/* Swapping two points negates the sign, an even permutation keeps it, on nearly
 * coplanar points where each ordering rounds differently. */
START_TEST(orient_antisymmetric)
{
    unsigned long seed = 7;
    for (int trial = 0; trial < 2000; trial++) {
        double p[4][3];
        for (int k = 0; k < 4; k++) {
            p[k][0] = next_random(&seed);
            p[k][1] = next_random(&seed);
            p[k][2] = 0.3 * p[k][0] + 0.7 * p[k][1] + 1e-17 * (next_random(&seed) - 0.5);
        }
        int s = cloth__orient3d(p[0], p[1], p[2], p[3]);
        ck_assert_int_eq(cloth__orient3d(p[1], p[0], p[2], p[3]), -s);
        ck_assert_int_eq(cloth__orient3d(p[0], p[1], p[3], p[2]), -s);
        ck_assert_int_eq(cloth__orient3d(p[3], p[1], p[2], p[0]), -s);
        ck_assert_int_eq(cloth__orient3d(p[1], p[2], p[0], p[3]), s);
        ck_assert_int_eq(cloth__orient3d(p[2], p[3], p[0], p[1]), s);
        ck_assert_int_eq(cloth__orient3d(p[1], p[0], p[3], p[2]), s);
    }
}
END_TEST

/* ----------------------------------------------------------- edge-triangle */

static const double A[3] = {0, 0, 0}, B[3] = {1, 0, 0}, C[3] = {0, 1, 0};

/* The answer for (p, q) against (A, B, C), the same for (q, p) and for every order of
 * the triangle's vertices. */
static int meets(const double p[3], const double q[3])
{
    const double *t[3] = {A, B, C};
    int r = cloth__edge_meets_triangle(p, q, A, B, C);
    for (int k = 0; k < 3; k++) {
        const double *a = t[k], *b = t[(k + 1) % 3], *c = t[(k + 2) % 3];
        ck_assert_int_eq(cloth__edge_meets_triangle(p, q, a, b, c), r);
        ck_assert_int_eq(cloth__edge_meets_triangle(q, p, a, b, c), r);
        ck_assert_int_eq(cloth__edge_meets_triangle(p, q, a, c, b), r);
        ck_assert_int_eq(cloth__edge_meets_triangle(q, p, a, c, b), r);
    }
    return r;
}

#define MEETS(px, py, pz, qx, qy, qz) \
    meets((const double[3]){px, py, pz}, (const double[3]){qx, qy, qz})

START_TEST(edge_triangle_cases)
{
    /* through the interior, straight and slanted */
    ck_assert_int_eq(MEETS(0.2, 0.2, -1, 0.2, 0.2, 1), 1);
    ck_assert_int_eq(MEETS(-0.3, 0.1, -1, 0.7, 0.3, 1), 1);
    /* beside, parallel above, short of the plane */
    ck_assert_int_eq(MEETS(2, 2, -1, 2, 2, 1), 0);
    ck_assert_int_eq(MEETS(0.6, 0.6, -1, 0.6, 0.6, 1), 0); /* just past the edge BC */
    ck_assert_int_eq(MEETS(0, 0, 0.1, 1, 1, 0.1), 0);
    ck_assert_int_eq(MEETS(0.2, 0.2, 0.5, 0.2, 0.2, 1), 0);
    /* through a triangle edge (inside it) and through a vertex: count */
    ck_assert_int_eq(MEETS(0.5, 0, -1, 0.5, 0, 1), 1);
    ck_assert_int_eq(MEETS(0.5, 0.5, -1, 0.5, 0.5, 1), 1);
    ck_assert_int_eq(MEETS(0.3, -0.2, -1, 0.7, 0.2, 1), 1);
    ck_assert_int_eq(MEETS(0, 0, -1, 0, 0, 1), 1);
    ck_assert_int_eq(MEETS(1, 0, -1, 1, 0, 1), 1);
    ck_assert_int_eq(MEETS(-0.5, 1, -1, 0.5, 1, 1), 1);
    /* an endpoint on the face, on an edge, on a vertex: count; on the plane outside the
     * triangle: not */
    ck_assert_int_eq(MEETS(0.2, 0.2, 0, 0.2, 0.2, 1), 1);
    ck_assert_int_eq(MEETS(0.2, 0.2, 0, 0.9, -3, -1), 1);
    ck_assert_int_eq(MEETS(0.5, 0, 0, 0.5, 0, 1), 1);
    ck_assert_int_eq(MEETS(0, 1, 0, 0, 1, -1), 1);
    ck_assert_int_eq(MEETS(2, 2, 0, 0.2, 0.2, 1), 0);
    /* coplanar: overlapping, along an edge, crossing it, beside it: never */
    ck_assert_int_eq(MEETS(-1, 0.2, 0, 2, 0.2, 0), 0);
    ck_assert_int_eq(MEETS(0.1, 0.1, 0, 0.2, 0.3, 0), 0);
    ck_assert_int_eq(MEETS(-1, 0, 0, 2, 0, 0), 0);
    ck_assert_int_eq(MEETS(2, 0, 0, 3, 1, 0), 0);
    /* a zero-length edge on the face */
    ck_assert_int_eq(MEETS(0.2, 0.2, 0, 0.2, 0.2, 0), 0);
    /* a degenerate triangle: never */
    double p[3] = {0.5, 0, -1}, q[3] = {0.5, 0, 1}, mid[3] = {0.5, 0, 0};
    ck_assert_int_eq(cloth__edge_meets_triangle(p, q, A, B, mid), 0);
    ck_assert_int_eq(cloth__edge_meets_triangle(p, q, A, A, A), 0);
}
END_TEST

/* A tilted triangle with inexact coordinates; a vertical edge through a vertex exactly
 * (same x and y) or through a point of the edge AB (which lies in the plane x = ax):
 * the orientations that should be 0 are exactly 0, and the edge counts. */
START_TEST(edge_triangle_exact_degenerate)
{
    unsigned long seed = 31;
    for (int trial = 0; trial < 2000; trial++) {
        double a[3], b[3], c[3];
        for (int d = 0; d < 3; d++) {
            a[d] = next_random(&seed);
            c[d] = next_random(&seed);
        }
        c[0] = a[0] + 0.2 + next_random(&seed); /* the triangle lies at x >= a[0] */
        b[0] = a[0];
        b[1] = a[1] + 0.2 + next_random(&seed);
        b[2] = next_random(&seed);
        /* through vertex a */
        double p[3] = {a[0], a[1], a[2] + 3}, q[3] = {a[0], a[1], a[2] - 2};
        ck_assert_int_eq(cloth__edge_meets_triangle(p, q, a, b, c), 1);
        ck_assert_int_eq(cloth__edge_meets_triangle(q, p, c, a, b), 1);
        /* through the edge ab at a random height along it */
        double y = a[1] + (b[1] - a[1]) * next_random(&seed);
        double r[3] = {a[0], y, 5}, s[3] = {a[0], y, -5};
        ck_assert_int_eq(cloth__edge_meets_triangle(r, s, a, b, c), 1);
        ck_assert_int_eq(cloth__edge_meets_triangle(s, r, b, c, a), 1);
        /* and just beyond the edge, one ulp outside in x (c is at larger x) */
        double x_out = nextafter(a[0], -INFINITY);
        double r2[3] = {x_out, y, 5}, s2[3] = {x_out, y, -5};
        ck_assert_int_eq(cloth__edge_meets_triangle(r2, s2, a, b, c), 0);
        /* an endpoint exactly at a vertex */
        ck_assert_int_eq(cloth__edge_meets_triangle(c, p, a, b, c), 1);
    }
}
END_TEST

/* ------------------------------------------------------------------ meshes */

enum { MAXV = 400, MAXT = 800 };

typedef struct {
    cloth_mesh mesh;
    double x[3 * MAXV];
    int tris[3 * MAXT];
} test_mesh;

/* Appends an nx x nz grid sheet in the plane y = h (x = x0 + i s, z = z0 + j s), split
 * into triangles as cloth_mesh's grid is. */
static void add_sheet(test_mesh *m, int nx, int nz, double s, double x0, double h, double z0)
{
    int base = m->mesh.n;
    for (int j = 0; j < nz; j++)
        for (int i = 0; i < nx; i++) {
            double *p = m->x + 3 * (base + j * nx + i);
            p[0] = x0 + i * s;
            p[1] = h;
            p[2] = z0 + j * s;
        }
    m->mesh.n += nx * nz;
    for (int j = 0; j + 1 < nz; j++)
        for (int i = 0; i + 1 < nx; i++) {
            int a = base + j * nx + i, b = a + 1, c = a + nx, d = c + 1;
            int *t = m->tris + 3 * m->mesh.n_tris;
            int quad[6] = {a, b, d, a, d, c};
            memcpy(t, quad, sizeof quad);
            m->mesh.n_tris += 2;
        }
}

static void init_mesh(test_mesh *m)
{
    memset(&m->mesh, 0, sizeof m->mesh);
    m->mesh.tris = m->tris;
}

/* All (edge, triangle) pairs sharing no vertex, the edges found independently (an
 * adjacency matrix); also checks the edge count of the work. */
/* The count by all pairs; first gets the first pair that counts (edge i < j in order,
 * then the smallest triangle), or -1s. */
static long brute_force(const test_mesh *m, const cloth__intersect *work, int first[3])
{
    first[0] = first[1] = first[2] = -1;
    int n = m->mesh.n;
    unsigned char *adj = calloc((size_t)n * n, 1);
    for (int t = 0; t < m->mesh.n_tris; t++)
        for (int k = 0; k < 3; k++) {
            int i = m->tris[3 * t + k], j = m->tris[3 * t + (k + 1) % 3];
            if (i != j)
                adj[i < j ? i * n + j : j * n + i] = 1;
        }
    long count = 0;
    int n_edges = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (!adj[i * n + j])
                continue;
            n_edges++;
            for (int t = 0; t < m->mesh.n_tris; t++) {
                const int *v = m->tris + 3 * t;
                if (v[0] == i || v[1] == i || v[2] == i || v[0] == j || v[1] == j ||
                    v[2] == j)
                    continue;
                int met = cloth__edge_meets_triangle(m->x + 3 * i, m->x + 3 * j,
                                                     m->x + 3 * v[0], m->x + 3 * v[1],
                                                     m->x + 3 * v[2]);
                if (met && first[0] < 0) {
                    first[0] = i;
                    first[1] = j;
                    first[2] = t;
                }
                count += met;
            }
        }
    free(adj);
    ck_assert_int_eq(cloth__intersect_edge_count(work), n_edges);
    return count;
}

/* The grid's count, checked against all pairs. */
static long count(const test_mesh *m)
{
    cloth__intersect *work;
    cloth_error err;
    ck_assert_int_eq(cloth__intersect_create(&m->mesh, &work, &err), CLOTH_OK);
    long got = cloth__count_intersections(&m->mesh, m->x, work);
    int want[3], a = -1, b = -1, t = -1;
    ck_assert_int_eq(got, brute_force(m, work, want));
    /* the first pair, as the start check of self-collision names it */
    ck_assert_int_eq(cloth__first_intersection(&m->mesh, m->x, work, &a, &b, &t), got > 0);
    if (got > 0) {
        ck_assert_int_eq(a, want[0]);
        ck_assert_int_eq(b, want[1]);
        ck_assert_int_eq(t, want[2]);
    }
    cloth__intersect_destroy(work);
    return got;
}

/* Two 5 x 5 sheets, spacing 0.1 m: the lower at y = 0, the upper 3 cm above and offset
 * half a cell (issue 12's scene); apart, then passing through each other. */
START_TEST(two_sheets)
{
    static test_mesh m;
    init_mesh(&m);
    add_sheet(&m, 5, 5, 0.1, 0, 0, 0);
    add_sheet(&m, 5, 5, 0.1, 0.05, 0.03, 0.05);
    ck_assert_int_eq(m.mesh.n, 50);
    ck_assert_int_eq(m.mesh.n_tris, 64);
    ck_assert_int_eq(count(&m), 0);
    /* 3 cm below: still apart */
    for (int v = 25; v < 50; v++)
        m.x[3 * v + 1] = -0.03;
    ck_assert_int_eq(count(&m), 0);
    /* tilted about the z axis through x = 0.25: from 15 cm below to 15 cm above */
    for (int v = 25; v < 50; v++)
        m.x[3 * v + 1] = 0.75 * (m.x[3 * v] - 0.25);
    long tilted = count(&m);
    ck_assert_int_gt(tilted, 0);
    /* sagging through: the middle 6 cm below, the rim above */
    for (int v = 25; v < 50; v++) {
        double dx = m.x[3 * v] - 0.25, dz = m.x[3 * v + 2] - 0.25;
        m.x[3 * v + 1] = 0.03 - 0.09 * (1 - (dx * dx + dz * dz) / 0.08);
    }
    ck_assert_int_gt(count(&m), 0);
    /* the upper sheet exactly in the lower's plane: coplanar, by the rules 0 */
    for (int v = 25; v < 50; v++)
        m.x[3 * v + 1] = 0;
    ck_assert_int_eq(count(&m), 0);
}
END_TEST

/* A flat sheet, and one folded into a U (a straight bottom, a half circle of radius
 * 6 cm, a straight top 12 cm above): no self-intersection. */
START_TEST(single_sheets)
{
    static test_mesh m;
    init_mesh(&m);
    add_sheet(&m, 12, 5, 0.1, 0, 0.25, 0);
    ck_assert_int_eq(count(&m), 0);
    /* the same sheet turned out of every axis plane (coordinates now rounded) */
    for (int v = 0; v < m.mesh.n; v++) {
        double *p = m.x + 3 * v, x = p[0], y = p[1], z = p[2];
        double ca = cos(0.7), sa = sin(0.7), cb = cos(0.4), sb = sin(0.4);
        double y1 = ca * y - sa * z, z1 = sa * y + ca * z; /* about x by 0.7 */
        p[0] = cb * x - sb * y1;                           /* about z by 0.4 */
        p[1] = sb * x + cb * y1;
        p[2] = z1;
    }
    ck_assert_int_eq(count(&m), 0);
    const double r = 0.06, pi = acos(-1.0);
    for (int j = 0; j < 5; j++)
        for (int i = 0; i < 12; i++) {
            double s = 0.1 * i, *p = m.x + 3 * (j * 12 + i);
            if (s <= 0.4) {
                p[0] = 0.4 - s;
                p[1] = 0;
            } else if (s <= 0.4 + pi * r) {
                double th = (s - 0.4) / r;
                p[0] = -r * sin(th);
                p[1] = r - r * cos(th);
            } else {
                p[0] = s - 0.4 - pi * r;
                p[1] = 2 * r;
            }
            p[2] = 0.1 * j;
        }
    ck_assert_int_eq(count(&m), 0);
    /* the top leaf's last three columns pushed down through the bottom leaf */
    for (int j = 0; j < 5; j++)
        for (int i = 9; i < 12; i++)
            m.x[3 * (j * 12 + i) + 1] = -0.1;
    ck_assert_int_gt(count(&m), 0);
}
END_TEST

/* Pairs that share a vertex never count.  A horizontal triangle (0, 1, 2) and a vertical
 * one (0, 3, 4) through it: (0, 3) and (0, 4) touch the first at the shared vertex 0,
 * which by itself would count; only (3, 4), through the first's interior, does. */
START_TEST(shared_vertex_pairs)
{
    static test_mesh m;
    init_mesh(&m);
    const double x[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0.3, 0.3, 1, 0.3, 0.3, -1};
    memcpy(m.x, x, sizeof x);
    const int tris[6] = {0, 1, 2, 0, 3, 4};
    memcpy(m.tris, tris, sizeof tris);
    m.mesh.n = 5;
    m.mesh.n_tris = 2;
    ck_assert_int_eq(cloth__edge_meets_triangle(m.x, m.x + 9, m.x, m.x + 3, m.x + 6), 1);
    ck_assert_int_eq(count(&m), 1);
    /* a fan of six triangles around a vertex, folded up and down: 0 */
    init_mesh(&m);
    m.x[0] = m.x[1] = m.x[2] = 0;
    for (int k = 0; k < 6; k++) {
        double th = k * acos(-1.0) / 3;
        m.x[3 * (k + 1)] = cos(th);
        m.x[3 * (k + 1) + 1] = k % 2 ? 0.5 : -0.5;
        m.x[3 * (k + 1) + 2] = sin(th);
        int t[3] = {0, k + 1, (k + 1) % 6 + 1};
        memcpy(m.tris + 3 * k, t, sizeof t);
    }
    m.mesh.n = 7;
    m.mesh.n_tris = 6;
    ck_assert_int_eq(count(&m), 0);
}
END_TEST

/* Random configurations: the grid count equals the all-pairs count.  A 9 x 9 sheet
 * crumpled by jitter of up to a cell; two sheets placed at random; coordinates rounded
 * to multiples of 1/32 m, so that many boxes and primitives touch exactly and vertices
 * sit on cell boundaries; one vertex far away (the grid's fallbacks). */
START_TEST(random_matches_brute_force)
{
    static test_mesh m;
    unsigned long seed = 2024 + 17 * (unsigned long)_i;
    for (int round = 0; round < 8; round++) {
        init_mesh(&m);
        if (round % 2 == 0) {
            add_sheet(&m, 9, 9, 0.1, 0, 0, 0);
        } else {
            add_sheet(&m, 6, 6, 0.1, 0, 0, 0);
            add_sheet(&m, 6, 6, 0.1, 0.2 * next_random(&seed), 0.1 * next_random(&seed),
                      0.2 * next_random(&seed));
            /* rotate the second sheet about y by a random angle */
            double th = next_random(&seed);
            for (int v = 36; v < 72; v++) {
                double *p = m.x + 3 * v, x = p[0], z = p[2];
                p[0] = cos(th) * x - sin(th) * z;
                p[2] = sin(th) * x + cos(th) * z;
            }
        }
        double amp = round < 4 ? 0.1 : 0.04;
        for (int k = 0; k < 3 * m.mesh.n; k++) {
            m.x[k] += amp * (2 * next_random(&seed) - 1);
            if (round % 4 == 3)
                m.x[k] = round_to(m.x[k]);
        }
        long plain = count(&m);
        if (round < 4)
            ck_assert_int_gt(plain, 0);
        double keep[3];
        memcpy(keep, m.x + 3 * 10, sizeof keep);
        m.x[30] += 3; /* triangles too large for the grid */
        m.x[31] -= 2;
        count(&m);
        m.x[30] += 100; /* and edges spanning more than 3 cells */
        m.x[32] += 50;
        count(&m);
        memcpy(m.x + 3 * 10, keep, sizeof keep);
    }
}
END_TEST

/* Work for meshes without triangles, bad indices, and non-finite positions. */
START_TEST(edge_cases)
{
    static test_mesh m;
    init_mesh(&m);
    m.mesh.n = 3;
    cloth__intersect *work;
    cloth_error err;
    ck_assert_int_eq(cloth__intersect_create(&m.mesh, &work, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__count_intersections(&m.mesh, m.x, work), 0);
    cloth__intersect_destroy(work);
    add_sheet(&m, 3, 3, 0.1, 0, 0, 0);
    ck_assert_int_eq(cloth__intersect_create(&m.mesh, &work, &err), CLOTH_OK);
    m.x[4] = NAN;
    ck_assert_int_eq(cloth__count_intersections(&m.mesh, m.x, work), -1);
    m.x[4] = INFINITY;
    ck_assert_int_eq(cloth__count_intersections(&m.mesh, m.x, work), -1);
    m.x[4] = 0;
    /* every vertex at one point: no crossing is proper, all pairs are coplanar */
    memset(m.x, 0, sizeof m.x);
    ck_assert_int_eq(cloth__count_intersections(&m.mesh, m.x, work), 0);
    cloth__intersect_destroy(work);
    m.tris[4] = m.mesh.n;
    ck_assert_int_eq(cloth__intersect_create(&m.mesh, &work, &err), CLOTH_EINVAL);
    ck_assert_ptr_null(work);
    ck_assert_ptr_nonnull(strstr(err.msg, "triangle 1"));
}
END_TEST

Suite *suite_intersect(void)
{
    Suite *s = suite_create("intersect");
    TCase *tc = tcase_create("orient");
    tcase_add_test(tc, orient_sign_convention);
    tcase_add_test(tc, orient_exact_on_planes);
    tcase_add_test(tc, orient_antisymmetric);
    suite_add_tcase(s, tc);
    tc = tcase_create("edge_triangle");
    tcase_add_test(tc, edge_triangle_cases);
    tcase_add_test(tc, edge_triangle_exact_degenerate);
    suite_add_tcase(s, tc);
    tc = tcase_create("count");
    tcase_add_test(tc, two_sheets);
    tcase_add_test(tc, single_sheets);
    tcase_add_test(tc, shared_vertex_pairs);
    tcase_add_loop_test(tc, random_matches_brute_force, 0, 4);
    tcase_add_test(tc, edge_cases);
    suite_add_tcase(s, tc);
    return s;
}
