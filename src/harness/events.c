/*
 * events.jsonl (its lines in harness/events.h): written a line at a time by a session
 * (session.c), read back whole by cloth_events_load for run.c's replay.
 *
 * Each line is parsed by cJSON, then held to the format: known keys, each once, of the
 * right type; the members its op needs and only those; whole numbers where a count is
 * meant; frames that never go back.  A line that is anything else is "FILE:LINE: what is
 * wrong", and when cJSON cannot parse it, the column where it stopped.
 */
#include "core/status.h"
#include "harness/events.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EVENTS_VERSION 1

static const char *const op_names[] = {
    [CLOTH_INPUT_SET] = "set",         [CLOTH_INPUT_GRAB] = "grab", [CLOTH_INPUT_DRAG] = "drag",
    [CLOTH_INPUT_RELEASE] = "release", [CLOTH_INPUT_PIN] = "pin",   [CLOTH_INPUT_RESET] = "reset",
    [CLOTH_INPUT_IK] = "ik"};
#define N_OPS ((int)(sizeof op_names / sizeof op_names[0]))

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

void cloth__events_put_header(FILE *f, const char *scene, const char *const *sets,
                              int n_sets)
{
    fprintf(f, "{\"clothbench\":\"events\",\"version\":%d,\"scene\":", EVENTS_VERSION);
    put_string(f, scene);
    fputs(",\"sets\":[", f);
    for (int i = 0; i < n_sets; i++) {
        if (i)
            fputc(',', f);
        put_string(f, sets[i]);
    }
    fputs("]}\n", f);
}

void cloth__events_put_input(FILE *f, const cloth_input *in)
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

void cloth__events_put_end(FILE *f, long frames)
{
    fprintf(f, "{\"frame\":%ld,\"op\":\"end\"}\n", frames);
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

/* The members a line may hold, in any order, and the JSON each must be. */
enum { M_FRAME, M_OP, M_ASSIGNMENT, M_ORIGIN, M_DIR, M_RADIUS, M_VERTEX, M_ON, M_JOINT,
       M_TARGET, M_CHAIN, M_CLOTHBENCH, M_VERSION, M_SCENE, M_SETS, N_MEMBERS };
typedef enum { NUMBER, STRING, VEC3, BOOL, STRINGS } json_type;
static const struct {
    const char *name;
    json_type type;
} members[N_MEMBERS] = {
    [M_FRAME] = {"frame", NUMBER},           [M_OP] = {"op", STRING},
    [M_ASSIGNMENT] = {"assignment", STRING}, [M_ORIGIN] = {"origin", VEC3},
    [M_DIR] = {"dir", VEC3},                 [M_RADIUS] = {"radius", NUMBER},
    [M_VERTEX] = {"vertex", NUMBER},         [M_ON] = {"on", BOOL},
    [M_JOINT] = {"joint", STRING},           [M_TARGET] = {"target", VEC3},
    [M_CHAIN] = {"chain", NUMBER},           [M_CLOTHBENCH] = {"clothbench", STRING},
    [M_VERSION] = {"version", NUMBER},       [M_SCENE] = {"scene", STRING},
    [M_SETS] = {"sets", STRINGS},
};
static const char *const type_names[] = {
    [NUMBER] = "a finite number", [STRING] = "a string",
    [VEC3] = "[x,y,z], three finite numbers", [BOOL] = "true or false",
    [STRINGS] = "an array of strings"};

/* A line's members, each its node in the line's cJSON tree (NULL when absent). */
typedef struct line_values {
    const cJSON *v[N_MEMBERS];
} line_values;

/* Whether v is JSON of type t.  cJSON reads 1e999 as inf: the format wants finite
 * numbers. */
static int is_type(const cJSON *v, json_type t)
{
    switch (t) {
    case NUMBER: return cJSON_IsNumber(v) && isfinite(v->valuedouble);
    case STRING: return cJSON_IsString(v);
    case BOOL: return cJSON_IsBool(v);
    case VEC3:
        if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 3)
            return 0;
        break;
    case STRINGS:
        if (!cJSON_IsArray(v))
            return 0;
        break;
    }
    for (const cJSON *c = v->child; c; c = c->next)
        if (!is_type(c, t == VEC3 ? NUMBER : STRING))
            return 0;
    return 1;
}

