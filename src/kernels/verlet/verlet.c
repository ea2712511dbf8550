/*
 * verlet — the Verlet cloth web demo's position-Verlet cloth with constraint relaxation,
 * and Provot's strain limiting (SPEC 4.2; X. Provot, "Deformation Constraints in a
 * Mass-Spring Model to Describe Rigid Cloth Behavior", Graphics Interface 1995).
 *
 * One step of length h:
 *
 *   predict   x' = x + d (x - x_prev) + a h^2          (the Verlet cloth web demo)
 *             d = verlet.damping, or d = exp(-c h) with c = verlet.damping_rate > 0, so
 *             that the velocity decays as exp(-c t) whatever the substep count
 *             relax:  a = (gravity + wind + air damping) / m
 *             provot: a also holds the Hooke forces -k (l - l0) u (and spring damping)
 *   relax     mode relax only: verlet.iterations Gauss-Seidel passes over every spring,
 *             D = ((l - l0)/l) 0.5 k_relax (x_j - x_i), x_i += D, x_j -= D (a pinned end
 *             stays and the free end takes 2D), each pass followed by the obstacle
 *             projection (the Verlet cloth web demo), so corrections and contacts
 *             propagate together
 *   collide   a vertex inside radius + offset (or below the floor) goes onto the surface
 *   limit     Provot: a structural or shear spring longer than (1 + tau_c) l0 is shortened
 *             to exactly (1 + tau_c) l0 along itself, half at each end, all at the free
 *             end when one end is pinned; sweeps repeat (with the projection) until one
 *             changes nothing or verlet.strain_passes sweeps are spent.  "Longer" means
 *             l > (1 + tau_c) l0 (1 + verlet.strain_tol): each correction is exact up to
 *             rounding, but it disturbs the springs that share its vertices, so the
 *             sweeps converge only geometrically, and slowly when a long taut path binds
 *             at once (experiments/strain_ablation.ini: ~4 sweeps per step at tau_c = 10 %,
 *             ~160 at 2 %); hence the tolerance and the budget
 *   robust    run.self_collision = on: the contact stage's robust phase (sim/contact.h)
 *             over x_prev -> x, last of all, and x_prev = x - h v after it (collide_robust)
 *   self      run.self_collision = particles | proximity (the stage's self phase): vertex
 *             pairs (and
 *             vertex-triangle pairs) closer than material.thickness are projected apart,
 *             once, after the springs and Provot's limit, so that the step ends with the
 *             pairs apart rather than with a correction that a later stage undoes; then
 *             the obstacles once more (obstacles win where both act)
 *   velocity  v = (x' - x) / h, the velocity the shared metrics' kinetic energy uses;
 *             with self-collision the contacts' velocities are corrected (inelastic
 *             normal, material.self_friction) and their x_prev = x' - h v follows
 *
 * verlet.strain_measure = triangle replaces Provot's springs in the limit stage by
 * isotropic strain limiting (Thomaszewski, Pabst and Straßer 2009; Wang, O'Brien and
 * Ramamoorthi 2010; terms/strain_project.h): per triangle, the singular values of the
 * 3x2 deformation gradient above 1 + tau_c are clamped to it and the three vertices move,
 * mass-weighted (the triangle's centre of mass stays; a pinned vertex stays), to the
 * clamped shape; compression is left alone.  The same sweeps, obstacles, tolerance
 * (sigma1 > (1 + tau_c)(1 + verlet.strain_tol) exceeds), budget and counts as Provot's.
 * With verlet.order = coloured a sweep takes the triangles colour by colour in tiles
 * (pbd's colouring of triangles, terms/colour.h): a colour's triangles share no vertex,
 * so the threads split them and the numbers do not depend on run.threads.
 *
 * Velocity lives in x - x_prev, so every correction above (relaxation, contact, Provot)
 * also changes the velocity of the next step: a vertex pulled back by a correction
 * loses the velocity that stretched the spring (as in position-based dynamics).
 *
 * The frame's `iterations` column counts, summed over its substeps, the relaxation
 * passes (verlet.iterations per step in mode relax, 0 in mode provot) plus the Provot
 * sweeps actually made (the last one being the sweep that found nothing to correct).
 * A step whose limit still does not hold after verlet.strain_passes sweeps reports that
 * it did not converge, and so does every step when a spring between two pinned vertices
 * exceeds the limit (nothing may move to fix it).
 */
