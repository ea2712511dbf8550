/* newton: the linear system of a Newton iteration — the sparse pattern of H (one 3x3
 * block per pair of coupled free vertices), its solution by newton.solver, and its
 * condition number by newton.cond.
 *
 * H couples two vertices when a spring, a triangle (its edges, its strain limit) or an
 * active self-contact joins them.  The mesh's couplings never change; contacts come and
 * go, so the pattern is the mesh's blocks plus the contact pairs met in the current step:
 * rebuilt (and re-analysed by CHOLMOD) only when a pair outside it becomes active. */
#include "core/status.h"
#include "kernels/newton/newton_work.h"
#include "linalg/cholmod.h"
#include "linalg/condest.h"
#include "linalg/eigs.h"
#include "linalg/pcg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- pattern */

static int block_of(const cloth__newton *w, int v) { return w->dof[v] / 3; }

/* Sorts the rows of one column (a handful: insertion sort). */
static void sort_rows(int *r, int n)
{
    for (int i = 1; i < n; i++) {
        int v = r[i], k = i;
        for (; k > 0 && r[k - 1] > v; k--)
            r[k] = r[k - 1];
        r[k] = v;
    }
}

/* pat_start/pat_rows <- the mesh's blocks and the pairs in pat_pairs, then set. */
static void build_pattern(cloth__newton *w)
{
    int nb = w->ndof / 3, *start = w->pat_start, *rows = w->pat_rows;
    memset(start, 0, ((size_t)nb + 1) * sizeof *start);
    /* count, into start[j + 1]: the mesh's neighbours of lower block, then pairs */
    for (int v = 0; v < w->n; v++) {
        if (w->dof[v] < 0)
            continue;
        for (int k = w->adj_start[v]; k < w->adj_start[v + 1]; k++) {
            int u = w->adj[k];
            if (w->dof[u] >= 0 && u < v)
                start[block_of(w, v) + 1]++;
        }
    }
    for (int p = 0; p < w->n_pat_pairs; p++)
        start[w->pat_pairs[2 * p + 1] + 1]++;
    for (int j = 0; j < nb; j++)
        start[j + 1] += start[j];
    /* fill: start[j] runs ahead as a cursor and is restored after */
    for (int v = 0; v < w->n; v++) {
        if (w->dof[v] < 0)
            continue;
        int j = block_of(w, v);
        for (int k = w->adj_start[v]; k < w->adj_start[v + 1]; k++) {
            int u = w->adj[k];
            if (w->dof[u] >= 0 && u < v)
                rows[start[j]++] = block_of(w, u);
        }
    }
    for (int p = 0; p < w->n_pat_pairs; p++)
        rows[start[w->pat_pairs[2 * p + 1]]++] = w->pat_pairs[2 * p];
    for (int j = nb; j > 0; j--)
        start[j] = start[j - 1];
    start[0] = 0;
    /* sort each column and drop repeated rows (a pair met by several contacts, or a
     * contact's pair that is also a mesh block), compacting in place */
    int out = 0;
    for (int j = 0; j < nb; j++) {
        int lo = start[j], hi = start[j + 1];
        sort_rows(rows + lo, hi - lo);
        start[j] = out;
        for (int k = lo; k < hi; k++)
            if (k == lo || rows[k] != rows[k - 1])
                rows[out++] = rows[k];
    }
    start[nb] = out;
    cloth_error ignored;
    if (cloth__sparse_set_pattern(w->H, start, rows, &ignored) != CLOTH_OK)
        w->pattern_overflows++; /* more blocks than contact_block_cap: the step fails */
    w->pattern_builds++;
}

/* The vertices coupling k couples, k over the active terms and then the step's lagged
 * friction stencils: 2 for a vertex pair, 4 for a point-triangle or edge-edge term or
 * friction stencil, 0 for any other term. */
