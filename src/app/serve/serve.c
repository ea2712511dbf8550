/*
 * The interactive viewer's server: libwebsockets serves the page (files under web_dir)
 * and one WebSocket protocol, "cloth", on 127.0.0.1; a timer steps the sim up to
 * max_fps times a second while a page is connected.
 *
 * Server -> page
 *   text   {"type":"hello", n, nx, ny, triangles, rest, kernels, pick_radius, ...state}
 *   text   {"type":"state", params, pins, frozen, diverged, grabbed}   after any change
 *   binary Float32Array: 3n positions, then the sphere's centre and radius (4 numbers,
 *          zeros when there is no sphere), once per frame (none once the run diverged)
 *   text   {"type":"frame", frame, time, drift, stretch_max, iterations, wall_ms}
 *   text   {"type":"error", message}  a refused message, or a diverged run
 * Page -> server (JSON objects; any other key is refused)
 *   {"type":"set","name":NAME,"value":V}     gravity, wind_x, wind_z, stiffness, damping,
 *                                            sphere_radius, kernel, substeps, iterations
 *   {"type":"grab","origin":[x,y,z],"dir":[x,y,z]}   -> {"type":"grab","vertex":i|-1}
 *   {"type":"drag","origin":[..],"dir":[..]}   {"type":"release"}
 *   {"type":"pin","vertex":i,"on":true|false}
 *   {"type":"reset"}   {"type":"freeze","on":true|false}
 *
 * A bad message gets an error reply and changes nothing.  Each page has a small queue of
 * replies; a page that floods the server loses replies, never the server's time.  A page
 * that disconnects while dragging lets its vertex go.  The socket listens on 127.0.0.1
 * only, and a WebSocket whose Origin is another web site is refused.
 */
#define _POSIX_C_SOURCE 200809L
#include "app/serve/serve.h"

#include <cjson/cJSON.h>
#include <libwebsockets.h>

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The most unknowns for which the viewer runs the dense newton kernel. */
#define VIEW_NEWTON_MAX 1000

#define RX_MAX 4096         /* longest message a page may send (bytes)                 */
#define REPLY_MAX 32        /* queued replies per page                                 */
#define REPLY_LEN 600       /* longest reply                                           */
#define TICK_GAP_US 2000    /* the event loop's time between two frames at least (us)  */

/* ----------------------------------------------------------------- the state */

typedef struct client {
    struct lws *wsi;
    struct client *next;
    int want_hello, want_state, want_frame, want_metrics;
    int frame_sent_last;            /* 1: the last thing sent was positions            */
    char replies[REPLY_MAX][REPLY_LEN];  /* JSON texts waiting to be sent            */
    size_t reply_len[REPLY_MAX];
    int reply_head, reply_count;
    long dropped;                   /* replies lost to a full queue                    */
    unsigned char rx[RX_MAX + 1];   /* the message being received                      */
    size_t rx_len;
    int rx_bad;                     /* 1: too long or binary; refuse at its end        */
} client;

typedef struct server {
    cloth_sim *sim;
    cloth_serve_def def;
    struct lws_context *context;
    lws_sorted_usec_list_t tick;
    lws_usec_t next_tick;           /* when the next frame is due (us)                 */
    client *clients;
    int n_clients;
    client *grab_owner;             /* the page holding the grabbed vertex             */
    int frozen, diverged;
    double k_scene[CLOTH_FAMILIES]; /* the scene's stiffness, scaled by "stiffness"    */
    double k_relax[16];             /* per kernel: its k_relax key's scene value, or 0 */
    double stiffness;               /* that factor                                     */
    double pick_radius;             /* vertex sphere radius for picking (m)            */

    unsigned char *frame_buf;       /* LWS_PRE + the binary frame                      */
    size_t frame_len;
    char metrics[LWS_PRE + 512];    /* LWS_PRE + the frame's JSON                      */
    size_t metrics_len;
    unsigned char *hello_buf;       /* LWS_PRE + hello JSON, rebuilt with the state    */
    size_t hello_len;
    unsigned char *state_buf;       /* LWS_PRE + state JSON                            */
    size_t state_len;
} server;

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static cloth_status fail(cloth_error *err, cloth_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return st;
}

