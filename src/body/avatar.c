/* The scene's avatar (avatar.h): built once at creation (mannequin, surface, cylinders,
 * field, clip), posed every step, queried by the kernels without allocating. */
#include "body/avatar.h"
#include "body/body_file.h"
#include "body/trisurf.h"
#include "core/status.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How far beyond the capsules the cylinders reach: the skin plus what a vertex may move
 * into the body within one step (a generous bound: 10 cm). */
#define REACH_MARGIN 0.10

/* The ellipsoids' margin beyond the offset: blended vertices near a joint leave their
 * bone's rigid frame by about this much in the clips' bends. */
#define ELLIPSOID_MARGIN 0.02

static double rest_distance(const double y[3], const void *ctx)
{
    return cloth__body_distance_rest(ctx, y, NULL);
}

static double surface_distance(const double y[3], const void *ctx)
{
    return cloth__trisurf_distance(ctx, y);
}

/* A file named in the scene, relative to the scene file's folder. */
static void scene_path(const char *source, const char *file, char *buf, size_t size)
{
    const char *slash = strrchr(source, '/');
    if (file[0] == '/' || !slash)
        snprintf(buf, size, "%s", file);
    else
        snprintf(buf, size, "%.*s/%s", (int)(slash - source), source, file);
}

/* The body: the mannequin, or avatar.model's OBJ with avatar.skeleton. */
static cloth_status make_body(cloth_avatar *av, const char *source, const char **key,
                              cloth_error *err)
{
    const cloth_avatar_def *def = &av->def;
    if (strcmp(def->model, "builtin") == 0) {
        if (def->skeleton[0]) {
            *key = "skeleton";
            return cloth__fail(err, CLOTH_EINVAL, "the builtin mannequin has its own skeleton "
                               "(avatar.skeleton goes with an OBJ avatar.model)");
        }
        cloth_status st = cloth__mannequin(def->scale, &av->body, err);
        return st == CLOTH_OK ? cloth__body_surface(&av->body, 24, err) : st;
    }
    if (!def->model[0])
        return cloth__fail(err, CLOTH_EINVAL, "empty: expected builtin or an OBJ file");
    if (!def->skeleton[0])
        return cloth__fail(err, CLOTH_EINVAL, "an OBJ body needs avatar.skeleton (a BVH file "
                           "whose HIERARCHY is its skeleton)");
    char obj[2 * CLOTH_PATH_MAX], skel[2 * CLOTH_PATH_MAX];
    scene_path(source, def->model, obj, sizeof obj);
    scene_path(source, def->skeleton, skel, sizeof skel);
    /* which file failed: the skeleton is read first */
    cloth__clip clip;
    cloth_status st = cloth__bvh_load_skeleton(skel, &clip, err);
    cloth__clip_free(&clip);
    if (st != CLOTH_OK) {
        *key = "skeleton";
        return st;
    }
    st = cloth__body_from_files(obj, skel, def->scale, &av->body, err);
    if (st != CLOTH_OK && strstr(err->msg, skel) == err->msg)
        *key = "skeleton";
    return st;
}

/* The rest-pose field: the mannequin's capsules (exact), an OBJ body's triangles. */
static cloth_status make_field(cloth_avatar *av, cloth_error *err)
{
    const cloth__body *b = &av->body;
    const cloth_avatar_def *def = &av->def;
    /* the rest body's box plus the reach on every side; sdf_resolution cells along its
     * tallest side */
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    if (b->caps_exact) {
        for (int c = 0; c < b->n_caps; c++)
            for (int k = 0; k < 3; k++) {
                const cloth__capsule *cp = &b->cap[c];
                lo[k] = fmin(lo[k], fmin(cp->a[k], cp->b[k]) - cp->r);
                hi[k] = fmax(hi[k], fmax(cp->a[k], cp->b[k]) + cp->r);
            }
    } else {
        for (int i = 0; i < b->n_verts; i++)
            for (int k = 0; k < 3; k++) {
                lo[k] = fmin(lo[k], b->verts[3 * i + k]);
                hi[k] = fmax(hi[k], b->verts[3 * i + k]);
            }
    }
    double pad = def->offset + REACH_MARGIN * def->scale, side = 0;
    for (int k = 0; k < 3; k++) {
        lo[k] -= pad;
        hi[k] += pad;
        side = fmax(side, hi[k] - lo[k]);
    }
    double h = side / def->sdf_resolution;
    if (b->caps_exact)
        return cloth__sdf_build(&av->sdf, lo, hi, h, rest_distance, b, err);
    cloth__trisurf ts;
    cloth_status st = cloth__trisurf_build(&ts, b->verts, b->tris, b->n_parts, b->part_tri, err);
    if (st == CLOTH_OK)
        st = cloth__sdf_build(&av->sdf, lo, hi, h, surface_distance, &ts, err);
    cloth__trisurf_free(&ts);
    return st;
}

