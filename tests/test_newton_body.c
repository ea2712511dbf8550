/* newton against the avatar's body (src/kernels/newton/newton_body.c): the body's
 * continuation within a step never puts a vertex at a gap <= 0, a body that moves into
 * the cloth pushes it without penetration, and a vertex resting on the body balances
 * gravity with the barrier, m g = -kappa psi'(g). */
#include "body/avatar.h"
#include "kernels/newton/newton.h"
#include "kernels/newton/newton_work.h"
#include "sim/sim.h"
#include "suites.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A 3 x 3 patch (2 cm cells) lying 5 mm above the skin on the left hand (the hand's
 * capsule: axis y = 1.45 m, radius 3.5 cm, avatar.offset 1 cm), no gravity, the body
 * in the T pose. */
static const char *const patch_text =
    "[mesh]\nnx = 3\nny = 3\nspacing = 0.02\nplane = xz\norigin = 0.79 1.50 -0.02\n"
    "pins = none\n[material]\nvertex_mass = 0.002\n[world]\ngravity = 0 0 0\n"
    "[avatar]\noffset = 0.01\nik_max_step = 0.02\n"
    "[run]\nkernel = newton\ndt = 0.016666666666666666\nsubsteps = 1\nframes = 10\n"
    "[newton]\ncond = off\n";

static const char *const collisions[] = {"capsules", "sdf"};

