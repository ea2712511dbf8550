/* A body from an OBJ surface and a BVH skeleton (body_file.h). */
#include "body/body_file.h"
#include "core/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- skeleton */

cloth_status cloth__body_skeleton(const cloth__clip *clip, const char *name, double scale,
                                  cloth__body *body, cloth_error *err)
{
    if (clip->n_joints > CLOTH__MAX_JOINTS)
        return cloth__fail(err, CLOTH_EINVAL, "%s: %d joints, at most %d", name,
                           clip->n_joints, CLOTH__MAX_JOINTS);
    for (int i = 0; i < clip->n_joints; i++) {
        const cloth__bvh_joint *j = &clip->joint[i];
        double off[3] = {scale * j->offset[0], scale * j->offset[1], scale * j->offset[2]};
        if (strlen(j->name) >= CLOTH__JOINT_NAME)
            return cloth__fail(err, CLOTH_EINVAL, "%s: joint '%.40s...': a body joint's name "
                               "has at most %d characters", name, j->name,
                               CLOTH__JOINT_NAME - 1);
        if (cloth__skeleton_add(&body->skel, j->name, j->parent, off, M_PI) != i)
            return cloth__fail(err, CLOTH_EINVAL, "%s: joint '%s' is named twice", name,
                               j->name);
    }
    const cloth__skeleton *s = &body->skel;
    for (int i = 0; i < s->n; i++) {
        int child = -1;
        for (int c = i + 1; c < s->n && child < 0; c++)
            if (s->joint[c].parent == i)
                child = c;
        const cloth__bvh_joint *j = &clip->joint[i];
        for (int k = 0; k < 3; k++)
            body->tip[i][k] = child >= 0 ? s->rest[child][k] : s->rest[i][k] + scale * j->end[k];
        if (child < 0 && !j->has_end) {
            /* a bare leaf: 5 cm on along its parent's direction (up for a lone root) */
            double d[3] = {0, 1, 0}, n = 0;
            if (j->parent >= 0)
                for (int k = 0; k < 3; k++) {
                    d[k] = s->rest[i][k] - s->rest[j->parent][k];
                    n += d[k] * d[k];
                }
            n = n > 0 ? sqrt(n) : 1;
            for (int k = 0; k < 3; k++)
                body->tip[i][k] = s->rest[i][k] + 0.05 * scale * d[k] / n;
        }
    }
    return CLOTH_OK;
}

/* ----------------------------------------------------------------- surface */

static int find_root(int *up, int v)
{
    while (up[v] != v) {
        up[v] = up[up[v]];
        v = up[v];
    }
    return v;
}

typedef struct edge {
    int lo, hi;                 /* its vertices, lo < hi                              */
    int forward;                /* 1: a face runs it lo -> hi                         */
} edge;

static int by_vertices(const void *pa, const void *pb)
{
    const edge *a = pa, *b = pb;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    return (a->hi > b->hi) - (a->hi < b->hi);
}

/* Every edge in exactly two faces, run in opposite directions. */
static cloth_status check_closed(const int *tris, int n_tris, const char *name, cloth_error *err)
{
    edge *e = malloc(sizeof *e * 3 * (size_t)n_tris);
    if (!e)
        return cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory for the edges", name);
    for (int t = 0; t < n_tris; t++)
        for (int k = 0; k < 3; k++) {
            int a = tris[3 * t + k], b = tris[3 * t + (k + 1) % 3];
            e[3 * t + k] = (edge){a < b ? a : b, a < b ? b : a, a < b};
        }
    qsort(e, 3 * (size_t)n_tris, sizeof *e, by_vertices);
    cloth_status st = CLOTH_OK;
    for (int i = 0; i < 3 * n_tris && st == CLOTH_OK;) {
        int m = 1;
        while (i + m < 3 * n_tris && by_vertices(&e[i], &e[i + m]) == 0)
            m++;
        if (m != 2)
            st = cloth__fail(err, CLOTH_EINVAL, "%s: the surface is not closed: the edge "
                             "between vertices %d and %d is in %d face%s (a body's surface "
                             "needs every edge in two)", name, e[i].lo + 1, e[i].hi + 1, m,
                             m == 1 ? "" : "s");
        else if (e[i].forward == e[i + 1].forward)
            st = cloth__fail(err, CLOTH_EINVAL, "%s: the two faces at the edge between "
                             "vertices %d and %d run it the same way (their orientations "
                             "disagree)", name, e[i].lo + 1, e[i].hi + 1);
        i += m;
    }
    free(e);
    return st;
}

