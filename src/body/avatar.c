/* The scene's avatar (avatar.h): built once at creation (mannequin, surface, cylinders,
 * field, clip), posed every step, queried by the kernels without allocating. */
#include "body/avatar.h"
#include "core/status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How far beyond the capsules the cylinders reach: the skin plus what a vertex may move
 * into the body within one step (a generous bound: 10 cm). */
#define REACH_MARGIN 0.10

static double rest_distance(const double y[3], const void *ctx)
{
    return cloth__body_distance_rest(ctx, y, NULL);
}

/* The motion file relative to the scene file's folder. */
static void motion_path(const char *source, const char *file, char *buf, size_t size)
{
    const char *slash = strrchr(source, '/');
    if (file[0] == '/' || !slash)
        snprintf(buf, size, "%s", file);
    else
        snprintf(buf, size, "%.*s/%s", (int)(slash - source), source, file);
}

cloth_status cloth__avatar_create(const cloth_avatar_def *def, const char *source,
                                  cloth_avatar **out, cloth_error *err)
{
    *out = NULL;
    cloth_avatar *av = calloc(1, sizeof *av);
    if (!av)
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory for the avatar");
    av->def = *def;
    av->ik_max_step = def->ik_max_step;
    cloth_status st = cloth__mannequin(def->scale, &av->body, err);
    if (st == CLOTH_OK)
        st = cloth__body_surface(&av->body, 24, err);
    if (st != CLOTH_OK)
        goto fail;
    cloth__bt_init(&av->bt, &av->body, def->offset + REACH_MARGIN * def->scale);
    av->skin = malloc(sizeof(double) * 3 * (size_t)av->body.n_verts);
    av->skin_sphere = malloc(sizeof(double) * 4 * (size_t)av->body.n_caps);
    if (!av->skin || !av->skin_sphere) {
        st = cloth__fail(err, CLOTH_ENOMEM, "out of memory for the avatar's surface");
        goto fail;
    }
    if (def->collision == CLOTH_AVATAR_SDF) {
        /* the rest body's box plus the reach on every side; sdf_resolution cells along
         * its tallest side */
        double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
        for (int c = 0; c < av->body.n_caps; c++)
            for (int k = 0; k < 3; k++) {
                const cloth__capsule *cp = &av->body.cap[c];
                lo[k] = fmin(lo[k], fmin(cp->a[k], cp->b[k]) - cp->r);
                hi[k] = fmax(hi[k], fmax(cp->a[k], cp->b[k]) + cp->r);
            }
        double pad = def->offset + REACH_MARGIN * def->scale, side = 0;
        for (int k = 0; k < 3; k++) {
            lo[k] -= pad;
            hi[k] += pad;
            side = fmax(side, hi[k] - lo[k]);
        }
        st = cloth__sdf_build(&av->sdf, lo, hi, side / def->sdf_resolution, rest_distance,
                              &av->body, err);
        if (st != CLOTH_OK)
            goto fail;
    }
    if (def->motion[0]) {
        char path[2 * CLOTH_PATH_MAX];
        motion_path(source, def->motion, path, sizeof path);
        st = cloth__bvh_load(path, &av->clip, err);
        if (st == CLOTH_OK)
            st = cloth__clip_bind(&av->clip, &av->body.skel, path, err);
        if (st != CLOTH_OK)
            goto fail;
    }
    cloth__avatar_reset(av, 0);
    *out = av;
    return CLOTH_OK;
fail:
    cloth__avatar_destroy(av);
    return st;
}

void cloth__avatar_destroy(cloth_avatar *av)
{
    if (!av)
        return;
    cloth__body_free(&av->body);
    cloth__sdf_free(&av->sdf);
    cloth__clip_free(&av->clip);
    free(av->skin);
    free(av->skin_sphere);
    free(av);
}

static void pose_at(cloth_avatar *av, double t)
{
    if (av->posed_by_ik)
        return;
    if (av->clip.n_frames > 0)
        cloth__clip_pose(&av->clip, &av->body.skel, t, av->def.scale, &av->pose);
    else
        cloth__pose_rest(&av->body.skel, &av->pose);
}

void cloth__avatar_move(cloth_avatar *av, double t)
{
    av->prev = av->now;
    pose_at(av, t);
    cloth__bt_set_pose(&av->bt, &av->body, &av->pose, &av->now);
}

void cloth__avatar_reset(cloth_avatar *av, double t)
{
    av->posed_by_ik = 0;
    pose_at(av, t);
    cloth__bt_set_pose(&av->bt, &av->body, &av->pose, &av->now);
    av->prev = av->now;
}

double cloth__avatar_distance(const cloth_avatar *av, const double x[3])
{
    return cloth__body_distance_posed(&av->body, av->now.xf, x);
}

