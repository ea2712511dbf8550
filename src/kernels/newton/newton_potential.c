/* newton: the incremental potential E of one step (the maths is at the top of newton.c)
 * — its set-up from the state at step start, and its value, gradient and Newton matrix
 * at any x, term by term: inertia with air damping and wind, springs with spring
 * damping, barriers. */
#include "kernels/newton/newton_potential.h"
#include "kernels/newton/newton_work.h"

#include "linalg/dense.h"
#include "terms/barrier.h"
#include "terms/forces.h"
#include "terms/inertia.h"
#include "terms/spring.h"
#include "terms/stiffness.h"
#include "terms/strain_limit.h"

#include <math.h>
#include <string.h>

/* BDF2 (h' = 2h/3):  x_hat = 4/3 x_n - 1/3 x_{n-1},
 *   x~ = x_hat + h' (4/3 v_n - 1/3 v_{n-1}) + h'^2 g  (top of newton.c). */
static void predict_bdf2(cloth__newton *w, const cloth__newton_ctx *ctx, double h)
{
    const cloth_mesh *m = ctx->mesh;
    const double *g = ctx->gravity;
    double hp = 2 * h / 3;
    w->h_in = w->h_damp = hp;
    for (int i = 0; i < m->n; i++)
        for (int c = 0; c < 3; c++) {
            int k = 3 * i + c;
            if (m->pinned[i]) {
                w->x_tilde[k] = ctx->x[k];
                continue;
            }
            w->x_hat[k] = (4 * ctx->x[k] - w->x_prev[k]) / 3;
            w->x_tilde[k] =
                w->x_hat[k] + hp * (4 * ctx->v[k] - w->v_prev[k]) / 3 + hp * hp * g[c];
        }
}

/* Implicit midpoint, minimised as 2E (top of newton.c): h_in = h/sqrt 2,
 *   x~ = x_n + h v_n + h^2/2 g = x_n + h v_n + h_in^2 g. */
static void predict_midpoint(cloth__newton *w, const cloth__newton_ctx *ctx, double h)
{
    const cloth_mesh *m = ctx->mesh;
    const double *g = ctx->gravity;
    w->h_in = h / sqrt(2.0);
    for (int i = 0; i < m->n; i++)
        for (int c = 0; c < 3; c++) {
            int k = 3 * i + c;
            w->x_tilde[k] =
                m->pinned[i] ? ctx->x[k] : ctx->x[k] + h * ctx->v[k] + 0.5 * h * h * g[c];
        }
}

