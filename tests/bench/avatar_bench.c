/*
 * make bench, part 3: the avatar (docs/avatar.md; src/body/).  Prints CSV sections,
 * each with its own header line:
 *
 *   field:        the rest-pose field at several avatar.sdf_resolution values against
 *                 the exact distance, at 20000 random points within offset + 2 cells of
 *                 the surface: the mannequin (exact: its capsules) and its export read
 *                 back as an OBJ body (exact: its triangles); cell size, max and RMS
 *                 |error|, the max in half cells and in the trilinear Lipschitz bound
 *                 (sqrt 3 / 2) cell, the joint nearest the worst point, the avatar's
 *                 build time (the field and newton's part fields);
 *   parts:        newton's part fields (src/body/partfields.h) at the same resolutions:
 *                 parts, nodes and MB against the whole field's, build time;
 *   sampling:     ns per query of the trilinear sample alone, of the whole avatar
 *                 query (cylinders, weights, back-transform, sample, normal forward) and
 *                 of newton's union of the parts (with its gradient), over 10^6 points
 *                 near the posed body (walk clip, t = 0.3 s);
 *   backtransform: round trip of points attached to the limbs in the rest pose after
 *                 random poses (max error), and the largest jump of the rest place for a
 *                 1e-7 m move at each change of weights on lines across the left elbow,
 *                 3 cm off the bones (inside the flesh) and 6 cm (outside), four sides,
 *                 with the jump of the rest body's exact distance at the two rest places
 *                 and how far it is from the posed body's own distance there;
 *   ik:           CCD sweeps to reach targets with the left arm, with the distance left;
 *   scenes:       the cape and the skirt for every colliding kernel with sdf, and verlet
 *                 with capsules and with ellipsoids: max body_depth over frames (m), offset/2, collision stage ms
 *                 per frame, kernel ms per frame.
 */
#include "cloth.h"
#include "body/avatar.h"
#include "body/ik.h"
#include "body/trisurf.h"
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The thread's CPU time (s): the sampling rates on a shared machine. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static unsigned long rng = 12345;
static double uniform(void) /* [-1, 1) */
{
    rng = rng * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(rng >> 11) / (double)(1UL << 52) - 1;
}

/* The mannequin (obj = 0) or its export read back as an OBJ body (obj = 1). */
static cloth_avatar *make_body(int resolution, const char *motion, int obj)
{
    cloth_scene sc;
    cloth_error err;
    cloth_scene_parse("[avatar]\n", "experiments/x.ini", &sc, &err);
    cloth_avatar_def d = sc.avatar;
    d.sdf_resolution = resolution;
    snprintf(d.motion, sizeof d.motion, "%s", motion);
    if (obj) {
        snprintf(d.model, sizeof d.model, "avatar/mannequin.obj");
        snprintf(d.skeleton, sizeof d.skeleton, "avatar/mannequin.bvh");
    }
    cloth_avatar *av;
    const char *key;
    if (cloth__avatar_create(&d, "experiments/x.ini", &av, &key, &err) != CLOTH_OK) {
        fprintf(stderr, "avatar_bench: avatar.%s: %s\n", key, err.msg);
        exit(1);
    }
    return av;
}

static cloth_avatar *make_avatar(int resolution, const char *motion)
{
    return make_body(resolution, motion, 0);
}

/* A random point within 5 cm of the rest body's surface. */
static void near_rest_surface(const cloth__body *b, double y[3])
{
    for (;;) {
        for (int k = 0; k < 3; k++)
            y[k] = (k == 1 ? 0.9 + 0.9 * uniform() : 0.95 * uniform());
        if (fabs(cloth__body_distance_rest(b, y, NULL)) <= 0.05)
            return;
    }
}

/* The field against the exact distance at 20000 random points within offset + 2 cells
 * of the surface: the mannequin's (exact: its capsules) and the OBJ export's (exact: its
 * triangles, by box trees); max and RMS error, the max in half cells and in the
 * Lipschitz bound (sqrt 3 / 2) h of a trilinear interpolant, the joint of the capsule
 * nearest the worst point. */
