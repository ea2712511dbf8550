/*
 * newton — implicit Euler, BDF2 or implicit midpoint as energy minimisation, with
 * barriers (SPEC 4.4; the cubic-barrier article; Li et al. 2020 "Incremental Potential
 * Contact"; Ando 2024 "A Cubic Barrier with Elasticity-Inclusive Dynamic Stiffness";
 * Choi and Ko 2002 "Stable but Responsive Cloth" for BDF2).
 *
 * Each step of length h minimises over the free vertices the incremental potential
 *
 *   E(x) = 1/(2h^2) |x - x~|^2_M                      inertia, x~ = x_n + h v_n + h^2 g
 *        + sum_springs 1/2 k (l - l0)^2                 springs (spring.c)
 *        + c/(2h) |x - x_n|^2                           air damping: its gradient is c
 *                                                       v_{n+1}
 *        + sum_springs c_d/(2h) (u_n.(dx_b - dx_a))^2   spring damping, dx = x - x_n,
 *                                                       u_n the direction at x_n
 *        - f_wind . x                                   wind, from the state at step start
 *        + sum_contacts kappa psi(g) + sum_limits kappa_s psi(g_s)     (barrier.c,
 *                                                       contact.c)
 *
 * (the two damping terms are the Rayleigh potentials whose gradients are the damping
 * forces at v_{n+1} = (x - x_n)/h, so damping is implicit like everything else).  Then
 * v_{n+1} = (x - x_n)/h.  That is newton.integrator = euler; the other two integrators
 * change the inertia term, the point damping measures from, and where the springs are
 * evaluated, and keep every other term (friction, barriers, strain limits: at x, so the
 * line search's feasibility filter guarantees the end state under all three).
 *
 * bdf2 (second order, mildly damping; Choi and Ko 2002 use it for cloth):
 *   x_{n+1} - 4/3 x_n + 1/3 x_{n-1} = h' v_{n+1},   v_{n+1} - 4/3 v_n + 1/3 v_{n-1} = h' a_{n+1},
 * h' = 2h/3.  With x^ = 4/3 x_n - 1/3 x_{n-1} the first gives v_{n+1} = (x - x^)/h', and
 * the second, with a = g + M^-1 f(x), becomes
 *   x - x~ = h'^2 M^-1 f(x),   x~ = x^ + h' (4/3 v_n - 1/3 v_{n-1}) + h'^2 g,
 * the stationarity condition of E above with h -> h' and x_n -> x^ (the damping terms
 * too: their gradients are then the damping forces at (x - x^)/h' = v_{n+1}).  The first
 * step has no x_{n-1}: it is one implicit Euler step.  So is the step after a reset, a
 * change of h, or a caller's write to x or v: the history is the sim's own or none.
 * Friction's lagged slip (x - x_n over eps_v h) and the kappa rules keep h and x_n: for
 * bdf2 an approximation of first order in h, like the lagging itself.
 *
 * midpoint (implicit midpoint, symplectic: no energy trend on a linear spring):
 *   x_{n+1} = x_n + h (v_n + v_{n+1})/2,   v_{n+1} = v_n + h M^-1 F(y),  y = (x_n + x_{n+1})/2,
 * F = M g + f, f = -grad Psi.  Eliminating v_{n+1} = 2 (x - x_n)/h - v_n:
 *   x - x_n - h v_n = h^2/2 M^-1 F(y),  i.e.  M (x - x~)/h^2 = f(y)/2,  x~ = x_n + h v_n + h^2/2 g,
 * and since d/dx Psi((x + x_n)/2) = grad Psi(y)/2 = -f(y)/2 this is grad E_mid = 0 for
 *   E_mid(x) = 1/(2h^2) |x - x~|^2_M + Psi((x + x_n)/2),   Hess = M/h^2 + 1/4 Hess Psi(y).
 * The other forces enter the velocity update h M^-1 F like f, i.e. with weight 1/2 in
 * E_mid: air and spring damping at the midpoint velocity (v_n + v_{n+1})/2 = (x - x_n)/h,
 * the step-start wind, the lagged friction, and the barriers and strain limits at x (the
 * end point, so that the feasibility filter still guarantees the end state).  The kernel
 * minimises 2 E_mid, which has the same minimiser and Newton steps and leaves those
 * terms exactly as in E above:
 *   2 E_mid = 1/(2 h_in^2) |x - x~|^2_M + 2 Psi(y) + (the other terms of E, at x),
 * h_in = h/sqrt 2, with Hess 2 Psi(y(x)) = 1/2 Hess Psi(y).  For a linear force this is
 * the midpoint rule's amplification matrix (1 + z^2/4)^-1 [[1 - z^2/4, h], [-w^2 h,
 * 1 - z^2/4]], z = w h, eigenvalues of modulus 1 (tests/test_newton.c).
 *
 * A step first gathers what it reads of the sim and its scene into a step context
 * (newton_ctx.c; Box2D v3's b2StepContext), which every stage then reads.  Stages of a
 * step (newton_step below): predict (x~, wind, kappa tables), and for each
 * Newton iteration: assemble (the active set at x, E, grad E, H), solve (newton.solver, with
 * a recorded Tikhonov fallback for the factorisations), condition number, line search (largest
 * feasible alpha <= 1, then Armijo), log; finally the velocity update.  A stage that
 * fails says why in the error object; the sim puts "SCENE: frame N: newton: " in front.
 *
 * The files of src/kernels/newton/:
 *   newton.c              this file: the step as its stages (both loops); start; the
 *                         newton.* scene keys; the kernel table entry; measure and log
 *   newton_create.c       create and destroy: the work sized once for the mesh, and
 *                         the scene checks made at creation
 *   newton.h              what the registry and the tests see (potential, profile)
 *   newton_work.h         the step context, the work struct and the functions the
 *                         files below share
 *   newton_ctx.c          the step context's builder: the one place that reads the
 *                         scene (and the kernel's settings) for the stages
 *   newton_potential.c    E, grad E and H: inertia, air damping, wind, springs, spring
 *                         damping, barriers; the set-up of a step (cloth__newton_prepare)
 *   newton_contacts.c     mesh adjacency, the active barrier terms and their gaps, the
 *                         initial-state check, the sphere's continuation within a step
 *   newton_body.c         the avatar's body: its gap, and its continuation within a step
 *   newton_kappa.c        the barrier stiffness rules: fixed, IPC, dynamic
 *   newton_friction.c     IPC's lagged friction: stencils at step start, its potential
 *   newton_line_search.c  the feasibility filter and Armijo backtracking
 *   newton_system.c       the sparse Newton matrix's pattern, its solve by newton.solver
 *                         (CHOLMOD, PCG, dense) and its condition number by newton.cond
 * Calls between the files run one way, never in a circle: newton.c -> create, line search ->
 * potential -> {system, friction -> kappa} -> contacts -> body, and everyone -> ctx (a
 * value a lower file needs from a higher one is handed down, as the potential hands
 * the barriers' gradient to IPC's kappa rule).
 */
