/* The common mesh: counts from the formulas of SPEC 2, masses, pins, OBJ round trip. */
#include "cloth.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cloth_mesh *grid(int nx, int ny, const char *extra)
{
    char text[1024];
    snprintf(text, sizeof text, "[mesh]\nnx = %d\nny = %d\n%s\n", nx, ny, extra);
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(text, "grid.ini", &s, &err) == CLOTH_OK, "%s", err.msg);
    cloth_mesh *m = NULL;
    ck_assert_msg(cloth_mesh_create(&s, &m, &err) == CLOTH_OK, "%s", err.msg);
    return m;
}

static const int sizes[][2] = {{30, 24}, {2, 2}, {3, 5}, {7, 4}, {1, 6}, {6, 1}, {1, 2}};

/* structural (nx-1)ny + nx(ny-1); shear 2(nx-1)(ny-1); bend (nx-2)ny + nx(ny-2) with no
 * bend along an axis shorter than 3; triangles 2(nx-1)(ny-1). */
START_TEST(grid_counts_follow_the_formulas)
{
    int nx = sizes[_i][0], ny = sizes[_i][1];
    cloth_mesh *m = grid(nx, ny, "pins = none");
    ck_assert_int_eq(m->n, nx * ny);
    ck_assert_int_eq(m->family_count[CLOTH_STRUCTURAL], (nx - 1) * ny + nx * (ny - 1));
    ck_assert_int_eq(m->family_count[CLOTH_SHEAR], 2 * (nx - 1) * (ny - 1));
    int bend = (nx >= 3 ? (nx - 2) * ny : 0) + (ny >= 3 ? nx * (ny - 2) : 0);
    ck_assert_int_eq(m->family_count[CLOTH_BEND], bend);
    ck_assert_int_eq(m->n_tris, 2 * (nx - 1) * (ny - 1));
    ck_assert_int_eq(m->n_springs, m->family_count[0] + m->family_count[1] + m->family_count[2]);
    /* interior edges of the triangulation: each quad's diagonal plus the shared sides */
    int interior = (nx - 1) * (ny - 1) + (nx - 2 > 0 ? (nx - 2) : 0) * (ny - 1) +
                   (ny - 2 > 0 ? (ny - 2) : 0) * (nx - 1);
    ck_assert_int_eq(m->n_hinges, nx > 1 && ny > 1 ? interior : 0);
    cloth_mesh_destroy(m);
}
END_TEST

START_TEST(the_30_by_24_cloth_of_seed_000)
{
    cloth_mesh *m = grid(30, 24, "");
    ck_assert_int_eq(m->family_count[CLOTH_STRUCTURAL], 1386);
    ck_assert_int_eq(m->family_count[CLOTH_SHEAR], 1334);
    ck_assert_int_eq(m->family_count[CLOTH_BEND], 1332);
    ck_assert_int_eq(m->n_tris, 1334); /* 2 * 29 * 23 */
    ck_assert_int_eq(m->n_pinned, 30);  /* top-row by default */
    cloth_mesh_destroy(m);
}
END_TEST

START_TEST(pin_modes)
{
    static const struct { const char *pins; int count; } cases[] = {
        {"pins = none", 0}, {"pins = top-row", 7}, {"pins = top-corners", 2},
        {"pins = corners", 4}, {"pins = 0 5 5, 27", 3},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        cloth_mesh *m = grid(7, 4, cases[c].pins);
        ck_assert_int_eq(m->n_pinned, cases[c].count);
        for (int i = 0; i < m->n; i++)
            ck_assert(m->pinned[i] ? m->inv_mass[i] == 0 : m->inv_mass[i] > 0);
        cloth_mesh_destroy(m);
    }
    cloth_mesh *m = grid(7, 4, "pins = corners");
    ck_assert(m->pinned[0] && m->pinned[6] && m->pinned[21] && m->pinned[27]);
    cloth_mesh_destroy(m);
}
END_TEST

