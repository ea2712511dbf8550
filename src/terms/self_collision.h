/* Private: self-collision for the kernels that project positions (explicit, verlet, pbd),
 * in the style of real-time cloth: Matthias Müller's Ten Minute Physics demo 15, "self
 * collision", and the triangle constraint of Müller et al. 2007 ("Position Based
 * Dynamics", section 4.4).
 *
 * Vertex pairs (run.self_collision = particles).  Every vertex is a sphere of diameter t =
 * material.thickness.  A pair (i, j) closer than t is pushed apart along its line to
 * exactly t, each end by its share of the inverse masses w (a pinned end, w = 0, stays):
 *
 *   C = |x_i - x_j| - t < 0,  n = (x_i - x_j)/|x_i - x_j|,  lambda = -C / (w_i + w_j),
 *   x_i += w_i lambda n,  x_j -= w_j lambda n        (centre of mass unchanged)
 *
 * Pairs that are never pushed: those joined by a spring or a triangle edge, and those
 * whose rest distance is below t (the demo's rule: neighbours on a fine mesh start
 * closer than t and must stay so).  Candidates come from the spatial hash with cell size
 * t, so all of them are found at O(n) cost.
 *
 * Vertex-triangle (run.self_collision = proximity) adds Müller 2007's
 * C = s (p - q).n - t >= 0 for a vertex p and a triangle (a, b, c) that does not hold it,
 * where q = alpha a + beta b + gamma c is p's projection on the triangle's plane (applied
 * only when q lies inside the triangle), n the unit normal and s = +-1 the side of the
 * plane p was on at the step's start.  Holding n fixed, grad_p C = s n and
 * grad_a C = -s alpha n (beta, gamma likewise), so lambda = -C / (w_p + alpha^2 w_a +
 * beta^2 w_b + gamma^2 w_c) meets C = 0 in one move.  A vertex is within t of a triangle
 * only if it is within t + l_max of one of its corners (l_max the longest triangle edge
 * now), so the hash is queried with that radius; vertex-triangle pairs whose rest
 * distance is below t are skipped, as above.
 *
 * A projection is a few Gauss-Seidel sweeps: query, push every violated pair once, and
 * again until a query finds no pair deeper than 1e-6 t (then it converged: no such pair
 * is closer than t (1 - 1e-6)) or CLOTH__SELF_SWEEPS sweeps are spent.  Pushes can
 * disturb their neighbours, hence more than one sweep.
 *
 * Velocities.  After the kernel has its velocities, each contact found by the first
 * sweep (the pairs that collided this step) has the approaching part of its relative
 * normal velocity removed (an inelastic contact, as the explicit kernel treats an
 * obstacle) and the rest of its relative velocity scaled by 1 - f, f =
 * material.self_friction: the demo's friction, which moves each velocity toward the
 * pair's (mass-weighted) average so that colliding parts stop sliding over and bouncing
 * off each other.  Both are impulses along the constraint's gradient, so momentum is
 * kept.
 *
 * What it does not do: an edge may pass through an edge, and (vertex pairs alone) a
 * vertex through a triangle between vertices farther apart than t: only sampled points
 * are kept apart.  The intersections column measures what gets through.  All memory is
 * sized at creation; a projection allocates nothing. */
#ifndef CLOTH_SELF_COLLISION_H
#define CLOTH_SELF_COLLISION_H

#include "cloth.h"

/* Sweeps of one projection at most, and the relative depth below which a pair counts
 * as resolved (converged: no pair closer than t (1 - CLOTH__SELF_TOL)). */
#define CLOTH__SELF_SWEEPS 16
#define CLOTH__SELF_TOL 1e-6

typedef struct cloth__self_collision cloth__self_collision;

/* One contact of the first sweep: vertex p against q = sum b[k] x[v[k]] (one vertex with
 * b = 1 for a vertex pair, v[1] = v[2] = -1), with n the unit direction from q to p
 * along which C = (x_p - q).n - t was met. */
typedef struct cloth__self_contact {
    int p;                      /* the pushed vertex                                  */
    int v[3];                   /* the other side's vertices (-1: none)               */
    double b[3];                /* their weights (barycentric for a triangle)         */
    double n[3];                /* unit normal, from the other side towards p         */
} cloth__self_contact;

/* What one projection did. */
typedef struct cloth__self_collision_result {
    int contacts;               /* contacts found by the first sweep                  */
    int pushes;                 /* pushes over all sweeps (0: x was not written)      */
    int sweeps;                 /* sweeps made                                        */
    int converged;              /* 1: the last query found no pair deeper than 1e-6 t */
    int overflow;               /* 1: a query or the contact list ran out of room, so
                                 * some pairs were not seen                           */
} cloth__self_collision_result;

/* For mesh (its adjacency, rest positions and triangles are read here and at every
 * projection; inverse masses at every projection, so pins may change).  mode is
 * CLOTH_SELF_PARTICLES or CLOTH_SELF_PROXIMITY; thickness >= 0 (0: nothing is ever pushed). */
cloth_status cloth__self_collision_create(const cloth_mesh *mesh, cloth_self_collision mode,
                                          double thickness, cloth__self_collision **out,
                                          cloth_error *err);
void cloth__self_collision_destroy(cloth__self_collision *sc);

/* Projects positions x (3n) in place as above.  x_start: the positions at the step's
 * start, which decide the side of a vertex-triangle contact (not read for vertex pairs;
 * may then be NULL).  Allocates nothing. */
cloth__self_collision_result cloth__self_collision_project(cloth__self_collision *sc,
                                                           const cloth_mesh *mesh, double *x,
                                                           const double *x_start);

/* The velocity correction above for the contacts of the last projection, on v (3n). */
void cloth__self_collision_velocities(const cloth__self_collision *sc, const cloth_mesh *mesh,
                                      double *v, double friction);

/* The contacts of the last projection's first sweep; *out points at them. */
int cloth__self_collision_contacts(const cloth__self_collision *sc,
                                   const cloth__self_contact **out);

/* The pair i < j that a projection would push, ignoring pins, that comes first (the
 * smallest i, then j) among those closer than the thickness at x: returns 1 with *i, *j
 * and their distance *d, or 0 when there is none.  Used to refuse a start that
 * self-collision could not keep. */
int cloth__self_collision_first_close_pair(cloth__self_collision *sc, const cloth_mesh *mesh,
                                           const double *x, int *i, int *j, double *d);

#endif
