/* Scene files: defaults, parsing, --set, and every class of bad input named by file,
 * line and key, through the library and through the CLI (exit code 2). */
#include "cloth.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

START_TEST(defaults_match_the_spec)
{
    cloth_scene s;
    cloth_default_scene(&s);
    ck_assert_int_eq(s.mesh.nx, 30);
    ck_assert_int_eq(s.mesh.ny, 24);
    ck_assert_double_eq(s.world.gravity[1], -9.81);
    ck_assert_str_eq(s.run.kernel, "explicit");
    ck_assert_int_eq(s.mesh.families, 7u);
    ck_assert_int_eq(s.mesh.pins, CLOTH_PINS_TOP_ROW);
    ck_assert(!s.sphere.enabled && !s.floor.enabled);
    char value[64];
    cloth_error err;
    ck_assert(cloth_scene_get(&s, "explicit.scheme", value, sizeof value, &err) == CLOTH_OK);
    ck_assert_str_eq(value, "symplectic");
    ck_assert(cloth_scene_get(&s, "explicit.decay", value, sizeof value, &err) == CLOTH_OK);
    ck_assert_str_eq(value, "1");
    ck_assert_int_eq(s.run.self_collision, CLOTH_SELF_OFF);
    ck_assert_double_eq(s.material.thickness, 0.01);
    ck_assert_double_eq(s.material.self_friction, 0.5);
    ck_assert(cloth_scene_set(&s, "run.self_collision=proximity", 1, &err) == CLOTH_OK);
    ck_assert_int_eq(s.run.self_collision, CLOTH_SELF_PROXIMITY);
}
END_TEST