/* Lumped masses: each vertex gets a third of its triangles' area times rho, so the sum
 * is rho * (nx-1)(ny-1) s^2 and a corner of the [a,b,d],[a,d,c] split gets rho s^2/6 or
 * rho s^2/3. */
START_TEST(lumped_masses_sum_to_density_times_area)
{
    cloth_mesh *m = grid(9, 6, "spacing = 0.25\n[material]\ndensity = 0.3");
    double sum = 0, area = 8 * 5 * 0.25 * 0.25;
    for (int i = 0; i < m->n; i++)
        sum += m->mass[i];
    ck_assert_double_eq_tol(m->area, area, 1e-12);
    ck_assert_double_eq_tol(sum, 0.3 * area, 1e-12);
    ck_assert_double_eq_tol(m->mass[0], 0.3 * 0.25 * 0.25 * 2 / 6, 1e-15);
    ck_assert_double_eq_tol(m->mass[8], 0.3 * 0.25 * 0.25 / 6, 1e-15);
    cloth_mesh_destroy(m);
}
END_TEST

START_TEST(positions_planes_and_prestretch)
{
    cloth_mesh *m = grid(4, 3, "spacing = 0.5\nplane = xz\norigin = 1 2 3\nprestretch = 0.1");
    int v = 2 * 4 + 3; /* i = 3, j = 2 */
    ck_assert_double_eq_tol(m->rest[3 * v + 0], 1 + 3 * 0.5, 1e-15);
    ck_assert_double_eq_tol(m->rest[3 * v + 1], 2, 1e-15);
    ck_assert_double_eq_tol(m->rest[3 * v + 2], 3 + 2 * 0.5, 1e-15);
    ck_assert_double_eq_tol(m->x0[3 * v + 0], 1 + 3 * 0.55, 1e-15);
    ck_assert_double_eq_tol(m->x0[3 * v + 2], 3 + 2 * 0.55, 1e-15);
    for (int s = 0; s < m->n_springs; s++) {
        double expect = m->springs[s].family == CLOTH_SHEAR ? 0.5 * sqrt(2) :
                        m->springs[s].family == CLOTH_BEND ? 1.0 : 0.5;
        ck_assert_double_eq_tol(m->springs[s].rest, expect, 1e-14);
    }
    /* diagonal of a 1.5 x 1 rectangle */
    ck_assert_double_eq_tol(m->rest_diag, sqrt(1.5 * 1.5 + 1.0), 1e-14);
    cloth_mesh_destroy(m);
    m = grid(2, 3, "spacing = 0.5");
    ck_assert_double_eq_tol(m->rest[3 * 5 + 1], -1.0, 1e-15); /* xy: rows go down */
    cloth_mesh_destroy(m);
}
END_TEST

START_TEST(family_selection_and_stiffness)
{
    cloth_mesh *m = grid(5, 5, "springs = shear, structural\n[material]\nk_shear = 7");
    ck_assert_int_eq(m->family_count[CLOTH_BEND], 0);
    ck_assert_int_eq(m->n_springs, 40 + 32);
    for (int s = 0; s < m->n_springs; s++)
        ck_assert_double_eq(m->springs[s].k, m->springs[s].family == CLOTH_SHEAR ? 7 : 500);
    cloth_mesh_destroy(m);
}
END_TEST

/* ------------------------------------------------------------------ layers */

/* L layers: L times every count of one grid, and no spring, triangle or hinge joins
 * two layers (each stays inside its own block of nx*ny vertices). */
