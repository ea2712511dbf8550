/* The coloured orders (explicit, verlet, pbd .order = coloured) and run.threads: the
 * colouring shares no vertex within a colour; results are bit-identical for every thread
 * count; coloured forces are the sequential ones up to rounding; coloured Gauss-Seidel
 * reaches the same rest state as the sequential order. */
#include "cloth.h"
#include "terms/colour.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the colouring */

/* Every spring of a 30 x 24 grid (structural, shear, bend) gets one colour; no two of a
 * colour share a vertex; within a colour the springs keep their order; greedy needs at
 * most 2 d - 1 colours, d the largest number of springs at a vertex (12 inside a grid). */
START_TEST(colours_share_no_vertex)
{
    cloth_scene s;
    cloth_default_scene(&s);
    cloth_error err;
    ck_assert(cloth_scene_set(&s, "mesh.nx=30", 1, &err) == CLOTH_OK);
    ck_assert(cloth_scene_set(&s, "mesh.ny=24", 2, &err) == CLOTH_OK);
    cloth_mesh *m;
    ck_assert_msg(cloth_mesh_create(&s, &m, &err) == CLOTH_OK, "%s", err.msg);
    int *ends = malloc(sizeof(int) * 2 * m->n_springs), *degree = calloc(m->n, sizeof(int));
    int *seen = malloc(sizeof(int) * m->n), *placed = calloc(m->n_springs, sizeof(int));
    for (int j = 0; j < m->n_springs; j++) {
        ends[2 * j] = m->springs[j].a;
        ends[2 * j + 1] = m->springs[j].b;
        degree[m->springs[j].a]++;
        degree[m->springs[j].b]++;
    }
    int d = 0;
    for (int i = 0; i < m->n; i++)
        d = degree[i] > d ? degree[i] : d;
    cloth__colouring c;
    ck_assert_msg(cloth__colour_items(m->n_springs, 2, ends, m->n, &c, &err) == CLOTH_OK,
                  "%s", err.msg);
    ck_assert_int_eq(c.n_items, m->n_springs);
    ck_assert_int_ge(c.n_colours, d); /* a vertex's springs all differ */
    ck_assert_int_le(c.n_colours, 2 * d - 1);
    ck_assert_int_eq(c.start[0], 0);
    ck_assert_int_eq(c.start[c.n_colours], m->n_springs);
    for (int q = 0; q < c.n_colours; q++) {
        for (int i = 0; i < m->n; i++)
            seen[i] = 0;
        for (int k = c.start[q]; k < c.start[q + 1]; k++) {
            int j = c.order[k];
            ck_assert(k == c.start[q] || c.order[k - 1] < j);
            ck_assert_msg(!seen[ends[2 * j]] && !seen[ends[2 * j + 1]],
                          "colour %d: spring %d shares a vertex", q, j);
            seen[ends[2 * j]] = seen[ends[2 * j + 1]] = 1;
            placed[j]++;
        }
    }
    for (int j = 0; j < m->n_springs; j++)
        ck_assert_int_eq(placed[j], 1);
    cloth__colouring_free(&c);
    free(ends);
    free(degree);
    free(seen);
    free(placed);
    cloth_mesh_destroy(m);
}
END_TEST

/* A vertex in more items than there are colours: refused with a message, not an abort. */
START_TEST(too_many_colours_is_an_error)
{
    int n = CLOTH__MAX_COLOURS + 1, *ends = malloc(sizeof(int) * 2 * n);
    for (int j = 0; j < n; j++) {
        ends[2 * j] = 0; /* a star: every item at vertex 0 */
        ends[2 * j + 1] = j + 1;
    }
    cloth__colouring c;
    cloth_error err = {""};
    ck_assert_int_eq(cloth__colour_items(n, 2, ends, n + 1, &c, &err), CLOTH_EINVAL);
    ck_assert_ptr_null(c.order);
    ck_assert(strstr(err.msg, "colours") != NULL);
    free(ends);
}
END_TEST

/* ------------------------------------------------------ threads change nothing */

