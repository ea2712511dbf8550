/*
 * explicit — mass-spring cloth integrated by forward or symplectic Euler (SPEC 4.1;
 * the explicit mass-spring tutorial and the mass-spring cloth paper).
 *
 *   a = f(x, v) / m        f: gravity, wind, air damping, Hooke springs, spring damping
 *   forward:     x' = x + h v,   v' = v + h a        (energy grows: unstable for springs)
 *   symplectic:  v' = v + h a,   x' = x + h v'       (energy bounded for h < 2/omega_max)
 *   v' *= decay                                      (the explicit mass-spring tutorial)
 *
 * Then pinned vertices return to their prescribed positions, and a vertex inside an
 * obstacle is put back on its surface with its inward normal velocity (relative to the
 * obstacle) removed.
 */
#include "terms/forces.h"
#include "terms/obstacle.h"
#include "sim/sim.h"

#include <stddef.h>
#include <string.h>

static cloth_status explicit_create(const cloth_sim *sim, void **work, cloth_error *err)
{
    (void)sim;
    (void)err;
    *work = NULL; /* the sim's force buffer is all this kernel needs */
    return CLOTH_OK;
}

static void compute_accelerations(cloth_sim *sim)
{
    double *f = sim->force;
    memset(f, 0, sizeof(double) * 3 * (size_t)sim->mesh->n);
    cloth__add_external_forces(cloth__sim_force_env(sim), sim->x, sim->v, sim->t, f);
    cloth__add_spring_forces(cloth__sim_force_env(sim), sim->x, sim->v, f);
    for (int i = 0; i < sim->mesh->n; i++)
        for (int c = 0; c < 3; c++)
            f[3 * i + c] *= sim->mesh->inv_mass[i];
}

static void integrate(cloth_sim *sim, double h)
{
    const double *a = sim->force;
    double decay = sim->scene.explicit_.decay;
    int forward = sim->scene.explicit_.scheme == CLOTH_EULER_FORWARD;
    for (int i = 0; i < 3 * sim->mesh->n; i++) {
        if (forward) {
            sim->x[i] += h * sim->v[i];
            sim->v[i] += h * a[i];
        } else {
            sim->v[i] += h * a[i];
            sim->x[i] += h * sim->v[i];
        }
        sim->v[i] *= decay;
    }
}

static void hold_pins(cloth_sim *sim)
{
    const cloth_mesh *m = sim->mesh;
    for (int i = 0; i < m->n; i++)
        if (m->pinned[i]) {
            memcpy(sim->x + 3 * i, m->x0 + 3 * i, 3 * sizeof(double));
            memset(sim->v + 3 * i, 0, 3 * sizeof(double));
        }
}

/* Vertices inside an obstacle go back to its surface; their velocity keeps only the
 * outward part of the velocity relative to the obstacle. */
static void collide(cloth_sim *sim, const double c_old[3], double h)
{
    const cloth_scene *s = &sim->scene;
    if (!s->sphere.enabled && !s->floor.enabled)
        return;
    double vs[3] = {(sim->sphere_c[0] - c_old[0]) / h, (sim->sphere_c[1] - c_old[1]) / h,
                    (sim->sphere_c[2] - c_old[2]) / h};
    for (int i = 0; i < sim->mesh->n; i++) {
        double n[3], *v = sim->v + 3 * i;
        if (sim->mesh->pinned[i])
            continue;
        int hit = cloth__push_out(s, sim->sphere_c, sim->x + 3 * i, n);
        if (hit == CLOTH__HIT_NONE)
            continue;
        int on_sphere = hit == CLOTH__HIT_SPHERE;
        double vn = 0;
        for (int k = 0; k < 3; k++)
            vn += (v[k] - (on_sphere ? vs[k] : 0)) * n[k];
        if (vn < 0)
            for (int k = 0; k < 3; k++)
                v[k] -= vn * n[k];
    }
}

static cloth_status explicit_step(cloth_sim *sim, void *work, double h,
                                  cloth__step_stats *stats, cloth_error *err)
{
    (void)work;
    (void)err;
    double c_old[3];
    cloth__sphere_center(&sim->scene.sphere, sim->t, c_old);
    compute_accelerations(sim);
    integrate(sim, h);
    hold_pins(sim);
    collide(sim, c_old, h);
    stats->iterations = 0;
    return CLOTH_OK;
}

static const char *const scheme_names[] = {"forward", "symplectic", NULL};

static const cloth__key explicit_keys[] = {
    {"explicit", "scheme", CLOTH__KEY_CHOICE, offsetof(cloth_scene, explicit_.scheme), 0, 0,
     0, 0, 0, scheme_names, NULL, "symplectic",
     "forward (x += h v; v += h a) or symplectic (v += h a; x += h v)"},
    {"explicit", "decay", CLOTH__KEY_DOUBLE, offsetof(cloth_scene, explicit_.decay), 0, 0, 1,
     1, 0, NULL, NULL, "1", "velocity factor per step (the mass-spring tutorial: 0.98)"},
};

const cloth__kernel cloth__explicit_kernel = {
    "explicit",
    "mass-spring forces, forward or symplectic Euler",
    explicit_keys,
    (int)(sizeof explicit_keys / sizeof explicit_keys[0]),
    explicit_create,
    NULL,
    NULL,
    explicit_step,
    NULL,
    NULL,
    NULL,
    .interactive_max = 0,
    .dense_max = 0,
    .iteration_key = NULL,
    .stiffness_key = NULL,
    .stiffness_max = 0,
    .reports_cond = 0,
    .cond_off = NULL,
    .frame_substeps = 20, /* conditionally stable: h = 1/1200 s < 2 / omega_max */
};
