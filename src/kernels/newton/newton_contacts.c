/* newton: which barrier terms are active and their gaps — the mesh adjacency that
 * decides which vertex pairs may touch, the collection of active terms at an x (the
 * obstacles, self-contact by vertex pairs or by point-triangle and edge-edge pairs, the
 * strain limits), the feasibility of the initial state, and the moving sphere's
 * continuation within a step (the body's is newton_body.c's).
 *
 * Self-contact, newton.contact = full (IPC's contact set): every point-triangle and
 * edge-edge pair that shares no vertex and whose distance d (between the closed
 * primitives, terms/distance.h) is below material.thickness + g^ is an active term with
 * the gap g = d - thickness.  Pairs that are already that close in the rest shape are
 * not contacts (they are neighbours within the contact reach, as the springs' ends are
 * for newton.contact = vertex): a flat sheet has no contact with itself at rest. */
#include "core/status.h"
#include "kernels/newton/newton_work.h"

#include "terms/adjacency.h"
#include "terms/contact.h"
#include "terms/distance.h"
#include "terms/obstacle.h"
#include "terms/strain_limit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- adjacency */

static int adjacent(const cloth__newton *w, int i, int j)
{
    return cloth__adjacent(w->adj_start, w->adj, i, j);
}

int cloth__newton_keep_pair(int i, int j, void *work)
{
    const cloth__newton *w = work;
    if (w->dof[i] < 0 && w->dof[j] < 0)
        return 0;
    return !adjacent(w, i, j);
}

/* Springs at each vertex (for the elastic blocks of dynamic kappa). */
static int build_incidence(cloth__newton *w, const cloth_mesh *m)
{
    int n = m->n;
    w->inc_start = calloc((size_t)n + 1, sizeof *w->inc_start);
    w->inc = malloc((2 * (size_t)m->n_springs + 1) * sizeof *w->inc);
    int *fill = calloc((size_t)n, sizeof *fill);
    if (!w->inc_start || !w->inc || !fill) {
        free(fill);
        return 0;
    }
    for (int s = 0; s < m->n_springs; s++) {
        w->inc_start[m->springs[s].a + 1]++;
        w->inc_start[m->springs[s].b + 1]++;
    }
    for (int i = 0; i < n; i++)
        w->inc_start[i + 1] += w->inc_start[i];
    for (int s = 0; s < m->n_springs; s++) {
        int a = m->springs[s].a, b = m->springs[s].b;
        w->inc[w->inc_start[a] + fill[a]++] = s;
        w->inc[w->inc_start[b] + fill[b]++] = s;
    }
    free(fill);
    return 1;
}

int cloth__newton_build_topology(cloth__newton *w, const cloth_mesh *m)
{
    if (!cloth__mesh_adjacency(m, &w->adj_start, &w->adj) || !build_incidence(w, m))
        return 0;
    w->limited = malloc(((size_t)m->n_springs + 1) * sizeof *w->limited);
    if (!w->limited)
        return 0;
    for (int k = 0; k < m->n_springs; k++)
        if (m->springs[k].family != CLOTH_BEND)
            w->limited[w->n_limited++] = k;
    w->limited_tris = malloc(((size_t)m->n_tris + 1) * sizeof *w->limited_tris);
    w->tri_dm = malloc(((size_t)m->n_tris + 1) * 4 * sizeof *w->tri_dm);
    w->tri_mass = malloc(((size_t)m->n_tris + 1) * sizeof *w->tri_mass);
    double *area_at = calloc((size_t)m->n + 1, sizeof *area_at);
    if (!w->limited_tris || !w->tri_dm || !w->tri_mass || !area_at) {
        free(area_at);
        return 0;
    }
    for (int t = 0; t < m->n_tris; t++) {
        double X[9];
        cloth__newton_gather(m->rest, m->tris + 3 * t, 3, X);
        w->tri_mass[t] = cloth__strain_rest(X, w->tri_dm + 4 * t); /* its area, for now */
        if (w->tri_mass[t] > 0)
            w->limited_tris[w->n_limited_tris++] = t;
        for (int k = 0; k < 3; k++)
            area_at[m->tris[3 * t + k]] += w->tri_mass[t];
    }
    /* A face's mass for ZOZO's strain kappa (ppf-contact-solver, strainlimiting/
     * strainlimiting.cu:22-43 takes prop.face[i].mass, which scene.rs:1798 sets to
     * density * area): each vertex's lumped mass shared among its triangles by area,
     * m_t = sum_{i in t} m_i A_t / (sum_{t' ni i} A_t').  With material.density the
     * lumping gives m_i = rho sum A_t'/3, so m_t = rho A_t exactly; with
     * material.vertex_mass it is the same sharing of the masses the scene gave. */
    for (int t = 0; t < m->n_tris; t++) {
        double area = w->tri_mass[t], share = 0;
        for (int k = 0; k < 3; k++) {
            int i = m->tris[3 * t + k];
            share += area_at[i] > 0 ? m->mass[i] * area / area_at[i] : 0;
        }
        w->tri_mass[t] = share;
    }
    free(area_at);
    return 1;
}