#include "kernels/verlet/verlet.h"
#include "kernels/coloured.h"
#include "terms/forces.h"
#include "terms/contact.h"
#include "terms/obstacle.h"
#include "terms/strain_limit.h"
#include "terms/strain_project.h"
#include "sim/contact.h"
#include "sim/sim.h"

#include "core/scene.h"
#include "core/status.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* This kernel's keys ([verlet] of the scene, verlet.h). */
static inline const cloth__verlet_def *settings(const cloth_sim *sim)
{
    return cloth__sim_settings(sim);
}

/* A projection counts as a change when the vertex was deeper than this times the rest
 * diagonal L: a vertex already on a surface is moved again only by rounding. */
#define CONTACT_TOL 1e-12

typedef struct cloth__verlet {
    int *limited;               /* structural and shear springs with a free end       */
    int n_limited;
    int n_free_springs;         /* springs with a free end (relaxed each pass)        */
    int pinned_violations;      /* springs between two pins that exceed the limit     */
    double *x_seen;             /* 3n positions the last step left (or start)         */
    double *v_seen;             /* 3n velocities the last step left (or start)        */
    cloth__coloured *relax;     /* verlet.order = coloured: springs with a free end   */
    cloth__coloured *provot;    /* ... and the limited springs                        */
    cloth__coloured_tris *tris; /* ... and the triangles for the wind's drag          */
    double *x4;                 /* ... and the positions padded for its passes (and
                                 * the external forces)                               */
    double *v4, *f4;            /* ... and v and f padded for the external forces     */
    int tally[2][64];           /* per-thread counts of a coloured sweep, two sweeps
                                 * apart (a thread may start the next before all read) */
    cloth__tri_limits tri;      /* strain_measure = triangle: the limited triangles   */
    cloth__colouring tri_colours; /* ... and with verlet.order = coloured their colours */
} cloth__verlet;

static void verlet_destroy(void *work)
{
    cloth__verlet *w = work;
    if (!w)
        return;
    free(w->limited);
    free(w->x_seen);
    free(w->v_seen);
    cloth__coloured_destroy(w->relax);
    cloth__coloured_destroy(w->provot);
    cloth__coloured_tris_destroy(w->tris);
    free(w->x4);
    free(w->v4);
    free(w->f4);
    cloth__tri_limits_free(&w->tri);
    cloth__colouring_free(&w->tri_colours);
    free(w);
}

/* verlet.order = coloured: the springs relax_pass moves (a free end), with end factors
 * w = 0 pinned, 2 opposite a pin, else 1 (the free end takes both halves), and the
 * limited springs with w = 0 pinned, 1 opposite a pin, else 1/2 (Provot's halves). */
static cloth_status colour_springs(const cloth_mesh *m, cloth__verlet *w, cloth_error *err)
{
    int *ids = malloc(sizeof(int) * (size_t)(m->n_springs + 1)), count = 0;
    if (!ids)
        return cloth__fail(err, CLOTH_ENOMEM, "verlet: out of memory for %d springs",
                           m->n_springs);
    for (int s = 0; s < m->n_springs; s++)
        if (!m->pinned[m->springs[s].a] || !m->pinned[m->springs[s].b])
            ids[count++] = s;
    cloth_status st = cloth__coloured_create(m, ids, count, 4, 0, &w->relax, err);
    free(ids);
    if (st == CLOTH_OK)
        st = cloth__coloured_create(m, w->limited, w->n_limited, 4, 0, &w->provot, err);
    if (st == CLOTH_OK)
        st = cloth__coloured_tris_create(m, 4, &w->tris, err);
    if (st != CLOTH_OK)
        return st;
    if (!(w->x4 = cloth__padded_alloc(m->n)) || !(w->v4 = cloth__padded_alloc(m->n)) ||
        !(w->f4 = cloth__padded_alloc(m->n)))
        return cloth__fail(err, CLOTH_ENOMEM, "verlet: out of memory for %d vertices", m->n);
    for (int j = 0; j < w->relax->n; j++) {
        const cloth_spring *sp = &m->springs[w->relax->spring[j]];
        int free_a = !m->pinned[sp->a], free_b = !m->pinned[sp->b];
        w->relax->wa[j] = free_a ? (free_b ? 1 : 2) : 0;
        w->relax->wb[j] = free_b ? (free_a ? 1 : 2) : 0;
    }
    for (int j = 0; j < w->provot->n; j++) {
        const cloth_spring *sp = &m->springs[w->provot->spring[j]];
        int pin_a = m->pinned[sp->a], pin_b = m->pinned[sp->b];
        w->provot->wa[j] = pin_a ? 0 : pin_b ? 1 : 0.5;
        w->provot->wb[j] = pin_b ? 0 : pin_a ? 1 : 0.5;
    }
    return CLOTH_OK;
}

