/*
 * newton — implicit Euler as energy minimisation, with barriers (SPEC 4.4; the
 * cubic-barrier article;
 * Li et al. 2020 "Incremental Potential Contact"; Ando 2024 "A Cubic Barrier with
 * Elasticity-Inclusive Dynamic Stiffness").
 *
 * Each step of length h minimises over the free vertices the incremental potential
 *
 *   E(x) = 1/(2h^2) |x - x~|^2_M                      inertia, x~ = x_n + h v_n + h^2 g
 *        + sum_springs 1/2 k (l - l0)^2                 springs (spring.c)
 *        + c/(2h) |x - x_n|^2                           air damping: its gradient is c
 *        v_{n+1}
 *        + sum_springs c_d/(2h) (u_n.(dx_b - dx_a))^2   spring damping, dx = x - x_n,
 *                                                       u_n the direction at x_n
 *        - f_wind . x                                   wind, from the state at step start
 *        + sum_contacts kappa psi(g) + sum_limits kappa_s psi(g_s)     (barrier.c,
 *        contact.c)
 *
 * (the two damping terms are the Rayleigh potentials whose gradients are the damping
 * forces at v_{n+1} = (x - x_n)/h, so damping is implicit like everything else).  Then
 * v_{n+1} = (x - x_n)/h.
 *
 * Stages of a step: predict (x~, wind, kappa tables), and for each Newton iteration:
 * contacts (the active set at x), assemble (E, grad E, H), solve (dense Cholesky with a
 * recorded Tikhonov fallback, linalg.c), condition number, line search (largest feasible
 * alpha <= 1, then Armijo), log; finally the velocity update.
 */
#include "core/status.h"
#include "kernels/newton/newton.h"

#include "terms/barrier.h"
#include "terms/contact.h"
#include "terms/forces.h"
#include "terms/inertia.h"
#include "terms/linalg.h"
#include "terms/obstacle.h"
#include "terms/spatial_hash.h"
#include "terms/spring.h"
#include "terms/stiffness.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Dense matrices beyond this many unknowns would need gigabytes: the sparse path is for
 * later (SPEC 4.4). */
#define MAX_DENSE_UNKNOWNS 6000
#define ARMIJO_C 1e-4
#define MAX_HALVINGS 60

/* ------------------------------------------------------------------ work */

enum { C_SPHERE, C_PLANE, C_PAIR, C_STRAIN };

/* One active barrier term: a vertex against an obstacle, a vertex pair, or a limited
 * edge (a, b its ends, spring its index). */
typedef struct contact {
    int kind;                   /* C_SPHERE, C_PLANE, C_PAIR or C_STRAIN              */
    int a, b;                   /* vertices; b = -1 for obstacles                      */
    int spring;                 /* C_STRAIN: the spring                               */
} contact;

/* Frozen dynamic kappa of a vertex pair, keyed by a * n + b (a < b); key -1 is empty. */
typedef struct pair_slot {
    long long key;
    double kappa;
} pair_slot;

struct cloth__newton {
    int n;                      /* vertices                                           */
    int ndof;                   /* unknowns, 3 per free vertex                        */
    int *dof;                   /* n: first unknown of each vertex, -1 when pinned     */
    double mean_mass;           /* over free vertices                                 */

    /* mesh adjacency, built once */
    int *adj_start, *adj;       /* CSR, sorted: vertices joined by a spring or a triangle */
    int *inc_start, *inc;       /* CSR: springs at each vertex                        */
    int n_limited, *limited;    /* structural and shear springs (the strain limit)    */

    /* the step */
    double h;
    double *x_n;                /* 3n positions at step start                         */
    double *x_tilde;            /* 3n predicted positions                             */
    double *f_ext;              /* 3n wind force at step start                        */
    double *u_n;                /* 3 per spring: its direction at step start          */
    double *x;                  /* 3n Newton iterate                                  */
    double *x_trial;            /* 3n line-search point                               */
    double *dir;                /* 3n Newton direction per vertex (0 when pinned)     */
    double *grad;               /* ndof                                               */
    double *grad_b;             /* ndof: contact barrier gradient at kappa = 1 (IPC)   */
    double *step;               /* ndof: the solve's result                           */
    double *H;                  /* ndof x ndof                                        */
    cloth__linalg *la;          /* NULL when ndof = 0                                 */

    /* contacts */
    cloth__spatial_hash *hash;  /* self-contact candidates                            */
    int pair_cap;               /* pairs a query may return                           */
    contact *contacts;          /* active terms at the last evaluated x               */
    int n_contacts, contact_cap;
    long pair_overflows;        /* queries that had more pairs than pair_cap          */

    /* what the last evaluation saw */
    int eval_active;            /* active terms                                       */
    double eval_kappa_max;      /* largest kappa among them                           */
    double eval_min_gap;        /* smallest contact (not strain) gap, or +inf         */

    /* stiffness */
    double kappa_contact_auto;  /* kappa_value = auto for contacts                    */
    double kappa_strain_auto;   /* and for limited edges                              */
    double *kappa_sphere;       /* n: frozen dynamic kappa, NAN = not yet             */
    double *kappa_plane;        /* n                                                  */
    double *kappa_edge;         /* n_springs                                          */
    pair_slot *pair_kappa;      /* open addressing, pair_mask + 1 slots               */
    unsigned pair_mask;
    int *pair_used, n_pair_used;/* occupied slots, for clearing                       */
    double ipc_kappa;           /* IPC's adaptive kappa (contacts)                    */
    double ipc_min, ipc_max;
    double ipc_prev_gap;
    int ipc_set;                /* 0 until contacts first appear                      */

    /* newton.csv rows of the current frame */
    cloth_newton_iter *rows;
    int n_rows, row_cap;

    cloth__newton_profile profile; /* stage times since create or reset            */

    /* metrics of the state after the last step (measure) */
    double last_barrier;
    double last_self_gap;       /* +inf when no pair is within g^ + offset            */
};

int cloth__newton_ndof(const cloth__newton *w) { return w->ndof; }
void cloth__newton_profile_get(const cloth__newton *w, cloth__newton_profile *out)
{
    *out = w->profile;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}
int cloth__newton_dof(const cloth__newton *w, int i) { return w->dof[i]; }

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* ------------------------------------------------------------- adjacency */

static int compare_int(const void *a, const void *b)
{
    int p = *(const int *)a, q = *(const int *)b;
    return (p > q) - (p < q);
}

