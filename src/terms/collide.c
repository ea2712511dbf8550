/* The robust collision stage (Bridson, Fedkiw and Anderson 2002; Provot 1997); what it
 * does and why is in collide.h. */
#include "terms/collide.h"
#include "terms/broad_phase.h"
#include "terms/ccd.h"
#include "terms/closest.h"
#include "terms/rigid_zone.h"
#include "terms/distance.h"
#include "terms/vec3.h"
#include "core/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cloth__collide {
    const cloth_mesh *mesh;
    cloth__broad_phase *bp;
    const int *edges;           /* the broad phase's edge list                        */
    double *dx;                 /* 3n: x1 - x0, the motion a query boxes              */
    double *x1_pre, *v_pre;     /* 3n each: x1 and v as the zones found them          */
    unsigned char *fixed;       /* n: inverse mass 0                                  */
    int *parent;                /* n: union-find of the impact zones                  */
    int *size;                  /* n: a root's zone size                              */
    int *start, *order;         /* n + 1, n: the zones' vertices grouped by root      */
    /* the candidates of one stage call (reuse_candidates) */
    double *xq;                 /* 3n: the start positions the last query boxed, its
                                 * boxes over xq -> xq + dx (query)                   */
    double *grow;               /* n: a vertex's own room in its query box (m): 1.25
                                 * times its largest correction in the last call      */
    double *grow_ring;          /* n: scratch of next_slack                           */
    double q_thickness;         /* the thickness it was made for                      */
    int ahead;                  /* the steps of motion its boxes reach beyond x1      */
    int ahead_max;              /* CLOTH__COLLIDE_AHEAD (0 in some tests)             */
    int calm;                   /* the last call changed no end position              */
    int carried;                /* calls that kept the last call's list (for tests)   */
    int plain;                  /* 1: no kept list and no bounds (for tests)          */
    double slack, tol;          /* its boxes' slack beyond the passes' reach and the
                                 * drift of x1 allowed, in units of the thickness     */
    double slack_next;          /* the slack the next call starts with                */
    double slack_cap;           /* this call's largest slack (collide.h)              */
    int n_edges;                /* the broad phase's edges                            */
    double *x1_prop;            /* 3n: the proposed end positions of this call        */
    double need;                /* the largest |x1 - x1_prop|_inf seen (m)            */
    cloth__broad_pairs cand;    /* the candidates (the broad phase's lists)           */
    int queried;                /* 1: the broad phase holds the stage's candidates    */
    int cand_overflow;          /* that query ran out of room                         */
    double *d0_pt, *d0_ee;      /* a candidate's distance at x0, NAN until computed   */
    double *g0_pt, *g0_ee;      /* and as the CCD computes it (ccd_clear), NAN too     */
    unsigned *seen_pt, *seen_ee;/* the clock of its last CCD without a hit, 0: none   */
    unsigned *stamp;            /* n: the clock of a vertex's last change of x1       */
    unsigned clock;             /* counts changes of x1 in this call                  */
    int max_pairs;              /* the broad phase's room per kind                    */
    int queries;                /* broad-phase queries made (for the tests)           */
    /* the pairs closer than delta at x0 (the proximity impulses' pairs), found by the
     * first proximity sweep of a query: candidate index and geometry at x0 */
    int *close_k;               /* room close_cap; n_close < 0: not found this query  */
    double *close_geo;          /* 8 each: c (4), n (3), the distance                 */
    int n_close, close_cap;
    /* the motions of one pass (motion_spread): a vertex's |x1 - x0 - D| (D the mean
     * motion), valid for vertices not changed since the clock spread_clock, and a bound
     * of the CCD's coordinate scale L for any pair */
    double *spread;             /* n                                                  */
    /* lower bounds of g0 carried from call to call (g0_lower): a candidate's g0 when it
     * was last computed and the least drift of its vertices then; each vertex's drift,
     * the sum over the calls of |its x0's move less the mean move| */
    double *lb, *lb_drift;      /* per candidate (both kinds), NAN: none              */
    double *drift;              /* n                                                  */
    double *x0_last;            /* 3n: the last call's x0                             */
    double x0_scale;            /* max |x0|_inf of this call                          */
    unsigned spread_clock;
    double spread_L;
    unsigned char *ob_hit;      /* n: (d) the obstacle that last moved a vertex       */
    double *ob_normal;          /* 3n: its outward normal there                       */
};