void cloth__avatar_skin(cloth_avatar *av)
{
    const cloth__body *b = &av->body;
    for (int i = 0; i < b->n_verts; i++) {
        cloth__bt_weights w = {0, {0, 0}, {0, 0}};
        for (int k = 0; k < 2; k++)
            if (b->skin_joint[2 * i + k] >= 0) {
                w.joint[w.n] = b->skin_joint[2 * i + k];
                w.w[w.n++] = b->skin_weight[2 * i + k];
            }
        cloth__bt_to_pose(&av->now, &w, b->verts + 3 * i, av->skin + 3 * i);
    }
    for (int c = 0; c < b->n_caps; c++) {
        double *s = av->skin_sphere + 4 * c, r2 = 0;
        const double *v = av->skin + 3 * (size_t)c * b->verts_per_cap;
        s[0] = s[1] = s[2] = 0;
        for (int i = 0; i < b->verts_per_cap; i++)
            for (int k = 0; k < 3; k++)
                s[k] += v[3 * i + k] / b->verts_per_cap;
        for (int i = 0; i < b->verts_per_cap; i++) {
            double e[3] = {v[3 * i] - s[0], v[3 * i + 1] - s[1], v[3 * i + 2] - s[2]};
            r2 = fmax(r2, e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
        }
        s[3] = sqrt(r2);
    }
}

double cloth__avatar_surface_distance(const cloth_avatar *av, const double x[3])
{
    return cloth__body_surface_distance(&av->body, av->skin, av->skin_sphere,
                                        av->def.offset + 0.05 * av->def.scale, x);
}

double cloth__avatar_field(const cloth_avatar *av, const double x[3], double grad[3])
{
    cloth__bt_weights w;
    if (cloth__bt_weights_of(&av->bt, &av->now, x, &w) == 0)
        return HUGE_VAL;
    double y[3], g[3];
    cloth__bt_to_rest(&av->now, &w, x, y);
    double d = cloth__sdf_sample(&av->sdf, y, g);
    if (grad)
        cloth__bt_direction_to_pose(&av->now, &w, g, grad);
    return d;
}

/* The nearest of p's capsules: its signed distance from x and outward unit normal. */
static double capsules_at(const cloth_avatar *av, const cloth__bt_pose *p, const double x[3],
                          double n[3])
{
    double best = HUGE_VAL;
    for (int c = 0; c < av->body.n_caps; c++) {
        const double *a = p->cap_a[c], *b = p->cap_b[c];
        double ab[3], ax[3], ll = 0, s = 0;
        for (int k = 0; k < 3; k++) {
            ab[k] = b[k] - a[k];
            ax[k] = x[k] - a[k];
            ll += ab[k] * ab[k];
            s += ab[k] * ax[k];
        }
        s = ll > 0 ? fmin(1, fmax(0, s / ll)) : 0;
        double e[3], r = 0;
        for (int k = 0; k < 3; k++) {
            e[k] = ax[k] - s * ab[k];
            r += e[k] * e[k];
        }
        r = sqrt(r);
        if (r - av->body.cap[c].r < best) {
            best = r - av->body.cap[c].r;
            for (int k = 0; k < 3; k++)
                n[k] = r > 0 ? e[k] / r : (k == 1);
        }
    }
    return best;
}

/* collision = capsules: the nearest posed capsule's distance and outward normal. */
static double capsule_query(const cloth_avatar *av, const double x[3], double n[3])
{
    return capsules_at(av, &av->now, x, n);
}

/* The field's distance at x's rest place in pose p (HUGE_VAL outside every cylinder),
 * with the weights it used and the field's rest gradient. */
static double field_at(const cloth_avatar *av, const cloth__bt_pose *p, const double x[3],
                       cloth__bt_weights *w, double g[3])
{
    if (cloth__bt_weights_of(&av->bt, p, x, w) == 0)
        return HUGE_VAL;
    double y[3];
    cloth__bt_to_rest(p, w, x, y);
    return cloth__sdf_sample(&av->sdf, y, g);
}

/* Central differences' step (m): small against the field's cells and the blend zones,
 * large against rounding of distances of order 1 m. */
#define GRAD_STEP 1e-6

double cloth__avatar_distance_at(const cloth_avatar *av, const cloth__bt_pose *p,
                                 const double x[3], double grad[3])
{
    double n[3] = {0, 0, 0}, g[3], d = HUGE_VAL;
    cloth__bt_weights w;
    if (av->def.collision == CLOTH_AVATAR_SDF)
        d = field_at(av, p, x, &w, g);
    if (d == HUGE_VAL) {
        d = capsules_at(av, p, x, n);
    } else if (grad && (w.n == 1 || w.w[0] == 1 || w.w[1] == 1)) {
        /* rigid: d(R^T (x - t)), gradient R grad f */
        cloth__mat_vec(p->xf[w.joint[w.n == 1 || w.w[0] == 1 ? 0 : 1]].R, g, n);
    } else if (grad) {
        /* a blend: y = sum w_k(x) T_k^-1 x, whose Jacobian has the weights' gradients
         * too (the carried normal sum w_k R_k grad f misses them, by O(1) at a bent
         * joint), so the gradient of what the kernels see is taken by differences */
        for (int k = 0; k < 3; k++) {
            double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]}, gg[3];
            cloth__bt_weights ww;
            xp[k] += GRAD_STEP;
            xm[k] -= GRAD_STEP;
            double fp = field_at(av, p, xp, &ww, gg), fm = field_at(av, p, xm, &ww, gg);
            n[k] = fp == HUGE_VAL || fm == HUGE_VAL ? 0 : (fp - fm) / (2 * GRAD_STEP);
        }
    }
    if (grad)
        memcpy(grad, n, sizeof n);
    return d;
}

