/* Private: the mannequin's bones as the garment layer places panels on them
 * (garment/pattern.h, placement.bone). */
#ifndef CLOTH_BODY_GARMENT_BODY_H
#define CLOTH_BODY_GARMENT_BODY_H

#include "garment/pattern.h"

/* Every joint of the built-in mannequin at scale, in its rest pose: the bone from the
 * joint to its tip (mannequin.h), named as the joint ("pelvis", "l_shoulder", ...). */
cloth_status cloth__mannequin_garment_body(double scale, cloth__garment_body *out,
                                           cloth_error *err);

#endif
