/* newton: the line search — a filter that keeps every barrier's gap positive along the
 * Newton direction (the largest feasible step, after IPC's CCD), then Armijo
 * backtracking on E from there. */
#include "kernels/newton/newton_work.h"

#include "terms/contact.h"
#include "terms/strain_limit.h"

#include <math.h>
#include <string.h>

#define ARMIJO_C 1e-4
#define MAX_HALVINGS 60

/* Largest alpha that keeps every limited element (edge or triangle, by
 * newton.strain_measure) below its limit: its stretch stays at or below tau - eta g_s0. */
static double strain_alpha(const cloth__newton *w, const cloth_sim *sim, const double *x,
                           const double *dir)
{
    const cloth_newton_def *nd = &sim->scene.newton;
    const cloth_mesh *m = sim->mesh;
    double amax = INFINITY;
    if (nd->strain_measure == CLOTH_STRAIN_EDGE) {
        for (int k = 0; k < w->n_limited; k++) {
            const cloth_spring *sp = &m->springs[w->limited[k]];
            amax = fmin(amax, cloth__alpha_strain(x + 3 * sp->a, x + 3 * sp->b,
                                                  dir + 3 * sp->a, dir + 3 * sp->b, sp->rest,
                                                  nd->strain_limit, nd->eta));
        }
        return amax;
    }
    for (int k = 0; k < w->n_limited_tris; k++) {
        int t = w->limited_tris[k];
        double xt[9], dt[9];
        cloth__newton_gather(x, m->tris + 3 * t, 3, xt);
        cloth__newton_gather(dir, m->tris + 3 * t, 3, dt);
        amax = fmin(amax, cloth__strain_tri_alpha(xt, dt, w->tri_dm + 4 * t, nd->strain_limit,
                                                  nd->eta));
    }
    return amax;
}

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
    double eta = nd->eta, amax = INFINITY, dmax = 0;
    if (nd->barrier == CLOTH_BARRIER_NONE)
        return amax;
    for (int i = 0; i < w->n; i++) {
        if (w->dof[i] < 0)
            continue;
        const double *xi = x + 3 * i, *di = dir + 3 * i;
        dmax = fmax(dmax, sqrt(cloth__dot3(di, di)));
        if (s->sphere.enabled)
            amax = fmin(amax, cloth__alpha_sphere(xi, di, sim->sphere_c, s->sphere.radius,
                                                  s->sphere.offset, eta));
        if (s->floor.enabled)
            amax = fmin(amax, cloth__alpha_floor(xi, di, s->floor.height, s->floor.offset, eta));
    }
    if (nd->strain_limit > 0)
        amax = fmin(amax, strain_alpha(w, sim, x, dir));
    if (s->run.self_collision && dmax > 0) {
        const int *pairs;
        int overflow;
        double reach = fmax(nd->dhat, 2 * dmax / (1 - eta));
        int count = cloth__spatial_hash_query(w->hash, x, s->material.thickness + reach,
                                              cloth__newton_keep_pair, w, &pairs, &overflow);
        if (overflow) {
            w->pair_overflows++;
            count = cloth__spatial_hash_query(w->hash, x, s->material.thickness + nd->dhat,
                                              cloth__newton_keep_pair, w, &pairs, &overflow);
            amax = fmin(amax, (1 - eta) * nd->dhat / (2 * dmax));
        }
        for (int p = 0; p < count; p++) {
            int a = pairs[2 * p], b = pairs[2 * p + 1];
            amax = fmin(amax, cloth__alpha_pair(x + 3 * a, x + 3 * b, dir + 3 * a,
                                                dir + 3 * b, s->material.thickness, eta));
        }
    }
    return amax;
}

/* Accepts the first E(x + alpha d) <= E(x) + c alpha grad.d (c = 1e-4), halving
 * otherwise. */
double cloth__newton_line_search(cloth__newton *w, const cloth_sim *sim, double e0,
                                 double slope)
{
    double alpha = fmin(1.0, feasible_alpha(w, sim, w->x, w->dir));
    for (int k = 0; k < MAX_HALVINGS && alpha > 0; k++, alpha *= 0.5) {
        for (int i = 0; i < 3 * w->n; i++)
            w->x_trial[i] = w->x[i] + alpha * w->dir[i];
        double e = cloth__newton_potential(w, sim, w->x_trial, NULL, 0, 0);
        if (e <= e0 + ARMIJO_C * alpha * slope)
            return alpha;
    }
    memcpy(w->x_trial, w->x, sizeof(double) * 3 * (size_t)w->n);
    return 0;
}
