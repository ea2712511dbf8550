/*
 * Virtual sewing, as the mass-spring cloth paper puts a garment together: the panels
 * are placed around the body, each seam's two sides get matching vertices, springs of
 * zero rest length between the pairs pull them together with gravity off, and once every
 * pair is closer than the weld distance the pairs are welded into one mesh.
 *
 * Pairing a seam: both sides are polylines of outline vertices, parametrised by
 * normalised arc length t in [0, 1] (the side b backwards with reverse).  Walking both
 * lists in order of t, vertices closer than a third of a segment (in t) pair up, and one
 * that is not a corner slides along its straight outline edge to its partner's t; a
 * vertex with no partner gets one by splitting the other side's segment at the same t
 * (mesh_outline.c: the triangle on that segment is split in two).  Both sides then have
 * the same number of vertices, paired in order, each pair at the same arc length: a
 * zero-rest-length spring between vertices at different arc lengths would pull against
 * the panels' springs and stop short of the weld distance.
 *
 * Placement (pattern.h): the panel's u (across) is arc length on a cylinder of the wrap
 * radius R about the axis a through c, its v (up) runs along a; the panel's centre
 * faces the angle phi:  theta = phi + (u - u_c)/R,
 *   p = c + R (cos theta e0 + sin theta e1) + (v - v_c) a,
 * e0 the direction of angle 0, e1 = a x e0.  With a bone (joint j, tip t, the body's
 * scale s), a = +-(t - j)/|t - j|, c = j + s (at a + offset), R = s radius and e0 is +z
 * made normal to a (the body's front; +y for a bone along z); without one, a is a world
 * axis, c = offset, and e0 is +z for the y axis, +y for x and z.  The wrap is an
 * isometry, so the placed panel keeps the pattern's lengths, whatever the scale.
 *
 * The kernel runs through the public API (cloth_sim_create_with_mesh), as a program
 * using the library would: this layer sits above the kernels and includes none.  The
 * stages in order, from a pattern file to a scene's cloth: garment.c.
 */
#include "garment/sewing.h"
#include "core/mesh.h"
#include "core/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Two vertices closer than this fraction of the smaller neighbouring segment (in t)
 * pair up without a split. */
#define SNAP_FRACTION 0.34

void cloth__garment_free(cloth__garment *g)
{
    if (!g)
        return;
    if (g->panels)
        for (int i = 0; i < g->pattern->n_panels; i++)
            cloth__panel_mesh_free(&g->panels[i]);
    free(g->panels);
    free(g->offset);
    free(g->placed);
    free(g->tris);
    free(g->pairs);
    free(g->sewn);
    free(g->welded);
    free(g->welded_tris);
    free(g->weld_map);
    cloth__pattern_free(g->own);
    free(g);
}

/* ------------------------------------------------------------------ pairing */

/* A pair before the panels are numbered together: panel and local vertex of each end. */
typedef struct { int pa, va, pb, vb; } local_pair;

typedef struct {
    int *v;                     /* vertices along the side                            */
    double *t;                  /* their normalised arc length                        */
    unsigned char *corner;      /* 1 where an outline edge starts or ends             */
    int n;
} side_list;

/* The outline vertices of edges first..last of panel mesh pm, from corner first to
 * corner last + 1, with their normalised arc lengths. */
static int side_vertices(const cloth__panel_mesh *pm, int n_edges, int first, int last,
                         side_list *s)
{
    int nb = pm->n_boundary, start = -1;
    for (int j = 0; j < nb && start < 0; j++)
        if (pm->boundary_edge[j] == first &&
            pm->boundary_edge[(j + nb - 1) % nb] != first)
            start = j;
    int count = 0;
    for (int e = first;; e = (e + 1) % n_edges) { /* segments on the edges */
        for (int j = 0; j < nb; j++)
            count += pm->boundary_edge[j] == e;
        if (e == last)
            break;
    }
    s->v = malloc(sizeof(int) * (size_t)(count + 1));
    s->t = malloc(sizeof(double) * (size_t)(count + 1));
    s->corner = malloc((size_t)(count + 1));
    if (!s->v || !s->t || !s->corner || start < 0)
        return 1;
    s->n = count + 1;
    double len = 0;
    for (int k = 0; k <= count; k++) {
        int j = (start + k) % nb;
        s->v[k] = pm->boundary[j];
        s->corner[k] = pm->boundary_edge[j] != pm->boundary_edge[(j + nb - 1) % nb];
        if (k > 0) {
            const double *a = pm->uv + 2 * s->v[k - 1], *b = pm->uv + 2 * s->v[k];
            len += hypot(b[0] - a[0], b[1] - a[1]);
        }
        s->t[k] = len;
    }
    for (int k = 0; k <= count; k++)
        s->t[k] /= len;
    return 0;
}