/* Neighbours of every vertex through springs and triangle edges, sorted and unique. */
static int build_adjacency(cloth__newton *w, const cloth_mesh *m)
{
    int n = m->n;
    size_t ends = 2 * (size_t)m->n_springs + 6 * (size_t)m->n_tris;
    w->adj_start = calloc((size_t)n + 1, sizeof *w->adj_start);
    w->adj = malloc((ends + 1) * sizeof *w->adj);
    int *fill = calloc((size_t)n + 1, sizeof *fill);
    if (!w->adj_start || !w->adj || !fill) {
        free(fill);
        return 0;
    }
#define EDGE(p, q) do { w->adj_start[(p) + 1]++; w->adj_start[(q) + 1]++; } while (0)
    for (int s = 0; s < m->n_springs; s++)
        EDGE(m->springs[s].a, m->springs[s].b);
    for (int t = 0; t < m->n_tris; t++)
        for (int e = 0; e < 3; e++)
            EDGE(m->tris[3 * t + e], m->tris[3 * t + (e + 1) % 3]);
#undef EDGE
    for (int i = 0; i < n; i++)
        w->adj_start[i + 1] += w->adj_start[i];
#define PUT(p, q) do { w->adj[w->adj_start[p] + fill[p]++] = (q); \
                       w->adj[w->adj_start[q] + fill[q]++] = (p); } while (0)
    for (int s = 0; s < m->n_springs; s++)
        PUT(m->springs[s].a, m->springs[s].b);
    for (int t = 0; t < m->n_tris; t++)
        for (int e = 0; e < 3; e++)
            PUT(m->tris[3 * t + e], m->tris[3 * t + (e + 1) % 3]);
#undef PUT
    /* sort each row and squeeze out duplicates, compacting in place */
    int out = 0;
    for (int i = 0; i < n; i++) {
        int lo = w->adj_start[i], hi = lo + fill[i];
        qsort(w->adj + lo, (size_t)(hi - lo), sizeof *w->adj, compare_int);
        w->adj_start[i] = out;
        for (int k = lo; k < hi; k++)
            if (k == lo || w->adj[k] != w->adj[k - 1])
                w->adj[out++] = w->adj[k];
    }
    w->adj_start[n] = out;
    free(fill);
    return 1;
}

static int adjacent(const cloth__newton *w, int i, int j)
{
    const int *lo = w->adj + w->adj_start[i];
    size_t count = (size_t)(w->adj_start[i + 1] - w->adj_start[i]);
    return bsearch(&j, lo, count, sizeof *lo, compare_int) != NULL;
}

/* Self-contact pairs: not joined by a spring or triangle, not both pinned. */
static int keep_pair(int i, int j, void *ctx)
{
    const cloth__newton *w = ctx;
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

/* ------------------------------------------------------------- stiffness */

/* The elastic (spring, PSD) Hessian of the stencil (a) or (a, b) at x: 3x3 in H when
 * b < 0, else 6x6 with the off-diagonal block from the springs joining a and b. */
static void elastic_block(const cloth__newton *w, const cloth_mesh *m, const double *x,
                          int a, int b, double *H)
{
    int dim = b < 0 ? 3 : 6;
    memset(H, 0, sizeof(double) * (size_t)(dim * dim));
    int ends[2] = {a, b};
    for (int e = 0; e < (b < 0 ? 1 : 2); e++) {
        int v = ends[e];
        for (int k = w->inc_start[v]; k < w->inc_start[v + 1]; k++) {
            const cloth_spring *sp = &m->springs[w->inc[k]];
            double K[36];
            cloth__spring_hessian(x + 3 * sp->a, x + 3 * sp->b, sp->k, sp->rest, 1, K);
            int other = sp->a == v ? sp->b : sp->a;
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++) {
                    H[(3 * e + r) * dim + 3 * e + c] += K[6 * r + c];
                    if (b >= 0 && other == ends[1 - e]) /* -K once per direction */
                        H[(3 * e + r) * dim + 3 * (1 - e) + c] -= K[6 * r + c];
                }
        }
    }
}

static double dynamic_kappa(const cloth__newton *w, const cloth_sim *sim, const contact *c,
                            const double *x, double g)
{
    const cloth_mesh *m = sim->mesh;
    double H[36], dir[3];
    const double *xa = x + 3 * c->a;
    switch (c->kind) {
    case C_SPHERE:
    case C_PLANE:
        if (c->kind == C_SPHERE)
            cloth__gap_sphere(xa, sim->sphere_c, sim->scene.sphere.radius,
                              sim->scene.sphere.offset, dir, NULL);
        else
            cloth__gap_plane(xa, sim->scene.floor.height, sim->scene.floor.offset, dir, NULL);
        elastic_block(w, m, x, c->a, -1, H);
        return cloth__kappa_vertex(m->mass[c->a], g, dir, H);
    case C_PAIR: {
        double grad[6];
        cloth__gap_pair(xa, x + 3 * c->b, sim->scene.newton.contact_offset, grad, NULL);
        elastic_block(w, m, x, c->a, c->b, H);
        return cloth__kappa_pair(m->mass[c->a], m->mass[c->b], g, grad, H);
    }
    default: {
        double grad[6];
        cloth__gap_strain(xa, x + 3 * c->b, m->springs[c->spring].rest,
                          sim->scene.newton.strain_limit, grad, NULL);
        /* grad = (u, -u)/l0 up to sign; w^T H w does not see the sign */
        double u[3] = {grad[0], grad[1], grad[2]}, len = sqrt(dot3(u, u));
        for (int k = 0; k < 3; k++)
            u[k] /= len;
        elastic_block(w, m, x, c->a, c->b, H);
        return cloth__kappa_edge(m->mass[c->a], m->mass[c->b], g, u, H);
    }
    }
}

static pair_slot *pair_lookup(cloth__newton *w, int a, int b, int insert)
{
    long long key = (long long)a * w->n + b;
    unsigned slot = (unsigned)((unsigned long long)key * 0x9E3779B97F4A7C15ull >> 32) & w->pair_mask;
    for (unsigned probe = 0; probe <= w->pair_mask; probe++) {
        pair_slot *p = &w->pair_kappa[(slot + probe) & w->pair_mask];
        if (p->key == key)
            return p;
        if (p->key < 0) {
            if (!insert)
                return NULL;
            p->key = key;
            p->kappa = NAN;
            w->pair_used[w->n_pair_used++] = (int)((slot + probe) & w->pair_mask);
            return p;
        }
    }
    return NULL; /* full: kappa is then recomputed, never frozen */
}

/* Forgets every frozen dynamic kappa. */
static void clear_kappa_tables(cloth__newton *w, const cloth_mesh *m)
{
    for (int i = 0; i < w->n; i++)
        w->kappa_sphere[i] = w->kappa_plane[i] = NAN;
    for (int s = 0; s < m->n_springs; s++)
        w->kappa_edge[s] = NAN;
    for (int k = 0; k < w->n_pair_used; k++)
        w->pair_kappa[w->pair_used[k]].key = -1;
    w->n_pair_used = 0;
}