void cloth__avatar_pose_between(const cloth_avatar *av, const cloth__pose *a,
                                const cloth__pose *b, double s, cloth__pose *out)
{
    if (s <= 0 || s >= 1) {
        *out = s <= 0 ? *a : *b;
        return;
    }
    *out = *a;
    for (int k = 0; k < 3; k++)
        out->root[k] = a->root[k] + s * (b->root[k] - a->root[k]);
    for (int j = 0; j < av->body.skel.n; j++) {
        double D[9], axis[3], turn[9];
        cloth__mat_tmul(a->rot[j], b->rot[j], D); /* R_a^T R_b */
        double angle = cloth__rot_angle(D, axis);
        if (angle == 0)
            continue;
        cloth__rot_axis_angle(axis, s * angle, turn);
        cloth__mat_mul(a->rot[j], turn, out->rot[j]);
    }
}

int cloth__avatar_push_out(const cloth_avatar *av, double x[3], double normal[3])
{
    return cloth__avatar_push_out_to(av, x, av->def.offset, normal);
}

int cloth__avatar_push_out_to(const cloth_avatar *av, double x[3], double off, double normal[3])
{
    if (av->def.collision == CLOTH_AVATAR_CAPSULES) {
        double d = capsule_query(av, x, normal);
        if (d >= off)
            return 0;
        for (int k = 0; k < 3; k++)
            x[k] += (off - d) * normal[k];
        return 1;
    }
    cloth__bt_weights w;
    if (cloth__bt_weights_of(&av->bt, &av->now, x, &w) == 0)
        return 0;
    double y[3], g[3];
    cloth__bt_to_rest(&av->now, &w, x, y);
    double d = cloth__sdf_sample(&av->sdf, y, g);
    if (d >= off)
        return 0;
    /* the field's gradient has length about 1 (the interpolant of a distance); along
     * it the rest point reaches the skin after (offset - d)/|g| */
    double gl = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    if (!(gl > 1e-12))
        return 0; /* on the medial axis: no direction out; the next step decides */
    cloth__bt_direction_to_pose(&av->now, &w, g, normal);
    for (int k = 0; k < 3; k++)
        x[k] += (off - d) / gl * normal[k];
    return 1;
}

void cloth__avatar_velocity(const cloth_avatar *av, const double x[3], double h, double v[3])
{
    cloth__bt_weights w;
    v[0] = v[1] = v[2] = 0;
    if (cloth__bt_weights_of(&av->bt, &av->now, x, &w) == 0)
        return;
    double y[3], xp[3];
    cloth__bt_to_rest(&av->now, &w, x, y);
    cloth__bt_to_pose(&av->prev, &w, y, xp);
    for (int k = 0; k < 3; k++)
        v[k] = (x[k] - xp[k]) / h;
}

/* ------------------------------------------------ the surface for viewers */

int cloth_avatar_surface_size(const cloth_avatar *av, const int **tris, int *n_tris)
{
    if (tris)
        *tris = av->body.tris;
    if (n_tris)
        *n_tris = av->body.n_tris;
    return av->body.n_verts;
}

void cloth_avatar_surface(cloth_avatar *av, double *out)
{
    cloth__avatar_skin(av);
    memcpy(out, av->skin, sizeof(double) * 3 * (size_t)av->body.n_verts);
}

cloth_status cloth_avatar_joint(const cloth_avatar *av, const char *joint, double pos[3],
                                cloth_error *err)
{
    int j = cloth__skeleton_find(&av->body.skel, joint);
    if (j < 0)
        return cloth__fail(err, CLOTH_EINVAL, "avatar: no joint called '%s'", joint);
    double p[CLOTH__MAX_JOINTS][3];
    cloth__skeleton_fk(&av->body.skel, &av->pose, p, NULL);
    memcpy(pos, p[j], sizeof p[j]);
    return CLOTH_OK;
}