static int coupled(const cloth__newton *w, const cloth__newton_ctx *ctx, int k, int v[4])
{
    if (k >= w->n_contacts) {
        const cloth__newton_friction *f = &w->friction[k - w->n_contacts];
        memcpy(v, f->v, sizeof f->v);
        return f->st.n_verts;
    }
    const cloth__contact *c = &w->contacts[k];
    if (c->kind == CLOTH__CONTACT_PAIR) {
        v[0] = c->a;
        v[1] = c->b;
        return 2;
    }
    if (!cloth__newton_is_stencil(c->kind))
        return 0;
    cloth__newton_stencil(w, ctx, c, v);
    return 4;
}

/* Appends the block pairs of the active self-contact terms to pat_pairs (only those
 * outside the pattern when `missing_only`); 0 when it filled up. */
static int append_pairs(cloth__newton *w, const cloth__newton_ctx *ctx, int missing_only)
{
    for (int k = 0; k < w->n_contacts + w->n_friction; k++) {
        int v[4], count = coupled(w, ctx, k, v);
        for (int p = 0; p < count; p++)
            for (int q = p + 1; q < count; q++) {
                if (w->dof[v[p]] < 0 || w->dof[v[q]] < 0 || v[p] == v[q])
                    continue;
                int i = block_of(w, v[p]), j = block_of(w, v[q]);
                if (missing_only && cloth__sparse_has_block(w->H, i, j))
                    continue;
                if (w->n_pat_pairs == w->pair_block_cap)
                    return 0;
                w->pat_pairs[2 * w->n_pat_pairs] = i < j ? i : j;
                w->pat_pairs[2 * w->n_pat_pairs + 1] = i < j ? j : i;
                w->n_pat_pairs++;
            }
    }
    return 1;
}

/* 1 when an active self-contact term couples two free vertices that H has no block
 * for. */
static int pattern_misses(const cloth__newton *w, const cloth__newton_ctx *ctx)
{
    for (int k = 0; k < w->n_contacts + w->n_friction; k++) {
        int v[4], count = coupled(w, ctx, k, v);
        for (int p = 0; p < count; p++)
            for (int q = p + 1; q < count; q++)
                if (w->dof[v[p]] >= 0 && w->dof[v[q]] >= 0 && v[p] != v[q] &&
                    !cloth__sparse_has_block(w->H, block_of(w, v[p]), block_of(w, v[q])))
                    return 1;
    }
    return 0;
}

void cloth__newton_system_pattern(cloth__newton *w, const cloth__newton_ctx *ctx)
{
    if (!pattern_misses(w, ctx))
        return;
    /* the pairs met earlier in this step stay, so that one coming back costs no new
     * analysis; those of earlier steps go. */
    int same_step = w->pat_step == w->steps;
    w->pat_step = w->steps;
    if (!same_step || !append_pairs(w, ctx, 1)) {
        w->n_pat_pairs = 0;
        if (!append_pairs(w, ctx, 0))
            w->pattern_overflows++; /* the step fails, naming the sizes */
    }
    build_pattern(w);
}

/* ------------------------------------------------------------------ solve */

/* CHOLMOD's factor of H + eps I, analysed when the pattern changed; its time goes to the
 * analyse and factor stages when `solve_stage` (else the caller's stage counts it). */
static cloth_status factor_sparse(cloth__newton *w, double *eps, int solve_stage,
                                  cloth_error *err)
{
    double t0 = cloth__newton_now_ms();
    cloth_status st = cloth__chol_analyse(w->chol, w->H, err);
    double t1 = cloth__newton_now_ms();
    if (st == CLOTH_OK)
        st = cloth__chol_factor(w->chol, w->H, eps, err);
    double t2 = cloth__newton_now_ms();
    if (solve_stage) {
        w->profile.factorizations++;
        w->profile.analyse_ms += t1 - t0;
        w->profile.factor_ms += t2 - t1;
    }
    if (st == CLOTH_OK) {
        w->factored = 1;
        w->factor_eps = *eps;
        int supernodal;
        cloth__chol_info(w->chol, &w->profile.factor_nnz, &supernodal, &w->profile.analyses);
    }
    return st;
}

