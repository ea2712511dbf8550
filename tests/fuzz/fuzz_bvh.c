/*
 * Fuzz target: the BVH reader and what plays a clip on the mannequin.  The input is the
 * file.  What reads is given a naming (recognised; when none is, a joint map of the first
 * clip joints onto pelvis, spine and chest, written as a map file's text), retargeted
 * (units from the hip heights, or avatar.motion_scale = 0.01 when the first byte is odd;
 * the root's first place kept when bit 1 is set) and posed at a few times, the pose's
 * forward kinematics run.  Every refusal must carry a message.
 */
#include "body/joint_map.h"
#include "body/retarget.h"
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    static cloth__clip clip;    /* 256 joints: too large for the stack of a fuzzer */
    static cloth__body body;
    static cloth__retarget rt;
    cloth_error err;
    cloth_status st = cloth__bvh_parse(text, "fuzz.bvh", &clip, &err);
    fuzz_check_failure(st, &err);
    free(text);
    if (st != CLOTH_OK)
        return 0;
    st = cloth__mannequin(1, &body, &err);
    fuzz_check_failure(st, &err);
    if (st != CLOTH_OK)
        abort(); /* the mannequin always builds */
    cloth__joint_map map;
    st = cloth__joint_map_recognise(&clip, &body.skel, "fuzz.bvh", &map, &err);
    fuzz_check_failure(st, &err);
    if (st != CLOTH_OK) {
        static const char *const targets[3] = {"pelvis", "spine", "chest"};
        char lines[1024];
        size_t at = 0;
        for (int i = 0; i < 3 && i < clip.n_joints && at < sizeof lines; i++)
            at += (size_t)snprintf(lines + at, sizeof lines - at, "%.200s %s\n",
                                   clip.joint[i].name, targets[i]);
        st = cloth__joint_map_parse(lines, "fuzz.map", &clip, &body.skel, &map, &err);
        fuzz_check_failure(st, &err);
    }
    if (st == CLOTH_OK) {
        int flags = size > 0 ? data[0] : 0;
        st = cloth__retarget_bind(&rt, &clip, &map, &body, 1, (flags & 1) ? 0.01 : 0,
                                  (flags >> 1) & 1, "fuzz.bvh", &err);
        fuzz_check_failure(st, &err);
    }
    if (st == CLOTH_OK) {
        static const double times[5] = {0, 0.37, -2.5, 1e6, 1.0 / 120};
        for (int k = 0; k < 5; k++) {
            cloth__pose pose;
            double pos[CLOTH__MAX_JOINTS][3];
            cloth__retarget_pose(&rt, &clip, &body.skel, times[k], &pose);
            cloth__skeleton_fk(&body.skel, &pose, pos, NULL);
        }
    }
    cloth__clip_free(&clip);
    return 0;
}
