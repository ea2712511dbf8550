/* Private: the simulation object shared by the run loop and the kernels. */
#ifndef CLOTH_SIM_H
#define CLOTH_SIM_H

#include "cloth.h"
#include "body/avatar.h"
#include "sim/kernel.h"
#include "terms/forces.h"
#include "terms/intersect.h"
#include "terms/obstacle.h"
#include "terms/wind.h"

struct cloth__interact;         /* interact.h: grab and the scene's own pins         */

struct cloth_sim {
    cloth_scene scene;          /* a copy of the scene it was made from              */
    cloth_mesh *mesh;           /* read-only during a step                           */
    const cloth__registry *registry; /* the kernels run.kernel may name               */
    const cloth__kernel *kernel;
    void *work;                 /* the kernel's own memory                           */
    int kernel_stale;           /* the pin set changed since the work was built: the
                                 * next frame rebuilds it first                      */
    unsigned stiffness_version; /* live.c adds 1 whenever it changes springs' k (for
                                 * kernels that keep a copy)                         */

    /* state (3n each) */
    double *x;                  /* positions                                         */
    double *v;                  /* velocities                                        */
    double *x_prev;             /* positions one step ago (Verlet)                   */
    double *force;              /* scratch for force sums, 3n                        */
    double t;                   /* time (s)                                          */
    long frame;                 /* frames done                                       */
    int step_failed;            /* 1 when the last frame stopped in a kernel step (its
                                   error, not a blow-up)                             */
    double sphere_c[3];         /* sphere centre at time t                           */
    cloth_avatar *avatar;       /* the [avatar] section's body, posed at time t, or NULL */
    cloth__push_body avatar_push; /* its push-out handed to terms (cloth__push_out);
                                 * push_out NULL without an avatar                   */

    cloth__wind wind;           /* turbulence parameters from run.seed               */
    double e_scale;             /* drift denominator: sum m|g| L + kinetic0 + elastic0 */
    double total0;              /* total energy at frame 0                           */

    struct cloth__interact *interact; /* grab state; scene pins restored by reset    */
    cloth__intersect *intersect; /* scratch of the intersection count (metrics)      */
};

/* The mesh, world, material and wind that the forces of terms/forces.h read. */
cloth__force_env cloth__sim_force_env(const cloth_sim *sim);

/* cloth_sim_create_with_mesh with the kernels of reg (kernels/registry.c passes every
 * kernel): mesh, made by the caller, is the sim's from here on (destroyed with it, or
 * here on failure) and the scene's mesh keys are not read; a NULL mesh is the scene's
 * own (cloth_mesh_create; a mesh.garment is sewn above, in garment/garment.c). */
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
