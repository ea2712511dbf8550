/* Private: the Delaunay triangulation of points in the plane by Bowyer–Watson (Bowyer
 * 1981, Watson 1981): a super-triangle holds every point; each point in turn is located
 * by walking from the last triangle made, the triangles whose circumcircle contains it
 * (the cavity) are deleted and the cavity's boundary is joined to it.  Points are
 * inserted along a Hilbert curve so that each walk is short: 10^5 points take well
 * under a second (make bench). */
#ifndef CLOTH_GARMENT_DELAUNAY_H
#define CLOTH_GARMENT_DELAUNAY_H

#include "cloth.h"

typedef struct cloth__delaunay cloth__delaunay;

/* Triangulates the n points xy (2n doubles, finite).  A point that coincides with one
 * already inserted is left out (cloth__delaunay_skipped counts them).  CLOTH_EINVAL for
 * n < 3 or a non-finite coordinate, CLOTH_ENOMEM. */
cloth_status cloth__delaunay_create(const double *xy, int n, cloth__delaunay **out,
                                    cloth_error *err);
void cloth__delaunay_destroy(cloth__delaunay *dt);

/* Inserts one more point (inside the first points' bounding box, or not far from it: the
 * super-triangle is 100 times that box); *index gets its index (n, n+1, ... in order of
 * insertion) or the index of the point it coincides with. */
cloth_status cloth__delaunay_insert(cloth__delaunay *dt, double x, double y, int *index);

/* The points (2 doubles each, the inserted ones after the first n) and their count. */
const double *cloth__delaunay_points(const cloth__delaunay *dt, int *n);

/* Points left out as duplicates. */
int cloth__delaunay_skipped(const cloth__delaunay *dt);

/* The triangles that touch no super-triangle vertex, counter-clockwise, 3 indices each:
 * a fresh array the caller frees (NULL when out of memory; *n_tris = 0 and a non-NULL
 * array when there are none). */
int *cloth__delaunay_triangles(const cloth__delaunay *dt, int *n_tris);

/* The in-circle test: > 0 when d lies inside the circle through a, b, c (counter-
 * clockwise), < 0 outside, 0 when the determinant is within its rounding-error bound
 * (on the circle as far as doubles can tell). */
int cloth__incircle(const double a[2], const double b[2], const double c[2], const double d[2]);

/* The orientation test: > 0 when a, b, c turn counter-clockwise, < 0 clockwise, 0 when
 * collinear within the rounding-error bound. */
int cloth__orient(const double a[2], const double b[2], const double c[2]);

#endif
