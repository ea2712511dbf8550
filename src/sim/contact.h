/*
 * The contact stage: the one place where a scene's obstacles (sphere, floor, avatar) and
 * cloth-cloth contact (run.self_collision = off | particles | proximity | on) are turned
 * into corrections of a step.  Every kernel goes through it; no kernel decides a contact
 * mode.  A kernel says in its table (sim/kernel.h, `.contact`) how:
 *
 *   CLOTH__CONTACT_AFTER (the default, 0): the sim runs the whole stage after each of the
 *       kernel's steps (cloth__contact_after_step below, over the step's start positions,
 *       which the sim saves, and the kernel's proposed x, v).  A kernel with no contact
 *       code of its own gets this without a line.  explicit, bw and any new kernel.
 *   CLOTH__CONTACT_IN_STEP: the kernel calls the stage's phases itself, where its method
 *       needs them (pbd and verlet project the obstacles inside their passes; pd checks
 *       its strain limit after contact).  Each phase does nothing where the scene does
 *       not ask for it, so the kernel calls them all and tests no mode.
 *   CLOTH__CONTACT_OWN: the kernel handles contact itself (newton's barriers); the stage
 *       is not built, and the kernel's facts (.self_modes, .obstacles) say what it
 *       honours.
 *
 * The whole stage over a step x0 -> (x, v) (cloth__contact_after_step), in this order:
 *   self      particles | proximity (terms/self_collision.h): vertex pairs (and
 *             vertex-triangle pairs, the side from x0) closer than material.thickness
 *             are projected apart in x;
 *   obstacles every free vertex inside the sphere, under the floor or inside the avatar's
 *             skin goes back to the surface (terms/obstacle.h, cloth__push_out), and its
 *             velocity keeps only the outward part of its velocity relative to the
 *             obstacle (the sphere's centre velocity over the step, the body's material
 *             velocity): an inelastic contact, no friction.  The obstacles win where both
 *             act.  The vertices moved, with the obstacle and its normal, are kept until
 *             the next step's obstacle pass (cloth__contact_obstacle_hits: bw's filter);
 *   velocity  particles | proximity: the contacts lose their approaching normal velocity
 *             and material.self_friction of the rest of their relative velocity;
 *   robust    on: Bridson, Fedkiw and Anderson 2002 (terms/collide.h) over x0 -> x:
 *             x and v are corrected in place (x += h dv, v += dv) so that no
 *             point-triangle or edge-edge pair crosses or comes within separation 0, the
 *             obstacles kept as collision objects; last, so that nothing undoes it.
 *
 * During a step sim->t is the step's start and sim->sphere_c the sphere's centre at its
 * end (sim.c).  Pinned vertices (inverse mass 0) are never moved.  Nothing here allocates
 * after create.  Counts: the robust phase adds its passes, impact zones and wall time to
 * the frame's (sim->collide_*), sets stats->not_converged when it could not resolve the
 * step; the self projection sets it when it did not converge or its hash overflowed; the
 * avatar's share of the obstacle time goes to the avatar's collide_ms.
 */
#ifndef CLOTH_SIM_CONTACT_H
#define CLOTH_SIM_CONTACT_H

#include "cloth.h"
#include "sim/kernel.h"
#include "terms/self_collision.h"

typedef struct cloth__contact cloth__contact;

/* The stage for sim's scene and mesh (sim->contact): NULL (and CLOTH_OK) when the kernel
 * handles contact itself. */
cloth_status cloth__contact_create(const cloth_sim *sim, cloth__contact **out,
                                   cloth_error *err);
void cloth__contact_destroy(cloth__contact *c);

/* Forgets the last step's obstacle hits (a reset, a rebuilt kernel). */
void cloth__contact_reset(cloth__contact *c);

/* A copy of sim->x in the stage's own buffer, for a step that overwrites its positions
 * in place: the x0 of the phases below.  NULL when no phase needs the start (no
 * self-collision). */
const double *cloth__contact_save_start(cloth_sim *sim);

/* The whole stage over the step x0 -> (sim->x, sim->v) of length h, as above. */
void cloth__contact_after_step(cloth_sim *sim, double h, const double *x0,
                               cloth__step_stats *stats);

/* ---- the phases, for CLOTH__CONTACT_IN_STEP kernels; each a no-op where not asked */

/* self: projects the close pairs of x apart (x0: the step's start); returns the pushes. */
int cloth__contact_self_project(cloth_sim *sim, double *x, const double *x0,
                                cloth__step_stats *stats);

/* velocity: the self contacts' velocity correction of v; returns how many contacts
 * *list (may be NULL) holds (a kernel whose velocity lives in its positions fixes them). */
int cloth__contact_self_velocities(cloth_sim *sim, double *v, const cloth__self_contact **list);

/* obstacles on sim->x and sim->v, as above. */
void cloth__contact_obstacles(cloth_sim *sim, double h);

/* The obstacles as position constraints gap(p) >= 0 for the free vertices [lo, hi) of
 * pos (`stride` doubles a vertex): each one inside goes back onto the surface
 * (cloth__push_out); no velocity.  A projecting kernel's passes call it (pbd). */
void cloth__contact_obstacle_positions(const cloth_sim *sim, double *pos, int stride, int lo,
                                       int hi);

/* The same, the body's skin first and then the sphere and the floor where their gap is
 * negative; returns how many vertices were deeper than tol (the ones that really moved:
 * verlet's sweeps stop when none did). */
int cloth__contact_obstacle_positions_counted(cloth_sim *sim, double *pos, int stride, int lo,
                                              int hi, double tol);

/* robust: over x0 -> x1 with velocities v (3n each, corrected in place); returns 1 when
 * it ran (run.self_collision = on), 0 when it left them alone. */
int cloth__contact_robust(cloth_sim *sim, double h, const double *x0, double *x1, double *v,
                          cloth__step_stats *stats);

/* The last obstacle pass's hits: for each vertex CLOTH__HIT_NONE, or the obstacle
 * (CLOTH__HIT_*) it was put back on, with its outward normal in (*normal)[3i..3i+2].
 * NULL (and *normal NULL) without a stage. */
const unsigned char *cloth__contact_obstacle_hits(const cloth_sim *sim, const double **normal);

#endif
