/* newton.csv's line-search columns (issue 47, item 1): per Newton iteration, which
 * filter cut alpha (alpha_by), the fraction of the full step each allowed and how many
 * elements bound it, on scenes where the binding filter is known by construction and its
 * bound has a closed form.  Each scene runs one Newton iteration (max_iters = 1), so the
 * frame's motion is x1 - x0 = alpha dx and the direction dx is read off the positions. */
#include "cloth.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ETA 0.2 /* newton.eta's default: gaps kept above 0.2 of themselves */

static cloth_sim *make_sim(const char *text)
{
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(text, "newton_alpha_test.ini", &s, &err) == CLOTH_OK,
                  "%s", err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    return sim;
}

/* One frame of one iteration: its newton.csv row, dx (3n, then x0 behind it: 6n in
 * all) and alpha. */
static const cloth_iter *one_iteration(cloth_sim *sim, double *dx, double *alpha)
{
    int n = cloth_sim_mesh(sim)->n;
    double x0[12];
    ck_assert_int_le(3 * n, 12);
    memcpy(x0, cloth_sim_positions(sim), sizeof(double) * 3 * (size_t)n);
    cloth_frame f;
    cloth_error err;
    ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
    const cloth_iter *rows;
    ck_assert_int_eq(cloth_sim_log(sim, &rows), 1);
    *alpha = tu_log_value(sim, &rows[0], "alpha");
    ck_assert(*alpha > 0);
    const double *x1 = cloth_sim_positions(sim);
    for (int k = 0; k < 3 * n; k++)
        dx[k] = (x1[k] - x0[k]) / *alpha;
    memcpy(dx + 3 * n, x0, sizeof(double) * 3 * (size_t)n); /* x0 behind dx */
    return &rows[0];
}

/* ------------------------------------------------- a vertex into the sphere */

/* Vertex 0 pinned, vertex 1 free 3 cm above the top of a sphere (radius 0.5, offset
 * 1 cm: gap g0 = 2 cm; g^ = 1 mm, so no barrier is active at the start, nor at the
 * filter's end, where the gap is eta g0 = 4 mm: Armijo then accepts the filter's step).  With the
 * spring at rest the only force is gravity, H = M/h^2 on the free vertex, and the Newton
 * step is dx = h^2 g = (0, -g h^2, 0) straight down onto the sphere's top.  The sphere's
 * filter keeps the gap above eta g0: alpha = (1 - eta) g0 / (g h^2).  g = 500 m/s^2,
 * h = 0.01 s: dx = 5 cm, alpha = 0.32, cut by the obstacle, one vertex binding.  With
 * g = 1 m/s^2 the step (0.1 mm) stays clear: alpha = 1, nothing binds. */
static const char *sphere_scene =
    "[mesh]\nnx = 2\nny = 1\nspacing = 0.1\nplane = xz\norigin = 0 0.03 0\n"
    "springs = structural\npins = 0\n"
    "[material]\nk_structural = 50\nvertex_mass = 0.01\n"
    "[world]\ngravity = 0 -%g 0\nair_damping = 0\n"
    "[sphere]\ncenter = 0.1 -0.5 0\nradius = 0.5\noffset = 0.01\n"
    "[run]\nkernel = newton\ndt = 0.01\n"
    "[newton]\nbarrier = cubic\ndhat = 0.001\nstrain_limit = 0\nmax_iters = 1\ncond = off\n";

START_TEST(vertex_into_the_sphere_is_cut_by_the_obstacle_filter)
{
    static const double gravity[] = {500, 1};
    char text[1024];
    snprintf(text, sizeof text, sphere_scene, gravity[_i]);
    cloth_sim *sim = make_sim(text);
    double dx[12], alpha;
    const cloth_iter *row = one_iteration(sim, dx, &alpha);
    double h = 0.01, g0 = 0.02, step = gravity[_i] * h * h;
    ck_assert_msg(fabs(dx[4] + step) <= 1e-9 * step, "dx_y %.17g, closed form %.17g", dx[4],
                  -step);
    double want = fmin(1.0, (1 - ETA) * g0 / step);
    double contact = tu_log_value(sim, row, "alpha_contact");
    ck_assert_msg(fabs(contact - want) <= 1e-9, "alpha_contact %.17g, closed form %.17g",
                  contact, want);
    ck_assert_double_eq(tu_log_value(sim, row, "alpha_strain"), 1);
    ck_assert_double_eq(tu_log_value(sim, row, "alpha_armijo"), 1);
    ck_assert_double_eq(tu_log_value(sim, row, "alpha_max_dx"), 1);
    ck_assert_msg(fabs(alpha - want) <= 1e-9, "alpha %.17g", alpha);
    ck_assert_str_eq(tu_log_word(sim, row, "alpha_by"), _i == 0 ? "obstacle" : "full");
    ck_assert_int_eq((int)tu_log_value(sim, row, "bound_contact"), _i == 0 ? 1 : 0);
    ck_assert_int_eq((int)tu_log_value(sim, row, "bound_strain"), 0);
    cloth_sim_destroy(sim);
}
END_TEST

/* ------------------------------------------------- a triangle past its limit */