/* Distance from p to the bone of joint j. */
static double bone_distance(const cloth__body *b, int j, const double p[3])
{
    return cloth__segment_distance(p, b->skel.rest[j], b->tip[j]);
}

/* w_j = (d_j + eps)^-4 over the 4 nearest bones, normalised, largest first. */
static void auto_weights(cloth__body *b)
{
    for (int i = 0; i < b->n_verts; i++) {
        int *jt = b->skin_joint + CLOTH__SKIN * i;
        double *wt = b->skin_weight + CLOTH__SKIN * i, sum = 0;
        for (int k = 0; k < CLOTH__SKIN; k++) {
            jt[k] = -1;
            wt[k] = 0;
        }
        for (int j = 0; j < b->skel.n; j++) {
            double d = bone_distance(b, j, b->verts + 3 * i) + 1e-6, w = 1 / (d * d * d * d);
            /* insert into the sorted list of the largest */
            int at = CLOTH__SKIN;
            while (at > 0 && (jt[at - 1] < 0 || wt[at - 1] < w))
                at--;
            if (at == CLOTH__SKIN)
                continue;
            for (int k = CLOTH__SKIN - 1; k > at; k--) {
                jt[k] = jt[k - 1];
                wt[k] = wt[k - 1];
            }
            jt[at] = j;
            wt[at] = w;
        }
        for (int k = 0; k < CLOTH__SKIN; k++)
            sum += wt[k];
        for (int k = 0; k < CLOTH__SKIN; k++)
            wt[k] /= sum;
    }
}

/* One capsule per bone with vertices skinned mainly to it: the bone, radius their mean
 * distance to it. */
static void estimate_capsules(cloth__body *b)
{
    double sum[CLOTH__MAX_JOINTS] = {0};
    int count[CLOTH__MAX_JOINTS] = {0};
    for (int i = 0; i < b->n_verts; i++) {
        int j = b->skin_joint[CLOTH__SKIN * i];
        sum[j] += bone_distance(b, j, b->verts + 3 * i);
        count[j]++;
    }
    b->n_caps = 0;
    for (int j = 0; j < b->skel.n; j++) {
        if (!count[j])
            continue;
        cloth__capsule *c = &b->cap[b->n_caps++];
        c->joint = j;
        memcpy(c->a, b->skel.rest[j], sizeof c->a);
        memcpy(c->b, b->tip[j], sizeof c->b);
        c->r = sum[j] / count[j];
    }
}

