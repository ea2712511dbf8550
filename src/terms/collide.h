/* Private: the robust collision stage of cloth against itself, after Bridson, Fedkiw and
 * Anderson 2002, "Robust Treatment of Collisions, Contact and Friction for Cloth
 * Animation" (sections 6-7), with the rigid impact zones of Provot 1997, "Collision and
 * self-collision handling in cloth model dedicated to design garments".  Any integrator
 * that proposes a step can hand it over: it takes the step's start positions x0, the
 * proposed end positions x1 and end velocities v, and returns x1 and v such that no
 * point-triangle or edge-edge pair of the mesh (sharing no vertex) comes together
 * during the linear motion x0 -> x1.
 *
 * The step's average velocity is vbar = (x1 - x0) / h.  Every correction is a change
 * dv of vbar, applied to both ends: x1 += h dv and v += dv (Bridson's "the same change
 * to the end velocity"), so an impulse between vertices keeps their momentum in v.
 *
 * A pair.  Its four vertices x_0..x_3 and weights c_i, with sum c_i = 0, so that
 * r = sum_i c_i x_i is the vector between its closest points: point-triangle
 * c = (1, -b0, -b1, -b2) (b the closest point's barycentric coordinates), edge-edge
 * c = (1 - s, s, -(1 - t), -t) (s, t the closest points' parameters).  An impulse j
 * along the unit n = r / |r| changes the average velocities by dv_i = w_i c_i j n
 * (w_i = 1 / m_i, 0 for a pinned vertex) and the relative normal velocity
 * v_N = n . sum_i c_i vbar_i by j W, W = sum_i w_i c_i^2: so j = dv_N / W meets a wanted
 * dv_N in one impulse, and sum_i m_i dv_i = j n sum_i c_i = 0 (momentum is kept, when
 * no vertex of the pair is pinned).
 *
 * (a) Proximity (Bridson 7.2).  Every pair closer than the thickness delta at x0, at
 * distance d with its closest points' n and c there: when v_N < 0.1 (delta - d) / h, an
 * impulse raises v_N to that (an inelastic stop of the approach plus Bridson's gentle
 * push out of the thickness, without his spring), and friction lowers the relative
 * tangential velocity v_T by min(mu dv_N, |v_T|) (Coulomb, Bridson's
 * v_T' = max(1 - mu dv_N / |v_T|, 0) v_T), mu = material.self_friction.
 *
 * (b) Collision passes (Bridson 7.3-7.4).  Pairs whose boxes over the motion meet are
 * tested with the additive CCD (terms/ccd.h) against dmin = min(eta delta, d0 / 2)
 * (eta = CLOTH__COLLIDE_ETA, d0 the pair's distance at x0: a pair that starts closer
 * than eta delta may not halve its distance in one step), one pair after another
 * (Gauss-Seidel: each impulse is seen by the next pair).  A hit at time t* takes n and c
 * from the closest points at x0 + t* (x1 - x0); with d0n = n . sum c_i x0_i the start
 * separation along n, the end separation d0n + h v_N is let fall to delta and no lower,
 * and a pair already within delta is stopped: v_N is raised to
 *   v_N* = min(0, (delta - d0n) / h),
 * the inelastic impulse that stops it at the thickness, with friction as in (a).  So a
 * vertex thrown at a triangle ends delta in front of it, its velocity in v changed by
 * w_p j n (closed form in tests/test_collide.c).  Passes end when one finds no hit or
 * after `passes`.
 *
 * (c) Rigid impact zones (Provot 1997; Bridson 7.4).  Whatever still hits: the vertices
 * of each hitting pair are merged into one zone (union-find), zones that share a vertex
 * or hit each other merge, and each zone of two or more vertices moves rigidly with the
 * averaged linear and angular momentum of its vertices' average velocities before the
 * zones (from the passes' result):
 *   M = sum m_i, c0 = sum m_i x0_i / M, V = sum m_i vbar_i / M,
 *   L = sum m_i r_i x vbar_i, I = sum m_i (|r_i|^2 E - r_i r_i^T), r_i = x0_i - c0,
 *   omega = I^-1 L,
 *   x1_i = c0 + h V + R(h omega) r_i            (R: the rotation by angle h |omega|),
 *   v_i += (V + omega x r_i) - vbar_i.
 * Positions move rigidly (no pair inside a zone closes, as its distances are kept), and
 * the velocity change has zero sum_i m_i dv_i and zero sum_i m_i r_i x dv_i, so the
 * zone's linear and angular momentum in v are kept.  A zone holding a pinned vertex
 * cannot rotate about it freely: it translates with the mean motion of its pinned
 * vertices (at rest when they rest), which stop the approach.  The search is repeated
 * on the new motion, pairs inside one zone left out, until none hits, or
 * `zone_iterations` searches (each that hits merges at least two zones, so n - 1
 * searches that hit at most).
 *
 * (d) Obstacles (Bridson 7.1 and 7.4: "collisions with other objects" in the same
 * loop).  When def->obstacles is given (the sphere, the floor, a body: terms/obstacle.h),
 * the kernel has already put every free vertex's x1 outside them, and the stage keeps it
 * so.  Every impulse is a change dv of the average velocity, so an impulse between two
 * cloth pairs may carry a vertex into an obstacle; after the proximity impulses and after
 * every collision pass, each free vertex whose x1 is inside gets the obstacle's own
 * inelastic impulse, the change dv = (p - x1) / h along the obstacle's normal that puts
 * x1 at its projection p on the surface (cloth__push_out).  A vertex so moved has
 * infinite mass along the obstacle's normal m for the later impulses that would push it
 * in (impulse in collide_pair.c: its share is projected by I - m m^T, and W with it, so the
 * other vertices of the pair take the whole stop).  The proximity impulses are swept
 * again over the pairs any impulse changed (Gauss-Seidel; at most
 * CLOTH__COLLIDE_PROXIMITY_SWEEPS, until no impulse moves a pair's end separation and no
 * obstacle a vertex by more than CLOTH__COLLIDE_OBSTACLE_ENOUGH of the thickness): a
 * sheet pressed on an obstacle by the sheets above gets its push only from them.  The
 * collision passes stop clean only when a cloth pass finds no hit and the obstacle pass
 * after it moves nothing (it moved vertices: the next pass looks at them).  An impact zone
 * moves rigidly, which may carry members into an obstacle: the obstacle has infinite
 * mass along its normal, so the zone, not the obstacle, gives way: the whole zone is
 * translated by its deepest member's (p - x1) until no member is inside (at most
 * CLOTH__COLLIDE_OBSTACLE_ROUNDS times; a translation
 * keeps the zone's own distances; pairs it brings against other cloth are found by the
 * next search and merge zones as any hit does).  A zone holding a pinned vertex cannot
 * be moved and is left where its pins take it: the one case in which a vertex may end
 * inside an obstacle (cloth squeezed between an obstacle and its held edge).  The
 * vertices that an obstacle moved are flagged, with the normal, for the caller's
 * inelastic velocity rule (cloth__collide_obstacle_hits).
 *
 * Memory is sized at creation for the mesh; a step allocates nothing.
 *
 * The files, one part a file: collide.c creates the stage and runs a call ((a), (d), (b),
 * (c) in that order, cloth__collide_step) and the tests' hooks; collide_def.h holds the
 * constants, the def and the result; collide_state.h the stage's state (private to these
 * files); collide_pair.c a pair's geometry, the impulse on it and the CCD's start
 * distance; collide_candidates.c the candidate list's upkeep (one broad-phase query
 * serving many calls, and why that is sound); collide_proximity.c (a); collide_passes.c
 * (b), the CCD impulses; collide_zones.c (c) (one zone's rigid motion in rigid_zone.c);
 * collide_obstacles.c (d). */
