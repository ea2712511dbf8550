/*
 * Live changes of a running sim (cloth_sim_set): the viewer's sliders, through the same
 * key table, parser and ranges as scene files and --set.
 *
 * Only keys whose new value the next step can simply read are live: world forces,
 * spring stiffness (copied into every spring of the family), spring damping, the
 * sphere's size, substeps.  A kernel's own keys may be read by its create (sizes,
 * modes), so changing one rebuilds the kernel's work; run.kernel builds another kernel's
 * work.  Both keep the state: x_prev = x - h v hands the velocity to Verlet-style
 * kernels.  Keys that shape the mesh (mesh.*, masses) or time (run.dt) need a new sim.
 */
#include "core/status.h"
#include "sim/interact.h"
#include "sim/kernel.h"
#include "sim/sim.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef enum { LIVE_NO = 0, LIVE_DIRECT, LIVE_ENERGY, LIVE_STIFFNESS, LIVE_SPHERE,
               LIVE_KERNEL_KEY, LIVE_KERNEL } live_kind;

/* How a change of section.key reaches the running sim. */
static live_kind live_kind_of(const cloth__registry *reg, const char *section,
                               const char *key)
{
    if (strcmp(section, "world") == 0)
        return strcmp(key, "gravity") == 0 ? LIVE_ENERGY : LIVE_DIRECT;
    if (strcmp(section, "material") == 0) {
        if (strcmp(key, "k_structural") == 0 || strcmp(key, "k_shear") == 0 ||
            strcmp(key, "k_bend") == 0)
            return LIVE_STIFFNESS;
        return strcmp(key, "spring_damping") == 0 ? LIVE_DIRECT : LIVE_NO;
    }
    if (strcmp(section, "sphere") == 0)
        return strcmp(key, "radius") == 0 || strcmp(key, "offset") == 0 ? LIVE_SPHERE
                                                                        : LIVE_NO;
    if (strcmp(section, "run") == 0) {
        if (strcmp(key, "substeps") == 0)
            return LIVE_DIRECT;
        return strcmp(key, "kernel") == 0 ? LIVE_KERNEL : LIVE_NO;
    }
    return cloth__registry_find(reg, section) ? LIVE_KERNEL_KEY : LIVE_NO;
}

cloth_status cloth_sim_set(cloth_sim *sim, const char *assignment, cloth_error *err)
{
    char section[64], key[64];
    const char *dot = strchr(assignment, '.'), *eq = strchr(assignment, '=');
    if (!dot || !eq || dot > eq || dot - assignment >= (long)sizeof section ||
        eq - dot - 1 >= (long)sizeof key)
        return cloth__fail(err, CLOTH_EINVAL, "%.200s: expected section.key=value", assignment);
    snprintf(section, sizeof section, "%.*s", (int)(dot - assignment), assignment);
    snprintf(key, sizeof key, "%.*s", (int)(eq - dot - 1), dot + 1);
    live_kind kind = live_kind_of(sim->registry, section, key);
    if (kind == LIVE_NO)
        return cloth__fail(err, CLOTH_EINVAL, "%s.%s: cannot change while running (only world.*, "
                           "material stiffness and spring damping, sphere radius and offset, "
                           "run.substeps, run.kernel and kernel keys)", section, key);
    if (kind == LIVE_SPHERE && !sim->scene.sphere.enabled)
        return cloth__fail(err, CLOTH_EINVAL, "%s.%s: the scene has no sphere", section, key);

    cloth_scene next = sim->scene;
    cloth_status st = cloth__scene_set(&sim->registry->keys, &next, assignment, 1, err);
    if (st != CLOTH_OK) {
        /* "--set:1: key: why" -> "key: why" */
        const char *why = err ? strstr(err->msg, ": ") : NULL;
        if (why)
            memmove(err->msg, why + 2, strlen(why + 2) + 1);
        return CLOTH_EINVAL;
    }

    cloth_scene before = sim->scene;
    sim->scene = next;
    switch (kind) {
    case LIVE_STIFFNESS:
        for (int s = 0; s < sim->mesh->n_springs; s++)
            sim->mesh->springs[s].k = next.material.k[sim->mesh->springs[s].family];
        sim->stiffness_version++;
        cloth__sim_energy_reference(sim);
        break;
    case LIVE_ENERGY:
        cloth__sim_energy_reference(sim);
        break;
    case LIVE_KERNEL:
    case LIVE_KERNEL_KEY: {
        const cloth__kernel *k = cloth__registry_find(sim->registry, next.run.kernel);
        st = k ? cloth__sim_rebuild_kernel(sim, k, err)
               : cloth__fail(err, CLOTH_EINVAL, "run.kernel: unknown kernel '%s'", next.run.kernel);
        if (st != CLOTH_OK) {
            sim->scene = before;
            return st;
        }
        if (kind == LIVE_KERNEL)
            cloth__sim_energy_reference(sim);
        break;
    }
    default:
        break;
    }
    return CLOTH_OK;
}