static cloth_status chol_precondition(void *chol, const double *r, double *z,
                                      cloth_error *err)
{
    return cloth__chol_solve(chol, r, z, err);
}

/* Factor reuse (issue 34): while H changes little between iterations (and steps), the
 * factor L L' = P (H_old + eps I) P' of an earlier H is a near-perfect preconditioner:
 * PCG on H dx = -grad E preconditioned by it converges in a few iterations, each one
 * sparse product and two triangular solves, against a factorisation's O(fill) flops
 * (Nocedal and Wright, Numerical Optimization, 2nd ed., 7.1: inexact Newton with a
 * preconditioned CG; the "chord" or modified Newton method keeps the old factor as is).
 * The step is solved to |r| <= reuse_tol |grad E|, so it differs from the direct solve
 * by at most reuse_tol in that relative residual.  When factor_reuse iterations do not
 * get there, H is factored afresh and solved directly, and that factor is the next
 * preconditioner.  1 when the reuse solved the step. */
/* Backoff: in contact the barriers' Hessians change so much between iterations that an
 * old factor never gets PCG to reuse_tol within factor_reuse iterations (30 x 30 and
 * 64 x 64 drapes: no attempt succeeded, each costing factor_reuse solves on top of the
 * factorisation).  After the second failure in a row the next 1, 3, 7, ... 2^(f-1) - 1
 * iterations (f failures in a row, at most REUSE_BACKOFF_MAX) factor without trying;
 * one success resets it.  The contact-free hanging scene's pattern, the first iteration
 * of a step failing and the next ones succeeding, never backs off.  Counts only, so a
 * run is as deterministic as before. */
#define REUSE_BACKOFF_MAX 6

static void reuse_outcome(cloth__newton *w, int solved)
{
    if (solved) {
        w->reuse_fails = 0;
        return;
    }
    if (w->reuse_fails < REUSE_BACKOFF_MAX)
        w->reuse_fails++;
    w->reuse_skip = (1 << (w->reuse_fails - 1)) - 1;
}

static int solve_reusing(cloth__newton *w, const cloth__newton_def *nd, int *lin_iters)
{
    if (nd->factor_reuse <= 0 || !w->reusable || !w->pcg) /* pcg: sized at create */
        return 0;
    if (w->reuse_skip > 0) {
        w->reuse_skip--;
        return 0;
    }
    double t0 = cloth__newton_now_ms();
    for (int k = 0; k < w->ndof; k++)
        w->rhs[k] = -w->grad[k];
    int converged = 0;
    cloth_error ignored; /* a failure is no error here: the direct solve follows */
    cloth_status st = cloth__pcg_solve_with(w->pcg, w->H, w->rhs, w->step, nd->reuse_tol,
                                            nd->factor_reuse, chol_precondition, w->chol,
                                            lin_iters, &converged, &ignored);
    w->profile.solve_ms += cloth__newton_now_ms() - t0;
    w->profile.lin_iters += *lin_iters;
    reuse_outcome(w, st == CLOTH_OK && converged);
    return st == CLOTH_OK && converged;
}

static cloth_status solve_cholmod(cloth__newton *w, const cloth__newton_def *nd, double *eps,
                                  int *lin_iters, cloth_error *err)
{
    if (solve_reusing(w, nd, lin_iters))
        return CLOTH_OK;
    w->reusable = 0;
    cloth_status st = factor_sparse(w, eps, 1, err);
    if (st != CLOTH_OK)
        return st;
    double t0 = cloth__newton_now_ms();
    for (int k = 0; k < w->ndof; k++)
        w->step[k] = -w->grad[k];
    st = cloth__chol_solve(w->chol, w->step, w->step, err);
    w->profile.solve_ms += cloth__newton_now_ms() - t0;
    w->reusable = st == CLOTH_OK;
    return st;
}

