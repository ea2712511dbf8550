/*
 * Fuzz target: events.jsonl, the viewer's recorded inputs (src/harness/events.c: cJSON
 * parses each line, the format checks it).  The file is loaded; what loads is applied to
 * a small grid sim of its own (the header's scene is not read) through cloth_sim_input
 * (session.c), a frame stepped whenever the frame count moves on, at most MAX_FRAMES of
 * them.  An input the sim refuses must say why.
 */
#include "fuzz.h"

#include <string.h>

#define MAX_FRAMES 8

static const char *SCENE = "[mesh]\nnx = 4\nny = 3\nspacing = 0.1\n[run]\nkernel = pbd\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_scratch_file(".jsonl", data, size);
    cloth_error err;
    cloth_events *ev;
    cloth_status st = cloth_events_load(path, &ev, &err);
    fuzz_check_failure(st, &err);
    if (st != CLOTH_OK)
        return 0;
    cloth_scene scene;
    cloth_sim *sim;
    if (cloth_scene_parse(SCENE, "fuzz.ini", &scene, &err) != CLOTH_OK ||
        cloth_sim_create(&scene, &sim, &err) != CLOTH_OK) {
        cloth_events_destroy(ev);
        return 0;
    }
    long done = 0;
    for (int i = 0; i < cloth_events_count(ev); i++) {
        const cloth_input *in = cloth_events_input(ev, i);
        cloth_frame fr;
        for (; done < in->frame && done < MAX_FRAMES; done++)
            fuzz_check_failure(cloth_sim_frame(sim, &fr, &err), &err);
        int vertex;
        fuzz_check_failure(cloth_sim_input(sim, in, &vertex, &err), &err);
    }
    cloth_sim_destroy(sim);
    cloth_events_destroy(ev);
    return 0;
}
