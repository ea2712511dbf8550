/* Motion capture on the body (src/body/bvh.c, joint_map.c, retarget.c) against closed
 * forms: a CMU-named and a Mixamo-named clip whose rest poses differ from the
 * mannequin's (arms down, arms at 45 degrees) give the mannequin's rest pose in their
 * rest frame and, in a frame with a known elbow and knee angle, the rotation A Rx A^T of
 * the conjugated bend (an elbow bend stays a bend of the same angle) and the wrist and
 * ankle where the mannequin's bone lengths put them; slerp at the midpoint of 90
 * degrees about a skew axis is 45 degrees; a 120 fps clip at dt = 1/60 advances two
 * frames a step; the reader's new paths (tabs, long names, no root translation) and
 * refusals (file:line), and the naming refused by name. */
#include "body/avatar.h"
#include "body/joint_map.h"
#include "body/retarget.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOL 1e-9
#define C45 0.70710678118654752440 /* cos 45 degrees = sqrt(1/2) */

/* ------------------------------------------------------- clips written here */

typedef struct jrow {
    const char *name;
    int parent;                 /* an earlier row; rows are in depth-first order      */
    double off[3];              /* metres (times the clip's units in the file)        */
    int has_end;
    double end[3];
} jrow;

/* The CMU conversions' joints with the arms hanging straight down at rest. */
static const jrow cmu_rows[] = {
    {"Hips", -1, {0, 0, 0}, 0, {0}},
    {"LHipJoint", 0, {0, 0, 0}, 0, {0}},
    {"LeftUpLeg", 1, {0.09, -0.08, 0}, 0, {0}},
    {"LeftLeg", 2, {0, -0.42, 0}, 0, {0}},
    {"LeftFoot", 3, {0, -0.41, 0}, 0, {0}},
    {"LeftToeBase", 4, {0, -0.07, 0.12}, 1, {0, 0, 0.05}},
    {"RHipJoint", 0, {0, 0, 0}, 0, {0}},
    {"RightUpLeg", 6, {-0.09, -0.08, 0}, 0, {0}},
    {"RightLeg", 7, {0, -0.42, 0}, 0, {0}},
    {"RightFoot", 8, {0, -0.41, 0}, 0, {0}},
    {"RightToeBase", 9, {0, -0.07, 0.12}, 1, {0, 0, 0.05}},
    {"LowerBack", 0, {0, 0, 0}, 0, {0}},
    {"Spine", 11, {0, 0.10, 0}, 0, {0}},
    {"Spine1", 12, {0, 0.17, 0}, 0, {0}},
    {"Neck", 13, {0, 0.20, 0}, 0, {0}},
    {"Neck1", 14, {0, 0.05, 0}, 0, {0}},
    {"Head", 15, {0, 0.05, 0}, 1, {0, 0.15, 0}},
    {"LeftShoulder", 13, {0.02, 0.15, 0}, 0, {0}},
    {"LeftArm", 17, {0.15, 0, 0}, 0, {0}},
    {"LeftForeArm", 18, {0, -0.28, 0}, 0, {0}},
    {"LeftHand", 19, {0, -0.25, 0}, 1, {0, -0.08, 0}},
    {"RightShoulder", 13, {-0.02, 0.15, 0}, 0, {0}},
    {"RightArm", 21, {-0.15, 0, 0}, 0, {0}},
    {"RightForeArm", 22, {0, -0.28, 0}, 0, {0}},
    {"RightHand", 23, {0, -0.25, 0}, 1, {0, -0.08, 0}},
};

