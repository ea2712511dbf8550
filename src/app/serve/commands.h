/* Private: the viewer's side of `cloth serve` without sockets.  What a page's message
 * does to the sim (commands.c; the body's joints pulled by IK, effectors.c; a recording
 * replayed, replay.c), and the JSON texts the server streams (stream.c); serve.c only
 * carries them over libwebsockets.  Tests drive it with decoded messages directly.
 *
 * Server -> page
 *   text   {"type":"hello", n, nx, ny, triangles, rest, kernels, pick_radius, max_fps,
 *           body, effectors, ...state}
 *          body: null, or {"n": vertices, "triangles": [3 per triangle]}, the avatar's
 *          drawing surface (or a replay's body.obj); effectors: the joints a page may
 *          pull by IK (["l_wrist", "r_wrist", "l_ankle", "r_ankle"]), [] without a live
 *          avatar
 *   text   {"type":"state", params, pins, frozen, diverged, grabbed, ik_joint,
 *           sphere_offset}   ik_joint: the effector a page holds, or null
 *   binary Float32Array: 3n positions, then the sphere's centre and radius (4 numbers,
 *          zeros when there is no sphere), then 3 body.n body positions, then 3 per
 *          effector its joint's position, once per frame (none once the run diverged)
 *   text   {"type":"frame", frame, time, drift, stretch_max, iterations, wall_ms, frozen}
 *   text   {"type":"error", message}  a refused message, or a diverged run
 * Page -> server (JSON objects; any other key is refused)
 *   {"type":"set","name":NAME,"value":V}     gravity, wind_x, wind_z, stiffness, damping,
 *                                            sphere_radius, kernel, substeps, iterations
 *   {"type":"grab","origin":[x,y,z],"dir":[x,y,z]}   -> {"type":"grab","vertex":i|-1}
 *          or, when the ray passes an effector nearer than any cloth vertex,
 *          {"type":"grab","vertex":-1,"joint":NAME}: the page then holds that joint
 *   {"type":"drag","origin":[..],"dir":[..]}   {"type":"release"}
 *          dragging a joint sets its IK target (cloth_drag_point); every frame until it
 *          is reached the clock calls cloth_avatar_ik towards it (at most
 *          avatar.ik_max_step a call), an input recorded like the others
 *   {"type":"pin","vertex":i,"on":true|false}
 *   {"type":"reset"}   {"type":"freeze","on":true|false}
 * A bad message gets an error reply and changes nothing.
 *
 * Replaying a recording (cloth serve --replay DIR) the sim only holds the positions of
 * the sample shown; hello adds "replay":{frames, fps}, state adds
 * "playback":{frame, playing}, the frame message's "frame" is the sample's (the body's
 * too, from body.pc2 when the recording has one), and the page may send only
 *   {"type":"play","on":true|false}   {"type":"seek","frame":k} */
#ifndef CLOTH_APP_COMMANDS_H
#define CLOTH_APP_COMMANDS_H

#include "cloth.h"

#include <cjson/cJSON.h>

#define CLOTH__REPLY_MAX 1024   /* longest reply text, NUL included                   */
#define CLOTH__VIEW_KERNELS 16  /* kernels whose own stiffness the viewer scales      */
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

/* The joint name of effector e (0 .. CLOTH__VIEW_EFFECTORS - 1: hands, then feet). */
const char *cloth__viewer_effector(int e);

/* The facts of the sim's kernel now (cloth_kernel_info). */
cloth_kernel_facts cloth__viewer_kernel(const cloth__viewer *v);

/* Makes v play the recording r (its points: the sim's vertices), dt seconds a sample,
 * from sample 0, playing.  -1 when the counts differ or memory runs out. */
int cloth__viewer_replay(cloth__viewer *v, cloth_pc2 *r, double dt);

/* Adds a replay's body: body.pc2 (as many samples as the cloth's) and the triangles of
 * body.obj (n_tris, indices below the cache's points; kept, not copied).  -1 when they
 * do not fit or memory runs out. */
int cloth__viewer_replay_body(cloth__viewer *v, cloth_pc2 *body, const int *tris, int n_tris);

/* Frees what the viewer allocated (the replay's samples, the body's positions). */
void cloth__viewer_free(cloth__viewer *v);

/* Every change a page makes to the sim goes through here as a cloth_input (recorded
 * with a session, events.jsonl).  1 when the sim took it; otherwise reply tells the page
 * why. */
int cloth__viewer_input(cloth__viewer *v, const cloth_input *in, int *vertex,
                        cloth__reply *reply);

/* The effector whose joint the ray origin + t u (u unit, t > 0) passes closest to,
 * within 8 cm, the nearest along the ray (its t in *t_hit); -1 for none. */
int cloth__viewer_pick_effector(const cloth__viewer *v, const double origin[3],
                                const double u[3], double *t_hit);

/* page holds effector e, grabbed along the ray origin + t u: its IK target starts where
 * it is (a cloth vertex held is let go first).  Fills reply. */
void cloth__viewer_grab_effector(cloth__viewer *v, const void *page, int e,
                                 const double origin[3], const double u[3],
                                 cloth__reply *reply);

/* One IK call pulling the held effector towards its target (between two frames). */
void cloth__viewer_pull_effector(cloth__viewer *v, cloth__reply *reply);

/* Shows sample k of the replay (the cloth's, and the body's with body.pc2) as the
 * positions; 0 when a sample cannot be read. */
int cloth__viewer_show_sample(cloth__viewer *v, int k);

/* Carries out one decoded message from page (any token naming the sender; compared with
 * the grab's owner).  Fills *reply. */
void cloth__viewer_command(cloth__viewer *v, const void *page, const cJSON *msg,
                           cloth__reply *reply);

/* The same from the message's text (len bytes, not NUL-terminated): "not JSON" when it
 * does not parse. */
void cloth__viewer_text(cloth__viewer *v, const void *page, const char *text, size_t len,
                        cloth__reply *reply);

/* page has gone: a grab it held is let go (then reply->state_changed). */
void cloth__viewer_page_left(cloth__viewer *v, const void *page, cloth__reply *reply);

/* One tick of the clock: a frame unless frozen or diverged, else the metrics of the
 * state as it is.  When the frame fails the run counts as diverged, reply->text is the
 * error for every page and reply->state_changed is set. */
void cloth__viewer_step(cloth__viewer *v, cloth_frame *f, cloth__reply *reply);

/* The messages the server streams, as fresh texts (cJSON_free them) or NULL when out of
 * memory. */
char *cloth__viewer_hello(const cloth__viewer *v, double max_fps);
char *cloth__viewer_state(const cloth__viewer *v);

/* The frame message of f into buf (NaN and inf as null); returns its length. */
size_t cloth__viewer_metrics(const cloth__viewer *v, const cloth_frame *f, char *buf,
                             size_t size);

/* Floats in the binary frame: 3n positions, the sphere's centre and radius, the body's
 * 3 body_n positions and the effectors' 3 n_effectors. */
size_t cloth__viewer_frame_floats(const cloth__viewer *v);
void cloth__viewer_positions(const cloth__viewer *v, float *out);

#endif