cloth_status cloth__collide_create(const cloth_mesh *mesh, int max_pairs,
                                   cloth__collide **out, cloth_error *err)
{
    *out = NULL;
    cloth__collide *c = calloc(1, sizeof *c);
    if (!c)
        return cloth__fail(err, CLOTH_ENOMEM, "collision stage: out of memory");
    size_t n = (size_t)mesh->n + 1;
    c->mesh = mesh;
    c->dx = malloc(3 * n * sizeof *c->dx);
    c->x1_pre = malloc(3 * n * sizeof *c->x1_pre);
    c->v_pre = malloc(3 * n * sizeof *c->v_pre);
    c->fixed = calloc(n, 1);
    c->parent = malloc(n * sizeof *c->parent);
    c->size = malloc(n * sizeof *c->size);
    c->start = malloc((n + 1) * sizeof *c->start);
    c->order = malloc(n * sizeof *c->order);
    c->xq = malloc(3 * n * sizeof *c->xq);
    c->grow = calloc(n, sizeof *c->grow);
    c->grow_ring = calloc(n, sizeof *c->grow_ring);
    c->ahead = c->ahead_max = CLOTH__COLLIDE_AHEAD;
    c->calm = 1; /* a run starts with no pair closer than the thickness */
    c->stamp = malloc(n * sizeof *c->stamp);
    c->ob_hit = calloc(n, 1);
    c->spread = malloc(n * sizeof *c->spread);
    c->drift = malloc(n * sizeof *c->drift);
    c->x0_last = malloc(3 * n * sizeof *c->x0_last);
    c->ob_normal = calloc(3 * n, sizeof *c->ob_normal);
    if (max_pairs <= 0) {
        long room = CLOTH__COLLIDE_PAIRS * ((long)mesh->n + 3L * mesh->n_tris) + 1024;
        max_pairs = room > 1L << 28 ? 1 << 28 : (int)room;
    }
    c->max_pairs = max_pairs;
    size_t cap = (size_t)max_pairs + 1;
    c->d0_pt = malloc(cap * sizeof *c->d0_pt);
    c->d0_ee = malloc(cap * sizeof *c->d0_ee);
    c->g0_pt = malloc(cap * sizeof *c->g0_pt);
    c->g0_ee = malloc(cap * sizeof *c->g0_ee);
    c->seen_pt = malloc(cap * sizeof *c->seen_pt);
    c->seen_ee = malloc(cap * sizeof *c->seen_ee);
    c->lb = malloc(2 * cap * sizeof *c->lb);
    c->lb_drift = malloc(2 * cap * sizeof *c->lb_drift);
    c->slack_next = CLOTH__COLLIDE_SLACK_MIN;
    c->x1_prop = malloc(3 * n * sizeof *c->x1_prop);
    /* the close pairs of a query: most candidates of a sheet are its own neighbours,
     * farther than delta; when more are close the sweeps scan the whole list */
    c->close_cap = max_pairs / 8 + 64;
    c->close_k = malloc((size_t)c->close_cap * sizeof *c->close_k);
    c->close_geo = malloc(8 * (size_t)c->close_cap * sizeof *c->close_geo);
    c->n_close = -1;
    cloth_status st = CLOTH_OK;
    if (!c->dx || !c->x1_pre || !c->v_pre || !c->fixed || !c->parent || !c->size ||
        !c->start || !c->order || !c->xq || !c->grow || !c->grow_ring || !c->x1_prop || !c->stamp || !c->d0_pt || !c->d0_ee || !c->g0_pt || !c->g0_ee ||
        !c->seen_pt || !c->seen_ee || !c->close_k || !c->close_geo || !c->ob_hit || !c->ob_normal || !c->spread ||
        !c->drift || !c->x0_last || !c->lb || !c->lb_drift)
        st = cloth__fail(err, CLOTH_ENOMEM, "collision stage: out of memory for %d vertices",
                         mesh->n);
    if (st == CLOTH_OK)
        st = cloth__broad_phase_create(mesh, max_pairs, &c->bp, err);
    if (st == CLOTH_OK)
        st = cloth__broad_phase_enable_cells(c->bp, err);
    if (st != CLOTH_OK) {
        cloth__collide_destroy(c);
        return st;
    }
    c->n_edges = cloth__broad_phase_edges(c->bp, &c->edges);
    *out = c;
    return CLOTH_OK;
}

void cloth__collide_destroy(cloth__collide *c)
{
    if (!c)
        return;
    cloth__broad_phase_destroy(c->bp);
    free(c->dx);
    free(c->x1_pre);
    free(c->v_pre);
    free(c->fixed);
    free(c->parent);
    free(c->size);
    free(c->start);
    free(c->order);
    free(c->xq);
    free(c->grow);
    free(c->grow_ring);
    free(c->x1_prop);
    free(c->stamp);
    free(c->d0_pt);
    free(c->d0_ee);
    free(c->g0_pt);
    free(c->g0_ee);
    free(c->seen_pt);
    free(c->seen_ee);
    free(c->close_k);
    free(c->close_geo);
    free(c->ob_hit);
    free(c->spread);
    free(c->drift);
    free(c->x0_last);
    free(c->lb);
    free(c->lb_drift);
    free(c->ob_normal);
    free(c);
}

/* ------------------------------------------------------------ a pair */

/* A candidate: its kind, its four vertices (point, triangle; or edge, edge). */
typedef struct pair {
    cloth__ccd_pair kind;
    int v[4];
} pair;

static pair pair_pt(const cloth__collide *c, const int *pt)
{
    const int *t = c->mesh->tris + 3 * pt[1];
    return (pair){CLOTH__CCD_POINT_TRIANGLE, {pt[0], t[0], t[1], t[2]}};
}

static pair pair_ee(const cloth__collide *c, const int *ee)
{
    const int *a = c->edges + 2 * ee[0], *b = c->edges + 2 * ee[1];
    return (pair){CLOTH__CCD_EDGE_EDGE, {a[0], a[1], b[0], b[1]}};
}

/* The pair's weights c (collide.h) and unit normal n at positions x (the whole array),
 * and its distance.  A pair at distance 0 takes the normal of the triangle, or of the two
 * edges' cross product, turned to the side of ref (positions at which the pair is
 * apart), or as it comes when ref is NULL or no side can be told. */