void cloth_default_serve_def(cloth_serve_def *def)
{
    def->port = 8080;
    def->web_dir = "src/app/serve/web";
    def->max_fps = 60;
    def->log = stdout;
}

/* ------------------------------------------------------------ replies out */

static void queue_reply(client *c, const char *json)
{
    size_t len = strlen(json);
    if (len >= REPLY_LEN - LWS_PRE) /* cannot happen for our replies; stay safe */
        len = REPLY_LEN - LWS_PRE - 1;
    if (c->reply_count == REPLY_MAX) {
        c->dropped++;
        return;
    }
    int slot = (c->reply_head + c->reply_count) % REPLY_MAX;
    memcpy(c->replies[slot] + LWS_PRE, json, len);
    c->reply_len[slot] = len;
    c->reply_count++;
    lws_callback_on_writable(c->wsi);
}

static void reply_error(client *c, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "error");
    cJSON_AddStringToObject(o, "message", msg);
    char *text = cJSON_PrintUnformatted(o);
    if (text)
        queue_reply(c, text);
    cJSON_free(text);
    cJSON_Delete(o);
}

/* ------------------------------------------------------- what is streamed */

/* The key that holds the current kernel's iteration count, or NULL if it has none. */
static const char *iterations_key(const server *s, char *buf, size_t size)
{
    static const char *const names[] = {"iterations", "max_iters"};
    const char *kernel = cloth_sim_scene(s->sim)->run.kernel;
    char value[64];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(buf, size, "%s.%s", kernel, names[i]);
        if (cloth_scene_get(cloth_sim_scene(s->sim), buf, value, sizeof value, NULL) ==
            CLOTH_OK)
            return buf;
    }
    return NULL;
}

/* The controls' current values, the pins and the flags, into o. */
static void add_state(const server *s, cJSON *o)
{
    const cloth_scene *sc = cloth_sim_scene(s->sim);
    const cloth_mesh *m = cloth_sim_mesh(s->sim);
    cJSON *p = cJSON_AddObjectToObject(o, "params");
    cJSON_AddNumberToObject(p, "gravity", -sc->world.gravity[1]);
    cJSON_AddNumberToObject(p, "wind_x", sc->world.wind[0]);
    cJSON_AddNumberToObject(p, "wind_z", sc->world.wind[2]);
    cJSON_AddNumberToObject(p, "stiffness", s->stiffness);
    cJSON_AddNumberToObject(p, "damping", sc->world.air_damping);
    if (sc->sphere.enabled)
        cJSON_AddNumberToObject(p, "sphere_radius", sc->sphere.radius);
    else
        cJSON_AddNullToObject(p, "sphere_radius");
    cJSON_AddStringToObject(p, "kernel", sc->run.kernel);
    cJSON_AddNumberToObject(p, "substeps", sc->run.substeps);
    char key[64], value[64];
    const char *ik = iterations_key(s, key, sizeof key);
    if (ik && cloth_scene_get(sc, ik, value, sizeof value, NULL) == CLOTH_OK)
        cJSON_AddNumberToObject(p, "iterations", atof(value));
    else
        cJSON_AddNullToObject(p, "iterations");
    cJSON *pins = cJSON_AddArrayToObject(o, "pins");
    for (int i = 0; i < m->n; i++)
        if (m->pinned[i] && i != cloth_sim_grabbed(s->sim))
            cJSON_AddItemToArray(pins, cJSON_CreateNumber(i));
    cJSON_AddBoolToObject(o, "frozen", s->frozen);
    cJSON_AddBoolToObject(o, "diverged", s->diverged);
    cJSON_AddNumberToObject(o, "grabbed", cloth_sim_grabbed(s->sim));
    cJSON_AddNumberToObject(o, "sphere_offset", sc->sphere.offset);
}

/* Prints o into *buf after LWS_PRE bytes (replacing what was there); 0 on success. */
static int print_json(cJSON *o, unsigned char **buf, size_t *len)
{
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!text)
        return -1;
    size_t n = strlen(text);
    unsigned char *grown = realloc(*buf, LWS_PRE + n + 1);
    if (!grown) {
        cJSON_free(text);
        return -1;
    }
    memcpy(grown + LWS_PRE, text, n + 1);
    cJSON_free(text);
    *buf = grown;
    *len = n;
    return 0;
}

