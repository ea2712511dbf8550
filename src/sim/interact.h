/* Private: what the sim keeps for interaction (interact.c): the scene's own pins and
 * initial positions, so that reset can undo runtime pins, and the grab of one vertex. */
#ifndef CLOTH_INTERACT_H
#define CLOTH_INTERACT_H

#include "sim/sim.h"

typedef struct cloth__interact {
    unsigned char *scene_pinned;    /* n: the pins the scene made                        */
    double *scene_x0;               /* 3n: the initial positions the mesh made           */

    int grabbed;                    /* vertex held by cloth_sim_grab, or -1              */
    double p1[3];                   /* its position when grabbed                         */
    double o1[3], d1[3];            /* the grab ray: camera position, unit direction     */
    double dist;                    /* |p1 - o1|                                         */
    unsigned char was_pinned;       /* its pin state before the grab ...                 */
    double was_x0[3];               /* ... and where a pin held it                       */

    int kernel_stale;               /* the pin set changed since the kernel's create     */
} cloth__interact;

/* Allocates sim->interact and copies the mesh's pins and x0 (after cloth_mesh_create). */
cloth_status cloth__interact_create(cloth_sim *sim, cloth_error *err);
void cloth__interact_destroy(cloth__interact *ia);

/* Drops the grab and puts back the scene's pins and x0 (called by cloth_sim_reset). */
void cloth__interact_reset(cloth_sim *sim);

/* At the start of a frame: rebuilds the kernel's work if the pin set changed (once for
 * any number of changes).  CLOTH_ENOMEM leaves the old work, which is then used. */
cloth_status cloth__interact_begin_frame(cloth_sim *sim, cloth_error *err);

/* Builds kernel's work for the sim's current state (x_prev = x - h v, then start) and
 * swaps it in; the old work is freed only once the new one exists (live.c).  Used for a
 * kernel switch, a change of a kernel key, and a change of the pins, which a kernel may
 * have sorted its springs by at create. */
cloth_status cloth__sim_rebuild_kernel(cloth_sim *sim, const cloth__kernel *kernel,
                                       cloth_error *err);

#endif