/* -------------------------------------------------------------- contacts */

static void push_contact(cloth__newton *w, cloth__contact_kind kind, int a, int b, int elem)
{
    if (w->n_contacts < w->contact_cap)
        w->contacts[w->n_contacts++] = (cloth__contact){kind, a, b, elem};
    else
        w->contact_overflows++;
}

/* ----------------------------------------------- point-triangle, edge-edge */

void cloth__newton_stencil(const cloth__newton *w, const cloth__newton_ctx *ctx,
                           const cloth__contact *c, int v[4])
{
    if (c->kind == CLOTH__CONTACT_PT) {
        const int *t = ctx->mesh->tris + 3 * c->elem;
        v[0] = c->a;
        v[1] = t[0];
        v[2] = t[1];
        v[3] = t[2];
    } else {
        v[0] = w->edges[2 * c->a];
        v[1] = w->edges[2 * c->a + 1];
        v[2] = w->edges[2 * c->b];
        v[3] = w->edges[2 * c->b + 1];
    }
}

/* The squared distance of the stencil's closed primitives at x, with the derivatives of
 * the type that attains it (distance.h). */
static double stencil_distance2(const double *x, const int v[4], int edge_edge, double *grad,
                                double *hess)
{
    const double *p0 = x + 3 * v[0], *p1 = x + 3 * v[1], *p2 = x + 3 * v[2],
                 *p3 = x + 3 * v[3];
    if (edge_edge)
        return cloth__edge_edge_distance2(p0, p1, p2, p3, cloth__edge_edge_type(p0, p1, p2, p3),
                                          grad, hess);
    return cloth__point_triangle_distance2(p0, p1, p2, p3,
                                           cloth__point_triangle_type(p0, p1, p2, p3), grad,
                                           hess);
}

double cloth__newton_stencil_gap(const cloth__newton *w, const cloth__newton_ctx *ctx,
                                 const cloth__contact *c, const double *x, double *grad,
                                 double *hess, double *mollifier, double *mgrad,
                                 double *mhess)
{
    int v[4], ee = c->kind == CLOTH__CONTACT_EE;
    double g2[12], h2[144];
    cloth__newton_stencil(w, ctx, c, v);
    double d = sqrt(stencil_distance2(x, v, ee, grad || hess ? g2 : NULL, hess ? h2 : NULL));
    /* d = sqrt(D): grad d = grad D / (2 d), hess d = hess D / (2 d) - grad D grad D^T /
     * (4 d^3) */
    for (int i = 0; grad && i < 12; i++)
        grad[i] = g2[i] / (2 * d);
    for (int i = 0; hess && i < 12; i++)
        for (int j = 0; j < 12; j++)
            hess[12 * i + j] = h2[12 * i + j] / (2 * d) - g2[i] * g2[j] / (4 * d * d * d);
    if (ee && mollifier)
        *mollifier = cloth__newton_stencil_mollifier(ctx, v, x, mgrad, mhess);
    return d - ctx->thickness;
}

