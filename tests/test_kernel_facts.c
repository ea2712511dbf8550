/* A kernel's facts (sim/kernel.h: .contact, .self_modes, .obstacles, .avatar_collisions,
 * .needs_triangles) checked at creation, for every kernel of the ops table (issue 43):
 *
 *   - the real table: every run.self_collision mode, obstacle and mesh the kernel
 *     declares is accepted, and everything else refused with CLOTH_EINVAL;
 *   - a copy of its table with each fact narrowed (a registry the test builds, the sim's
 *     own seam): the scene that asks for more is refused, and the message names the
 *     kernel, the key and the values it supports;
 *   - the contact stage (sim/contact.h) is built for every kernel but one whose contact
 *     is its own, and keeps every free vertex of a sheet dropped on a sphere out of it.
 */
#include "cloth.h"
#include "suites.h"
#include "testutil.h"
#include "kernels/registry.h"
#include "sim/contact.h"
#include "sim/kernel.h"
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static cloth__kernel copies[CLOTH_MAX_KERNELS];
static cloth__registry copy_registry;

static const cloth__kernel *copy_at(int i)
{
    return i >= 0 && i < cloth_kernel_count() ? &copies[i] : NULL;
}

/* The real registry with each kernel a copy the test may narrow: copies[] afresh. */
static void narrowed(void)
{
    const cloth__registry *real = cloth__kernels();
    for (int i = 0; real->at(i); i++)
        copies[i] = *real->at(i);
    copy_registry.at = copy_at;
    copy_registry.keys = real->keys;
}

/* A 6 x 5 sheet of 10 cm cells under kernel k, with extra text appended. */
static void scene_for(int k, const char *extra, cloth_scene *s)
{
    char text[1024];
    cloth_error err;
    snprintf(text, sizeof text,
             "[mesh]\nnx = 6\nny = 5\nspacing = 0.1\n%s\n"
             "[run]\nkernel = %s\ndt = 0.004\n%s\n",
             strstr(extra, "pins =") ? "" : "pins = top-row", cloth_kernel_name(k), extra);
    ck_assert_msg(cloth_scene_parse(text, "facts.ini", s, &err) == CLOTH_OK, "%s", err.msg);
}

/* extra as scene text, then "mesh.nx=1" (a chain) when chain */
static cloth_status create(const cloth__registry *reg, int k, const char *extra,
                           cloth_sim **sim, cloth_error *err)
{
    cloth_scene s;
    int chain = strcmp(extra, "chain") == 0;
    scene_for(k, chain ? "" : extra, &s);
    if (chain)
        ck_assert(cloth_scene_set(&s, "mesh.nx=1", 1, err) == CLOTH_OK);
    cloth_status st = cloth__sim_create_mesh(reg, &s, NULL, sim, err);
    if (st != CLOTH_OK)
        *sim = NULL;
    return st;
}

static const char *const modes[] = {"off", "particles", "proximity", "on"};

