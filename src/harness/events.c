/*
 * A viewer's inputs: applied (cloth_sim_input), recorded with the frames (a session) and
 * read back (cloth_events_load) for a headless replay (run.c with def.events).
 *
 * events.jsonl holds one JSON object a line.  The first names the scene:
 *   {"clothbench":"events","version":1,"scene":"experiments/hanging.ini","sets":["k=v"]}
 * then one line an input, in the order they came, "frame" the frames stepped (or tried)
 * before it:
 *   {"frame":12,"op":"set","assignment":"world.wind=2 0 0"}
 *   {"frame":30,"op":"grab","origin":[x,y,z],"dir":[x,y,z],"radius":0.02}
 *   {"frame":31,"op":"drag","origin":[x,y,z],"dir":[x,y,z]}
 *   {"frame":40,"op":"release"}   {"frame":41,"op":"reset"}
 *   {"frame":50,"op":"pin","vertex":17,"on":true}
 *   {"frame":61,"op":"ik","joint":"l_wrist","target":[x,y,z],"chain":2}
 * and, when the session closed cleanly, {"frame":N,"op":"end"}.  Numbers are written with
 * %.17g, so a replay applies the very doubles the viewer did.
 *
 * Why the same series: every input reaches the sim between two frames, through
 * cloth_sim_input in the viewer and in the replay alike, and the sim is deterministic;
 * so the same inputs before the same frame give the same states.  Freezing the viewer
 * steps nothing, so it needs no line.
 *
 * The reader is a strict one for these objects (libcloth has no JSON library): a line
 * that is anything else is "FILE:LINE: what is wrong".
 */
#include "core/status.h"
#include "harness/files.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EVENTS_VERSION 1
#define LINE_MAX_BYTES 4096         /* longest line the reader takes                    */

static const char *const op_names[] = {"set", "grab", "drag", "release", "pin", "reset", "ik"};
#define N_OPS ((int)(sizeof op_names / sizeof op_names[0]))

/* ------------------------------------------------------------- applying */

/* One call of the avatar's CCD IK (an unreachable target is no error: the pose is the
 * closest found, as in the viewer). */
static cloth_status apply_ik(cloth_sim *sim, const cloth_input *in, cloth_error *err)
{
    cloth_avatar *av = cloth_sim_avatar(sim);
    if (!av)
        return cloth__fail(err, CLOTH_EINVAL, "ik: the scene has no [avatar]");
    cloth_ik_result res;
    return cloth_avatar_ik(av, in->joint, in->target, in->chain, &res, err);
}

cloth_status cloth_sim_input(cloth_sim *sim, const cloth_input *in, int *vertex,
                             cloth_error *err)
{
    int grabbed = -1;
    cloth_status st = CLOTH_OK;
    switch (in->kind) {
    case CLOTH_INPUT_SET:
        st = cloth_sim_set(sim, in->assignment, err);
        break;
    case CLOTH_INPUT_GRAB:
        st = cloth_sim_grab(sim, in->origin, in->dir, in->radius, &grabbed, err);
        break;
    case CLOTH_INPUT_DRAG:
        st = cloth_sim_drag(sim, in->origin, in->dir, err);
        break;
    case CLOTH_INPUT_RELEASE:
        cloth_sim_release(sim);
        break;
    case CLOTH_INPUT_PIN:
        st = cloth_sim_pin(sim, in->vertex, in->on, err);
        break;
    case CLOTH_INPUT_RESET:
        cloth_sim_reset(sim);
        break;
    case CLOTH_INPUT_IK:
        st = apply_ik(sim, in, err);
        break;
    default:
        st = cloth__fail(err, CLOTH_EINVAL, "input: unknown kind %d", (int)in->kind);
    }
    if (vertex)
        *vertex = grabbed;
    return st;
}

/* ------------------------------------------------------------- writing */

/* s as a JSON string. */
static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void put_vec3(FILE *f, const char *name, const double v[3])
{
    fprintf(f, ",\"%s\":[%.17g,%.17g,%.17g]", name, v[0], v[1], v[2]);
}

