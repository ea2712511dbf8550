/* pbd's strain limit in the coloured order (pbd.order = coloured) against mathematics,
 * beside the sequential order (tests/test_strain_project.c has the sequential cases):
 *
 *   - one triangle (the mesh of a one-face OBJ, springs of stiffness 0, so that XPBD's
 *     distance constraints have infinite compliance and do nothing) stretched by
 *     F = R (s1 e1 e1^T + s2 e2 e2^T), e1 = (1, 1)/sqrt 2 in its rest plane: e1 is an
 *     eigenvector of G = sum_c grad N_c grad N_c^T (the shape functions' gradients), so
 *     the step along grad sigma1 = u1 (e1 . grad N_c) changes F by a multiple of u1 e1^T
 *     alone, sigma1 is linear along it, and one projection gives sigma1 = 1 + tau exactly,
 *     sigma2 unchanged, the centre of mass kept (sum_c grad N_c = 0, equal masses);
 *   - stretched along an edge instead (not an eigenvector: the step is a linearisation),
 *     the passes converge to sigma1 = 1 + tau;
 *   - compressed, both measures leave every bit of the positions alone;
 *   - a vertical chain hung from its top, far too soft to hold itself: every spring ends
 *     at (1 + tau) l0 with the coloured order as with the sequential one;
 *   - a corner-hung cloth keeps its limited measure within tau (1 + 1e-3) in every frame
 *     whose steps all converged, both measures, and the numbers do not depend on
 *     run.threads (each colour's items share no vertex). */
#include "cloth.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ one triangle */

