/* The robust collision stage (Bridson, Fedkiw and Anderson 2002; Provot 1997); what it
 * does and why is in collide.h, which also says which file holds which part. */
#include "terms/collide.h"
#include "terms/collide_candidates.h"
#include "terms/collide_obstacles.h"
#include "terms/collide_passes.h"
#include "terms/collide_proximity.h"
#include "terms/collide_zones.h"
#include "terms/vec3.h"
#include "core/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
        cloth__collide_pair pr = is_pt ? cloth__collide_pair_pt(c, bp.pt + 2 * k)
                                       : cloth__collide_pair_ee(c, bp.ee + 2 * (k - bp.n_pt));
        double dist = cloth__collide_pair_distance(&pr, x);
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
    cloth__collide_begin_call(c, def, x0, x1, fixed_changed);
    unsigned since = c->clock;
    cloth__collide_proximity(c, def, h, x0, x1, v, inv_mass, 0, res);
    /* (d): the obstacles' impulses after the proximity impulses, and the proximity
     * impulses again over the pairs that any impulse has changed since their last look
     * (Gauss-Seidel sweeps: between a sheet pressed on an obstacle and the sheets above,
     * one sweep leaves the pairs it looked at first short of their push), until a sweep
     * does nothing and the obstacles move nothing by more than
     * CLOTH__COLLIDE_OBSTACLE_ENOUGH of the thickness */
    for (int round = 0; def->scene && round < CLOTH__COLLIDE_PROXIMITY_SWEEPS; round++) {
        double most = 0;
        int moved = cloth__collide_obstacle_pass(c, def, h, x1, v, &most, res);
        unsigned next = c->clock;
        int acted = cloth__collide_proximity(c, def, h, x0, x1, v, inv_mass, since, res);
        since = next;
        if (!acted && !(moved && most > CLOTH__COLLIDE_OBSTACLE_ENOUGH * def->thickness))
            break;
    }
    cloth__collide_obstacle_pass(c, def, h, x1, v, NULL, res);
    while (res->passes < def->passes) {
        res->passes++;
        int overflowed = res->overflow;
        res->overflow = 0;
        int hits = cloth__collide_collision_pass(c, def, h, x0, x1, v, inv_mass, res);
        int moved = cloth__collide_obstacle_pass(c, def, h, x1, v, NULL, res);
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
    cloth__collide_impact_zones(c, def, h, x0, x1, v, inv_mass, res);
    res->inside = cloth__collide_count_inside(c, def, x1);
    next_slack(c, def, x1);
    return 0;
}

const unsigned char *cloth__collide_obstacle_hits(const cloth__collide *c,
                                                  const double **normal)
{
    *normal = c->ob_normal;
    return c->ob_hit;
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
        cloth__collide_pair pr = cloth__collide_candidate(c, k, &d0, &seen);
        if (at_start ? !cloth__collide_boxes_meet(&pr, x0, NULL, 0.5 * thickness)
                     : !cloth__collide_boxes_meet(&pr, x0, x1,
                                                  0.5 * CLOTH__COLLIDE_ETA * thickness))
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
    cloth__collide_query(c, &def, x0, x1_ref);
    int queries = c->queries;
    cloth__collide_ensure(c, &def, x0, x1, &res);
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
    cloth__collide_query(c, &def, xq, x1q);
    *n_pt = *n_ee = 0;
    if (c->cand_overflow)
        return -1;
    if (!cloth__collide_still_holds(c, &def, x0, x1))
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

int cloth__collide_ccd_clear(int edge_edge, const double x0[12], const double x1[12],
                             double dmin)
{
    cloth__collide_pair pr = {edge_edge ? CLOTH__CCD_EDGE_EDGE : CLOTH__CCD_POINT_TRIANGLE,
                              {0, 1, 2, 3}};
    double a[12];
    memcpy(a, x0, sizeof a);
    return cloth__ccd_clears_at_once(pr.kind, x0, x1, dmin,
                                     cloth__collide_ccd_start_distance(&pr, a));
}
