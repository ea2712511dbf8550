/* Bodies from files, poses and the ellipsoid method (src/body/) against geometry: the
 * mannequin exported as OBJ + BVH skeleton read back (the same skeleton, the same
 * surface, a field exact at its nodes by a second algorithm), bad files naming their
 * file and line, avatar.pose against the rotation it names, the ellipsoids' containment,
 * exact distances and push-out, and the trilinear field's Lipschitz error bound. */
#include "body/avatar.h"
#include "body/body_file.h"
#include "body/ellipsoids.h"
#include "body/trisurf.h"
#include "suites.h"
#include "testutil.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The avatar of the [avatar] keys given as "key=value;..." over the defaults, the scene
 * file being tests/x.ini (paths relative to tests/). */
static cloth_status avatar_of(const char *keys, cloth_avatar **av, const char **bad,
                              cloth_error *err)
{
    cloth_scene s;
    char text[1024];
    snprintf(text, sizeof text, "[avatar]\n%s\n", keys);
    for (char *p = text; *p; p++)
        if (*p == ';')
            *p = '\n';
    cloth_status st = cloth_scene_parse(text, "x.ini", &s, err);
    ck_assert_msg(st == CLOTH_OK, "%s", err->msg);
    return cloth__avatar_create(&s.avatar, "x.ini", av, bad, err);
}

static cloth_avatar *must(const char *keys)
{
    cloth_avatar *av;
    const char *bad;
    cloth_error err;
    ck_assert_msg(avatar_of(keys, &av, &bad, &err) == CLOTH_OK, "%s: %s", bad, err.msg);
    return av;
}

#define OBJ_BODY "model=../experiments/avatar/mannequin.obj;" \
                 "skeleton=../experiments/avatar/mannequin.bvh"

/* ------------------------------------------------------------- OBJ bodies */

/* The exported mannequin: the same joints at the same rest places, the same bone tips,
 * the same vertices and the same closed pieces (one a capsule, each turned outwards),
 * to the files' 10 digits. */
START_TEST(exported_mannequin_reads_back)
{
    cloth_avatar *a = must("sdf_resolution=16"), *b = must(OBJ_BODY ";sdf_resolution=16");
    const cloth__body *p = &a->body, *q = &b->body;
    ck_assert_int_eq(p->skel.n, q->skel.n);
    for (int j = 0; j < p->skel.n; j++) {
        ck_assert_str_eq(p->skel.joint[j].name, q->skel.joint[j].name);
        ck_assert_int_eq(p->skel.joint[j].parent, q->skel.joint[j].parent);
        for (int k = 0; k < 3; k++) {
            ck_assert_double_eq_tol(p->skel.rest[j][k], q->skel.rest[j][k], 1e-9);
            ck_assert_double_eq_tol(p->tip[j][k], q->tip[j][k], 1e-9);
        }
    }
    ck_assert_int_eq(p->n_verts, q->n_verts);
    ck_assert_int_eq(p->n_tris, q->n_tris);
    ck_assert_int_eq(q->n_parts, p->n_caps);
    for (int i = 0; i < 3 * p->n_verts; i++)
        ck_assert_double_eq_tol(p->verts[i], q->verts[i], 1e-9);
    for (int c = 0; c <= q->n_parts; c++)
        ck_assert_int_eq(p->part_tri[c], q->part_tri[c]);
    /* the back-transform's weights at rest skin the surface: a convex combination */
    for (int i = 0; i < q->n_verts; i++) {
        double sum = 0;
        for (int k = 0; k < CLOTH__SKIN; k++)
            sum += q->skin_weight[CLOTH__SKIN * i + k];
        ck_assert_double_eq_tol(sum, 1, 1e-12);
    }
    cloth__avatar_destroy(a);
    cloth__avatar_destroy(b);
}
END_TEST

/* The OBJ body's rest field at every node of its grid is the exact signed distance to
 * the surface (box trees, nearest triangle's sign) and it equals a second, independent
 * computation: every triangle of every piece, inside by the generalised winding number
 * (cloth__body_surface_distance), to 1e-12 m.  The field of the same surface is then the
 * same trilinear interpolant, whichever route built it. */
