/* The body as the union of its rigidly moved parts' rest fields (src/body/partfields.h,
 * newton's distance with avatar.collision = sdf) against geometry: the exact distance to
 * the posed capsules (cloth__body_distance_posed, an independent computation) within the
 * trilinear interpolant's bound (sqrt 3 / 2) h, at rest and with the left knee and
 * elbow bent 70 degrees; continuity along lines through the bends where the skinning
 * back-transform has its seams; no phantom where the back-transform carries a point
 * beside another part's rest flesh; the gradient against central differences. */
#include "body/backtransform.h"
#include "body/partfields.h"
#include "body/sdf.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <string.h>

/* The grid spacing and the margin of the parts' boxes (the avatar's: offset 1 cm plus
 * the cylinders' 10 cm reach). */
#define H 0.02
#define MARGIN 0.11

/* The trilinear interpolant of a 1-Lipschitz function errs by at most the weighted mean
 * of the distances to the cell's corners, <= (sqrt 3 / 2) h (partfields.h); 1e-12 m for
 * rounding. */
static double bound(void)
{
    return 0.5 * sqrt(3.0) * H + 1e-12;
}

typedef struct parts_fixture {
    cloth__body body;
    cloth__backtransform bt;
    cloth__partfields pf;
    cloth__bt_pose rest, bent;  /* the T pose; left knee and elbow bent 70 degrees */
} parts_fixture;

static void fixture(parts_fixture *fx)
{
    cloth_error err;
    ck_assert(cloth__mannequin(1, &fx->body, &err) == CLOTH_OK);
    cloth__bt_init(&fx->bt, &fx->body, MARGIN);
    ck_assert_msg(cloth__partfields_build(&fx->pf, &fx->body, H, MARGIN, &err) == CLOTH_OK,
                  "%s", err.msg);
    ck_assert_int_eq(fx->pf.n, fx->body.skel.n); /* every joint of the mannequin has flesh */
    cloth__pose pose;
    cloth__pose_rest(&fx->body.skel, &pose);
    cloth__bt_set_pose(&fx->bt, &fx->body, &pose, &fx->rest);
    /* the shin swings back (-z) about the knee's x axis, the forearm forward (+z) about
     * the elbow's y axis */
    int knee = cloth__skeleton_find(&fx->body.skel, "l_knee");
    int elbow = cloth__skeleton_find(&fx->body.skel, "l_elbow");
    ck_assert(knee >= 0 && elbow >= 0);
    cloth__rot_basic(0, 70 * M_PI / 180, pose.rot[knee]);
    cloth__rot_basic(1, -70 * M_PI / 180, pose.rot[elbow]);
    cloth__bt_set_pose(&fx->bt, &fx->body, &pose, &fx->bent);
}

static void fixture_free(parts_fixture *fx)
{
    cloth__partfields_free(&fx->pf);
    cloth__body_free(&fx->body);
}

/* The exact distance to the posed capsules, capped where the union is. */
static double exact(const parts_fixture *fx, const cloth__bt_pose *p, const double x[3])
{
    return fmin(fx->pf.far, cloth__body_distance_posed(&fx->body, p->xf, x));
}

/* A random point within 5 cm of the posed surface: around a random capsule's segment,
 * kept when its exact distance is in [-2 cm, 5 cm]; or (near) around one of `centres`,
 * within 15 cm. */
static void random_near(const parts_fixture *fx, const cloth__bt_pose *p,
                        const double centres[][3], int n_centres, unsigned long *seed,
                        double x[3])
{
    for (;;) {
        const double *c;
        double mid[3];
        if (n_centres > 0 && tu_random(seed) > 0) {
            c = centres[(int)((tu_random(seed) + 1) * 0.5 * n_centres) % n_centres];
        } else {
            int k = (int)((tu_random(seed) + 1) * 0.5 * fx->body.n_caps) % fx->body.n_caps;
            double s = 0.5 * (tu_random(seed) + 1);
            for (int i = 0; i < 3; i++)
                mid[i] = p->cap_a[k][i] + s * (p->cap_b[k][i] - p->cap_a[k][i]);
            c = mid;
        }
        for (int i = 0; i < 3; i++)
            x[i] = c[i] + 0.18 * tu_random(seed);
        double d = cloth__body_distance_posed(&fx->body, p->xf, x);
        if (d >= -0.02 && d <= 0.05)
            return;
    }
}

