/* Private: unsigned squared distances between the primitives of cloth-cloth contact,
 * point-triangle and edge-edge, with IPC's distance types (Li et al. 2020, "Incremental
 * Potential Contact", and its supplement), their gradients and Hessians, and
 * IPC's edge-edge mollifier.
 *
 * Vertices.  A point-triangle pair is (p, t0, t1, t2), an edge-edge pair (ea0, ea1, eb0,
 * eb1): vertices 0..3 in that order.  Gradients are 12 numbers (vertex 0's x, y, z
 * first), Hessians 12 x 12 row-major; a vertex that the type leaves out has zero rows
 * and columns.  Either pointer may be NULL.
 *
 * Types.  The closest points of a point and a triangle, or of two segments, lie on one
 * sub-simplex of each; the type names those two, and the distance of the type is that
 * between their affine hulls (point, line, plane), so it is a smooth function near the
 * positions that chose it:
 *   PP  |p - q|^2                                    two vertices
 *   PE  |(e0 - p) x (e1 - p)|^2 / |e1 - e0|^2         a vertex and a line
 *   PT  ((p - t0) . n)^2 / |n|^2,  n = (t1 - t0) x (t2 - t0)     a vertex and a plane
 *   EE  ((ea0 - eb0) . n)^2 / |n|^2,  n = (ea1 - ea0) x (eb1 - eb0)   two lines
 * The classifiers pick the type whose value is the true distance between the closed
 * primitives.  Point-triangle: the Voronoi regions of the triangle's vertices, edges and
 * face (Ericson, "Real-Time Collision Detection", 5.1.5).  Edge-edge: with the closest
 * points ea0 + s (ea1 - ea0) and eb0 + t (eb1 - eb0) of the two lines, EE when both s
 * and t lie in (0, 1) and those points are no further apart than the nearest
 * endpoint-segment pair (rounding puts s and t of nearly parallel edges anywhere: two
 * collinear segments would otherwise read as touching); otherwise the minimum of the convex quadratic over the square
 * [0, 1]^2 lies on its boundary, where one endpoint is fixed, so the type is that of the
 * nearest of the four endpoint-segment pairs (each PE, or PP when the endpoint projects
 * outside the other segment).  Parallel edges (sin^2 of their angle below
 * CLOTH__PARALLEL_SIN2) have no unique closest points and take that boundary rule too,
 * as do zero-area triangles, whose face is left out.
 *
 * Derivatives, one derivation for every type.  The distance of a type is
 *   d(x) = min over lam of |r(x, lam)|^2,   r = sum_i c_i(lam) x_i,
 * with k = 0 (PP), 1 (PE) or 2 (PT, EE) parameters lam_1..k on which the coefficients
 * c_i are affine: c_i = c0_i + sum_a lam_a g_ai, so r = r0 + sum_a lam_a s_a with
 * s_a = sum_i g_ai x_i.  At the minimiser the residual is orthogonal to every s_a, and
 * by the envelope theorem and implicit differentiation of that condition
 *   grad_i d = 2 c_i r
 *   hess_ij d = 2 c_i c_j I - 2 sum_ab (c_i s_a + g_ai r) (A^-1)_ab (c_j s_b + g_bj r)^T,
 * with A_ab = s_a . s_b.  E.g. PT: r = p - t0 - beta (t1 - t0) - gamma (t2 - t0) gives
 * hess_pp = 2 (I - projection on the plane) = 2 n n^T / |n|^2.
 *
 * Rounding.  For nearly parallel edges (or a sliver triangle) the solve for lam loses
 * digits as 1/sin^2 of the angle, and the plain (w . n)^2 / |n|^2 loses them as 1/sin,
 * since n's direction is off by DBL_EPSILON/sin and w is long.  So lam_2 is recomputed
 * as the best one for the computed lam_1, which leaves r orthogonal to s_2 and short
 * along s_1, and r is then projected on the complement of the s_a once more: for PT and
 * EE r = n (r . n) / |n|^2, for PE r minus its part along s_1.  A short r makes n's
 * error cost little: the distance of two edges at an angle of 1.4e-8 rad keeps its
 * last digits.  Only the split of the gradient between the vertices (lam itself)
 * stays as ill-conditioned as the closest points are; IPC's mollifier takes the EE
 * barrier away there. */
#ifndef CLOTH_DISTANCE_H
#define CLOTH_DISTANCE_H

