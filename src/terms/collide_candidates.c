/* The candidate list of the collision stage (collide.h): its upkeep from call to call. */
#include "terms/collide_candidates.h"
#include "terms/vec3.h"

#include <math.h>
#include <string.h>

/* One broad-phase query serves the whole stage call, and the calls after it while it
 * can: the proximity impulses, every collision pass and every search of the impact zones
 * read the same candidate list, and so do the next steps' calls.
 *
 * Why it is sound.  The query boxes each vertex's motion q_i -> q_i + (1 + A)(r_i - q_i)
 * (q the start positions and r the end positions when it ran, A = ahead: the steps of
 * motion beyond r that the boxes reach, so that the next calls of a sheet moving on as it
 * did stay inside; B_i that box, grown on every side by the vertex's own room grow_i,
 * which the argument does not need: it lets a vertex corrected in the last call, or near
 * one, keep the list through this call's corrections; B_i is xq_i -> xq_i + dx_i) grown
 * by g = max(1, eta) delta / 2 + s on every side (s = slack *
 * delta), and lists every pair whose primitives' boxes meet (broad_phase.h: the exact
 * set).  A collision pass asks for the pairs whose boxes over x0 -> x1 grown by
 * eta delta / 2 meet, the proximity impulses for those whose boxes at x0 grown by
 * delta / 2 meet, x0 and x1 the current call's.  While every coordinate of x0 and of x1
 * lies within tol < s of B_i's (checked over all vertices: x0 when a call starts, x1
 * before each pass and search), the box of x0_i -> x1_i, and the point x0_i, lie in B_i
 * grown by s, so a primitive's box grown by max(1, eta) delta / 2 lies in its query box,
 * and two such boxes that meet make query boxes that meet: every pair a pass or the
 * proximity impulses want is a candidate.  When a vertex has left (a correction, a change
 * of course), the list is queried afresh over x0 -> x1.  tol = 0.9 s leaves 0.1 s for
 * the rounding of the boxes' arithmetic.  The argument holds for any slack and any A, so
 * the slack may adapt (collide.h): each query starts with what the last call's
 * corrections needed, and a query again within a call doubles it.  A call starts afresh
 * too when the list overflowed, the thickness changed or a vertex was pinned or freed
 * (the query leaves out pairs of fixed vertices).
 *
 * Each use filters the candidates by the broad phase's own test (boxes_meet, the same
 * arithmetic), so a pass looks at exactly the pairs a fresh query would list, in the
 * sorted order of cloth__broad_phase_sort (a total order on the pairs' indices, which does
 * not depend on the grid, nor on when or with which boxes the list was queried): the
 * stage's results do not depend on the slack, on A, nor on which call queried.
 * tests/test_collide.c compares the filtered list with fresh queries on random motions
 * and on sequences of calls, and catches a slack smaller than the tolerance.
 *
 * Two more savings, neither changing a result.  A candidate's distance at x0 (the CCD's
 * dmin, the proximity impulse's d) is computed once a call.  A candidate that a pass
 * found not hitting (or whose boxes do not meet) is not tested again until one of its
 * vertices moves (a vertex's stamp is the clock of its last change of x1; the CCD of
 * the same positions gives the same answer). */

/* The room of the boxes around B (m): s = slack * delta. */
static double slack_of(const cloth__collide *c, double delta)
{
    return c->slack * delta;
}

/* The per-call values of the candidates (x0 is the call's): none known yet. */
static void forget(cloth__collide *c)
{
    for (int k = 0; k < c->cand.n_pt; k++) {
        c->d0_pt[k] = c->g0_pt[k] = NAN;
        c->seen_pt[k] = 0;
    }
    for (int k = 0; k < c->cand.n_ee; k++) {
        c->d0_ee[k] = c->g0_ee[k] = NAN;
        c->seen_ee[k] = 0;
    }
    c->n_close = -1;
}