/* Mixamo's joints ("mixamorig:" added when written) with the arms 45 degrees down. */
static const jrow mixamo_rows[] = {
    {"Hips", -1, {0, 0.97, 0}, 0, {0}},
    {"Spine", 0, {0, 0.09, 0}, 0, {0}},
    {"Spine1", 1, {0, 0.11, 0}, 0, {0}},
    {"Spine2", 2, {0, 0.12, 0}, 0, {0}},
    {"Neck", 3, {0, 0.15, 0}, 0, {0}},
    {"Head", 4, {0, 0.09, 0}, 0, {0}},
    {"HeadTop_End", 5, {0, 0.18, 0}, 1, {0, 0, 0}},
    {"LeftShoulder", 3, {0.06, 0.11, 0}, 0, {0}},
    {"LeftArm", 7, {0.12, 0, 0}, 0, {0}},
    {"LeftForeArm", 8, {0.27 * C45, -0.27 * C45, 0}, 0, {0}},
    {"LeftHand", 9, {0.25 * C45, -0.25 * C45, 0}, 0, {0}},
    {"LeftHandIndex1", 10, {0.09 * C45, -0.09 * C45, 0}, 1, {0.03 * C45, -0.03 * C45, 0}},
    {"RightShoulder", 3, {-0.06, 0.11, 0}, 0, {0}},
    {"RightArm", 12, {-0.12, 0, 0}, 0, {0}},
    {"RightForeArm", 13, {-0.27 * C45, -0.27 * C45, 0}, 0, {0}},
    {"RightHand", 14, {-0.25 * C45, -0.25 * C45, 0}, 0, {0}},
    {"RightHandIndex1", 15, {-0.09 * C45, -0.09 * C45, 0}, 1, {-0.03 * C45, -0.03 * C45, 0}},
    {"LeftUpLeg", 0, {0.09, -0.06, 0}, 0, {0}},
    {"LeftLeg", 17, {0, -0.42, 0}, 0, {0}},
    {"LeftFoot", 18, {0, -0.42, 0}, 0, {0}},
    {"LeftToeBase", 19, {0, -0.07, 0.12}, 0, {0}},
    {"LeftToe_End", 20, {0, 0, 0.06}, 1, {0, 0, 0}},
    {"RightUpLeg", 0, {-0.09, -0.06, 0}, 0, {0}},
    {"RightLeg", 22, {0, -0.42, 0}, 0, {0}},
    {"RightFoot", 23, {0, -0.42, 0}, 0, {0}},
    {"RightToeBase", 24, {0, -0.07, 0.12}, 0, {0}},
    {"RightToe_End", 25, {0, 0, 0.06}, 1, {0, 0, 0}},
};

#define MAX_ROWS 32
#define MAX_FRAMES 16

/* A clip to write: its joints, rotation order, units (a metre's), frames. */
typedef struct clip_spec {
    const jrow *rows;
    int n;
    const char *prefix;         /* before every name ("mixamorig:")                   */
    const char *order;          /* "ZYX": Zrotation Yrotation Xrotation               */
    int root_moves;             /* 1: the root has position channels                  */
    double units, frame_time;
    int tabs;                   /* the header's separators: tabs                      */
    int n_frames;
    double pos[MAX_FRAMES][3];  /* the root's position channels (clip units)          */
    double rot[MAX_FRAMES][MAX_ROWS][3]; /* degrees about x, y, z, written in order    */
} clip_spec;

static size_t emit_joint(const clip_spec *c, int i, int depth, char *buf, size_t at,
                         size_t size)
{
    static const char *const rot_name[3] = {"Xrotation", "Yrotation", "Zrotation"};
    char pad[64];
    memset(pad, ' ', (size_t)(2 * depth));
    pad[2 * depth] = '\0';
    const jrow *r = &c->rows[i];
    at += (size_t)snprintf(buf + at, size - at, "%s%s %s%s\n%s{\n%s  OFFSET %.17g %.17g %.17g\n"
                           "%s  CHANNELS %d%s", pad, depth ? "JOINT" : "ROOT", c->prefix,
                           r->name, pad, pad, c->units * r->off[0], c->units * r->off[1],
                           c->units * r->off[2], pad, depth == 0 && c->root_moves ? 6 : 3,
                           depth == 0 && c->root_moves ? " Xposition Yposition Zposition"
                                                       : "");
    for (int k = 0; k < 3; k++)
        at += (size_t)snprintf(buf + at, size - at, " %s", rot_name[c->order[k] - 'X']);
    at += (size_t)snprintf(buf + at, size - at, "\n");
    for (int k = i + 1; k < c->n; k++)
        if (c->rows[k].parent == i)
            at = emit_joint(c, k, depth + 1, buf, at, size);
    if (r->has_end)
        at += (size_t)snprintf(buf + at, size - at, "%s  End Site\n%s  {\n%s    OFFSET %.17g "
                               "%.17g %.17g\n%s  }\n", pad, pad, pad, c->units * r->end[0],
                               c->units * r->end[1], c->units * r->end[2], pad);
    at += (size_t)snprintf(buf + at, size - at, "%s}\n", pad);
    return at;
}

/* The BVH text of c (rows in depth-first order, so a frame's channels are in rows'). */
static char *clip_text(const clip_spec *c)
{
    size_t size = 1 << 16, at = 0;
    char *buf = malloc(size);
    ck_assert_ptr_nonnull(buf);
    at += (size_t)snprintf(buf, size, "HIERARCHY\n");
    at = emit_joint(c, 0, 0, buf, at, size);
    const char *sep = c->tabs ? "\t" : " ";
    at += (size_t)snprintf(buf + at, size - at, "MOTION\nFrames:%s%d\nFrame Time:%s%.17g\n",
                           sep, c->n_frames, sep, c->frame_time);
    for (int f = 0; f < c->n_frames; f++) {
        if (c->root_moves)
            at += (size_t)snprintf(buf + at, size - at, "%.17g %.17g %.17g", c->pos[f][0],
                                   c->pos[f][1], c->pos[f][2]);
        for (int i = 0; i < c->n; i++)
            for (int k = 0; k < 3; k++)
                at += (size_t)snprintf(buf + at, size - at, "%s%.17g",
                                       (i || k || c->root_moves) ? " " : "",
                                       c->rot[f][i][c->order[k] - 'X']);
        at += (size_t)snprintf(buf + at, size - at, "\n");
    }
    ck_assert(at < size);
    return buf;
}

