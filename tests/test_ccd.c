/* Continuous collision detection (additive CCD): hits never missed, on hand-built
 * motions with their contact times worked out by hand (through a face, an edge, a
 * vertex; crossing, parallel and collinear edges; sliding along a face; touching exactly
 * at t = 1; no motion), near misses not reported, bad input refused, and random motions
 * checked against densely sampled distances. */
#include "terms/ccd.h"
#include "terms/distance.h"
#include "cloth.h"
#include "suites.h"

#include <math.h>
#include <string.h>

#define PT CLOTH__CCD_POINT_TRIANGLE
#define EE CLOTH__CCD_EDGE_EDGE

/* The unit right triangle in z = 0 (vertices 1..3 of a point-triangle pair). */
static const double tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};

/* A point-triangle motion: p from p0 to p1, the triangle from tri to tri + dt. */
static void pt_motion(const double p0[3], const double p1[3], const double dt[3],
                      double x0[12], double x1[12])
{
    memcpy(x0, p0, 3 * sizeof *x0);
    memcpy(x1, p1, 3 * sizeof *x1);
    for (int k = 0; k < 9; k++) {
        x0[3 + k] = tri[k];
        x1[3 + k] = tri[k] + (dt ? dt[k % 3] : 0);
    }
}

/* The distance between the closed primitives at time t of the motion. */
static double distance_at(int pair, const double x0[12], const double x1[12], double t)
{
    double x[12];
    for (int k = 0; k < 12; k++)
        x[k] = x0[k] + t * (x1[k] - x0[k]);
    const double *a = x, *b = x + 3, *c = x + 6, *d = x + 9;
    if (pair == PT)
        return sqrt(cloth__point_triangle_distance2(a, b, c, d,
                                                    cloth__point_triangle_type(a, b, c, d),
                                                    NULL, NULL));
    return sqrt(cloth__edge_edge_distance2(a, b, c, d, cloth__edge_edge_type(a, b, c, d),
                                           NULL, NULL));
}

/* Asserts a hit at a time up to t_true (the first time the distance is dmin, worked out
 * by hand) and no earlier than where the distance is within the stop band of dmin. */
static void expect_hit(int pair, const double x0[12], const double x1[12], double dmin,
                       double t_true, long *steps)
{
    double toi;
    ck_assert_int_eq(cloth__ccd(pair, x0, x1, dmin, &toi, steps), 1);
    ck_assert_double_le(toi, t_true);
    double g0 = distance_at(pair, x0, x1, 0) - dmin, gap = distance_at(pair, x0, x1, toi) - dmin;
    ck_assert_double_gt(gap, 0);
    ck_assert_double_le(gap, 1.001 * CLOTH__CCD_STOP * g0);
}

static void expect_miss(int pair, const double x0[12], const double x1[12], double dmin)
{
    double toi = -1;
    ck_assert_int_eq(cloth__ccd(pair, x0, x1, dmin, &toi, NULL), 0);
    ck_assert_double_eq(toi, 1);
}

/* ------------------------------------------------------------ point-triangle */

/* p falls at speed 2 from z = 1 through the face, an edge's midpoint and a vertex: the
 * distance is |1 - 2t|, dmin at t = (1 - dmin)/2.  Head on, each step divides the gap
 * by 10, so it takes about five distance evaluations.  A triangle rising at speed 1 meets
 * the point at t = 1/3. */
START_TEST(point_through_triangle_hits_in_time)
{
    static const double where[][2] = {{0.2, 0.2}, {0.5, 0}, {0, 0}, {1, 0}, {0, 0.5}};
    for (int k = 0; k < 5; k++) {
        const double p0[3] = {where[k][0], where[k][1], 1}, p1[3] = {where[k][0],
                                                                     where[k][1], -1};
        double x0[12], x1[12];
        long steps;
        pt_motion(p0, p1, NULL, x0, x1);
        expect_hit(PT, x0, x1, 0, 0.5, &steps);
        ck_assert_int_le(steps, 6);
        expect_hit(PT, x0, x1, 0.1, 0.45, NULL);
        const double up[3] = {0, 0, 1};
        pt_motion(p0, p1, up, x0, x1);
        expect_hit(PT, x0, x1, 0, 1.0 / 3, NULL);
    }
}
END_TEST