START_TEST(layers_are_separate_copies_of_the_grid)
{
    cloth_mesh *one = grid(5, 4, "pins = none");
    cloth_mesh *m = grid(5, 4, "pins = none\nlayers = 3\nlayer_gap = 0.03");
    int per = 5 * 4;
    ck_assert_int_eq(m->layers, 3);
    ck_assert_int_eq(one->layers, 1);
    ck_assert_int_eq(m->n, 3 * per);
    ck_assert_int_eq(m->n_tris, 3 * one->n_tris);
    ck_assert_int_eq(m->n_hinges, 3 * one->n_hinges);
    for (int f = 0; f < CLOTH_FAMILIES; f++)
        ck_assert_int_eq(m->family_count[f], 3 * one->family_count[f]);
    /* still grouped by family, each spring's rest length that of one grid's */
    for (int i = 1; i < m->n_springs; i++)
        ck_assert_int_le(m->springs[i - 1].family, m->springs[i].family);
    for (int i = 0; i < m->n_springs; i++) {
        ck_assert_int_eq(m->springs[i].a / per, m->springs[i].b / per);
        ck_assert_double_eq_tol(m->springs[i].rest,
                                m->springs[i].family == CLOTH_SHEAR ? 0.1 * sqrt(2) :
                                m->springs[i].family == CLOTH_BEND ? 0.2 : 0.1, 1e-15);
    }
    for (int t = 0; t < m->n_tris; t++) {
        int l = m->tris[3 * t] / per;
        ck_assert_int_eq(m->tris[3 * t + 1] / per, l);
        ck_assert_int_eq(m->tris[3 * t + 2] / per, l);
        /* the same triangle as one grid's, moved by l*nx*ny */
        for (int k = 0; k < 3; k++)
            ck_assert_int_eq(m->tris[3 * t + k], one->tris[3 * (t % one->n_tris) + k] + l * per);
    }
    for (int h = 0; h < m->n_hinges; h++)
        for (int k = 1; k < 4; k++)
            ck_assert_int_eq(m->hinges[4 * h + k] / per, m->hinges[4 * h] / per);
    cloth_mesh_destroy(one);
    cloth_mesh_destroy(m);
}
END_TEST

/* Layer l = layer 0 + l (gap n + shift), n = +z (xy) or +y (xz); a 2-vector shift is
 * along the plane's axes, a 3-vector is used as it is; rest and initial shapes alike. */