static double pair_geometry(const pair *pr, const double *x, const double *ref, double cw[4],
                            double n[3])
{
    const double *p[4];
    for (int k = 0; k < 4; k++)
        p[k] = x + 3 * pr->v[k];
    if (pr->kind == CLOTH__CCD_POINT_TRIANGLE) {
        double b[3];
        cloth__closest_on_triangle(p[0], p[1], p[2], p[3], b);
        cw[0] = 1, cw[1] = -b[0], cw[2] = -b[1], cw[3] = -b[2];
    } else {
        double s, t;
        cloth__closest_on_segments(p[0], p[1], p[2], p[3], &s, &t);
        cw[0] = 1 - s, cw[1] = s, cw[2] = -(1 - t), cw[3] = -t;
    }
    double r[3] = {0, 0, 0};
    for (int k = 0; k < 4; k++)
        for (int a = 0; a < 3; a++)
            r[a] += cw[k] * p[k][a];
    double d = cloth__norm(r), scale = 0;
    for (int k = 0; k < 4; k++)
        scale = fmax(scale, cloth__norm(p[k]) + 1e-300);
    if (d > 1e-12 * scale) {
        for (int a = 0; a < 3; a++)
            n[a] = r[a] / d;
        return d;
    }
    double u[3], w[3];
    if (pr->kind == CLOTH__CCD_POINT_TRIANGLE) {
        cloth__sub(p[2], p[1], u);
        cloth__sub(p[3], p[1], w);
    } else {
        cloth__sub(p[1], p[0], u);
        cloth__sub(p[3], p[2], w);
    }
    cloth__cross(u, w, n);
    double len = cloth__norm(n);
    if (!(len > 0)) {
        n[0] = 1, n[1] = n[2] = 0;
        return d;
    }
    double side = 0;
    for (int k = 0; ref && k < 4; k++)
        for (int a = 0; a < 3; a++)
            side += cw[k] * ref[3 * pr->v[k] + a] * n[a];
    for (int a = 0; a < 3; a++)
        n[a] = (side < 0 ? -n[a] : n[a]) / len;
    return d;
}

/* The pair's distance at positions x. */
static double pair_distance(const pair *pr, const double *x)
{
    double cw[4], n[3];
    return pair_geometry(pr, x, NULL, cw, n);
}

/* Changes the average velocity of vertex i by dv: x1 += h dv, v += dv (stamped with
 * the current clock: pairs of i must be looked at again). */
static void nudge(cloth__collide *c, double *x1, double *v, int i, const double dv[3], double h)
{
    for (int a = 0; a < 3; a++) {
        x1[3 * i + a] += h * dv[a];
        v[3 * i + a] += dv[a];
    }
    c->stamp[i] = c->clock;
}

/* The impulse that raises the pair's relative normal average velocity to at least
 * target (collide.h), with friction mu on the tangential part.  Returns 1 when it
 * acted.
 *
 * A vertex an obstacle has moved in this call ((d): it lies on the obstacle's surface,
 * normal m) has infinite mass along m for a push into the obstacle (Bridson 7.4): when
 * the impulse j n would push it inward (c_k n . m < 0) its change is projected,
 * dv_k = w_k c_k j (I - m m^T) n, so that W = sum_k w_k c_k^2 n^T P_k n (P_k that
 * projection, or I) and j = dv_N / W still meets the wanted dv_N, with the free vertices
 * taking the whole of it.  (Without this the obstacle's impulse undoes the vertex's share
 * and the pair falls short of its push by that share: Gauss-Seidel rounds converge, but
 * slowly.) */
static int blocked(const cloth__collide *c, int i, double cw, const double n[3])
{
    return c->ob_hit[i] != CLOTH__HIT_NONE && cw * cloth__dot(n, c->ob_normal + 3 * i) < 0;
}

static int impulse(cloth__collide *c, const pair *pr, const double cw[4], const double n[3],
                   double target, double mu, double h, const double *x0, double *x1, double *v,
                   const double *inv_mass, double *dvn_out)
{
    double rel[3] = {0, 0, 0}, W = 0;
    for (int k = 0; k < 4; k++) {
        int i = pr->v[k];
        double nm = blocked(c, i, cw[k], n) ? cloth__dot(n, c->ob_normal + 3 * i) : 0;
        W += inv_mass[i] * cw[k] * cw[k] * (1 - nm * nm);
        for (int a = 0; a < 3; a++)
            rel[a] += cw[k] * (x1[3 * i + a] - x0[3 * i + a]) / h;
    }
    double vn = cloth__dot(rel, n);
    if (!(W > 0) || !(vn < target))
        return 0;
    double dvn = target - vn, jn = dvn / W;
    if (dvn_out)
        *dvn_out = dvn;
    double vt[3], tlen;
    for (int a = 0; a < 3; a++)
        vt[a] = rel[a] - vn * n[a];
    tlen = cloth__norm(vt);
    /* Coulomb: the tangential relative velocity falls by mu dv_N, not past 0 */
    double jt = tlen > 0 ? fmin(mu * dvn, tlen) / W / tlen : 0;
    c->clock++;
    for (int k = 0; k < 4; k++) {
        int i = pr->v[k];
        double s = inv_mass[i] * cw[k], dv[3];
        if (s == 0)
            continue;
        for (int a = 0; a < 3; a++)
            dv[a] = s * (jn * n[a] - jt * vt[a]);
        if (blocked(c, i, cw[k], n)) {
            const double *m = c->ob_normal + 3 * i;
            double in = fmin(0, cloth__dot(dv, m));
            for (int a = 0; a < 3; a++)
                dv[a] -= in * m[a];
        }
        nudge(c, x1, v, i, dv, h);
    }
    return 1;
}

/* The twelve coordinates of the pair's vertices in x. */
static void gather(const pair *pr, const double *x, double out[12])
{
    for (int k = 0; k < 4; k++)
        memcpy(out + 3 * k, x + 3 * pr->v[k], 3 * sizeof *out);
}

/* The CCD's distance at the step's start (terms/ccd.c, in the frame of the pair's first
 * vertex): a[12] the start positions, moved there in place. */
