/*
 * A scene becomes a simulation: cloth_sim_create, the library's front door for every
 * scene.  The assembly, in order:
 *
 *   1. the cloth: the scene's grid or OBJ (cloth_mesh_create, core/mesh.c), or its
 *      mesh.garment, loaded, placed, sewn by a sim of the scene's own kernel and welded
 *      (the garment pipeline, garment/garment.c), which is why this room sits above the
 *      garment layer;
 *   2. the sim around that mesh, through the kernel table (cloth_sim_create_with_mesh,
 *      kernels/registry.c, which the sewing uses too): the kernel run.kernel names,
 *      checked against the scene, the body of an [avatar], the metrics' work, and the
 *      kernel's work with the contact stage it runs after its step (cloth__sim_create_mesh,
 *      sim/sim.c, and the kernel's create).
 *
 * Each layer below knows only what it is handed, so no layer calls up to assemble a sim.
 */
#include "cloth.h"
#include "garment/garment.h"
#include "core/status.h"

#include <stdio.h>
#include <string.h>

/* mesh.garment: the pattern (relative to the scene file) through the pipeline, its
 * welded garment the scene's cloth. */
static cloth_status scene_garment(const cloth_scene *scene, cloth_mesh **out,
                                  cloth_error *err)
{
    const cloth_mesh_def *d = &scene->mesh;
    if (d->obj[0])
        return cloth__fail(err, CLOTH_EINVAL, "%s: mesh.garment: and mesh.obj: one mesh or the "
                           "other", scene->source);
    if (d->pins != CLOTH_PINS_NONE && d->pins != CLOTH_PINS_LIST)
        return cloth__fail(err, CLOTH_EINVAL, "%s: mesh.pins: a garment has no rows or corners: "
                           "give vertex indices or none", scene->source);
    char path[2 * CLOTH_PATH_MAX];
    const char *slash = strrchr(scene->source, '/');
    if (d->garment[0] == '/' || !slash)
        snprintf(path, sizeof path, "%s", d->garment);
    else
        snprintf(path, sizeof path, "%.*s/%s", (int)(slash - scene->source), scene->source,
                 d->garment);
    cloth__garment *g;
    cloth_status st = cloth__garment_make(path, scene, NULL, NULL, &g, err);
    if (st == CLOTH_OK)
        st = cloth__garment_cloth(g, scene, out, err);
    cloth__garment_free(g);
    return st;
}

cloth_status cloth_sim_create(const cloth_scene *scene, cloth_sim **out, cloth_error *err)
{
    *out = NULL;
    cloth_mesh *m;
    cloth_status st = scene->mesh.garment[0] ? scene_garment(scene, &m, err)
                                             : cloth_mesh_create(scene, &m, err);
    return st == CLOTH_OK ? cloth_sim_create_with_mesh(scene, m, out, err) : st;
}
