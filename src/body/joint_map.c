/* Joint maps (joint_map.h): the built-in namings, their recognition, map files. */
#include "body/joint_map.h"
#include "core/ini.h"
#include "core/status.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The mannequin's joints in the order of mannequin.c, and each naming's clip joint for
 * them; then the clip joints the naming knows and leaves unmapped (folded into the
 * mapped joint above them), which only count towards recognising it. */
static const char *const body_joints[17] = {
    "pelvis", "spine", "chest", "neck", "head",
    "l_shoulder", "l_elbow", "l_wrist", "r_shoulder", "r_elbow", "r_wrist",
    "l_hip", "l_knee", "l_ankle", "r_hip", "r_knee", "r_ankle"};

typedef struct naming {
    const char *name;
    const char *mapped[17];     /* clip joint of body_joints[i]                        */
    const char *known[64];      /* unmapped joints of the naming, NULL-terminated      */
} naming;

/* Mixamo first: a Mixamo clip has every joint CMU maps (Spine1 is Mixamo's middle spine
 * joint), so CMU is taken only when it knows more of the clip's joints. */
static const naming namings[] = {
    {"Mixamo",
     {"Hips", "Spine", "Spine2", "Neck", "Head",
      "LeftArm", "LeftForeArm", "LeftHand", "RightArm", "RightForeArm", "RightHand",
      "LeftUpLeg", "LeftLeg", "LeftFoot", "RightUpLeg", "RightLeg", "RightFoot"},
     {"Spine1", "HeadTop_End", "LeftShoulder", "RightShoulder", "LeftToeBase",
      "RightToeBase", "LeftToe_End", "RightToe_End",
      "LeftHandThumb1", "LeftHandThumb2", "LeftHandThumb3", "LeftHandThumb4",
      "LeftHandIndex1", "LeftHandIndex2", "LeftHandIndex3", "LeftHandIndex4",
      "LeftHandMiddle1", "LeftHandMiddle2", "LeftHandMiddle3", "LeftHandMiddle4",
      "LeftHandRing1", "LeftHandRing2", "LeftHandRing3", "LeftHandRing4",
      "LeftHandPinky1", "LeftHandPinky2", "LeftHandPinky3", "LeftHandPinky4",
      "RightHandThumb1", "RightHandThumb2", "RightHandThumb3", "RightHandThumb4",
      "RightHandIndex1", "RightHandIndex2", "RightHandIndex3", "RightHandIndex4",
      "RightHandMiddle1", "RightHandMiddle2", "RightHandMiddle3", "RightHandMiddle4",
      "RightHandRing1", "RightHandRing2", "RightHandRing3", "RightHandRing4",
      "RightHandPinky1", "RightHandPinky2", "RightHandPinky3", "RightHandPinky4", NULL}},
    {"CMU",
     {"Hips", "Spine", "Spine1", "Neck", "Head",
      "LeftArm", "LeftForeArm", "LeftHand", "RightArm", "RightForeArm", "RightHand",
      "LeftUpLeg", "LeftLeg", "LeftFoot", "RightUpLeg", "RightLeg", "RightFoot"},
     {"LHipJoint", "RHipJoint", "LowerBack", "Neck1", "LeftShoulder", "RightShoulder",
      "LeftToeBase", "RightToeBase", "LeftFingerBase", "RightFingerBase",
      "LeftHandIndex1", "RightHandIndex1", "LThumb", "RThumb", NULL}},
    /* Biovision (the .bvh format's own exports, many mocap banks): its LeftShoulder is
     * the upper arm (CMU's and Mixamo's LeftArm), LeftCollar the clavicle; a clip of
     * either other naming has no Chest, LeftElbow or LeftHip, so the three never tie */
    {"Biovision",
     {"Hips", "Chest", "Chest2", "Neck", "Head",
      "LeftShoulder", "LeftElbow", "LeftWrist", "RightShoulder", "RightElbow", "RightWrist",
      "LeftHip", "LeftKnee", "LeftAnkle", "RightHip", "RightKnee", "RightAnkle"},
     {"LeftCollar", "RightCollar", "Chest3", "Chest4", "LeftToe", "RightToe",
      "LeftFingerBase", "RightFingerBase", NULL}},
};

/* a == b without b's namespace (up to its last ':') and without regard to case */
static int same_name(const char *clip_joint, const char *name)
{
    const char *colon = strrchr(clip_joint, ':');
    const char *a = colon ? colon + 1 : clip_joint;
    while (*a && *name && tolower((unsigned char)*a) == tolower((unsigned char)*name))
        a++, name++;
    return !*a && !*name;
}

static int clip_find_loose(const cloth__clip *clip, const char *name)
{
    for (int i = 0; i < clip->n_joints; i++)
        if (same_name(clip->joint[i].name, name))
            return i;
    return -1;
}

static void map_empty(cloth__joint_map *map, const char *naming)
{
    memset(map, 0, sizeof *map);
    snprintf(map->naming, sizeof map->naming, "%s", naming);
    for (int j = 0; j < CLOTH__MAX_JOINTS; j++)
        map->clip_joint[j] = -1;
}

