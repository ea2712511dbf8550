/* The body layer (src/body/) against geometry: forward kinematics of a two-link chain,
 * the back-transform's cylinders, planes and weights on a straight and a bent chain, its
 * round trip and continuity on the mannequin, CCD IK on a two-link arm against the
 * closed form, BVH parsing and its errors, the field on a sphere and a capsule against
 * their exact distances, and the cape on the turning body for every kernel. */
#include "body/avatar.h"
#include "body/backtransform.h"
#include "body/bvh.h"
#include "body/ik.h"
#include "body/retarget.h"
#include "body/sdf.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void rot_z(double deg, double R[9])
{
    cloth__rot_basic(2, deg * M_PI / 180, R);
}

/* ------------------------------------------------------------------ skeleton */

/* root at 0, j1 at (1,0,0), j2 at (2,0,0); root and j1 each turned 90 degrees about z:
 * j1 goes to (0,1,0), j2 to (-1,1,0); a point at rest (1.5,0,0) on j1 to (-0.5,1,0). */
START_TEST(fk_of_a_two_link_chain)
{
    cloth__skeleton s = {0};
    double o0[3] = {0, 0, 0}, o1[3] = {1, 0, 0};
    ck_assert_int_eq(cloth__skeleton_add(&s, "root", -1, o0, M_PI), 0);
    ck_assert_int_eq(cloth__skeleton_add(&s, "j1", 0, o1, M_PI), 1);
    ck_assert_int_eq(cloth__skeleton_add(&s, "j2", 1, o1, M_PI), 2);
    ck_assert_int_eq(cloth__skeleton_add(&s, "j1", 0, o1, M_PI), -1);  /* name taken   */
    ck_assert_int_eq(cloth__skeleton_add(&s, "x", 7, o1, M_PI), -1);   /* no parent 7  */
    cloth__pose p;
    cloth__pose_rest(&s, &p);
    rot_z(90, p.rot[0]);
    rot_z(90, p.rot[1]);
    double pos[3][3];
    cloth__xform xf[3];
    cloth__skeleton_fk(&s, &p, pos, xf);
    double want[3][3] = {{0, 0, 0}, {0, 1, 0}, {-1, 1, 0}};
    for (int j = 0; j < 3; j++)
        for (int k = 0; k < 3; k++)
            ck_assert_double_eq_tol(pos[j][k], want[j][k], 1e-15);
    double y[3] = {1.5, 0, 0}, x[3];
    cloth__mat_vec(xf[1].R, y, x);
    ck_assert_double_eq_tol(x[0] + xf[1].t[0], -0.5, 1e-15);
    ck_assert_double_eq_tol(x[1] + xf[1].t[1], 1, 1e-15);
    ck_assert_double_eq_tol(x[2] + xf[1].t[2], 0, 1e-15);
}
END_TEST

/* ---------------------------------------------------------- back-transform */

/* Two bones along +x: A from 0 to 1, B from 1 to 2, capsules of radius 0.1. */
static void two_bones(cloth__body *b)
{
    memset(b, 0, sizeof *b);
    double o0[3] = {0, 0, 0}, o1[3] = {1, 0, 0};
    cloth__skeleton_add(&b->skel, "A", -1, o0, M_PI);
    cloth__skeleton_add(&b->skel, "B", 0, o1, M_PI);
    double tipA[3] = {1, 0, 0}, tipB[3] = {2, 0, 0};
    memcpy(b->tip[0], tipA, sizeof tipA);
    memcpy(b->tip[1], tipB, sizeof tipB);
    b->n_caps = 2;
    cloth__capsule a = {0, {0, 0, 0}, {1, 0, 0}, 0.1}, c = {1, {1, 0, 0}, {2, 0, 0}, 0.1};
    b->cap[0] = a;
    b->cap[1] = c;
}

/* Cylinders: radius r + reach = 0.15 about the bone, axial range [-0.15, 1.15] from the
 * joint; zones half-width min(r, 0.3 L) = 0.1; in the straight chain the separation
 * plane is x = 1 and the weight of B is (0.1 + s)/0.2 at x = 1 + s. */
