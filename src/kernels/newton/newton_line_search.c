/* newton: the line search — a filter that keeps every barrier's gap positive along the
 * Newton direction (the largest feasible step, after IPC's CCD), then Armijo
 * backtracking on E from there. */
#include "kernels/newton/newton_work.h"

#include "terms/ccd.h"
#include "terms/contact.h"
#include "terms/strain_limit.h"

#include <math.h>
#include <string.h>

#define ARMIJO_C 1e-4
#define MAX_HALVINGS 60

/* Largest alpha that keeps every limited element (edge or triangle, by
 * newton.strain_measure) below its limit: its stretch stays at or below tau - eta g_s0.
 * Only min(upto, .) is exact: both callers of feasible_alpha clamp it to 1, and a
 * triangle that provably stays within its limit up to there is not bisected
 * (cloth__strain_tri_alpha_upto; most are, far from their limit). */
static double strain_alpha(const cloth__newton *w, const cloth__newton_ctx *ctx,
                           const double *x, const double *dir, double upto, int *bound)
{
    const cloth__newton_def *nd = ctx->nd;
    const cloth_mesh *m = ctx->mesh;
    double amax = INFINITY;
    *bound = 0;
    if (nd->strain_measure == CLOTH__STRAIN_EDGE) {
        for (int k = 0; k < w->n_limited; k++) {
            const cloth_spring *sp = &m->springs[w->limited[k]];
            double a = cloth__alpha_strain(x + 3 * sp->a, x + 3 * sp->b, dir + 3 * sp->a,
                                           dir + 3 * sp->b, sp->rest, nd->strain_limit,
                                           nd->eta);
            *bound += a < upto;
            amax = fmin(amax, a);
        }
        return amax;
    }
    for (int k = 0; k < w->n_limited_tris; k++) {
        int t = w->limited_tris[k];
        double xt[9], dt[9];
        cloth__newton_gather(x, m->tris + 3 * t, 3, xt);
        cloth__newton_gather(dir, m->tris + 3 * t, 3, dt);
        double a = cloth__strain_tri_alpha_upto(xt, dt, w->tri_dm + 4 * t, nd->strain_limit,
                                                nd->eta, upto);
        *bound += a < upto;
        amax = fmin(amax, a);
    }
    return amax;
}

/* The largest alpha <= 1 for which CCD proves every point-triangle and edge-edge
 * distance stays above thickness + eta (d0 - thickness) on [0, alpha], d0 its distance
 * now (Li et al. 2021's additive CCD, terms/ccd.h, per candidate of the broad phase over
 * the motion dir, boxes grown by thickness + g^).  When the broad phase has more
 * candidates than it holds, the motion is halved until they fit, and alpha is at most
 * that fraction.  The candidates are kept: they hold every pair within reach anywhere on
 * the segment, so the energies of the line search and of the next iterate need no
 * broad phase of their own (w->cand_valid; issue 34's "collect once per iteration").
 * Why no pair can be missed: the query's box of a primitive (vertex, edge, triangle)
 * bounds it at x and at x + scale dir, so by convexity at every x + alpha dir with
 * 0 <= alpha <= scale, each of its points moving linearly; two primitives within
 * distance r = thickness + g^ at such a point have points p, q with |p - q| < r, p in
 * one box and q in the other, so the boxes grown by r overlap and the pair is a
 * candidate (terms/broad_phase.h grows each box by r/2 a side).  Every point the line
 * search evaluates has alpha <= the alpha returned here <= scale, and the next iterate
 * is one of them (tests/test_newton_speed.c checks the kept set against a fresh broad
 * phase at such points). */
