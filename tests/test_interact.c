/* Picking, dragging, runtime pins and live changes (interact.c, live.c), checked from
 * geometry: rays through known points, the drag mapping's closed form, and pins that
 * hold under every kernel of the ops table. */
#include "cloth.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ picking */

/* A 4 x 3 grid at z = 0, spacing 1: vertex v = j*4 + i at (i, -j, 0). */
static void grid(double *x)
{
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 4; i++) {
            double *p = x + 3 * (j * 4 + i);
            p[0] = i;
            p[1] = -j;
            p[2] = 0;
        }
}

START_TEST(a_ray_through_a_vertex_picks_it)
{
    double x[36];
    grid(x);
    for (int v = 0; v < 12; v++) {
        /* from 5 m in front, straight at the vertex; dir of any length */
        double o[3] = {x[3 * v], x[3 * v + 1], 5}, d[3] = {0, 0, -2.5}, t;
        ck_assert_int_eq(cloth_pick_ray(x, 12, o, d, 0.1, &t), v);
        ck_assert_double_eq_tol(t, 5 - 0.1, 1e-12); /* enters the sphere at 5 - r */
    }
    /* an oblique ray from (10, 10, 10) through vertex 6 = (2, -1, 0) */
    double o[3] = {10, 10, 10}, d[3] = {2 - 10, -1 - 10, 0 - 10};
    ck_assert_int_eq(cloth_pick_ray(x, 12, o, d, 0.05, NULL), 6);
}
END_TEST

START_TEST(a_ray_that_misses_picks_none)
{
    double x[36], t = 0;
    grid(x);
    /* between vertices: (0.5, -0.5) is 0.707 from the nearest one */
    double o[3] = {0.5, -0.5, 5}, d[3] = {0, 0, -1};
    ck_assert_int_eq(cloth_pick_ray(x, 12, o, d, 0.3, &t), -1);
    ck_assert(isnan(t));
    /* passing 1.1 r beside vertex 0 misses, 0.9 r beside it hits */
    double beside_out[3] = {0.11, 0, 5}, beside_in[3] = {0.09, 0, 5};
    ck_assert_int_eq(cloth_pick_ray(x, 12, beside_out, d, 0.1, NULL), -1);
    ck_assert_int_eq(cloth_pick_ray(x, 12, beside_in, d, 0.1, NULL), 0);
    /* pointing away: the vertex is behind the camera */
    double away[3] = {0, 0, 1};
    double at0[3] = {0, 0, 5};
    ck_assert_int_eq(cloth_pick_ray(x, 12, at0, away, 0.1, NULL), -1);
    /* a zero or non-finite direction picks nothing */
    double zero[3] = {0, 0, 0}, bad[3] = {NAN, 0, -1};
    ck_assert_int_eq(cloth_pick_ray(x, 12, at0, zero, 0.1, NULL), -1);
    ck_assert_int_eq(cloth_pick_ray(x, 12, at0, bad, 0.1, NULL), -1);
}
END_TEST

START_TEST(the_nearer_of_two_hits_wins)
{
    /* two vertices on the ray o + t (1, 0, 0), at t = 2 and t = 4, in both index orders */
    double near_first[6] = {2, 0, 0, 4, 0, 0}, far_first[6] = {4, 0, 0, 2, 0, 0};
    double o[3] = {0, 0, 0}, d[3] = {1, 0, 0}, t;
    ck_assert_int_eq(cloth_pick_ray(near_first, 2, o, d, 0.2, &t), 0);
    ck_assert_double_eq_tol(t, 1.8, 1e-12);
    ck_assert_int_eq(cloth_pick_ray(far_first, 2, o, d, 0.2, &t), 1);
    ck_assert_double_eq_tol(t, 1.8, 1e-12);
    /* the nearer sphere wins even when the ray passes closer to the centre of the far
     * one: entry points 3 - sqrt(0.25^2 - 0.2^2) = 2.85 versus 4 - 0.25 = 3.75 */
    double off_centre[6] = {4, 0, 0, 3, 0.2, 0};
    ck_assert_int_eq(cloth_pick_ray(off_centre, 2, o, d, 0.25, &t), 1);
    ck_assert_double_eq_tol(t, 3 - sqrt(0.25 * 0.25 - 0.2 * 0.2), 1e-12);
    /* the camera inside a vertex sphere picks it at distance 0 */
    double inside[6] = {0.05, 0, 0, 2, 0, 0};
    ck_assert_int_eq(cloth_pick_ray(inside, 2, o, d, 0.2, &t), 0);
    ck_assert_double_eq(t, 0);
}
END_TEST