/* PCG from dx = 0 to |r| <= pcg_tol |grad E|; a breakdown (H not positive definite
 * along a search direction) is an error, a stop at the cap is counted. */
static cloth_status solve_pcg(cloth__newton *w, const cloth__newton_def *nd, int *lin_iters,
                              int *capped, cloth_error *err)
{
    double t0 = cloth__newton_now_ms();
    for (int k = 0; k < w->ndof; k++)
        w->rhs[k] = -w->grad[k];
    int converged = 1;
    cloth_status st = cloth__pcg_solve(w->pcg, w->H, w->rhs, w->step, nd->pcg_tol,
                                       nd->pcg_max_iters, lin_iters, &converged, err);
    *capped = st == CLOTH_OK && !converged;
    w->profile.solve_ms += cloth__newton_now_ms() - t0;
    w->profile.lin_iters += *lin_iters;
    return st;
}

static cloth_status solve_dense(cloth__newton *w, double *eps, cloth_error *err)
{
    double t0 = cloth__newton_now_ms();
    cloth__sparse_to_dense(w->H, w->H_dense);
    cloth_status st = cloth__linalg_factor(w->la, w->H_dense, eps, err);
    double t1 = cloth__newton_now_ms();
    w->profile.factorizations++;
    w->profile.factor_ms += t1 - t0;
    if (st != CLOTH_OK)
        return st;
    for (int k = 0; k < w->ndof; k++)
        w->step[k] = -w->grad[k];
    st = cloth__linalg_solve(w->la, w->step, w->step, err);
    w->profile.solve_ms += cloth__newton_now_ms() - t1;
    return st;
}

/* A failed factor here is an answer, not an error: H with the springs' Hessians as they
 * are is positive definite or not, and only a numeric factor can tell (Cholesky stops at
 * the first pivot <= 0).  When it is not, H + tau I is tried for tau = SHIFTS of
 * w->spring_shift, the Gershgorin bound on what the projection would add: the projected
 * H is H + N with 0 <= N <= spring_shift I, so a tau well below it keeps most of E's
 * curvature (Nocedal and Wright, Numerical Optimization, 2nd ed., 3.4: a multiple of I
 * added until Cholesky succeeds), and H + tau I positive definite makes -(H + tau I)^-1
 * grad E a descent direction.  The shift goes into H itself (its diagonal), so that the
 * condition number is the solved matrix's, and is reported in *tau. */
static const double SHIFTS[] = {0, 0.01, 0.1};

static int factor_as_is(cloth__newton *w, const cloth__newton_ctx *ctx)
{
    cloth_error not_pd;
    if (ctx->nd->solver == CLOTH__SOLVER_DENSE) {
        /* LAPACK's factor shifts by itself when it must: a shift means no */
        double eps, t0 = cloth__newton_now_ms();
        cloth__sparse_to_dense(w->H, w->H_dense);
        cloth_status st = cloth__linalg_factor(w->la, w->H_dense, &eps, &not_pd);
        w->profile.factorizations++;
        w->profile.factor_ms += cloth__newton_now_ms() - t0;
        return st == CLOTH_OK && eps == 0;
    }
    double t0 = cloth__newton_now_ms();
    cloth_status st = cloth__chol_analyse(w->chol, w->H, &not_pd);
    double t1 = cloth__newton_now_ms();
    if (st == CLOTH_OK)
        st = cloth__chol_factor_shifted(w->chol, w->H, 0, &not_pd);
    w->profile.factorizations++;
    w->profile.analyse_ms += t1 - t0;
    w->profile.factor_ms += cloth__newton_now_ms() - t1;
    if (st != CLOTH_OK)
        return 0;
    int supernodal;
    cloth__chol_info(w->chol, &w->profile.factor_nnz, &supernodal, &w->profile.analyses);
    return 1;
}

