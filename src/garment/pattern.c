/*
 * Pattern files (docs/garments.md has the format): JSON read with cJSON, then checked
 * as a whole so that every error names the file, the panel and the edge:
 *   FILE: panel "front": edge 3 ("waist"): crosses edge 1 ("side"): ...
 * Outlines come from the file ("outline": [[u, v], ...], cm) or from an SVG file
 * ("svg": "front.svg", "svg_scale": cm per SVG unit): its first <polygon>, <polyline> or
 * straight-segment <path> (M/L/H/V/Z and their relative forms; transforms ignored).
 */
#include "garment/pattern.h"
#include "core/status.h"
#include "garment/delaunay.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILE_BYTES (16 << 20)

/* A whole file as text, or NULL with err filled. */
static char *read_text(const char *path, cloth_error *err, cloth_status *st)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        *st = cloth__fail(err, CLOTH_EIO, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    while (text) {
        size_t got = fread(text + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
        if (len + 1 == cap) {
            if (cap > MAX_FILE_BYTES) {
                free(text);
                fclose(f);
                *st = cloth__fail(err, CLOTH_EPARSE, "%s: larger than %d bytes", path,
                                  MAX_FILE_BYTES);
                return NULL;
            }
            char *more = realloc(text, 2 * cap);
            if (!more) {
                free(text);
                text = NULL;
                break;
            }
            text = more;
            cap *= 2;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (!text) {
        *st = cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory", path);
        return NULL;
    }
    if (bad) {
        free(text);
        *st = cloth__fail(err, CLOTH_EIO, "%s: cannot read", path);
        return NULL;
    }
    text[len] = '\0';
    return text;
}

double cloth__panel_edges_length(const cloth__panel *p, int first, int last)
{
    double l = 0;
    for (int e = first;; e = (e + 1) % p->n) {
        const double *a = p->xy + 2 * e, *b = p->xy + 2 * ((e + 1) % p->n);
        l += hypot(b[0] - a[0], b[1] - a[1]);
        if (e == last)
            break;
    }
    return l;
}

void cloth__pattern_free(cloth__pattern *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->n_panels; i++) {
        free(p->panels[i].xy);
        free(p->panels[i].edge);
    }
    free(p->panels);
    free(p->seams);
    free(p);
}

/* ---------------------------------------------------------------------- SVG */

/* The value of attribute name inside the tag starting at tag (up to its '>'), or NULL;
 * *len gets its length. */
static const char *svg_attribute(const char *tag, const char *name, size_t *len)
{
    const char *end = strchr(tag, '>');
    size_t n = strlen(name);
    for (const char *p = tag; p && (!end || p < end); p++) {
        p = strstr(p, name);
        if (!p || (end && p >= end))
            return NULL;
        if (!isspace((unsigned char)p[-1]))
            continue;
        const char *q = p + n;
        while (isspace((unsigned char)*q))
            q++;
        if (*q != '=')
            continue;
        q++;
        while (isspace((unsigned char)*q))
            q++;
        if (*q != '"' && *q != '\'')
            continue;
        const char *close = strchr(q + 1, *q);
        if (!close)
            return NULL;
        *len = (size_t)(close - q - 1);
        return q + 1;
    }
    return NULL;
}

static int push_corner(double **xy, int *n, int *cap, double x, double y)
{
    if (*n == *cap) {
        int c = *cap ? 2 * *cap : 32;
        double *p = realloc(*xy, sizeof(double) * 2 * (size_t)c);
        if (!p)
            return 1;
        *xy = p;
        *cap = c;
    }
    (*xy)[2 * *n] = x;
    (*xy)[2 * *n + 1] = y;
    (*n)++;
    return 0;
}

/* Next number in s (skipping white space and commas); 0 when none. */
static int next_number(const char **s, const char *end, double *v)
{
    while (*s < end && (isspace((unsigned char)**s) || **s == ','))
        (*s)++;
    if (*s >= end)
        return 0;
    char *stop;
    *v = strtod(*s, &stop);
    if (stop == *s || stop > end)
        return 0;
    *s = stop;
    return 1;
}

/* Corners of a path's d attribute: straight segments only. */
static int svg_path(const char *d, size_t len, double scale, double **xy, int *n, int *cap,
                    char *why, size_t why_size)
{
    const char *s = d, *end = d + len;
    double x = 0, y = 0;
    char cmd = 0;
    int subpaths = 0;
    for (;;) {
        while (s < end && (isspace((unsigned char)*s) || *s == ','))
            s++;
        if (s >= end)
            break;
        if (isalpha((unsigned char)*s)) {
            cmd = *s++;
            if (cmd == 'Z' || cmd == 'z')
                continue;
            if (!strchr("MmLlHhVv", cmd)) {
                snprintf(why, why_size, "path command '%c': only straight segments "
                         "(M, L, H, V, Z) are read; flatten curves in the drawing program",
                         cmd);
                return 1;
            }
            if (cmd == 'M' || cmd == 'm') {
                if (++subpaths > 1) {
                    snprintf(why, why_size, "a second subpath (M): an outline is one closed "
                             "polygon");
                    return 1;
                }
            }
        }
        if (!cmd) {
            snprintf(why, why_size, "path data does not start with a command");
            return 1;
        }
        double a, b = 0;
        if (!next_number(&s, end, &a) ||
            (strchr("MmLl", cmd) && !next_number(&s, end, &b))) {
            snprintf(why, why_size, "path command '%c': expected numbers", cmd);
            return 1;
        }
        int rel = islower((unsigned char)cmd);
        switch (cmd) {
        case 'M': case 'm': case 'L': case 'l':
            x = rel ? x + a : a;
            y = rel ? y + b : b;
            break;
        case 'H': case 'h':
            x = rel ? x + a : a;
            break;
        default:
            y = rel ? y + a : a;
            break;
        }
        if (cmd == 'M')
            cmd = 'L'; /* further pairs after a moveto are linetos */
        if (cmd == 'm')
            cmd = 'l';
        if (push_corner(xy, n, cap, scale * x, scale * y)) {
            snprintf(why, why_size, "out of memory");
            return 1;
        }
    }
    return 0;
}

cloth_status cloth__svg_outline(const char *path, double scale, double **out, int *n_out,
                                cloth_error *err)
{
    cloth_status st;
    char *text = read_text(path, err, &st);
    if (!text)
        return st;
    const char *tag = NULL;
    static const char *const tags[] = {"<polygon", "<polyline", "<path"};
    for (int i = 0; i < 3; i++) {
        const char *t = strstr(text, tags[i]);
        if (t && (!tag || t < tag))
            tag = t;
    }
    double *xy = NULL;
    int n = 0, cap = 0;
    char why[256] = "";
    size_t len = 0;
    const char *value;
    if (!tag) {
        snprintf(why, sizeof why, "no <polygon>, <polyline> or <path>");
    } else if (strncmp(tag, "<path", 5) == 0) {
        value = svg_attribute(tag, "d", &len);
        if (!value)
            snprintf(why, sizeof why, "<path> without d=\"...\"");
        else
            svg_path(value, len, scale, &xy, &n, &cap, why, sizeof why);
    } else {
        value = svg_attribute(tag, "points", &len);
        if (!value) {
            snprintf(why, sizeof why, "%.9s without points=\"...\"", tag);
        } else {
            const char *s = value, *end = value + len;
            double x, y;
            while (next_number(&s, end, &x)) {
                if (!next_number(&s, end, &y)) {
                    snprintf(why, sizeof why, "points: an odd count of numbers");
                    break;
                }
                if (push_corner(&xy, &n, &cap, scale * x, scale * y)) {
                    snprintf(why, sizeof why, "out of memory");
                    break;
                }
            }
        }
    }
    if (tag && !why[0]) {
        long line = 1;
        for (const char *c = text; c < tag; c++)
            line += *c == '\n';
        /* a closing corner repeating the first is the same corner */
        if (n > 1 && xy[0] == xy[2 * n - 2] && xy[1] == xy[2 * n - 1])
            n--;
        if (n < 3)
            snprintf(why, sizeof why, "line %ld: %d corners: an outline needs 3 or more",
                     line, n);
    }
    free(text);
    if (why[0]) {
        free(xy);
        return cloth__fail(err, CLOTH_EPARSE, "%s: %s", path, why);
    }
    *out = xy;
    *n_out = n;
    return CLOTH_OK;
}

/* ------------------------------------------------------------------- checks */

static int segments_cross(const double *a, const double *b, const double *c, const double *d)
{
    int o1 = cloth__orient(a, b, c), o2 = cloth__orient(a, b, d);
    int o3 = cloth__orient(c, d, a), o4 = cloth__orient(c, d, b);
    if (o1 * o2 > 0 || o3 * o4 > 0)
        return 0;
    if (o1 == 0 && o2 == 0) /* collinear: do their extents overlap? */
        for (int k = 0; k < 2; k++)
            if (fmax(a[k], b[k]) < fmin(c[k], d[k]) || fmax(c[k], d[k]) < fmin(a[k], b[k]))
                return 0;
    return 1;
}

#define EDGE_FMT "edge %d (\"%s\")"

static cloth_status check_outline(const cloth__pattern *pt, const cloth__panel *p,
                                  cloth_error *err)
{
    for (int i = 0; i < p->n; i++) {
        const double *a = p->xy + 2 * i, *b = p->xy + 2 * ((i + 1) % p->n);
        if (!(hypot(b[0] - a[0], b[1] - a[1]) > 0))
            return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": " EDGE_FMT ": has zero "
                               "length (corners %d and %d coincide)", pt->source, p->name, i,
                               p->edge[i], i, (i + 1) % p->n);
    }
    for (int i = 0; i < p->n; i++)
        for (int j = i + 1; j < p->n; j++) {
            const double *a = p->xy + 2 * i, *b = p->xy + 2 * ((i + 1) % p->n);
            const double *c = p->xy + 2 * j, *d = p->xy + 2 * ((j + 1) % p->n);
            int adjacent = j == i + 1 || (i == 0 && j == p->n - 1);
            /* neighbours share a corner; they cross only by folding back onto each other */
            if (adjacent) {
                const double *o = j == i + 1 ? a : c, *m = j == i + 1 ? b : a,
                             *q = j == i + 1 ? d : b;
                if (cloth__orient(o, m, q) != 0 ||
                    (q[0] - m[0]) * (o[0] - m[0]) + (q[1] - m[1]) * (o[1] - m[1]) <= 0)
                    continue;
            } else if (!segments_cross(a, b, c, d)) {
                continue;
            }
            return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": " EDGE_FMT ": crosses "
                               EDGE_FMT ": the outline intersects itself", pt->source, p->name,
                               i, p->edge[i], j, p->edge[j]);
        }
    return CLOTH_OK;
}