START_TEST(cylinders_planes_and_weights_of_a_straight_chain)
{
    cloth__body b;
    two_bones(&b);
    cloth__backtransform bt;
    cloth__bt_init(&bt, &b, 0.05);
    ck_assert_double_eq_tol(bt.bone[0].radius, 0.15, 1e-15);
    ck_assert_double_eq_tol(bt.bone[0].lo, -0.15, 1e-15);
    ck_assert_double_eq_tol(bt.bone[0].hi, 1.15, 1e-15);
    ck_assert_double_eq_tol(bt.bone[1].blend, 0.1, 1e-15);
    cloth__pose rest;
    cloth__bt_pose p;
    cloth__pose_rest(&b.skel, &rest);
    cloth__bt_set_pose(&bt, &b, &rest, &p);
    ck_assert_double_eq_tol(p.n[1][0], 1, 1e-15);
    cloth__bt_weights w;
    double in[3] = {0.5, 0.149, 0}, out[3] = {0.5, 0.151, 0}, behind[3] = {-0.16, 0, 0};
    ck_assert_int_eq(cloth__bt_weights_of(&bt, &p, in, &w), 1);
    ck_assert_int_eq(w.joint[0], 0);
    ck_assert_int_eq(cloth__bt_weights_of(&bt, &p, out, &w), 0);
    ck_assert_int_eq(cloth__bt_weights_of(&bt, &p, behind, &w), 0);
    for (double s = -0.2; s <= 0.2; s += 0.01) {
        double x[3] = {1 + s, 0.05, 0.02}, wb = 0;
        cloth__bt_weights_of(&bt, &p, x, &w);
        for (int i = 0; i < w.n; i++)
            if (w.joint[i] == 1)
                wb = w.w[i];
        double want = s <= -0.1 ? 0 : s >= 0.1 ? 1 : (0.1 + s) / 0.2;
        ck_assert_msg(fabs(wb - want) < 1e-12, "x = 1 + %g: w_B %g, want %g", s, wb, want);
    }
}
END_TEST

/* B turned 90 degrees about z at its joint (1,0,0): its bone is +y, the separation plane's
 * normal the bisector (1,1,0)/sqrt2.  At x = (0.95, 0.02, 0): s_c = 0.02 along B, s_p =
 * 0.05 back along A, so d_c = 0.08, d_p = 0.05 and w_B = 0.05/0.13; the point is on A's
 * side of the plane, so A wins and blends with its child B. */
START_TEST(planes_and_weights_of_a_bent_chain)
{
    cloth__body b;
    two_bones(&b);
    cloth__backtransform bt;
    cloth__bt_init(&bt, &b, 0.05);
    cloth__pose pose;
    cloth__bt_pose p;
    cloth__pose_rest(&b.skel, &pose);
    rot_z(90, pose.rot[1]);
    cloth__bt_set_pose(&bt, &b, &pose, &p);
    ck_assert_double_eq_tol(p.n[1][0], sqrt(0.5), 1e-15);
    ck_assert_double_eq_tol(p.n[1][1], sqrt(0.5), 1e-15);
    ck_assert_double_eq_tol(p.b[1][1], 1, 1e-15);
    cloth__bt_weights w;
    double x[3] = {0.95, 0.02, 0};
    ck_assert_int_eq(cloth__bt_weights_of(&bt, &p, x, &w), 2);
    ck_assert_int_eq(w.joint[0], 0);
    ck_assert_int_eq(w.joint[1], 1);
    ck_assert_double_eq_tol(w.w[1], 0.05 / 0.13, 1e-14);
    /* on B's side, past B's bone plane (s_c = 0.3 > 0.1): B alone */
    double y[3] = {1.02, 0.3, 0};
    ck_assert_int_eq(cloth__bt_weights_of(&bt, &p, y, &w), 1);
    ck_assert_int_eq(w.joint[0], 1);
}
END_TEST