cloth_status cloth__newton_system_solve_unshifted(cloth__newton *w,
                                                  const cloth__newton_ctx *ctx,
                                                  double *tau, int *solved, cloth_error *err)
{
    *solved = 0;
    *tau = 0;
    w->factored = 0;
    w->reusable = 0;
    w->profile.nnz = w->H->nnz;
    if (ctx->nd->solver == CLOTH__SOLVER_PCG)
        return CLOTH_OK;
    int n_shifts = (int)(sizeof SHIFTS / sizeof SHIFTS[0]), ok = 0;
    for (int k = 0; k < n_shifts && !ok; k++) {
        double next = SHIFTS[k] * w->spring_shift;
        if (k > 0 && !(next > *tau))
            break;
        for (int q = 0; q < w->ndof; q++)
            cloth__sparse_add_diag(w->H, q, next - *tau);
        *tau = next;
        ok = factor_as_is(w, ctx);
    }
    if (!ok)
        return CLOTH_OK; /* H is the caller's to assemble again */
    double t0 = cloth__newton_now_ms();
    for (int k = 0; k < w->ndof; k++)
        w->step[k] = -w->grad[k];
    cloth_status st;
    if (ctx->nd->solver == CLOTH__SOLVER_DENSE) {
        st = cloth__linalg_solve(w->la, w->step, w->step, err);
    } else {
        w->factored = 1;
        w->factor_eps = 0;
        st = cloth__chol_solve(w->chol, w->step, w->step, err);
        w->reusable = st == CLOTH_OK;
    }
    w->profile.solve_ms += cloth__newton_now_ms() - t0;
    *solved = st == CLOTH_OK;
    return st;
}

cloth_status cloth__newton_system_solve(cloth__newton *w, const cloth__newton_ctx *ctx,
                                        double *eps, int *lin_iters, int *capped,
                                        cloth_error *err)
{
    const cloth__newton_def *nd = ctx->nd;
    *eps = 0;
    *lin_iters = 0;
    *capped = 0;
    w->factored = 0;
    w->profile.nnz = w->H->nnz;
    switch (nd->solver) {
    case CLOTH__SOLVER_PCG:
        return solve_pcg(w, nd, lin_iters, capped, err);
    case CLOTH__SOLVER_DENSE:
        return solve_dense(w, eps, err);
    default:
        return solve_cholmod(w, nd, eps, lin_iters, err);
    }
}

/* ------------------------------------------------------- condition number */

const char *cloth__newton_cond_method(const cloth__newton *w, const cloth__newton_def *nd)
{
    (void)w; /* every size has an exact 2-norm now (dsyevd or ARPACK) */
    if (nd->cond == CLOTH__COND_OFF)
        return "off";
    return nd->cond == CLOTH__COND_EXACT ? "exact-2norm" : "estimate-1norm";
}

/* 1 when the exact condition number comes from dsyevd on the dense H, 0 when from
 * ARPACK: the faster of the two at the size (issue 34).  dsyevd costs O(n^3) whatever H
 * is; ARPACK a few hundred sparse products and solves with a CHOLMOD factor, O(n) each on
 * a cloth's matrix; tests/bench/cond_bench.c times both on the hanging scene, and
 * cond_exact_max's default is where ARPACK becomes the faster one.  The key can lower the
 * cap (0: ARPACK at every size) or raise it (dsyevd, slower, as a reference). */
static int cond_by_dsyevd(const cloth__newton *w, const cloth__newton_def *nd)
{
    return nd->cond == CLOTH__COND_EXACT && w->ndof <= nd->cond_exact_max;
}

static cloth_status chol_solve_in_place(void *ctx, double *x, cloth_error *err)
{
    return cloth__chol_solve(ctx, x, x, err);
}

