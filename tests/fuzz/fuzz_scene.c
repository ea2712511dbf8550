/*
 * Fuzz target: the scene reader (the INI syntax and every key's value) and --set.
 *
 * Input: scene text, then optionally NUL-separated --set assignments:
 *   "[mesh]\nnx = 3\n" "\0" "run.dt=0.5" "\0" "mesh.pins=0 2"
 * A scene that reads, with a small grid (at most 100 vertices), is also built into a mesh
 * and a sim with its kernel, so the values the reader lets through are the ones creation
 * must take or refuse with a message.  A scene naming mesh.obj is not built: that path
 * would be any file of the machine (fuzz_obj covers the OBJ reader).
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#define MAX_SETS 8
#define MAX_VERTICES 100

static void build(const cloth_scene *scene)
{
    if (scene->mesh.obj[0] || (long)scene->mesh.nx * scene->mesh.ny > MAX_VERTICES)
        return;
    cloth_error err;
    cloth_mesh *mesh;
    cloth_status st = cloth_mesh_create(scene, &mesh, &err);
    fuzz_check_failure(st, &err);
    if (st != CLOTH_OK)
        return;
    cloth_mesh_destroy(mesh);
    cloth_sim *sim;
    st = cloth_sim_create(scene, &sim, &err);
    fuzz_check_failure(st, &err);
    if (st == CLOTH_OK)
        cloth_sim_destroy(sim);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    cloth_scene scene;
    cloth_error err;
    cloth_status st = cloth_scene_parse(text, "fuzz.ini", &scene, &err);
    fuzz_check_failure(st, &err);
    const char *set = text + strlen(text) + 1;
    for (int arg = 1; st == CLOTH_OK && arg <= MAX_SETS && set <= text + size; arg++) {
        st = cloth_scene_set(&scene, set, arg, &err);
        fuzz_check_failure(st, &err);
        set += strlen(set) + 1;
    }
    if (st == CLOTH_OK)
        build(&scene);
    free(text);
    return 0;
}
