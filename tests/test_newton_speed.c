/* The newton kernel's speed levers (issue 34) keep its results: the line search's kept
 * contact candidates miss no pair that a broad phase of its own would find at any
 * point the search evaluates; stored gaps, rest-shape tests and collections are the
 * computed ones, bit for bit; ARPACK's condition numbers are dsyevd's and repeat; a
 * step solved by PCG preconditioned with an earlier
 * factor meets its residual bound, and a run that reuses factors ends where one that
 * factors every iteration does, within the Newton tolerance; failed reuse backs off. */
#include "kernels/newton/newton.h"
#include "kernels/newton/newton_work.h"
#include "linalg/sparse.h"
#include "sim/sim.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static cloth_sim *load_sim(const char *path, const char *const *sets, int n)
{
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_load(path, &s, &err) == CLOTH_OK, "%s", err.msg);
    for (int k = 0; k < n; k++)
        ck_assert_msg(cloth_scene_set(&s, sets[k], k + 1, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    return sim;
}

/* ------------------------------------------- kept candidates are conservative */

static int contact_cmp(const void *pa, const void *pb)
{
    const cloth__contact *a = pa, *b = pb;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    if (a->b != b->b)
        return a->b < b->b ? -1 : 1;
    return a->elem < b->elem ? -1 : a->elem > b->elem;
}

/* The active terms at x, sorted; from the kept candidates when `kept`, else from a broad
 * phase of their own. */
static int active_at(cloth__newton *w, const cloth__newton_ctx *ctx, const double *x,
                     int kept, cloth__contact *out)
{
    int valid = w->cand_valid;
    w->cand_valid = kept;
    cloth__newton_collect_contacts(w, ctx, x);
    w->cand_valid = valid;
    memcpy(out, w->contacts, (size_t)w->n_contacts * sizeof *out);
    qsort(out, (size_t)w->n_contacts, sizeof *out, contact_cmp);
    return w->n_contacts;
}

/* A segment test's state: scene (b) of the self_contact figure after `frames` frames,
 * its positions x, room for a direction, a trial point and two sorted term lists. */
typedef struct segment_fixture {
    cloth_sim *sim;
    cloth__newton *w;
    cloth__newton_ctx ctx;
    int n;
    double *x, *dir, *xt;
    cloth__contact *a, *b;
} segment_fixture;

static void segment_setup(segment_fixture *f, const char *const *sets, int n_sets, int frames)
{
    cloth_frame fr;
    cloth_error err;
    f->sim = load_sim("../experiments/self_contact_drape3.ini", sets, n_sets);
    for (int k = 0; k < frames; k++)
        ck_assert_msg(cloth_sim_frame(f->sim, &fr, &err) == CLOTH_OK, "%s", err.msg);
    f->w = f->sim->work;
    cloth__newton_ctx_build(&f->ctx, f->sim, 0);
    f->n = f->w->n;
    size_t bytes = sizeof(double) * 3 * (size_t)f->n;
    f->x = malloc(bytes);
    f->dir = malloc(bytes);
    f->xt = malloc(bytes);
    f->a = malloc((size_t)f->w->contact_cap * sizeof *f->a);
    f->b = malloc((size_t)f->w->contact_cap * sizeof *f->b);
    memcpy(f->x, cloth_sim_positions(f->sim), bytes);
}

static void segment_teardown(segment_fixture *f)
{
    free(f->x);
    free(f->dir);
    free(f->xt);
    free(f->a);
    free(f->b);
    cloth_sim_destroy(f->sim);
}

/* The two sorted term lists must be the same. */
static void same_lists(const cloth__contact *a, int na, const cloth__contact *b, int nb,
                       int trial, double alpha)
{
    ck_assert_msg(na == nb, "trial %d alpha %g: %d terms from the kept candidates, %d from "
                  "a broad phase", trial, alpha, na, nb);
    for (int k = 0; k < na; k++)
        ck_assert_msg(contact_cmp(a + k, b + k) == 0, "trial %d alpha %g: term %d differs",
                      trial, alpha, k);
}

/* Scene (b) of the self_contact figure (three sheets 3 cm apart, contact distance
 * thickness + g^ = 1 cm), run to frame 14, where the sheets lie folded onto each other
 * over the sphere.  From there, random directions of up to 2 cm a vertex component:
 * the feasibility filter keeps its broad phase over the motion, and at every alpha the
 * line search may evaluate (0 <= alpha <= min(1, feasible alpha), and up to the whole
 * motion when the query did not overflow) the point-triangle and edge-edge terms found
 * from the kept candidates must be exactly those of a fresh broad phase at that point.
 * Why it must hold: every vertex of a stencil stays inside its box over the segment, a
 * pair within reach at some point of the segment has boxes within reach of each other,
 * and the query grows the boxes by that reach (newton_line_search.c). */
START_TEST(kept_candidates_miss_no_pair_on_the_segment)
{
    static const char *const sets[] = {"newton.cond=off", "newton.tol=1e-2"};
    segment_fixture f;
    segment_setup(&f, sets, 2, 14);
    cloth__newton *w = f.w;
    unsigned long seed = 34;
    int checked = 0, most = 0;
    for (int trial = 0; trial < 20; trial++) {
        for (int i = 0; i < 3 * f.n; i++)
            f.dir[i] = w->dof[i / 3] >= 0 ? 0.02 * (2 * tu_random(&seed) - 1) : 0;
        long overflows = w->pair_overflows;
        double feasible = cloth__newton_feasible_alpha(w, &f.ctx, f.x, f.dir);
        ck_assert(w->cand_valid);
        double top = fmin(1.0, feasible);
        double alphas[] = {0, 0.25 * top, 0.5 * top, top,
                           w->pair_overflows == overflows ? 1.0 : top};
        for (int s = 0; s < 5; s++) {
            for (int i = 0; i < 3 * f.n; i++)
                f.xt[i] = f.x[i] + alphas[s] * f.dir[i];
            int na = active_at(w, &f.ctx, f.xt, 1, f.a), nb = active_at(w, &f.ctx, f.xt, 0, f.b);
            same_lists(f.a, na, f.b, nb, trial, alphas[s]);
            checked++;
            most = na > most ? na : most;
        }
    }
    ck_assert_int_eq(checked, 100);
    ck_assert_int_gt(most, 0); /* self-contact terms were there to be missed */
    segment_teardown(&f);
}
END_TEST

/* The active terms at x = x0 + alpha dir, a trial point of the line search: collected
 * from the kept candidates with each pair bounded by the filter's d0 - alpha l_p (as the
 * Armijo trials collect them, w->trial), sorted; *skipped the candidates the bound left
 * out without a distance. */
static int active_at_trial(cloth__newton *w, const cloth__newton_ctx *ctx, const double *x,
                           double alpha, cloth__contact *out, long *skipped)
{
    double reach = ctx->thickness + ctx->nd->dhat;
    *skipped = 0;
    for (int kind = 0; kind < 2; kind++) {
        const double *b = kind ? w->cand_reach_ee : w->cand_reach_pt;
        for (int k = 0; k < (kind ? w->n_cand_ee : w->n_cand_pt); k++)
            *skipped += b[2 * k] - alpha * b[2 * k + 1] > reach * (1 + 1e-6);
    }
    w->full_valid = 0;
    w->trial = 1;
    w->trial_alpha = alpha;
    int n = active_at(w, ctx, x, 1, out);
    w->trial = 0;
    return n;
}

/* Issue 47, item 5: the Armijo trials collect their point-triangle and edge-edge terms
 * from the line search's kept candidates and compute no distance for a pair whose
 * distance at the segment's start, d0, less alpha times the speed l_p at which it may
 * close (relative to its first vertex), keeps it out of reach.  It fails with l_p
 * computed without the first edge's own (17 terms of 18) or halved (0 of 18).  A constructed
 * configuration: scene (b) of the self_contact figure at its start (three flat sheets 3
 * cm apart, contact distance thickness + g^ = 1 cm), the top sheet driven 5 cm down onto
 * the middle one and every free vertex jittered by up to 1 cm a component.  At every
 * trial point the line search evaluates (alpha = min(1, feasible alpha) 2^-j), the terms
 * so collected must be exactly those of a broad phase of their own at that point (every
 * pair it finds is among the kept candidates and none the bound skips is within reach:
 * d(alpha) >= d0 - alpha l_p, each vertex moving at most alpha |dir_i - dir_v0| relative
 * to the stencil's first).  The same check
 * with the bound taken at alpha = 0 (d0 alone: the motion forgotten) must miss pairs, so
 * the comparison can fail.  newton.eta = 0.1: the filter stops a pair at thickness +
 * eta (d0 - thickness), which for the sheets' 3 cm and thickness 0.5 cm is 0.75 cm with
 * 0.1 but 1 cm, the edge of reach, with the default 0.2, and a check with no term within
 * reach at any trial point proves nothing (the count `most` below). */
START_TEST(trial_bound_misses_no_pair)
{
    static const char *const sets[] = {"newton.cond=off", "newton.eta=0.1"};
    segment_fixture f;
    segment_setup(&f, sets, 2, 0);
    cloth__newton *w = f.w;
    double top_y = -INFINITY;
    for (int i = 0; i < f.n; i++)
        top_y = fmax(top_y, f.x[3 * i + 1]);
    unsigned long seed = 47;
    int checked = 0, most = 0, missed_without_motion = 0;
    long skipped_most = 0;
    for (int trial = 0; trial < 6; trial++) {
        for (int i = 0; i < 3 * f.n; i++) {
            int free_dof = w->dof[i / 3] >= 0, top = f.x[3 * (i / 3) + 1] > top_y - 0.01;
            f.dir[i] = free_dof ? 0.01 * (2 * tu_random(&seed) - 1) -
                                      (i % 3 == 1 && top ? 0.05 : 0) : 0;
        }
        w->cand_bounds = 0;
        double top_alpha = fmin(1.0, cloth__newton_feasible_alpha(w, &f.ctx, f.x, f.dir));
        ck_assert(w->cand_valid && w->cand_bounds);
        for (int j = 0; j < 8; j++) {
            double alpha = ldexp(top_alpha, -j);
            for (int i = 0; i < 3 * f.n; i++)
                f.xt[i] = f.x[i] + alpha * f.dir[i];
            long skipped;
            int na = active_at_trial(w, &f.ctx, f.xt, alpha, f.a, &skipped);
            int nb = active_at(w, &f.ctx, f.xt, 0, f.b);
            same_lists(f.a, na, f.b, nb, trial, alpha);
            /* the control: the bound without the motion */
            int nc = active_at_trial(w, &f.ctx, f.xt, 0, f.a, &(long){0});
            missed_without_motion += nc != nb;
            checked++;
            most = nb > most ? nb : most;
            skipped_most = skipped > skipped_most ? skipped : skipped_most;
        }
    }
    ck_assert_int_eq(checked, 48);
    ck_assert_int_gt(most, 0);           /* terms there were to be missed */
    ck_assert_int_gt(skipped_most, 0);   /* and the bound skipped pairs */
    ck_assert_int_gt(missed_without_motion, 0); /* a wrong bound is caught */
    segment_teardown(&f);
}
END_TEST

/* ------------------------------------------- work done once is the work done again */

/* The same scene at frame 14.  Three shortcuts of the contact collection must give what
 * computing afresh gives, bit for bit, since each replays the same operations on the
 * same values: a term's gap stored at its collection (w->contact_gap) is
 * cloth__newton_stencil_gap at that x; a candidate's stored rest-shape test
 * (w->cand_rest_*) is cloth__newton_stencil_near_at_rest; and a collection at the point
 * the last one from the same candidates was at (the iterate after an accepted trial
 * point) finds the same terms with the same gaps, and so the same E, as one made
 * afresh. */
static int same_terms(const cloth__newton *w, const cloth__contact *c, const double *g, int n)
{
    if (w->n_contacts != n)
        return 0;
    for (int k = 0; k < n; k++)
        if (contact_cmp(&w->contacts[k], &c[k]) != 0 ||
            memcmp(&w->contact_gap[k], &g[k], sizeof *g) != 0)
            return 0;
    return 1;
}

START_TEST(stored_gaps_and_collections_are_computed_ones)
{
    static const char *const sets[] = {"newton.cond=off", "newton.tol=1e-2"};
    cloth_sim *sim = load_sim("../experiments/self_contact_drape3.ini", sets, 2);
    cloth_frame f;
    cloth_error err;
    for (int k = 0; k < 14; k++)
        ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
    cloth__newton *w = sim->work;
    cloth__newton_ctx ctx;
    cloth__newton_ctx_build(&ctx, sim, 0);
    int n = w->n, stencils = 0, rest_known = 0, reused = 0;
    double *x = malloc(sizeof(double) * 3 * (size_t)n);
    double *dir = malloc(sizeof(double) * 3 * (size_t)n);
    double *xt = malloc(sizeof(double) * 3 * (size_t)n);
    cloth__contact *c = malloc((size_t)w->contact_cap * sizeof *c);
    double *g = malloc((size_t)w->contact_cap * sizeof *g);
    memcpy(x, cloth_sim_positions(sim), sizeof(double) * 3 * (size_t)n);
    unsigned long seed = 341;
    for (int trial = 0; trial < 6; trial++) {
        for (int i = 0; i < 3 * n; i++)
            dir[i] = w->dof[i / 3] >= 0 ? 0.01 * (2 * tu_random(&seed) - 1) : 0;
        double top = fmin(1.0, cloth__newton_feasible_alpha(w, &ctx, x, dir));
        ck_assert(w->cand_valid);
        for (int i = 0; i < 3 * n; i++)
            xt[i] = x[i] + 0.5 * top * dir[i];
        cloth__newton_energy(w, &ctx, xt, NULL, 0, 0);
        for (int k = 0; k < w->n_contacts; k++) {
            const cloth__contact *ck = &w->contacts[k];
            if (!cloth__newton_is_stencil(ck->kind))
                continue;
            double fresh = cloth__newton_stencil_gap(w, &ctx, ck, xt, NULL, NULL, NULL, NULL,
                                                     NULL);
            ck_assert_msg(memcmp(&fresh, &w->contact_gap[k], sizeof fresh) == 0,
                          "term %d: stored gap %.17g, computed %.17g", k, w->contact_gap[k],
                          fresh);
            stencils++;
        }
        for (int kind = 0; kind < 2; kind++) {
            int count = kind ? w->n_cand_ee : w->n_cand_pt;
            const signed char *known = kind ? w->cand_rest_ee : w->cand_rest_pt;
            cloth__broad_pairs bp = {w->cand_pt, w->n_cand_pt, w->cand_ee, w->n_cand_ee, 0};
            for (int k = 0; k < count; k++) {
                if (known[k] < 0)
                    continue;
                cloth__contact ck = cloth__newton_broad_pair(&bp, kind, k);
                int v[4];
                cloth__newton_stencil(w, &ctx, &ck, v);
                ck_assert_int_eq(known[k], cloth__newton_stencil_near_at_rest(&ctx, v, kind));
                rest_known++;
            }
        }
        /* the same point again: reused; then afresh */
        ck_assert(w->full_valid);
        int nc = w->n_contacts;
        memcpy(c, w->contacts, (size_t)nc * sizeof *c);
        memcpy(g, w->contact_gap, (size_t)nc * sizeof *g);
        double e_reused = cloth__newton_energy(w, &ctx, xt, NULL, 0, 0);
        ck_assert(same_terms(w, c, g, nc));
        w->full_valid = 0;
        double e_fresh = cloth__newton_energy(w, &ctx, xt, NULL, 0, 0);
        ck_assert(same_terms(w, c, g, nc));
        ck_assert_msg(memcmp(&e_reused, &e_fresh, sizeof e_fresh) == 0, "E %.17g reused, "
                      "%.17g afresh", e_reused, e_fresh);
        reused += nc > 0;
    }
    ck_assert_int_gt(stencils, 0); /* there were gaps, tests and terms to compare */
    ck_assert_int_gt(rest_known, 0);
    ck_assert_int_gt(reused, 0);
    free(x);
    free(dir);
    free(xt);
    free(c);
    free(g);
    cloth_sim_destroy(sim);
}
END_TEST

/* ----------------------------------------------------------------- factor reuse */

/* The hanging cloth of experiments/hanging.ini at 12 x 10, 20 frames, cond off. */
static cloth_sim *hanging_sim(const char *reuse)
{
    const char *const sets[] = {"run.kernel=newton", "run.substeps=1", "mesh.nx=12",
                                "mesh.ny=10", "newton.cond=off", "newton.solver=cholmod",
                                reuse};
    return load_sim("../experiments/hanging.ini", sets, 7);
}

/* With factor_reuse = 10, every frame's last iteration that was solved by reuse (its
 * newton.csv row counts PCG iterations) leaves |H dx + grad E| <= reuse_tol |grad E| for
 * that iteration's H, grad E and dx (recomputed here by a product with H); most
 * iterations reuse (fewer factorisations than half the iterations); and the end state
 * lies within the Newton tolerance tol L of the run that factors every iteration (both
 * stop at |dx|_inf / h < tol L, from minimisers of the same potentials). */
START_TEST(reused_factor_solves_to_its_tolerance_and_keeps_the_run)
{
    cloth_sim *a = hanging_sim("newton.factor_reuse=0");
    cloth_sim *b = hanging_sim("newton.factor_reuse=10");
    cloth__newton *w = b->work;
    const cloth__newton_def *nd = cloth__sim_settings(b);
    ck_assert_int_eq(nd->factor_reuse, 10);
    double *r = malloc(sizeof(double) * (size_t)w->ndof);
    cloth_frame f;
    cloth_error err;
    int checked = 0;
    for (int frame = 0; frame < 20; frame++) {
        ck_assert_msg(cloth_sim_frame(a, &f, &err) == CLOTH_OK, "%s", err.msg);
        ck_assert_msg(cloth_sim_frame(b, &f, &err) == CLOTH_OK, "%s", err.msg);
        const cloth_iter *rows;
        int n = cloth_sim_log(b, &rows);
        if (n == 0 || rows[n - 1].lin_iters == 0)
            continue;
        cloth__sparse_mul(w->H, w->step, r);
        double res = 0, g = 0;
        for (int k = 0; k < w->ndof; k++) {
            res += (r[k] + w->grad[k]) * (r[k] + w->grad[k]);
            g += w->grad[k] * w->grad[k];
        }
        ck_assert_msg(sqrt(res) <= nd->reuse_tol * sqrt(g) * (1 + 1e-6),
                      "frame %d: residual %.3g of |grad| %.3g", frame + 1, sqrt(res), sqrt(g));
        checked++;
    }
    ck_assert_int_gt(checked, 0);
    cloth__newton_profile pa, pb;
    cloth__newton_profile_get(a->work, &pa);
    cloth__newton_profile_get(w, &pb);
    ck_assert_int_eq(pa.factorizations, pa.iterations);
    ck_assert_msg(2 * pb.factorizations < pb.iterations, "%ld factorisations in %ld "
                  "iterations", pb.factorizations, pb.iterations);
    const double *xa = cloth_sim_positions(a), *xb = cloth_sim_positions(b);
    double tol = nd->tol * cloth_sim_mesh(a)->rest_diag, worst = 0;
    for (int k = 0; k < 3 * w->n; k++)
        worst = fmax(worst, fabs(xa[k] - xb[k]));
    ck_assert_msg(worst <= tol, "end states %.3g apart (tol L = %.3g)", worst, tol);
    free(r);
    cloth_sim_destroy(a);
    cloth_sim_destroy(b);
}
END_TEST

/* The backoff: with a residual no PCG iteration can reach (reuse_tol = 1e-30, one
 * iteration allowed) every attempt fails, so the rule of newton_system.c fixes where the
 * attempts are: iteration 1 has no factor yet, 2 and 3 try, and after f >= 2 failures in
 * a row the next 2^(f-1) - 1 iterations (f at most 6) factor without trying; attempts at
 * 2, 3, 5, 9, 17, 33, then every 32nd.  Each failed attempt makes exactly one PCG
 * iteration (its start residual is |grad E| > 1e-30 |grad E|), and every iteration
 * factors.  spring_hessian = project: the unprojected path factors without trying. */
START_TEST(failed_reuse_backs_off)
{
    const char *const sets[] = {"run.kernel=newton", "run.substeps=1", "mesh.nx=12",
                                "mesh.ny=10", "newton.cond=off", "newton.solver=cholmod",
                                "newton.spring_hessian=project", "newton.factor_reuse=1",
                                "newton.reuse_tol=1e-30"};
    cloth_sim *sim = load_sim("../experiments/hanging.ini", sets, 9);
    cloth_frame f;
    cloth_error err;
    for (int frame = 0; frame < 30; frame++)
        ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
    cloth__newton_profile p;
    cloth__newton_profile_get(sim->work, &p);
    long attempts = 0, next = 2, fails = 0;
    while (next <= p.iterations) {
        attempts++;
        fails += fails < 6;
        next += 1L << (fails - 1); /* the attempt, then 2^(f-1) - 1 skipped */
    }
    ck_assert_int_gt(p.iterations, 33); /* the cap of 31 skipped iterations is reached */
    ck_assert_int_eq(p.factorizations, p.iterations);
    ck_assert_int_eq(p.lin_iters, attempts);
    cloth_sim_destroy(sim);
}
END_TEST

/* ------------------------------------------- warm-started exact condition numbers */

/* Every newton.csv row's cond of `frames` frames of the drape at 12 x 12 (ARPACK with
 * cond_exact_max = 0, dsyevd with 100000), into out; how many rows. */
static int drape_conds(const char *exact_max, int frames, double *out, int cap)
{
    const char *const sets[] = {"run.kernel=newton", "mesh.nx=12", "mesh.ny=12",
                                "newton.cond=exact", exact_max};
    cloth_sim *sim = load_sim("../experiments/drape.ini", sets, 5);
    cloth_frame f;
    cloth_error err;
    int n = 0;
    for (int pass = 0; pass < 2; pass++) { /* the second after a reset */
        for (int k = 0; k < frames; k++) {
            ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
            const cloth_iter *rows;
            int r = cloth_sim_log(sim, &rows);
            for (int i = 0; i < r && n < cap; i++)
                out[n++] = tu_log_value(sim, &rows[i], "cond");
        }
        cloth_sim_reset(sim);
    }
    cloth_sim_destroy(sim);
    return n;
}

/* ARPACK's condition numbers (lambda_min by shift-invert at a tolerance chosen from the
 * last call's lambda_min, eigs.c) must be the exact ones, those of dsyevd on the dense H, to the 1e-6
 * relative that ARPACK's tolerance promises (eigs.h), at every iteration of a drape that
 * falls onto the sphere; and a reset run must repeat the first run's values bit for bit
 * (no state of one run may leak into the next: a warm start of lambda_max's Lanczos from
 * the last eigenvector, tried for issue 34 without a check, failed here by 6.7e-6; it
 * landed with a Cholesky proof that no eigenvalue lies above, eigs.c). */
START_TEST(arpack_condition_numbers_are_exact_and_repeat)
{
    enum { CAP = 2000, FRAMES = 15 };
    double *arpack = malloc(CAP * sizeof *arpack), *dense = malloc(CAP * sizeof *dense);
    int na = drape_conds("newton.cond_exact_max=0", FRAMES, arpack, CAP);
    int nd = drape_conds("newton.cond_exact_max=100000", FRAMES, dense, CAP);
    ck_assert_int_eq(na, nd);
    ck_assert_int_gt(na, 2 * FRAMES);
    for (int i = 0; i < na; i++) {
        ck_assert_msg(fabs(arpack[i] / dense[i] - 1) <= 1e-6, "row %d: ARPACK %.12g, dsyevd "
                      "%.12g", i, arpack[i], dense[i]);
    }
    ck_assert(na % 2 == 0);
    for (int i = 0; i < na / 2; i++)
        ck_assert_msg(arpack[i] == arpack[na / 2 + i], "row %d: %.17g, after the reset %.17g",
                      i, arpack[i], arpack[na / 2 + i]);
    free(arpack);
    free(dense);
}
END_TEST

Suite *suite_newton_speed(void)
{
    Suite *s = suite_create("newton_speed");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, kept_candidates_miss_no_pair_on_the_segment);
    tcase_add_test(tc, trial_bound_misses_no_pair);
    tcase_add_test(tc, stored_gaps_and_collections_are_computed_ones);
    tcase_add_test(tc, reused_factor_solves_to_its_tolerance_and_keeps_the_run);
    tcase_add_test(tc, failed_reuse_backs_off);
    tcase_add_test(tc, arpack_condition_numbers_are_exact_and_repeat);
    suite_add_tcase(s, tc);
    return s;
}
