/* The viewer's commands (src/app/serve/commands.c) without sockets: every message type
 * and every control, what it does to the sim, and the error each bad form gets; the
 * clock, a page leaving, and the texts the server streams. */
#include "app/serve/commands.h"
#include "app/serve/replay.h"
#include "app/serve/stream.h"
#include "suites.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Two pages, as the transport would name them. */
static const int page_a, page_b;
#define A (&page_a)
#define B (&page_b)

/* A 6 x 5 verlet cloth, top row pinned, with a sphere; spacing 0.1 in the xy plane,
 * vertex j*6 + i at (0.1 i, -0.1 j, 0). */
static const char *scene_text =
    "[mesh]\nnx = 6\nny = 5\nspacing = 0.1\npins = top-row\n"
    "[material]\nk_structural = 100\nk_shear = 40\nk_bend = 10\n"
    "[sphere]\ncenter = 0.25 -1 0\nradius = 0.2\noffset = 0.01\n"
    "[run]\nkernel = verlet\ndt = 0.01\nsubsteps = 2\n";

static cloth_sim *sim;
static cloth__viewer view;
static cloth__reply reply;

static cloth_sim *make_sim(const char *text)
{
    cloth_scene s;
    cloth_error err;
    cloth_sim *out;
    ck_assert_msg(cloth_scene_parse(text, "commands.ini", &s, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_msg(cloth_sim_create(&s, &out, &err) == CLOTH_OK, "%s", err.msg);
    return out;
}

static void setup(void)
{
    sim = make_sim(scene_text);
    cloth__viewer_init(&view, sim);
}

static void teardown(void)
{
    cloth_sim_destroy(sim);
}

/* Sends json from page; returns the reply text. */
static const char *say(const void *page, const char *json)
{
    cloth__viewer_text(&view, page, json, strlen(json), &reply);
    return reply.text;
}

/* The reply is an error whose message contains what; nothing to resend. */
static void assert_error(const char *json, const char *what)
{
    say(A, json);
    cJSON *o = cJSON_Parse(reply.text);
    ck_assert_msg(o, "%s: reply is not JSON: %s", json, reply.text);
    const cJSON *type = cJSON_GetObjectItem(o, "type"), *msg = cJSON_GetObjectItem(o, "message");
    ck_assert_msg(cJSON_IsString(type) && strcmp(type->valuestring, "error") == 0 &&
                      cJSON_IsString(msg) && strstr(msg->valuestring, what),
                  "%s: got %s, wanted an error saying '%s'", json, reply.text, what);
    ck_assert_msg(!reply.state_changed && !reply.positions_changed, "%s", json);
    cJSON_Delete(o);
}

/* The reply is empty and every page gets the new state. */
static void assert_taken(const char *json)
{
    say(A, json);
    ck_assert_msg(reply.text[0] == 0 && reply.state_changed, "%s: %s", json, reply.text);
}

static double key(const char *name)
{
    char value[64];
    ck_assert(cloth_scene_get(cloth_sim_scene(sim), name, value, sizeof value, NULL) == CLOTH_OK);
    return atof(value);
}

/* A member of the state message ("params.kernel" reaches into params). */
static cJSON *state_json(void)
{
    char *text = cloth__viewer_state(&view);
    ck_assert(text);
    cJSON *o = cJSON_Parse(text);
    cJSON_free(text);
    ck_assert(o);
    return o;
}

/* ---------------------------------------------------------------- messages */

START_TEST(a_message_is_an_object_with_a_known_type)
{
    assert_error("{\"type\":", "not JSON");
    assert_error("[1,2]", "a JSON object with a string 'type'");
    assert_error("{\"name\":\"gravity\"}", "a JSON object with a string 'type'");
    assert_error("{\"type\":42}", "a JSON object with a string 'type'");
    assert_error("{\"type\":\"SET\"}", "unknown message type 'SET'");
    assert_error("{\"type\":\"reset\",\"extra\":1}", "unknown key 'extra'");
    assert_error("{\"type\":\"set\",\"name\":\"gravity\",\"value\":1,\"Type\":1}",
                 "unknown key 'Type'");
}
END_TEST

/* A text frame must be valid UTF-8: a clipped name is cut between characters. */
static int valid_utf8(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2
              : (*p & 0xF8) == 0xF0 ? 3 : -1;
        if (n < 0)
            return 0;
        for (p++; n > 0; n--, p++)
            if ((*p & 0xC0) != 0x80)
                return 0;
    }
    return 1;
}

START_TEST(clipped_names_stay_utf8)
{
    /* "é" is 2 bytes: 41 of them pass the 40-byte clip in the middle of one */
    char json[256] = "{\"type\":\"x";
    for (int i = 0; i < 41; i++)
        strcat(json, "\xc3\xa9");
    strcat(json, "\"}");
    say(A, json);
    ck_assert_msg(valid_utf8(reply.text), "%s", reply.text);
    ck_assert(strstr(reply.text, "unknown message type 'x"));
    /* the same for an unknown key, clipped at 60 bytes */
    snprintf(json, sizeof json, "{\"type\":\"reset\",\"");
    for (int i = 0; i < 40; i++)
        strcat(json, "\xe2\x82\xac"); /* "€", 3 bytes */
    strcat(json, "\":1}");
    say(A, json);
    ck_assert_msg(valid_utf8(reply.text), "%s", reply.text);
    ck_assert(strstr(reply.text, "unknown key '"));
}
END_TEST

/* ------------------------------------------------------------------- set */

START_TEST(set_moves_each_control)
{
    assert_taken("{\"type\":\"set\",\"name\":\"gravity\",\"value\":3.5}");
    ck_assert_double_eq(cloth_sim_scene(sim)->world.gravity[1], -3.5);
    assert_taken("{\"type\":\"set\",\"name\":\"wind_x\",\"value\":-2}");
    assert_taken("{\"type\":\"set\",\"name\":\"wind_z\",\"value\":4}");
    const double *w = cloth_sim_scene(sim)->world.wind;
    ck_assert(w[0] == -2 && w[1] == 0 && w[2] == 4);
    assert_taken("{\"type\":\"set\",\"name\":\"damping\",\"value\":0.25}");
    ck_assert_double_eq(cloth_sim_scene(sim)->world.air_damping, 0.25);
    assert_taken("{\"type\":\"set\",\"name\":\"sphere_radius\",\"value\":0.3}");
    ck_assert_double_eq(cloth_sim_scene(sim)->sphere.radius, 0.3);
    assert_taken("{\"type\":\"set\",\"name\":\"substeps\",\"value\":7}");
    ck_assert_int_eq(cloth_sim_scene(sim)->run.substeps, 7);
    assert_taken("{\"type\":\"set\",\"name\":\"iterations\",\"value\":9}");
    ck_assert_double_eq(key("verlet.iterations"), 9);
    cJSON *o = state_json();
    const cJSON *p = cJSON_GetObjectItem(o, "params");
    ck_assert_double_eq(cJSON_GetObjectItem(p, "gravity")->valuedouble, 3.5);
    ck_assert_double_eq(cJSON_GetObjectItem(p, "iterations")->valuedouble, 9);
    ck_assert_str_eq(cJSON_GetObjectItem(p, "kernel")->valuestring, "verlet");
    cJSON_Delete(o);
}
END_TEST

/* The factor scales the scene's springs and every kernel's own stiffness (the kernel
 * table's stiffness_key), which stays at or below its stiffness_max. */
START_TEST(set_stiffness_scales_the_scene_values)
{
    assert_taken("{\"type\":\"set\",\"name\":\"stiffness\",\"value\":0.5}");
    const double *k = cloth_sim_scene(sim)->material.k;
    ck_assert(k[CLOTH_STRUCTURAL] == 50 && k[CLOTH_SHEAR] == 20 && k[CLOTH_BEND] == 5);
    ck_assert_double_eq(key("verlet.k_relax"), 0.5);
    assert_taken("{\"type\":\"set\",\"name\":\"stiffness\",\"value\":3}"); /* of the scene */
    ck_assert_double_eq(cloth_sim_scene(sim)->material.k[CLOTH_STRUCTURAL], 300);
    cloth_kernel_facts f;
    cloth_kernel_info(cloth_kernel_find("verlet"), &f);
    ck_assert_double_eq(key("verlet.k_relax"), f.stiffness_max);
    cJSON *o = state_json();
    ck_assert_double_eq(
        cJSON_GetObjectItem(cJSON_GetObjectItem(o, "params"), "stiffness")->valuedouble, 3);
    cJSON_Delete(o);
}
END_TEST

START_TEST(set_refuses_bad_values_and_changes_nothing)
{
    cloth_scene before = *cloth_sim_scene(sim);
    assert_error("{\"type\":\"set\",\"name\":\"nope\",\"value\":1}", "unknown control");
    assert_error("{\"type\":\"set\",\"name\":7,\"value\":1}", "unknown control");
    assert_error("{\"type\":\"set\",\"value\":1}", "unknown control");
    assert_error("{\"type\":\"set\",\"name\":\"gravity\",\"value\":\"1\"}",
                 "set gravity: value must be a number");
    assert_error("{\"type\":\"set\",\"name\":\"gravity\"}", "value must be a number");
    assert_error("{\"type\":\"set\",\"name\":\"gravity\",\"value\":1e999}",
                 "value must be a number");
    assert_error("{\"type\":\"set\",\"name\":\"gravity\",\"value\":51}",
                 "set gravity: 51 is out of range (a number in [0, 50])");
    assert_error("{\"type\":\"set\",\"name\":\"stiffness\",\"value\":0}", "out of range");
    assert_error("{\"type\":\"set\",\"name\":\"substeps\",\"value\":2.5}",
                 "(a whole number in [1, 50])");
    assert_error("{\"type\":\"set\",\"name\":\"iterations\",\"value\":0}", "out of range");
    assert_error("{\"type\":\"set\",\"name\":\"kernel\",\"value\":3}",
                 "set kernel: value must be a kernel name");
    assert_error("{\"type\":\"set\",\"name\":\"kernel\",\"value\":"
                 "\"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\"}", "value must be a kernel name");
    assert_error("{\"type\":\"set\",\"name\":\"kernel\",\"value\":\"nope\"}", "nope");
    ck_assert(memcmp(&before, cloth_sim_scene(sim), sizeof before) == 0);
}
END_TEST

/* Switching kernels goes through the kernel table's facts: a kernel's condition
 * numbers are switched off, its iteration key is the one set and shown, and a kernel
 * without one refuses "iterations". */
START_TEST(set_kernel_uses_its_facts)
{
    for (int i = 0; i < cloth_kernel_count(); i++) {
        cloth_kernel_facts f;
        char json[128];
        cloth_kernel_info(i, &f);
        snprintf(json, sizeof json, "{\"type\":\"set\",\"name\":\"kernel\",\"value\":\"%s\"}",
                 f.name);
        assert_taken(json);
        ck_assert_str_eq(cloth_sim_scene(sim)->run.kernel, f.name);
        if (f.interactive_set) { /* applied: KEY=VALUE reads back as VALUE */
            char name[128], value[64];
            const char *eq = strchr(f.interactive_set, '=');
            ck_assert(eq);
            snprintf(name, sizeof name, "%s.%.*s", f.name, (int)(eq - f.interactive_set),
                     f.interactive_set);
            ck_assert(cloth_scene_get(cloth_sim_scene(sim), name, value, sizeof value, NULL) ==
                      CLOTH_OK);
            ck_assert_str_eq(value, eq + 1);
        }
        cJSON *o = state_json();
        const cJSON *it = cJSON_GetObjectItem(cJSON_GetObjectItem(o, "params"), "iterations");
        ck_assert(f.iteration_key ? cJSON_IsNumber(it) : cJSON_IsNull(it));
        cJSON_Delete(o);
        if (f.iteration_key) {
            char name[128];
            assert_taken("{\"type\":\"set\",\"name\":\"iterations\",\"value\":4}");
            snprintf(name, sizeof name, "%s.%s", f.name, f.iteration_key);
            ck_assert_double_eq(key(name), 4);
        } else {
            assert_error("{\"type\":\"set\",\"name\":\"iterations\",\"value\":4}",
                         "kernel has no iteration count");
        }
        cloth_frame fr;
        cloth__viewer_step(&view, &fr, &reply);
        ck_assert_msg(reply.text[0] == 0, "%s: %s", f.name, reply.text);
        ck_assert_int_eq(fr.has_cond, 0); /* the viewer shows none */
    }
}
END_TEST

/* Beyond a kernel's interactive limit the switch is refused, with the sizes. */
START_TEST(set_kernel_refuses_a_cloth_too_large_for_it)
{
    int tested = 0;
    for (int i = 0; i < cloth_kernel_count(); i++) {
        cloth_kernel_facts f;
        cloth_kernel_info(i, &f);
        if (f.interactive_max == 0)
            continue;
        char text[512], json[128], want[64];
        int side = (int)ceil(sqrt(f.interactive_max / 3.0 + 1)) + 1; /* no pins */
        snprintf(text, sizeof text, "[mesh]\nnx = %d\nny = %d\npins = none\n"
                 "[run]\nkernel = explicit\n", side, side);
        cloth_sim_destroy(sim);
        sim = make_sim(text);
        cloth__viewer_init(&view, sim);
        snprintf(json, sizeof json, "{\"type\":\"set\",\"name\":\"kernel\",\"value\":\"%s\"}",
                 f.name);
        snprintf(want, sizeof want, "would solve %d unknowns", 3 * side * side);
        assert_error(json, want);
        snprintf(want, sizeof want, "takes it up to %d", f.interactive_max);
        assert_error(json, want);
        ck_assert_str_eq(cloth_sim_scene(sim)->run.kernel, "explicit");
        tested++;
    }
    (void)tested; /* none when no kernel has a limit */
}
END_TEST

/* ------------------------------------------------------- grab, drag, release */

/* A ray straight at vertex v from 1 m in front of the cloth. */
static void ray_at(int v, const char *type, double dx, char *json, size_t size)
{
    const double *x = cloth_sim_positions(sim);
    snprintf(json, size, "{\"type\":\"%s\",\"origin\":[%.17g,%.17g,%.17g],\"dir\":[%g,0,-1]}",
             type, x[3 * v], x[3 * v + 1], x[3 * v + 2] + 1, dx);
}

START_TEST(only_the_grabbing_page_drags_and_releases)
{
    char json[256];
    ray_at(26, "grab", 0, json, sizeof json);
    say(A, json);
    ck_assert_str_eq(reply.text, "{\"type\":\"grab\",\"vertex\":26}");
    ck_assert(reply.state_changed && view.grab_owner == A);
    ck_assert_int_eq(cloth_sim_grabbed(sim), 26);
    double before = cloth_sim_positions(sim)[3 * 26];
    ray_at(26, "drag", 0.2, json, sizeof json);
    say(B, json);
    ck_assert(strstr(reply.text, "drag: this page holds no vertex (grab first)"));
    ck_assert_double_eq(cloth_sim_positions(sim)[3 * 26], before);
    say(A, json);
    ck_assert_str_eq(reply.text, "");
    /* the drag mapping with unit rays, 1 m from the camera: x + 0.2 / |(0.2, 0, -1)| */
    ck_assert_double_eq_tol(cloth_sim_positions(sim)[3 * 26], before + 0.2 / sqrt(1.04), 1e-12);
    say(B, "{\"type\":\"release\"}"); /* not B's: nothing */
    ck_assert(reply.text[0] == 0 && !reply.state_changed && cloth_sim_grabbed(sim) == 26);
    say(A, "{\"type\":\"release\"}");
    ck_assert(reply.text[0] == 0 && reply.state_changed);
    ck_assert(cloth_sim_grabbed(sim) == -1 && view.grab_owner == NULL);
    say(A, json); /* released: no more drags */
    ck_assert(strstr(reply.text, "holds no vertex"));
}
END_TEST

START_TEST(a_grab_that_misses_holds_nothing)
{
    say(A, "{\"type\":\"grab\",\"origin\":[5,5,1],\"dir\":[0,0,-1]}");
    ck_assert_str_eq(reply.text, "{\"type\":\"grab\",\"vertex\":-1}");
    ck_assert(view.grab_owner == NULL && cloth_sim_grabbed(sim) == -1);
}
END_TEST

START_TEST(rays_must_be_three_finite_numbers)
{
    assert_error("{\"type\":\"grab\",\"dir\":[0,0,-1]}", "'origin' must be an array of three");
    assert_error("{\"type\":\"grab\",\"origin\":[0,0],\"dir\":[0,0,-1]}", "array of three");
    assert_error("{\"type\":\"grab\",\"origin\":[0,0,1],\"dir\":[0,\"0\",-1]}",
                 "'dir' must hold three finite numbers");
    assert_error("{\"type\":\"drag\",\"origin\":[0,0,1e999],\"dir\":[0,0,-1]}",
                 "finite numbers of size at most 1e6");
    assert_error("{\"type\":\"drag\",\"origin\":[0,0,2e6],\"dir\":[0,0,-1]}", "at most 1e6");
    assert_error("{\"type\":\"grab\",\"origin\":[0,0,1],\"dir\":[0,0,-1],\"on\":1}",
                 "unknown key 'on'");
    assert_error("{\"type\":\"release\",\"vertex\":1}", "unknown key 'vertex'");
}
END_TEST

START_TEST(a_page_that_leaves_lets_go)
{
    char json[256];
    ray_at(20, "grab", 0, json, sizeof json);
    say(A, json);
    cloth__viewer_page_left(&view, B, &reply); /* another page */
    ck_assert(!reply.state_changed && cloth_sim_grabbed(sim) == 20);
    cloth__viewer_page_left(&view, A, &reply);
    ck_assert(reply.state_changed && reply.text[0] == 0);
    ck_assert(cloth_sim_grabbed(sim) == -1 && view.grab_owner == NULL);
}
END_TEST

/* ------------------------------------------------------------------- pins */

START_TEST(pin_sets_and_frees_a_vertex)
{
    assert_taken("{\"type\":\"pin\",\"vertex\":29,\"on\":true}");
    ck_assert(cloth_sim_mesh(sim)->pinned[29]);
    cJSON *o = state_json();
    const cJSON *pins = cJSON_GetObjectItem(o, "pins");
    ck_assert_int_eq(cJSON_GetArraySize(pins), 7); /* the top row and 29 */
    ck_assert_int_eq(cJSON_GetArrayItem(pins, 6)->valueint, 29);
    cJSON_Delete(o);
    assert_taken("{\"type\":\"pin\",\"vertex\":0,\"on\":false}");
    ck_assert(!cloth_sim_mesh(sim)->pinned[0]);

    assert_error("{\"type\":\"pin\",\"vertex\":30,\"on\":true}",
                 "pin: 'vertex' must be a vertex index in [0, 29]");
    assert_error("{\"type\":\"pin\",\"vertex\":-1,\"on\":true}", "in [0, 29]");
    assert_error("{\"type\":\"pin\",\"vertex\":1.5,\"on\":true}", "in [0, 29]");
    assert_error("{\"type\":\"pin\",\"vertex\":\"3\",\"on\":true}", "in [0, 29]");
    assert_error("{\"type\":\"pin\",\"vertex\":3,\"on\":1}", "'on' must be true or false");
    assert_error("{\"type\":\"pin\",\"vertex\":3}", "'on' must be true or false");
}
END_TEST

START_TEST(pinning_the_grabbed_vertex_ends_the_grab)
{
    char json[256];
    ray_at(26, "grab", 0, json, sizeof json);
    say(A, json);
    assert_taken("{\"type\":\"pin\",\"vertex\":26,\"on\":true}");
    ck_assert(view.grab_owner == NULL && cloth_sim_grabbed(sim) == -1);
    ck_assert(cloth_sim_mesh(sim)->pinned[26]);
}
END_TEST

/* ----------------------------------------------------- freeze, reset, clock */

START_TEST(freeze_stops_the_clock_and_reset_goes_back)
{
    cloth_frame f;
    cloth__viewer_step(&view, &f, &reply);
    ck_assert(f.frame == 1 && f.iterations > 0 && reply.text[0] == 0);
    assert_taken("{\"type\":\"freeze\",\"on\":true}");
    ck_assert(view.frozen);
    double y = cloth_sim_positions(sim)[3 * 29 + 1];
    cloth__viewer_step(&view, &f, &reply);
    ck_assert(f.frame == 1 && f.iterations == 0 && f.wall_ms == 0);
    ck_assert_double_eq(cloth_sim_positions(sim)[3 * 29 + 1], y);
    assert_error("{\"type\":\"freeze\",\"on\":\"yes\"}", "'on' must be true or false");
    assert_taken("{\"type\":\"freeze\",\"on\":false}");
    cloth__viewer_step(&view, &f, &reply);
    ck_assert_int_eq(f.frame, 2);

    say(A, "{\"type\":\"reset\"}");
    ck_assert(reply.text[0] == 0 && reply.state_changed && reply.positions_changed);
    const cloth_mesh *m = cloth_sim_mesh(sim);
    ck_assert(memcmp(cloth_sim_positions(sim), m->x0, sizeof(double) * 3 * (size_t)m->n) == 0);
    cloth__viewer_step(&view, &f, &reply);
    ck_assert_int_eq(f.frame, 1);
}
END_TEST

/* A failed frame tells every page once and stops the clock; reset starts it again. */
START_TEST(a_diverged_run_waits_for_reset)
{
    cloth_sim_destroy(sim);
    char text[1024];
    snprintf(text, sizeof text, "%s[run]\nblowup_limit = 0.3\n", scene_text);
    sim = make_sim(text); /* the cloth's lower rows start beyond 0.3 m */
    cloth__viewer_init(&view, sim);
    cloth_frame f;
    cloth__viewer_step(&view, &f, &reply);
    ck_assert_msg(strstr(reply.text, "diverged") && strstr(reply.text, "; press Reset"), "%s",
                  reply.text);
    ck_assert(reply.state_changed && view.diverged);
    ck_assert(f.iterations == 0 && f.frame == 0); /* the state as it is, measured */
    cloth__viewer_step(&view, &f, &reply);
    ck_assert(reply.text[0] == 0 && !reply.state_changed && f.frame == 0);
    cJSON *o = state_json();
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(o, "diverged")));
    cJSON_Delete(o);
    say(A, "{\"type\":\"reset\"}");
    ck_assert(!view.diverged);
}
END_TEST

