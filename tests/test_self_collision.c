/* Self-collision (terms/self_collision.h) against mathematics first: a pair ends exactly
 * the thickness apart with its centre of mass where it was, shares of the push by
 * inverse mass, pins, the pairs it must leave alone, the vertex-triangle push, the
 * velocity correction; then behaviour: two sheets dropped onto each other in each
 * projecting kernel, determinism; then the interface: the start that is refused, through
 * the library and the CLI.  That a step allocates nothing is checked where the
 * allocation counter lives: tests/faults/test_faults.c, frames_allocate_nothing. */
#include "cloth.h"
#include "terms/self_collision.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------- a hand-built mesh */

enum { MAX_V = 8, MAX_T = 4, MAX_S = 8 };

/* Up to MAX_V vertices, rest positions given, unit masses unless set. */
typedef struct {
    cloth_mesh mesh;
    double rest[3 * MAX_V], x0[3 * MAX_V], mass[MAX_V], inv_mass[MAX_V];
    unsigned char pinned[MAX_V];
    int tris[3 * MAX_T];
    cloth_spring springs[MAX_S];
} test_mesh;

static void init_mesh(test_mesh *t, int n, const double *rest)
{
    memset(t, 0, sizeof *t);
    t->mesh.n = n;
    t->mesh.rest = t->rest;
    t->mesh.x0 = t->x0;
    t->mesh.mass = t->mass;
    t->mesh.inv_mass = t->inv_mass;
    t->mesh.pinned = t->pinned;
    t->mesh.tris = t->tris;
    t->mesh.springs = t->springs;
    memcpy(t->rest, rest, sizeof(double) * 3 * (size_t)n);
    memcpy(t->x0, rest, sizeof(double) * 3 * (size_t)n);
    for (int i = 0; i < n; i++)
        t->mass[i] = t->inv_mass[i] = 1;
}

static void set_mass(test_mesh *t, int i, double m)
{
    t->mass[i] = m;
    t->inv_mass[i] = m > 0 ? 1 / m : 0;
    t->pinned[i] = m == 0;
}

static cloth__self_collision *make(test_mesh *t, cloth_self_collision mode, double thickness)
{
    cloth__self_collision *sc;
    cloth_error err;
    ck_assert_msg(cloth__self_collision_create(&t->mesh, mode, thickness, &sc, &err) ==
                      CLOTH_OK,
                  "%s", err.msg);
    return sc;
}