static double self_contact_alpha(cloth__newton *w, const cloth__newton_ctx *ctx,
                                 const double *x, const double *dir, int *hits)
{
    double thickness = ctx->thickness, eta = ctx->nd->eta;
    double reach = thickness + ctx->nd->dhat;
    double *motion = w->x_trial, scale = 1, t0 = cloth__newton_now_ms();
    cloth__broad_pairs bp;
    for (;;) {
        for (int i = 0; i < 3 * w->n; i++)
            motion[i] = scale * dir[i];
        cloth__broad_phase_query(w->bp, x, motion, reach, ctx->mesh->pinned, &bp);
        if (!bp.overflow || scale < 1e-6)
            break;
        w->pair_overflows++;
        (*hits)++;
        scale *= 0.5;
    }
    w->cand_valid = !bp.overflow;
    w->n_cand_pt = bp.n_pt;
    w->n_cand_ee = bp.n_ee;
    memcpy(w->cand_pt, bp.pt, 2 * (size_t)bp.n_pt * sizeof *bp.pt);
    memcpy(w->cand_ee, bp.ee, 2 * (size_t)bp.n_ee * sizeof *bp.ee);
    memset(w->cand_rest_pt, -1, (size_t)bp.n_pt * sizeof *w->cand_rest_pt);
    memset(w->cand_rest_ee, -1, (size_t)bp.n_ee * sizeof *w->cand_rest_ee);
    w->full_valid = 0;
    double t1 = cloth__newton_now_ms(), alpha = bp.overflow ? 0 : scale, big = 0;
    for (int i = 0; i < w->n; i++) {
        w->speed[i] = sqrt(cloth__dot3(dir + 3 * i, dir + 3 * i));
        for (int q = 0; q < 3; q++)
            big = fmax(big, fmax(fabs(x[3 * i + q]), fabs(x[3 * i + q] + dir[3 * i + q])));
    }
    w->cand_scale = big;
    w->cand_bounds = 1;
    for (int kind = 0; kind < 2; kind++) {
        for (int k = 0; k < cloth__newton_broad_count(&bp, kind); k++) {
            cloth__contact c = cloth__newton_broad_pair(&bp, kind, k);
            int v[4];
            cloth__newton_stencil(w, ctx, &c, v);
            double d0 = thickness +
                        cloth__newton_stencil_gap(w, ctx, &c, x, NULL, NULL, NULL, NULL, NULL);
            /* the pair closes at most at speed l_p (terms/ccd.h): no query when even that
             * keeps it clear over [0, alpha] */
            double speed[4], dmin = thickness + eta * (d0 - thickness);
            for (int i = 0; i < 4; i++)
                speed[i] = w->speed[v[i]];
            double first = kind ? fmax(speed[0], speed[1]) : speed[0];
            double second = kind ? fmax(speed[2], speed[3]) : fmax(speed[1], fmax(speed[2], speed[3]));
            /* for the trial points' collections (collect_full): d0 and the speed at
             * which the pair may close relative to its first vertex (the distance does
             * not change when all four move by the same alpha dir_v0, so the Lipschitz
             * bound holds for the motions dir - dir_v0, and a cloth that falls as a
             * whole bounds no pair by its fall) */
            double rel[4];
            for (int i = 1; i < 4; i++) {
                const double *di = dir + 3 * v[i], *d0v = dir + 3 * v[0];
                double e[3] = {di[0] - d0v[0], di[1] - d0v[1], di[2] - d0v[2]};
                rel[i] = sqrt(cloth__dot3(e, e));
            }
            double *kept = (kind ? w->cand_reach_ee : w->cand_reach_pt) + 2 * k;
            kept[0] = d0;
            kept[1] = kind ? rel[1] + fmax(rel[2], rel[3]) : fmax(rel[1], fmax(rel[2], rel[3]));
            if (d0 - alpha * (first + second) > dmin ||
                cloth__newton_cand_near_at_rest(w, ctx, v, kind, k))
                continue;
            double x0[12], x1[12], toi;
            cloth__newton_gather(x, v, 4, x0);
            for (int i = 0; i < 4; i++)
                for (int q = 0; q < 3; q++)
                    x1[3 * i + q] = x0[3 * i + q] + alpha * dir[3 * v[i] + q];
            w->profile.ccd_queries++;
            if (cloth__ccd(kind ? CLOTH__CCD_EDGE_EDGE : CLOTH__CCD_POINT_TRIANGLE, x0, x1,
                           dmin, &toi, NULL) != 0) {
                alpha *= toi; /* a hit (toi < 1), or bad input (toi = 0) */
                (*hits)++;
            }
        }
    }
    w->profile.broad_ms += t1 - t0;
    w->profile.ccd_ms += cloth__newton_now_ms() - t1;
    return alpha;
}