static void side_free(side_list *s)
{
    free(s->v);
    free(s->t);
    free(s->corner);
}

/* Slides vertex k of side s (not a corner: its neighbours lie on the same straight
 * outline edge) to arc length t, between the previous paired vertex prev (at tprev) and
 * its next one on the side. */
static void slide(cloth__panel_mesh *pm, side_list *s, int k, int prev, double tprev, double t)
{
    const double *a = pm->uv + 2 * prev, *b = pm->uv + 2 * s->v[k + 1];
    double f = (t - tprev) / (s->t[k + 1] - tprev);
    pm->uv[2 * s->v[k]] = a[0] + f * (b[0] - a[0]);
    pm->uv[2 * s->v[k] + 1] = a[1] + f * (b[1] - a[1]);
    s->t[k] = t;
}

/* Splits the outline segment between vertices u and w of pm at fraction f from u. */
static cloth_status split_between(cloth__panel_mesh *pm, int u, int w, double f, int *m)
{
    int nb = pm->n_boundary;
    for (int j = 0; j < nb; j++) {
        int a = pm->boundary[j], b = pm->boundary[(j + 1) % nb];
        if (a == u && b == w)
            return cloth__panel_mesh_split(pm, j, f, m);
        if (a == w && b == u)
            return cloth__panel_mesh_split(pm, j, 1 - f, m);
    }
    return CLOTH_EINVAL;
}

static int push_pair(local_pair **pairs, int *n, int *cap, local_pair p)
{
    if (*n == *cap) {
        int c = *cap ? 2 * *cap : 64;
        local_pair *q = realloc(*pairs, sizeof *q * (size_t)c);
        if (!q)
            return 1;
        *pairs = q;
        *cap = c;
    }
    (*pairs)[(*n)++] = p;
    return 0;
}