static int row_of(const clip_spec *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->rows[i].name, name) == 0)
            return i;
    ck_abort_msg("no row %s", name);
    return -1;
}

/* Two frames 1/120 s apart: the rest pose standing (the lowest End Site on the floor)
 * at (230, h, -50) units, then the left elbow bent alpha about x, the left knee beta
 * about x, the right hip's unmapped zero bone (RHipJoint) 10 degrees about x, the root
 * 10 units along x. */
static void cmu_spec(clip_spec *c, double alpha, double beta, int root_moves)
{
    memset(c, 0, sizeof *c);
    c->rows = cmu_rows;
    c->n = (int)(sizeof cmu_rows / sizeof cmu_rows[0]);
    c->prefix = "";
    c->order = "ZYX";
    c->root_moves = root_moves;
    c->units = 18;
    c->frame_time = 1.0 / 120;
    c->n_frames = 2;
    double h = 18 * 0.98;
    double p0[3] = {230, h, -50}, p1[3] = {240, h, -50};
    memcpy(c->pos[0], p0, sizeof p0);
    memcpy(c->pos[1], p1, sizeof p1);
    c->rot[1][row_of(c, "LeftForeArm")][0] = alpha;
    c->rot[1][row_of(c, "LeftLeg")][0] = beta;
    c->rot[1][row_of(c, "RHipJoint")][0] = 10;
}

/* Two frames 1/30 s apart, tabs in the header: the rest pose standing at (150, 97, 0)
 * cm, then the left elbow bent 90 degrees about x, the left knee 30 about x, the
 * unmapped middle spine joint (Spine1) turned 20 about y, the root 20 cm along z. */
static void mixamo_spec(clip_spec *c)
{
    memset(c, 0, sizeof *c);
    c->rows = mixamo_rows;
    c->n = (int)(sizeof mixamo_rows / sizeof mixamo_rows[0]);
    c->prefix = "mixamorig:";
    c->order = "ZXY";
    c->root_moves = 1;
    c->units = 100;
    c->frame_time = 1.0 / 30;
    c->tabs = 1;
    c->n_frames = 2;
    double p0[3] = {150, 97, 0}, p1[3] = {150, 97, 20};
    memcpy(c->pos[0], p0, sizeof p0);
    memcpy(c->pos[1], p1, sizeof p1);
    c->rot[1][row_of(c, "LeftForeArm")][0] = 90;
    c->rot[1][row_of(c, "LeftLeg")][0] = 30;
    c->rot[1][row_of(c, "Spine1")][1] = 20;
}

/* ---------------------------------------------------------------- helpers */

typedef struct played {
    cloth__body body;
    cloth__clip clip;
    cloth__joint_map map;
    cloth__retarget rt;
} played;

