/* newton: the barrier stiffness kappa of each active term, by newton.kappa —
 *   fixed     one kappa (newton.kappa_value, or auto from the rest shape);
 *   ipc       one adaptive kappa for all contacts (Li et al. 2020, supplement);
 *   dynamic   a kappa per term from its mass and the elastic stiffness along its gap
 *             gradient (Ando 2024, eq. 4), by newton.kappa_update: frozen when the term
 *             appears for the rest of the step (step), recomputed at every iterate
 *             (iteration), or recomputed at every iterate but never below its value at
 *             the step's previous iterate, nor, for a term active at the end of the
 *             previous step, below its value there (monotone, the default).
 * The formulas themselves are in terms/stiffness.c; this file picks and remembers them. */
#include "kernels/newton/newton_work.h"

#include "terms/contact.h"
#include "terms/spring.h"
#include "terms/stiffness.h"
#include "terms/strain_limit.h"

#include <math.h>
#include <string.h>

/* The elastic (spring, PSD) Hessian of the stencil v[0..k) at x: a 3k x 3k block, with
 * the off-diagonal blocks of the springs that join two stencil vertices. */
static void elastic_block(const cloth__newton *w, const cloth_mesh *m, const double *x,
                          const int *v, int k, double *H)
{
    int dim = 3 * k;
    memset(H, 0, sizeof(double) * (size_t)(dim * dim));
    for (int e = 0; e < k; e++)
        for (int q = w->inc_start[v[e]]; q < w->inc_start[v[e] + 1]; q++) {
            const cloth_spring *sp = &m->springs[w->inc[q]];
            double K[36];
            cloth__spring_hessian(x + 3 * sp->a, x + 3 * sp->b, sp->k, sp->rest, 1, K);
            int other = sp->a == v[e] ? sp->b : sp->a;
            for (int f = 0; f < k; f++) {
                if (f != e && v[f] != other)
                    continue;
                double sign = f == e ? 1 : -1; /* -K once per direction */
                for (int r = 0; r < 3; r++)
                    for (int c = 0; c < 3; c++)
                        H[(3 * e + r) * dim + 3 * f + c] += sign * K[6 * r + c];
            }
        }
}

/* ZOZO's stiffness of a strain element (k = 2: an edge, 3: a triangle) with gap g:
 * w^T H_el w + the mass term (stiffness.h), H_el at the iterate x, w the unnormalised
 * centroid offsets at x_w, and mass the element's.  ZOZO (ppf-contact-solver,
 * strainlimiting/strainlimiting.cu:22-43, called at :78-79) takes w from
 * data.vertex.curr, the positions at the step's start, and the face's own mass rho A:
 * so x_w = x_n and mass = tri_mass for triangles.  Edges (strain_measure = edge) keep
 * the mean of their two vertex masses. */
static double element_kappa(const cloth__newton *w, const cloth__newton_ctx *ctx,
                            const double *x, const double *x_w, const int *v, int k,
                            double mass, double g, double dhat)
{
    const cloth_mesh *m = ctx->mesh;
    double H[81], xs[9], w2;
    cloth__newton_gather(x_w, v, k, xs);
    elastic_block(w, m, x, v, k, H);
    double wHw = cloth__strain_kappa_weight(xs, k, H, &w2);
    return wHw + cloth__kappa_mass(ctx->nd->kappa_form, mass, g, dhat, w->h, w2);
}

/* The same for a point-triangle or edge-edge term: w = grad g / |grad g| over the four
 * vertices (the pair's (n, -n)/sqrt 2 generalised), the mass term with w^T M w. */
static double stencil_kappa(const cloth__newton *w, const cloth__newton_ctx *ctx,
                            const cloth__contact *c, const double *x, double g)
{
    const cloth_mesh *m = ctx->mesh;
    const cloth__newton_def *nd = ctx->nd;
    int v[4];
    double dg[12], H[144], norm2 = 0, wHw = 0, mass = 0;
    cloth__newton_stencil(w, ctx, c, v);
    cloth__newton_stencil_gap(w, ctx, c, x, dg, NULL, NULL, NULL, NULL);
    for (int i = 0; i < 12; i++)
        norm2 += dg[i] * dg[i];
    if (!(norm2 > 0))
        return 0;
    elastic_block(w, m, x, v, 4, H);
    for (int i = 0; i < 12; i++) {
        mass += m->mass[v[i / 3]] * dg[i] * dg[i] / norm2;
        for (int j = 0; j < 12; j++)
            wHw += dg[i] * H[12 * i + j] * dg[j] / norm2;
    }
    return wHw + cloth__kappa_mass(nd->kappa_form, mass, g, nd->dhat, w->h, 1);
}