/* ------------------------------------------------------------ drag mapping */

static void unit(double *d)
{
    double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int k = 0; k < 3; k++)
        d[k] /= l;
}

START_TEST(the_drag_mapping_keeps_the_vertex_on_the_mouse_ray)
{
    /* the mass-spring cloth paper's P2 = P1 + (dir2 - dir1) dist, worked by hand */
    double o[3] = {0, 0, 10}, d1[3] = {0, 0, -1}, d2[3] = {0.6, 0, -0.8}, p1[3] = {0, 0, 0};
    double p2[3];
    cloth_drag_point(p1, o, d1, o, d2, 10, p2);
    ck_assert_double_eq_tol(p2[0], 6, 1e-12);  /* 0 + (0.6 - 0) 10 */
    ck_assert_double_eq_tol(p2[1], 0, 1e-12);
    ck_assert_double_eq_tol(p2[2], 2, 1e-12);  /* 0 + (-0.8 + 1) 10 */
    /* p1 on the first ray at distance 10 -> p2 = o + 10 d2: on the second ray, as far */
    ck_assert_double_eq_tol(sqrt(p2[0] * p2[0] + p2[1] * p2[1] + (p2[2] - 10) * (p2[2] - 10)),
                            10, 1e-12);
    /* a general camera and ray pair; p1 = o1 + dist d1 + e keeps its offset e */
    double o1[3] = {1, 2, 3}, e1[3] = {-0.3, 0.2, -1}, e2[3] = {0.1, -0.4, -1};
    double o2[3] = {1.5, 2, 2.5}, e[3] = {0.01, -0.02, 0.005}, q1[3], q2[3];
    unit(e1);
    unit(e2);
    double dist = 4.2;
    for (int k = 0; k < 3; k++)
        q1[k] = o1[k] + dist * e1[k] + e[k];
    cloth_drag_point(q1, o1, e1, o2, e2, dist, q2);
    for (int k = 0; k < 3; k++)
        ck_assert_double_eq_tol(q2[k], o2[k] + dist * e2[k] + e[k], 1e-12);
    /* an unchanged ray leaves the point where it is */
    cloth_drag_point(q1, o1, e1, o1, e1, dist, q2);
    for (int k = 0; k < 3; k++)
        ck_assert_double_eq_tol(q2[k], q1[k], 1e-15);
}
END_TEST

/* ---------------------------------------------------------- sims with pins */

/* A 6 x 5 cloth hanging from its top row in the xy plane, spacing 0.1, the given
 * kernel; substeps keep the explicit kernel stable. */
static cloth_sim *hanging(const char *kernel)
{
    char text[512];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 6\nny = 5\nspacing = 0.1\npins = top-row\n"
             "[material]\nk_structural = 200\nk_shear = 50\nk_bend = 10\n"
             "vertex_mass = 0.01\nspring_damping = 0.02\n"
             "[world]\nair_damping = 0.001\n"
             "[run]\nkernel = %s\ndt = 0.01\nsubsteps = 10\n", kernel);
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(text, "hanging.ini", &s, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s: %s", kernel, err.msg);
    return sim;
}

/* Model-independent: under every kernel of the ops table a grabbed vertex goes exactly
 * where the drag mapping puts it and stays there while the cloth moves, and moves on
 * once released. */