/* Rebuilds the state message and asks every page to take it. */
static void state_changed(server *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "state");
    add_state(s, o);
    if (print_json(o, &s->state_buf, &s->state_len) != 0)
        return;
    for (client *c = s->clients; c; c = c->next) {
        c->want_state = 1;
        lws_callback_on_writable(c->wsi);
    }
}

/* The hello: the mesh (triangles, initial positions), the kernels and the state. */
static int build_hello(server *s)
{
    const cloth_mesh *m = cloth_sim_mesh(s->sim);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "hello");
    cJSON_AddNumberToObject(o, "n", m->n);
    cJSON_AddNumberToObject(o, "nx", m->nx);
    cJSON_AddNumberToObject(o, "ny", m->ny);
    cJSON_AddNumberToObject(o, "pick_radius", s->pick_radius);
    cJSON_AddNumberToObject(o, "max_fps", s->def.max_fps);
    cJSON_AddItemToObject(o, "triangles", cJSON_CreateIntArray(m->tris, 3 * m->n_tris));
    cJSON_AddItemToObject(o, "rest", cJSON_CreateDoubleArray(m->x0, 3 * m->n));
    cJSON *k = cJSON_AddArrayToObject(o, "kernels");
    for (int i = 0; cloth_kernel_name(i); i++)
        cJSON_AddItemToArray(k, cJSON_CreateString(cloth_kernel_name(i)));
    add_state(s, o);
    return print_json(o, &s->hello_buf, &s->hello_len);
}

/* The binary frame (Float32: positions, sphere centre and radius) and its metrics. */
static void build_frame(server *s, const cloth_frame *f)
{
    const double *x = cloth_sim_positions(s->sim);
    int n = cloth_sim_mesh(s->sim)->n;
    float *out = (float *)(s->frame_buf + LWS_PRE);
    for (int i = 0; i < 3 * n; i++)
        out[i] = (float)x[i];
    double c[3] = {0, 0, 0}, r = 0;
    cloth_sim_sphere(s->sim, c, &r);
    out[3 * n] = (float)c[0];
    out[3 * n + 1] = (float)c[1];
    out[3 * n + 2] = (float)c[2];
    out[3 * n + 3] = (float)r;
    if (f) {
        /* JSON has no NaN: a diverged frame's numbers become null */
        char v[4][32];
        double vals[4] = {f->time, f->drift, f->stretch_max, f->wall_ms};
        for (int i = 0; i < 4; i++)
            if (isfinite(vals[i]))
                snprintf(v[i], sizeof v[i], "%.6g", vals[i]);
            else
                snprintf(v[i], sizeof v[i], "null");
        int len = snprintf(s->metrics + LWS_PRE, sizeof s->metrics - LWS_PRE,
                           "{\"type\":\"frame\",\"frame\":%ld,\"time\":%s,\"drift\":%s,"
                           "\"stretch_max\":%s,\"iterations\":%ld,\"wall_ms\":%s,"
                           "\"frozen\":%s}",
                           f->frame, v[0], v[1], v[2], f->iterations, v[3],
                           s->frozen ? "true" : "false");
        s->metrics_len = len > 0 ? (size_t)len : 0;
    }
    for (client *c2 = s->clients; c2; c2 = c2->next) {
        /* a diverged state (NaN, or beyond run.blowup_limit) is not worth drawing: the
         * page keeps the last frame until Reset */
        c2->want_frame = !s->diverged;
        c2->want_metrics = f != NULL;
        lws_callback_on_writable(c2->wsi);
    }
}

/* --------------------------------------------------------------- the clock */

