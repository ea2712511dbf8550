/* Private: the viewer's side of `cloth serve` without sockets (commands.c).  What a
 * page's message does to the sim, and the JSON texts the server streams; serve.c only
 * carries them over libwebsockets.  Tests drive it with decoded messages directly.
 *
 * Server -> page
 *   text   {"type":"hello", n, nx, ny, triangles, rest, kernels, pick_radius, max_fps,
 *           ...state}
 *   text   {"type":"state", params, pins, frozen, diverged, grabbed, sphere_offset}
 *   binary Float32Array: 3n positions, then the sphere's centre and radius (4 numbers,
 *          zeros when there is no sphere), once per frame (none once the run diverged)
 *   text   {"type":"frame", frame, time, drift, stretch_max, iterations, wall_ms, frozen}
 *   text   {"type":"error", message}  a refused message, or a diverged run
 * Page -> server (JSON objects; any other key is refused)
 *   {"type":"set","name":NAME,"value":V}     gravity, wind_x, wind_z, stiffness, damping,
 *                                            sphere_radius, kernel, substeps, iterations
 *   {"type":"grab","origin":[x,y,z],"dir":[x,y,z]}   -> {"type":"grab","vertex":i|-1}
 *   {"type":"drag","origin":[..],"dir":[..]}   {"type":"release"}
 *   {"type":"pin","vertex":i,"on":true|false}
 *   {"type":"reset"}   {"type":"freeze","on":true|false}
 * A bad message gets an error reply and changes nothing.
 *
 * Replaying a recording (cloth serve --replay DIR) the sim only holds the positions of
 * the sample shown; hello adds "replay":{frames, fps}, state adds
 * "playback":{frame, playing}, the frame message's "frame" is the sample's, and the page
 * may send only
 *   {"type":"play","on":true|false}   {"type":"seek","frame":k} */
#ifndef CLOTH_APP_COMMANDS_H
#define CLOTH_APP_COMMANDS_H

#include "cloth.h"

#include <cjson/cJSON.h>

#define CLOTH__REPLY_MAX 1024   /* longest reply text, NUL included                   */
#define CLOTH__VIEW_KERNELS 16  /* kernels whose own stiffness the viewer scales      */

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
} cloth__viewer;

/* What one message does beyond the sim: a reply for the sender, and what every page
 * should be sent again. */
typedef struct cloth__reply {
    char text[CLOTH__REPLY_MAX];/* JSON for the sending page, or "" for none          */
    int state_changed;          /* the state message changed                          */
    int positions_changed;      /* positions changed outside a frame (reset)          */
} cloth__reply;

/* Starts a viewer on sim: not frozen, stiffness 1, the pick radius from the mesh. */
void cloth__viewer_init(cloth__viewer *v, cloth_sim *sim);

/* Makes v play the recording r (its points: the sim's vertices), dt seconds a sample,
 * from sample 0, playing.  -1 when the counts differ or memory runs out. */
int cloth__viewer_replay(cloth__viewer *v, cloth_pc2 *r, double dt);

/* Frees what the viewer allocated (the replay's sample). */
void cloth__viewer_free(cloth__viewer *v);

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

/* Floats in the binary frame: 3n positions, the sphere's centre and radius. */
size_t cloth__viewer_frame_floats(const cloth__viewer *v);
void cloth__viewer_positions(const cloth__viewer *v, float *out);

#endif