/* ------------------------------------------------------------------- reading */

/* 1-based line of position pos in text. */
static int line_of(const char *text, const char *pos)
{
    int line = 1;
    for (const char *c = text; c < pos && *c; c++)
        line += *c == '\n';
    return line;
}

static int get_number(const cJSON *obj, const char *key, double def, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        *out = def;
        return 0;
    }
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return 1;
    *out = v->valuedouble;
    return 0;
}

static int copy_name(char *dst, const cJSON *v)
{
    if (!cJSON_IsString(v) || !v->valuestring[0] ||
        strlen(v->valuestring) >= CLOTH_PATTERN_NAME)
        return 1;
    strcpy(dst, v->valuestring);
    return 0;
}

/* The folder of name joined with rel, unless rel is absolute. */
static void beside(const char *name, const char *rel, char *buf, size_t size)
{
    const char *slash = strrchr(name, '/');
    if (rel[0] == '/' || !slash)
        snprintf(buf, size, "%s", rel);
    else
        snprintf(buf, size, "%.*s/%s", (int)(slash - name), name, rel);
}

static cloth_status read_placement(const cloth__pattern *pt, cloth__panel *p,
                                   const cJSON *pl, cloth_error *err)
{
    cloth__placement *d = &p->place;
    d->axis = 1;
    d->axis_sign = 1;
    if (!pl)
        return CLOTH_OK;
    if (!cJSON_IsObject(pl))
        return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": placement: expected an object",
                           pt->source, p->name);
    const cJSON *bone = cJSON_GetObjectItemCaseSensitive(pl, "bone");
    if (bone && copy_name(d->bone, bone))
        return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": placement: bone: expected a "
                           "name of 1 to %d characters", pt->source, p->name,
                           CLOTH_PATTERN_NAME - 1);
    if (d->bone[0])
        d->axis = -1; /* the bone's own, unless axis says -bone */
    const cJSON *off = cJSON_GetObjectItemCaseSensitive(pl, "offset");
    if (off) {
        if (!cJSON_IsArray(off) || cJSON_GetArraySize(off) != 3)
            return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": placement: offset: "
                               "expected [x, y, z] in cm", pt->source, p->name);
        for (int k = 0; k < 3; k++) {
            const cJSON *c = cJSON_GetArrayItem(off, k);
            if (!cJSON_IsNumber(c) || !isfinite(c->valuedouble))
                return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": placement: offset: "
                                   "expected [x, y, z] in cm", pt->source, p->name);
            d->offset[k] = c->valuedouble;
        }
    }
    if (get_number(pl, "at", 0, &d->at))
        return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": placement: at: expected cm "
                           "along the bone", pt->source, p->name);
    if (!d->bone[0] && cJSON_GetObjectItemCaseSensitive(pl, "at"))
        return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": placement: at: needs a bone",
                           pt->source, p->name);
    if (get_number(pl, "radius", 0, &d->radius) || d->radius < 0)
        return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": placement: radius: expected "
                           "a number >= 0 (cm; 0 = flat)", pt->source, p->name);
    if (get_number(pl, "angle", 0, &d->angle))
        return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": placement: angle: expected "
                           "degrees", pt->source, p->name);
    const cJSON *axis = cJSON_GetObjectItemCaseSensitive(pl, "axis");
    if (axis) {
        static const char *const names[] = {"x", "y", "z", "-x", "-y", "-z", "bone", "-bone"};
        int k = -1;
        for (int i = 0; i < 8 && cJSON_IsString(axis); i++)
            if (strcmp(axis->valuestring, names[i]) == 0)
                k = i;
        if (d->bone[0] && k < 6)
            return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": placement: axis: with a "
                               "bone, expected bone or -bone", pt->source, p->name);
        if (!d->bone[0] && (k < 0 || k >= 6))
            return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": placement: axis: expected "
                               "one of x, y, z, -x, -y, -z", pt->source, p->name);
        d->axis = k < 6 ? k % 3 : -1;
        d->axis_sign = k < 3 || k == 6 ? 1 : -1;
    }
    return CLOTH_OK;
}