START_TEST(obj_field_is_exact_at_its_nodes)
{
    cloth_avatar *b = must(OBJ_BODY ";sdf_resolution=32");
    cloth__avatar_skin(b); /* the parts' bounding spheres (rest pose) */
    const cloth__sdf *f = &b->sdf;
    int checked = 0, inside = 0;
    for (int z = 0; z < f->n[2]; z += 2)
        for (int y = 0; y < f->n[1]; y++)
            for (int x = 0; x < f->n[0]; x++) {
                double p[3] = {f->lo[0] + x * f->h, f->lo[1] + y * f->h, f->lo[2] + z * f->h};
                double want = cloth__body_surface_distance(&b->body, b->body.verts,
                                                           b->skin_sphere, 100, p);
                double got = f->d[x + (size_t)f->n[0] * (y + (size_t)f->n[1] * z)];
                ck_assert_msg(fabs(got - want) <= 1e-12, "node %d %d %d: %.15g, brute force "
                              "%.15g", x, y, z, got, want);
                checked++;
                inside += want < 0;
            }
    ck_assert_int_gt(inside, 10);
    ck_assert_int_gt(checked, 3000);
    cloth__avatar_destroy(b);
}
END_TEST

/* A tetrahedron written inside out is turned outwards: its centroid is inside (negative
 * distance, minus the distance to the nearest face plane), a point beyond a vertex is
 * outside at its distance from that vertex. */
START_TEST(inside_out_surface_is_turned)
{
    cloth__body b;
    memset(&b, 0, sizeof b);
    double o[3] = {0, 0, 0};
    cloth__skeleton_add(&b.skel, "root", -1, o, M_PI);
    b.tip[0][1] = 1;
    double *x = malloc(12 * sizeof *x);
    int *t = malloc(12 * sizeof *t);
    double v[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    int inward[12] = {0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2}; /* normals into the solid */
    memcpy(x, v, sizeof v);
    memcpy(t, inward, sizeof inward);
    cloth_error err;
    ck_assert_msg(cloth__body_adopt_surface(&b, x, 4, t, 4, "tet.obj", &err) == CLOTH_OK, "%s",
                  err.msg);
    cloth__trisurf ts;
    ck_assert(cloth__trisurf_build(&ts, b.verts, b.tris, b.n_parts, b.part_tri, &err) == CLOTH_OK);
    double c[3] = {0.25, 0.25, 0.25}, far[3] = {2, 0, 0};
    /* the centroid is 0.25 from the three axis planes, 0.25/sqrt(3) from x+y+z = 1 */
    ck_assert_double_eq_tol(cloth__trisurf_distance(&ts, c), -0.25 / sqrt(3), 1e-12);
    ck_assert_double_eq_tol(cloth__trisurf_distance(&ts, far), 1, 1e-12);
    cloth__trisurf_free(&ts);
    cloth__body_free(&b);
}
END_TEST

/* Broken files stop the avatar with the file (and the line, for a parse error) and the
 * key at fault. */
static const struct {
    const char *obj, *skel, *key, *says;
} bad_files[] = {
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 x\nf 1 2 3\n", NULL, "model", "bad.obj:4: v:"},
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n", NULL, "model", "bad.obj:4: f: bad vertex"},
    /* a tetrahedron with a face missing */
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\nf 2 3 4\n", NULL,
     "model", "not closed"},
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\n", NULL, "model",
     "faces: a closed surface needs 4"},
    /* one face turned against its neighbours */
    {"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 4 3\n", NULL, "model",
     "run it the same way"},
    {NULL, "HIERARCHY\nROOT a\n{\n  OFFSET 0 0\n}\n", "skeleton", "bad.bvh:5: OFFSET"},
    {NULL, "HIERARCHY\nROOT a\n{\n  OFFSET 0 0 0\n  JOINT a\n  {\n    OFFSET 0 1 0\n  }\n}\n",
     "skeleton", "named twice"},
};