/* ------------------------------------------------------- what is streamed */

START_TEST(hello_metrics_and_positions)
{
    char *text = cloth__viewer_hello(&view, 30);
    cJSON *o = cJSON_Parse(text);
    cJSON_free(text);
    ck_assert(o);
    ck_assert_str_eq(cJSON_GetObjectItem(o, "type")->valuestring, "hello");
    ck_assert_int_eq(cJSON_GetObjectItem(o, "n")->valueint, 30);
    ck_assert_int_eq(cJSON_GetObjectItem(o, "nx")->valueint, 6);
    ck_assert_int_eq(cJSON_GetObjectItem(o, "max_fps")->valueint, 30);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(o, "rest")), 90);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(o, "triangles")),
                     3 * cloth_sim_mesh(sim)->n_tris);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(o, "kernels")),
                     cloth_kernel_count());
    ck_assert(view.pick_radius > 0.03 && view.pick_radius < 0.05); /* 0.4 x spacing */
    ck_assert(cJSON_IsObject(cJSON_GetObjectItem(o, "params")));
    ck_assert_double_eq(cJSON_GetObjectItem(o, "sphere_offset")->valuedouble, 0.01);
    cJSON_Delete(o);

    cloth_frame f = {.frame = 3, .time = 0.03, .drift = NAN, .stretch_max = INFINITY,
                     .iterations = 12, .wall_ms = 1.5};
    char buf[512];
    size_t len = cloth__viewer_metrics(&view, &f, buf, sizeof buf);
    ck_assert_uint_eq(len, strlen(buf));
    ck_assert_str_eq(buf, "{\"type\":\"frame\",\"frame\":3,\"time\":0.03,\"drift\":null,"
                          "\"stretch_max\":null,\"iterations\":12,\"wall_ms\":1.5,"
                          "\"frozen\":false}");
    ck_assert_uint_eq(cloth__viewer_metrics(&view, &f, buf, 20), 0); /* too small */

    size_t n = cloth__viewer_frame_floats(&view);
    ck_assert_uint_eq(n, 94);
    float out[94];
    cloth__viewer_positions(&view, out);
    ck_assert(out[3 * 7] == 0.1f && out[3 * 7 + 1] == -0.1f);
    ck_assert(out[90] == 0.25f && out[91] == -1.f && out[92] == 0 && out[93] == 0.2f);
}
END_TEST

