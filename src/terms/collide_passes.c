/* The collision stage's CCD impulses (collide.h, (b); Bridson 7.3-7.4). */
#include "terms/collide_passes.h"
#include "terms/collide_candidates.h"
#include "terms/vec3.h"

#include <math.h>
#include <string.h>

/* 1 when cloth__ccd(kind, x0, x1, dmin) would return 0 at its first step, from the
 * distance dist0 it computes there (ccd_start_distance, which does not change during a
 * call): terms/ccd.h, cloth__ccd_clears_at_once.  Most candidates of a resting or falling
 * sheet move together and end here, without a distance. */
static int ccd_clear(cloth__ccd_pair kind, const double x0[12], const double x1[12],
                     double dmin, double dist0)
{
    return cloth__ccd_clears_at_once(kind, x0, x1, dmin, dist0);
}

/* The CCD of the pair over x0 -> x1 against dmin = min(eta delta, d0 / 2) (collide.h):
 * 1 and the time of the hit, or 0.  *g0: the CCD's start distance (ccd_clear), cached
 * like *d0. */
static int pair_hits(const cloth__collide_pair *pr, const double *x0, const double *x1,
                     double delta, double *d0, double *g0, double *toi)
{
    double a[12], b[12];
    cloth__collide_gather(pr, x0, a);
    cloth__collide_gather(pr, x1, b);
    if (isnan(*g0)) { /* x0 does not change during a call: once a call */
        double r[12];
        memcpy(r, a, sizeof r);
        *g0 = cloth__collide_ccd_start_distance(pr, r);
    }
    /* dmin <= eta delta, and the skip test is monotone in dmin (its gap g0 - dmin only
     * grows as dmin falls, and rounding keeps that order): a pair clear against eta delta
     * is clear against dmin, without the distance d0 (most candidates end here) */
    double dmax = CLOTH__COLLIDE_ETA * delta;
    if (ccd_clear(pr->kind, a, b, dmax, *g0))
        return 0;
    if (isnan(*d0))
        *d0 = cloth__collide_pair_distance(pr, x0);
    double dmin = fmin(dmax, 0.5 * *d0);
    if (dmin != dmax && ccd_clear(pr->kind, a, b, dmin, *g0))
        return 0;
    return cloth__ccd(pr->kind, a, b, dmin, toi, NULL) != 0;
}

/* 1 when the CCD's skip test (ccd_clear against eta delta, whose answer pair_hits would
 * reach) surely says clear, without the pair's motion: g0 (or a lower bound of it:
 * the test only gets easier as g0 grows) known, its vertices unchanged since
 * motion_spread.  With p_k = d_k less the pair's mean motion,
 * |p_k| <= e_k + max_j e_j <= 2 e (e the pair's largest e_k), so the CCD's closing speed
 * l_p <= 4 e, and its rounding allowance is CLOTH__CCD_ROUNDING L <= that of spread_L.
 * The test asks gap = g0 - dmax > 4 slack and 0.9 (gap - slack) >= l_p; this asks the
 * same of the bounds, with a margin of 1e-9 delta (some 1e-12 m, where the rounding of
 * these sums is near 1e-16 m), so where it says clear the skip test does too, and
 * pair_hits would answer no hit. */
static int surely_clear(const cloth__collide *c, const cloth__collide_pair *pr, double g0,
                        double delta)
{
    double e = 0;
    if (!(g0 > -INFINITY))
        return 0;
    for (int k = 0; k < 4; k++) {
        int i = pr->v[k];
        if (c->stamp[i] > c->spread_clock)
            return 0;
        e = c->spread[i] > e ? c->spread[i] : e;
    }
    double slack = 2 * CLOTH__CCD_ROUNDING * c->spread_L, margin = 1e-9 * delta;
    double gap = g0 - CLOTH__COLLIDE_ETA * delta;
    return gap - 4 * slack > margin && 0.9 * (gap - slack) >= 4 * e + margin;
}

/* 1 when the pair's motion x0 -> x1 may come within the passes' distance: its boxes
 * meet (a fresh query would list it) and the CCD finds a hit at *toi.  A pair found
 * clear is stamped so that it is not tested again until a vertex of it moves. */
int cloth__collide_candidate_hits(cloth__collide *c, int k, const cloth__collide_pair *pr,
                                  double *d0, unsigned *seen, const cloth__collide_def *def,
                                  const double *x0, const double *x1, double *toi)
{
    if (cloth__collide_unchanged(c, pr, *seen))
        return 0;
    double *g0 = k < c->cand.n_pt ? c->g0_pt + k : c->g0_ee + (k - c->cand.n_pt);
    /* the bound first: boxes apart and a clear skip test both mean no hit */
    if (surely_clear(c, pr, cloth__collide_g0_lower(c, k, pr, def->thickness),
                     def->thickness) ||
        !cloth__collide_boxes_meet(pr, x0, x1, 0.5 * CLOTH__COLLIDE_ETA * def->thickness) ||
        (!c->plain &&
         surely_clear(c, pr, cloth__collide_start_distance(c, k, pr, x0), def->thickness)) ||
        !pair_hits(pr, x0, x1, def->thickness, d0, g0, toi)) {
        *seen = c->clock;
        return 0;
    }
    return 1;
}

/* (b): one collision pass, Gauss-Seidel over the pairs; returns the hits. */
int cloth__collide_collision_pass(cloth__collide *c, const cloth__collide_def *def, double h,
                                  const double *x0, double *x1, double *v,
                                  const double *inv_mass, cloth__collide_result *res)
{
    cloth__collide_ensure(c, def, x0, x1, res);
    int hits = 0, total = c->cand.n_pt + c->cand.n_ee;
    for (int k = 0; k < total; k++) {
        double *d0, toi;
        unsigned *seen;
        cloth__collide_pair pr = cloth__collide_candidate(c, k, &d0, &seen);
        if (!cloth__collide_candidate_hits(c, k, &pr, d0, seen, def, x0, x1, &toi))
            continue;
        hits++;
        /* the closest points where the CCD stopped, on the side the pair started */
        double xt[12], cw[4], n[3];
        for (int j = 0; j < 4; j++)
            for (int a = 0; a < 3; a++) {
                int i = 3 * pr.v[j] + a;
                xt[3 * j + a] = x0[i] + toi * (x1[i] - x0[i]);
            }
        cloth__collide_pair local = {pr.kind, {0, 1, 2, 3}};
        double ref[12];
        cloth__collide_gather(&pr, x0, ref);
        cloth__collide_pair_geometry(&local, xt, ref, cw, n);
        double d0n = 0;
        for (int j = 0; j < 4; j++)
            d0n += cw[j] * cloth__dot(ref + 3 * j, n);
        double target = fmin(0, (def->thickness - d0n) / h);
        res->impulses +=
            cloth__collide_impulse(c, &pr, cw, n, target, def->friction, h, x0, x1, v,
                                   inv_mass, NULL);
    }
    return hits;
}
