/* newton.contact_hessian = exact (issue 45 item 4): the Newton matrix a step assembles
 * through the key (not the energy entry's `exact` argument) is the true Hessian of E, the
 * contacts' indefinite kappa psi' d2g included; project differs from it by a negative
 * semi-definite matrix and stays positive definite; a step whose solve needed a Tikhonov
 * shift does not end as converged (either loop); ARPACK's floor is dropped. */
#include "kernels/newton/newton.h"
#include "kernels/newton/newton_work.h"
#include "linalg/dense.h"
#include "sim/sim.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define N 27 /* the 3 x 3 cloth's unknowns */

/* ------------------------------------------------ finite differences, key path */

/* A 3 x 3 cloth folded about its middle column (the outer columns 15 mm apart, then
 * every length scaled by 1.01, so every spring is stretched and its Hessian is PSD as it
 * is: no spring projection can differ from the true Hessian), with the sphere, the
 * floor, the 2 % strain limit, friction, wind and damping all active, and point-triangle
 * and edge-edge terms between the folded columns (thickness 6 mm, g^ = 1 cm). */
static const char *folded_scene =
    "[mesh]\nnx = 3\nny = 3\nspacing = 0.1\nplane = xz\nsprings = structural,shear\n"
    "pins = none\n"
    "[material]\nk_structural = 40\nk_shear = 15\nvertex_mass = 0.01\nspring_damping = 0.2\n"
    "thickness = 0.006\n"
    "[world]\nwind = 1 0 2\nair_damping = 0.3\n"
    "[sphere]\ncenter = 0.101 -0.307 0.101\nradius = 0.3\noffset = 0.002\n"
    "[plane]\nheight = -0.006\n"
    "[run]\nkernel = newton\ndt = 0.01\nself_collision = on\n"
    "[newton]\nbarrier = %s\nkappa = fixed\nkappa_value = 30\ndhat = 0.01\n"
    "strain_limit = 0.02\nstrain_band = 0.75\ncontact = full\ncontact_hessian = %s\n"
    "friction = 0.3\nfriction_eps = 0.04\n";

typedef struct { cloth__newton *w; cloth_sim *sim; } key_path;

static void gradient_of(const double *x, void *ctx, double *g)
{
    key_path *p = ctx;
    cloth__newton_potential(p->w, p->sim, x, g, 0, 0);
}

/* The folded state, prepared as a step's start; y <- the evaluation point near it. */
static cloth_sim *folded(const char *barrier, const char *hessian, double *y)
{
    char text[2048];
    snprintf(text, sizeof text, folded_scene, barrier, hessian);
    cloth_sim *sim = tu_sim(text, "newton_exact.ini");
    double *x = cloth_sim_positions(sim), *v = cloth_sim_velocities(sim);
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
            double *p = x + 3 * (3 * j + i), phi = 0.15;
            p[0] = 1.01 * (i < 2 ? 0.1 * i : 0.1 - 0.1 * cos(phi));
            p[1] = 1.01 * (i < 2 ? 0 : 0.1 * sin(phi));
            p[2] = 1.01 * 0.1 * j;
        }
    for (int k = 0; k < N; k++) {
        v[k] = 0.05 * sin(1.7 * k);
        y[k] = x[k] + 2e-4 * cos(2.3 * k);
    }
    cloth__newton_prepare(sim->work, sim, 0.01);
    return sim;
}

/* The assembled Newton matrix at y, as a step assembles it (exact argument 0). */
static void newton_matrix(cloth_sim *sim, const double *y, double *H)
{
    double g[N];
    cloth__newton_potential(sim->work, sim, y, g, 1, 0);
    cloth__newton_hessian_dense(sim->work, H);
}

static void eig_range(const double *A, int n, double *lo, double *hi)
{
    cloth__linalg *la;
    cloth_error err;
    ck_assert(cloth__linalg_create(n, &la, &err) == CLOTH_OK);
    ck_assert_msg(cloth__linalg_eig_range(la, A, lo, hi, &err) == CLOTH_OK, "%s", err.msg);
    cloth__linalg_destroy(la);
}