/* Pairs seam s's vertices, splitting segments where needed. */
static cloth_status pair_seam(cloth__garment *g, int s, local_pair **pairs, int *n_pairs,
                              int *cap, cloth_error *err)
{
    const cloth__pattern *pt = g->pattern;
    const cloth__seam *sm = &pt->seams[s];
    int pa = sm->a.panel, pb = sm->b.panel;
    side_list A = {0}, B = {0};
    if (side_vertices(&g->panels[pa], pt->panels[pa].n, sm->a.first, sm->a.last, &A) ||
        side_vertices(&g->panels[pb], pt->panels[pb].n, sm->b.first, sm->b.last, &B)) {
        side_free(&A);
        side_free(&B);
        return cloth__fail(err, CLOTH_ENOMEM, "%s: seam %d: out of memory", pt->source, s);
    }
    if (sm->reverse)
        for (int i = 0, j = B.n - 1; i < j; i++, j--) {
            int v = B.v[i];
            B.v[i] = B.v[j];
            B.v[j] = v;
            double t = B.t[i];
            B.t[i] = 1 - B.t[j];
            B.t[j] = 1 - t;
        }
    if (sm->reverse && B.n % 2)
        B.t[B.n / 2] = 1 - B.t[B.n / 2];
    cloth_status st = CLOTH_OK;
    int i = 0, j = 0, prev_a = -1, prev_b = -1;
    double tprev_a = 0, tprev_b = 0;
    while (st == CLOTH_OK && (i < A.n || j < B.n)) {
        /* the smaller of the two neighbouring segments, in t, sets the snap distance */
        double seg = 1;
        if (i > 0 && i < A.n)
            seg = fmin(seg, A.t[i] - A.t[i - 1]);
        if (j > 0 && j < B.n)
            seg = fmin(seg, B.t[j] - B.t[j - 1]);
        local_pair p = {pa, -1, pb, -1};
        if (i < A.n && j < B.n && fabs(A.t[i] - B.t[j]) <= SNAP_FRACTION * seg) {
            if (A.t[i] != B.t[j] && !A.corner[i])
                slide(&g->panels[pa], &A, i, prev_a, tprev_a, B.t[j]);
            else if (A.t[i] != B.t[j] && !B.corner[j])
                slide(&g->panels[pb], &B, j, prev_b, tprev_b, A.t[i]);
            p.va = A.v[i];
            p.vb = B.v[j];
            tprev_a = A.t[i++];
            tprev_b = B.t[j++];
        } else if (j >= B.n || (i < A.n && A.t[i] < B.t[j])) {
            /* B needs a vertex at A.t[i], between its previous vertex and B.v[j] */
            double f = (A.t[i] - tprev_b) / (B.t[j] - tprev_b);
            st = split_between(&g->panels[pb], prev_b, B.v[j], f, &p.vb);
            p.va = A.v[i];
            tprev_a = tprev_b = A.t[i++];
            g->splits++;
        } else {
            double f = (B.t[j] - tprev_a) / (A.t[i] - tprev_a);
            st = split_between(&g->panels[pa], prev_a, A.v[i], f, &p.va);
            p.vb = B.v[j];
            tprev_a = tprev_b = B.t[j++];
            g->splits++;
        }
        if (st != CLOTH_OK)
            break;
        prev_a = p.va;
        prev_b = p.vb;
        if (push_pair(pairs, n_pairs, cap, p))
            st = CLOTH_ENOMEM;
    }
    side_free(&A);
    side_free(&B);
    if (st != CLOTH_OK)
        return cloth__fail(err, st, "%s: seam %d: panel \"%s\" edge \"%s\": %s", pt->source, s,
                           pt->panels[pa].name, pt->panels[pa].edge[sm->a.first],
                           st == CLOTH_ENOMEM ? "out of memory"
                                              : "the vertices of the two sides cannot be paired");
    return CLOTH_OK;
}

/* ---------------------------------------------------------------- placement */

/* The frame of the placement's axis (m): a point c on it, its unit direction a, the
 * direction e0 of angle 0 and e1 = a x e0; the wrap radius R (m).  CLOTH_EINVAL for a
 * bone the body does not have. */
static cloth_status placement_frame(const cloth__pattern *pt, const cloth__panel *p,
                                    const cloth__garment_body *body, double c[3], double a[3],
                                    double e0[3], double e1[3], double *R, cloth_error *err)
{
    const cloth__placement *d = &p->place;
    memset(a, 0, 3 * sizeof *a);
    memset(e0, 0, 3 * sizeof *e0);
    if (!d->bone[0]) { /* world: offset is a point of the axis, a world axis */
        a[d->axis] = d->axis_sign;
        e0[d->axis == 1 ? 2 : 1] = 1;
        for (int k = 0; k < 3; k++)
            c[k] = 0.01 * d->offset[k];
        *R = 0.01 * d->radius;
    } else {
        const cloth__garment_bone *b = NULL;
        for (int i = 0; body && i < body->n && !b; i++)
            if (strcmp(body->bone[i].name, d->bone) == 0)
                b = &body->bone[i];
        if (!b)
            return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": placement: unknown bone "
                               "\"%s\"", pt->source, p->name, d->bone);
        /* u = (tip - joint)/|.|; the axis through joint + s (at u + offset), along +-u */
        double u[3], len = 0, s = 0.01 * body->scale;
        for (int k = 0; k < 3; k++) {
            u[k] = b->tip[k] - b->joint[k];
            len += u[k] * u[k];
        }
        len = sqrt(len);
        if (!(len > 0))
            return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": placement: bone \"%s\" "
                               "has no length", pt->source, p->name, d->bone);
        for (int k = 0; k < 3; k++) {
            u[k] /= len;
            a[k] = d->axis_sign * u[k];
            c[k] = b->joint[k] + s * (d->at * u[k] + d->offset[k]);
        }
        /* angle 0 faces the body's front: +z made normal to the axis (+y if along z) */
        e0[fabs(a[2]) < 0.9 ? 2 : 1] = 1;
        double t = e0[0] * a[0] + e0[1] * a[1] + e0[2] * a[2], n = 0;
        for (int k = 0; k < 3; k++) {
            e0[k] -= t * a[k];
            n += e0[k] * e0[k];
        }
        for (int k = 0; k < 3; k++)
            e0[k] /= sqrt(n);
        *R = s * d->radius;
    }
    e1[0] = a[1] * e0[2] - a[2] * e0[1];
    e1[1] = a[2] * e0[0] - a[0] * e0[2];
    e1[2] = a[0] * e0[1] - a[1] * e0[0];
    return CLOTH_OK;
}

