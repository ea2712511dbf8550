/* Private to the collision stage (collide.h, (b)): the CCD impulses of the collision
 * passes, and the CCD test of a candidate that the impact zones' searches share
 * (collide_passes.c). */
#ifndef CLOTH_COLLIDE_PASSES_H
#define CLOTH_COLLIDE_PASSES_H

#include "terms/collide_pair.h"

/* 1 when candidate k's motion x0 -> x1 hits, at *toi (else stamped clear). */
int cloth__collide_candidate_hits(cloth__collide *c, int k, const cloth__collide_pair *pr,
                                  double *d0, unsigned *seen, const cloth__collide_def *def,
                                  const double *x0, const double *x1, double *toi);

/* (b): one collision pass, Gauss-Seidel over the pairs; returns the hits. */
int cloth__collide_collision_pass(cloth__collide *c, const cloth__collide_def *def, double h,
                                  const double *x0, double *x1, double *v,
                                  const double *inv_mass, cloth__collide_result *res);

#endif
