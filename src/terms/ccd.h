/* Private: conservative continuous collision detection of a point-triangle or an edge-edge
 * pair moving linearly, by additive CCD (Li, Kaufman and Jiang 2021, "Codimensional
 * Incremental Potential Contact", its ACCD algorithm).  The public queries
 * cloth_ccd_point_triangle and cloth_ccd_edge_edge (cloth.h) are wrappers of this.
 *
 * The vertices x_i(t) = x_i + t p_i, t in [0, 1], are ordered as in distance.h; d(t) is
 * the distance between the closed primitives (its type chosen afresh at every t) and
 * the gap g(t) = d(t) - dmin.
 *
 * Why it is conservative.  Subtracting the mean displacement from every p_i moves both
 * primitives alike and changes no distance.  A point of one primitive minus a point of
 * the other is sum_i c_i x_i with sum_i c_i = 0 and the c_i of each primitive a convex
 * combination, so it moves at most at the speed
 *   l_p = max_i |p_i| + max_j |p_j|      (i over one primitive's vertices, j the other's)
 * and d, the minimum of such distances, loses at most l_p per unit time:
 *   g(t + s) >= g(t) - l_p s.
 * A step s = 0.9 g(t) / l_p therefore keeps g above 0.1 g(t) > 0 on [t, t + s].  The
 * loop takes such steps from t = 0; it stops with no hit when a step reaches t = 1, and
 * with a hit at t when g(t) has fallen below CLOTH__CCD_STOP g(0): the motion may then be
 * about to reach dmin, and all of [0, t] is proven clear of it.  A head-on approach
 * divides g by about 10 a step (about 4 steps to a hit); a motion that keeps a gap g_min
 * while sliding past takes up to l_p / (0.9 g_min) steps, so the loop gives up with a hit
 * after CLOTH__CCD_MAX_STEPS.  Measured on random pairs in a unit box (one core of this
 * machine): 60 ns a point-triangle distance, 90 ns an edge-edge one, 0.2 to 2 us a query
 * (1 to 18 distances on average, the more the more pairs come close).
 *
 * Rounding.  Positions are taken relative to vertex 0's start (smaller numbers), and
 * every computed gap is lowered by CLOTH__CCD_ROUNDING L before it sets a step, L the
 * largest coordinate in that frame over the motion: an allowance for the rounding of
 * the positions and of the distance formulas (a few units of DBL_EPSILON L on
 * well-shaped primitives).  A pair that starts within 4 times that of dmin is reported
 * as a hit at t = 0, and the stop never comes closer to dmin than that either. */
#ifndef CLOTH_CCD_H
#define CLOTH_CCD_H

#include <float.h>

/* g below this fraction of g(0) ends the search with a hit */
#define CLOTH__CCD_STOP 1e-3
/* the most distance evaluations after the first before it gives up (with a hit) */
#define CLOTH__CCD_MAX_STEPS 1000000L
/* the allowance for rounding, in units of L */
#define CLOTH__CCD_ROUNDING (1024 * DBL_EPSILON)

typedef enum { CLOTH__CCD_POINT_TRIANGLE = 0, CLOTH__CCD_EDGE_EDGE } cloth__ccd_pair;

/* The additive CCD of the pair: x0 and x1 the 12 coordinates of its four vertices at
 * t = 0 and t = 1.  Returns 1 (a hit) when the distance may come within dmin during the
 * motion, with *toi the time up to which it is proven to stay above dmin; 0 when it
 * stays above dmin over all of [0, 1], with *toi = 1; -1, with *toi = 0, when dmin is
 * negative or not finite or a coordinate is not finite.  *steps, when steps is not NULL,
 * counts the distance evaluations.  Allocates nothing. */
int cloth__ccd(cloth__ccd_pair pair, const double x0[12], const double x1[12], double dmin,
               double *toi, long *steps);

/* 1 when cloth__ccd(pair, x0, x1, dmin) would answer 0 (no hit) at its first step, given
 * dist0, the pair's distance at x0 as cloth__ccd computes it (positions relative to
 * vertex 0's start): the gap less the rounding allowance is more than the relative motion
 * can close, or there is no relative motion.  0 when the CCD must be run.  The same
 * arithmetic as cloth__ccd's start, so the same answer; a caller that keeps dist0 for many
 * motions of one start (the collision stage's passes) skips most distances with it. */
int cloth__ccd_clears_at_once(cloth__ccd_pair pair, const double x0[12], const double x1[12],
                              double dmin, double dist0);

/* cloth__ccd with a cap of its own on the distance evaluations (at least 1): a pair that
 * needs more is a hit, as at CLOTH__CCD_MAX_STEPS.  The tunnelled metric (tunnel.h) uses
 * a lower cap than the simulation's. */
int cloth__ccd_capped(cloth__ccd_pair pair, const double x0[12], const double x1[12],
                      double dmin, long max_steps, double *toi, long *steps);

#endif