#include "core/scene.h"
#include "core/status.h"
#include "kernels/newton/newton.h"
#include "kernels/newton/newton_work.h"
#include "linalg/eigs.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cloth__newton_ndof(const cloth__newton *w) { return w->ndof; }
int cloth__newton_dof(const cloth__newton *w, int i) { return w->dof[i]; }
const cloth__sparse *cloth__newton_matrix(const cloth__newton *w) { return w->H; }
void cloth__newton_profile_get(const cloth__newton *w, cloth__newton_profile *out)
{
    *out = w->profile;
}

static double inf_norm(const double *v, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++)
        m = fmax(m, fabs(v[i]));
    return m;
}

/* ------------------------------------------------------------------ step */

/* What one Newton iteration found, stage by stage: its newton.csv row. */
typedef struct iteration {
    int row;                    /* its iter in newton.csv (rows of the frame before it) */
    double energy;              /* E at the iterate x                                 */
    cloth__newton_seen seen;    /* what that evaluation of E saw                      */
    double eps;                 /* Tikhonov shift the factor needed, 0 when none      */
    double cond;                /* condition number of H, NaN when off                */
    double alpha;               /* accepted step length, 0 when x stays               */
    int lin_iters;              /* PCG iterations of the solve, 0 for direct solvers  */
    int capped;                 /* 1 when PCG stopped at newton.pcg_max_iters         */
    double slope;               /* grad E . dx, the model's first-order change        */
    cloth__newton_filters filters; /* what the feasibility filter found (line search) */
    double armijo;              /* the fraction Armijo kept of the filter's step      */
    double max_dx;              /* zozo: max_dx's scale r of dx (1 in the converge loop) */
    int n_max_dx;               /* zozo: vertices whose |dx| exceeded max_dx          */
    int descent;                /* 1 when dx was a descent direction (a line search ran) */
} iteration;

/* Predict: the potential of this step (x~, wind, kappa tables, the sphere where the last
 * step left it), and its first iterate x_n. */
static void predict(cloth__newton *w, const cloth__newton_ctx *ctx)
{
    size_t bytes = sizeof(double) * 3 * (size_t)w->n;
    w->steps++;
    w->profile.steps++;
    /* BDF2's x_{n-1}, v_{n-1} hold only while the state is the one the last step left
     * with the same h: after a caller wrote x or v (the notebooks do) the step starts
     * again from one implicit Euler step */
    if (w->history && (ctx->h != w->h_prev || memcmp(ctx->x, w->x, bytes) != 0 ||
                       memcmp(ctx->v, w->v_last, bytes) != 0))
        w->history = 0;
    cloth__newton_prepare_step(w, ctx);
    memcpy(w->x, ctx->x, sizeof(double) * 3 * (size_t)w->n);
    cloth__newton_start_outside_sphere(w, ctx);
    cloth__newton_body_start_outside(w, ctx);
}

/* Assemble: E, grad E and the Newton matrix H at the iterate. */
static cloth_status assemble(cloth__newton *w, const cloth__newton_ctx *ctx, iteration *it,
                             cloth_error *err)
{
    if (ctx->nd->kappa_update == CLOTH__KAPPA_PER_ITERATION)
        cloth__newton_clear_kappa(w, ctx->mesh);
    it->energy = cloth__newton_energy(w, ctx, w->x, w->grad, 1, 0);
    it->seen = w->eval;
    if (w->contact_overflows || w->pattern_overflows)
        return cloth__fail(err, CLOTH_ENOMEM,
                           "more active contacts than newton makes room for (%d point-triangle "
                           "or edge-edge candidates of each kind, %d terms, %d matrix blocks) "
                           "at iteration %d: is material.thickness + newton.dhat larger than "
                           "the mesh's cells?", w->pair_cap, w->contact_cap,
                           w->contact_block_cap, it->row);
    if (isfinite(it->energy))
        return CLOTH_OK;
    char why[CLOTH_MSG_MAX / 2];
    cloth__newton_explain_energy(w, ctx, w->x, why, sizeof why);
    return cloth__fail(err, CLOTH_ENUMERIC, "energy is not finite at iteration %d: %s",
                       it->row, why);
}

