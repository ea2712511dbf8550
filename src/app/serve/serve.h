/* The interactive viewer's server (`cloth serve`): HTTP for the page under web_dir and a
 * WebSocket that streams frames and takes the page's commands.  Built into the CLI only,
 * so libcloth itself does not depend on libwebsockets or cJSON. */
#ifndef CLOTH_SERVE_H
#define CLOTH_SERVE_H

#include "cloth.h"

typedef struct cloth_serve_def {
    int port;                   /* TCP port on 127.0.0.1                              */
    const char *web_dir;        /* folder with index.html (and node_modules)          */
    double max_fps;             /* simulated frames per second at most                */
    FILE *log;                  /* the URL and notices; NULL for silence              */
    cloth_session *session;     /* records the pages' inputs and the frames, or NULL  */
    cloth_pc2 *replay;          /* a recording to play instead of stepping, or NULL;
                                 * max_fps is then its frame rate                     */
    cloth_pc2 *replay_body;     /* with replay: the body's recording, or NULL         */
    const int *body_tris;       /* ... and its triangles (body.obj)                   */
    int body_n_tris;
} cloth_serve_def;

/* port 8080, web_dir "src/app/serve/web", 60 frames/s, log stdout, no session. */
void cloth_default_serve_def(cloth_serve_def *def);

/* Serves sim until SIGINT or SIGTERM; returns CLOTH_OK after a clean shutdown, or an
 * error (port in use, no page) with a message. */
cloth_status cloth_serve(cloth_sim *sim, const cloth_serve_def *def, cloth_error *err);

#endif