static cloth_status place_panel(const cloth__pattern *pt, const cloth__panel *p,
                                const cloth__panel_mesh *pm, const cloth__garment_body *body,
                                double *x, cloth_error *err)
{
    double c[3], a[3], e0[3], e1[3], R = 0;
    cloth_status st = placement_frame(pt, p, body, c, a, e0, e1, &R, err);
    if (st != CLOTH_OK)
        return st;
    double lo[2] = {HUGE_VAL, HUGE_VAL}, hi[2] = {-HUGE_VAL, -HUGE_VAL};
    for (int i = 0; i < 2 * p->n; i++) {
        lo[i % 2] = fmin(lo[i % 2], p->xy[i]);
        hi[i % 2] = fmax(hi[i % 2], p->xy[i]);
    }
    double uc = 0.5 * (lo[0] + hi[0]), vc = 0.5 * (lo[1] + hi[1]);
    double phi = p->place.angle * M_PI / 180;
    for (int i = 0; i < pm->n; i++) {
        double u = 0.01 * (pm->uv[2 * i] - uc), v = 0.01 * (pm->uv[2 * i + 1] - vc), r[3];
        for (int k = 0; k < 3; k++) {
            if (R > 0) {
                double th = phi + u / R;
                r[k] = R * (cos(th) * e0[k] + sin(th) * e1[k]);
            } else { /* flat, facing phi: u along the tangent there */
                r[k] = u * (cos(phi) * e1[k] - sin(phi) * e0[k]);
            }
            x[3 * i + k] = c[k] + r[k] + v * a[k];
        }
    }
    return CLOTH_OK;
}

