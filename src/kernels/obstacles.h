/*
 * The obstacles as the projecting kernels meet them after a step (explicit, verlet's
 * force modes aside, bw, pd, and any new kernel that proposes x and v): every free vertex
 * inside the sphere, under the floor or inside the avatar's skin goes back to the surface
 * (terms/obstacle.h, cloth__push_out), and its velocity keeps only the outward part of
 * its velocity relative to the obstacle there (the sphere's centre velocity over the step,
 * the body's material velocity): an inelastic contact, no friction.  Shared so that the
 * rule lives in one place; the avatar's share of the time goes to its collide_ms.
 */
#ifndef CLOTH_KERNELS_OBSTACLES_H
#define CLOTH_KERNELS_OBSTACLES_H

#include "cloth.h"

/* One pass over sim's free vertices at the end of a step of length h (c_old: the sphere's
 * centre at the step's start).  hit and normal may be NULL; else, for every vertex moved,
 * hit[i] gets its CLOTH__HIT_* kind and normal[3i..3i+2] the outward normal (entries of
 * vertices not moved are left as they were: Baraff-Witkin's contact filter reads them). */
void cloth__kernel_obstacles(cloth_sim *sim, const double c_old[3], double h,
                             unsigned char *hit, double *normal);

#endif