void cloth__collide_query(cloth__collide *c, const cloth__collide_def *def, const double *x0,
                          const double *x1)
{
    double delta = def->thickness, stretch = 1.0 + c->ahead;
    size_t n3 = 3 * (size_t)c->mesh->n;
    for (size_t k = 0; k < n3; k++)
        c->dx[k] = stretch * (x1[k] - x0[k]);
    memcpy(c->xq, x0, n3 * sizeof *x0);
    /* a vertex corrected in the last call gets its own room: its box is that of its
     * motion grown by grow_i on every side, given to the broad phase as the motion from
     * the box's low corner to its high one (any box is that of its diagonal) */
    for (int i = 0; !c->plain && i < c->mesh->n; i++) {
        double g = c->grow[i];
        if (!(g > 0))
            continue;
        for (int a = 0; a < 3; a++) {
            size_t k = 3 * (size_t)i + a;
            double p = x0[k], e = p + c->dx[k];
            double lo = (e < p ? e : p) - g, hi = (e > p ? e : p) + g;
            c->xq[k] = lo;
            c->dx[k] = hi - lo;
        }
    }
    double reach = fmax(1.0, CLOTH__COLLIDE_ETA) * delta + 2 * slack_of(c, delta);
    cloth__broad_phase_query_cells(c->bp, c->xq, c->dx, reach, c->fixed, &c->cand);
    c->cand_overflow = c->cand.overflow;
    c->q_thickness = delta;
    forget(c);
    for (int k = 0; k < c->cand.n_pt + c->cand.n_ee; k++)
        c->lb[k] = NAN;
    for (int i = 0; i < c->mesh->n; i++)
        c->drift[i] = 0;
    memcpy(c->x0_last, x0, n3 * sizeof *x0);
    c->queried = 1;
    c->queries++;
}

/* 1 when every coordinate of x lies within tol of its vertex's box B (above), with the
 * broad phase's arithmetic of the box's ends. */
static int inside_boxes(const cloth__collide *c, const double *x, double tol)
{
    for (int k = 0; k < 3 * c->mesh->n; k++) {
        double p = c->xq[k], e = p + c->dx[k];
        double lo = e < p ? e : p, hi = e > p ? e : p;
        if (!(x[k] >= lo - tol && x[k] <= hi + tol))
            return 0;
    }
    return 1;
}

/* For surely_clear: with D the mean of the motions d_i = x1_i - x0_i, each vertex's
 * e_i = |d_i - D|, and L <= 2 max |x0|_inf + 2 max |d|_inf, a bound of the largest
 * coordinate in the CCD's frame (relative to a vertex's start, over the motion less the
 * pair's mean: |a + p|_inf <= 2 max |x0|_inf + 2 max |d|_inf).  Valid until a vertex's
 * x1 changes (its stamp passes spread_clock). */
static void motion_spread(cloth__collide *c, const double *x0, const double *x1)
{
    int n = c->mesh->n;
    double mean[3] = {0, 0, 0}, big = 0;
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) {
            double d = x1[3 * i + a] - x0[3 * i + a];
            mean[a] += d;
            big = fmax(big, 2 * fabs(x0[3 * i + a]) + 2 * fabs(d));
        }
    for (int a = 0; a < 3; a++)
        mean[a] /= n > 0 ? n : 1;
    for (int i = 0; i < n; i++) {
        double r[3];
        for (int a = 0; a < 3; a++)
            r[a] = x1[3 * i + a] - x0[3 * i + a] - mean[a];
        c->spread[i] = cloth__norm(r);
    }
    c->spread_L = big;
    c->spread_clock = c->clock;
}

/* The candidates for a pass at end positions x1: queried afresh when a vertex has left
 * the boxes of the last query (above). */
void cloth__collide_ensure(cloth__collide *c, const cloth__collide_def *def, const double *x0,
                           const double *x1, cloth__collide_result *res)
{
    double tol = c->tol * def->thickness, need = c->need;
    for (int k = 0; k < 3 * c->mesh->n; k++) {
        double b = fabs(x1[k] - c->x1_prop[k]);
        need = b > need ? b : need;
    }
    c->need = need;
    if (!c->queried || !inside_boxes(c, x1, tol)) {
        /* corrections larger than the slack: a larger one for the rest of the call, and
         * boxes of this motion only (the next call is likely corrected too) */
        c->slack = fmax(c->slack, fmin(2 * c->slack, c->slack_cap));
        c->tol = 0.9 * c->slack;
        c->ahead = 0;
        cloth__collide_query(c, def, x0, x1);
    }
    res->overflow |= c->cand_overflow;
    motion_spread(c, x0, x1);
}