/* Over the face at height h = 0.01, p slides in x from 0.1 to 0.7: the distance stays h.
 * dmin = 0 and 0.0099 (a gap of 1e-4 all the way, never a fraction of itself) are
 * misses; dmin = h starts at the limit and h = 0 starts on the face: hits at 0.  The
 * number of steps is about l_p / (0.9 h), l_p = 0.6 (p's 0.45 and the triangle's 0.15
 * after the mean motion is taken out). */
START_TEST(vertex_sliding_along_face)
{
    const double p0[3] = {0.1, 0.2, 0.01}, p1[3] = {0.7, 0.2, 0.01};
    double x0[12], x1[12], toi;
    long steps;
    pt_motion(p0, p1, NULL, x0, x1);
    ck_assert_int_eq(cloth__ccd(PT, x0, x1, 0, &toi, &steps), 0);
    ck_assert_int_le(steps, (long)ceil(0.6 / (0.9 * 0.01)) + 1);
    expect_miss(PT, x0, x1, 0.0099);
    ck_assert_int_eq(cloth__ccd(PT, x0, x1, 0.01, &toi, NULL), 1);
    ck_assert_double_eq(toi, 0);
    const double q0[3] = {0.1, 0.2, 0}, q1[3] = {0.7, 0.2, 0};
    pt_motion(q0, q1, NULL, x0, x1);
    ck_assert_int_eq(cloth__ccd(PT, x0, x1, 0, &toi, NULL), 1);
    ck_assert_double_eq(toi, 0);
    /* sliding in from beyond edge E2 (x = 0) at the same height: a miss */
    const double r0[3] = {-0.5, 0.2, 0.01}, r1[3] = {0.5, 0.2, 0.01};
    pt_motion(r0, r1, NULL, x0, x1);
    expect_miss(PT, x0, x1, 0);
    /* sinking to the face while sliding: it touches at t = 1 exactly */
    const double s1[3] = {0.7, 0.2, 0};
    pt_motion(p0, s1, NULL, x0, x1);
    expect_hit(PT, x0, x1, 0, 1, NULL);
}
END_TEST

/* Motions whose distance reaches dmin exactly at t = 1: onto the face, onto an edge,
 * onto a vertex from the side, and down to dmin = 0.25 over the face. */
START_TEST(point_touching_at_t1_is_a_hit)
{
    const double a0[3] = {0.2, 0.2, 1}, a1[3] = {0.2, 0.2, 0};
    const double b0[3] = {0.5, -1, 0.5}, b1[3] = {0.5, 0, 0};
    const double c0[3] = {-1, -1, 0}, c1[3] = {0, 0, 0};
    const double d1[3] = {0.2, 0.2, 0.25};
    double x0[12], x1[12];
    pt_motion(a0, a1, NULL, x0, x1);
    expect_hit(PT, x0, x1, 0, 1, NULL);
    pt_motion(b0, b1, NULL, x0, x1);
    expect_hit(PT, x0, x1, 0, 1, NULL);
    pt_motion(c0, c1, NULL, x0, x1);
    expect_hit(PT, x0, x1, 0, 1, NULL);
    pt_motion(a0, d1, NULL, x0, x1);
    expect_hit(PT, x0, x1, 0.25, 1, NULL);
}
END_TEST

/* p falls past the triangle's hypotenuse at (0.7, 0.7): its nearest approach is the
 * distance to the line x + y = 1 in the plane, 0.4 / sqrt 2 = 0.283, at t = 0.5.  Against
 * dmin = 0.25 the gap never falls below 0.033, far above the stop band (1e-3 of the
 * initial 0.79): a miss.  Further out, (1.2, 1.2), it passes 0.99 away. */
