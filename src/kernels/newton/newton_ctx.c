/* newton: the step context — what a step reads of the sim and its scene, gathered in one
 * place (newton_work.h).  The only file of the kernel that reads the scene's settings
 * blocks; every stage reads the context instead. */
#include "kernels/newton/newton_work.h"

void cloth__newton_ctx_build(cloth__newton_ctx *ctx, const cloth_sim *sim, double h)
{
    const cloth_scene *s = &sim->scene;
    *ctx = (cloth__newton_ctx){
        .nd = cloth__sim_settings(sim),
        .h = h > 0 ? h : s->run.dt / s->run.substeps,
        .substeps = s->run.substeps,
        .frame = sim->frame,
        .source = s->source,
        .mesh = sim->mesh,
        .x = sim->x,
        .v = sim->v,
        .t = sim->t,
        .env = cloth__sim_force_env(sim),
        .thickness = s->material.thickness,
        .spring_damping = s->material.spring_damping,
        .prestretch = s->mesh.prestretch,
        .self_collision = s->run.self_collision,
        .gravity = {s->world.gravity[0], s->world.gravity[1], s->world.gravity[2]},
        .air_damping = s->world.air_damping,
        .sphere = s->sphere,
        .sphere_c = {sim->sphere_c[0], sim->sphere_c[1], sim->sphere_c[2]},
        .floor = s->floor,
        .avatar = sim->avatar,
        .avatar_offset = s->avatar.offset,
        .avatar_collision = s->avatar.collision,
    };
}