/* One input's line. */
static void put_input(FILE *f, const cloth_input *in)
{
    fprintf(f, "{\"frame\":%ld,\"op\":\"%s\"", in->frame, op_names[in->kind]);
    switch (in->kind) {
    case CLOTH_INPUT_SET:
        fputs(",\"assignment\":", f);
        put_string(f, in->assignment);
        break;
    case CLOTH_INPUT_GRAB:
    case CLOTH_INPUT_DRAG:
        put_vec3(f, "origin", in->origin);
        put_vec3(f, "dir", in->dir);
        if (in->kind == CLOTH_INPUT_GRAB)
            fprintf(f, ",\"radius\":%.17g", in->radius);
        break;
    case CLOTH_INPUT_PIN:
        fprintf(f, ",\"vertex\":%d,\"on\":%s", in->vertex, in->on ? "true" : "false");
        break;
    case CLOTH_INPUT_IK:
        fputs(",\"joint\":", f);
        put_string(f, in->joint);
        put_vec3(f, "target", in->target);
        fprintf(f, ",\"chain\":%d", in->chain);
        break;
    default:
        break;
    }
    fputs("}\n", f);
}

/* ------------------------------------------------------------- sessions */

struct cloth_session {
    cloth_sim *sim;
    cloth__out_file events;     /* events.jsonl(.part)                                */
    cloth__out_file series;     /* series.csv(.part)                                  */
    long frames;                /* frames stepped or tried                            */
};

static cloth_status flushed(cloth__out_file *o, cloth_error *err)
{
    if (ferror(o->f) || fflush(o->f) != 0)
        return cloth__fail(err, CLOTH_EIO, "%s: cannot write: %s", o->part, strerror(errno));
    return CLOTH_OK;
}

cloth_status cloth_session_open(cloth_sim *sim, const char *dir, const char *scene_path,
                                const char *const *sets, int n_sets, cloth_session **out,
                                cloth_error *err)
{
    *out = NULL;
    cloth_session *s = calloc(1, sizeof *s);
    if (!s)
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory");
    s->sim = sim;
    cloth_status st = cloth__make_dir(dir, err);
    if (st == CLOTH_OK)
        st = cloth__out_open(&s->events, dir, "events.jsonl", err);
    if (st == CLOTH_OK)
        st = cloth__out_open(&s->series, dir, "series.csv", err);
    if (st != CLOTH_OK) {
        if (s->events.f) {
            fclose(s->events.f);
            remove(s->events.part);
        }
        free(s);
        return st;
    }
    fprintf(s->events.f, "{\"clothbench\":\"events\",\"version\":%d,\"scene\":",
            EVENTS_VERSION);
    put_string(s->events.f, scene_path);
    fputs(",\"sets\":[", s->events.f);
    for (int i = 0; i < n_sets; i++) {
        if (i)
            fputc(',', s->events.f);
        put_string(s->events.f, sets[i]);
    }
    fputs("]}\n", s->events.f);
    cloth_frame fr;
    cloth_sim_measure(sim, &fr);
    cloth_table_write_header(s->series.f, CLOTH_TABLE_SERIES);
    fputc('\n', s->series.f);
    cloth_table_write_row(s->series.f, CLOTH_TABLE_SERIES, &fr);
    fputc('\n', s->series.f);
    st = flushed(&s->events, err);
    if (st == CLOTH_OK)
        st = flushed(&s->series, err);
    if (st != CLOTH_OK) {
        cloth_session_close(s, NULL);
        return st;
    }
    *out = s;
    return CLOTH_OK;
}

cloth_status cloth_session_input(cloth_session *s, const cloth_input *in, int *vertex,
                                 cloth_error *err)
{
    cloth_status st = cloth_sim_input(s->sim, in, vertex, err);
    if (st != CLOTH_OK)
        return st;
    cloth_input line = *in;
    line.frame = s->frames;
    put_input(s->events.f, &line);
    return flushed(&s->events, err);
}

cloth_status cloth_session_frame(cloth_session *s, cloth_frame *out, cloth_error *err)
{
    s->frames++;
    cloth_status st = cloth_sim_frame(s->sim, out, err);
    if (st != CLOTH_OK)
        return st;
    cloth_table_write_row(s->series.f, CLOTH_TABLE_SERIES, out);
    fputc('\n', s->series.f);
    return flushed(&s->series, err);
}

