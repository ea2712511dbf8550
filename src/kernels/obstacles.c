/* The projecting kernels' obstacle rule after a step; what and why in obstacles.h. */
#include "kernels/obstacles.h"
#include "body/avatar.h"
#include "sim/sim.h"
#include "terms/obstacle.h"

#include <string.h>

void cloth__kernel_obstacles(cloth_sim *sim, const double c_old[3], double h,
                             unsigned char *hit_out, double *normal_out)
{
    const cloth_scene *s = &sim->scene;
    if (!s->sphere.enabled && !s->floor.enabled && !sim->avatar)
        return;
    double start = sim->avatar ? cloth__clock_ms() : 0;
    double vs[3] = {(sim->sphere_c[0] - c_old[0]) / h, (sim->sphere_c[1] - c_old[1]) / h,
                    (sim->sphere_c[2] - c_old[2]) / h};
    for (int i = 0; i < sim->mesh->n; i++) {
        double n[3], vb[3] = {0, 0, 0}, *v = sim->v + 3 * i;
        if (sim->mesh->pinned[i])
            continue;
        int hit = cloth__push_out(s, sim->sphere_c, &sim->avatar_push, sim->x + 3 * i, n);
        if (hit == CLOTH__HIT_NONE)
            continue;
        if (hit_out)
            hit_out[i] = (unsigned char)hit;
        if (normal_out)
            memcpy(normal_out + 3 * i, n, sizeof n);
        /* the obstacle's own velocity there: the sphere's centre, the body's material */
        if (hit == CLOTH__HIT_SPHERE)
            memcpy(vb, vs, sizeof vb);
        else if (hit == CLOTH__HIT_BODY)
            cloth__avatar_velocity(sim->avatar, sim->x + 3 * i, h, vb);
        double vn = 0;
        for (int k = 0; k < 3; k++)
            vn += (v[k] - vb[k]) * n[k];
        if (vn < 0)
            for (int k = 0; k < 3; k++)
                v[k] -= vn * n[k];
    }
    if (sim->avatar)
        sim->avatar->collide_ms += cloth__clock_ms() - start;
}