static void tick(lws_sorted_usec_list_t *sul)
{
    server *s = lws_container_of(sul, server, tick);
    lws_usec_t period = (lws_usec_t)(1e6 / s->def.max_fps);
    if (s->n_clients > 0) {
        cloth_frame f;
        cloth_error err;
        if (!s->frozen && !s->diverged) {
            if (cloth_sim_frame(s->sim, &f, &err) != CLOTH_OK) {
                s->diverged = 1;
                for (client *c = s->clients; c; c = c->next)
                    reply_error(c, "%s; press Reset", err.msg);
                state_changed(s);
            }
        } else {
            cloth_sim_measure(s->sim, &f);
            f.iterations = 0;
            f.wall_ms = 0;
        }
        build_frame(s, &f);
    }
    /* keep the rhythm, but leave the event loop at least TICK_GAP_US before the next
     * frame even when this one took longer than the period: a page needs two writable
     * turns per frame (positions, metrics), and its messages must get in */
    lws_usec_t now = lws_now_usecs();
    s->next_tick += period;
    if (s->next_tick < now + TICK_GAP_US)
        s->next_tick = now + TICK_GAP_US;
    lws_sul_schedule(s->context, 0, &s->tick, tick, s->next_tick - now);
}

/* ---------------------------------------------------------- messages in */

/* Checks that o has only the members named in allowed (NULL-terminated). */
static int only_keys(client *c, const cJSON *o, const char *const *allowed)
{
    for (const cJSON *it = o->child; it; it = it->next) {
        int ok = 0;
        for (int i = 0; allowed[i]; i++)
            if (it->string && strcmp(it->string, allowed[i]) == 0)
                ok = 1;
        if (!ok) {
            reply_error(c, "unknown key '%.60s'", it->string ? it->string : "");
            return 0;
        }
    }
    return 1;
}

/* A member that must be an array of three finite numbers. */
static int get_vec3(client *c, const cJSON *o, const char *name, double v[3])
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 3) {
        reply_error(c, "'%s' must be an array of three numbers", name);
        return 0;
    }
    for (int k = 0; k < 3; k++) {
        const cJSON *e = cJSON_GetArrayItem(a, k);
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble) || fabs(e->valuedouble) > 1e6) {
            reply_error(c, "'%s' must hold three finite numbers of size at most 1e6", name);
            return 0;
        }
        v[k] = e->valuedouble;
    }
    return 1;
}

static int get_bool(client *c, const cJSON *o, const char *name, int *on)
{
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!cJSON_IsBool(b)) {
        reply_error(c, "'%s' must be true or false", name);
        return 0;
    }
    *on = cJSON_IsTrue(b);
    return 1;
}

/* Applies a --set style assignment; on failure tells the page why. */
static int apply(server *s, client *c, const char *assignment)
{
    cloth_error err;
    if (cloth_sim_set(s->sim, assignment, &err) != CLOTH_OK) {
        reply_error(c, "%s", err.msg);
        return 0;
    }
    return 1;
}

/* The ranges of the page's controls: wider than the sliders, narrow enough that a frame
 * stays interactive. */
typedef struct control {
    const char *name;
    double lo, hi;
    int integer;
} control;

static const control controls[] = {
    {"gravity", 0, 50, 0},      {"wind_x", -30, 30, 0},    {"wind_z", -30, 30, 0},
    {"stiffness", 0.01, 10, 0}, {"damping", 0, 1, 0},      {"sphere_radius", 0.01, 3, 0},
    {"substeps", 1, 50, 1},     {"iterations", 1, 100, 1}, {"kernel", 0, 0, 0},
};

