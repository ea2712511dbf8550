/* The robust collision stage as the kernels call it: collide_stage.h. */
#include "kernels/collide_stage.h"
#include "terms/collide.h"
#include "terms/obstacle.h"
#include "sim/sim.h"
#include "body/avatar.h"

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

/* The obstacles' inelastic rule (kernels/obstacles.h) for the vertices the stage's
 * obstacle impulses moved (collide.h (d)): the stage changed their v by its impulses, of
 * which the obstacle's only undid the part that pushed x1 in; v keeps only the outward
 * part of its velocity relative to the obstacle, as after the kernel's own projection.
 * x1 is not changed (the stage's positions are the safe ones). */
static void obstacle_velocities(cloth__collide_stage *cs, cloth_sim *sim, double h,
                                const double *x1, double *v)
{
    const double *normal;
    const unsigned char *hit = cloth__collide_obstacle_hits(cs->collide, &normal);
    double c_old[3], vs[3];
    /* during a step sim->t is its start and sim->sphere_c the centre at its end */
    cloth__sphere_center(&sim->scene.sphere, sim->t, c_old);
    for (int k = 0; k < 3; k++)
        vs[k] = (sim->sphere_c[k] - c_old[k]) / h;
    for (int i = 0; i < cs->n; i++) {
        if (hit[i] == CLOTH__HIT_NONE)
            continue;
        double vb[3] = {0, 0, 0}, vn = 0;
        const double *n = normal + 3 * i;
        if (hit[i] == CLOTH__HIT_SPHERE)
            memcpy(vb, vs, sizeof vb);
        else if (hit[i] == CLOTH__HIT_BODY)
            cloth__avatar_velocity(sim->avatar, x1 + 3 * i, h, vb);
        for (int k = 0; k < 3; k++)
            vn += (v[3 * i + k] - vb[k]) * n[k];
        if (vn < 0)
            for (int k = 0; k < 3; k++)
                v[3 * i + k] -= vn * n[k];
    }
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
    int obstacles = s->sphere.enabled || s->floor.enabled || sim->avatar;
    cloth__collide_def def = {s->material.thickness, s->material.self_friction,
                              s->run.collision_passes, sim->mesh->n,
                              obstacles ? s : NULL, sim->sphere_c, &sim->avatar_push};
    cloth__collide_result r;
    int status = cloth__collide_step(cs->collide, &def, h, x0, x1, v, sim->mesh->inv_mass, &r);
    if (status != 0 || !r.resolved)
        stats->not_converged = 1;
    if (status == 0 && r.obstacle_moves)
        obstacle_velocities(cs, sim, h, x1, v);
    if (r.passes > sim->collide_passes)
        sim->collide_passes = r.passes;
    sim->collide_zones += r.zones;
    sim->collide_ms += cloth__clock_ms() - start;
}