/* With contact_hessian = exact the assembled H equals the central difference of the
 * assembled grad E, to 1e-6 of H's largest entry.  The step delta = 1e-7 m: the central
 * difference's truncation error is delta^2/6 |d3 E| per entry, and each derivative of a
 * barrier term gains a factor of about 1/g (g >= 1.6 mm here), so relative to H it is
 * about delta^2/g^2 ~ 4e-9; its round-off, eps_mach |grad E| / delta, is below that
 * until delta ~ 1e-8.  Measured on 2026-12-06: 1.6e-8 (log) and 4.8e-10 (cubic) at
 * delta = 1e-7, 1.6e-6 and 4.8e-8 at 1e-6 (the delta^2 law: truncation, not round-off),
 * so 1e-6 holds a margin of 60.  Project's distance from the same differences must be
 * 100 times the tolerance (measured 2.4e-4 and 1.2e-4: the check tells the two apart);
 * H_exact - H_project is negative semi-definite and not 0 beyond round-off (each
 * stencil block loses its negative part, the sphere's term its kappa psi' d2g, psi' < 0
 * and d2g = (I - n n^T)/|x - c| >= 0), and H_project is positive definite.
 * _i: log or cubic barrier. */
START_TEST(exact_key_assembles_the_true_hessian)
{
    const char *barrier = _i == 0 ? "log" : "cubic";
    double y[N], He[N * N], Hp[N * N], fd[N * N], D[N * N];
    cloth_sim *se = folded(barrier, "exact", y), *sp = folded(barrier, "project", y);
    cloth__newton *w = se->work;
    const cloth_mesh *m = cloth_sim_mesh(se);
    for (int s = 0; s < m->n_springs; s++) { /* stretched: projection changes none */
        const double *a = y + 3 * m->springs[s].a, *b = y + 3 * m->springs[s].b;
        double l = sqrt(pow(b[0] - a[0], 2) + pow(b[1] - a[1], 2) + pow(b[2] - a[2], 2));
        ck_assert_msg(l > m->springs[s].rest, "spring %d compressed", s);
    }
    newton_matrix(se, y, He);
    int kinds[8] = {0};
    for (int k = 0; k < w->n_contacts; k++)
        kinds[w->contacts[k].kind]++;
    ck_assert_msg(kinds[CLOTH__CONTACT_PT] > 0 && kinds[CLOTH__CONTACT_EE] > 0 &&
                  kinds[CLOTH__CONTACT_SPHERE] > 0 && kinds[CLOTH__CONTACT_FLOOR] > 0,
                  "%d point-triangle, %d edge-edge, %d sphere, %d floor terms",
                  kinds[CLOTH__CONTACT_PT], kinds[CLOTH__CONTACT_EE],
                  kinds[CLOTH__CONTACT_SPHERE], kinds[CLOTH__CONTACT_FLOOR]);
    key_path p = {w, se};
    tu_fd_jacobian(gradient_of, &p, y, N, 1e-7, fd);
    double err_exact = tu_rel_error(He, fd, N * N, 1e-3);
    ck_assert_msg(err_exact <= 1e-6, "%s: exact H against finite differences: %g", barrier,
                  err_exact);

    newton_matrix(sp, y, Hp);
    double err_project = tu_rel_error(Hp, fd, N * N, 1e-3);
    ck_assert_msg(err_project >= 1e-4, "%s: project H against finite differences: %g",
                  barrier, err_project);
    double lo, hi, scale = 0;
    for (int k = 0; k < N * N; k++) {
        D[k] = He[k] - Hp[k];
        scale = fmax(scale, fabs(He[k]));
    }
    eig_range(D, N, &lo, &hi);
    ck_assert_msg(hi <= 1e-12 * scale && lo <= -1e-8 * scale,
                  "%s: H_exact - H_project has eigenvalues in [%g, %g], |H| %g", barrier, lo,
                  hi, scale);
    eig_range(Hp, N, &lo, &hi);
    ck_assert_msg(lo > 0, "%s: project H's smallest eigenvalue %g", barrier, lo);
    cloth_sim_destroy(se);
    cloth_sim_destroy(sp);
}
END_TEST

