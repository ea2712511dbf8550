/* Strain limiting by projection (terms/strain_project.h) and the kernels' strain limits
 * (explicit.strain_limit, verlet.strain_measure, pbd.strain_limit) against mathematics:
 *
 *   - one triangle stretched by a known F = R diag(s1, s2) (R a rotation): its singular
 *     values are s1 and s2; one projection at tau gives exactly min(s_i, 1 + tau), keeps
 *     the rotation, the mass-weighted centre (momentum) and a pinned vertex;
 *   - a compressed triangle or spring is left alone;
 *   - a vertical chain hung from its top under gravity, its springs far too soft to hold
 *     it (m g / (k l0) ~ 1 >> tau): every spring ends at (1 + tau) l0 for explicit,
 *     verlet and pbd;
 *   - a corner-hung cloth keeps its limited measure within tau (1 + 1e-3) in every frame
 *     whose steps all converged, for every family and both measures, verlet's triangles
 *     in the coloured order too, whose positions are the same bits on 1 and 2 threads;
 *   - bad values and impossible combinations are refused with FILE:LINE: key, exit 2. */
#include "cloth.h"
#include "terms/strain_limit.h"
#include "terms/strain_project.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ one triangle */

/* The rest triangle (0,0,0), (1,0,0), (0,1,0): Dm = I in its frame.  Its deformed copy
 * x_i = R diag3(s1, s2) X_i + t, R a rotation about the axis (1, 2, 3)/|.| by 0.7 rad,
 * so that F = R[:, 0:2] diag(s1, s2) exactly (up to the rounding of R). */
