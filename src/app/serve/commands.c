/*
 * The viewer's commands (commands.h): a table from message type to handler, a table of
 * the "set" controls with one handler each, and the clock (the viewer's state and the
 * one entry point of its inputs: viewer.c; what the server streams: stream.c; the body's
 * joints pulled by IK: effectors.c; a recording's samples shown: replay.c).  Nothing here knows a socket: serve.c hands each message in and carries the
 * reply out, and a kernel is known only by its facts (cloth_kernel_info), never by its
 * name.
 */
#include "app/serve/commands.h"
#include "app/serve/effectors.h"
#include "app/serve/replay.h"
#include "terms/vec3.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -------------------------------------------------------- reading a message */

/* How many bytes of s to print in at most max: the cut never splits a UTF-8 sequence,
 * since a text frame must be valid UTF-8 or the browser drops the socket. */
static int utf8_prefix(const char *s, int max)
{
    int n = (int)strnlen(s, (size_t)max);
    if (n < max)
        return n;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) /* s[n] continues a sequence */
        n--;
    return n;
}

/* Checks that o has only the members named in allowed (NULL-terminated). */
static int only_keys(const cJSON *o, const char *const *allowed, cloth__reply *r)
{
    for (const cJSON *it = o->child; it; it = it->next) {
        int ok = 0;
        for (int i = 0; allowed[i]; i++)
            if (it->string && strcmp(it->string, allowed[i]) == 0)
                ok = 1;
        if (!ok) {
            const char *k = it->string ? it->string : "";
            cloth__reply_error(r, "unknown key '%.*s'", utf8_prefix(k, 60), k);
            return 0;
        }
    }
    return 1;
}

/* A member that must be an array of three finite numbers. */
static int get_vec3(const cJSON *o, const char *name, double v[3], cloth__reply *r)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 3) {
        cloth__reply_error(r, "'%s' must be an array of three numbers", name);
        return 0;
    }
    for (int k = 0; k < 3; k++) {
        const cJSON *e = cJSON_GetArrayItem(a, k);
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble) || fabs(e->valuedouble) > 1e6) {
            cloth__reply_error(r, "'%s' must hold three finite numbers of size at most 1e6",
                               name);
            return 0;
        }
        v[k] = e->valuedouble;
    }
    return 1;
}

static int get_bool(const cJSON *o, const char *name, int *on, cloth__reply *r)
{
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!cJSON_IsBool(b)) {
        cloth__reply_error(r, "'%s' must be true or false", name);
        return 0;
    }
    *on = cJSON_IsTrue(b);
    return 1;
}

/* Applies a --set style assignment; on failure tells the page why. */
static int apply(cloth__viewer *v, const char *assignment, cloth__reply *r)
{
    cloth_input in = {.kind = CLOTH_INPUT_SET};
    snprintf(in.assignment, sizeof in.assignment, "%s", assignment);
    return cloth__viewer_input(v, &in, NULL, r);
}

/* ------------------------------------------------------------ the controls */

/* Each sets one control of the page; 1 when the sim took it. */

static int set_gravity(cloth__viewer *v, double g, cloth__reply *r)
{
    const double *old = cloth_sim_scene(v->sim)->world.gravity;
    char a[256];
    snprintf(a, sizeof a, "world.gravity=%.17g %.17g %.17g", old[0], -g, old[2]);
    return apply(v, a, r);
}

static int set_wind(cloth__viewer *v, int axis, double value, cloth__reply *r)
{
    const double *old = cloth_sim_scene(v->sim)->world.wind;
    double w[3] = {old[0], old[1], old[2]};
    w[axis] = value;
    char a[256];
    snprintf(a, sizeof a, "world.wind=%.17g %.17g %.17g", w[0], w[1], w[2]);
    return apply(v, a, r);
}

static int set_wind_x(cloth__viewer *v, double w, cloth__reply *r)
{
    return set_wind(v, 0, w, r);
}

static int set_wind_z(cloth__viewer *v, double w, cloth__reply *r)
{
    return set_wind(v, 2, w, r);
}

/* The scene's spring stiffness times the factor, and so every kernel's own stiffness
 * (verlet's k_relax, the Verlet cloth web demo's k), kept at its stiffness_max. */