/* A kept list's call: each vertex's drift grows by |its x0's move less the mean move|
 * (distances do not change when every vertex moves alike, so a pair's distance at x0
 * has changed by at most the sum of the drifts its two primitives' vertices took since:
 * g0_lower).  Rounded up by a relative 1e-12. */
static void add_drift(cloth__collide *c, const double *x0)
{
    int n = c->mesh->n;
    double mean[3] = {0, 0, 0};
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 3; a++)
            mean[a] += x0[3 * i + a] - c->x0_last[3 * i + a];
    for (int a = 0; a < 3; a++)
        mean[a] /= n > 0 ? n : 1;
    for (int i = 0; i < n; i++) {
        double r[3];
        for (int a = 0; a < 3; a++)
            r[a] = x0[3 * i + a] - c->x0_last[3 * i + a] - mean[a];
        c->drift[i] += cloth__norm(r) * (1 + 1e-12);
    }
    memcpy(c->x0_last, x0, 3 * (size_t)n * sizeof *x0);
}

/* 1 when a call over x0 -> x1 may keep the list (above). */
int cloth__collide_still_holds(const cloth__collide *c, const cloth__collide_def *def,
                               const double *x0, const double *x1)
{
    double tol = c->tol * def->thickness;
    return c->queried && !c->cand_overflow && c->q_thickness == def->thickness &&
           inside_boxes(c, x0, tol) && inside_boxes(c, x1, tol);
}

/* A call's candidates: the last call's list when x0 and x1 lie in its boxes (above),
 * else a query with the slack the last call's corrections needed. */
void cloth__collide_begin_call(cloth__collide *c, const cloth__collide_def *def,
                               const double *x0, const double *x1, int fixed_changed)
{
    c->x0_scale = 0;
    for (int k = 0; k < 3 * c->mesh->n; k++)
        c->x0_scale = fmax(c->x0_scale, fabs(x0[k]));
    if (!c->plain && !fixed_changed && cloth__collide_still_holds(c, def, x0, x1)) {
        add_drift(c, x0);
        forget(c);
        c->carried++;
        return;
    }
    c->slack = fmin(c->slack_next, c->slack_cap);
    c->tol = 0.9 * c->slack;
    /* boxes reaching ahead only after a call without corrections: in contact the ends
     * are corrected every step and leave the boxes anyway, and a box stretched along a
     * fast motion catches the layers beneath (drape3 at 64 x 64 with h = 1/120 s:
     * 3 x 11 mm against 3 cm between the sheets) */
    c->ahead = c->calm ? c->ahead_max : 0;
    cloth__collide_query(c, def, x0, x1);
}

/* Candidate k of the list (point-triangle first), with its cached distance at x0 and its
 * last clean test. */
cloth__collide_pair cloth__collide_candidate(const cloth__collide *c, int k, double **d0,
                                             unsigned **seen)
{
    if (k < c->cand.n_pt) {
        *d0 = c->d0_pt + k;
        *seen = c->seen_pt + k;
        return cloth__collide_pair_pt(c, c->cand.pt + 2 * k);
    }
    k -= c->cand.n_pt;
    *d0 = c->d0_ee + k;
    *seen = c->seen_ee + k;
    return cloth__collide_pair_ee(c, c->cand.ee + 2 * k);
}

/* 1 when no vertex of the pair has moved since the clock seen (0: never tested). */
int cloth__collide_unchanged(const cloth__collide *c, const cloth__collide_pair *pr,
                             unsigned seen)
{
    if (seen == 0)
        return 0;
    for (int k = 0; k < 4; k++)
        if (c->stamp[pr->v[k]] > seen)
            return 0;
    return 1;
}

