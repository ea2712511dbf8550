/* Robustness of cloth-cloth contact (issue 14): the coarse three-sheet drape of
 * experiments/self_contact_drape3.ini (three 8 x 8 sheets 3 cm apart dropped onto a
 * sphere) with the newton kernel, ten times, the sheets' heights jittered from run.seed
 * = 1..10 (mesh.jitter = 5 mm, so each run meets the sheets at other moments).  After
 * every frame no edge of the cloth may cross one of its triangles
 * (cloth_frame.intersections) and no vertex may lie inside the sphere
 * (cloth_frame.penetrations); a step that fails fails too.  Each seed is one check, and
 * its message names the seed and the first frame that broke the rule.  Condition numbers
 * are off: they cost most of the run and decide nothing here.
 *
 * With vertex-vertex contact only (newton.contact = vertex) every seed fails at frame 10,
 * the sheets passing through each other as they fold over the sphere; the scene's default,
 * newton.contact = full (point-triangle and edge-edge barriers, CCD in the line search),
 * keeps them apart in every frame of every seed. */
#include "cloth.h"
#include "suites.h"
#include "testutil.h"

#include <stdio.h>

#define SCENE "../experiments/self_contact_drape3.ini"
#define PILE "../experiments/self_contact_pile.ini"
#define FIRST_SEED 1
#define SEEDS tu_seeds(10) /* make sanitize runs 3 (testutil.h) */

/* Runs path with the overrides sets for frames frames (all of them when frames < 0),
 * stopping at the first frame with a crossing or a vertex inside the sphere; the check
 * fails naming what, where and which run (what). */
static void run_clean(const char *path, const char *const *sets, int n_sets, long frames,
                      const char *what)
{
    cloth_scene scene;
    cloth_error err;
    ck_assert_msg(cloth_scene_load(path, &scene, &err) == CLOTH_OK, "%s", err.msg);
    for (int i = 0; i < n_sets; i++)
        ck_assert_msg(cloth_scene_set(&scene, sets[i], i + 1, &err) == CLOTH_OK, "%s", err.msg);
    if (frames < 0)
        frames = scene.run.frames;
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&scene, &sim, &err) == CLOTH_OK, "%s: %s", what, err.msg);
    cloth_frame f;
    cloth_sim_measure(sim, &f);
    long frame = 0, intersections = f.intersections;
    int penetrations = f.penetrations;
    cloth_status st = CLOTH_OK;
    while (intersections == 0 && penetrations == 0 && frame < frames) {
        st = cloth_sim_frame(sim, &f, &err);
        frame++;
        if (st != CLOTH_OK)
            break;
        intersections = f.intersections;
        penetrations = f.penetrations;
    }
    cloth_sim_destroy(sim);
    ck_assert_msg(st == CLOTH_OK, "%s: frame %ld: the step failed: %s", what, frame, err.msg);
    ck_assert_msg(intersections == 0 && penetrations == 0,
                  "%s: frame %ld: %ld crossing edge-triangle pairs, %d vertices inside "
                  "the sphere", what, frame, intersections, penetrations);
}

START_TEST(no_crossing_and_no_penetration_in_any_frame)
{
    unsigned long seed = (unsigned long)_i;
    char seed_set[64], what[64];
    snprintf(seed_set, sizeof seed_set, "run.seed=%lu", seed);
    snprintf(what, sizeof what, "seed %lu", seed);
    const char *sets[] = {"run.kernel=newton", "mesh.jitter=0.005", seed_set,
                          "newton.cond=off"};
    run_clean(SCENE, sets, (int)(sizeof sets / sizeof sets[0]), -1, what);
}
END_TEST

/* The pile (experiments/self_contact_pile.ini): a sphere rolls into a sheet lying on the
 * floor, with the log barrier, whose stiffness grows without bound as a gap closes.  A
 * sphere that closed the gaps of the vertices it pushes as fast as the feasible step
 * allows (to eta of each gap, every Newton iteration) drove them to gaps where the dynamic
 * kappa (m / g^2) reached 1e17; Newton's steps shrank to 1e-10 m, and from frame 16 on the
 * sphere went through the cloth it held back.  Its continuation now closes no gap below
 * g^/10 (newton_contacts.c). */
START_TEST(log_barrier_pile_keeps_the_sphere_out)
{
    const char *sets[] = {"newton.barrier=log", "newton.cond=off"};
    run_clean(PILE, sets, 2, 40, "pile, log barrier");
}
END_TEST

Suite *suite_self_contact(void)
{
    Suite *s = suite_create("self_contact");
    TCase *tc = tcase_create("drape3_jittered");
    /* each seed runs 60 frames of 576 unknowns: 2.5-4 s (one thread, 2-core machine) */
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, no_crossing_and_no_penetration_in_any_frame, FIRST_SEED,
                        FIRST_SEED + SEEDS);
    suite_add_tcase(s, tc);
    TCase *pile = tcase_create("pile_log_barrier");
    /* 40 frames of 351 unknowns: about 1 s */
    tcase_set_timeout(pile, 60);
    tcase_add_test(pile, log_barrier_pile_keeps_the_sphere_out);
    suite_add_tcase(s, pile);
    return s;
}