/* The clip at path, its naming (avatar.joint_map, else recognised) and retargeting. */
static cloth_status load_clip(cloth_avatar *av, const char *source, const char *path,
                              cloth_error *err)
{
    const cloth_avatar_def *def = &av->def;
    cloth__joint_map map;
    cloth_status st = cloth__bvh_load(path, &av->clip, err);
    if (st == CLOTH_OK && def->joint_map[0]) {
        char file[2 * CLOTH_PATH_MAX];
        scene_path(source, def->joint_map, file, sizeof file);
        st = cloth__joint_map_load(file, &av->clip, &av->body.skel, &map, err);
    } else if (st == CLOTH_OK) {
        st = cloth__joint_map_recognise(&av->clip, &av->body.skel, path, &map, err);
    }
    if (st == CLOTH_OK)
        st = cloth__retarget_bind(&av->rt, &av->clip, &map, &av->body, def->scale,
                                  def->motion_scale, def->keep_root_offset, path, err);
    return st;
}

/* avatar.pose: a named pose, or a clip of one frame (then played as the motion). */
static cloth_status make_pose(cloth_avatar *av, const char *source, cloth_error *err)
{
    const char *name = av->def.pose;
    const cloth__skeleton *s = &av->body.skel;
    cloth__pose_rest(s, &av->fixed);
    if (!name[0] || strcmp(name, "t") == 0)
        return CLOTH_OK;
    if (av->def.motion[0])
        return cloth__fail(err, CLOTH_EINVAL, "'%s' and avatar.motion '%s': the motion poses "
                           "the body; set one of the two", name, av->def.motion);
    size_t len = strlen(name);
    if (len > 4 && strcmp(name + len - 4, ".bvh") == 0) {
        char path[2 * CLOTH_PATH_MAX];
        scene_path(source, name, path, sizeof path);
        cloth_status st = load_clip(av, source, path, err);
        if (st == CLOTH_OK && av->clip.n_frames != 1)
            st = cloth__fail(err, CLOTH_EINVAL, "%s: %d frames: a pose is one frame "
                             "(avatar.motion plays a clip)", path, av->clip.n_frames);
        return st;
    }
    /* the arms turned about the forward axis z from the T pose: down (a) or up */
    double deg = strcmp(name, "a") == 0 ? -45 : strcmp(name, "arms_raised") == 0 ? 60 : 0;
    if (deg == 0)
        return cloth__fail(err, CLOTH_EINVAL, "'%s': expected t, a, arms_raised or a .bvh "
                           "file of one frame", name);
    int l = cloth__skeleton_find(s, "l_shoulder"), r = cloth__skeleton_find(s, "r_shoulder");
    if (l < 0 || r < 0)
        return cloth__fail(err, CLOTH_EINVAL, "'%s' turns the joints l_shoulder and "
                           "r_shoulder, which this skeleton lacks", name);
    cloth__rot_basic(2, deg * M_PI / 180, av->fixed.rot[l]);
    cloth__rot_basic(2, -deg * M_PI / 180, av->fixed.rot[r]);
    return CLOTH_OK;
}