/* The kappa of a term at x with gap g.  freeze: store a dynamic kappa computed now (at a
 * Newton iterate), so that it is held for the rest of the step or iteration; line-search
 * points only read. */
static double kappa_of(cloth__newton *w, const cloth_sim *sim, const contact *c,
                       const double *x, double g, int freeze)
{
    const cloth_newton_def *nd = &sim->scene.newton;
    int strain = c->kind == C_STRAIN;
    if (nd->kappa == CLOTH_KAPPA_FIXED || (nd->kappa == CLOTH_KAPPA_IPC && strain)) {
        if (nd->kappa_value >= 0)
            return nd->kappa_value;
        return strain ? w->kappa_strain_auto : w->kappa_contact_auto;
    }
    if (nd->kappa == CLOTH_KAPPA_IPC)
        return w->ipc_kappa;
    double *slot = NULL;
    pair_slot *ps;
    switch (c->kind) {
    case C_SPHERE: slot = &w->kappa_sphere[c->a]; break;
    case C_PLANE: slot = &w->kappa_plane[c->a]; break;
    case C_STRAIN: slot = &w->kappa_edge[c->spring]; break;
    default:
        ps = pair_lookup(w, c->a, c->b, freeze);
        slot = ps ? &ps->kappa : NULL;
    }
    if (slot && !isnan(*slot))
        return *slot;
    double kappa = dynamic_kappa(w, sim, c, x, g);
    if (slot && freeze)
        *slot = kappa;
    return kappa;
}

/* kappa_value = auto: the dynamic formula at the rest shape with g = g^/2.  The normal
 * is not known before contact: the mean of n^T H n over directions, trace(H)/3, stands
 * for it.  Strain edges use their own w = (u, -u)/sqrt 2. */