START_TEST(a_full_scene_parses)
{
    const char *text = "# comment\n"
                       "[mesh]\n  nx = 4   # inline comment\nny=3\nplane = xz\n"
                       "origin = 1 2.5 -3e-1\n"
                       "[world]\nwind = 1 0 0\n"
                       "[sphere]\nradius = 0.25\nmotion = orbit 0.5 4\n"
                       "[plane]\n"
                       "[run]\nseed = 42\n";
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(text, "full.ini", &s, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_int_eq(s.mesh.nx, 4);
    ck_assert_int_eq(s.mesh.plane, CLOTH_PLANE_XZ);
    ck_assert_double_eq(s.mesh.origin[2], -0.3);
    ck_assert(s.sphere.enabled && s.floor.enabled);
    ck_assert_int_eq(s.sphere.motion, CLOTH_MOTION_ORBIT);
    ck_assert_double_eq(s.sphere.amplitude, 0.5);
    ck_assert_double_eq(s.sphere.period, 4);
    ck_assert_uint_eq(s.run.seed, 42);
}
END_TEST

START_TEST(set_overrides_a_key)
{
    cloth_scene s;
    cloth_error err;
    ck_assert(cloth_scene_parse("[run]\ndt = 0.5\n", "a.ini", &s, &err) == CLOTH_OK);
    ck_assert(cloth_scene_set(&s, "run.dt=0.25", 1, &err) == CLOTH_OK);
    ck_assert(cloth_scene_set(&s, "explicit.scheme = forward", 2, &err) == CLOTH_OK);
    ck_assert(cloth_scene_set(&s, "sphere.radius=2", 3, &err) == CLOTH_OK);
    ck_assert_double_eq(s.run.dt, 0.25);
    char value[64];
    ck_assert(cloth_scene_get(&s, "explicit.scheme", value, sizeof value, &err) == CLOTH_OK);
    ck_assert_str_eq(value, "forward");
    ck_assert(s.sphere.enabled);
    ck_assert(cloth_scene_set(&s, "run.dt=-1", 4, &err) != CLOTH_OK);
    ck_assert_msg(strncmp(err.msg, "--set:4: run.dt: ", 17) == 0, "%s", err.msg);
}
END_TEST

/* Each bad scene with the prefix its message must start with: FILE:LINE: key: */
static const struct { const char *text, *prefix; } bad[] = {
    {"[mesh]\nnx = 3\ncolour = red\n", "bad.ini:3: mesh.colour: "},
    {"[meshes]\nnx = 3\n", "bad.ini:1: [meshes]: "},
    {"[mesh]\nnx = three\n", "bad.ini:2: mesh.nx: "},
    {"[mesh]\nspacing = 0.1x\n", "bad.ini:2: mesh.spacing: "},
    {"[mesh]\nnx = 3 4\n", "bad.ini:2: mesh.nx: "},
    {"[mesh]\nspacing = nan\n", "bad.ini:2: mesh.spacing: "},
    {"[world]\ngravity = 0 -inf 0\n", "bad.ini:2: world.gravity: "},
    {"[mesh]\nspacing = -0.1\n", "bad.ini:2: mesh.spacing: "},
    {"[mesh]\nspacing = 0\n", "bad.ini:2: mesh.spacing: "},
    {"[mesh]\nnx = 0\n", "bad.ini:2: mesh.nx: "},
    {"[mesh]\nny = -2\n", "bad.ini:2: mesh.ny: "},
    {"[run]\ndt = 0\n", "bad.ini:2: run.dt: "},
    {"[run]\n\ndt = -0.01\n", "bad.ini:3: run.dt: "},
    {"[run]\nsubsteps = 0\n", "bad.ini:2: run.substeps: "},
    {"[run]\nkernel = magic\n", "bad.ini:2: run.kernel: "},
    {"[sphere]\nmotion = orbit 1\n", "bad.ini:2: sphere.motion: "},
    {"[sphere]\nradius = 1e999\n", "bad.ini:2: sphere.radius: "},
    {"[mesh]\nplane = yz\n", "bad.ini:2: mesh.plane: "},
    {"[mesh]\nsprings = structural, twist\n", "bad.ini:2: mesh.springs: "},
    {"[mesh]\npins = 1 -2\n", "bad.ini:2: mesh.pins: "},
    {"[mesh]\nnx = 3\nnx = 4\n", "bad.ini:3: mesh.nx: "},
    {"[mesh]\nnx =\n", "bad.ini:2: mesh.nx: "},
    {"nx = 3\n", "bad.ini:1: nx: "},
    {"[mesh]\nnx 3\n", "bad.ini:2: nx 3: "},
    {"[mesh] junk\n", "bad.ini:1: [mesh] junk: "},
    {"[explicit]\ndecay = 1.5\n", "bad.ini:2: explicit.decay: "},
    {"[newton]\nsolver = lu\n", "bad.ini:2: newton.solver: "},
    {"[newton]\npcg_tol = 0\n", "bad.ini:2: newton.pcg_tol: "},
    {"[newton]\n\npcg_tol = -1e-3\n", "bad.ini:3: newton.pcg_tol: "},
    {"[newton]\npcg_max_iters = 0\n", "bad.ini:2: newton.pcg_max_iters: "},
    {"[newton]\nself_contact = on\n",
     "bad.ini:2: newton.self_contact: this key was replaced by run.self_collision"},
    {"[newton]\ncontact_offset = 0.01\n",
     "bad.ini:2: newton.contact_offset: this key was replaced by material.thickness"},
    {"[material]\nthickness = -0.01\n", "bad.ini:2: material.thickness: "},
    {"[run]\nself_collision = yes\n", "bad.ini:2: run.self_collision: "},
    {"[run]\nself_collision = triangles\n",
     "bad.ini:2: run.self_collision: 'triangles' was renamed 'proximity'"},
    {"[run]\ncollision_passes = -1\n", "bad.ini:2: run.collision_passes: "},
    {"[mesh]\nlayers = 0\n", "bad.ini:2: mesh.layers: "},
    {"[mesh]\nlayers = 1.5\n", "bad.ini:2: mesh.layers: "},
    {"[mesh]\nlayer_gap = 0\n", "bad.ini:2: mesh.layer_gap: "},
    {"[mesh]\nlayer_shift = 0.05\n", "bad.ini:2: mesh.layer_shift: "},
    {"[mesh]\nlayer_shift = 0.05 0 0 0\n", "bad.ini:2: mesh.layer_shift: "},
    {"[mesh]\nlayer_shift = 0.05 inf\n", "bad.ini:2: mesh.layer_shift: "},
    {"[mesh]\njitter = -0.001\n", "bad.ini:2: mesh.jitter: "},
    {"[sphere]\nspin = fast\n", "bad.ini:2: sphere.spin: "},
    {"[material]\nself_friction = 1.5\n", "bad.ini:2: material.self_friction: "},
    {"[material]\nself_friction = -0.1\n", "bad.ini:2: material.self_friction: "},
    {"\n# only a comment\n\n", "bad.ini:1: (file): "},
    {"", "bad.ini:1: (file): "},
};

START_TEST(bad_input_names_file_line_and_key)
{
    cloth_scene s;
    cloth_error err;
    ck_assert(cloth_scene_parse(bad[_i].text, "bad.ini", &s, &err) != CLOTH_OK);
    ck_assert_msg(strncmp(err.msg, bad[_i].prefix, strlen(bad[_i].prefix)) == 0,
                  "case %d: got '%s', want prefix '%s'", _i, err.msg, bad[_i].prefix);
}
END_TEST

/* Errors found when the mesh is built still name where the key was set. */
START_TEST(pins_out_of_range_and_empty_obj)
{
    cloth_scene s;
    cloth_error err;
    cloth_mesh *m;
    ck_assert(cloth_scene_parse("[mesh]\nnx = 3\nny = 3\npins = 0 9\n", "p.ini", &s, &err) ==
              CLOTH_OK);
    ck_assert(cloth_mesh_create(&s, &m, &err) == CLOTH_EINVAL);
    ck_assert_msg(strncmp(err.msg, "p.ini:4: mesh.pins: ", 20) == 0, "%s", err.msg);
    const char *obj = tu_temp_file("empty.obj", "# nothing\n");
    char text[512];
    snprintf(text, sizeof text, "[mesh]\npins = none\nobj = %s\n", obj);
    ck_assert(cloth_scene_parse(text, "o.ini", &s, &err) == CLOTH_OK);
    ck_assert(cloth_mesh_create(&s, &m, &err) != CLOTH_OK);
    ck_assert_msg(strncmp(err.msg, "o.ini:3: mesh.obj: ", 19) == 0, "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "0 vertices"), "%s", err.msg);
}
END_TEST

START_TEST(missing_file)
{
    cloth_scene s;
    cloth_error err;
    ck_assert(cloth_scene_load("/nonexistent/scene.ini", &s, &err) == CLOTH_EIO);
    ck_assert_msg(strncmp(err.msg, "/nonexistent/scene.ini:0: (file): cannot open", 45) == 0,
                  "%s", err.msg);
}
END_TEST

/* The CLI: exit code 2 and "cloth: FILE:LINE: key: " for the same classes. */
START_TEST(cli_rejects_bad_input_with_exit_2)
{
    const char *path = tu_temp_file("cli_bad.ini", bad[_i].text);
    char cmd[512], out[2048], prefix[512];
    snprintf(cmd, sizeof cmd, "info %s", path);
    snprintf(prefix, sizeof prefix, "cloth: %s%s", path, bad[_i].prefix + strlen("bad.ini"));
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 2);
    ck_assert_msg(strncmp(out, prefix, strlen(prefix)) == 0, "got '%s', want '%s'", out,
                  prefix);
}
END_TEST

START_TEST(cli_reports_bad_overrides_and_pins)
{
    const char *path = tu_temp_file("cli_ok.ini", "[mesh]\nnx = 3\nny = 2\n");
    char cmd[512], out[2048];
    snprintf(cmd, sizeof cmd, "run %s --set run.frames=1 --set mesh.pins=7 --out %s", path,
             tu_temp_dir(0));
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "cloth: --set:2: mesh.pins: vertex 7 is out of range"), "%s", out);
    snprintf(cmd, sizeof cmd, "run %s --set run.substeps=1.5", path);
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "cloth: --set:1: run.substeps: "), "%s", out);
    snprintf(cmd, sizeof cmd, "run /nonexistent.ini");
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "cloth: /nonexistent.ini:0: (file): cannot open"), "%s", out);
    ck_assert_int_eq(tu_run_cli("frobnicate", out, sizeof out), 2);
}
END_TEST