/* A replay: the sim shows the recording's samples; play and seek only, and the clock
 * moves to the next sample (looping) while playing. */
START_TEST(a_replay_plays_and_seeks_only)
{
    enum { SAMPLES = 3 };
    int n = cloth_sim_mesh(sim)->n;
    char path[256];
    snprintf(path, sizeof path, "/tmp/cloth_commands_%d.pc2", (int)getpid());
    cloth_pc2_writer *w;
    cloth_error err;
    ck_assert(cloth_pc2_create(path, n, 0.0f, 1.0f, &w, &err) == CLOTH_OK);
    double *x = calloc(3 * (size_t)n, sizeof *x);
    for (int k = 0; k < SAMPLES; k++) {
        for (int i = 0; i < 3 * n; i++)
            x[i] = k + 0.001 * i;
        ck_assert(cloth_pc2_append(w, x, &err) == CLOTH_OK);
    }
    ck_assert(cloth_pc2_finish(w, &err) == CLOTH_OK);
    cloth_pc2 *r;
    ck_assert(cloth_pc2_open(path, &r, &err) == CLOTH_OK);
    ck_assert_int_eq(cloth__viewer_replay(&view, r, 0.02), 0);

    /* sample k's positions, as float32 */
    const double *shown = cloth_sim_positions(sim);
    ck_assert(shown[5] == (double)(float)(0 + 0.005));
    say(A, "{\"type\":\"seek\",\"frame\":2}");
    ck_assert(reply.positions_changed && reply.state_changed && reply.text[0] == 0);
    ck_assert(shown[5] == (double)(float)(2 + 0.005));
    assert_error("{\"type\":\"seek\",\"frame\":3}", "[0, 2]");
    assert_error("{\"type\":\"seek\",\"frame\":1.5}", "frame");
    assert_error("{\"type\":\"grab\",\"origin\":[0,0,1],\"dir\":[0,0,-1]}",
                 "only play and seek");
    assert_error("{\"type\":\"set\",\"name\":\"gravity\",\"value\":1}",
                 "only play and seek");

    /* playing: each tick the next sample, back to 0 after the last */
    cloth_frame f;
    cloth__viewer_step(&view, &f, &reply);
    ck_assert_int_eq(f.frame, 0);
    ck_assert(fabs(f.time) < 1e-15 && shown[5] == (double)(float)0.005);
    assert_taken("{\"type\":\"play\",\"on\":false}");
    cloth__viewer_step(&view, &f, &reply);
    ck_assert_int_eq(f.frame, 0);
    assert_taken("{\"type\":\"play\",\"on\":true}");
    cloth__viewer_step(&view, &f, &reply);
    ck_assert_int_eq(f.frame, 1);
    ck_assert(fabs(f.time - 0.02) < 1e-15);

    char *hello = cloth__viewer_hello(&view, 50);
    ck_assert(strstr(hello, "\"replay\":{\"frames\":3,\"fps\":50}"));
    ck_assert(strstr(hello, "\"playback\":{\"frame\":1,\"playing\":true}"));
    cJSON_free(hello);
    cloth__viewer_free(&view);
    cloth_pc2_close(r);
    free(x);
    remove(path);
}
END_TEST