/* The body's gap g = d - offset (newton_body.c) is Lipschitz with a constant L along a
 * straight path (cloth__newton_body_lipschitz): from a point at gap g it cannot fall
 * below eta g0 within a further (g - eta g0) / (L |d|) of alpha.  Conservative
 * advancement along x + alpha d: from alpha = 0, step by that much and evaluate the gap
 * there, until alpha reaches `upto` (feasible all the way) or the advance stalls; a
 * vertex moving out of the body gains gap at every step, so its steps grow
 * geometrically, where the one bound from g0 alone (the first step) would hold a vertex
 * near the skin to a fraction of its gap whichever way it moves. */
#define BODY_ADVANCES 24

static double body_alpha(const cloth__newton *w, const cloth__newton_ctx *ctx,
                         const double x[3], const double d[3], double eta, double upto)
{
    double len = sqrt(cloth__dot3(d, d));
    if (len == 0)
        return INFINITY;
    double speed = cloth__newton_body_lipschitz(ctx) * len;
    double g0 = cloth__newton_body_gap(w, ctx, x, NULL, NULL), floor = eta * g0, alpha = 0;
    if (g0 <= 0)
        return 0;
    for (int k = 0; k < BODY_ADVANCES; k++) {
        double xa[3] = {x[0] + alpha * d[0], x[1] + alpha * d[1], x[2] + alpha * d[2]};
        double gk = k == 0 ? g0 : cloth__newton_body_gap(w, ctx, xa, NULL, NULL);
        if (!(gk > floor))
            break; /* a gap below the bound: only by rounding, or a discontinuity */
        double next = alpha + (1 - 1e-9) * (gk - floor) / speed;
        if (next >= upto)
            return upto;
        if (next - alpha <= 1e-6 * next)
            return next; /* stalled: closing in on eta g0 */
        alpha = next;
    }
    return alpha;
}

/* Largest alpha with every gap >= eta * its gap now and every limited edge under its
 * limit along x + alpha dir (contact.c, per primitive).  Pairs that the query at radius
 * R = offset + max(g^, 2 |dir|_max / (1 - eta)) does not return cannot close by more
 * than (1 - eta) of their gap for alpha <= 1; if that query overflows, the query at
 * offset + g^ is used and alpha capped at (1 - eta) g^ / (2 |dir|_max). */
