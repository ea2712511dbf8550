/* Pattern files and sewing (src/garment/pattern.c, sewing.c): errors that name the
 * file, panel and edge; SVG outlines; seam pairing with a known result; two unit squares
 * sewn along one edge and welded; manifold garments after welding with every kernel that
 * sews. */
#include "cloth.h"
#include "body/avatar.h"
#include "garment/bones.h"
#include "garment/pattern.h"
#include "garment/sewing.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Two 1 cm squares, flat, the right one at dx cm from the left (1 = touching): one seam,
 * the left square's right edge (upwards) against the right square's left edge
 * (downwards, so reversed). */
static cloth__pattern *two_squares_at(double dx, double y, double z)
{
    char text[2048];
    snprintf(text, sizeof text,
             "{\"name\": \"two squares\", \"edge_length\": 1,\n"
             " \"panels\": [\n"
             "  {\"name\": \"left\", \"outline\": [[0,0],[1,0],[1,1],[0,1]],\n"
             "   \"edges\": [\"bottom\", \"right\", \"top\", \"left\"],\n"
             "   \"placement\": {\"offset\": [0, %g, %g]}},\n"
             "  {\"name\": \"right\", \"outline\": [[0,0],[1,0],[1,1],[0,1]],\n"
             "   \"edges\": [\"bottom\", \"right\", \"top\", \"left\"],\n"
             "   \"placement\": {\"offset\": [%g, %g, %g]}}],\n"
             " \"seams\": [{\"a\": [\"left\", \"right\"], \"b\": [\"right\", \"left\"],\n"
             "             \"reverse\": true}]}\n", y, z, dx, y, z);
    cloth__pattern *p;
    cloth_error err;
    ck_assert_msg(cloth__pattern_parse(text, "squares.json", &p, &err) == CLOTH_OK, "%s",
                  err.msg);
    return p;
}

static cloth__pattern *two_squares(double dx)
{
    return two_squares_at(dx, 0, 0);
}

/* Welds and checks the rectangle's topology: 6 vertices, 4 triangles, 6 border edges and
 * 3 inside (V - E + F = 1, a disc), none in more than two triangles. */