static void random_pose(const cloth__skeleton *s, unsigned long *seed, double max_deg,
                        cloth__pose *pose)
{
    cloth__pose_rest(s, pose);
    for (int j = 0; j < s->n; j++) {
        double ax[3] = {tu_random(seed), tu_random(seed), tu_random(seed)};
        double n = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
        for (int k = 0; k < 3; k++)
            ax[k] /= n;
        cloth__rot_axis_angle(ax, max_deg * M_PI / 180 * tu_random(seed), pose->rot[j]);
    }
    for (int k = 0; k < 3; k++)
        pose->root[k] = 0.2 * tu_random(seed);
}

/* A point attached to a limb's middle in the rest pose (rigid zone, 5 mm outside its
 * capsule) comes back to the same rest point after 200 random poses (every joint turned
 * up to 25 degrees about a random axis, the root moved up to 0.2 m) whenever it is still
 * in its bone's rigid zone in the pose (not where a pose pressed another limb against
 * it: the two legs may cross; at most 2 % of the cases). */
START_TEST(round_trip_in_rigid_zones)
{
    cloth__body body;
    cloth_error err;
    ck_assert(cloth__mannequin(1, &body, &err) == CLOTH_OK);
    cloth__backtransform bt;
    cloth__bt_init(&bt, &body, 0.1);
    cloth__pose rest, pose;
    cloth__bt_pose pr, pp;
    cloth__pose_rest(&body.skel, &rest);
    cloth__bt_set_pose(&bt, &body, &rest, &pr);
    unsigned long seed = 7;
    double worst = 0;
    int tested = 0, skipped = 0;
    for (int trial = 0; trial < 200; trial++) {
        random_pose(&body.skel, &seed, 25, &pose);
        cloth__bt_set_pose(&bt, &body, &pose, &pp);
        for (int c = 5; c < body.n_caps; c++) {   /* the limbs */
            const cloth__capsule *cp = &body.cap[c];
            double y[3], u[3] = {cp->b[0] - cp->a[0], cp->b[1] - cp->a[1], cp->b[2] - cp->a[2]};
            /* the middle of the segment, moved out along a normal of the axis */
            double side[3] = {-u[1], u[0], u[2]};
            if (fabs(u[1]) > fabs(u[0]))
                side[0] = 0, side[1] = -u[2], side[2] = u[1];
            double sn = sqrt(side[0] * side[0] + side[1] * side[1] + side[2] * side[2]);
            for (int k = 0; k < 3; k++)
                y[k] = 0.5 * (cp->a[k] + cp->b[k]) + (cp->r + 0.005) * side[k] / sn;
            cloth__bt_weights w;
            ck_assert_int_eq(cloth__bt_weights_of(&bt, &pr, y, &w), 1);
            ck_assert_int_eq(w.joint[0], cp->joint);
            double x[3], back[3];
            cloth__bt_to_pose(&pp, &w, y, x);
            cloth__bt_weights wx;
            if (cloth__bt_weights_of(&bt, &pp, x, &wx) != 1 || wx.joint[0] != cp->joint) {
                skipped++;
                continue;
            }
            cloth__bt_to_rest(&pp, &wx, x, back);
            for (int k = 0; k < 3; k++)
                worst = fmax(worst, fabs(back[k] - y[k]));
            tested++;
        }
    }
    ck_assert_int_eq(tested + skipped, 200 * 12);
    ck_assert_msg(skipped <= 48, "%d of 2400 points left their rigid zone", skipped);
    ck_assert_msg(worst <= 1e-9, "round trip error %g m", worst);
}
END_TEST

/* The rest place of a point on a line at parameter t (its weights in *w). */
static void rest_on_line(const cloth__backtransform *bt, const cloth__bt_pose *p,
                         const double from[3], const double to[3], double t, double y[3],
                         cloth__bt_weights *w)
{
    double x[3];
    for (int k = 0; k < 3; k++)
        x[k] = from[k] + t * (to[k] - from[k]);
    ck_assert_int_gt(cloth__bt_weights_of(bt, p, x, w), 0);
    cloth__bt_to_rest(p, w, x, y);
}

static int same_weights_kind(const cloth__bt_weights *a, const cloth__bt_weights *b)
{
    return a->n == b->n && a->joint[0] == b->joint[0] && (a->n == 1 || a->joint[1] == b->joint[1]);
}