/* Solve: H dx = -grad E by newton.solver (newton_system.c).  With the springs' Hessians
 * unprojected (w->spring_exact, below) H is first factored as it is, or shifted by a
 * small multiple of I when it is not positive definite (it->eps then records the
 * shift: newton.csv's regularized); when neither factors, the iteration assembles the
 * projected H at the same x and solves that, as without. */
static cloth_status solve(cloth__newton *w, const cloth__newton_ctx *ctx, iteration *it,
                          cloth_error *err)
{
    if (w->spring_exact) {
        int solved;
        cloth_status st = cloth__newton_system_solve_unshifted(w, ctx, &it->eps, &solved, err);
        if (st != CLOTH_OK || solved)
            return st;
        w->spring_exact = 0;
        st = assemble(w, ctx, it, err);
        w->spring_exact = 1;
        if (st != CLOTH_OK)
            return st;
    }
    return cloth__newton_system_solve(w, ctx, &it->eps, &it->lin_iters, &it->capped, err);
}

/* newton.spring_hessian = adaptive.  A compressed spring's Hessian has a negative part
 * across the spring, k (1 - l0/l)(I - u u^T), which the assembly projects to 0 so that H
 * stays positive definite (SPEC 4.4).  Where the cloth is gathered or folded (the walking
 * skirt where the thigh pushes it in) many springs are compressed and E is nearly flat,
 * or concave, along the fold: the projected H then overstates E's curvature there many
 * times, Newton's step along the fold is that many times too short, and the iteration
 * creeps at alpha = 1 with linear convergence, the step shrinking or (past a saddle)
 * growing by a few per cent an iteration.  Measured on the skirt's frame 50 (issue 31):
 * along dx, dx^T H dx of the projected H was 20 to 200 times the curvature of E by
 * central differences, which the unprojected H matched to 3 digits; the body's gap,
 * kappa and the body's motion within the step were not involved (the crawling vertices
 * were 3 cm from the skin, kappa and the body's pose unchanged after iteration 4).
 * Longva et al. 2023 ("Pitfalls of projection: a study of Newton-type solvers for
 * incremental potentials", arXiv 2311.14526) measure the same reduced convergence rate
 * of projected Newton on incremental potentials and propose projecting only on demand;
 * here the demand is a failed Cholesky factor of the unprojected H, after small shifts
 * (newton_system.c) that keep most of E's curvature: on the walking skirt a projected
 * fallback at an indefinite H left a saddle at the same crawl (the CMU walk's frame 16,
 * steps growing 6 % an iteration to max_iters).
 *
 * The rule: with the full step taken (alpha = 1) the quadratic model predicts the
 * decrease -(grad E.dx)/2 (H dx = -grad E), and a model whose curvature along dx is c
 * times E's gives an actual decrease of (2 - 1/c) times that.  Once a step's decrease is
 * more than SPRING_EXACT_RHO = 1.5 times the prediction (c > 2), the rest of the step
 * tries the unprojected H first (solve, above).  A step that never shows it keeps the
 * projected H throughout and is unchanged by the rule.  Only E's last evaluation at the
 * accepted point is used (the line search returns there), and a predicted decrease at
 * E's rounding is no evidence. */
#define SPRING_EXACT_RHO 1.5
#define SPRING_EXACT_MIN_DECREASE 1e-12

static void check_spring_model(cloth__newton *w, const cloth__newton_ctx *ctx,
                               const iteration *it)
{
    if (ctx->nd->spring_hessian != CLOTH__SPRING_HESSIAN_ADAPTIVE || w->spring_exact ||
        ctx->nd->solver == CLOTH__SOLVER_PCG || it->alpha != 1)
        return;
    double predicted = -0.5 * it->slope, made = it->energy - w->eval.energy;
    if (predicted > SPRING_EXACT_MIN_DECREASE * fabs(it->energy) &&
        made > SPRING_EXACT_RHO * predicted)
        w->spring_exact = 1;
}

/* Condition number: newton.cond = exact is the 2-norm lambda_max/lambda_min, estimate
 * the factor's 1-norm estimate; every output says which (cond_method). */
static cloth_status condition_number(cloth__newton *w, const cloth__newton_ctx *ctx,
                                     iteration *it, cloth_error *err)
{
    return cloth__newton_system_cond(w, ctx, &it->cond, err);
}

/* Line search: x moves to x + alpha dx.  When dx is no descent direction (grad E = 0 at
 * an equilibrium, or round-off) x stays. */
static void line_search(cloth__newton *w, const cloth__newton_ctx *ctx, iteration *it)
{
    double slope = 0;
    for (int k = 0; k < w->ndof; k++)
        slope += w->grad[k] * w->step[k];
    for (int i = 0; i < w->n; i++)
        for (int c = 0; c < 3; c++)
            w->dir[3 * i + c] = w->dof[i] >= 0 ? w->step[w->dof[i] + c] : 0;
    it->alpha = 0;
    it->slope = slope;
    it->max_dx = 1;
    if (slope < 0) {
        /* none until the filter says (a line search without it, as the assignment's
         * stub, logs Armijo alone) */
        w->filters = (cloth__newton_filters){INFINITY, INFINITY, INFINITY, 0, 0, 0};
        it->alpha = cloth__newton_line_search(w, ctx, it->energy, slope);
        memcpy(w->x, w->x_trial, sizeof(double) * 3 * (size_t)w->n);
        it->descent = 1;
        it->filters = w->filters;
        /* Armijo halves from the filters' cap: alpha = cap 2^-k exactly */
        double cap = fmin(1.0, fmin(w->filters.obstacle, fmin(w->filters.ccd,
                                                               w->filters.strain)));
        it->armijo = cap > 0 ? it->alpha / cap : 1;
    }
}

