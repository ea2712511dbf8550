/* Private: the viewer's side of `cloth serve` without sockets.  What a page's message
 * does to the sim (commands.c; the viewer's state, viewer.h; the body's joints pulled by
 * IK, effectors.h; a recording replayed, replay.h), and the JSON texts the server
 * streams (stream.h); serve.c only carries them over libwebsockets.  Tests drive it with
 * decoded messages directly.
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

#include "app/serve/viewer.h"

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

#endif
