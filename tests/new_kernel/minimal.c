/*
 * minimal — the smallest kernel: symplectic Euler on the shared forces, nothing else.
 *
 * It is the kernel that docs/architecture.md ("Adding a kernel") walks through, and the
 * one tests/new_kernel/check.sh adds to a copy of the tree exactly as those steps say:
 * this file as src/kernels/minimal/minimal.c and one line X(minimal) in
 * src/kernels/registry.c.  Its settings (one key, minimal.decay) are its own struct,
 * kept in the scene's settings block for this kernel; no other file names them.
 *
 *   v <- decay (v + h f(x, v) / m),   x <- x + h v      (pins held at x0)
 *
 * From rest under gravity alone, with decay 1, after n steps v_n = n h g and
 * x_n = x_0 + h^2 g n (n + 1) / 2: the closed form the check compares with.
 *
 * It has no contact code: the sim's contact stage runs after each step (its table says
 * nothing about contact), and the check drapes it over a sphere and drops a sheet on
 * another under every run.self_collision mode.
 */
#include "sim/sim.h"
#include "terms/forces.h"
#include "core/status.h"

#include <stddef.h>
#include <string.h>

/* The [minimal] keys. */
typedef struct cloth__minimal_def {
    double decay;               /* velocity factor per step, in (0, 1]               */
} cloth__minimal_def;

CLOTH__SETTINGS_FIT(cloth__minimal_def);

static const cloth__minimal_def *settings(const cloth_sim *sim)
{
    return cloth__sim_settings(sim);
}

/* Nothing to allocate: the sim's force buffer is the only scratch. */
static cloth_status minimal_create(const cloth_sim *sim, void **work, cloth_error *err)
{
    (void)sim;
    (void)err;
    *work = NULL;
    return CLOTH_OK;
}

static cloth_status minimal_step(cloth_sim *sim, void *work, double h,
                                 cloth__step_stats *stats, cloth_error *err)
{
    (void)work;
    const cloth_mesh *m = sim->mesh;
    cloth__force_env env = cloth__sim_force_env(sim);
    memset(sim->force, 0, 3 * (size_t)m->n * sizeof(double));
    cloth__add_external_forces(env, sim->x, sim->v, sim->t, sim->force);
    cloth_status st = cloth__add_spring_forces(env, sim->x, sim->v, sim->force);
    if (st != CLOTH_OK)
        return cloth__fail(err, st, "spring forces failed");
    double decay = settings(sim)->decay;
    for (int i = 0; i < m->n; i++)
        for (int k = 0; k < 3; k++) {
            int j = 3 * i + k;
            if (m->pinned[i]) {
                sim->x[j] = m->x0[j];
                sim->v[j] = 0;
                continue;
            }
            sim->v[j] = decay * (sim->v[j] + h * sim->force[j] * m->inv_mass[i]);
            sim->x[j] += h * sim->v[j];
        }
    stats->iterations = 0;
    return CLOTH_OK;
}

static const cloth__key minimal_keys[] = {
    {.section = "minimal", .name = "decay", .type = CLOTH__KEY_DOUBLE,
     .offset = offsetof(cloth__minimal_def, decay), .lo = 0, .hi = 1, .lo_open = 1, .def = "1",
     .help = "velocity factor per step (1 = none)"},
};

const cloth__kernel cloth__minimal_kernel = {
    .name = "minimal",
    .summary = "symplectic Euler on the shared forces (the example of docs/architecture.md)",
    .keys = minimal_keys,
    .n_keys = (int)(sizeof minimal_keys / sizeof minimal_keys[0]),
    .create = minimal_create,
    .step = minimal_step,
    .frame_substeps = 20, /* conditionally stable like explicit's symplectic Euler */
    /* Nothing about contact: .contact is then CLOTH__CONTACT_AFTER, and the sim runs the
     * contact stage (src/sim/contact.h) after every step, so the sphere, the floor, the
     * avatar and every run.self_collision mode are honoured without a line here. */
};
