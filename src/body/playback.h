/* Private: how a clip plays from the start of a run to its end (docs/avatar.md, "Playing
 * a real capture"): the blend-in from the rest pose, what follows the last frame, and
 * the body speed guard.
 *
 * Time t of the run maps onto the clip as
 *
 *   t < B:                the rest pose P_rest to the first pose P_0, slerp joint by
 *                         joint (cloth__avatar_pose_between) at s(t / B),
 *   u = t - B >= 0:       hold:  P(min(u, L)),                L = (n - 1) frame_time
 *                         loop:  P(u), wrapping after n frames (the last frame to the
 *                                first over one frame time, as a looping clip is cut)
 *                         blend: u mod (L + b): P(u) for u <= L, then P_last to P_0 at
 *                                s((u - L) / b), and the clip again,
 *
 * with s(w) = w^2 (3 - 2 w) (smoothstep: zero speed where the blend meets the rest pose
 * and the clip).  A skin point on a blend moves x(s) = sum_k w_k T_k(s) y, so its speed is
 * |dx/ds| s'(w) / B, s' <= 3/2: the speed at B is the speed at B = 1 divided by B, and
 * the automatic B is the largest sampled speed at B = 1 over the target speed.
 *
 * A clip loops when its last pose is its first, root aside: every body joint's rotation
 * at the last frame within a tolerance of the first frame's (the larger of 1 degree and
 * twice the largest turn of a joint between two frames, at most 10 degrees: a clip cut
 * periodically differs between its last and first frame by one frame's motion).
 *
 * The guard: after each move of the body, the largest distance a surface vertex moved,
 * |sum_k w_k (T_k^now - T_k^prev) y|, against avatar.max_skin_step; the first time it is
 * over, the time, the distance and the vertex's main joint are kept. */
#ifndef CLOTH_BODY_PLAYBACK_H
#define CLOTH_BODY_PLAYBACK_H

#include "body/retarget.h"


typedef struct cloth__playback {
    /* what it plays (the avatar's, set before cloth__playback_resolve) */
    const cloth__body *body;
    const cloth__clip *clip;
    const cloth__retarget *rt;
    const cloth_avatar_def *def;
    const cloth__pose *fixed;   /* the pose without a clip                            */
    int has_clip;               /* 1: a clip of several frames drives the body        */
    double blend_in;            /* B (s), resolved                                    */
    int auto_blend_in;          /* 1: B was computed (avatar.blend_in = auto)         */
    cloth_clip_end end;         /* hold, loop or blend, resolved                      */
    int loops;                  /* 1: the last pose is the first (root aside)         */
    double loop_angle;          /* the largest joint turn from the last pose to the first
                                 * (rad)                                              */
    int loop_joint;             /* the joint of that turn                             */
    double loop_tol;            /* the tolerance it was held against (rad)            */
    double last_t;              /* L = (n - 1) frame_time (s)                         */
    double max_step;            /* the guard's bound (m a substep), resolved          */
    double h;                   /* the substep it was resolved for (s)                */
    cloth__pose first, last;    /* the body's poses at the clip's first and last frame */
    double seen;                /* the largest skin step so far (m)                   */
    int fired;                  /* 1: a skin step went over max_step                  */
    double fired_t, fired_step; /* when (s) and how far (m), the first time           */
    int fired_joint;            /* the fastest vertex's main joint                    */
} cloth__playback;

/* Resolves the clip's playback for substeps of h seconds: loop detection, clip_end,
 * blend_in (auto: computed; h = 0: none), the guard's bound. */
void cloth__playback_resolve(cloth__playback *p, double h);

/* The body's pose at run time t (no clip: the fixed pose). */
void cloth__playback_pose(const cloth__playback *p, double t, cloth__pose *out);

/* The largest distance a surface vertex of body moves between the skinning transforms
 * prev and now, and the main joint of that vertex in *joint. */
double cloth__playback_skin_step(const cloth__body *body, const cloth__xform *prev,
                                 const cloth__xform *now, int *joint);

/* The guard after a move from prev to now at time t. */
void cloth__playback_guard(cloth__playback *p, const cloth__xform *prev,
                           const cloth__xform *now, double t);

/* The pose a fraction s of the way from a to b: each joint's local rotation turned by s
 * times the angle of R_a^T R_b about that rotation's axis (the geodesic), the root's
 * translation interpolated; s = 0 gives a and s = 1 gives b exactly. */
void cloth__pose_between(const cloth__skeleton *sk, const cloth__pose *a, const cloth__pose *b,
                         double s, cloth__pose *out);

#endif
