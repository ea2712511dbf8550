/* Private: which joint of a clip moves which joint of the body (docs/avatar.md, "Motion
 * capture").
 *
 * Three namings are recognised from the clip's hierarchy alone, so that avatar.motion is
 * enough: the body's own names (the project's clips; the clip's rest pose is taken to be
 * the body's, its distances in the body's metres: nothing to retarget); CMU's (the BVH
 * conversions of the CMU motion-capture database: Hips, LHipJoint, LeftUpLeg, LeftLeg,
 * LeftFoot, LowerBack, Spine, Spine1, Neck, Neck1, Head, LeftShoulder, LeftArm,
 * LeftForeArm, LeftHand, ...) and Mixamo's (Hips, Spine, Spine1, Spine2, Neck, Head,
 * LeftArm, ..., with a namespace such as "mixamorig:" before each), each onto the
 * mannequin's 17 joints.  A built-in naming is compared without its namespace (the text
 * up to the last ':') and without regard to case.  Any other naming is mapped by a file
 * (avatar.joint_map), one line a joint: the clip's joint, then the body's; '#' starts a
 * comment.  A clip joint left out of the map moves with the mapped joint above it
 * (retarget.h folds its rotation in). */
#ifndef CLOTH_BODY_JOINT_MAP_H
#define CLOTH_BODY_JOINT_MAP_H

#include "body/bvh.h"

typedef struct cloth__joint_map {
    char naming[64];            /* "the body's own", "CMU", "Mixamo" or "joint map"    */
    int own;                    /* 1: the body's own names (no retargeting)           */
    int clip_joint[CLOTH__MAX_JOINTS]; /* the clip joint of each body joint, or -1     */
} cloth__joint_map;

/* Recognises the clip's naming (clip_name for messages) against the skeleton s: the
 * body's own names when one clip joint has a body joint's name, else the built-in
 * naming all of whose 17 joints the clip has and which knows most of its joints.  None:
 * CLOTH_EINVAL naming the file, its first three joints and avatar.joint_map. */
cloth_status cloth__joint_map_recognise(const cloth__clip *clip, const cloth__skeleton *s,
                                        const char *clip_name, cloth__joint_map *map,
                                        cloth_error *err);

/* The map in text (a file's, name for messages "NAME:LINE: why"): every clip joint it
 * names must be the clip's and every body joint the skeleton's, each once. */
cloth_status cloth__joint_map_parse(const char *text, const char *name, const cloth__clip *clip,
                                    const cloth__skeleton *s, cloth__joint_map *map,
                                    cloth_error *err);
cloth_status cloth__joint_map_load(const char *path, const cloth__clip *clip,
                                   const cloth__skeleton *s, cloth__joint_map *map,
                                   cloth_error *err);

#endif