/* The Verlet cloth web demo's scene shrunk (wind with turbulence, the moving sphere, so
 * that the obstacle passes run split among threads too), per kernel and variant. */
static const struct {
    const char *kernel;
    int substeps;
    const char *keys;           /* more lines of the kernel's section */
} variants[] = {
    {"explicit", 20, ""},
    {"explicit", 20, "scheme = rk4\n"},
    {"verlet", 5, ""},
    {"verlet", 5, "mode = provot\nstrain_limit = 0.02\n"},
    {"pbd", 5, ""},
    {"pbd", 5, "variant = pbd\nk_pbd = 0.9\nbending = dihedral\n"},
};
#define N_VARIANTS ((int)(sizeof variants / sizeof variants[0]))

static cloth_sim *hanging(int variant, const char *order, int threads)
{
    char text[2048];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 17\nny = 13\nspacing = 0.18\npins = top-row\n"
             "[material]\nk_structural = 500\nk_shear = 200\nk_bend = 50\n"
             "vertex_mass = 0.01\nspring_damping = 0.02\n"
             "[world]\nwind = 0 0 2\nturbulence = 0.5\nair_damping = 0.001\n"
             "[sphere]\nradius = 0.35\noffset = 0.15\n"
             "motion = path 1.45 -1.3 -1.2  1.45 -1.3 1.2  1\n"
             "[run]\nkernel = %s\nsubsteps = %d\ndt = 0.016666666666666666\nthreads = %d\n"
             "[%s]\norder = %s\n%s",
             variants[variant].kernel, variants[variant].substeps, threads,
             variants[variant].kernel, order, variants[variant].keys);
    return tu_sim(text, "coloured.ini");
}

START_TEST(threads_give_bit_identical_results)
{
    int v = _i;
    cloth_sim *one = hanging(v, "coloured", 1);
    const int n3 = 3 * cloth_sim_mesh(one)->n;
    tu_frames(one, 15);
    for (int threads = 2; threads <= 3; threads++) {
        cloth_sim *many = hanging(v, "coloured", threads);
        tu_frames(many, 15);
        ck_assert_msg(memcmp(cloth_sim_positions(one), cloth_sim_positions(many),
                             sizeof(double) * n3) == 0,
                      "variant %d: positions differ on %d threads", v, threads);
        ck_assert_msg(memcmp(cloth_sim_velocities(one), cloth_sim_velocities(many),
                             sizeof(double) * n3) == 0,
                      "variant %d: velocities differ on %d threads", v, threads);
        cloth_sim_destroy(many);
    }
    /* the sequential order does not look at run.threads at all */
    cloth_sim *seq1 = hanging(v, "sequential", 1), *seq2 = hanging(v, "sequential", 2);
    tu_frames(seq1, 10);
    tu_frames(seq2, 10);
    ck_assert(memcmp(cloth_sim_positions(seq1), cloth_sim_positions(seq2),
                     sizeof(double) * n3) == 0);
    cloth_sim_destroy(seq1);
    cloth_sim_destroy(seq2);
    cloth_sim_destroy(one);
}
END_TEST

/* ------------------------------------------- the same physics in another order */

/* explicit: a coloured step sums each vertex's spring forces in another order, so a
 * frame from the same state agrees with the sequential one to rounding. */
START_TEST(coloured_forces_are_the_sequential_ones)
{
    for (int v = 0; v < 2; v++) {
        cloth_sim *seq = hanging(v, "sequential", 1), *col = hanging(v, "coloured", 2);
        tu_frames(seq, 1);
        tu_frames(col, 1);
        const cloth_mesh *m = cloth_sim_mesh(seq);
        const double *a = cloth_sim_velocities(seq), *b = cloth_sim_velocities(col);
        double worst = 0, scale = 0;
        for (int i = 0; i < 3 * m->n; i++) {
            worst = fmax(worst, fabs(a[i] - b[i]));
            scale = fmax(scale, fabs(a[i]));
        }
        /* a frame is 20 steps: rounding differences may grow a little */
        ck_assert_msg(worst <= 1e-10 * scale, "variant %d: |dv| %g of %g", v, worst, scale);
        cloth_sim_destroy(seq);
        cloth_sim_destroy(col);
    }
}
END_TEST

