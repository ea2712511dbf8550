/* Self-collision by projection (Ten Minute Physics demo 15; Müller et al. 2007, section
 * 4.4); see self_collision.h for the method and what it guarantees. */
#include "terms/self_collision.h"

#include "terms/adjacency.h"
#include "terms/distance.h"
#include "terms/spatial_hash.h"
#include "terms/vec3.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A pair is deep, and keeps the projection sweeping, when it is closer than t (1 - this):
 * a pair just pushed to t may read t - 1 ulp, which is no reason to sweep again, and
 * sweeps over pairs that share vertices converge only geometrically (three vertices in a
 * row lose 3/4 of their error per sweep). */
#define DEEP_TOL CLOTH__SELF_TOL

struct cloth__self_collision {
    cloth_self_collision mode;  /* CLOTH_SELF_PARTICLES or CLOTH_SELF_PROXIMITY              */
    double t;                   /* material.thickness (m)                             */
    int n;                      /* vertices                                           */
    int *adj_start, *adj;       /* neighbours through springs and triangle edges:
                                 * adj[adj_start[i] .. adj_start[i+1]), sorted        */
    int *tri_start, *tri_of;    /* triangles mode: the triangles of each vertex,
                                 * tri_of[tri_start[i] .. tri_start[i+1])             */
    cloth__spatial_hash *hash;  /* candidate pairs, sized for pair_cap                */
    cloth__self_contact *contacts; /* the first sweep's contacts                      */
    int contact_cap, n_contacts;
    int pushes;                 /* pushes of the projection under way                */
};

/* ------------------------------------------------------------------ set-up */

/* The triangles of every vertex (a degenerate triangle naming a vertex twice lists it
 * twice there, which only repeats a test). */
static int build_incidence(cloth__self_collision *sc, const cloth_mesh *m)
{
    int n = m->n;
    sc->tri_start = calloc((size_t)n + 1, sizeof *sc->tri_start);
    sc->tri_of = malloc((3 * (size_t)m->n_tris + 1) * sizeof *sc->tri_of);
    int *fill = calloc((size_t)n + 1, sizeof *fill);
    if (!sc->tri_start || !sc->tri_of || !fill) {
        free(fill);
        return 0;
    }
    for (int k = 0; k < 3 * m->n_tris; k++)
        sc->tri_start[m->tris[k] + 1]++;
    for (int i = 0; i < n; i++)
        sc->tri_start[i + 1] += sc->tri_start[i];
    for (int k = 0; k < 3 * m->n_tris; k++) {
        int v = m->tris[k];
        sc->tri_of[sc->tri_start[v] + fill[v]++] = k / 3;
    }
    free(fill);
    return 1;
}

cloth_status cloth__self_collision_create(const cloth_mesh *mesh, cloth_self_collision mode,
                                          double thickness, cloth__self_collision **out,
                                          cloth_error *err)
{
    *out = NULL;
    if ((mode != CLOTH_SELF_PARTICLES && mode != CLOTH_SELF_PROXIMITY) || !(thickness >= 0) ||
        !isfinite(thickness) || mesh->n < 1) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "self-collision: mode %d, thickness %g, %d vertices (need on or "
                     "triangles, a finite thickness >= 0, a vertex)",
                     (int)mode, thickness, mesh->n);
        return CLOTH_EINVAL;
    }
    cloth__self_collision *sc = calloc(1, sizeof *sc);
    if (!sc)
        goto fail_alloc;
    sc->mode = mode;
    sc->t = thickness;
    sc->n = mesh->n;
    /* as the newton kernel: a vertex has a bounded number of partners within reach
     * unless the cloth is crumpled into a ball; past the caps a projection says so */
    long n = mesh->n, all_pairs = n * (n - 1) / 2, cap = 64 * n + 1024;
    int pair_cap = (int)(all_pairs < cap ? all_pairs : cap);
    sc->contact_cap = (int)(8 * n + 1024);
    sc->contacts = malloc((size_t)sc->contact_cap * sizeof *sc->contacts);
    if (!sc->contacts || !cloth__mesh_adjacency(mesh, &sc->adj_start, &sc->adj))
        goto fail_alloc;
    if (mode == CLOTH_SELF_PROXIMITY && !build_incidence(sc, mesh))
        goto fail_alloc;
    cloth_status st = cloth__spatial_hash_create(mesh->n, pair_cap > 0 ? pair_cap : 1,
                                                 &sc->hash, err);
    if (st != CLOTH_OK) {
        cloth__self_collision_destroy(sc);
        return st;
    }
    *out = sc;
    return CLOTH_OK;

fail_alloc:
    cloth__self_collision_destroy(sc);
    if (err)
        snprintf(err->msg, sizeof err->msg, "self-collision: out of memory for %d vertices",
                 mesh->n);
    return CLOTH_ENOMEM;
}