/* The real table: each mode is accepted exactly when the facts say so. */
START_TEST(declared_modes_are_accepted_and_others_refused)
{
    const cloth__kernel *kernel = cloth__kernels()->at(_i);
    unsigned self = kernel->self_modes ? kernel->self_modes
                    : kernel->contact == CLOTH__CONTACT_OWN ? CLOTH__SELF_BIT(CLOTH_SELF_OFF)
                                                            : CLOTH__SELF_ALL;
    for (int m = 0; m < 4; m++) {
        char extra[128];
        cloth_sim *sim;
        cloth_error err = {""};
        snprintf(extra, sizeof extra, "self_collision = %s", modes[m]);
        cloth_status st = create(cloth__kernels(), _i, extra, &sim, &err);
        ck_assert_msg(st == (self & CLOTH__SELF_BIT(m) ? CLOTH_OK : CLOTH_EINVAL),
                      "%s, run.self_collision = %s: status %d (%s)", kernel->name, modes[m],
                      st, err.msg);
        cloth_sim_destroy(sim);
    }
    /* obstacles and avatar.collision values it does not honour are refused (those it
     * honours are run by the stage test below; building a body for each would be slow) */
    unsigned obstacles = kernel->obstacles ? kernel->obstacles
                         : kernel->contact == CLOTH__CONTACT_OWN ? 0u : CLOTH__OBSTACLE_ALL;
    static const char *const sections[] = {"[sphere]\nradius = 0.1\ncenter = 0 -1 0",
                                           "[plane]\nheight = -1", "[avatar]"};
    for (int o = 0; o < 3; o++)
        if (!(obstacles & (1u << o))) {
            cloth_sim *sim;
            cloth_error err = {""};
            ck_assert_msg(create(cloth__kernels(), _i, sections[o], &sim, &err) == CLOTH_EINVAL,
                          "%s: %s accepted", kernel->name, sections[o]);
        }
    static const char *const bodies[] = {"sdf", "capsules", "ellipsoids"};
    for (int b = 0; b < 3 && kernel->avatar_collisions; b++)
        if (!(kernel->avatar_collisions & (1u << b))) {
            char extra[64];
            cloth_sim *sim;
            cloth_error err = {""};
            snprintf(extra, sizeof extra, "[avatar]\ncollision = %s", bodies[b]);
            ck_assert_msg(create(cloth__kernels(), _i, extra, &sim, &err) == CLOTH_EINVAL,
                          "%s: avatar.collision = %s accepted", kernel->name, bodies[b]);
            ck_assert_msg(strstr(err.msg, "avatar.collision") && strstr(err.msg, kernel->name),
                          "%s", err.msg);
        }
    /* a chain (no triangles) */
    cloth_scene s;
    cloth_sim *sim;
    cloth_error err = {""};
    scene_for(_i, "", &s);
    ck_assert(cloth_scene_set(&s, "mesh.nx=1", 1, &err) == CLOTH_OK);
    cloth_status st = cloth__sim_create_mesh(cloth__kernels(), &s, NULL, &sim, &err);
    ck_assert_msg(st == (kernel->needs_triangles ? CLOTH_EINVAL : CLOTH_OK), "%s, a chain: %d (%s)",
                  kernel->name, st, err.msg);
    if (st == CLOTH_OK)
        cloth_sim_destroy(sim);
    else
        ck_assert_msg(strstr(err.msg, "needs triangles") && strstr(err.msg, kernel->name), "%s",
                      err.msg);
}
END_TEST

static void expect_refusal(int k, const char *extra, const char *const words[])
{
    cloth_sim *sim;
    cloth_error err = {""};
    cloth_status st = create(&copy_registry, k, extra, &sim, &err);
    ck_assert_msg(st == CLOTH_EINVAL, "%s with '%s': status %d, not refused", copies[k].name,
                  extra, st);
    ck_assert_msg(strstr(err.msg, copies[k].name), "no kernel name in: %s", err.msg);
    for (int w = 0; words[w]; w++)
        ck_assert_msg(strstr(err.msg, words[w]), "'%s' not in: %s", words[w], err.msg);
}

/* A copy of the kernel's table, narrowed fact by fact: each refusal names the kernel,
 * the key and what it supports. */