START_TEST(bad_body_files_name_file_line_and_key)
{
    static const char *const tet =
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
    static const char *const skel =
        "HIERARCHY\nROOT a\n{\n  OFFSET 0 0 0\n  End Site\n  {\n    OFFSET 0 1 0\n  }\n}\n";
    const char *obj = tu_temp_file("bad.obj", bad_files[_i].obj ? bad_files[_i].obj : tet);
    const char *bvh = tu_temp_file("bad.bvh", bad_files[_i].skel ? bad_files[_i].skel : skel);
    char keys[1024];
    snprintf(keys, sizeof keys, "model=%s;skeleton=%s;sdf_resolution=8", obj, bvh);
    cloth_avatar *av;
    const char *bad;
    cloth_error err;
    ck_assert(avatar_of(keys, &av, &bad, &err) != CLOTH_OK);
    ck_assert_str_eq(bad, bad_files[_i].key);
    ck_assert_msg(strstr(err.msg, bad_files[_i].says), "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "bad.") != NULL, "%s", err.msg);
}
END_TEST

/* The CLI: SCENE:LINE: avatar.model: FILE:LINE: why, exit 2; an OBJ without skeleton. */
START_TEST(cli_bad_body_exits_2)
{
    const char *obj = tu_temp_file("bad.obj", "v 0 0 0\nv 1 0\n");
    char text[512 + PATH_MAX], args[600], out[2048], skel[PATH_MAX];
    ck_assert(realpath("../experiments/avatar/mannequin.bvh", skel) != NULL);
    snprintf(text, sizeof text, "[avatar]\nmodel = %s\nskeleton = %s\n", obj, skel);
    snprintf(args, sizeof args, "run %s --set run.frames=1", tu_temp_file("s.ini", text));
    ck_assert_int_eq(tu_run_cli(args, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "s.ini:2: avatar.model: ") && strstr(out, "bad.obj:2: v:"), "%s",
                  out);
    snprintf(text, sizeof text, "[avatar]\nmodel = %s\n", obj);
    snprintf(args, sizeof args, "run %s --set run.frames=1", tu_temp_file("s.ini", text));
    ck_assert_int_eq(tu_run_cli(args, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "avatar.model: an OBJ body needs avatar.skeleton"), "%s", out);
}
END_TEST

/* ------------------------------------------------------------------ poses */

/* pose = a turns each arm 45 degrees down about z: the left wrist goes from the shoulder
 * s + L (1, 0, 0) to s + L (cos 45, -sin 45, 0); arms_raised 60 degrees up; a one-frame
 * BVH of zeros is the rest pose; unknown names, clips of many frames and a pose with a
 * motion are refused, naming avatar.pose. */
START_TEST(poses_by_name_and_file)
{
    static const struct { const char *pose; double deg; } named[] = {
        {"t", 0}, {"a", -45}, {"arms_raised", 60}, {"../experiments/avatar/mannequin.bvh", 0}};
    for (int i = 0; i < 4; i++) {
        char keys[256];
        snprintf(keys, sizeof keys, "pose=%s;sdf_resolution=8", named[i].pose);
        cloth_avatar *av = must(keys);
        const cloth__skeleton *s = &av->body.skel;
        int sh = cloth__skeleton_find(s, "l_shoulder"), wr = cloth__skeleton_find(s, "l_wrist");
        double L = s->rest[wr][0] - s->rest[sh][0], a = named[i].deg * M_PI / 180;
        double want[3] = {s->rest[sh][0] + L * cos(a), s->rest[sh][1] + L * sin(a), 0};
        for (int k = 0; k < 3; k++)
            ck_assert_double_eq_tol(av->now.a[wr][k], want[k], 1e-12);
        int rs = cloth__skeleton_find(s, "r_shoulder"), rw = cloth__skeleton_find(s, "r_wrist");
        ck_assert_double_eq_tol(av->now.a[rw][1] - s->rest[rs][1], L * sin(a), 1e-12);
        cloth__avatar_destroy(av);
    }
    static const struct { const char *keys, *says; } bad[] = {
        {"pose=y", "'y': expected t, a, arms_raised"},
        {"pose=../experiments/avatar/walk.bvh", "frames: a pose is one frame"},
        {"pose=a;motion=../experiments/avatar/walk.bvh", "set one of the two"},
    };
    for (int i = 0; i < 3; i++) {
        cloth_avatar *av;
        const char *key;
        cloth_error err;
        ck_assert(avatar_of(bad[i].keys, &av, &key, &err) != CLOTH_OK);
        ck_assert_str_eq(key, "pose");
        ck_assert_msg(strstr(err.msg, bad[i].says), "%s", err.msg);
    }
}
END_TEST

/* -------------------------------------------------------------- ellipsoids */

/* A pose of the whole body turned and moved rigidly (the root alone): every skinning
 * transform is the same rigid motion. */
static void rigid_pose(cloth_avatar *av)
{
    double axis[3] = {0.3, 0.9, -0.2}, n = sqrt(0.09 + 0.81 + 0.04);
    for (int k = 0; k < 3; k++)
        axis[k] /= n;
    av->posed_by_ik = 1; /* the pose stays as set */
    cloth__pose_rest(&av->body.skel, &av->pose);
    cloth__rot_axis_angle(axis, 0.7, av->pose.rot[0]);
    av->pose.root[0] = 0.2, av->pose.root[2] = -0.1;
    cloth__avatar_move(av, 0);
}

/* The skin's signed distance (cloth__avatar_surface_distance), which takes a part's sign
 * from its nearest triangle when the point lies along that triangle's normal and from
 * the winding number otherwise, against the winding number everywhere: on the walking
 * body at 0.4 s (bent knees and elbows), points scattered up to 4 cm either side of
 * random triangles, the union's distance formed here from each part's brute-force
 * distance and its winding number (Van Oosterom and Strackee's solid angles, inside when
 * |omega| > 2 pi) equals the library's to 1e-12 m. */
static double solid_angle_of(const double p[3], const double *a0, const double *b0,
                             const double *c0)
{
    double a[3], b[3], c[3];
    for (int k = 0; k < 3; k++)
        a[k] = a0[k] - p[k], b[k] = b0[k] - p[k], c[k] = c0[k] - p[k];
    double la = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    double lb = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
    double lc = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    double det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
                 a[2] * (b[0] * c[1] - b[1] * c[0]);
    double ab = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    double ac = a[0] * c[0] + a[1] * c[1] + a[2] * c[2];
    double bc = b[0] * c[0] + b[1] * c[1] + b[2] * c[2];
    return 2 * atan2(det, la * lb * lc + ab * lc + ac * lb + bc * la);
}

START_TEST(skin_distance_sign_is_the_winding_numbers)
{
    cloth_avatar *av = must("motion=../experiments/avatar/walk.bvh;sdf_resolution=8");
    cloth__avatar_move(av, 0.4);
    cloth__avatar_skin(av);
    const cloth__body *b = &av->body;
    unsigned long seed = 17;
    int inside = 0, outside = 0;
    for (int i = 0; i < 1500; i++) {
        int t = (int)(b->n_tris * (0.5 + 0.5 * tu_random(&seed))) % b->n_tris; /* r in [-1, 1) */
        const double *A = av->skin + 3 * b->tris[3 * t], *B = av->skin + 3 * b->tris[3 * t + 1],
                     *C = av->skin + 3 * b->tris[3 * t + 2];
        double n[3] = {(B[1] - A[1]) * (C[2] - A[2]) - (B[2] - A[2]) * (C[1] - A[1]),
                       (B[2] - A[2]) * (C[0] - A[0]) - (B[0] - A[0]) * (C[2] - A[2]),
                       (B[0] - A[0]) * (C[1] - A[1]) - (B[1] - A[1]) * (C[0] - A[0])};
        double ln = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        double along = 0.04 * tu_random(&seed), p[3];
        for (int k = 0; k < 3; k++)
            p[k] = (A[k] + B[k] + C[k]) / 3 + along * n[k] / ln +
                   0.01 * tu_random(&seed);
        double in = -1, out = HUGE_VAL;
        for (int c = 0; c < b->n_parts; c++) {
            double d2 = HUGE_VAL, omega = 0, q[3];
            for (int u = b->part_tri[c]; u < b->part_tri[c + 1]; u++) {
                const int *v = b->tris + 3 * u;
                const double *a = av->skin + 3 * v[0], *bb = av->skin + 3 * v[1],
                             *cc = av->skin + 3 * v[2];
                d2 = fmin(d2, cloth__triangle_closest(p, a, bb, cc, q));
                omega += solid_angle_of(p, a, bb, cc);
            }
            if (fabs(omega) > 2 * M_PI)
                in = fmax(in, sqrt(d2));
            else
                out = fmin(out, sqrt(d2));
        }
        double want = in >= 0 ? -in : out;
        ck_assert_double_eq_tol(cloth__avatar_surface_distance(av, p), want, 1e-12);
        inside += want < 0;
        outside += want > 0;
    }
    ck_assert_int_gt(inside, 300);
    ck_assert_int_gt(outside, 300);
    cloth__avatar_destroy(av);
}
END_TEST

/* The push-out kernels' field (cloth__avatar_field: the back-transform, then the rest
 * field of the flesh of the joints it used) never reports a point nearer the body than
 * it is.  On the walking body at 0.4 s, points on a 1 cm grid around both knees that the
 * back-transform moves rigidly with one joint j: the field equals part j's own distance
 * (within the trilinear bound (sqrt 3/2) h), which is at least the distance to the posed
 * capsules' union, the exact one (here from a second avatar with collision = capsules in
 * the same pose).  The whole body's field read at the same rest places does report
 * points 2 cm or more too near (phantoms: another part's rest flesh beside the rest
 * place); the test finds some first. */
START_TEST(push_out_field_has_no_phantoms)
{
    cloth_avatar *av = must("motion=../experiments/avatar/walk.bvh;sdf_resolution=64");
    cloth_avatar *cap = must("motion=../experiments/avatar/walk.bvh;collision=capsules");
    cloth__avatar_move(av, 0.4);
    cloth__avatar_move(cap, 0.4);
    double bound = sqrt(3) / 2 * av->sdf.h + 1e-9, worst = -HUGE_VAL;
    int phantoms = 0, tested = 0;
    const char *knees[2] = {"l_knee", "r_knee"};
    for (int side = 0; side < 2; side++) {
        int knee = cloth__skeleton_find(&av->body.skel, knees[side]);
        const double *c = av->now.a[knee];
        for (int i = -25; i <= 25; i++)
            for (int j = -25; j <= 25; j++)
                for (int k = -25; k <= 25; k++) {
                    double x[3] = {c[0] + 0.01 * i, c[1] + 0.01 * j, c[2] + 0.01 * k};
                    cloth__bt_weights w;
                    if (cloth__bt_weights_of(&av->bt, &av->now, x, &w) != 1 || w.n != 1)
                        continue;
                    double exact = cloth__avatar_field(cap, x, NULL);
                    if (!(exact < 0.1))
                        continue;
                    double y[3];
                    cloth__bt_to_rest(&av->now, &w, x, y);
                    phantoms += cloth__sdf_sample(&av->sdf, y, NULL) < exact - 0.02;
                    worst = fmax(worst, exact - cloth__avatar_field(av, x, NULL));
                    tested++;
                }
    }
    ck_assert_int_gt(tested, 1000);
    ck_assert_msg(phantoms > 0, "no phantom of the whole field found near the knees");
    ck_assert_msg(worst <= bound, "%d points: the field is up to %g m nearer than the "
                  "capsules (bound %g; %d phantoms of the whole field)", tested, worst, bound,
                  phantoms);
    cloth__avatar_destroy(av);
    cloth__avatar_destroy(cap);
}
END_TEST

/* Every ellipsoid holds every corner of its bone's triangles, in the rest pose and in
 * any pose (posed with its bone, the corners moved by the same transform), and the
 * bound's scale is 1 + margin / min r. */
START_TEST(ellipsoids_hold_their_parts)
{
    cloth_avatar *av = must("collision=ellipsoids");
    const cloth__ellipsoids *E = &av->ell;
    ck_assert_int_eq(E->n, 17);
    unsigned long seed = 3;
    for (int trial = 0; trial < 2; trial++) {
        cloth__pose pose;
        cloth__pose_rest(&av->body.skel, &pose);
        for (int j = 0; j < av->body.skel.n && trial; j++) {
            double ax[3] = {tu_random(&seed), tu_random(&seed), tu_random(&seed)};
            double n = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
            for (int k = 0; k < 3; k++)
                ax[k] /= n;
            cloth__rot_axis_angle(ax, 0.8 * tu_random(&seed), pose.rot[j]);
        }
        cloth__xform xf[CLOTH__MAX_JOINTS];
        cloth__skeleton_fk(&av->body.skel, &pose, NULL, xf);
        int corners = 0;
        for (int i = 0; i < E->n; i++) {
            const cloth__ellipsoid *e = &E->e[i];
            const cloth__xform *T = &xf[e->joint];
            double rmin = fmin(e->r[0], fmin(e->r[1], e->r[2]));
            ck_assert_double_eq_tol(e->lambda, 1 + 0.03 / rmin, 1e-12);
            for (int t = E->first[i]; t < E->first[i + 1]; t++)
                for (int c = 0; c < 3; c++) {
                    const double *y = av->body.verts + 3 * av->body.tris[3 * E->tri[t] + c];
                    double x[3];
                    cloth__mat_vec(T->R, y, x);
                    for (int k = 0; k < 3; k++)
                        x[k] += T->t[k];
                    ck_assert(cloth__ellipsoid_level(e, T, x, 1) <= 1 + 1e-9);
                    corners++;
                }
        }
        ck_assert_int_eq(corners, 3 * av->body.n_tris);
    }
    cloth__avatar_destroy(av);
}
END_TEST

/* Brute force: the smallest distance from p to any triangle of the skinned surface. */
static double brute_min(const cloth_avatar *av, const double p[3])
{
    double best = HUGE_VAL, q[3];
    const cloth__body *b = &av->body;
    for (int t = 0; t < b->n_tris; t++) {
        const int *v = b->tris + 3 * t;
        best = fmin(best, cloth__triangle_closest(p, av->skin + 3 * v[0], av->skin + 3 * v[1],
                                                  av->skin + 3 * v[2], q));
    }
    return sqrt(best);
}

/* In a rigid pose, points outside the body within the margin (3 cm) of it: inside some
 * bound, and the query's distance is the smallest point-triangle distance over all the
 * body's triangles (to 1e-12 m); points outside every bound are skipped (HUGE_VAL, no
 * triangle tested). */
START_TEST(ellipsoid_distance_is_exact_and_skips_outside)
{
    cloth_avatar *av = must("collision=ellipsoids");
    rigid_pose(av);
    unsigned long seed = 11;
    int exact = 0, skipped = 0;
    for (int i = 0; i < 10000; i++) {
        double x[3] = {0.95 * tu_random(&seed), 0.9 + 0.9 * tu_random(&seed),
                       0.95 * tu_random(&seed)}, dir[3];
        /* into the pose */
        double y[3];
        cloth__mat_vec(av->now.xf[0].R, x, y);
        for (int k = 0; k < 3; k++)
            y[k] += av->now.xf[0].t[k];
        int tested;
        double d = cloth__ellipsoids_query(&av->ell, &av->body, av->skin, av->now.xf, y, dir,
                                           &tested);
        int any = 0;
        for (int e = 0; e < av->ell.n; e++)
            any |= cloth__ellipsoid_level(&av->ell.e[e], &av->now.xf[av->ell.e[e].joint], y,
                                          av->ell.e[e].lambda) <= 1;
        if (!any) {
            ck_assert(d == HUGE_VAL && tested == 0);
            skipped++;
            continue;
        }
        double truth = cloth__avatar_surface_distance(av, y);
        if (!(truth > 0 && truth <= 0.03))
            continue;
        ck_assert_msg(fabs(d - brute_min(av, y)) <= 1e-12, "%g vs %g", d, brute_min(av, y));
        exact++;
    }
    ck_assert_int_gt(exact, 50);
    ck_assert_int_gt(skipped, 500);
    double above[3] = {0, 3, 0}, dir[3];
    ck_assert(cloth__ellipsoids_query(&av->ell, &av->body, av->skin, av->now.xf, above, dir,
                                      NULL) == HUGE_VAL);
    cloth__avatar_destroy(av);
}
END_TEST

/* Points around the left forearm's middle, from inside its skin to inside its flesh
 * (2 to 4.9 cm from the bone, the flesh 4 cm): pushed out, every one is at the offset
 * (1 cm) from the surface by the brute-force distance, to 1e-9 m. */
START_TEST(ellipsoid_push_out_reaches_the_offset)
{
    cloth_avatar *av = must("collision=ellipsoids;offset=0.01");
    rigid_pose(av);
    unsigned long seed = 5;
    for (int i = 0; i < 200; i++) {
        double ph = M_PI * tu_random(&seed), r = 0.0345 + 0.0145 * tu_random(&seed);
        double y[3] = {0.60 + 0.05 * tu_random(&seed), 1.45 + r * cos(ph), r * sin(ph)}, x[3];
        cloth__mat_vec(av->now.xf[0].R, y, x);
        for (int k = 0; k < 3; k++)
            x[k] += av->now.xf[0].t[k];
        double n[3];
        ck_assert(cloth__avatar_push_out(av, x, n) == 1);
        ck_assert_double_eq_tol(cloth__avatar_surface_distance(av, x), 0.01, 1e-9);
        ck_assert_double_eq_tol(brute_min(av, x), 0.01, 1e-9);
        ck_assert_double_eq_tol(n[0] * n[0] + n[1] * n[1] + n[2] * n[2], 1, 1e-12);
    }
    cloth__avatar_destroy(av);
}
END_TEST

/* --------------------------------------------------------------- the field */

/* The trilinear interpolant of a 1-Lipschitz function errs by at most (sqrt 3 / 2) h:
 * |f(y) - sum_c w_c f(c)| <= sum_c w_c |y - c| <= sqrt(sum_c w_c |y - c|^2)
 * = h sqrt(sum_k u_k (1 - u_k)) <= (sqrt 3 / 2) h.  Half a cell is not a bound: where the
 * distance bends within a cell (a hand thinner than the cell, a crease) the error goes
 * past it.  The mannequin's field at 32 cells, at random points within 5 cm of the body. */
START_TEST(field_error_within_the_lipschitz_bound)
{
    cloth_avatar *av = must("sdf_resolution=32");
    unsigned long seed = 9;
    double worst = 0;
    for (int i = 0; i < 20000; i++) {
        double y[3] = {0.95 * tu_random(&seed), 0.9 + 0.9 * tu_random(&seed),
                       0.95 * tu_random(&seed)};
        double d = cloth__body_distance_rest(&av->body, y, NULL);
        if (fabs(d) > 0.05)
            continue;
        worst = fmax(worst, fabs(cloth__sdf_sample(&av->sdf, y, NULL) - d));
    }
    ck_assert_msg(worst <= 0.5 * sqrt(3) * av->sdf.h, "error %g, cell %g", worst, av->sdf.h);
    cloth__avatar_destroy(av);
}
END_TEST

/* newton's parts of the exported mannequin (src/body/partfields.h): its pieces (one a
 * capsule, piece c moved by capsule c's joint: exported_mannequin_reads_back) make its
 * parts.  With the left knee and elbow bent 70 degrees, at 1500 points within 5 cm of
 * the body (half of them about the bends), the union of the parts' fields is within
 * (sqrt 3 / 2) h of the signed distance to the posed pieces computed by a second,
 * independent route: every piece's vertices moved by its joint, every triangle, inside
 * by the generalised winding number (cloth__body_surface_distance).  Both are the
 * minimum over the pieces of a signed distance (1-Lipschitz), whose trilinear
 * interpolant errs by at most (sqrt 3 / 2) h. */
START_TEST(obj_parts_are_the_posed_pieces)
{
    cloth_avatar *a = must("sdf_resolution=64"), *b = must(OBJ_BODY ";sdf_resolution=64");
    const cloth__body *q = &b->body;
    ck_assert_int_eq(b->parts.from_pieces, 1);
    ck_assert_int_eq(b->parts.n, q->n_parts);
    cloth__pose pose;
    cloth__pose_rest(&q->skel, &pose);
    int knee = cloth__skeleton_find(&q->skel, "l_knee");
    int elbow = cloth__skeleton_find(&q->skel, "l_elbow");
    cloth__rot_basic(0, 70 * M_PI / 180, pose.rot[knee]);
    cloth__rot_basic(1, -70 * M_PI / 180, pose.rot[elbow]);
    cloth__bt_pose pb, pa;
    cloth__bt_set_pose(&b->bt, q, &pose, &pb);
    cloth__bt_set_pose(&a->bt, &a->body, &pose, &pa);
    double *posed = malloc(sizeof(double) * 3 * (size_t)q->n_verts);
    double *sphere = malloc(sizeof(double) * 4 * (size_t)q->n_parts);
    ck_assert(posed && sphere);
    for (int c = 0; c < q->n_parts; c++) {
        const cloth__xform *T = &pb.xf[a->body.cap[c].joint];
        double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
        for (int t = 3 * q->part_tri[c]; t < 3 * q->part_tri[c + 1]; t++) {
            const double *y = q->verts + 3 * q->tris[t];
            double *x = posed + 3 * q->tris[t];
            cloth__mat_vec(T->R, y, x);
            for (int k = 0; k < 3; k++) {
                x[k] += T->t[k];
                lo[k] = fmin(lo[k], x[k]);
                hi[k] = fmax(hi[k], x[k]);
            }
        }
        double *s = sphere + 4 * c, r2 = 0;
        for (int k = 0; k < 3; k++)
            s[k] = 0.5 * (lo[k] + hi[k]);
        for (int t = 3 * q->part_tri[c]; t < 3 * q->part_tri[c + 1]; t++) {
            const double *x = posed + 3 * q->tris[t];
            r2 = fmax(r2, (x[0] - s[0]) * (x[0] - s[0]) + (x[1] - s[1]) * (x[1] - s[1]) +
                              (x[2] - s[2]) * (x[2] - s[2]));
        }
        s[3] = sqrt(r2);
    }
    double h = b->parts.f[0].h, worst = 0;
    unsigned long seed = 17;
    int inside = 0;
    for (int i = 0; i < 1500; i++) {
        double x[3], e;
        do {
            /* about a random capsule's middle, or the bent knee or elbow */
            int c = (int)((tu_random(&seed) + 1) * 0.5 * a->body.n_caps) % a->body.n_caps;
            const double *at = i % 2 ? pa.a[i % 4 == 1 ? knee : elbow] : pa.cap_a[c];
            const double *to = i % 2 ? at : pa.cap_b[c];
            for (int k = 0; k < 3; k++)
                x[k] = 0.5 * (at[k] + to[k]) + 0.2 * tu_random(&seed);
            e = cloth__body_distance_posed(&a->body, pa.xf, x);
        } while (e < -0.02 || e > 0.05);
        double want = cloth__body_surface_distance(q, posed, sphere, 1.0, x);
        double got = cloth__avatar_distance_at(b, &pb, x, NULL);
        worst = fmax(worst, fabs(got - fmin(want, b->parts.far)));
        inside += want < 0;
    }
    ck_assert_int_gt(inside, 100);
    ck_assert_msg(worst <= 0.5 * sqrt(3.0) * h + 1e-12, "error %g m > (sqrt 3/2) h = %g m",
                  worst, 0.5 * sqrt(3.0) * h);
    free(posed);
    free(sphere);
    cloth__avatar_destroy(a);
    cloth__avatar_destroy(b);
}
END_TEST

Suite *suite_body_files(void)
{
    Suite *s = suite_create("body_files");
    TCase *tc = tcase_create("obj");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, exported_mannequin_reads_back);
    tcase_add_test(tc, obj_field_is_exact_at_its_nodes);
    tcase_add_test(tc, obj_parts_are_the_posed_pieces);
    tcase_add_test(tc, inside_out_surface_is_turned);
    tcase_add_loop_test(tc, bad_body_files_name_file_line_and_key, 0,
                        (int)(sizeof bad_files / sizeof bad_files[0]));
    tcase_add_test(tc, cli_bad_body_exits_2);
    suite_add_tcase(s, tc);
    tc = tcase_create("pose");
    tcase_add_test(tc, poses_by_name_and_file);
    tcase_add_test(tc, skin_distance_sign_is_the_winding_numbers);
    tcase_add_test(tc, push_out_field_has_no_phantoms);
    suite_add_tcase(s, tc);
    tc = tcase_create("ellipsoids");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, ellipsoids_hold_their_parts);
    tcase_add_test(tc, ellipsoid_distance_is_exact_and_skips_outside);
    tcase_add_test(tc, ellipsoid_push_out_reaches_the_offset);
    tcase_add_test(tc, field_error_within_the_lipschitz_bound);
    suite_add_tcase(s, tc);
    return s;
}
