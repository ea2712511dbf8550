/* Private: a recording replayed in the viewer, `cloth serve --replay` (replay.c). */
#ifndef CLOTH_APP_REPLAY_H
#define CLOTH_APP_REPLAY_H

#include "app/serve/viewer.h"

/* Makes v play the recording r (its points: the sim's vertices), dt seconds a sample,
 * from sample 0, playing.  -1 when the counts differ or memory runs out. */
int cloth__viewer_replay(cloth__viewer *v, cloth_pc2 *r, double dt);

/* Adds a replay's body: body.pc2 (as many samples as the cloth's) and the triangles of
 * body.obj (n_tris, indices below the cache's points; kept, not copied).  -1 when they
 * do not fit or memory runs out. */
int cloth__viewer_replay_body(cloth__viewer *v, cloth_pc2 *body, const int *tris, int n_tris);

/* Shows sample k of the replay (the cloth's, and the body's with body.pc2) as the
 * positions; 0 when a sample cannot be read. */
int cloth__viewer_show_sample(cloth__viewer *v, int k);

#endif