static cloth_status read_panel(cloth__pattern *pt, cloth__panel *p, const cJSON *j, int index,
                               cloth_error *err)
{
    if (!cJSON_IsObject(j) || copy_name(p->name, cJSON_GetObjectItemCaseSensitive(j, "name")))
        return cloth__fail(err, CLOTH_EINVAL, "%s: panel %d: expected an object with a \"name\" "
                           "of 1 to %d characters", pt->source, index, CLOTH_PATTERN_NAME - 1);
    for (int i = 0; i < index; i++)
        if (strcmp(pt->panels[i].name, p->name) == 0)
            return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": a second panel of that name",
                               pt->source, p->name);
    const cJSON *outline = cJSON_GetObjectItemCaseSensitive(j, "outline");
    const cJSON *svg = cJSON_GetObjectItemCaseSensitive(j, "svg");
    if (!outline == !svg)
        return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": give either \"outline\" "
                           "([[u, v], ...] in cm) or \"svg\" (a file)", pt->source, p->name);
    if (svg) {
        double scale;
        if (!cJSON_IsString(svg) || get_number(j, "svg_scale", 1, &scale) || !(scale > 0))
            return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": svg: expected a file name "
                               "and an svg_scale > 0 (cm per SVG unit)", pt->source, p->name);
        char path[2 * CLOTH_PATH_MAX];
        beside(pt->source, svg->valuestring, path, sizeof path);
        cloth_error e2;
        cloth_status st = cloth__svg_outline(path, scale, &p->xy, &p->n, &e2);
        if (st != CLOTH_OK)
            return cloth__fail(err, st, "%s: panel \"%s\": svg: %s", pt->source, p->name, e2.msg);
    } else {
        int n = cJSON_IsArray(outline) ? cJSON_GetArraySize(outline) : 0;
        if (n < 3)
            return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": outline: expected 3 or more "
                               "corners [u, v] (cm)", pt->source, p->name);
        p->xy = malloc(sizeof(double) * 2 * (size_t)n);
        if (!p->xy)
            return cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory", pt->source);
        p->n = n;
        for (int i = 0; i < n; i++) {
            const cJSON *c = cJSON_GetArrayItem(outline, i);
            const cJSON *u = cJSON_GetArrayItem(c, 0), *v = cJSON_GetArrayItem(c, 1);
            if (!cJSON_IsArray(c) || cJSON_GetArraySize(c) != 2 || !cJSON_IsNumber(u) ||
                !cJSON_IsNumber(v) || !isfinite(u->valuedouble) || !isfinite(v->valuedouble))
                return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": outline: corner %d: "
                                   "expected [u, v] (cm)", pt->source, p->name, i);
            p->xy[2 * i] = u->valuedouble;
            p->xy[2 * i + 1] = v->valuedouble;
        }
    }
    const cJSON *edges = cJSON_GetObjectItemCaseSensitive(j, "edges");
    if (!cJSON_IsArray(edges) || cJSON_GetArraySize(edges) != p->n)
        return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": edges: the outline has %d "
                           "edges (edge i from corner i to i+1): expected %d names, got %d",
                           pt->source, p->name, p->n, p->n,
                           cJSON_IsArray(edges) ? cJSON_GetArraySize(edges) : 0);
    p->edge = calloc((size_t)p->n, sizeof *p->edge);
    if (!p->edge)
        return cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory", pt->source);
    for (int i = 0; i < p->n; i++) {
        if (copy_name(p->edge[i], cJSON_GetArrayItem(edges, i)))
            return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": edge %d: expected a name "
                               "of 1 to %d characters", pt->source, p->name, i,
                               CLOTH_PATTERN_NAME - 1);
        for (int k = 0; k < i; k++)
            if (strcmp(p->edge[k], p->edge[i]) == 0)
                return cloth__fail(err, CLOTH_EINVAL, "%s: panel \"%s\": " EDGE_FMT ": the name "
                                   "of edge %d too", pt->source, p->name, i, p->edge[i], k);
    }
    cloth_status st = check_outline(pt, p, err);
    if (st != CLOTH_OK)
        return st;
    return read_placement(pt, p, cJSON_GetObjectItemCaseSensitive(j, "placement"), err);
}