/* newton.csv's alpha_by: which filter cut the accepted alpha most, by the fraction of
 * the full step each allowed (min(1, its bound); Armijo: what it kept of the filters'
 * step; max_dx: zozo's scale r).  Ties go to the one named first; "full" when none cut
 * (alpha = 1), "no_descent" when dx was no descent direction and x stayed. */
static const char *alpha_by(const iteration *it, double frac[5])
{
    static const char *const names[] = {"obstacle", "ccd", "strain", "armijo", "max_dx"};
    const cloth__newton_filters *f = &it->filters;
    frac[0] = fmin(1.0, f->obstacle);
    frac[1] = fmin(1.0, f->ccd);
    frac[2] = fmin(1.0, f->strain);
    frac[3] = it->armijo;
    frac[4] = it->max_dx;
    if (!it->descent) {
        for (int k = 0; k < 5; k++)
            frac[k] = NAN;
        return "no_descent";
    }
    const char *by = "full";
    double least = 1;
    for (int k = 0; k < 5; k++)
        if (frac[k] < least) {
            least = frac[k];
            by = names[k];
        }
    return by;
}

/* newton.last_step = full: a Newton step already within tol (log_iteration's test) is
 * taken whole.  Near the solution E changes by about |grad E| |dx|, below the round-off
 * of E itself, so Armijo's test compares noise: on the work-precision swing scene it cut
 * such steps to alpha ~ 2^-28 in half the steps, leaving their correction in x (~h^3
 * there: the iteration starts at x_n, an O(h) guess).  The velocity update divides it
 * by h, and the midpoint rule, which damps nothing, keeps it: an error of first order in
 * h (docs/figures.md, work-precision).  The rest of the step is taken when the
 * feasibility filter allows it; E is evaluated there, so that what the step reports
 * seeing (barrier gaps) is the end point's.  newton.last_step = armijo (the default)
 * leaves the line search's alpha. */
static void take_last_step(cloth__newton *w, const cloth__newton_ctx *ctx, iteration *it,
                           double tol)
{
    if (ctx->nd->last_step != CLOTH__LAST_STEP_FULL || it->alpha >= 1 ||
        inf_norm(w->step, w->ndof) / w->h >= tol)
        return;
    double rest = 1 - it->alpha;
    if (cloth__newton_feasible_alpha(w, ctx, w->x, w->dir) < rest)
        return;
    for (int i = 0; i < 3 * w->n; i++)
        w->x[i] += rest * w->dir[i];
    cloth__newton_energy(w, ctx, w->x, NULL, 0, 0);
    it->alpha = 1;
    it->armijo = 1; /* newton.csv: the step was taken whole */
}

/* newton.csv's own columns (newton_log_columns): the slots of cloth_iter's value and word. */
enum {
    LOG_ALPHA, LOG_COND, LOG_KAPPA_MAX, LOG_ACTIVE_CONTACTS, LOG_REGULARIZED,
    LOG_ALPHA_CONTACT, LOG_ALPHA_STRAIN, LOG_ALPHA_ARMIJO, LOG_ALPHA_MAX_DX,
    LOG_BOUND_CONTACT, LOG_BOUND_STRAIN
};
enum { LOG_COND_METHOD, LOG_ALPHA_BY };

/* Log: the step's stats and a newton.csv row; 1 when |dx|_inf / h < tol. */
static int log_iteration(cloth__newton *w, const cloth__newton_ctx *ctx,
                         const iteration *it, double tol, cloth__step_stats *stats)
{
    double dx_norm = inf_norm(w->step, w->ndof);
    stats->iterations++;
    stats->regularized += it->eps > 0;
    stats->lin_capped += it->capped;
    const char *how = cloth__newton_cond_method(w, ctx->nd);
    if (!isnan(it->cond)) {
        stats->cond_max = isnan(stats->cond_max) ? it->cond : fmax(stats->cond_max, it->cond);
        stats->cond_method = how;
    }
    if (w->n_rows < w->row_cap) {
        cloth_iter *row = &w->rows[w->n_rows++];
        double frac[5];
        const char *by = alpha_by(it, frac);
        const cloth__newton_filters *f = &it->filters;
        *row = (cloth_iter){
            .frame = ctx->frame + 1, .iter = it->row, .energy = it->energy,
            .grad_norm = inf_norm(w->grad, w->ndof), .step_norm = it->alpha * dx_norm,
            .lin_iters = it->lin_iters,
            .value = {[LOG_ALPHA] = it->alpha, [LOG_COND] = it->cond,
                      [LOG_KAPPA_MAX] = it->seen.kappa_max,
                      [LOG_ACTIVE_CONTACTS] = it->seen.active, [LOG_REGULARIZED] = it->eps > 0,
                      [LOG_ALPHA_CONTACT] = fmin(frac[0], frac[1]),
                      [LOG_ALPHA_STRAIN] = frac[2], [LOG_ALPHA_ARMIJO] = frac[3],
                      [LOG_ALPHA_MAX_DX] = frac[4],
                      [LOG_BOUND_CONTACT] = f->n_obstacle + f->n_ccd + it->n_max_dx,
                      [LOG_BOUND_STRAIN] = f->n_strain}};
        snprintf(row->word[LOG_COND_METHOD], sizeof row->word[0], "%s", how);
        snprintf(row->word[LOG_ALPHA_BY], sizeof row->word[0], "%s", by);
    }
    return dx_norm / w->h < tol;
}