static void handle_set(server *s, client *c, const cJSON *o)
{
    static const char *const keys[] = {"type", "name", "value", NULL};
    if (!only_keys(c, o, keys))
        return;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(o, "value");
    const control *ctl = NULL;
    for (size_t i = 0; cJSON_IsString(name) && i < sizeof controls / sizeof controls[0]; i++)
        if (strcmp(name->valuestring, controls[i].name) == 0)
            ctl = &controls[i];
    if (!ctl) {
        reply_error(c, "set: unknown control (gravity, wind_x, wind_z, stiffness, damping, "
                    "sphere_radius, kernel, substeps, iterations)");
        return;
    }
    const cloth_scene *sc = cloth_sim_scene(s->sim);
    char a[256];
    if (strcmp(ctl->name, "kernel") == 0) {
        if (!cJSON_IsString(value) || strlen(value->valuestring) >= CLOTH_NAME_MAX) {
            reply_error(c, "set kernel: value must be a kernel name");
            return;
        }
        /* newton solves a dense system of 3 x (free vertices) unknowns several times a
         * frame (about 0.1 s each at 2000 unknowns): beyond VIEW_NEWTON_MAX the server
         * would stop answering for seconds, so the viewer refuses it.  The viewer shows
         * no condition numbers, so it also switches them off. */
        const cloth_mesh *m = cloth_sim_mesh(s->sim);
        int unknowns = 3 * (m->n - m->n_pinned);
        if (strcmp(value->valuestring, "newton") == 0 && unknowns > VIEW_NEWTON_MAX) {
            reply_error(c, "set kernel: newton would solve %d unknowns densely several times "
                        "a frame; the viewer takes it up to %d (run it with 'cloth run')",
                        unknowns, VIEW_NEWTON_MAX);
            return;
        }
        if (strcmp(value->valuestring, "newton") == 0 && !apply(s, c, "newton.cond=off"))
            return;
        snprintf(a, sizeof a, "run.kernel=%s", value->valuestring);
        if (apply(s, c, a))
            state_changed(s);
        return;
    }
    if (!cJSON_IsNumber(value) || !isfinite(value->valuedouble)) {
        reply_error(c, "set %s: value must be a number", ctl->name);
        return;
    }
    double v = value->valuedouble;
    if (v < ctl->lo || v > ctl->hi || (ctl->integer && v != floor(v))) {
        reply_error(c, "set %s: %g is out of range (%s in [%g, %g])", ctl->name, v,
                    ctl->integer ? "a whole number" : "a number", ctl->lo, ctl->hi);
        return;
    }
    int ok = 1;
    if (strcmp(ctl->name, "gravity") == 0) {
        snprintf(a, sizeof a, "world.gravity=%.17g %.17g %.17g", sc->world.gravity[0], -v,
                 sc->world.gravity[2]);
        ok = apply(s, c, a);
    } else if (strcmp(ctl->name, "wind_x") == 0 || strcmp(ctl->name, "wind_z") == 0) {
        double w[3] = {sc->world.wind[0], sc->world.wind[1], sc->world.wind[2]};
        w[ctl->name[5] == 'x' ? 0 : 2] = v;
        snprintf(a, sizeof a, "world.wind=%.17g %.17g %.17g", w[0], w[1], w[2]);
        ok = apply(s, c, a);
    } else if (strcmp(ctl->name, "stiffness") == 0) {
        static const char *const fam[CLOTH_FAMILIES] = {"k_structural", "k_shear", "k_bend"};
        for (int f = 0; f < CLOTH_FAMILIES && ok; f++) {
            snprintf(a, sizeof a, "material.%s=%.17g", fam[f], v * s->k_scene[f]);
            ok = apply(s, c, a);
        }
        /* a kernel that corrects springs by relaxation has its own stiffness
         * (verlet.k_relax, the Verlet cloth web demo's k): scaled too, kept below 2
         * (over-relaxation) */
        for (int k = 0; cloth_kernel_name(k) && k < 16 && ok; k++)
            if (s->k_relax[k] > 0) {
                snprintf(a, sizeof a, "%s.k_relax=%.17g", cloth_kernel_name(k),
                         fmin(v * s->k_relax[k], 1.95));
                ok = apply(s, c, a);
            }
        if (ok)
            s->stiffness = v;
    } else if (strcmp(ctl->name, "damping") == 0) {
        snprintf(a, sizeof a, "world.air_damping=%.17g", v);
        ok = apply(s, c, a);
    } else if (strcmp(ctl->name, "sphere_radius") == 0) {
        snprintf(a, sizeof a, "sphere.radius=%.17g", v);
        ok = apply(s, c, a);
    } else if (strcmp(ctl->name, "substeps") == 0) {
        snprintf(a, sizeof a, "run.substeps=%d", (int)v);
        ok = apply(s, c, a);
    } else { /* iterations */
        char key[64];
        const char *k = iterations_key(s, key, sizeof key);
        if (!k) {
            reply_error(c, "set iterations: the %s kernel has no iteration count",
                        sc->run.kernel);
            return;
        }
        snprintf(a, sizeof a, "%s=%d", k, (int)v);
        ok = apply(s, c, a);
    }
    if (ok)
        state_changed(s);
}

