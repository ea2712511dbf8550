/* Private: what the viewer's server streams to a page (stream.c; the protocol:
 * commands.h). */
#ifndef CLOTH_APP_STREAM_H
#define CLOTH_APP_STREAM_H

#include "app/serve/viewer.h"

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
