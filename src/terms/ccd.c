/* Additive CCD of point-triangle and edge-edge pairs, and the public queries; why it is
 * conservative is in ccd.h. */
#include "terms/ccd.h"
#include "terms/distance.h"
#include "terms/vec3.h"
#include "cloth.h"

#include <math.h>
#include <string.h>

/* the distance between the closed primitives at the 12 coordinates x */
static double pair_distance(cloth__ccd_pair pair, const double x[12])
{
    const double *a = x, *b = x + 3, *c = x + 6, *d = x + 9;
    if (pair == CLOTH__CCD_POINT_TRIANGLE)
        return sqrt(cloth__point_triangle_distance2(
            a, b, c, d, cloth__point_triangle_type(a, b, c, d), NULL, NULL));
    return sqrt(cloth__edge_edge_distance2(a, b, c, d, cloth__edge_edge_type(a, b, c, d),
                                           NULL, NULL));
}

/* fmax(a, b) without the call (GCC calls libm's fmax): the same value for every a and b
 * (a NaN gives the other; of two equal values a, whose sign of zero the callers, which
 * take norms and absolute values, never see).  relative_motion and closing_speed_bound
 * run for most candidates of every collision pass (collide.c). */
static inline double max_of(double a, double b)
{
    if (a != a)
        return b;
    if (b != b)
        return a;
    return b > a ? b : a;
}

/* l_p of ccd.h: the point (vertex 0) against the triangle (1..3), or edge (0, 1) against
 * edge (2, 3) */
static double closing_speed_bound(cloth__ccd_pair pair, const double p[12])
{
    double n[4];
    for (int i = 0; i < 4; i++)
        n[i] = cloth__norm(p + 3 * i);
    if (pair == CLOTH__CCD_POINT_TRIANGLE)
        return n[0] + max_of(n[1], max_of(n[2], n[3]));
    return max_of(n[0], n[1]) + max_of(n[2], n[3]);
}

/* The motion in the frame of ccd.h: a = x0 - x0 of vertex 0, p = x1 - x0 less its mean;
 * *L the largest coordinate of a + t p over t in [0, 1].  0 when something is not
 * finite. */
static int relative_motion(const double x0[12], const double x1[12], double a[12],
                           double p[12], double *L)
{
    double mean[3] = {0, 0, 0};
    for (int k = 0; k < 12; k++) {
        a[k] = x0[k] - x0[k % 3];
        p[k] = x1[k] - x0[k];
        mean[k % 3] += p[k] / 4;
    }
    *L = 0;
    for (int k = 0; k < 12; k++) {
        p[k] -= mean[k % 3];
        *L = max_of(*L, max_of(fabs(a[k]), fabs(a[k] + p[k])));
    }
    return isfinite(*L);
}

/* The loop of ccd.h from t = 0: 1 and the time reached for a hit, 0 and 1 for none. */
static int advance(cloth__ccd_pair pair, const double a[12], const double p[12],
                   double dmin, double L, long max_steps, double *toi, long *evals)
{
    double slack = CLOTH__CCD_ROUNDING * L, lp = closing_speed_bound(pair, p), x[12];
    double gap = pair_distance(pair, a) - dmin, t = 0;
    *evals = 1;
    *toi = 0;
    if (!(gap > 4 * slack) || !isfinite(lp))
        return 1; /* within dmin already, as far as rounding lets us tell */
    double stop = fmax(CLOTH__CCD_STOP * gap, 4 * slack);
    *toi = 1;
    if (lp == 0)
        return 0; /* no relative motion */
    while (*evals <= max_steps) {
        /* gap - slack is a lower bound of the true gap; 0.9 of it is a safe step */
        double step = 0.9 * (gap - slack) / lp;
        if (t + step >= 1)
            return 0;
        t += step;
        for (int k = 0; k < 12; k++)
            x[k] = a[k] + t * p[k];
        gap = pair_distance(pair, x) - dmin;
        ++*evals;
        if (!(gap >= stop))
            break;
    }
    *toi = t;
    return 1;
}

int cloth__ccd_clears_at_once(cloth__ccd_pair pair, const double x0[12], const double x1[12],
                              double dmin, double dist0)
{
    double a[12], p[12], L;
    if (!(isfinite(dmin) && dmin >= 0))
        return 0;
    for (int k = 0; k < 12; k++)
        if (!isfinite(x0[k]) || !isfinite(x1[k]))
            return 0;
    if (!relative_motion(x0, x1, a, p, &L))
        return 0;
    /* advance's start, with dist0 for pair_distance(pair, a) */
    double slack = CLOTH__CCD_ROUNDING * L, lp = closing_speed_bound(pair, p);
    double gap = dist0 - dmin;
    if (!(gap > 4 * slack) || !isfinite(lp))
        return 0;
    if (lp == 0)
        return 1;
    return 0.9 * (gap - slack) / lp >= 1;
}

int cloth__ccd(cloth__ccd_pair pair, const double x0[12], const double x1[12], double dmin,
               double *toi, long *steps)
{
    return cloth__ccd_capped(pair, x0, x1, dmin, CLOTH__CCD_MAX_STEPS, toi, steps);
}

int cloth__ccd_capped(cloth__ccd_pair pair, const double x0[12], const double x1[12],
                      double dmin, long max_steps, double *toi, long *steps)
{
    double a[12], p[12], L, t = 0;
    long evals = 0;
    int hit = -1, valid = isfinite(dmin) && dmin >= 0;
    for (int k = 0; k < 12; k++)
        valid = valid && isfinite(x0[k]) && isfinite(x1[k]);
    if (valid && relative_motion(x0, x1, a, p, &L))
        hit = advance(pair, a, p, dmin, L, max_steps, &t, &evals);
    if (toi)
        *toi = t;
    if (steps)
        *steps = evals;
    return hit;
}

/* ------------------------------------------------------------ public queries */

static void gather(double x[12], const double *a, const double *b, const double *c,
                   const double *d)
{
    memcpy(x, a, 3 * sizeof *x);
    memcpy(x + 3, b, 3 * sizeof *x);
    memcpy(x + 6, c, 3 * sizeof *x);
    memcpy(x + 9, d, 3 * sizeof *x);
}

int cloth_ccd_point_triangle(const double p0[3], const double a0[3], const double b0[3],
                             const double c0[3], const double p1[3], const double a1[3],
                             const double b1[3], const double c1[3], double dmin,
                             double *toi)
{
    double x0[12], x1[12];
    gather(x0, p0, a0, b0, c0);
    gather(x1, p1, a1, b1, c1);
    return cloth__ccd(CLOTH__CCD_POINT_TRIANGLE, x0, x1, dmin, toi, NULL);
}

int cloth_ccd_edge_edge(const double a0[3], const double b0[3], const double c0[3],
                        const double d0[3], const double a1[3], const double b1[3],
                        const double c1[3], const double d1[3], double dmin, double *toi)
{
    double x0[12], x1[12];
    gather(x0, a0, b0, c0, d0);
    gather(x1, a1, b1, c1, d1);
    return cloth__ccd(CLOTH__CCD_EDGE_EDGE, x0, x1, dmin, toi, NULL);
}