static cloth_sim *patch(const char *collision)
{
    cloth_scene s;
    cloth_error err;
    char set[64];
    ck_assert_msg(cloth_scene_parse(patch_text, "patch.ini", &s, &err) == CLOTH_OK, "%s",
                  err.msg);
    snprintf(set, sizeof set, "avatar.collision=%s", collision);
    ck_assert_msg(cloth_scene_set(&s, set, 1, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    return sim;
}

/* The smallest body gap of the sim's vertices at x with the body at the avatar's pose
 * (the distance the kernels use, by avatar.collision) and the exact distance to the
 * posed capsules, both minus the offset. */
static double smallest_gap(const cloth_sim *sim, const double *x, const cloth__bt_pose *p,
                           double *exact)
{
    const cloth_avatar *av = sim->avatar;
    double g = HUGE_VAL;
    *exact = HUGE_VAL;
    for (int i = 0; i < sim->mesh->n; i++) {
        g = fmin(g, cloth__avatar_distance_at(av, p, x + 3 * i, NULL) - av->def.offset);
        *exact = fmin(*exact, cloth__body_distance_posed(&av->body, p->xf, x + 3 * i) -
                                  av->def.offset);
    }
    return g;
}

/* Raises the left wrist by up to `up` (the IK's chain of 2: elbow and shoulder turn, so
 * the hand's far end rises more than the wrist). */
static void raise_hand(cloth_sim *sim, double up)
{
    cloth_avatar *av = sim->avatar;
    double target[3] = {0.74, 1.45 + up, 0};
    cloth_ik_result r;
    cloth_error err;
    ck_assert_msg(cloth_avatar_ik(av, "l_wrist", target, 2, &r, &err) == CLOTH_OK, "%s",
                  err.msg);
}

/* (exact > 0 is asserted for capsules, where the kernels' distance is the exact one; the
 * field differs from it by up to half a cell, README Avatar.) */

/* The hand rises into the patch by more than the 5 mm gap within one step while the
 * patch is held where it is: every stage of the continuation keeps every gap positive,
 * and the smallest gap m at least min(g^/10, m_before/2) (the rule: a gap above g^/10
 * keeps max(eta g, g^/10), one below keeps half), by the kernels' distance and by the
 * exact one, and the body stops short of its pose (it cannot get there without passing
 * through the vertices). */
START_TEST(continuation_stages_keep_gaps_positive)
{
    cloth_sim *sim = patch(collisions[_i]);
    cloth__newton *w = sim->work;
    cloth_avatar *av = sim->avatar;
    double exact, before = smallest_gap(sim, sim->x, &av->now, &exact);
    ck_assert(before > 0.004 && before < 0.006);
    raise_hand(sim, 0.02);
    cloth__avatar_move(av, 0); /* the pose for the step's end: the hand up */
    double at_end = smallest_gap(sim, sim->x, &av->now, &exact);
    ck_assert_msg(at_end < 0, "the raised hand should hold the patch inside (%g)", at_end);
    cloth__newton_prepare(w, sim, sim->scene.run.dt);
    memcpy(w->x, sim->x, sizeof(double) * 3 * (size_t)w->n);
    ck_assert(w->body_s == 0);
    double last_s = 0, last_g = before, least = 0.1 * ((const cloth__newton_def *)cloth__sim_settings(sim))->dhat;
    cloth__newton_ctx ctx;
    cloth__newton_ctx_build(&ctx, sim, w->h);
    for (int k = 0; k < 100; k++) {
        cloth__newton_body_advance(w, &ctx, w->x);
        double g = smallest_gap(sim, w->x, &w->body_pose, &exact);
        /* each vertex keeps max(eta g, g^/10) of a gap above g^/10 and half of one below */
        ck_assert_msg(g > 0 && g >= fmin(least, 0.5 * last_g) * (1 - 1e-9) &&
                      (_i == 1 || exact > 0), "stage %d at s = %g: gap %g (exact %g), before %g",
                      k, w->body_s, g, exact, last_g);
        ck_assert(w->body_s >= last_s);
        last_s = w->body_s;
        last_g = g;
    }
    ck_assert_msg(last_s > 0 && last_s < 1, "s = %g", last_s);
    cloth_sim_destroy(sim);
}
END_TEST

/* The same hand rising by up to 2 cm a frame for 8 frames with the kernel running:
 * every vertex keeps a positive gap with the body where the avatar is, after every
 * frame (kernels' distance and exact), and the patch is pushed up with the hand. */
START_TEST(moving_body_never_leaves_a_vertex_inside)
{
    cloth_sim *sim = patch(collisions[_i]);
    cloth_avatar *av = sim->avatar;
    cloth_frame f;
    cloth_error err;
    double y0 = sim->x[3 * 4 + 1], exact;
    for (int frame = 0; frame < 8; frame++) {
        raise_hand(sim, 0.02 * (frame + 1));
        ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
        double g = smallest_gap(sim, sim->x, &av->now, &exact);
        ck_assert_msg(g > 0 && (_i == 1 || exact > 0), "frame %d: gap %g (exact %g)", frame + 1, g, exact);
    }
    ck_assert_msg(sim->x[3 * 4 + 1] > y0 + 0.01, "the patch rose %g m",
                  sim->x[3 * 4 + 1] - y0);
    cloth_sim_destroy(sim);
}
END_TEST

/* One vertex dropped 2 cm onto the top of the head (capsules: a sphere of 9 cm about
 * (0, 1.66, 0.01); the normal there is +y) with the cubic barrier at a fixed kappa comes
 * to rest where grad E = 0 at rest (x = x_n, v = 0):
 *   m |g| = -kappa psi'(g*) = kappa (2/g^) (g^ - g*)^2,  g* = g^ - sqrt(m |g| g^ / (2 kappa)),
 * with kappa = 4, m = 2 g, g^ = 1 cm: g* = 5.05 mm. */
START_TEST(resting_vertex_balances_gravity_with_the_barrier)
{
    cloth_scene s;
    cloth_error err;
    static const char *const text =
        "[mesh]\nnx = 1\nny = 1\nspacing = 0.01\nplane = xz\norigin = 0 1.78 0.01\n"
        "pins = none\n[material]\nvertex_mass = 0.002\n[world]\ngravity = 0 -9.81 0\n"
        "[avatar]\noffset = 0.01\ncollision = capsules\n"
        "[run]\nkernel = newton\ndt = 0.016666666666666666\nsubsteps = 1\n"
        "[newton]\ncond = off\nbarrier = cubic\nkappa = fixed\nkappa_value = 4\n"
        "dhat = 0.01\nmax_iters = 100\n";
    ck_assert_msg(cloth_scene_parse(text, "drop.ini", &s, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    cloth_frame f;
    for (int frame = 0; frame < 600; frame++)
        ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
    double dhat = 0.01, kappa = 4, m = 0.002, g = 9.81;
    double expect = dhat - sqrt(m * g * dhat / (2 * kappa));
    double gap = sim->x[1] - (1.66 + 0.09 + 0.01);
    ck_assert_msg(fabs(sim->x[0]) < 1e-9 && fabs(sim->x[2] - 0.01) < 1e-9,
                  "slid off the apex: %g %g", sim->x[0], sim->x[2]);
    ck_assert_msg(fabs(sim->v[1]) < 1e-6, "still moving: %g m/s", sim->v[1]);
    ck_assert_msg(fabs(gap - expect) < 1e-6, "gap %.9g, force balance gives %.9g", gap, expect);
    cloth_sim_destroy(sim);
}
END_TEST

/* collision = ellipsoids has no distances at the poses between two steps, which the
 * continuation needs: newton refuses it, naming the key's line. */
START_TEST(newton_refuses_ellipsoids)
{
    cloth_scene s;
    cloth_error err;
    ck_assert(cloth_scene_parse(patch_text, "patch.ini", &s, &err) == CLOTH_OK);
    ck_assert(cloth_scene_set(&s, "avatar.collision=ellipsoids", 1, &err) == CLOTH_OK);
    cloth_sim *sim = NULL;
    ck_assert_int_eq(cloth_sim_create(&s, &sim, &err), CLOTH_EINVAL);
    ck_assert_ptr_null(sim);
    ck_assert_msg(strstr(err.msg, "--set:1: avatar.collision") != NULL, "%s", err.msg);
}
END_TEST

/* With collision = sdf the body's distance is capped at the parts' reach
 * (src/body/partfields.h: offset + 10 cm at scale 1); a barrier active beyond it would
 * see the cap as a wall, so newton refuses a dhat above 10 cm, naming the key, and takes
 * one of 10 cm (the cap exactly at the activation distance). */
START_TEST(newton_refuses_dhat_beyond_the_parts_reach)
{
    const char *sets[2] = {"newton.dhat=0.1001", "newton.dhat=0.1"};
    for (int k = 0; k < 2; k++) {
        cloth_scene s;
        cloth_error err;
        ck_assert(cloth_scene_parse(patch_text, "patch.ini", &s, &err) == CLOTH_OK);
        ck_assert(cloth_scene_set(&s, "avatar.collision=sdf", 1, &err) == CLOTH_OK);
        ck_assert(cloth_scene_set(&s, sets[k], 2, &err) == CLOTH_OK);
        cloth_sim *sim = NULL;
        cloth_status st = cloth_sim_create(&s, &sim, &err);
        if (k == 0) {
            ck_assert_int_eq(st, CLOTH_EINVAL);
            ck_assert_ptr_null(sim);
            ck_assert_msg(strstr(err.msg, "--set:2: newton.dhat") != NULL, "%s", err.msg);
        } else {
            ck_assert_msg(st == CLOTH_OK, "%s", err.msg);
            ck_assert(sim->avatar->parts.far - sim->scene.avatar.offset >= 0.1);
            cloth_sim_destroy(sim);
        }
    }
}
END_TEST

Suite *suite_newton_body(void)
{
    Suite *s = suite_create("newton_body");
    TCase *tc = tcase_create("continuation");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, continuation_stages_keep_gaps_positive, 0, 2);
    tcase_add_loop_test(tc, moving_body_never_leaves_a_vertex_inside, 0, 2);
    tcase_add_test(tc, resting_vertex_balances_gravity_with_the_barrier);
    tcase_add_test(tc, newton_refuses_ellipsoids);
    tcase_add_test(tc, newton_refuses_dhat_beyond_the_parts_reach);
    suite_add_tcase(s, tc);
    return s;
}
