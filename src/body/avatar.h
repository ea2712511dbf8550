/* Private: the avatar of a scene's [avatar] section, what the kernels collide with: the
 * mannequin, its clip or IK pose, the back-transform and the rest-pose distance field.
 *
 * Collision (collision = sdf): a query point x in the current pose gets its weights
 * (backtransform.h; none: far from the body, nothing to do), goes to its rest place y,
 * the field gives d(y) and grad d(y); when d < offset the point is inside the skin and
 * moves out along the rest normal carried into the pose,
 *
 *   n = sum w_k R_k grad d / |.|,    x <- x + (offset - d) n,
 *
 * exact in a rigid zone (the transform keeps distances), to first order in a blend.
 * collision = capsules and collision = ellipsoids (ellipsoids.h) are the comparisons: the
 * distance to the posed capsules with the nearest one's normal, or to the skinned
 * triangles inside the bones' ellipsoid bounds; no field and no back-transform.  The body's velocity at
 * x (for the velocity correction) is that of x's material point, (x - x_prev)/h with
 * x_prev = sum w_k T_k^prev y. */
#ifndef CLOTH_BODY_AVATAR_H
#define CLOTH_BODY_AVATAR_H

#include "body/backtransform.h"
#include "body/bvh.h"
#include "body/ellipsoids.h"
#include "body/mannequin.h"
#include "body/partfields.h"
#include "body/playback.h"
#include "body/retarget.h"
#include "body/sdf.h"

struct cloth_avatar {
    cloth_avatar_def def;       /* the scene's keys                                   */
    cloth__body body;           /* the mannequin at def.scale, with its surface       */
    cloth__backtransform bt;
    cloth__sdf sdf;             /* rest-pose field (collision = sdf)                  */
    cloth__partfields parts;    /* each part's rest field (collision = sdf, newton)   */
    cloth__ellipsoids ell;      /* bounds and parts (collision = ellipsoids)          */
    cloth__clip clip;           /* def.motion (or def.pose's file), or no frames      */
    cloth__retarget rt;         /* how the clip moves the body (retarget.h)           */
    cloth__pose fixed;          /* def.pose when it is a name (t: the rest pose)      */
    double ik_max_step;         /* def.ik_max_step                                    */
    cloth__pose pose;           /* the current pose (clip, or set by IK)              */
    int posed_by_ik;            /* 1 once IK moved it: the clip no longer drives it   */
    cloth__bt_pose now, prev;   /* the pose at t and one step before                  */
    double collide_ms;          /* time spent colliding since the last read (ms)      */
    double *skin;               /* the surface's vertices skinned to the pose (3 n)   */
    double *skin_sphere;        /* bounding sphere of each capsule's surface (4 each) */
    cloth__playback play;       /* blend-in, clip end, the guard (playback.h)         */
    double t;                   /* the time of the current pose (s)                   */
};

/* The avatar of def (paths relative to the scene file source).  Allocates the body, the
 * field and the clip.  On failure *key names the [avatar] key at fault ("model",
 * "skeleton", "pose", "motion", ...). */
cloth_status cloth__avatar_create(const cloth_avatar_def *def, const char *source,
                                  cloth_avatar **out, const char **key, cloth_error *err);
void cloth__avatar_destroy(cloth_avatar *av);

/* The pose at time t; the previous one kept for velocities (reset: both at t, and the
 * guard cleared).  Each move runs the body speed guard (playback.h). */
void cloth__avatar_move(cloth_avatar *av, double t);
void cloth__avatar_reset(cloth_avatar *av, double t);

/* Resolves the clip's playback for substeps of h seconds (auto blend-in, clip end, the
 * guard's bound: playback.h) and resets the avatar to t = 0.  Creation resolves it with
 * h = 0: no blend-in until a sim says its substep. */
void cloth__avatar_set_substep(cloth_avatar *av, double h);

