/* The broad phase finds exactly the point-triangle and edge-edge pairs whose grown boxes
 * overlap (an all-pairs loop is the reference), with and without motion, and so every
 * pair closer than r. */
#include "terms/broad_phase.h"
#include "terms/distance.h"
#include "suites.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double next_random(unsigned long *state)
{
    *state = *state * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(*state >> 11) / (double)(1UL << 53);
}

static int compare_pairs(const void *a, const void *b)
{
    const int *p = a, *q = b;
    return p[0] != q[0] ? (p[0] > q[0]) - (p[0] < q[0]) : (p[1] > q[1]) - (p[1] < q[1]);
}

/* A crumpled 9 x 9 sheet: a grid of 0.1 m folded in z by random heights, with a few
 * vertices thrown far (long triangles and edges, the big lists). */
static cloth_mesh *crumpled(unsigned long seed, double **x)
{
    cloth_scene s;
    cloth_error err;
    ck_assert(cloth_scene_parse("[mesh]\nnx = 9\nny = 9\nspacing = 0.1\npins = none\n",
                                "bp.ini", &s, &err) == CLOTH_OK);
    cloth_mesh *m;
    ck_assert_msg(cloth_mesh_create(&s, &m, &err) == CLOTH_OK, "%s", err.msg);
    *x = malloc(3 * (size_t)m->n * sizeof **x);
    for (int i = 0; i < m->n; i++) {
        for (int c = 0; c < 3; c++)
            (*x)[3 * i + c] = m->x0[3 * i + c] + 0.03 * (next_random(&seed) - 0.5);
        (*x)[3 * i + 2] += 0.15 * sin(7.0 * m->x0[3 * i]) * cos(5.0 * m->x0[3 * i + 1]);
        if (i % 37 == 5)
            (*x)[3 * i + 1] += 1.5;
    }
    return m;
}

static void box(const double *x, const double *dx, const int *v, int k, double half,
                double b[6])
{
    for (int c = 0; c < 3; c++) {
        b[c] = INFINITY;
        b[3 + c] = -INFINITY;
    }
    for (int i = 0; i < k; i++)
        for (int c = 0; c < 3; c++) {
            double a = x[3 * v[i] + c], e = dx ? a + dx[3 * v[i] + c] : a;
            b[c] = fmin(b[c], fmin(a, e)) ;
            b[3 + c] = fmax(b[3 + c], fmax(a, e));
        }
    for (int c = 0; c < 3; c++) {
        b[c] -= half;
        b[3 + c] += half;
    }
}

static int boxes_meet(const double *a, const double *b)
{
    for (int c = 0; c < 3; c++)
        if (a[c] > b[3 + c] || b[c] > a[3 + c])
            return 0;
    return 1;
}

static int shares(const int *a, int ka, const int *b, int kb)
{
    for (int i = 0; i < ka; i++)
        for (int j = 0; j < kb; j++)
            if (a[i] == b[j])
                return 1;
    return 0;
}

static int all_fixed(const unsigned char *f, const int *a, int ka, const int *b, int kb)
{
    for (int i = 0; i < ka; i++)
        if (!f[a[i]])
            return 0;
    for (int j = 0; j < kb; j++)
        if (!f[b[j]])
            return 0;
    return 1;
}

/* _i: seed; even runs static, odd runs with a motion (some of it long); radii from 0 to
 * several cells; vertices 0..8 fixed. */
