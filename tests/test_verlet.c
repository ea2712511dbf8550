/* The verlet kernel against mathematics: Provot's limit as an invariant of every frame,
 * the closed-form discrete oscillator of position Verlet, the damping law, contact,
 * non-convergence reported when the limit is infeasible, determinism and bad input. */
#include "cloth.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* max over structural and shear springs of l / ((1 + tau) l0) - 1, from the positions */
static double worst_excess(const cloth_sim *sim, double tau)
{
    const cloth_mesh *m = cloth_sim_mesh(sim);
    const double *x = cloth_sim_positions((cloth_sim *)sim);
    double worst = -1;
    for (int s = 0; s < m->n_springs; s++) {
        const cloth_spring *sp = &m->springs[s];
        if (sp->family == CLOTH_BEND)
            continue;
        const double *a = x + 3 * sp->a, *b = x + 3 * sp->b;
        double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        worst = fmax(worst, l / ((1 + tau) * sp->rest) - 1);
    }
    return worst;
}

/* A 6 x 6 cloth hanging from its two top corners, soft enough (provot mode) or relaxed
 * little enough (relax mode, one weak pass) that it stretches far past 10 %. */
static const char *corner_cloth(const char *mode, double tau, int passes)
{
    static char text[1024];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 6\nny = 6\nspacing = 0.1\npins = top-corners\n"
             "[material]\nk_structural = 20\nk_shear = 10\nk_bend = 2\nvertex_mass = 0.01\n"
             "[run]\nkernel = verlet\ndt = 0.01\nsubsteps = 2\n"
             "[verlet]\nmode = %s\niterations = 1\nk_relax = 0.05\nstrain_limit = %.17g\n"
             "strain_passes = %d\nstrain_tol = 1e-10\n",
             mode, tau, passes);
    return text;
}

/* Provot: after converged sweeps no structural or shear spring is longer than
 * (1 + tau_c) l0 (up to 1e-9 relative), in every frame, in both modes; without the limit
 * the same cloth stretches past it, so the check can fail. */
START_TEST(strain_limit_holds_in_every_frame)
{
    static const char *const modes[] = {"provot", "relax"};
    for (int mi = 0; mi < 2; mi++) {
        cloth_error err;
        cloth_frame f;
        cloth_sim *off = tu_sim(corner_cloth(modes[mi], 0, 1), "off.ini");
        double worst_off = -1;
        for (int frame = 0; frame < 100; frame++) {
            ck_assert(cloth_sim_frame(off, &f, &err) == CLOTH_OK);
            worst_off = fmax(worst_off, worst_excess(off, 0.1));
        }
        ck_assert_msg(worst_off > 0.05, "%s: the unlimited cloth only reached %g past 10 %%",
                      modes[mi], worst_off);
        cloth_sim_destroy(off);

        cloth_sim *on = tu_sim(corner_cloth(modes[mi], 0.1, 100000), "on.ini");
        long sweeps = 0;
        for (int frame = 0; frame < 100; frame++) {
            ck_assert(cloth_sim_frame(on, &f, &err) == CLOTH_OK);
            ck_assert_msg(worst_excess(on, 0.1) <= 1e-9, "%s frame %d: %g past the limit",
                          modes[mi], frame + 1, worst_excess(on, 0.1));
            ck_assert(f.stretch_max <= 0.1 + 1.1e-9);
            ck_assert_int_eq(f.not_converged, 0);
            /* relax mode counts its one relaxation pass per substep as well */
            sweeps += f.iterations - (mi == 1 ? 2 : 0);
            ck_assert_int_ge(f.iterations, 2 + (mi == 1 ? 2 : 0));
        }
        /* the limit was active: more than one sweep per step on average */
        ck_assert_int_gt(sweeps, 2 * 100 * 2);
        cloth_sim_destroy(on);
    }
}
END_TEST

/* Pins farther apart than (1 + tau_c) times the rest path between them: no position of
 * the free vertices meets the limit.  The kernel must spend its budget (exactly
 * strain_passes sweeps per step), say so per frame, and the run must end. */