/* At rest and bent, 20000 points within 5 cm of the surface (half of the bent pose's
 * around the bent knee and elbow, in and beside the bends): the union of the parts'
 * fields is the exact distance to the posed capsules within (sqrt 3 / 2) h. */
START_TEST(union_is_the_posed_capsules_distance)
{
    parts_fixture fx;
    fixture(&fx);
    unsigned long seed = 11;
    const cloth__bt_pose *poses[2] = {&fx.rest, &fx.bent};
    int knee = cloth__skeleton_find(&fx.body.skel, "l_knee");
    int elbow = cloth__skeleton_find(&fx.body.skel, "l_elbow");
    const double bends[2][3] = {{fx.bent.a[knee][0], fx.bent.a[knee][1], fx.bent.a[knee][2]},
                                {fx.bent.a[elbow][0], fx.bent.a[elbow][1], fx.bent.a[elbow][2]}};
    for (int q = 0; q < 2; q++) {
        double worst = 0;
        for (int i = 0; i < 10000; i++) {
            double x[3];
            random_near(&fx, poses[q], bends, q == 1 ? 2 : 0, &seed, x);
            double d = cloth__partfields_distance(&fx.pf, poses[q]->xf, x, NULL);
            worst = fmax(worst, fabs(d - exact(&fx, poses[q], x)));
        }
        ck_assert_msg(worst <= bound(), "%s: error %g m > (sqrt 3/2) h = %g m",
                      q ? "bent" : "rest", worst, bound());
    }
    fixture_free(&fx);
}
END_TEST

/* The skinning back-transform's field at x (the method the other kernels push out
 * with): x's rest place by the weights, the whole body's rest field there. */
static double back_transform_field(const parts_fixture *fx, const cloth__sdf *whole,
                                   const cloth__bt_pose *p, const double x[3],
                                   cloth__bt_weights *w)
{
    if (cloth__bt_weights_of(&fx->bt, p, x, w) == 0)
        return HUGE_VAL;
    double y[3];
    cloth__bt_to_rest(p, w, x, y);
    return cloth__sdf_sample(whole, y, NULL);
}

static double rest_distance(const double y[3], const void *ctx)
{
    return cloth__body_distance_rest(ctx, y, NULL);
}

static void whole_field(const cloth__body *body, cloth__sdf *f)
{
    double lo[3] = {-1.1, -0.2, -0.4}, hi[3] = {1.1, 1.9, 0.4};
    cloth_error err;
    ck_assert(cloth__sdf_build(f, lo, hi, H, rest_distance, body, &err) == CLOTH_OK);
}

static int same_winner(const cloth__bt_weights *a, const cloth__bt_weights *b)
{
    return a->n == b->n && a->joint[0] == b->joint[0] &&
           (a->n == 1 || a->joint[1] == b->joint[1]);
}

/* Lines through the bent elbow and knee, 2 and 4 cm off the bones on the side of the
 * bend and across it: every 0.1 mm, and at every place where the back-transform's
 * weights change kind (its bone planes and its seams inside the bend, found by
 * bisection to 1e-11 of the line), a move of 1e-7 m changes the union's distance by at
 * most 2e-7 m (its Lipschitz bound sqrt 3, partfields.h); the back-transform's seams
 * are found (the test crosses them). */