START_TEST(point_near_miss_is_a_miss)
{
    const double a0[3] = {0.7, 0.7, 1}, a1[3] = {0.7, 0.7, -1};
    const double b0[3] = {1.2, 1.2, 1}, b1[3] = {1.2, 1.2, -1};
    double x0[12], x1[12];
    pt_motion(a0, a1, NULL, x0, x1);
    expect_miss(PT, x0, x1, 0.25);
    expect_hit(PT, x0, x1, 0.3, 0.45, NULL); /* 0.3 is reached at z = 0.1 */
    pt_motion(b0, b1, NULL, x0, x1);
    expect_miss(PT, x0, x1, 0.5);
}
END_TEST

/* ----------------------------------------------------------------- edge-edge */

/* Edges crossing at right angles, ea falling from z = 1 to -1: contact at t = 1/2, dmin
 * = 0.1 at t = 0.45; crossing at an endpoint (ea over eb0) the same. */
START_TEST(edges_crossing_hit_in_time)
{
    double x0[12] = {-1, 0, 1, 1, 0, 1, 0, -1, 0, 0, 1, 0};
    double x1[12] = {-1, 0, -1, 1, 0, -1, 0, -1, 0, 0, 1, 0};
    expect_hit(EE, x0, x1, 0, 0.5, NULL);
    expect_hit(EE, x0, x1, 0.1, 0.45, NULL);
    x0[1] = x0[4] = x1[1] = x1[4] = -1; /* ea now passes through eb0 */
    expect_hit(EE, x0, x1, 0, 0.5, NULL);
    /* touching at t = 1: ea stops at z = 0 */
    x1[2] = x1[5] = 0;
    expect_hit(EE, x0, x1, 0, 1, NULL);
}
END_TEST

/* Parallel edges: ea = [0, 1] on x at z = 1 falls to z = -1 onto eb = [0.5, 1.5] at
 * z = 0: they overlap and meet at t = 1/2 (dmin 0.2: t = 0.4).  Moved 0.5 aside in y,
 * the nearest approach is 0.5 at t = 1/2: dmin 0.1 is a miss, dmin 0.5 a hit by t = 1/2. */
START_TEST(parallel_edges)
{
    double x0[12] = {0, 0, 1, 1, 0, 1, 0.5, 0, 0, 1.5, 0, 0};
    double x1[12] = {0, 0, -1, 1, 0, -1, 0.5, 0, 0, 1.5, 0, 0};
    expect_hit(EE, x0, x1, 0, 0.5, NULL);
    expect_hit(EE, x0, x1, 0.2, 0.4, NULL);
    x0[7] = x0[10] = x1[7] = x1[10] = 0.5;
    expect_miss(EE, x0, x1, 0.1);
    expect_hit(EE, x0, x1, 0.5, 0.5, NULL);
}
END_TEST

/* Collinear edges on the x axis: ea = [0, 1] moving +2 towards eb = [2, 3] closes the
 * gap of 1 at t = 1/2; moving -2 it never does; both moving +2 is no relative motion
 * (one distance evaluation); moving +4 it runs through eb, touching at t = 1/4. */
START_TEST(collinear_edges)
{
    double x0[12] = {0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0}, x1[12];
    memcpy(x1, x0, sizeof x1);
    x1[0] = 2, x1[3] = 3;
    expect_hit(EE, x0, x1, 0, 0.5, NULL);
    x1[0] = -2, x1[3] = -1;
    expect_miss(EE, x0, x1, 0);
    x1[0] = 2, x1[3] = 3, x1[6] = 4, x1[9] = 5;
    long steps;
    double toi;
    ck_assert_int_eq(cloth__ccd(EE, x0, x1, 0, &toi, &steps), 0);
    ck_assert_int_eq(steps, 1);
    memcpy(x1, x0, sizeof x1);
    x1[0] = 4, x1[3] = 5;
    expect_hit(EE, x0, x1, 0, 0.25, NULL);
}
END_TEST

/* ea along x at z = 0.05 sweeps in y from -2 to 2 over eb on the y axis: the distance
 * falls from sqrt(1 + 0.05^2) to 0.05 and stays there while ea is over eb.  Against
 * dmin = 0.04 the gap stays 0.01, ten times the stop band: a miss.  dmin = 0.05 is
 * reached at t = 1/4 (ea over eb0). */
