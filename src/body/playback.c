/* A clip's playback from the run's start to its end (body/playback.h): blend-in, clip end,
 * loop detection and the body speed guard. */
#include "body/playback.h"

#include <math.h>
#include <string.h>

#define DEG (M_PI / 180)
#define BLEND_SAMPLES 64        /* samples of a blend at B = 1 for its largest speed   */

/* s(w) = w^2 (3 - 2 w) on [0, 1] */
static double smooth(double w)
{
    w = fmin(1, fmax(0, w));
    return w * w * (3 - 2 * w);
}

double cloth__playback_skin_step(const cloth__body *b, const cloth__xform *prev,
                                 const cloth__xform *now, int *joint)
{
    double best = 0;
    *joint = 0;
    for (int i = 0; i < b->n_verts; i++) {
        const double *y = b->verts + 3 * i;
        double d[3] = {0, 0, 0}, wmax = -1;
        int main = 0;
        for (int k = 0; k < CLOTH__SKIN; k++) {
            int j = b->skin_joint[CLOTH__SKIN * i + k];
            if (j < 0)
                continue;
            double w = b->skin_weight[CLOTH__SKIN * i + k], p[3], q[3];
            /* w (T_now y - T_prev y) */
            cloth__mat_vec(now[j].R, y, p);
            cloth__mat_vec(prev[j].R, y, q);
            for (int c = 0; c < 3; c++)
                d[c] += w * (p[c] + now[j].t[c] - q[c] - prev[j].t[c]);
            if (w > wmax)
                wmax = w, main = j;
        }
        double s = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (s > best)
            best = s, *joint = main;
    }
    return best;
}

void cloth__pose_between(const cloth__skeleton *sk, const cloth__pose *a, const cloth__pose *b,
                         double s, cloth__pose *out)
{
    if (s <= 0 || s >= 1) {
        *out = s <= 0 ? *a : *b;
        return;
    }
    *out = *a;
    for (int k = 0; k < 3; k++)
        out->root[k] = a->root[k] + s * (b->root[k] - a->root[k]);
    for (int j = 0; j < sk->n; j++) {
        double D[9], axis[3], turn[9];
        cloth__mat_tmul(a->rot[j], b->rot[j], D); /* R_a^T R_b */
        double angle = cloth__rot_angle(D, axis);
        if (angle == 0)
            continue;
        cloth__rot_axis_angle(axis, s * angle, turn);
        cloth__mat_mul(a->rot[j], turn, out->rot[j]);
    }
}

/* The clip's own pose at clip time u (the retargeting; loops after n frames). */
static void clip_pose(const cloth__playback *p, double u, cloth__pose *out)
{
    cloth__retarget_pose(p->rt, p->clip, &p->body->skel, u, out);
}

/* The largest joint turn between two poses (rad) and its joint. */
static double pose_gap(const cloth__skeleton *s, const cloth__pose *a, const cloth__pose *b,
                       int *joint)
{
    double best = 0;
    *joint = 0;
    for (int j = 0; j < s->n; j++) {
        double D[9], axis[3];
        cloth__mat_tmul(a->rot[j], b->rot[j], D);
        double g = cloth__rot_angle(D, axis);
        if (g > best)
            best = g, *joint = j;
    }
    return best;
}

/* Does the clip loop?  Its last pose against its first, root aside, within the larger of
 * 1 degree and twice the largest turn of a joint between neighbouring frames (at most 10
 * degrees). */
static void detect_loop(cloth__playback *p)
{
    const cloth__skeleton *s = &p->body->skel;
    int n = p->clip->n_frames, j;
    double ft = p->clip->frame_time, step = 0;
    cloth__pose a, b;
    clip_pose(p, 0, &a);
    for (int f = 1; f < n; f++) {
        clip_pose(p, f * ft, &b);
        step = fmax(step, pose_gap(s, &a, &b, &j));
        a = b;
    }
    p->loop_tol = fmin(10 * DEG, fmax(1 * DEG, 2 * step));
    p->loop_angle = pose_gap(s, &p->first, &p->last, &p->loop_joint);
    p->loops = p->loop_angle <= p->loop_tol;
}