static int set_stiffness(cloth__viewer *v, double factor, cloth__reply *r)
{
    static const char *const family[CLOTH_FAMILIES] = {"k_structural", "k_shear", "k_bend"};
    char a[256];
    int ok = 1;
    for (int f = 0; f < CLOTH_FAMILIES && ok; f++) {
        snprintf(a, sizeof a, "material.%s=%.17g", family[f], factor * v->k_scene[f]);
        ok = apply(v, a, r);
    }
    cloth_kernel_facts k;
    for (int i = 0; ok && i < CLOTH__VIEW_KERNELS && cloth_kernel_info(i, &k) == CLOTH_OK; i++)
        if (v->k_own[i] > 0) {
            snprintf(a, sizeof a, "%s.%s=%.17g", k.name, k.stiffness_key,
                     fmin(factor * v->k_own[i], k.stiffness_max));
            ok = apply(v, a, r);
        }
    if (ok)
        v->stiffness = factor;
    return ok;
}

static int set_damping(cloth__viewer *v, double c, cloth__reply *r)
{
    char a[64];
    snprintf(a, sizeof a, "world.air_damping=%.17g", c);
    return apply(v, a, r);
}

static int set_sphere_radius(cloth__viewer *v, double radius, cloth__reply *r)
{
    char a[64];
    snprintf(a, sizeof a, "sphere.radius=%.17g", radius);
    return apply(v, a, r);
}

static int set_substeps(cloth__viewer *v, double n, cloth__reply *r)
{
    char a[64];
    snprintf(a, sizeof a, "run.substeps=%d", (int)n);
    return apply(v, a, r);
}

static int set_iterations(cloth__viewer *v, double n, cloth__reply *r)
{
    cloth_kernel_facts k = cloth__viewer_kernel(v);
    if (!k.iteration_key) {
        cloth__reply_error(r, "set iterations: the %s kernel has no iteration count",
                           cloth_sim_scene(v->sim)->run.kernel);
        return 0;
    }
    char a[128];
    snprintf(a, sizeof a, "%s.%s=%d", k.name, k.iteration_key, (int)n);
    return apply(v, a, r);
}

/* A kernel with an interactive limit is refused on a larger cloth: the server would stop
 * answering for seconds a frame.  The viewer shows no condition numbers, so a kernel
 * that computes them is told not to, and a kernel's setting for interactive speed
 * (its interactive_set: newton's PCG) is applied. */
static int set_kernel(cloth__viewer *v, const char *name, cloth__reply *r)
{
    cloth_kernel_facts k;
    const cloth_mesh *m = cloth_sim_mesh(v->sim);
    int unknowns = 3 * (m->n - m->n_pinned);
    char a[128];
    if (cloth_kernel_info(cloth_kernel_find(name), &k) == CLOTH_OK) {
        if (k.interactive_max > 0 && unknowns > k.interactive_max) {
            cloth__reply_error(r, "set kernel: %s would solve %d unknowns%s several times a "
                               "frame; the viewer takes it up to %d (run it with 'cloth run')",
                               k.name, unknowns, k.dense_max > 0 ? " densely" : "",
                               k.interactive_max);
            return 0;
        }
        const char *sets[] = {k.cond_off, k.interactive_set};
        for (int i = 0; i < 2; i++) {
            if (!sets[i])
                continue;
            snprintf(a, sizeof a, "%s.%s", k.name, sets[i]);
            if (!apply(v, a, r))
                return 0;
        }
    }
    snprintf(a, sizeof a, "run.kernel=%s", name); /* an unknown name: the sim says so */
    return apply(v, a, r);
}

/* The ranges of the page's controls: wider than the sliders, narrow enough that a frame
 * stays interactive.  A control takes a number or (kernel) a name. */
typedef struct control {
    const char *name;
    double lo, hi;
    int integer;                /* 1: whole numbers only                              */
    int (*number)(cloth__viewer *v, double value, cloth__reply *r);
    int (*text)(cloth__viewer *v, const char *value, cloth__reply *r);
} control;