void cloth__newton_prepare_step(cloth__newton *w, const cloth__newton_ctx *ctx)
{
    const cloth_mesh *m = ctx->mesh;
    double h = ctx->h;
    size_t bytes = sizeof(double) * 3 * (size_t)m->n;
    cloth__newton_integrator integrator = ctx->nd->integrator;
    w->h = h;
    w->cand_valid = 0; /* a new step: no line search yet */
    cloth__newton_begin_obstacles(w);
    cloth__newton_body_begin(w, ctx);
    memcpy(w->x_n, ctx->x, bytes);
    memcpy(w->v_n, ctx->v, bytes);
    memcpy(w->x_hat, ctx->x, bytes);
    w->bdf2 = integrator == CLOTH__INTEGRATOR_BDF2 && w->history;
    w->h_in = w->h_damp = h;
    if (w->bdf2)
        predict_bdf2(w, ctx, h);
    else if (integrator == CLOTH__INTEGRATOR_MIDPOINT)
        predict_midpoint(w, ctx, h);
    else /* euler, and bdf2's first step */
        cloth__inertia_predict(m->n, ctx->x, ctx->v, ctx->gravity, h, m->pinned,
                               w->x_tilde);
    memset(w->f_ext, 0, bytes);
    cloth__add_wind(ctx->env, ctx->x, ctx->v, ctx->t, w->f_ext);
    for (int s = 0; s < m->n_springs; s++) {
        const double *xa = ctx->x + 3 * m->springs[s].a, *xb = ctx->x + 3 * m->springs[s].b;
        double d[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
        double l = sqrt(cloth__dot3(d, d));
        for (int c = 0; c < 3; c++)
            w->u_n[3 * s + c] = l > 0 ? d[c] / l : 0;
    }
    cloth__kappa_ipc_bounds(ctx->nd->barrier, ctx->nd->dhat, m->rest_diag,
                            w->mean_mass, h, &w->ipc_min, &w->ipc_max);
    if (ctx->nd->kappa_update == CLOTH__KAPPA_MONOTONE)
        cloth__newton_carry_kappa(w, m);
    else
        cloth__newton_clear_kappa(w, m);
    if (!w->ipc_set) /* line-search points may touch before IPC's first kappa is set */
        w->ipc_kappa = w->ipc_min;
    cloth__newton_friction_lag(w, ctx);
}

/* ------------------------------------------------------------- assembly */


/* A two-vertex 6x6 Hessian (row-major) into H. */
static void add_pair_blocks(const cloth__newton *w, cloth__sparse *H, int a, int b,
                            const double *K6, double s)
{
    cloth__newton_add_block(w, H, a, a, K6, 6, s);
    cloth__newton_add_block(w, H, a, b, K6 + 3, 6, s);
    cloth__newton_add_block(w, H, b, a, K6 + 18, 6, s);
    cloth__newton_add_block(w, H, b, b, K6 + 21, 6, s);
}

/* w->spring_blk <- each spring's blocks in H's current pattern (the mesh's blocks are
 * always in it), found again only when the pattern changed: assembly then adds a
 * spring's eight 3 x 3 blocks without eight binary searches (issue 34: the searches
 * were a quarter of the 30 x 24 hanging scene's assembly). */
static void find_spring_blocks(cloth__newton *w, const cloth_mesh *m, const cloth__sparse *H)
{
    if (w->spring_blk_ok && w->spring_blk_id == H->pattern_id)
        return;
    for (int s = 0; s < m->n_springs; s++) {
        int da = w->dof[m->springs[s].a], db = w->dof[m->springs[s].b];
        int *k = w->spring_blk + 3 * s;
        k[0] = da >= 0 ? cloth__sparse_block_index(H, da / 3, da / 3) : -1;
        k[1] = db >= 0 ? cloth__sparse_block_index(H, db / 3, db / 3) : -1;
        k[2] = da >= 0 && db >= 0 ? cloth__sparse_block_index(H, (da < db ? da : db) / 3,
                                                              (da < db ? db : da) / 3)
                                  : -1;
    }
    w->spring_blk_id = H->pattern_id;
    w->spring_blk_ok = 1;
}

/* The spring's 6 x 6 Hessian K6 times wh, then its damping block uu ([[uu, -uu], [-uu,
 * uu]]), into H: what add_pair_blocks(K6, wh) and four cloth__newton_add_block calls of
 * uu did, the same additions in the same order (bitwise), at the blocks' known
 * indices. */
static void add_spring_blocks(const cloth__newton *w, cloth__sparse *H, int s,
                              const cloth_spring *sp, const double *K6, double wh,
                              const double *uu)
{
    const int *k = w->spring_blk + 3 * s;
    int ba = w->dof[sp->a] / 3, bb = w->dof[sp->b] / 3, lo = ba < bb ? ba : bb,
        hi = ba < bb ? bb : ba;
    /* the upper off-diagonal block: rows of the lower-numbered end */
    const double *K_off = ba < bb ? K6 + 3 : K6 + 18;
    if (k[0] >= 0)
        cloth__sparse_add_block_at(H, k[0], ba, ba, K6, 6, wh);
    if (k[2] >= 0)
        cloth__sparse_add_block_at(H, k[2], lo, hi, K_off, 6, wh);
    if (k[1] >= 0)
        cloth__sparse_add_block_at(H, k[1], bb, bb, K6 + 21, 6, wh);
    if (k[0] >= 0)
        cloth__sparse_add_block_at(H, k[0], ba, ba, uu, 3, 1);
    if (k[1] >= 0)
        cloth__sparse_add_block_at(H, k[1], bb, bb, uu, 3, 1);
    if (k[2] >= 0)
        cloth__sparse_add_block_at(H, k[2], lo, hi, uu, 3, -1);
}

/* ---------------------------------------------------------------- terms */

/* 1/(2h_in^2) |x - x~|^2_M + c/(2h_d) |x - x_hat|^2 - f_wind . x  (h_in = h_d = h and
 * x_hat = x_n for euler) */
static double inertia_and_damping(cloth__newton *w, const cloth__newton_ctx *ctx,
                                  const double *x, double *grad, cloth__sparse *H)
{
    const cloth_mesh *m = ctx->mesh;
    double h = w->h_in, hd = w->h_damp, c_air = ctx->air_damping;
    double e = cloth__inertia_energy(m->n, x, w->x_tilde, m->mass, m->pinned, h);
    for (int i = 0; i < m->n; i++) {
        int d = w->dof[i];
        if (d < 0)
            continue;
        double dx[3], s = 0;
        for (int c = 0; c < 3; c++) {
            dx[c] = x[3 * i + c] - w->x_hat[3 * i + c];
            s += dx[c] * dx[c];
        }
        e += 0.5 * c_air / hd * s - cloth__dot3(w->f_ext + 3 * i, x + 3 * i);
        if (grad)
            for (int c = 0; c < 3; c++)
                grad[d + c] += m->mass[i] / (h * h) * (x[3 * i + c] - w->x_tilde[3 * i + c]) +
                               c_air / hd * dx[c] - w->f_ext[3 * i + c];
        if (H)
            for (int c = 0; c < 3; c++)
                cloth__sparse_add_diag(H, d + c, m->mass[i] / (h * h) + c_air / hd);
    }
    return e;
}

/* sum 1/2 k (l - l0)^2 + c_d/(2h_d) (u_n . (dx_b - dx_a))^2, dx = x - x_hat; midpoint:
 * the springs as 2 Psi(y), y = (x + x_n)/2, so grad = grad Psi(y) and H = 1/2 Hess Psi(y)
 * (dy/dx = I/2; the 2 is the scaling of E at the top of newton.c).  A compressed
 * spring's Hessian has the negative part k (1 - l0/l)(I - u u^T) across it: projected
 * to 0 (SPEC 4.4) unless `exact`, or w->spring_exact (newton.spring_hessian = adaptive,
 * newton.c), which keeps it and leaves it to the factorisation to say whether the
 * whole H is still positive definite.  Then it also bounds what the projection would
 * add, N = sum over compressed springs of [[B, -B], [-B, B]], B = wh k (l0/l - 1)(I -
 * u u^T), |B|_2 = wh k (l0/l - 1): by the block Gershgorin theorem (Feingold and Varga
 * 1962; symmetric blocks) lambda_max(N) <= max over vertices of the sum of 2 |B| over
 * their springs, w->spring_shift, the scale of the shifts newton_system.c tries. */
static double springs_and_damping(cloth__newton *w, const cloth__newton_ctx *ctx,
                                  const double *x, double *grad, cloth__sparse *H,
                                  int exact)
{
    const cloth_mesh *m = ctx->mesh;
    double cd = ctx->spring_damping / w->h_damp, e = 0;
    int mid = ctx->nd->integrator == CLOTH__INTEGRATOR_MIDPOINT;
    double we = mid ? 2 : 1, wh = mid ? 0.5 : 1; /* weights of Psi and of its Hessian */
    const double *q = x;
    int shift = H && w->spring_exact && !exact;
    if (H)
        w->h_springs_exact = exact || w->spring_exact;
    if (shift)
        for (int i = 0; i < m->n; i++)
            w->spring_neg[i] = 0;
    if (H)
        find_spring_blocks(w, m, H);
    if (mid) {
        for (int k = 0; k < 3 * m->n; k++)
            w->y[k] = 0.5 * (x[k] + w->x_n[k]);
        q = w->y;
    }
    for (int s = 0; s < m->n_springs; s++) {
        const cloth_spring *sp = &m->springs[s];
        const double *xa = x + 3 * sp->a, *xb = x + 3 * sp->b, *u = w->u_n + 3 * s;
        const double *qa = q + 3 * sp->a, *qb = q + 3 * sp->b;
        e += we * cloth__spring_energy(qa, qb, sp->k, sp->rest);
        /* r = u_n . ((x_b - x^_b) - (x_a - x^_a)): the relative normal displacement */
        double r = 0;
        for (int c = 0; c < 3; c++)
            r += u[c] * ((xb[c] - w->x_hat[3 * sp->b + c]) - (xa[c] - w->x_hat[3 * sp->a + c]));
        e += 0.5 * cd * r * r;
        if (grad) {
            double g6[6];
            cloth__spring_gradient(qa, qb, sp->k, sp->rest, g6);
            cloth__newton_add_grad(w, grad, sp->a, g6, 1);
            cloth__newton_add_grad(w, grad, sp->b, g6 + 3, 1);
            cloth__newton_add_grad(w, grad, sp->a, u, -cd * r);
            cloth__newton_add_grad(w, grad, sp->b, u, cd * r);
        }
        if (H) {
            double K6[36], uu[9];
            cloth__spring_hessian(qa, qb, sp->k, sp->rest, !exact && !w->spring_exact, K6);
            if (shift) {
                double d[3] = {qb[0] - qa[0], qb[1] - qa[1], qb[2] - qa[2]};
                double l = sqrt(cloth__dot3(d, d));
                double neg = l > 0 && l < sp->rest ? 2 * wh * sp->k * (sp->rest / l - 1) : 0;
                w->spring_neg[sp->a] += neg;
                w->spring_neg[sp->b] += neg;
            }
            for (int r2 = 0; r2 < 3; r2++)
                for (int c = 0; c < 3; c++)
                    uu[3 * r2 + c] = cd * u[r2] * u[c];
            add_spring_blocks(w, H, s, sp, K6, wh, uu);
        }
    }
    if (shift) {
        w->spring_shift = 0;
        for (int i = 0; i < m->n; i++)
            w->spring_shift = fmax(w->spring_shift, w->spring_neg[i]);
    }
    return e;
}

/* A strain-limit term in its band (terms/strain_limit.c): kappa psi(tau - a; beta tau)
 * of an edge or of both singular values of a triangle, with its full Hessian, which is
 * PSD as it is (SPEC 4.4). */
static double strain_term(cloth__newton *w, const cloth__newton_ctx *ctx,
                          const cloth__contact *c, const double *x, double kappa,
                          double *grad, cloth__sparse *H)
{
    const cloth__newton_def *nd = ctx->nd;
    cloth__strain_band band = {nd->barrier, nd->strain_limit, nd->strain_band, kappa};
    double g[9], B[81];
    if (c->kind == CLOTH__CONTACT_STRAIN) {
        double e = cloth__strain_edge_energy(&band, x + 3 * c->a, x + 3 * c->b,
                                             ctx->mesh->springs[c->elem].rest,
                                             grad ? g : NULL, H ? B : NULL);
        if (grad) {
            cloth__newton_add_grad(w, grad, c->a, g, 1);
            cloth__newton_add_grad(w, grad, c->b, g + 3, 1);
        }
        if (H)
            add_pair_blocks(w, H, c->a, c->b, B, 1);
        return e;
    }
    const int *v = ctx->mesh->tris + 3 * c->elem;
    double xt[9];
    cloth__newton_gather(x, v, 3, xt);
    double e = cloth__strain_tri_energy(&band, xt, w->tri_dm + 4 * c->elem, grad ? g : NULL,
                                        H ? B : NULL);
    for (int i = 0; i < 3; i++) {
        if (grad)
            cloth__newton_add_grad(w, grad, v[i], g + 3 * i, 1);
        for (int j = 0; H && j < 3; j++)
            cloth__newton_add_block(w, H, v[i], v[j], B + 27 * i + 3 * j, 9, 1);
    }
    return e;
}

/* A point-triangle or edge-edge term: kappa m psi(g) with m IPC's edge-edge mollifier (1
 * for point-triangle terms), so by the product rule
 *   grad = kappa (m psi' dg + psi dm)
 *   hess = kappa (m (psi'' dg dg^T + psi' d2g) + psi' (dg dm^T + dm dg^T) + psi d2m),
 * which is indefinite in general (psi' < 0, and d2g of a distance is not PSD).  The Newton
 * matrix takes it projected on the PSD matrices (newton.contact_hessian = project: each
 * 12 x 12 block's eigenvalues clamped at 0, as IPC) or only kappa m psi'' dg dg^T
 * (gauss-newton, PSD since m >= 0 and psi'' >= 0); exact keeps it as it is, as does
 * newton.contact_hessian = exact (issue 45: the cubic-barrier article's claim that the
 * indefinite part freezes Armijo, docs/kernels/newton.md). */
static double stencil_term(cloth__newton *w, const cloth__newton_ctx *ctx,
                           const cloth__contact *c, const double *x, double kappa,
                           double *grad, cloth__sparse *H, int exact, double g)
{
    const cloth__newton_def *nd = ctx->nd;
    int ee = c->kind == CLOTH__CONTACT_EE, v[4], derivs = grad || H;
    double dg[12], d2g[144], m = 1, dm[12] = {0}, d2m[144] = {0}, d1, d2;
    cloth__newton_stencil(w, ctx, c, v);
    if (derivs) /* the same g, with its derivatives */
        g = cloth__newton_stencil_gap(w, ctx, c, x, dg, H ? d2g : NULL, ee ? &m : NULL,
                                      ee ? dm : NULL, ee && H ? d2m : NULL);
    else if (ee)
        m = cloth__newton_stencil_mollifier(ctx, v, x, NULL, NULL);
    double psi = cloth__barrier(nd->barrier, g, nd->dhat, &d1, &d2);
    for (int i = 0; grad && i < 4; i++) {
        double g3[3];
        for (int k = 0; k < 3; k++)
            g3[k] = kappa * (m * d1 * dg[3 * i + k] + psi * dm[3 * i + k]);
        cloth__newton_add_grad(w, grad, v[i], g3, 1);
    }
    if (!H)
        return kappa * m * psi;
    double B[144];
    int gauss_newton = !exact && nd->contact_hessian == CLOTH__CONTACT_HESSIAN_GAUSS_NEWTON;
    for (int r = 0; r < 12; r++)
        for (int q = 0; q < 12; q++) {
            double b = m * d2 * dg[r] * dg[q];
            if (!gauss_newton)
                b += m * d1 * d2g[12 * r + q] + d1 * (dg[r] * dm[q] + dm[r] * dg[q]) +
                     psi * d2m[12 * r + q];
            B[12 * r + q] = kappa * b;
        }
    if (!exact && !gauss_newton)
        (void)cloth__linalg_project_psd(12, B); /* a NaN block becomes 0 */
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            cloth__newton_add_block(w, H, v[i], v[j], B + 36 * i + 3 * j, 12, 1);
    return kappa * m * psi;
}

/* kappa psi(g), and (when asked) kappa psi' dg into grad and kappa (psi'' dg dg^T + psi'
 * d2g) into H.  For contacts the psi' d2g part is negative (psi' < 0, d2g transverse and
 * positive) and dropped unless exact or newton.contact_hessian = exact (the
 * cubic-barrier article's pitfall; the body's distance has no d2g here, so exact is
 * its Gauss-Newton term); strain limits keep their full Hessian (strain_term).  g: the
 * term's gap at x, which a point-triangle or edge-edge term without derivatives takes
 * as it is (the others compute it again with theirs). */
static double barrier_term(cloth__newton *w, const cloth__newton_ctx *ctx,
                           const cloth__contact *c, const double *x, double kappa,
                           double *grad, cloth__sparse *H, int exact, double g_at_x)
{
    const cloth__newton_def *nd = ctx->nd;
    exact = exact || nd->contact_hessian == CLOTH__CONTACT_HESSIAN_EXACT;
    if (cloth__newton_is_strain(c->kind))
        return strain_term(w, ctx, c, x, kappa, grad, H);
    if (cloth__newton_is_stencil(c->kind))
        return stencil_term(w, ctx, c, x, kappa, grad, H, exact, g_at_x);
    double dg[6], d2g[36], d1, d2;
    int two = c->kind == CLOTH__CONTACT_PAIR;
    double g = cloth__newton_contact_gap(w, ctx, c, x, dg, H ? d2g : NULL);
    double psi = cloth__barrier(nd->barrier, g, nd->dhat, &d1, &d2);
    if (grad) {
        cloth__newton_add_grad(w, grad, c->a, dg, kappa * d1);
        if (two)
            cloth__newton_add_grad(w, grad, c->b, dg + 3, kappa * d1);
    }
    if (H) {
        int dim = two ? 6 : 3;
        double B[36];
        for (int r = 0; r < dim; r++)
            for (int q = 0; q < dim; q++)
                B[dim * r + q] = kappa * (d2 * dg[r] * dg[q] + (exact ? d1 * d2g[dim * r + q] : 0));
        if (two)
            add_pair_blocks(w, H, c->a, c->b, B, 1);
        else
            cloth__newton_add_block(w, H, c->a, c->a, B, 3, 1);
    }
    return kappa * psi;
}

/* ------------------------------------------------------------ the whole */

/* w->grad_b <- the gradient at x of the contact barriers (not the strain limits) at
 * kappa = 1, which IPC's first kappa balances against the rest of grad E. */
static const double *contact_barrier_gradient(cloth__newton *w,
                                              const cloth__newton_ctx *ctx, const double *x)
{
    memset(w->grad_b, 0, sizeof(double) * (size_t)w->ndof);
    for (int k = 0; k < w->n_contacts; k++)
        if (!cloth__newton_is_strain(w->contacts[k].kind))
            barrier_term(w, ctx, &w->contacts[k], x, 1.0, w->grad_b, NULL, 0,
                         w->contact_gap[k]);
    return w->grad_b;
}

double cloth__newton_energy(cloth__newton *w, const cloth__newton_ctx *ctx, const double *x,
                            double *grad, int want_hess, int exact)
{
    const cloth__newton_def *nd = ctx->nd;
    cloth__newton_seen *seen = &w->eval;
    int at_iterate = grad != NULL;
    cloth__sparse *hess = want_hess ? w->H : NULL;
    cloth__newton_collect_contacts(w, ctx, x);
    if (grad)
        memset(grad, 0, sizeof(double) * (size_t)w->ndof);
    if (hess) {
        cloth__newton_system_pattern(w, ctx); /* the active contacts' pairs are blocks */
        cloth__sparse_zero(hess);
    }
    double e = inertia_and_damping(w, ctx, x, grad, hess);
    e += springs_and_damping(w, ctx, x, grad, hess, exact);
    e += cloth__newton_friction_term(w, ctx, x, grad, hess);

    /* every term's gap at x, once (the stencils' came with their collection) */
    *seen = (cloth__newton_seen){w->n_contacts, 0, INFINITY, 0, INFINITY, NAN};
    for (int k = 0; k < w->n_contacts; k++) {
        const cloth__contact *c = &w->contacts[k];
        if (!cloth__newton_is_stencil(c->kind))
            w->contact_gap[k] = cloth__newton_contact_gap(w, ctx, c, x, NULL, NULL);
        if (!cloth__newton_is_strain(c->kind))
            seen->min_gap = fmin(seen->min_gap, w->contact_gap[k]);
    }
    if (nd->kappa == CLOTH__KAPPA_IPC && at_iterate && isfinite(seen->min_gap))
        cloth__newton_update_ipc_kappa(w, ctx, grad,
                                       w->ipc_set ? NULL : contact_barrier_gradient(w, ctx, x));

    for (int k = 0; k < w->n_contacts; k++) {
        const cloth__contact *c = &w->contacts[k];
        double g = w->contact_gap[k];
        double kappa = cloth__newton_kappa_of(w, ctx, c, x, g, at_iterate);
        double b = barrier_term(w, ctx, c, x, kappa, grad, hess, exact, g);
        e += b;
        seen->barrier += b;
        seen->kappa_max = fmax(seen->kappa_max, kappa);
        if (c->kind == CLOTH__CONTACT_PAIR || cloth__newton_is_stencil(c->kind))
            seen->self_gap = fmin(seen->self_gap, g);
    }
    seen->energy = e;
    return e;
}

void cloth__newton_hessian_dense(const cloth__newton *w, double *D)
{
    cloth__sparse_to_dense(w->H, D);
}

void cloth__newton_measure_state(cloth__newton *w, const cloth__newton_ctx *ctx)
{
    w->measured = (cloth__newton_seen){0, 0, INFINITY, 0, INFINITY, NAN};
    if (w->ndof == 0)
        return;
    w->cand_valid = 0; /* the sim's state may have been set from outside */
    cloth__newton_collect_contacts(w, ctx, ctx->x);
    for (int k = 0; k < w->n_contacts; k++) {
        const cloth__contact *c = &w->contacts[k];
        double g = cloth__newton_contact_gap(w, ctx, c, ctx->x, NULL, NULL);
        double kappa = cloth__newton_kappa_of(w, ctx, c, ctx->x, g, 0);
        w->measured.barrier += barrier_term(w, ctx, c, ctx->x, kappa, NULL, NULL, 0, g);
        if (c->kind == CLOTH__CONTACT_PAIR || cloth__newton_is_stencil(c->kind))
            w->measured.self_gap = fmin(w->measured.self_gap, g);
    }
}

/* ------------------------------------------ newton.h: from the sim, for tests */

void cloth__newton_prepare(cloth__newton *w, const cloth_sim *sim, double h)
{
    cloth__newton_ctx ctx;
    cloth__newton_ctx_build(&ctx, sim, h);
    cloth__newton_prepare_step(w, &ctx);
}

double cloth__newton_potential(cloth__newton *w, const cloth_sim *sim, const double *x,
                               double *grad, int hess, int exact)
{
    cloth__newton_ctx ctx;
    cloth__newton_ctx_build(&ctx, sim, w->h); /* the step the last prepare set up */
    return cloth__newton_energy(w, &ctx, x, grad, hess, exact);
}