static void field_section(void)
{
    printf("section,body,resolution,cell_m,band_m,max_err_m,rms_err_m,max_over_half_cell,"
           "max_over_lipschitz_bound,worst_near,build_s\n");
    int res[] = {32, 64, 128, 256};
    for (int obj = 0; obj < 2; obj++)
        for (int r = 0; r < 4; r++) {
            double t0 = now_s();
            cloth_avatar *av = make_body(res[r], "", obj);
            double build = now_s() - t0, worst = 0, sum2 = 0, band = 0.01 + 2 * av->sdf.h;
            cloth__trisurf ts;
            cloth_error err;
            cloth__trisurf_build(&ts, av->body.verts, av->body.tris, av->body.n_parts,
                                 av->body.part_tri, &err);
            int worst_cap = 0, n = 0;
            rng = 1;
            while (n < 20000) {
                double y[3];
                for (int k = 0; k < 3; k++)
                    y[k] = (k == 1 ? 0.9 + 0.9 * uniform() : 0.95 * uniform());
                int cap;
                double exact = obj ? cloth__trisurf_distance(&ts, y)
                                   : cloth__body_distance_rest(&av->body, y, &cap);
                if (fabs(exact) > band)
                    continue;
                double e = fabs(cloth__sdf_sample(&av->sdf, y, NULL) - exact);
                if (e > worst) {
                    worst = e;
                    cloth__body_distance_rest(&av->body, y, &cap);
                    worst_cap = cap;
                }
                sum2 += e * e;
                n++;
            }
            printf("field,%s,%d,%.4g,%.4g,%.3g,%.3g,%.3g,%.3g,%s,%.3g\n",
                   obj ? "obj" : "builtin", res[r], av->sdf.h, band, worst, sqrt(sum2 / n),
                   worst / (0.5 * av->sdf.h), worst / (0.5 * sqrt(3) * av->sdf.h),
                   av->body.skel.joint[av->body.cap[worst_cap].joint].name, build);
            cloth__trisurf_free(&ts);
            cloth__avatar_destroy(av);
        }
}

/* newton's part fields against the whole field: parts, nodes, MB, build time. */
static void parts_section(void)
{
    printf("section,body,resolution,cell_m,parts,from,nodes,whole_nodes,mb,whole_mb,"
           "build_s\n");
    int res[] = {64, 128, 256};
    for (int obj = 0; obj < 2; obj++)
        for (int r = 0; r < 3; r++) {
            cloth_avatar *av = make_body(res[r], "", obj);
            cloth__partfields pf;
            cloth_error err;
            double t0 = now_s();
            if (cloth__partfields_build(&pf, &av->body, av->sdf.h, av->parts.far, &err) !=
                CLOTH_OK) {
                fprintf(stderr, "avatar_bench: %s\n", err.msg);
                exit(1);
            }
            double build = now_s() - t0;
            size_t nodes = cloth__partfields_nodes(&pf);
            size_t whole = (size_t)av->sdf.n[0] * av->sdf.n[1] * av->sdf.n[2];
            printf("parts,%s,%d,%.4g,%d,%s,%zu,%zu,%.3g,%.3g,%.3g\n", obj ? "obj" : "builtin",
                   res[r], av->sdf.h, pf.n, pf.from_pieces ? "pieces" : "capsules", nodes,
                   whole, 8e-6 * nodes, 8e-6 * whole, build);
            cloth__partfields_free(&pf);
            cloth__avatar_destroy(av);
        }
}

static double cell_h = 0.015;
static int by_cell(const void *pa, const void *pb)
{
    const double *a = pa, *b = pb;
    for (int k = 2; k >= 0; k--) {
        long ca = (long)floor(a[k] / cell_h), cb = (long)floor(b[k] / cell_h);
        if (ca != cb)
            return ca < cb ? -1 : 1;
    }
    return 0;
}