START_TEST(edge_near_miss_is_a_miss)
{
    double x0[12] = {-1, -2, 0.05, 1, -2, 0.05, 0, -1, 0, 0, 1, 0};
    double x1[12] = {-1, 2, 0.05, 1, 2, 0.05, 0, -1, 0, 0, 1, 0};
    expect_miss(EE, x0, x1, 0.04);
    expect_hit(EE, x0, x1, 0.05, 0.25, NULL);
}
END_TEST

/* ------------------------------------------------------------ both, and input */

/* No motion at all, or all four vertices moving alike: a miss above dmin, a hit at 0 at
 * or within it (d = 0.5 here), even when moving apart. */
START_TEST(zero_motion)
{
    const double p[3] = {0.2, 0.2, 0.5};
    double x0[12], x1[12], toi;
    long steps;
    pt_motion(p, p, NULL, x0, x1);
    ck_assert_int_eq(cloth__ccd(PT, x0, x1, 0.1, &toi, &steps), 0);
    ck_assert_double_eq(toi, 1);
    ck_assert_int_eq(steps, 1);
    ck_assert_int_eq(cloth__ccd(PT, x0, x1, 0.5, &toi, NULL), 1);
    ck_assert_double_eq(toi, 0);
    ck_assert_int_eq(cloth__ccd(PT, x0, x1, 0.6, &toi, NULL), 1);
    ck_assert_double_eq(toi, 0);
    const double shift[3] = {3, -2, 1};
    const double q[3] = {3.2, -1.8, 1.5};
    pt_motion(p, q, shift, x0, x1);
    expect_miss(PT, x0, x1, 0.1);
    const double away[3] = {0.2, 0.2, 3};
    pt_motion(p, away, NULL, x0, x1);
    ck_assert_int_eq(cloth__ccd(PT, x0, x1, 0.6, &toi, NULL), 1);
    ck_assert_double_eq(toi, 0);
    double e0[12] = {0, 0, 0, 1, 0, 0, 0.5, -1, 0.5, 0.5, 1, 0.5};
    expect_miss(EE, e0, e0, 0.4);
    ck_assert_int_eq(cloth__ccd(EE, e0, e0, 0.5, &toi, NULL), 1);
}
END_TEST

/* dmin negative or not finite, a coordinate not finite: -1 and toi = 0; toi may be
 * NULL. */
START_TEST(bad_input_is_refused)
{
    const double p0[3] = {0.2, 0.2, 1}, p1[3] = {0.2, 0.2, -1};
    double x0[12], x1[12], toi = 5;
    pt_motion(p0, p1, NULL, x0, x1);
    ck_assert_int_eq(cloth__ccd(PT, x0, x1, -1e-9, &toi, NULL), -1);
    ck_assert_double_eq(toi, 0);
    ck_assert_int_eq(cloth__ccd(PT, x0, x1, NAN, NULL, NULL), -1);
    ck_assert_int_eq(cloth__ccd(EE, x0, x1, INFINITY, NULL, NULL), -1);
    x1[7] = NAN;
    ck_assert_int_eq(cloth__ccd(EE, x0, x1, 0, NULL, NULL), -1);
    x1[7] = 0;
    x0[2] = -INFINITY;
    ck_assert_int_eq(cloth__ccd(PT, x0, x1, 0, NULL, NULL), -1);
    x0[2] = 1e300; /* finite, but its squares overflow: a hit at 0, never a miss */
    ck_assert_int_eq(cloth__ccd(PT, x0, x1, 0, &toi, NULL), 1);
    ck_assert_double_eq(toi, 0);
}
END_TEST

