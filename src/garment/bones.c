/* The mannequin's rest skeleton for placing a garment's panels (bones.h). */
#include "garment/bones.h"
#include "body/mannequin.h"

#include <stdio.h>
#include <string.h>

cloth_status cloth__mannequin_garment_body(double scale, cloth__garment_body *out,
                                           cloth_error *err)
{
    cloth__body body;
    cloth_status st = cloth__mannequin(scale, &body, err);
    if (st != CLOTH_OK)
        return st;
    memset(out, 0, sizeof *out);
    out->scale = scale;
    for (int j = 0; j < body.skel.n && j < CLOTH_GARMENT_MAX_BONES; j++) {
        cloth__garment_bone *b = &out->bone[out->n++];
        snprintf(b->name, sizeof b->name, "%s", body.skel.joint[j].name);
        memcpy(b->joint, body.skel.rest[j], sizeof b->joint);
        memcpy(b->tip, body.tip[j], sizeof b->tip);
    }
    return CLOTH_OK;
}
