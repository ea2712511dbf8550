/*
 * The robust collision stage (terms/collide.h: Bridson, Fedkiw and Anderson 2002) as a
 * kernel calls it, once per step, with run.self_collision = on.  Shared by the kernels
 * that propose a step and let the stage make it safe (explicit, verlet, pbd, bw, pd, and any new
 * one): a few lines in the kernel,
 *
 *   create:   cloth__collide_stage_create(sim, &w->stage, err);  (NULL unless on)
 *   step:     x0 = the step's start positions, x1 the proposed end, v the end velocities
 *             cloth__collide_stage_apply(w->stage, sim, h, x0, x1, v, stats);
 *             (sim is the step's non-const sim: the frame's counts live there)
 *   destroy:  cloth__collide_stage_destroy(w->stage);
 *
 * A NULL stage is a no-op everywhere, so a kernel need not test the mode.  The kernel
 * also sets `.collide_stage = 1` in its cloth__kernel table: the sim then refuses a start
 * with a point-triangle or edge-edge pair closer than material.thickness (sim.c).
 *
 * Contract of apply: x0 must be free of crossings (the previous step's output is); x1 and
 * v are corrected in place so that no point-triangle or edge-edge pair (sharing no vertex)
 * comes within separation 0 during the linear motion x0 -> x1.  Every correction changes
 * both ends alike (x1 += h dv, v += dv), so a kernel whose velocity is (x1 - x0) / h keeps
 * it; a kernel that stores velocity another way (verlet's x_prev) rebuilds it from the
 * returned v.  Pinned vertices (inverse mass 0, read each step) are never moved.
 * Obstacles: x1 must be outside the sphere, the floor and the avatar's skin (the kernel's
 * own projection, kernels/obstacles.h); the stage keeps them there (terms/collide.h (d):
 * the obstacles as collision objects in the same passes, the sphere at sim->sphere_c,
 * its end-of-step centre), except in an impact zone held by a pin, and gives the
 * vertices an obstacle moved the kernels' inelastic velocity rule.  The
 * stage runs Bridson's proximity impulses (material.thickness, material.self_friction),
 * up to run.collision_passes CCD impulse passes, then rigid impact zones until no pair
 * hits.  It adds the passes made, the impact zones formed and its wall time to the
 * frame's counts in sim (the series columns collision_passes, the most of a step;
 * impact_zones and collide_ms, summed over the frame), and sets
 * stats->not_converged when it could not resolve the step (a broad-phase overflow, or
 * non-finite input, which it leaves untouched).  Allocates nothing.
 */
#ifndef CLOTH_KERNELS_COLLIDE_STAGE_H
#define CLOTH_KERNELS_COLLIDE_STAGE_H

#include "cloth.h"
#include "sim/kernel.h"

typedef struct cloth__collide_stage cloth__collide_stage;

/* *out = NULL (and CLOTH_OK) unless sim's run.self_collision is on; else the stage sized
 * for sim's mesh. */
cloth_status cloth__collide_stage_create(const cloth_sim *sim, cloth__collide_stage **out,
                                         cloth_error *err);
void cloth__collide_stage_destroy(cloth__collide_stage *cs);

/* A copy of x (3n) in the stage's own buffer, for a kernel that overwrites its positions
 * in place during the step (explicit): pass the result as x0 to apply.  NULL stage: NULL. */
const double *cloth__collide_stage_save_start(cloth__collide_stage *cs, const double *x);

/* The stage over one step of length h, as above.  NULL stage: nothing. */
void cloth__collide_stage_apply(cloth__collide_stage *cs, cloth_sim *sim, double h,
                                const double *x0, double *x1, double *v,
                                cloth__step_stats *stats);

#endif