static void set_auto_kappa(cloth__newton *w, const cloth_sim *sim)
{
    const cloth_mesh *m = sim->mesh;
    const cloth_newton_def *nd = &sim->scene.newton;
    double H[36], trace = 0;
    int free_vertices = 0;
    for (int i = 0; i < m->n; i++) {
        if (w->dof[i] < 0)
            continue;
        elastic_block(w, m, m->rest, i, -1, H);
        trace += (H[0] + H[4] + H[8]) / 3;
        free_vertices++;
    }
    w->kappa_contact_auto =
        cloth__kappa_auto(w->mean_mass, nd->dhat, free_vertices ? trace / free_vertices : 0);
    double wHw = 0;
    for (int k = 0; k < w->n_limited; k++) {
        const cloth_spring *sp = &m->springs[w->limited[k]];
        const double *xa = m->rest + 3 * sp->a, *xb = m->rest + 3 * sp->b;
        double u[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
        double l = sqrt(dot3(u, u));
        for (int c = 0; c < 3; c++)
            u[c] /= l;
        elastic_block(w, m, m->rest, sp->a, sp->b, H);
        /* kappa_edge at g_s = tau/2 minus its mass term is w^T H w */
        wHw += cloth__kappa_edge(0, 0, 1, u, H);
    }
    double tau = nd->strain_limit > 0 ? nd->strain_limit : 1;
    w->kappa_strain_auto =
        cloth__kappa_auto(w->mean_mass, tau, w->n_limited ? wHw / w->n_limited : 0);
}

/* -------------------------------------------------------------- contacts */

static void push_contact(cloth__newton *w, int kind, int a, int b, int spring)
{
    if (w->n_contacts < w->contact_cap)
        w->contacts[w->n_contacts++] = (contact){kind, a, b, spring};
}

/* The active barrier terms at x: gaps below their activation distance. */
static void collect_contacts(cloth__newton *w, const cloth_sim *sim, const double *x)
{
    const cloth_scene *s = &sim->scene;
    const cloth_newton_def *nd = &s->newton;
    const cloth_mesh *m = sim->mesh;
    w->n_contacts = 0;
    if (nd->barrier == CLOTH_BARRIER_NONE)
        return;
    for (int i = 0; i < w->n; i++) {
        if (w->dof[i] < 0)
            continue;
        if (s->sphere.enabled && cloth__gap_sphere(x + 3 * i, sim->sphere_c, s->sphere.radius,
                                                   s->sphere.offset, NULL, NULL) < nd->dhat)
            push_contact(w, C_SPHERE, i, -1, -1);
        if (s->floor.enabled &&
            cloth__gap_plane(x + 3 * i, s->floor.height, s->floor.offset, NULL, NULL) < nd->dhat)
            push_contact(w, C_PLANE, i, -1, -1);
    }
    if (nd->self_contact) {
        const int *pairs;
        int overflow;
        int count = cloth__spatial_hash_query(w->hash, x, nd->contact_offset + nd->dhat,
                                              keep_pair, w, &pairs, &overflow);
        w->pair_overflows += overflow;
        for (int p = 0; p < count; p++)
            push_contact(w, C_PAIR, pairs[2 * p], pairs[2 * p + 1], -1);
    }
    if (nd->strain_limit > 0)
        for (int k = 0; k < w->n_limited; k++) {
            const cloth_spring *sp = &m->springs[w->limited[k]];
            if (cloth__gap_strain(x + 3 * sp->a, x + 3 * sp->b, sp->rest, nd->strain_limit,
                                  NULL, NULL) < nd->strain_limit)
                push_contact(w, C_STRAIN, sp->a, sp->b, w->limited[k]);
        }
}

/* The gap of a term at x, with its gradient (3 or 6) and Hessian (9 or 36). */
static double contact_gap(const cloth_sim *sim, const contact *c, const double *x,
                          double *grad, double *hess)
{
    const cloth_scene *s = &sim->scene;
    const double *xa = x + 3 * c->a;
    switch (c->kind) {
    case C_SPHERE:
        return cloth__gap_sphere(xa, sim->sphere_c, s->sphere.radius, s->sphere.offset, grad,
                                 hess);
    case C_PLANE:
        return cloth__gap_plane(xa, s->floor.height, s->floor.offset, grad, hess);
    case C_PAIR:
        return cloth__gap_pair(xa, x + 3 * c->b, s->newton.contact_offset, grad, hess);
    default:
        return cloth__gap_strain(xa, x + 3 * c->b, sim->mesh->springs[c->spring].rest,
                                 s->newton.strain_limit, grad, hess);
    }
}

/* ------------------------------------------------------------- assembly */

static void add_grad(const cloth__newton *w, double *grad, int v, const double *g3, double s)
{
    int d = w->dof[v];
    if (d >= 0)
        for (int c = 0; c < 3; c++)
            grad[d + c] += s * g3[c];
}

/* H[dof(va), dof(vb)] += s * B, B 3x3 with row stride `stride`. */
static void add_block(const cloth__newton *w, double *H, int va, int vb, const double *B,
                      int stride, double s)
{
    int da = w->dof[va], db = w->dof[vb];
    if (da < 0 || db < 0)
        return;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            H[(size_t)(da + r) * w->ndof + db + c] += s * B[stride * r + c];
}

/* A two-vertex 6x6 Hessian (row-major) into H. */
static void add_pair_blocks(const cloth__newton *w, double *H, int a, int b, const double *K6,
                            double s)
{
    add_block(w, H, a, a, K6, 6, s);
    add_block(w, H, a, b, K6 + 3, 6, s);
    add_block(w, H, b, a, K6 + 18, 6, s);
    add_block(w, H, b, b, K6 + 21, 6, s);
}

static double inertia_and_damping(cloth__newton *w, const cloth_sim *sim, const double *x,
                                  double *grad, double *H)
{
    const cloth_mesh *m = sim->mesh;
    double h = w->h, c_air = sim->scene.world.air_damping;
    double e = cloth__inertia_energy(m->n, x, w->x_tilde, m->mass, m->pinned, h);
    for (int i = 0; i < m->n; i++) {
        int d = w->dof[i];
        if (d < 0)
            continue;
        double dx[3], s = 0;
        for (int c = 0; c < 3; c++) {
            dx[c] = x[3 * i + c] - w->x_n[3 * i + c];
            s += dx[c] * dx[c];
        }
        e += 0.5 * c_air / h * s - dot3(w->f_ext + 3 * i, x + 3 * i);
        if (grad)
            for (int c = 0; c < 3; c++)
                grad[d + c] += m->mass[i] / (h * h) * (x[3 * i + c] - w->x_tilde[3 * i + c]) +
                               c_air / h * dx[c] - w->f_ext[3 * i + c];
        if (H)
            for (int c = 0; c < 3; c++)
                H[(size_t)(d + c) * w->ndof + d + c] += m->mass[i] / (h * h) + c_air / h;
    }
    return e;
}

static double springs_and_damping(cloth__newton *w, const cloth_sim *sim, const double *x,
                                  double *grad, double *H, int exact)
{
    const cloth_mesh *m = sim->mesh;
    double cd = sim->scene.material.spring_damping / w->h, e = 0;
    for (int s = 0; s < m->n_springs; s++) {
        const cloth_spring *sp = &m->springs[s];
        const double *xa = x + 3 * sp->a, *xb = x + 3 * sp->b, *u = w->u_n + 3 * s;
        e += cloth__spring_energy(xa, xb, sp->k, sp->rest);
        /* r = u_n . ((x_b - x_n,b) - (x_a - x_n,a)): the relative normal displacement */
        double r = 0;
        for (int c = 0; c < 3; c++)
            r += u[c] * ((xb[c] - w->x_n[3 * sp->b + c]) - (xa[c] - w->x_n[3 * sp->a + c]));
        e += 0.5 * cd * r * r;
        if (grad) {
            double g6[6];
            cloth__spring_gradient(xa, xb, sp->k, sp->rest, g6);
            add_grad(w, grad, sp->a, g6, 1);
            add_grad(w, grad, sp->b, g6 + 3, 1);
            add_grad(w, grad, sp->a, u, -cd * r);
            add_grad(w, grad, sp->b, u, cd * r);
        }
        if (H) {
            double K6[36], uu[9];
            cloth__spring_hessian(xa, xb, sp->k, sp->rest, !exact, K6);
            add_pair_blocks(w, H, sp->a, sp->b, K6, 1);
            for (int r2 = 0; r2 < 3; r2++)
                for (int c = 0; c < 3; c++)
                    uu[3 * r2 + c] = cd * u[r2] * u[c];
            add_block(w, H, sp->a, sp->a, uu, 3, 1);
            add_block(w, H, sp->b, sp->b, uu, 3, 1);
            add_block(w, H, sp->a, sp->b, uu, 3, -1);
            add_block(w, H, sp->b, sp->a, uu, 3, -1);
        }
    }
    return e;
}

/* kappa psi(g) of one term, and (when asked) kappa psi' dg into grad and
 * kappa (psi'' dg dg^T + psi' d2g) into H.  The psi' d2g part is negative for contacts
 * (psi' < 0, d2g transverse and positive) and dropped unless exact (the cubic-barrier
 * article's pitfall);
 * for strain limits it is positive (the tension) and kept (SPEC 4.4). */
static double barrier_term(cloth__newton *w, const cloth_sim *sim, const contact *c,
                           const double *x, double kappa, double *grad, double *H, int exact)
{
    const cloth_newton_def *nd = &sim->scene.newton;
    double dg[6], d2g[36], d1, d2;
    int two = c->kind == C_PAIR || c->kind == C_STRAIN;
    double g = contact_gap(sim, c, x, dg, H ? d2g : NULL);
    double dhat = c->kind == C_STRAIN ? nd->strain_limit : nd->dhat;
    double psi = cloth__barrier(nd->barrier, g, dhat, &d1, &d2);
    if (grad) {
        add_grad(w, grad, c->a, dg, kappa * d1);
        if (two)
            add_grad(w, grad, c->b, dg + 3, kappa * d1);
    }
    if (H) {
        int dim = two ? 6 : 3;
        int full = exact || c->kind == C_STRAIN;
        double B[36];
        for (int r = 0; r < dim; r++)
            for (int q = 0; q < dim; q++)
                B[dim * r + q] = kappa * (d2 * dg[r] * dg[q] + (full ? d1 * d2g[dim * r + q] : 0));
        if (two)
            add_pair_blocks(w, H, c->a, c->b, B, 1);
        else
            add_block(w, H, c->a, c->a, B, 3, 1);
    }
    return kappa * psi;
}

double cloth__newton_potential(cloth__newton *w, const cloth_sim *sim, const double *x,
                               double *grad, double *hess, int exact)
{
    const cloth_newton_def *nd = &sim->scene.newton;
    int at_iterate = grad != NULL;
    if (grad)
        memset(grad, 0, sizeof(double) * (size_t)w->ndof);
    if (hess)
        memset(hess, 0, sizeof(double) * (size_t)w->ndof * (size_t)w->ndof);
    double e = inertia_and_damping(w, sim, x, grad, hess);
    e += springs_and_damping(w, sim, x, grad, hess, exact);

    collect_contacts(w, sim, x);
    w->eval_active = w->n_contacts;
    w->eval_kappa_max = 0;
    w->eval_min_gap = INFINITY;
    for (int k = 0; k < w->n_contacts; k++)
        if (w->contacts[k].kind != C_STRAIN)
            w->eval_min_gap =
                fmin(w->eval_min_gap, contact_gap(sim, &w->contacts[k], x, NULL, NULL));

    /* IPC: the first kappa balances the barrier gradient against the rest of grad E,
     * once contacts exist; later iterations double it while the smallest gap stays tiny
     * and shrinks. */
    if (nd->kappa == CLOTH_KAPPA_IPC && at_iterate && isfinite(w->eval_min_gap)) {
        if (!w->ipc_set) {
            memset(w->grad_b, 0, sizeof(double) * (size_t)w->ndof);
            for (int k = 0; k < w->n_contacts; k++)
                if (w->contacts[k].kind != C_STRAIN)
                    barrier_term(w, sim, &w->contacts[k], x, 1.0, w->grad_b, NULL, 0);
            w->ipc_kappa = cloth__kappa_ipc_initial(grad, w->grad_b, w->ndof, w->ipc_min,
                                                    w->ipc_max);
            w->ipc_set = 1;
        } else {
            w->ipc_kappa = cloth__kappa_ipc_update(w->ipc_kappa, w->ipc_max, w->ipc_prev_gap,
                                                   w->eval_min_gap,
                                                   1e-9 * sim->mesh->rest_diag);
        }
        w->ipc_prev_gap = w->eval_min_gap;
    }

    for (int k = 0; k < w->n_contacts; k++) {
        const contact *c = &w->contacts[k];
        double g = contact_gap(sim, c, x, NULL, NULL);
        double kappa = kappa_of(w, sim, c, x, g, at_iterate);
        w->eval_kappa_max = fmax(w->eval_kappa_max, kappa);
        e += barrier_term(w, sim, c, x, kappa, grad, hess, exact);
    }
    return e;
}

/* ---------------------------------------------------------- line search */

/* Largest alpha with every gap >= eta * its gap now and every limited edge under its
 * limit along x + alpha dir (contact.c, per primitive).  Pairs that the query at radius
 * R = offset + max(g^, 2 |dir|_max / (1 - eta)) does not return cannot close by more
 * than (1 - eta) of their gap for alpha <= 1; if that query overflows, the query at
 * offset + g^ is used and alpha capped at (1 - eta) g^ / (2 |dir|_max). */
static double feasible_alpha(cloth__newton *w, const cloth_sim *sim, const double *x,
                             const double *dir)
{
    const cloth_scene *s = &sim->scene;
    const cloth_newton_def *nd = &s->newton;
    const cloth_mesh *m = sim->mesh;
    double eta = nd->eta, amax = INFINITY, dmax = 0;
    if (nd->barrier == CLOTH_BARRIER_NONE)
        return amax;
    for (int i = 0; i < w->n; i++) {
        if (w->dof[i] < 0)
            continue;
        const double *xi = x + 3 * i, *di = dir + 3 * i;
        dmax = fmax(dmax, sqrt(dot3(di, di)));
        if (s->sphere.enabled)
            amax = fmin(amax, cloth__alpha_sphere(xi, di, sim->sphere_c, s->sphere.radius,
                                                  s->sphere.offset, eta));
        if (s->floor.enabled)
            amax = fmin(amax, cloth__alpha_plane(xi, di, s->floor.height, s->floor.offset, eta));
    }
    if (nd->strain_limit > 0)
        for (int k = 0; k < w->n_limited; k++) {
            const cloth_spring *sp = &m->springs[w->limited[k]];
            amax = fmin(amax, cloth__alpha_strain(x + 3 * sp->a, x + 3 * sp->b,
                                                  dir + 3 * sp->a, dir + 3 * sp->b, sp->rest,
                                                  nd->strain_limit, eta));
        }
    if (nd->self_contact && dmax > 0) {
        const int *pairs;
        int overflow;
        double reach = fmax(nd->dhat, 2 * dmax / (1 - eta));
        int count = cloth__spatial_hash_query(w->hash, x, nd->contact_offset + reach,
                                              keep_pair, w, &pairs, &overflow);
        if (overflow) {
            w->pair_overflows++;
            count = cloth__spatial_hash_query(w->hash, x, nd->contact_offset + nd->dhat,
                                              keep_pair, w, &pairs, &overflow);
            amax = fmin(amax, (1 - eta) * nd->dhat / (2 * dmax));
        }
        for (int p = 0; p < count; p++) {
            int a = pairs[2 * p], b = pairs[2 * p + 1];
            amax = fmin(amax, cloth__alpha_pair(x + 3 * a, x + 3 * b, dir + 3 * a,
                                                dir + 3 * b, nd->contact_offset, eta));
        }
    }
    return amax;
}

/* Armijo backtracking from the largest feasible alpha <= 1: accept the first
 * E(x + alpha d) <= E(x) + c alpha grad.d (c = 1e-4), halving otherwise.  Returns the
 * accepted alpha (0 if none was found) with x_trial at x + alpha d. */
static double line_search(cloth__newton *w, const cloth_sim *sim, double e0, double slope)
{
    double alpha = fmin(1.0, feasible_alpha(w, sim, w->x, w->dir));
    for (int k = 0; k < MAX_HALVINGS && alpha > 0; k++, alpha *= 0.5) {
        for (int i = 0; i < 3 * w->n; i++)
            w->x_trial[i] = w->x[i] + alpha * w->dir[i];
        double e = cloth__newton_potential(w, sim, w->x_trial, NULL, NULL, 0);
        if (e <= e0 + ARMIJO_C * alpha * slope)
            return alpha;
    }
    memcpy(w->x_trial, w->x, sizeof(double) * 3 * (size_t)w->n);
    return 0;
}

/* ------------------------------------------------------------------ step */

void cloth__newton_prepare(cloth__newton *w, const cloth_sim *sim, double h)
{
    const cloth_mesh *m = sim->mesh;
    size_t bytes = sizeof(double) * 3 * (size_t)m->n;
    w->h = h;
    memcpy(w->x_n, sim->x, bytes);
    cloth__inertia_predict(m->n, sim->x, sim->v, sim->scene.world.gravity, h, m->pinned,
                           w->x_tilde);
    memset(w->f_ext, 0, bytes);
    cloth__add_wind(cloth__sim_force_env(sim), sim->x, sim->v, sim->t, w->f_ext);
    for (int s = 0; s < m->n_springs; s++) {
        const double *xa = sim->x + 3 * m->springs[s].a, *xb = sim->x + 3 * m->springs[s].b;
        double d[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]}, l = sqrt(dot3(d, d));
        for (int c = 0; c < 3; c++)
            w->u_n[3 * s + c] = l > 0 ? d[c] / l : 0;
    }
    cloth__kappa_ipc_bounds(sim->scene.newton.barrier, sim->scene.newton.dhat, m->rest_diag,
                            w->mean_mass, h, &w->ipc_min, &w->ipc_max);
    clear_kappa_tables(w, m);
    if (!w->ipc_set) /* line-search points may touch before IPC's first kappa is set */
        w->ipc_kappa = w->ipc_min;
}

