/* Private: the simulation object's fields (struct cloth_sim), which the frame loop
 * (sim.c), the kernels, the metrics (metrics.c) and the interaction (interact.c) read and
 * write.  A header of its own, so the files sim.c calls read the object without
 * including sim.h back. */
#ifndef CLOTH_SIM_STATE_H
#define CLOTH_SIM_STATE_H

#include "cloth.h"
#include "sim/kernel.h"
#include "terms/intersect.h"
#include "terms/obstacle.h"
#include "terms/tunnel.h"
#include "terms/wind.h"

struct cloth__interact;         /* interact.h: grab and the scene's own pins         */

struct cloth_sim {
    cloth_scene scene;          /* a copy of the scene it was made from              */
    cloth_mesh *mesh;           /* read-only during a step                           */
    const cloth__registry *registry; /* the kernels run.kernel may name               */
    const cloth__kernel *kernel;
    int kernel_slot;            /* its place in the registry: scene.kernel[slot] holds
                                 * its settings (set before its create is called)    */
    void *work;                 /* the kernel's own memory                           */
    struct cloth__contact *contact; /* the contact stage (contact.h) built for the kernel
                                 * and the scene; NULL when the kernel's contact is its
                                 * own                                               */
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
    struct cloth__pin_follow *follow; /* the pins moving with the avatar, or NULL
                                 * (mesh.pins_follow; sim/pin_follow.h)               */

    cloth__wind wind;           /* turbulence parameters from run.seed               */
    double e_scale;             /* drift denominator: sum m|g| L + kinetic0 + elastic0 */
    double total0;              /* total energy at frame 0                           */

    struct cloth__interact *interact; /* grab state; scene pins restored by reset    */
    cloth__intersect *intersect; /* scratch of the intersection count (metrics)      */
    cloth__tunnel *tunnel;      /* scratch of the tunnelled count (metrics)          */
    double *x_frame;            /* 3n: positions at the end of the last frame (or of
                                 * the reset), where the tunnelled motion starts      */
    /* the robust collision phase's counts of the current frame (sim/contact.h adds to
     * them, the frame zeroes them first and writes them into its columns) */
    int collide_passes;         /* most CCD passes of one step                        */
    long collide_zones;         /* impact zones formed, summed over the steps         */
    double collide_ms;          /* wall time of the stage                             */
};

#endif