double cloth__newton_stencil_mollifier(const cloth__newton_ctx *ctx, const int v[4],
                                       const double *x, double *mgrad, double *mhess)
{
    const double *r = ctx->mesh->rest;
    double eps_x = cloth__edge_edge_mollifier_eps(r + 3 * v[0], r + 3 * v[1], r + 3 * v[2],
                                                  r + 3 * v[3]);
    return cloth__edge_edge_mollifier(x + 3 * v[0], x + 3 * v[1], x + 3 * v[2], x + 3 * v[3],
                                      eps_x, mgrad, mhess);
}

int cloth__newton_stencil_near_at_rest(const cloth__newton_ctx *ctx, const int v[4],
                                       int edge_edge)
{
    double reach = ctx->thickness + ctx->nd->dhat;
    return stencil_distance2(ctx->mesh->rest, v, edge_edge, NULL, NULL) < reach * reach;
}

int cloth__newton_cand_near_at_rest(cloth__newton *w, const cloth__newton_ctx *ctx,
                                    const int v[4], int edge_edge, int k)
{
    signed char *known = edge_edge ? w->cand_rest_ee : w->cand_rest_pt;
    if (known[k] < 0)
        known[k] = (signed char)cloth__newton_stencil_near_at_rest(ctx, v, edge_edge);
    return known[k];
}

/* The terms the last collection from the same candidates found, when it was at x (bit
 * for bit): the collection is a function of x and the candidates alone (the mesh, the
 * thickness and g^ are fixed), so they are the terms it would find again.  0 when there
 * is none to reuse. */
static int reuse_full(cloth__newton *w, const double *x)
{
    if (!w->cand_valid || !w->full_valid ||
        memcmp(x, w->full_x, sizeof(double) * 3 * (size_t)w->n) != 0)
        return 0;
    for (int k = 0; k < w->n_full; k++) {
        const cloth__contact *c = &w->full_terms[k];
        int before = w->n_contacts;
        push_contact(w, c->kind, c->a, c->b, c->elem);
        if (w->n_contacts > before)
            w->contact_gap[before] = w->full_gap[k];
    }
    return 1;
}

/* The point-triangle and edge-edge terms at x: broad phase, then distances.  While x
 * lies on the line search's segment (w->cand_valid) its candidates hold every pair within
 * reach there, and the broad phase is not repeated, nor the rest-shape test of a
 * candidate already tested, nor the whole collection at the point the last one was at
 * (reuse_full: the iterate after an accepted trial point).  Each term's gap d -
 * thickness goes with it (w->contact_gap): the same operations on the same d as
 * cloth__newton_stencil_gap, so the energy need not compute it again. */
