/*
 * cloth sweep: the runs of a scene's [sweep] on threads of this process, or planned
 * for other engines (--plan), resumed (--resume) and collected (--collect); plan.c
 * writes and reads the plan.
 */
#include "app/cli.h"
#include "app/plan.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------ sweeps */

/* mkdir -p; 0, or -1 with a message. */
static int make_dirs(const char *dir, char *msg, size_t size)
{
    char buf[1024];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf) {
        snprintf(msg, size, "%s: path too long", dir);
        return -1;
    }
    for (char *p = buf + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
            snprintf(msg, size, "%s: cannot create folder: %s", buf, strerror(errno));
            return -1;
        }
        *p = saved;
        if (!saved)
            return 0;
    }
}

/* What a collection found, on stdout; exit 1 (with a line on stderr) when a run has no
 * good result: missing, stale, failed, diverged or step-failed. */
static int report_tally(const char *out_dir, int runs, const cloth_sweep_tally *t)
{
    printf("%s/sweep.csv: %d runs, %d ok, %d not-converged, %d diverged, %d step-failed, "
           "%d failed, %d missing, %d stale\n", out_dir, runs, t->ok, t->not_converged,
           t->diverged, t->step_failed, t->failed, t->missing, t->stale);
    int bad = t->missing + t->stale + t->failed + t->diverged + t->step_failed;
    if (!bad)
        return 0;
    fprintf(stderr, "cloth: %s: %d of %d runs have no good result: %d missing, %d stale, "
            "%d failed, %d diverged, %d step-failed\n", out_dir, bad, runs, t->missing,
            t->stale, t->failed, t->diverged, t->step_failed);
    return EXIT_RUN_FAILED;
}

/* The base scene (the file with the --set overrides, numbered as on a command line) and
 * the sweep on it; 0 or an exit code. */
static int load_sweep(const char *scene_path, char *const *sets, int n_sets,
                      cloth_sweep **sweep)
{
    cloth_error err;
    cloth_scene base;
    if (cloth_scene_load(scene_path, &base, &err) != CLOTH_OK)
        return cloth__bad_input(err.msg);
    for (int s = 0; s < n_sets; s++)
        if (cloth_scene_set(&base, sets[s], s + 1, &err) != CLOTH_OK)
            return cloth__bad_input(err.msg);
    if (cloth_sweep_load(scene_path, &base, sweep, &err) != CLOTH_OK)
        return cloth__bad_input(err.msg);
    return 0;
}

/* cloth sweep --collect DIR: the plan says which scene and overrides; they must be those
 * of the scene file as it is now (its hash), then the folders are read.  Paths in the plan
 * are relative to where it was made, so reading the scene happens there. */
static int cmd_collect(const char *dir)
{
    char msg[2048], abs_dir[PATH_MAX];
    sweep_plan plan, now = {0};
    if (plan_read(dir, &plan, msg, sizeof msg) != 0)
        return cloth__bad_input(msg);
    int code = 0;
    cloth_sweep *sweep = NULL;
    if (!realpath(dir, abs_dir) || chdir(plan.cwd) != 0) {
        snprintf(msg, sizeof msg, "%s: cannot enter: %s (the folder the plan was made in)",
                 plan.cwd, strerror(errno));
        code = cloth__bad_input(msg);
    }
    if (!code && plan_hash_file(plan.scene, now.scene_hash, msg, sizeof msg) != 0)
        code = cloth__bad_input(msg);
    if (!code && strcmp(now.scene_hash, plan.scene_hash) != 0) {
        snprintf(msg, sizeof msg, "%s: the scene file changed since %s/plan.json was made "
                 "(FNV-1a %s, planned %s): plan again (--plan or --resume)", plan.scene, dir,
                 now.scene_hash, plan.scene_hash);
        code = cloth__bad_input(msg);
    }
    if (!code)
        code = load_sweep(plan.scene, plan.sets, plan.n_sets, &sweep);
    if (!code) {
        snprintf(now.scene, sizeof now.scene, "%s", plan.scene);
        now.sets = plan.sets;
        now.n_sets = plan.n_sets;
        if (plan_make_ids(&now, sweep) != 0)
            code = cloth__bad_input("out of memory");
        for (int i = 0; !code && i < now.n_runs; i++)
            if (now.n_runs != plan.n_runs || strcmp(now.labels[i], plan.labels[i]) != 0 ||
                strcmp(now.ids[i], plan.ids[i]) != 0) {
                snprintf(msg, sizeof msg, "%s/plan.json: its runs are not those of %s (a plan "
                         "of another version of cloth?): plan again", dir, plan.scene);
                code = cloth__bad_input(msg);
            }
        now.sets = NULL;
        now.n_sets = 0;
    }
    if (!code) {
        cloth_error err;
        cloth_sweep_tally tally;
        if (cloth_sweep_collect(sweep, abs_dir, (const char *const *)now.ids,
                                &tally, &err) != CLOTH_OK) {
            fprintf(stderr, "cloth: %s\n", err.msg);
            code = EXIT_RUN_FAILED;
        } else {
            code = report_tally(dir, cloth_sweep_count(sweep), &tally);
        }
    }
    cloth_sweep_destroy(sweep);
    plan_free(&now);
    plan_free(&plan);
    return code;
}