/* With a session, every change a page makes is recorded as the library input it was,
 * with the frames stepped before it; refused messages and freeze leave no line. */
START_TEST(a_session_records_the_inputs)
{
    char dir[256], path[300];
    snprintf(dir, sizeof dir, "/tmp/cloth_commands_session_%d", (int)getpid());
    cloth_error err;
    ck_assert_msg(cloth_session_open(sim, dir, "commands.ini", NULL, 0, &view.session, &err) ==
                  CLOTH_OK, "%s", err.msg);
    cloth_frame f;
    cloth__viewer_step(&view, &f, &reply);
    assert_taken("{\"type\":\"set\",\"name\":\"gravity\",\"value\":5}");
    assert_error("{\"type\":\"set\",\"name\":\"gravity\",\"value\":-5}", "range");
    say(A, "{\"type\":\"grab\",\"origin\":[0.5,-0.4,1],\"dir\":[0,0,-1]}");
    ck_assert_int_eq(cloth_sim_grabbed(sim), 29);
    assert_taken("{\"type\":\"freeze\",\"on\":true}");
    say(A, "{\"type\":\"drag\",\"origin\":[0.6,-0.4,1],\"dir\":[0,0,-1]}");
    assert_taken("{\"type\":\"freeze\",\"on\":false}");
    cloth__viewer_step(&view, &f, &reply);
    cloth__viewer_step(&view, &f, &reply);
    say(A, "{\"type\":\"release\"}");
    ck_assert(cloth_session_close(view.session, &err) == CLOTH_OK);
    view.session = NULL;

    snprintf(path, sizeof path, "%s/events.jsonl", dir);
    cloth_events *ev;
    ck_assert_msg(cloth_events_load(path, &ev, &err) == CLOTH_OK, "%s", err.msg);
    static const cloth_input_kind kinds[] = {CLOTH_INPUT_SET, CLOTH_INPUT_GRAB,
                                             CLOTH_INPUT_DRAG, CLOTH_INPUT_RELEASE};
    static const long frames[] = {1, 1, 1, 3};
    ck_assert_int_eq(cloth_events_count(ev), 4);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(cloth_events_input(ev, i)->kind, kinds[i]);
        ck_assert_int_eq(cloth_events_input(ev, i)->frame, frames[i]);
    }
    ck_assert_str_eq(cloth_events_input(ev, 0)->assignment, "world.gravity=0 -5 0");
    ck_assert(cloth_events_input(ev, 1)->radius == view.pick_radius);
    ck_assert(cloth_events_input(ev, 2)->origin[0] == 0.6);
    ck_assert_int_eq(cloth_events_frames(ev), 3);
    cloth_events_destroy(ev);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    ck_assert_int_eq(system(path), 0);
}
END_TEST