static void weld_into_rectangle(cloth__garment *g)
{
    cloth_error err;
    ck_assert_msg(cloth__garment_weld(g, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_int_eq(g->n_welded, 6);
    ck_assert_int_eq(g->n_welded_tris, 4);
    int boundary, interior, bad;
    cloth__edge_census(g->welded_tris, g->n_welded_tris, &boundary, &interior, &bad);
    ck_assert_int_eq(boundary, 6);
    ck_assert_int_eq(interior, 3);
    ck_assert_int_eq(bad, 0);
}

/* Touching squares weld without sewing into the 2 x 1 cm rectangle: 6 vertices at
 * x in {-0.5, 0.5, 1.5} cm, y in {-0.5, 0.5} cm (each panel is centred on its offset),
 * 4 triangles, 6 border edges and 3 inside (V - E + F = 1, a disc). */
START_TEST(two_touching_squares_weld_into_a_rectangle)
{
    cloth__pattern *p = two_squares(1);
    cloth__garment *g;
    cloth_error err;
    ck_assert_msg(cloth__garment_prepare(p, NULL, &g, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_int_eq(g->n, 8);
    ck_assert_int_eq(g->n_tris, 4);
    ck_assert_int_eq(g->n_pairs, 2);
    ck_assert_int_eq(g->splits, 0);
    weld_into_rectangle(g);
    int seen[3][2] = {{0}};
    for (int v = 0; v < 6; v++) {
        const double *x = g->welded + 3 * v;
        int i = (int)lround(x[0] / 0.01 + 0.5), j = (int)lround(x[1] / 0.01 + 0.5);
        ck_assert_int_ge(i, 0);
        ck_assert_int_le(i, 2);
        ck_assert_int_ge(j, 0);
        ck_assert_int_le(j, 1);
        ck_assert_double_eq_tol(x[0], 0.01 * (i - 0.5), 1e-15);
        ck_assert_double_eq_tol(x[1], 0.01 * (j - 0.5), 1e-15);
        ck_assert_double_eq(x[2], 0);
        seen[i][j]++;
    }
    for (int i = 0; i < 3; i++)
        ck_assert(seen[i][0] == 1 && seen[i][1] == 1);
    cloth__garment_free(g);
    cloth__pattern_free(p);
}
END_TEST

static const char *const sewing_kernels[] = {"verlet", "pbd", "explicit"};

/* 2 cm apart, each kernel sews them: every pair closes below 1 mm and the weld gives
 * the rectangle's 6 vertices, 4 triangles, 6 border and 3 inside edges.  (Its shape is
 * the kernel's: the sewing springs are as stiff as the cloth's and stretch it.) */
START_TEST(two_squares_sewn_by_each_kernel)
{
    cloth__pattern *p = two_squares(3);
    cloth__garment *g;
    cloth_error err;
    ck_assert_msg(cloth__garment_prepare(p, NULL, &g, &err) == CLOTH_OK, "%s", err.msg);
    cloth_scene s;
    cloth_default_scene(&s);
    char set[64];
    snprintf(set, sizeof set, "run.kernel=%s", sewing_kernels[_i]);
    ck_assert(cloth_scene_set(&s, set, 1, &err) == CLOTH_OK);
    ck_assert(cloth_scene_set(&s, "run.substeps=20", 3, &err) == CLOTH_OK);
    ck_assert_msg(cloth__garment_sew(g, &s, 1e-3, 3000, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_double_lt(g->gap, 1e-3);
    ck_assert_int_gt(g->steps, 0);
    weld_into_rectangle(g);
    cloth__garment_free(g);
    cloth__pattern_free(p);
}
END_TEST

/* Seam sides with different spacing (h = 3 cm): side a is two edges of 4 and 6 cm, cut
 * into 2 + 2 segments, t = 0, .2, .4, .7, 1; side b one 10 cm edge in 4, t = 0, .25, .5,
 * .75, 1.  .2 ~ .25 and .7 ~ .75 pair (closer than a third of a segment: b's vertex
 * slides to a's t); .4 and .5 each get a partner by a split: 6 pairs, 2 splits. */
START_TEST(seam_pairing_splits_where_a_side_lacks_a_vertex)
{
    const char *text =
        "{\"edge_length\": 3, \"panels\": [\n"
        " {\"name\": \"a\", \"outline\": [[0,0],[4,0],[10,0],[10,5],[0,5]],\n"
        "  \"edges\": [\"b1\", \"b2\", \"right\", \"top\", \"left\"]},\n"
        " {\"name\": \"b\", \"outline\": [[0,0],[10,0],[10,5],[0,5]],\n"
        "  \"edges\": [\"bottom\", \"right\", \"top\", \"left\"],\n"
        "  \"placement\": {\"offset\": [0, 8, 0]}}],\n"
        " \"seams\": [{\"a\": [\"a\", \"b1\", \"b2\"], \"b\": [\"b\", \"top\"], \"reverse\": true}]}";
    cloth__pattern *p;
    cloth_error err;
    ck_assert_msg(cloth__pattern_parse(text, "split.json", &p, &err) == CLOTH_OK, "%s", err.msg);
    cloth__garment *g;
    ck_assert_msg(cloth__garment_prepare(p, NULL, &g, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_int_eq(g->n_pairs, 6);
    ck_assert_int_eq(g->splits, 2);
    /* each pair at the same arc length: .25 slid to .2 and .75 to .7 on side b (a's .4
     * is a corner), so the panels' x (their u, placed flat) agree */
    for (int k = 0; k < g->n_pairs; k++) {
        const double *a = g->placed + 3 * g->pairs[2 * k], *b = g->placed + 3 * g->pairs[2 * k + 1];
        ck_assert_double_le(fabs(a[0] - b[0]), 1e-15);
    }
    /* the split triangles keep the panels' areas */
    ck_assert_double_eq_tol(fabs(g->panels[1].area), 50, 1e-9);
    double area = 0;
    const cloth__panel_mesh *pm = &g->panels[1];
    for (int t = 0; t < pm->n_tris; t++) {
        const double *x = pm->uv + 2 * pm->tris[3 * t], *y = pm->uv + 2 * pm->tris[3 * t + 1],
                     *z = pm->uv + 2 * pm->tris[3 * t + 2];
        area += 0.5 * ((y[0] - x[0]) * (z[1] - x[1]) - (y[1] - x[1]) * (z[0] - x[0]));
    }
    ck_assert_double_eq_tol(area, 50, 1e-9);
    ck_assert_msg(cloth__garment_weld(g, &err) == CLOTH_OK, "%s", err.msg);
    cloth__garment_free(g);
    cloth__pattern_free(p);
}
END_TEST

/* ------------------------------------------------------------- bad files */

static const struct {
    const char *text;
    const char *expect;
} bad_files[] = {
    {"{\"panels\": [{\"name\": \"front\", \"outline\": [[0,0],[10,10],[10,0],[0,10]],\n"
     "  \"edges\": [\"a\", \"b\", \"c\", \"d\"]}]}",
     "bad.json: panel \"front\": edge 0 (\"a\"): crosses edge 2 (\"c\")"},
    {"{\"panels\": [{\"name\": \"front\", \"outline\": [[0,0],[10,0],[10,10],[0,10]],\n"
     "  \"edges\": [\"a\", \"b\", \"c\", \"d\"]},\n"
     " {\"name\": \"back\", \"outline\": [[0,0],[10,0],[10,12],[0,12]],\n"
     "  \"edges\": [\"a\", \"b\", \"c\", \"d\"]}],\n"
     " \"seams\": [{\"a\": [\"front\", \"b\"], \"b\": [\"back\", \"d\"]}]}",
     "bad.json: seam 0: panel \"front\": edge 1 (\"b\"): 10 cm long, but panel \"back\" edge 3 "
     "(\"d\") is 12 cm"},
    {"{\"panels\": [{\"name\": \"front\", \"outline\": [[0,0],[10,0],[10,10],[0,10]],\n"
     "  \"edges\": [\"a\", \"b\", \"c\", \"d\"]}],\n"
     " \"seams\": [{\"a\": [\"front\", \"side\"], \"b\": [\"front\", \"d\"]}]}",
     "bad.json: seam 0: a: panel \"front\" has no edge \"side\""},
    {"{\"panels\": [{\"name\": \"front\", \"outline\": [[0,0],[10,0],[10,10],[0,10]],\n"
     "  \"edges\": [\"a\", \"b\", \"c\"]}]}",
     "bad.json: panel \"front\": edges: the outline has 4 edges"},
    {"{\"panels\": [{\"name\": \"front\", \"outline\": [[0,0],[10,0],[10,0],[0,10]],\n"
     "  \"edges\": [\"a\", \"b\", \"c\", \"d\"]}]}",
     "bad.json: panel \"front\": edge 1 (\"b\"): has zero length"},
    {"{\"panels\": [\n  {\"name\": \"front\",\n   \"outline\": [[0,0] [10,0]]}]}",
     "bad.json:3: not JSON"},
};

START_TEST(bad_pattern_files_name_panel_and_edge)
{
    cloth__pattern *p;
    cloth_error err;
    ck_assert_int_ne(cloth__pattern_parse(bad_files[_i].text, "bad.json", &p, &err), CLOTH_OK);
    ck_assert_ptr_null(p);
    ck_assert_msg(strstr(err.msg, bad_files[_i].expect) != NULL, "got: %s", err.msg);
}
END_TEST

/* The CLI: exit 2 and the message for a bad file, and for --avatar with a scene that has
 * no [avatar]. */
START_TEST(cli_exit_codes)
{
    const char *path = tu_temp_file("bad_pattern.json", bad_files[0].text);
    char args[512], out[4096];
    snprintf(args, sizeof args, "garment %s", path);
    ck_assert_int_eq(tu_run_cli(args, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "panel \"front\": edge 0 (\"a\"): crosses") != NULL, "%s", out);
    const char *scene = tu_temp_file("no_avatar.ini", "[run]\nframes = 1\n");
    snprintf(args, sizeof args, "garment ../experiments/garments/short_skirt.json --avatar %s "
             "--out %s.d", scene, scene);
    ck_assert_int_eq(tu_run_cli(args, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "the scene has no [avatar] section") != NULL, "%s", out);
}
END_TEST

/* ----------------------------------------------------------------- SVG */

/* The short skirt's front panel as the SVG the pattern ships (experiments/garments/
 * skirt_front.svg is the same path): relative h and l, absolute H, closed by Z, in mm. */
START_TEST(svg_path_and_polyline_outlines)
{
    const char *svg = tu_temp_file("outline.svg",
        "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\">\n"
        "  <path id=\"front\" d=\"M 0,0 h 560 l -80 400 H 80 Z\" fill=\"none\"/>\n</svg>\n");
    double *xy;
    int n;
    cloth_error err;
    ck_assert_msg(cloth__svg_outline(svg, 0.1, &xy, &n, &err) == CLOTH_OK, "%s", err.msg);
    const double expect[] = {0, 0, 56, 0, 48, 40, 8, 40};
    ck_assert_int_eq(n, 4);
    for (int i = 0; i < 8; i++)
        ck_assert_double_eq_tol(xy[i], expect[i], 1e-12);
    free(xy);
    svg = tu_temp_file("poly.svg", "<svg><polyline points=\"0,0 10,0 10,5 0,5 0,0\"/></svg>");
    ck_assert_msg(cloth__svg_outline(svg, 1, &xy, &n, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_int_eq(n, 4);
    free(xy);
    svg = tu_temp_file("curve.svg", "<svg><path d=\"M 0 0 C 1 1 2 2 3 0 Z\"/></svg>");
    ck_assert_int_eq(cloth__svg_outline(svg, 1, &xy, &n, &err), CLOTH_EPARSE);
    ck_assert_msg(strstr(err.msg, "path command 'C'") != NULL, "%s", err.msg);
}
END_TEST

/* The shipped garments mesh with angles >= 20 degrees and weld into manifold meshes. */
static const char *const shipped[] = {"short_skirt", "long_skirt", "tshirt"};

START_TEST(shipped_garments_sew_into_manifold_meshes)
{
    char path[256];
    snprintf(path, sizeof path, "../experiments/garments/%s.json", shipped[_i]);
    cloth__pattern *p;
    cloth_error err;
    ck_assert_msg(cloth__pattern_load(path, &p, &err) == CLOTH_OK, "%s", err.msg);
    cloth__garment_body body;
    ck_assert_msg(cloth__mannequin_garment_body(1, &body, &err) == CLOTH_OK, "%s", err.msg);
    cloth__garment *g;
    ck_assert_msg(cloth__garment_prepare(p, &body, &g, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_double_ge(g->min_angle, 20);
    cloth_scene s;
    cloth_default_scene(&s);
    ck_assert(cloth_scene_set(&s, "run.kernel=verlet", 1, &err) == CLOTH_OK);
    ck_assert(cloth_scene_set(&s, "run.substeps=5", 2, &err) == CLOTH_OK);
    ck_assert(cloth_scene_set(&s, "run.dt=0.016666666666666666", 3, &err) == CLOTH_OK);
    ck_assert_msg(cloth__garment_sew(g, &s, 1e-3, 3000, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_msg(cloth__garment_weld(g, &err) == CLOTH_OK, "%s", err.msg);
    int boundary, interior, bad;
    cloth__edge_census(g->welded_tris, g->n_welded_tris, &boundary, &interior, &bad);
    ck_assert_int_eq(bad, 0);
    ck_assert_int_eq(g->n_welded_tris, g->n_tris);
    ck_assert_int_lt(g->n_welded, g->n);
    ck_assert_int_gt(interior, 0);
    cloth__garment_free(g);
    cloth__pattern_free(p);
}
END_TEST

/* mesh.garment: the sim sews and welds the pattern with the scene's kernel; its mesh is
 * the welded garment (the topology of welding the prepared pattern's seam pairs, which
 * does not depend on where the vertices are), with a structural spring on every edge;
 * row pins and cloth_mesh_create are refused. */
START_TEST(scene_mesh_garment)
{
    const char *text = "[mesh]\ngarment = ../experiments/garments/short_skirt.json\n"
                       "pins = none\n[run]\nkernel = verlet\nsubsteps = 5\n";
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(text, "garment.ini", &s, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    const cloth_mesh *m = cloth_sim_mesh(sim);
    cloth__pattern *p;
    ck_assert_msg(cloth__pattern_load("../experiments/garments/short_skirt.json", &p, &err) ==
                  CLOTH_OK, "%s", err.msg);
    cloth__garment_body body;
    ck_assert_msg(cloth__mannequin_garment_body(1, &body, &err) == CLOTH_OK, "%s", err.msg);
    cloth__garment *g;
    ck_assert_msg(cloth__garment_prepare(p, &body, &g, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_msg(cloth__garment_weld(g, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_int_lt(g->n_welded, g->n);
    ck_assert_int_eq(m->n, g->n_welded);
    ck_assert_int_eq(m->n_tris, g->n_welded_tris);
    cloth__garment_free(g);
    cloth__pattern_free(p);
    int boundary, interior, bad;
    cloth__edge_census(m->tris, m->n_tris, &boundary, &interior, &bad);
    ck_assert_int_eq(bad, 0);
    ck_assert_int_eq(m->family_count[CLOTH_STRUCTURAL], boundary + interior);
    ck_assert_int_eq(m->n_hinges, interior);
    cloth_frame f;
    ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim_destroy(sim);
    cloth_mesh *mesh;
    ck_assert_int_eq(cloth_mesh_create(&s, &mesh, &err), CLOTH_EINVAL);
    ck_assert_msg(strstr(err.msg, "mesh.garment") != NULL, "%s", err.msg);
    ck_assert(cloth_scene_set(&s, "mesh.pins=top-row", 1, &err) == CLOTH_OK);
    ck_assert_int_eq(cloth_sim_create(&s, &sim, &err), CLOTH_EINVAL);
    ck_assert_msg(strstr(err.msg, "mesh.pins: a garment has no rows") != NULL, "%s", err.msg);
}
END_TEST

/* cloth body-distance: a point 0.3 m in front of the pelvis capsule's segment (x in
 * [-0.07, 0.07] m at y = 0.98 m, radius 0.13 m; mannequin.c) is 0.3 - 0.13 = 0.17 m from
 * the body, nearer nothing else (the chest's capsule is 0.35 m above and its
 * radius 0.14 m); the point on that segment is 0.13 m inside. */
START_TEST(cli_body_distance_of_points)
{
    const char *points = tu_temp_file("points.txt", "0 0.98 0.3\n0.05 0.98 0\n");
    const char *scene = tu_temp_file("avatar.ini", "[avatar]\nmodel = builtin\n");
    char args[512], out[4096];
    snprintf(args, sizeof args, "body-distance %s < %s", scene, points);
    ck_assert_int_eq(tu_run_cli(args, out, sizeof out), 0);
    double d0, d1;
    ck_assert_msg(sscanf(out, "%lf %lf", &d0, &d1) == 2, "%s", out);
    ck_assert_double_eq_tol(d0, 0.17, 1e-12);
    ck_assert_double_eq_tol(d1, -0.13, 1e-12);
}
END_TEST

/* Bone-relative placement (sewing.c): a 10 x 6 cm panel wrapped with radius R about the
 * mannequin's l_ankle bone, the one that is not along a world axis (joint j to tip t,
 * u = (t - j)/|t - j|), at `at` cm along it, on the body at scale s: each vertex lies at
 * s R from the line j + r u (the wrap's closed form, p = c + s R (cos th e0 + sin th e1)
 * + (v - v_c) a with e0, e1 normal to a), and its place along the line is
 * s at + (v - v_c) (v its pattern coordinate, the panel's centre v_c = 3 cm): the panel
 * follows avatar.scale; with "axis": "-bone" v runs the other way.  An unknown bone is
 * an error naming the file, the panel and the bone. */
static const double placement_scale[] = {1, 1.3, 0.8};

START_TEST(placement_wraps_round_a_bone_at_the_body_scale)
{
    for (int flip = 0; flip < 2; flip++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "{\"edge_length\": 1, \"panels\": [{\"name\": \"band\",\n"
                 "  \"outline\": [[0,0],[10,0],[10,6],[0,6]], \"edges\": [\"a\",\"b\",\"c\",\"d\"],\n"
                 "  \"placement\": {\"bone\": \"l_ankle\", \"at\": 7, \"radius\": 4,\n"
                 "                \"angle\": 30, \"axis\": \"%s\"}}]}\n", flip ? "-bone" : "bone");
        cloth__pattern *p;
        cloth_error err;
        ck_assert_msg(cloth__pattern_parse(text, "band.json", &p, &err) == CLOTH_OK, "%s",
                      err.msg);
        double sc = placement_scale[_i];
        cloth__garment_body body;
        ck_assert_msg(cloth__mannequin_garment_body(sc, &body, &err) == CLOTH_OK, "%s", err.msg);
        const cloth__garment_bone *b = NULL;
        for (int i = 0; i < body.n; i++)
            if (strcmp(body.bone[i].name, "l_ankle") == 0)
                b = &body.bone[i];
        ck_assert_ptr_nonnull(b);
        double u[3], len = 0;
        for (int k = 0; k < 3; k++) {
            u[k] = b->tip[k] - b->joint[k];
            len += u[k] * u[k];
        }
        for (int k = 0; k < 3; k++)
            u[k] /= sqrt(len);
        ck_assert(fabs(u[1]) > 0.1 && fabs(u[2]) > 0.1); /* a slanted bone */
        cloth__garment *g;
        ck_assert_msg(cloth__garment_prepare(p, &body, &g, &err) == CLOTH_OK, "%s", err.msg);
        ck_assert_int_gt(g->n, 20);
        for (int i = 0; i < g->n; i++) {
            const double *x = g->placed + 3 * i;
            double d[3], along = 0, r2 = 0;
            for (int k = 0; k < 3; k++) {
                d[k] = x[k] - b->joint[k];
                along += d[k] * u[k];
            }
            for (int k = 0; k < 3; k++)
                r2 += (d[k] - along * u[k]) * (d[k] - along * u[k]);
            double v = 0.01 * (g->panels[0].uv[2 * i + 1] - 3);
            ck_assert_double_eq_tol(sqrt(r2), 0.04 * sc, 1e-12);
            ck_assert_double_eq_tol(along, 0.07 * sc + (flip ? -v : v), 1e-12);
        }
        cloth__garment_free(g);
        /* the same file on a body without that bone */
        snprintf(body.bone[b - body.bone].name, CLOTH_PATTERN_NAME, "foot");
        ck_assert_int_eq(cloth__garment_prepare(p, &body, &g, &err), CLOTH_EINVAL);
        ck_assert_msg(strstr(err.msg, "band.json: panel \"band\": placement: unknown bone "
                                      "\"l_ankle\"") != NULL, "%s", err.msg);
        cloth__pattern_free(p);
    }
}
END_TEST

/* garment.sew_on: the two squares placed inside the mannequin's chest (1.30 m up, 6 cm
 * in front of its axis), collision = capsules (exact distances).  Sewn on the body, the
 * sim pushes them out and keeps them out: every sewn vertex at least offset/2 from the
 * skin.  Sewn in the air, nothing moves them out: every sewn vertex stays inside. */
START_TEST(sew_on_body_or_air)
{
    const char *text = "[avatar]\nmodel = builtin\noffset = 0.01\ncollision = capsules\n"
                       "[run]\nkernel = verlet\nsubsteps = 5\n[garment]\nsew_on = %s\n";
    const char *where[] = {"body", "air"};
    char scene_text[512];
    snprintf(scene_text, sizeof scene_text, text, where[_i]);
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(scene_text, "sew_on.ini", &s, &err) == CLOTH_OK, "%s",
                  err.msg);
    cloth__pattern *p = two_squares_at(3, 130, 6);
    cloth__garment *g;
    ck_assert_msg(cloth__garment_prepare(p, NULL, &g, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_msg(cloth__garment_sew(g, &s, 1e-3, 3000, &err) == CLOTH_OK, "%s", err.msg);
    cloth_avatar *av;
    const char *key = "";
    ck_assert_msg(cloth__avatar_create(&s.avatar, s.source, &av, &key, &err) == CLOTH_OK,
                  "%s", err.msg);
    cloth__avatar_reset(av, 0);
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (int i = 0; i < g->n; i++) {
        double d = cloth__avatar_field(av, g->sewn + 3 * i, NULL);
        lo = fmin(lo, d);
        hi = fmax(hi, d);
    }
    if (_i == 0)
        ck_assert_msg(lo >= 0.5 * s.avatar.offset, "a vertex %g m from the skin", lo);
    else
        ck_assert_msg(hi < 0, "a vertex %g m outside the skin", hi);
    cloth__avatar_destroy(av);
    cloth__garment_free(g);
    cloth__pattern_free(p);
}
END_TEST

/* The try-on: the short skirt sewn on the body (verlet), dressed on the mannequin in the T
 * pose and dropped under gravity with no pins for 20 frames: no vertex deeper than
 * avatar.offset/2 into the skin (exact distance to the skinned surface) in any frame,
 * frame 0 (the dressed start) included. */
START_TEST(short_skirt_try_on_stays_out_of_the_body)
{
    const char *text = "[mesh]\ngarment = ../experiments/garments/short_skirt.json\n"
                       "pins = none\n[world]\ngravity = 0 -9.81 0\n[avatar]\nmodel = builtin\n"
                       "offset = 0.01\nsdf_resolution = 128\n[run]\nkernel = verlet\n"
                       "substeps = 5\n";
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(text, "tryon.ini", &s, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    cloth_frame f;
    cloth_sim_measure(sim, &f);
    double worst = f.body_depth;
    for (int i = 0; i < 20; i++) {
        ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
        worst = fmax(worst, f.body_depth);
    }
    ck_assert_msg(worst <= 0.5 * s.avatar.offset, "%g m into the skin", worst);
    cloth_sim_destroy(sim);
}
END_TEST

Suite *suite_garment_sewing(void)
{
    Suite *s = suite_create("garment_sewing");
    TCase *tc = tcase_create("pattern");
    tcase_add_loop_test(tc, bad_pattern_files_name_panel_and_edge, 0,
                        (int)(sizeof bad_files / sizeof bad_files[0]));
    tcase_add_test(tc, svg_path_and_polyline_outlines);
    tcase_add_test(tc, cli_exit_codes);
    tcase_add_test(tc, cli_body_distance_of_points);
    tcase_add_loop_test(tc, sew_on_body_or_air, 0, 2);
    tcase_add_loop_test(tc, placement_wraps_round_a_bone_at_the_body_scale, 0,
                        (int)(sizeof placement_scale / sizeof placement_scale[0]));
    suite_add_tcase(s, tc);
    tc = tcase_create("sewing");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, two_touching_squares_weld_into_a_rectangle);
    tcase_add_loop_test(tc, two_squares_sewn_by_each_kernel, 0,
                        (int)(sizeof sewing_kernels / sizeof sewing_kernels[0]));
    tcase_add_test(tc, seam_pairing_splits_where_a_side_lacks_a_vertex);
    tcase_add_loop_test(tc, shipped_garments_sew_into_manifold_meshes, 0,
                        (int)(sizeof shipped / sizeof shipped[0]));
    tcase_add_test(tc, scene_mesh_garment);
    tcase_add_test(tc, short_skirt_try_on_stays_out_of_the_body);
    suite_add_tcase(s, tc);
    return s;
}