/* sigma1 of the map from a triangle's rest edges (e1, e2) to its edges now (f1, f2): the
 * singular values of F are the square roots of the generalised eigenvalues of
 * (Ds^T Ds, Dm^T Dm), the Gram matrices of the edges, whatever the basis of the rest
 * plane: det(A - l B) = 0 with A = [f_i.f_j], B = [e_i.e_j]. */
static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static double sigma1(const double *rest, const double *now, const int t[3])
{
    double e[2][3], f[2][3];
    for (int k = 0; k < 2; k++)
        for (int c = 0; c < 3; c++) {
            e[k][c] = rest[3 * t[k + 1] + c] - rest[3 * t[0] + c];
            f[k][c] = now[3 * t[k + 1] + c] - now[3 * t[0] + c];
        }
    double a11 = dot(f[0], f[0]), a12 = dot(f[0], f[1]), a22 = dot(f[1], f[1]);
    double b11 = dot(e[0], e[0]), b12 = dot(e[0], e[1]), b22 = dot(e[1], e[1]);
    /* det(A - l B) = qa l^2 - qb l + qc */
    double qa = b11 * b22 - b12 * b12, qb = a11 * b22 + a22 * b11 - 2 * a12 * b12,
           qc = a11 * a22 - a12 * a12;
    return sqrt((qb + sqrt(fmax(0, qb * qb - 4 * qa * qc))) / (2 * qa));
}

/* A 2 x 2 grid (two triangles) in the xz plane, three corners pinned, the fourth pulled
 * in the plane along +z by gravity 500 m/s^2: the Newton step stretches its triangles
 * by ~30 %, far past the 2 % limit.  The strain filter keeps every limited triangle at
 * sigma1 <= 1 + tau - eta g0 (g0 = tau at rest), so at alpha_strain the most stretched
 * triangle sits exactly there: the closed form is sigma1(x0 + alpha_strain dx) =
 * 1 + (1 - eta) tau, by the singular values above.  No obstacle: the strain filter
 * cuts alpha; the barrier's band (beta = 0.05: strains above 1.9 %) stays clear of that
 * end, where the strain is 1.6 %, so Armijo accepts it; and bound_strain counts the triangles
 * that the full step would take past their bound. */
static const char *strain_scene =
    "[mesh]\nnx = 2\nny = 2\nspacing = 0.1\nplane = xz\norigin = 0 0 0\n"
    "springs = structural\npins = 0 1 2\n"
    "[material]\nk_structural = 50\nvertex_mass = 0.01\n"
    "[world]\ngravity = 0 0 500\nair_damping = 0\n"
    "[run]\nkernel = newton\ndt = 0.01\n"
    "[newton]\nbarrier = cubic\ndhat = 0.001\nstrain_limit = 0.02\nstrain_band = 0.05\n"
    "strain_measure = triangle\nmax_iters = 1\ncond = off\n";

START_TEST(triangle_past_its_limit_is_cut_by_the_strain_filter)
{
    cloth_sim *sim = make_sim(strain_scene);
    const cloth_mesh *m = cloth_sim_mesh(sim);
    double dx[24], alpha, tau = 0.02;
    const cloth_iter *row = one_iteration(sim, dx, &alpha);
    const double *x0 = dx + 12;
    double a = tu_log_value(sim, row, "alpha_strain");
    ck_assert(a > 0 && a < 1);
    double at[12], full[12], peak = 0;
    int past = 0;
    for (int k = 0; k < 12; k++) {
        at[k] = x0[k] + a * dx[k];
        full[k] = x0[k] + dx[k];
    }
    for (int t = 0; t < m->n_tris; t++) {
        peak = fmax(peak, sigma1(x0, at, m->tris + 3 * t));
        past += sigma1(x0, full, m->tris + 3 * t) > 1 + (1 - ETA) * tau;
    }
    ck_assert_msg(fabs(peak - (1 + (1 - ETA) * tau)) <= 1e-9,
                  "sigma1 at alpha_strain %.17g, closed form %.17g", peak, 1 + (1 - ETA) * tau);
    ck_assert_msg(fabs(alpha - a) <= 1e-12, "alpha %.17g, alpha_strain %.17g", alpha, a);
    ck_assert_str_eq(tu_log_word(sim, row, "alpha_by"), "strain");
    ck_assert_double_eq(tu_log_value(sim, row, "alpha_contact"), 1);
    ck_assert_double_eq(tu_log_value(sim, row, "alpha_armijo"), 1);
    ck_assert_int_ge(past, 1);
    ck_assert_int_eq((int)tu_log_value(sim, row, "bound_strain"), past);
    cloth_sim_destroy(sim);
}
END_TEST

Suite *suite_newton_alpha(void)
{
    Suite *s = suite_create("newton_alpha");
    TCase *tc = tcase_create("alpha");
    tcase_add_loop_test(tc, vertex_into_the_sphere_is_cut_by_the_obstacle_filter, 0, 2);
    tcase_add_test(tc, triangle_past_its_limit_is_cut_by_the_strain_filter);
    suite_add_tcase(s, tc);
    return s;
}