/* R: rotation about (1, 2, 3)/|.| by 0.7 rad (Rodrigues). */
static void rotation(double R[9])
{
    double a[3] = {1, 2, 3}, l = sqrt(14), c = cos(0.7), s = sin(0.7);
    for (int k = 0; k < 3; k++)
        a[k] /= l;
    double K[9] = {0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            R[3 * i + j] = (i == j ? c : 0) + s * K[3 * i + j] + (1 - c) * a[i] * a[j];
}

/* x_c = R (s1 (e1.X_c) e1 + s2 (e2.X_c) e2) + t for the rest corners X (in the xy plane);
 * the principal directions e1 = (cos phi, sin phi), e2 = (-sin phi, cos phi). */
static void deform(const double X[9], double s1, double s2, double phi, double x[9])
{
    static const double t[3] = {0.3, -0.2, 0.5};
    double R[9], e1[2] = {cos(phi), sin(phi)}, e2[2] = {-sin(phi), cos(phi)};
    rotation(R);
    for (int c = 0; c < 3; c++) {
        double a1 = e1[0] * X[3 * c] + e1[1] * X[3 * c + 1];
        double a2 = e2[0] * X[3 * c] + e2[1] * X[3 * c + 1];
        double p[3] = {s1 * a1 * e1[0] + s2 * a2 * e2[0], s1 * a1 * e1[1] + s2 * a2 * e2[1], 0};
        for (int k = 0; k < 3; k++)
            x[3 * c + k] = R[3 * k] * p[0] + R[3 * k + 1] * p[1] + R[3 * k + 2] * p[2] + t[k];
    }
}

/* The singular values of the 3x2 F = [x1 - x0, x2 - x0] Dm^-1 of the rest triangle
 * (0,0), (l,0), (0,l): Dm^-1 = I / l; from the eigenvalues of F^T F. */
static void sigmas(const double x[9], double l, double s[2])
{
    double f1[3], f2[3];
    for (int k = 0; k < 3; k++) {
        f1[k] = (x[3 + k] - x[k]) / l;
        f2[k] = (x[6 + k] - x[k]) / l;
    }
    double a = f1[0] * f1[0] + f1[1] * f1[1] + f1[2] * f1[2];
    double b = f1[0] * f2[0] + f1[1] * f2[1] + f1[2] * f2[2];
    double d = f2[0] * f2[0] + f2[1] * f2[1] + f2[2] * f2[2];
    double mean = 0.5 * (a + d), r = sqrt(0.25 * (a - d) * (a - d) + b * b);
    s[0] = sqrt(mean + r);
    s[1] = sqrt(mean - r);
}

static const double rest_tri[9] = {0, 0, 0, 0.1, 0, 0, 0, 0.1, 0};

/* A one-triangle sim (order, measure, passes), no forces, at the positions x, at rest;
 * one frame of one step; x gets the result. */
static void one_step(const char *order, const char *measure, int passes, double x[9])
{
    const char *obj = tu_temp_file("tri.obj", "v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nf 1 2 3\n");
    char text[1024];
    snprintf(text, sizeof text,
             "[mesh]\nobj = %s\npins = none\n"
             "[material]\nk_structural = 0\nk_shear = 0\nk_bend = 0\nvertex_mass = 0.01\n"
             "[world]\ngravity = 0 0 0\nair_density = 0\n"
             "[run]\nkernel = pbd\ndt = 0.01\nsubsteps = 1\n"
             "[pbd]\norder = %s\niterations = %d\nstrain_limit = 0.1\nstrain_measure = %s\n",
             obj, order, passes, measure);
    cloth_sim *sim = tu_sim(text, "tri.ini");
    ck_assert_int_eq(cloth_sim_mesh(sim)->n, 3);
    memcpy(cloth_sim_positions(sim), x, 9 * sizeof(double));
    memset(cloth_sim_velocities(sim), 0, 9 * sizeof(double));
    cloth_frame f;
    cloth_error err;
    ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
    memcpy(x, cloth_sim_positions(sim), 9 * sizeof(double));
    cloth_sim_destroy(sim);
}

static void centre(const double x[9], double c[3])
{
    for (int k = 0; k < 3; k++)
        c[k] = (x[k] + x[3 + k] + x[6 + k]) / 3;
}

/* sigma1 = 1.3 along e1 = (1, 1)/sqrt 2: one pass, one projection -> 1.1 exactly; sigma2
 * = 0.9 kept; the centre (equal masses) kept; sequential and coloured agree. */
START_TEST(one_projection_brings_sigma1_to_the_limit)
{
    static const char *const orders[] = {"coloured", "sequential"};
    double result[2][9];
    for (int o = 0; o < 2; o++) {
        double x[9], s[2], c0[3], c1[3];
        deform(rest_tri, 1.3, 0.9, M_PI / 4, x);
        sigmas(x, 0.1, s);
        ck_assert_double_eq_tol(s[0], 1.3, 1e-12);
        centre(x, c0);
        one_step(orders[o], "triangle", 1, x);
        sigmas(x, 0.1, s);
        ck_assert_msg(fabs(s[0] - 1.1) <= 1e-12, "%s: sigma1 %.15g", orders[o], s[0]);
        ck_assert_msg(fabs(s[1] - 0.9) <= 1e-12, "%s: sigma2 %.15g", orders[o], s[1]);
        centre(x, c1);
        for (int k = 0; k < 3; k++)
            ck_assert_double_eq_tol(c1[k], c0[k], 1e-15);
        memcpy(result[o], x, sizeof x);
    }
    for (int i = 0; i < 9; i++)
        ck_assert_double_eq_tol(result[0][i], result[1][i], 1e-15);
}
END_TEST

/* Stretched along the first edge (e1 = (1, 0), not an eigenvector of G): each projection
 * is a linearisation, and 50 passes converge to sigma1 = 1.1; the centre is kept. */
START_TEST(passes_converge_to_the_limit_off_the_eigenvector)
{
    double x[9], s[2], c0[3], c1[3];
    deform(rest_tri, 1.3, 0.9, 0, x);
    centre(x, c0);
    one_step("coloured", "triangle", 50, x);
    sigmas(x, 0.1, s);
    ck_assert_msg(fabs(s[0] - 1.1) <= 1e-12, "sigma1 %.15g", s[0]);
    centre(x, c1);
    for (int k = 0; k < 3; k++)
        ck_assert_double_eq_tol(c1[k], c0[k], 1e-15);
}
END_TEST

/* A compressed triangle (0.8, 0.9): its edges are shorter than l0 too; neither measure
 * moves a bit of it. */
START_TEST(compression_is_left_alone)
{
    static const char *const measures[] = {"triangle", "edge"};
    for (int q = 0; q < 2; q++) {
        double x[9], keep[9];
        deform(rest_tri, 0.8, 0.9, 0.3, x);
        memcpy(keep, x, sizeof x);
        one_step("coloured", measures[q], 10, x);
        ck_assert_msg(memcmp(keep, x, sizeof x) == 0, "%s moved a compressed triangle",
                      measures[q]);
    }
}
END_TEST

/* ------------------------------------------------------------ the kernel */

/* A chain of 5 springs (l0 = 0.1 m, k = 1 N/m, 10 g vertices) hung from its top: the
 * bottom spring alone would need 98 % of stretch, so at tau = 0.1 every spring binds and
 * the chain hangs straight at (1 + tau) l0 a spring, in either order. */
START_TEST(a_coloured_chain_ends_with_every_spring_at_the_limit)
{
    static const char *const orders[] = {"coloured", "sequential"};
    for (int o = 0; o < 2; o++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "[mesh]\nnx = 1\nny = 6\nspacing = 0.1\npins = top-row\n"
                 "[material]\nk_structural = 1\nk_shear = 1\nk_bend = 0\nvertex_mass = 0.01\n"
                 "[run]\nkernel = pbd\ndt = 0.01\nsubsteps = 4\n"
                 "[pbd]\norder = %s\nstrain_limit = 0.1\niterations = 2000\nstrain_tol = 1e-10\n",
                 orders[o]);
        cloth_sim *sim = tu_sim(text, "chain.ini");
        cloth_frame f;
        cloth_error err;
        for (int frame = 0; frame < 100; frame++)
            ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
        ck_assert_int_eq(f.not_converged, 0);
        const cloth_mesh *m = cloth_sim_mesh(sim);
        const double *x = cloth_sim_positions(sim);
        int structural = 0;
        for (int s = 0; s < m->n_springs; s++) {
            const cloth_spring *sp = &m->springs[s];
            if (sp->family != CLOTH_STRUCTURAL)
                continue;
            double l = fabs(x[3 * sp->a + 1] - x[3 * sp->b + 1]);
            ck_assert_msg(fabs(l / (1.1 * sp->rest) - 1) <= 1e-8, "%s spring %d: l/l0 = %.12g",
                          orders[o], s, l / sp->rest);
            structural++;
        }
        ck_assert_int_eq(structural, 5);
        cloth_sim_destroy(sim);
    }
}
END_TEST

