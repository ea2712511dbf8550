/*
 * The garment pipeline, from a pattern file to a scene's cloth (garment.h): load, place
 * on the mannequin, sew, weld (the stages: pattern.c, bones.c, sewing.c).  `cloth
 * garment` and a scene's mesh.garment run this one pipeline, so what the CLI writes and
 * what a scene simulates are the same garment (a scene's mesh.garment reaches it through
 * cloth_sim_create, src/assemble/assemble.c).
 */
#include "garment/garment.h"
#include "core/mesh.h"
#include "core/status.h"
#include "garment/bones.h"

cloth_status cloth__garment_make(const char *path, const cloth_scene *scene,
                                 cloth__garment_placed placed, void *ctx,
                                 cloth__garment **out, cloth_error *err)
{
    *out = NULL;
    cloth__pattern *pt;
    cloth_status st = cloth__pattern_load(path, &pt, err);
    if (st != CLOTH_OK)
        return st;
    cloth__garment_body body; /* the mannequin the panels are placed on */
    st = cloth__mannequin_garment_body(scene->avatar.enabled ? scene->avatar.scale : 1, &body,
                                       err);
    cloth__garment *g = NULL;
    if (st == CLOTH_OK)
        st = cloth__garment_prepare(pt, &body, &g, err);
    if (st != CLOTH_OK) {
        cloth__pattern_free(pt);
        return st;
    }
    g->own = pt;
    *out = g;
    if (placed)
        st = placed(g, ctx, err);
    if (st == CLOTH_OK)
        st = cloth__garment_sew(g, scene, scene->garment.weld_distance,
                                scene->garment.max_frames, err);
    if (st == CLOTH_OK)
        st = cloth__garment_weld(g, err);
    return st;
}

cloth_status cloth__garment_cloth(const cloth__garment *g, const cloth_scene *scene,
                                  cloth_mesh **out, cloth_error *err)
{
    cloth_mesh *m;
    cloth_status st = cloth__mesh_from_triangles(scene, g->welded, g->n_welded, g->welded_tris,
                                                 g->n_welded_tris, 0, g->pattern->source, &m,
                                                 err);
    if (st != CLOTH_OK)
        return st;
    const cloth_mesh_def *d = &scene->mesh;
    for (int k = 0; d->pins == CLOTH_PINS_LIST && k < d->n_pin_list; k++) {
        int v = d->pin_list[k];
        if (v < 0 || v >= m->n) {
            cloth_mesh_destroy(m);
            return cloth__fail(err, CLOTH_EINVAL, "%s: mesh.pins: vertex %d is out of range "
                               "(the garment has %d vertices)", scene->source, v, m->n);
        }
        m->pinned[v] = 1;
        m->inv_mass[v] = 0;
        m->n_pinned++;
    }
    *out = m;
    return CLOTH_OK;
}