/* A moving sphere may have swept over a vertex between steps: such a vertex starts the
 * Newton iteration at half the activation distance above the surface, since no feasible
 * path leaves a negative gap (the cloth's velocity keeps coming from x_n). */
static void start_outside_obstacles(cloth__newton *w, const cloth_sim *sim)
{
    const cloth_scene *s = &sim->scene;
    if (!s->sphere.enabled || s->newton.barrier == CLOTH_BARRIER_NONE)
        return;
    for (int i = 0; i < w->n; i++) {
        if (w->dof[i] < 0)
            continue;
        double n[3], *xi = w->x + 3 * i;
        double g = cloth__gap_sphere(xi, sim->sphere_c, s->sphere.radius, s->sphere.offset, n,
                                     NULL);
        if (g > 0)
            continue;
        double r = s->sphere.radius + s->sphere.offset + 0.5 * s->newton.dhat;
        if (dot3(n, n) == 0)
            n[1] = 1;
        for (int c = 0; c < 3; c++)
            xi[c] = sim->sphere_c[c] + r * n[c];
    }
}

static double inf_norm(const double *v, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++)
        m = fmax(m, fabs(v[i]));
    return m;
}

static cloth_status newton_step(cloth_sim *sim, void *work, double h, cloth__step_stats *stats,
                                cloth_error *err)
{
    cloth__newton *w = work;
    const cloth_newton_def *nd = &sim->scene.newton;
    const cloth_mesh *m = sim->mesh;
    stats->iterations = 0;
    stats->not_converged = 0;
    stats->regularized = 0;
    stats->cond_max = NAN;
    if (w->ndof == 0)
        return CLOTH_OK;

    cloth__newton_prepare(w, sim, h);
    memcpy(w->x, sim->x, sizeof(double) * 3 * (size_t)w->n);
    start_outside_obstacles(w, sim);
    double tol = nd->tol * m->rest_diag;
    int converged = 0;

    for (int it = 0; it < nd->max_iters && !converged; it++) {
        double t0 = now_ms();
        if (nd->kappa_update == CLOTH_KAPPA_PER_ITERATION)
            clear_kappa_tables(w, m);
        double e = cloth__newton_potential(w, sim, w->x, w->grad, w->H, 0);
        if (!isfinite(e))
            return CLOTH_ENUMERIC;
        int active = w->eval_active;
        double kappa_max = w->eval_kappa_max;

        double t1 = now_ms(), eps, cond = NAN;
        cloth_status st = cloth__linalg_factor(w->la, w->H, &eps, err);
        if (st != CLOTH_OK)
            return st;
        for (int k = 0; k < w->ndof; k++)
            w->step[k] = -w->grad[k];
        if ((st = cloth__linalg_solve(w->la, w->step, w->step, err)) != CLOTH_OK)
            return st;
        double t2 = now_ms();
        if (nd->cond == CLOTH_COND_EXACT && w->ndof <= nd->cond_exact_max)
            st = cloth__linalg_cond_exact(w->la, w->H, &cond, err);
        else if (nd->cond != CLOTH_COND_OFF)
            st = cloth__linalg_cond_estimate(w->la, &cond, err);
        if (st != CLOTH_OK)
            return st;

        double t3 = now_ms(), slope = 0;
        for (int k = 0; k < w->ndof; k++)
            slope += w->grad[k] * w->step[k];
        for (int i = 0; i < w->n; i++)
            for (int c = 0; c < 3; c++)
                w->dir[3 * i + c] = w->dof[i] >= 0 ? w->step[w->dof[i] + c] : 0;
        /* no descent direction (grad = 0 at an equilibrium, or round-off): x stays */
        double alpha = 0;
        if (slope < 0) {
            alpha = line_search(w, sim, e, slope);
            memcpy(w->x, w->x_trial, sizeof(double) * 3 * (size_t)w->n);
        }
        double t4 = now_ms();
        w->profile.iterations++;
        w->profile.assembly_ms += t1 - t0;
        w->profile.solve_ms += t2 - t1;
        w->profile.cond_ms += t3 - t2;
        w->profile.line_search_ms += t4 - t3;

        double dir_norm = inf_norm(w->step, w->ndof);
        converged = dir_norm / h < tol;
        stats->iterations++;
        stats->regularized += eps > 0;
        if (!isnan(cond))
            stats->cond_max = isnan(stats->cond_max) ? cond : fmax(stats->cond_max, cond);
        if (w->n_rows < w->row_cap) {
            int row = w->n_rows++;
            w->rows[row] = (cloth_newton_iter){
                sim->frame + 1, row, e, inf_norm(w->grad, w->ndof), alpha * dir_norm,
                alpha, cond, kappa_max, active, eps > 0};
        }
        if (alpha == 0 && !converged)
            break; /* no descent possible: reported as not converged */
    }
    stats->not_converged = !converged;

    /* v_{n+1} = (x - x_n)/h; pinned vertices keep their place and rest */
    for (int i = 0; i < w->n; i++)
        for (int c = 0; c < 3; c++) {
            int k = 3 * i + c;
            if (w->dof[i] < 0) {
                sim->v[k] = 0;
                continue;
            }
            sim->v[k] = (w->x[k] - w->x_n[k]) / h;
            sim->x[k] = w->x[k];
        }
    return CLOTH_OK;
}

