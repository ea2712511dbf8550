/* The BVH reader (bvh.h): a tokenizer that knows its line, a recursive reader of the
 * hierarchy, and the frames. */
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
    char tok[64];               /* the last token                                     */
    int tok_line;               /* its line                                           */
} reader;

/* The next white-space separated token into r->tok; 0 at the end of the text. */
static int next(reader *r)
{
    while (*r->p == ' ' || *r->p == '\t' || *r->p == '\r' || *r->p == '\n') {
        if (*r->p == '\n')
            r->line++;
        r->p++;
    }
    r->tok_line = r->line;
    size_t n = 0;
    while (*r->p && !strchr(" \t\r\n", *r->p)) {
        if (n + 1 < sizeof r->tok)
            r->tok[n++] = *r->p;
        r->p++;
    }
    r->tok[n] = '\0';
    return n > 0;
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

static int number(reader *r, double *v)
{
    if (!next(r))
        return 0;
    char *end;
    errno = 0;
    *v = strtod(r->tok, &end);
    return *end == '\0' && end != r->tok && isfinite(*v) && !errno;
}

static cloth_status read_joint(reader *r, cloth__clip *c, int parent, int end_site, int depth,
                               cloth_error *err);

static const char *const channel_names[6] = {"Xposition", "Yposition", "Zposition",
                                             "Xrotation", "Yrotation", "Zrotation"};

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
            double n;
            if (!number(r, &n) || (n != 3 && n != 6))
                return bad(r, err, "CHANNELS: expected a count of 3 or 6");
            cloth__bvh_joint *j = &c->joint[self];
            j->n_channels = (int)n;
            j->first = c->n_channels;
            c->n_channels += j->n_channels;
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
                j->channel[i] = found;
            }
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
    if (strlen(r->tok) >= CLOTH__JOINT_NAME)
        return bad(r, err, "joint name longer than 15 characters");
    if (c->n_joints >= CLOTH__BVH_MAX_JOINTS)
        return bad(r, err, "more than 64 joints");
    int self = c->n_joints++;
    cloth__bvh_joint *j = &c->joint[self];
    strcpy(j->name, r->tok);
    j->parent = parent;
    return read_body(r, c, self, err, depth);
}

static cloth_status read_motion(reader *r, cloth__clip *c, cloth_error *err)
{
    double n, dt;
    if (!expect(r, "MOTION"))
        return bad(r, err, "expected MOTION after the hierarchy");
    if (!expect(r, "Frames:"))
        return bad(r, err, "expected 'Frames:'");
    if (!number(r, &n) || n < 1 || n > CLOTH__BVH_MAX_FRAMES || n != floor(n))
        return bad(r, err, "Frames: expected a whole number from 1 to 100000");
    if (!expect(r, "Frame") || !expect(r, "Time:"))
        return bad(r, err, "expected 'Frame Time:'");
    if (!number(r, &dt) || !(dt > 0))
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
    reader r = {text, name, 1, "", 1};
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
    free(clip->data);
    memset(clip, 0, sizeof *clip);
}

cloth_status cloth__clip_bind(cloth__clip *clip, const cloth__skeleton *s, const char *name,
                              cloth_error *err)
{
    int matched = 0;
    for (int i = 0; i < clip->n_joints; i++) {
        clip->map[i] = cloth__skeleton_find(s, clip->joint[i].name);
        matched += clip->map[i] >= 0;
    }
    if (!matched)
        return cloth__fail(err, CLOTH_EINVAL, "%s: no joint of the clip has a name of the "
                           "mannequin's (pelvis, spine, chest, neck, head, l_shoulder, ...)",
                           name);
    return CLOTH_OK;
}

double cloth__clip_duration(const cloth__clip *clip)
{
    return clip->n_frames * clip->frame_time;
}

void cloth__clip_pose(const cloth__clip *clip, const cloth__skeleton *s, double t, double scale,
                      cloth__pose *pose)
{
    cloth__pose_rest(s, pose);
    if (clip->n_frames == 0)
        return;
    /* frame f0 and the fraction a towards f0 + 1 (the last frame runs into the first) */
    double u = t / clip->frame_time;
    u -= clip->n_frames * floor(u / clip->n_frames);
    int f0 = (int)u;
    if (f0 >= clip->n_frames)
        f0 = clip->n_frames - 1;
    double a = u - f0;
    int f1 = clip->n_frames == 1 ? f0 : (f0 + 1) % clip->n_frames;
    const double *r0 = clip->data + (size_t)f0 * clip->n_channels;
    const double *r1 = clip->data + (size_t)f1 * clip->n_channels;
    for (int i = 0; i < clip->n_joints; i++) {
        const cloth__bvh_joint *j = &clip->joint[i];
        int sj = clip->map[i];
        if (sj < 0)
            continue;
        double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        for (int c = 0; c < j->n_channels; c++) {
            double v = (1 - a) * r0[j->first + c] + a * r1[j->first + c];
            int ch = j->channel[c];
            if (ch < 3) {
                if (j->parent < 0)
                    pose->root[ch] = scale * (v - j->offset[ch]);
            } else {
                double B[9];
                cloth__rot_basic(ch - 3, v * M_PI / 180, B);
                cloth__mat_mul(R, B, R);
            }
        }
        memcpy(pose->rot[sj], R, sizeof R);
    }
}