static double ccd_start_distance(const pair *pr, double a[12])
{
    for (int k = 3; k < 12; k++)
        a[k] -= a[k % 3];
    a[0] = a[1] = a[2] = 0;
    const double *p = a, *q = a + 3, *r = a + 6, *t = a + 9;
    if (pr->kind == CLOTH__CCD_POINT_TRIANGLE)
        return sqrt(cloth__point_triangle_distance2(
            p, q, r, t, cloth__point_triangle_type(p, q, r, t), NULL, NULL));
    return sqrt(cloth__edge_edge_distance2(p, q, r, t, cloth__edge_edge_type(p, q, r, t),
                                           NULL, NULL));
}

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
static int pair_hits(const pair *pr, const double *x0, const double *x1, double delta,
                     double *d0, double *g0, double *toi)
{
    double a[12], b[12];
    gather(pr, x0, a);
    gather(pr, x1, b);
    if (isnan(*g0)) { /* x0 does not change during a call: once a call */
        double r[12];
        memcpy(r, a, sizeof r);
        *g0 = ccd_start_distance(pr, r);
    }
    /* dmin <= eta delta, and the skip test is monotone in dmin (its gap g0 - dmin only
     * grows as dmin falls, and rounding keeps that order): a pair clear against eta delta
     * is clear against dmin, without the distance d0 (most candidates end here) */
    double dmax = CLOTH__COLLIDE_ETA * delta;
    if (ccd_clear(pr->kind, a, b, dmax, *g0))
        return 0;
    if (isnan(*d0))
        *d0 = pair_distance(pr, x0);
    double dmin = fmin(dmax, 0.5 * *d0);
    if (dmin != dmax && ccd_clear(pr->kind, a, b, dmin, *g0))
        return 0;
    return cloth__ccd(pr->kind, a, b, dmin, toi, NULL) != 0;
}

int cloth__collide_ccd_clear(int edge_edge, const double x0[12], const double x1[12],
                             double dmin)
{
    pair pr = {edge_edge ? CLOTH__CCD_EDGE_EDGE : CLOTH__CCD_POINT_TRIANGLE, {0, 1, 2, 3}};
    double a[12];
    memcpy(a, x0, sizeof a);
    return ccd_clear(pr.kind, x0, x1, dmin, ccd_start_distance(&pr, a));
}

/* ------------------------------------------------------------ stages */

/* ------------------------------------------------------------ candidates */

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

