/* A clip played from start to end with the garment on (src/body/playback.c, attach.c,
 * src/sim/pin_follow.c; docs/avatar.md, "Playing a real capture"): a pin attached to a
 * rotating forearm follows the arm's rigid motion (closed form); the blend-in and the
 * blend at the clip's end keep every skin point under the guard's bound, and a blend too
 * short for it does not; looping clips are told from clips that do not loop; the guard
 * fires on a forced teleport (and fails the run with avatar.strict); the Biovision
 * naming plays without a map as the map plays it; and the cape on a clip that does not
 * loop, with root motion, past its end, for every kernel that takes an avatar: body
 * depth within the offset in every frame and no stretch at frame 0. */
#include "body/attach.h"
#include "body/avatar.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLIPS "../experiments/avatar/"

/* The avatar of "[avatar]" keys (';' for newlines) over the defaults. */
static cloth_avatar *avatar(const char *keys)
{
    cloth_scene s;
    char text[1024];
    cloth_error err;
    snprintf(text, sizeof text, "[avatar]\n%s\n", keys);
    for (char *p = text; *p; p++)
        if (*p == ';')
            *p = '\n';
    ck_assert_msg(cloth_scene_parse(text, "x.ini", &s, &err) == CLOTH_OK, "%s", err.msg);
    cloth_avatar *av;
    const char *bad;
    ck_assert_msg(cloth__avatar_create(&s.avatar, "x.ini", &av, &bad, &err) == CLOTH_OK,
                  "%s: %s", bad, err.msg);
    return av;
}

static double dist3(const double a[3], const double b[3])
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                (a[2] - b[2]) * (a[2] - b[2]));
}

/* A point 3 cm above the middle of the left forearm (rest: the arm along +x), attached
 * there; the elbow turned by theta about an axis: the point goes to
 * e + R (x0 - e), e the elbow, as the forearm does (its weights are the forearm's alone),
 * and stays 3 cm from the skin (no push: the offset is 1 cm). */
START_TEST(attached_pin_follows_a_rotating_forearm)
{
    cloth_avatar *av = avatar("collision=sdf;sdf_resolution=64");
    const cloth__skeleton *s = &av->body.skel;
    int elbow = cloth__skeleton_find(s, "l_elbow"), wrist = cloth__skeleton_find(s, "l_wrist");
    double e[3], w[3];
    memcpy(e, s->rest[elbow], sizeof e);
    memcpy(w, s->rest[wrist], sizeof w);
    double x0[3] = {0.5 * (e[0] + w[0]), 0.5 * (e[1] + w[1]), 0.5 * (e[2] + w[2])};
    /* 3 cm out of the skin straight up: the capsule's radius plus 3 cm */
    double d = cloth__avatar_distance(av, x0); /* negative: the axis is inside */
    x0[1] += -d + 0.03;
    ck_assert_double_eq_tol(cloth__avatar_distance(av, x0), 0.03, 1e-12);
    cloth__attachment a;
    cloth__avatar_attach(av, x0, &a);
    double sum = 0;
    for (int k = 0; k < CLOTH__SKIN; k++)
        if (a.joint[k] == elbow)
            sum += a.weight[k];
    ck_assert_msg(sum > 1 - 1e-12, "the forearm's weight is %g", sum);
    double x[3];
    cloth__avatar_attached(av, &a, x);
    ck_assert_msg(memcmp(x, x0, sizeof x) == 0, "moved at rest by %g", dist3(x, x0));
    const double axes[3][3] = {{0, 0, 1}, {0, 1, 0}, {0.6, 0, 0.8}};
    const double angles[3] = {0.3, 1.2, -2.0};
    for (int i = 0; i < 3; i++) {
        cloth__pose p;
        cloth__pose_rest(s, &p);
        double R[9];
        cloth__rot_axis_angle(axes[i], angles[i], R);
        memcpy(p.rot[elbow], R, sizeof R);
        av->pose = p;
        cloth__bt_set_pose(&av->bt, &av->body, &av->pose, &av->now);
        cloth__avatar_attached(av, &a, x);
        double r[3] = {x0[0] - e[0], x0[1] - e[1], x0[2] - e[2]}, want[3];
        cloth__mat_vec(R, r, want);
        for (int k = 0; k < 3; k++)
            want[k] += e[k];
        ck_assert_msg(dist3(x, want) < 1e-12, "axis %d: %g m from the rigid motion", i,
                      dist3(x, want));
        ck_assert_double_eq_tol(cloth__avatar_distance(av, x), 0.03, 1e-12);
    }
    cloth__avatar_destroy(av);
}
END_TEST