static double dynamic_kappa(const cloth__newton *w, const cloth__newton_ctx *ctx,
                            const cloth__contact *c, const double *x, double g)
{
    const cloth_mesh *m = ctx->mesh;
    const cloth__newton_def *nd = ctx->nd;
    double H[36], dir[6];
    const double *xa = x + 3 * c->a;
    int ab[2] = {c->a, c->b};
    switch (c->kind) {
    case CLOTH__CONTACT_SPHERE:
    case CLOTH__CONTACT_FLOOR:
    case CLOTH__CONTACT_BODY:
        if (c->kind == CLOTH__CONTACT_SPHERE)
            cloth__gap_sphere(xa, w->sphere_c, ctx->sphere.radius,
                              ctx->sphere.offset, dir, NULL);
        else if (c->kind == CLOTH__CONTACT_BODY)
            cloth__newton_body_gap(w, ctx, xa, dir, NULL);
        else
            cloth__gap_floor(xa, ctx->floor.height, ctx->floor.offset, dir, NULL);
        elastic_block(w, m, x, ab, 1, H);
        return cloth__kappa_stencil_vertex(dir, H) +
               cloth__kappa_mass(nd->kappa_form, m->mass[c->a], g, nd->dhat, w->h, 1);
    case CLOTH__CONTACT_PAIR:
        cloth__gap_pair(xa, x + 3 * c->b, ctx->thickness, dir, NULL);
        elastic_block(w, m, x, ab, 2, H);
        return cloth__kappa_stencil_pair(dir, H) +
               cloth__kappa_mass(nd->kappa_form, 0.5 * (m->mass[c->a] + m->mass[c->b]), g,
                                 nd->dhat, w->h, 1);
    case CLOTH__CONTACT_PT:
    case CLOTH__CONTACT_EE:
        return stencil_kappa(w, ctx, c, x, g);
    case CLOTH__CONTACT_STRAIN:
        return element_kappa(w, ctx, x, w->x_n, ab, 2, 0.5 * (m->mass[c->a] + m->mass[c->b]),
                             g, nd->strain_band * nd->strain_limit);
    default:
        return element_kappa(w, ctx, x, w->x_n, m->tris + 3 * c->elem, 3,
                             w->tri_mass[c->elem], g, nd->strain_band * nd->strain_limit);
    }
}

/* The key of a self-contact term in the table: vertex pairs below n^2, then
 * point-triangle terms, then edge-edge terms. */
static long long term_key(const cloth__newton *w, const cloth_mesh *m, const cloth__contact *c)
{
    long long n = w->n, pairs = n * n, pt = n * m->n_tris;
    if (c->kind == CLOTH__CONTACT_PT)
        return pairs + (long long)c->a * m->n_tris + c->elem;
    if (c->kind == CLOTH__CONTACT_EE)
        return pairs + pt + (long long)c->a * w->n_edges + c->b;
    return (long long)c->a * n + c->b;
}

static cloth__pair_slot *pair_lookup(const cloth__newton *w, cloth__kappa_store *st,
                                     long long key, int insert)
{
    unsigned slot =
        (unsigned)((unsigned long long)key * 0x9E3779B97F4A7C15ull >> 32) & w->pair_mask;
    for (unsigned probe = 0; probe <= w->pair_mask; probe++) {
        cloth__pair_slot *p = &st->pair[(slot + probe) & w->pair_mask];
        if (p->key == key)
            return p;
        if (p->key < 0) {
            if (!insert)
                return NULL;
            p->key = key;
            p->kappa = NAN;
            st->pair_used[st->n_pair_used++] = (int)((slot + probe) & w->pair_mask);
            return p;
        }
    }
    return NULL; /* full: kappa is then recomputed, never frozen */
}