/* ------------------------------------------------------------ the body */

/* The 6 x 5 cloth far behind the mannequin in its rest (T) pose, a coarse field. */
static void use_avatar_scene(void)
{
    cloth_sim_destroy(sim);
    sim = make_sim("[mesh]\nnx = 6\nny = 5\nspacing = 0.1\npins = top-row\n"
                   "origin = -0.25 2 -3\n"
                   "[material]\nk_structural = 100\nk_shear = 40\nk_bend = 10\n"
                   "[avatar]\nmodel = builtin\nsdf_resolution = 16\nik_max_step = 0.01\n"
                   "[run]\nkernel = verlet\ndt = 0.01\nsubsteps = 2\n");
    ck_assert_int_eq(cloth__viewer_init(&view, sim), 0);
}

static void joint(const char *name, double p[3])
{
    cloth_error err;
    ck_assert(cloth_avatar_joint(cloth_sim_avatar(sim), name, p, &err) == CLOTH_OK);
}

/* With an [avatar], hello carries the body's triangles and the effectors, and every
 * binary frame the cloth, the sphere, the body's surface as the avatar poses it and the
 * effectors' joints, in that order. */
START_TEST(the_body_is_in_hello_and_frames)
{
    use_avatar_scene();
    cloth_avatar *av = cloth_sim_avatar(sim);
    const int *tris;
    int n_tris, nb = cloth_avatar_surface_size(av, &tris, &n_tris);
    char *text = cloth__viewer_hello(&view, 60);
    cJSON *o = cJSON_Parse(text);
    cJSON_free(text);
    const cJSON *body = cJSON_GetObjectItem(o, "body"), *eff = cJSON_GetObjectItem(o, "effectors");
    ck_assert_int_eq(cJSON_GetObjectItem(body, "n")->valueint, nb);
    const cJSON *bt = cJSON_GetObjectItem(body, "triangles");
    ck_assert_int_eq(cJSON_GetArraySize(bt), 3 * n_tris);
    ck_assert_int_eq(cJSON_GetArrayItem(bt, 3 * n_tris - 1)->valueint, tris[3 * n_tris - 1]);
    ck_assert_int_eq(cJSON_GetArraySize(eff), 4);
    ck_assert_str_eq(cJSON_GetArrayItem(eff, 0)->valuestring, "l_wrist");
    cJSON_Delete(o);

    cloth_frame f;
    cloth__viewer_step(&view, &f, &reply);
    size_t n = cloth__viewer_frame_floats(&view), nc = 3 * 30 + 4;
    ck_assert_uint_eq(n, nc + 3 * (size_t)nb + 12);
    float *out = malloc(sizeof(float) * n);
    double *x = malloc(sizeof(double) * 3 * (size_t)nb), w[3];
    cloth__viewer_positions(&view, out);
    cloth_avatar_surface(av, x);
    for (int i = 0; i < 3 * nb; i++)
        ck_assert(out[nc + i] == (float)x[i]);
    joint("r_ankle", w);
    for (int k = 0; k < 3; k++)
        ck_assert(out[nc + 3 * nb + 9 + k] == (float)w[k]);
    free(out);
    free(x);
    cloth__viewer_free(&view);
}
END_TEST