static void query(cloth__collide *c, const cloth__collide_def *def, const double *x0,
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
static int surely_clear(const cloth__collide *c, const pair *pr, double g0, double delta)
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

/* The candidates for a pass at end positions x1: queried afresh when a vertex has left
 * the boxes of the last query (above). */
static void ensure(cloth__collide *c, const cloth__collide_def *def, const double *x0,
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
        query(c, def, x0, x1);
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
static int still_holds(const cloth__collide *c, const cloth__collide_def *def,
                       const double *x0, const double *x1)
{
    double tol = c->tol * def->thickness;
    return c->queried && !c->cand_overflow && c->q_thickness == def->thickness &&
           inside_boxes(c, x0, tol) && inside_boxes(c, x1, tol);
}

/* A call's candidates: the last call's list when x0 and x1 lie in its boxes (above),
 * else a query with the slack the last call's corrections needed. */
static void begin_call(cloth__collide *c, const cloth__collide_def *def, const double *x0,
                       const double *x1, int fixed_changed)
{
    c->x0_scale = 0;
    for (int k = 0; k < 3 * c->mesh->n; k++)
        c->x0_scale = fmax(c->x0_scale, fabs(x0[k]));
    if (!c->plain && !fixed_changed && still_holds(c, def, x0, x1)) {
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
    query(c, def, x0, x1);
}

/* Candidate k of the list (point-triangle first), with its cached distance at x0 and its
 * last clean test. */
static pair candidate(const cloth__collide *c, int k, double **d0, unsigned **seen)
{
    if (k < c->cand.n_pt) {
        *d0 = c->d0_pt + k;
        *seen = c->seen_pt + k;
        return pair_pt(c, c->cand.pt + 2 * k);
    }
    k -= c->cand.n_pt;
    *d0 = c->d0_ee + k;
    *seen = c->seen_ee + k;
    return pair_ee(c, c->cand.ee + 2 * k);
}

/* 1 when no vertex of the pair has moved since the clock seen (0: never tested). */
static int unchanged(const cloth__collide *c, const pair *pr, unsigned seen)
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

static int boxes_meet(const pair *pr, const double *x0, const double *x1, double half)
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

/* ------------------------------------------------------------ stages */

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
                           const pair *pr, const double cw[4], const double n[3], double d,
                           const double *x0, double *x1, double *v, const double *inv_mass,
                           int *acted, cloth__collide_result *res)
{
    double target = CLOTH__COLLIDE_REPULSION * (def->thickness - d) / h;
    double dvn = 0;
    if (impulse(c, pr, cw, n, target, def->friction, h, x0, x1, v, inv_mass, &dvn)) {
        res->proximity++;
        *acted += dvn * h > CLOTH__COLLIDE_OBSTACLE_ENOUGH * def->thickness;
    }
}

/* Candidate k's g0, the CCD's distance at x0 (ccd_start_distance), computed once a call
 * and kept, with the least drift of its vertices, as the lower bound of later calls. */
static double start_distance(cloth__collide *c, int k, const pair *pr, const double *x0)
{
    double *g0 = k < c->cand.n_pt ? c->g0_pt + k : c->g0_ee + (k - c->cand.n_pt);
    if (isnan(*g0)) {
        double a[12], least = INFINITY;
        gather(pr, x0, a);
        *g0 = ccd_start_distance(pr, a);
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
static double g0_lower(const cloth__collide *c, int k, const pair *pr, double delta)
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

static int proximity(cloth__collide *c, const cloth__collide_def *def, double h,
                     const double *x0, double *x1, double *v, const double *inv_mass,
                     unsigned since, cloth__collide_result *res)
{
    int acted = 0;
    res->overflow |= c->cand_overflow;
    if (since && c->n_close >= 0) {
        for (int j = 0; j < c->n_close; j++) {
            double *d0;
            unsigned *seen;
            pair pr = candidate(c, c->close_k[j], &d0, &seen);
            if (unchanged(c, &pr, since))
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
        pair pr = candidate(c, k, &d0, &seen);
        /* the bound first: a pair it settles is skipped whatever its boxes say */
        if ((since && unchanged(c, &pr, since)) ||
            g0_lower(c, k, &pr, def->thickness) >= apart_enough(c, def->thickness) ||
            !boxes_meet(&pr, x0, NULL, 0.5 * def->thickness) ||
            (!c->plain && start_distance(c, k, &pr, x0) >= apart_enough(c, def->thickness)))
            continue;
        double cw[4], n[3], d = pair_geometry(&pr, x0, NULL, cw, n);
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

/* 1 when the pair's motion x0 -> x1 may come within the passes' distance: its boxes
 * meet (a fresh query would list it) and the CCD finds a hit at *toi.  A pair found
 * clear is stamped so that it is not tested again until a vertex of it moves. */
static int candidate_hits(cloth__collide *c, int k, const pair *pr, double *d0, unsigned *seen,
                          const cloth__collide_def *def, const double *x0, const double *x1,
                          double *toi)
{
    if (unchanged(c, pr, *seen))
        return 0;
    double *g0 = k < c->cand.n_pt ? c->g0_pt + k : c->g0_ee + (k - c->cand.n_pt);
    /* the bound first: boxes apart and a clear skip test both mean no hit */
    if (surely_clear(c, pr, g0_lower(c, k, pr, def->thickness), def->thickness) ||
        !boxes_meet(pr, x0, x1, 0.5 * CLOTH__COLLIDE_ETA * def->thickness) ||
        (!c->plain && surely_clear(c, pr, start_distance(c, k, pr, x0), def->thickness)) ||
        !pair_hits(pr, x0, x1, def->thickness, d0, g0, toi)) {
        *seen = c->clock;
        return 0;
    }
    return 1;
}

/* (b): one collision pass, Gauss-Seidel over the pairs; returns the hits. */
static int collision_pass(cloth__collide *c, const cloth__collide_def *def, double h,
                          const double *x0, double *x1, double *v, const double *inv_mass,
                          cloth__collide_result *res)
{
    ensure(c, def, x0, x1, res);
    int hits = 0, total = c->cand.n_pt + c->cand.n_ee;
    for (int k = 0; k < total; k++) {
        double *d0, toi;
        unsigned *seen;
        pair pr = candidate(c, k, &d0, &seen);
        if (!candidate_hits(c, k, &pr, d0, seen, def, x0, x1, &toi))
            continue;
        hits++;
        /* the closest points where the CCD stopped, on the side the pair started */
        double xt[12], cw[4], n[3];
        for (int j = 0; j < 4; j++)
            for (int a = 0; a < 3; a++) {
                int i = 3 * pr.v[j] + a;
                xt[3 * j + a] = x0[i] + toi * (x1[i] - x0[i]);
            }
        pair local = {pr.kind, {0, 1, 2, 3}};
        double ref[12];
        gather(&pr, x0, ref);
        pair_geometry(&local, xt, ref, cw, n);
        double d0n = 0;
        for (int j = 0; j < 4; j++)
            d0n += cw[j] * cloth__dot(ref + 3 * j, n);
        double target = fmin(0, (def->thickness - d0n) / h);
        res->impulses +=
            impulse(c, &pr, cw, n, target, def->friction, h, x0, x1, v, inv_mass, NULL);
    }
    return hits;
}

/* ------------------------------------------------------------ obstacles (d) */

/* A move onto an obstacle's surface shorter than this fraction of the thickness is
 * rounding (a vertex put on the surface may test inside again by an ulp): not counted,
 * so that the passes can end. */
#define OBSTACLE_TOL 1e-9

/* Where the obstacles put vertex i's end position x1_i: 0 when it is outside them all
 * (or moved less than the tolerance), else its CLOTH__HIT_* kind with t = p - x1_i and
 * the outward normal. */
static int obstacle_push(const cloth__collide_def *def, const double *x1, int i, double t[3],
                         double normal[3])
{
    double p[3];
    memcpy(p, x1 + 3 * i, sizeof p);
    int hit = cloth__push_out(def->scene, def->sphere_c, def->body, p, normal);
    if (hit == CLOTH__HIT_NONE)
        return 0;
    cloth__sub(p, x1 + 3 * i, t);
    return cloth__norm(t) > OBSTACLE_TOL * def->thickness ? hit : 0;
}

static void obstacle_note(cloth__collide *c, int i, int hit, const double normal[3])
{
    c->ob_hit[i] = (unsigned char)hit;
    memcpy(c->ob_normal + 3 * i, normal, 3 * sizeof *normal);
}

/* (d): every free vertex whose x1 is inside an obstacle gets the obstacle's impulse
 * dv = (p - x1) / h, which puts x1 at its projection p on the surface (collide.h).
 * Returns the vertices moved; *most (unless NULL) the longest move |p - x1|. */
static int obstacle_pass(cloth__collide *c, const cloth__collide_def *def, double h,
                         double *x1, double *v, double *most, cloth__collide_result *res)
{
    if (!def->scene)
        return 0;
    int moved = 0;
    c->clock++;
    for (int i = 0; i < c->mesh->n; i++) {
        double t[3], normal[3];
        int hit = c->fixed[i] ? 0 : obstacle_push(def, x1, i, t, normal);
        if (!hit)
            continue;
        if (most)
            *most = fmax(*most, cloth__norm(t));
        for (int a = 0; a < 3; a++)
            t[a] /= h;
        nudge(c, x1, v, i, t, h);
        obstacle_note(c, i, hit, normal);
        moved++;
    }
    res->obstacle_moves += moved;
    return moved;
}

/* (d) for one zone just moved rigidly: the obstacle does not give way along its normal,
 * so the whole zone is translated by its deepest member's p - x1 (x1 += t, v += t / h),
 * again until no member is inside, or a few times (a zone wedged between the sphere and
 * the floor).  A zone held by a pin is left as its pins hold it. */
static void zone_obstacles(cloth__collide *c, const cloth__collide_def *def, double h,
                           const int *verts, int count, double *x1, double *v,
                           const double *inv_mass, cloth__collide_result *res)
{
    if (!def->scene)
        return;
    for (int k = 0; k < count; k++)
        if (!(inv_mass[verts[k]] > 0))
            return;
    for (int round = 0; round < CLOTH__COLLIDE_OBSTACLE_ROUNDS; round++) {
        double best = 0, t[3], t_best[3], normal[3], n_best[3];
        int deepest = -1, hit_best = 0;
        for (int k = 0; k < count; k++) {
            int hit = obstacle_push(def, x1, verts[k], t, normal);
            double depth = hit ? cloth__norm(t) : 0;
            if (depth > best) {
                best = depth;
                deepest = verts[k];
                hit_best = hit;
                memcpy(t_best, t, sizeof t);
                memcpy(n_best, normal, sizeof normal);
            }
        }
        if (deepest < 0)
            return;
        for (int k = 0; k < count; k++) {
            int i = verts[k];
            for (int a = 0; a < 3; a++) {
                x1[3 * i + a] += t_best[a];
                v[3 * i + a] += t_best[a] / h;
            }
        }
        obstacle_note(c, deepest, hit_best, n_best);
        res->obstacle_moves++;
    }
}

/* The free vertices whose x1 lies inside an obstacle. */
static int count_inside(const cloth__collide *c, const cloth__collide_def *def,
                        const double *x1)
{
    int inside = 0;
    for (int i = 0; def->scene && i < c->mesh->n; i++) {
        double t[3], normal[3];
        inside += !c->fixed[i] && obstacle_push(def, x1, i, t, normal);
    }
    return inside;
}

const unsigned char *cloth__collide_obstacle_hits(const cloth__collide *c,
                                                  const double **normal)
{
    *normal = c->ob_normal;
    return c->ob_hit;
}

static int find_root(int *parent, int i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

static void join(cloth__collide *c, int i, int j)
{
    i = find_root(c->parent, i);
    j = find_root(c->parent, j);
    if (i == j)
        return;
    if (c->size[i] < c->size[j]) {
        int t = i;
        i = j;
        j = t;
    }
    c->parent[j] = i;
    c->size[i] += c->size[j];
}

/* One search of (c): the pairs not inside one zone that hit join their zones.  Returns
 * the hits. */
static int zone_search(cloth__collide *c, const cloth__collide_def *def, const double *x0,
                       const double *x1, cloth__collide_result *res)
{
    ensure(c, def, x0, x1, res);
    int hits = 0, total = c->cand.n_pt + c->cand.n_ee;
    for (int k = 0; k < total; k++) {
        double *d0, toi;
        unsigned *seen;
        pair pr = candidate(c, k, &d0, &seen);
        int r0 = find_root(c->parent, pr.v[0]), inside = 1;
        for (int j = 1; j < 4; j++)
            inside &= find_root(c->parent, pr.v[j]) == r0;
        if (inside || !candidate_hits(c, k, &pr, d0, seen, def, x0, x1, &toi))
            continue;
        hits++;
        for (int j = 1; j < 4; j++)
            join(c, pr.v[0], pr.v[j]);
    }
    return hits;
}

/* Every zone of two or more vertices moves rigidly from the motion the zones started
 * with; returns the zones, *members their vertices. */
static int move_zones(cloth__collide *c, const cloth__collide_def *def, double h,
                      const double *x0, double *x1, double *v, const double *inv_mass,
                      cloth__collide_result *res)
{
    int n = c->mesh->n, zones = 0;
    /* counting sort of the zoned vertices by root */
    memset(c->start, 0, ((size_t)n + 1) * sizeof *c->start);
    for (int i = 0; i < n; i++) {
        int r = find_root(c->parent, i);
        if (c->size[r] > 1)
            c->start[r + 1]++;
    }
    for (int i = 0; i < n; i++)
        c->start[i + 1] += c->start[i];
    res->zone_vertices = c->start[n];
    for (int i = 0; i < n; i++) {
        int r = find_root(c->parent, i);
        if (c->size[r] > 1)
            c->order[c->start[r]++] = i;
    }
    for (int r = n; r > 0; r--)
        c->start[r] = c->start[r - 1];
    c->start[0] = 0;
    for (int r = 0; r < n; r++) {
        int count = c->start[r + 1] - c->start[r];
        if (count < 2)
            continue;
        const int *verts = c->order + c->start[r];
        c->clock++;
        for (int k = 0; k < count; k++) {
            int i = verts[k];
            c->stamp[i] = c->clock;
            memcpy(x1 + 3 * i, c->x1_pre + 3 * i, 3 * sizeof *x1);
            memcpy(v + 3 * i, c->v_pre + 3 * i, 3 * sizeof *v);
        }
        cloth__collide_rigid_zone(verts, count, h, x0, x1, v, inv_mass);
        zone_obstacles(c, def, h, verts, count, x1, v, inv_mass, res);
        zones++;
    }
    return zones;
}

/* (c): impact zones until no pair hits. */
static void impact_zones(cloth__collide *c, const cloth__collide_def *def, double h,
                         const double *x0, double *x1, double *v, const double *inv_mass,
                         cloth__collide_result *res)
{
    int n = c->mesh->n;
    memcpy(c->x1_pre, x1, 3 * (size_t)n * sizeof *x1);
    memcpy(c->v_pre, v, 3 * (size_t)n * sizeof *v);
    for (int i = 0; i < n; i++) {
        c->parent[i] = i;
        c->size[i] = 1;
    }
    res->resolved = 0;
    while (res->zone_searches < def->zone_iterations) {
        res->zone_searches++;
        int overflowed = res->overflow;
        res->overflow = 0;
        int hits = zone_search(c, def, x0, x1, res);
        int now = res->overflow;
        res->overflow |= overflowed;
        if (hits == 0) {
            res->resolved = !now;
            break;
        }
        res->zones = move_zones(c, def, h, x0, x1, v, inv_mass, res);
    }
}

/* ------------------------------------------------------------ the stage */

int cloth__collide_first_close_pair(cloth__collide *c, const double *x, const double *inv_mass,
                                    double delta, int v[4], int *tri, double *d)
{
    for (int i = 0; i < c->mesh->n; i++)
        c->fixed[i] = !(inv_mass[i] > 0);
    cloth__broad_pairs bp;
    c->queried = 0; /* the broad phase's lists are this query's now */
    cloth__broad_phase_query(c->bp, x, NULL, delta, c->fixed, &bp);
    if (bp.overflow)
        return -1;
    for (int k = 0; k < bp.n_pt + bp.n_ee; k++) {
        int is_pt = k < bp.n_pt;
        pair pr = is_pt ? pair_pt(c, bp.pt + 2 * k) : pair_ee(c, bp.ee + 2 * (k - bp.n_pt));
        double dist = pair_distance(&pr, x);
        if (dist < delta) {
            memcpy(v, pr.v, sizeof pr.v);
            *tri = is_pt ? bp.pt[2 * k + 1] : -1;
            *d = dist;
            return 1;
        }
    }
    return 0;
}

/* The slack the next call starts with: 1.25 times what this call's corrections needed
 * (the end positions' largest move from the proposal, in thicknesses), within bounds. */
static void next_slack(cloth__collide *c, const cloth__collide_def *def, const double *x1)
{
    int any = 0;
    for (int i = 0; i < c->mesh->n; i++) {
        double most = 0;
        for (int a = 0; a < 3; a++) {
            double d = fabs(x1[3 * i + a] - c->x1_prop[3 * i + a]);
            most = d > most ? d : most;
        }
        c->grow[i] = 1.25 * most;
        any |= most > 0;
    }
    /* the contact front moves on: a vertex next to a corrected one is likely corrected
     * in the next call (two rings, over the triangles) */
    for (int ring = 0; any && ring < CLOTH__COLLIDE_RINGS; ring++) {
        double *g0 = c->grow_ring;
        memcpy(g0, c->grow, (size_t)c->mesh->n * sizeof *g0);
        for (int t = 0; t < c->mesh->n_tris; t++) {
            const int *v = c->mesh->tris + 3 * t;
            double g = g0[v[0]] > g0[v[1]] ? g0[v[0]] : g0[v[1]];
            g = g0[v[2]] > g ? g0[v[2]] : g;
            for (int j = 0; j < 3; j++)
                c->grow[v[j]] = g > c->grow[v[j]] ? g : c->grow[v[j]];
        }
    }
    c->calm = c->need == 0;
    double need = 1.25 * c->need / (0.9 * def->thickness);
    c->slack_next = fmin(c->slack_cap, fmax(CLOTH__COLLIDE_SLACK_MIN, need));
}

/* The largest slack of a call, in thicknesses: CLOTH__COLLIDE_SLACK_MAX, and at most
 * CLOTH__COLLIDE_SLACK_EDGE of the mean edge at x0 (the candidates, and the query's
 * time, grow as (edge + reach)^2 on a sheet), not below CLOTH__COLLIDE_SLACK_MIN. */
static double slack_cap(const cloth__collide *c, const double *x0, double delta)
{
    double sum = 0;
    for (int e = 0; e < c->n_edges; e++) {
        double d[3];
        cloth__sub(x0 + 3 * c->edges[2 * e + 1], x0 + 3 * c->edges[2 * e], d);
        sum += cloth__norm(d);
    }
    double mean = c->n_edges ? sum / c->n_edges : 0;
    double cap = fmin(CLOTH__COLLIDE_SLACK_MAX, CLOTH__COLLIDE_SLACK_EDGE * mean / delta);
    return fmax(CLOTH__COLLIDE_SLACK_MIN, cap);
}

int cloth__collide_step(cloth__collide *c, const cloth__collide_def *def, double h,
                        const double *x0, double *x1, double *v, const double *inv_mass,
                        cloth__collide_result *res)
{
    const cloth_mesh *m = c->mesh;
    memset(res, 0, sizeof *res);
    if (!(h > 0) || !(def->thickness > 0) || !isfinite(def->thickness) ||
        !(def->friction >= 0) || def->passes < 0 || def->zone_iterations < 0)
        return -1;
    for (int k = 0; k < 3 * m->n; k++)
        if (!isfinite(x0[k]) || !isfinite(x1[k]) || !isfinite(v[k]))
            return -1;
    int fixed_changed = 0;
    for (int i = 0; i < m->n; i++) {
        unsigned char f = !(inv_mass[i] > 0);
        fixed_changed |= f != c->fixed[i];
        c->fixed[i] = f;
    }
    if (m->n_tris == 0) {
        res->resolved = 1;
        return 0;
    }
    memset(c->stamp, 0, (size_t)m->n * sizeof *c->stamp);
    c->clock = 1;
    c->slack_cap = slack_cap(c, x0, def->thickness);
    c->need = 0;
    memcpy(c->x1_prop, x1, 3 * (size_t)m->n * sizeof *x1);
    if (def->scene)
        memset(c->ob_hit, 0, (size_t)m->n);
    begin_call(c, def, x0, x1, fixed_changed);
    unsigned since = c->clock;
    proximity(c, def, h, x0, x1, v, inv_mass, 0, res);
    /* (d): the obstacles' impulses after the proximity impulses, and the proximity
     * impulses again over the pairs that any impulse has changed since their last look
     * (Gauss-Seidel sweeps: between a sheet pressed on an obstacle and the sheets above,
     * one sweep leaves the pairs it looked at first short of their push), until a sweep
     * does nothing and the obstacles move nothing by more than
     * CLOTH__COLLIDE_OBSTACLE_ENOUGH of the thickness */
    for (int round = 0; def->scene && round < CLOTH__COLLIDE_PROXIMITY_SWEEPS; round++) {
        double most = 0;
        int moved = obstacle_pass(c, def, h, x1, v, &most, res);
        unsigned next = c->clock;
        int acted = proximity(c, def, h, x0, x1, v, inv_mass, since, res);
        since = next;
        if (!acted && !(moved && most > CLOTH__COLLIDE_OBSTACLE_ENOUGH * def->thickness))
            break;
    }
    obstacle_pass(c, def, h, x1, v, NULL, res);
    while (res->passes < def->passes) {
        res->passes++;
        int overflowed = res->overflow;
        res->overflow = 0;
        int hits = collision_pass(c, def, h, x0, x1, v, inv_mass, res);
        int moved = obstacle_pass(c, def, h, x1, v, NULL, res);
        int clean = hits == 0 && !res->overflow;
        res->overflow |= overflowed;
        if (clean && !overflowed && !moved) {
            /* a pass that changed nothing searched the final motion: no zones needed */
            res->resolved = 1;
            next_slack(c, def, x1);
            return 0;
        }
        /* a clean pass whose obstacle impulses moved vertices: the next pass checks them */
        if (hits == 0 && !moved)
            break;
    }
    impact_zones(c, def, h, x0, x1, v, inv_mass, res);
    res->inside = count_inside(c, def, x1);
    next_slack(c, def, x1);
    return 0;
}

/* The test hooks' answer: the kept candidates whose boxes meet, by the stage's own box
 * test (at the start, or over the step), copied into pt and ee; -1 past cap. */
static int list_meeting(cloth__collide *c, double thickness, const double *x0,
                        const double *x1, int at_start, int *pt, int *n_pt, int *ee,
                        int *n_ee, int cap)
{
    *n_pt = *n_ee = 0;
    for (int k = 0; k < c->cand.n_pt + c->cand.n_ee; k++) {
        double *d0;
        unsigned *seen;
        pair pr = candidate(c, k, &d0, &seen);
        if (at_start ? !boxes_meet(&pr, x0, NULL, 0.5 * thickness)
                     : !boxes_meet(&pr, x0, x1, 0.5 * CLOTH__COLLIDE_ETA * thickness))
            continue;
        int is_pt = k < c->cand.n_pt, *list = is_pt ? pt : ee, *n = is_pt ? n_pt : n_ee;
        const int *src = is_pt ? c->cand.pt + 2 * k : c->cand.ee + 2 * (k - c->cand.n_pt);
        if (*n == cap)
            return -1;
        list[2 * *n] = src[0];
        list[2 * *n + 1] = src[1];
        (*n)++;
    }
    return 0;
}

int cloth__collide_pass_candidates(cloth__collide *c, double thickness, double slack,
                                   double tol, const double *x0, const double *x1_ref,
                                   const double *x1, const double *inv_mass, int *pt,
                                   int *n_pt, int *ee, int *n_ee, int cap)
{
    c->slack = c->slack_cap = slack;
    c->tol = tol;
    c->ahead = 0;
    for (int i = 0; i < c->mesh->n; i++)
        c->fixed[i] = !(inv_mass[i] > 0);
    cloth__collide_def def = {.thickness = thickness, .passes = 1, .zone_iterations = 1};
    cloth__collide_result res = {0};
    memcpy(c->x1_prop, x1_ref, 3 * (size_t)c->mesh->n * sizeof *x1_ref);
    c->need = 0;
    query(c, &def, x0, x1_ref);
    int queries = c->queries;
    ensure(c, &def, x0, x1, &res);
    int status = c->queries != queries ? 1 : res.overflow ? -1 : 0;
    *n_pt = *n_ee = 0;
    if (status != 0)
        return status;
    return list_meeting(c, thickness, x0, x1, 0, pt, n_pt, ee, n_ee, cap);
}

int cloth__collide_next_candidates(cloth__collide *c, double thickness, double slack,
                                   double tol, int ahead, const double *xq, const double *x1q,
                                   const double *x0, const double *x1, const double *inv_mass,
                                   int at_start, int *pt, int *n_pt, int *ee, int *n_ee,
                                   int cap)
{
    c->slack = c->slack_cap = slack;
    c->tol = tol;
    c->ahead = c->ahead_max = ahead;
    for (int i = 0; i < c->mesh->n; i++)
        c->fixed[i] = !(inv_mass[i] > 0);
    cloth__collide_def def = {.thickness = thickness, .passes = 1, .zone_iterations = 1};
    query(c, &def, xq, x1q);
    *n_pt = *n_ee = 0;
    if (c->cand_overflow)
        return -1;
    if (!still_holds(c, &def, x0, x1))
        return 1;
    return list_meeting(c, thickness, x0, x1, at_start, pt, n_pt, ee, n_ee, cap);
}

int cloth__collide_plain(cloth__collide *c, int plain)
{
    c->plain = plain;
    c->queried = 0;
    return c->carried;
}

void cloth__collide_set_room(cloth__collide *c, const double *room)
{
    for (int i = 0; i < c->mesh->n; i++)
        c->grow[i] = room ? room[i] : 0;
}