START_TEST(a_narrowed_fact_refuses_with_kernel_key_and_values)
{
    narrowed();
    copies[_i].self_modes = CLOTH__SELF_BIT(CLOTH_SELF_OFF) | CLOTH__SELF_BIT(CLOTH_SELF_ON);
    expect_refusal(_i, "self_collision = particles",
                   (const char *const[]){"facts.ini", "run.self_collision = particles",
                                         "supports run.self_collision = off, on", NULL});
    narrowed();
    copies[_i].self_modes = CLOTH__SELF_BIT(CLOTH_SELF_OFF);
    expect_refusal(_i, "self_collision = on",
                   (const char *const[]){"run.self_collision = on", "= off)", NULL});
    narrowed();
    copies[_i].obstacles = CLOTH__OBSTACLE_FLOOR;
    expect_refusal(_i, "[sphere]\ncenter = 0 -0.3 0\nradius = 0.1",
                   (const char *const[]){"[sphere]", "supports [plane]", NULL});
    narrowed();
    copies[_i].obstacles = CLOTH__OBSTACLE_SPHERE;
    expect_refusal(_i, "[plane]\nheight = -1",
                   (const char *const[]){"[plane]", "supports [sphere]", NULL});
    narrowed();
    copies[_i].obstacles = CLOTH__OBSTACLE_SPHERE | CLOTH__OBSTACLE_FLOOR;
    expect_refusal(_i, "[avatar]\ncollision = capsules",
                   (const char *const[]){"[avatar]", "[sphere], [plane]", NULL});
    narrowed();
    copies[_i].avatar_collisions = 1u << CLOTH_AVATAR_SDF;
    expect_refusal(_i, "[avatar]\ncollision = capsules",
                   (const char *const[]){"avatar.collision = capsules",
                                         "supports avatar.collision = sdf", NULL});
    narrowed();
    copies[_i].needs_triangles = 1;
    expect_refusal(_i, "chain",
                   (const char *const[]){"needs triangles", NULL});
    /* a kernel of its own contact that declares nothing honours only off, no obstacle */
    narrowed();
    copies[_i].contact = CLOTH__CONTACT_OWN;
    copies[_i].self_modes = 0;
    copies[_i].obstacles = 0;
    expect_refusal(_i, "self_collision = proximity",
                   (const char *const[]){"supports run.self_collision = off)", NULL});
    expect_refusal(_i, "[plane]\nheight = -1",
                   (const char *const[]){"[plane]", "supports none", NULL});
}
END_TEST

/* The stage is built for every kernel whose contact is not its own, and keeps a sheet
 * dropped on a sphere out of it: every free vertex ends every frame outside the sphere's
 * skin (radius + offset), up to rounding. */
START_TEST(the_stage_keeps_every_kernel_out_of_the_sphere)
{
    const cloth__kernel *kernel = cloth__kernels()->at(_i);
    cloth_sim *sim;
    cloth_error err = {""};
    ck_assert_msg(create(cloth__kernels(), _i,
                         "frames = 30\n[mesh]\npins = none\nplane = xz\norigin = -0.25 0.05 -0.2\n"
                         "[sphere]\ncenter = 0 -0.2 0\nradius = 0.2\noffset = 0.01",
                         &sim, &err) == CLOTH_OK, "%s: %s", kernel->name, err.msg);
    const double *normal;
    int own = kernel->contact == CLOTH__CONTACT_OWN;
    ck_assert_msg((cloth__contact_obstacle_hits(sim, &normal) == NULL) == own,
                  "%s: contact %d, stage %s", kernel->name, kernel->contact,
                  own ? "built" : "missing");
    for (int f = 0; f < 30; f++) {
        cloth_frame fr;
        ck_assert_msg(cloth_sim_frame(sim, &fr, &err) == CLOTH_OK, "%s: %s", kernel->name,
                      err.msg);
        const double *x = cloth_sim_positions(sim);
        for (int i = 0; i < cloth_sim_mesh(sim)->n; i++) {
            double d = sqrt(x[3 * i] * x[3 * i] + (x[3 * i + 1] + 0.2) * (x[3 * i + 1] + 0.2) +
                            x[3 * i + 2] * x[3 * i + 2]);
            ck_assert_msg(d >= 0.21 - 1e-9, "%s: frame %d: vertex %d %.3g mm inside the sphere",
                          kernel->name, f + 1, i, 1e3 * (0.21 - d));
        }
    }
    cloth_sim_destroy(sim);
}
END_TEST

Suite *suite_kernel_facts(void)
{
    Suite *s = suite_create("kernel_facts");
    TCase *tc = tcase_create("every kernel");
    tcase_set_timeout(tc, 60);
    int n = cloth_kernel_count();
    tcase_add_loop_test(tc, declared_modes_are_accepted_and_others_refused, 0, n);
    tcase_add_loop_test(tc, a_narrowed_fact_refuses_with_kernel_key_and_values, 0, n);
    tcase_add_loop_test(tc, the_stage_keeps_every_kernel_out_of_the_sphere, 0, n);
    suite_add_tcase(s, tc);
    return s;
}