static void sampling_section(void)
{
    enum { N = 1000000 };
    cloth_avatar *av = make_avatar(128, "avatar/walk.bvh");
    cloth__avatar_move(av, 0.3);
    cell_h = av->sdf.h;
    double *pts = malloc(sizeof(double) * 3 * N), *rest = malloc(sizeof(double) * 3 * N);
    rng = 2;
    for (int i = 0; i < N; i++) {
        near_rest_surface(&av->body, rest + 3 * i);
        /* the same points carried to the pose by their joint */
        cloth__bt_weights w;
        cloth__bt_pose rp;
        (void)rp;
        int c;
        cloth__body_distance_rest(&av->body, rest + 3 * i, &c);
        w.n = 1;
        w.joint[0] = av->body.cap[c].joint;
        w.w[0] = 1;
        cloth__bt_to_pose(&av->now, &w, rest + 3 * i, pts + 3 * i);
    }
    volatile double sink = 0;
    double g[3], t0 = cpu_s();
    for (int i = 0; i < N; i++)
        sink += cloth__sdf_sample(&av->sdf, rest + 3 * i, g);
    double t_sample = cpu_s() - t0;
    t0 = cpu_s();
    for (int i = 0; i < N; i++)
        sink += cloth__avatar_field(av, pts + 3 * i, g);
    double t_query = cpu_s() - t0;
    /* the same points in the order of their cells (z, y, x), as a cloth's neighbouring
     * vertices query neighbouring cells */
    qsort(rest, N, 3 * sizeof(double), by_cell);
    t0 = cpu_s();
    for (int i = 0; i < N; i++)
        sink += cloth__sdf_sample(&av->sdf, rest + 3 * i, g);
    double t_sorted = cpu_s() - t0;
    (void)sink;
    printf("section,what,ns_per_query (thread CPU time)\n");
    printf("sampling,trilinear sample with gradient,%.1f\n", 1e9 * t_sample / N);
    printf("sampling,trilinear sample with gradient (points in cell order),%.1f\n",
           1e9 * t_sorted / N);
    printf("sampling,avatar query (weights + back-transform + sample + normal),%.1f\n",
           1e9 * t_query / N);
    t0 = cpu_s();
    for (int i = 0; i < N; i++)
        sink += cloth__avatar_distance_at(av, &av->now, pts + 3 * i, g);
    printf("sampling,newton's distance (the parts' union: rigid transforms + box tests + "
           "samples + gradient),%.1f\n", 1e9 * (cpu_s() - t0) / N);
    free(pts);
    free(rest);
    cloth__avatar_destroy(av);
}

/* The rest place of the point at t on the line from -> to, with its weights. */
static void line_rest(const cloth_avatar *av, const cloth__bt_pose *p, const double from[3],
                      const double to[3], double t, double y[3], cloth__bt_weights *w)
{
    double x[3];
    for (int k = 0; k < 3; k++)
        x[k] = from[k] + t * (to[k] - from[k]);
    if (!cloth__bt_weights_of(&av->bt, p, x, w)) {
        y[0] = y[1] = y[2] = NAN;
        return;
    }
    cloth__bt_to_rest(p, w, x, y);
}

static int same_kind(const cloth__bt_weights *a, const cloth__bt_weights *b)
{
    return a->n == b->n && (a->n == 0 || a->joint[0] == b->joint[0]) &&
           (a->n < 2 || a->joint[1] == b->joint[1]);
}

