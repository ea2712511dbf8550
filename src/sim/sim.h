/* Private: the simulation object's life and frame (sim.c), shared by the run loop and
 * the kernels; its fields are in state.h. */
#ifndef CLOTH_SIM_H
#define CLOTH_SIM_H

#include "cloth.h"
#include "body/avatar.h"
#include "sim/state.h"
#include "terms/forces.h"

/* The settings of the sim's kernel (its own struct, laid out in its folder): valid from
 * its create on, read-only during a step. */
static inline const void *cloth__sim_settings(const cloth_sim *sim)
{
    return sim->scene.kernel[sim->kernel_slot].bytes;
}

/* The mesh, world, material and wind that the forces of terms/forces.h read. */
cloth__force_env cloth__sim_force_env(const cloth_sim *sim);

/* "FILE:LINE" (or "--set:N", or the scene file alone for a default) where the key
 * section.name of the sim's scene got its value, for a kernel's messages at creation. */
void cloth__sim_key_where(const cloth_sim *sim, const char *section, const char *name,
                          char *where, size_t size);

/* cloth_sim_create_with_mesh with the kernels of reg (kernels/registry.c passes every
 * kernel): mesh, made by the caller, is the sim's from here on (destroyed with it, or
 * here on failure) and the scene's mesh keys are not read; a NULL mesh is the scene's
 * own (cloth_mesh_create; a mesh.garment is sewn above, in assemble/assemble.c). */
cloth_status cloth__sim_create_mesh(const cloth__registry *reg, const cloth_scene *scene,
                                    cloth_mesh *mesh, cloth_sim **out, cloth_error *err);

/* Builds kernel's work for the sim's current state (x_prev = x - h v, then start) and
 * swaps it in; the old work is freed only once the new one exists, so on failure the sim
 * is unchanged.  Used for a kernel switch, a change of a kernel key, and (at the start of
 * a frame) a change of the pins, which a kernel may have sorted its springs by. */
cloth_status cloth__sim_rebuild_kernel(cloth_sim *sim, const cloth__kernel *kernel,
                                       cloth_error *err);

/* Sets sim->sphere_c to the sphere centre at time t and poses the avatar for t. */
void cloth__sim_move_obstacles(cloth_sim *sim, double t);

/* Sets total0 and e_scale from the current state, so drift is measured from here (after
 * reset, and after a live change of gravity, stiffness or kernel). */
void cloth__sim_energy_reference(cloth_sim *sim);

#endif