static double dist3(const double a[3], const double b[3])
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                (a[2] - b[2]) * (a[2] - b[2]));
}

/* A point crossing the left elbow's zone (elbow bent 70 degrees, shoulder raised 30)
 * on a line 3 cm off the bones on the side of the bend: wherever its weights change kind
 * (a bone plane, or the winner switching inside the zone), found by bisection to 1e-10
 * m, a move of 1e-7 m across moves its rest place by at most 1e-6 m. */
START_TEST(continuous_across_bone_planes)
{
    cloth__body body;
    cloth_error err;
    ck_assert(cloth__mannequin(1, &body, &err) == CLOTH_OK);
    cloth__backtransform bt;
    cloth__bt_init(&bt, &body, 0.1);
    cloth__pose pose;
    cloth__bt_pose p;
    cloth__pose_rest(&body.skel, &pose);
    int sh = cloth__skeleton_find(&body.skel, "l_shoulder");
    int el = cloth__skeleton_find(&body.skel, "l_elbow");
    rot_z(30, pose.rot[sh]);
    rot_z(70, pose.rot[el]);
    cloth__bt_set_pose(&bt, &body, &pose, &p);
    /* from 8 cm up the upper arm to 8 cm down the forearm, 3 cm off the bones (+z) */
    double from[3], to[3];
    for (int k = 0; k < 3; k++) {
        from[k] = p.a[el][k] - 0.08 * p.v[el][k] + (k == 2) * 0.03;
        to[k] = p.a[el][k] + 0.08 * p.u[el][k] + (k == 2) * 0.03;
    }
    double len = dist3(from, to), dt = 1e-5 / len, half = 0.5e-7 / len;
    cloth__bt_weights w0, w1, wa, wb;
    double y0[3], y1[3], ya[3], yb[3], worst = 0;
    int boundaries = 0;
    rest_on_line(&bt, &p, from, to, 0, y0, &w0);
    for (double t = dt; t <= 1; t += dt) {
        rest_on_line(&bt, &p, from, to, t, y1, &w1);
        if (!same_weights_kind(&w0, &w1)) {
            double lo = t - dt, hi = t;
            while ((hi - lo) * len > 1e-10) {
                double mid = 0.5 * (lo + hi);
                rest_on_line(&bt, &p, from, to, mid, ya, &wa);
                if (same_weights_kind(&wa, &w0))
                    lo = mid;
                else
                    hi = mid;
            }
            double c = 0.5 * (lo + hi);
            rest_on_line(&bt, &p, from, to, c - half, ya, &wa);
            rest_on_line(&bt, &p, from, to, c + half, yb, &wb);
            worst = fmax(worst, dist3(ya, yb));
            boundaries++;
        }
        memcpy(y0, y1, sizeof y1);
        w0 = w1;
    }
    ck_assert_int_ge(boundaries, 2); /* into the zone and out of it */
    ck_assert_msg(worst <= 1e-6, "largest jump %g m for a 1e-7 m move", worst);
}
END_TEST

/* ---------------------------------------------------------------------- IK */

/* Shoulder at 0, upper arm 0.3, forearm 0.25 (along x).  For a reachable target at
 * distance d, any solution has the elbow bent by the law of cosines:
 * cos(bend) = (d^2 - l1^2 - l2^2) / (2 l1 l2). */
