/*
 * Fuzz target: the OBJ reader, and the mesh built from what it reads (edges, hinges,
 * springs, lumped masses, pins).  The input is the file; cloth_obj_read takes a path, so
 * it goes through a scratch file.  The first byte picks the mesh settings: bit 0 lumps
 * mass by area (material.density), bit 1 pins vertex 0.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>

#define MAX_VERTICES 5000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_scratch_file(".obj", data, size);
    double *x;
    int n, *tris, n_tris;
    cloth_error err;
    cloth_status st = cloth_obj_read(path, &x, &n, &tris, &n_tris, &err);
    fuzz_check_failure(st, &err);
    if (st != CLOTH_OK)
        return 0;
    for (int i = 0; i < 3 * n_tris; i++)
        if (tris[i] < 0 || tris[i] >= n)
            abort(); /* the reader checks every face corner */
    free(x);
    free(tris);
    if (n > MAX_VERTICES)
        return 0;
    cloth_scene scene;
    cloth_default_scene(&scene);
    snprintf(scene.mesh.obj, sizeof scene.mesh.obj, "%s", path);
    scene.mesh.pins = CLOTH_PINS_NONE;
    if (size > 0 && (data[0] & 1))
        cloth_scene_set(&scene, "material.density=0.2", 2, &err);
    if (size > 0 && (data[0] & 2))
        cloth_scene_set(&scene, "mesh.pins=0", 3, &err);
    cloth_mesh *mesh;
    st = cloth_mesh_create(&scene, &mesh, &err);
    fuzz_check_failure(st, &err);
    if (st == CLOTH_OK)
        cloth_mesh_destroy(mesh);
    return 0;
}