static const control controls[] = {
    {.name = "gravity", .lo = 0, .hi = 50, .number = set_gravity},
    {.name = "wind_x", .lo = -30, .hi = 30, .number = set_wind_x},
    {.name = "wind_z", .lo = -30, .hi = 30, .number = set_wind_z},
    {.name = "stiffness", .lo = 0.01, .hi = 10, .number = set_stiffness},
    {.name = "damping", .lo = 0, .hi = 1, .number = set_damping},
    {.name = "sphere_radius", .lo = 0.01, .hi = 3, .number = set_sphere_radius},
    {.name = "substeps", .lo = 1, .hi = 50, .integer = 1, .number = set_substeps},
    {.name = "iterations", .lo = 1, .hi = 100, .integer = 1, .number = set_iterations},
    {.name = "kernel", .text = set_kernel},
};

#define N_CONTROLS (sizeof controls / sizeof controls[0])

/* ------------------------------------------------------------- the commands */

static void cmd_set(cloth__viewer *v, const void *page, const cJSON *msg, cloth__reply *r)
{
    (void)page;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(msg, "name");
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(msg, "value");
    const control *c = NULL;
    for (size_t i = 0; cJSON_IsString(name) && i < N_CONTROLS; i++)
        if (strcmp(name->valuestring, controls[i].name) == 0)
            c = &controls[i];
    if (!c) {
        cloth__reply_error(r, "set: unknown control (gravity, wind_x, wind_z, stiffness, "
                           "damping, sphere_radius, kernel, substeps, iterations)");
    } else if (c->text) {
        if (!cJSON_IsString(value) || strlen(value->valuestring) >= CLOTH_NAME_MAX)
            cloth__reply_error(r, "set %s: value must be a kernel name", c->name);
        else
            r->state_changed = c->text(v, value->valuestring, r);
    } else if (!cJSON_IsNumber(value) || !isfinite(value->valuedouble)) {
        cloth__reply_error(r, "set %s: value must be a number", c->name);
    } else if (value->valuedouble < c->lo || value->valuedouble > c->hi ||
               (c->integer && value->valuedouble != floor(value->valuedouble))) {
        cloth__reply_error(r, "set %s: %g is out of range (%s in [%g, %g])", c->name,
                           value->valuedouble, c->integer ? "a whole number" : "a number",
                           c->lo, c->hi);
    } else {
        r->state_changed = c->number(v, value->valuedouble, r);
    }
}

/* ---------------------------------------------------- grabbing and dragging */

/* dir / |dir| into u; 0 for a zero direction. */
static int unit(const double dir[3], double u[3])
{
    double l = cloth__norm(dir);
    for (int k = 0; k < 3; k++)
        u[k] = l > 0 ? dir[k] / l : 0;
    return l > 0;
}

static void cmd_grab(cloth__viewer *v, const void *page, const cJSON *msg, cloth__reply *r)
{
    cloth_input in = {.kind = CLOTH_INPUT_GRAB, .radius = v->pick_radius};
    int vertex;
    if (!get_vec3(msg, "origin", in.origin, r) || !get_vec3(msg, "dir", in.dir, r))
        return;
    double u[3], t_joint = 0, t_cloth = 0;
    int e = unit(in.dir, u) ? cloth__viewer_pick_effector(v, in.origin, u, &t_joint) : -1;
    if (e >= 0) {
        const cloth_mesh *m = cloth_sim_mesh(v->sim);
        int i = cloth_pick_ray(cloth_sim_positions(v->sim), m->n, in.origin, u,
                               v->pick_radius, &t_cloth);
        if (i < 0 || t_joint < t_cloth) {
            cloth__viewer_grab_effector(v, page, e, in.origin, u, r);
            return;
        }
    }
    if (!cloth__viewer_input(v, &in, &vertex, r))
        return;
    v->ik_joint = -1;
    v->grab_owner = vertex >= 0 ? page : NULL;
    snprintf(r->text, sizeof r->text, "{\"type\":\"grab\",\"vertex\":%d}", vertex);
    r->state_changed = 1;
}

static void cmd_drag(cloth__viewer *v, const void *page, const cJSON *msg, cloth__reply *r)
{
    cloth_input in = {.kind = CLOTH_INPUT_DRAG};
    if (!get_vec3(msg, "origin", in.origin, r) || !get_vec3(msg, "dir", in.dir, r))
        return;
    double u[3];
    if (v->grab_owner != page || !page) {
        cloth__reply_error(r, "drag: this page holds no vertex (grab first)");
    } else if (v->ik_joint >= 0) {
        if (!unit(in.dir, u)) {
            cloth__reply_error(r, "drag: 'dir' must not be zero");
            return;
        }
        cloth_drag_point(v->ik_p1, v->ik_o1, v->ik_dir1, in.origin, u, v->ik_dist,
                         v->ik_target);
        v->ik_pending = 1;
    } else {
        cloth__viewer_input(v, &in, NULL, r);
    }
}