/* strain_measure = triangle needs triangles. */
static cloth_status check_measure(const cloth_sim *sim, cloth_error *err)
{
    const cloth__verlet_def *vd = settings(sim);
    char where[CLOTH_PATH_MAX + 16];
    if (!(vd->strain_limit > 0) || vd->strain_measure != CLOTH__LIMIT_TRIANGLE)
        return CLOTH_OK;
    cloth__sim_key_where(sim, "verlet", "strain_measure", where, sizeof where);
    if (sim->mesh->n_tris == 0)
        return cloth__fail(err, CLOTH_EINVAL, "%s: verlet.strain_measure = triangle: the mesh "
                           "has no triangles to limit (use edge)", where);
    return CLOTH_OK;
}

static cloth_status verlet_create(const cloth_sim *sim, void **work, cloth_error *err)
{
    cloth_status checked = check_measure(sim, err);
    if (checked != CLOTH_OK)
        return checked;
    const cloth_mesh *m = sim->mesh;
    cloth__verlet *w = calloc(1, sizeof *w);
    if (!w) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "verlet: out of memory");
        return CLOTH_ENOMEM;
    }
    w->limited = malloc(sizeof(int) * (size_t)(m->n_springs ? m->n_springs : 1));
    w->x_seen = malloc(sizeof(double) * 3 * (size_t)m->n);
    w->v_seen = malloc(sizeof(double) * 3 * (size_t)m->n);
    if (!w->limited || !w->x_seen || !w->v_seen) {
        verlet_destroy(w);
        if (err)
            snprintf(err->msg, sizeof err->msg, "verlet: out of memory for %d vertices",
                     m->n);
        return CLOTH_ENOMEM;
    }
    for (int s = 0; s < m->n_springs; s++) {
        const cloth_spring *sp = &m->springs[s];
        int free_end = !(m->pinned[sp->a] && m->pinned[sp->b]);
        w->n_free_springs += free_end;
        if (sp->family != CLOTH_BEND && free_end)
            w->limited[w->n_limited++] = s;
    }
    if (settings(sim)->strain_limit > 0 &&
        settings(sim)->strain_measure == CLOTH__LIMIT_TRIANGLE &&
        cloth__tri_limits_init(m, &w->tri, err) != CLOTH_OK) {
        verlet_destroy(w);
        return CLOTH_ENOMEM;
    }
    if (settings(sim)->order == CLOTH__ORDER_COLOURED) {
        cloth_status st = colour_springs(m, w, err);
        if (st == CLOTH_OK && w->tri.v) /* strain_measure = triangle */
            st = cloth__colour_items(w->tri.n, 3, w->tri.v, m->n, &w->tri_colours, err);
        if (st != CLOTH_OK) {
            verlet_destroy(w);
            return st;
        }
        cloth__coloured_start_threads(sim->scene.run.threads);
    }
    *work = w;
    return CLOTH_OK;
}