void cloth__self_collision_destroy(cloth__self_collision *sc)
{
    if (!sc)
        return;
    free(sc->adj_start);
    free(sc->adj);
    free(sc->tri_start);
    free(sc->tri_of);
    free(sc->contacts);
    cloth__spatial_hash_destroy(sc->hash);
    free(sc);
}

/* ------------------------------------------------------------- which pairs */

typedef struct {
    const cloth__self_collision *sc;
    const cloth_mesh *mesh;
    int skip_pinned;            /* 1: a pair of two pinned vertices is not wanted    */
} pair_filter;

static int adjacent(const cloth__self_collision *sc, int i, int j)
{
    return cloth__adjacent(sc->adj_start, sc->adj, i, j);
}

static double dist2(const double *x, int i, int j)
{
    double d[3];
    cloth__sub(x + 3 * i, x + 3 * j, d);
    return cloth__dot(d, d);
}

/* A vertex pair that self-collision keeps apart: not joined by a spring or a triangle
 * edge, and at least t apart at rest. */
static int pushable(const cloth__self_collision *sc, const cloth_mesh *m, int i, int j)
{
    return !adjacent(sc, i, j) && dist2(m->rest, i, j) >= sc->t * sc->t;
}

static int keep_pair(int i, int j, void *ctx)
{
    const pair_filter *f = ctx;
    if (f->skip_pinned && f->mesh->inv_mass[i] == 0 && f->mesh->inv_mass[j] == 0)
        return 0;
    return pushable(f->sc, f->mesh, i, j);
}

/* ------------------------------------------------------------------- push */

/* Meets C = (x_p - sum b_k x_{v_k}).n - t = 0 from C < 0 with n held fixed: lambda =
 * -C / W, W = w_p + sum b_k^2 w_k, x_p += w_p lambda n, x_{v_k} -= w_k b_k lambda n.
 * Returns 0 when nothing can move (every vertex pinned). */
static int push(double *x, const double *w, int p, const int v[3], const double b[3],
                const double n[3], double C)
{
    double W = w[p];
    for (int k = 0; k < 3; k++)
        if (v[k] >= 0)
            W += b[k] * b[k] * w[v[k]];
    if (W == 0)
        return 0;
    double lambda = -C / W;
    for (int c = 0; c < 3; c++)
        x[3 * p + c] += w[p] * lambda * n[c];
    for (int k = 0; k < 3; k++)
        if (v[k] >= 0)
            for (int c = 0; c < 3; c++)
                x[3 * v[k] + c] -= w[v[k]] * b[k] * lambda * n[c];
    return 1;
}

static void record(cloth__self_collision *sc, int p, const int v[3], const double b[3],
                   const double n[3], int first, int *overflow)
{
    sc->pushes++;
    if (!first)
        return;
    if (sc->n_contacts == sc->contact_cap) {
        *overflow = 1;
        return;
    }
    cloth__self_contact *c = &sc->contacts[sc->n_contacts++];
    c->p = p;
    memcpy(c->v, v, sizeof c->v);
    memcpy(c->b, b, sizeof c->b);
    memcpy(c->n, n, sizeof c->n);
}

/* The vertex pair (i, j): pushed to t when closer.  Returns 1 when it was deep. */
static int collide_pair(cloth__self_collision *sc, const cloth_mesh *m, double *x, int i,
                        int j, int first, int *overflow)
{
    double d[3];
    cloth__sub(x + 3 * i, x + 3 * j, d);
    double len = cloth__norm(d);
    if (!(len < sc->t))
        return 0;
    if (len == 0) /* coincident: no direction to push along; deep unless both pinned */
        return m->inv_mass[i] + m->inv_mass[j] > 0;
    const int v[3] = {j, -1, -1};
    const double b[3] = {1, 0, 0}, n[3] = {d[0] / len, d[1] / len, d[2] / len};
    if (!push(x, m->inv_mass, i, v, b, n, len - sc->t))
        return 0; /* two pins: nothing can move */
    record(sc, i, v, b, n, first, overflow);
    return len < sc->t * (1 - DEEP_TOL);
}

/* The side of triangle (a, b, c)'s plane vertex p is on in positions y: +1, -1, or 0 in
 * the plane (or for a degenerate triangle). */
static int side(const double *y, int p, const int *tri)
{
    double e1[3], e2[3], nrm[3], r[3];
    cloth__sub(y + 3 * tri[1], y + 3 * tri[0], e1);
    cloth__sub(y + 3 * tri[2], y + 3 * tri[0], e2);
    cloth__cross(e1, e2, nrm);
    cloth__sub(y + 3 * p, y + 3 * tri[0], r);
    double s = cloth__dot(r, nrm);
    return (s > 0) - (s < 0);
}