cloth_status cloth__newton_system_cond(cloth__newton *w, const cloth__newton_ctx *ctx,
                                       double *cond, cloth_error *err)
{
    const cloth__newton_def *nd = ctx->nd;
    *cond = NAN;
    if (nd->cond == CLOTH__COND_OFF)
        return CLOTH_OK;
    if (cond_by_dsyevd(w, nd)) {
        w->profile.cond_dsyevd++;
        if (nd->solver != CLOTH__SOLVER_DENSE) /* the dense factor worked on a copy */
            cloth__sparse_to_dense(w->H, w->H_dense);
        return cloth__linalg_cond_exact(w->la, w->H_dense, cond, err);
    }
    if (nd->cond == CLOTH__COND_ESTIMATE && nd->solver == CLOTH__SOLVER_DENSE)
        return cloth__linalg_cond_estimate(w->la, cond, err);
    /* ARPACK (which makes the factors it needs: the floor below), or the 1-norm
     * estimate from CHOLMOD's factor of H (+ eps I): PCG made none, so one is made here
     * (its time counts as the condition number's) */
    double eps = w->factored ? w->factor_eps : 0;
    cloth_status st = CLOTH_OK;
    if (!w->factored && nd->cond == CLOTH__COND_ESTIMATE)
        st = factor_sparse(w, &eps, 0, err);
    if (st != CLOTH_OK) {
        w->reusable = 0; /* a failed factor leaves none */
        return st;
    }
    /* each extreme eigenvalue to a residual of 2e-7 |theta|: for a symmetric matrix an
     * eigenvalue lies within the residual of theta, so the ratio is good to 1e-6 */
    if (nd->cond == CLOTH__COND_EXACT) {
        /* H = M/h_in^2 + (c/h_d) I + positive semi-definite terms (PSD-clamped springs,
         * spring damping, the barriers' normal parts, the strain terms): its spectrum
         * starts at or above min m/h_in^2 + c/h_d (both h for euler).  With the springs'
         * Hessians unprojected (spring_hessian = adaptive, once it switches) H is the
         * projected one less N, N = sum over compressed springs of c_s [P -P; -P P] with
         * c_s = k (l0/l - 1) > 0 and P = I - u u^T, and x^T N x = sum c_s |P (x_a -
         * x_b)|^2 <= sum 2 c_s (|x_a|^2 + |x_b|^2) <= spring_shift |x|^2: the floor
         * drops by spring_shift, and there is none when that reaches 0 (an indefinite H
         * has no floor; tests/test_newton_floor.c).  newton.contact_hessian = exact puts
         * the contacts' kappa psi' d2g into H as well, negative across each gap and not
         * bounded by anything at hand (it grows as 1/g): no floor then either */
        double c_air = ctx->air_damping;
        double floor = w->min_mass / (w->h_in * w->h_in) + c_air / w->h_damp;
        if (w->h_springs_exact)
            floor -= w->spring_shift;
        if (nd->contact_hessian == CLOTH__CONTACT_HESSIAN_EXACT)
            floor = 0;
        cloth__eigs_set_floor(w->eigs, floor > 0 ? floor : -INFINITY);
        w->factored = 0; /* eigs leaves its own factor in chol */
        w->reusable = 0; /* of a shifted H: no preconditioner */
        w->profile.cond_arpack++;
        return cloth__eigs_cond(w->eigs, w->H, w->chol, eps, 2e-7, cond, err);
    }
    return cloth__condest_1norm(w->condest, w->H, eps, chol_solve_in_place, w->chol, cond, err);
}

/* ------------------------------------------------------- create, destroy */