START_TEST(infeasible_limit_reports_not_converged)
{
    /* a chain of 5 along x, pinned at both ends, built 30 % too long, tau_c = 10 % */
    const char *text = "[mesh]\nnx = 5\nny = 1\nspacing = 0.1\nprestretch = 0.3\n"
                       "pins = 0 4\nsprings = structural\n"
                       "[run]\nkernel = verlet\ndt = 0.01\nsubsteps = 3\nframes = 10\n"
                       "[verlet]\nmode = provot\nstrain_limit = 0.1\nstrain_passes = 40\n";
    cloth_sim *sim = tu_sim(text, "far.ini");
    cloth_frame f;
    cloth_error err;
    for (int frame = 0; frame < 10; frame++) {
        ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
        ck_assert_int_eq(f.not_converged, 3);
        ck_assert_int_eq(f.iterations, 3 * 40);
        /* the free vertices cannot bring 0.52 m under 4 x 0.11 m */
        ck_assert(f.stretch_max > 0.1 + 1e-3);
    }
    cloth_sim_destroy(sim);

    /* the same through the CLI: a warning, status not-converged in summary.csv, exit 0 */
    const char *scene = tu_temp_file("far.ini", text);
    const char *dir = tu_temp_dir(5);
    char cmd[1024], out[4096];
    snprintf(cmd, sizeof cmd, "run %s --out %s", scene, dir);
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "warning: 30 kernel steps did not converge"), "%s", out);
    char path[512];
    snprintf(path, sizeof path, "%s/summary.csv", dir);
    FILE *fp = fopen(path, "r");
    ck_assert(fp != NULL);
    char summary[2048];
    size_t n = fread(summary, 1, sizeof summary - 1, fp);
    summary[n] = '\0';
    fclose(fp);
    ck_assert_msg(strstr(summary, ",not-converged,-1,"), "%s", summary);
    ck_assert_msg(strstr(summary, ",1200,30,"), "%s", summary); /* iterations, steps */
}
END_TEST

/* A spring between two pins that is longer than the limit cannot be corrected (neither
 * end may move): every step says so rather than claiming the limit holds. */
START_TEST(pinned_pair_past_the_limit_is_not_converged)
{
    const char *text = "[mesh]\nnx = 3\nny = 2\nspacing = 0.1\nprestretch = 0.2\n"
                       "pins = top-row\n[run]\nkernel = verlet\n[verlet]\nmode = provot\n";
    cloth_sim *sim = tu_sim(text, "bar.ini");
    cloth_frame f;
    cloth_error err;
    ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
    ck_assert_int_eq(f.not_converged, 1);
    cloth_sim_destroy(sim);
    /* within the limit (prestretch 5 % < 10 %) the same bar is fine */
    text = "[mesh]\nnx = 3\nny = 2\nspacing = 0.1\nprestretch = 0.05\n"
           "pins = top-row\n[run]\nkernel = verlet\n[verlet]\nmode = provot\n";
    sim = tu_sim(text, "bar.ini");
    ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
    ck_assert_int_eq(f.not_converged, 0);
    cloth_sim_destroy(sim);
}
END_TEST

/* One free vertex on one spring below a pin, no gravity, d = 1, no limit: position
 * Verlet u_{n+1} = 2 u_n - u_{n-1} - w^2 h^2 u_n with u_{-1} = u_0 (x_prev = x at rest).
 * Its exact solution is u_n = A cos(th (n + 1/2)), cos th = 1 - w^2 h^2 / 2,
 * A = u_0 / cos(th/2): the period is 2 pi h / th, not 2 pi / w.  It conserves
 * Q = v^2 + w^2 u_n u_{n-1} with v = (u_n - u_{n-1})/h, so the energy
 * E = m/2 (v^2 + w^2 u^2) stays within m/2 Q / (1 +- h w / 2): bounded, no trend. */