/* A ray passing the left wrist holds it (not a cloth vertex); a drag sets the target by
 * the paper's mapping (the camera moved by (-0.1, 0.2, 0), the same direction: the target
 * is the wrist moved as much); each tick then calls the IK once, moving the wrist at most
 * avatar.ik_max_step = 1 cm, until it is within CLOTH_IK_TOL of the target (0.50 m from
 * the shoulder, the arm 0.56 m long: reachable by bending the elbow).  Release lets go;
 * the pose stays.  A target beyond the arm's reach (0.2 m straight up: 0.59 m from the
 * shoulder) stops at the arm's length, 0.59 - 0.56 m from it. */
START_TEST(a_hand_is_pulled_by_ik)
{
    use_avatar_scene();
    double w0[3], w[3], prev[3];
    joint("l_wrist", w0);
    char msg[512];
    snprintf(msg, sizeof msg, "{\"type\":\"grab\",\"origin\":[%.17g,%.17g,%.17g],"
             "\"dir\":[0,0,-1]}", w0[0] + 0.03, w0[1], w0[2] + 3);
    say(A, msg);
    ck_assert_str_eq(reply.text, "{\"type\":\"grab\",\"vertex\":-1,\"joint\":\"l_wrist\"}");
    ck_assert(reply.state_changed);
    cJSON *o = state_json();
    ck_assert_str_eq(cJSON_GetObjectItem(o, "ik_joint")->valuestring, "l_wrist");
    ck_assert_int_eq(cJSON_GetObjectItem(o, "grabbed")->valueint, -1);
    cJSON_Delete(o);
    snprintf(msg, sizeof msg, "{\"type\":\"drag\",\"origin\":[%.17g,%.17g,%.17g],"
             "\"dir\":[0,0,-1]}", w0[0] + 0.03 - 0.1, w0[1] + 0.2, w0[2] + 3);
    say(B, msg);
    ck_assert_msg(strstr(reply.text, "holds no vertex"), "%s", reply.text); /* not B's */
    say(A, msg);
    ck_assert_str_eq(reply.text, "");
    double target[3] = {w0[0] - 0.1, w0[1] + 0.2, w0[2]};
    memcpy(prev, w0, sizeof prev);
    cloth_frame f;
    int ticks = 0;
    double d;
    do {
        cloth__viewer_step(&view, &f, &reply);
        ck_assert_str_eq(reply.text, "");
        joint("l_wrist", w);
        double step = sqrt((w[0] - prev[0]) * (w[0] - prev[0]) +
                           (w[1] - prev[1]) * (w[1] - prev[1]) +
                           (w[2] - prev[2]) * (w[2] - prev[2]));
        ck_assert_msg(step <= 0.01 + 1e-12, "tick %d moved the wrist %g m", ticks, step);
        memcpy(prev, w, sizeof prev);
        d = sqrt((w[0] - target[0]) * (w[0] - target[0]) + (w[1] - target[1]) * (w[1] - target[1]) +
                 (w[2] - target[2]) * (w[2] - target[2]));
    } while (++ticks < 60 && d > CLOTH_IK_TOL);
    ck_assert_msg(d <= CLOTH_IK_TOL, "%g m from the target after %d ticks", d, ticks);
    ck_assert_int_ge(ticks, 22); /* 0.224 m at 1 cm a tick */
    ck_assert(!view.ik_pending);
    say(A, "{\"type\":\"release\"}");
    ck_assert(reply.state_changed && view.ik_joint == -1);
    cloth__viewer_step(&view, &f, &reply);
    joint("l_wrist", w);
    ck_assert(memcmp(w, prev, sizeof w) == 0);
    /* reset brings the rest pose back */
    say(A, "{\"type\":\"reset\"}");
    joint("l_wrist", w);
    ck_assert(memcmp(w, w0, sizeof w) == 0);
    /* out of reach: the closest pose, then the pulls stop */
    snprintf(msg, sizeof msg, "{\"type\":\"grab\",\"origin\":[%.17g,%.17g,%.17g],"
             "\"dir\":[0,0,-1]}", w0[0], w0[1], w0[2] + 3);
    say(A, msg);
    snprintf(msg, sizeof msg, "{\"type\":\"drag\",\"origin\":[%.17g,%.17g,%.17g],"
             "\"dir\":[0,0,-1]}", w0[0], w0[1] + 0.2, w0[2] + 3);
    say(A, msg);
    for (ticks = 0; ticks < 200 && view.ik_pending; ticks++)
        cloth__viewer_step(&view, &f, &reply);
    ck_assert_msg(!view.ik_pending, "still pulling after %d ticks", ticks);
    joint("l_wrist", w);
    double s[3] = {0.18, 1.45, 0}; /* the left shoulder (mannequin.c) */
    double reach = sqrt((w[0] - s[0]) * (w[0] - s[0]) + (w[1] - s[1]) * (w[1] - s[1]) +
                        (w[2] - s[2]) * (w[2] - s[2]));
    d = sqrt((w[0] - w0[0]) * (w[0] - w0[0]) + (w[1] - w0[1] - 0.2) * (w[1] - w0[1] - 0.2) +
             (w[2] - w0[2]) * (w[2] - w0[2]));
    ck_assert_msg(fabs(reach - 0.56) < 1e-6 && fabs(d - (sqrt(0.56 * 0.56 + 0.04) - 0.56)) < 1e-3,
                  "wrist %g m from the shoulder, %g m from the target", reach, d);
    cloth__viewer_free(&view);
}
END_TEST