cloth_status cloth__avatar_create(const cloth_avatar_def *def, const char *source,
                                  cloth_avatar **out, const char **key, cloth_error *err)
{
    *out = NULL;
    *key = "model";
    cloth_avatar *av = calloc(1, sizeof *av);
    if (!av)
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory for the avatar");
    av->def = *def;
    av->ik_max_step = def->ik_max_step;
    cloth_status st = make_body(av, source, key, err);
    if (st != CLOTH_OK)
        goto fail;
    *key = "collision";
    cloth__bt_init(&av->bt, &av->body, def->offset + REACH_MARGIN * def->scale);
    av->skin = malloc(sizeof(double) * 3 * (size_t)av->body.n_verts);
    av->skin_sphere = malloc(sizeof(double) * 4 * (size_t)(av->body.n_parts + 1));
    if (!av->skin || !av->skin_sphere) {
        st = cloth__fail(err, CLOTH_ENOMEM, "out of memory for the avatar's surface");
        goto fail;
    }
    if (def->collision == CLOTH_AVATAR_SDF) {
        *key = "sdf_resolution";
        st = make_field(av, err);
        /* newton's per-part fields at the same spacing, reaching as far as the
         * cylinders */
        if (st == CLOTH_OK)
            st = cloth__partfields_build(&av->parts, &av->body, av->sdf.h,
                                         def->offset + REACH_MARGIN * def->scale, err);
    } else if (def->collision == CLOTH_AVATAR_ELLIPSOIDS) {
        st = cloth__ellipsoids_build(&av->ell, &av->body,
                                     def->offset + ELLIPSOID_MARGIN * def->scale, err);
    }
    if (st != CLOTH_OK)
        goto fail;
    *key = "pose";
    st = make_pose(av, source, err);
    if (st != CLOTH_OK)
        goto fail;
    if (def->motion[0]) {
        *key = "motion";
        char path[2 * CLOTH_PATH_MAX];
        scene_path(source, def->motion, path, sizeof path);
        st = load_clip(av, source, path, err);
        if (st != CLOTH_OK) {
            if (def->joint_map[0] && strstr(err->msg, def->joint_map))
                *key = "joint_map";
            goto fail;
        }
    }
    cloth__avatar_set_substep(av, 0);
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
    cloth__partfields_free(&av->parts);
    cloth__ellipsoids_free(&av->ell);
    cloth__clip_free(&av->clip);
    free(av->skin);
    free(av->skin_sphere);
    free(av);
}

static void pose_at(cloth_avatar *av, double t)
{
    av->t = t;
    if (av->posed_by_ik)
        return;
    if (av->clip.n_frames > 0 && !av->play.has_clip) /* a pose of one frame (avatar.pose) */
        cloth__retarget_pose(&av->rt, &av->clip, &av->body.skel, t, &av->pose);
    else
        cloth__playback_pose(&av->play, t, &av->pose);
}

void cloth__avatar_move(cloth_avatar *av, double t)
{
    av->prev = av->now;
    pose_at(av, t);
    cloth__bt_set_pose(&av->bt, &av->body, &av->pose, &av->now);
    if (av->def.collision == CLOTH_AVATAR_ELLIPSOIDS)
        cloth__avatar_skin(av); /* its triangles as posed */
    cloth__playback_guard(&av->play, av->prev.xf, av->now.xf, t);
}

void cloth__avatar_set_substep(cloth_avatar *av, double h)
{
    av->play.body = &av->body;
    av->play.clip = &av->clip;
    av->play.rt = &av->rt;
    av->play.def = &av->def;
    av->play.fixed = &av->fixed;
    cloth__playback_resolve(&av->play, h);
    cloth__avatar_reset(av, 0);
}

void cloth__avatar_reset(cloth_avatar *av, double t)
{
    av->posed_by_ik = 0;
    av->play.seen = 0;
    av->play.fired = 0;
    pose_at(av, t);
    cloth__bt_set_pose(&av->bt, &av->body, &av->pose, &av->now);
    av->prev = av->now;
    if (av->def.collision == CLOTH_AVATAR_ELLIPSOIDS)
        cloth__avatar_skin(av);
}

double cloth__avatar_distance(const cloth_avatar *av, const double x[3])
{
    return cloth__body_distance_posed(&av->body, av->now.xf, x);
}