/* The spring measure (structural and shear), as series.csv's stretch_max. */
static double edge_stretch(cloth_sim *sim)
{
    const cloth_mesh *m = cloth_sim_mesh(sim);
    const double *x = cloth_sim_positions(sim);
    double worst = -1;
    for (int s = 0; s < m->n_springs; s++) {
        const cloth_spring *sp = &m->springs[s];
        if (sp->family == CLOTH_BEND)
            continue;
        const double *a = x + 3 * sp->a, *b = x + 3 * sp->b;
        double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        worst = fmax(worst, sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) / sp->rest - 1);
    }
    return worst;
}

static cloth_sim *hung_passes(const char *measure, int threads, int passes)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 8\nny = 8\nspacing = 0.1\npins = top-corners\n"
             "[material]\nk_structural = 20\nk_shear = 10\nk_bend = 1\nvertex_mass = 0.01\n"
             "[run]\nkernel = pbd\ndt = 0.016666666666666666\nsubsteps = 10\nthreads = %d\n"
             "[pbd]\norder = coloured\nstrain_limit = 0.05\niterations = %d\n"
             "strain_measure = %s\n",
             threads, passes, measure);
    return tu_sim(text, "hung.ini");
}

static cloth_sim *hung(const char *measure, int threads)
{
    return hung_passes(measure, threads, 500);
}

