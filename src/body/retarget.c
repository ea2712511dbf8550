/* Retargeting a clip onto a body (retarget.h): paths, rest alignments, units, and the
 * pose at a time. */
#include "body/retarget.h"
#include "core/status.h"

#include <math.h>
#include <string.h>

void cloth__rot_slerp(const double R0[9], const double R1[9], double a, double R[9])
{
    if (a == 0) {
        memcpy(R, R0, sizeof(double) * 9);
        return;
    }
    double D[9], axis[3], turn[9];
    cloth__mat_tmul(R0, R1, D); /* R0^T R1, turned through a of its angle */
    double angle = cloth__rot_angle(D, axis);
    cloth__rot_axis_angle(axis, a * angle, turn);
    cloth__mat_mul(R0, turn, R);
}

/* The shortest rotation taking the direction of c to that of b (the rotation about
 * c x b by the angle between them; about any axis normal to c when they are opposite);
 * 0 when it is the identity or either is zero. */
static int shortest_arc(const double c[3], const double b[3], double A[9])
{
    double lc = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    double lb = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
    if (!(lc > 1e-12) || !(lb > 1e-12))
        return 0;
    double u[3] = {c[0] / lc, c[1] / lc, c[2] / lc}, v[3] = {b[0] / lb, b[1] / lb, b[2] / lb};
    double w[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                   u[0] * v[1] - u[1] * v[0]};
    double s = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    double cs = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    double angle = atan2(s, cs);
    if (s < 1e-12) {
        if (cs > 0)
            return 0;
        angle = M_PI;
        /* opposite: about u x e, e the world axis along which u is least */
        double e[3] = {0, 0, 0};
        e[fabs(u[0]) < fabs(u[1]) ? (fabs(u[0]) < fabs(u[2]) ? 0 : 2)
                                  : (fabs(u[1]) < fabs(u[2]) ? 1 : 2)] = 1;
        w[0] = u[1] * e[2] - u[2] * e[1];
        w[1] = u[2] * e[0] - u[0] * e[2];
        w[2] = u[0] * e[1] - u[1] * e[0];
        s = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    }
    double axis[3] = {w[0] / s, w[1] / s, w[2] / s};
    cloth__rot_axis_angle(axis, angle, A);
    return 1;
}

/* Is clip joint a an ancestor of b (or b itself)? */
static int clip_above(const cloth__clip *clip, int a, int b)
{
    for (; b >= 0; b = clip->joint[b].parent)
        if (b == a)
            return 1;
    return 0;
}

/* The clip path folded into body joint j: the clip joints below m(p) down to m(j), p
 * the nearest mapped body ancestor (none: from the clip's root). */
static cloth_status make_path(cloth__retarget *rt, const cloth__clip *clip,
                              const cloth__joint_map *map, const cloth__skeleton *s, int j,
                              const char *clip_name, cloth_error *err)
{
    int m = map->clip_joint[j], p = s->joint[j].parent;
    while (p >= 0 && map->clip_joint[p] < 0)
        p = s->joint[p].parent;
    int top = p >= 0 ? map->clip_joint[p] : -1;
    if (top >= 0 && (top == m || !clip_above(clip, top, m)))
        return cloth__fail(err, CLOTH_EINVAL, "%s: body joint %s's clip joint %s is not "
                           "below %s's (%s) in the clip", clip_name, s->joint[j].name,
                           clip->joint[m].name, s->joint[p].name, clip->joint[top].name);
    int rev[CLOTH__RETARGET_PATH], n = 0;
    for (int k = m; k != top; k = clip->joint[k].parent) {
        if (n == CLOTH__RETARGET_PATH)
            return cloth__fail(err, CLOTH_EINVAL, "%s: more than %d clip joints between "
                               "body joint %s and the mapped one above it", clip_name,
                               CLOTH__RETARGET_PATH, s->joint[j].name);
        rev[n++] = k;
    }
    rt->n_path[j] = n;
    for (int i = 0; i < n; i++)
        rt->path[j][i] = rev[n - 1 - i];
    return CLOTH_OK;
}

/* c_j: body joint j's bone in the clip's rest pose (retarget.h). */
static void clip_bone(const cloth__clip *clip, const cloth__joint_map *map,
                      const cloth__body *body, int j, double (*pos)[3], double (*end)[3],
                      double c[3])
{
    const cloth__skeleton *s = &body->skel;
    int m = map->clip_joint[j];
    for (int k = 0; k < s->n; k++) {
        double d = 0;
        for (int i = 0; i < 3; i++)
            d += fabs(s->rest[k][i] - body->tip[j][i]);
        if (s->joint[k].parent == j && d < 1e-9 && map->clip_joint[k] >= 0) {
            for (int i = 0; i < 3; i++)
                c[i] = pos[map->clip_joint[k]][i] - pos[m][i];
            return;
        }
    }
    /* a leaf of the body (wrist, head, ankle): the mean of the clip's children */
    double sum[3] = {0, 0, 0};
    int n = 0;
    for (int k = m + 1; k < clip->n_joints; k++)
        if (clip->joint[k].parent == m) {
            for (int i = 0; i < 3; i++)
                sum[i] += pos[k][i];
            n++;
        }
    if (clip->joint[m].has_end) {
        for (int i = 0; i < 3; i++)
            sum[i] += end[m][i];
        n++;
    }
    for (int i = 0; i < 3; i++)
        c[i] = n ? sum[i] / n - pos[m][i] : 0;
}

