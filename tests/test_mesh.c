/* The common mesh: counts from the formulas of SPEC 2, masses, pins, OBJ round trip. */
#include "cloth.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
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
    tc = tcase_create("obj");
    tcase_add_test(tc, obj_round_trip);
    tcase_add_test(tc, obj_mesh_builds_edges_and_hinges);
    tcase_add_test(tc, bad_obj_files_are_rejected_with_their_line);
    tcase_add_test(tc, over_long_lines_and_nul_bytes_are_refused);
    suite_add_tcase(s, tc);
    return s;
}