/* ------------------------------------------------------ metrics and logs */

/* Barrier energy and the smallest self-contact gap of the current state, for measure. */
static void record_state(cloth__newton *w, const cloth_sim *sim)
{
    w->last_barrier = 0;
    w->last_self_gap = INFINITY;
    if (w->ndof == 0)
        return;
    collect_contacts(w, sim, sim->x);
    for (int k = 0; k < w->n_contacts; k++) {
        const contact *c = &w->contacts[k];
        double g = contact_gap(sim, c, sim->x, NULL, NULL);
        w->last_barrier += barrier_term(w, sim, c, sim->x, kappa_of(w, sim, c, sim->x, g, 0),
                                        NULL, NULL, 0);
        if (c->kind == C_PAIR)
            w->last_self_gap = fmin(w->last_self_gap, g);
    }
}

static cloth_status newton_step_and_record(cloth_sim *sim, void *work, double h,
                                           cloth__step_stats *stats, cloth_error *err)
{
    cloth_status st = newton_step(sim, work, h, stats, err);
    record_state(work, sim);
    return st;
}

static void newton_measure(const cloth_sim *sim, const void *work, cloth_frame *f)
{
    const cloth__newton *w = work;
    (void)sim;
    f->barrier = w->last_barrier;
    if (isfinite(w->last_self_gap)) {
        f->min_gap = f->has_gap ? fmin(f->min_gap, w->last_self_gap) : w->last_self_gap;
        f->has_gap = 1;
    }
}