/* ------------------------------------------- the tangential term, closed form */

/* Three vertices, two springs (k = 50 N/m, l0 = 0.1 m) at rest length in a V in the
 * xy-plane: vertex 1 at the origin, vertices 0 and 2 at (-+r/2, -sqrt(l0^2 - r^2/4), 0),
 * r = 5 mm apart, so the vertex pair (0, 2) (newton.contact = vertex, thickness 2 mm) has
 * the gap g = r - 2 mm = 3 mm < g^ = 1 cm.  m = 0.01 kg, h = 0.01 s, air damping c =
 * 0.1, no gravity, kappa = 100 fixed.  The pair's term kappa psi(|x0 - x2| - thickness)
 * has the Hessian kappa (psi'' (u, -u)(u, -u)^T + psi'/r [[P, -P], [-P, P]]), u = (x0 -
 * x2)/r, P = I - u u^T.  Take v = (t, 0, -t), t = e_z, normal to the plane: u.t = 0 and
 * P t = t, so the term maps v to (2 kappa psi'/r) v; each spring's Hessian at rest is k
 * w w^T with w in the plane (spring damping: u_n u_n^T, the same w), so it maps v to 0;
 * mass and air damping give (m/h^2 + c/h) v.  So v is an eigenvector of
 *   H_exact:   lambda = m/h^2 + c/h + 2 kappa psi'(g)/r = 110 + 2 kappa psi'/r,
 *   H_project: lambda = 110  (the pair's psi' d2g dropped),
 * with psi'(g) = -(2/g^)(g^ - g)^2 (cubic: -9.8e-3, lambda = -282) or (g^ - g)(2 ln(g/g^)
 * - g^/g + 1) (log: -3.32e-2, lambda = -1218): psi' < 0 across the pair makes H_exact
 * indefinite, by the term the cubic-barrier article says to drop.  H_exact - H_project =
 * kappa psi'/r [[P, -P], [-P, P]] on (0, 2): eigenvalues 2 kappa psi'/r (twice, along
 * the two directions across u) and 0 (seven times); H_project >= (m/h^2 + c/h) I, being
 * that plus PSD terms. */
static const char *vee_scene =
    "[mesh]\nnx = 3\nny = 1\nspacing = 0.1\nplane = xy\nsprings = structural\npins = none\n"
    "[material]\nk_structural = 50\nvertex_mass = 0.01\nthickness = 0.002\n"
    "[world]\ngravity = 0 0 0\nair_damping = 0.1\n"
    "[run]\nkernel = newton\ndt = 0.01\nself_collision = on\n"
    "[newton]\nbarrier = %s\nkappa = fixed\nkappa_value = 100\ndhat = 0.01\n"
    "contact = vertex\ncontact_hessian = %s\nstrain_limit = 0\ncond = %s\ncond_exact_max = 0\n"
    "tol = %g\nmax_iters = %d\nloop = %s\nsolver = cholmod\n";

#define VEE_R 0.005

static cloth_sim *vee(const char *barrier, const char *hessian, double tol, int max_iters,
                      const char *loop)
{
    char text[1024];
    snprintf(text, sizeof text, vee_scene, barrier, hessian, strcmp(loop, "cond") ? "off" :
             "exact", tol, max_iters, strcmp(loop, "cond") ? loop : "converge");
    cloth_sim *sim = tu_sim(text, "newton_exact_vee.ini");
    double *x = cloth_sim_positions(sim), down = sqrt(0.01 - VEE_R * VEE_R / 4);
    const double p[9] = {-VEE_R / 2, -down, 0, 0, 0, 0, VEE_R / 2, -down, 0};
    memcpy(x, p, sizeof p);
    return sim;
}

static double psi_prime(const char *barrier, double g, double dhat)
{
    double s = dhat - g;
    if (strcmp(barrier, "cubic") == 0)
        return -(2 / dhat) * s * s;
    return s * (2 * log(g / dhat) - dhat / g + 1); /* d/dg of -(g - g^)^2 ln(g/g^) */
}