/* Letting go of what another page holds is not this page's business: nothing happens. */
static void cmd_release(cloth__viewer *v, const void *page, const cJSON *msg,
                        cloth__reply *r)
{
    (void)msg;
    if (v->grab_owner != page || !page)
        return;
    if (v->ik_joint >= 0) { /* the body keeps the pose it has */
        v->ik_joint = -1;
        v->ik_pending = 0;
    } else {
        cloth_input in = {.kind = CLOTH_INPUT_RELEASE};
        cloth__viewer_input(v, &in, NULL, r);
    }
    v->grab_owner = NULL;
    r->state_changed = 1;
}

static void cmd_pin(cloth__viewer *v, const void *page, const cJSON *msg, cloth__reply *r)
{
    (void)page;
    const cJSON *vertex = cJSON_GetObjectItemCaseSensitive(msg, "vertex");
    int on, n = cloth_sim_mesh(v->sim)->n;
    if (!get_bool(msg, "on", &on, r))
        return;
    if (!cJSON_IsNumber(vertex) || vertex->valuedouble != floor(vertex->valuedouble) ||
        vertex->valuedouble < 0 || vertex->valuedouble >= n) {
        cloth__reply_error(r, "pin: 'vertex' must be a vertex index in [0, %d]", n - 1);
        return;
    }
    int i = (int)vertex->valuedouble;
    if (cloth_sim_grabbed(v->sim) == i) /* pinning it ends the grab */
        v->grab_owner = NULL;
    cloth_input in = {.kind = CLOTH_INPUT_PIN, .vertex = i, .on = on};
    r->state_changed = cloth__viewer_input(v, &in, NULL, r);
}

static void cmd_reset(cloth__viewer *v, const void *page, const cJSON *msg, cloth__reply *r)
{
    (void)page;
    (void)msg;
    cloth_input in = {.kind = CLOTH_INPUT_RESET};
    cloth__viewer_input(v, &in, NULL, r);
    v->grab_owner = NULL;
    v->ik_joint = -1;
    v->ik_pending = 0;
    if (v->avatar) /* the body is back in its first pose */
        cloth_avatar_surface(v->avatar, v->body_x);
    v->diverged = 0;
    r->positions_changed = 1;
    r->state_changed = 1;
}

static void cmd_freeze(cloth__viewer *v, const void *page, const cJSON *msg, cloth__reply *r)
{
    (void)page;
    int on;
    if (get_bool(msg, "on", &on, r)) {
        v->frozen = on;
        r->state_changed = 1;
    }
}

/* ------------------------------------------------------------- replaying */

static void cmd_play(cloth__viewer *v, const void *page, const cJSON *msg, cloth__reply *r)
{
    (void)page;
    int on;
    if (get_bool(msg, "on", &on, r)) {
        v->playing = on;
        r->state_changed = 1;
    }
}

static void cmd_seek(cloth__viewer *v, const void *page, const cJSON *msg, cloth__reply *r)
{
    (void)page;
    const cJSON *frame = cJSON_GetObjectItemCaseSensitive(msg, "frame");
    if (!cJSON_IsNumber(frame) || frame->valuedouble != floor(frame->valuedouble) ||
        frame->valuedouble < 0 || frame->valuedouble >= v->replay_samples) {
        cloth__reply_error(r, "seek: 'frame' must be a frame of the recording in [0, %d]",
                           v->replay_samples - 1);
        return;
    }
    if (!cloth__viewer_show_sample(v, (int)frame->valuedouble)) {
        cloth__reply_error(r, "seek: cannot read frame %d of the recording",
                           (int)frame->valuedouble);
        return;
    }
    r->positions_changed = 1;
    r->state_changed = 1;
}

/* Message type -> handler, with the members each takes. */
typedef struct command {
    const char *type;
    const char *const *keys;    /* NULL-terminated, "type" included                   */
    void (*run)(cloth__viewer *v, const void *page, const cJSON *msg, cloth__reply *r);
} command;

