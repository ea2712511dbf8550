/* The collision stage's proximity impulses (collide.h, (a); Bridson 7.2). */
#include "terms/collide_proximity.h"
#include "terms/collide_candidates.h"

#include <string.h>

/* (a): the pairs closer than delta at x0; since > 0: only those with a vertex moved
 * after the clock since (the sweeps again, (d)).  Returns the impulses that moved the
 * pair's separation at the step's end by more than CLOTH__COLLIDE_OBSTACLE_ENOUGH of the
 * thickness.
 *
 * x0 does not change during a call, so which candidates are closer than delta at x0, and
 * their c, n and distance there, do not either: the first sweep of a query keeps them
 * (close_k, close_geo, in the list's order) and the later sweeps visit only those, with
 * the same values, so they act exactly as a scan of the whole list would (the others
 * were skipped by the boxes' test or the distance).  When they do not fit the room, the
 * later sweeps scan the whole list. */
static void proximity_pair(cloth__collide *c, const cloth__collide_def *def, double h,
                           const cloth__collide_pair *pr, const double cw[4],
                           const double n[3], double d, const double *x0, double *x1,
                           double *v, const double *inv_mass, int *acted,
                           cloth__collide_result *res)
{
    double target = CLOTH__COLLIDE_REPULSION * (def->thickness - d) / h;
    double dvn = 0;
    if (cloth__collide_impulse(c, pr, cw, n, target, def->friction, h, x0, x1, v, inv_mass,
                               &dvn)) {
        res->proximity++;
        *acted += dvn * h > CLOTH__COLLIDE_OBSTACLE_ENOUGH * def->thickness;
    }
}

/* The distance at x0 beyond which a candidate is surely no closer than delta at x0, for
 * a lower bound of the CCD's start distance g0 (g0_lower, else g0 computed and cached
 * for the call: the collision passes need it too), so that pair_geometry, which would
 * find d >= delta and skip the pair, need not run.  g0 is computed in the frame of the
 * pair's first vertex, pair_geometry's d in the world's: the same distance up to
 * rounding, a few units of DBL_EPSILON of the coordinates (ccd.h), far below the margin
 * 1e-6 delta + 1e-9 L (L the call's largest coordinate).  A pair skipped so keeps
 * d0 = NAN; the passes compute it if they need it, and it is then >= delta, so their
 * dmin = min(eta delta, d0 / 2) is eta delta either way. */
static double apart_enough(const cloth__collide *c, double delta)
{
    return delta + 1e-6 * delta + 1e-9 * c->x0_scale;
}

int cloth__collide_proximity(cloth__collide *c, const cloth__collide_def *def, double h,
                             const double *x0, double *x1, double *v, const double *inv_mass,
                             unsigned since, cloth__collide_result *res)
{
    int acted = 0;
    res->overflow |= c->cand_overflow;
    if (since && c->n_close >= 0) {
        for (int j = 0; j < c->n_close; j++) {
            double *d0;
            unsigned *seen;
            cloth__collide_pair pr = cloth__collide_candidate(c, c->close_k[j], &d0, &seen);
            if (cloth__collide_unchanged(c, &pr, since))
                continue;
            const double *g = c->close_geo + 8 * j;
            proximity_pair(c, def, h, &pr, g, g + 4, g[7], x0, x1, v, inv_mass, &acted, res);
        }
        return acted;
    }
    int total = c->cand.n_pt + c->cand.n_ee, keep = !since;
    if (keep)
        c->n_close = 0;
    for (int k = 0; k < total; k++) {
        double *d0;
        unsigned *seen;
        cloth__collide_pair pr = cloth__collide_candidate(c, k, &d0, &seen);
        /* the bound first: a pair it settles is skipped whatever its boxes say */
        if ((since && cloth__collide_unchanged(c, &pr, since)) ||
            cloth__collide_g0_lower(c, k, &pr, def->thickness) >=
                apart_enough(c, def->thickness) ||
            !cloth__collide_boxes_meet(&pr, x0, NULL, 0.5 * def->thickness) ||
            (!c->plain && cloth__collide_start_distance(c, k, &pr, x0) >=
                              apart_enough(c, def->thickness)))
            continue;
        double cw[4], n[3], d = cloth__collide_pair_geometry(&pr, x0, NULL, cw, n);
        *d0 = d;
        if (!(d < def->thickness))
            continue;
        if (keep && c->n_close >= 0 && c->n_close < c->close_cap) {
            double *g = c->close_geo + 8 * c->n_close;
            memcpy(g, cw, 4 * sizeof *g);
            memcpy(g + 4, n, 3 * sizeof *g);
            g[7] = d;
            c->close_k[c->n_close++] = k;
        } else if (keep) {
            c->n_close = -1; /* no room: the sweeps scan the whole list */
        }
        proximity_pair(c, def, h, &pr, cw, n, d, x0, x1, v, inv_mass, &acted, res);
    }
    return acted;
}