/* verlet (relaxation) and pbd (plain, k_pbd = 1: exact constraints): a hanging cloth with
 * damping comes to rest with its springs at their rest lengths in either order, so both
 * orders reach the same state: the springs' length errors are small and the positions
 * agree to about that. */
static const char *const statics[] = {
    "iterations = 60\ndamping = 0.9\nstrain_limit = 0\n",
    "variant = pbd\niterations = 60\ndamping = 0.2\n",
};

static double worst_length_error(const cloth_sim *sim)
{
    const cloth_mesh *m = cloth_sim_mesh(sim);
    const double *x = cloth_sim_positions((cloth_sim *)sim);
    double worst = 0;
    for (int s = 0; s < m->n_springs; s++) {
        const cloth_spring *sp = &m->springs[s];
        const double *a = x + 3 * sp->a, *b = x + 3 * sp->b;
        double l = sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                        (a[2] - b[2]) * (a[2] - b[2]));
        worst = fmax(worst, fabs(l / sp->rest - 1));
    }
    return worst;
}

START_TEST(coloured_reaches_the_sequential_rest_state)
{
    const char *kernel = _i == 0 ? "verlet" : "pbd";
    cloth_sim *sim[2];
    for (int o = 0; o < 2; o++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "[mesh]\nnx = 9\nny = 7\nspacing = 0.1\npins = top-row\n"
                 "[material]\nvertex_mass = 0.01\n"
                 "[world]\nair_damping = 0.01\n"
                 "[run]\nkernel = %s\nsubsteps = 5\ndt = 0.016666666666666666\n"
                 "[%s]\norder = %s\n%s",
                 kernel, kernel, o ? "coloured" : "sequential", statics[_i]);
        sim[o] = tu_sim(text, "coloured.ini");
        tu_frames(sim[o], 300);
    }
    const int n = cloth_sim_mesh(sim[0])->n;
    double e0 = worst_length_error(sim[0]), e1 = worst_length_error(sim[1]), gap = 0;
    const double *x0 = cloth_sim_positions(sim[0]), *x1 = cloth_sim_positions(sim[1]);
    for (int i = 0; i < 3 * n; i++)
        gap = fmax(gap, fabs(x0[i] - x1[i]));
    ck_assert_msg(e0 < 1e-3 && e1 < 1e-3, "%s: length errors %g %g", kernel, e0, e1);
    ck_assert_msg(gap < 1e-3, "%s: the rest states differ by %g m", kernel, gap);
    /* and they are not bit-identical: the order really changed */
    ck_assert(memcmp(x0, x1, sizeof(double) * 3 * n) != 0);
    cloth_sim_destroy(sim[0]);
    cloth_sim_destroy(sim[1]);
}
END_TEST

START_TEST(bad_order_and_threads_are_refused)
{
    static const char *const bad[] = {"pbd.order=random", "verlet.order=", "explicit.order=1",
                                      "run.threads=0", "run.threads=65", "run.threads=1.5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cloth_scene s;
        cloth_default_scene(&s);
        cloth_error err = {""};
        ck_assert_msg(cloth_scene_set(&s, bad[i], 1, &err) != CLOTH_OK, "%s accepted", bad[i]);
        ck_assert(err.msg[0] != 0);
    }
}
END_TEST

Suite *suite_coloured(void)
{
    Suite *s = suite_create("coloured");
    TCase *tc = tcase_create("coloured");
    /* threads meeting at a barrier per colour crawl on a machine busy with other work */
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, colours_share_no_vertex);
    tcase_add_test(tc, too_many_colours_is_an_error);
    tcase_add_loop_test(tc, threads_give_bit_identical_results, 0, N_VARIANTS);
    tcase_add_test(tc, coloured_forces_are_the_sequential_ones);
    tcase_add_loop_test(tc, coloured_reaches_the_sequential_rest_state, 0, 2);
    tcase_add_test(tc, bad_order_and_threads_are_refused);
    suite_add_tcase(s, tc);
    return s;
}
