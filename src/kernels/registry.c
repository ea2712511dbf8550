/*
 * The kernel table, and the public functions that need it.  Adding a kernel is its folder
 * under src/kernels/ and one line in CLOTH__KERNELS below; nothing else names it.  The
 * layers below know no kernel: scenes take the kernels' key sections from a
 * cloth__keyset and sims their kernels from a cloth__registry, both handed in.  The
 * public functions of cloth.h that read scenes, list kernels or build a sim from a mesh
 * are defined here, over the table of every kernel (cloth_sim_create, which may first
 * sew a mesh.garment, is in src/assemble/).
 */
#include "kernels/registry.h"
#include "sim/sim.h"

#include <stddef.h>
#include <string.h>

/* Every kernel, one line each, in the order of `cloth list` and of the scene's settings
 * blocks: X(NAME) stands for the ops table cloth__NAME_kernel that the folder
 * src/kernels/NAME/ defines (docs/architecture.md, Adding a kernel). */
#define CLOTH__KERNELS(X) \
    X(explicit) \
    X(verlet) \
    X(pbd) \
    X(newton) \
    X(bw) \
    X(pd)

#define DECLARE(name) extern const cloth__kernel cloth__##name##_kernel;
CLOTH__KERNELS(DECLARE)
#undef DECLARE

#define ENTRY(name) &cloth__##name##_kernel,
static const cloth__kernel *const kernels[] = {CLOTH__KERNELS(ENTRY)};
#undef ENTRY

#define N_KERNELS ((int)(sizeof kernels / sizeof kernels[0]))
_Static_assert(N_KERNELS <= CLOTH_MAX_KERNELS, "more kernels than a scene has settings blocks "
               "(CLOTH_MAX_KERNELS, cloth.h)");

static const cloth__kernel *kernel_at(int i)
{
    return i >= 0 && i < N_KERNELS ? kernels[i] : NULL;
}

static const cloth__key *kernel_keys(int i, const char **name, int *n_keys)
{
    const cloth__kernel *k = kernel_at(i);
    if (!k)
        return NULL;
    *name = k->name;
    *n_keys = k->n_keys;
    return k->keys;
}

static const cloth__registry registry = {kernel_at, {kernel_keys}};

const cloth__registry *cloth__kernels(void)
{
    return &registry;
}

/* ------------------------------------------------------- the public kernels */

int cloth_kernel_count(void)
{
    return N_KERNELS;
}

const char *cloth_kernel_name(int i)
{
    return kernel_at(i) ? kernels[i]->name : NULL;
}

const char *cloth_kernel_summary(int i)
{
    return kernel_at(i) ? kernels[i]->summary : NULL;
}

int cloth_kernel_find(const char *name)
{
    for (int i = 0; name && i < N_KERNELS; i++)
        if (strcmp(kernels[i]->name, name) == 0)
            return i;
    return -1;
}

cloth_status cloth_kernel_info(int i, cloth_kernel_facts *out)
{
    const cloth__kernel *k = kernel_at(i);
    if (!k)
        return CLOTH_EINVAL;
    out->name = k->name;
    out->summary = k->summary;
    out->interactive_max = k->interactive_max;
    out->dense_max = k->dense_max;
    out->iteration_key = k->iteration_key;
    out->stiffness_key = k->stiffness_key;
    out->stiffness_max = k->stiffness_max;
    out->reports_cond = k->reports_cond;
    out->cond_off = k->cond_off;
    out->frame_substeps = k->frame_substeps;
    out->interactive_set = k->interactive_set;
    out->visit_bytes = k->visit_bytes;
    return CLOTH_OK;
}

/* --------------------------------------------- scenes and sims over the table */

void cloth_default_scene(cloth_scene *scene)
{
    cloth__default_scene(&registry.keys, scene);
}

cloth_status cloth_scene_load(const char *path, cloth_scene *scene, cloth_error *err)
{
    return cloth__scene_load(&registry.keys, path, scene, err);
}

cloth_status cloth_scene_parse(const char *text, const char *name, cloth_scene *scene,
                               cloth_error *err)
{
    return cloth__scene_parse(&registry.keys, text, name, scene, err);
}

cloth_status cloth_scene_set(cloth_scene *scene, const char *assignment, int arg,
                             cloth_error *err)
{
    return cloth__scene_set(&registry.keys, scene, assignment, arg, err);
}

void cloth_scene_print_keys(FILE *out, const char *section)
{
    cloth__scene_print_keys(&registry.keys, out, section);
}

cloth_status cloth_scene_get(const cloth_scene *scene, const char *key, char *value,
                             size_t size, cloth_error *err)
{
    return cloth__scene_get(&registry.keys, scene, key, value, size, err);
}

cloth_status cloth_sim_create_with_mesh(const cloth_scene *scene, cloth_mesh *mesh,
                                        cloth_sim **out, cloth_error *err)
{
    return cloth__sim_create_mesh(&registry, scene, mesh, out, err);
}