static int find_edge(const cloth__panel *p, const char *name)
{
    for (int i = 0; i < p->n; i++)
        if (strcmp(p->edge[i], name) == 0)
            return i;
    return -1;
}

/* One side: ["panel", "edge"] or ["panel", "first edge", "last edge"]. */
static cloth_status read_side(const cloth__pattern *pt, const cJSON *j, int seam, char which,
                              cloth__seam_side *side, cloth_error *err)
{
    int n = cJSON_IsArray(j) ? cJSON_GetArraySize(j) : 0;
    for (int i = 0; i < n; i++)
        if (!cJSON_IsString(cJSON_GetArrayItem(j, i)))
            n = 0;
    if (n != 2 && n != 3)
        return cloth__fail(err, CLOTH_EINVAL, "%s: seam %d: %c: expected [\"panel\", \"edge\"] "
                           "or [\"panel\", \"first edge\", \"last edge\"]", pt->source, seam, which);
    const char *panel = cJSON_GetArrayItem(j, 0)->valuestring;
    side->panel = -1;
    for (int i = 0; i < pt->n_panels; i++)
        if (strcmp(pt->panels[i].name, panel) == 0)
            side->panel = i;
    if (side->panel < 0)
        return cloth__fail(err, CLOTH_EINVAL, "%s: seam %d: %c: no panel \"%s\"", pt->source, seam,
                           which, panel);
    const cloth__panel *p = &pt->panels[side->panel];
    int ends[2];
    for (int k = 0; k < 2; k++) {
        const char *e = cJSON_GetArrayItem(j, k + 1 < n ? k + 1 : 1)->valuestring;
        ends[k] = find_edge(p, e);
        if (ends[k] < 0)
            return cloth__fail(err, CLOTH_EINVAL, "%s: seam %d: %c: panel \"%s\" has no edge "
                               "\"%s\"", pt->source, seam, which, p->name, e);
    }
    side->first = ends[0];
    side->last = ends[1];
    return CLOTH_OK;
}