/* Vertex p against triangle t: pushed to the start side at distance t when its
 * projection lies in the triangle and it is closer or on the wrong side.  Returns 1
 * when it was deep. */
static int collide_point_triangle(cloth__self_collision *sc, const cloth_mesh *m, double *x,
                                  const double *x_start, int p, int t, int first,
                                  int *overflow)
{
    const int *tri = m->tris + 3 * t;
    const double *a = x + 3 * tri[0];
    double e1[3], e2[3], nrm[3], r[3];
    cloth__sub(x + 3 * tri[1], a, e1);
    cloth__sub(x + 3 * tri[2], a, e2);
    cloth__sub(x + 3 * p, a, r);
    /* barycentric coordinates of p's projection q on the plane: (q - a).e = r.e for the
     * edges e, since p - q is normal to them; first, as most candidates fail here */
    double d00 = cloth__dot(e1, e1), d01 = cloth__dot(e1, e2), d11 = cloth__dot(e2, e2);
    double d20 = cloth__dot(r, e1), d21 = cloth__dot(r, e2);
    double den = d00 * d11 - d01 * d01;
    if (!(den > 0))
        return 0; /* a degenerate triangle */
    double beta_den = d11 * d20 - d01 * d21, gamma_den = d00 * d21 - d01 * d20;
    if (beta_den < 0 || gamma_den < 0 || beta_den + gamma_den > den)
        return 0; /* past an edge: the vertex pairs see that region, or nothing does */
    double beta = beta_den / den, gamma = gamma_den / den, alpha = 1 - beta - gamma;
    if (alpha < 0)
        alpha = 0; /* rounding, on the edge opposite a */
    cloth__cross(e1, e2, nrm);
    double len = cloth__norm(nrm);
    if (len == 0 || !isfinite(len))
        return 0;
    double n[3] = {nrm[0] / len, nrm[1] / len, nrm[2] / len};
    double dist = cloth__dot(r, n);
    int s = side(x_start, p, tri);
    if (s == 0)
        s = dist >= 0 ? 1 : -1; /* in the plane at the start: the side it is on now */
    double C = s * dist - sc->t;
    if (!(C < 0))
        return 0;
    /* never pushed when it lies within t of the triangle at rest (a fine mesh) */
    const double *rest = m->rest;
    const double *r0 = rest + 3 * tri[0], *r1 = rest + 3 * tri[1], *r2 = rest + 3 * tri[2];
    cloth__pt_type type = cloth__point_triangle_type(rest + 3 * p, r0, r1, r2);
    double rest_d2 = cloth__point_triangle_distance2(rest + 3 * p, r0, r1, r2, type, NULL, NULL);
    if (!(rest_d2 >= sc->t * sc->t))
        return 0;
    const double b[3] = {alpha, beta, gamma}, ns[3] = {s * n[0], s * n[1], s * n[2]};
    if (!push(x, m->inv_mass, p, tri, b, ns, C))
        return 0; /* four pins */
    record(sc, p, tri, b, ns, first, overflow);
    return -C > sc->t * DEEP_TOL;
}

/* The triangles of v that p is tested against through the pair (p, v): those without p
 * whose first corner within reach of p (in index order) is v, so that each triangle near
 * p is tested once per sweep.  Returns the number of deep contacts. */
static int collide_via(cloth__self_collision *sc, const cloth_mesh *m, double *x,
                       const double *x_start, int p, int v, double reach2, int first,
                       int *overflow)
{
    int deep = 0;
    for (int k = sc->tri_start[v]; k < sc->tri_start[v + 1]; k++) {
        int t = sc->tri_of[k];
        const int *tri = m->tris + 3 * t;
        if (tri[0] == p || tri[1] == p || tri[2] == p)
            continue;
        int earlier = 0;
        for (int c = 0; c < 3 && !earlier; c++)
            earlier = tri[c] < v && dist2(x, p, tri[c]) < reach2;
        if (!earlier)
            deep += collide_point_triangle(sc, m, x, x_start, p, t, first, overflow);
    }
    return deep;
}

/* 1 when every coordinate is finite (the hash takes no NaN). */
static int all_finite(const double *x, int n)
{
    for (int k = 0; k < 3 * n; k++)
        if (!isfinite(x[k]))
            return 0;
    return 1;
}

/* The longest triangle edge at x. */
static double longest_edge(const cloth_mesh *m, const double *x)
{
    double most = 0;
    for (int t = 0; t < m->n_tris; t++)
        for (int e = 0; e < 3; e++) {
            double l2 = dist2(x, m->tris[3 * t + e], m->tris[3 * t + (e + 1) % 3]);
            most = l2 > most ? l2 : most;
        }
    return sqrt(most);
}

