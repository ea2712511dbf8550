/* CCD inverse kinematics (ik.h) and the avatar's IK with its per-step bound. */
#include "body/avatar.h"
#include "body/ik.h"
#include "core/status.h"
#include "terms/vec3.h"

#include <math.h>
#include <string.h>

void cloth__rot_clamp(double R[9], double limit)
{
    double axis[3];
    double a = cloth__rot_angle(R, axis);
    if (a > limit)
        cloth__rot_axis_angle(axis, limit, R);
}

static double dist3(const double a[3], const double b[3])
{
    double d[3];
    cloth__sub(a, b, d);
    return cloth__norm(d);
}

/* World rotation of joint j under pose. */
static void world_rot(const cloth__skeleton *s, const cloth__pose *pose, int j, double W[9])
{
    static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    memcpy(W, I, sizeof I);
    int path[CLOTH__MAX_JOINTS], n = 0;
    for (int k = j; k >= 0; k = s->joint[k].parent)
        path[n++] = k;
    while (n--)
        cloth__mat_mul(W, pose->rot[path[n]], W);
}

int cloth__ik_ccd(const cloth__skeleton *s, cloth__pose *pose, int end, int chain,
                  const double target[3], int max_iter, double tol, double *dist)
{
    double pos[CLOTH__MAX_JOINTS][3];
    cloth__skeleton_fk(s, pose, pos, NULL);
    double d = dist3(pos[end], target);
    int sweeps = 0;
    while (d > tol && sweeps < max_iter) {
        sweeps++;
        int k = s->joint[end].parent;
        for (int c = 0; c < chain && k >= 0; c++, k = s->joint[k].parent) {
            double a[3], b[3], ax[3];
            for (int i = 0; i < 3; i++) {
                a[i] = pos[end][i] - pos[k][i];
                b[i] = target[i] - pos[k][i];
            }
            cloth__cross(a, b, ax);
            double sn = cloth__norm(ax), cs = cloth__dot(a, b);
            if (sn < 1e-15)
                continue; /* already on the line (or folded straight back) */
            for (int i = 0; i < 3; i++)
                ax[i] /= sn;
            double Q[9], Wp[9], L[9];
            cloth__rot_axis_angle(ax, atan2(sn, cs), Q);
            /* R_k <- Wp^T Q Wp R_k: the world turn Q expressed in the parent's frame */
            int p = s->joint[k].parent;
            if (p >= 0) {
                world_rot(s, pose, p, Wp);
                cloth__mat_tmul(Wp, Q, L);
                cloth__mat_mul(L, Wp, L);
            } else {
                memcpy(L, Q, sizeof L);
            }
            cloth__mat_mul(L, pose->rot[k], pose->rot[k]);
            cloth__rot_clamp(pose->rot[k], s->joint[k].limit);
            cloth__skeleton_fk(s, pose, pos, NULL);
        }
        d = dist3(pos[end], target);
    }
    if (dist)
        *dist = d;
    return sweeps;
}

/* ---------------------------------------------------------- the avatar's IK */

/* Each joint's rotation a fraction f of the way from a to b (about the axis of a^T b). */
static void pose_between(const cloth__skeleton *s, const cloth__pose *a, const cloth__pose *b,
                         double f, cloth__pose *out)
{
    for (int j = 0; j < s->n; j++) {
        double D[9], axis[3], S[9];
        cloth__mat_tmul(a->rot[j], b->rot[j], D);
        double ang = cloth__rot_angle(D, axis);
        cloth__rot_axis_angle(axis, f * ang, S);
        cloth__mat_mul(a->rot[j], S, out->rot[j]);
    }
    for (int k = 0; k < 3; k++)
        out->root[k] = a->root[k] + f * (b->root[k] - a->root[k]);
}

cloth_status cloth_avatar_ik(cloth_avatar *av, const char *joint, const double target[3],
                             int chain, cloth_ik_result *res, cloth_error *err)
{
    memset(res, 0, sizeof *res);
    const cloth__skeleton *s = &av->body.skel;
    int end = cloth__skeleton_find(s, joint);
    if (end < 0)
        return cloth__fail(err, CLOTH_EINVAL, "avatar IK: no joint called '%s'", joint);
    if (chain < 1 || !isfinite(target[0] + target[1] + target[2]))
        return cloth__fail(err, CLOTH_EINVAL, "avatar IK: chain %d must be >= 1 and the "
                           "target finite", chain);
    double pos[CLOTH__MAX_JOINTS][3], e0[3], goal[3], step = av->ik_max_step;
    cloth__skeleton_fk(s, &av->pose, pos, NULL);
    memcpy(e0, pos[end], sizeof e0);
    /* this step's goal: the target, or the point ik_max_step towards it */
    double far = dist3(target, e0);
    for (int k = 0; k < 3; k++)
        goal[k] = far > step ? e0[k] + step / far * (target[k] - e0[k]) : target[k];
    cloth__pose old = av->pose, solved = av->pose;
    double tol = CLOTH_IK_TOL;
    res->iterations = cloth__ik_ccd(s, &solved, end, chain, goal, CLOTH_IK_MAX_SWEEPS,
                                    far > step ? 0.1 * tol : tol, NULL);
    /* the effector may swing more than the straight step on its way: keep the largest
     * fraction of the way from the old pose whose effector stays within the step */
    cloth__skeleton_fk(s, &solved, pos, NULL);
    res->unreachable = dist3(pos[end], goal) > tol;
    double f = 1;
    if (dist3(pos[end], e0) > step) {
        double lo = 0, hi = 1;
        for (int it = 0; it < 50; it++) {
            double mid = 0.5 * (lo + hi);
            cloth__pose trial;
            pose_between(s, &old, &solved, mid, &trial);
            cloth__skeleton_fk(s, &trial, pos, NULL);
            if (dist3(pos[end], e0) <= step)
                lo = mid;
            else
                hi = mid;
        }
        f = lo;
        pose_between(s, &old, &solved, f, &av->pose);
    } else {
        av->pose = solved;
    }
    cloth__skeleton_fk(s, &av->pose, pos, NULL);
    res->moved = dist3(pos[end], e0);
    res->distance = dist3(pos[end], target);
    res->reached = res->distance <= tol;
    res->limited = far > step;
    for (int k = 0; k < 3; k++)
        res->effector[k] = pos[end][k];
    av->posed_by_ik = 1;
    return CLOTH_OK;
}