#ifndef CLOTH_COLLIDE_H
#define CLOTH_COLLIDE_H

#include "terms/collide_def.h"

/* For mesh's triangles and their edges, with room for max_pairs candidate pairs of each
 * kind a query; max_pairs <= 0 sizes it as the tunnelled metric does
 * (CLOTH__COLLIDE_PAIRS per vertex and triangle edge). */
cloth_status cloth__collide_create(const cloth_mesh *mesh, int max_pairs,
                                   cloth__collide **out, cloth_error *err);
void cloth__collide_destroy(cloth__collide *c);

/* The stage over one step of length h > 0: x0 the start positions, x1 the proposed end
 * positions and v the end velocities (3 mesh->n each; x1 and v are corrected in place),
 * inv_mass the n inverse masses (0: pinned, never moved by the stage).  Returns 0, or
 * -1 (x1 and v untouched) when the input is not finite or def is out of range.
 * Allocates nothing. */
int cloth__collide_step(cloth__collide *c, const cloth__collide_def *def, double h,
                        const double *x0, double *x1, double *v, const double *inv_mass,
                        cloth__collide_result *res);

/* After a step with obstacles (d): hit[i] is the CLOTH__HIT_* kind of the last obstacle
 * that moved vertex i in that call (CLOTH__HIT_NONE: none) and normal[3i..3i+2] its
 * outward normal there (valid where hit[i] is set). */