/* The largest speed of a skin point (m/s) on the blend from a to b lasting 1 s. */
static double blend_speed(const cloth__playback *p, const cloth__pose *a, const cloth__pose *b)
{
    const cloth__skeleton *sk = &p->body->skel;
    cloth__xform xa[CLOTH__MAX_JOINTS], xb[CLOTH__MAX_JOINTS];
    cloth__pose q;
    cloth__skeleton_fk(sk, a, NULL, xa);
    double best = 0;
    int j;
    for (int i = 1; i <= BLEND_SAMPLES; i++) {
        cloth__pose_between(sk, a, b, smooth((double)i / BLEND_SAMPLES), &q);
        cloth__skeleton_fk(sk, &q, NULL, xb);
        best = fmax(best, cloth__playback_skin_step(p->body, xa, xb, &j) * BLEND_SAMPLES);
        memcpy(xa, xb, sizeof xa);
    }
    return best;
}

void cloth__playback_resolve(cloth__playback *p, double h)
{
    const cloth_avatar_def *def = p->def;
    p->h = h;
    p->max_step = def->max_skin_step < 0 ? def->offset : def->max_skin_step;
    p->has_clip = p->clip->n_frames > 1 && def->motion[0];
    p->blend_in = 0;
    p->auto_blend_in = 0;
    p->end = CLOTH_CLIP_END_LOOP;
    if (!p->has_clip)
        return;
    p->last_t = (p->clip->n_frames - 1) * p->clip->frame_time;
    clip_pose(p, 0, &p->first);
    clip_pose(p, p->last_t, &p->last);
    detect_loop(p);
    p->end = def->clip_end != CLOTH_CLIP_END_AUTO ? def->clip_end
             : p->loops                           ? CLOTH_CLIP_END_LOOP
                                                  : CLOTH_CLIP_END_HOLD;
    if (def->blend_in >= 0) {
        p->blend_in = def->blend_in;
        return;
    }
    /* the speed at B is the speed at B = 1 over B; aim at half the guard's bound */
    cloth__pose rest;
    cloth__pose_rest(&p->body->skel, &rest);
    p->auto_blend_in = h > 0;
    if (h > 0 && p->max_step > 0)
        p->blend_in = blend_speed(p, &rest, &p->first) / (0.5 * p->max_step / h);
}

void cloth__playback_pose(const cloth__playback *p, double t, cloth__pose *out)
{
    const cloth__skeleton *sk = &p->body->skel;
    double blend_time = p->def->blend_time;
    if (!p->has_clip) {
        *out = *p->fixed;
        return;
    }
    if (t < p->blend_in) {
        cloth__pose rest;
        cloth__pose_rest(sk, &rest);
        cloth__pose_between(sk, &rest, &p->first, smooth(t / p->blend_in), out);
        return;
    }
    double u = t - p->blend_in;
    if (p->end == CLOTH_CLIP_END_HOLD) {
        clip_pose(p, fmin(u, p->last_t), out);
    } else if (p->end == CLOTH_CLIP_END_BLEND) {
        double period = p->last_t + blend_time;
        u -= period * floor(u / period);
        if (u <= p->last_t || blend_time <= 0)
            clip_pose(p, u, out);
        else
            cloth__pose_between(sk, &p->last, &p->first, smooth((u - p->last_t) / blend_time),
                                out);
    } else {
        clip_pose(p, u, out);
    }
}

void cloth__playback_guard(cloth__playback *p, const cloth__xform *prev,
                           const cloth__xform *now, double t)
{
    int joint;
    double step = cloth__playback_skin_step(p->body, prev, now, &joint);
    p->seen = fmax(p->seen, step);
    if (step > p->max_step && !p->fired) {
        p->fired = 1;
        p->fired_t = t;
        p->fired_step = step;
        p->fired_joint = joint;
    }
}