START_TEST(a_dragged_vertex_is_held_on_the_mouse_ray_by_every_kernel)
{
    for (int k = 0; cloth_kernel_name(k); k++) {
        const char *name = cloth_kernel_name(k);
        cloth_sim *sim = hanging(name);
        const cloth_mesh *m = cloth_sim_mesh(sim);
        int pinned0 = m->n_pinned, v = 4 * 6 + 2; /* bottom row, third vertex */
        tu_frames(sim, 5);
        const double *x = cloth_sim_positions(sim);
        double o[3] = {x[3 * v], x[3 * v + 1], x[3 * v + 2] + 3}, d1[3] = {0, 0, -1};
        int got;
        cloth_error err;
        ck_assert(cloth_sim_grab(sim, o, d1, 0.03, &got, &err) == CLOTH_OK);
        ck_assert_msg(got == v, "%s: picked %d, not %d", name, got, v);
        ck_assert_int_eq(cloth_sim_grabbed(sim), v);
        ck_assert(m->pinned[v] && m->inv_mass[v] == 0);
        ck_assert_int_eq(m->n_pinned, pinned0 + 1);
        /* the mouse moves: a ray turned 0.1 rad towards +x and up by 0.05 rad */
        double d2[3] = {sin(0.1), sin(0.05), -1}, want[3], p1[3];
        unit(d2);
        memcpy(p1, x + 3 * v, sizeof p1);
        cloth_drag_point(p1, o, d1, o, d2, 3, want);
        ck_assert(cloth_sim_drag(sim, o, d2, &err) == CLOTH_OK);
        tu_frames(sim, 20);
        for (int c = 0; c < 3; c++)
            ck_assert_msg(fabs(x[3 * v + c] - want[c]) < 1e-12, "%s: held at %g, not %g",
                          name, x[3 * v + c], want[c]);
        /* on the ray at its grab distance */
        double r = sqrt(pow(x[3 * v] - o[0], 2) + pow(x[3 * v + 1] - o[1], 2) +
                        pow(x[3 * v + 2] - o[2], 2));
        ck_assert_double_eq_tol(r, 3, 1e-12);
        /* the neighbour above is pulled towards it */
        ck_assert(x[3 * (v - 6)] > p1[0] + 0.01);
        cloth_sim_release(sim);
        ck_assert_int_eq(cloth_sim_grabbed(sim), -1);
        ck_assert(!m->pinned[v] && m->inv_mass[v] > 0);
        ck_assert_int_eq(m->n_pinned, pinned0);
        /* held away from where the cloth would be, a released vertex moves on (falls
         * under forces, or snaps back under the relaxation of stretched springs) */
        double held[3] = {x[3 * v], x[3 * v + 1], x[3 * v + 2]};
        tu_frames(sim, 20);
        double gone = sqrt(pow(x[3 * v] - held[0], 2) + pow(x[3 * v + 1] - held[1], 2) +
                           pow(x[3 * v + 2] - held[2], 2));
        ck_assert_msg(gone > 0.01, "%s: a released vertex must move on (%g m)", name, gone);
        cloth_sim_destroy(sim);
    }
}
END_TEST

START_TEST(grab_and_drag_reject_bad_rays_and_misses)
{
    cloth_sim *sim = hanging("explicit");
    cloth_error err;
    int got = 7;
    double o[3] = {0, 0, 3}, away[3] = {0, 0, 1}, bad[3] = {0, INFINITY, -1};
    ck_assert(cloth_sim_grab(sim, o, away, 0.03, &got, &err) == CLOTH_OK);
    ck_assert_int_eq(got, -1);
    ck_assert(cloth_sim_grab(sim, o, bad, 0.03, &got, &err) == CLOTH_EINVAL);
    ck_assert(cloth_sim_grab(sim, o, away, 0, &got, &err) == CLOTH_EINVAL);
    ck_assert(cloth_sim_drag(sim, o, away, &err) == CLOTH_EINVAL); /* nothing grabbed */
    ck_assert(strstr(err.msg, "no vertex") != NULL);
    cloth_sim_release(sim); /* harmless */
    cloth_sim_destroy(sim);
}
END_TEST

