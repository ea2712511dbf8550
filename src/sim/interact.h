/* Private: what the sim keeps for interaction (interact.c): the scene's own pins and
 * initial positions, so that reset can undo runtime pins, and the grab of one vertex. */
#ifndef CLOTH_INTERACT_H
#define CLOTH_INTERACT_H

#include "sim/state.h"

typedef struct cloth__interact {
    unsigned char *scene_pinned;    /* n: the pins the scene made                        */
    double *scene_x0;               /* 3n: the initial positions the mesh made           */

    int grabbed;                    /* vertex held by cloth_sim_grab, or -1              */
    double p1[3];                   /* its position when grabbed                         */
    double o1[3], d1[3];            /* the grab ray: camera position, unit direction     */
    double dist;                    /* |p1 - o1|                                         */
    unsigned char was_pinned;       /* its pin state before the grab ...                 */
    double was_x0[3];               /* ... and where a pin held it                       */

} cloth__interact;

/* Allocates sim->interact and copies the mesh's pins and x0 (after cloth_mesh_create). */
cloth_status cloth__interact_create(cloth_sim *sim, cloth_error *err);
void cloth__interact_destroy(cloth__interact *ia);

/* Drops the grab and puts back the scene's pins and x0 (called by cloth_sim_reset). */
void cloth__interact_reset(cloth_sim *sim);

#endif