cloth_status cloth__garment_prepare(const cloth__pattern *pt, const cloth__garment_body *body,
                                    cloth__garment **out, cloth_error *err)
{
    *out = NULL;
    cloth__garment *g = calloc(1, sizeof *g);
    if (!g)
        return cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory", pt->source);
    g->pattern = pt;
    g->panels = calloc((size_t)pt->n_panels, sizeof *g->panels);
    g->offset = calloc((size_t)pt->n_panels + 1, sizeof *g->offset);
    if (!g->panels || !g->offset) {
        cloth__garment_free(g);
        return cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory", pt->source);
    }
    g->min_angle = 180;
    for (int i = 0; i < pt->n_panels; i++) {
        char what[CLOTH_PATH_MAX + 64];
        snprintf(what, sizeof what, "%s: panel \"%s\"", pt->source, pt->panels[i].name);
        cloth_status st = cloth__mesh_outline(pt->panels[i].xy, pt->panels[i].n,
                                              pt->edge_length, what, &g->panels[i], err);
        if (st != CLOTH_OK) {
            cloth__garment_free(g);
            return st;
        }
    }
    local_pair *pairs = NULL;
    int n_pairs = 0, cap = 0;
    for (int s = 0; s < pt->n_seams; s++) {
        cloth_status st = pair_seam(g, s, &pairs, &n_pairs, &cap, err);
        if (st != CLOTH_OK) {
            free(pairs);
            cloth__garment_free(g);
            return st;
        }
    }
    for (int i = 0; i < pt->n_panels; i++) {
        cloth__panel_mesh_measure(&g->panels[i]);
        g->min_angle = fmin(g->min_angle, g->panels[i].min_angle);
        g->offset[i + 1] = g->offset[i] + g->panels[i].n;
        g->n_tris += g->panels[i].n_tris;
    }
    g->n = g->offset[pt->n_panels];
    g->placed = malloc(sizeof(double) * 3 * (size_t)g->n);
    g->tris = malloc(sizeof(int) * 3 * (size_t)(g->n_tris + 1));
    g->pairs = malloc(sizeof(int) * 2 * (size_t)(n_pairs + 1));
    if (!g->placed || !g->tris || !g->pairs) {
        free(pairs);
        cloth__garment_free(g);
        return cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory", pt->source);
    }
    int t = 0;
    for (int i = 0; i < pt->n_panels; i++) {
        cloth_status st = place_panel(pt, &pt->panels[i], &g->panels[i], body,
                                      g->placed + 3 * g->offset[i], err);
        if (st != CLOTH_OK) {
            free(pairs);
            cloth__garment_free(g);
            return st;
        }
        for (int k = 0; k < 3 * g->panels[i].n_tris; k++)
            g->tris[3 * t + k] = g->panels[i].tris[k] + g->offset[i];
        t += g->panels[i].n_tris;
    }
    /* a pair may repeat (a corner on two seams of the same two panels) or join a
     * vertex to itself: both are dropped */
    for (int k = 0; k < n_pairs; k++) {
        int a = g->offset[pairs[k].pa] + pairs[k].va, b = g->offset[pairs[k].pb] + pairs[k].vb;
        int dup = a == b;
        for (int q = 0; q < g->n_pairs && !dup; q++)
            dup = (g->pairs[2 * q] == a && g->pairs[2 * q + 1] == b) ||
                  (g->pairs[2 * q] == b && g->pairs[2 * q + 1] == a);
        if (!dup) {
            g->pairs[2 * g->n_pairs] = a;
            g->pairs[2 * g->n_pairs + 1] = b;
            g->n_pairs++;
        }
    }
    free(pairs);
    *out = g;
    return CLOTH_OK;
}

/* ------------------------------------------------------------------- sewing */

cloth_status cloth__garment_sewing_mesh(const cloth__garment *g, const cloth_scene *scene,
                                        cloth_mesh **out, cloth_error *err)
{
    cloth_mesh *m;
    cloth_status st = cloth__mesh_from_triangles(scene, g->placed, g->n, g->tris, g->n_tris,
                                                 g->n_pairs, g->pattern->source, &m, err);
    if (st != CLOTH_OK)
        return st;
    for (int k = 0; k < g->n_pairs; k++)
        m->springs[m->n_springs++] = (cloth_spring){g->pairs[2 * k], g->pairs[2 * k + 1],
                                                    CLOTH_BEND, 0,
                                                    scene->material.k[CLOTH_STRUCTURAL]};
    m->family_count[CLOTH_BEND] += g->n_pairs;
    *out = m;
    return CLOTH_OK;
}

static double largest_gap(const cloth__garment *g, const double *x)
{
    double worst = 0;
    for (int k = 0; k < g->n_pairs; k++) {
        const double *a = x + 3 * g->pairs[2 * k], *b = x + 3 * g->pairs[2 * k + 1];
        worst = fmax(worst, sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                                 (a[2] - b[2]) * (a[2] - b[2])));
    }
    return worst;
}

