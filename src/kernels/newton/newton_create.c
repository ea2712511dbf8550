/* newton: create and destroy.  The work memory is sized once here for the sim's mesh and
 * scene (unknowns, the step's arrays, contact candidates, the linear system), so that a
 * step allocates nothing; and the scene is checked where only creation can say why (the
 * body, the loop, the dense solver's size, the initial state). */
#include "core/scene.h"
#include "core/status.h"
#include "kernels/newton/newton_work.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void free_store(cloth__kappa_store *k)
{
    free(k->sphere);
    free(k->floor);
    free(k->body);
    free(k->edge);
    free(k->tri);
    free(k->pair);
    free(k->pair_used);
}

/* A kappa store for m with `slots` self-contact slots, every entry empty. */
static int alloc_store(cloth__kappa_store *k, const cloth_mesh *m, unsigned slots)
{
    size_t n = (size_t)m->n + 1;
    k->sphere = malloc(n * sizeof(double));
    k->floor = malloc(n * sizeof(double));
    k->body = malloc(n * sizeof(double));
    k->edge = malloc(((size_t)m->n_springs + 1) * sizeof(double));
    k->tri = malloc(((size_t)m->n_tris + 1) * sizeof(double));
    k->pair = malloc((size_t)slots * sizeof *k->pair);
    k->pair_used = malloc((size_t)slots * sizeof *k->pair_used);
    k->n_pair_used = 0;
    if (!k->sphere || !k->floor || !k->body || !k->edge || !k->tri || !k->pair ||
        !k->pair_used)
        return 0;
    for (unsigned s = 0; s < slots; s++)
        k->pair[s].key = -1;
    return 1;
}

void cloth__newton_destroy(void *work)
{
    cloth__newton *w = work;
    if (!w)
        return;
    free(w->dof);
    free(w->adj_start);
    free(w->adj);
    free(w->inc_start);
    free(w->inc);
    free(w->limited);
    free(w->limited_tris);
    free(w->tri_dm);
    free(w->tri_mass);
    free(w->x_n);
    free(w->z_x);
    free(w->z_v);
    free(w->v_n);
    free(w->x_hat);
    free(w->x_tilde);
    free(w->y);
    free(w->x_prev);
    free(w->v_prev);
    free(w->v_last);
    free(w->f_ext);
    free(w->u_n);
    free(w->x);
    free(w->x_trial);
    free(w->dir);
    free(w->grad);
    free(w->grad_b);
    free(w->step);
    free(w->body_gap);
    free(w->spring_neg);
    free(w->spring_blk);
    cloth__newton_system_destroy(w);
    cloth__spatial_hash_destroy(w->hash);
    cloth__broad_phase_destroy(w->bp);
    free(w->cand_pt);
    free(w->cand_ee);
    free(w->cand_rest_pt);
    free(w->cand_rest_ee);
    free(w->cand_reach_pt);
    free(w->cand_reach_ee);
    free(w->full_x);
    free(w->full_terms);
    free(w->full_gap);
    free(w->speed);
    free(w->contacts);
    free(w->contact_gap);
    free(w->friction);
    free_store(&w->kappa);
    free_store(&w->kappa_prev);
    free(w->rows);
    free(w);
}

/* dof, ndof and the mean mass of the free vertices; 0 when out of memory. */
static int number_unknowns(cloth__newton *w, const cloth_mesh *m)
{
    w->n = m->n;
    w->dof = malloc((size_t)m->n * sizeof *w->dof);
    if (!w->dof)
        return 0;
    double mass = 0;
    w->min_mass = INFINITY;
    for (int i = 0; i < m->n; i++) {
        w->dof[i] = m->pinned[i] ? -1 : w->ndof;
        if (!m->pinned[i]) {
            w->ndof += 3;
            mass += m->mass[i];
            w->min_mass = fmin(w->min_mass, m->mass[i]);
        }
    }
    w->mean_mass = w->ndof ? mass / (w->ndof / 3) : 0;
    return 1;
}