cloth_status cloth__newton_system_create(cloth__newton *w, const cloth__newton_ctx *ctx,
                                         cloth_error *err)
{
    const cloth__newton_def *nd = ctx->nd;
    cloth_status st;
    int nb = w->ndof / 3, mesh_blocks = 0;
    for (int v = 0; v < w->n; v++)
        for (int k = w->adj_start[v]; k < w->adj_start[v + 1]; k++)
            mesh_blocks += w->dof[v] >= 0 && w->dof[w->adj[k]] >= 0 && w->adj[k] < v;
    int full = ctx->nd->contact == CLOTH__CONTACT_FULL;
    /* 6 pairs a term; friction stencils are mostly the same terms' */
    w->pair_block_cap = full ? 8 * w->self_cap : 2 * w->pair_cap;
    /* distinct vertex pairs coupled by contacts: a vertex lies within reach of a few
     * dozen others at most unless the thickness spans several cells */
    w->contact_block_cap = full ? 16 * nb + 1024 : w->pair_cap;
    int cap = mesh_blocks + w->contact_block_cap;
    w->pat_start = malloc(((size_t)nb + 1) * sizeof *w->pat_start);
    /* rows before duplicates are dropped: the mesh's and every pair appended */
    w->pat_rows = malloc(((size_t)mesh_blocks + (size_t)w->pair_block_cap + 1) *
                         sizeof *w->pat_rows);
    w->pat_pairs = malloc((2 * (size_t)w->pair_block_cap + 1) * sizeof *w->pat_pairs);
    w->rhs = malloc(((size_t)w->ndof + 1) * sizeof *w->rhs);
    if (!w->pat_start || !w->pat_rows || !w->pat_pairs || !w->rhs)
        goto fail_alloc;
    st = cloth__sparse_create(nb, cap, &w->H, err);
    /* what newton.solver and newton.cond use, and nothing else */
    int dense = nd->solver == CLOTH__SOLVER_DENSE || cond_by_dsyevd(w, nd);
    int chol = nd->solver == CLOTH__SOLVER_CHOLMOD ||
               (nd->cond == CLOTH__COND_EXACT && !cond_by_dsyevd(w, nd)) ||
               (nd->cond == CLOTH__COND_ESTIMATE && nd->solver != CLOTH__SOLVER_DENSE);
    if (st == CLOTH_OK && dense) {
        size_t n = (size_t)w->ndof;
        if (!(w->H_dense = malloc(n * n * sizeof *w->H_dense)))
            goto fail_alloc;
        st = cloth__linalg_create(w->ndof, &w->la, err);
    }
    if (st == CLOTH_OK && chol)
        st = cloth__chol_create(w->ndof, &w->chol, err);
    int reuse = nd->solver == CLOTH__SOLVER_CHOLMOD && nd->factor_reuse > 0;
    if (st == CLOTH_OK && (nd->solver == CLOTH__SOLVER_PCG || reuse))
        st = cloth__pcg_create(w->ndof, &w->pcg, err);
    if (st == CLOTH_OK && chol && nd->cond == CLOTH__COND_EXACT)
        st = cloth__eigs_create(w->ndof, &w->eigs, err);
    if (st == CLOTH_OK && chol && nd->cond == CLOTH__COND_ESTIMATE)
        st = cloth__condest_create(w->ndof, &w->condest, err);
    if (st != CLOTH_OK)
        return st;
    w->n_pat_pairs = 0;
    w->pat_step = -1;
    w->reusable = 0;
    build_pattern(w);
    return CLOTH_OK;

fail_alloc:
    return cloth__fail(err, CLOTH_ENOMEM, "newton: out of memory for the Newton matrix "
                       "(%d unknowns)", w->ndof);
}

void cloth__newton_system_destroy(cloth__newton *w)
{
    free(w->pat_start);
    free(w->pat_rows);
    free(w->pat_pairs);
    free(w->rhs);
    free(w->H_dense);
    cloth__sparse_destroy(w->H);
    cloth__linalg_destroy(w->la);
    cloth__chol_destroy(w->chol);
    cloth__pcg_destroy(w->pcg);
    cloth__eigs_destroy(w->eigs);
    cloth__condest_destroy(w->condest);
}