static int newton_log(const void *work, const cloth_newton_iter **rows)
{
    const cloth__newton *w = work;
    *rows = w->rows;
    return w->n_rows;
}

static void newton_begin_frame(cloth_sim *sim, void *work)
{
    (void)sim;
    ((cloth__newton *)work)->n_rows = 0;
}

static void newton_start(cloth_sim *sim, void *work)
{
    cloth__newton *w = work;
    w->n_rows = 0;
    w->ipc_set = 0;
    w->ipc_kappa = 0;
    w->ipc_prev_gap = INFINITY;
    w->pair_overflows = 0;
    memset(&w->profile, 0, sizeof w->profile);
    clear_kappa_tables(w, sim->mesh);
    record_state(w, sim);
}

/* ------------------------------------------------------- create, destroy */

static void newton_destroy(void *work)
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
    free(w->x_n);
    free(w->x_tilde);
    free(w->f_ext);
    free(w->u_n);
    free(w->x);
    free(w->x_trial);
    free(w->dir);
    free(w->grad);
    free(w->grad_b);
    free(w->step);
    free(w->H);
    cloth__linalg_destroy(w->la);
    cloth__spatial_hash_destroy(w->hash);
    free(w->contacts);
    free(w->kappa_sphere);
    free(w->kappa_plane);
    free(w->kappa_edge);
    free(w->pair_kappa);
    free(w->pair_used);
    free(w->rows);
    free(w);
}

/* The initial state must be strictly feasible: every barrier needs a positive gap. */
static cloth_status check_initial_state(const cloth__newton *w, const cloth_sim *sim,
                                        cloth_error *err)
{
    const cloth_scene *s = &sim->scene;
    const cloth_newton_def *nd = &s->newton;
    const cloth_mesh *m = sim->mesh;
    double c[3];
    if (nd->barrier == CLOTH_BARRIER_NONE)
        return CLOTH_OK;
    cloth__sphere_center(&s->sphere, 0, c);
    for (int i = 0; i < m->n; i++) {
        if (w->dof[i] < 0)
            continue;
        const double *x = m->x0 + 3 * i;
        if (s->sphere.enabled &&
            cloth__gap_sphere(x, c, s->sphere.radius, s->sphere.offset, NULL, NULL) <= 0)
            return cloth__fail(err, CLOTH_EINVAL,
                               "%s: newton: vertex %d starts inside the sphere (radius + offset); "
                               "the barriers need a positive gap",
                               s->source, i);
        if (s->floor.enabled && cloth__gap_plane(x, s->floor.height, s->floor.offset, NULL, NULL) <= 0)
            return cloth__fail(err, CLOTH_EINVAL,
                               "%s: newton: vertex %d starts below the plane (height + offset); "
                               "the barriers need a positive gap",
                               s->source, i);
    }
    if (nd->strain_limit > 0)
        for (int k = 0; k < w->n_limited; k++) {
            const cloth_spring *sp = &m->springs[w->limited[k]];
            if (cloth__gap_strain(m->x0 + 3 * sp->a, m->x0 + 3 * sp->b, sp->rest,
                                  nd->strain_limit, NULL, NULL) <= 0)
                return cloth__fail(err, CLOTH_EINVAL,
                                   "%s: newton.strain_limit: %g is not above the initial strain of "
                                   "spring %d-%d (mesh.prestretch %g)",
                                   s->source, nd->strain_limit, sp->a, sp->b, s->mesh.prestretch);
        }
    if (nd->self_contact)
        for (int i = 0; i < m->n; i++)
            for (int j = i + 1; j < m->n; j++) {
                if (!keep_pair(i, j, (void *)w))
                    continue;
                if (cloth__gap_pair(m->x0 + 3 * i, m->x0 + 3 * j, nd->contact_offset, NULL,
                                    NULL) <= 0)
                    return cloth__fail(err, CLOTH_EINVAL,
                                       "%s: newton.contact_offset: vertices %d and %d start closer "
                                       "than %g",
                                       s->source, i, j, nd->contact_offset);
            }
    return CLOTH_OK;
}

static cloth_status newton_create(const cloth_sim *sim, void **work, cloth_error *err)
{
    const cloth_mesh *m = sim->mesh;
    const cloth_scene *s = &sim->scene;
    cloth__newton *w = calloc(1, sizeof *w);
    *work = NULL;
    if (!w)
        return cloth__fail(err, CLOTH_ENOMEM, "newton: out of memory");
    int n = m->n;
    w->n = n;
    w->dof = malloc((size_t)n * sizeof *w->dof);
    if (!w->dof)
        goto fail_alloc;
    double mass = 0;
    for (int i = 0; i < n; i++) {
        w->dof[i] = m->pinned[i] ? -1 : w->ndof;
        if (!m->pinned[i]) {
            w->ndof += 3;
            mass += m->mass[i];
        }
    }
    w->mean_mass = w->ndof ? mass / (w->ndof / 3) : 0;
    if (w->ndof > MAX_DENSE_UNKNOWNS) {
        newton_destroy(w);
        return cloth__fail(err, CLOTH_EINVAL,
                           "%s: mesh: %d free vertices make %d unknowns; the dense newton solver "
                           "takes at most %d",
                           s->source, w->ndof / 3, w->ndof, MAX_DENSE_UNKNOWNS);
    }
    if (!build_adjacency(w, m) || !build_incidence(w, m))
        goto fail_alloc;
    w->limited = malloc(((size_t)m->n_springs + 1) * sizeof *w->limited);
    if (!w->limited)
        goto fail_alloc;
    for (int k = 0; k < m->n_springs; k++)
        if (m->springs[k].family != CLOTH_BEND)
            w->limited[w->n_limited++] = k;

    size_t n3 = 3 * (size_t)n, nd = (size_t)w->ndof + 1;
    w->x_n = malloc(n3 * sizeof(double));
    w->x_tilde = malloc(n3 * sizeof(double));
    w->f_ext = malloc(n3 * sizeof(double));
    w->u_n = malloc((3 * (size_t)m->n_springs + 1) * sizeof(double));
    w->x = malloc(n3 * sizeof(double));
    w->x_trial = malloc(n3 * sizeof(double));
    w->dir = malloc(n3 * sizeof(double));
    w->grad = malloc(nd * sizeof(double));
    w->grad_b = malloc(nd * sizeof(double));
    w->step = malloc(nd * sizeof(double));
    w->H = malloc(nd * nd * sizeof(double));
    if (!w->x_n || !w->x_tilde || !w->f_ext || !w->u_n || !w->x || !w->x_trial || !w->dir ||
        !w->grad || !w->grad_b || !w->step || !w->H)
        goto fail_alloc;

    /* pairs within g^ + offset, or within the line search's reach: a cloth vertex has a
     * bounded number of such neighbours unless the cloth is crumpled into a ball */
    long all_pairs = (long)n * (n - 1) / 2, cap = 64L * n + 1024;
    w->pair_cap = (int)(all_pairs < cap ? all_pairs : cap);
    w->contact_cap = 2 * n + w->pair_cap + w->n_limited;
    unsigned slots = 2;
    while (slots < 4u * (unsigned)w->pair_cap)
        slots <<= 1;
    w->pair_mask = slots - 1;
    w->contacts = malloc(((size_t)w->contact_cap + 1) * sizeof *w->contacts);
    w->kappa_sphere = malloc((size_t)n * sizeof(double));
    w->kappa_plane = malloc((size_t)n * sizeof(double));
    w->kappa_edge = malloc(((size_t)m->n_springs + 1) * sizeof(double));
    w->pair_kappa = malloc((size_t)slots * sizeof *w->pair_kappa);
    w->pair_used = malloc((size_t)slots * sizeof *w->pair_used);
    w->row_cap = s->newton.max_iters * s->run.substeps;
    w->rows = malloc(((size_t)w->row_cap + 1) * sizeof *w->rows);
    if (!w->contacts || !w->kappa_sphere || !w->kappa_plane || !w->kappa_edge ||
        !w->pair_kappa || !w->pair_used || !w->rows)
        goto fail_alloc;
    for (unsigned k = 0; k < slots; k++)
        w->pair_kappa[k].key = -1;

    cloth_status st = cloth__spatial_hash_create(n, w->pair_cap > 0 ? w->pair_cap : 1,
                                                 &w->hash, err);
    if (st == CLOTH_OK && w->ndof > 0)
        st = cloth__linalg_create(w->ndof, &w->la, err);
    if (st == CLOTH_OK)
        st = check_initial_state(w, sim, err);
    if (st != CLOTH_OK) {
        newton_destroy(w);
        return st;
    }
    set_auto_kappa(w, sim);
    *work = w;
    return CLOTH_OK;

fail_alloc:
    newton_destroy(w);
    return cloth__fail(err, CLOTH_ENOMEM, "newton: out of memory for %d vertices", n);
}