/* A grabbed pinned vertex goes back to its pin when released; reset undoes runtime pins. */
START_TEST(pins_follow_grab_release_pin_unpin_and_reset)
{
    cloth_sim *sim = hanging("explicit");
    const cloth_mesh *m = cloth_sim_mesh(sim);
    const double *x = cloth_sim_positions(sim);
    cloth_error err;
    int got, pinned0 = m->n_pinned;
    double pin0[3] = {x[0], x[1], x[2]};
    double o[3] = {x[0], x[1], 3}, d1[3] = {0, 0, -1}, d2[3] = {0.1, -0.1, -1};
    unit(d2);
    ck_assert(cloth_sim_grab(sim, o, d1, 0.03, &got, &err) == CLOTH_OK);
    ck_assert_int_eq(got, 0);
    ck_assert(cloth_sim_drag(sim, o, d2, &err) == CLOTH_OK);
    tu_frames(sim, 3);
    ck_assert(fabs(x[0] - pin0[0]) > 0.1);
    cloth_sim_release(sim);
    ck_assert(m->pinned[0]);
    ck_assert(x[0] == pin0[0] && x[1] == pin0[1] && x[2] == pin0[2]);
    tu_frames(sim, 3);
    ck_assert(x[0] == pin0[0] && x[1] == pin0[1] && x[2] == pin0[2]);

    /* pin the free bottom-left corner where it is, then free it */
    int corner = 4 * 6;
    tu_frames(sim, 10);
    double here[3] = {x[3 * corner], x[3 * corner + 1], x[3 * corner + 2]};
    ck_assert(cloth_sim_pin(sim, corner, 1, &err) == CLOTH_OK);
    ck_assert_int_eq(m->n_pinned, pinned0 + 1);
    tu_frames(sim, 10);
    for (int c = 0; c < 3; c++)
        ck_assert(x[3 * corner + c] == here[c]);
    /* unpin a top vertex too, then reset puts the scene's pins back */
    ck_assert(cloth_sim_pin(sim, 3, 0, &err) == CLOTH_OK);
    ck_assert_int_eq(m->n_pinned, pinned0);
    ck_assert(cloth_sim_pin(sim, corner, 0, &err) == CLOTH_OK);
    tu_frames(sim, 10);
    ck_assert(x[3 * corner + 1] < here[1] - 1e-3 || x[3 * 3 + 1] < -1e-3);
    ck_assert(cloth_sim_pin(sim, corner, 1, &err) == CLOTH_OK);
    cloth_sim_reset(sim);
    ck_assert_int_eq(m->n_pinned, pinned0);
    ck_assert(m->pinned[3] && !m->pinned[corner]);
    for (int i = 0; i < 3 * m->n; i++)
        ck_assert(x[i] == m->rest[i] && m->x0[i] == m->rest[i]);
    /* out of range */
    ck_assert(cloth_sim_pin(sim, m->n, 1, &err) == CLOTH_EINVAL);
    ck_assert(strstr(err.msg, "out of range") != NULL);
    ck_assert(cloth_sim_pin(sim, -1, 0, &err) == CLOTH_EINVAL);
    cloth_sim_destroy(sim);
}
END_TEST

/* ------------------------------------------------------------ live changes */