static void rotation(double R[9])
{
    double a[3] = {1, 2, 3}, l = sqrt(14), c = cos(0.7), s = sin(0.7);
    for (int k = 0; k < 3; k++)
        a[k] /= l;
    /* Rodrigues: R = c I + s [a]x + (1 - c) a a^T */
    double K[9] = {0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            R[3 * i + j] = (i == j ? c : 0) + s * K[3 * i + j] + (1 - c) * a[i] * a[j];
}

static void deformed(double s1, double s2, double x[9], double Dm_inv[4])
{
    static const double X[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    static const double t[3] = {0.3, -0.2, 0.5};
    double R[9];
    rotation(R);
    ck_assert(cloth__strain_rest(X, Dm_inv) > 0);
    for (int v = 0; v < 3; v++) {
        double p[3] = {s1 * X[3 * v], s2 * X[3 * v + 1], 0};
        for (int k = 0; k < 3; k++)
            x[3 * v + k] = R[3 * k] * p[0] + R[3 * k + 1] * p[1] + R[3 * k + 2] * p[2] + t[k];
    }
}

static void sigmas(const double x[9], const double Dm_inv[4], double s[2])
{
    cloth__strain_sigma(x, Dm_inv, s, NULL, NULL, 0);
}

START_TEST(singular_values_of_a_known_deformation)
{
    double x[9], Dm_inv[4], s[2];
    deformed(1.3, 0.9, x, Dm_inv);
    sigmas(x, Dm_inv, s);
    ck_assert_double_eq_tol(s[0], 1.3, 1e-12);
    ck_assert_double_eq_tol(s[1], 0.9, 1e-12);
    deformed(0.7, 1.2, x, Dm_inv); /* the larger one along the second axis */
    sigmas(x, Dm_inv, s);
    ck_assert_double_eq_tol(s[0], 1.2, 1e-12);
    ck_assert_double_eq_tol(s[1], 0.7, 1e-12);
}
END_TEST

static void centre(const double x[9], const double w[3], double c[3])
{
    double M = 0;
    c[0] = c[1] = c[2] = 0;
    for (int v = 0; v < 3; v++) {
        M += 1 / w[v];
        for (int k = 0; k < 3; k++)
            c[k] += x[3 * v + k] / w[v];
    }
    for (int k = 0; k < 3; k++)
        c[k] /= M;
}

/* sigma1 = 1.3 -> 1.1 at tau = 0.1, sigma2 = 0.9 unchanged, the centre of mass (masses
 * 1, 2, 3) unchanged, and the edges exactly R diag(1.1, 0.9) of the rest edges. */
START_TEST(one_projection_clamps_sigma1_and_keeps_the_centre)
{
    double x[9], Dm_inv[4], s[2], R[9], c0[3], c1[3];
    const double w[3] = {1, 0.5, 1.0 / 3};
    deformed(1.3, 0.9, x, Dm_inv);
    centre(x, w, c0);
    ck_assert_int_eq(cloth__strain_clamp_tri(x, x + 3, x + 6, w, Dm_inv, 1.1, 0), 1);
    sigmas(x, Dm_inv, s);
    ck_assert_double_eq_tol(s[0], 1.1, 1e-12);
    ck_assert_double_eq_tol(s[1], 0.9, 1e-12);
    centre(x, w, c1);
    for (int k = 0; k < 3; k++)
        ck_assert_double_eq_tol(c1[k], c0[k], 1e-12);
    rotation(R);
    for (int k = 0; k < 3; k++) {
        ck_assert_double_eq_tol(x[3 + k] - x[k], 1.1 * R[3 * k], 1e-12);
        ck_assert_double_eq_tol(x[6 + k] - x[k], 0.9 * R[3 * k + 1], 1e-12);
    }
    /* a second projection finds nothing to do */
    ck_assert_int_eq(cloth__strain_clamp_tri(x, x + 3, x + 6, w, Dm_inv, 1.1, 1e-9), 0);
    /* both stretched (1.3, 1.2): both come to 1.1 */
    deformed(1.3, 1.2, x, Dm_inv);
    centre(x, w, c0);
    ck_assert_int_eq(cloth__strain_clamp_tri(x, x + 3, x + 6, w, Dm_inv, 1.1, 0), 1);
    sigmas(x, Dm_inv, s);
    ck_assert_double_eq_tol(s[0], 1.1, 1e-12);
    ck_assert_double_eq_tol(s[1], 1.1, 1e-12);
    centre(x, w, c1);
    for (int k = 0; k < 3; k++)
        ck_assert_double_eq_tol(c1[k], c0[k], 1e-12);
}
END_TEST

/* A pinned vertex (w = 0) stays exactly where it is, the triangle still reaches 1.1; with
 * two pinned, the free vertex's least-squares steps bring sigma1 to the limit. */
START_TEST(a_pinned_vertex_does_not_move)
{
    for (int p = 0; p < 3; p++) {
        double x[9], Dm_inv[4], s[2], w[3] = {1, 1, 1};
        w[p] = 0;
        deformed(1.3, 0.9, x, Dm_inv);
        double before[3] = {x[3 * p], x[3 * p + 1], x[3 * p + 2]};
        ck_assert_int_eq(cloth__strain_clamp_tri(x, x + 3, x + 6, w, Dm_inv, 1.1, 0), 1);
        ck_assert(memcmp(before, x + 3 * p, sizeof before) == 0);
        sigmas(x, Dm_inv, s);
        ck_assert_double_eq_tol(s[0], 1.1, 1e-12);
        ck_assert_double_eq_tol(s[1], 0.9, 1e-12);
    }
    /* vertices 0 and 2 pinned (the edge along sigma2): vertex 1 alone sets the first
     * column of F, and its least-squares step reaches sigma1 = 1.1 at once */
    double x[9], Dm_inv[4], s[2], w[3] = {0, 1, 0};
    deformed(1.3, 0.9, x, Dm_inv);
    double x0[3] = {x[0], x[1], x[2]}, x2[3] = {x[6], x[7], x[8]};
    ck_assert_int_eq(cloth__strain_clamp_tri(x, x + 3, x + 6, w, Dm_inv, 1.1, 0), 1);
    ck_assert(memcmp(x0, x, sizeof x0) == 0 && memcmp(x2, x + 6, sizeof x2) == 0);
    sigmas(x, Dm_inv, s);
    ck_assert_double_eq_tol(s[0], 1.1, 1e-12);
    ck_assert_double_eq_tol(s[1], 0.9, 1e-12);
}
END_TEST

/* Compression is left alone: a triangle at (0.8, 0.9) and a spring at 0.9 l0 keep every
 * bit of their positions. */
START_TEST(compression_is_left_alone)
{
    double x[9], Dm_inv[4], w[3] = {1, 1, 1}, copy[9];
    deformed(0.8, 0.9, x, Dm_inv);
    memcpy(copy, x, sizeof copy);
    ck_assert_int_eq(cloth__strain_clamp_tri(x, x + 3, x + 6, w, Dm_inv, 1.1, 0), 0);
    ck_assert(memcmp(copy, x, sizeof copy) == 0);

    cloth_scene s;
    cloth_error err;
    ck_assert(cloth_scene_parse("[mesh]\nnx = 1\nny = 2\nspacing = 0.1\npins = none\n", "c.ini",
                                &s, &err) == CLOTH_OK);
    cloth_mesh *m;
    ck_assert_msg(cloth_mesh_create(&s, &m, &err) == CLOTH_OK, "%s", err.msg);
    double pos[6] = {0, 0, 0, 0, -0.09, 0}, keep[6];
    memcpy(keep, pos, sizeof keep);
    int ids[1] = {0};
    ck_assert_int_eq(cloth__provot_sweep(m, ids, 1, pos, 1.1, 0), 0);
    ck_assert(memcmp(keep, pos, sizeof keep) == 0);
    pos[4] = -0.2; /* stretched to 2 l0: one sweep brings it to 1.1 l0, centred */
    ck_assert_int_eq(cloth__provot_sweep(m, ids, 1, pos, 1.1, 0), 1);
    ck_assert_double_eq_tol(pos[1] - pos[4], 0.11, 1e-15);
    ck_assert_double_eq_tol(pos[1] + pos[4], -0.2, 1e-15);
    cloth_mesh_destroy(m);
}
END_TEST

/* ------------------------------------------------------------ the kernels */

/* A chain of 5 springs (l0 = 0.1 m, k = 1 N/m, 10 g vertices) hung from its top vertex:
 * the bottom spring alone would need m g / k = 0.098 m of stretch, 98 %, so with tau = 0.1
 * every spring binds, and the chain hangs straight (it has no sideways motion to start),
 * every spring (1 + tau) l0 long. */
static const char *chain(const char *kernel, const char *extra)
{
    static char text[1024];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 1\nny = 6\nspacing = 0.1\npins = top-row\n"
             "[material]\nk_structural = 1\nk_shear = 1\nk_bend = 0\nvertex_mass = 0.01\n"
             "[run]\nkernel = %s\ndt = 0.01\nsubsteps = 4\n%s",
             kernel, extra);
    return text;
}

START_TEST(a_chain_ends_with_every_spring_at_the_limit)
{
    static const char *const cases[][2] = {
        {"explicit", "[explicit]\nstrain_limit = 0.1\nstrain_tol = 1e-10\nstrain_passes = 100000\n"},
        {"verlet", "[verlet]\nmode = provot\nstrain_limit = 0.1\nstrain_tol = 1e-10\n"
                   "strain_passes = 100000\n"},
        {"pbd", "[pbd]\nstrain_limit = 0.1\niterations = 2000\nstrain_tol = 1e-10\n"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        cloth_sim *sim = tu_sim(chain(cases[c][0], cases[c][1]), "chain.ini");
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
                          cases[c][0], s, l / sp->rest);
            structural++;
        }
        ck_assert_int_eq(structural, 5);
        cloth_sim_destroy(sim);
    }
}
END_TEST