static void handle_message(server *s, client *c, const char *text, size_t len)
{
    cJSON *o = cJSON_ParseWithLength(text, len);
    if (!o) {
        reply_error(c, "not JSON");
        return;
    }
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(o, "type");
    const char *t = cJSON_IsObject(o) && cJSON_IsString(type) ? type->valuestring : NULL;
    cloth_error err;
    if (!t) {
        reply_error(c, "a message is a JSON object with a string 'type'");
    } else if (strcmp(t, "set") == 0) {
        handle_set(s, c, o);
    } else if (strcmp(t, "grab") == 0 || strcmp(t, "drag") == 0) {
        static const char *const keys[] = {"type", "origin", "dir", NULL};
        double origin[3], dir[3];
        if (only_keys(c, o, keys) && get_vec3(c, o, "origin", origin) &&
            get_vec3(c, o, "dir", dir)) {
            if (t[0] == 'g') {
                int v;
                if (cloth_sim_grab(s->sim, origin, dir, s->pick_radius, &v, &err) != CLOTH_OK) {
                    reply_error(c, "%s", err.msg);
                } else {
                    s->grab_owner = v >= 0 ? c : NULL;
                    char r[64];
                    snprintf(r, sizeof r, "{\"type\":\"grab\",\"vertex\":%d}", v);
                    queue_reply(c, r);
                    state_changed(s);
                }
            } else if (s->grab_owner != c) {
                reply_error(c, "drag: this page holds no vertex (grab first)");
            } else if (cloth_sim_drag(s->sim, origin, dir, &err) != CLOTH_OK) {
                reply_error(c, "%s", err.msg);
            }
        }
    } else if (strcmp(t, "release") == 0) {
        static const char *const keys[] = {"type", NULL};
        if (only_keys(c, o, keys) && s->grab_owner == c) {
            cloth_sim_release(s->sim);
            s->grab_owner = NULL;
            state_changed(s);
        }
    } else if (strcmp(t, "pin") == 0) {
        static const char *const keys[] = {"type", "vertex", "on", NULL};
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "vertex");
        int on, n = cloth_sim_mesh(s->sim)->n;
        if (!only_keys(c, o, keys) || !get_bool(c, o, "on", &on)) {
        } else if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
                   v->valuedouble < 0 || v->valuedouble >= n) {
            reply_error(c, "pin: 'vertex' must be a vertex index in [0, %d]", n - 1);
        } else {
            int vi = (int)v->valuedouble;
            if (cloth_sim_grabbed(s->sim) == vi)
                s->grab_owner = NULL;
            if (cloth_sim_pin(s->sim, vi, on, &err) != CLOTH_OK)
                reply_error(c, "%s", err.msg);
            else
                state_changed(s);
        }
    } else if (strcmp(t, "reset") == 0) {
        static const char *const keys[] = {"type", NULL};
        if (only_keys(c, o, keys)) {
            cloth_sim_reset(s->sim);
            s->grab_owner = NULL;
            s->diverged = 0;
            build_frame(s, NULL);
            state_changed(s);
        }
    } else if (strcmp(t, "freeze") == 0) {
        static const char *const keys[] = {"type", "on", NULL};
        int on;
        if (only_keys(c, o, keys) && get_bool(c, o, "on", &on)) {
            s->frozen = on;
            state_changed(s);
        }
    } else {
        reply_error(c, "unknown message type '%.40s'", t);
    }
    cJSON_Delete(o);
}

/* ------------------------------------------------------- the lws callback */

static int send_text(struct lws *wsi, unsigned char *buf, size_t len)
{
    return lws_write(wsi, buf + LWS_PRE, len, LWS_WRITE_TEXT) < (int)len ? -1 : 0;
}