START_TEST(layers_stack_along_the_normal_with_their_shift)
{
    static const struct { const char *keys; double step[3]; } cases[] = {
        {"plane = xz\nlayer_shift = 0.05 0.02", {0.05, 0.03, 0.02}},
        {"plane = xz\nlayer_shift = 0.05 0 0.02", {0.05, 0.03, 0.02}},
        {"plane = xy\nlayer_shift = 0.05 0.02", {0.05, 0.02, 0.03}},
        {"plane = xy\nlayer_shift = 0.05 0.02 0", {0.05, 0.02, 0.03}},
        {"plane = xy", {0, 0, 0.03}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char keys[256];
        snprintf(keys, sizeof keys, "%s\nlayers = 4\nlayer_gap = 0.03\nprestretch = 0.1\n"
                 "origin = 1 2 3", cases[c].keys);
        cloth_mesh *m = grid(3, 2, keys);
        for (int l = 0; l < 4; l++)
            for (int v = 0; v < 6; v++)
                for (int k = 0; k < 3; k++) {
                    ck_assert_double_eq_tol(m->rest[3 * (6 * l + v) + k],
                                            m->rest[3 * v + k] + l * cases[c].step[k], 1e-15);
                    ck_assert_double_eq_tol(m->x0[3 * (6 * l + v) + k],
                                            m->x0[3 * v + k] + l * cases[c].step[k], 1e-15);
                }
        cloth_mesh_destroy(m);
    }
}
END_TEST

/* Row and corner pins act on every layer; an index list counts over the whole mesh. */
START_TEST(pins_act_on_every_layer)
{
    cloth_mesh *m = grid(7, 4, "pins = corners\nlayers = 3");
    ck_assert_int_eq(m->n_pinned, 12);
    for (int l = 0; l < 3; l++) {
        const unsigned char *p = m->pinned + 28 * l;
        ck_assert(p[0] && p[6] && p[21] && p[27]);
    }
    cloth_mesh_destroy(m);
    m = grid(7, 4, "pins = top-row\nlayers = 2");
    ck_assert_int_eq(m->n_pinned, 14);
    ck_assert(m->pinned[28] && m->pinned[34] && !m->pinned[35]);
    cloth_mesh_destroy(m);
    m = grid(7, 4, "pins = 0 30 83\nlayers = 3");
    ck_assert_int_eq(m->n_pinned, 3);
    ck_assert(m->pinned[0] && m->pinned[30] && m->pinned[83]);
    cloth_mesh_destroy(m);
}
END_TEST

/* Jitter moves each layer's initial positions along the normal by j (2 U_l - 1), U_l the
 * l-th SplitMix64 number from run.seed (top 53 bits / 2^53); the rest shape, and with it
 * L and the masses, does not move.  SplitMix64 from state 1 gives 0x910a2dec89025cc1,
 * 0xbeeb8da1658eec67, 0xf893a2eefb32555e (the reference algorithm, computed apart). */
START_TEST(jitter_is_splitmix64_from_the_seed)
{
    static const uint64_t draws[3] = {0x910a2dec89025cc1ULL, 0xbeeb8da1658eec67ULL,
                                      0xf893a2eefb32555eULL};
    cloth_mesh *plain = grid(3, 2, "plane = xz\nlayers = 3\nlayer_gap = 0.03");
    cloth_mesh *m = grid(3, 2, "plane = xz\nlayers = 3\nlayer_gap = 0.03\njitter = 0.01\n"
                               "[run]\nseed = 1");
    for (int l = 0; l < 3; l++) {
        double u = (double)(draws[l] >> 11) / 9007199254740992.0;
        double h = 0.01 * (2 * u - 1);
        for (int v = 6 * l; v < 6 * (l + 1); v++) {
            ck_assert_double_eq(m->x0[3 * v + 0], plain->x0[3 * v + 0]);
            ck_assert_double_eq_tol(m->x0[3 * v + 1], plain->x0[3 * v + 1] + h, 1e-17);
            ck_assert_double_eq(m->x0[3 * v + 2], plain->x0[3 * v + 2]);
        }
    }
    ck_assert(memcmp(m->rest, plain->rest, sizeof(double) * 3 * (size_t)m->n) == 0);
    ck_assert_double_eq(m->rest_diag, plain->rest_diag);
    cloth_mesh_destroy(m);
    /* another seed, other heights; every one within [-j, j] */
    m = grid(3, 2, "plane = xz\nlayers = 3\nlayer_gap = 0.03\njitter = 0.01\n[run]\nseed = 2");
    int differs = 0;
    for (int l = 0; l < 3; l++) {
        double h = m->x0[3 * 6 * l + 1] - plain->x0[3 * 6 * l + 1];
        ck_assert(fabs(h) <= 0.01);
        differs |= fabs(h - 0.01 * (2 * (double)(draws[l] >> 11) / 9007199254740992.0 - 1)) > 1e-9;
    }
    ck_assert(differs);
    cloth_mesh_destroy(m);
    cloth_mesh_destroy(plain);
}
END_TEST

/* One layer without jitter is the grid as it always was, bit for bit, whatever the other
 * layer keys say (the golden table checks whole runs). */
START_TEST(one_layer_is_the_plain_grid)
{
    cloth_mesh *a = grid(4, 3, "origin = -0 0.5 -0\nprestretch = 0.01");
    cloth_mesh *b = grid(4, 3, "origin = -0 0.5 -0\nprestretch = 0.01\nlayers = 1\n"
                               "layer_gap = 0.2\nlayer_shift = 0.1 0.1");
    ck_assert(memcmp(a->x0, b->x0, sizeof(double) * 3 * (size_t)a->n) == 0);
    ck_assert(memcmp(a->rest, b->rest, sizeof(double) * 3 * (size_t)a->n) == 0);
    cloth_mesh_destroy(a);
    cloth_mesh_destroy(b);
}
END_TEST

/* Layer keys that only the whole scene can judge fail at creation, naming FILE:LINE. */
START_TEST(bad_layer_settings_name_their_key)
{
    const char *obj = tu_temp_file("layer.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    char obj_scene[600];
    snprintf(obj_scene, sizeof obj_scene, "[mesh]\npins = none\nobj = %s\nlayers = 2\n", obj);
    char obj_jitter[600];
    snprintf(obj_jitter, sizeof obj_jitter, "[mesh]\npins = none\nobj = %s\njitter = 0.1\n", obj);
    const struct { const char *text, *prefix, *says; } cases[] = {
        {"[mesh]\nplane = xz\nlayer_shift = 0.1 0.2 0\n", "l.ini:3: mesh.layer_shift: ",
         "along the normal (y)"},
        {"[mesh]\nlayer_shift = 0 0 0.01\n", "l.ini:2: mesh.layer_shift: ", "normal (z)"},
        {"[mesh]\nlayers = 2\nlayer_gap = 0.02\njitter = 0.01\n", "l.ini:4: mesh.jitter: ",
         "half of mesh.layer_gap"},
        {obj_scene, "l.ini:4: mesh.layers: ", "OBJ"},
        {obj_jitter, "l.ini:4: mesh.jitter: ", "OBJ"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        cloth_scene s;
        cloth_error err;
        cloth_mesh *m = NULL;
        ck_assert_msg(cloth_scene_parse(cases[c].text, "l.ini", &s, &err) == CLOTH_OK, "%s",
                      err.msg);
        ck_assert(cloth_mesh_create(&s, &m, &err) == CLOTH_EINVAL);
        ck_assert_msg(strncmp(err.msg, cases[c].prefix, strlen(cases[c].prefix)) == 0 &&
                      strstr(err.msg, cases[c].says), "case %zu: %s", c, err.msg);
    }
    /* one layer may jitter by any amount: there is no neighbour to touch */
    cloth_mesh *m = grid(3, 3, "jitter = 5");
    cloth_mesh_destroy(m);
}
END_TEST

START_TEST(obj_round_trip)
{
    cloth_mesh *m = grid(5, 4, "prestretch = 0.013\norigin = 0.1 -0.7 1e-3");
    const char *path = tu_temp_file("roundtrip.obj", "");
    cloth_error err;
    ck_assert_msg(cloth_mesh_write_obj(m, m->x0, path, &err) == CLOTH_OK, "%s", err.msg);
    double *x;
    int *tris, n, n_tris;
    ck_assert_msg(cloth_obj_read(path, &x, &n, &tris, &n_tris, &err) == CLOTH_OK, "%s",
                  err.msg);
    ck_assert_int_eq(n, m->n);
    ck_assert_int_eq(n_tris, m->n_tris);
    for (int i = 0; i < 3 * n; i++)
        ck_assert(x[i] == m->x0[i]); /* %.17g round-trips exactly */
    for (int i = 0; i < 3 * n_tris; i++)
        ck_assert_int_eq(tris[i], m->tris[i]);
    free(x);
    free(tris);
    cloth_mesh_destroy(m);
}
END_TEST

/* A mesh from an OBJ file: one structural spring per edge, one bend spring per hinge;
 * a quad face is fanned into two triangles. */
START_TEST(obj_mesh_builds_edges_and_hinges)
{
    const char *obj = tu_temp_file("square.obj",
                                   "# a unit square and a triangle on its side\n"
                                   "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 0.5 0\n"
                                   "vn 0 0 1\nf 1/1/1 2//1 3 4\nf 2 5 3\n");
    char text[512];
    snprintf(text, sizeof text, "[mesh]\nobj = %s\npins = 0\n[material]\ndensity = 2", obj);
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(text, "obj.ini", &s, &err) == CLOTH_OK, "%s", err.msg);
    cloth_mesh *m;
    ck_assert_msg(cloth_mesh_create(&s, &m, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_int_eq(m->n, 5);
    ck_assert_int_eq(m->n_tris, 3);
    ck_assert_int_eq(m->family_count[CLOTH_STRUCTURAL], 7); /* 4 sides, 1 diagonal, 2 more */
    ck_assert_int_eq(m->n_hinges, 2);
    ck_assert_int_eq(m->family_count[CLOTH_BEND], 2);
    ck_assert_int_eq(m->n_pinned, 1);
    double sum = 0;
    for (int i = 0; i < m->n; i++)
        sum += m->mass[i];
    ck_assert_double_eq_tol(sum, 2 * (1 + 0.5), 1e-12);
    cloth_mesh_destroy(m);
}
END_TEST

START_TEST(bad_obj_files_are_rejected_with_their_line)
{
    static const struct { const char *text, *needle; } cases[] = {
        {"v 0 0 0\nv 1 0\n", ":2: v:"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n", ":4: f:"},
        {"v 0 0 0\nv 1 0 0\nf 1 2\n", ":3: f:"},
        {"v 0 0 nan\n", ":1: v:"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3"
         " 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2 3 1 2\n", ":4: f:"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *path = tu_temp_file("bad.obj", cases[c].text);
        double *x;
        int *t, n, nt;
        cloth_error err;
        ck_assert(cloth_obj_read(path, &x, &n, &t, &nt, &err) == CLOTH_EPARSE);
        ck_assert_msg(strstr(err.msg, cases[c].needle), "%s", err.msg);
    }
}
END_TEST

/* A line longer than the reader's buffer is refused, not split into two records; so is
 * an endless file of NUL bytes, which would otherwise be read forever. */
START_TEST(over_long_lines_and_nul_bytes_are_refused)
{
    static char text[6000];
    memset(text, ' ', sizeof text - 2);
    memcpy(text, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2", 26);
    memcpy(text + sizeof text - 5, " 3\n", 4);
    const char *path = tu_temp_file("long.obj", text);
    double *x;
    int *t, n, nt;
    cloth_error err;
    ck_assert(cloth_obj_read(path, &x, &n, &t, &nt, &err) == CLOTH_EPARSE);
    ck_assert_msg(strstr(err.msg, ":4: line longer than"), "%s", err.msg);
    ck_assert(cloth_obj_read("/dev/zero", &x, &n, &t, &nt, &err) == CLOTH_EPARSE);
    ck_assert_msg(strstr(err.msg, "/dev/zero:1: line longer than"), "%s", err.msg);
    cloth_scene s;
    ck_assert(cloth_scene_load("/dev/zero", &s, &err) == CLOTH_EPARSE);
    ck_assert_msg(strstr(err.msg, "larger than 16 MiB"), "%s", err.msg);
}
END_TEST

Suite *suite_mesh(void)
{
    Suite *s = suite_create("mesh");
    TCase *tc = tcase_create("grid");
    tcase_add_loop_test(tc, grid_counts_follow_the_formulas, 0,
                        (int)(sizeof sizes / sizeof sizes[0]));
    tcase_add_test(tc, the_30_by_24_cloth_of_seed_000);
    tcase_add_test(tc, pin_modes);
    tcase_add_test(tc, lumped_masses_sum_to_density_times_area);
    tcase_add_test(tc, positions_planes_and_prestretch);
    tcase_add_test(tc, family_selection_and_stiffness);
    suite_add_tcase(s, tc);
    tc = tcase_create("layers");
    tcase_add_test(tc, layers_are_separate_copies_of_the_grid);
    tcase_add_test(tc, layers_stack_along_the_normal_with_their_shift);
    tcase_add_test(tc, pins_act_on_every_layer);
    tcase_add_test(tc, jitter_is_splitmix64_from_the_seed);
    tcase_add_test(tc, one_layer_is_the_plain_grid);
    tcase_add_test(tc, bad_layer_settings_name_their_key);
    suite_add_tcase(s, tc);
    tc = tcase_create("obj");
    tcase_add_test(tc, obj_round_trip);
    tcase_add_test(tc, obj_mesh_builds_edges_and_hinges);
    tcase_add_test(tc, bad_obj_files_are_rejected_with_their_line);
    tcase_add_test(tc, over_long_lines_and_nul_bytes_are_refused);
    suite_add_tcase(s, tc);
    return s;
}