START_TEST(continuous_across_the_bends)
{
    parts_fixture fx;
    fixture(&fx);
    cloth__sdf whole;
    whole_field(&fx.body, &whole);
    int knee = cloth__skeleton_find(&fx.body.skel, "l_knee");
    int elbow = cloth__skeleton_find(&fx.body.skel, "l_elbow");
    int joint[2] = {knee, elbow};
    int changes = 0;
    double worst = 0;
    for (int b = 0; b < 2; b++) {
        const cloth__bt_pose *p = &fx.bent;
        const double *a = p->a[joint[b]], *u = p->u[joint[b]], *v = p->v[joint[b]];
        /* the bend's inner side: along u - v (the child's bone and the parent's come
         * together there) */
        double side[3], sl = 0;
        for (int k = 0; k < 3; k++) {
            side[k] = u[k] - v[k];
            sl += side[k] * side[k];
        }
        for (int k = 0; k < 3; k++)
            side[k] /= sqrt(sl);
        for (int line = 0; line < 4; line++) {
            double off = line % 2 ? 0.04 : 0.02, from[3], to[3];
            for (int k = 0; k < 3; k++) {
                double c = a[k] + (0.055 + off) * side[k] * (line < 2 ? 1 : -1);
                /* from the parent's bone to the child's, across the bisector */
                from[k] = c - 0.25 * v[k];
                to[k] = c + 0.25 * u[k];
            }
            double len = sqrt((to[0] - from[0]) * (to[0] - from[0]) +
                              (to[1] - from[1]) * (to[1] - from[1]) +
                              (to[2] - from[2]) * (to[2] - from[2]));
            double dt = 1e-7 / len;
            int steps = (int)(len / 1e-4);
            cloth__bt_weights w_prev = {0, {-1, -1}, {0, 0}};
            double t_prev = 0, x[3];
            for (int i = 0; i <= steps; i++) {
                double t = (double)i / steps, ts[2] = {t, -1};
                cloth__bt_weights w;
                for (int k = 0; k < 3; k++)
                    x[k] = from[k] + t * (to[k] - from[k]);
                double f = back_transform_field(&fx, &whole, p, x, &w);
                if (i > 0 && f != HUGE_VAL && w_prev.n > 0 && !same_winner(&w, &w_prev)) {
                    /* bisect to the change */
                    double lo = t_prev, hi = t;
                    while (hi - lo > 1e-11) {
                        double mid = 0.5 * (lo + hi), xm[3];
                        cloth__bt_weights wm;
                        for (int k = 0; k < 3; k++)
                            xm[k] = from[k] + mid * (to[k] - from[k]);
                        back_transform_field(&fx, &whole, p, xm, &wm);
                        if (same_winner(&wm, &w_prev))
                            lo = mid;
                        else
                            hi = mid;
                    }
                    ts[1] = lo;
                    changes++;
                }
                for (int s = 0; s < 2 && ts[s] >= 0; s++) {
                    double x0[3], x1[3];
                    for (int k = 0; k < 3; k++) {
                        x0[k] = from[k] + ts[s] * (to[k] - from[k]);
                        x1[k] = from[k] + (ts[s] + dt) * (to[k] - from[k]);
                    }
                    double d0 = cloth__partfields_distance(&fx.pf, p->xf, x0, NULL);
                    double d1 = cloth__partfields_distance(&fx.pf, p->xf, x1, NULL);
                    worst = fmax(worst, fabs(d1 - d0));
                }
                w_prev = w;
                if (f == HUGE_VAL)
                    w_prev.n = 0;
                t_prev = t;
            }
        }
    }
    ck_assert_msg(changes >= 8, "only %d changes of the back-transform's weights crossed",
                  changes);
    ck_assert_msg(worst <= 2e-7, "a 1e-7 m move changed the distance by %g m", worst);
    cloth__sdf_free(&whole);
    fixture_free(&fx);
}
END_TEST

/* Points behind and beside the bent shin on a grid of 1 cm: where the back-transform's
 * field is a phantom (it says flesh is 2 cm nearer than the exact distance: the shin's
 * inverse transform carried the point beside other rest flesh, README Avatar), the union
 * is the exact (capped) distance within (sqrt 3 / 2) h.  Phantoms are found. */
