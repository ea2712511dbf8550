/* Private: IPC's lagged friction as a potential (Li et al. 2020, "Incremental Potential
 * Contact", section 5 and its supplement), the mathematics only: what one contact records
 * at the start of a time step, and the friction energy with its gradient and Hessian at
 * the positions x of a Newton iterate of that step.
 *
 * Lagging.  At the start of the step (positions x_n) every contact whose barrier is
 * active records, and keeps fixed until the step ends:
 *   - its stencil: k vertices in distance.h's order, (p, t0, t1, t2) or (ea0, ea1, eb0,
 *     eb1), or k = 1 for a vertex against an obstacle (sphere, floor);
 *   - the closest-point coefficients c_i of its distance type at x_n, so that
 *     r = sum_i c_i x_i is the closest point of the first primitive minus that of the
 *     second; e.g. a point over a triangle's face: c = (1, -(1 - beta - gamma), -beta,
 *     -gamma), two crossing edges: c = (1 - s, s, -(1 - t), -t).  The first primitive's
 *     coefficients sum to 1, the second's to -1, so sum_i c_i = 0;
 *   - an orthonormal tangent basis T = [t1 t2] (3 x 2) perpendicular to the contact
 *     normal n at x_n (below);
 *   - the normal force magnitude lambda >= 0.  For the newton kernel's barrier
 *     kappa psi(g) on the unsquared gap g = d - offset, lambda = -kappa psi'(g(x_n)), times
 *     the edge-edge mollifier for an EE contact if the barrier carries it (the caller's).
 * With these fixed, the contact's slip over the step is linear in x:
 *   u = T^T (sum_i c_i (x_i - x_n,i) - s) = T^T (Gamma (x - x_n) - s)       (a 2-vector)
 * with Gamma the 3 x 3k map x -> sum_i c_i x_i and s the displacement over the step of the
 * surface point the vertex rests on (a moving obstacle: s = h v_surface, e.g. a sphere
 * spinning at omega about its centre c: s = h omega x (x_n - c)); s = 0 for cloth-cloth.
 * Rigid translations of the whole stencil give u = 0 since sum_i c_i = 0.
 *
 * Normals and tangents.  The normal of a face (PT) or edge-edge (EE) type is the cross
 * product of its two directions, the triangle's normal or ea x eb, and t1 is along the
 * first direction (the edge t0 t1, or ea); a point-edge (PE) or point-point (PP) type has
 * no such cross product, so its normal is r at x_n (from the closest point of the edge or
 * vertex to the other primitive's), with t1 along the edge (PE) or any direction
 * perpendicular to r (PP).  Always t2 = n/|n| x t1.  Where the normal direction is zero
 * (two vertices or a vertex and an edge touching, distance 0, or a zero obstacle normal)
 * any normal compatible with the type is taken (perpendicular to the edge for PE), so T
 * is orthonormal and every result finite; a barrier never lets a contact get there.
 *
 * Smoothed Coulomb friction (IPC, section 5), with eps = eps_v h a length (eps_v in m/s,
 * h the time step): slips below eps stick, elastically, slips above slide:
 *   f0(y) = -y^3 / (3 eps^2) + y^2 / eps + eps / 3     y < eps,    y otherwise
 *   f1(y) = f0'(y) = 2 y / eps - y^2 / eps^2            y < eps,    1 otherwise
 *   f1'(y) = 2 (eps - y) / eps^2                        y < eps,    0 otherwise
 * At y = eps both sides give f0 = eps, f1 = 1, f1' = 0: f1 is C^1, f0 C^2.
 *
 * The potential, its gradient and its Hessian (y = |u|, u^ = u / y):
 *   D(x) = mu lambda f0(y)
 *   grad D = mu lambda f1(y)/y Gamma^T T u          (f1(y)/y -> 2/eps as y -> 0: grad = 0
 *                                                    at y = 0, continuously)
 *   hess D = mu lambda Gamma^T T M T^T Gamma,
 *   M = f1(y)/y I + (f1'(y) y - f1(y))/y^3 u u^T = f1(y)/y I + (f1'(y) - f1(y)/y) u^ u^^T.
 * The second form is the one computed (finite as y -> 0; at y = 0, M = (2/eps) I, the
 * limit from every direction, so D is C^2 there too).  The friction force on vertex i is
 * -grad_i D; on the relative displacement it is -mu lambda f1(y) u^, whose magnitude is
 * mu lambda exactly once sliding (y >= eps): Coulomb's law, the friction cone's edge.
 *
 * PSD form.  M has the eigenvector u^ with eigenvalue f1'(y) (>= 0: 2 (eps - y)/eps^2
 * below eps, 0 above) and the perpendicular one with eigenvalue f1(y)/y (> 0), so the
 * exact Hessian is already positive semi-definite for mu lambda >= 0: with T, c and
 * lambda lagged, D is convex in x (f0 convex and nondecreasing, |u| convex, u linear).
 * IPC projects M all the same (ipc-toolkit's TangentialPotential::hessian clamps the
 * 2 x 2's eigenvalues for 0 < y < eps and writes mu lambda f1(y)/y (I - u^ u^^T) for
 * y >= eps).  That changes nothing but rounding, and the sign of a negative mu lambda:
 * the exact form's eigenvalue along u^ is computed as f1/y + (f1' - f1/y) |u^|^2, for
 * y >= eps 1/y - 1/y, a residue of either sign.  The PSD form here is M written in its
 * eigenvectors with each eigenvalue of mu lambda M clamped at 0,
 *   M+ = max(mu lambda f1'(y), 0) u^ u^^T + max(mu lambda f1(y)/y, 0) (I - u^ u^^T),
 * so it equals the exact Hessian up to rounding (and is 0 if mu lambda < 0), and is PSD
 * by construction.  The solver should use it; the tests check both.
 *
 * Layout.  x, x_n, the gradient and the Hessian are over the stencil's own vertices:
 * 3k numbers (vertex 0's x, y, z first), Hessians 3k x 3k row-major, k = n_verts.  A
 * vertex the type leaves out (c_i = 0) has zero rows and columns, as in distance.h.
 * Nothing allocates. */