static int on_writable(server *s, client *c)
{
    int rc = 0;
    if (c->want_hello) {
        c->want_hello = 0;
        c->want_state = 0; /* the hello holds the state */
        if (build_hello(s) == 0)
            rc = send_text(c->wsi, s->hello_buf, s->hello_len);
    } else if (c->reply_count > 0) {
        int slot = c->reply_head;
        c->reply_head = (c->reply_head + 1) % REPLY_MAX;
        c->reply_count--;
        rc = send_text(c->wsi, (unsigned char *)c->replies[slot], c->reply_len[slot]);
        if (c->reply_count == 0 && c->dropped > 0) {
            char note[128];
            snprintf(note, sizeof note, "{\"type\":\"error\",\"message\":\"%ld replies were "
                     "dropped: too many messages at once\"}", c->dropped);
            c->dropped = 0;
            queue_reply(c, note);
        }
    } else if (c->want_state && s->state_buf) {
        c->want_state = 0;
        rc = send_text(c->wsi, s->state_buf, s->state_len);
    } else if (c->want_frame && !(c->want_metrics && c->frame_sent_last)) {
        /* positions and metrics take turns, so that neither starves when frames come
         * faster than the page's socket turns */
        c->want_frame = 0;
        c->frame_sent_last = 1;
        if (lws_write(c->wsi, s->frame_buf + LWS_PRE, s->frame_len, LWS_WRITE_BINARY) <
            (int)s->frame_len)
            rc = -1;
    } else if (c->want_metrics) {
        c->want_metrics = 0;
        c->frame_sent_last = 0;
        rc = send_text(c->wsi, (unsigned char *)s->metrics, s->metrics_len);
    }
    if (rc == 0 && (c->want_hello || c->reply_count || c->want_state || c->want_frame ||
                    c->want_metrics))
        lws_callback_on_writable(c->wsi);
    return rc;
}

static int callback_cloth(struct lws *wsi, enum lws_callback_reasons reason, void *user,
                          void *in, size_t len)
{
    client *c = user;
    struct lws_context *ctx = lws_get_context(wsi);
    server *s = ctx ? lws_context_user(ctx) : NULL;
    switch (reason) {
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: {
        /* any web page the user visits may open a WebSocket to 127.0.0.1: take only our
         * own page (or a client that sends no Origin) */
        char origin[128] = "", ours[64], local[64];
        if (lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) <= 0)
            return 0;
        if (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) < 0)
            return -1;
        snprintf(ours, sizeof ours, "http://127.0.0.1:%d", s->def.port);
        snprintf(local, sizeof local, "http://localhost:%d", s->def.port);
        return strcmp(origin, ours) == 0 || strcmp(origin, local) == 0 ? 0 : -1;
    }
    case LWS_CALLBACK_ESTABLISHED:
        memset(c, 0, sizeof *c);
        c->wsi = wsi;
        c->want_hello = 1;
        c->next = s->clients;
        s->clients = c;
        s->n_clients++;
        lws_callback_on_writable(wsi);
        break;
    case LWS_CALLBACK_CLOSED:
        for (client **p = &s->clients; *p; p = &(*p)->next)
            if (*p == c) {
                *p = c->next;
                s->n_clients--;
                break;
            }
        if (s->grab_owner == c) { /* a page that leaves mid-drag lets go */
            cloth_sim_release(s->sim);
            s->grab_owner = NULL;
            state_changed(s);
        }
        break;
    case LWS_CALLBACK_RECEIVE:
        if (lws_is_first_fragment(wsi)) {
            c->rx_len = 0;
            c->rx_bad = 0;
        }
        if (lws_frame_is_binary(wsi))
            c->rx_bad = 1;
        else if (c->rx_len + len > RX_MAX)
            c->rx_bad = 2;
        else {
            memcpy(c->rx + c->rx_len, in, len);
            c->rx_len += len;
        }
        if (lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi)) {
            if (c->rx_bad == 1)
                reply_error(c, "binary messages are not understood: send JSON text");
            else if (c->rx_bad == 2)
                reply_error(c, "message longer than %d bytes", RX_MAX);
            else
                handle_message(s, c, (const char *)c->rx, c->rx_len);
            c->rx_len = 0;
            c->rx_bad = 0;
        }
        break;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return on_writable(s, c);
    default:
        break;
    }
    return 0;
}

/* ------------------------------------------------------------------ serving */