START_TEST(no_phantom_at_the_bent_shin)
{
    parts_fixture fx;
    fixture(&fx);
    cloth__sdf whole;
    whole_field(&fx.body, &whole);
    const cloth__bt_pose *p = &fx.bent;
    int knee = cloth__skeleton_find(&fx.body.skel, "l_knee");
    int phantoms = 0;
    double worst = 0, deepest = 0;
    for (int i = -20; i <= 20; i++)
        for (int j = -40; j <= 5; j++)
            for (int k = -45; k <= 10; k++) {
                double x[3] = {p->a[knee][0] + 0.01 * i, p->a[knee][1] + 0.01 * j,
                               p->a[knee][2] + 0.01 * k};
                cloth__bt_weights w;
                double f = back_transform_field(&fx, &whole, p, x, &w);
                double e = exact(&fx, p, x);
                if (f == HUGE_VAL || !(f < e - 0.02) || w.n != 1 || w.joint[0] != knee)
                    continue;
                phantoms++;
                deepest = fmax(deepest, e - f);
                double d = cloth__partfields_distance(&fx.pf, p->xf, x, NULL);
                worst = fmax(worst, fabs(d - e));
            }
    ck_assert_msg(phantoms > 0, "no phantom of the back-transform found at the bent shin");
    ck_assert_msg(worst <= bound(), "%d phantoms (back-transform up to %g m too near): the "
                  "union errs by %g m", phantoms, deepest, worst);
    cloth__sdf_free(&whole);
    fixture_free(&fx);
}
END_TEST

/* The nearest part at x (by the parts' own fields, as the test sees them) and the gap to
 * the next nearest; the rest place of x in it in y. */
static int nearest_part(const parts_fixture *fx, const cloth__bt_pose *p, const double x[3],
                        double y[3], double *margin)
{
    double best = HUGE_VAL, second = HUGE_VAL;
    int which = -1;
    for (int k = 0; k < fx->pf.n; k++) {
        const cloth__xform *T = &p->xf[fx->pf.joint[k]];
        double e[3] = {x[0] - T->t[0], x[1] - T->t[1], x[2] - T->t[2]}, yk[3];
        cloth__mat_tvec(T->R, e, yk);
        double d = cloth__sdf_sample(&fx->pf.f[k], yk, NULL);
        if (d < best) {
            second = best;
            best = d;
            which = k;
            memcpy(y, yk, sizeof yk);
        } else if (d < second) {
            second = d;
        }
    }
    *margin = second - best;
    return which;
}

/* 1 when the rest points y +- step R^T e_i (i = 0, 1, 2) all lie in y's grid cell of f. */
static int cube_in_one_cell(const cloth__sdf *f, const double R[9], const double y[3],
                            double step)
{
    for (int i = 0; i < 3; i++)
        for (int sgn = -1; sgn <= 1; sgn += 2)
            for (int k = 0; k < 3; k++) {
                double yk = y[k] + sgn * step * R[3 * i + k]; /* (R^T e_i)_k = R_ik */
                if (floor((yk - f->lo[k]) * f->inv_h) != floor((y[k] - f->lo[k]) * f->inv_h))
                    return 0;
            }
    return 1;
}

/* The gradient R_j grad f_j of the nearest part against central differences of the
 * distance (step 1e-6 m) at 2000 points near the bent forearm and shin, where one part
 * is nearest by more than the differences can change (2 sqrt 3 step) and the
 * differences stay in one cell of its grid (the interpolant's gradient jumps across a
 * face); and |grad| <= sqrt 3.  Along a world axis the interpolant, composed with the
 * rotation, is a cubic: the differences err by O(step^2 / h^2). */