static double dist(const double *x, int i, int j)
{
    double d[3] = {x[3 * i] - x[3 * j], x[3 * i + 1] - x[3 * j + 1], x[3 * i + 2] - x[3 * j + 2]};
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* two vertices 1 m apart at rest */
static const double far_pair[6] = {0, 0, 0, 1, 0, 0};

/* ------------------------------------------------------------- vertex pairs */

/* Equal masses 0.3 t apart: they end t apart along their line, their midpoint kept. */
START_TEST(pair_ends_at_thickness_centre_kept)
{
    test_mesh t;
    init_mesh(&t, 2, far_pair);
    double t_ = 0.01, x[6] = {0.1, 0.2, 0.3, 0.1 + 0.003 * 0.6, 0.2 + 0.003 * 0.8, 0.3};
    double mid[3] = {(x[0] + x[3]) / 2, (x[1] + x[4]) / 2, (x[2] + x[5]) / 2};
    cloth__self_collision *sc = make(&t, CLOTH_SELF_PARTICLES, t_);
    cloth__self_collision_result r = cloth__self_collision_project(sc, &t.mesh, x, NULL);
    ck_assert_int_eq(r.contacts, 1);
    ck_assert(r.converged && !r.overflow);
    ck_assert_double_eq_tol(dist(x, 0, 1), t_, 1e-15);
    for (int c = 0; c < 3; c++)
        ck_assert_double_eq_tol((x[c] + x[3 + c]) / 2, mid[c], 1e-16);
    /* still along the line (0.6, 0.8, 0) */
    ck_assert_double_eq_tol((x[4] - x[1]) * 0.6 - (x[3] - x[0]) * 0.8, 0, 1e-16);
    ck_assert_double_eq_tol(x[5] - x[2], 0, 1e-16);
    cloth__self_collision_destroy(sc);
}
END_TEST

/* Masses 1 and 3 kg, d apart: each moves its share w_i / (w_1 + w_2) of t - d, so the
 * lighter one 3/4 of it and the heavier one 1/4, and the centre of mass stays. */
START_TEST(heavier_moves_less)
{
    test_mesh t;
    init_mesh(&t, 2, far_pair);
    set_mass(&t, 1, 3);
    double th = 0.02, d = 0.005, x[6] = {0, 0, 0, d, 0, 0};
    cloth__self_collision *sc = make(&t, CLOTH_SELF_PARTICLES, th);
    cloth__self_collision_project(sc, &t.mesh, x, NULL);
    double w1 = 1, w2 = 1.0 / 3;
    ck_assert_double_eq_tol(x[0], -(th - d) * w1 / (w1 + w2), 1e-17);
    ck_assert_double_eq_tol(x[3], d + (th - d) * w2 / (w1 + w2), 1e-17);
    ck_assert_double_eq_tol(1 * x[0] + 3 * x[3], 3 * d, 1e-16);
    ck_assert_double_eq_tol(x[3] - x[0], th, 1e-16);
    cloth__self_collision_destroy(sc);
}
END_TEST

/* A pinned vertex (w = 0) does not move at all; the free one takes the whole push. */
START_TEST(pinned_vertex_stays)
{
    test_mesh t;
    init_mesh(&t, 2, far_pair);
    set_mass(&t, 0, 0);
    double x[6] = {0.5, 0.5, 0.5, 0.5, 0.504, 0.5}, before[3] = {0.5, 0.5, 0.5};
    cloth__self_collision *sc = make(&t, CLOTH_SELF_PARTICLES, 0.01);
    cloth__self_collision_project(sc, &t.mesh, x, NULL);
    ck_assert(memcmp(x, before, sizeof before) == 0);
    ck_assert_double_eq_tol(x[4], 0.51, 1e-16);
    /* two pins: nothing moves, and that is no failure to converge */
    set_mass(&t, 1, 0);
    double y[6] = {0, 0, 0, 0.001, 0, 0}, y0[6];
    memcpy(y0, y, sizeof y);
    cloth__self_collision_result r = cloth__self_collision_project(sc, &t.mesh, y, NULL);
    ck_assert(memcmp(y, y0, sizeof y) == 0);
    ck_assert(r.converged && r.pushes == 0);
    cloth__self_collision_destroy(sc);
}
END_TEST

/* Left alone, to the bit: a pair closer than t at rest (the demo's rule for fine
 * meshes), a pair joined by a spring, a pair joined by a triangle edge. */
START_TEST(close_at_rest_or_joined_untouched)
{
    double th = 0.01;
    test_mesh t;
    /* 0-1 rest 5 mm apart; 2-3 joined by a spring; 4-5 by a triangle edge (4, 5, 6) */
    const double rest[21] = {0, 0, 0, 0.005, 0, 0,  1, 0, 0, 2, 0, 0,
                             5, 0, 0, 6, 0, 0,      5, 1, 0};
    init_mesh(&t, 7, rest);
    t.springs[0] = (cloth_spring){2, 3, CLOTH_STRUCTURAL, 1, 100};
    t.mesh.n_springs = 1;
    t.tris[0] = 4, t.tris[1] = 5, t.tris[2] = 6;
    t.mesh.n_tris = 1;
    double x[21] = {0, 0, 0,   0.002, 0, 0,   1, 0, 0,    1.003, 0, 0,
                    5, 0, 0,   5.004, 0, 0,   5, 1, 0};
    double x0[21];
    memcpy(x0, x, sizeof x);
    cloth__self_collision *sc = make(&t, CLOTH_SELF_PARTICLES, th);
    cloth__self_collision_result r = cloth__self_collision_project(sc, &t.mesh, x, NULL);
    ck_assert(memcmp(x, x0, sizeof x) == 0);
    ck_assert_int_eq(r.pushes, 0);
    int i, j;
    double d;
    ck_assert_int_eq(cloth__self_collision_first_close_pair(sc, &t.mesh, x, &i, &j, &d), 0);
    cloth__self_collision_destroy(sc);
}
END_TEST

/* Three vertices in a row 0.8 t apart: pushing the first pair drives the middle one into
 * the third; the sweeps go on until no pair is closer than t (1 - 1e-6), keeping the
 * centre of mass.  Packed tighter (0.4 t, so that the outer two overlap as well) the
 * error falls only by about half a sweep, 16 sweeps are not enough, and the projection
 * says so; the next one finishes the job. */
START_TEST(sweeps_resolve_a_chain)
{
    test_mesh t;
    const double rest[9] = {0, 0, 0, 1, 0, 0, 2, 0, 0};
    init_mesh(&t, 3, rest);
    double th = 0.01;
    cloth__self_collision *sc = make(&t, CLOTH_SELF_PARTICLES, th);
    for (int tight = 0; tight < 2; tight++) {
        double gap = tight ? 0.4 * th : 0.8 * th, x[9] = {0, 0, 0, gap, 0, 0, 2 * gap, 0, 0};
        cloth__self_collision_result r = cloth__self_collision_project(sc, &t.mesh, x, NULL);
        if (tight) {
            ck_assert(!r.converged);
            ck_assert_int_eq(r.sweeps, CLOTH__SELF_SWEEPS);
            r = cloth__self_collision_project(sc, &t.mesh, x, NULL);
        }
        ck_assert(r.converged);
        ck_assert_int_gt(r.sweeps, 1);
        ck_assert_double_ge(dist(x, 0, 1), th * (1 - CLOTH__SELF_TOL));
        ck_assert_double_ge(dist(x, 1, 2), th * (1 - CLOTH__SELF_TOL));
        ck_assert_double_eq_tol(x[0] + x[3] + x[6], 3 * gap, 1e-15);
    }
    cloth__self_collision_destroy(sc);
}
END_TEST

/* The start check's pair: the smallest i, then j, of the pairs closer than t. */
START_TEST(first_close_pair_is_the_smallest)
{
    test_mesh t;
    const double rest[15] = {0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0, 0};
    init_mesh(&t, 5, rest);
    double x[15] = {0, 0, 0,  1, 0, 0,  0.5, 0, 0,  1.0003, 0, 0,  0.5, 0.0002, 0};
    cloth__self_collision *sc = make(&t, CLOTH_SELF_PARTICLES, 0.001);
    int i, j;
    double d;
    ck_assert_int_eq(cloth__self_collision_first_close_pair(sc, &t.mesh, x, &i, &j, &d), 1);
    ck_assert_int_eq(i, 1);
    ck_assert_int_eq(j, 3);
    ck_assert_double_eq_tol(d, 0.0003, 1e-15);
    cloth__self_collision_destroy(sc);
}
END_TEST

/* ----------------------------------------------------- vertex and triangle */

/* Triangle (0, 1, 2) in z = 0; vertex 3 above its inside, far from its corners. */
static const double tri_rest[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0.25, 0.25, 1};

static void one_triangle(test_mesh *t)
{
    init_mesh(t, 4, tri_rest);
    t->tris[0] = 0, t->tris[1] = 1, t->tris[2] = 2;
    t->mesh.n_tris = 1;
}

/* Müller 2007's constraint with n held fixed: a vertex 0.3 t above the triangle's
 * centroid (and above it at the start) ends exactly t above, each corner moved down by a
 * third of lambda = 0.7 t / (1 + 3/9) (the triangle stays parallel, so one move is the
 * answer), and the momentum along n is kept. */
START_TEST(vertex_pushed_off_a_triangle)
{
    test_mesh t;
    one_triangle(&t);
    double th = 0.01, x[12], start[12];
    memcpy(x, tri_rest, sizeof x);
    x[9] = x[10] = 1.0 / 3;
    x[11] = 0.3 * th;
    memcpy(start, x, sizeof x);
    start[11] = 0.05; /* it came from above */
    cloth__self_collision *sc = make(&t, CLOTH_SELF_PROXIMITY, th);
    cloth__self_collision_result r = cloth__self_collision_project(sc, &t.mesh, x, start);
    ck_assert(r.converged);
    ck_assert_int_eq(r.contacts, 1);
    double lambda = 0.7 * th / (4.0 / 3);
    ck_assert_double_eq_tol(x[11], 0.3 * th + lambda, 1e-16);
    for (int k = 0; k < 3; k++)
        ck_assert_double_eq_tol(x[3 * k + 2], -lambda / 3, 1e-16);
    ck_assert_double_eq_tol(x[2] + x[5] + x[8] + x[11], 0.3 * th, 1e-16);
    for (int k = 0; k < 9; k++) /* nothing moves in the plane */
        if (k % 3 != 2)
            ck_assert(x[k] == tri_rest[k]);
    cloth__self_collision_destroy(sc);
}
END_TEST

/* Off the centroid (barycentric 1/2, 1/4, 1/4) the triangle tilts as it is pushed, so a
 * second sweep corrects along the new normal; the result: t (1 - 1e-6) or more above
 * the moved triangle's plane, momentum kept. */
START_TEST(vertex_pushed_off_a_tilting_triangle)
{
    test_mesh t;
    one_triangle(&t);
    double th = 0.01, x[12], start[12];
    memcpy(x, tri_rest, sizeof x);
    x[11] = 0.3 * th;
    memcpy(start, x, sizeof x);
    start[11] = 0.05;
    cloth__self_collision *sc = make(&t, CLOTH_SELF_PROXIMITY, th);
    cloth__self_collision_result r = cloth__self_collision_project(sc, &t.mesh, x, start);
    ck_assert(r.converged);
    ck_assert_int_ge(r.sweeps, 2);
    double e1[3], e2[3], nrm[3], rel[3];
    for (int c = 0; c < 3; c++) {
        e1[c] = x[3 + c] - x[c];
        e2[c] = x[6 + c] - x[c];
        rel[c] = x[9 + c] - x[c];
    }
    nrm[0] = e1[1] * e2[2] - e1[2] * e2[1];
    nrm[1] = e1[2] * e2[0] - e1[0] * e2[2];
    nrm[2] = e1[0] * e2[1] - e1[1] * e2[0];
    double len = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    double height = (rel[0] * nrm[0] + rel[1] * nrm[1] + rel[2] * nrm[2]) / len;
    ck_assert_double_ge(height, th * (1 - CLOTH__SELF_TOL));
    ck_assert_double_le(height, th * (1 + 1e-3));
    for (int c = 0; c < 3; c++)
        ck_assert_double_eq_tol(x[c] + x[3 + c] + x[6 + c] + x[9 + c],
                                tri_rest[c] + tri_rest[3 + c] + tri_rest[6 + c] +
                                    (c == 2 ? 0.3 * th : tri_rest[9 + c]),
                                1e-15);
    cloth__self_collision_destroy(sc);
}
END_TEST

/* The side comes from the step's start: a vertex that was above and is now 0.2 t below
 * (it went through) is put back t above; one that was below stays below.  A pinned
 * triangle does not move. */
START_TEST(vertex_goes_back_to_its_start_side)
{
    test_mesh t;
    one_triangle(&t);
    for (int i = 0; i < 3; i++)
        set_mass(&t, i, 0);
    double th = 0.01, x[12], start[12];
    cloth__self_collision *sc = make(&t, CLOTH_SELF_PROXIMITY, th);
    for (int from_above = 0; from_above < 2; from_above++) {
        memcpy(x, tri_rest, sizeof x);
        x[11] = -0.2 * th;
        memcpy(start, x, sizeof x);
        start[11] = from_above ? 0.02 : -0.02;
        cloth__self_collision_project(sc, &t.mesh, x, start);
        ck_assert(memcmp(x, tri_rest, 9 * sizeof(double)) == 0);
        ck_assert_double_eq_tol(x[11], from_above ? th : -th, 1e-17);
    }
    /* outside the triangle (past its long edge): not a vertex-triangle contact */
    memcpy(x, tri_rest, sizeof x);
    x[9] = x[10] = 0.6;
    x[11] = 0.001;
    cloth__self_collision_result r = cloth__self_collision_project(sc, &t.mesh, x, x);
    ck_assert_int_eq(r.pushes, 0);
    cloth__self_collision_destroy(sc);
}
END_TEST

/* ------------------------------------------------------------- velocities */

/* A pair closing at 2 m/s head on and sliding past at 1 m/s (equal masses): the closing
 * part goes, the sliding part is scaled by 1 - f, momentum stays. */
START_TEST(velocity_correction_inelastic_with_friction)
{
    test_mesh t;
    init_mesh(&t, 2, far_pair);
    set_mass(&t, 1, 2);
    double th = 0.01, x[6] = {0, 0, 0, 0.006, 0, 0}, f = 0.25;
    cloth__self_collision *sc = make(&t, CLOTH_SELF_PARTICLES, th);
    cloth__self_collision_project(sc, &t.mesh, x, NULL);
    /* vertex 0 moves +x towards vertex 1 and slides +y: relative (v0 - v1) = (2, 1, 0) */
    double v[6] = {1.5, 0.5, 0, -0.5, -0.5, 0};
    double p0[3] = {1 * v[0] + 2 * v[3], 1 * v[1] + 2 * v[4], 0};
    cloth__self_collision_velocities(sc, &t.mesh, v, f);
    /* n points from 1 to 0, i.e. -x: approaching along it; none left */
    ck_assert_double_eq_tol(v[0] - v[3], 0, 1e-15);
    ck_assert_double_eq_tol(v[1] - v[4], (1 - f) * 1, 1e-15);
    ck_assert_double_eq_tol(1 * v[0] + 2 * v[3], p0[0], 1e-15);
    ck_assert_double_eq_tol(1 * v[1] + 2 * v[4], p0[1], 1e-15);
    /* separating pairs keep their normal velocity, scaled by 1 - f like the rest */
    double u[6] = {-1, 0, 0, 1, 0, 0};
    cloth__self_collision_velocities(sc, &t.mesh, u, f);
    ck_assert_double_eq_tol(u[3] - u[0], (1 - f) * 2, 1e-15);
    cloth__self_collision_destroy(sc);
}
END_TEST

/* ------------------------------------------------- two sheets, every kernel */

/* The projecting kernels: self-collision is theirs (newton has its own barriers). */
static const char *const projecting[] = {"explicit", "verlet", "pbd"};

enum { SHEET = 8 };

/* Two SHEET x SHEET sheets 1 cm apart in the grid, lying flat, the upper 2 cm above the
 * lower and offset half a cell, so that its vertices come down between the lower one's:
 * the lower is pinned at its corners and sags, the upper falls onto it.  thickness =
 * spacing: the demo's setting, where vertex pairs can hold a sheet.  Returns the scene
 * path (the OBJ beside it, in a fresh folder). */
static const char *write_sheets(int slot)
{
    const char *dir = tu_temp_dir(slot);
    char path[512], text[1024];
    snprintf(path, sizeof path, "%s/sheets.obj", dir);
    FILE *f = fopen(path, "w");
    ck_assert(f != NULL);
    for (int s = 0; s < 2; s++)
        for (int j = 0; j < SHEET; j++)
            for (int i = 0; i < SHEET; i++)
                fprintf(f, "v %.17g %.17g %.17g\n", 0.01 * (i + 0.5 * s), 0.02 * s,
                        0.01 * (j + 0.5 * s));
    for (int s = 0; s < 2; s++)
        for (int j = 0; j + 1 < SHEET; j++)
            for (int i = 0; i + 1 < SHEET; i++) {
                int a = 1 + s * SHEET * SHEET + j * SHEET + i, b = a + 1, c = a + SHEET,
                    d = c + 1;
                fprintf(f, "f %d %d %d\nf %d %d %d\n", a, b, d, a, d, c);
            }
    fclose(f);
    snprintf(text, sizeof text,
             "[mesh]\nobj = sheets.obj\npins = 0 %d %d %d\n"
             "[material]\nvertex_mass = 0.001\nk_bend = 5\nthickness = 0.01\n"
             "[run]\ndt = 0.01\nsubsteps = 10\nframes = 40\n",
             SHEET - 1, SHEET * (SHEET - 1), SHEET * SHEET - 1);
    static char scene[8][512];
    snprintf(scene[slot], sizeof scene[slot], "%s/sheets.ini", dir);
    f = fopen(scene[slot], "w");
    ck_assert(f != NULL);
    fputs(text, f);
    fclose(f);
    return scene[slot];
}

static cloth_sim *sheets_sim(const char *path, const char *kernel, const char *mode)
{
    cloth_scene s;
    cloth_error err;
    char set[2][64];
    snprintf(set[0], sizeof set[0], "run.kernel=%s", kernel);
    snprintf(set[1], sizeof set[1], "run.self_collision=%s", mode);
    ck_assert_msg(cloth_scene_load(path, &s, &err) == CLOTH_OK, "%s", err.msg);
    for (int k = 0; k < 2; k++)
        ck_assert(cloth_scene_set(&s, set[k], k + 1, &err) == CLOTH_OK);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    return sim;
}

/* The smallest distance from a vertex of the lower sheet to one of the upper. */
static double sheet_gap(const cloth_sim *sim)
{
    const double *x = cloth_sim_positions((cloth_sim *)sim);
    int half = SHEET * SHEET;
    double best = INFINITY;
    for (int i = 0; i < half; i++)
        for (int j = half; j < 2 * half; j++)
            best = fmin(best, dist(x, i, j));
    return best;
}

/* mean height of the upper sheet minus that of the lower */
static double sheet_height(const cloth_sim *sim)
{
    const double *x = cloth_sim_positions((cloth_sim *)sim);
    int half = SHEET * SHEET;
    double h = 0;
    for (int i = 0; i < half; i++)
        h += x[3 * (half + i) + 1] - x[3 * i + 1];
    return h / half;
}

/* With self-collision (on or triangles) no vertex of one sheet comes closer than
 * t (1 - 1e-6) to one of the other at the end of any frame, every step converges, and
 * the upper sheet stays above; with it off the upper sheet ends below (it passed
 * through).  Index: kernel * 3 + mode (off, on, triangles). */
START_TEST(sheets_dropped_onto_each_other)
{
    static const char *modes[] = {"off", "particles", "proximity"};
    const char *kernel = projecting[_i / 3], *mode = modes[_i % 3];
    cloth_sim *sim = sheets_sim(write_sheets(0), kernel, mode);
    double th = cloth_sim_scene(sim)->material.thickness, gap = INFINITY, lowest = INFINITY;
    cloth_frame f;
    cloth_error err;
    long intersections = 0;
    for (int k = 0; k < cloth_sim_scene(sim)->run.frames; k++) {
        ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
        ck_assert_int_eq(f.not_converged, 0);
        gap = fmin(gap, sheet_gap(sim));
        lowest = fmin(lowest, sheet_height(sim));
        intersections = f.intersections > intersections ? f.intersections : intersections;
    }
    if (_i % 3 == 0) {
        ck_assert_msg(lowest < 0, "%s, off: the upper sheet stayed above (%g)", kernel, lowest);
        ck_assert_double_lt(gap, th);
    } else {
        ck_assert_msg(gap >= th * (1 - CLOTH__SELF_TOL), "%s, %s: sheets %.17g apart, thickness %g",
                      kernel, mode, gap, th);
        ck_assert_double_gt(lowest, 0);
        ck_assert_int_eq(intersections, 0);
    }
    cloth_sim_destroy(sim);
}
END_TEST

/* The same run twice gives the same positions and velocities to the bit. */
START_TEST(runs_are_deterministic)
{
    const char *mode = _i % 2 ? "proximity" : "particles", *path = write_sheets(1);
    cloth_sim *a = sheets_sim(path, projecting[_i / 2], mode);
    cloth_sim *b = sheets_sim(path, projecting[_i / 2], mode);
    cloth_frame f;
    cloth_error err;
    for (int k = 0; k < 25; k++) {
        ck_assert(cloth_sim_frame(a, &f, &err) == CLOTH_OK);
        ck_assert(cloth_sim_frame(b, &f, &err) == CLOTH_OK);
    }
    size_t bytes = sizeof(double) * 3 * (size_t)cloth_sim_mesh(a)->n;
    ck_assert(memcmp(cloth_sim_positions(a), cloth_sim_positions(b), bytes) == 0);
    ck_assert(memcmp(cloth_sim_velocities(a), cloth_sim_velocities(b), bytes) == 0);
    cloth_sim_destroy(a);
    cloth_sim_destroy(b);
}
END_TEST

/* -------------------------------------------------------------- bad input */

/* Triangle (0, 1, 2) in z = 0 and triangle (3, 4, 5) in y = 0, vertex 3 1.5 mm past
 * vertex 1 at rest.  A pair closer than the thickness at rest is never pushed, and the
 * initial shape is the rest shape scaled by 1 + mesh.prestretch, so only a compressed
 * start can be too close: with prestretch -0.8 the two start 0.3 mm apart, closer than
 * a 1 mm thickness. */
static const char *CLOSE_OBJ = "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
                               "v 1.0015 0 0\nv 2 0 0\nv 2 0 1\nf 1 2 3\nf 4 5 6\n";
/* Triangle (3, 4, 5) in the plane x = y, through triangle (0, 1, 2). */
static const char *CROSSING_OBJ = "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
                                  "v 0.2 0.2 -0.5\nv 0.2 0.2 0.5\nv 3 3 0\nf 1 2 3\nf 4 5 6\n";

/* A scene on obj text (in a fresh folder), with self-collision and a 1 mm thickness,
 * compressed by 5x when it is CLOSE_OBJ. */
static const char *bad_scene(int slot, const char *obj, const char *mode)
{
    const char *dir = tu_temp_dir(slot);
    static char scene[8][512];
    char path[512], text[512];
    snprintf(path, sizeof path, "%s/m.obj", dir);
    FILE *f = fopen(path, "w");
    ck_assert(f != NULL);
    fputs(obj, f);
    fclose(f);
    snprintf(text, sizeof text,
             "[mesh]\nobj = m.obj\npins = none\nprestretch = %g\n"
             "[material]\nthickness = 0.001\n[run]\nself_collision = %s\n",
             obj == CLOSE_OBJ ? -0.8 : 0.0, mode);
    snprintf(scene[slot], sizeof scene[slot], "%s/bad.ini", dir);
    f = fopen(scene[slot], "w");
    ck_assert(f != NULL);
    fputs(text, f);
    fclose(f);
    return scene[slot];
}

static cloth_status create_with(const char *path, int kernel, cloth_error *err)
{
    cloth_scene s;
    ck_assert_msg(cloth_scene_load(path, &s, err) == CLOTH_OK, "%s", err->msg);
    char set[64];
    snprintf(set, sizeof set, "run.kernel=%s", cloth_kernel_name(kernel));
    ck_assert(cloth_scene_set(&s, set, 1, err) == CLOTH_OK);
    cloth_sim *sim = NULL;
    cloth_status st = cloth_sim_create(&s, &sim, err);
    cloth_sim_destroy(sim);
    return st;
}

/* Every kernel refuses both starts with self-collision on (or triangles), naming the
 * pair, and accepts them with it off. */
START_TEST(refuses_a_start_it_could_not_keep)
{
    cloth_error err;
    char want[1024];
    const char *close_on = bad_scene(2, CLOSE_OBJ, _i % 2 ? "proximity" : "particles");
    ck_assert_int_eq(create_with(close_on, _i / 2, &err), CLOTH_EINVAL);
    snprintf(want, sizeof want,
             "%s: vertices 1 and 3 start 0.3 mm apart, closer than material.thickness = 1 mm",
             close_on);
    ck_assert_str_eq(err.msg, want);
    const char *crossing = bad_scene(3, CROSSING_OBJ, _i % 2 ? "proximity" : "particles");
    ck_assert_int_eq(create_with(crossing, _i / 2, &err), CLOTH_EINVAL);
    snprintf(want, sizeof want,
             "%s: the cloth starts through itself: edge 1-2 crosses triangle 1 (vertices 3 4 "
             "5); run.self_collision needs a start without intersections",
             crossing);
    ck_assert_str_eq(err.msg, want);
    ck_assert_msg(create_with(bad_scene(4, CLOSE_OBJ, "off"), _i / 2, &err) == CLOTH_OK, "%s",
                  err.msg);
    ck_assert_msg(create_with(bad_scene(5, CROSSING_OBJ, "off"), _i / 2, &err) == CLOTH_OK,
                  "%s", err.msg);
}
END_TEST

/* Neighbours closer than the thickness are no reason to refuse: a grid at half the
 * thickness apart starts (its close pairs are springs or were close at rest). */
START_TEST(a_fine_grid_starts)
{
    cloth_scene s;
    cloth_error err;
    ck_assert(cloth_scene_parse("[mesh]\nnx = 6\nny = 6\nspacing = 0.005\n"
                                "[run]\nself_collision = proximity\nkernel = pbd\n",
                                "fine.ini", &s, &err) == CLOTH_OK);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    cloth_frame f;
    for (int k = 0; k < 5; k++)
        ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim_destroy(sim);
}
END_TEST

/* The CLI: the same refusals, prefixed "cloth: ", exit code 2 (bad input). */
START_TEST(cli_exit_2_on_a_bad_start)
{
    char cmd[1024], out[2048], want[1024];
    const char *close_on = bad_scene(6, CLOSE_OBJ, "particles");
    snprintf(cmd, sizeof cmd, "run %s --out %s", close_on, tu_temp_dir(7));
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 2);
    snprintf(want, sizeof want,
             "cloth: %s: vertices 1 and 3 start 0.3 mm apart, closer than "
             "material.thickness = 1 mm\n",
             close_on);
    ck_assert_str_eq(out, want);
    const char *crossing = bad_scene(6, CROSSING_OBJ, "particles");
    snprintf(cmd, sizeof cmd, "run %s --set run.kernel=pbd --out %s", crossing, tu_temp_dir(7));
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "edge 1-2 crosses triangle 1"), "%s", out);
    snprintf(cmd, sizeof cmd, "run %s --set run.self_collision=off --set run.frames=1 --out %s",
             crossing, tu_temp_dir(7));
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 0);
}
END_TEST