Suite *suite_commands(void)
{
    Suite *s = suite_create("commands");
    TCase *tc = tcase_create("viewer");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_message_is_an_object_with_a_known_type);
    tcase_add_test(tc, clipped_names_stay_utf8);
    tcase_add_test(tc, set_moves_each_control);
    tcase_add_test(tc, set_stiffness_scales_the_scene_values);
    tcase_add_test(tc, set_refuses_bad_values_and_changes_nothing);
    tcase_add_test(tc, set_kernel_uses_its_facts);
    tcase_add_test(tc, set_kernel_refuses_a_cloth_too_large_for_it);
    tcase_add_test(tc, only_the_grabbing_page_drags_and_releases);
    tcase_add_test(tc, a_grab_that_misses_holds_nothing);
    tcase_add_test(tc, rays_must_be_three_finite_numbers);
    tcase_add_test(tc, a_page_that_leaves_lets_go);
    tcase_add_test(tc, pin_sets_and_frees_a_vertex);
    tcase_add_test(tc, pinning_the_grabbed_vertex_ends_the_grab);
    tcase_add_test(tc, freeze_stops_the_clock_and_reset_goes_back);
    tcase_add_test(tc, a_diverged_run_waits_for_reset);
    tcase_add_test(tc, hello_metrics_and_positions);
    tcase_add_test(tc, a_replay_plays_and_seeks_only);
    tcase_add_test(tc, a_session_records_the_inputs);
    tcase_add_test(tc, the_body_is_in_hello_and_frames);
    tcase_add_test(tc, a_hand_is_pulled_by_ik);
    suite_add_tcase(s, tc);
    return s;
}