START_TEST(gradient_by_central_differences)
{
    const double step = 1e-6;
    parts_fixture fx;
    fixture(&fx);
    const cloth__bt_pose *p = &fx.bent;
    int parts[2] = {cloth__skeleton_find(&fx.body.skel, "l_elbow"),
                    cloth__skeleton_find(&fx.body.skel, "l_knee")};
    unsigned long seed = 5;
    double worst = 0, longest = 0;
    int tested = 0;
    while (tested < 2000) {
        int j = parts[tested % 2];
        double s = 0.3 + 0.2 * tu_random(&seed), x[3], y[3], margin;
        for (int k = 0; k < 3; k++)
            x[k] = p->a[j][k] + s * (p->b[j][k] - p->a[j][k]) + 0.12 * tu_random(&seed);
        double g[3], d = cloth__partfields_distance(&fx.pf, p->xf, x, g);
        int k_near = nearest_part(&fx, p, x, y, &margin);
        if (!(d < fx.pf.far - 0.01) || margin <= 2 * sqrt(3.0) * step ||
            !cube_in_one_cell(&fx.pf.f[k_near], p->xf[fx.pf.joint[k_near]].R, y, step))
            continue;
        double fd[3];
        for (int k = 0; k < 3; k++) {
            double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
            xp[k] += step;
            xm[k] -= step;
            fd[k] = (cloth__partfields_distance(&fx.pf, p->xf, xp, NULL) -
                     cloth__partfields_distance(&fx.pf, p->xf, xm, NULL)) / (2 * step);
        }
        worst = fmax(worst, tu_rel_error(g, fd, 3, 1));
        longest = fmax(longest, sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]));
        tested++;
    }
    ck_assert_msg(worst <= 1e-6, "gradient vs differences: rel. error %g", worst);
    ck_assert_msg(longest <= sqrt(3.0) + 1e-12, "|grad| %g > sqrt 3", longest);
    fixture_free(&fx);
}
END_TEST

/* 40 lines from inside the body out to 1 m in random directions: the distance follows
 * the exact capped one within (sqrt 3 / 2) h, is exactly the far value where the exact
 * distance exceeds it by more than that, and changes by at most sqrt 3 times a step of
 * 0.1 mm (so no jump where a part's box ends). */
START_TEST(far_value_is_continuous)
{
    parts_fixture fx;
    fixture(&fx);
    const cloth__bt_pose *p = &fx.bent;
    unsigned long seed = 3;
    double worst = 0, jump = 0;
    int far_points = 0;
    for (int line = 0; line < 40; line++) {
        int c = line % fx.body.n_caps;
        double dir[3], dl = 0, from[3];
        for (int k = 0; k < 3; k++) {
            dir[k] = tu_random(&seed);
            dl += dir[k] * dir[k];
        }
        for (int k = 0; k < 3; k++)
            from[k] = 0.5 * (p->cap_a[c][k] + p->cap_b[c][k]);
        double d_prev = 0;
        for (int i = 0; i <= 10000; i++) {
            double x[3];
            for (int k = 0; k < 3; k++)
                x[k] = from[k] + 1e-4 * i * dir[k] / sqrt(dl);
            double d = cloth__partfields_distance(&fx.pf, p->xf, x, NULL);
            double e = cloth__body_distance_posed(&fx.body, p->xf, x);
            worst = fmax(worst, fabs(d - fmin(e, fx.pf.far)));
            if (e > fx.pf.far + bound()) {
                ck_assert_msg(d == fx.pf.far, "exact %g m: %g m, not the far value %g m", e,
                              d, fx.pf.far);
                far_points++;
            }
            if (i > 0)
                jump = fmax(jump, fabs(d - d_prev));
            d_prev = d;
        }
    }
    ck_assert_int_gt(far_points, 0);
    ck_assert_msg(worst <= bound(), "error %g m > %g m", worst, bound());
    ck_assert_msg(jump <= sqrt(3.0) * 1e-4 + 1e-12, "a 0.1 mm step changed d by %g m", jump);
    fixture_free(&fx);
}
END_TEST

Suite *suite_body_parts(void)
{
    Suite *s = suite_create("body_parts");
    TCase *tc = tcase_create("geometry");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, union_is_the_posed_capsules_distance);
    tcase_add_test(tc, continuous_across_the_bends);
    tcase_add_test(tc, no_phantom_at_the_bent_shin);
    tcase_add_test(tc, gradient_by_central_differences);
    tcase_add_test(tc, far_value_is_continuous);
    suite_add_tcase(s, tc);
    return s;
}