static void collect_full(cloth__newton *w, const cloth__newton_ctx *ctx, const double *x)
{
    double reach = ctx->thickness + ctx->nd->dhat;
    double t0 = cloth__newton_now_ms();
    if (reuse_full(w, x)) {
        w->profile.distance_ms += cloth__newton_now_ms() - t0;
        return;
    }
    cloth__broad_pairs bp = {w->cand_pt, w->n_cand_pt, w->cand_ee, w->n_cand_ee, 0};
    int kept = w->cand_valid;
    if (!kept)
        cloth__broad_phase_query(w->bp, x, NULL, reach, ctx->mesh->pinned, &bp);
    if (bp.overflow)
        w->contact_overflows++;
    double t1 = cloth__newton_now_ms();
    w->full_valid = 0;
    w->n_full = 0;
    /* At a trial point x + alpha dir of the segment the candidates were found for, a
     * pair's distance is at least d0 - alpha l_p (its distance at the start, less what
     * it may close at its speed l_p: the feasibility filter's bound, terms/ccd.h, for
     * the motion relative to the stencil's first vertex: self_contact_alpha).  A
     * pair that bound keeps out of reach, by a margin far above the rounding of x + alpha
     * dir and of the distance (relative 1e-6 of reach, 1e-9 of the coordinates and
     * 1e-14 of their square over reach, the cancellation of a distance's form), is not
     * within reach and is not collected: the same terms as computing its distance, in
     * the same order, without it (issue 47, item 5). */
    int bounded = kept && w->trial;
    double skip_above = reach * (1 + 1e-6) + 1e-9 * w->cand_scale +
                        1e-14 * w->cand_scale * w->cand_scale / reach;
    for (int kind = 0; kind < 2; kind++) {
        const double *bound = kind ? w->cand_reach_ee : w->cand_reach_pt;
        const signed char *rest = kind ? w->cand_rest_ee : w->cand_rest_pt;
        for (int k = 0; k < cloth__newton_broad_count(&bp, kind); k++) {
            if (bounded && bound[2 * k] - w->trial_alpha * bound[2 * k + 1] > skip_above)
                continue;
            if (kept && rest[k] == 1)
                continue; /* near in the rest shape, known: never a term, at any d */
            cloth__contact c = cloth__newton_broad_pair(&bp, kind, k);
            int v[4];
            cloth__newton_stencil(w, ctx, &c, v);
            double d2 = stencil_distance2(x, v, kind, NULL, NULL);
            if (!(d2 < reach * reach) ||
                (kept ? cloth__newton_cand_near_at_rest(w, ctx, v, kind, k)
                      : cloth__newton_stencil_near_at_rest(ctx, v, kind)))
                continue;
            int before = w->n_contacts;
            double g = sqrt(d2) - ctx->thickness;
            push_contact(w, c.kind, c.a, c.b, c.elem);
            if (w->n_contacts > before)
                w->contact_gap[before] = g;
            if (kept && w->n_full < w->self_cap) {
                w->full_terms[w->n_full] = c;
                w->full_gap[w->n_full] = g;
            }
            w->n_full++;
        }
    }
    if (kept && w->n_full <= w->self_cap) {
        memcpy(w->full_x, x, sizeof(double) * 3 * (size_t)w->n);
        w->full_valid = 1;
    }
    w->profile.broad_ms += t1 - t0;
    w->profile.distance_ms += cloth__newton_now_ms() - t1;
}

/* The largest singular value of triangle t's deformation gradient at x. */
static double triangle_sigma1(const cloth__newton *w, const cloth_mesh *m, const double *x,
                              int t)
{
    double xt[9], sigma[2];
    cloth__newton_gather(x, m->tris + 3 * t, 3, xt);
    cloth__strain_sigma(xt, w->tri_dm + 4 * t, sigma, NULL, NULL, 0);
    return sigma[0];
}

/* Limited elements whose stretch a is in the band a > (1 - beta) tau, where the barrier
 * acts (its gap tau - a is below g^ = beta tau); a triangle is in it when sigma1 is. */
static void collect_strain(cloth__newton *w, const cloth__newton_ctx *ctx, const double *x)
{
    const cloth__newton_def *nd = ctx->nd;
    const cloth_mesh *m = ctx->mesh;
    double tau = nd->strain_limit, band = nd->strain_band * tau;
    if (nd->strain_measure == CLOTH__STRAIN_EDGE) {
        for (int k = 0; k < w->n_limited; k++) {
            const cloth_spring *sp = &m->springs[w->limited[k]];
            if (cloth__gap_strain(x + 3 * sp->a, x + 3 * sp->b, sp->rest, tau, NULL, NULL) < band)
                push_contact(w, CLOTH__CONTACT_STRAIN, sp->a, sp->b, w->limited[k]);
        }
        return;
    }
    for (int k = 0; k < w->n_limited_tris; k++) {
        int t = w->limited_tris[k];
        if (tau - (triangle_sigma1(w, m, x, t) - 1) < band)
            push_contact(w, CLOTH__CONTACT_TRIANGLE, m->tris[3 * t], m->tris[3 * t + 1], t);
    }
}

