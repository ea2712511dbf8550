/* Private: the mannequin's bones as this layer places panels on them (pattern.h,
 * placement.bone); the body layer below knows no garment. */
#ifndef CLOTH_GARMENT_BONES_H
#define CLOTH_GARMENT_BONES_H

#include "garment/pattern.h"

/* Every joint of the built-in mannequin at scale, in its rest pose: the bone from
 * the joint to its tip (body/mannequin.h), named as the joint ("pelvis",
 * "l_shoulder", ...). */
cloth_status cloth__mannequin_garment_body(double scale, cloth__garment_body *out,
                                           cloth_error *err);

#endif
