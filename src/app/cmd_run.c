/*
 * cloth run (one scene to a folder of results, --record for point caches) and cloth
 * replay (a viewer session's events re-simulated).
 */
#include "app/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Takes "NAME VALUE" out of argv (from index 3 on): returns VALUE or NULL, and the
 * remaining arguments in rest (NULL-terminated, *n of them). */
static const char *take_option(int argc, char **argv, const char *name, char **rest, int *n)
{
    const char *value = NULL;
    *n = 0;
    for (int i = 0; i < argc; i++) {
        if (i >= 3 && strcmp(argv[i], name) == 0 && i + 1 < argc)
            value = argv[++i];
        else
            rest[(*n)++] = argv[i];
    }
    rest[*n] = NULL;
    return value;
}

/* Takes every "NAME" out of args (from index 3 on, NULL-terminated, *n of them);
 * returns 1 when there was one. */
static int take_flag(char **args, int *n, const char *name)
{
    int found = 0, j = 3;
    for (int i = 3; i < *n; i++)
        if (strcmp(args[i], name) == 0)
            found = 1;
        else
            args[j++] = args[i];
    if (*n > 3) {
        *n = j;
        args[j] = NULL;
    }
    return found;
}

/* The line of a finished run on stdout, and why it failed on stderr; the exit code. */
static int report_run(const char *out_dir, const char *name, const cloth_summary *s)
{
    printf("%s: %s, %ld frames, max |drift| %.3g, max stretch %.3g, %ld iterations, "
           "%.1f ms\n", out_dir, cloth_run_status_string(s->status), s->frames,
           s->max_abs_drift, s->max_stretch, s->total_iterations, s->wall_ms);
    if (s->status == CLOTH_RUN_STEP_FAILED) {
        fprintf(stderr, "cloth: %s\n", s->message);
        return EXIT_RUN_FAILED;
    }
    if (s->status == CLOTH_RUN_DIVERGED) {
        fprintf(stderr, "cloth: %s: %s\n", name, s->message);
        fprintf(stderr, "cloth: %s: diverged at frame %ld; the %ld frames before it are "
                "kept in series.csv\n", name, s->fail_frame, s->frames);
        return EXIT_RUN_FAILED;
    }
    if (s->status == CLOTH_RUN_NOT_CONVERGED)
        fprintf(stderr, "cloth: %s: warning: %ld kernel steps did not converge (see "
                "summary.csv)\n", name, s->not_converged);
    if (s->status != CLOTH_RUN_STEP_FAILED && strstr(s->message, "body speed guard"))
        fprintf(stderr, "cloth: %s: warning: %s\n", name, s->message);
    if (s->lin_capped > 0)
        fprintf(stderr, "cloth: %s: warning: %ld Newton solves stopped at newton.pcg_max_iters "
                "(lin_capped in summary.csv)\n", name, s->lin_capped);
    return 0;
}

/* cloth run; --sweep-id ID (what a sweep plan's jobs.tsv passes) marks the folder as that
 * run of the sweep once summary.csv is written (cloth_run_mark_done). */
int cloth__cmd_run(int argc, char **argv)
{
    char **rest = malloc(sizeof(char *) * (size_t)(argc + 1));
    if (!rest)
        return cloth__bad_input("out of memory");
    int n;
    const char *sweep_id = take_option(argc, argv, "--sweep-id", rest, &n);
    int record = take_flag(rest, &n, "--record");
    if (sweep_id && (!*sweep_id || strpbrk(sweep_id, " \t\r\n"))) {
        free(rest);
        return cloth__bad_input("--sweep-id: expected one word");
    }
    const char *out_dir = NULL;
    cloth_sim *sim;
    int code = cloth__make_sim(n, rest, &sim, &out_dir);
    free(rest);
    if (code)
        return code;
    char dir[1024];
    if (!out_dir) {
        cloth__default_out_dir("build/runs", argv[2], dir, sizeof dir);
        out_dir = dir;
    }
    if (sweep_id) {
        /* an earlier result stops counting before the run rewrites its files */
        char done[1100];
        snprintf(done, sizeof done, "%s/run.done", out_dir);
        remove(done);
    }
    cloth_error err;
    cloth_summary s;
    cloth_output_def def;
    cloth_default_output_def(&def);
    def.progress = stderr;
    def.record = record;
    cloth_status st = cloth_run_sim_with(sim, out_dir, &def, &s, &err);
    cloth_sim_destroy(sim);
    if (st == CLOTH_OK && sweep_id)
        st = cloth_run_mark_done(out_dir, sweep_id, &s, &err);
    if (st != CLOTH_OK) {
        fprintf(stderr, "cloth: %s\n", err.msg);
        return EXIT_RUN_FAILED;
    }
    return report_run(out_dir, argv[2], &s);
}

/* cloth replay EVENTS [--out DIR]: the scene and overrides the events file names, its
 * inputs applied at their frames (cloth_run_sim_with).  A bad line, a scene that no
 * longer loads, or an input the sim refuses is bad input (exit 2). */
int cloth__cmd_replay(int argc, char **argv)
{
    const char *out_dir = NULL;
    if (argc < 3)
        return cloth__bad_input("usage: cloth replay EVENTS.jsonl [--out DIR]");
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            out_dir = argv[++i];
        else
            return cloth__bad_input("usage: cloth replay EVENTS.jsonl [--out DIR]");
    }
    char dir[1024];
    if (!out_dir) {
        const char *slash = strrchr(argv[2], '/');
        if (slash)
            snprintf(dir, sizeof dir, "%.*s/replay", (int)(slash - argv[2]), argv[2]);
        else
            snprintf(dir, sizeof dir, "replay");
        out_dir = dir;
    }
    cloth_error err;
    cloth_events *ev;
    if (cloth_events_load(argv[2], &ev, &err) != CLOTH_OK)
        return cloth__bad_input(err.msg);
    cloth_scene scene;
    int code = 0;
    if (cloth_scene_load(cloth_events_scene(ev), &scene, &err) != CLOTH_OK)
        code = cloth__bad_input(err.msg);
    for (int i = 0; !code && i < cloth_events_sets(ev); i++)
        if (cloth_scene_set(&scene, cloth_events_set(ev, i), i + 1, &err) != CLOTH_OK)
            code = cloth__bad_input(err.msg);
    cloth_sim *sim = NULL;
    if (!code && cloth_sim_create(&scene, &sim, &err) != CLOTH_OK)
        code = cloth__bad_input(err.msg);
    if (code) {
        cloth_events_destroy(ev);
        return code;
    }
    cloth_output_def def;
    cloth_default_output_def(&def);
    def.progress = stderr;
    def.events = ev;
    cloth_summary s;
    cloth_status st = cloth_run_sim_with(sim, out_dir, &def, &s, &err);
    cloth_sim_destroy(sim);
    cloth_events_destroy(ev);
    if (st == CLOTH_EINVAL)
        return cloth__bad_input(err.msg);
    if (st != CLOTH_OK) {
        fprintf(stderr, "cloth: %s\n", err.msg);
        return EXIT_RUN_FAILED;
    }
    return report_run(out_dir, argv[2], &s);
}
