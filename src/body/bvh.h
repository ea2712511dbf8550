/* Private: motion clips in the BVH format (Biovision hierarchy, the common text format
 * of motion capture).
 *
 *   HIERARCHY
 *   ROOT Hips { OFFSET x y z  CHANNELS 6 Xposition Yposition Zposition Zrotation
 *               Xrotation Yrotation  JOINT Spine { OFFSET ... CHANNELS 3 ... } }
 *   MOTION
 *   Frames: N
 *   Frame Time: dt
 *   one line of numbers per frame, the channels in hierarchy order
 *
 * Rotations are in degrees; a joint's rotation is the product of its rotation channels
 * in the order written (Zrotation Xrotation Yrotation is R = Rz Rx Ry), relative to the
 * clip's rest pose (every rotation zero: the OFFSETs), so that a joint's rest frame is
 * the world's.  A joint has 3 channels (a rotation, each axis once: one of the six
 * orders) or 6 (a position and a rotation, each axis once); the root's position channels
 * give its position in the clip's world (a root with 3 stays where its OFFSET puts it),
 * a non-root joint's are read and not used.  Names may have any length.  What the reader
 * refuses it refuses with "NAME:LINE: why".  How a clip moves a body (its joint names,
 * rest pose and units) is retarget.h's. */
#ifndef CLOTH_BODY_BVH_H
#define CLOTH_BODY_BVH_H

#include "body/skeleton.h"

#define CLOTH__BVH_MAX_JOINTS 256
#define CLOTH__BVH_MAX_FRAMES 100000

typedef struct cloth__bvh_joint {
    char *name;                 /* allocated, any length                              */
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

/* Index of the joint called name, or -1. */
int cloth__clip_find(const cloth__clip *clip, const char *name);

/* The clip's length (s): n_frames frame_time. */
double cloth__clip_duration(const cloth__clip *clip);

/* Where time t (s) falls in the looping clip: frames f0 and f1 = f0 + 1 (the last runs
 * into the first) and the fraction a in [0, 1) of the way from f0 to f1.  A time within
 * 1e-9 of a frame's lands on it (t / frame_time is rarely a whole number in floating
 * point even where it is one in exact arithmetic: 120 fps at dt = 1/60). */
void cloth__clip_frame_at(const cloth__clip *clip, double t, int *f0, int *f1, double *a);

/* Joint i's local rotation in frame f: the product of its rotation channels in their
 * order (the identity without). */
void cloth__clip_rotation(const cloth__clip *clip, int i, int f, double R[9]);

/* Joint i's position channels in frame f, its OFFSET for an axis without one; 1 if it
 * has any. */
int cloth__clip_position(const cloth__clip *clip, int i, int f, double p[3]);

/* The rest pose's world positions of the joints (pos[i]) and of each joint's End Site
 * (end[i], the joint's own position without one); either may be NULL. */
void cloth__clip_rest(const cloth__clip *clip, double (*pos)[3], double (*end)[3]);

#endif