/* |A v - lambda v|_inf / |lambda| for the 9 x 9 A */
static double eigen_residual(const double *A, const double *v, double lambda)
{
    double r = 0;
    for (int i = 0; i < 9; i++) {
        double s = -lambda * v[i];
        for (int j = 0; j < 9; j++)
            s += A[9 * i + j] * v[j];
        r = fmax(r, fabs(s));
    }
    return r / fabs(lambda);
}

START_TEST(exact_key_is_indefinite_across_a_pair)
{
    const char *barrier = _i == 0 ? "log" : "cubic";
    double He[81], Hp[81], D[81], g[9];
    cloth_sim *se = vee(barrier, "exact", 1e-3, 50, "converge");
    cloth_sim *sp = vee(barrier, "project", 1e-3, 50, "converge");
    cloth__newton_prepare(se->work, se, 0.01);
    cloth__newton_prepare(sp->work, sp, 0.01);
    const double *x = cloth_sim_positions(se);
    cloth__newton_potential(se->work, se, x, g, 1, 0);
    ck_assert_int_eq(((cloth__newton *)se->work)->n_contacts, 1);
    cloth__newton_hessian_dense(se->work, He);
    cloth__newton_potential(sp->work, sp, x, g, 1, 0);
    cloth__newton_hessian_dense(sp->work, Hp);

    const double base = 0.01 / (0.01 * 0.01) + 0.1 / 0.01;
    double tangential = 2 * 100 * psi_prime(barrier, VEE_R - 0.002, 0.01) / VEE_R;
    double lambda = base + tangential;
    ck_assert_msg(lambda < 0, "%s: closed form %g", barrier, lambda);
    const double v[9] = {0, 0, 1, 0, 0, 0, 0, 0, -1};
    ck_assert_msg(eigen_residual(He, v, lambda) <= 1e-9, "%s: H_exact v - %g v: %g", barrier,
                  lambda, eigen_residual(He, v, lambda));
    ck_assert_msg(eigen_residual(Hp, v, base) <= 1e-9, "%s: H_project v - %g v: %g", barrier,
                  base, eigen_residual(Hp, v, base));
    double lo, hi;
    eig_range(He, 9, &lo, &hi);
    ck_assert_msg(lo <= lambda * (1 - 1e-9), "%s: lambda_min(H_exact) %g above %g", barrier,
                  lo, lambda);
    eig_range(Hp, 9, &lo, &hi);
    ck_assert_msg(lo >= base * (1 - 1e-9), "%s: lambda_min(H_project) %g below %g", barrier,
                  lo, base);
    for (int k = 0; k < 81; k++)
        D[k] = He[k] - Hp[k];
    eig_range(D, 9, &lo, &hi);
    ck_assert_msg(fabs(lo / tangential - 1) <= 1e-9 && fabs(hi) <= 1e-9 * fabs(tangential),
                  "%s: H_exact - H_project in [%g, %g], closed form [%g, 0]", barrier, lo, hi,
                  tangential);
    cloth_sim_destroy(se);
    cloth_sim_destroy(sp);
}
END_TEST

/* ------------------------------------------------- a shifted solve, reported */

/* The V above, one Newton iteration (max_iters = 1) from rest with newton.tol = 1 (L =
 * 0.2 m: |dx|/h < 0.2 m/s passes).  H_exact is indefinite there (lambda = -282 or -1218),
 * so CHOLMOD factors H + eps I (regularized = 1), and the pair pushes its vertices apart
 * by ~1 mm, |dx|/h ~ 0.1 m/s: below tol, yet the step must not end as converged (the
 * shift, up to 10 max|H_ii|, shortens dx at will).  With project the same iteration is
 * unshifted and converges: the tolerance itself passes.  ZOZO's loop (loop = zozo, with
 * CHOLMOD) tests nothing and covers h in two solves; with exact its first one is shifted
 * and the step stops as "shifted", not converged. */
