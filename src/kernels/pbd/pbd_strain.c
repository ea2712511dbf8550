/* pbd's strain limit (pbd.strain_limit = tau > 0): the unilateral constraints projected
 * in every pass and the check after them; what and why in pbd.c's header ("Strain
 * limit"), after Mueller et al. 2007 section 3.2, Macklin et al. 2016 and Mueller,
 * Chentanez, Kim and Macklin 2014 ("Strain Based Dynamics"). */
#include "kernels/pbd/pbd_work.h"
#include "terms/strain_limit.h"

#include <math.h>
#include <string.h>

/* The multiplier's step of a unilateral constraint C <= 0 with compliance 0, given C and
 * sum_i w_i |grad_i C|^2: XPBD keeps lambda <= 0 (lambda + dlambda clamped), PBD
 * projects fully when violated. */
static double unilateral_step(int xpbd, double C, double wsum, double *lambda)
{
    if (!xpbd)
        return C > 0 ? -C / wsum : 0;
    double next = fmin(*lambda - C / wsum, 0), dl = next - *lambda;
    *lambda = next;
    return dl;
}

/* strain_measure = edge: C = l - (1 + tau) l0 <= 0 on the structural and shear springs. */
void cloth__pbd_project_strain_edges(const cloth_sim *sim, const cloth__pbd_strain_def *sd,
                                     cloth__pbd *w)
{
    const cloth_mesh *m = sim->mesh;
    const double *wi = m->inv_mass;
    int xpbd = sd->xpbd;
    double factor = 1 + sd->tau;
    for (int s = 0; s < w->n_stretch; s++) {
        const cloth_spring *sp = &m->springs[s];
        double wsum = wi[sp->a] + wi[sp->b];
        if (wsum == 0)
            continue;
        double *pa = w->p + 3 * sp->a, *pb = w->p + 3 * sp->b;
        double d[3] = {pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]};
        double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (l == 0)
            continue;
        double dl = unilateral_step(xpbd, l - factor * sp->rest, wsum, &w->lambda_limit[s]);
        for (int k = 0; k < 3 && dl != 0; k++) {
            double along = d[k] / l * dl; /* grad_a C dlambda = -grad_b C dlambda */
            pa[k] += wi[sp->a] * along;
            pb[k] -= wi[sp->b] * along;
        }
    }
}

/* pbd.order = coloured: the same projection of the stretch items [lo, hi) of w->col on
 * w->p4 (stride 4).  The items of one colour share no vertex, so the threads and the
 * order within the run do not matter; the arithmetic is the sequential loop's. */
void cloth__pbd_project_strain_edges_range(const cloth__pbd_strain_def *sd, cloth__pbd *w,
                                           int lo, int hi)
{
    const cloth__coloured *c = w->col;
    int xpbd = sd->xpbd;
    double factor = 1 + sd->tau, *p = w->p4;
    for (int j = lo; j < hi; j++) {
        if (c->spring[j] >= w->n_stretch)
            continue; /* a bend spring: not limited */
        int a = c->ia[j], b = c->ib[j];
        double wsum = c->wa[j] + c->wb[j]; /* > 0: the coloured items can move */
        double d[3] = {p[a] - p[b], p[a + 1] - p[b + 1], p[a + 2] - p[b + 2]};
        double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (l == 0)
            continue;
        double dl = unilateral_step(xpbd, l - factor * c->rest[j], wsum, &w->lambda_limit[j]);
        for (int k = 0; k < 3 && dl != 0; k++) {
            double along = d[k] / l * dl;
            p[a + k] += c->wa[j] * along;
            p[b + k] -= c->wb[j] * along;
        }
    }
}

/* Triangle q of w->tri on the positions pos (`stride` doubles a vertex): C = sigma1 -
 * (1 + tau) <= 0 (Strain Based Dynamics' limit on the principal stretch). */
static void project_triangle(const double *wi, const cloth__pbd_strain_def *sd, cloth__pbd *w,
                             int q, double *pos, int stride)
{
    int xpbd = sd->xpbd;
    double limit = 1 + sd->tau;
    const int *id = w->tri.v + 3 * q;
    double X[9], sigma[2], grad[18];
    for (int c = 0; c < 3; c++)
        memcpy(X + 3 * c, pos + stride * id[c], 3 * sizeof(double));
    cloth__strain_sigma(X, w->tri.Dm_inv + 4 * q, sigma, grad, NULL, 0);
    double C = sigma[0] - limit;
    if (C <= 0 && (!xpbd || w->lambda_limit[q] == 0))
        return; /* slack and pushing nothing: no step */
    double wsum = 0;
    for (int c = 0; c < 3; c++) {
        const double *g = grad + 3 * c;
        wsum += wi[id[c]] * (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    }
    if (!(wsum > 0))
        return;
    double dl = unilateral_step(xpbd, C, wsum, &w->lambda_limit[q]);
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 3; k++)
            pos[stride * id[c] + k] += wi[id[c]] * grad[3 * c + k] * dl;
}

/* strain_measure = triangle: every limited triangle in the mesh's order. */
void cloth__pbd_project_strain_triangles(const cloth_sim *sim, const cloth__pbd_strain_def *sd,
                                         cloth__pbd *w)
{
    for (int q = 0; q < w->tri.n; q++)
        project_triangle(sim->mesh->inv_mass, sd, w, q, w->p, 3);
}

/* pbd.order = coloured: triangles [lo, hi) of w->tri_colours' order (one colour: no
 * shared vertex) on w->p4. */
void cloth__pbd_project_strain_triangles_range(const cloth_sim *sim,
                                               const cloth__pbd_strain_def *sd,
                                               cloth__pbd *w, int lo, int hi)
{
    for (int j = lo; j < hi; j++)
        project_triangle(sim->mesh->inv_mass, sd, w, w->tri_colours.order[j], w->p4, 4);
}

/* 1 when a limit exceeds by more than the tolerance at the positions pos: a stretch spring
 * longer than (1 + tau) l0 (1 + tol), or a triangle with sigma1 > (1 + tau)(1 + tol). */
int cloth__pbd_strain_violated(const cloth_sim *sim, const cloth__pbd_strain_def *sd,
                               const cloth__pbd *w, const double *pos)
{
    double factor = 1 + sd->tau;
    if (sd->triangles)
        return cloth__tri_limits_sigma_max(&w->tri, pos) > factor * (1 + sd->tol);
    for (int s = 0; s < w->n_stretch; s++) {
        const cloth_spring *sp = &sim->mesh->springs[s];
        const double *a = pos + 3 * sp->a, *b = pos + 3 * sp->b;
        double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        if (sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) > factor * sp->rest * (1 + sd->tol))
            return 1;
    }
    return 0;
}
