/* Private: the scene's pins moving with the avatar (mesh.pins_follow = body,
 * docs/avatar.md): the pinned vertices attached to the body (body/attach.h), all moved
 * rigidly with one joint, the main joint nearest the root of their nearest skin points
 * (the chest for a cape, the pelvis for a skirt), put where it takes them before every
 * substep and kept out of the skin.  A pin is "inverse mass 0, held at its x0 row"
 * (sim/interact.c), so writing the x0 row (and x, for the kernels that hold a pin where
 * it is) moves it in every kernel. */
#ifndef CLOTH_SIM_PIN_FOLLOW_H
#define CLOTH_SIM_PIN_FOLLOW_H

#include "body/attach.h"
#include "cloth.h"

typedef struct cloth__pin_follow {
    int n;                      /* attached pins                                      */
    int *vertex;                /* their vertices                                     */
    cloth__attachment *at;      /* their attachments                                  */
} cloth__pin_follow;

/* Attaches the scene's pinned vertices when mesh.pins_follow is body, or auto and
 * every pin is within 10 cm (times avatar.scale) of the skin at t = 0; *out NULL otherwise. */
cloth_status cloth__pin_follow_create(cloth_sim *sim, cloth__pin_follow **out,
                                      cloth_error *err);
void cloth__pin_follow_destroy(cloth__pin_follow *pf);

/* Puts the attached pins (still pinned, not grabbed) where the avatar's current pose
 * takes them; their velocity is the move over h (h = 0: at rest, as after a reset). */
void cloth__pin_follow_apply(cloth_sim *sim, const cloth__pin_follow *pf, double h);

#endif