/* The mannequin (scale 1) and the clip of spec, its naming recognised. */
static played *play(const clip_spec *spec, const char *want_naming)
{
    played *p = calloc(1, sizeof *p);
    cloth_error err;
    ck_assert(cloth__mannequin(1, &p->body, &err) == CLOTH_OK);
    char *text = clip_text(spec);
    ck_assert_msg(cloth__bvh_parse(text, "clip.bvh", &p->clip, &err) == CLOTH_OK, "%s",
                  err.msg);
    free(text);
    ck_assert_msg(cloth__joint_map_recognise(&p->clip, &p->body.skel, "clip.bvh", &p->map,
                                             &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_str_eq(p->map.naming, want_naming);
    ck_assert_msg(cloth__retarget_bind(&p->rt, &p->clip, &p->map, &p->body, 1, 0, 0,
                                       "clip.bvh", &err) == CLOTH_OK, "%s", err.msg);
    return p;
}

static void unplay(played *p)
{
    cloth__clip_free(&p->clip);
    free(p);
}

static int body_joint(const played *p, const char *name)
{
    int j = cloth__skeleton_find(&p->body.skel, name);
    ck_assert_int_ge(j, 0);
    return j;
}

static void assert_mat(const double *got, const double *want, double tol, const char *what)
{
    for (int k = 0; k < 9; k++)
        ck_assert_msg(fabs(got[k] - want[k]) <= tol, "%s: entry %d is %.17g, want %.17g", what,
                      k, got[k], want[k]);
}

static void assert_vec(const double *got, const double *want, double tol, const char *what)
{
    for (int k = 0; k < 3; k++)
        ck_assert_msg(fabs(got[k] - want[k]) <= tol, "%s: %c is %.17g, want %.17g", what,
                      'x' + k, got[k], want[k]);
}

/* The rotation by a (degrees) about x, about y. */
static void rx(double a, double R[9])
{
    double c = cos(a * M_PI / 180), s = sin(a * M_PI / 180);
    double M[9] = {1, 0, 0, 0, c, -s, 0, s, c};
    memcpy(R, M, sizeof M);
}

static void ry(double a, double R[9])
{
    double c = cos(a * M_PI / 180), s = sin(a * M_PI / 180);
    double M[9] = {c, 0, s, 0, 1, 0, -s, 0, c};
    memcpy(R, M, sizeof M);
}

/* The clip's rest frame is the mannequin's rest pose: every rotation the identity, the
 * root where it is at rest (the floor on the floor, the first frame's horizontal place
 * taken away), so every joint at its rest place. */
static void assert_rest(const played *p)
{
    static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    cloth__pose pose;
    cloth__retarget_pose(&p->rt, &p->clip, &p->body.skel, 0, &pose);
    double pos[CLOTH__MAX_JOINTS][3];
    cloth__skeleton_fk(&p->body.skel, &pose, pos, NULL);
    for (int j = 0; j < p->body.skel.n; j++) {
        assert_mat(pose.rot[j], I, 1e-12, p->body.skel.joint[j].name);
        assert_vec(pos[j], p->body.skel.rest[j], TOL, p->body.skel.joint[j].name);
    }
}

/* ------------------------------------------------------------------ tests */

/* CMU: arms down at rest, so A = Rz(90) carries the clip's -y arm onto the mannequin's
 * +x one, and the elbow's Rx(alpha) becomes A Rx(alpha) A^T = Ry(alpha): the forearm
 * turns alpha from the upper arm, to (0.48 + 0.26 cos alpha, 1.45, -0.26 sin alpha).
 * The legs hang straight in both (A = I): the knee's Rx(beta) is the mannequin's, the
 * ankle at the knee plus Rx(beta) (0, -0.43, 0).  RHipJoint's rotation folds into the
 * right hip.  The root moves 10 units times 0.96 m / 17.64 units (the hip heights). */
START_TEST(cmu_naming_closed_form)
{
    const double alpha = 70, beta = 40;
    clip_spec spec;
    cmu_spec(&spec, alpha, beta, 1);
    played *p = play(&spec, "CMU");
    assert_rest(p);
    cloth__pose pose;
    cloth__retarget_pose(&p->rt, &p->clip, &p->body.skel, 1.0 / 120, &pose);
    double pos[CLOTH__MAX_JOINTS][3], R[9];
    cloth__skeleton_fk(&p->body.skel, &pose, pos, NULL);
    ry(alpha, R);
    assert_mat(pose.rot[body_joint(p, "l_elbow")], R, TOL, "l_elbow");
    rx(beta, R);
    assert_mat(pose.rot[body_joint(p, "l_knee")], R, TOL, "l_knee");
    rx(10, R);
    assert_mat(pose.rot[body_joint(p, "r_hip")], R, TOL, "r_hip (RHipJoint folded in)");
    double units = 0.96 / (18 * 0.98), a = alpha * M_PI / 180, b = beta * M_PI / 180;
    double T[3] = {10 * units, 0, 0};
    assert_vec(pose.root, T, TOL, "root");
    double wrist[3] = {T[0] + 0.48 + 0.26 * cos(a), 1.45, -0.26 * sin(a)};
    assert_vec(pos[body_joint(p, "l_wrist")], wrist, TOL, "l_wrist");
    double ankle[3] = {T[0] + 0.10, 0.52 - 0.43 * cos(b), -0.43 * sin(b)};
    assert_vec(pos[body_joint(p, "l_ankle")], ankle, TOL, "l_ankle");
    unplay(p);
}
END_TEST

/* Mixamo: arms 45 degrees down at rest, A = Rz(45); the elbow's Rx(90) becomes the
 * rotation by 90 degrees about n = A x = (c, c, 0), c = sqrt(1/2): n n^T + [n]x, which
 * takes the forearm x to (1/2, 1/2, -c).  Spine1 (unmapped, between Spine and Spine2)
 * folds into the chest: Ry(20), which carries the shoulder, elbow and wrist about the
 * chest joint (0, 1.28, 0).  The knee as for CMU; the root 20 cm times 0.96 / 97. */
START_TEST(mixamo_naming_closed_form)
{
    clip_spec spec;
    mixamo_spec(&spec);
    played *p = play(&spec, "Mixamo");
    assert_rest(p);
    cloth__pose pose;
    cloth__retarget_pose(&p->rt, &p->clip, &p->body.skel, 1.0 / 30, &pose);
    double pos[CLOTH__MAX_JOINTS][3], R[9], Y[9];
    cloth__skeleton_fk(&p->body.skel, &pose, pos, NULL);
    const double c = C45;
    double E[9] = {0.5, 0.5, c, 0.5, 0.5, -c, -c, c, 0};
    assert_mat(pose.rot[body_joint(p, "l_elbow")], E, TOL, "l_elbow");
    ry(20, Y);
    assert_mat(pose.rot[body_joint(p, "chest")], Y, TOL, "chest (Spine1 folded in)");
    rx(30, R);
    assert_mat(pose.rot[body_joint(p, "l_knee")], R, TOL, "l_knee");
    double T[3] = {0, 0, 20 * 0.96 / 97};
    assert_vec(pose.root, T, TOL, "root");
    /* wrist = chest + Ry(20) ((0.48, 0.17, 0) + 0.26 (1/2, 1/2, -c)) + T */
    double local[3] = {0.48 + 0.13, 0.17 + 0.13, -0.26 * c}, turned[3];
    cloth__mat_vec(Y, local, turned);
    double wrist[3] = {turned[0] + T[0], 1.28 + turned[1] + T[1], turned[2] + T[2]};
    assert_vec(pos[body_joint(p, "l_wrist")], wrist, TOL, "l_wrist");
    double b = 30 * M_PI / 180;
    double ankle[3] = {0.10, 0.52 - 0.43 * cos(b), T[2] - 0.43 * sin(b)};
    assert_vec(pos[body_joint(p, "l_ankle")], ankle, TOL, "l_ankle");
    unplay(p);
}
END_TEST

/* Setting avatar.motion is enough: the avatar recognises the CMU clip, the wrist is
 * where the closed form puts it, and the note says 120 clip frames a simulated second,
 * 2 a frame of 1/60 s. */
START_TEST(avatar_plays_a_cmu_clip)
{
    clip_spec spec;
    cmu_spec(&spec, 70, 40, 1);
    char *text = clip_text(&spec);
    const char *path = tu_temp_file("cmu.bvh", text);
    free(text);
    cloth_scene sc;
    cloth_default_scene(&sc);
    snprintf(sc.avatar.motion, sizeof sc.avatar.motion, "%s", path);
    sc.avatar.collision = CLOTH_AVATAR_CAPSULES;
    cloth_avatar *av;
    const char *key;
    cloth_error err;
    ck_assert_msg(cloth__avatar_create(&sc.avatar, "scene.ini", &av, &key, &err) == CLOTH_OK,
                  "%s", err.msg);
    char note[512];
    ck_assert(cloth__avatar_motion_note(av, 1.0 / 60, note, sizeof note));
    ck_assert_msg(strstr(note, "CMU names") && strstr(note, "120 clip frames a simulated "
                  "second, 2 a frame"), "%s", note);
    cloth__avatar_move(av, 1.0 / 120);
    double w[3], a = 70 * M_PI / 180, units = 0.96 / (18 * 0.98);
    ck_assert(cloth_avatar_joint(av, "l_wrist", w, &err) == CLOTH_OK);
    double want[3] = {10 * units + 0.48 + 0.26 * cos(a), 1.45, -0.26 * sin(a)};
    assert_vec(w, want, TOL, "l_wrist");
    cloth__avatar_destroy(av);
}
END_TEST

/* A root without position channels stays where it is at rest; the rotations still
 * play. */
START_TEST(root_without_translation_is_fixed)
{
    clip_spec spec;
    cmu_spec(&spec, 70, 40, 0);
    played *p = play(&spec, "CMU");
    static const double zero[3] = {0, 0, 0};
    for (int f = 0; f < 4; f++) {
        cloth__pose pose;
        cloth__retarget_pose(&p->rt, &p->clip, &p->body.skel, f / 240.0, &pose);
        assert_vec(pose.root, zero, 0, "root");
    }
    cloth__pose pose;
    cloth__retarget_pose(&p->rt, &p->clip, &p->body.skel, 1.0 / 120, &pose);
    double R[9];
    ry(70, R);
    assert_mat(pose.rot[body_joint(p, "l_elbow")], R, TOL, "l_elbow");
    unplay(p);
}
END_TEST

/* avatar.keep_root_offset keeps the recorded place, T = s v + (0, 0.04, 0) - (0, 1, 0);
 * avatar.motion_scale replaces the hip-height ratio s. */
START_TEST(root_offset_kept_and_units_overridden)
{
    clip_spec spec;
    cmu_spec(&spec, 0, 0, 1);
    played *p = play(&spec, "CMU");
    cloth_error err;
    cloth__pose pose;
    double h = 18 * 0.98, units = 0.96 / h;
    ck_assert(cloth__retarget_bind(&p->rt, &p->clip, &p->map, &p->body, 1, 0, 1, "clip.bvh",
                                   &err) == CLOTH_OK);
    cloth__retarget_pose(&p->rt, &p->clip, &p->body.skel, 0, &pose);
    double kept[3] = {230 * units, 0, -50 * units};
    assert_vec(pose.root, kept, TOL, "root kept");
    ck_assert(cloth__retarget_bind(&p->rt, &p->clip, &p->map, &p->body, 1, 0.05, 0,
                                   "clip.bvh", &err) == CLOTH_OK);
    ck_assert_double_eq(p->rt.units, 0.05);
    cloth__retarget_pose(&p->rt, &p->clip, &p->body.skel, 1.0 / 120, &pose);
    double scaled[3] = {10 * 0.05, 0.04 + 0.05 * h - 1, 0};
    assert_vec(pose.root, scaled, TOL, "root at motion_scale 0.05");
    unplay(p);
}
END_TEST

/* Slerp: 90 degrees about the skew axis n = (1, 2, 2)/3 written as Z Y X Euler angles;
 * at the midpoint the rotation is 45 degrees about n (interpolating the three angles
 * would not be); 120 fps sampled at k/60 s lands on frame 2k. */
START_TEST(interpolation_is_slerp_at_the_clip_rate)
{
    double n[3] = {1.0 / 3, 2.0 / 3, 2.0 / 3}, R[9];
    cloth__rot_axis_angle(n, M_PI / 2, R);
    /* R = Rz(a) Ry(b) Rx(c): b = -asin R20, a = atan2(R10, R00), c = atan2(R21, R22) */
    double eb = -asin(R[6]), ea = atan2(R[3], R[0]), ec = atan2(R[7], R[8]);
    clip_spec spec;
    cmu_spec(&spec, 0, 0, 1);
    spec.frame_time = 0.5;
    int arm = row_of(&spec, "LeftForeArm");
    double deg = 180 / M_PI;
    spec.rot[1][arm][0] = ec * deg, spec.rot[1][arm][1] = eb * deg;
    spec.rot[1][arm][2] = ea * deg;
    played *p = play(&spec, "CMU");
    cloth__pose pose;
    cloth__retarget_pose(&p->rt, &p->clip, &p->body.skel, 0.25, &pose);
    /* the mannequin's elbow turns about A n, A = Rz(90): (-2/3, 1/3, 2/3) */
    double axis[3], want_axis[3] = {-2.0 / 3, 1.0 / 3, 2.0 / 3};
    double angle = cloth__rot_angle(pose.rot[body_joint(p, "l_elbow")], axis);
    ck_assert_msg(fabs(angle - M_PI / 4) < 1e-12, "angle %.17g", angle * deg);
    assert_vec(axis, want_axis, 1e-12, "axis");
    unplay(p);

    /* 120 fps, joint LeftForeArm at f degrees about x in frame f */
    cmu_spec(&spec, 0, 0, 1);
    spec.n_frames = 12;
    for (int f = 0; f < 12; f++) {
        memcpy(spec.pos[f], spec.pos[0], sizeof spec.pos[0]);
        memset(spec.rot[f], 0, sizeof spec.rot[f]);
        spec.rot[f][arm][0] = f;
    }
    p = play(&spec, "CMU");
    double dt = 1.0 / 60;
    for (int k = 0; k < 6; k++) {
        int f0, f1;
        double a;
        cloth__clip_frame_at(&p->clip, k * dt, &f0, &f1, &a);
        ck_assert_int_eq(f0, 2 * k);
        ck_assert(a == 0);
        cloth__retarget_pose(&p->rt, &p->clip, &p->body.skel, k * dt, &pose);
        angle = cloth__rot_angle(pose.rot[body_joint(p, "l_elbow")], axis);
        ck_assert_msg(fabs(angle - 2 * k * M_PI / 180) < 1e-12, "step %d: %.17g deg", k,
                      angle * deg);
    }
    unplay(p);
}
END_TEST

/* Tabs in the header, joint names of 40 characters and more. */
START_TEST(reader_takes_tabs_and_long_names)
{
    clip_spec spec;
    mixamo_spec(&spec);
    spec.prefix = "mixamorig_a_rather_long_namespace_here:"; /* names of 40+ */
    char *text = clip_text(&spec);
    ck_assert_ptr_nonnull(strstr(text, "Frames:\t2"));
    cloth__clip c;
    cloth_error err;
    ck_assert_msg(cloth__bvh_parse(text, "long.bvh", &c, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_int_eq(c.n_frames, 2);
    ck_assert_str_eq(c.joint[9].name, "mixamorig_a_rather_long_namespace_here:LeftForeArm");
    ck_assert_double_eq(c.frame_time, 1.0 / 30);
    cloth__clip_free(&c);
    free(text);
}
END_TEST

/* Each bad clip is refused with its file and line. */
START_TEST(reader_refusals_name_file_and_line)
{
    static const char *const head =
        "HIERARCHY\nROOT hips\n{\n  OFFSET 0 1 0\n"
        "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
        "  JOINT knee\n  {\n    OFFSET 0 -0.5 0\n    CHANNELS 3 %s\n"
        "    End Site\n    {\n      OFFSET 0 -0.5 0\n    }\n  }\n}\n"
        "MOTION\nFrames: 2\nFrame Time: %s\n0 1 0 0 0 0 0 0 0\n%s\n";
    static const struct {
        const char *channels, *dt, *row, *want;
    } cases[] = {
        {"Xrotation Yrotation Zrotation", "0", "0 1 0 0 0 0 0 0 0", "bad.bvh:18: Frame Time"},
        {"Xrotation Yrotation Zrotation", "-0.01", "0 1 0 0 0 0 0 0 0",
         "bad.bvh:18: Frame Time"},
        {"Xrotation Yrotation Zrotation", "0.1", "0 1 0 0 0 0 0 0", "bad.bvh:20: frame 2"},
        {"Xrotation Xrotation Zrotation", "0.1", "0 1 0 0 0 0 0 0 0",
         "bad.bvh:9: CHANNELS: a rotation must be"},
        {"Xposition Yposition Zposition", "0.1", "0 1 0 0 0 0 0 0 0",
         "bad.bvh:9: CHANNELS: a rotation must be"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[2048];
        snprintf(text, sizeof text, head, cases[i].channels, cases[i].dt, cases[i].row);
        cloth__clip c;
        cloth_error err;
        ck_assert(cloth__bvh_parse(text, "bad.bvh", &c, &err) == CLOTH_EPARSE);
        ck_assert_msg(strncmp(err.msg, cases[i].want, strlen(cases[i].want)) == 0,
                      "case %zu: '%s', want '%s...'", i, err.msg, cases[i].want);
    }
    /* the six orders are read */
    static const char *const orders[6] = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};
    for (int i = 0; i < 6; i++) {
        char ch[64], text[2048];
        snprintf(ch, sizeof ch, "%crotation %crotation %crotation", orders[i][0],
                 orders[i][1], orders[i][2]);
        snprintf(text, sizeof text, head, ch, "0.1", "0 1 0 0 0 0 0 0 0");
        cloth__clip c;
        cloth_error err;
        ck_assert_msg(cloth__bvh_parse(text, "ok.bvh", &c, &err) == CLOTH_OK, "%s", err.msg);
        cloth__clip_free(&c);
    }
}
END_TEST

/* A naming neither built in nor the body's own is refused naming the file, the first
 * three joints and avatar.joint_map; a map file plays it, and a bad map line is refused
 * with its line. */
START_TEST(unknown_naming_needs_a_joint_map)
{
    static const jrow bio[] = {
        {"Hips", -1, {0, 0.95, 0}, 0, {0}},
        {"Chest", 0, {0, 0.12, 0}, 0, {0}},
        {"Chest2", 1, {0, 0.18, 0}, 0, {0}},
        {"LeftCollar", 2, {0.03, 0.17, 0}, 0, {0}},
        {"LeftShoulder", 3, {0.14, 0, 0}, 0, {0}},
        {"LeftElbow", 4, {0, -0.29, 0}, 0, {0}},
        {"LeftWrist", 5, {0, -0.25, 0}, 1, {0, -0.1, 0}},
        {"LeftHip", 0, {0.1, -0.05, 0}, 0, {0}},
        {"LeftKnee", 7, {0, -0.42, 0}, 0, {0}},
        {"LeftAnkle", 8, {0, -0.42, 0}, 1, {0, -0.06, 0.1}},
    };
    clip_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.rows = bio;
    spec.n = (int)(sizeof bio / sizeof bio[0]);
    spec.prefix = "";
    spec.order = "ZXY";
    spec.root_moves = 1;
    spec.units = 100;
    spec.frame_time = 1.0 / 60;
    spec.n_frames = 2;
    spec.pos[0][1] = spec.pos[1][1] = 95;
    spec.rot[1][5][0] = 50; /* LeftElbow */
    char *text = clip_text(&spec);
    cloth__body body;
    cloth__clip c;
    cloth__joint_map map;
    cloth_error err;
    ck_assert(cloth__mannequin(1, &body, &err) == CLOTH_OK);
    ck_assert(cloth__bvh_parse(text, "bio.bvh", &c, &err) == CLOTH_OK);
    free(text);
    ck_assert(cloth__joint_map_recognise(&c, &body.skel, "bio.bvh", &map, &err) ==
              CLOTH_EINVAL);
    ck_assert_msg(strstr(err.msg, "bio.bvh") && strstr(err.msg, "Hips, Chest, Chest2") &&
                  strstr(err.msg, "avatar.joint_map"), "%s", err.msg);
    const char *good = "# clip joint, body joint\nHips pelvis\nChest spine\nChest2 chest\n"
                       "LeftShoulder l_shoulder\nLeftElbow  l_elbow # the elbow\n"
                       "LeftWrist\tl_wrist\nLeftHip l_hip\nLeftKnee l_knee\n"
                       "LeftAnkle l_ankle\n";
    ck_assert_msg(cloth__joint_map_parse(good, "bio.map", &c, &body.skel, &map, &err) ==
                  CLOTH_OK, "%s", err.msg);
    /* the elbow bend, arms down at rest: Ry(50) as for CMU */
    cloth__retarget rt;
    ck_assert_msg(cloth__retarget_bind(&rt, &c, &map, &body, 1, 0, 0, "bio.bvh", &err) ==
                  CLOTH_OK, "%s", err.msg);
    cloth__pose pose;
    cloth__retarget_pose(&rt, &c, &body.skel, 1.0 / 60, &pose);
    double R[9];
    ry(50, R);
    assert_mat(pose.rot[cloth__skeleton_find(&body.skel, "l_elbow")], R, TOL, "l_elbow");
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"Hips pelvis\nChest spine extra\n", "bio.map:2: expected two names"},
        {"Hips pelvis\nChest\n", "bio.map:2: expected two names"},
        {"# x\nHips pelvix\n", "bio.map:2: 'pelvix': the body has no joint"},
        {"Hip pelvis\n", "bio.map:1: 'Hip': the clip has no joint"},
        {"Hips pelvis\nChest pelvis\n", "bio.map:2: body joint 'pelvis' mapped twice"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert(cloth__joint_map_parse(bad[i].text, "bio.map", &c, &body.skel, &map, &err) !=
                  CLOTH_OK);
        ck_assert_msg(strncmp(err.msg, bad[i].want, strlen(bad[i].want)) == 0,
                      "case %zu: '%s', want '%s...'", i, err.msg, bad[i].want);
    }
    cloth__clip_free(&c);
}
END_TEST

/* Frame-rate independence through the simulation: the synthetic CMU walk (120 fps) on
 * the mannequin at dt = 1/60 and 1/120 puts both wrists within 1 mm of each other at the
 * same simulated times (the pose is a function of the time alone). */
static cloth_sim *walk_sim(double dt, int frames)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 4\nny = 4\nspacing = 0.05\nplane = xz\norigin = -0.1 1.9 -0.1\n"
             "[avatar]\nmotion = ../experiments/avatar/cmu_walk.bvh\ncollision = capsules\n"
             "blend_in = 0.5\n" /* auto: a function of the substep */
             "[run]\nkernel = verlet\ndt = %.17g\nsubsteps = 1\nframes = %d\n", dt, frames);
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(text, "walk.ini", &s, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    return sim;
}

START_TEST(wrists_do_not_depend_on_dt)
{
    cloth_sim *a = walk_sim(1.0 / 60, 90), *b = walk_sim(1.0 / 120, 180);
    double worst = 0;
    for (int k = 1; k <= 90; k++) {
        cloth_frame fr;
        cloth_error err;
        ck_assert(cloth_sim_frame(a, &fr, &err) == CLOTH_OK);
        ck_assert(cloth_sim_frame(b, &fr, &err) == CLOTH_OK);
        ck_assert(cloth_sim_frame(b, &fr, &err) == CLOTH_OK);
        for (int side = 0; side < 2; side++) {
            const char *joint = side ? "r_wrist" : "l_wrist";
            double pa[3], pb[3];
            ck_assert(cloth_avatar_joint(cloth_sim_avatar(a), joint, pa, &err) == CLOTH_OK);
            ck_assert(cloth_avatar_joint(cloth_sim_avatar(b), joint, pb, &err) == CLOTH_OK);
            worst = fmax(worst, sqrt((pa[0] - pb[0]) * (pa[0] - pb[0]) +
                                     (pa[1] - pb[1]) * (pa[1] - pb[1]) +
                                     (pa[2] - pb[2]) * (pa[2] - pb[2])));
        }
    }
    ck_assert_msg(worst < 1e-3, "wrists %.3g m apart", worst);
    cloth_sim_destroy(a);
    cloth_sim_destroy(b);
}
END_TEST

Suite *suite_body_motion(void)
{
    Suite *s = suite_create("body_motion");
    TCase *tc = tcase_create("retarget");
    tcase_add_test(tc, cmu_naming_closed_form);
    tcase_add_test(tc, mixamo_naming_closed_form);
    tcase_add_test(tc, avatar_plays_a_cmu_clip);
    tcase_add_test(tc, root_without_translation_is_fixed);
    tcase_add_test(tc, root_offset_kept_and_units_overridden);
    tcase_add_test(tc, interpolation_is_slerp_at_the_clip_rate);
    tcase_add_test(tc, unknown_naming_needs_a_joint_map);
    tcase_add_test(tc, wrists_do_not_depend_on_dt);
    suite_add_tcase(s, tc);
    tc = tcase_create("reader");
    tcase_add_test(tc, reader_takes_tabs_and_long_names);
    tcase_add_test(tc, reader_refusals_name_file_and_line);
    suite_add_tcase(s, tc);
    return s;
}