START_TEST(ik_two_link_arm_closed_form)
{
    cloth__skeleton s = {0};
    double o0[3] = {0, 0, 0}, o1[3] = {0.3, 0, 0}, o2[3] = {0.25, 0, 0};
    cloth__skeleton_add(&s, "shoulder", -1, o0, M_PI);
    cloth__skeleton_add(&s, "elbow", 0, o1, M_PI);
    cloth__skeleton_add(&s, "wrist", 1, o2, M_PI);
    double targets[3][3] = {{0.2, 0.3, 0.1}, {-0.1, 0.2, 0.25}, {0.05, -0.3, 0}};
    for (int t = 0; t < 3; t++) {
        cloth__pose pose;
        cloth__pose_rest(&s, &pose);
        double dist, *g = targets[t];
        int sweeps = cloth__ik_ccd(&s, &pose, 2, 2, g, 200, 1e-4, &dist);
        ck_assert_msg(dist <= 1e-4, "target %d: %g m after %d sweeps", t, dist, sweeps);
        double d2 = g[0] * g[0] + g[1] * g[1] + g[2] * g[2], axis[3];
        double bend = acos((d2 - 0.09 - 0.0625) / (2 * 0.3 * 0.25));
        ck_assert_msg(fabs(cloth__rot_angle(pose.rot[1], axis) - bend) < 2e-3,
                      "target %d: elbow bent %g, closed form %g", t,
                      cloth__rot_angle(pose.rot[1], axis), bend);
    }
    /* out of reach (0.55 m): the arm points straight at it, 0.45 m short */
    cloth__pose pose;
    cloth__pose_rest(&s, &pose);
    double far[3] = {0, 1, 0}, dist, pos[3][3];
    cloth__ik_ccd(&s, &pose, 2, 2, far, 200, 1e-4, &dist);
    cloth__skeleton_fk(&s, &pose, pos, NULL);
    ck_assert_double_eq_tol(dist, 0.45, 1e-6);
    ck_assert_double_eq_tol(pos[2][1], 0.55, 1e-6);
}
END_TEST

/* The elbow may bend 90 degrees at most: a target that needs more is not reached. */
START_TEST(ik_respects_joint_limits)
{
    cloth__skeleton s = {0};
    double o0[3] = {0, 0, 0}, o1[3] = {0.3, 0, 0}, o2[3] = {0.3, 0, 0};
    cloth__skeleton_add(&s, "shoulder", -1, o0, M_PI);
    cloth__skeleton_add(&s, "elbow", 0, o1, M_PI / 2);
    cloth__skeleton_add(&s, "wrist", 1, o2, M_PI);
    cloth__pose pose;
    cloth__pose_rest(&s, &pose);
    double g[3] = {0.1, 0.05, 0}, dist, axis[3]; /* needs a bend of about 150 degrees */
    cloth__ik_ccd(&s, &pose, 2, 2, g, 200, 1e-4, &dist);
    ck_assert(cloth__rot_angle(pose.rot[1], axis) <= M_PI / 2 + 1e-12);
    ck_assert(dist > 1e-3);
}
END_TEST

static const char *const cape_text =
    "[mesh]\nnx = 15\nny = 20\nspacing = 0.04\nplane = xz\norigin = -0.28 1.53 -0.83\n"
    "pins = 285 286 287 288 289 290 291 292 293 294 295 296 297 298 299\n"
    "[material]\nk_structural = 500\nk_shear = 200\nk_bend = 5\nvertex_mass = 0.002\n"
    "spring_damping = 0.01\n[world]\nair_damping = 0.0005\n"
    "[avatar]\nmotion = ../experiments/avatar/turn.bvh\noffset = 0.01\n"
    "[run]\ndt = 0.016666666666666666\nframes = 40\n";