static void pattern_strain(const cloth__garment *g, const double *x, double *lo, double *hi)
{
    /* |x_a - x_b| / |uv_a - uv_b| - 1 over every panel triangle's edges (uv in cm) */
    *lo = HUGE_VAL;
    *hi = -HUGE_VAL;
    for (int i = 0; i < g->pattern->n_panels; i++) {
        const cloth__panel_mesh *pm = &g->panels[i];
        const double *xp = x + 3 * g->offset[i];
        for (int t = 0; t < pm->n_tris; t++)
            for (int e = 0; e < 3; e++) {
                int a = pm->tris[3 * t + e], b = pm->tris[3 * t + (e + 1) % 3];
                double l0 = 0.01 * hypot(pm->uv[2 * a] - pm->uv[2 * b],
                                         pm->uv[2 * a + 1] - pm->uv[2 * b + 1]);
                double l = sqrt((xp[3 * a] - xp[3 * b]) * (xp[3 * a] - xp[3 * b]) +
                                (xp[3 * a + 1] - xp[3 * b + 1]) * (xp[3 * a + 1] - xp[3 * b + 1]) +
                                (xp[3 * a + 2] - xp[3 * b + 2]) * (xp[3 * a + 2] - xp[3 * b + 2]));
                *lo = fmin(*lo, l / l0 - 1);
                *hi = fmax(*hi, l / l0 - 1);
            }
    }
}

