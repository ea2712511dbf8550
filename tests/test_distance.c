/* Point-triangle and edge-edge distances: the types on hand-built cases, every type's
 * value against its closed form, the classified distance against a brute-force minimum,
 * gradients and Hessians against central differences (near-degenerate cases included),
 * and the edge-edge mollifier. */
#include "terms/distance.h"
#include "terms/vec3.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>

static double next_random(unsigned long *state)
{
    *state = *state * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(*state >> 11) / (double)(1UL << 53);
}

static void random_points(unsigned long *seed, double lo, double hi, int n, double *x)
{
    for (int k = 0; k < n; k++)
        x[k] = lo + (hi - lo) * next_random(seed);
}

/* The pair's squared distance of a type, on 12 coordinates: pair 0 is point-triangle,
 * 1 edge-edge. */
static double distance2(int pair, int type, const double *x, double *grad, double *hess)
{
    if (pair == 0)
        return cloth__point_triangle_distance2(x, x + 3, x + 6, x + 9, (cloth__pt_type)type,
                                               grad, hess);
    return cloth__edge_edge_distance2(x, x + 3, x + 6, x + 9, (cloth__ee_type)type, grad,
                                      hess);
}

/* ------------------------------------------------------------- hand-built types */

/* The unit right triangle in z = 0, t0 at the origin, t1 on x, t2 on y; each point lies
 * in the region of the named feature, at the squared distance worked out by hand. */