static void backtransform_section(void)
{
    cloth_avatar *av = make_avatar(32, "");
    cloth__bt_pose rest_pose = av->now, pp;
    double worst = 0;
    int tested = 0, skipped = 0;
    rng = 3;
    for (int trial = 0; trial < 1000; trial++) {
        cloth__pose pose;
        cloth__pose_rest(&av->body.skel, &pose);
        for (int j = 0; j < av->body.skel.n; j++) {
            double ax[3] = {uniform(), uniform(), uniform()};
            double n = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
            for (int k = 0; k < 3; k++)
                ax[k] /= n;
            cloth__rot_axis_angle(ax, 0.6 * uniform(), pose.rot[j]);
        }
        cloth__bt_set_pose(&av->bt, &av->body, &pose, &pp);
        for (int i = 0; i < 20; i++) {
            double y[3], x[3], back[3];
            near_rest_surface(&av->body, y);
            cloth__bt_weights w, wx;
            if (cloth__bt_weights_of(&av->bt, &rest_pose, y, &w) != 1)
                continue; /* blended at rest: not a rigid-zone point */
            cloth__bt_to_pose(&pp, &w, y, x);
            if (cloth__bt_weights_of(&av->bt, &pp, x, &wx) != 1 || wx.joint[0] != w.joint[0]) {
                skipped++;
                continue;
            }
            cloth__bt_to_rest(&pp, &wx, x, back);
            for (int k = 0; k < 3; k++)
                worst = fmax(worst, fabs(back[k] - y[k]));
            tested++;
        }
    }
    /* continuity: the elbow bent 70 degrees, the shoulder raised 30, lines across the
     * elbow's zone 3 cm off the bones on four sides; wherever the weights change kind
     * (bisection to 1e-10 m), the rest place's jump for a 1e-7 m move across */
    cloth__pose pose;
    cloth__pose_rest(&av->body.skel, &pose);
    int sh = cloth__skeleton_find(&av->body.skel, "l_shoulder");
    int el = cloth__skeleton_find(&av->body.skel, "l_elbow");
    cloth__rot_basic(2, 30 * M_PI / 180, pose.rot[sh]);
    cloth__rot_basic(2, 70 * M_PI / 180, pose.rot[el]);
    cloth__bt_set_pose(&av->bt, &av->body, &pose, &pp);
    static const char *const sides[4] = {"+z (beside the bend)", "-z (beside the bend)",
                                         "+y (inside the bend)", "-y (outside the bend)"};
    double jump[8] = {0}, djump[8] = {0}, dwrong[8] = {0}, at[8] = {0}, dist[2] = {0.03, 0.06};
    int crossings[8] = {0};
    for (int side = 0; side < 8; side++) {
        double off[3] = {0, 0, 0};
        off[side % 4 < 2 ? 2 : 1] = side % 2 ? -dist[side / 4] : dist[side / 4];
        double from[3], to[3];
        for (int k = 0; k < 3; k++) {
            from[k] = pp.a[el][k] - 0.08 * pp.v[el][k] + off[k];
            to[k] = pp.a[el][k] + 0.08 * pp.u[el][k] + off[k];
        }
        double len = sqrt((to[0] - from[0]) * (to[0] - from[0]) +
                          (to[1] - from[1]) * (to[1] - from[1]) +
                          (to[2] - from[2]) * (to[2] - from[2]));
        double dt = 1e-5 / len, half = 0.5e-7 / len;
        cloth__bt_weights w0, w1;
        double y[3];
        line_rest(av, &pp, from, to, 0, y, &w0);
        for (double t = dt; t <= 1; t += dt) {
            line_rest(av, &pp, from, to, t, y, &w1);
            if (!same_kind(&w0, &w1)) {
                double lo = t - dt, hi = t;
                while ((hi - lo) * len > 1e-10) {
                    cloth__bt_weights wm;
                    double mid = 0.5 * (lo + hi);
                    line_rest(av, &pp, from, to, mid, y, &wm);
                    if (same_kind(&wm, &w0))
                        lo = mid;
                    else
                        hi = mid;
                }
                double ya[3], yb[3];
                cloth__bt_weights wa, wb;
                line_rest(av, &pp, from, to, 0.5 * (lo + hi) - half, ya, &wa);
                line_rest(av, &pp, from, to, 0.5 * (lo + hi) + half, yb, &wb);
                jump[side] = fmax(jump[side], sqrt((ya[0] - yb[0]) * (ya[0] - yb[0]) +
                                                   (ya[1] - yb[1]) * (ya[1] - yb[1]) +
                                                   (ya[2] - yb[2]) * (ya[2] - yb[2])));
                /* what the collision reads there: the rest body's exact distance at the
                 * two rest places, and the posed body's own distance at x */
                double xm[3];
                for (int k = 0; k < 3; k++)
                    xm[k] = from[k] + 0.5 * (lo + hi) * (to[k] - from[k]);
                double da = cloth__body_distance_rest(&av->body, ya, NULL);
                double db = cloth__body_distance_rest(&av->body, yb, NULL);
                djump[side] = fmax(djump[side], fabs(da - db));
                dwrong[side] = fmax(dwrong[side],
                                    fabs(0.5 * (da + db) -
                                         cloth__body_distance_posed(&av->body, pp.xf, xm)));
                at[side] = cloth__body_distance_posed(&av->body, pp.xf, xm);
                crossings[side]++;
            }
            w0 = w1;
        }
    }
    printf("section,what,value\n");
    printf("backtransform,rigid-zone points tested,%d\n", tested);
    printf("backtransform,points a pose took out of their rigid zone,%d\n", skipped);
    printf("backtransform,max round-trip error (m),%.3g\n", worst);
    for (int side = 0; side < 8; side++)
    {
        printf("backtransform,elbow line %.0f cm %s: %d weight changes; max rest-place jump "
               "for a 1e-7 m move (m),%.3g\n", 100 * dist[side / 4], sides[side % 4],
               crossings[side], jump[side]);
        printf("backtransform,elbow line %.0f cm %s: the same; jump of the rest distance "
               "d(y) there (m),%.3g\n", 100 * dist[side / 4], sides[side % 4], djump[side]);
        printf("backtransform,elbow line %.0f cm %s: the same; |d(y) - posed distance| "
               "there (m); the posed distance at the last,%.3g; %.3g\n", 100 * dist[side / 4],
               sides[side % 4], dwrong[side], at[side]);
    }
    cloth__avatar_destroy(av);
}