/* The spring measure of the positions (structural and shear), as series.csv's. */
static double edge_stretch(const cloth_sim *sim)
{
    const cloth_mesh *m = cloth_sim_mesh(sim);
    const double *x = cloth_sim_positions((cloth_sim *)sim);
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

/* An 8 x 8 cloth hung by its top corners, soft (k = 20 N/m) so that it stretches past
 * 30 % without a limit; tau = 0.05.  In every frame whose steps all converged the limited
 * measure is within tau (1 + 1e-3): the springs' own (recomputed here) for edge, and
 * series.csv's stretch_sigma_max for triangle; and the limit does bind. */
START_TEST(a_hung_cloth_keeps_its_limit_in_every_family)
{
    static const struct { const char *kernel, *keys; int triangle; } cases[] = {
        {"explicit", "[explicit]\nstrain_limit = 0.05\nstrain_passes = 1000\n", 0},
        {"verlet", "[verlet]\nmode = provot\nstrain_limit = 0.05\nstrain_passes = 1000\n", 0},
        {"verlet", "[verlet]\nmode = provot\nstrain_limit = 0.05\nstrain_measure = triangle\n"
                   "strain_passes = 1000\n", 1},
        {"verlet", "[verlet]\nmode = provot\nstrain_limit = 0.05\nstrain_measure = triangle\n"
                   "strain_passes = 1000\norder = coloured\n", 1},
        {"pbd", "[pbd]\nstrain_limit = 0.05\niterations = 500\n", 0},
        {"pbd", "[pbd]\nstrain_limit = 0.05\niterations = 500\nstrain_measure = triangle\n", 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "[mesh]\nnx = 8\nny = 8\nspacing = 0.1\npins = top-corners\n"
                 "[material]\nk_structural = 20\nk_shear = 10\nk_bend = 1\nvertex_mass = 0.01\n"
                 "[run]\nkernel = %s\ndt = 0.016666666666666666\nsubsteps = 10\n%s",
                 cases[c].kernel, cases[c].keys);
        cloth_sim *sim = tu_sim(text, "hung.ini");
        cloth_frame f;
        cloth_error err;
        int converged = 0;
        double worst = 0;
        for (int frame = 0; frame < 40; frame++) {
            ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
            double stretch = cases[c].triangle ? f.stretch_sigma_max : edge_stretch(sim);
            worst = fmax(worst, stretch);
            if (f.not_converged)
                continue;
            converged++;
            ck_assert_msg(stretch <= 0.05 * (1 + 1e-3), "%s (%s) frame %d: stretch %.9g",
                          cases[c].kernel, cases[c].triangle ? "triangle" : "edge", frame + 1,
                          stretch);
        }
        ck_assert_msg(converged >= 20, "%s: only %d frames converged", cases[c].kernel,
                      converged);
        ck_assert_msg(worst > 0.049, "%s: the limit never bound (%g)", cases[c].kernel, worst);
        cloth_sim_destroy(sim);
    }
}
END_TEST

/* Bad values and impossible combinations: exit 2, FILE:LINE: key. */
START_TEST(bad_limits_name_file_line_and_key)
{
    static const struct { const char *section, *line, *mesh, *key; } cases[] = {
        {"explicit", "strain_limit = -0.1", "", "explicit.strain_limit"},
        {"explicit", "strain_limit = 1", "", "explicit.strain_limit"},
        {"explicit", "strain_passes = 0", "", "explicit.strain_passes"},
        {"explicit", "strain_tol = 0", "", "explicit.strain_tol"},
        {"verlet", "strain_limit = 1", "", "verlet.strain_limit"},
        {"verlet", "strain_measure = area", "", "verlet.strain_measure"},
        {"pbd", "strain_limit = -0.1", "", "pbd.strain_limit"},
        {"pbd", "strain_limit = 1.5", "", "pbd.strain_limit"},
        {"pbd", "strain_measure = area", "", "pbd.strain_measure"},
        {"pbd", "strain_tol = 0", "", "pbd.strain_tol"},
        /* a chain has no triangles */
        {"verlet", "strain_measure = triangle", "nx = 1", "verlet.strain_measure"},
        {"pbd", "strain_measure = triangle\nstrain_limit = 0.1", "nx = 1", "pbd.strain_measure"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "[run]\nkernel = %s\nframes = 1\n[%s]\n%s\n[mesh]\nny = 4\n%s\n",
                 cases[i].section, cases[i].section, cases[i].line, cases[i].mesh);
        const char *scene = tu_temp_file("bad.ini", text);
        char cmd[1024], out[4096], expect[600];
        snprintf(cmd, sizeof cmd, "run %s --out %s", scene, tu_temp_dir(0));
        ck_assert_msg(tu_run_cli(cmd, out, sizeof out) == 2, "%s: %s", cases[i].line, out);
        snprintf(expect, sizeof expect, "%s:5: %s", scene, cases[i].key);
        ck_assert_msg(strstr(out, expect), "expected '%s' in: %s", expect, out);
    }
}
END_TEST

/* verlet's triangle limit in the coloured order: the scene the kernel refused before issue
 * 43 runs (exit 0), and a colour's triangles share no vertex, so one thread or two give
 * the same bits; by frame 5 the limit binds (sigma1 - 1 at tau, the sweeps' fixed point).
 * 32 x 32 vertices: four tiles of 256 (terms/colour.h), so that two threads share a pass. */
START_TEST(verlet_coloured_triangles_do_not_depend_on_the_thread_count)
{
    const char *scene = tu_temp_file("coloured.ini", "[run]\nkernel = verlet\nframes = 1\n"
                                     "[verlet]\nstrain_measure = triangle\norder = coloured\n"
                                     "[mesh]\nny = 4\n");
    char cmd[1024], out[4096];
    snprintf(cmd, sizeof cmd, "run %s --out %s", scene, tu_temp_dir(0));
    ck_assert_msg(tu_run_cli(cmd, out, sizeof out) == 0, "%s", out);
    cloth_sim *sim[2];
    for (int t = 0; t < 2; t++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "[mesh]\nnx = 32\nny = 32\nspacing = 0.025\npins = top-corners\n"
                 "[material]\nk_structural = 20\nk_shear = 10\nk_bend = 1\nvertex_mass = 0.01\n"
                 "[run]\nkernel = verlet\ndt = 0.016666666666666666\nsubsteps = 10\n"
                 "threads = %d\n[verlet]\nmode = provot\nstrain_limit = 0.05\n"
                 "strain_measure = triangle\nstrain_passes = 50\norder = coloured\n", t + 1);
        sim[t] = tu_sim(text, "hung.ini");
    }
    cloth_frame f;
    cloth_error err;
    for (int frame = 0; frame < 5; frame++)
        for (int t = 0; t < 2; t++)
            ck_assert_msg(cloth_sim_frame(sim[t], &f, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_msg(f.stretch_sigma_max > 0.05 * (1 - 1e-3), "the limit does not bind (%g)",
                  f.stretch_sigma_max);
    int n = cloth_sim_mesh(sim[0])->n;
    ck_assert_msg(memcmp(cloth_sim_positions(sim[0]), cloth_sim_positions(sim[1]),
                         sizeof(double) * 3 * (size_t)n) == 0,
                  "positions differ between 1 and 2 threads");
    cloth_sim_destroy(sim[0]);
    cloth_sim_destroy(sim[1]);
}
END_TEST

Suite *suite_strain_project(void)
{
    Suite *s = suite_create("strain_project");
    TCase *tc = tcase_create("strain_project");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, singular_values_of_a_known_deformation);
    tcase_add_test(tc, one_projection_clamps_sigma1_and_keeps_the_centre);
    tcase_add_test(tc, a_pinned_vertex_does_not_move);
    tcase_add_test(tc, compression_is_left_alone);
    tcase_add_test(tc, a_chain_ends_with_every_spring_at_the_limit);
    tcase_add_test(tc, a_hung_cloth_keeps_its_limit_in_every_family);
    tcase_add_test(tc, bad_limits_name_file_line_and_key);
    tcase_add_test(tc, verlet_coloured_triangles_do_not_depend_on_the_thread_count);
    suite_add_tcase(s, tc);
    return s;
}