static double length3(const double d[3])
{
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

static void remember_state(const cloth_sim *sim, cloth__verlet *w)
{
    size_t bytes = sizeof(double) * 3 * (size_t)sim->mesh->n;
    memcpy(w->x_seen, sim->x, bytes);
    memcpy(w->v_seen, sim->v, bytes);
}

/* The triangles with three pinned vertices (not in the limited set: nothing may move)
 * that exceed the limit. */
static int pinned_triangle_violations(const cloth_sim *sim, double factor)
{
    const cloth_mesh *m = sim->mesh;
    int count = 0;
    for (int k = 0; k < m->n_tris && settings(sim)->strain_limit > 0; k++) {
        const int *id = m->tris + 3 * k;
        if (!m->pinned[id[0]] || !m->pinned[id[1]] || !m->pinned[id[2]])
            continue;
        double R[9], X[9], Dm_inv[4], s[2];
        for (int c = 0; c < 3; c++) {
            memcpy(R + 3 * c, m->rest + 3 * id[c], 3 * sizeof(double));
            memcpy(X + 3 * c, m->x0 + 3 * id[c], 3 * sizeof(double));
        }
        if (cloth__strain_rest(R, Dm_inv) == 0)
            continue;
        cloth__strain_sigma(X, Dm_inv, s, NULL, NULL, 0);
        count += s[0] > factor * (1 + settings(sim)->strain_tol);
    }
    return count;
}

/* Pins are static, so a spring between two pins keeps its length: count once here the
 * ones that exceed the limit (a pinned bar built with mesh.prestretch > tau_c). */
static void verlet_start(cloth_sim *sim, void *work)
{
    cloth__verlet *w = work;
    const cloth_mesh *m = sim->mesh;
    double factor = 1 + settings(sim)->strain_limit;
    w->pinned_violations = 0;
    for (int s = 0; s < m->n_springs && settings(sim)->strain_limit > 0; s++) {
        const cloth_spring *sp = &m->springs[s];
        if (sp->family == CLOTH_BEND || !m->pinned[sp->a] || !m->pinned[sp->b])
            continue;
        const double *a = m->x0 + 3 * sp->a, *b = m->x0 + 3 * sp->b;
        double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        w->pinned_violations +=
            length3(d) > factor * sp->rest * (1 + settings(sim)->strain_tol);
    }
    if (settings(sim)->strain_measure == CLOTH__LIMIT_TRIANGLE)
        w->pinned_violations = pinned_triangle_violations(sim, factor);
    remember_state(sim, w);
}

/* The state is x and x_prev; a caller may write x or v between frames (the notebooks
 * do).  A vertex whose x or v is not what the last step left gets x_prev = x - h v, so
 * that it continues from the written position with the written velocity. */
static void verlet_begin_frame(cloth_sim *sim, void *work)
{
    cloth__verlet *w = work;
    double h = sim->scene.run.dt / sim->scene.run.substeps;
    for (int i = 0; i < sim->mesh->n; i++) {
        double *x = sim->x + 3 * i, *v = sim->v + 3 * i;
        if (memcmp(x, w->x_seen + 3 * i, 3 * sizeof(double)) == 0 &&
            memcmp(v, w->v_seen + 3 * i, 3 * sizeof(double)) == 0)
            continue;
        for (int k = 0; k < 3; k++)
            sim->x_prev[3 * i + k] = x[k] - h * v[k];
    }
}

/* ------------------------------------------------------------------ stages */

static void compute_accelerations(cloth_sim *sim, const cloth__verlet *w)
{
    double *f = sim->force;
    if (w->tris) { /* verlet.order = coloured: the drag's blocks on padded copies */
        cloth__coloured_forces(cloth__sim_force_env(sim), w->tris, NULL, sim->scene.run.threads,
                               sim->x, sim->v, sim->t, w->x4, w->v4, w->f4, NULL, f);
    } else {
        memset(f, 0, sizeof(double) * 3 * (size_t)sim->mesh->n);
        cloth__add_external_forces(cloth__sim_force_env(sim), sim->x, sim->v, sim->t, f);
    }
    if (settings(sim)->mode == CLOTH__VERLET_PROVOT)
        cloth__add_spring_forces(cloth__sim_force_env(sim), sim->x, sim->v, f);
    for (int i = 0; i < sim->mesh->n; i++)
        for (int c = 0; c < 3; c++)
            f[3 * i + c] *= sim->mesh->inv_mass[i];
}

/* x' = x + d (x - x_prev) + a h^2; x_prev takes x.  Pins stay where the mesh put them.
 * Not CLOTH_OK only from an assignment's stub. */
static cloth_status predict(cloth_sim *sim, double h)
{
    /* ASSIGNMENT verlet_provot: verlet_predict BEGIN */
    const cloth__verlet_def *vd = settings(sim);
    const cloth_mesh *m = sim->mesh;
    double d = vd->damping_rate > 0 ? exp(-vd->damping_rate * h) : vd->damping;
    for (int i = 0; i < m->n; i++) {
        double *x = sim->x + 3 * i, *xp = sim->x_prev + 3 * i;
        if (m->pinned[i]) {
            memcpy(x, m->x0 + 3 * i, 3 * sizeof(double));
            memcpy(xp, m->x0 + 3 * i, 3 * sizeof(double));
            continue;
        }
        for (int k = 0; k < 3; k++) {
            double now = x[k];
            x[k] = now + d * (now - xp[k]) + sim->force[3 * i + k] * h * h;
            xp[k] = now;
        }
    }
    return CLOTH_OK;
    /* ASSIGNMENT verlet_provot: verlet_predict END */
}

/* Puts every free vertex of [lo, hi) of the positions pos (`stride` doubles a vertex:
 * sim->x, or the coloured passes' padded copy) inside an obstacle on its surface (the
 * contact stage's obstacles as position constraints); returns how many were deeper than
 * CONTACT_TOL L (the ones that really moved). */
static int collide_range(cloth_sim *sim, double *pos, int stride, int lo, int hi)
{
    return cloth__contact_obstacle_positions_counted(sim, pos, stride, lo, hi,
                                                     CONTACT_TOL * sim->mesh->rest_diag);
}

static int collide(cloth_sim *sim)
{
    return collide_range(sim, sim->x, 3, 0, sim->mesh->n);
}

/* verlet.order = coloured, mode relax: each pass relaxes the springs in the tiled order
 * (kernels/coloured.h), split among the threads, then the obstacles split by vertex; on
 * the padded positions w->x4 (each thread copies its share of the vertices in and out). */
static void relax_coloured(cloth_sim *sim, const cloth__verlet *w, int passes)
{
    cloth__coloured *c = w->relax;
    double half_k = 0.5 * settings(sim)->k_relax;
    int threads = sim->scene.run.threads;
    CLOTH__PARALLEL(threads)
    {
        int part = cloth__thread_id(), parts = cloth__thread_count(), v0, v1;
        cloth__share(sim->mesh->n, part, parts, &v0, &v1);
        cloth__pad(sim->x, w->x4, v0, v1);
        CLOTH__BARRIER
        for (int pass = 0; pass < passes; pass++) {
            for (int step = 0; step < c->colours.n_steps; step++) {
                CLOTH__RANGES(&c->colours, step, part, parts, lo, hi)
                    cloth__coloured_relax(c, w->x4, half_k, lo, hi);
                CLOTH__BARRIER
            }
            collide_range(sim, w->x4, 4, v0, v1);
            CLOTH__BARRIER
        }
        cloth__unpad(w->x4, sim->x, v0, v1);
    }
}

/* verlet.order = coloured: Provot's sweeps (or the triangles' with strain_measure =
 * triangle) in the tiled order, each followed by the obstacles, on the padded positions
 * w->x4; returns the sweeps made and sets *changed to the last one's corrections.  Every
 * thread adds the per-thread tallies in the same order, so all agree on when to stop. */
static int limit_coloured(cloth_sim *sim, cloth__verlet *w, double factor, int *changed)
{
    cloth__coloured *c = w->provot;
    const cloth__verlet_def *vd = settings(sim);
    const cloth__colouring *tris = w->tri.v ? &w->tri_colours : NULL;
    const cloth__colouring *order = tris ? tris : &c->colours;
    int threads = sim->scene.run.threads, sweeps = 0, last = 0;
    CLOTH__PARALLEL(threads)
    {
        int part = cloth__thread_id(), parts = cloth__thread_count(), sweep = 0;
        int more = 1, v0, v1;
        cloth__share(sim->mesh->n, part, parts, &v0, &v1);
        cloth__pad(sim->x, w->x4, v0, v1);
        CLOTH__BARRIER
        while (more && sweep < vd->strain_passes) {
            int count = 0, *tally = w->tally[sweep & 1];
            for (int step = 0; step < order->n_steps; step++) {
                CLOTH__RANGES(order, step, part, parts, lo, hi)
                    count += tris ? cloth__tri_limits_range(&w->tri, tris->order, lo, hi, w->x4, 4,
                                                            sim->mesh->inv_mass, factor,
                                                            vd->strain_tol)
                                  : cloth__coloured_provot(c, w->x4, factor, vd->strain_tol, lo, hi);
                CLOTH__BARRIER
            }
            tally[part] = count + collide_range(sim, w->x4, 4, v0, v1);
            CLOTH__BARRIER
            more = 0;
            for (int t = 0; t < parts; t++)
                more += tally[t];
            sweep++;
        }
        cloth__unpad(w->x4, sim->x, v0, v1);
        if (part == 0) {
            sweeps = sweep;
            last = more;
        }
    }
    *changed = last;
    return sweeps;
}

/* One Gauss-Seidel pass of the Verlet cloth web demo's relaxation over every spring:
 * D = ((l - l0)/l) 0.5 k_relax (x_j - x_i), x_i += D, x_j -= D. */
static void relax_pass(cloth_sim *sim)
{
    const cloth_mesh *m = sim->mesh;
    double half_k = 0.5 * settings(sim)->k_relax;
    for (int s = 0; s < m->n_springs; s++) {
        const cloth_spring *sp = &m->springs[s];
        int free_a = !m->pinned[sp->a], free_b = !m->pinned[sp->b];
        if (!free_a && !free_b)
            continue;
        double *a = sim->x + 3 * sp->a, *b = sim->x + 3 * sp->b;
        double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double l = length3(d);
        if (l == 0)
            continue; /* no direction to push along */
        double c = (l - sp->rest) / l * half_k;
        /* a pinned end does not move: the free end takes both halves */
        double ca = free_b ? c : 2 * c, cb = free_a ? c : 2 * c;
        for (int k = 0; k < 3; k++) {
            if (free_a)
                a[k] += ca * d[k];
            if (free_b)
                b[k] -= cb * d[k];
        }
    }
}

/* One Gauss-Seidel sweep of Provot's correction over the limited springs; returns how
 * many it shortened (-1 from an assignment's stub).  Removing the fraction (l - L)/l of
 * d = x_b - x_a leaves |d'| = L = (1 + tau_c) l0 exactly (cloth__provot_shorten). */
static int provot_sweep(cloth_sim *sim, const cloth__verlet *w, double factor, double tol)
{
    const cloth_mesh *m = sim->mesh;
    int shortened = 0;
    for (int q = 0; q < w->n_limited; q++) {
        const cloth_spring *sp = &m->springs[w->limited[q]];
        double *a = sim->x + 3 * sp->a, *b = sim->x + 3 * sp->b;
        double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double l = length3(d), limit = factor * sp->rest;
        if (!(l > limit * (1 + tol)))
            continue;
        if (cloth__provot_shorten(a, b, m->pinned[sp->a], m->pinned[sp->b], limit) != CLOTH_OK)
            return -1;
        shortened++;
    }
    return shortened;
}

/* 1 when some limited spring is still longer than the limit (no correction made). */
static int limit_violated(const cloth_sim *sim, const cloth__verlet *w, double factor,
                          double tol)
{
    const cloth_mesh *m = sim->mesh;
    for (int q = 0; q < w->n_limited; q++) {
        const cloth_spring *sp = &m->springs[w->limited[q]];
        const double *a = sim->x + 3 * sp->a, *b = sim->x + 3 * sp->b;
        double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        if (length3(d) > factor * sp->rest * (1 + tol))
            return 1;
    }
    return 0;
}

/* verlet.strain_measure = triangle: isotropic sweeps over the triangles, each followed by
 * the obstacles, until one changes nothing or the budget is spent. */
static cloth_status limit_triangles(cloth_sim *sim, cloth__verlet *w, double factor,
                                    cloth__step_stats *stats)
{
    const cloth__verlet_def *vd = settings(sim);
    const double *wi = sim->mesh->inv_mass;
    int passes = 0, changed = 1;
    if (w->provot) /* verlet.order = coloured */
        passes = limit_coloured(sim, w, factor, &changed);
    while (!w->provot && changed && passes < vd->strain_passes) {
        changed = cloth__tri_limits_sweep(&w->tri, sim->x, wi, factor, vd->strain_tol);
        changed += collide(sim);
        passes++;
    }
    stats->iterations += passes;
    if (changed && (cloth__tri_limits_sigma_max(&w->tri, sim->x) > factor * (1 + vd->strain_tol) ||
                    collide(sim)))
        stats->not_converged = 1;
    if (w->pinned_violations)
        stats->not_converged = 1;
    return CLOTH_OK;
}

/* Provot's sweeps, each followed by the obstacle projection so that the result honours
 * both; converged when a sweep shortens nothing and the projection moves nothing. */
static cloth_status limit_strain(cloth_sim *sim, cloth__verlet *w, cloth__step_stats *stats)
{
    const cloth__verlet_def *vd = settings(sim);
    if (vd->strain_limit <= 0)
        return CLOTH_OK;
    double factor = 1 + vd->strain_limit;
    int passes = 0, changed = 1;
    if (vd->strain_measure == CLOTH__LIMIT_TRIANGLE)
        return limit_triangles(sim, w, factor, stats);
    if (w->provot)
        passes = limit_coloured(sim, w, factor, &changed);
    while (!w->provot && changed && passes < vd->strain_passes) {
        changed = provot_sweep(sim, w, factor, vd->strain_tol);
        if (changed < 0)
            return CLOTH_ENOTIMPL;
        changed += collide(sim);
        passes++;
    }
    stats->iterations += passes;
    /* the last sweep of a spent budget may still have finished the job: look again */
    if (changed && (limit_violated(sim, w, factor, vd->strain_tol) || collide(sim)))
        stats->not_converged = 1;
    if (w->pinned_violations)
        stats->not_converged = 1;
    return CLOTH_OK;
}

static void update_velocities(cloth_sim *sim, double h)
{
    for (int i = 0; i < 3 * sim->mesh->n; i++)
        sim->v[i] = (sim->x[i] - sim->x_prev[i]) / h;
}

/* Self-collision in x; x_prev holds the step's start (predict moved it there), which
 * decides the side of a vertex-triangle contact. */
static void collide_self(cloth_sim *sim, cloth__step_stats *stats)
{
    if (cloth__contact_self_project(sim, sim->x, sim->x_prev, stats) > 0)
        collide(sim);
}

/* The contacts' velocity correction; velocity lives in x - x_prev, so x_prev follows. */
static void correct_contact_velocities(cloth_sim *sim, double h)
{
    const cloth__self_contact *c;
    int count = cloth__contact_self_velocities(sim, sim->v, &c);
    for (int k = 0; k < count; k++)
        for (int q = -1; q < 3; q++) {
            int i = q < 0 ? c[k].p : c[k].v[q];
            for (int d = 0; i >= 0 && d < 3; d++)
                sim->x_prev[3 * i + d] = sim->x[3 * i + d] - h * sim->v[3 * i + d];
        }
}

/* run.self_collision = on: the contact stage's robust phase (sim/contact.h) over the step
 * x_prev -> x, last, after the springs, the limit and the obstacles, so that nothing
 * later undoes its guarantee.  x_prev holds the step's start (predict moved it there) and
 * v = (x - x_prev) / h is the step's velocity (update_velocities).  The stage changes x
 * and v; the next step's velocity lives in x - x_prev, so x_prev = x - h v follows for
 * every vertex: the implied velocity (x - x_prev) / h is then exactly the stage's v (an
 * impact zone's v is its rigid velocity, not its chord (x1 - x0) / h), and predict's
 * x + d (x - x_prev) carries it on.  The obstacles were projected before; the stage
 * keeps every free vertex out of them.  Without it (another mode) x_prev stays. */
static void collide_robust(cloth_sim *sim, double h, cloth__step_stats *stats)
{
    if (!cloth__contact_robust(sim, h, sim->x_prev, sim->x, sim->v, stats))
        return;
    for (int i = 0; i < 3 * sim->mesh->n; i++)
        sim->x_prev[i] = sim->x[i] - h * sim->v[i];
}

static cloth_status verlet_step(cloth_sim *sim, void *work, double h,
                                cloth__step_stats *stats, cloth_error *err)
{
    cloth__verlet *w = work;
    const cloth__verlet_def *vd = settings(sim);
    stats->iterations = 0;
    compute_accelerations(sim, w);
    /* only an assignment's stubs fail here (assignments/verlet_provot) */
    if (predict(sim, h) != CLOTH_OK)
        return cloth__fail(err, CLOTH_ENOTIMPL, "not implemented: verlet_predict");
    if (vd->mode == CLOTH__VERLET_RELAX && w->relax)
        relax_coloured(sim, w, vd->iterations);
    if (vd->mode == CLOTH__VERLET_RELAX) {
        for (int pass = 0; pass < vd->iterations && !w->relax; pass++) {
            relax_pass(sim);
            collide(sim);
        }
        stats->iterations += vd->iterations;
    }
    collide(sim);
    if (limit_strain(sim, w, stats) != CLOTH_OK)
        return cloth__fail(err, CLOTH_ENOTIMPL, "not implemented: provot_correction");
    /* the bench's spring visits: the relaxation's springs each pass, the limited ones
     * each sweep */
    double relaxed = vd->mode == CLOTH__VERLET_RELAX ? vd->iterations : 0;
    stats->visits = w->n_free_springs * relaxed + w->n_limited * (stats->iterations - relaxed);
    collide_self(sim, stats);
    update_velocities(sim, h);
    correct_contact_velocities(sim, h);
    collide_robust(sim, h, stats);
    remember_state(sim, w);
    return CLOTH_OK;
}

/* ---------------------------------------------------------------- the keys */

static const char *const mode_names[] = {"relax", "provot", NULL};

#define OFF(field) offsetof(cloth__verlet_def, field)

static const cloth__key verlet_keys[] = {
    {.section = "verlet", .name = "mode", .type = CLOTH__KEY_CHOICE, .offset = OFF(mode),
     .choices = mode_names, .def = "relax",
     .help = "relax (the Verlet cloth web demo: relaxation passes) or provot (Hooke forces in "
     "a)"},
    {.section = "verlet", .name = "damping", .type = CLOTH__KEY_DOUBLE, .offset = OFF(damping),
     .lo = 0, .hi = 1, .def = "0.99",
     .help = "d of x' = x + d (x - x_prev) + a h^2 per step (the Verlet cloth web demo); 1 = "
     "none"},
    {.section = "verlet", .name = "damping_rate", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(damping_rate), .lo = 0, .hi = HUGE_VAL, .hi_open = 1, .def = "0",
     .help = "c > 0 replaces damping by d = exp(-c h) (1/s)"},
    {.section = "verlet", .name = "iterations", .type = CLOTH__KEY_INT,
     .offset = OFF(iterations), .lo = 0, .hi = 1000000, .def = "12",
     .help = "relaxation passes per step in mode relax (the Verlet cloth web demo)"},
    {.section = "verlet", .name = "k_relax", .type = CLOTH__KEY_DOUBLE, .offset = OFF(k_relax),
     .lo = 0, .hi = 2, .lo_open = 1, .hi_open = 1, .def = "1",
     .help = "k of D = ((l - l0)/l) 0.5 k (x_j - x_i); 1 restores l0, > 1 over-relaxes"},
    {.section = "verlet", .name = "strain_limit", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(strain_limit), .lo = 0, .hi = 1, .hi_open = 1, .def = "0.1",
     .help = "tau_c: structural/shear l <= (1 + tau_c) l0 (edge), or sigma1 <= 1 + tau_c per "
     "triangle (triangle); 0 = off"},
    {.section = "verlet", .name = "strain_measure", .type = CLOTH__KEY_CHOICE,
     .offset = OFF(strain_measure), .choices = cloth__limit_measure_names, .def = "edge",
     .help = "edge (Provot 1995 on springs) or triangle (isotropic limiting: sigma of F "
     "clamped per triangle, Thomaszewski 2009, Wang 2010)"},
    {.section = "verlet", .name = "strain_passes", .type = CLOTH__KEY_INT,
     .offset = OFF(strain_passes), .lo = 1, .hi = 1000000, .def = "100",
     .help = "Provot sweeps per step at most (then not-converged)"},
    {.section = "verlet", .name = "strain_tol", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(strain_tol), .lo = 0, .hi = 0.1, .lo_open = 1, .def = "1e-6",
     .help = "a spring exceeds the limit when l > (1 + tau_c) l0 (1 + tol)"},
    {.section = "verlet", .name = "order", .type = CLOTH__KEY_CHOICE, .offset = OFF(order),
     .choices = cloth__order_names, .def = "sequential",
     .help = "sequential (the reference order) or coloured relaxation and Provot sweeps "
     "(vectorised, run.threads; other rounding)"},
};

#undef OFF

const cloth__kernel cloth__verlet_kernel = {
    .name = "verlet",
    .summary = "position Verlet with relaxation and Provot strain limiting (1995)",
    .keys = verlet_keys,
    .n_keys = (int)(sizeof verlet_keys / sizeof verlet_keys[0]),
    .create = verlet_create,
    .destroy = verlet_destroy,
    .start = verlet_start,
    .step = verlet_step,
    .measure = NULL,
    .log = NULL,
    .begin_frame = verlet_begin_frame,
    .interactive_max = 0,
    .dense_max = 0,
    .iteration_key = "iterations",
    /* relaxation moves each end by k_relax / 2 of the error: above 1 it over-relaxes,
     * at 2 it overshoots by the whole error and never settles */
    .stiffness_key = "k_relax",
    .stiffness_max = 1.95,
    .reports_cond = 0,
    .cond_off = NULL,
    .frame_substeps = 5, /* the Verlet cloth web demo's */
    /* contact: the stage's phases inside its step (the obstacles in every relaxation
     * pass and Provot sweep, then self-collision and the robust phase) */
    .contact = CLOTH__CONTACT_IN_STEP,
    .visit_bytes = {.spring = 144, .coloured_spring = 32, .coloured_vertex = 64},
};
