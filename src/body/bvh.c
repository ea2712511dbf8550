/* The BVH reader (bvh.h): a tokenizer that knows its line, a recursive reader of the
 * hierarchy, the frames; and a clip's rotations, positions and rest pose by frame. */
#include "body/bvh.h"
#include "core/ini.h"
#include "core/status.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    const char *p;              /* next character                                     */
    const char *name;           /* the file's name, for messages                      */
    int line;                   /* line of p                                          */
    const char *start;          /* the last token in the text                         */
    size_t len;                 /* its length (any)                                   */
    char tok[64];               /* its first 63 characters, for comparisons and
                                 * messages                                           */
    int tok_line;               /* its line                                           */
} reader;

/* The next white-space separated token (tabs too: "Frames:\t455"); 0 at the end. */
static int next(reader *r)
{
    while (*r->p == ' ' || *r->p == '\t' || *r->p == '\r' || *r->p == '\n') {
        if (*r->p == '\n')
            r->line++;
        r->p++;
    }
    r->tok_line = r->line;
    r->start = r->p;
    while (*r->p && !strchr(" \t\r\n", *r->p))
        r->p++;
    r->len = (size_t)(r->p - r->start);
    size_t n = r->len < sizeof r->tok ? r->len : sizeof r->tok - 1;
    memcpy(r->tok, r->start, n);
    r->tok[n] = '\0';
    return r->len > 0;
}

static cloth_status bad(reader *r, cloth_error *err, const char *what)
{
    return cloth__fail(err, CLOTH_EPARSE, "%s:%d: %s%s%s%s", r->name, r->tok_line, what,
                       r->tok[0] ? " (got '" : " (got the end of the file)",
                       r->tok[0] ? r->tok : "", r->tok[0] ? "')" : "");
}

static int expect(reader *r, const char *word)
{
    return next(r) && strcmp(r->tok, word) == 0;
}

/* The number in s (all of it). */
static int parse_number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return *end == '\0' && end != s && isfinite(*v) && !errno;
}

static int number(reader *r, double *v)
{
    return next(r) && r->len < sizeof r->tok && parse_number(r->tok, v);
}

/* "LABEL number", or the two written together ("Frames:455"). */
static int label_number(reader *r, const char *label, double *v, int *found)
{
    size_t n = strlen(label);
    *found = next(r) && strncmp(r->tok, label, n) == 0;
    if (!*found)
        return 0;
    if (r->tok[n])
        return r->len < sizeof r->tok && parse_number(r->tok + n, v);
    return number(r, v);
}

static cloth_status read_joint(reader *r, cloth__clip *c, int parent, int end_site, int depth,
                               cloth_error *err);

static const char *const channel_names[6] = {"Xposition", "Yposition", "Zposition",
                                             "Xrotation", "Yrotation", "Zrotation"};

/* CHANNELS n name...: 3 rotations, or 3 positions and 3 rotations, each axis once. */
static cloth_status read_channels(reader *r, cloth__clip *c, cloth__bvh_joint *j,
                                  cloth_error *err)
{
    double n;
    if (!number(r, &n) || (n != 3 && n != 6))
        return bad(r, err, "CHANNELS: expected a count of 3 or 6");
    j->n_channels = (int)n;
    j->first = c->n_channels;
    c->n_channels += j->n_channels;
    int seen[6] = {0}, rotations = 0;
    for (int i = 0; i < j->n_channels; i++) {
        if (!next(r))
            return bad(r, err, "CHANNELS: expected a channel name");
        int found = -1;
        for (int k = 0; k < 6; k++)
            if (strcmp(r->tok, channel_names[k]) == 0)
                found = k;
        if (found < 0)
            return bad(r, err, "CHANNELS: expected Xposition, Yposition, Zposition, "
                               "Xrotation, Yrotation or Zrotation");
        if (seen[found]++)
            return bad(r, err, found >= 3 ? "CHANNELS: a rotation must be Xrotation, "
                                            "Yrotation and Zrotation once each, in one of "
                                            "the six orders"
                                          : "CHANNELS: a position axis named twice");
        rotations += found >= 3;
        j->channel[i] = found;
    }
    if (rotations != 3)
        return bad(r, err, "CHANNELS: a rotation must be Xrotation, Yrotation and Zrotation "
                           "once each, in one of the six orders");
    return CLOTH_OK;
}

/* After the joint's name: { OFFSET x y z [CHANNELS n ...] (JOINT ... | End Site ...)* };
 * self < 0: the End Site of joint -self - 2 (its offset kept as the joint's end). */