START_TEST(a_shifted_solve_does_not_converge)
{
    const char *barrier = _i == 0 ? "log" : "cubic";
    static const char *const hessian[2] = {"project", "exact"};
    for (int e = 0; e < 2; e++) {
        cloth_sim *sim = vee(barrier, hessian[e], 1.0, 1, "converge");
        cloth_frame f;
        cloth_error err;
        ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
        const cloth_iter *rows;
        ck_assert_int_eq(cloth_sim_log(sim, &rows), 1);
        double alpha = tu_log_value(sim, &rows[0], "alpha");
        ck_assert(alpha > 0);
        double dx = rows[0].step_norm / alpha;
        ck_assert_msg(dx / 0.01 < 1.0 * 0.2, "%s %s: |dx|/h = %g", barrier, hessian[e],
                      dx / 0.01);
        ck_assert_int_eq((int)tu_log_value(sim, &rows[0], "regularized"), e);
        ck_assert_str_eq(rows[0].stop, e ? "max_iters" : "converged");
        ck_assert_int_eq(f.not_converged, e);
        cloth_sim_destroy(sim);

        sim = vee(barrier, hessian[e], 1e-3, 50, "zozo");
        ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
        int n = cloth_sim_log(sim, &rows);
        ck_assert_int_ge(n, 2);
        ck_assert_int_eq((int)tu_log_value(sim, &rows[0], "regularized"), e);
        ck_assert_str_eq(rows[n - 1].stop, e ? "shifted" : "converged");
        ck_assert_int_eq(f.not_converged, e);
        cloth_sim_destroy(sim);
    }
}
END_TEST

/* ARPACK's floor (newton_system.c): the exact condition number's lambda_min search may
 * start from the bound m/h^2 + c/h = 110 of a matrix whose every other term is PSD.
 * H_exact of the V goes below it (lambda = -282 or -1218), so with contact_hessian =
 * exact there is no floor: cond is infinite (lambda_min < 0).  The projected H comes
 * first in the same work, so ARPACK holds a bottom Ritz vector of its eigenvalue 110
 * which, under a floor left at 110, would pass as lambda_min of H_exact too (the
 * V's out-of-plane translation is an eigenvector of both). */
START_TEST(arpack_has_no_floor_under_exact)
{
    const char *barrier = _i == 0 ? "log" : "cubic";
    cloth_sim *sim = vee(barrier, "project", 1e-3, 50, "cond");
    cloth__newton *w = sim->work;
    cloth__newton_def *nd = (cloth__newton_def *)(void *)sim->scene.kernel[sim->kernel_slot].bytes;
    cloth__newton_prepare(w, sim, 0.01);
    cloth__newton_ctx ctx;
    cloth__newton_ctx_build(&ctx, sim, w->h);
    double cond[2], eps[2];
    cloth_error err;
    for (int e = 0; e < 2; e++) { /* as an iteration: assemble, solve (CHOLMOD), cond */
        int iters, capped;
        nd->contact_hessian = e ? CLOTH__CONTACT_HESSIAN_EXACT : CLOTH__CONTACT_HESSIAN_PROJECT;
        cloth__newton_potential(w, sim, cloth_sim_positions(sim), w->grad, 1, 0);
        ck_assert_msg(cloth__newton_system_solve(w, &ctx, &eps[e], &iters, &capped, &err) ==
                      CLOTH_OK, "%s", err.msg);
        ck_assert_msg(cloth__newton_system_cond(w, &ctx, &cond[e], &err) == CLOTH_OK, "%s",
                      err.msg);
    }
    ck_assert(eps[0] == 0 && eps[1] > 0); /* H_exact needed a shift */
    ck_assert_msg(isfinite(cond[0]) && cond[0] >= 1, "%s: project cond %g", barrier, cond[0]);
    ck_assert_msg(isinf(cond[1]), "%s: exact cond %g, not infinite", barrier, cond[1]);
    cloth_sim_destroy(sim);
}
END_TEST

Suite *suite_newton_exact(void)
{
    Suite *s = suite_create("newton_exact");
    TCase *tc = tcase_create("exact");
    tcase_add_loop_test(tc, exact_key_assembles_the_true_hessian, 0, 2);
    tcase_add_loop_test(tc, exact_key_is_indefinite_across_a_pair, 0, 2);
    tcase_add_loop_test(tc, a_shifted_solve_does_not_converge, 0, 2);
    tcase_add_loop_test(tc, arpack_has_no_floor_under_exact, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}