/* Frames of dt that play the blend-in, the clip once and, with clip_end = hold, one
 * second of the last pose (a run whose run.frames is unset). */
long cloth__avatar_run_frames(const cloth_avatar *av, double dt);


/* Moves x out of the skin if inside; 1 and the outward normal if it moved. */
int cloth__avatar_push_out(const cloth_avatar *av, double x[3], double normal[3]);

/* The same to a distance `to` from the body instead of the offset. */
int cloth__avatar_push_out_to(const cloth_avatar *av, double x[3], double to, double normal[3]);

/* The body's velocity at x over the last step of length h. */
void cloth__avatar_velocity(const cloth_avatar *av, const double x[3], double h, double v[3]);

/* The signed distance from x to the posed body's capsules (the mannequin: exact; an OBJ
 * body: its estimated capsules). */
double cloth__avatar_distance(const cloth_avatar *av, const double x[3]);

/* Skins the surface to the current pose (linear blend skinning with the back-transform's
 * rest weights, x_i = sum_k w_ik T_k y_i) and bounds each capsule's part. */
void cloth__avatar_skin(cloth_avatar *av);

/* The signed distance from x to the skinned surface of the last cloth__avatar_skin,
 * exact for the triangles (HUGE_VAL when farther than the offset plus 5 cm). */
double cloth__avatar_surface_distance(const cloth_avatar *av, const double x[3]);

/* How far x is inside the skin, avatar.offset - (that distance), or 0 when not inside.
 * Only the parts whose bounding sphere x is within the offset of are tested: a part
 * farther away is farther than the offset, and x is outside it. */
double cloth__avatar_skin_depth(const cloth_avatar *av, const double x[3]);

/* The body's signed distance at x by avatar.collision and its outward unit normal in
 * grad (if not NULL): sdf, the field at x's rest place with its gradient carried to the
 * pose (HUGE_VAL outside every cylinder); capsules, the posed capsules; ellipsoids, the
 * triangles of the bones whose bounds hold x (HUGE_VAL outside every bound). */
double cloth__avatar_field(const cloth_avatar *av, const double x[3], double grad[3]);

/* The body's signed distance at x with the body in the posed state p (any pose of this
 * avatar's skeleton, cloth__bt_set_pose), by def.collision, and the gradient of that
 * function of x into grad (may be NULL), for newton's barrier: sdf, the union of the
 * rigidly moved parts' rest fields (partfields.h: no back-transform; continuous,
 * sqrt(3)-Lipschitz, capped at parts.far, the cylinders' reach), gradient
 * R_j grad f_j of the nearest part; capsules, the exact distance min_c (|x - seg_c| -
 * r_c) to p's capsules, continuous and 1-Lipschitz, gradient the unit vector from the
 * nearest segment point; ellipsoids is not answered here (its skinned triangles exist
 * for the current pose only): it is taken as capsules, and newton, the one caller,
 * refuses it. */
double cloth__avatar_distance_at(const cloth_avatar *av, const cloth__bt_pose *p,
                                 const double x[3], double grad[3]);

/* The pose a fraction s of the way from a to b: each joint's local rotation turned by s
 * times the angle of R_a^T R_b about that rotation's axis (the geodesic), the root's
 * translation interpolated; s = 0 gives a and s = 1 gives b exactly. */
void cloth__avatar_pose_between(const cloth_avatar *av, const cloth__pose *a,
                                const cloth__pose *b, double s, cloth__pose *out);

/* One line on the avatar's clip for a run's output (naming, frames, rate, units) into
 * buf; 0 and nothing written without a clip. */
int cloth__avatar_motion_note(const cloth_avatar *avatar, double dt, char *buf, size_t size);

/* One line on the body speed guard when it fired during the run (avatar.max_skin_step:
 * the frame at run.dt = dt, the joint, the distance): 1 and the line in buf, else 0. */
int cloth__avatar_guard_note(const cloth_avatar *avatar, double dt, char *buf, size_t size);

#endif