static void clear_store(cloth__kappa_store *k, const cloth__newton *w, const cloth_mesh *m)
{
    for (int i = 0; i < w->n; i++)
        k->sphere[i] = k->floor[i] = k->body[i] = NAN;
    for (int s = 0; s < m->n_springs; s++)
        k->edge[s] = NAN;
    for (int t = 0; t < m->n_tris; t++)
        k->tri[t] = NAN;
    for (int j = 0; j < k->n_pair_used; j++)
        k->pair[k->pair_used[j]].key = -1;
    k->n_pair_used = 0;
}

void cloth__newton_clear_kappa(cloth__newton *w, const cloth_mesh *m)
{
    clear_store(&w->kappa, w, m);
    clear_store(&w->kappa_prev, w, m);
}

void cloth__newton_carry_kappa(cloth__newton *w, const cloth_mesh *m)
{
    cloth__kappa_store t = w->kappa_prev;
    w->kappa_prev = w->kappa;
    w->kappa = t;
    clear_store(&w->kappa, w, m);
}

/* The slot of term c in store k (NULL: a self-contact term the table has no room for,
 * or, without insert, has not met). */
static double *slot_of(cloth__newton *w, cloth__kappa_store *k, const cloth__newton_ctx *ctx,
                       const cloth__contact *c, int insert)
{
    cloth__pair_slot *ps;
    switch (c->kind) {
    case CLOTH__CONTACT_SPHERE: return &k->sphere[c->a];
    case CLOTH__CONTACT_FLOOR: return &k->floor[c->a];
    case CLOTH__CONTACT_BODY: return &k->body[c->a];
    case CLOTH__CONTACT_STRAIN: return &k->edge[c->elem];
    case CLOTH__CONTACT_TRIANGLE: return &k->tri[c->elem];
    default:
        ps = pair_lookup(w, k, term_key(w, ctx->mesh, c), insert);
        return ps ? &ps->kappa : NULL;
    }
}

/* Term c's kappa at the end of the previous step, -inf when it was not active there. */
static double carried(cloth__newton *w, const cloth__newton_ctx *ctx, const cloth__contact *c)
{
    const double *prev = slot_of(w, &w->kappa_prev, ctx, c, 0);
    return prev && !isnan(*prev) ? *prev : -INFINITY;
}

double cloth__newton_kappa_of(cloth__newton *w, const cloth__newton_ctx *ctx,
                              const cloth__contact *c, const double *x, double g,
                              int freeze)
{
    const cloth__newton_def *nd = ctx->nd;
    int strain = cloth__newton_is_strain(c->kind);
    if (nd->kappa == CLOTH__KAPPA_FIXED || (nd->kappa == CLOTH__KAPPA_IPC && strain)) {
        if (nd->kappa_value >= 0)
            return nd->kappa_value;
        return strain ? w->kappa_strain_auto : w->kappa_contact_auto;
    }
    if (nd->kappa == CLOTH__KAPPA_IPC)
        return w->ipc_kappa;
    double *slot = slot_of(w, &w->kappa, ctx, c, freeze);
    /* monotone: at an iterate kappa_k = max(kappa_{k-1}, kappa(x_k)) per term, then held
     * through the line search, so E(x_k) and every trial point's E are one function.
     * ZOZO recomputes kappa from the current iterate at every Newton iteration
     * (ppf-contact-solver, crates/ppf-cts-solver/src/cpp/main/main.cu:683-1512, the
     * loop that reassembles the barriers each pass; barrier/barrier.cu:50-85 and
     * strainlimiting/strainlimiting.cu:22-43 for the rules): but that loop never
     * compares energies, where this one's Armijo test does.  A kappa that drops as a gap
     * opens again lets the objective cycle between iterations (issue 31: E alternating
     * 0.21 <-> 0.40 at alpha = 1); one that only grows within a step cannot, and it still
     * follows the closing gaps that a kappa frozen at the step's start misses.
     * A term met for the first time in a step starts from its kappa at the end of the
     * previous step when it was active there (kappa_prev, carried by
     * cloth__newton_carry_kappa): reset at every step, the floor let the cloth settle
     * at a kappa it could not keep, so each step at rest began out of equilibrium
     * (kappa 66 at the step's start against 1564 at the last step's end on the 32^2
     * ablation cell at tau = 2 %, cubic barrier), took a cut step, raised kappa again
     * and needed 5 iterations a frame where the log barrier needed 1: 284 Newton
     * iterations in 60 frames against the log's 111; carried, 111 (issue 31).  A term
     * that leaves its band for a whole step starts afresh. */
    int monotone = ctx->nd->kappa_update == CLOTH__KAPPA_MONOTONE;
    if (slot && freeze && monotone) {
        double kappa = dynamic_kappa(w, ctx, c, x, g);
        return *slot = fmax(kappa, !isnan(*slot) ? *slot : carried(w, ctx, c));
    }
    if (slot && !isnan(*slot))
        return *slot;
    double kappa = dynamic_kappa(w, ctx, c, x, g);
    /* a look before the step's first iterate (the lagged friction's normal force at the
     * step's start) sees the kappa that iterate will have */
    if (monotone)
        kappa = fmax(kappa, carried(w, ctx, c));
    if (slot && freeze)
        *slot = kappa;
    return kappa;
}