START_TEST(cli_info_and_list)
{
    const char *path = tu_temp_file("info.ini", "[mesh]\nnx = 30\nny = 24\n");
    char cmd[512], out[8192];
    snprintf(cmd, sizeof cmd, "info %s", path);
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 0);
    ck_assert_str_eq(out, "vertices: 720\ntriangles: 1334\nsprings.structural: 1386\n"
                          "springs.shear: 1334\nsprings.bend: 1332\npinned: 30\n");
    ck_assert_int_eq(tu_run_cli("list", out, sizeof out), 0);
    ck_assert(strstr(out, "explicit") && strstr(out, "run.dt = 0.01"));
}
END_TEST

/* The key reference (docs/keys.md, made by `make docs`) lists every key `cloth list`
 * prints, so the manual cannot fall behind the table. */
START_TEST(key_reference_documents_every_key)
{
    FILE *f = fopen("../docs/keys.md", "r");
    ck_assert(f != NULL);
    static char readme[1 << 17];
    size_t n = fread(readme, 1, sizeof readme - 1, f);
    readme[n] = '\0';
    fclose(f);
    static char out[1 << 15];
    ck_assert_int_eq(tu_run_cli("list", out, sizeof out), 0);
    int keys = 0;
    for (char *line = strstr(out, "scene keys"); line && *line; line = strchr(line + 1, '\n')) {
        char key[64];
        if (sscanf(line, "\n %63s =", key) == 1 && strchr(key, '.')) {
            ck_assert_msg(strstr(readme, key), "docs/keys.md does not mention %s", key);
            keys++;
        }
    }
    ck_assert_int_gt(keys, 30);
}
END_TEST

Suite *suite_scene(void)
{
    Suite *s = suite_create("scene");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, defaults_match_the_spec);
    tcase_add_test(tc, a_full_scene_parses);
    tcase_add_test(tc, set_overrides_a_key);
    tcase_add_loop_test(tc, bad_input_names_file_line_and_key, 0,
                        (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tc, pins_out_of_range_and_empty_obj);
    tcase_add_test(tc, missing_file);
    suite_add_tcase(s, tc);
    tc = tcase_create("cli");
    tcase_add_loop_test(tc, cli_rejects_bad_input_with_exit_2, 0,
                        (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tc, cli_reports_bad_overrides_and_pins);
    tcase_add_test(tc, cli_info_and_list);
    tcase_add_test(tc, key_reference_documents_every_key);
    suite_add_tcase(s, tc);
    return s;
}