const unsigned char *cloth__collide_obstacle_hits(const cloth__collide *c,
                                                  const double **normal);

/* The first point-triangle or edge-edge pair (sharing no vertex, not all of its vertices
 * with inverse mass 0) closer than delta > 0 at x, in the broad phase's order (point-
 * triangle pairs first): returns 1 with its vertices v (point, triangle; or edge, edge),
 * *tri (the triangle, -1 for edge-edge) and distance *d; 0 when there is none; -1 when
 * the candidates overflowed the room (some pairs were not looked at).  The robust stage
 * needs a start with no such pair: its proximity impulses push such pairs apart only
 * gently and its CCD measures from the start. */
int cloth__collide_first_close_pair(cloth__collide *c, const double *x, const double *inv_mass,
                                    double delta, int v[4], int *tri, double *d);

/* One impact zone's rigid motion: terms/rigid_zone.h (cloth__collide_rigid_zone). */

/* For the tests of the candidates' reuse (collide_candidates.c): queries the candidates
 * over x0 -> x1_ref with the boxes' slack `slack` (in thicknesses; the stage's is
 * adaptive, see CLOTH__COLLIDE_SLACK_MIN), then lists those a collision pass at end
 * positions x1 would look at when it may reuse them (a drift of at most tol thicknesses,
 * the stage's 0.9 slack): (vertex, triangle) pairs into pt, (edge, edge) pairs into ee
 * (the broad phase's edge indices), room for cap pairs each, sorted as
 * cloth__broad_phase_sort sorts.  Returns 0, 1 when x1 drifted further (the stage would
 * query afresh: nothing listed), -1 when the query or the lists ran out of room. */
int cloth__collide_pass_candidates(cloth__collide *c, double thickness, double slack,
                                   double tol, const double *x0, const double *x1_ref,
                                   const double *x1, const double *inv_mass, int *pt,
                                   int *n_pt, int *ee, int *n_ee, int cap);

/* For the tests of the list kept from call to call (collide_candidates.c): queries the
 * candidates as a call over xq -> x1q does (slack and tol as above, boxes reaching
 * `ahead` steps beyond x1q), then lists those a later call over x0 -> x1 that keeps the
 * list would look at: with at_start, the proximity impulses' (boxes at x0 grown by half
 * the thickness), else a collision pass's.  Returns 0, 1 when that call would query
 * afresh (nothing listed), -1 when out of room. */
int cloth__collide_next_candidates(cloth__collide *c, double thickness, double slack,
                                   double tol, int ahead, const double *xq, const double *x1q,
                                   const double *x0, const double *x1, const double *inv_mass,
                                   int at_start, int *pt, int *n_pt, int *ee, int *n_ee,
                                   int cap);

/* For the tests: plain = 1 makes every call query afresh and leaves out the bounds that
 * skip work (the kept list and g0_lower in collide_candidates.c, surely_clear in
 * collide_passes.c, apart_enough in collide_proximity.c), so that a test can compare the
 * stage's results with and without them; returns the calls that kept the last call's
 * list so far. */
int cloth__collide_plain(cloth__collide *c, int plain);

/* For the tests of the vertices' own room in the query's boxes (collide_candidates.c
 * query): sets it (n values, m; NULL: none) for the next query, as a call's corrections
 * set it. */
void cloth__collide_set_room(cloth__collide *c, const double *room);

/* For the tests of the collision passes' shortcut (collide_passes.c ccd_clear): 1 when the
 * stage skips the CCD of the pair (point-triangle, or edge-edge when edge_edge) over
 * x0 -> x1 at dmin as certain to find no hit (cloth__ccd then returns 0), else 0. */
int cloth__collide_ccd_clear(int edge_edge, const double x0[12], const double x1[12],
                             double dmin);

#endif