/* The largest skin step between poses at t and t + h. */
static double step_at(cloth_avatar *av, double t, double h)
{
    cloth__pose a, b;
    cloth__xform xa[CLOTH__MAX_JOINTS], xb[CLOTH__MAX_JOINTS];
    cloth__playback_pose(&av->play, t, &a);
    cloth__playback_pose(&av->play, t + h, &b);
    cloth__skeleton_fk(&av->body.skel, &a, NULL, xa);
    cloth__skeleton_fk(&av->body.skel, &b, NULL, xb);
    int j;
    return cloth__playback_skin_step(&av->body, xa, xb, &j);
}

/* The auto blend-in (the walk-away clip starts with the arms 60 degrees down from the
 * T pose) and the default blend of 1 s at the clip's end keep every skin step under the
 * bound (the offset, 1 cm, at h = 1/300 s); the blend-in is aimed at half of it, so its
 * largest step sits near half (the 64 samples it was measured at).  A blend of 20 ms
 * breaks the bound: the check can fail. */
START_TEST(blends_keep_the_skin_under_the_bound)
{
    const double h = 1.0 / 300;
    cloth_avatar *av = avatar("motion=" CLIPS "cmu_walk_away.bvh;collision=capsules;"
                              "clip_end=blend");
    cloth__avatar_set_substep(av, h);
    const cloth__playback *p = &av->play;
    ck_assert(p->auto_blend_in && p->blend_in > 0.1);
    ck_assert_double_eq_tol(p->max_step, 0.01, 1e-15);
    double worst = 0;
    for (double t = 0; t < p->blend_in; t += h)
        worst = fmax(worst, step_at(av, t, h));
    ck_assert_msg(worst <= p->max_step, "blend-in: %g m a step", worst);
    ck_assert_msg(worst > 0.4 * p->max_step && worst < 0.55 * p->max_step,
                  "blend-in: %g m a step, aimed at half of %g", worst, p->max_step);
    double end = p->blend_in + p->last_t, blend = 0;
    for (double t = end; t < end + av->def.blend_time; t += h)
        blend = fmax(blend, step_at(av, t, h));
    ck_assert_msg(blend > 0 && blend <= p->max_step, "blend: %g m a step", blend);
    /* the blend ends on the first pose, where the clip starts again */
    cloth__pose q, first;
    cloth__playback_pose(&av->play, end + av->def.blend_time, &q);
    cloth__playback_pose(&av->play, p->blend_in, &first);
    for (int j = 0; j < av->body.skel.n; j++)
        for (int k = 0; k < 9; k++)
            ck_assert_double_eq_tol(q.rot[j][k], first.rot[j][k], 1e-12);
    cloth__avatar_destroy(av);
    av = avatar("motion=" CLIPS "cmu_walk_away.bvh;collision=capsules;clip_end=blend;"
                "blend_time=0.02");
    cloth__avatar_set_substep(av, h);
    end = av->play.blend_in + av->play.last_t;
    blend = 0;
    for (double t = end; t < end + 0.02; t += h)
        blend = fmax(blend, step_at(av, t, h));
    ck_assert_msg(blend > av->play.max_step, "a 20 ms blend: %g m a step", blend);
    cloth__avatar_destroy(av);
}
END_TEST

/* walk.bvh (36 frames of a 1.2 s cycle at 30 fps: the 37th would be the first),
 * biovision_walk.bvh (two cycles) and cmu_walk.bvh (2.5 cycles: every joint's angle is
 * a multiple of sin(2 pi t / T), the same after half a cycle) loop by their poses;
 * cmu_walk_away.bvh (1.25 cycles) does not: sin turns from 0 to 1, the hips by 25
 * degrees, the knees by 30.  The defaults follow: loop, hold. */