void cloth__newton_collect_contacts(cloth__newton *w, const cloth__newton_ctx *ctx,
                                    const double *x)
{
    const cloth__newton_def *nd = ctx->nd;
    w->n_contacts = 0;
    if (nd->barrier == CLOTH__BARRIER_NONE)
        return;
    for (int i = 0; i < w->n; i++) {
        if (w->dof[i] < 0)
            continue;
        if (ctx->sphere.enabled &&
            cloth__gap_sphere(x + 3 * i, w->sphere_c, ctx->sphere.radius, ctx->sphere.offset,
                              NULL, NULL) < nd->dhat)
            push_contact(w, CLOTH__CONTACT_SPHERE, i, -1, -1);
        if (ctx->floor.enabled &&
            cloth__gap_floor(x + 3 * i, ctx->floor.height, ctx->floor.offset, NULL, NULL) <
                nd->dhat)
            push_contact(w, CLOTH__CONTACT_FLOOR, i, -1, -1);
        if (ctx->avatar && cloth__newton_body_gap(w, ctx, x + 3 * i, NULL, NULL) < nd->dhat)
            push_contact(w, CLOTH__CONTACT_BODY, i, -1, -1);
    }
    if (ctx->self_collision && nd->contact == CLOTH__CONTACT_FULL)
        collect_full(w, ctx, x);
    if (ctx->self_collision && nd->contact == CLOTH__CONTACT_VERTEX) {
        const int *pairs;
        int overflow;
        int count = cloth__spatial_hash_query(w->hash, x, ctx->thickness + nd->dhat,
                                              cloth__newton_keep_pair, w, &pairs, &overflow);
        w->pair_overflows += overflow;
        for (int p = 0; p < count; p++)
            push_contact(w, CLOTH__CONTACT_PAIR, pairs[2 * p], pairs[2 * p + 1], -1);
    }
    if (nd->strain_limit > 0)
        collect_strain(w, ctx, x);
}

double cloth__newton_contact_gap(const cloth__newton *w, const cloth__newton_ctx *ctx,
                                 const cloth__contact *c,
                                 const double *x, double *grad, double *hess)
{
    const double *xa = x + 3 * c->a;
    switch (c->kind) {
    case CLOTH__CONTACT_SPHERE:
        return cloth__gap_sphere(xa, w->sphere_c, ctx->sphere.radius, ctx->sphere.offset, grad,
                                 hess);
    case CLOTH__CONTACT_FLOOR:
        return cloth__gap_floor(xa, ctx->floor.height, ctx->floor.offset, grad, hess);
    case CLOTH__CONTACT_BODY:
        return cloth__newton_body_gap(w, ctx, xa, grad, hess);
    case CLOTH__CONTACT_PAIR:
        return cloth__gap_pair(xa, x + 3 * c->b, ctx->thickness, grad, hess);
    case CLOTH__CONTACT_PT:
    case CLOTH__CONTACT_EE:
        return cloth__newton_stencil_gap(w, ctx, c, x, grad, hess, NULL, NULL, NULL);
    case CLOTH__CONTACT_STRAIN:
        return cloth__gap_strain(xa, x + 3 * c->b, ctx->mesh->springs[c->elem].rest,
                                 ctx->nd->strain_limit, grad, hess);
    default:
        return ctx->nd->strain_limit + 1 - triangle_sigma1(w, ctx->mesh, x, c->elem);
    }
}

/* ------------------------------------------------------ feasibility */

