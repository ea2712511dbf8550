/* Runs and their files: determinism, divergence, the CSV contract (SPEC 5, 8). */
#include "cloth.h"
#include "suites.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SERIES_HEADER                                                                     \
    "frame,time,kinetic,gravity,elastic,barrier,total,drift,stretch_max,stretch_mean,"    \
    "min_gap,penetrations,intersections,tunnelled,collision_passes,impact_zones,collide_ms,"  \
    "iterations,cond_max,body_depth,stretch_sigma_max,wall_ms"

/* The hanging scene of experiments/, shortened. */
static void hanging(cloth_scene *s, int frames)
{
    cloth_error err;
    ck_assert_msg(cloth_scene_load("../experiments/hanging.ini", s, &err) == CLOTH_OK, "%s",
                  err.msg);
    char set[64];
    snprintf(set, sizeof set, "run.frames=%d", frames);
    ck_assert(cloth_scene_set(s, set, 1, &err) == CLOTH_OK);
}

static int count_lines(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

START_TEST(two_runs_give_identical_series_apart_from_wall_time)
{
    cloth_scene s;
    hanging(&s, 30);
    const char *a = tu_temp_dir(1), *b = tu_temp_dir(2);
    cloth_summary sa, sb;
    cloth_error err;
    ck_assert_msg(cloth_run(&s, a, NULL, &sa, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_msg(cloth_run(&s, b, NULL, &sb, &err) == CLOTH_OK, "%s", err.msg);
    char *ta = tu_slurp(a, "series.csv"), *tb = tu_slurp(b, "series.csv");
    ck_assert(ta && tb);
    ck_assert_int_eq(count_lines(ta), 32);
    ck_assert(strncmp(ta, SERIES_HEADER "\n", strlen(SERIES_HEADER) + 1) == 0);
    tu_drop_last_column(ta);
    tu_drop_last_column(tb);
    ck_assert(strcmp(ta, tb) == 0);
    free(ta);
    free(tb);
    ta = tu_slurp(a, "final.obj");
    tb = tu_slurp(b, "final.obj");
    ck_assert(ta && tb && strcmp(ta, tb) == 0);
    free(ta);
    free(tb);
    ck_assert_int_eq(sa.status, CLOTH_RUN_OK);
    /* the turbulence depends on the seed: another seed, another run */
    ck_assert(cloth_scene_set(&s, "run.seed=2", 2, &err) == CLOTH_OK);
    ck_assert(cloth_run(&s, b, NULL, &sb, &err) == CLOTH_OK);
    ta = tu_slurp(a, "final.obj");
    tb = tu_slurp(b, "final.obj");
    ck_assert(ta && tb && strcmp(ta, tb) != 0);
    free(ta);
    free(tb);
}
END_TEST

/* Forward Euler with a huge step blows up: status diverged, every row before it kept
 * and complete, no .part file left, exit code 1 from the CLI. */
START_TEST(a_blow_up_stops_cleanly_and_keeps_its_rows)
{
    const char *dir = tu_temp_dir(3);
    char cmd[512], out[4096];
    snprintf(cmd, sizeof cmd,
             "run ../experiments/hanging.ini --set explicit.scheme=forward "
             "--set run.substeps=1 --set run.dt=0.02 --set run.frames=500 --out %s", dir);
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "diverged at frame"), "%s", out);
    char *series = tu_slurp(dir, "series.csv"), *summary = tu_slurp(dir, "summary.csv");
    ck_assert(series && summary);
    int rows = count_lines(series) - 1;
    ck_assert_int_gt(rows, 1);
    ck_assert_int_lt(rows, 501);
    /* every row complete: 22 fields, frames 0..rows-1 in order */
    int frame = 0;
    for (char *line = strchr(series, '\n') + 1; *line; frame++) {
        int commas = 0;
        char *end = strchr(line, '\n');
        ck_assert(end != NULL);
        for (char *p = line; p < end; p++)
            commas += *p == ',';
        ck_assert_int_eq(commas, 21);
        ck_assert_int_eq(atoi(line), frame);
        line = end + 1;
    }
    ck_assert_int_eq(frame, rows);
    char expect[64];
    snprintf(expect, sizeof expect, ",diverged,%d,", rows);
    ck_assert_msg(strstr(summary, expect), "%s", summary);
    char part[512];
    snprintf(part, sizeof part, "%s/series.csv.part", dir);
    ck_assert(access(part, F_OK) != 0);
    free(series);
    free(summary);
}
END_TEST

START_TEST(cli_run_writes_every_file)
{
    const char *dir = tu_temp_dir(4);
    char cmd[512], out[4096];
    snprintf(cmd, sizeof cmd, "run ../experiments/hanging.ini --set run.frames=5 --out %s",
             dir);
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 0);
    static const char *const files[] = {"series.csv", "summary.csv", "final.obj"};
    for (int i = 0; i < 3; i++) {
        char *t = tu_slurp(dir, files[i]);
        ck_assert_msg(t != NULL, "%s missing", files[i]);
        free(t);
    }
    char *summary = tu_slurp(dir, "summary.csv");
    ck_assert(strstr(summary, "\nexplicit,720,4052,"));
    ck_assert(strstr(summary, ",ok,-1,"));
    free(summary);
    char *obj = tu_slurp(dir, "final.obj");
    int v = 0, f = 0;
    for (char *line = obj; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        v += line[0] == 'v';
        f += line[0] == 'f';
    }
    ck_assert_int_eq(v, 720);
    ck_assert_int_eq(f, 1334);
    free(obj);
}
END_TEST

/* Frame 0 measures the initial state: zero kinetic energy, zero drift, and gravity's
 * energy -sum m g.x of the rest grid, computed here from the grid formula. */
START_TEST(frame_zero_energies)
{
    cloth_scene s;
    cloth_error err;
    ck_assert(cloth_scene_parse("[mesh]\nnx = 3\nny = 4\nspacing = 0.5\norigin = 0 2 0\n",
                                "e.ini", &s, &err) == CLOTH_OK);
    cloth_sim *sim;
    ck_assert(cloth_sim_create(&s, &sim, &err) == CLOTH_OK);
    cloth_frame f;
    cloth_sim_measure(sim, &f);
    /* y of row j is 2 - 0.5 j; 3 vertices a row of 0.01 kg: sum m g y */
    double expect = 0;
    for (int j = 0; j < 4; j++)
        expect += 3 * 0.01 * 9.81 * (2 - 0.5 * j);
    ck_assert_double_eq_tol(f.gravity, expect, 1e-12);
    ck_assert_double_eq(f.kinetic, 0);
    ck_assert_double_eq(f.elastic, 0);
    ck_assert_double_eq(f.drift, 0);
    ck_assert_double_eq(f.stretch_max, 0);
    ck_assert(!f.has_gap && !f.has_cond);
    cloth_sim_destroy(sim);
}
END_TEST

Suite *suite_run(void)
{
    Suite *s = suite_create("run");
    TCase *tc = tcase_create("files");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, two_runs_give_identical_series_apart_from_wall_time);
    tcase_add_test(tc, a_blow_up_stops_cleanly_and_keeps_its_rows);
    tcase_add_test(tc, cli_run_writes_every_file);
    tcase_add_test(tc, frame_zero_energies);
    suite_add_tcase(s, tc);
    return s;
}
