/* Private: motion clips in the BVH format (Biovision hierarchy, the common text format
 * of motion capture), and the pose of a skeleton at a time of a clip.
 *
 *   HIERARCHY
 *   ROOT pelvis { OFFSET x y z  CHANNELS 6 Xposition Yposition Zposition Zrotation
 *                 Xrotation Yrotation  JOINT spine { OFFSET ... CHANNELS 3 ... } }
 *   MOTION
 *   Frames: N
 *   Frame Time: dt
 *   one line of numbers per frame, the channels in hierarchy order
 *
 * Rotations are in degrees; a joint's rotation is the product of its rotation channels
 * in the order written (Zrotation Xrotation Yrotation is R = Rz Rx Ry), relative to the
 * clip's rest pose, which is taken to be the skeleton's.  Distances are in metres (the
 * project's clips, experiments/avatar/) and are multiplied by the body's scale.  Joints
 * are matched to the skeleton by name; clip joints the skeleton lacks are ignored. */
#ifndef CLOTH_BODY_BVH_H
#define CLOTH_BODY_BVH_H

#include "body/skeleton.h"

#define CLOTH__BVH_MAX_JOINTS 64
#define CLOTH__BVH_MAX_FRAMES 100000

typedef struct cloth__bvh_joint {
    char name[CLOTH__JOINT_NAME];
    int parent;                 /* -1 for the root                                    */
    double offset[3];
    int n_channels;             /* 0, 3 or 6                                          */
    int channel[6];             /* 0..2 X/Y/Z position, 3..5 X/Y/Z rotation           */
    int first;                  /* index of its first channel in a frame's row        */
    int has_end;                /* 1 if it has an End Site                            */
    double end[3];              /* the (first) End Site's offset from the joint       */
} cloth__bvh_joint;

typedef struct cloth__clip {
    int n_joints;
    cloth__bvh_joint joint[CLOTH__BVH_MAX_JOINTS];
    int n_channels;             /* numbers per frame                                  */
    int n_frames;
    double frame_time;          /* s                                                  */
    double *data;               /* n_frames rows of n_channels                        */
    int map[CLOTH__BVH_MAX_JOINTS]; /* skeleton joint of each clip joint, or -1        */
} cloth__clip;

/* Parses text; name is used in messages "NAME:LINE: why".  CLOTH_EPARSE on any error,
 * the clip then empty. */
cloth_status cloth__bvh_parse(const char *text, const char *name, cloth__clip *clip,
                              cloth_error *err);

/* Reads and parses the file at path. */
cloth_status cloth__bvh_load(const char *path, cloth__clip *clip, cloth_error *err);

/* The same for a skeleton file (avatar.skeleton): the HIERARCHY alone is needed, its
 * OFFSETs giving the rest pose; CHANNELS and a MOTION section may be there or not. */
cloth_status cloth__bvh_parse_skeleton(const char *text, const char *name, cloth__clip *clip,
                                       cloth_error *err);
cloth_status cloth__bvh_load_skeleton(const char *path, cloth__clip *clip, cloth_error *err);

void cloth__clip_free(cloth__clip *clip);

/* Matches the clip's joints to the skeleton's by name; an error when none matches. */
cloth_status cloth__clip_bind(cloth__clip *clip, const cloth__skeleton *s, const char *name,
                              cloth_error *err);

/* The pose at time t (s, the clip looping), channels interpolated linearly between
 * frames; joints the clip does not move keep their rest rotation. */
void cloth__clip_pose(const cloth__clip *clip, const cloth__skeleton *s, double t, double scale,
                      cloth__pose *pose);

/* The clip's length (s): n_frames frame_time. */
double cloth__clip_duration(const cloth__clip *clip);

#endif