START_TEST(undamped_spring_matches_the_discrete_closed_form)
{
    double k = 50, m = 0.5, h = 0.05, w2 = k / m, w = sqrt(w2), e = 0.2;
    char text[1024];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 1\nny = 2\nspacing = 1\nprestretch = %.17g\nsprings = structural\n"
             "[material]\nk_structural = %.17g\nvertex_mass = %.17g\n"
             "[world]\ngravity = 0 0 0\n[run]\nkernel = verlet\ndt = %.17g\n"
             "[verlet]\nmode = provot\ndamping = 1\nstrain_limit = 0\n",
             e, k, m, h);
    cloth_sim *sim = tu_sim(text, "osc.ini");
    const double *x = cloth_sim_positions(sim);
    double th = acos(1 - w2 * h * h / 2), u0 = e, A = u0 / cos(th / 2);
    double Q0 = w2 * u0 * u0; /* v = 0, u_{-1} = u_0 */
    int steps = 4000;         /* about 320 periods */
    double first = 0, last = 0, u_prev = u0, t_first = -1, t_last = -1;
    int crossings = 0, window = 400;
    cloth_frame f;
    cloth_error err;
    for (int n = 1; n <= steps; n++) {
        ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
        double u = -x[4] - 1;
        ck_assert_double_eq_tol(u, A * cos(th * (n + 0.5)), 1e-9);
        double v = (u - u_prev) / h;
        ck_assert_double_eq_tol((v * v + w2 * u * u_prev) / Q0, 1.0, 1e-9);
        double E = f.total / (0.5 * m);
        ck_assert(E >= Q0 / (1 + h * w / 2) * (1 - 1e-12));
        ck_assert(E <= Q0 / (1 - h * w / 2) * (1 + 1e-12));
        if (n <= window)
            first += E;
        if (n > steps - window)
            last += E;
        if (u_prev < 0 && u >= 0) { /* upward zero crossing, linearly interpolated */
            double t = h * (n - 1 + u_prev / (u_prev - u));
            if (t_first < 0)
                t_first = t;
            t_last = t;
            crossings++;
        }
        u_prev = u;
    }
    ck_assert_double_eq_tol(first / last, 1.0, 1e-3);
    double period = (t_last - t_first) / (crossings - 1);
    double discrete = 2 * M_PI * h / th, continuous = 2 * M_PI / w;
    ck_assert_double_eq_tol(period / discrete, 1.0, 1e-4);
    ck_assert(fabs(period / continuous - 1) > 5e-3); /* the scheme's own period, visibly */
    cloth_sim_destroy(sim);
}
END_TEST

/* The Verlet cloth web demo's relaxation on one spring at rest velocity, without
 * gravity: each pass moves the ends by D = ((l - l0)/l) 0.5 k (x_j - x_i), so the excess
 * u = l - l0 becomes (1 - k) u whether both ends move by D or a pinned end leaves 2D to
 * the free one; after n passes u = (1 - k)^n u0.  With two free ends the midpoint does
 * not move. */
START_TEST(relaxation_contracts_by_the_closed_form_factor)
{
    static const char *const pins[] = {"0", "none"};
    double kr = 0.3, e = 0.25;
    int passes = 3;
    for (int pi = 0; pi < 2; pi++) {
        char text[512];
        snprintf(text, sizeof text,
                 "[mesh]\nnx = 1\nny = 2\nspacing = 1\nprestretch = %g\npins = %s\n"
                 "springs = structural\n[world]\ngravity = 0 0 0\n[run]\nkernel = verlet\n"
                 "[verlet]\nmode = relax\niterations = %d\nk_relax = %g\nstrain_limit = 0\n",
                 e, pins[pi], passes, kr);
        cloth_sim *sim = tu_sim(text, "relax.ini");
        const double *x = cloth_sim_positions(sim);
        double mid0 = (x[1] + x[4]) / 2;
        cloth_frame f;
        cloth_error err;
        ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
        ck_assert_double_eq_tol(x[1] - x[4] - 1, pow(1 - kr, passes) * e, 1e-14);
        if (pi == 0)
            ck_assert(x[0] == 0 && x[1] == 0 && x[2] == 0);
        else
            ck_assert_double_eq_tol((x[1] + x[4]) / 2, mid0, 1e-14);
        ck_assert_int_eq(f.iterations, passes);
        cloth_sim_destroy(sim);
    }
}
END_TEST