/* An 8 x 8 cloth hung by its top corners, soft enough to stretch past 30 % without a
 * limit, tau = 0.05, coloured order: in every frame whose steps all converged the limited
 * measure is within tau (1 + 1e-3), and the limit binds. */
START_TEST(a_coloured_hung_cloth_keeps_its_limit)
{
    static const char *const measures[] = {"edge", "triangle"};
    for (int q = 0; q < 2; q++) {
        cloth_sim *sim = hung(measures[q], 1);
        cloth_frame f;
        cloth_error err;
        int converged = 0;
        double worst = 0;
        for (int frame = 0; frame < 40; frame++) {
            ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
            double stretch = q ? f.stretch_sigma_max : edge_stretch(sim);
            worst = fmax(worst, stretch);
            if (f.not_converged)
                continue;
            converged++;
            ck_assert_msg(stretch <= 0.05 * (1 + 1e-3), "%s frame %d: stretch %.9g",
                          measures[q], frame + 1, stretch);
        }
        ck_assert_msg(converged >= 20, "%s: only %d frames converged", measures[q], converged);
        ck_assert_msg(worst > 0.049, "%s: the limit never bound (%g)", measures[q], worst);
        cloth_sim_destroy(sim);
    }
}
END_TEST

/* The limits' colours share no vertex: one thread or two, every bit the same. */
START_TEST(the_limit_does_not_depend_on_the_thread_count)
{
    /* 50 passes a step, not 500: the same code, and two threads' per-colour barriers
     * on a loaded machine made the 500-pass version take minutes (a timeout seen under
     * load 3-5); by frame 5 the limit binds (checked below), converged or not */
    static const char *const measures[] = {"edge", "triangle"};
    for (int q = 0; q < 2; q++) {
        cloth_sim *one = hung_passes(measures[q], 1, 50), *two = hung_passes(measures[q], 2, 50);
        tu_frames(one, 4);
        tu_frames(two, 4);
        cloth_frame f;
        cloth_error err;
        ck_assert_msg(cloth_sim_frame(one, &f, &err) == CLOTH_OK, "%s", err.msg);
        double stretch = q ? f.stretch_sigma_max : edge_stretch(one);
        ck_assert_msg(stretch > 0.05 * (1 - 1e-3), "%s: the limit does not bind (%g)",
                      measures[q], stretch);
        ck_assert_msg(cloth_sim_frame(two, &f, &err) == CLOTH_OK, "%s", err.msg);
        int n = cloth_sim_mesh(one)->n;
        ck_assert_msg(memcmp(cloth_sim_positions(one), cloth_sim_positions(two),
                             sizeof(double) * 3 * (size_t)n) == 0,
                      "%s: positions differ between 1 and 2 threads", measures[q]);
        cloth_sim_destroy(one);
        cloth_sim_destroy(two);
    }
}
END_TEST

Suite *suite_pbd_strain(void)
{
    Suite *s = suite_create("pbd_strain");
    TCase *tc = tcase_create("pbd_strain");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, one_projection_brings_sigma1_to_the_limit);
    tcase_add_test(tc, passes_converge_to_the_limit_off_the_eigenvector);
    tcase_add_test(tc, compression_is_left_alone);
    tcase_add_test(tc, a_coloured_chain_ends_with_every_spring_at_the_limit);
    tcase_add_test(tc, a_coloured_hung_cloth_keeps_its_limit);
    tcase_add_test(tc, the_limit_does_not_depend_on_the_thread_count);
    suite_add_tcase(s, tc);
    return s;
}
