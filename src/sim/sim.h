/* Private: the simulation object shared by the run loop and the kernels. */
#ifndef CLOTH_SIM_H
#define CLOTH_SIM_H

#include "cloth.h"
#include "sim/kernel.h"
#include "terms/forces.h"
#include "terms/wind.h"

struct cloth__interact;         /* interact.h: grab and the scene's own pins         */

struct cloth_sim {
    cloth_scene scene;          /* a copy of the scene it was made from              */
    cloth_mesh *mesh;           /* read-only during a step                           */
    const cloth__kernel *kernel;
    void *work;                 /* the kernel's own memory                           */

    /* state (3n each) */
    double *x;                  /* positions                                         */
    double *v;                  /* velocities                                        */
    double *x_prev;             /* positions one step ago (Verlet)                   */
    double *force;              /* scratch for force sums, 3n                        */
    double t;                   /* time (s)                                          */
    long frame;                 /* frames done                                       */
    double sphere_c[3];         /* sphere centre at time t                           */

    cloth__wind wind;           /* turbulence parameters from run.seed               */
    double e_scale;             /* drift denominator: sum m|g| L + kinetic0 + elastic0 */
    double total0;              /* total energy at frame 0                           */

    struct cloth__interact *interact; /* grab state; scene pins restored by reset    */
};

/* The mesh, world, material and wind that the forces of terms/forces.h read. */
cloth__force_env cloth__sim_force_env(const cloth_sim *sim);

/* Sets sim->sphere_c to the sphere centre at time t. */
void cloth__sim_move_obstacles(cloth_sim *sim, double t);

/* Sets total0 and e_scale from the current state, so drift is measured from here (after
 * reset, and after a live change of gravity, stiffness or kernel). */
void cloth__sim_energy_reference(cloth_sim *sim);

#endif