/* The public queries pass their arguments in the order of cloth.h. */
START_TEST(public_queries_are_the_private_one)
{
    const double p0[3] = {0.2, 0.2, 1}, p1[3] = {0.2, 0.2, -1}, *t = tri;
    double toi, ref;
    ck_assert_int_eq(cloth_ccd_point_triangle(p0, t, t + 3, t + 6, p1, t, t + 3, t + 6, 0.1,
                                              &toi),
                     1);
    double x0[12], x1[12];
    pt_motion(p0, p1, NULL, x0, x1);
    cloth__ccd(PT, x0, x1, 0.1, &ref, NULL);
    ck_assert_double_eq(toi, ref);
    const double a0[3] = {-1, 0, 1}, b0[3] = {1, 0, 1}, a1[3] = {-1, 0, -1}, b1[3] = {1, 0, -1};
    const double c[3] = {0, -1, 0}, d[3] = {0, 1, 0};
    ck_assert_int_eq(cloth_ccd_edge_edge(a0, b0, c, d, a1, b1, c, d, 0, &toi), 1);
    ck_assert_double_le(toi, 0.5);
    ck_assert_double_gt(toi, 0.49);
    ck_assert_int_eq(cloth_ccd_edge_edge(a0, b0, c, d, a0, b0, c, d, 0, NULL), 0);
    ck_assert_int_eq(cloth_ccd_point_triangle(p0, t, t + 3, t + 6, p1, t, t + 3, t + 6, -1,
                                              NULL),
                     -1);
}
END_TEST

/* ------------------------------------------------------------- random motions */

static double next_random(unsigned long *state)
{
    *state = *state * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(*state >> 11) / (double)(1UL << 53);
}

static double uniform(unsigned long *seed, double lo, double hi)
{
    return lo + (hi - lo) * next_random(seed);
}

/* A random motion aimed so that about half come within dmin: one primitive's point
 * (p, or a point of ea) heads for a point near the other's (a point of the triangle, of
 * eb) and would reach it at a time in [0.2, 1.5]; the other primitive drifts a little. */
static void random_motion(int pair, unsigned long *seed, double x0[12], double x1[12])
{
    for (int k = 0; k < 12; k++) {
        x0[k] = uniform(seed, -1, 1);
        x1[k] = x0[k] + uniform(seed, -0.3, 0.3);
    }
    double target[3], from[3], s = uniform(seed, 0, 1), u = uniform(seed, 0, 1);
    double v = uniform(seed, 0, 1 - u), when = uniform(seed, 0.2, 1.5);
    for (int c = 0; c < 3; c++) {
        if (pair == PT) {
            target[c] = x1[3 + c] + u * (x1[6 + c] - x1[3 + c]) + v * (x1[9 + c] - x1[3 + c]);
            from[c] = x0[c];
        } else {
            target[c] = x1[6 + c] + s * (x1[9 + c] - x1[6 + c]);
            from[c] = x0[c] + u * (x0[3 + c] - x0[c]);
        }
        target[c] += uniform(seed, -0.1, 0.1);
    }
    int moving = pair == PT ? 1 : 2; /* p, or both ends of ea */
    for (int i = 0; i < moving; i++)
        for (int c = 0; c < 3; c++)
            x1[3 * i + c] = x0[3 * i + c] + (target[c] - from[c]) / when;
}

/* A bound on how fast the distance can fall: the fastest vertex of each primitive,
 * without taking out the mean motion (looser than the method's l_p, and independent). */
static double speed_bound(int pair, const double x0[12], const double x1[12])
{
    double v[4];
    for (int i = 0; i < 4; i++) {
        double d[3] = {x1[3 * i] - x0[3 * i], x1[3 * i + 1] - x0[3 * i + 1],
                       x1[3 * i + 2] - x0[3 * i + 2]};
        v[i] = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    }
    if (pair == PT)
        return v[0] + fmax(v[1], fmax(v[2], v[3]));
    return fmax(v[0], v[1]) + fmax(v[2], v[3]);
}

enum { SAMPLES = 2000, MOTIONS = 1500 };

/* Many random motions, the distance sampled at SAMPLES + 1 times.  Where a sample is at or
 * below dmin, the CCD must report a hit no later than that sample, and no later than
 * the crossing that bisection finds before it.  Every reported toi must have the
 * distance above dmin there (and at every sample before it), within the stop band.  A
 * miss is required where the samples and the speed bound l prove the distance stays
 * above dmin + the stop band: between samples t_k and t_k+1 it is at least
 * (d_k + d_k+1 - l dt) / 2.  _i is the pair. */
