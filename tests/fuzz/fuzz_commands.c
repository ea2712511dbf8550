/*
 * Fuzz target: the viewer's command decoder (src/app/serve/commands.c) without sockets.
 * Input: messages separated by newlines, each handed to cloth__viewer_text as one
 * WebSocket text message from one of two pages (the first byte of the message picks
 * which, so grabs can belong to the other page), each followed by one tick of the clock
 * and the state message, as the server would send them.  A fresh sim and viewer per
 * input (a small sheet with a sphere), so inputs replay alike.
 */
#include "app/serve/commands.h"
#include "app/serve/stream.h"
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#define MAX_MESSAGES 16

static const char *SCENE =
    "[mesh]\nnx = 5\nny = 4\nspacing = 0.1\n[sphere]\ncenter = 0.2 -0.2 0.2\nradius = 0.1\n"
    "[run]\ndt = 0.01\nsubsteps = 2\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char pages[2] = {'A', 'B'};
    cloth_scene scene;
    cloth_error err;
    cloth_sim *sim;
    if (cloth_scene_parse(SCENE, "fuzz.ini", &scene, &err) != CLOTH_OK ||
        cloth_sim_create(&scene, &sim, &err) != CLOTH_OK)
        abort();
    cloth__viewer view;
    cloth__viewer_init(&view, sim);
    const char *p = (const char *)data, *end = p + size;
    for (int m = 0; m < MAX_MESSAGES && p < end; m++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        const void *page = &pages[len > 0 && (p[0] & 1)];
        cloth__reply reply;
        cloth__viewer_text(&view, page, p, len, &reply);
        if (strnlen(reply.text, sizeof reply.text) == sizeof reply.text)
            abort(); /* a reply is always a terminated text */
        cloth_frame frame;
        cloth__viewer_step(&view, &frame, &reply);
        char metrics[1024];
        cloth__viewer_metrics(&view, &frame, metrics, sizeof metrics);
        cJSON_free(cloth__viewer_state(&view));
        p += len + 1;
    }
    cloth__viewer_page_left(&view, &pages[0], &(cloth__reply){{0}, 0, 0});
    cJSON_free(cloth__viewer_hello(&view, 60));
    cloth_sim_destroy(sim);
    return 0;
}