static double feasible_alpha(cloth__newton *w, const cloth__newton_ctx *ctx,
                             const double *x, const double *dir)
{
    const cloth__newton_def *nd = ctx->nd;
    double eta = nd->eta, amax = INFINITY, dmax = 0;
    cloth__newton_filters *f = &w->filters;
    *f = (cloth__newton_filters){.obstacle = INFINITY, .ccd = INFINITY, .strain = INFINITY};
    if (nd->barrier == CLOTH__BARRIER_NONE)
        return amax;
    for (int i = 0; i < w->n; i++) {
        if (w->dof[i] < 0)
            continue;
        const double *xi = x + 3 * i, *di = dir + 3 * i;
        double vertex = INFINITY;
        dmax = fmax(dmax, sqrt(cloth__dot3(di, di)));
        if (ctx->sphere.enabled)
            vertex = fmin(vertex, cloth__alpha_sphere(xi, di, w->sphere_c, ctx->sphere.radius,
                                                      ctx->sphere.offset, eta));
        if (ctx->floor.enabled)
            vertex = fmin(vertex, cloth__alpha_floor(xi, di, ctx->floor.height,
                                                     ctx->floor.offset, eta));
        amax = fmin(amax, vertex);
        if (ctx->avatar) {
            /* exact only below `upto`: at it, this vertex did not bind */
            double upto = fmin(amax, 1.0), body = body_alpha(w, ctx, xi, di, eta, upto);
            amax = fmin(amax, body);
            vertex = fmin(vertex, body < upto ? body : INFINITY);
        }
        f->n_obstacle += vertex < 1;
    }
    f->obstacle = amax;
    if (nd->strain_limit > 0) {
        f->strain = strain_alpha(w, ctx, x, dir, fmin(amax, 1.0), &f->n_strain);
        amax = fmin(amax, f->strain);
    }
    if (ctx->self_collision && nd->contact == CLOTH__CONTACT_FULL && dmax > 0) {
        f->ccd = self_contact_alpha(w, ctx, x, dir, &f->n_ccd);
        amax = fmin(amax, f->ccd);
    }
    if (ctx->self_collision && nd->contact == CLOTH__CONTACT_VERTEX && dmax > 0) {
        const int *pairs;
        int overflow;
        double reach = fmax(nd->dhat, 2 * dmax / (1 - eta));
        int count = cloth__spatial_hash_query(w->hash, x, ctx->thickness + reach,
                                              cloth__newton_keep_pair, w, &pairs, &overflow);
        if (overflow) {
            w->pair_overflows++;
            count = cloth__spatial_hash_query(w->hash, x, ctx->thickness + nd->dhat,
                                              cloth__newton_keep_pair, w, &pairs, &overflow);
            f->ccd = (1 - eta) * nd->dhat / (2 * dmax);
            f->n_ccd += f->ccd < 1;
        }
        for (int p = 0; p < count; p++) {
            int a = pairs[2 * p], b = pairs[2 * p + 1];
            double pair = cloth__alpha_pair(x + 3 * a, x + 3 * b, dir + 3 * a, dir + 3 * b,
                                            ctx->thickness, eta);
            f->n_ccd += pair < 1;
            f->ccd = fmin(f->ccd, pair);
        }
        amax = fmin(amax, f->ccd);
    }
    return amax;
}

double cloth__newton_feasible_alpha(cloth__newton *w, const cloth__newton_ctx *ctx,
                                    const double *x, const double *dir)
{
    return feasible_alpha(w, ctx, x, dir);
}

/* Accepts the first E(x + alpha d) <= E(x) + c alpha grad.d (c = 1e-4), halving
 * otherwise. */
double cloth__newton_line_search(cloth__newton *w, const cloth__newton_ctx *ctx, double e0,
                                 double slope)
{
    /* ASSIGNMENT newton_linesearch: line_search BEGIN */
    w->cand_bounds = 0; /* until this segment's filter stores them */
    double alpha = fmin(1.0, feasible_alpha(w, ctx, w->x, w->dir));
    for (int k = 0; k < MAX_HALVINGS && alpha > 0; k++, alpha *= 0.5) {
        for (int i = 0; i < 3 * w->n; i++)
            w->x_trial[i] = w->x[i] + alpha * w->dir[i];
        w->trial = w->cand_bounds; /* x_trial is x + alpha dir: its collection may
                                    * bound the pairs by the filter's d0 and l_p */
        w->trial_alpha = alpha;
        double e = cloth__newton_energy(w, ctx, w->x_trial, NULL, 0, 0);
        w->trial = 0;
        if (e <= e0 + ARMIJO_C * alpha * slope)
            return alpha;
    }
    memcpy(w->x_trial, w->x, sizeof(double) * 3 * (size_t)w->n);
    return 0;
    /* ASSIGNMENT newton_linesearch: line_search END */
}