#ifndef CLOTH_FRICTION_H
#define CLOTH_FRICTION_H

/* What the stencil's vertices are. */
typedef enum {
    CLOTH__FRICTION_POINT_TRIANGLE, /* (p, t0, t1, t2)                           */
    CLOTH__FRICTION_EDGE_EDGE,      /* (ea0, ea1, eb0, eb1)                      */
    CLOTH__FRICTION_OBSTACLE        /* one vertex against a sphere or the floor */
} cloth__friction_kind;

/* One contact's lagged friction data, recorded at x_n. */
typedef struct {
    cloth__friction_kind kind;
    int type;             /* cloth__pt_type or cloth__ee_type at x_n; 0 for an obstacle */
    int n_verts;          /* k: 4, or 1 for an obstacle                                 */
    double coef[4];       /* c_i: r = sum_i c_i x_i; 0 past n_verts                     */
    double tangent[2][3]; /* t1, t2: the columns of T, orthonormal, perpendicular to n  */
    double lambda;        /* lagged normal force magnitude (N)                          */
} cloth__friction_stencil;

/* Which Hessian cloth__friction_energy writes (header comment, "PSD form"). */
typedef enum {
    CLOTH__FRICTION_EXACT, /* the Hessian of D, for checks          */
    CLOTH__FRICTION_PSD    /* M's eigenvalues clamped at 0, for the solver */
} cloth__friction_hessian;

/* f0(y) and f1(y) of the smoothing above; eps > 0, y >= 0. */
double cloth__friction_f0(double y, double eps);
double cloth__friction_f1(double y, double eps);

/* The stencil of a point-triangle or edge-edge contact at the lagged positions given:
 * the type from cloth__point_triangle_type / cloth__edge_edge_type, its closest-point
 * coefficients, the tangent basis of that type, and lambda as given. */
cloth__friction_stencil cloth__friction_point_triangle(const double p[3], const double t0[3],
                                                       const double t1[3],
                                                       const double t2[3], double lambda);

cloth__friction_stencil cloth__friction_edge_edge(const double ea0[3], const double ea1[3],
                                                  const double eb0[3], const double eb1[3],
                                                  double lambda);

/* The stencil of one vertex against an obstacle whose outward normal at the contact is
 * normal (any length; the sphere's (x_n - c), the floor's e_y): c = (1), T perpendicular
 * to it. */
cloth__friction_stencil cloth__friction_obstacle(const double normal[3], double lambda);

/* The slip u = T^T (sum_i c_i (x_i - x_n,i) - s) of the stencil's vertices x (3k) from
 * their lagged positions xn (3k); surface is s (3 numbers), or NULL for s = 0. */
void cloth__friction_slip(const cloth__friction_stencil *st, const double *x,
                          const double *xn, const double *surface, double u[2]);

/* D = mu lambda f0(|u|) at x, with u from cloth__friction_slip and eps = eps_v h (> 0);
 * writes grad D (3k) and the Hessian of the chosen form (3k x 3k) when the pointers are
 * not NULL.  The Hessian is symmetric to the bit. */
double cloth__friction_energy(const cloth__friction_stencil *st, double mu, double eps,
                              const double *x, const double *xn, const double *surface,
                              double *grad, double *hess, cloth__friction_hessian form);

#endif