enum { SWEEP_RUN, SWEEP_PLAN, SWEEP_RESUME };

/* cloth sweep: -j, --plan and --resume are ours; the scene, --set and --out go to
 * load_scene.  Every form writes the plan first (DIR/plan.json, DIR/jobs.tsv), so a sweep
 * that is stopped can be resumed. */
int cloth__cmd_sweep(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[2], "--collect") == 0) {
        if (argc != 4)
            return cloth__bad_input("usage: cloth sweep --collect DIR");
        return cmd_collect(argv[3]);
    }
    int jobs = 1, mode = SWEEP_RUN;
    cloth__scene_args a;
    if (cloth__scene_args_init(&a, argc))
        return EXIT_BAD_INPUT;
    for (int i = 0; i < argc; i++) {
        if (i >= 3 && strcmp(argv[i], "-j") == 0 && i + 1 < argc) {
            char *end;
            long j = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || j < 1 || j > 256) {
                cloth__scene_args_free(&a);
                return cloth__bad_input("-j: expected a whole number from 1 to 256");
            }
            jobs = (int)j;
        } else if (i >= 3 &&
                   (strcmp(argv[i], "--plan") == 0 || strcmp(argv[i], "--resume") == 0)) {
            int asked = argv[i][2] == 'p' ? SWEEP_PLAN : SWEEP_RESUME;
            if (mode != SWEEP_RUN && mode != asked) {
                cloth__scene_args_free(&a);
                return cloth__bad_input("--plan and --resume: one or the other");
            }
            mode = asked;
        } else {
            cloth__scene_args_keep(&a, argc, argv, i);
        }
    }
    /* the base scene every run starts from: the file with the --set overrides */
    cloth_scene base;
    const char *out_dir = NULL;
    int code = cloth__load_scene(a.argc, a.argv, &base, &out_dir);
    if (code) {
        cloth__scene_args_free(&a);
        return code;
    }
    char dir[1024], msg[2048];
    if (!out_dir) {
        cloth__default_out_dir("build/sweeps", argv[2], dir, sizeof dir);
        out_dir = dir;
    }
    sweep_plan plan = {.n_sets = a.n_sets, .sets = a.sets};
    snprintf(plan.scene, sizeof plan.scene, "%s", argv[2]);
    cloth_error err;
    cloth_sweep *sweep = NULL;
    if (!getcwd(plan.cwd, sizeof plan.cwd))
        code = cloth__bad_input("the current folder's path is too long");
    if (!code && plan_hash_file(argv[2], plan.scene_hash, msg, sizeof msg) != 0)
        code = cloth__bad_input(msg);
    if (!code && cloth_sweep_load(argv[2], &base, &sweep, &err) != CLOTH_OK)
        code = cloth__bad_input(err.msg);
    if (!code && plan_make_ids(&plan, sweep) != 0)
        code = cloth__bad_input("out of memory");
    if (!code && (make_dirs(out_dir, msg, sizeof msg) != 0 ||
                  plan_write(&plan, sweep, out_dir, argv[0], msg, sizeof msg) != 0)) {
        fprintf(stderr, "cloth: %s\n", msg);
        code = EXIT_RUN_FAILED;
    }
    int runs = sweep ? cloth_sweep_count(sweep) : 0;
    if (!code && mode == SWEEP_PLAN) {
        printf("%s/jobs.tsv: %d runs; run each line's command from %s, then cloth sweep "
               "--collect %s\n", out_dir, runs, plan.cwd, out_dir);
    } else if (!code) {
        cloth_sweep_def def;
        cloth_default_sweep_def(&def);
        def.jobs = jobs;
        def.progress = stderr;
        def.ids = (const char *const *)plan.ids;
        def.resume = mode == SWEEP_RESUME;
        def.table = mode == SWEEP_RUN;
        int not_ok = 0;
        cloth_sweep_tally tally;
        cloth_status st = cloth_sweep_execute(sweep, out_dir, &def, &not_ok, &err);
        if (st == CLOTH_OK && mode == SWEEP_RESUME)
            st = cloth_sweep_collect(sweep, out_dir, def.ids, &tally, &err);
        if (st != CLOTH_OK) {
            fprintf(stderr, "cloth: %s\n", err.msg);
            code = EXIT_RUN_FAILED;
        } else if (mode == SWEEP_RESUME) {
            code = report_tally(out_dir, runs, &tally);
        } else {
            printf("%s/sweep.csv: %d runs, %d ok, %d not ok\n", out_dir, runs, runs - not_ok,
                   not_ok);
        }
    }
    plan.sets = NULL;
    plan.n_sets = 0;
    plan_free(&plan);
    cloth__scene_args_free(&a);
    cloth_sweep_destroy(sweep);
    return code;
}