cloth_status cloth__body_adopt_surface(cloth__body *body, double *x, int n, int *tris,
                                       int n_tris, const char *name, cloth_error *err)
{
    body->verts = x;
    body->tris = tris;
    body->n_verts = n;
    body->n_tris = n_tris;
    body->caps_exact = 0;
    if (n_tris < 4)
        return cloth__fail(err, CLOTH_EINVAL, "%s: %d faces: a closed surface needs 4 or more",
                           name, n_tris);
    for (int t = 0; t < n_tris; t++) {
        const int *v = tris + 3 * t;
        if (v[0] == v[1] || v[1] == v[2] || v[2] == v[0])
            return cloth__fail(err, CLOTH_EINVAL, "%s: triangle %d repeats vertex %d", name,
                               t + 1, (v[0] == v[1] || v[0] == v[2] ? v[0] : v[1]) + 1);
    }
    cloth_status st = check_closed(tris, n_tris, name, err);
    if (st != CLOTH_OK)
        return st;
    int *up = malloc(sizeof(int) * (size_t)n), *part = malloc(sizeof(int) * (size_t)n_tris);
    int *sorted = malloc(sizeof(int) * 3 * (size_t)n_tris);
    body->skin_joint = malloc(sizeof(int) * CLOTH__SKIN * (size_t)n);
    body->skin_weight = malloc(sizeof(double) * CLOTH__SKIN * (size_t)n);
    if (!up || !part || !sorted || !body->skin_joint || !body->skin_weight) {
        st = cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory for the body", name);
        goto done;
    }
    /* the pieces: vertices joined by faces */
    for (int v = 0; v < n; v++)
        up[v] = v;
    for (int t = 0; t < n_tris; t++)
        for (int k = 1; k < 3; k++) {
            int a = find_root(up, tris[3 * t]), b = find_root(up, tris[3 * t + k]);
            up[a] = b;
        }
    int n_parts = 0;
    int *label = malloc(sizeof(int) * (size_t)n);
    if (!label) {
        st = cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory for the body", name);
        goto done;
    }
    for (int v = 0; v < n; v++)
        label[v] = -1;
    for (int t = 0; t < n_tris && st == CLOTH_OK; t++) {
        int r = find_root(up, tris[3 * t]);
        if (label[r] < 0) {
            if (n_parts == CLOTH__MAX_PARTS)
                st = cloth__fail(err, CLOTH_EINVAL, "%s: more than %d separate pieces", name,
                                 CLOTH__MAX_PARTS);
            label[r] = n_parts++;
        }
        part[t] = label[r];
    }
    free(label);
    if (st != CLOTH_OK)
        goto done;
    body->n_parts = n_parts;
    body->part_tri = calloc((size_t)n_parts + 1, sizeof(int));
    double *volume = calloc((size_t)n_parts, sizeof(double));
    if (!body->part_tri || !volume) {
        free(volume);
        st = cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory for the body", name);
        goto done;
    }
    /* signed volumes, sum a.(b x c)/6 over each piece's faces */
    for (int t = 0; t < n_tris; t++) {
        const double *a = x + 3 * tris[3 * t], *b = x + 3 * tris[3 * t + 1];
        const double *c = x + 3 * tris[3 * t + 2];
        volume[part[t]] += (a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] -
                            b[0] * c[2]) + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6;
        body->part_tri[part[t] + 1]++;
    }
    for (int c = 0; c < n_parts; c++)
        body->part_tri[c + 1] += body->part_tri[c];
    int *fill = up; /* the union-find is done with: next free slot of each part */
    for (int c = 0; c < n_parts; c++)
        fill[c] = body->part_tri[c];
    for (int t = 0; t < n_tris; t++) {
        int *to = sorted + 3 * fill[part[t]]++, flip = volume[part[t]] < 0;
        to[0] = tris[3 * t];
        to[1] = tris[3 * t + (flip ? 2 : 1)];
        to[2] = tris[3 * t + (flip ? 1 : 2)];
    }
    for (int c = 0; c < n_parts && st == CLOTH_OK; c++)
        if (!(fabs(volume[c]) > 0))
            st = cloth__fail(err, CLOTH_EINVAL, "%s: piece %d of the surface encloses no "
                             "volume", name, c + 1);
    free(volume);
    if (st != CLOTH_OK)
        goto done;
    memcpy(tris, sorted, sizeof(int) * 3 * (size_t)n_tris);
    auto_weights(body);
    estimate_capsules(body);
done:
    free(up);
    free(part);
    free(sorted);
    return st;
}

cloth_status cloth__body_from_files(const char *obj, const char *skel, double scale,
                                    cloth__body *body, cloth_error *err)
{
    memset(body, 0, sizeof *body);
    if (!(scale > 0) || !isfinite(scale))
        return cloth__fail(err, CLOTH_EINVAL, "scale %g: must be a positive number", scale);
    cloth__clip clip;
    cloth_status st = cloth__bvh_load_skeleton(skel, &clip, err);
    if (st != CLOTH_OK)
        return st;
    st = cloth__body_skeleton(&clip, skel, scale, body, err);
    cloth__clip_free(&clip);
    if (st != CLOTH_OK)
        return st;
    double *x;
    int n, *tris, n_tris;
    st = cloth_obj_read(obj, &x, &n, &tris, &n_tris, err);
    if (st != CLOTH_OK)
        return st;
    for (int i = 0; i < 3 * n; i++)
        x[i] *= scale;
    return cloth__body_adopt_surface(body, x, n, tris, n_tris, obj, err);
}