static double number(const line_values *lv, int m)
{
    return lv->v[m] ? lv->v[m]->valuedouble : 0;
}

static void vec3(const line_values *lv, int m, double out[3])
{
    int k = 0;
    for (const cJSON *c = lv->v[m]->child; c && k < 3; c = c->next)
        out[k++] = c->valuedouble;
}

/* s into buf (size bytes with its NUL); what names it in the message. */
static void copy_string(reader *r, const char *what, const char *s, char *buf, size_t size)
{
    size_t len = strlen(s);
    if (len >= size)
        bad(r, "\"%s\": a string longer than %zu bytes", what, size - 1);
    else
        memcpy(buf, s, len + 1);
}

/* Where cJSON stopped in a line it could not parse: its column (from 1) and the text
 * from there.  cJSON points at the character it could not take, or one past it (inside
 * a string it had begun), and at the last one when the line ended too soon. */
static void not_json(reader *r, const char *text, size_t len, const char *stop)
{
    size_t at = stop && stop >= text && stop < text + len ? (size_t)(stop - text) : 0;
    int shown = 0;
    while (shown < 16 && at + (size_t)shown < len && (unsigned char)text[at + shown] >= 0x20)
        shown++;
    bad(r, "not JSON: cJSON stopped at column %zu (\"%.*s\")", at + 1, shown, text + at);
}

/* The line parsed, its members checked for name, count and type in the order they come
 * and set in lv, which points into the tree returned (the caller deletes it). */
static cJSON *read_object(reader *r, const char *text, size_t len, line_values *lv)
{
    size_t used = 0;
    while (used < len && (unsigned char)text[used] <= ' ')
        used++;
    if (used == len) {
        bad(r, "an empty line (the file holds one JSON object a line)");
        return NULL;
    }
    const char *stop = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &stop, 0);
    if (!root) {
        not_json(r, text, len, stop);
        return NULL;
    }
    /* cJSON stops after the first value; what follows may only be white space */
    used = (size_t)(stop - text);
    while (used < len && (unsigned char)text[used] <= ' ')
        used++;
    if (used < len)
        bad(r, "text after the object, at column %zu", used + 1);
    else if (!cJSON_IsObject(root))
        bad(r, "not a JSON object: each line is one {...}");
    else if (!root->child)
        bad(r, "an empty object");
    if (r->st != CLOTH_OK)
        return root;
    for (const cJSON *v = root->child; v && r->st == CLOTH_OK; v = v->next) {
        int m = 0;
        while (m < N_MEMBERS && strcmp(v->string, members[m].name) != 0)
            m++;
        if (m == N_MEMBERS)
            bad(r, "unknown key \"%.64s\"", v->string);
        else if (lv->v[m])
            bad(r, "\"%s\" given twice", v->string);
        else if (!is_type(v, members[m].type))
            bad(r, "\"%s\" must be %s", v->string, type_names[members[m].type]);
        else
            lv->v[m] = v;
    }
    return root;
}

/* The members an op needs, and only those (frame and op aside). */
static const unsigned op_members[] = {
    [CLOTH_INPUT_SET] = 1u << M_ASSIGNMENT,
    [CLOTH_INPUT_GRAB] = 1u << M_ORIGIN | 1u << M_DIR | 1u << M_RADIUS,
    [CLOTH_INPUT_DRAG] = 1u << M_ORIGIN | 1u << M_DIR,
    [CLOTH_INPUT_RELEASE] = 0,
    [CLOTH_INPUT_PIN] = 1u << M_VERTEX | 1u << M_ON,
    [CLOTH_INPUT_RESET] = 0,
    [CLOTH_INPUT_IK] = 1u << M_JOINT | 1u << M_TARGET | 1u << M_CHAIN,
};