START_TEST(live_changes_apply_and_bad_ones_leave_the_sim_unchanged)
{
    cloth_sim *sim = hanging("explicit");
    const cloth_scene *s = cloth_sim_scene(sim);
    const cloth_mesh *m = cloth_sim_mesh(sim);
    cloth_error err;
    ck_assert(cloth_sim_set(sim, "world.wind=1 0 2", &err) == CLOTH_OK);
    ck_assert(s->world.wind[0] == 1 && s->world.wind[2] == 2);
    ck_assert(cloth_sim_set(sim, "material.k_shear=75", &err) == CLOTH_OK);
    for (int i = 0; i < m->n_springs; i++)
        ck_assert(m->springs[i].k == (m->springs[i].family == CLOTH_SHEAR ? 75
                                      : m->springs[i].family == CLOTH_BEND ? 10 : 200));
    ck_assert(cloth_sim_set(sim, "run.substeps=12", &err) == CLOTH_OK);
    ck_assert_int_eq(s->run.substeps, 12);
    tu_frames(sim, 3);
    /* gravity restarts drift from the current state */
    ck_assert(cloth_sim_set(sim, "world.gravity=0 -5 0", &err) == CLOTH_OK);
    cloth_frame f;
    cloth_sim_measure(sim, &f);
    ck_assert_double_eq_tol(f.drift, 0, 1e-12);

    /* the kernel switch keeps the state */
    const double *x = cloth_sim_positions(sim);
    double x5 = x[15];
    char assignment[64];
    snprintf(assignment, sizeof assignment, "run.kernel=%s", cloth_kernel_name(0));
    ck_assert_msg(cloth_sim_set(sim, assignment, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert(cloth_sim_positions(sim)[15] == x5);

    const char *bad[] = {"mesh.nx=3", "run.dt=0.1", "run.substeps=0", "world.gravity=1 2",
                         "world.wind=nan 0 0", "material.k_bend=-1", "run.kernel=nope",
                         "sphere.radius=0.3", "world.nope=1", "nodot", "x.y", ".=", "a.=1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cloth_scene before = *s;
        err.msg[0] = '\0';
        ck_assert_msg(cloth_sim_set(sim, bad[i], &err) == CLOTH_EINVAL, "%s accepted", bad[i]);
        ck_assert_msg(err.msg[0] != '\0' && strncmp(err.msg, "--set", 5) != 0, "%s: '%s'",
                      bad[i], err.msg);
        ck_assert_msg(memcmp(&before, s, sizeof before) == 0, "%s changed the scene", bad[i]);
    }
    cloth_sim_destroy(sim);
}
END_TEST

/* cloth_scene_get writes what cloth_scene_set reads: every kind of key round-trips. */
START_TEST(scene_keys_read_back_as_text)
{
    cloth_scene s, t;
    cloth_error err;
    char value[128], assignment[256];
    cloth_default_scene(&s);
    ck_assert(cloth_scene_set(&s, "world.wind=0.1 -2 3e-5", 1, &err) == CLOTH_OK);
    ck_assert(cloth_scene_set(&s, "material.k_shear=0.1", 2, &err) == CLOTH_OK);
    static const char *const keys[] = {"world.wind", "material.k_shear", "run.substeps",
                                       "run.seed", "mesh.plane", "explicit.scheme",
                                       "run.kernel", "mesh.obj"};
    cloth_default_scene(&t);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        ck_assert_msg(cloth_scene_get(&s, keys[i], value, sizeof value, &err) == CLOTH_OK,
                      "%s: %s", keys[i], err.msg);
        snprintf(assignment, sizeof assignment, "%s=%s", keys[i], value);
        ck_assert_msg(cloth_scene_set(&t, assignment, 1, &err) == CLOTH_OK || !*value, "%s",
                      assignment);
    }
    ck_assert(t.world.wind[0] == 0.1 && t.world.wind[1] == -2 && t.world.wind[2] == 3e-5);
    ck_assert(t.material.k[CLOTH_SHEAR] == 0.1);
    ck_assert(cloth_scene_get(&s, "world.wind", value, sizeof value, &err) == CLOTH_OK);
    ck_assert_str_eq(value, "0.10000000000000001 -2 3.0000000000000001e-05");
    ck_assert(cloth_scene_get(&s, "run.kernel", value, sizeof value, &err) == CLOTH_OK);
    ck_assert_str_eq(value, "explicit");
    ck_assert(cloth_scene_get(&s, "world.nope", value, sizeof value, &err) == CLOTH_EINVAL);
    ck_assert(cloth_scene_get(&s, "mesh.pins", value, sizeof value, &err) == CLOTH_EINVAL);
    ck_assert(cloth_scene_get(&s, "nodot", value, sizeof value, &err) == CLOTH_EINVAL);
}
END_TEST

START_TEST(the_sphere_is_reported_where_it_is)
{
    cloth_sim *sim = hanging("explicit");
    double c[3], r;
    ck_assert_int_eq(cloth_sim_sphere(sim, c, &r), 0); /* no [sphere] section */
    cloth_sim_destroy(sim);
    cloth_scene s;
    cloth_error err;
    ck_assert(cloth_scene_parse("[mesh]\nnx = 3\nny = 3\n[sphere]\nradius = 0.25\n"
                                "motion = path 0 0 0  1 0 0  2\n[run]\ndt = 0.5\n",
                                "s.ini", &s, &err) == CLOTH_OK);
    ck_assert(cloth_sim_create(&s, &sim, &err) == CLOTH_OK);
    tu_frames(sim, 1); /* t = 0.5 of a 2 s back-and-forth: half way out */
    ck_assert_int_eq(cloth_sim_sphere(sim, c, &r), 1);
    ck_assert_double_eq(r, 0.25);
    ck_assert_double_eq_tol(c[0], 0.5, 1e-12);
    ck_assert(cloth_sim_set(sim, "sphere.radius=0.4", &err) == CLOTH_OK);
    cloth_sim_sphere(sim, c, &r);
    ck_assert_double_eq(r, 0.4);
    cloth_sim_destroy(sim);
}
END_TEST

/* `cloth serve` refuses bad arguments before it opens a socket. */
START_TEST(cli_serve_refuses_bad_arguments)
{
    char out[2048];
    ck_assert_int_eq(tu_run_cli("serve", out, sizeof out), 2);
    ck_assert_msg(strstr(out, "missing the scene file"), "%s", out);
    ck_assert_int_eq(tu_run_cli("serve ../experiments/hanging.ini --port 0", out, sizeof out), 2);
    ck_assert_msg(strstr(out, "--port"), "%s", out);
    ck_assert_int_eq(tu_run_cli("serve ../experiments/hanging.ini --port 70000", out, sizeof out), 2);
    ck_assert_int_eq(tu_run_cli("serve ../experiments/hanging.ini --bogus", out, sizeof out), 2);
    ck_assert_int_eq(tu_run_cli("serve ../experiments/hanging.ini --set run.substeps=0", out,
                                sizeof out), 2);
    ck_assert_msg(strstr(out, "run.substeps"), "%s", out);
    /* a folder without the page: an error naming it, before listening */
    ck_assert_int_eq(tu_run_cli("serve ../experiments/hanging.ini --web /nonexistent", out,
                                sizeof out), 1);
    ck_assert_msg(strstr(out, "/nonexistent: no index.html"), "%s", out);
}
END_TEST

Suite *suite_interact(void)
{
    Suite *s = suite_create("interact");
    TCase *pick = tcase_create("picking and the drag mapping");
    tcase_add_test(pick, a_ray_through_a_vertex_picks_it);
    tcase_add_test(pick, a_ray_that_misses_picks_none);
    tcase_add_test(pick, the_nearer_of_two_hits_wins);
    tcase_add_test(pick, the_drag_mapping_keeps_the_vertex_on_the_mouse_ray);
    suite_add_tcase(s, pick);
    TCase *sim = tcase_create("grab, pins and live changes");
    tcase_set_timeout(sim, 60);
    tcase_add_test(sim, a_dragged_vertex_is_held_on_the_mouse_ray_by_every_kernel);
    tcase_add_test(sim, grab_and_drag_reject_bad_rays_and_misses);
    tcase_add_test(sim, pins_follow_grab_release_pin_unpin_and_reset);
    tcase_add_test(sim, live_changes_apply_and_bad_ones_leave_the_sim_unchanged);
    tcase_add_test(sim, scene_keys_read_back_as_text);
    tcase_add_test(sim, the_sphere_is_reported_where_it_is);
    tcase_add_test(sim, cli_serve_refuses_bad_arguments);
    suite_add_tcase(s, sim);
    return s;
}