/* Two directions u, v count as parallel when |u x v|^2 < this |u|^2 |v|^2 (sin^2 of
 * their angle; an angle below 1e-8 rad). */
#define CLOTH__PARALLEL_SIN2 1e-16

/* Point-triangle types: the vertex, edge or face of (t0, t1, t2) nearest p; edge E0 is
 * (t0, t1), E1 (t1, t2), E2 (t2, t0). */
typedef enum {
    CLOTH__P_T0 = 0, CLOTH__P_T1, CLOTH__P_T2, /* PP */
    CLOTH__P_E0, CLOTH__P_E1, CLOTH__P_E2,     /* PE */
    CLOTH__P_T,                                /* PT */
    CLOTH__PT_TYPES
} cloth__pt_type;

/* Edge-edge types: EA0_EB1 is the vertices ea0 and eb1, EA_EB0 the line of ea and the
 * vertex eb0, EA_EB the two lines. */
typedef enum {
    CLOTH__EA0_EB0 = 0, CLOTH__EA0_EB1, CLOTH__EA1_EB0, CLOTH__EA1_EB1, /* PP */
    CLOTH__EA_EB0, CLOTH__EA_EB1, CLOTH__EA0_EB, CLOTH__EA1_EB,         /* PE */
    CLOTH__EA_EB,                                                       /* EE */
    CLOTH__EE_TYPES
} cloth__ee_type;

/* The type whose distance is the distance from p to the closed triangle. */
cloth__pt_type cloth__point_triangle_type(const double p[3], const double t0[3],
                                          const double t1[3], const double t2[3]);

/* The type whose distance is the distance between the closed segments. */
cloth__ee_type cloth__edge_edge_type(const double ea0[3], const double ea1[3],
                                     const double eb0[3], const double eb1[3]);

/* The squared distance of the given type (table above) with its gradient and Hessian.
 * The type's own primitives must not be degenerate (a zero-length edge in PE, a
 * zero-area triangle in PT, parallel edges in EE: the classifier never returns those);
 * if they are, the value and the derivatives are NaN. */
double cloth__point_triangle_distance2(const double p[3], const double t0[3],
                                       const double t1[3], const double t2[3],
                                       cloth__pt_type type, double grad[12],
                                       double hess[144]);

double cloth__edge_edge_distance2(const double ea0[3], const double ea1[3],
                                  const double eb0[3], const double eb1[3],
                                  cloth__ee_type type, double grad[12], double hess[144]);

/* IPC's edge-edge mollifier, which the EE barrier is multiplied by so
 * that it vanishes smoothly as the edges turn parallel and their type changes:
 *   c = |(ea1 - ea0) x (eb1 - eb0)|^2
 *   m(c) = -c^2 / eps_x^2 + 2 c / eps_x   for c < eps_x,   1 otherwise,
 * C^1 at c = eps_x (m = 1, m' = 0 there), with eps_x from the rest positions below.  Its
 * gradient is m'(c) grad c and its Hessian m''(c) grad c grad c^T + m'(c) hess c, where
 * m' = 2 (eps_x - c) / eps_x^2, m'' = -2 / eps_x^2 and, with u = ea1 - ea0,
 * v = eb1 - eb0:
 *   grad_u c = 2 ((v . v) u - (u . v) v),      grad_v c = 2 ((u . u) v - (u . v) u)
 *   hess_uu c = 2 ((v . v) I - v v^T),         hess_vv c = 2 ((u . u) I - u u^T)
 *   hess_uv c = 2 (2 u v^T - v u^T - (u . v) I)   (d grad_u c / dv; hess_vu its transpose)
 * and d/d ea0 = -d/du, d/d ea1 = d/du, d/d eb0 = -d/dv, d/d eb1 = d/dv.  Zero gradient and
 * Hessian where m = 1.  eps_x must be > 0. */
double cloth__edge_edge_mollifier(const double ea0[3], const double ea1[3],
                                  const double eb0[3], const double eb1[3], double eps_x,
                                  double grad[12], double hess[144]);

/* eps_x = 1e-3 |ea1 - ea0|^2 |eb1 - eb0|^2 at the rest positions given (IPC). */
double cloth__edge_edge_mollifier_eps(const double ea0[3], const double ea1[3],
                                      const double eb0[3], const double eb1[3]);

#endif