cloth_status cloth__garment_sew(cloth__garment *g, const cloth_scene *scene,
                                double weld_distance, long max_frames, cloth_error *err)
{
    cloth_scene s = *scene;
    memset(s.world.gravity, 0, sizeof s.world.gravity);
    memset(s.world.wind, 0, sizeof s.world.wind);
    s.world.air_damping = scene->garment.sew_damping;
    s.sphere.enabled = 0;
    s.floor.enabled = 0;
    /* garment.sew_on = body (the default) keeps the scene's avatar: the panels close round
     * the body they were placed on (docs/garments.md; sewn in the air, the skirts' side
     * seams closed 4 cm inside the hips and the dressed start was 63 % stretched); air
     * sews without it (the T-shirt: round the shoulders its three-panel corners stay
     * 1-3 mm apart, the panels' pull against the body) */
    if (!scene->garment.sew_on_body)
        s.avatar.enabled = 0;
    s.run.self_collision = CLOTH_SELF_OFF;
    s.mesh.pins = CLOTH_PINS_NONE;
    cloth_mesh *m;
    cloth_status st = cloth__garment_sewing_mesh(g, &s, &m, err);
    if (st != CLOTH_OK)
        return st;
    cloth_sim *sim;
    st = cloth_sim_create_with_mesh(&s, m, &sim, err);
    if (st != CLOTH_OK)
        return st;
    free(g->sewn);
    g->sewn = malloc(sizeof(double) * 3 * (size_t)g->n);
    if (!g->sewn) {
        cloth_sim_destroy(sim);
        return cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory", g->pattern->source);
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    g->frames = 0;
    g->gap = largest_gap(g, cloth_sim_positions(sim));
    while (g->gap >= weld_distance && g->frames < max_frames) {
        cloth_frame f;
        st = cloth_sim_frame(sim, &f, err);
        if (st != CLOTH_OK)
            break;
        g->frames++;
        g->gap = largest_gap(g, cloth_sim_positions(sim));
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    g->wall_s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    g->steps = g->frames * s.run.substeps;
    memcpy(g->sewn, cloth_sim_positions(sim), sizeof(double) * 3 * (size_t)g->n);
    pattern_strain(g, g->sewn, &g->strain_min, &g->strain_max);
    cloth_sim_destroy(sim);
    if (st != CLOTH_OK)
        return st;
    if (g->gap >= weld_distance)
        return cloth__fail(err, CLOTH_ENUMERIC, "%s: sewing with %s: after %ld frames (%ld "
                           "steps) a seam pair is still %.3g mm apart (garment.weld_distance = "
                           "%.3g mm)", g->pattern->source, s.run.kernel, g->frames, g->steps,
                           1e3 * g->gap,
                           1e3 * weld_distance);
    return CLOTH_OK;
}

/* ------------------------------------------------------------------ welding */

static int find_root(int *parent, int i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

static int key_cmp(const void *x, const void *y)
{
    const long long *p = x, *q = y;
    return (*p > *q) - (*p < *q);
}

void cloth__edge_census(const int *tris, int n_tris, int *boundary, int *interior,
                        int *nonmanifold)
{
    *boundary = *interior = *nonmanifold = 0;
    long long *k = malloc(sizeof(long long) * 3 * (size_t)(n_tris + 1));
    if (!k) {
        *nonmanifold = -1;
        return;
    }
    for (int t = 0; t < n_tris; t++)
        for (int e = 0; e < 3; e++) {
            long long a = tris[3 * t + e], b = tris[3 * t + (e + 1) % 3];
            k[3 * t + e] = a < b ? (a << 32) | b : (b << 32) | a;
        }
    qsort(k, (size_t)(3 * n_tris), sizeof *k, key_cmp);
    for (int i = 0; i < 3 * n_tris;) {
        int j = i;
        while (j < 3 * n_tris && k[j] == k[i])
            j++;
        if (j - i == 1)
            (*boundary)++;
        else if (j - i == 2)
            (*interior)++;
        else
            (*nonmanifold)++;
        i = j;
    }
    free(k);
}

cloth_status cloth__garment_weld(cloth__garment *g, cloth_error *err)
{
    const double *x = g->sewn ? g->sewn : g->placed;
    int *parent = malloc(sizeof(int) * (size_t)g->n), *count = calloc((size_t)g->n, sizeof(int));
    free(g->welded);
    free(g->welded_tris);
    free(g->weld_map);
    g->welded = malloc(sizeof(double) * 3 * (size_t)g->n);
    g->welded_tris = malloc(sizeof(int) * 3 * (size_t)(g->n_tris + 1));
    g->weld_map = malloc(sizeof(int) * (size_t)g->n);
    if (!parent || !count || !g->welded || !g->welded_tris || !g->weld_map) {
        free(parent);
        free(count);
        return cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory", g->pattern->source);
    }
    for (int i = 0; i < g->n; i++)
        parent[i] = i;
    for (int k = 0; k < g->n_pairs; k++) {
        int a = find_root(parent, g->pairs[2 * k]), b = find_root(parent, g->pairs[2 * k + 1]);
        if (a != b)
            parent[a < b ? b : a] = a < b ? a : b;
    }
    /* welded vertices numbered in order of their smallest member; position = mean */
    int n = 0;
    for (int i = 0; i < g->n; i++) {
        int r = find_root(parent, i);
        if (r == i)
            g->weld_map[i] = n++;
        g->weld_map[i] = g->weld_map[r];
    }
    memset(g->welded, 0, sizeof(double) * 3 * (size_t)n);
    for (int i = 0; i < g->n; i++) {
        int w = g->weld_map[i];
        count[w]++;
        for (int c = 0; c < 3; c++)
            g->welded[3 * w + c] += x[3 * i + c];
    }
    for (int w = 0; w < n; w++)
        for (int c = 0; c < 3; c++)
            g->welded[3 * w + c] /= count[w];
    free(parent);
    free(count);
    g->n_welded = n;
    int m = 0;
    for (int t = 0; t < g->n_tris; t++) {
        int a = g->weld_map[g->tris[3 * t]], b = g->weld_map[g->tris[3 * t + 1]],
            c = g->weld_map[g->tris[3 * t + 2]];
        if (a == b || b == c || c == a)
            continue; /* a triangle with two vertices on one seam collapses */
        g->welded_tris[3 * m] = a;
        g->welded_tris[3 * m + 1] = b;
        g->welded_tris[3 * m + 2] = c;
        m++;
    }
    g->n_welded_tris = m;
    int boundary, interior, bad;
    cloth__edge_census(g->welded_tris, m, &boundary, &interior, &bad);
    if (bad < 0)
        return cloth__fail(err, CLOTH_ENOMEM, "%s: welding: out of memory", g->pattern->source);
    if (bad)
        return cloth__fail(err, CLOTH_EINVAL, "%s: welding: %d edges have more than two "
                           "triangles: a seam joins more than two sides", g->pattern->source,
                           bad);
    return CLOTH_OK;
}