/* ------------------------------------------------------------------ keys */

static int parse_kappa_value(cloth_scene *s, const char *value, char *why, size_t n)
{
    if (strcmp(value, "auto") == 0) {
        s->newton.kappa_value = -1;
        return 0;
    }
    char *end;
    double v = strtod(value, &end);
    if (end == value || *end != '\0' || !isfinite(v) || v < 0) {
        snprintf(why, n, "'%s' is not auto or a finite number >= 0", value);
        return 1;
    }
    s->newton.kappa_value = v;
    return 0;
}

#define OFF(field) offsetof(cloth_scene, newton.field)
#define INF HUGE_VAL

static const char *const barrier_names[] = {"log", "cubic", "none", NULL};
static const char *const kappa_names[] = {"fixed", "ipc", "dynamic", NULL};
static const char *const update_names[] = {"step", "iteration", NULL};
static const char *const cond_names[] = {"exact", "estimate", "off", NULL};
static const char *const onoff_names[] = {"off", "on", NULL};

static const cloth__key newton_keys[] = {
    {"newton", "barrier", CLOTH__KEY_CHOICE, OFF(barrier), 0, 0, 0, 0, 0, barrier_names, NULL,
     "cubic", "log (IPC), cubic (ZOZO) or none (plain implicit Euler, no contact)"},
    {"newton", "dhat", CLOTH__KEY_DOUBLE, OFF(dhat), 0, 0, INF, 1, 1, NULL, NULL, "0.01",
     "barrier activation distance g^ of contacts (m)"},
    {"newton", "kappa", CLOTH__KEY_CHOICE, OFF(kappa), 0, 0, 0, 0, 0, kappa_names, NULL,
     "dynamic", "barrier stiffness: fixed, ipc (adaptive) or dynamic (ZOZO, per contact)"},
    {"newton", "kappa_value", CLOTH__KEY_CUSTOM, 0, 0, 0, 0, 0, 0, NULL, parse_kappa_value,
     "auto", "fixed kappa, or auto: m/(g^/2)^2 + n^T H_el n at rest"},
    {"newton", "kappa_update", CLOTH__KEY_CHOICE, OFF(kappa_update), 0, 0, 0, 0, 0,
     update_names, NULL, "step",
     "dynamic kappa frozen per step (when a contact appears) or recomputed per iteration"},
    {"newton", "strain_limit", CLOTH__KEY_DOUBLE, OFF(strain_limit), 0, 0, 10, 0, 0, NULL,
     NULL, "0", "strain limit tau of structural and shear edges (barrier on tau - strain); 0 = off"},
    {"newton", "self_contact", CLOTH__KEY_CHOICE, OFF(self_contact), 0, 0, 0, 0, 0,
     onoff_names, NULL, "on", "vertex-vertex contact between non-adjacent vertices"},
    {"newton", "contact_offset", CLOTH__KEY_DOUBLE, OFF(contact_offset), 0, 0, INF, 0, 1,
     NULL, NULL, "0.01", "self-contact distance: g = |x_i - x_j| - offset (m)"},
    {"newton", "tol", CLOTH__KEY_DOUBLE, OFF(tol), 0, 0, INF, 1, 1, NULL, NULL, "1e-3",
     "stop when |dx|_inf / h < tol * L (L = rest bounding-box diagonal)"},
    {"newton", "max_iters", CLOTH__KEY_INT, OFF(max_iters), 0, 1, 10000, 0, 0, NULL, NULL,
     "50", "Newton iterations per step at most (then reported as not converged)"},
    {"newton", "cond", CLOTH__KEY_CHOICE, OFF(cond), 0, 0, 0, 0, 0, cond_names, NULL, "exact",
     "condition number of H: exact (eigenvalues, up to cond_exact_max), estimate, off"},
    {"newton", "cond_exact_max", CLOTH__KEY_INT, OFF(cond_exact_max), 0, 0, 100000, 0, 0,
     NULL, NULL, "4000", "exact condition numbers up to this many unknowns, dpocon above"},
    {"newton", "eta", CLOTH__KEY_DOUBLE, OFF(eta), 0, 0, 1, 1, 1, NULL, NULL, "0.1",
     "line search keeps every gap above eta times its current value"},
};

const cloth__kernel cloth__newton_kernel = {
    "newton",
    "implicit Euler by Newton's method, log (IPC) or cubic (ZOZO) barrier",
    newton_keys,
    (int)(sizeof newton_keys / sizeof newton_keys[0]),
    newton_create,
    newton_destroy,
    newton_start,
    newton_step_and_record,
    newton_measure,
    newton_log,
    newton_begin_frame,
};