/* Checks a line's members against its op and fills in. */
static void check_input(reader *r, const line_values *lv, cloth_input *in, long last_frame)
{
    const char *op = lv->v[M_OP]->valuestring;
    unsigned want = op_members[in->kind];
    for (int m = M_ASSIGNMENT; m < N_MEMBERS; m++) {
        int needed = (want >> m) & 1u;
        if (needed && !lv->v[m])
            bad(r, "op \"%s\" needs \"%s\"", op, members[m].name);
        else if (!needed && lv->v[m])
            bad(r, "op \"%s\" takes no \"%s\"", op, members[m].name);
    }
    if (r->st != CLOTH_OK)
        return;
    double frame = number(lv, M_FRAME), radius = number(lv, M_RADIUS);
    double vertex = number(lv, M_VERTEX), chain = number(lv, M_CHAIN);
    if (frame < last_frame)
        bad(r, "frame %.17g comes after frame %ld: frames must not go back", frame,
            last_frame);
    switch (in->kind) {
    case CLOTH_INPUT_SET:
        copy_string(r, "assignment", lv->v[M_ASSIGNMENT]->valuestring, in->assignment,
                    sizeof in->assignment);
        break;
    case CLOTH_INPUT_GRAB:
    case CLOTH_INPUT_DRAG:
        if (in->kind == CLOTH_INPUT_GRAB && !(radius > 0))
            bad(r, "\"radius\" must be > 0");
        vec3(lv, M_ORIGIN, in->origin);
        vec3(lv, M_DIR, in->dir);
        break;
    case CLOTH_INPUT_PIN:
        if (vertex != floor(vertex) || vertex < 0 || vertex > 1e9)
            bad(r, "\"vertex\" must be a vertex index (a whole number >= 0)");
        else
            in->vertex = (int)vertex;
        in->on = cJSON_IsTrue(lv->v[M_ON]);
        break;
    case CLOTH_INPUT_IK:
        copy_string(r, "joint", lv->v[M_JOINT]->valuestring, in->joint, sizeof in->joint);
        vec3(lv, M_TARGET, in->target);
        if (chain != floor(chain) || chain < 1 || chain > 64)
            bad(r, "\"chain\" must be a whole number in [1, 64]");
        else
            in->chain = (int)chain;
        break;
    default:
        break;
    }
    in->frame = (long)frame;
    in->radius = radius;
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

/* The header line: its scene and overrides into ev. */
static void check_header(reader *r, const line_values *lv, cloth_events *ev)
{
    if (!lv->v[M_CLOTHBENCH] || strcmp(lv->v[M_CLOTHBENCH]->valuestring, "events") != 0 ||
        !lv->v[M_SCENE] || !lv->v[M_SETS] || !lv->v[M_VERSION] || lv->v[M_OP]) {
        bad(r, "not the header of an events file ({\"clothbench\":\"events\","
               "\"version\":%d,\"scene\":...,\"sets\":[...]})", EVENTS_VERSION);
        return;
    }
    if (number(lv, M_VERSION) != EVENTS_VERSION) {
        bad(r, "events file version %g (this cloth reads version %d)",
            number(lv, M_VERSION), EVENTS_VERSION);
        return;
    }
    copy_string(r, "scene", lv->v[M_SCENE]->valuestring, ev->scene, sizeof ev->scene);
    for (const cJSON *c = lv->v[M_SETS]->child; c && r->st == CLOTH_OK; c = c->next) {
        char set[CLOTH_ASSIGN_MAX];
        copy_string(r, "sets", c->valuestring, set, sizeof set);
        if (r->st == CLOTH_OK && !add_set(ev, set))
            r->st = cloth__fail(r->err, CLOTH_ENOMEM, "out of memory");
    }
}

/* One line's values held to the format (the header when line is 1); *ended after the end
 * line. */
static void check_line(reader *r, const line_values *lv, cloth_input *in, cloth_events *ev,
                       int *ended)
{
    if (r->line == 1) {
        check_header(r, lv, ev);
        return;
    }
    if (*ended) {
        bad(r, "a line after the \"end\" line");
        return;
    }
    if (!lv->v[M_FRAME] || !lv->v[M_OP] || lv->v[M_CLOTHBENCH] || lv->v[M_VERSION] ||
        lv->v[M_SCENE] || lv->v[M_SETS]) {
        bad(r, "an input needs \"frame\" and \"op\" (and no header keys)");
        return;
    }
    double frame = number(lv, M_FRAME);
    if (frame != floor(frame) || frame < 0 || frame > 1e15) {
        bad(r, "\"frame\" must be a whole number >= 0");
        return;
    }
    const char *op = lv->v[M_OP]->valuestring;
    long last = ev->n ? ev->inputs[ev->n - 1].frame : 0;
    if (strcmp(op, "end") == 0) {
        if (frame < last)
            bad(r, "frame %.17g comes after frame %ld: frames must not go back", frame,
                last);
        for (int m = M_ASSIGNMENT; m < N_MEMBERS; m++)
            if (lv->v[m])
                bad(r, "op \"end\" takes no \"%s\"", members[m].name);
        ev->frames = (long)frame;
        *ended = 1;
        return;
    }
    int k = 0;
    while (k < N_OPS && strcmp(op, op_names[k]) != 0)
        k++;
    if (k == N_OPS) {
        bad(r, "unknown op \"%.64s\" (set, grab, drag, release, pin, reset, ik, end)", op);
        return;
    }
    in->kind = (cloth_input_kind)k;
    check_input(r, lv, in, last);
    if (r->st == CLOTH_OK && !add_input(ev, in))
        r->st = cloth__fail(r->err, CLOTH_ENOMEM, "out of memory");
    if (r->st == CLOTH_OK)
        ev->frames = in->frame;
}

/* One line of the file: parsed, its members read, held to the format. */
static void read_line(reader *r, const char *text, size_t len, cloth_events *ev, int *ended)
{
    line_values lv;
    cloth_input in;
    memset(&lv, 0, sizeof lv);
    memset(&in, 0, sizeof in);
    in.line = r->line;
    cJSON *root = read_object(r, text, len, &lv);
    if (r->st == CLOTH_OK)
        check_line(r, &lv, &in, ev, ended);
    cJSON_Delete(root);
}

/* The next line of f, without its '\n', into *buf (grown as needed, its length *len):
 * 1 for a line, 0 at the end of the file, -1 out of memory.  *cap > 0. */
static int next_line(FILE *f, char **buf, size_t *cap, size_t *len)
{
    int c;
    *len = 0;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (*len + 1 >= *cap) {
            size_t bigger = 2 * *cap;
            char *grown = realloc(*buf, bigger);
            if (!grown)
                return -1;
            *buf = grown;
            *cap = bigger;
        }
        (*buf)[(*len)++] = (char)c;
    }
    return c == EOF && *len == 0 ? 0 : 1;
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
    size_t cap = 256, len;
    char *buf = malloc(cap);
    int ended = 0, got;
    if (!buf)
        r.st = cloth__fail(err, CLOTH_ENOMEM, "out of memory");
    while (r.st == CLOTH_OK && (got = next_line(f, &buf, &cap, &len)) != 0) {
        r.line++;
        if (got < 0)
            r.st = cloth__fail(err, CLOTH_ENOMEM, "out of memory");
        else if (memchr(buf, '\0', len))
            bad(&r, "a NUL byte in the line");
        else
            read_line(&r, buf, len, ev, &ended);
    }
    free(buf);
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