cloth_status cloth_session_close(cloth_session *s, cloth_error *err)
{
    if (!s)
        return CLOTH_OK;
    fprintf(s->events.f, "{\"frame\":%ld,\"op\":\"end\"}\n", s->frames);
    cloth_status st = cloth__out_close(&s->events, CLOTH_OK, err);
    st = cloth__out_close(&s->series, st, err);
    free(s);
    return st;
}

/* ------------------------------------------------------------- reading */

struct cloth_events {
    char path[1024];
    char scene[CLOTH_PATH_MAX];
    char **sets;                /* the header's overrides                             */
    int n_sets, cap_sets;
    cloth_input *inputs;
    int n, cap;
    long frames;                /* the end line's count, or the last input's frame    */
};

/* One line being read: where, and the message of its first error. */
typedef struct reader {
    const char *p;              /* next character                                     */
    const cloth_events *ev;
    int line;
    cloth_error *err;
    cloth_status st;            /* CLOTH_OK until something is wrong                  */
} reader;

static void bad(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void bad(reader *r, const char *fmt, ...)
{
    if (r->st != CLOTH_OK)
        return;
    char msg[CLOTH_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    r->st = cloth__fail(r->err, CLOTH_EPARSE, "%s:%d: %s", r->ev->path, r->line, msg);
}

static void skip_space(reader *r)
{
    while (*r->p == ' ' || *r->p == '\t' || *r->p == '\r')
        r->p++;
}

/* Expects character c (after white space). */
static int expect(reader *r, char c)
{
    skip_space(r);
    if (*r->p != c) {
        bad(r, "expected '%c' %s", c, *r->p ? "here" : "before the end of the line");
        return 0;
    }
    r->p++;
    return 1;
}

/* A JSON string into buf (size bytes with its NUL). */
static int read_string(reader *r, char *buf, size_t size)
{
    if (!expect(r, '"'))
        return 0;
    size_t n = 0;
    for (;;) {
        unsigned c = (unsigned char)*r->p++;
        if (c == '"')
            break;
        if (c == '\0' || c < 0x20) {
            r->p--;
            bad(r, "unterminated string");
            return 0;
        }
        if (c == '\\') {
            char e = *r->p++;
            const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
            const char *at = e ? strchr(from, e) : NULL;
            if (at) {
                c = (unsigned char)to[at - from];
            } else if (e == 'u' && isxdigit((unsigned char)r->p[0]) &&
                       isxdigit((unsigned char)r->p[1]) && isxdigit((unsigned char)r->p[2]) &&
                       isxdigit((unsigned char)r->p[3])) {
                char hex[5] = {r->p[0], r->p[1], r->p[2], r->p[3], 0};
                c = (unsigned)strtoul(hex, NULL, 16);
                r->p += 4;
                if (c == 0 || c > 0x7f) {
                    bad(r, "\\u%s: only ASCII escapes are understood", hex);
                    return 0;
                }
            } else {
                bad(r, "bad escape in a string");
                return 0;
            }
        }
        if (n + 1 >= size) {
            bad(r, "string longer than %zu bytes", size - 1);
            return 0;
        }
        buf[n++] = (char)c;
    }
    buf[n] = '\0';
    return 1;
}

/* A JSON number (no inf, nan or hex). */
static int read_number(reader *r, double *v)
{
    skip_space(r);
    char *end;
    if (*r->p != '-' && !isdigit((unsigned char)*r->p)) {
        bad(r, "expected a number");
        return 0;
    }
    errno = 0;
    *v = strtod(r->p, &end);
    if (end == r->p || errno == ERANGE || !isfinite(*v) ||
        memchr(r->p, 'x', (size_t)(end - r->p)) || memchr(r->p, 'X', (size_t)(end - r->p))) {
        bad(r, "expected a finite number");
        return 0;
    }
    r->p = end;
    return 1;
}

static int read_vec3(reader *r, double v[3])
{
    if (!expect(r, '['))
        return 0;
    for (int k = 0; k < 3; k++)
        if (!read_number(r, &v[k]) || !expect(r, k < 2 ? ',' : ']'))
            return 0;
    return 1;
}

static int read_bool(reader *r, int *on)
{
    skip_space(r);
    if (strncmp(r->p, "true", 4) == 0 || strncmp(r->p, "false", 5) == 0) {
        *on = r->p[0] == 't';
        r->p += *on ? 4 : 5;
        return 1;
    }
    bad(r, "expected true or false");
    return 0;
}

static int add_set(cloth_events *ev, const char *set)
{
    if (ev->n_sets == ev->cap_sets) {
        int cap = ev->cap_sets ? 2 * ev->cap_sets : 8;
        char **grown = realloc(ev->sets, sizeof(char *) * (size_t)cap);
        if (!grown)
            return 0;
        ev->sets = grown;
        ev->cap_sets = cap;
    }
    size_t len = strlen(set) + 1;
    ev->sets[ev->n_sets] = malloc(len);
    if (!ev->sets[ev->n_sets])
        return 0;
    memcpy(ev->sets[ev->n_sets++], set, len);
    return 1;
}

/* The members a line may hold, in any order; seen[] marks the ones present. */
enum { M_FRAME, M_OP, M_ASSIGNMENT, M_ORIGIN, M_DIR, M_RADIUS, M_VERTEX, M_ON, M_JOINT,
       M_TARGET, M_CHAIN, M_CLOTHBENCH, M_VERSION, M_SCENE, M_SETS, N_MEMBERS };
static const char *const member_names[N_MEMBERS] = {
    "frame", "op", "assignment", "origin", "dir", "radius", "vertex", "on", "joint",
    "target", "chain", "clothbench", "version", "scene", "sets"};

typedef struct line_values {
    int seen[N_MEMBERS];
    double frame, radius, vertex, version, chain;
    char op[16], clothbench[16];
    int on;
} line_values;

/* The header's "sets": an array of strings, added to ev. */
static int read_sets(reader *r, cloth_events *ev)
{
    if (!expect(r, '['))
        return 0;
    skip_space(r);
    if (*r->p == ']') {
        r->p++;
        return 1;
    }
    for (;;) {
        char set[CLOTH_ASSIGN_MAX];
        if (!read_string(r, set, sizeof set))
            return 0;
        if (!add_set(ev, set)) {
            r->st = cloth__fail(r->err, CLOTH_ENOMEM, "out of memory");
            return 0;
        }
        skip_space(r);
        if (*r->p == ']') {
            r->p++;
            return 1;
        }
        if (!expect(r, ','))
            return 0;
    }
}

/* One member's value into lv / in / ev. */
static int read_member(reader *r, int m, line_values *lv, cloth_input *in, cloth_events *ev)
{
    switch (m) {
    case M_FRAME: return read_number(r, &lv->frame);
    case M_OP: return read_string(r, lv->op, sizeof lv->op);
    case M_ASSIGNMENT: return read_string(r, in->assignment, sizeof in->assignment);
    case M_ORIGIN: return read_vec3(r, in->origin);
    case M_DIR: return read_vec3(r, in->dir);
    case M_RADIUS: return read_number(r, &lv->radius);
    case M_VERTEX: return read_number(r, &lv->vertex);
    case M_ON: return read_bool(r, &lv->on);
    case M_JOINT: return read_string(r, in->joint, sizeof in->joint);
    case M_TARGET: return read_vec3(r, in->target);
    case M_CHAIN: return read_number(r, &lv->chain);
    case M_CLOTHBENCH: return read_string(r, lv->clothbench, sizeof lv->clothbench);
    case M_VERSION: return read_number(r, &lv->version);
    case M_SCENE: return read_string(r, ev->scene, sizeof ev->scene);
    default: return read_sets(r, ev);
    }
}

/* The object of one line, member by member. */
static int read_object(reader *r, line_values *lv, cloth_input *in, cloth_events *ev)
{
    if (!expect(r, '{'))
        return 0;
    skip_space(r);
    if (*r->p == '}') {
        bad(r, "an empty object");
        return 0;
    }
    for (;;) {
        char key[32];
        if (!read_string(r, key, sizeof key) || !expect(r, ':'))
            return 0;
        int m = 0;
        while (m < N_MEMBERS && strcmp(key, member_names[m]) != 0)
            m++;
        if (m == N_MEMBERS) {
            bad(r, "unknown key \"%s\"", key);
            return 0;
        }
        if (lv->seen[m]) {
            bad(r, "\"%s\" given twice", key);
            return 0;
        }
        lv->seen[m] = 1;
        if (!read_member(r, m, lv, in, ev))
            return 0;
        skip_space(r);
        if (*r->p == '}')
            break;
        if (!expect(r, ','))
            return 0;
    }
    r->p++;
    skip_space(r);
    if (*r->p) {
        bad(r, "text after the object");
        return 0;
    }
    return 1;
}

/* The members an op needs, and only those (frame and op aside). */
static const unsigned op_members[] = {
    1u << M_ASSIGNMENT, 1u << M_ORIGIN | 1u << M_DIR | 1u << M_RADIUS,
    1u << M_ORIGIN | 1u << M_DIR, 0, 1u << M_VERTEX | 1u << M_ON, 0,
    1u << M_JOINT | 1u << M_TARGET | 1u << M_CHAIN};

/* Checks a line's members against its op and fills in. */
static void check_input(reader *r, const line_values *lv, cloth_input *in, long last_frame)
{
    unsigned want = op_members[in->kind];
    for (int m = M_ASSIGNMENT; m < N_MEMBERS; m++) {
        int needed = (want >> m) & 1u;
        if (needed && !lv->seen[m])
            bad(r, "op \"%s\" needs \"%s\"", lv->op, member_names[m]);
        else if (!needed && lv->seen[m])
            bad(r, "op \"%s\" takes no \"%s\"", lv->op, member_names[m]);
    }
    if (lv->frame < last_frame)
        bad(r, "frame %.17g comes after frame %ld: frames must not go back", lv->frame,
            last_frame);
    if (in->kind == CLOTH_INPUT_GRAB && !(lv->radius > 0))
        bad(r, "\"radius\" must be > 0");
    if (in->kind == CLOTH_INPUT_PIN) {
        if (lv->vertex != floor(lv->vertex) || lv->vertex < 0 || lv->vertex > 1e9)
            bad(r, "\"vertex\" must be a vertex index (a whole number >= 0)");
        in->vertex = (int)lv->vertex;
        in->on = lv->on;
    }
    if (in->kind == CLOTH_INPUT_IK) {
        if (lv->chain != floor(lv->chain) || lv->chain < 1 || lv->chain > 64)
            bad(r, "\"chain\" must be a whole number in [1, 64]");
        in->chain = (int)lv->chain;
    }
    in->frame = (long)lv->frame;
    in->radius = lv->radius;
}

static int add_input(cloth_events *ev, const cloth_input *in)
{
    if (ev->n == ev->cap) {
        int cap = ev->cap ? 2 * ev->cap : 64;
        cloth_input *grown = realloc(ev->inputs, sizeof *grown * (size_t)cap);
        if (!grown)
            return 0;
        ev->inputs = grown;
        ev->cap = cap;
    }
    ev->inputs[ev->n++] = *in;
    return 1;
}

/* One line of the file (the header when line is 1); *ended after the end line. */
static void read_line(reader *r, cloth_events *ev, int *ended)
{
    line_values lv;
    cloth_input in;
    memset(&lv, 0, sizeof lv);
    memset(&in, 0, sizeof in);
    in.line = r->line;
    if (!read_object(r, &lv, &in, ev))
        return;
    if (r->line == 1) {
        if (!lv.seen[M_CLOTHBENCH] || strcmp(lv.clothbench, "events") != 0 ||
            !lv.seen[M_SCENE] || !lv.seen[M_SETS] || !lv.seen[M_VERSION] || lv.seen[M_OP])
            bad(r, "not the header of an events file ({\"clothbench\":\"events\","
                   "\"version\":%d,\"scene\":...,\"sets\":[...]})", EVENTS_VERSION);
        else if (lv.version != EVENTS_VERSION)
            bad(r, "events file version %g (this cloth reads version %d)", lv.version,
                EVENTS_VERSION);
        return;
    }
    if (*ended) {
        bad(r, "a line after the \"end\" line");
        return;
    }
    if (!lv.seen[M_FRAME] || !lv.seen[M_OP] || lv.seen[M_CLOTHBENCH] ||
        lv.seen[M_VERSION] || lv.seen[M_SCENE] || lv.seen[M_SETS]) {
        bad(r, "an input needs \"frame\" and \"op\" (and no header keys)");
        return;
    }
    if (lv.frame != floor(lv.frame) || lv.frame < 0 || lv.frame > 1e15) {
        bad(r, "\"frame\" must be a whole number >= 0");
        return;
    }
    long last = ev->n ? ev->inputs[ev->n - 1].frame : 0;
    if (strcmp(lv.op, "end") == 0) {
        if (lv.frame < last)
            bad(r, "frame %.17g comes after frame %ld: frames must not go back", lv.frame,
                last);
        for (int m = M_ASSIGNMENT; m < N_MEMBERS; m++)
            if (lv.seen[m])
                bad(r, "op \"end\" takes no \"%s\"", member_names[m]);
        ev->frames = (long)lv.frame;
        *ended = 1;
        return;
    }
    int k = 0;
    while (k < N_OPS && strcmp(lv.op, op_names[k]) != 0)
        k++;
    if (k == N_OPS) {
        bad(r, "unknown op \"%s\" (set, grab, drag, release, pin, reset, ik, end)", lv.op);
        return;
    }
    in.kind = (cloth_input_kind)k;
    check_input(r, &lv, &in, last);
    if (r->st == CLOTH_OK && !add_input(ev, &in))
        r->st = cloth__fail(r->err, CLOTH_ENOMEM, "out of memory");
    if (r->st == CLOTH_OK)
        ev->frames = in.frame;
}

void cloth_events_destroy(cloth_events *ev)
{
    if (!ev)
        return;
    for (int i = 0; i < ev->n_sets; i++)
        free(ev->sets[i]);
    free(ev->sets);
    free(ev->inputs);
    free(ev);
}

cloth_status cloth_events_load(const char *path, cloth_events **out, cloth_error *err)
{
    *out = NULL;
    cloth_events *ev = calloc(1, sizeof *ev);
    if (!ev)
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory");
    snprintf(ev->path, sizeof ev->path, "%s", path);
    FILE *f = fopen(path, "r");
    if (!f) {
        cloth_events_destroy(ev);
        return cloth__fail(err, CLOTH_EIO, "%s: cannot read: %s", path, strerror(errno));
    }
    reader r = {.ev = ev, .err = err, .st = CLOTH_OK};
    char buf[LINE_MAX_BYTES + 2];
    int ended = 0;
    while (r.st == CLOTH_OK && fgets(buf, sizeof buf, f)) {
        r.line++;
        size_t len = strlen(buf);
        if (len > LINE_MAX_BYTES) {
            bad(&r, "line longer than %d bytes", LINE_MAX_BYTES);
            break;
        }
        if (len && buf[len - 1] == '\n')
            buf[--len] = '\0';
        if (len != strlen(buf)) {
            bad(&r, "a NUL byte in the line");
            break;
        }
        r.p = buf;
        read_line(&r, ev, &ended);
    }
    if (r.st == CLOTH_OK && ferror(f))
        r.st = cloth__fail(err, CLOTH_EIO, "%s: cannot read: %s", path, strerror(errno));
    if (r.st == CLOTH_OK && r.line == 0)
        r.st = cloth__fail(err, CLOTH_EPARSE, "%s:1: the file is empty (no header)", path);
    fclose(f);
    if (r.st != CLOTH_OK) {
        cloth_events_destroy(ev);
        return r.st;
    }
    *out = ev;
    return CLOTH_OK;
}

const char *cloth_events_path(const cloth_events *ev) { return ev->path; }
const char *cloth_events_scene(const cloth_events *ev) { return ev->scene; }
int cloth_events_sets(const cloth_events *ev) { return ev->n_sets; }
int cloth_events_count(const cloth_events *ev) { return ev->n; }
long cloth_events_frames(const cloth_events *ev) { return ev->frames; }

const char *cloth_events_set(const cloth_events *ev, int i)
{
    return i >= 0 && i < ev->n_sets ? ev->sets[i] : NULL;
}

const cloth_input *cloth_events_input(const cloth_events *ev, int i)
{
    return i >= 0 && i < ev->n ? &ev->inputs[i] : NULL;
}