/* A step stalls (issue 31) when STALL_ITERS iterations in a row move x by less than
 * STALL_MOVE of the convergence tolerance (alpha |dx|_inf / h < STALL_MOVE tol) and leave
 * E unchanged to STALL_ENERGY relatively, while the Newton step dx itself is not small:
 * the feasibility filter or Armijo holds alpha near 0 (the cubic barrier with a kappa
 * frozen at the step's start measured alpha ~ 1e-15 for 44 iterations, E equal to 6
 * digits).  Nothing changes between such iterations, so running on to max_iters only
 * costs time; the step stops and says so.  A step whose line search found no descent
 * at all (alpha = 0) stops at once, as stalled too. */
#define STALL_ITERS 3
#define STALL_MOVE 1e-3
#define STALL_ENERGY 1e-10

typedef struct stall {
    double energy;              /* E at the last iterate                              */
    int still;                  /* iterations in a row that neither moved nor changed E */
} stall;

static int stalled(stall *s, const iteration *it, double dx_norm, double h, double tol)
{
    int moved = it->alpha * dx_norm / h >= STALL_MOVE * tol;
    int same = fabs(it->energy - s->energy) <=
               STALL_ENERGY * fmax(fabs(it->energy), fabs(s->energy));
    s->still = !moved && same ? s->still + 1 : 0;
    s->energy = it->energy;
    return s->still >= STALL_ITERS;
}

/* Velocities: v_{n+1} = (x - x_n)/h (euler), (x - x_hat)/h' (bdf2), 2 (x - x_n)/h - v_n
 * (midpoint); pinned vertices keep their place and rest.  BDF2's history moves on. */
static void update_velocities(cloth__newton *w, const cloth__newton_ctx *ctx,
                              cloth_sim *sim)
{
    cloth__newton_integrator integrator = ctx->nd->integrator;
    double h = ctx->h;
    for (int i = 0; i < w->n; i++)
        for (int c = 0; c < 3; c++) {
            int k = 3 * i + c;
            if (w->dof[i] < 0) {
                sim->v[k] = 0;
                continue;
            }
            if (w->bdf2)
                sim->v[k] = (w->x[k] - w->x_hat[k]) / w->h_damp;
            else if (integrator == CLOTH__INTEGRATOR_MIDPOINT)
                sim->v[k] = 2 * (w->x[k] - w->x_n[k]) / h - w->v_n[k];
            else
                sim->v[k] = (w->x[k] - w->x_n[k]) / h;
            sim->x[k] = w->x[k];
        }
    if (integrator == CLOTH__INTEGRATOR_BDF2) {
        size_t bytes = sizeof(double) * 3 * (size_t)w->n;
        memcpy(w->x_prev, w->x_n, bytes);
        memcpy(w->v_prev, w->v_n, bytes);
        memcpy(w->v_last, sim->v, bytes);
        w->h_prev = h;
        w->history = 1;
    }
}

/* Appends " at iteration K" to the message of a failed stage. */
static cloth_status at_iteration(cloth_status st, int row, cloth_error *err)
{
    char why[CLOTH_MSG_MAX];
    snprintf(why, sizeof why, "%s", err->msg);
    return cloth__fail(err, st, "%s at iteration %d", why, row);
}

/* The solve stage's own split (analyse, factor, solve) is newton_system.c's. */
static void add_stage_times(cloth__newton_profile *p, const double t[5])
{
    p->iterations++;
    p->assembly_ms += t[1] - t[0];
    p->cond_ms += t[3] - t[2];
    p->line_search_ms += t[4] - t[3];
}

/* ---------------------------------------------------- ZOZO's inexact loop */

/* newton.loop = zozo: the step loop of ZOZO's released solver (st-tech/ppf-contact-solver,
 * crates/ppf-cts-solver/src/cpp/main/main.cu, read at commit f23b356; its defaults in
 * crates/ppf-cts-core/src/datamodel/params.rs:227-246):
 *   - a Newton iteration solves H dx = -grad E at the iterate (main.cu:683-1076), scales
 *     dx so that no vertex moves more than max_dx, r = min(1, max_dx / max_i |dx_i|)
 *     (main.cu:1142-1165), and takes the collision and strain-limit check over the step
 *     extended 1.25 times (line_search_max_t): toi = t_hit / 1.25 <= 1 with t_hit the
 *     first time of impact on [0, 1.25] (contact/contact.cu:2735-2740,
 *     strainlimiting/strainlimiting.cu:303-304); x += toi r dx (main.cu:1373-1380);
 *   - no Armijo test and no convergence test: the loop accumulates the fraction of the
 *     step it has made good, a += (1 - a) r toi (main.cu:1366-1369), until a reaches
 *     target_toi (main.cu:1503-1506);
 *   - then one "error reduction" solve with the step shortened to a dt: x~ is rebuilt
 *     for it (main.cu:740-747) and x moves by toi r dx once more, a unchanged;
 *   - the step advances the clock by a dt only, and the next velocity is
 *     (x - x_start) / (a dt) (main.cu:1570-1572 keep a dt as prev_dt, which the next
 *     x~ divides by, main.cu:494-511).
 * Here a kernel step must cover h, so the loop runs such inner steps back to back, each
 * of the time still left, until h is covered (a contact-free inner step has toi = r = 1,
 * so a = 1 after one solve: two solves cover h).  The feasibility check is this
 * kernel's filter (gaps kept above eta times themselves) on the extended step.  ZOZO's
 * kappa is recomputed at every iterate; newton.kappa_update applies as in the converge
 * loop.  The step stops as stalled when toi falls to float epsilon (ZOZO's "ccd
 * failed", main.cu:1356-1364) and at max_iters solves in all; either leaves h
 * uncovered and counts as not converged.  Every solve is a descent direction even for an
 * indefinite H (newton.contact_hessian = exact): CHOLMOD solves H + eps I, positive
 * definite; PCG stops with an error at d'H d <= 0, and with every d'H d > 0 and its
 * preconditioner positive definite its iterate lowers the quadratic model, so grad E.dx
 * < 0.  But a shift eps (up to 10 max|H_ii|) shortens dx as it likes, and this loop would
 * take it as a Newton step: with exact, a step with a shifted solve stops "shifted". */