static const char *const keys_bare[] = {"type", NULL};
static const char *const keys_set[] = {"type", "name", "value", NULL};
static const char *const keys_ray[] = {"type", "origin", "dir", NULL};
static const char *const keys_pin[] = {"type", "vertex", "on", NULL};
static const char *const keys_freeze[] = {"type", "on", NULL};
static const char *const keys_seek[] = {"type", "frame", NULL};

static const command commands[] = {
    {.type = "set", .keys = keys_set, .run = cmd_set},
    {.type = "grab", .keys = keys_ray, .run = cmd_grab},
    {.type = "drag", .keys = keys_ray, .run = cmd_drag},
    {.type = "release", .keys = keys_bare, .run = cmd_release},
    {.type = "pin", .keys = keys_pin, .run = cmd_pin},
    {.type = "reset", .keys = keys_bare, .run = cmd_reset},
    {.type = "freeze", .keys = keys_freeze, .run = cmd_freeze},
};

/* What a replay takes instead. */
static const command replay_commands[] = {
    {.type = "play", .keys = keys_freeze, .run = cmd_play},
    {.type = "seek", .keys = keys_seek, .run = cmd_seek},
};

void cloth__viewer_command(cloth__viewer *v, const void *page, const cJSON *msg,
                           cloth__reply *reply)
{
    memset(reply, 0, sizeof *reply);
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(msg, "type");
    if (!cJSON_IsObject(msg) || !cJSON_IsString(type)) {
        cloth__reply_error(reply, "a message is a JSON object with a string 'type'");
        return;
    }
    const command *table = v->replay ? replay_commands : commands;
    size_t n = v->replay ? sizeof replay_commands / sizeof replay_commands[0]
                         : sizeof commands / sizeof commands[0];
    for (size_t i = 0; i < n; i++)
        if (strcmp(type->valuestring, table[i].type) == 0) {
            if (only_keys(msg, table[i].keys, reply))
                table[i].run(v, page, msg, reply);
            return;
        }
    if (v->replay)
        cloth__reply_error(reply, "'%.*s': this is a replay of a recording: only play and "
                           "seek", utf8_prefix(type->valuestring, 40), type->valuestring);
    else
        cloth__reply_error(reply, "unknown message type '%.*s'",
                           utf8_prefix(type->valuestring, 40), type->valuestring);
}

void cloth__viewer_text(cloth__viewer *v, const void *page, const char *text, size_t len,
                        cloth__reply *reply)
{
    cJSON *msg = cJSON_ParseWithLength(text, len);
    if (!msg) {
        memset(reply, 0, sizeof *reply);
        cloth__reply_error(reply, "not JSON");
        return;
    }
    cloth__viewer_command(v, page, msg, reply);
    cJSON_Delete(msg);
}

void cloth__viewer_page_left(cloth__viewer *v, const void *page, cloth__reply *reply)
{
    memset(reply, 0, sizeof *reply);
    cmd_release(v, page, NULL, reply); /* a page that leaves mid-drag lets go */
}

/* ---------------------------------------------------------------- the clock */

void cloth__viewer_step(cloth__viewer *v, cloth_frame *f, cloth__reply *reply)
{
    memset(reply, 0, sizeof *reply);
    cloth_error err;
    if (v->replay) {
        if (v->playing)
            cloth__viewer_show_sample(v, (v->replay_frame + 1) % v->replay_samples);
        cloth_sim_measure(v->sim, f);
        f->drift = NAN; /* a recording holds no velocities: no energy to speak of */
        f->frame = v->replay_frame;
        f->time = v->replay_frame * v->replay_dt;
        f->iterations = 0;
        f->wall_ms = 0;
        return;
    }
    if (!v->frozen && !v->diverged) {
        if (v->ik_joint >= 0 && v->ik_pending)
            cloth__viewer_pull_effector(v, reply);
        cloth_status st = v->session ? cloth_session_frame(v->session, f, &err)
                                     : cloth_sim_frame(v->sim, f, &err);
        if (st == CLOTH_OK) {
            if (v->avatar)
                cloth_avatar_surface(v->avatar, v->body_x);
            return;
        }
        v->diverged = 1;
        cloth__reply_error(reply, "%s; press Reset", err.msg);
        reply->state_changed = 1;
    }
    /* frozen, diverged, or the frame that failed (which measured nothing) */
    cloth_sim_measure(v->sim, f);
    f->iterations = 0;
    f->wall_ms = 0;
}