/* Every point-triangle and edge-edge term needs d > thickness at the start. */
static cloth_status check_initial_full(const cloth__newton *w, const cloth__newton_ctx *ctx,
                                       cloth_error *err)
{
    double thickness = ctx->thickness;
    cloth__broad_pairs bp;
    cloth__broad_phase_query(w->bp, ctx->mesh->x0, NULL, thickness, ctx->mesh->pinned, &bp);
    if (bp.overflow)
        return cloth__fail(err, CLOTH_EINVAL,
                           "%s: material.thickness: more than %d point-triangle or edge-edge "
                           "pairs start closer than %g m (is the thickness larger than the "
                           "mesh's cells?)", ctx->source, w->pair_cap, thickness);
    for (int kind = 0; kind < 2; kind++) {
        for (int k = 0; k < cloth__newton_broad_count(&bp, kind); k++) {
            cloth__contact c = cloth__newton_broad_pair(&bp, kind, k);
            int v[4];
            cloth__newton_stencil(w, ctx, &c, v);
            double d = sqrt(stencil_distance2(ctx->mesh->x0, v, kind, NULL, NULL));
            if (d > thickness || cloth__newton_stencil_near_at_rest(ctx, v, kind))
                continue;
            if (kind)
                return cloth__fail(err, CLOTH_EINVAL,
                                   "%s: edges %d-%d and %d-%d start %.3g mm apart, closer than "
                                   "material.thickness = %.3g mm", ctx->source, v[0], v[1],
                                   v[2], v[3], 1e3 * d, 1e3 * thickness);
            return cloth__fail(err, CLOTH_EINVAL,
                               "%s: vertex %d and triangle %d (vertices %d %d %d) start %.3g mm "
                               "apart, closer than material.thickness = %.3g mm", ctx->source,
                               v[0], c.elem, v[1], v[2], v[3], 1e3 * d, 1e3 * thickness);
        }
    }
    return CLOTH_OK;
}

cloth_status cloth__newton_check_initial_state(const cloth__newton *w,
                                               const cloth__newton_ctx *ctx,
                                               cloth_error *err)
{
    const cloth__newton_def *nd = ctx->nd;
    const cloth_mesh *m = ctx->mesh;
    double c[3];
    if (nd->barrier == CLOTH__BARRIER_NONE)
        return CLOTH_OK;
    cloth__sphere_center(&ctx->sphere, 0, c);
    for (int i = 0; i < m->n; i++) {
        if (w->dof[i] < 0)
            continue;
        const double *x = m->x0 + 3 * i;
        if (ctx->sphere.enabled &&
            cloth__gap_sphere(x, c, ctx->sphere.radius, ctx->sphere.offset, NULL, NULL) <= 0)
            return cloth__fail(err, CLOTH_EINVAL,
                               "%s: newton: vertex %d starts inside the sphere (radius + offset); "
                               "the barriers need a positive gap",
                               ctx->source, i);
        if (ctx->floor.enabled &&
            cloth__gap_floor(x, ctx->floor.height, ctx->floor.offset, NULL, NULL) <= 0)
            return cloth__fail(err, CLOTH_EINVAL,
                               "%s: newton: vertex %d starts below the plane (height + offset); "
                               "the barriers need a positive gap",
                               ctx->source, i);
    }
    if (nd->strain_limit > 0 && nd->strain_measure == CLOTH__STRAIN_EDGE)
        for (int k = 0; k < w->n_limited; k++) {
            const cloth_spring *sp = &m->springs[w->limited[k]];
            if (cloth__gap_strain(m->x0 + 3 * sp->a, m->x0 + 3 * sp->b, sp->rest,
                                  nd->strain_limit, NULL, NULL) <= 0)
                return cloth__fail(err, CLOTH_EINVAL,
                                   "%s: newton.strain_limit: %g is not above the initial strain of "
                                   "spring %d-%d (mesh.prestretch %g)",
                                   ctx->source, nd->strain_limit, sp->a, sp->b,
                                   ctx->prestretch);
        }
    if (nd->strain_limit > 0 && nd->strain_measure == CLOTH__STRAIN_TRIANGLE)
        for (int k = 0; k < w->n_limited_tris; k++) {
            int t = w->limited_tris[k];
            double sigma1 = triangle_sigma1(w, m, m->x0, t);
            if (!(sigma1 - 1 < nd->strain_limit))
                return cloth__fail(err, CLOTH_EINVAL,
                                   "%s: newton.strain_limit: %g is not above the initial strain "
                                   "%g of triangle %d (mesh.prestretch %g)",
                                   ctx->source, nd->strain_limit, sigma1 - 1, t,
                                   ctx->prestretch);
        }
    if (ctx->self_collision && nd->contact == CLOTH__CONTACT_FULL)
        return check_initial_full(w, ctx, err);
    if (ctx->self_collision)
        for (int i = 0; i < m->n; i++)
            for (int j = i + 1; j < m->n; j++) {
                if (!cloth__newton_keep_pair(i, j, (void *)w))
                    continue;
                if (cloth__gap_pair(m->x0 + 3 * i, m->x0 + 3 * j, ctx->thickness, NULL,
                                    NULL) <= 0)
                    return cloth__fail(err, CLOTH_EINVAL,
                                       "%s: material.thickness: vertices %d and %d start closer "
                                       "than %g",
                                       ctx->source, i, j, ctx->thickness);
            }
    return CLOTH_OK;
}

