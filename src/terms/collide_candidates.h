/* Private to the collision stage (collide.h): the candidate list's upkeep
 * (collide_candidates.c says why it is sound): one broad-phase query a call, kept from
 * call to call while the motion stays inside its boxes, each candidate's cached distances
 * at x0 and their lower bounds, and the broad phase's own box test of a pair. */
#ifndef CLOTH_COLLIDE_CANDIDATES_H
#define CLOTH_COLLIDE_CANDIDATES_H

#include "terms/collide_pair.h"

/* A fresh query of the candidates over x0 -> x1. */
void cloth__collide_query(cloth__collide *c, const cloth__collide_def *def, const double *x0,
                          const double *x1);

/* The candidates for a pass at end positions x1 (queried again if they left). */
void cloth__collide_ensure(cloth__collide *c, const cloth__collide_def *def, const double *x0,
                           const double *x1, cloth__collide_result *res);

/* 1 when a call over x0 -> x1 may keep the list. */
int cloth__collide_still_holds(const cloth__collide *c, const cloth__collide_def *def,
                               const double *x0, const double *x1);

/* A call's candidates: the last call's list, or a query. */
void cloth__collide_begin_call(cloth__collide *c, const cloth__collide_def *def,
                               const double *x0, const double *x1, int fixed_changed);

/* Candidate k, its cached distance at x0 and its last clean test. */
cloth__collide_pair cloth__collide_candidate(const cloth__collide *c, int k, double **d0,
                                             unsigned **seen);

/* 1 when no vertex of the pair has moved since the clock seen. */
int cloth__collide_unchanged(const cloth__collide *c, const cloth__collide_pair *pr,
                             unsigned seen);

/* The broad phase's test of the pair: its primitives' boxes meet. */
int cloth__collide_boxes_meet(const cloth__collide_pair *pr, const double *x0,
                              const double *x1, double half);

/* Candidate k's g0, the CCD's distance at x0, once a call. */
double cloth__collide_start_distance(cloth__collide *c, int k, const cloth__collide_pair *pr,
                                     const double *x0);

/* A lower bound of candidate k's g0 in this call, -INFINITY: none. */
double cloth__collide_g0_lower(const cloth__collide *c, int k, const cloth__collide_pair *pr,
                               double delta);

#endif