static cloth_status read_pattern(cloth__pattern *pt, const cJSON *root, cloth_error *err)
{
    if (!cJSON_IsObject(root))
        return cloth__fail(err, CLOTH_EINVAL, "%s: expected a JSON object", pt->source);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
    if (cJSON_IsString(name))
        snprintf(pt->name, sizeof pt->name, "%s", name->valuestring);
    if (get_number(root, "edge_length", 2, &pt->edge_length) || !(pt->edge_length > 0))
        return cloth__fail(err, CLOTH_EINVAL, "%s: edge_length: expected a number > 0 (cm)",
                           pt->source);
    if (get_number(root, "seam_tolerance", 0.5, &pt->seam_tolerance) || pt->seam_tolerance < 0)
        return cloth__fail(err, CLOTH_EINVAL, "%s: seam_tolerance: expected a number >= 0 (cm)",
                           pt->source);
    const cJSON *panels = cJSON_GetObjectItemCaseSensitive(root, "panels");
    int n = cJSON_IsArray(panels) ? cJSON_GetArraySize(panels) : 0;
    if (n < 1)
        return cloth__fail(err, CLOTH_EINVAL, "%s: panels: expected a list of 1 or more panels",
                           pt->source);
    pt->panels = calloc((size_t)n, sizeof *pt->panels);
    if (!pt->panels)
        return cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory", pt->source);
    for (int i = 0; i < n; i++) {
        pt->n_panels = i + 1;
        cloth_status st = read_panel(pt, &pt->panels[i], cJSON_GetArrayItem(panels, i), i, err);
        if (st != CLOTH_OK)
            return st;
    }
    const cJSON *seams = cJSON_GetObjectItemCaseSensitive(root, "seams");
    if (seams && !cJSON_IsArray(seams))
        return cloth__fail(err, CLOTH_EINVAL, "%s: seams: expected a list", pt->source);
    int m = seams ? cJSON_GetArraySize(seams) : 0;
    pt->seams = calloc((size_t)m + 1, sizeof *pt->seams);
    if (!pt->seams)
        return cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory", pt->source);
    for (int i = 0; i < m; i++) {
        const cJSON *s = cJSON_GetArrayItem(seams, i);
        cloth__seam *sm = &pt->seams[i];
        if (!cJSON_IsObject(s))
            return cloth__fail(err, CLOTH_EINVAL, "%s: seam %d: expected an object with a, b",
                               pt->source, i);
        cloth_status st = read_side(pt, cJSON_GetObjectItemCaseSensitive(s, "a"), i, 'a',
                                    &sm->a, err);
        if (st == CLOTH_OK)
            st = read_side(pt, cJSON_GetObjectItemCaseSensitive(s, "b"), i, 'b', &sm->b, err);
        if (st != CLOTH_OK)
            return st;
        const cJSON *rev = cJSON_GetObjectItemCaseSensitive(s, "reverse");
        if (rev && !cJSON_IsBool(rev))
            return cloth__fail(err, CLOTH_EINVAL, "%s: seam %d: reverse: expected true or false",
                               pt->source, i);
        sm->reverse = cJSON_IsTrue(rev);
        const cloth__panel *pa = &pt->panels[sm->a.panel], *pb = &pt->panels[sm->b.panel];
        sm->length_a = cloth__panel_edges_length(pa, sm->a.first, sm->a.last);
        sm->length_b = cloth__panel_edges_length(pb, sm->b.first, sm->b.last);
        if (fabs(sm->length_a - sm->length_b) > pt->seam_tolerance)
            return cloth__fail(err, CLOTH_EINVAL, "%s: seam %d: panel \"%s\": " EDGE_FMT ": "
                               "%.3g cm long, but panel \"%s\" " EDGE_FMT " is %.3g cm: they "
                               "differ by more than seam_tolerance = %g cm", pt->source, i,
                               pa->name, sm->a.first, pa->edge[sm->a.first], sm->length_a,
                               pb->name, sm->b.first, pb->edge[sm->b.first], sm->length_b,
                               pt->seam_tolerance);
        if (sm->a.panel == sm->b.panel && sm->a.first == sm->b.first)
            return cloth__fail(err, CLOTH_EINVAL, "%s: seam %d: panel \"%s\": " EDGE_FMT ": "
                               "sewn to itself", pt->source, i, pa->name, sm->a.first,
                               pa->edge[sm->a.first]);
        pt->n_seams = i + 1;
    }
    return CLOTH_OK;
}

cloth_status cloth__pattern_parse(const char *text, const char *name, cloth__pattern **out,
                                  cloth_error *err)
{
    *out = NULL;
    cloth__pattern *pt = calloc(1, sizeof *pt);
    if (!pt)
        return cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory", name);
    snprintf(pt->source, sizeof pt->source, "%s", name);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (!root) {
        int line = line_of(text, end ? end : text);
        cloth__pattern_free(pt);
        return cloth__fail(err, CLOTH_EPARSE, "%s:%d: not JSON (cJSON stopped here)", name, line);
    }
    cloth_status st = read_pattern(pt, root, err);
    cJSON_Delete(root);
    if (st != CLOTH_OK) {
        cloth__pattern_free(pt);
        return st;
    }
    *out = pt;
    return CLOTH_OK;
}

cloth_status cloth__pattern_load(const char *path, cloth__pattern **out, cloth_error *err)
{
    cloth_status st;
    *out = NULL;
    char *text = read_text(path, err, &st);
    if (!text)
        return st;
    st = cloth__pattern_parse(text, path, out, err);
    free(text);
    return st;
}