cloth_status cloth__joint_map_recognise(const cloth__clip *clip, const cloth__skeleton *s,
                                        const char *clip_name, cloth__joint_map *map,
                                        cloth_error *err)
{
    /* the body's own names: the project's clips, and an OBJ body's clip */
    map_empty(map, "the body's own");
    int own = 0;
    for (int j = 0; j < s->n; j++) {
        map->clip_joint[j] = cloth__clip_find(clip, s->joint[j].name);
        own += map->clip_joint[j] >= 0;
    }
    if (own) {
        map->own = 1;
        return CLOTH_OK;
    }
    int best = -1, best_score = 0;
    for (int n = 0; n < (int)(sizeof namings / sizeof namings[0]); n++) {
        int complete = 1, score = 0;
        for (int i = 0; i < 17 && complete; i++)
            complete = clip_find_loose(clip, namings[n].mapped[i]) >= 0 &&
                       cloth__skeleton_find(s, body_joints[i]) >= 0;
        if (!complete)
            continue;
        for (int i = 0; i < clip->n_joints; i++) {
            int known = 0;
            for (int k = 0; k < 17 && !known; k++)
                known = same_name(clip->joint[i].name, namings[n].mapped[k]);
            for (int k = 0; namings[n].known[k] && !known; k++)
                known = same_name(clip->joint[i].name, namings[n].known[k]);
            score += known;
        }
        if (score > best_score)
            best = n, best_score = score;
    }
    if (best < 0) {
        const cloth__bvh_joint *jt = clip->joint;
        int nj = clip->n_joints;
        return cloth__fail(err, CLOTH_EINVAL, "%s: the clip's joints (%s%s%s%s%s%s) are in "
                           "no naming known here (the body's own, CMU, Mixamo, Biovision): map them "
                           "onto the body's joints with avatar.joint_map = FILE (a line "
                           "'clip_joint body_joint' each)", clip_name, jt[0].name,
                           nj > 1 ? ", " : "", nj > 1 ? jt[1].name : "", nj > 2 ? ", " : "",
                           nj > 2 ? jt[2].name : "", nj > 3 ? ", ..." : "");
    }
    map_empty(map, namings[best].name);
    for (int i = 0; i < 17; i++)
        map->clip_joint[cloth__skeleton_find(s, body_joints[i])] =
            clip_find_loose(clip, namings[best].mapped[i]);
    return CLOTH_OK;
}

/* ----------------------------------------------------------------- map files */

cloth_status cloth__joint_map_parse(const char *text, const char *name, const cloth__clip *clip,
                                    const cloth__skeleton *s, cloth__joint_map *map,
                                    cloth_error *err)
{
    map_empty(map, "avatar.joint_map's");
    int line = 0, mapped = 0;
    const char *p = text;
    while (*p) {
        line++;
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *hash = memchr(p, '#', len);
        if (hash)
            len = (size_t)(hash - p);
        /* up to three words: two wanted, a third is an error */
        char word[3][256];
        int n = 0;
        size_t i = 0;
        while (i < len && n < 3) {
            while (i < len && strchr(" \t\r", p[i]))
                i++;
            if (i == len)
                break;
            size_t start = i;
            while (i < len && !strchr(" \t\r", p[i]))
                i++;
            if (i - start >= sizeof word[0])
                return cloth__fail(err, CLOTH_EPARSE, "%s:%d: a name longer than %zu "
                                   "characters", name, line, sizeof word[0] - 1);
            memcpy(word[n], p + start, i - start);
            word[n++][i - start] = '\0';
        }
        if (n == 1 || n == 3)
            return cloth__fail(err, CLOTH_EPARSE, "%s:%d: expected two names, the clip's "
                               "joint and the body's", name, line);
        if (n == 2) {
            int c = cloth__clip_find(clip, word[0]), b = cloth__skeleton_find(s, word[1]);
            if (c < 0)
                return cloth__fail(err, CLOTH_EINVAL, "%s:%d: '%s': the clip has no joint "
                                   "of this name", name, line, word[0]);
            if (b < 0)
                return cloth__fail(err, CLOTH_EINVAL, "%s:%d: '%s': the body has no joint "
                                   "of this name (%s, %s, %s, ...)", name, line, word[1],
                                   s->joint[0].name, s->n > 1 ? s->joint[1].name : "",
                                   s->n > 2 ? s->joint[2].name : "");
            if (map->clip_joint[b] >= 0)
                return cloth__fail(err, CLOTH_EINVAL, "%s:%d: body joint '%s' mapped twice",
                                   name, line, word[1]);
            map->clip_joint[b] = c;
            mapped++;
        }
        p += eol ? (size_t)(eol - p) + 1 : strlen(p);
    }
    if (!mapped)
        return cloth__fail(err, CLOTH_EINVAL, "%s: maps no joint", name);
    return CLOTH_OK;
}

cloth_status cloth__joint_map_load(const char *path, const cloth__clip *clip,
                                   const cloth__skeleton *s, cloth__joint_map *map,
                                   cloth_error *err)
{
    char *text;
    cloth_status st = cloth__ini_read_file(path, &text, err);
    if (st != CLOTH_OK)
        return st;
    st = cloth__joint_map_parse(text, path, clip, s, map, err);
    free(text);
    return st;
}