static cloth_status read_body(reader *r, cloth__clip *c, int self, cloth_error *err,
                              int depth)
{
    if (!expect(r, "{"))
        return bad(r, err, "expected '{'");
    if (!expect(r, "OFFSET"))
        return bad(r, err, "expected OFFSET");
    double off[3];
    for (int k = 0; k < 3; k++)
        if (!number(r, &off[k]))
            return bad(r, err, "OFFSET: expected three numbers");
    if (self >= 0)
        memcpy(c->joint[self].offset, off, sizeof off);
    else if (!c->joint[-self - 2].has_end) {
        memcpy(c->joint[-self - 2].end, off, sizeof off);
        c->joint[-self - 2].has_end = 1;
    }
    for (;;) {
        if (!next(r))
            return bad(r, err, "expected '}'");
        if (strcmp(r->tok, "}") == 0)
            return CLOTH_OK;
        if (strcmp(r->tok, "CHANNELS") == 0 && self >= 0 && c->joint[self].n_channels == 0) {
            cloth_status st = read_channels(r, c, &c->joint[self], err);
            if (st != CLOTH_OK)
                return st;
            continue;
        }
        if (strcmp(r->tok, "JOINT") == 0 && self >= 0) {
            cloth_status st = read_joint(r, c, self, 0, depth + 1, err);
            if (st != CLOTH_OK)
                return st;
            continue;
        }
        if (strcmp(r->tok, "End") == 0 && self >= 0) {
            if (!expect(r, "Site"))
                return bad(r, err, "expected 'End Site'");
            cloth_status st = read_joint(r, c, self, 1, depth + 1, err);
            if (st != CLOTH_OK)
                return st;
            continue;
        }
        return bad(r, err, self >= 0 ? "expected CHANNELS, JOINT, End Site or '}'"
                                     : "expected '}' closing End Site");
    }
}

static cloth_status read_joint(reader *r, cloth__clip *c, int parent, int end_site, int depth,
                               cloth_error *err)
{
    if (depth > 60)
        return bad(r, err, "joints nested deeper than 60");
    if (end_site)
        return read_body(r, c, -parent - 2, err, depth);
    if (!next(r) || r->tok[0] == '{')
        return bad(r, err, "expected a joint name");
    if (c->n_joints >= CLOTH__BVH_MAX_JOINTS)
        return bad(r, err, "more than 256 joints");
    int self = c->n_joints;
    cloth__bvh_joint *j = &c->joint[self];
    j->name = malloc(r->len + 1);
    if (!j->name)
        return cloth__fail(err, CLOTH_ENOMEM, "%s:%d: out of memory for a joint's name",
                           r->name, r->tok_line);
    memcpy(j->name, r->start, r->len);
    j->name[r->len] = '\0';
    c->n_joints++;
    j->parent = parent;
    return read_body(r, c, self, err, depth);
}

static cloth_status read_motion(reader *r, cloth__clip *c, cloth_error *err)
{
    double n, dt;
    int found;
    if (!expect(r, "MOTION"))
        return bad(r, err, "expected MOTION after the hierarchy");
    if (!label_number(r, "Frames:", &n, &found))
        return bad(r, err, found ? "Frames: expected a whole number from 1 to 100000"
                                 : "expected 'Frames:'");
    if (n < 1 || n > CLOTH__BVH_MAX_FRAMES || n != floor(n))
        return bad(r, err, "Frames: expected a whole number from 1 to 100000");
    if (!expect(r, "Frame"))
        return bad(r, err, "expected 'Frame Time:'");
    if (!label_number(r, "Time:", &dt, &found))
        return bad(r, err, found ? "Frame Time: expected a positive number of seconds"
                                 : "expected 'Frame Time:'");
    if (!(dt > 0))
        return bad(r, err, "Frame Time: expected a positive number of seconds");
    c->n_frames = (int)n;
    c->frame_time = dt;
    size_t count = (size_t)c->n_frames * (size_t)c->n_channels;
    c->data = malloc(sizeof(double) * (count ? count : 1));
    if (!c->data)
        return cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory for %d frames", r->name,
                           c->n_frames);
    for (int f = 0; f < c->n_frames; f++) {
        int line = -1;
        for (int i = 0; i < c->n_channels; i++) {
            double *v = &c->data[(size_t)f * c->n_channels + i];
            if (!number(r, v)) {
                char what[96];
                snprintf(what, sizeof what, "frame %d: expected %d numbers, this is number %d",
                         f + 1, c->n_channels, i + 1);
                if (!r->tok[0] && line >= 0)
                    r->tok_line = line; /* the end of the file: the short row's line */
                return bad(r, err, what);
            }
            if (line < 0)
                line = r->tok_line;
            else if (r->tok_line != line) {
                char what[96];
                snprintf(what, sizeof what, "frame %d: its line has %d numbers, expected %d",
                         f + 1, i, c->n_channels);
                r->tok_line = line;
                r->tok[0] = '\0';
                return cloth__fail(err, CLOTH_EPARSE, "%s:%d: %s", r->name, line, what);
            }
        }
    }
    if (next(r))
        return bad(r, err, "text after the last frame");
    return CLOTH_OK;
}

