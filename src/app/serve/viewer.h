/* Private: the viewer's state beside the sim, which every file of app/serve shares, and
 * the one way a page's change reaches the sim (cloth__viewer_input); viewer.c.  Above it:
 * the effectors (effectors.h), the replay (replay.h), what the server streams (stream.h)
 * and the commands (commands.h), which use it and never the other way round. */
#ifndef CLOTH_APP_VIEWER_H
#define CLOTH_APP_VIEWER_H

#include "cloth.h"

#include <cjson/cJSON.h>

#define CLOTH__REPLY_MAX 1024   /* longest reply text, NUL included                   */
#define CLOTH__VIEW_KERNELS CLOTH_MAX_KERNELS /* kernels whose stiffness it scales */
#define CLOTH__VIEW_EFFECTORS 4 /* joints a page may pull by IK                       */

/* The viewer's state beside the sim. */
typedef struct cloth__viewer {
    cloth_sim *sim;
    int frozen;                 /* 1: frames show the state without stepping          */
    int diverged;               /* 1: the last frame failed; nothing steps until reset */
    const void *grab_owner;     /* the page (transport's token) holding the grab      */
    double stiffness;           /* the "stiffness" control: a factor on the scene's k */
    double k_scene[CLOTH_FAMILIES];          /* the scene's spring stiffness            */
    double k_own[CLOTH__VIEW_KERNELS];       /* each kernel's stiffness_key in the scene,
                                              * or 0 (cloth_kernel_facts)               */
    double pick_radius;         /* vertex sphere radius for picking (m)               */
    cloth_session *session;     /* records inputs and frames (--events), or NULL      */
    cloth_pc2 *replay;          /* --replay: the recording played instead of stepping */
    float *replay_buf;          /* one sample of it                                   */
    int replay_frame;           /* the sample shown                                   */
    int replay_samples;
    double replay_dt;           /* seconds between two samples                        */
    int playing;                /* 1: the clock moves to the next sample              */

    /* the body: the live avatar's, or a replay's body.pc2 */
    cloth_avatar *avatar;       /* the sim's avatar (not in a replay), or NULL        */
    int body_n, body_n_tris;    /* the drawing surface's vertices and triangles       */
    const int *body_tris;
    double *body_x;             /* the body's positions now (3 body_n)                */
    cloth_pc2 *body_replay;     /* --replay: body.pc2, or NULL                        */
    float *body_sample;         /* one sample of it                                   */
    int n_effectors;            /* CLOTH__VIEW_EFFECTORS with a live avatar, else 0   */
    int ik_joint;               /* the effector a page holds (index), or -1           */
    int ik_pending;             /* 1: its target is not reached yet                   */
    double ik_target[3];        /* where it is pulled                                 */
    double ik_p1[3], ik_o1[3], ik_dir1[3], ik_dist; /* the grab, for cloth_drag_point */
} cloth__viewer;

/* What one message does beyond the sim: a reply for the sender, and what every page
 * should be sent again. */
typedef struct cloth__reply {
    char text[CLOTH__REPLY_MAX];/* JSON for the sending page, or "" for none          */
    int state_changed;          /* the state message changed                          */
    int positions_changed;      /* positions changed outside a frame (reset)          */
} cloth__reply;

/* Starts a viewer on sim: not frozen, stiffness 1, the pick radius from the mesh, and
 * the avatar's body when the scene has one.  -1 when out of memory (then free it). */
int cloth__viewer_init(cloth__viewer *v, cloth_sim *sim);

/* Frees what the viewer allocated (the replay's samples, the body's positions). */
void cloth__viewer_free(cloth__viewer *v);

/* The facts of the sim's kernel now (cloth_kernel_info). */
cloth_kernel_facts cloth__viewer_kernel(const cloth__viewer *v);

/* Every change a page makes to the sim goes through here as a cloth_input (recorded
 * with a session, events.jsonl).  1 when the sim took it; otherwise reply tells the page
 * why. */
int cloth__viewer_input(cloth__viewer *v, const cloth_input *in, int *vertex,
                        cloth__reply *reply);

/* Sets reply's text to an error message for the page ({"type":"error","message":...}). */
void cloth__reply_error(cloth__reply *reply, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
