/* Private: the closest points of a triangle to a point, and of two segments (Ericson,
 * "Real-Time Collision Detection", 5.1.5 and 5.1.9), as the weights the collision stage
 * (collide.c) turns into impulses.  Pure geometry; allocates nothing. */
#ifndef CLOTH_CLOSEST_H
#define CLOTH_CLOSEST_H

/* w <- the barycentric weights of the point of triangle (a, b, c) closest to p. */
void cloth__closest_on_triangle(const double p[3], const double a[3], const double b[3],
                                const double c[3], double w[3]);

/* *s, *t <- the parameters of the closest points p0 + s (p1 - p0) and q0 + t (q1 - q0) of
 * the segments, both in [0, 1]. */
void cloth__closest_on_segments(const double p0[3], const double p1[3], const double q0[3],
                                const double q1[3], double *s_out, double *t_out);

#endif
