/* The scene's pins moving with the avatar (pin_follow.h). */
#include "core/status.h"
#include "sim/pin_follow.h"
#include "sim/state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NEAR_SKIN 0.10 /* auto: every pin within this of the skin (m, times scale)    */

cloth_status cloth__pin_follow_create(cloth_sim *sim, cloth__pin_follow **out,
                                      cloth_error *err)
{
    *out = NULL;
    const cloth_mesh *m = sim->mesh;
    cloth_avatar *av = sim->avatar;
    int mode = sim->scene.mesh.pins_follow;
    if (!av || m->n_pinned == 0 || mode == CLOTH_PINS_FOLLOW_WORLD)
        return CLOTH_OK;
    cloth__avatar_reset(av, 0);
    if (mode == CLOTH_PINS_FOLLOW_AUTO) {
        /* a pinned edge laid on the body: the cape's pins are 2 to 8 cm from the skin
         * (its edge spans the shoulders' hollows), the skirt's waistband 2 to 6 cm */
        for (int i = 0; i < m->n; i++)
            if (m->pinned[i] && !(cloth__avatar_attach_distance(av, m->x0 + 3 * i) <=
                                  NEAR_SKIN * av->def.scale))
                return CLOTH_OK;
    }
    cloth__pin_follow *pf = calloc(1, sizeof *pf);
    if (pf) {
        pf->vertex = malloc(sizeof *pf->vertex * (size_t)m->n_pinned);
        pf->at = malloc(sizeof *pf->at * (size_t)m->n_pinned);
    }
    if (!pf || !pf->vertex || !pf->at) {
        cloth__pin_follow_destroy(pf);
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory for %d pins", m->n_pinned);
    }
    for (int i = 0; i < m->n; i++)
        if (m->pinned[i]) {
            pf->vertex[pf->n] = i;
            cloth__avatar_attach(av, m->x0 + 3 * i, &pf->at[pf->n]);
            pf->n++;
        }
    /* One frame for all: the main joint nearest the root of the pins' nearest skin.
     * Skinned each by its own nearest point, the cape's pins over the shoulders went
     * with the arms and its pinned edge stretched 81 % between them and the pins on the
     * chest (verlet, cmu_walk_away.bvh); moved rigidly together, the pins keep their
     * distances, and a spring between two pins its length. */
    const cloth__skeleton *sk = &av->body.skel;
    int common = -1, common_depth = 0;
    for (int p = 0; p < pf->n; p++) {
        int j = cloth__attachment_main_joint(&pf->at[p]), depth = 0;
        for (int q = j; q >= 0 && sk->joint[q].parent >= 0; q = sk->joint[q].parent)
            depth++;
        if (j >= 0 && (common < 0 || depth < common_depth))
            common = j, common_depth = depth;
    }
    for (int p = 0; p < pf->n && common >= 0; p++)
        cloth__attachment_make_rigid(av, common, &pf->at[p]);
    *out = pf;
    return CLOTH_OK;
}

void cloth__pin_follow_destroy(cloth__pin_follow *pf)
{
    if (!pf)
        return;
    free(pf->vertex);
    free(pf->at);
    free(pf);
}

void cloth__pin_follow_apply(cloth_sim *sim, const cloth__pin_follow *pf, double h)
{
    if (!pf)
        return;
    int grabbed = cloth_sim_grabbed(sim);
    for (int p = 0; p < pf->n; p++) {
        int i = pf->vertex[p];
        if (!sim->mesh->pinned[i] || i == grabbed)
            continue;
        double x[3], *x0 = sim->mesh->x0 + 3 * i;
        cloth__avatar_attached(sim->avatar, &pf->at[p], x);
        for (int c = 0; c < 3; c++) {
            double old = sim->x[3 * i + c];
            sim->v[3 * i + c] = h > 0 ? (x[c] - old) / h : 0;
            sim->x_prev[3 * i + c] = h > 0 ? old : x[c];
            sim->x[3 * i + c] = x0[c] = x[c];
        }
    }
}