/* The broad phase's test of the pair, with its arithmetic (the box pieces of
 * broad_phase.h, which box_of and overlap use): the boxes of its two primitives at x0,
 * or over x0 -> x0 + (x1 - x0) when x1 is not NULL, grown by half on every side, meet.
 * tests/test_collide.c compares the lists it filters with fresh queries (the test made
 * to skip an axis fails them at once). */
/* Vertex i's coordinate's two ends over the motion (x1 NULL: at x0), low and high. */
static inline void span(const double *x0, const double *x1, int i, double *lo, double *hi)
{
    double p = x0[i], q = x1 ? p + (x1[i] - x0[i]) : p;
    *lo = q < p ? q : p;
    *hi = q > p ? q : p;
}

int cloth__collide_boxes_meet(const cloth__collide_pair *pr, const double *x0,
                              const double *x1, double half)
{
    /* axis by axis, ending at the first that parts them (most candidates that fail, fail
     * on one axis): the same ends, the same growth and the same comparisons as
     * cloth__box_add, cloth__box_grow and cloth__boxes_meet, so the same answer (a box
     * starts at its first vertex's ends rather than at +-INFINITY: the same for the
     * finite coordinates the stage holds) */
    int split = pr->kind == CLOTH__CCD_POINT_TRIANGLE ? 1 : 2;
    for (int a = 0; a < 3; a++) {
        double lo[2], hi[2];
        for (int b = 0; b < 2; b++) {
            int first = b ? split : 0, last = b ? 4 : split;
            span(x0, x1, 3 * pr->v[first] + a, lo + b, hi + b);
            for (int k = first + 1; k < last; k++) {
                double l, h;
                span(x0, x1, 3 * pr->v[k] + a, &l, &h);
                lo[b] = l < lo[b] ? l : lo[b];
                hi[b] = h > hi[b] ? h : hi[b];
            }
            lo[b] -= half;
            hi[b] += half;
        }
        if (!(lo[0] <= hi[1] && lo[1] <= hi[0]))
            return 0;
    }
    return 1;
}

/* Candidate k's g0, the CCD's distance at x0 (ccd_start_distance), computed once a call
 * and kept, with the least drift of its vertices, as the lower bound of later calls. */
double cloth__collide_start_distance(cloth__collide *c, int k, const cloth__collide_pair *pr,
                                     const double *x0)
{
    double *g0 = k < c->cand.n_pt ? c->g0_pt + k : c->g0_ee + (k - c->cand.n_pt);
    if (isnan(*g0)) {
        double a[12], least = INFINITY;
        cloth__collide_gather(pr, x0, a);
        *g0 = cloth__collide_ccd_start_distance(pr, a);
        for (int j = 0; j < 4; j++)
            least = fmin(least, c->drift[pr->v[j]]);
        c->lb[k] = *g0;
        c->lb_drift[k] = least;
    }
    return *g0;
}

/* A lower bound of candidate k's g0 in this call: g0 itself when computed, else the g0 of
 * the call that last computed it less 2 (D - least), D the largest drift of its vertices
 * now and least the smallest then (each vertex drifted by at most D - least since, and
 * the distance loses at most one vertex's drift on each primitive: ccd.h's l_p), less
 * 1e-9 delta for the rounding of the two distances (a few units of DBL_EPSILON of the
 * coordinates, ccd.h); -INFINITY when there is none. */
double cloth__collide_g0_lower(const cloth__collide *c, int k, const cloth__collide_pair *pr,
                               double delta)
{
    double g0 = k < c->cand.n_pt ? c->g0_pt[k] : c->g0_ee[k - c->cand.n_pt];
    if (c->plain)
        return -INFINITY;
    if (!isnan(g0))
        return g0;
    if (isnan(c->lb[k]))
        return -INFINITY;
    double most = 0;
    for (int j = 0; j < 4; j++)
        most = fmax(most, c->drift[pr->v[j]]);
    return c->lb[k] - 2 * (most - c->lb_drift[k]) - 1e-9 * delta;
}