static void ik_section(void)
{
    printf("section,target,sweeps,distance_m,reached\n");
    cloth_avatar *av = make_avatar(32, "");
    int wrist = cloth__skeleton_find(&av->body.skel, "l_wrist");
    double targets[4][3] = {{0.45, 1.75, 0.15}, {0.3, 1.2, 0.3}, {0.2, 1.6, 0.4}, {2, 1.45, 0}};
    for (int t = 0; t < 4; t++) {
        cloth__pose pose;
        cloth__pose_rest(&av->body.skel, &pose);
        double dist;
        int sweeps = cloth__ik_ccd(&av->body.skel, &pose, wrist, 2, targets[t],
                                   CLOTH_IK_MAX_SWEEPS, CLOTH_IK_TOL, &dist);
        printf("ik,%g %g %g,%d,%.3g,%d\n", targets[t][0], targets[t][1], targets[t][2], sweeps,
               dist, dist <= CLOTH_IK_TOL);
    }
    cloth__avatar_destroy(av);
}

static void scene_section(void)
{
    printf("section,scene,kernel,collision,frames,max_body_depth_m,half_offset_m,"
           "collide_ms_per_frame,kernel_ms_per_frame\n");
    const char *scenes[] = {"experiments/avatar_cape.ini", "experiments/avatar_skirt.ini"};
    const char *kernels[][3] = {{"explicit", "run.substeps=40", ""},
                                {"verlet", "run.substeps=5", ""},
                                {"pbd", "run.substeps=5", ""},
                                {"verlet", "run.substeps=5", "avatar.collision=capsules"},
                                {"verlet", "run.substeps=5", "avatar.collision=ellipsoids"}};
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 5; k++) {
            cloth_scene sc;
            cloth_error err;
            char set[64];
            if (cloth_scene_load(scenes[s], &sc, &err) != CLOTH_OK) {
                fprintf(stderr, "avatar_bench: %s\n", err.msg);
                exit(1);
            }
            snprintf(set, sizeof set, "run.kernel=%s", kernels[k][0]);
            cloth_scene_set(&sc, set, 1, &err);
            cloth_scene_set(&sc, kernels[k][1], 2, &err);
            if (kernels[k][2][0])
                cloth_scene_set(&sc, kernels[k][2], 3, &err);
            cloth_sim *sim;
            if (cloth_sim_create(&sc, &sim, &err) != CLOTH_OK) {
                fprintf(stderr, "avatar_bench: %s\n", err.msg);
                exit(1);
            }
            double depth = 0, body = 0, wall = 0;
            cloth_frame f;
            for (int i = 0; i < sc.run.frames; i++) {
                if (cloth_sim_frame(sim, &f, &err) != CLOTH_OK) {
                    fprintf(stderr, "avatar_bench: %s\n", err.msg);
                    break;
                }
                depth = fmax(depth, f.body_depth);
                body += f.body_ms;
                wall += f.wall_ms;
            }
            printf("scenes,%s,%s,%s,%d,%.3g,%.3g,%.3g,%.3g\n", scenes[s] + 12, kernels[k][0],
                   kernels[k][2][0] ? kernels[k][2] + 17 : "sdf", sc.run.frames, depth,
                   0.5 * sc.avatar.offset, body / sc.run.frames, wall / sc.run.frames);
            cloth_sim_destroy(sim);
        }
}

/* With an argument, only the sections it names ("field,ik"). */
int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
#define RUN(name)                                                                          \
    if (!only || strstr(only, #name))                                                      \
        name##_section();
    RUN(field)
    RUN(parts)
    RUN(sampling)
    RUN(backtransform)
    RUN(ik)
    RUN(scene)
#undef RUN
    return 0;
}