void cloth__avatar_skin(cloth_avatar *av)
{
    const cloth__body *b = &av->body;
    for (int i = 0; i < b->n_verts; i++) {
        /* x = sum_k w_k (R_k y + t_k) */
        const double *y = b->verts + 3 * i;
        double *x = av->skin + 3 * i;
        x[0] = x[1] = x[2] = 0;
        for (int k = 0; k < CLOTH__SKIN; k++) {
            int j = b->skin_joint[CLOTH__SKIN * i + k];
            if (j < 0)
                continue;
            double w = b->skin_weight[CLOTH__SKIN * i + k], r[3];
            const cloth__xform *T = &av->now.xf[j];
            cloth__mat_vec(T->R, y, r);
            for (int c = 0; c < 3; c++)
                x[c] += w * (r[c] + T->t[c]);
        }
    }
    /* each part's bounding sphere: the centre of its box, the farthest corner */
    for (int c = 0; c < b->n_parts; c++) {
        double *s = av->skin_sphere + 4 * c, r2 = 0;
        double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
        for (int t = 3 * b->part_tri[c]; t < 3 * b->part_tri[c + 1]; t++)
            for (int k = 0; k < 3; k++) {
                lo[k] = fmin(lo[k], av->skin[3 * b->tris[t] + k]);
                hi[k] = fmax(hi[k], av->skin[3 * b->tris[t] + k]);
            }
        for (int k = 0; k < 3; k++)
            s[k] = 0.5 * (lo[k] + hi[k]);
        for (int t = 3 * b->part_tri[c]; t < 3 * b->part_tri[c + 1]; t++) {
            const double *v = av->skin + 3 * b->tris[t];
            double e[3] = {v[0] - s[0], v[1] - s[1], v[2] - s[2]};
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

double cloth__avatar_skin_depth(const cloth_avatar *av, const double x[3])
{
    double off = av->def.offset;
    return fmax(0, off - cloth__body_surface_distance(&av->body, av->skin, av->skin_sphere,
                                                      off, x));
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

double cloth__avatar_distance_at(const cloth_avatar *av, const cloth__bt_pose *p,
                                 const double x[3], double grad[3])
{
    if (av->def.collision == CLOTH_AVATAR_SDF)
        return cloth__partfields_distance(&av->parts, p->xf, x, grad);
    double n[3];
    double d = capsules_at(av, p, x, n);
    if (grad)
        memcpy(grad, n, sizeof n);
    return d;
}

/* The rest field at y (a rest place the back-transform gave with weights w), read from
 * the fields of the flesh of the joints w names (partfields.h), not from the whole
 * body's: a zone's transform can carry a point to a rest place beside another part's
 * rest flesh (a phantom: a hem vertex between the legs of the walking body, assigned to
 * the forward thigh, lands beside the other thigh), where the whole field reports it
 * inside.  A point's zone is that of the flesh nearest it, so its own part's field (or
 * the two of a blend) is the one that measures it.  A joint without flesh of its own
 * falls back to the whole field, and so does a body whose capsules are not its flesh
 * (body.caps_exact 0, an OBJ body): its parts are its pieces by nearest bone or its
 * estimated capsules, not the skin the whole field measures (the exported mannequin's
 * cape went 15.4 mm into the skin with them, 9.5 mm with the whole field).  Gradient
 * (at rest) in g. */
static double zone_distance(const cloth_avatar *av, const cloth__bt_weights *w,
                            const double y[3], double g[3])
{
    if (!av->body.caps_exact)
        return cloth__sdf_sample(&av->sdf, y, g);
    double best = HUGE_VAL;
    for (int i = 0; i < w->n; i++) {
        int k = 0;
        while (k < av->parts.n && av->parts.joint[k] != w->joint[i])
            k++;
        if (k == av->parts.n)
            return cloth__sdf_sample(&av->sdf, y, g);
        double gk[3], d = cloth__sdf_sample(&av->parts.f[k], y, gk);
        if (d < best) {
            best = d;
            memcpy(g, gk, sizeof gk);
        }
    }
    return best;
}

double cloth__avatar_field(const cloth_avatar *av, const double x[3], double grad[3])
{
    double n[3], d;
    if (av->def.collision == CLOTH_AVATAR_CAPSULES) {
        d = capsule_query(av, x, n);
    } else if (av->def.collision == CLOTH_AVATAR_ELLIPSOIDS) {
        d = cloth__ellipsoids_query(&av->ell, &av->body, av->skin, av->now.xf, x, n, NULL);
    } else {
        cloth__bt_weights w;
        if (cloth__bt_weights_of(&av->bt, &av->now, x, &w) == 0)
            return HUGE_VAL;
        double y[3], g[3];
        cloth__bt_to_rest(&av->now, &w, x, y);
        d = zone_distance(av, &w, y, g);
        cloth__bt_direction_to_pose(&av->now, &w, g, n);
    }
    if (grad && d != HUGE_VAL)
        memcpy(grad, n, sizeof n);
    return d;
}

void cloth__avatar_pose_between(const cloth_avatar *av, const cloth__pose *a,
                                const cloth__pose *b, double s, cloth__pose *out)
{
    cloth__pose_between(&av->body.skel, a, b, s, out);
}

int cloth__avatar_push_out(const cloth_avatar *av, double x[3], double normal[3])
{
    return cloth__avatar_push_out_to(av, x, av->def.offset, normal);
}

int cloth__avatar_push_out_to(const cloth_avatar *av, double x[3], double off, double normal[3])
{
    if (av->def.collision != CLOTH_AVATAR_SDF) {
        /* capsules, or the ellipsoids' triangles: exact distance and direction */
        double d = av->def.collision == CLOTH_AVATAR_CAPSULES
                       ? capsule_query(av, x, normal)
                       : cloth__ellipsoids_query(&av->ell, &av->body, av->skin, av->now.xf, x,
                                                 normal, NULL);
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
    double d = zone_distance(av, &w, y, g);
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

int cloth__avatar_motion_note(const cloth_avatar *av, double dt, char *buf, size_t size)
{
    const cloth__clip *c = &av->clip;
    const cloth__playback *p = &av->play;
    if (c->n_frames == 0 || !av->def.motion[0])
        return 0;
    static const char *const ends[] = {"auto", "hold", "loop", "blend"};
    const char *joint = av->body.skel.joint[p->loop_joint].name;
    char why[256];
    if (av->def.clip_end != CLOTH_CLIP_END_AUTO)
        snprintf(why, sizeof why, "avatar.clip_end; the clip %s: its last pose is %.3g deg "
                 "from its first at %s, tolerance %.3g deg", p->loops ? "loops" : "does not "
                 "loop", p->loop_angle * 180 / M_PI, joint, p->loop_tol * 180 / M_PI);
    else
        snprintf(why, sizeof why, "the clip %s: its last pose is %.3g deg from its first at "
                 "%s, tolerance %.3g deg", p->loops ? "loops" : "does not loop",
                 p->loop_angle * 180 / M_PI, joint, p->loop_tol * 180 / M_PI);
    snprintf(buf, size, "avatar: %s: clip end %s (%s); blend-in %.3g s from the rest pose%s; "
             "%s names, %d frames at %.6g fps (%.6g s): %.6g clip frames a simulated "
             "second, %.6g a frame of %.6g s; %.6g body m a clip unit", av->def.motion,
             ends[p->end], why, p->blend_in, p->auto_blend_in ? " (auto)" : "",
             av->rt.naming, c->n_frames, 1 / c->frame_time, cloth__clip_duration(c),
             1 / c->frame_time, dt / c->frame_time, dt, av->rt.units);
    return 1;
}

long cloth__avatar_run_frames(const cloth_avatar *av, double dt)
{
    const cloth__playback *p = &av->play;
    double t = p->blend_in + cloth__clip_duration(&av->clip) +
               (p->end == CLOTH_CLIP_END_HOLD ? 1 : 0);
    return (long)ceil(t / dt - 1e-9);
}

int cloth__avatar_guard_note(const cloth_avatar *av, double dt, char *buf, size_t size)
{
    const cloth__playback *p = &av->play;
    if (!p->fired)
        return 0;
    snprintf(buf, size, "avatar: body speed guard: frame %ld (t = %.6g s): a skin point of "
             "joint %s moved %.3g mm in one substep of %.3g s, over avatar.max_skin_step "
             "%.3g mm: the cloth cannot follow it (a jump in the clip? avatar.clip_end, "
             "avatar.blend_in)", (long)ceil(p->fired_t / dt - 1e-9), p->fired_t,
             av->body.skel.joint[p->fired_joint].name, p->fired_step * 1e3, p->h,
             p->max_step * 1e3);
    return 1;
}