START_TEST(point_triangle_types_by_hand)
{
    static const double t[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    static const struct {
        double p[3];
        cloth__pt_type type;
        double d2;
    } cases[] = {
        {{0.2, 0.3, 0.5}, CLOTH__P_T, 0.25},     /* above the face: z^2                 */
        {{0.2, 0.3, -0.4}, CLOTH__P_T, 0.16},    /* below it                            */
        {{0.5, -0.4, 0.3}, CLOTH__P_E0, 0.25},   /* beside y = 0: y^2 + z^2             */
        {{0.6, 0.6, 0.2}, CLOTH__P_E1, 0.06},    /* beside x + y = 1: 0.2^2/2 + 0.2^2   */
        {{-0.3, 0.5, 0.1}, CLOTH__P_E2, 0.10},   /* beside x = 0: x^2 + z^2             */
        {{-0.2, -0.3, 0.4}, CLOTH__P_T0, 0.29},  /* |p|^2                               */
        {{1.5, -0.2, 0.1}, CLOTH__P_T1, 0.30},   /* |p - t1|^2                          */
        {{-0.1, 1.4, -0.3}, CLOTH__P_T2, 0.26},  /* |p - t2|^2                          */
        {{0.25, 0.25, 0}, CLOTH__P_T, 0},        /* on the face                         */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const double *p = cases[k].p;
        cloth__pt_type type = cloth__point_triangle_type(p, t, t + 3, t + 6);
        ck_assert_int_eq(type, cases[k].type);
        ck_assert_double_eq_tol(cloth__point_triangle_distance2(p, t, t + 3, t + 6, type, NULL,
                                                                NULL),
                                cases[k].d2, 1e-15);
    }
}
END_TEST

/* Segments with their type and squared distance worked out by hand; parallel and
 * collinear ones take a PE or PP type of the same distance. */
START_TEST(edge_edge_types_by_hand)
{
    static const struct {
        double x[12];
        cloth__ee_type type, also; /* either is right where two give the distance */
        double d2;
    } cases[] = {
        /* crossing at right angles, 0.3 apart */
        {{0, 0, 0, 1, 0, 0, 0.5, -1, 0.3, 0.5, 1, 0.3}, CLOTH__EA_EB, CLOTH__EA_EB, 0.09},
        /* eb's line meets ea's beyond eb0: eb0 is nearest, above the inside of ea */
        {{0, 0, 0, 2, 0, 0, 1, 0.5, 0.3, 1, 2, 0.3}, CLOTH__EA_EB0, CLOTH__EA_EB0, 0.34},
        /* the same seen from the other edge */
        {{1, 0.5, 0.3, 1, 2, 0.3, 0, 0, 0, 2, 0, 0}, CLOTH__EA0_EB, CLOTH__EA0_EB, 0.34},
        /* both lines' closest points past the ends: ea1 and eb0 */
        {{0, 0, 0, 1, 0, 0, 2, 1, 0.5, 2, 3, 0.5}, CLOTH__EA1_EB0, CLOTH__EA1_EB0, 2.25},
        /* parallel, overlapping over x in [0.5, 1], 0.2 apart */
        {{0, 0, 0, 1, 0, 0, 0.5, 0.2, 0, 2, 0.2, 0}, CLOTH__EA_EB0, CLOTH__EA1_EB, 0.04},
        /* parallel, reversed, not overlapping: ea1 = (1,0,0) and eb1 = (2,0.2,0) */
        {{0, 0, 0, 1, 0, 0, 3, 0.2, 0, 2, 0.2, 0}, CLOTH__EA1_EB1, CLOTH__EA1_EB1, 1.04},
        /* collinear, a gap of 1 between ea1 and eb0 */
        {{0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0}, CLOTH__EA1_EB0, CLOTH__EA1_EB0, 1},
        /* collinear and overlapping: distance 0 */
        {{0, 0, 0, 2, 0, 0, 1, 0, 0, 3, 0, 0}, CLOTH__EA1_EB, CLOTH__EA_EB0, 0},
        /* a zero-length edge eb is a point: ea's inside, 0.5 away */
        {{0, 0, 0, 1, 0, 0, 0.4, 0.3, 0.4, 0.4, 0.3, 0.4}, CLOTH__EA_EB0, CLOTH__EA_EB1,
         0.25},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const double *x = cases[k].x;
        cloth__ee_type type = cloth__edge_edge_type(x, x + 3, x + 6, x + 9);
        ck_assert_msg(type == cases[k].type || type == cases[k].also, "case %d: type %d",
                      (int)k, (int)type);
        ck_assert_double_eq_tol(distance2(1, type, x, NULL, NULL), cases[k].d2, 1e-15);
    }
}
END_TEST

/* Across a region boundary the two types' values meet: a point 1e-7 inside or outside
 * the face over edge E0, or over the vertex t0 on either side of E0's region. */
START_TEST(types_switch_at_region_boundaries)
{
    static const double t[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    const double in[3] = {0.5, 1e-7, 0.3}, out[3] = {0.5, -1e-7, 0.3};
    ck_assert_int_eq(cloth__point_triangle_type(in, t, t + 3, t + 6), CLOTH__P_T);
    ck_assert_int_eq(cloth__point_triangle_type(out, t, t + 3, t + 6), CLOTH__P_E0);
    ck_assert_double_eq_tol(cloth__point_triangle_distance2(out, t, t + 3, t + 6,
                                                            CLOTH__P_E0, NULL, NULL),
                            0.09 + 1e-14, 1e-16);
    ck_assert_double_eq_tol(cloth__point_triangle_distance2(out, t, t + 3, t + 6,
                                                            CLOTH__P_T, NULL, NULL),
                            0.09, 1e-16);
    const double e0[3] = {1e-7, -0.3, 0.2}, v0[3] = {-1e-7, -0.3, 0.2};
    ck_assert_int_eq(cloth__point_triangle_type(e0, t, t + 3, t + 6), CLOTH__P_E0);
    ck_assert_int_eq(cloth__point_triangle_type(v0, t, t + 3, t + 6), CLOTH__P_T0);
    ck_assert_double_eq_tol(cloth__point_triangle_distance2(v0, t, t + 3, t + 6, CLOTH__P_T0,
                                                            NULL, NULL),
                            0.13 + 1e-14, 1e-16);
}
END_TEST

/* ------------------------------------------------------ values and closed forms */

/* Every type's value at arbitrary positions (not only where it is the nearest) is the
 * closed form of distance.h for its vertices: |p - q|^2, |(e0 - p) x (e1 - p)|^2 / |e|^2,
 * (w . n)^2 / |n|^2. */
static double closed_form(int kind, const double *v[4])
{
    double a[3], b[3], n[3], w[3];
    switch (kind) {
    case 0: /* PP: v0, v1 */
        cloth__sub(v[0], v[1], w);
        return cloth__dot(w, w);
    case 1: /* PE: point v0, line (v1, v2) */
        cloth__sub(v[1], v[0], a);
        cloth__sub(v[2], v[0], b);
        cloth__cross(a, b, n);
        cloth__sub(v[2], v[1], w);
        return cloth__dot(n, n) / cloth__dot(w, w);
    default: /* plane of (v1, v2, v3) and v0, or the lines (v0, v1) and (v2, v3) */
        if (kind == 2) {
            cloth__sub(v[2], v[1], a);
            cloth__sub(v[3], v[1], b);
            cloth__sub(v[0], v[1], w);
        } else {
            cloth__sub(v[1], v[0], a);
            cloth__sub(v[3], v[2], b);
            cloth__sub(v[0], v[2], w);
        }
        cloth__cross(a, b, n);
        return cloth__dot(w, n) * cloth__dot(w, n) / cloth__dot(n, n);
    }
}

START_TEST(every_type_is_its_closed_form)
{
    unsigned long seed = 3;
    for (int trial = 0; trial < 200; trial++) {
        double x[12];
        random_points(&seed, -1, 1, 12, x);
        const double *p = x, *t0 = x + 3, *t1 = x + 6, *t2 = x + 9;
        const double *pt[CLOTH__PT_TYPES][4] = {
            {p, t0}, {p, t1}, {p, t2}, {p, t0, t1}, {p, t1, t2}, {p, t2, t0}, {p, t0, t1, t2}};
        static const int pt_kind[CLOTH__PT_TYPES] = {0, 0, 0, 1, 1, 1, 2};
        for (int k = 0; k < CLOTH__PT_TYPES; k++)
            ck_assert_double_eq_tol(distance2(0, k, x, NULL, NULL),
                                    closed_form(pt_kind[k], pt[k]), 1e-13);
        const double *a0 = x, *a1 = x + 3, *b0 = x + 6, *b1 = x + 9;
        const double *ee[CLOTH__EE_TYPES][4] = {
            {a0, b0}, {a0, b1}, {a1, b0}, {a1, b1}, {b0, a0, a1}, {b1, a0, a1},
            {a0, b0, b1}, {a1, b0, b1}, {a0, a1, b0, b1}};
        static const int ee_kind[CLOTH__EE_TYPES] = {0, 0, 0, 0, 1, 1, 1, 1, 3};
        for (int k = 0; k < CLOTH__EE_TYPES; k++)
            ck_assert_double_eq_tol(distance2(1, k, x, NULL, NULL),
                                    closed_form(ee_kind[k], ee[k]), 1e-13);
    }
}
END_TEST

/* The brute-force squared distance between the closed primitives: |f(s, t)|^2 minimised
 * by nested ternary searches (the inner minimum of a jointly convex function is convex
 * in s).  Point-triangle: p - t0 - s (t1 - t0) - t (t2 - t0), s in [0, 1], t in
 * [0, 1 - s]; edge-edge: ea0 + s (ea1 - ea0) - eb0 - t (eb1 - eb0) on [0, 1]^2. */
static double residual2(int pair, const double *x, double s, double t)
{
    double r[3];
    for (int c = 0; c < 3; c++)
        r[c] = pair == 0 ? x[c] - x[3 + c] - s * (x[6 + c] - x[3 + c]) - t * (x[9 + c] - x[3 + c])
                         : x[c] + s * (x[3 + c] - x[c]) - x[6 + c] - t * (x[9 + c] - x[6 + c]);
    return cloth__dot(r, r);
}

static double inner_min(int pair, const double *x, double s)
{
    double lo = 0, hi = pair == 0 ? 1 - s : 1;
    for (int it = 0; it < 100; it++) {
        double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if (residual2(pair, x, s, m1) < residual2(pair, x, s, m2))
            hi = m2;
        else
            lo = m1;
    }
    return residual2(pair, x, s, (lo + hi) / 2);
}

static double brute_distance2(int pair, const double *x)
{
    double lo = 0, hi = 1;
    for (int it = 0; it < 100; it++) {
        double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if (inner_min(pair, x, m1) < inner_min(pair, x, m2))
            hi = m2;
        else
            lo = m1;
    }
    return inner_min(pair, x, (lo + hi) / 2);
}

/* The classified type's value is the distance between the closed primitives, on random
 * pairs that between them meet every type; _i is the pair. */
START_TEST(classified_distance_is_the_true_distance)
{
    int pair = _i, types = pair == 0 ? CLOTH__PT_TYPES : CLOTH__EE_TYPES, seen[9] = {0};
    unsigned long seed = 11 + (unsigned long)pair;
    for (int trial = 0; trial < 600; trial++) {
        double x[12];
        random_points(&seed, -1, 1, 12, x);
        if (pair == 0)
            for (int c = 0; c < 3; c++)
                x[c] *= 1.5; /* the point further out: every vertex and edge region */
        int type = pair == 0 ? (int)cloth__point_triangle_type(x, x + 3, x + 6, x + 9)
                             : (int)cloth__edge_edge_type(x, x + 3, x + 6, x + 9);
        seen[type]++;
        double d2 = distance2(pair, type, x, NULL, NULL), ref = brute_distance2(pair, x);
        ck_assert_msg(fabs(d2 - ref) <= 1e-12, "trial %d type %d: %.17g vs %.17g", trial,
                      type, d2, ref);
    }
    for (int k = 0; k < types; k++)
        ck_assert_msg(seen[k] > 0, "type %d never chosen", k);
}
END_TEST

/* x rotated about the axis (1, 2, 3) by 0.7 rad (Rodrigues) and moved by (0.3, -0.2,
 * 0.1), in place: distances stay, coordinates stop being round. */
static void turn(double x[3])
{
    const double n = sqrt(14.0), k[3] = {1 / n, 2 / n, 3 / n}, c = cos(0.7), s = sin(0.7);
    const double move[3] = {0.3, -0.2, 0.1};
    double kx[3], y[3];
    cloth__cross(k, x, kx);
    for (int i = 0; i < 3; i++)
        y[i] = x[i] * c + kx[i] * s + k[i] * cloth__dot(k, x) * (1 - c) + move[i];
    for (int i = 0; i < 3; i++)
        x[i] = y[i];
}

/* Nearly parallel edges whose lines lie in z = 0 and z = 0.05 and cross in projection,
 * turned out of the axes: the squared distance is 0.0025 to 1e-16 at angles down to
 * 1.4e-8 rad, where the plain (w . n)^2 / |n|^2 is off by about 1e-11 (the turned
 * coordinates' rounding moves the true value by less than 1e-17). */
START_TEST(nearly_parallel_edges_keep_their_digits)
{
    for (double dy = 1e-3; dy >= 1e-8; dy /= 10) {
        double x[12] = {0, 0, 0, 1, 0, 0, 0.2, -dy / 2, 0.05, 0.9, dy / 2, 0.05};
        for (int v = 0; v < 4; v++)
            turn(x + 3 * v);
        ck_assert_int_eq(cloth__edge_edge_type(x, x + 3, x + 6, x + 9), CLOTH__EA_EB);
        ck_assert_double_eq_tol(distance2(1, CLOTH__EA_EB, x, NULL, NULL), 0.0025, 1e-16);
    }
}
END_TEST

/* Two segments one segment's length apart on two lines at an angle of 1e-8 to 3e-8 rad
 * (sin^2 about 1e-16 to 1e-15, just past CLOTH__PARALLEL_SIN2) that cross in the gap
 * between them, 1e-12 m out of each other's plane, at the size and place of a 256^2
 * cloth's diagonal edges (0.0083 m long, 0.5 m from the origin).  The lines' closest
 * points (s = 1.5, t = -0.5) are then computed with errors of order 1 and may fall inside
 * both segments; the classified distance must stay the segments' (about the gap,
 * 0.0083 m; brute force), not the lines' (about 0).  5 of the 2000 pairs fell into that
 * trap before the classifier asked for a witness; the last pair is the one a 256^2
 * drape met (frame 7, issue 47), where the lines' distance read 1.4e-13 m and stopped
 * the step. */
START_TEST(collinear_segments_apart_are_apart)
{
    unsigned long seed = 47;
    const double len = 0.0083, dir[3] = {M_SQRT1_2, 0, M_SQRT1_2};
    const double perp[3] = {M_SQRT1_2, 0, -M_SQRT1_2}, up[3] = {0, 1, 0};
    const double cross_at[3] = {0.5, 0.47, 0.5};
    for (int trial = 0; trial <= 2000; trial++) {
        double x[12];
        if (trial < 2000) {
            double angle = 1e-8 * (1 + 2 * next_random(&seed));
            double phi = 2 * M_PI * next_random(&seed);
            double off = 1e-12 * (2 * next_random(&seed) - 1), da[3], db[3], n[3];
            for (int q = 0; q < 3; q++) {
                double side = cos(phi) * perp[q] + sin(phi) * up[q];
                da[q] = dir[q] - 0.5 * angle * side;
                db[q] = dir[q] + 0.5 * angle * side;
            }
            cloth__cross(da, db, n);
            double nn = sqrt(cloth__dot(n, n));
            for (int q = 0; q < 3; q++) {
                x[q] = cross_at[q] - 1.5 * len * da[q];
                x[3 + q] = cross_at[q] - 0.5 * len * da[q];
                x[6 + q] = cross_at[q] + 0.5 * len * db[q] + off * n[q] / nn;
                x[9 + q] = cross_at[q] + 1.5 * len * db[q] + off * n[q] / nn;
            }
        } else {
            const double met[12] = {0.49036145895607641, 0.47328146247572495,
                                    0.49036141407308637, 0.49625449802321531,
                                    0.47328146246795399, 0.49625445500259935,
                                    0.50214737188307113, 0.4732814624614981,
                                    0.50214733086117747, 0.50804008057301386,
                                    0.47328146245587022, 0.50804004166224637};
            for (int k = 0; k < 12; k++)
                x[k] = met[k];
        }
        cloth__ee_type type = cloth__edge_edge_type(x, x + 3, x + 6, x + 9);
        double d2 = distance2(1, (int)type, x, NULL, NULL), ref = brute_distance2(1, x);
        ck_assert_msg(ref > 0.5 * len * len, "trial %d: the segments are about %g apart",
                      trial, len);
        ck_assert_msg(fabs(d2 - ref) <= 1e-12 * ref, "trial %d type %d: %.17g vs %.17g", trial,
                      (int)type, d2, ref);
    }
}
END_TEST

/* ------------------------------------------------------------- derivatives */

typedef struct { int pair, type; } typed;

static double typed_value(const double *x, void *ctx)
{
    const typed *t = ctx;
    return distance2(t->pair, t->type, x, NULL, NULL);
}

static void typed_gradient(const double *x, void *ctx, double *g)
{
    const typed *t = ctx;
    distance2(t->pair, t->type, x, g, NULL);
}

/* The gradient and Hessian of the type at x against central differences. */
static void check_derivatives(int pair, int type, const double x[12], double h, double tol)
{
    typed t = {pair, type};
    double g[12], H[144], fd[144];
    distance2(pair, type, x, g, H);
    tu_fd_gradient(typed_value, &t, x, 12, h, fd);
    ck_assert_msg(tu_rel_error(g, fd, 12, 1e-3) <= tol, "pair %d type %d: gradient off by %g",
                  pair, type, tu_rel_error(g, fd, 12, 1e-3));
    tu_fd_jacobian(typed_gradient, &t, x, 12, h, fd);
    ck_assert_msg(tu_rel_error(H, fd, 144, 1e-3) <= tol, "pair %d type %d: Hessian off by %g",
                  pair, type, tu_rel_error(H, fd, 144, 1e-3));
}

/* Every type of both pairs at random positions; _i runs over the 16 types. */
START_TEST(derivatives_match_finite_differences)
{
    int pair = _i < CLOTH__PT_TYPES ? 0 : 1;
    int type = pair == 0 ? _i : _i - CLOTH__PT_TYPES;
    unsigned long seed = 100 + (unsigned long)_i;
    for (int trial = 0; trial < 5; trial++) {
        double x[12];
        random_points(&seed, -1, 1, 12, x);
        check_derivatives(pair, type, x, 1e-6, 1e-6);
    }
}
END_TEST

/* Near-degenerate places: nearly parallel edges (angles 1.4e-3 and 1.4e-5 rad), a point
 * 1e-7 off the face-edge and edge-vertex region boundaries (both types there), a point
 * almost on the face, a very flat triangle, a vertex nearly on the other edge's line. */
START_TEST(derivatives_near_degenerate)
{
    for (double dy = 1e-3; dy >= 1e-5; dy /= 100) {
        double x[12] = {0, 0, 0, 1, 0, 0, 0.2, -dy / 2, 0.05, 0.9, dy / 2, 0.05};
        check_derivatives(1, CLOTH__EA_EB, x, 1e-8, 1e-5);
        check_derivatives(1, CLOTH__EA_EB0, x, 1e-7, 1e-6);
    }
    double pt[][12] = {
        {0.5, 1e-7, 0.3, 0, 0, 0, 1, 0, 0, 0, 1, 0},
        {0.5, -1e-7, 0.3, 0, 0, 0, 1, 0, 0, 0, 1, 0},
        {-1e-7, -0.3, 0.2, 0, 0, 0, 1, 0, 0, 0, 1, 0},
        {0.3, 0.3, 1e-6, 0, 0, 0, 1, 0, 0, 0, 1, 0},
        {0.3, 0.2, 0.1, 0, 0, 0, 1, 0, 0, 0.5, 1e-3, 0},
    };
    for (int k = 0; k < 5; k++) {
        check_derivatives(0, CLOTH__P_T, pt[k], 1e-7, 1e-6);
        check_derivatives(0, CLOTH__P_E0, pt[k], 1e-7, 1e-6);
        check_derivatives(0, CLOTH__P_T0, pt[k], 1e-7, 1e-6);
    }
    double near_line[12] = {0.5, 1e-6, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 0};
    check_derivatives(1, CLOTH__EA0_EB, near_line, 1e-8, 1e-6);
}
END_TEST

/* A degenerate primitive under a type that needs it gives NaN, not a number. */
START_TEST(degenerate_type_is_nan)
{
    double x[12] = {0.3, 0.2, 1, 0, 0, 0, 1, 0, 0, 2, 0, 0}, g[12];
    ck_assert(isnan(distance2(0, CLOTH__P_T, x, g, NULL)) && isnan(g[0]));
    double y[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
    ck_assert(isnan(distance2(1, CLOTH__EA_EB, y, NULL, NULL)));
    double z[12] = {0, 0, 0, 1, 0, 0, 2, 2, 2, 2, 2, 2};
    ck_assert(isnan(distance2(1, CLOTH__EA0_EB, z, NULL, NULL)));
}
END_TEST

/* ------------------------------------------------------------- mollifier */

/* Unit edges (rest) so eps_x = 1e-3; eb turned by dy: c = |u x v|^2 = dy^2.  dy = 0.02:
 * c/eps_x = 0.4, m = 2 (0.4) - 0.4^2 = 0.64; dy = 0.05: c > eps_x, m = 1. */
START_TEST(mollifier_values)
{
    const double a0[3] = {0, 0, 0}, a1[3] = {1, 0, 0}, b0[3] = {0, 0, 1}, b1r[3] = {1, 0, 1};
    double eps = cloth__edge_edge_mollifier_eps(a0, a1, b0, b1r);
    ck_assert_double_eq_tol(eps, 1e-3, 1e-18);
    const double b1[3] = {1, 0.02, 1}, far[3] = {1, 0.05, 1};
    double g[12], H[144];
    ck_assert_double_eq_tol(cloth__edge_edge_mollifier(a0, a1, b0, b1, eps, NULL, NULL),
                            0.64, 1e-14);
    ck_assert_double_eq(cloth__edge_edge_mollifier(a0, a1, b0, far, eps, g, H), 1.0);
    for (int k = 0; k < 144; k++)
        ck_assert_double_eq(H[k], 0);
    for (int k = 0; k < 12; k++)
        ck_assert_double_eq(g[k], 0);
    /* parallel edges: c = 0, m = 0 */
    ck_assert_double_eq(cloth__edge_edge_mollifier(a0, a1, b0, b1r, eps, NULL, NULL), 0);
}
END_TEST

static double mollifier_value(const double *x, void *ctx)
{
    return cloth__edge_edge_mollifier(x, x + 3, x + 6, x + 9, *(double *)ctx, NULL, NULL);
}

static void mollifier_gradient(const double *x, void *ctx, double *g)
{
    cloth__edge_edge_mollifier(x, x + 3, x + 6, x + 9, *(double *)ctx, g, NULL);
}

/* The mollifier's gradient and Hessian against central differences where c < eps_x:
 * edges at small random angles in random places. */
START_TEST(mollifier_derivatives_match_finite_differences)
{
    unsigned long seed = 5;
    int checked = 0;
    for (int trial = 0; trial < 20; trial++) {
        double x[12], u[3], v[3], n[3];
        random_points(&seed, -1, 1, 6, x);
        random_points(&seed, -0.05, 0.05, 3, x + 6);
        for (int c = 0; c < 3; c++) {
            x[6 + c] += x[c] + 0.3;                   /* eb roughly parallel to ea */
            x[9 + c] = x[6 + c] + 0.8 * (x[3 + c] - x[c]) + 0.02 * (next_random(&seed) - 0.5);
        }
        cloth__sub(x + 3, x, u);
        cloth__sub(x + 9, x + 6, v);
        cloth__cross(u, v, n);
        double eps = 1e-3 * cloth__dot(u, u) * cloth__dot(v, v);
        if (cloth__dot(n, n) >= eps)
            continue;
        double g[12], H[144], fd[144];
        cloth__edge_edge_mollifier(x, x + 3, x + 6, x + 9, eps, g, H);
        tu_fd_gradient(mollifier_value, &eps, x, 12, 1e-7, fd);
        ck_assert_double_le(tu_rel_error(g, fd, 12, 1e-3), 1e-6);
        tu_fd_jacobian(mollifier_gradient, &eps, x, 12, 1e-7, fd);
        ck_assert_double_le(tu_rel_error(H, fd, 144, 1e-3), 1e-6);
        checked++;
    }
    ck_assert_int_ge(checked, 10);
}
END_TEST

Suite *suite_distance(void)
{
    Suite *s = suite_create("distance");
    TCase *tc = tcase_create("types");
    tcase_add_test(tc, point_triangle_types_by_hand);
    tcase_add_test(tc, edge_edge_types_by_hand);
    tcase_add_test(tc, types_switch_at_region_boundaries);
    tcase_add_test(tc, every_type_is_its_closed_form);
    tcase_add_loop_test(tc, classified_distance_is_the_true_distance, 0, 2);
    tcase_add_test(tc, nearly_parallel_edges_keep_their_digits);
    tcase_add_test(tc, collinear_segments_apart_are_apart);
    suite_add_tcase(s, tc);
    tc = tcase_create("derivatives");
    tcase_add_loop_test(tc, derivatives_match_finite_differences, 0,
                        CLOTH__PT_TYPES + CLOTH__EE_TYPES);
    tcase_add_test(tc, derivatives_near_degenerate);
    tcase_add_test(tc, degenerate_type_is_nan);
    tcase_add_test(tc, mollifier_values);
    tcase_add_test(tc, mollifier_derivatives_match_finite_differences);
    suite_add_tcase(s, tc);
    return s;
}
