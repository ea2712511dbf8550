/* Closest points of a triangle to a point and of two segments (closest.h). */
#include "terms/closest.h"
#include "terms/vec3.h"

static double clamp01(double t)
{
    return t < 0 ? 0 : t > 1 ? 1 : t;
}

/* The closest point of triangle (a, b, c) to p as barycentric weights (Ericson,
 * "Real-Time Collision Detection", 5.1.5: the Voronoi regions of the vertices, edges
 * and face in turn). */
void cloth__closest_on_triangle(const double p[3], const double a[3], const double b[3],
                                const double c[3], double w[3])
{
    double ab[3], ac[3], ap[3], bp[3], cp[3];
    cloth__sub(b, a, ab);
    cloth__sub(c, a, ac);
    cloth__sub(p, a, ap);
    double d1 = cloth__dot(ab, ap), d2 = cloth__dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) {
        w[0] = 1, w[1] = w[2] = 0;
        return;
    }
    cloth__sub(p, b, bp);
    double d3 = cloth__dot(ab, bp), d4 = cloth__dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) {
        w[1] = 1, w[0] = w[2] = 0;
        return;
    }
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        double t = d1 / (d1 - d3);
        w[0] = 1 - t, w[1] = t, w[2] = 0;
        return;
    }
    cloth__sub(p, c, cp);
    double d5 = cloth__dot(ab, cp), d6 = cloth__dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) {
        w[2] = 1, w[0] = w[1] = 0;
        return;
    }
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        double t = d2 / (d2 - d6);
        w[0] = 1 - t, w[2] = t, w[1] = 0;
        return;
    }
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
        double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        w[1] = 1 - t, w[2] = t, w[0] = 0;
        return;
    }
    double den = va + vb + vc;
    if (!(fabs(den) > 0)) { /* a degenerate triangle: its first vertex */
        w[0] = 1, w[1] = w[2] = 0;
        return;
    }
    w[1] = vb / den, w[2] = vc / den, w[0] = 1 - w[1] - w[2];
}

/* The closest points p0 + s (p1 - p0), q0 + t (q1 - q0) of two segments (Ericson
 * 5.1.9): s minimises over [0, 1] for the t it implies, clamped, and back. */
void cloth__closest_on_segments(const double p0[3], const double p1[3], const double q0[3],
                                const double q1[3], double *s_out, double *t_out)
{
    double d1[3], d2[3], r[3];
    cloth__sub(p1, p0, d1);
    cloth__sub(q1, q0, d2);
    cloth__sub(p0, q0, r);
    double a = cloth__dot(d1, d1), e = cloth__dot(d2, d2), f = cloth__dot(d2, r);
    double s = 0, t = 0;
    if (a <= 0 && e <= 0) {
        /* two points */
    } else if (a <= 0) {
        t = clamp01(f / e);
    } else {
        double cc = cloth__dot(d1, r);
        if (e <= 0) {
            s = clamp01(-cc / a);
        } else {
            double b = cloth__dot(d1, d2), den = a * e - b * b;
            s = den > 1e-14 * a * e ? clamp01((b * f - cc * e) / den) : 0;
            t = (b * s + f) / e;
            if (t < 0) {
                t = 0;
                s = clamp01(-cc / a);
            } else if (t > 1) {
                t = 1;
                s = clamp01((b - cc) / a);
            }
        }
    }
    *s_out = s;
    *t_out = t;
}