/* A free vertex written to move at v0 keeps v_n = d^n v0; with damping_rate c,
 * d = exp(-c h), so v(t) = exp(-c t) v0 whatever the substep count. */
START_TEST(damping_rate_decays_velocity_independently_of_substeps)
{
    static const int substeps[] = {1, 7};
    double c = 2.0, dt = 0.01;
    for (int i = 0; i < 2; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "[mesh]\nnx = 1\nny = 1\npins = none\n[world]\ngravity = 0 0 0\n"
                 "[run]\nkernel = verlet\ndt = %g\nsubsteps = %d\n"
                 "[verlet]\ndamping = 0.5\ndamping_rate = %g\n",
                 dt, substeps[i], c);
        cloth_sim *sim = tu_sim(text, "free.ini");
        cloth_sim_velocities(sim)[0] = 1.0;
        cloth_frame f;
        cloth_error err;
        for (int frame = 1; frame <= 50; frame++) {
            ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
            ck_assert_double_eq_tol(cloth_sim_velocities(sim)[0], exp(-c * frame * dt), 1e-12);
        }
        cloth_sim_destroy(sim);
    }
    /* damping alone is per step: d^n */
    cloth_sim *sim = tu_sim("[mesh]\nnx = 1\nny = 1\npins = none\n[world]\ngravity = 0 0 0\n"
                              "[run]\nkernel = verlet\nsubsteps = 3\n[verlet]\ndamping = 0.9\n",
                              "free.ini");
    cloth_sim_velocities(sim)[2] = 1.0;
    cloth_frame f;
    cloth_error err;
    ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
    ck_assert_double_eq_tol(cloth_sim_velocities(sim)[2], 0.9 * 0.9 * 0.9, 1e-12);
    cloth_sim_destroy(sim);
}
END_TEST

/* Vertices started inside the sphere are on or outside radius + offset after one step,
 * in both modes, and the pinned vertex has not moved. */
START_TEST(sphere_pushes_vertices_out)
{
    /* with and without Provot's sweeps, which project too */
    static const char *const modes[] = {"relax", "provot", "provot\nstrain_limit = 0"};
    for (int mi = 0; mi < 3; mi++) {
        char text[512];
        snprintf(text, sizeof text,
                 "[mesh]\nnx = 4\nny = 4\nspacing = 0.2\nplane = xz\npins = 0\n"
                 "[sphere]\ncenter = 0.3 0 0.3\nradius = 0.2\noffset = 0.05\n"
                 "[run]\nkernel = verlet\ndt = 0.01\n[verlet]\nmode = %s\n",
                 modes[mi]);
        cloth_sim *sim = tu_sim(text, "sphere.ini");
        const double *x = cloth_sim_positions(sim);
        int inside = 0;
        for (int i = 1; i < 16; i++) {
            const double *p = x + 3 * i;
            inside += hypot(hypot(p[0] - 0.3, p[1]), p[2] - 0.3) < 0.25;
        }
        ck_assert_int_eq(inside, 4); /* (1,1), (2,1), (1,2), (2,2) start inside */
        cloth_frame f;
        cloth_error err;
        ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
        for (int i = 1; i < 16; i++) {
            const double *p = x + 3 * i;
            ck_assert(hypot(hypot(p[0] - 0.3, p[1]), p[2] - 0.3) >= 0.25 * (1 - 1e-12));
        }
        ck_assert(x[0] == 0 && x[1] == 0 && x[2] == 0);
        ck_assert_int_eq(f.penetrations, 0);
        cloth_sim_destroy(sim);
    }
}
END_TEST

/* Two runs of the Verlet cloth web demo's scene give byte-identical series.csv apart
 * from wall_ms, in both modes (wind turbulence, moving sphere, relaxation and Provot all
 * deterministic). */