Suite *suite_self_collision(void)
{
    Suite *s = suite_create("self_collision");
    TCase *tc = tcase_create("projection");
    tcase_add_test(tc, pair_ends_at_thickness_centre_kept);
    tcase_add_test(tc, heavier_moves_less);
    tcase_add_test(tc, pinned_vertex_stays);
    tcase_add_test(tc, close_at_rest_or_joined_untouched);
    tcase_add_test(tc, sweeps_resolve_a_chain);
    tcase_add_test(tc, first_close_pair_is_the_smallest);
    tcase_add_test(tc, vertex_pushed_off_a_triangle);
    tcase_add_test(tc, vertex_pushed_off_a_tilting_triangle);
    tcase_add_test(tc, vertex_goes_back_to_its_start_side);
    tcase_add_test(tc, velocity_correction_inelastic_with_friction);
    suite_add_tcase(s, tc);
    tc = tcase_create("kernels");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, sheets_dropped_onto_each_other, 0, 9);
    tcase_add_loop_test(tc, runs_are_deterministic, 0, 6);
    suite_add_tcase(s, tc);
    tc = tcase_create("bad input");
    tcase_add_loop_test(tc, refuses_a_start_it_could_not_keep, 0, 2 * cloth_kernel_count());
    tcase_add_test(tc, a_fine_grid_starts);
    tcase_add_test(tc, cli_exit_2_on_a_bad_start);
    suite_add_tcase(s, tc);
    return s;
}