static const struct lws_protocols protocols[] = {
    {"http", lws_callback_http_dummy, 0, 0, 0, NULL, 0},
    {"cloth", callback_cloth, sizeof(client), RX_MAX, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static const struct lws_protocol_vhost_options mime_mjs = {NULL, NULL, ".mjs",
                                                           "text/javascript"};
static const struct lws_protocol_vhost_options mime_js = {&mime_mjs, NULL, ".js",
                                                          "text/javascript"};

cloth_status cloth_serve(cloth_sim *sim, const cloth_serve_def *def, cloth_error *err)
{
    char index[1200];
    struct stat st;
    snprintf(index, sizeof index, "%s/index.html", def->web_dir);
    if (stat(index, &st) != 0)
        return fail(err, CLOTH_EIO, "%s: no index.html there (give --web DIR)", def->web_dir);
    snprintf(index, sizeof index, "%s/node_modules/three", def->web_dir);
    if (stat(index, &st) != 0 && def->log)
        fprintf(def->log, "cloth serve: warning: %s/node_modules is missing: run "
                "'make deps-web'\n", def->web_dir);
    if (!(def->max_fps > 0 && def->max_fps <= 1000))
        return fail(err, CLOTH_EINVAL, "max_fps must be in (0, 1000]");

    server s;
    memset(&s, 0, sizeof s);
    s.sim = sim;
    s.def = *def;
    s.stiffness = 1;
    const cloth_scene *sc = cloth_sim_scene(sim);
    for (int f = 0; f < CLOTH_FAMILIES; f++)
        s.k_scene[f] = sc->material.k[f];
    for (int k = 0; cloth_kernel_name(k) && k < 16; k++) {
        char key[64], value[64];
        snprintf(key, sizeof key, "%s.k_relax", cloth_kernel_name(k));
        if (cloth_scene_get(sc, key, value, sizeof value, NULL) == CLOTH_OK)
            s.k_relax[k] = atof(value);
    }
    /* the mass-spring cloth paper's small spheres: a third of the grid spacing, from the
     * mesh size */
    const cloth_mesh *m = cloth_sim_mesh(sim);
    double cell = m->n > 1 ? sqrt(m->area > 0 ? 2 * m->area / fmax(1, m->n_tris) : 0) : 0;
    s.pick_radius = cell > 0 ? 0.4 * cell : 0.05 * fmax(m->rest_diag, 1e-3);
    s.frame_len = sizeof(float) * (3 * (size_t)m->n + 4);
    s.frame_buf = calloc(1, LWS_PRE + s.frame_len);
    if (!s.frame_buf)
        return fail(err, CLOTH_ENOMEM, "out of memory");

    struct lws_http_mount mount;
    memset(&mount, 0, sizeof mount);
    mount.mountpoint = "/";
    mount.mountpoint_len = 1;
    mount.origin = def->web_dir;
    mount.def = "index.html";
    mount.origin_protocol = LWSMPRO_FILE;
    mount.extra_mimetypes = &mime_js;

    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = def->port;
    info.iface = "127.0.0.1";
    info.protocols = protocols;
    info.mounts = &mount;
    info.user = &s;
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6 | LWS_SERVER_OPTION_VALIDATE_UTF8;
    lws_set_log_level(LLL_ERR, NULL);
    s.context = lws_create_context(&info);
    if (!s.context) {
        free(s.frame_buf);
        return fail(err, CLOTH_EIO, "cannot listen on 127.0.0.1:%d (in use?)", def->port);
    }
    build_frame(&s, NULL);
    s.next_tick = lws_now_usecs();
    lws_sul_schedule(s.context, 0, &s.tick, tick, 1);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    stop_requested = 0;
    if (def->log) {
        fprintf(def->log, "cloth serve: %s (%d vertices, %s kernel) at http://127.0.0.1:%d/\n",
                sc->source, m->n, sc->run.kernel, def->port);
        fflush(def->log);
    }
    while (!stop_requested)
        if (lws_service(s.context, 0) < 0)
            break;
    lws_sul_schedule(s.context, 0, &s.tick, tick, LWS_SET_TIMER_USEC_CANCEL);
    lws_context_destroy(s.context);
    free(s.frame_buf);
    free(s.hello_buf);
    free(s.state_buf);
    if (def->log) {
        fprintf(def->log, "cloth serve: stopped\n");
        fflush(def->log);
    }
    return CLOTH_OK;
}
