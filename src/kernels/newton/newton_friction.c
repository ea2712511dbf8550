/* newton: friction, IPC's lagged form (Li et al. 2020, section 5; the term is
 * terms/friction.c).  At the start of a step every active contact at x_n — a vertex on
 * the sphere or the floor, a point-triangle or edge-edge pair (newton.contact = full) —
 * records its stencil: closest-point coefficients and tangent basis at x_n, and its
 * normal force lambda = -kappa m psi'(g) at x_n (m the edge-edge mollifier, 1 else).
 * During the step E gains, per recorded contact,
 *
 *   D(x) = mu lambda f0(|u|),   u = T^T (sum_i c_i (x_i - x_n,i) - s),
 *
 * mu = newton.friction, f0 smoothed with eps = newton.friction_eps h, s the surface's
 * displacement over the step for the sphere (h v_s(x_n): its motion and sphere.spin),
 * 0 for the floor and between cloth.  D is convex in x with the stencils lagged, so its
 * Hessian is PSD and enters H as it is.  Vertex-vertex contacts (newton.contact =
 * vertex) and strain limits have no friction.  The stencils change only between steps;
 * Newton converges to the lagged problem's solution (IPC iterates the lagging to a fixed
 * point; here it is once per step, as in IPC's default and ZOZO's semi-implicit form). */
#include "kernels/newton/newton_work.h"

#include "terms/barrier.h"
#include "terms/contact.h"
#include "terms/friction.h"
#include "terms/obstacle.h"

#include <math.h>
#include <string.h>

/* The lagged stencil of one active term at x_n, or 0 when it has no friction. */
static int lag_one(cloth__newton *w, const cloth__newton_ctx *ctx, const cloth__contact *c,
                   cloth__newton_friction *f)
{
    const double *x = w->x_n;
    double m = 1, d1;
    if (!(c->kind == CLOTH__CONTACT_SPHERE || c->kind == CLOTH__CONTACT_FLOOR ||
          cloth__newton_is_stencil(c->kind)))
        return 0;
    double g = cloth__newton_contact_gap(w, ctx, c, x, NULL, NULL);
    if (c->kind == CLOTH__CONTACT_EE)
        cloth__newton_stencil_gap(w, ctx, c, x, NULL, NULL, &m, NULL, NULL);
    cloth__barrier(ctx->nd->barrier, g, ctx->nd->dhat, &d1, NULL);
    double lambda = -cloth__newton_kappa_of(w, ctx, c, x, g, 0) * m * d1;
    if (!(lambda > 0) || !isfinite(lambda))
        return 0;
    memset(f->surface, 0, sizeof f->surface);
    if (cloth__newton_is_stencil(c->kind)) {
        cloth__newton_stencil(w, ctx, c, f->v);
        const double *p[4] = {x + 3 * f->v[0], x + 3 * f->v[1], x + 3 * f->v[2],
                              x + 3 * f->v[3]};
        f->st = c->kind == CLOTH__CONTACT_PT
                    ? cloth__friction_point_triangle(p[0], p[1], p[2], p[3], lambda)
                    : cloth__friction_edge_edge(p[0], p[1], p[2], p[3], lambda);
        return 1;
    }
    double normal[3] = {0, 1, 0};
    const double *xa = x + 3 * c->a;
    f->v[0] = c->a;
    if (c->kind == CLOTH__CONTACT_SPHERE) {
        double vs[3];
        for (int k = 0; k < 3; k++)
            normal[k] = xa[k] - w->sphere_c[k];
        cloth__sphere_surface_velocity(&ctx->sphere, ctx->t, xa, vs);
        for (int k = 0; k < 3; k++)
            f->surface[k] = w->h * vs[k];
    }
    f->st = cloth__friction_obstacle(normal, lambda);
    return 1;
}

void cloth__newton_friction_lag(cloth__newton *w, const cloth__newton_ctx *ctx)
{
    w->n_friction = 0;
    if (!(ctx->nd->friction > 0) || ctx->nd->barrier == CLOTH__BARRIER_NONE)
        return;
    cloth__newton_collect_contacts(w, ctx, w->x_n);
    for (int k = 0; k < w->n_contacts && w->n_friction < w->contact_cap; k++)
        w->n_friction += lag_one(w, ctx, &w->contacts[k], &w->friction[w->n_friction]);
}

double cloth__newton_friction_term(cloth__newton *w, const cloth__newton_ctx *ctx,
                                   const double *x, double *grad, cloth__sparse *H)
{
    const cloth__newton_def *nd = ctx->nd;
    double e = 0, eps = nd->friction_eps * w->h;
    for (int k = 0; k < w->n_friction; k++) {
        const cloth__newton_friction *f = &w->friction[k];
        int nv = f->st.n_verts;
        double xs[12], xn[12], g[12], B[144];
        cloth__newton_gather(x, f->v, nv, xs);
        cloth__newton_gather(w->x_n, f->v, nv, xn);
        e += cloth__friction_energy(&f->st, nd->friction, eps, xs, xn, f->surface,
                                    grad ? g : NULL, H ? B : NULL, CLOTH__FRICTION_PSD);
        for (int i = 0; i < nv; i++) {
            if (grad)
                cloth__newton_add_grad(w, grad, f->v[i], g + 3 * i, 1);
            for (int j = 0; H && j < nv; j++)
                cloth__newton_add_block(w, H, f->v[i], f->v[j], B + 3 * nv * 3 * i + 3 * j,
                                        3 * nv, 1);
        }
    }
    return e;
}