#define ZOZO_EXTEND 1.25
#define ZOZO_TOI_MIN 1.1920928955078125e-07 /* FLT_EPSILON */

/* One solve of the inner step: dx, its max_dx scale r and its time of impact toi; x moves
 * by toi r dx.  Returns the stage status; *moved = toi r. */
static cloth_status zozo_iteration(cloth__newton *w, const cloth__newton_ctx *ctx,
                                   iteration *it, double *scale, double *toi,
                                   cloth_error *err)
{
    cloth_status st;
    cloth__newton_advance_obstacles(w, ctx, w->x);
    if ((st = assemble(w, ctx, it, err)) != CLOTH_OK)
        return st;
    if ((st = solve(w, ctx, it, err)) != CLOTH_OK)
        return at_iteration(st, it->row, err);
    if ((st = condition_number(w, ctx, it, err)) != CLOTH_OK)
        return at_iteration(st, it->row, err);
    double longest = 0;
    for (int i = 0; i < w->n; i++) {
        double *d = w->dir + 3 * i;
        for (int c = 0; c < 3; c++)
            d[c] = w->dof[i] >= 0 ? w->step[w->dof[i] + c] : 0;
        longest = fmax(longest, sqrt(cloth__dot3(d, d)));
    }
    *scale = longest > ctx->nd->max_dx ? ctx->nd->max_dx / longest : 1;
    for (int i = 0; i < w->n && *scale < 1; i++)
        it->n_max_dx += sqrt(cloth__dot3(w->dir + 3 * i, w->dir + 3 * i)) > ctx->nd->max_dx;
    for (int k = 0; k < 3 * w->n; k++)
        w->dir[k] *= *scale * ZOZO_EXTEND; /* the extended step */
    *toi = fmin(1.0, cloth__newton_feasible_alpha(w, ctx, w->x, w->dir));
    it->descent = 1;
    it->filters = w->filters;
    it->armijo = 1;
    it->max_dx = *scale;
    for (int k = 0; k < 3 * w->n; k++)
        w->x[k] += *toi * w->dir[k] / ZOZO_EXTEND;
    it->alpha = *toi * *scale;
    return CLOTH_OK;
}

static cloth_status zozo_step(cloth__newton *w, const cloth__newton_ctx *ctx, cloth_sim *sim,
                              cloth__step_stats *stats, cloth_error *err)
{
    const cloth__newton_def *nd = ctx->nd;
    size_t bytes = sizeof(double) * 3 * (size_t)w->n;
    double h = ctx->h, left = h, tol = nd->tol * ctx->mesh->rest_diag;
    int solves = 0, stuck = 0, shifted = 0, first_row = w->n_rows;
    memcpy(w->z_x, ctx->x, bytes);
    memcpy(w->z_v, ctx->v, bytes);
    w->steps++;
    w->profile.steps++;
    while (left > 1e-12 * h && solves < nd->max_iters && !stuck) {
        cloth__newton_ctx inner = *ctx; /* the inner step: from z_x, z_v over `left` */
        inner.x = w->z_x;
        inner.v = w->z_v;
        inner.h = left;
        inner.t = ctx->t + (h - left);
        cloth__newton_prepare_step(w, &inner);
        memcpy(w->x, w->z_x, bytes);
        double made = 0; /* a: the fraction of `left` made good */
        int final = 0;
        while (solves < nd->max_iters) {
            if (final) { /* the error-reduction solve over a dt (main.cu:740-747) */
                inner.h = made * left;
                cloth__newton_prepare_step(w, &inner);
            }
            iteration it = {.row = w->n_rows};
            double scale = 0, toi = 0, t[5] = {cloth__newton_now_ms()};
            cloth_status st = zozo_iteration(w, &inner, &it, &scale, &toi, err);
            if (st != CLOTH_OK)
                return st;
            t[1] = t[2] = t[3] = t[4] = cloth__newton_now_ms();
            add_stage_times(&w->profile, t);
            solves++;
            log_iteration(w, &inner, &it, tol, stats);
            shifted += nd->contact_hessian == CLOTH__CONTACT_HESSIAN_EXACT && it.eps > 0;
            if (toi <= ZOZO_TOI_MIN) {
                stuck = 1;
                break;
            }
            if (final)
                break;
            made += (1 - made) * scale * toi;
            final = made >= nd->target_toi;
        }
        if (!final || stuck)
            break; /* out of solves: h not covered */
        double dt = made * left;
        for (int i = 0; i < w->n; i++)
            for (int c = 0; c < 3; c++) {
                int k = 3 * i + c;
                w->z_v[k] = w->dof[i] >= 0 ? (w->x[k] - w->z_x[k]) / dt : 0;
            }
        memcpy(w->z_x, w->x, bytes);
        left -= dt;
    }
    int covered = !(left > 1e-12 * h);
    if (w->n_rows > first_row)
        snprintf(w->rows[w->n_rows - 1].stop, sizeof w->rows[0].stop, "%s",
                 covered ? (shifted ? "shifted" : "converged") : stuck ? "stalled" : "max_iters");
    stats->not_converged = !covered || shifted;
    stats->stalled = stuck;
    for (int k = 0; k < 3 * w->n; k++) {
        sim->x[k] = w->dof[k / 3] >= 0 ? w->z_x[k] : sim->x[k];
        sim->v[k] = w->z_v[k];
    }
    cloth__newton_measure_state(w, ctx);
    return CLOTH_OK;
}