START_TEST(looping_clips_are_detected)
{
    static const struct {
        const char *keys;
        int loops;
        double angle; /* the largest joint turn from the last pose to the first, at least */
    } clips[] = {
        {"motion=" CLIPS "walk.bvh", 1, 0},
        {"motion=" CLIPS "biovision_walk.bvh", 1, 0},
        {"motion=" CLIPS "cmu_walk.bvh", 1, 0},
        {"motion=" CLIPS "cmu_walk_away.bvh", 0, 25},
    };
    for (size_t i = 0; i < sizeof clips / sizeof clips[0]; i++) {
        char keys[256];
        snprintf(keys, sizeof keys, "%s;collision=capsules", clips[i].keys);
        cloth_avatar *av = avatar(keys);
        const cloth__playback *p = &av->play;
        ck_assert_msg(p->loops == clips[i].loops, "%s: loops %d (%.3g deg, tolerance %.3g)",
                      clips[i].keys, p->loops, p->loop_angle * 180 / M_PI,
                      p->loop_tol * 180 / M_PI);
        ck_assert_int_eq(p->end, clips[i].loops ? CLOTH_CLIP_END_LOOP : CLOTH_CLIP_END_HOLD);
        ck_assert_msg(p->loop_angle * 180 / M_PI >= clips[i].angle, "%s: %.3g deg",
                      clips[i].keys, p->loop_angle * 180 / M_PI);
        cloth__avatar_destroy(av);
    }
}
END_TEST

/* A small sheet above the head (its pins stay in the world: 40 cm from the skin). */
static cloth_sim *walk_away(const char *extra, const char *run, int *frames)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 3\nny = 3\nspacing = 0.05\nplane = xz\norigin = -0.05 2.2 -0.05\n"
             "[avatar]\nmotion = " CLIPS "cmu_walk_away.bvh\ncollision = capsules\n%s\n"
             "[run]\nkernel = verlet\ndt = 0.016666666666666666\nsubsteps = 5\n%s\n", extra,
             run);
    for (char *p = text; *p; p++)
        if (*p == ';')
            *p = '\n';
    cloth_sim *sim = tu_sim(text, "walk.ini");
    *frames = (int)cloth_sim_scene(sim)->run.frames;
    return sim;
}

/* clip_end = loop on a clip that does not loop, no blend-in: at the wrap (the clip's
 * last frame time, from 179/120 s to 1.5 s, in frame 90 at 1/60 s) the limbs jump back to
 * the first pose: the guard names frame 90 and one joint.  Played to its end with the defaults (blend-in, hold), it stays silent; run.frames
 * unset, the run lasts the blend-in, the clip and one second of holding.  With
 * avatar.strict the teleport fails the frame. */
START_TEST(guard_fires_on_a_teleport)
{
    int frames;
    cloth_sim *sim = walk_away("clip_end = loop;blend_in = 0", "frames = 100", &frames);
    cloth_avatar *av = cloth_sim_avatar(sim);
    char note[512];
    ck_assert(!cloth__avatar_guard_note(av, 1.0 / 60, note, sizeof note));
    tu_frames(sim, 89);
    ck_assert_msg(!cloth__avatar_guard_note(av, 1.0 / 60, note, sizeof note), "%s", note);
    tu_frames(sim, 2);
    ck_assert(cloth__avatar_guard_note(av, 1.0 / 60, note, sizeof note));
    int named = 0;
    for (int j = 0; j < av->body.skel.n; j++) {
        char want[96];
        snprintf(want, sizeof want, "joint %s moved", av->body.skel.joint[j].name);
        named += strstr(note, want) != NULL;
    }
    ck_assert_msg(strstr(note, "frame 90 ") && named == 1, "%s", note);
    cloth_sim_destroy(sim);

    sim = walk_away("", "", &frames);
    av = cloth_sim_avatar(sim);
    ck_assert_int_eq(frames, (int)ceil((av->play.blend_in + 1.5 + 1) * 60 - 1e-9));
    tu_frames(sim, frames);
    ck_assert_msg(!cloth__avatar_guard_note(av, 1.0 / 60, note, sizeof note), "%s", note);
    ck_assert(av->play.seen > 0 && av->play.seen <= av->play.max_step);
    cloth_sim_destroy(sim);

    sim = walk_away("clip_end = loop;blend_in = 0;strict = on", "", &frames);
    tu_frames(sim, 89);
    cloth_frame f;
    cloth_error err;
    ck_assert(cloth_sim_frame(sim, &f, &err) != CLOTH_OK);
    ck_assert_msg(strstr(err.msg, "body speed guard") && strstr(err.msg, "avatar.strict"),
                  "%s", err.msg);
    cloth_sim_destroy(sim);
}
END_TEST

/* biovision_walk.bvh plays without a map (Biovision names), pose for pose as with
 * biovision.map, which maps the same joints. */
