/* Private to the collision stage (collide.h): a candidate pair, its geometry at given
 * positions (weights c, unit normal n, distance), the impulse on it, and the CCD's start
 * distance (collide_pair.c). */
#ifndef CLOTH_COLLIDE_PAIR_H
#define CLOTH_COLLIDE_PAIR_H

#include "terms/collide_state.h"
#include "terms/ccd.h"

/* A candidate: its kind, its four vertices (point, triangle; or edge, edge). */
typedef struct cloth__collide_pair {
    cloth__ccd_pair kind;
    int v[4];
} cloth__collide_pair;

/* Candidate (point, triangle) pt of the broad phase's list as a pair. */
cloth__collide_pair cloth__collide_pair_pt(const cloth__collide *c, const int *pt);

/* Candidate (edge, edge) ee of the broad phase's list as a pair. */
cloth__collide_pair cloth__collide_pair_ee(const cloth__collide *c, const int *ee);

/* The pair's weights c, unit normal n and distance at x (ref: the side). */
double cloth__collide_pair_geometry(const cloth__collide_pair *pr, const double *x,
                                    const double *ref, double cw[4], double n[3]);

/* The pair's distance at positions x. */
double cloth__collide_pair_distance(const cloth__collide_pair *pr, const double *x);

/* Vertex i's average velocity changed by dv: x1 += h dv, v += dv (stamped). */
void cloth__collide_nudge(cloth__collide *c, double *x1, double *v, int i, const double dv[3],
                          double h);

/* The impulse raising the pair's relative normal velocity to target; 1: acted. */
int cloth__collide_impulse(cloth__collide *c, const cloth__collide_pair *pr,
                           const double cw[4], const double n[3], double target, double mu,
                           double h, const double *x0, double *x1, double *v,
                           const double *inv_mass, double *dvn_out);

/* The twelve coordinates of the pair's vertices in x. */
void cloth__collide_gather(const cloth__collide_pair *pr, const double *x, double out[12]);

/* The CCD's distance at the step's start; a[12] moved in place. */
double cloth__collide_ccd_start_distance(const cloth__collide_pair *pr, double a[12]);

#endif