/* A moving sphere (its motion, or a user dragging it) goes from where the last step left
 * it, w->sphere_from, to where the sim puts it for the end of this step, ctx->sphere_c.
 * Placing it there at once could put vertices inside it, where no barrier can start, and
 * moving those vertices out by hand could push them through the cloth or the floor.  So
 * the sphere moves within the step, between Newton iterations, as a continuation: from
 * its progress s to the largest s' <= 1 at which every free vertex's gap, with the
 * vertex held at its iterate x, stays at or above max(eta g, g^/10), g its gap now
 * (contact.c's feasible step for the relative motion -(c(1) - c(s))): a vertex already
 * within g^/10 holds the sphere until the barrier has pushed it away, so the sphere
 * never drives a gap towards 0 faster than the barrier (whose stiffness grows as the gap
 * shrinks) can answer.  The cloth then gets out of
 * the way under the barrier, and the sphere advances again at the next iteration.  A
 * step is converged only once s = 1; a sphere still short of its place at the end of a
 * step stays there (the next step starts from it) and the step counts as not
 * converged, so the metrics, which see the sphere where the scene puts it, report any
 * penetration that results.  A vertex within 1e-9 L of the sphere (L the rest diagonal)
 * stops it outright: a fraction of such a gap is lost in rounding. */
void cloth__newton_begin_obstacles(cloth__newton *w)
{
    memcpy(w->sphere_c, w->sphere_from, sizeof w->sphere_c);
    w->sphere_s = 0;
}

/* Rounding may leave a vertex on or inside the sphere where it stands at the step's start
 * (the feasible step keeps a gap of eta times a gap that can itself be a few units of
 * rounding); no barrier can start there, so such a vertex starts the step at g^/2 above
 * the surface, along its direction from the centre. */
void cloth__newton_start_outside_sphere(cloth__newton *w, const cloth__newton_ctx *ctx)
{
    if (!ctx->sphere.enabled || ctx->nd->barrier == CLOTH__BARRIER_NONE)
        return;
    for (int i = 0; i < w->n; i++) {
        if (w->dof[i] < 0)
            continue;
        double n[3], *xi = w->x + 3 * i;
        if (cloth__gap_sphere(xi, w->sphere_c, ctx->sphere.radius, ctx->sphere.offset, n,
                              NULL) > 0)
            continue;
        double r = ctx->sphere.radius + ctx->sphere.offset + 0.5 * ctx->nd->dhat;
        if (cloth__dot3(n, n) == 0)
            n[1] = 1;
        for (int c = 0; c < 3; c++)
            xi[c] = w->sphere_c[c] + r * n[c];
    }
}