START_TEST(random_motions_never_miss)
{
    int pair = _i, hits = 0, misses = 0, proven_clear = 0;
    unsigned long seed = 2024 + (unsigned long)pair;
    static double d[SAMPLES + 1];
    for (int m = 0; m < MOTIONS; m++) {
        double x0[12], x1[12], toi;
        random_motion(pair, &seed, x0, x1);
        for (int k = 0; k <= SAMPLES; k++)
            d[k] = distance_at(pair, x0, x1, (double)k / SAMPLES);
        double dmin = m % 4 == 0 ? 0 : uniform(&seed, 0, 0.1);
        if (d[0] <= dmin)
            continue; /* starts within dmin: a hit at 0, tested elsewhere */
        long steps;
        int hit = cloth__ccd(pair, x0, x1, dmin, &toi, &steps);
        ck_assert_int_ge(hit, 0);
        int first = -1;
        double lower = INFINITY, l = speed_bound(pair, x0, x1), g0 = d[0] - dmin;
        for (int k = 0; k <= SAMPLES; k++) {
            if (first < 0 && d[k] <= dmin)
                first = k;
            if (k < SAMPLES)
                lower = fmin(lower, (d[k] + d[k + 1] - l / SAMPLES) / 2);
        }
        if (first >= 0) {
            ck_assert_msg(hit == 1, "motion %d: missed (sample %d at %.17g <= %.17g)", m,
                          first, d[first], dmin);
            /* bisect the crossing between the samples first - 1 and first */
            double lo = (double)(first - 1) / SAMPLES, hi = (double)first / SAMPLES;
            for (int it = 0; it < 60; it++) {
                double mid = (lo + hi) / 2;
                if (distance_at(pair, x0, x1, mid) <= dmin)
                    hi = mid;
                else
                    lo = mid;
            }
            ck_assert_msg(toi <= hi, "motion %d: toi %.17g after the crossing %.17g", m, toi,
                          hi);
        }
        if (hit) {
            hits++;
            double gap = distance_at(pair, x0, x1, toi) - dmin;
            ck_assert_msg(gap > 0, "motion %d: toi %.17g is not clear", m, toi);
            if (steps <= CLOTH__CCD_MAX_STEPS)
                ck_assert_msg(gap <= 1.001 * CLOTH__CCD_STOP * g0 + 1e-12,
                              "motion %d: toi %.17g too early (gap %g)", m, toi, gap);
            int below = 0; /* counted: a ck_assert per sample would log each one */
            for (int k = 0; k <= SAMPLES && (double)k / SAMPLES < toi; k++)
                below += d[k] <= dmin;
            ck_assert_int_eq(below, 0);
        } else {
            misses++;
            ck_assert_double_eq(toi, 1);
        }
        if (lower > dmin + 1.001 * CLOTH__CCD_STOP * g0) {
            proven_clear++;
            ck_assert_msg(!hit, "motion %d: a hit where the distance stays %g above dmin",
                          m, lower - dmin);
        }
    }
    /* both outcomes well represented, and most misses proven so */
    ck_assert_int_ge(hits, MOTIONS / 5);
    ck_assert_int_ge(misses, MOTIONS / 5);
    ck_assert_int_ge(proven_clear, misses / 2);
}
END_TEST

Suite *suite_ccd(void)
{
    Suite *s = suite_create("ccd");
    TCase *tc = tcase_create("point_triangle");
    tcase_add_test(tc, point_through_triangle_hits_in_time);
    tcase_add_test(tc, vertex_sliding_along_face);
    tcase_add_test(tc, point_touching_at_t1_is_a_hit);
    tcase_add_test(tc, point_near_miss_is_a_miss);
    suite_add_tcase(s, tc);
    tc = tcase_create("edge_edge");
    tcase_add_test(tc, edges_crossing_hit_in_time);
    tcase_add_test(tc, parallel_edges);
    tcase_add_test(tc, collinear_edges);
    tcase_add_test(tc, edge_near_miss_is_a_miss);
    suite_add_tcase(s, tc);
    tc = tcase_create("both");
    tcase_add_test(tc, zero_motion);
    tcase_add_test(tc, bad_input_is_refused);
    tcase_add_test(tc, public_queries_are_the_private_one);
    tcase_add_loop_test(tc, random_motions_never_miss, PT, EE + 1);
    suite_add_tcase(s, tc);
    return s;
}