static cloth_status newton_step(cloth_sim *sim, void *work, double h, cloth__step_stats *stats,
                                cloth_error *err)
{
    cloth__newton *w = work;
    *stats = (cloth__step_stats){.cond_max = NAN};
    if (w->ndof == 0)
        return CLOTH_OK;
    cloth__newton_ctx step, *ctx = &step; /* what this step reads (newton_ctx.c) */
    cloth__newton_ctx_build(ctx, sim, h);
    const cloth__newton_def *nd = ctx->nd;
    if (nd->loop == CLOTH__LOOP_ZOZO)
        return zozo_step(w, ctx, sim, stats, err);
    predict(w, ctx);
    double tol = nd->tol * ctx->mesh->rest_diag, t[5];
    cloth__newton_seen seen = w->measured;
    int converged = 0, stuck = 0, first_row = w->n_rows;
    stall still = {NAN, 0};
    for (int k = 0; k < nd->max_iters && !converged && !stuck; k++) {
        iteration it = {.row = w->n_rows};
        cloth_status st;
        t[0] = cloth__newton_now_ms();
        cloth__newton_advance_obstacles(w, ctx, w->x);
        cloth__newton_body_advance(w, ctx, w->x);
        if ((st = assemble(w, ctx, &it, err)) != CLOTH_OK)
            return st;
        t[1] = cloth__newton_now_ms();
        if ((st = solve(w, ctx, &it, err)) != CLOTH_OK)
            return at_iteration(st, it.row, err);
        t[2] = cloth__newton_now_ms();
        if ((st = condition_number(w, ctx, &it, err)) != CLOTH_OK)
            return at_iteration(st, it.row, err);
        t[3] = cloth__newton_now_ms();
        line_search(w, ctx, &it);
        take_last_step(w, ctx, &it, tol);
        t[4] = cloth__newton_now_ms();
        add_stage_times(&w->profile, t);
        /* the barrier terms at the new x: an accepted point was E's last evaluation */
        seen = it.alpha > 0 ? w->eval : it.seen;
        check_spring_model(w, ctx, &it);
        int placed = w->sphere_s >= 1 && w->body_s >= 1; /* the obstacles got there */
        /* contact_hessian = exact: a shifted solve proves nothing (zozo_step's comment) */
        int shifted = nd->contact_hessian == CLOTH__CONTACT_HESSIAN_EXACT && it.eps > 0;
        converged = log_iteration(w, ctx, &it, tol, stats) && placed && !shifted;
        /* no descent possible (alpha = 0): not converged, unless dx was already small */
        stuck = !converged && placed &&
                (stalled(&still, &it, inf_norm(w->step, w->ndof), h, tol) || it.alpha == 0);
    }
    if (w->n_rows > first_row) /* the step's last row says why it stopped */
        snprintf(w->rows[w->n_rows - 1].stop, sizeof w->rows[0].stop, "%s",
                 converged ? "converged" : stuck ? "stalled" : "max_iters");
    stats->stalled = stuck;
    w->spring_exact = 0; /* the next step starts projected again */
    memcpy(w->sphere_from, w->sphere_c, sizeof w->sphere_from);
    cloth__newton_body_end(w);
    stats->not_converged = !converged;
    update_velocities(w, ctx, sim);
    w->measured = seen;
    return CLOTH_OK;
}

/* ------------------------------------------------------ metrics and logs */

static void newton_measure(const cloth_sim *sim, const void *work, cloth_frame *f)
{
    const cloth__newton *w = work;
    (void)sim;
    f->barrier = w->measured.barrier;
    if (isfinite(w->measured.self_gap)) {
        f->min_gap = f->has_gap ? fmin(f->min_gap, w->measured.self_gap) : w->measured.self_gap;
        f->has_gap = 1;
    }
}

static int newton_log(const void *work, const cloth_iter **rows)
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
    cloth__newton_ctx ctx; /* the potential's h: the last step's, or create's */
    cloth__newton_ctx_build(&ctx, sim, w->h);
    w->n_rows = 0;
    w->history = 0; /* BDF2 begins again with an implicit Euler step */
    w->reusable = 0; /* a reset run solves as a fresh one (determinism) */
    w->reuse_fails = 0;
    w->reuse_skip = 0;
    if (w->eigs)
        cloth__eigs_forget(w->eigs); /* and finds the same condition numbers */
    w->ipc_set = 0;
    w->ipc_kappa = 0;
    w->ipc_prev_gap = INFINITY;
    memcpy(w->sphere_from, ctx.sphere_c, sizeof w->sphere_from);
    cloth__newton_begin_obstacles(w);
    cloth__newton_body_start(w, &ctx);
    w->pair_overflows = 0;
    w->contact_overflows = 0;
    w->pattern_overflows = 0;
    memset(&w->profile, 0, sizeof w->profile);
    cloth__newton_clear_kappa(w, ctx.mesh);
    /* a strain kappa takes its stencil from the step's start (newton_kappa.c): for the
     * state measured before any step, that is the state itself */
    memcpy(w->x_n, ctx.x, sizeof(double) * 3 * (size_t)w->n);
    cloth__newton_measure_state(w, &ctx);
}