void cloth__newton_advance_obstacles(cloth__newton *w, const cloth__newton_ctx *ctx,
                                     const double *x)
{
    if (w->sphere_s >= 1)
        return;
    double left[3], step = 1;
    for (int c = 0; c < 3; c++)
        left[c] = ctx->sphere_c[c] - w->sphere_c[c];
    int moving = left[0] != 0 || left[1] != 0 || left[2] != 0;
    if (moving && ctx->sphere.enabled && ctx->nd->barrier != CLOTH__BARRIER_NONE) {
        double d[3] = {-left[0], -left[1], -left[2]}; /* the vertex as the sphere sees it */
        double tiny = 1e-9 * ctx->mesh->rest_diag, least = 0.1 * ctx->nd->dhat;
        for (int i = 0; i < w->n; i++) {
            if (w->dof[i] < 0)
                continue;
            const double *xi = x + 3 * i;
            double g0 = cloth__gap_sphere(xi, w->sphere_c, ctx->sphere.radius,
                                          ctx->sphere.offset, NULL, NULL);
            /* the sphere may close this gap to eta g0, but not below g^/10: eta is the
             * fraction of g0 that is kept */
            double keep = g0 > 0 ? fmin(1, fmax(ctx->nd->eta, least / g0)) : ctx->nd->eta;
            double a = fmax(0, cloth__alpha_sphere(xi, d, w->sphere_c, ctx->sphere.radius,
                                                   ctx->sphere.offset, keep));
            /* a vertex the sphere already touches (gap within rounding) holds it where it
             * is: eta times that gap would be rounding itself */
            if (a < 1 && g0 < tiny)
                a = 0;
            step = fmin(step, a);
        }
    }
    if (step >= 1) {
        memcpy(w->sphere_c, ctx->sphere_c, sizeof w->sphere_c);
        w->sphere_s = 1;
        return;
    }
    for (int c = 0; c < 3; c++)
        w->sphere_c[c] += step * left[c];
    w->sphere_s += step * (1 - w->sphere_s);
}

void cloth__newton_explain_energy(const cloth__newton *w, const cloth__newton_ctx *ctx,
                                  const double *x, char *buf, size_t size)
{
    for (int i = 0; i < w->n; i++) {
        const double *p = x + 3 * i, *q = w->x_tilde + 3 * i;
        if (!isfinite(p[0] + p[1] + p[2])) {
            snprintf(buf, size, "vertex %d has a non-finite position", i);
            return;
        }
        if (!isfinite(q[0] + q[1] + q[2])) {
            snprintf(buf, size, "vertex %d has a non-finite velocity", i);
            return;
        }
    }
    /* psi(g) = +inf at g <= 0 only for the log barrier (the cubic one goes on past 0) */
    int log_barrier = ctx->nd->barrier == CLOTH__BARRIER_LOG;
    for (int k = 0; k < w->n_contacts && log_barrier; k++) {
        const cloth__contact *c = &w->contacts[k];
        double g = cloth__newton_contact_gap(w, ctx, c, x, NULL, NULL);
        if (g > 0)
            continue;
        switch (c->kind) {
        case CLOTH__CONTACT_SPHERE:
            snprintf(buf, size, "vertex %d is inside the sphere (gap %.3g m)", c->a, g);
            return;
        case CLOTH__CONTACT_FLOOR:
            snprintf(buf, size, "vertex %d is below the plane (gap %.3g m)", c->a, g);
            return;
        case CLOTH__CONTACT_BODY:
            snprintf(buf, size, "vertex %d is inside the avatar's skin (gap %.3g m)", c->a, g);
            return;
        case CLOTH__CONTACT_PT:
        case CLOTH__CONTACT_EE: {
            int v[4];
            cloth__newton_stencil(w, ctx, c, v);
            if (c->kind == CLOTH__CONTACT_PT)
                snprintf(buf, size, "vertex %d and triangle %d are closer than "
                         "material.thickness (gap %.3g m)", v[0], c->elem, g);
            else
                snprintf(buf, size, "edges %d-%d and %d-%d are closer than material.thickness "
                         "(gap %.3g m)", v[0], v[1], v[2], v[3], g);
            return;
        }
        case CLOTH__CONTACT_PAIR:
            snprintf(buf, size, "vertices %d and %d are closer than material.thickness "
                     "(gap %.3g m)", c->a, c->b, g);
            return;
        case CLOTH__CONTACT_STRAIN:
            snprintf(buf, size, "spring %d-%d is strained past newton.strain_limit (gap %.3g)",
                     c->a, c->b, g);
            return;
        default:
            snprintf(buf, size, "triangle %d is strained past newton.strain_limit (gap %.3g)",
                     c->elem, g);
            return;
        }
    }
    snprintf(buf, size, "a term overflowed");
}