cloth_status cloth__retarget_bind(cloth__retarget *rt, const cloth__clip *clip,
                                  const cloth__joint_map *map, const cloth__body *body,
                                  double scale, double motion_scale, int keep_root_offset,
                                  const char *clip_name, cloth_error *err)
{
    static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const cloth__skeleton *s = &body->skel;
    memset(rt, 0, sizeof *rt);
    snprintf(rt->naming, sizeof rt->naming, "%s", map->naming);
    rt->own = map->own;
    double pos[CLOTH__BVH_MAX_JOINTS][3], end[CLOTH__BVH_MAX_JOINTS][3];
    cloth__clip_rest(clip, pos, end);
    for (int j = 0; j < s->n; j++) {
        memcpy(rt->A[j], I, sizeof I);
        if (map->clip_joint[j] < 0)
            continue;
        cloth_status st = make_path(rt, clip, map, s, j, clip_name, err);
        if (st != CLOTH_OK)
            return st;
        if (!rt->own) {
            double c[3], b[3];
            clip_bone(clip, map, body, j, pos, end, c);
            for (int i = 0; i < 3; i++)
                b[i] = body->tip[j][i] - s->rest[j][i];
            rt->aligned[j] = shortest_arc(c, b, rt->A[j]);
        }
    }
    /* units: the hip heights, the root above the lowest joint or bone end, at rest */
    int root = map->clip_joint[0] >= 0 ? map->clip_joint[0] : 0;
    double low_body = HUGE_VAL, low_clip = HUGE_VAL;
    for (int j = 0; j < s->n; j++)
        low_body = fmin(low_body, fmin(s->rest[j][1], body->tip[j][1]));
    for (int i = 0; i < clip->n_joints; i++)
        low_clip = fmin(low_clip, fmin(pos[i][1], end[i][1]));
    double h_body = s->rest[0][1] - low_body, h_clip = pos[root][1] - low_clip;
    if (motion_scale > 0)
        rt->units = motion_scale;
    else if (rt->own)
        rt->units = scale;
    else if (h_clip > 0 && h_body > 0)
        rt->units = h_body / h_clip;
    else
        return cloth__fail(err, CLOTH_EINVAL, "%s: the clip's rest pose has no height "
                           "below its root %s (its legs?): set avatar.motion_scale (body "
                           "metres a clip unit)", clip_name, clip->joint[root].name);
    /* the root: T = s v + shift, and the first frame's horizontal T taken away */
    double v[3];
    rt->moves_root = clip->n_frames > 0 && cloth__clip_position(clip, 0, 0, v);
    if (!rt->moves_root)
        return CLOTH_OK;
    if (rt->own)
        memset(rt->shift, 0, sizeof rt->shift);
    else
        for (int k = 0; k < 3; k++)
            rt->shift[k] = (k == 1 ? low_body : 0) - s->rest[0][k];
    if (!keep_root_offset) {
        double T0[3];
        for (int k = 0; k < 3; k += 2) {
            T0[k] = rt->own ? rt->units * (v[k] - clip->joint[0].offset[k])
                            : rt->units * v[k] + rt->shift[k];
            rt->shift[k] -= T0[k];
        }
    }
    return CLOTH_OK;
}

void cloth__retarget_pose(const cloth__retarget *rt, const cloth__clip *clip,
                          const cloth__skeleton *s, double t, cloth__pose *pose)
{
    cloth__pose_rest(s, pose);
    if (clip->n_frames == 0)
        return;
    int f0, f1;
    double a;
    cloth__clip_frame_at(clip, t, &f0, &f1, &a);
    for (int j = 0; j < s->n; j++) {
        if (rt->n_path[j] == 0)
            continue;
        double Q[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        for (int i = 0; i < rt->n_path[j]; i++) {
            int k = rt->path[j][i];
            if (clip->joint[k].n_channels == 0)
                continue;
            double R0[9], R1[9], R[9];
            cloth__clip_rotation(clip, k, f0, R0);
            if (a > 0) {
                cloth__clip_rotation(clip, k, f1, R1);
                cloth__rot_slerp(R0, R1, a, R);
            } else {
                memcpy(R, R0, sizeof R);
            }
            if (i == 0)
                memcpy(Q, R, sizeof Q);
            else
                cloth__mat_mul(Q, R, Q);
        }
        if (rt->aligned[j]) {
            double AQ[9];
            cloth__mat_mul(rt->A[j], Q, AQ);
            /* A Q A^T = (A (A Q)^T)^T */
            double B[9];
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++)
                    B[3 * r + c] = AQ[3 * r] * rt->A[j][3 * c] +
                                   AQ[3 * r + 1] * rt->A[j][3 * c + 1] +
                                   AQ[3 * r + 2] * rt->A[j][3 * c + 2];
            memcpy(pose->rot[j], B, sizeof B);
        } else {
            memcpy(pose->rot[j], Q, sizeof Q);
        }
    }
    if (!rt->moves_root)
        return;
    double v0[3], v1[3];
    cloth__clip_position(clip, 0, f0, v0);
    cloth__clip_position(clip, 0, f1, v1);
    for (int k = 0; k < 3; k++) {
        double v = a > 0 ? (1 - a) * v0[k] + a * v1[k] : v0[k];
        pose->root[k] = rt->own ? rt->units * (v - clip->joint[0].offset[k]) + rt->shift[k]
                                : rt->units * v + rt->shift[k];
    }
}