/* kappa_value = auto: the dynamic formula at the rest shape with g = g^/2 (g^ = dhat for
 * contacts, beta tau for strain limits), so that fixed and dynamic runs and both barriers
 * start from the same stiffness.  A contact's normal is not known before contact: the
 * mean of n^T H n over directions, trace(H)/3, stands for it.  Strain elements: the mean
 * over the limited elements of the measure in use. */
void cloth__newton_set_auto_kappa(cloth__newton *w, const cloth__newton_ctx *ctx)
{
    const cloth_mesh *m = ctx->mesh;
    const cloth__newton_def *nd = ctx->nd;
    double H[9], trace = 0;
    int free_vertices = 0;
    for (int i = 0; i < m->n; i++) {
        if (w->dof[i] < 0)
            continue;
        elastic_block(w, m, m->rest, &i, 1, H);
        trace += (H[0] + H[4] + H[8]) / 3;
        free_vertices++;
    }
    w->h = ctx->h;
    w->kappa_contact_auto = (free_vertices ? trace / free_vertices : 0) +
                            cloth__kappa_mass(nd->kappa_form, w->mean_mass, 0.5 * nd->dhat,
                                              nd->dhat, w->h, 1);
    double band = nd->strain_band * (nd->strain_limit > 0 ? nd->strain_limit : 1), sum = 0;
    int edges = nd->strain_measure == CLOTH__STRAIN_EDGE;
    int count = edges ? w->n_limited : w->n_limited_tris;
    for (int k = 0; k < count; k++) {
        int ab[2];
        const int *v = ab;
        double mass;
        if (edges) {
            ab[0] = m->springs[w->limited[k]].a;
            ab[1] = m->springs[w->limited[k]].b;
            mass = 0.5 * (m->mass[ab[0]] + m->mass[ab[1]]);
        } else {
            v = m->tris + 3 * w->limited_tris[k];
            mass = w->tri_mass[w->limited_tris[k]];
        }
        sum += element_kappa(w, ctx, m->rest, m->rest, v, edges ? 2 : 3, mass, 0.5 * band,
                             band);
    }
    w->kappa_strain_auto = count ? sum / count : 0;
}

/* IPC: the first kappa balances the barrier gradient against the rest of grad E, once
 * contacts exist; later iterations double it while the smallest gap stays tiny and
 * shrinks. */
void cloth__newton_update_ipc_kappa(cloth__newton *w, const cloth__newton_ctx *ctx,
                                    const double *grad, const double *grad_b)
{
    if (!w->ipc_set) {
        w->ipc_kappa = cloth__kappa_ipc_initial(grad, grad_b, w->ndof, w->ipc_min,
                                                w->ipc_max);
        w->ipc_set = 1;
    } else {
        w->ipc_kappa = cloth__kappa_ipc_update(w->ipc_kappa, w->ipc_max, w->ipc_prev_gap,
                                               w->eval.min_gap, 1e-9 * ctx->mesh->rest_diag);
    }
    w->ipc_prev_gap = w->eval.min_gap;
}