cloth__self_collision_result cloth__self_collision_project(cloth__self_collision *sc,
                                                           const cloth_mesh *mesh, double *x,
                                                           const double *x_start)
{
    cloth__self_collision_result res = {0, 0, 0, 1, 0};
    sc->n_contacts = 0;
    sc->pushes = 0;
    if (!(sc->t > 0))
        return res;
    if (!all_finite(x, mesh->n)) {
        res.converged = 0;
        return res; /* a step blew up: the sim stops the run after it */
    }
    int triangles = sc->mode == CLOTH_SELF_PROXIMITY;
    pair_filter filter = {sc, mesh, 1};
    for (int sweep = 0; sweep < CLOTH__SELF_SWEEPS; sweep++) {
        int first = sweep == 0, deep = 0, overflow = 0;
        const int *pairs;
        /* vertex pairs come filtered; the triangles mode needs every vertex within
         * t + l_max, neighbours included (their triangles are the candidates) */
        double reach = triangles ? sc->t + longest_edge(mesh, x) : sc->t;
        int count = cloth__spatial_hash_query(sc->hash, x, reach, triangles ? NULL : keep_pair,
                                              &filter, &pairs, &overflow);
        for (int k = 0; k < count; k++) {
            int i = pairs[2 * k], j = pairs[2 * k + 1];
            if (!triangles || pushable(sc, mesh, i, j))
                deep += collide_pair(sc, mesh, x, i, j, first, &overflow);
            if (triangles) {
                deep += collide_via(sc, mesh, x, x_start, i, j, reach * reach, first, &overflow);
                deep += collide_via(sc, mesh, x, x_start, j, i, reach * reach, first, &overflow);
            }
        }
        res.sweeps++;
        res.pushes = sc->pushes;
        res.overflow |= overflow;
        if (first)
            res.contacts = sc->n_contacts;
        if (!deep)
            return res;
    }
    res.converged = 0;
    res.pushes = sc->pushes;
    return res;
}

/* ------------------------------------------------------------- velocities */

void cloth__self_collision_velocities(const cloth__self_collision *sc, const cloth_mesh *mesh,
                                      double *v, double friction)
{
    const double *w = mesh->inv_mass;
    for (int k = 0; k < sc->n_contacts; k++) {
        const cloth__self_contact *c = &sc->contacts[k];
        double W = w[c->p];
        for (int q = 0; q < 3; q++)
            if (c->v[q] >= 0)
                W += c->b[q] * c->b[q] * w[c->v[q]];
        if (W == 0)
            continue;
        /* relative velocity vr = v_p - sum b_q v_q; an impulse lambda along the gradient
         * (w_p on p, -w_q b_q on q) changes it by lambda W */
        double vr[3];
        for (int d = 0; d < 3; d++) {
            vr[d] = v[3 * c->p + d];
            for (int q = 0; q < 3; q++)
                if (c->v[q] >= 0)
                    vr[d] -= c->b[q] * v[3 * c->v[q] + d];
        }
        double vn = cloth__dot(vr, c->n), dv[3];
        /* approaching: remove the normal part (inelastic); then scale all by 1 - f */
        double keep_n = vn < 0 ? 0 : vn;
        for (int d = 0; d < 3; d++)
            dv[d] = (1 - friction) * (vr[d] - vn * c->n[d] + keep_n * c->n[d]) - vr[d];
        for (int d = 0; d < 3; d++) {
            v[3 * c->p + d] += w[c->p] * dv[d] / W;
            for (int q = 0; q < 3; q++)
                if (c->v[q] >= 0)
                    v[3 * c->v[q] + d] -= w[c->v[q]] * c->b[q] * dv[d] / W;
        }
    }
}

int cloth__self_collision_contacts(const cloth__self_collision *sc,
                                   const cloth__self_contact **out)
{
    *out = sc->contacts;
    return sc->n_contacts;
}

/* ------------------------------------------------------------ start check */

int cloth__self_collision_first_close_pair(cloth__self_collision *sc, const cloth_mesh *mesh,
                                           const double *x, int *i, int *j, double *d)
{
    if (!(sc->t > 0) || mesh->n < 2 || !all_finite(x, mesh->n))
        return 0;
    pair_filter filter = {sc, mesh, 0};
    const int *pairs;
    int overflow;
    int count = cloth__spatial_hash_query(sc->hash, x, sc->t, keep_pair, &filter, &pairs,
                                          &overflow);
    if (count == 0)
        return 0;
    int best = 0;
    for (int k = 1; k < count; k++)
        if (pairs[2 * k] < pairs[2 * best] ||
            (pairs[2 * k] == pairs[2 * best] && pairs[2 * k + 1] < pairs[2 * best + 1]))
            best = k;
    *i = pairs[2 * best];
    *j = pairs[2 * best + 1];
    *d = sqrt(dist2(x, *i, *j));
    return 1;
}