/* A clip (motion needed) or a skeleton (the hierarchy; a MOTION section may follow). */
static cloth_status parse(const char *text, const char *name, int need_motion,
                          cloth__clip *clip, cloth_error *err)
{
    memset(clip, 0, sizeof *clip);
    reader r = {.p = text, .name = name, .line = 1, .start = text, .tok_line = 1};
    cloth_status st;
    if (!expect(&r, "HIERARCHY"))
        st = bad(&r, err, "expected HIERARCHY");
    else if (!expect(&r, "ROOT"))
        st = bad(&r, err, "expected ROOT");
    else
        st = read_joint(&r, clip, -1, 0, 0, err);
    if (st == CLOTH_OK && clip->n_channels == 0 && need_motion)
        st = cloth__fail(err, CLOTH_EPARSE, "%s:%d: no joint has CHANNELS", name, r.tok_line);
    const char *rest = r.p;
    while (*rest && strchr(" \t\r\n", *rest))
        rest++;
    if (st == CLOTH_OK && (need_motion || *rest))
        st = read_motion(&r, clip, err);
    if (st != CLOTH_OK)
        cloth__clip_free(clip);
    return st;
}

cloth_status cloth__bvh_parse(const char *text, const char *name, cloth__clip *clip,
                              cloth_error *err)
{
    return parse(text, name, 1, clip, err);
}

cloth_status cloth__bvh_parse_skeleton(const char *text, const char *name, cloth__clip *clip,
                                       cloth_error *err)
{
    return parse(text, name, 0, clip, err);
}

static cloth_status load(const char *path, int need_motion, cloth__clip *clip, cloth_error *err)
{
    char *text;
    memset(clip, 0, sizeof *clip);
    cloth_status st = cloth__ini_read_file(path, &text, err);
    if (st != CLOTH_OK)
        return st;
    st = parse(text, path, need_motion, clip, err);
    free(text);
    return st;
}

cloth_status cloth__bvh_load(const char *path, cloth__clip *clip, cloth_error *err)
{
    return load(path, 1, clip, err);
}

cloth_status cloth__bvh_load_skeleton(const char *path, cloth__clip *clip, cloth_error *err)
{
    return load(path, 0, clip, err);
}

void cloth__clip_free(cloth__clip *clip)
{
    for (int i = 0; i < clip->n_joints; i++)
        free(clip->joint[i].name);
    free(clip->data);
    memset(clip, 0, sizeof *clip);
}

int cloth__clip_find(const cloth__clip *clip, const char *name)
{
    for (int i = 0; i < clip->n_joints; i++)
        if (strcmp(clip->joint[i].name, name) == 0)
            return i;
    return -1;
}

/* ---------------------------------------------------------- frames and rest */

double cloth__clip_duration(const cloth__clip *clip)
{
    return clip->n_frames * clip->frame_time;
}

void cloth__clip_frame_at(const cloth__clip *clip, double t, int *f0, int *f1, double *a)
{
    *f0 = *f1 = 0;
    *a = 0;
    if (clip->n_frames <= 1)
        return;
    double u = t / clip->frame_time, whole = floor(u + 0.5);
    if (!isfinite(u))
        return; /* a frame time of 1e-320 s: no frame to find */
    if (fabs(u - whole) <= 1e-9 * fmax(1, fabs(u)))
        u = whole;
    u -= clip->n_frames * floor(u / clip->n_frames);
    int f = (int)u;
    if (f >= clip->n_frames)
        f = clip->n_frames - 1;
    *f0 = f;
    *f1 = (f + 1) % clip->n_frames;
    *a = u - f;
}

void cloth__clip_rotation(const cloth__clip *clip, int i, int f, double R[9])
{
    static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    memcpy(R, I, sizeof I);
    const cloth__bvh_joint *j = &clip->joint[i];
    const double *row = clip->data + (size_t)f * clip->n_channels + j->first;
    for (int c = 0; c < j->n_channels; c++)
        if (j->channel[c] >= 3) {
            double B[9];
            cloth__rot_basic(j->channel[c] - 3, row[c] * M_PI / 180, B);
            cloth__mat_mul(R, B, R);
        }
}

int cloth__clip_position(const cloth__clip *clip, int i, int f, double p[3])
{
    const cloth__bvh_joint *j = &clip->joint[i];
    const double *row = clip->data + (size_t)f * clip->n_channels + j->first;
    int any = 0;
    memcpy(p, j->offset, sizeof j->offset);
    for (int c = 0; c < j->n_channels; c++)
        if (j->channel[c] < 3) {
            p[j->channel[c]] = row[c];
            any = 1;
        }
    return any;
}

void cloth__clip_rest(const cloth__clip *clip, double (*pos)[3], double (*end)[3])
{
    double p[CLOTH__BVH_MAX_JOINTS][3];
    for (int i = 0; i < clip->n_joints; i++) {
        const cloth__bvh_joint *j = &clip->joint[i];
        for (int k = 0; k < 3; k++)
            p[i][k] = j->offset[k] + (j->parent >= 0 ? p[j->parent][k] : 0);
        if (pos)
            memcpy(pos[i], p[i], sizeof p[i]);
        if (end)
            for (int k = 0; k < 3; k++)
                end[i][k] = p[i][k] + (j->has_end ? j->end[k] : 0);
    }
}