/* The step's vectors. */
static int alloc_step(cloth__newton *w, const cloth_mesh *m)
{
    size_t n3 = 3 * (size_t)w->n, nd = (size_t)w->ndof + 1;
    w->x_n = malloc(n3 * sizeof(double));
    w->z_x = malloc(n3 * sizeof(double));
    w->z_v = malloc(n3 * sizeof(double));
    w->v_n = malloc(n3 * sizeof(double));
    w->x_hat = malloc(n3 * sizeof(double));
    w->x_tilde = malloc(n3 * sizeof(double));
    w->y = malloc(n3 * sizeof(double));
    w->x_prev = malloc(n3 * sizeof(double));
    w->v_prev = malloc(n3 * sizeof(double));
    w->v_last = malloc(n3 * sizeof(double));
    w->f_ext = malloc(n3 * sizeof(double));
    w->u_n = malloc((3 * (size_t)m->n_springs + 1) * sizeof(double));
    w->x = malloc(n3 * sizeof(double));
    w->x_trial = malloc(n3 * sizeof(double));
    w->dir = malloc(n3 * sizeof(double));
    w->grad = malloc(nd * sizeof(double));
    w->grad_b = malloc(nd * sizeof(double));
    w->step = malloc(nd * sizeof(double));
    w->body_gap = malloc(((size_t)w->n + 1) * sizeof(double));
    w->spring_neg = malloc(((size_t)w->n + 1) * sizeof(double));
    w->spring_blk = malloc((3 * (size_t)m->n_springs + 1) * sizeof(int));
    w->spring_blk_ok = 0;
    return w->body_gap && w->spring_neg && w->spring_blk && w->x_n && w->z_x && w->z_v && w->v_n && w->x_hat && w->x_tilde && w->y && w->x_prev && w->v_prev &&
           w->v_last && w->f_ext && w->u_n && w->x && w->x_trial && w->dir &&
           w->grad && w->grad_b && w->step;
}

/* The active-term list, the kappa tables and the log rows (after build_topology). */
static int alloc_contacts(cloth__newton *w, const cloth__newton_ctx *ctx)
{
    const cloth_mesh *m = ctx->mesh;
    int n = w->n;
    /* pairs within g^ + offset, or within the line search's reach: a cloth vertex has a
     * bounded number of such neighbours unless the cloth is crumpled into a ball */
    long all_pairs = (long)n * (n - 1) / 2, cap = 64L * n + 4096;
    int full = ctx->self_collision && ctx->nd->contact == CLOTH__CONTACT_FULL;
    w->pair_cap = (int)(all_pairs < cap ? all_pairs : cap);
    /* active point-triangle and edge-edge terms: two sheets lying on each other have
     * about 20 a vertex (an edge is within reach of some 6 edges of the other sheet) */
    w->self_cap = full ? 24 * n + 1024 : w->pair_cap;
    w->contact_cap = 2 * n + w->self_cap + w->n_limited + w->n_limited_tris;
    unsigned slots = 2;
    while (slots < 4u * (unsigned)w->pair_cap)
        slots <<= 1;
    w->pair_mask = slots - 1;
    w->contacts = malloc(((size_t)w->contact_cap + 1) * sizeof *w->contacts);
    w->contact_gap = malloc(((size_t)w->contact_cap + 1) * sizeof *w->contact_gap);
    w->friction = malloc(((size_t)w->contact_cap + 1) * sizeof *w->friction);
    w->row_cap = ctx->nd->max_iters * ctx->substeps;
    w->rows = malloc(((size_t)w->row_cap + 1) * sizeof *w->rows);
    return w->contacts && w->contact_gap && w->friction && w->rows && alloc_store(&w->kappa, m, slots) &&
           alloc_store(&w->kappa_prev, m, slots);
}

/* An avatar newton cannot follow within a step, or whose distance ends before the
 * barrier does. */
static cloth_status check_body(const cloth__newton_ctx *ctx, const cloth_sim *sim,
                               cloth_error *err)
{
    char where[CLOTH_PATH_MAX + 16];
    /* avatar.collision = ellipsoids is refused by the kernel's facts (newton.c) */
    if (ctx->avatar && ctx->avatar_collision == CLOTH_AVATAR_SDF &&
        ctx->nd->dhat > ctx->avatar->parts.far - ctx->avatar_offset) {
        /* the per-part distance is capped at parts.far (src/body/partfields.h): the
         * barrier must be inactive there for the gap to stay continuous */
        cloth__sim_key_where(sim, "newton", "dhat", where, sizeof where);
        return cloth__fail(err, CLOTH_EINVAL, "%s: newton.dhat = %g m: the body's distance "
                           "(avatar.collision = sdf) reaches only %g m beyond avatar.offset",
                           where, ctx->nd->dhat, ctx->avatar->parts.far - ctx->avatar_offset);
    }
    return CLOTH_OK;
}

/* newton.loop = zozo covers a step with inner steps of their own length (zozo_step): only
 * implicit Euler, and no obstacle that moves within the step. */
static cloth_status check_loop(const cloth__newton_ctx *ctx, const cloth_sim *sim,
                               cloth_error *err)
{
    char where[CLOTH_PATH_MAX + 16];
    if (ctx->nd->loop != CLOTH__LOOP_ZOZO)
        return CLOTH_OK;
    cloth__sim_key_where(sim, "newton", "loop", where, sizeof where);
    const char *by = "newton.loop = zozo";
    if (strcmp(where, ctx->source) == 0) { /* not set itself: newton.preset = zozo set it */
        cloth__sim_key_where(sim, "newton", "preset", where, sizeof where);
        by = "newton.preset = zozo (its loop)";
    }
    if (ctx->nd->integrator != CLOTH__INTEGRATOR_EULER)
        return cloth__fail(err, CLOTH_EINVAL, "%s: %s: only with newton.integrator = "
                           "euler (ZOZO's implicit Euler)", where, by);
    if (ctx->avatar || (ctx->sphere.enabled && ctx->sphere.motion != CLOTH_MOTION_STATIC))
        return cloth__fail(err, CLOTH_EINVAL, "%s: %s: not with a moving sphere or an "
                           "avatar (its inner steps have no obstacle continuation yet); use "
                           "loop = converge", where, by);
    return CLOTH_OK;
}