/* newton.csv: one row per Newton iteration, the generic fields and the kernel's own. */
static const cloth__column newton_columns[] = {
    CLOTH__LOG_FIELD(frame, "frame of the iteration"),
    CLOTH__LOG_FIELD(iter, "iteration within the frame (substeps continue the count)"),
    CLOTH__LOG_FIELD(energy, "incremental potential before the step"),
    CLOTH__LOG_FIELD(grad_norm, "|grad E|_inf"),
    CLOTH__LOG_FIELD(step_norm, "|alpha dx|_inf"),
    CLOTH__LOG_VALUE("alpha", LOG_ALPHA, "accepted step length"),
    CLOTH__LOG_VALUE("cond", LOG_COND, "condition number of the Newton matrix H; empty when "
                                       "off"),
    CLOTH__LOG_VALUE("kappa_max", LOG_KAPPA_MAX, "largest barrier stiffness in use"),
    CLOTH__LOG_VALUE("active_contacts", LOG_ACTIVE_CONTACTS, "active contact and "
                                                             "strain-limit terms"),
    CLOTH__LOG_VALUE("regularized", LOG_REGULARIZED, "1 when the Cholesky factorisation "
                                                     "needed eps I"),
    CLOTH__LOG_FIELD(lin_iters, "PCG iterations of the solve; 0 for a direct solver "
                                "(cholmod, dense)"),
    CLOTH__LOG_WORD("cond_method", LOG_COND_METHOD, "exact-2norm (eigenvalues), "
                                                    "estimate-1norm (dpocon) or off"),
    CLOTH__LOG_WORD("alpha_by", LOG_ALPHA_BY, "the filter that cut alpha most: obstacle, "
                                              "ccd (self-contact), strain, armijo, max_dx "
                                              "(zozo); full (alpha = 1) or no_descent"),
    CLOTH__LOG_VALUE("alpha_contact", LOG_ALPHA_CONTACT, "fraction of the full step the "
                                                         "contact filters allowed "
                                                         "(obstacles and self-contact)"),
    CLOTH__LOG_VALUE("alpha_strain", LOG_ALPHA_STRAIN, "fraction of the full step the strain "
                                                       "filter allowed"),
    CLOTH__LOG_VALUE("alpha_armijo", LOG_ALPHA_ARMIJO, "fraction of the filters' step "
                                                       "Armijo kept, 2^-halvings"),
    CLOTH__LOG_VALUE("alpha_max_dx", LOG_ALPHA_MAX_DX, "zozo: max_dx's scale of dx; 1 "
                                                       "otherwise"),
    CLOTH__LOG_VALUE("bound_contact", LOG_BOUND_CONTACT, "vertices whose obstacle bound is "
                                                         "below 1, self-contact queries that "
                                                         "found an impact, vertices past "
                                                         "max_dx (zozo)"),
    CLOTH__LOG_VALUE("bound_strain", LOG_BOUND_STRAIN, "limited triangles or edges whose "
                                                       "bound is below 1 (and below the "
                                                       "obstacles')"),
    CLOTH__LOG_FIELD(stop, "on a step's last row why it stopped: converged, max_iters, "
                           "stalled (alpha |dx|_inf and E unchanged over iterations in a "
                           "row) or shifted (loop = zozo, contact_hessian = exact: a solve "
                           "needed a Tikhonov shift); empty otherwise"),
};

static const cloth__log_columns newton_log_columns = {
    "newton.csv", newton_columns, (int)(sizeof newton_columns / sizeof newton_columns[0])};

const cloth__kernel cloth__newton_kernel = {
    .name = "newton",
    .summary = "implicit Euler, BDF2 or implicit midpoint by Newton's method, log (IPC) or "
               "cubic (ZOZO) barrier",
    .keys = cloth__newton_keys,
    .n_keys = CLOTH__NEWTON_N_KEYS,
    .create = cloth__newton_create,
    .destroy = cloth__newton_destroy,
    .start = newton_start,
    .step = newton_step,
    .measure = newton_measure,
    .log = newton_log,
    .begin_frame = newton_begin_frame,
    /* a sparse Cholesky of 3 x (free vertices) unknowns a few times a frame (make bench:
     * ~10 ms an iteration at 2070 unknowns, ~22 ms at 2700, ~130 ms at 12 288): past
     * about 6000 a frame takes longer than a viewer can wait */
    .interactive_max = 6000,
    .dense_max = 0, /* newton.solver = dense has its own limit (newton_system.c) */
    .iteration_key = "max_iters",
    .stiffness_key = NULL,
    .stiffness_max = 0,
    .reports_cond = 1,
    .cond_off = "cond=off",
    /* Below interactive_max PCG wins or ties (issue 34, docs/viewer.md): the viewer's
     * 30 x 24 scene while the sphere passes, 13.3 ms of CPU a frame against CHOLMOD's
     * 32.2 (which caps it under 30 frames/s even on an idle machine); the 30 x 30 drape
     * in self-contact 17-20 ms an iteration both.  PCG keeps compressed springs'
     * Hessians projected (newton.spring_hessian), which a viewer does not miss. */
    .interactive_set = "solver=pcg",
    .frame_substeps = 1, /* implicit: stable at h = 1/60 s */
    /* contact: its own barriers (the contact stage is not built).  Every obstacle is a
     * barrier; every run.self_collision mode but off is its self-contact barrier
     * (newton.contact picks the pairs); the body's continuation within a step asks for
     * distances between two poses, which the ellipsoids' skinned triangles do not
     * have (sdf and capsules only) */
    .contact = CLOTH__CONTACT_OWN,
    .self_modes = CLOTH__SELF_ALL,
    .obstacles = CLOTH__OBSTACLE_ALL,
    .avatar_collisions = 1u << CLOTH_AVATAR_SDF | 1u << CLOTH_AVATAR_CAPSULES,
    .log_columns = &newton_log_columns,
};