START_TEST(two_runs_are_identical_apart_from_wall_time)
{
    static const char *const modes[] = {"mode=relax", "mode=provot"};
    for (int mi = 0; mi < 2; mi++) {
        cloth_scene s;
        cloth_error err;
        ck_assert_msg(cloth_scene_load("../experiments/hanging.ini", &s, &err) == CLOTH_OK,
                      "%s", err.msg);
        char mode[32];
        snprintf(mode, sizeof mode, "verlet.%s", modes[mi]);
        ck_assert(cloth_scene_set(&s, "run.kernel=verlet", 1, &err) == CLOTH_OK);
        ck_assert(cloth_scene_set(&s, "run.frames=20", 2, &err) == CLOTH_OK);
        ck_assert(cloth_scene_set(&s, "run.substeps=5", 3, &err) == CLOTH_OK);
        ck_assert(cloth_scene_set(&s, mode, 4, &err) == CLOTH_OK);
        const char *a = tu_temp_dir(6), *b = tu_temp_dir(7);
        cloth_summary sa, sb;
        ck_assert_msg(cloth_run(&s, a, NULL, &sa, &err) == CLOTH_OK, "%s", err.msg);
        ck_assert_msg(cloth_run(&s, b, NULL, &sb, &err) == CLOTH_OK, "%s", err.msg);
        ck_assert_int_eq(sa.frames, 20);
        char *ta = tu_slurp(a, "series.csv"), *tb = tu_slurp(b, "series.csv");
        ck_assert(ta && tb);
        tu_drop_last_column(ta);
        tu_drop_last_column(tb);
        ck_assert(strcmp(ta, tb) == 0);
        free(ta);
        free(tb);
    }
}
END_TEST

/* Bad values and unknown keys of [verlet] are bad input: exit 2 and FILE:LINE: key. */
START_TEST(bad_verlet_keys_name_file_line_and_key)
{
    static const struct { const char *line; const char *key; } cases[] = {
        {"mode = sideways", "verlet.mode"},
        {"damping = 1.5", "verlet.damping"},
        {"damping = nan", "verlet.damping"},
        {"damping_rate = -1", "verlet.damping_rate"},
        {"iterations = -1", "verlet.iterations"},
        {"iterations = 3.5", "verlet.iterations"},
        {"k_relax = 0", "verlet.k_relax"},
        {"k_relax = 2", "verlet.k_relax"},
        {"strain_limit = -0.1", "verlet.strain_limit"},
        {"strain_limit = 0.1x", "verlet.strain_limit"},
        {"strain_passes = 0", "verlet.strain_passes"},
        {"strain_tol = 0", "verlet.strain_tol"},
        {"relaxation = 12", "verlet.relaxation"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "[run]\nkernel = verlet\n[verlet]\n%s\n", cases[i].line);
        const char *scene = tu_temp_file("bad.ini", text);
        char cmd[1024], out[4096], expect[600];
        snprintf(cmd, sizeof cmd, "run %s --out %s", scene, tu_temp_dir(0));
        ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 2);
        snprintf(expect, sizeof expect, "%s:4: %s: ", scene, cases[i].key);
        ck_assert_msg(strstr(out, expect), "expected '%s' in: %s", expect, out);
    }
    /* the same through --set */
    char out[4096];
    ck_assert_int_eq(tu_run_cli("run ../experiments/hanging.ini --set verlet.damping=2",
                                out, sizeof out), 2);
    ck_assert_msg(strstr(out, "--set:1: verlet.damping: "), "%s", out);
}
END_TEST

Suite *suite_verlet(void)
{
    Suite *s = suite_create("verlet");
    TCase *tc = tcase_create("verlet");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, strain_limit_holds_in_every_frame);
    tcase_add_test(tc, infeasible_limit_reports_not_converged);
    tcase_add_test(tc, pinned_pair_past_the_limit_is_not_converged);
    tcase_add_test(tc, undamped_spring_matches_the_discrete_closed_form);
    tcase_add_test(tc, relaxation_contracts_by_the_closed_form_factor);
    tcase_add_test(tc, damping_rate_decays_velocity_independently_of_substeps);
    tcase_add_test(tc, sphere_pushes_vertices_out);
    tcase_add_test(tc, two_runs_are_identical_apart_from_wall_time);
    tcase_add_test(tc, bad_verlet_keys_name_file_line_and_key);
    suite_add_tcase(s, tc);
    return s;
}