/* the cape with the kernel, its substeps and, unless NULL, its order key */
static cloth_sim *cape_in_order(const char *kernel, int substeps, const char *order)
{
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(cape_text, "cape.ini", &s, &err) == CLOTH_OK, "%s", err.msg);
    char set[64];
    if (order) {
        snprintf(set, sizeof set, "%s.order=%s", kernel, order);
        ck_assert_msg(cloth_scene_set(&s, set, 4, &err) == CLOTH_OK, "%s", err.msg);
    }
    snprintf(set, sizeof set, "run.kernel=%s", kernel);
    ck_assert_msg(cloth_scene_set(&s, set, 1, &err) == CLOTH_OK, "%s", err.msg);
    snprintf(set, sizeof set, "run.substeps=%d", substeps);
    ck_assert_msg(cloth_scene_set(&s, set, 2, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert(cloth_scene_set(&s, "newton.cond=off", 3, &err) == CLOTH_OK);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    return sim;
}

static cloth_sim *cape(const char *kernel, int substeps)
{
    return cape_in_order(kernel, substeps, NULL);
}

/* The public IK on the mannequin's left arm: every call moves the hand at most
 * ik_max_step (1 cm); a reachable target is reached within 1 mm; one 2 m away is not,
 * and the last calls say it cannot be. */
START_TEST(avatar_ik_steps_are_bounded)
{
    cloth_sim *sim = cape("verlet", 1);
    cloth_avatar *av = cloth_sim_avatar(sim);
    ck_assert_ptr_nonnull(av);
    cloth_ik_result r;
    cloth_error err;
    double target[3] = {0.45, 1.75, 0.15};
    int calls = 0;
    do {
        ck_assert(cloth_avatar_ik(av, "l_wrist", target, 2, &r, &err) == CLOTH_OK);
        ck_assert_msg(r.moved <= 0.01 + 1e-12, "moved %g", r.moved);
        calls++;
    } while (!r.reached && calls < 200);
    ck_assert_msg(r.reached && r.distance <= 1e-3, "%g m after %d calls", r.distance, calls);
    double far[3] = {2.5, 1.45, 0};
    for (int i = 0; i < 300; i++) {
        ck_assert(cloth_avatar_ik(av, "l_wrist", far, 2, &r, &err) == CLOTH_OK);
        ck_assert(r.moved <= 0.01 + 1e-12);
    }
    ck_assert(!r.reached && r.unreachable);
    ck_assert(cloth_avatar_ik(av, "l_toe", far, 2, &r, &err) == CLOTH_EINVAL);
    ck_assert(strstr(err.msg, "l_toe"));
    cloth_sim_destroy(sim);
}
END_TEST

/* ---------------------------------------------------------------------- BVH */

static const char *const small_bvh =
    "HIERARCHY\n"
    "ROOT hips\n"
    "{\n"
    "  OFFSET 0 1 0\n"
    "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
    "  JOINT knee\n"
    "  {\n"
    "    OFFSET 0 -0.5 0\n"
    "    CHANNELS 3 Xrotation Yrotation Zrotation\n"
    "    End Site\n"
    "    {\n"
    "      OFFSET 0 -0.5 0\n"
    "    }\n"
    "  }\n"
    "}\n"
    "MOTION\n"
    "Frames: 2\n"
    "Frame Time: 0.5\n"
    "0 1 0 0 0 0 0 0 0\n"
    "0.2 1 0 90 0 0 40 0 0\n";

/* Two joints, 9 channels, 2 frames; a quarter of the way from frame 0 to 1 the root is
 * 5 cm along x (positions over a skeleton of the same names) and turned 22.5 degrees
 * about z, the knee 10 degrees about x. */
START_TEST(bvh_parses_a_small_clip)
{
    cloth__clip c;
    cloth_error err;
    ck_assert_msg(cloth__bvh_parse(small_bvh, "small.bvh", &c, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_int_eq(c.n_joints, 2);
    ck_assert_int_eq(c.n_channels, 9);
    ck_assert_int_eq(c.n_frames, 2);
    ck_assert_double_eq(c.frame_time, 0.5);
    ck_assert_int_eq(c.joint[1].parent, 0);
    ck_assert_int_eq(c.joint[1].channel[0], 3);
    ck_assert_double_eq(c.data[9 + 3], 90);
    cloth__body body = {0};
    cloth__skeleton *sk = &body.skel;
    double o0[3] = {0, 1, 0}, o1[3] = {0, -0.5, 0};
    cloth__skeleton_add(sk, "hips", -1, o0, M_PI);
    cloth__skeleton_add(sk, "knee", 0, o1, M_PI);
    cloth__joint_map map;
    cloth__retarget rt;
    ck_assert(cloth__joint_map_recognise(&c, sk, "small.bvh", &map, &err) == CLOTH_OK);
    ck_assert(map.own);
    ck_assert(cloth__retarget_bind(&rt, &c, &map, &body, 1, 0, 0, "small.bvh", &err) ==
              CLOTH_OK);
    cloth__pose p;
    cloth__retarget_pose(&rt, &c, sk, 0.125, &p);
    ck_assert_double_eq_tol(p.root[0], 0.05, 1e-15);
    ck_assert_double_eq_tol(p.root[1], 0, 1e-15);
    double R[9], axis[3];
    rot_z(22.5, R);
    for (int k = 0; k < 9; k++)
        ck_assert_double_eq_tol(p.rot[0][k], R[k], 1e-15);
    ck_assert_double_eq_tol(cloth__rot_angle(p.rot[1], axis), 10 * M_PI / 180, 1e-14);
    ck_assert_double_eq_tol(axis[0], 1, 1e-14);
    cloth__clip_free(&c);
}
END_TEST

/* Each broken copy of the clip fails with its own line. */
START_TEST(bvh_errors_name_their_line)
{
    static const struct {
        const char *from, *to, *want;
    } cases[] = {
        {"ROOT hips\n{", "ROOT hips\n(", "small.bvh:3: expected '{'"},
        {"Yrotation Zrotation", "Yrotation Wrotation", "small.bvh:9: CHANNELS:"},
        {"OFFSET 0 -0.5 0\n    CHANNELS", "OFFSET 0 -0.5 x\n    CHANNELS", "small.bvh:8: OFFSET"},
        {"Frames: 2", "Frames: 0", "small.bvh:17: Frames:"},
        {"Frame Time: 0.5", "Frame Time: -1", "small.bvh:18: Frame Time:"},
        {"0.2 1 0 90 0 0 40 0 0", "0.2 1 0 90 0 0 40 0", "small.bvh:20: frame 2"},
        {"0 1 0 0 0 0 0 0 0\n", "0 1 0 0 0 0 0 0\n", "small.bvh:19: frame 1"},
        {"End Site", "End Sight", "small.bvh:10: expected 'End Site'"},
        {"MOTION", "MOTIO", "small.bvh:16: expected MOTION"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[2048], *at;
        snprintf(text, sizeof text, "%s", small_bvh);
        at = strstr(text, cases[i].from);
        ck_assert_ptr_nonnull(at);
        char rest[2048];
        snprintf(rest, sizeof rest, "%s", at + strlen(cases[i].from));
        snprintf(at, sizeof text - (size_t)(at - text), "%s%s", cases[i].to, rest);
        cloth__clip c;
        cloth_error err;
        ck_assert(cloth__bvh_parse(text, "small.bvh", &c, &err) == CLOTH_EPARSE);
        ck_assert_msg(strncmp(err.msg, cases[i].want, strlen(cases[i].want)) == 0,
                      "case %zu: '%s', want '%s...'", i, err.msg, cases[i].want);
        ck_assert_ptr_null(c.data);
    }
}
END_TEST

/* ----------------------------------------------------------------- the field */

typedef struct shape {
    double a[3], b[3], r;       /* a capsule; a = b: a sphere                          */
} shape;

static double shape_distance(const double y[3], const void *ctx)
{
    const shape *s = ctx;
    return cloth__segment_distance(y, s->a, s->b) - s->r;
}

/* Within 5 cm of the surface, the trilinear field is within half a cell of the exact
 * distance at three spacings h, and its gradient within 2h/r rad of the exact normal
 * (twice the angle the normal of a surface of radius r turns through across a cell),
 * two cells or more from the medial axis. */
START_TEST(field_on_a_sphere_and_a_capsule)
{
    shape shapes[2] = {{{0, 0, 0}, {0, 0, 0}, 0.3}, {{-0.2, -0.1, 0}, {0.2, 0.15, 0.05}, 0.12}};
    double lo[3] = {-0.5, -0.5, -0.5}, hi[3] = {0.5, 0.5, 0.5};
    double spacing[3] = {0.04, 0.02, 0.01};
    unsigned long seed = 3;
    for (int sh = 0; sh < 2; sh++)
        for (int r = 0; r < 3; r++) {
            cloth__sdf f;
            cloth_error err;
            ck_assert(cloth__sdf_build(&f, lo, hi, spacing[r], shape_distance, &shapes[sh],
                                       &err) == CLOTH_OK);
            double worst = 0;
            int n = 0;
            while (n < 2000) {
                double y[3] = {0.45 * tu_random(&seed), 0.45 * tu_random(&seed),
                               0.45 * tu_random(&seed)};
                double d = shape_distance(y, &shapes[sh]);
                if (fabs(d) > 0.05)
                    continue;
                double g[3], v = cloth__sdf_sample(&f, y, g);
                worst = fmax(worst, fabs(v - d));
                /* the exact gradient: (y - nearest point on the segment)/|.| */
                double h = 1e-6, e[3];
                for (int k = 0; k < 3; k++) {
                    double yp[3] = {y[0], y[1], y[2]}, ym[3] = {y[0], y[1], y[2]};
                    yp[k] += h;
                    ym[k] -= h;
                    e[k] = (shape_distance(yp, &shapes[sh]) - shape_distance(ym, &shapes[sh])) /
                           (2 * h);
                }
                double gl = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
                double c = (g[0] * e[0] + g[1] * e[1] + g[2] * e[2]) / gl;
                if (d + shapes[sh].r > 2 * spacing[r]) /* two cells from the medial axis */
                    ck_assert_msg(c > cos(2 * spacing[r] / shapes[sh].r), "shape %d h %g: gradient off by %g rad", sh,
                                  spacing[r], acos(c));
                n++;
            }
            ck_assert_msg(worst <= 0.5 * spacing[r], "shape %d h %g: error %g", sh, spacing[r],
                          worst);
            cloth__sdf_free(&f);
        }
}
END_TEST

/* ------------------------------------------------------------ every kernel */

/* The cape on the turning body, 40 frames (newton: 12, at about 0.3 s a frame): no vertex
 * deeper than offset/2 into the skin (exact distance to the skinned surface) in any
 * frame, for every kernel, and for the coloured orders (the scene has no sphere or
 * floor: the body is the only obstacle their passes see). */
START_TEST(cape_stays_out_of_the_body)
{
    static const struct {
        const char *kernel;
        int substeps, frames;
        const char *order;
    } runs[] = {{"explicit", 40, 40, NULL},    {"verlet", 5, 40, NULL},
                {"pbd", 5, 40, NULL},          {"newton", 1, 12, NULL},
                {"explicit", 40, 40, "coloured"}, {"verlet", 5, 40, "coloured"},
                {"pbd", 5, 40, "coloured"}};
    cloth_sim *sim = cape_in_order(runs[_i].kernel, runs[_i].substeps, runs[_i].order);
    cloth_frame f;
    cloth_error err;
    double worst = 0;
    for (int i = 0; i < runs[_i].frames; i++) {
        ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
        worst = fmax(worst, f.body_depth);
    }
    ck_assert_msg(worst <= 0.005, "%s %s: %g m into the skin", runs[_i].kernel,
                  runs[_i].order ? runs[_i].order : "", worst);
    cloth_sim_destroy(sim);
}
END_TEST

Suite *suite_body(void)
{
    Suite *s = suite_create("body");
    TCase *tc = tcase_create("geometry");
    tcase_add_test(tc, fk_of_a_two_link_chain);
    tcase_add_test(tc, cylinders_planes_and_weights_of_a_straight_chain);
    tcase_add_test(tc, planes_and_weights_of_a_bent_chain);
    tcase_add_test(tc, round_trip_in_rigid_zones);
    tcase_add_test(tc, continuous_across_bone_planes);
    tcase_add_test(tc, field_on_a_sphere_and_a_capsule);
    suite_add_tcase(s, tc);
    tc = tcase_create("ik");
    tcase_add_test(tc, ik_two_link_arm_closed_form);
    tcase_add_test(tc, ik_respects_joint_limits);
    tcase_add_test(tc, avatar_ik_steps_are_bounded);
    suite_add_tcase(s, tc);
    tc = tcase_create("bvh");
    tcase_add_test(tc, bvh_parses_a_small_clip);
    tcase_add_test(tc, bvh_errors_name_their_line);
    suite_add_tcase(s, tc);
    tc = tcase_create("kernels");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, cape_stays_out_of_the_body, 0, 7);
    suite_add_tcase(s, tc);
    return s;
}