START_TEST(matches_all_pairs)
{
    static const double radii[] = {0, 0.01, 0.05, 0.3};
    double *x;
    cloth_mesh *m = crumpled(99 + (unsigned long)_i, &x);
    unsigned long seed = 7 + (unsigned long)_i;
    double *dx = NULL;
    if (_i % 2) {
        dx = malloc(3 * (size_t)m->n * sizeof *dx);
        for (int k = 0; k < 3 * m->n; k++)
            dx[k] = 0.05 * (next_random(&seed) - 0.5) * (k % 101 == 0 ? 40 : 1);
    }
    unsigned char *fixed = calloc((size_t)m->n, 1);
    for (int i = 0; i < 9; i++)
        fixed[i] = 1;
    int cap = 200000;
    cloth__broad_phase *bp;
    cloth_error err;
    ck_assert(cloth__broad_phase_create(m, cap, &bp, &err) == CLOTH_OK);
    const int *edges;
    int ne = cloth__broad_phase_edges(bp, &edges);
    ck_assert_int_eq(ne, 8 * 9 * 2 + 8 * 8); /* rows, columns and one diagonal a cell */
    int *want = malloc(2 * (size_t)cap * sizeof *want), *got = malloc(2 * (size_t)cap * sizeof *got);
    for (size_t ri = 0; ri < sizeof radii / sizeof radii[0]; ri++) {
        double r = radii[ri], half = r / 2;
        cloth__broad_pairs out;
        cloth__broad_phase_query(bp, x, dx, r, fixed, &out);
        ck_assert(!out.overflow);
        /* point-triangle */
        int n = 0;
        for (int v = 0; v < m->n; v++)
            for (int t = 0; t < m->n_tris; t++) {
                double a[6], b[6];
                const int *tv = m->tris + 3 * t;
                box(x, dx, &v, 1, half, a);
                box(x, dx, tv, 3, half, b);
                if (boxes_meet(a, b) && !shares(&v, 1, tv, 3) && !all_fixed(fixed, &v, 1, tv, 3)) {
                    want[2 * n] = v;
                    want[2 * n + 1] = t;
                    n++;
                }
            }
        ck_assert_int_eq(out.n_pt, n);
        memcpy(got, out.pt, 2 * (size_t)n * sizeof *got);
        qsort(got, (size_t)n, 2 * sizeof *got, compare_pairs);
        ck_assert_msg(memcmp(got, want, 2 * (size_t)n * sizeof *got) == 0, "r %g: PT differ", r);
        /* edge-edge */
        n = 0;
        for (int e = 0; e < ne; e++)
            for (int f = e + 1; f < ne; f++) {
                double a[6], b[6];
                box(x, dx, edges + 2 * e, 2, half, a);
                box(x, dx, edges + 2 * f, 2, half, b);
                if (boxes_meet(a, b) && !shares(edges + 2 * e, 2, edges + 2 * f, 2) &&
                    !all_fixed(fixed, edges + 2 * e, 2, edges + 2 * f, 2)) {
                    want[2 * n] = e;
                    want[2 * n + 1] = f;
                    n++;
                }
            }
        ck_assert_int_eq(out.n_ee, n);
        memcpy(got, out.ee, 2 * (size_t)n * sizeof *got);
        qsort(got, (size_t)n, 2 * sizeof *got, compare_pairs);
        ck_assert_msg(memcmp(got, want, 2 * (size_t)n * sizeof *got) == 0, "r %g: EE differ", r);
    }
    free(want);
    free(got);
    free(fixed);
    free(dx);
    free(x);
    cloth__broad_phase_destroy(bp);
    cloth_mesh_destroy(m);
}
END_TEST

/* Every point-triangle pair whose true distance is below r (distance.h) is returned:
 * the purpose of the boxes. */
START_TEST(every_close_pair_is_found)
{
    double *x;
    cloth_mesh *m = crumpled(5, &x);
    cloth__broad_phase *bp;
    cloth_error err;
    ck_assert(cloth__broad_phase_create(m, 100000, &bp, &err) == CLOTH_OK);
    double r = 0.04;
    cloth__broad_pairs out;
    cloth__broad_phase_query(bp, x, NULL, r, NULL, &out);
    char *seen = calloc((size_t)m->n * (size_t)m->n_tris, 1);
    for (int k = 0; k < out.n_pt; k++)
        seen[(size_t)out.pt[2 * k] * (size_t)m->n_tris + (size_t)out.pt[2 * k + 1]] = 1;
    int close = 0;
    for (int v = 0; v < m->n; v++)
        for (int t = 0; t < m->n_tris; t++) {
            const int *tv = m->tris + 3 * t;
            if (shares(&v, 1, tv, 3))
                continue;
            const double *p = x + 3 * v, *a = x + 3 * tv[0], *b = x + 3 * tv[1], *c = x + 3 * tv[2];
            double d2 = cloth__point_triangle_distance2(p, a, b, c,
                                                        cloth__point_triangle_type(p, a, b, c),
                                                        NULL, NULL);
            if (d2 < r * r) {
                close++;
                ck_assert_msg(seen[(size_t)v * (size_t)m->n_tris + (size_t)t],
                              "vertex %d, triangle %d at %g < r not found", v, t, sqrt(d2));
            }
        }
    ck_assert_int_gt(close, 0);
    free(seen);
    free(x);
    cloth__broad_phase_destroy(bp);
    cloth_mesh_destroy(m);
}
END_TEST

/* More pairs than the capacity: the flag is set and no more than it are stored. */
START_TEST(overflow_is_reported)
{
    double *x;
    cloth_mesh *m = crumpled(3, &x);
    cloth__broad_phase *bp;
    cloth_error err;
    ck_assert(cloth__broad_phase_create(m, 10, &bp, &err) == CLOTH_OK);
    cloth__broad_pairs out;
    cloth__broad_phase_query(bp, x, NULL, 0.3, NULL, &out);
    ck_assert(out.overflow);
    ck_assert_int_eq(out.n_pt, 10);
    ck_assert_int_eq(out.n_ee, 10);
    free(x);
    cloth__broad_phase_destroy(bp);
    cloth_mesh_destroy(m);
}
END_TEST

Suite *suite_broad_phase(void)
{
    Suite *s = suite_create("broad_phase");
    TCase *tc = tcase_create("broad_phase");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, matches_all_pairs, 0, 4);
    tcase_add_test(tc, every_close_pair_is_found);
    tcase_add_test(tc, overflow_is_reported);
    suite_add_tcase(s, tc);
    return s;
}
