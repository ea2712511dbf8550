/* newton: the barrier stiffness kappa of each active term, by newton.kappa —
 *   fixed     one kappa (newton.kappa_value, or auto from the rest shape);
 *   ipc       one adaptive kappa for all contacts (Li et al. 2020, supplement);
 *   dynamic   a kappa per term from its mass and the elastic stiffness along its gap
 *             gradient (Ando 2024, eq. 4), frozen when the term appears for the rest of
 *             the step (or of the iteration, newton.kappa_update).
 * The formulas themselves are in terms/stiffness.c; this file picks and remembers them. */
#include "kernels/newton/newton_work.h"

#include "terms/contact.h"
#include "terms/spring.h"
#include "terms/stiffness.h"

#include <math.h>
#include <string.h>

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

static double dynamic_kappa(const cloth__newton *w, const cloth_sim *sim,
                            const cloth__contact *c, const double *x, double g)
{
    const cloth_mesh *m = sim->mesh;
    double H[36], dir[3];
    const double *xa = x + 3 * c->a;
    switch (c->kind) {
    case CLOTH__CONTACT_SPHERE:
    case CLOTH__CONTACT_FLOOR:
        if (c->kind == CLOTH__CONTACT_SPHERE)
            cloth__gap_sphere(xa, sim->sphere_c, sim->scene.sphere.radius,
                              sim->scene.sphere.offset, dir, NULL);
        else
            cloth__gap_plane(xa, sim->scene.floor.height, sim->scene.floor.offset, dir, NULL);
        elastic_block(w, m, x, c->a, -1, H);
        return cloth__kappa_vertex(m->mass[c->a], g, dir, H);
    case CLOTH__CONTACT_PAIR: {
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
        double u[3] = {grad[0], grad[1], grad[2]}, len = sqrt(cloth__dot3(u, u));
        for (int k = 0; k < 3; k++)
            u[k] /= len;
        elastic_block(w, m, x, c->a, c->b, H);
        return cloth__kappa_edge(m->mass[c->a], m->mass[c->b], g, u, H);
    }
    }
}

static cloth__pair_slot *pair_lookup(cloth__newton *w, int a, int b, int insert)
{
    long long key = (long long)a * w->n + b;
    unsigned slot = (unsigned)((unsigned long long)key * 0x9E3779B97F4A7C15ull >> 32) & w->pair_mask;
    for (unsigned probe = 0; probe <= w->pair_mask; probe++) {
        cloth__pair_slot *p = &w->pair_kappa[(slot + probe) & w->pair_mask];
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

void cloth__newton_clear_kappa(cloth__newton *w, const cloth_mesh *m)
{
    for (int i = 0; i < w->n; i++)
        w->kappa_sphere[i] = w->kappa_floor[i] = NAN;
    for (int s = 0; s < m->n_springs; s++)
        w->kappa_edge[s] = NAN;
    for (int k = 0; k < w->n_pair_used; k++)
        w->pair_kappa[w->pair_used[k]].key = -1;
    w->n_pair_used = 0;
}

double cloth__newton_kappa_of(cloth__newton *w, const cloth_sim *sim, const cloth__contact *c,
                              const double *x, double g, int freeze)
{
    const cloth_newton_def *nd = &sim->scene.newton;
    int strain = c->kind == CLOTH__CONTACT_STRAIN;
    if (nd->kappa == CLOTH_KAPPA_FIXED || (nd->kappa == CLOTH_KAPPA_IPC && strain)) {
        if (nd->kappa_value >= 0)
            return nd->kappa_value;
        return strain ? w->kappa_strain_auto : w->kappa_contact_auto;
    }
    if (nd->kappa == CLOTH_KAPPA_IPC)
        return w->ipc_kappa;
    double *slot = NULL;
    cloth__pair_slot *ps;
    switch (c->kind) {
    case CLOTH__CONTACT_SPHERE: slot = &w->kappa_sphere[c->a]; break;
    case CLOTH__CONTACT_FLOOR: slot = &w->kappa_floor[c->a]; break;
    case CLOTH__CONTACT_STRAIN: slot = &w->kappa_edge[c->spring]; break;
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
void cloth__newton_set_auto_kappa(cloth__newton *w, const cloth_sim *sim)
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
        double l = sqrt(cloth__dot3(u, u));
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

/* IPC: the first kappa balances the barrier gradient against the rest of grad E, once
 * contacts exist; later iterations double it while the smallest gap stays tiny and
 * shrinks. */
void cloth__newton_update_ipc_kappa(cloth__newton *w, const cloth_sim *sim, const double *x,
                                    const double *grad)
{
    if (!w->ipc_set) {
        memset(w->grad_b, 0, sizeof(double) * (size_t)w->ndof);
        for (int k = 0; k < w->n_contacts; k++)
            if (w->contacts[k].kind != CLOTH__CONTACT_STRAIN)
                cloth__newton_barrier_term(w, sim, &w->contacts[k], x, 1.0, w->grad_b, NULL, 0);
        w->ipc_kappa = cloth__kappa_ipc_initial(grad, w->grad_b, w->ndof, w->ipc_min,
                                                w->ipc_max);
        w->ipc_set = 1;
    } else {
        w->ipc_kappa = cloth__kappa_ipc_update(w->ipc_kappa, w->ipc_max, w->ipc_prev_gap,
                                               w->eval.min_gap, 1e-9 * sim->mesh->rest_diag);
    }
    w->ipc_prev_gap = w->eval.min_gap;
}