START_TEST(biovision_naming_plays_without_a_map)
{
    cloth_avatar *a = avatar("motion=" CLIPS "biovision_walk.bvh;collision=capsules"),
                 *b = avatar("motion=" CLIPS "biovision_walk.bvh;collision=capsules;"
                             "joint_map=" CLIPS "biovision.map");
    ck_assert_str_eq(a->rt.naming, "Biovision");
    for (double t = 0; t < 2.4; t += 0.1) {
        cloth__pose p, q;
        cloth__playback_pose(&a->play, t, &p);
        cloth__playback_pose(&b->play, t, &q);
        for (int j = 0; j < a->body.skel.n; j++)
            for (int k = 0; k < 9; k++)
                ck_assert_double_eq_tol(p.rot[j][k], q.rot[j][k], 1e-15);
        for (int k = 0; k < 3; k++)
            ck_assert_double_eq_tol(p.root[k], q.root[k], 1e-15);
    }
    cloth__avatar_destroy(a);
    cloth__avatar_destroy(b);
}
END_TEST

/* The cape, coarse (8 x 10, 7 cm), its front row pinned behind the neck (mesh.pins_follow
 * auto: body), on the walk-away clip (root 1.2 m forward, no loop), played 0.25 s past its
 * end, the sheet's height jittered by up to 5 mm (run.seed): no vertex deeper than the
 * offset into the skin in any frame, and no stretch at frame 0 (the scene's at rest: a
 * rigidly moved grid).  Every kernel that takes an avatar, at its figure's substeps
 * (bw and pd at twice theirs). */
static const struct {
    const char *kernel;
    int substeps;
} cape_runs[] = {{"explicit", 40}, {"verlet", 5}, {"pbd", 5}, {"newton", 1},
                 /* bw and pd at 5 substeps: 11 and 10.5 mm on this coarse cape (20.8 mm
                  * for pd with 2 g vertices), in the middle of the clip, not at its blends:
                  * their push-out after a whole implicit step; 10 substeps: 3.0, 3.1 mm */
                 {"bw", 10}, {"pd", 10}};

START_TEST(cape_follows_a_walk_away_clip)
{
    const double offset = 0.01;
    for (int seed = 1; seed <= tu_seeds(2); seed++) {
        char text[2048];
        snprintf(text, sizeof text,
                 "[mesh]\nnx = 8\nny = 10\nspacing = 0.07\nplane = xz\n"
                 "origin = -0.245 1.53 -0.70\njitter = 0.005\n"
                 "pins = 72 73 74 75 76 77 78 79\n"
                 "[material]\nk_structural = 500\nk_shear = 200\nk_bend = 5\n"
                 "vertex_mass = 0.004\nspring_damping = 0.01\n[world]\nair_damping = 0.0005\n"
                 "[avatar]\nmotion = " CLIPS "cmu_walk_away.bvh\noffset = %g\n"
                 "sdf_resolution = 64\n"
                 "[newton]\ncond = off\n"
                 "[run]\nkernel = %s\nsubsteps = %d\ndt = 0.016666666666666666\nseed = %d\n",
                 offset, cape_runs[_i].kernel, cape_runs[_i].substeps, seed);
        cloth_sim *sim = tu_sim(text, "cape.ini");
        cloth_avatar *av = cloth_sim_avatar(sim);
        int frames = (int)ceil((av->play.blend_in + 1.5 + 0.25) * 60);
        cloth_frame f;
        cloth_error err;
        cloth_sim_measure(sim, &f);
        ck_assert_msg(f.stretch_max <= 1e-12, "%s: stretch %g at frame 0",
                      cape_runs[_i].kernel, f.stretch_max);
        double worst = 0;
        for (int k = 1; k <= frames; k++) {
            ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
            worst = fmax(worst, f.body_depth);
            ck_assert_msg(f.body_depth <= offset, "%s seed %d: frame %d: %g m into the skin",
                          cape_runs[_i].kernel, seed, k, f.body_depth);
        }
        cloth_sim_destroy(sim);
    }
}
END_TEST

Suite *suite_body_play(void)
{
    Suite *s = suite_create("body_play");
    TCase *tc = tcase_create("play");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, attached_pin_follows_a_rotating_forearm);
    tcase_add_test(tc, blends_keep_the_skin_under_the_bound);
    tcase_add_test(tc, looping_clips_are_detected);
    tcase_add_test(tc, guard_fires_on_a_teleport);
    tcase_add_test(tc, biovision_naming_plays_without_a_map);
    tcase_add_loop_test(tc, cape_follows_a_walk_away_clip, 0,
                        (int)(sizeof cape_runs / sizeof cape_runs[0]));
    suite_add_tcase(s, tc);
    return s;
}