/* The most unknowns of a dense Newton matrix (newton.solver = dense). */
static cloth_status check_dense_size(const cloth__newton *w, const cloth__newton_ctx *ctx,
                                     const cloth_sim *sim, cloth_error *err)
{
    if (ctx->nd->solver == CLOTH__SOLVER_DENSE && w->ndof > CLOTH__LINALG_MAX) {
        char where[CLOTH_PATH_MAX + 16];
        cloth__sim_key_where(sim, "newton", "solver", where, sizeof where);
        return cloth__fail(err, CLOTH_EINVAL,
                           "%s: newton.solver: dense takes at most %d unknowns; the mesh's %d "
                           "free vertices make %d (use cholmod or pcg)",
                           where, CLOTH__LINALG_MAX, w->ndof / 3, w->ndof);
    }
    return CLOTH_OK;
}

cloth_status cloth__newton_create(const cloth_sim *sim, void **work, cloth_error *err)
{
    cloth__newton_ctx ctx; /* h = run.dt / run.substeps, the sim's step */
    cloth__newton_ctx_build(&ctx, sim, 0);
    const cloth_mesh *m = ctx.mesh;
    *work = NULL;
    cloth_status st = check_body(&ctx, sim, err);
    if (st == CLOTH_OK)
        st = check_loop(&ctx, sim, err);
    if (st != CLOTH_OK)
        return st;
    cloth__newton *w = calloc(1, sizeof *w);
    if (!w || !number_unknowns(w, m))
        goto fail_alloc;
    if (!cloth__newton_build_topology(w, m) || !alloc_step(w, m) || !alloc_contacts(w, &ctx))
        goto fail_alloc;

    st = cloth__spatial_hash_create(m->n, w->pair_cap > 0 ? w->pair_cap : 1, &w->hash, err);
    if (st == CLOTH_OK && ctx.self_collision && ctx.nd->contact == CLOTH__CONTACT_FULL) {
        st = cloth__broad_phase_create(m, w->pair_cap, &w->bp, err);
        if (st == CLOTH_OK)
            w->n_edges = cloth__broad_phase_edges(w->bp, &w->edges);
        w->cand_pt = malloc(2 * (size_t)w->pair_cap * sizeof *w->cand_pt);
        w->cand_ee = malloc(2 * (size_t)w->pair_cap * sizeof *w->cand_ee);
        w->cand_rest_pt = malloc((size_t)w->pair_cap * sizeof *w->cand_rest_pt);
        w->cand_rest_ee = malloc((size_t)w->pair_cap * sizeof *w->cand_rest_ee);
        w->cand_reach_pt = malloc(2 * (size_t)w->pair_cap * sizeof *w->cand_reach_pt);
        w->cand_reach_ee = malloc(2 * (size_t)w->pair_cap * sizeof *w->cand_reach_ee);
        w->full_x = malloc((3 * (size_t)m->n + 1) * sizeof *w->full_x);
        w->full_terms = malloc(((size_t)w->self_cap + 1) * sizeof *w->full_terms);
        w->full_gap = malloc(((size_t)w->self_cap + 1) * sizeof *w->full_gap);
        w->speed = malloc(((size_t)m->n + 1) * sizeof *w->speed);
        if (st == CLOTH_OK && (!w->cand_pt || !w->cand_ee || !w->cand_rest_pt ||
                               !w->cand_rest_ee || !w->cand_reach_pt ||
                               !w->cand_reach_ee || !w->full_x || !w->full_terms ||
                               !w->full_gap || !w->speed))
            goto fail_alloc;
    }
    if (st == CLOTH_OK && w->ndof > 0)
        st = check_dense_size(w, &ctx, sim, err);
    if (st == CLOTH_OK && w->ndof > 0)
        st = cloth__newton_system_create(w, &ctx, err);
    if (st == CLOTH_OK)
        st = cloth__newton_check_initial_state(w, &ctx, err);
    if (st != CLOTH_OK) {
        cloth__newton_destroy(w);
        return st;
    }
    cloth__newton_set_auto_kappa(w, &ctx);
    cloth__newton_body_start(w, &ctx);
    *work = w;
    return CLOTH_OK;

fail_alloc:
    cloth__newton_destroy(w);
    return cloth__fail(err, CLOTH_ENOMEM, "newton: out of memory for %d vertices", m->n);
}

