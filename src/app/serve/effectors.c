/*
 * The body's joints a page may pull (effectors.h): the hands and feet, picked by a ray,
 * held by a page and pulled by IK towards the target its drags set, one call a frame.
 * The commands that lead here (grab, drag, release) and the clock: commands.c.
 */
#include "app/serve/effectors.h"
#include "terms/vec3.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The ends a page may pull, each turning the two joints above it (elbow and shoulder,
 * knee and hip). */
static const struct {
    const char *name;
    int chain;
} effectors[CLOTH__VIEW_EFFECTORS] = {
    {"l_wrist", 2}, {"r_wrist", 2}, {"l_ankle", 2}, {"r_ankle", 2}};

const char *cloth__viewer_effector(int e)
{
    return effectors[e].name;
}

#define EFFECTOR_PICK 0.08      /* a ray this close to an effector's joint picks it (m) */

/* The effector whose joint the ray origin + t u (u unit, t > 0) passes within
 * EFFECTOR_PICK of, the nearest along the ray (its t in *t_hit), or -1. */
int cloth__viewer_pick_effector(const cloth__viewer *v, const double origin[3],
                                const double u[3], double *t_hit)
{
    int best = -1;
    for (int e = 0; e < v->n_effectors; e++) {
        double p[3], op[3], perp[3];
        if (cloth_avatar_joint(v->avatar, effectors[e].name, p, NULL) != CLOTH_OK)
            continue;
        for (int k = 0; k < 3; k++)
            op[k] = p[k] - origin[k];
        double t = cloth__dot(op, u);
        for (int k = 0; k < 3; k++)
            perp[k] = op[k] - t * u[k];
        if (t > 0 && cloth__dot(perp, perp) <= EFFECTOR_PICK * EFFECTOR_PICK &&
            (best < 0 || t < *t_hit)) {
            best = e;
            *t_hit = t;
        }
    }
    return best;
}

/* Holds effector e for page: its target starts where it is, and drags move it by the
 * mass-spring cloth paper's mapping as for a vertex. */
void cloth__viewer_grab_effector(cloth__viewer *v, const void *page, int e,
                                 const double origin[3], const double u[3], cloth__reply *r)
{
    if (cloth_sim_grabbed(v->sim) >= 0) { /* one thing held at a time */
        cloth_input release = {.kind = CLOTH_INPUT_RELEASE};
        if (!cloth__viewer_input(v, &release, NULL, r))
            return;
    }
    cloth_avatar_joint(v->avatar, effectors[e].name, v->ik_p1, NULL);
    memcpy(v->ik_target, v->ik_p1, sizeof v->ik_target);
    memcpy(v->ik_o1, origin, sizeof v->ik_o1);
    memcpy(v->ik_dir1, u, sizeof v->ik_dir1);
    double d[3] = {v->ik_p1[0] - origin[0], v->ik_p1[1] - origin[1], v->ik_p1[2] - origin[2]};
    v->ik_dist = sqrt(cloth__dot(d, d));
    v->ik_joint = e;
    v->ik_pending = 0;
    v->grab_owner = page;
    snprintf(r->text, sizeof r->text, "{\"type\":\"grab\",\"vertex\":-1,\"joint\":\"%s\"}",
             effectors[e].name);
    r->state_changed = 1;
}

/* One IK call towards the held effector's target, between two frames, recorded as an
 * input; the target counts as reached once the effector is within CLOTH_IK_TOL of it or
 * moves less than a micrometre a call (an unreachable target: the closest pose is kept). */
void cloth__viewer_pull_effector(cloth__viewer *v, cloth__reply *r)
{
    cloth_input in = {.kind = CLOTH_INPUT_IK, .chain = effectors[v->ik_joint].chain};
    snprintf(in.joint, sizeof in.joint, "%s", effectors[v->ik_joint].name);
    memcpy(in.target, v->ik_target, sizeof in.target);
    double before[3], after[3];
    cloth_avatar_joint(v->avatar, in.joint, before, NULL);
    if (!cloth__viewer_input(v, &in, NULL, r)) {
        v->ik_pending = 0;
        return;
    }
    cloth_avatar_joint(v->avatar, in.joint, after, NULL);
    double moved[3], left[3];
    for (int k = 0; k < 3; k++) {
        moved[k] = after[k] - before[k];
        left[k] = v->ik_target[k] - after[k];
    }
    if (cloth__dot(left, left) <= CLOTH_IK_TOL * CLOTH_IK_TOL || cloth__dot(moved, moved) < 1e-12)
        v->ik_pending = 0;
}
