/* The robust collision stage as the kernels call it: collide_stage.h. */
#include "kernels/collide_stage.h"
#include "terms/collide.h"
#include "terms/obstacle.h"
#include "sim/sim.h"

#include "core/status.h"

#include <stdlib.h>
#include <string.h>

struct cloth__collide_stage {
    cloth__collide *collide;
    double *start;              /* 3n: save_start's copy                              */
    int n;                      /* the mesh's vertices                                */
};

cloth_status cloth__collide_stage_create(const cloth_sim *sim, cloth__collide_stage **out,
                                         cloth_error *err)
{
    *out = NULL;
    if (sim->scene.run.self_collision != CLOTH_SELF_ON)
        return CLOTH_OK;
    cloth__collide_stage *cs = calloc(1, sizeof *cs);
    if (!cs || !(cs->start = malloc(sizeof(double) * (3 * (size_t)sim->mesh->n + 1)))) {
        free(cs);
        return cloth__fail(err, CLOTH_ENOMEM, "collision stage: out of memory for %d vertices",
                           sim->mesh->n);
    }
    cs->n = sim->mesh->n;
    cloth_status st = cloth__collide_create(sim->mesh, 0, &cs->collide, err);
    if (st != CLOTH_OK) {
        cloth__collide_stage_destroy(cs);
        return st;
    }
    *out = cs;
    return CLOTH_OK;
}

void cloth__collide_stage_destroy(cloth__collide_stage *cs)
{
    if (!cs)
        return;
    cloth__collide_destroy(cs->collide);
    free(cs->start);
    free(cs);
}

const double *cloth__collide_stage_save_start(cloth__collide_stage *cs, const double *x)
{
    if (!cs)
        return NULL;
    memcpy(cs->start, x, sizeof(double) * 3 * (size_t)cs->n);
    return cs->start;
}

void cloth__collide_stage_apply(cloth__collide_stage *cs, cloth_sim *sim, double h,
                                const double *x0, double *x1, double *v,
                                cloth__step_stats *stats)
{
    if (!cs)
        return;
    double start = cloth__clock_ms();
    const cloth_scene *s = &sim->scene;
    /* zones merge at least two zones a search that hits: n searches always suffice */
    cloth__collide_def def = {s->material.thickness, s->material.self_friction,
                              s->run.collision_passes, sim->mesh->n};
    cloth__collide_result r;
    if (cloth__collide_step(cs->collide, &def, h, x0, x1, v, sim->mesh->inv_mass, &r) != 0 ||
        !r.resolved)
        stats->not_converged = 1;
    if (r.passes > sim->collide_passes)
        sim->collide_passes = r.passes;
    sim->collide_zones += r.zones;
    sim->collide_ms += cloth__clock_ms() - start;
}
