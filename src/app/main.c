/*
 * cloth — the command line over the library.
 *
 *   cloth run SCENE.ini [--set section.key=value]... [--out DIR] [--record]
 *   cloth replay EVENTS.jsonl [--out DIR]
 *   cloth info SCENE.ini [--set ...]
 *   cloth sweep SCENE.ini [--set section.key=value]... [--out DIR] [-j N] [--plan | --resume]
 *   cloth sweep --collect DIR
 *   cloth stability SCENE.ini [--set ...]
 *   cloth list [--kernels]
 *   cloth serve SCENE.ini [--set section.key=value]... [--port N] [--web DIR] [--events DIR]
 *   cloth serve --replay DIR [--port N] [--web DIR]
 *   cloth garment PATTERN.json [--out DIR] [--kernel NAME] [--scene SCENE.ini]
 *                 [--avatar SCENE.ini] [--set ...]
 *
 * Exit codes: 0 success, 1 a run that failed (diverged, a failed step, I/O), 2 bad input.
 */
#include "cloth.h"
#include "app/body_distance.h"
#include "app/garment.h"
#include "app/plan.h"
#include "app/serve/serve.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXIT_RUN_FAILED 1
#define EXIT_BAD_INPUT 2

static void usage(FILE *out)
{
    fprintf(out,
            "usage: cloth run SCENE.ini [--set section.key=value]... [--out DIR] [--sweep-id ID]\n"
            "                 [--record]\n"
            "       cloth replay EVENTS.jsonl [--out DIR]\n"
            "       cloth info SCENE.ini [--set section.key=value]...\n"
            "       cloth sweep SCENE.ini [--set section.key=value]... [--out DIR] [-j N]\n"
            "                   [--plan | --resume]\n"
            "       cloth sweep --collect DIR\n"
            "       cloth stability SCENE.ini [--set section.key=value]...\n"
            "       cloth list [--kernels]\n"
            "       cloth serve SCENE.ini [--set section.key=value]... [--port N] [--web DIR]\n"
            "                   [--events DIR]\n"
            "       cloth serve --replay DIR [--port N] [--web DIR]\n"
            "       cloth garment PATTERN.json [--out DIR] [--kernel NAME] [--scene SCENE.ini]\n"
            "                     [--avatar SCENE.ini] [--set section.key=value]...\n"
            "       cloth body-distance SCENE.ini [--time T] [--set section.key=value]...\n"
            "\n"
            "run    simulates the scene and writes series.csv, summary.csv, final.obj\n"
            "       (and newton.csv) into DIR (default build/runs/SCENE); --record adds\n"
            "       cloth.pc2 (every frame's positions, a PC2 point cache for Blender's Mesh\n"
            "       Cache modifier) and cloth.obj (its topology)\n"
            "replay re-simulates the inputs a viewer recorded (serve --events) headless:\n"
            "       series.csv ... into DIR (default: a folder replay/ beside the file)\n"
            "sweep  runs every run the scene's [sweep] section declares into DIR/LABEL/\n"
            "       and joins their summaries in DIR/sweep.csv (default build/sweeps/SCENE);\n"
            "       --set applies to every run before the run's own overrides; -j N runs N\n"
            "       at a time.  DIR/plan.json and DIR/jobs.tsv (a `cloth run` command per\n"
            "       run) come first; --plan stops there; --collect DIR makes DIR/sweep.csv\n"
            "       from the run folders; --resume runs what has no result, then collects\n"
            "stability  prints omega_max (the springs' fastest angular frequency about the\n"
            "       initial shape) and h_max = 2/omega_max, the explicit step bound\n"
            "info   prints the mesh's vertex, triangle, spring and pin counts\n"
            "list   prints the kernels and every scene key with its default; --kernels\n"
            "       prints what the kernel table says of each kernel as CSV (cloth.h,\n"
            "       cloth_kernel_facts; an empty field is none)\n"
            "serve  runs the scene in the browser viewer on 127.0.0.1 (default port 8080,\n"
            "       page from src/app/serve/web); --events DIR records the page's inputs\n"
            "       to DIR/events.jsonl and the frames to DIR/series.csv (for cloth replay);\n"
            "       --replay DIR plays the recording of cloth run --record in DIR\n"
            "garment  meshes a sewing pattern's panels, sews them with the kernel (gravity\n"
            "       off) and welds the seams; writes DIR/panel_NAME.obj, placed.obj and\n"
            "       sewn.obj and prints vertices, triangles, smallest angle, steps to weld;\n"
            "       --avatar SCENE.ini (with an [avatar]) then tries it on: the scene's run\n"
            "       with the welded garment as its cloth, into DIR/tryon/\n"
            "body-distance  reads points \"x y z\" (m) from stdin and prints each one's\n"
            "       signed distance (m) to the scene's avatar posed at time T (default 0)\n");
}

static int bad_input(const char *msg)
{
    fprintf(stderr, "cloth: %s\n", msg);
    return EXIT_BAD_INPUT;
}

/* Loads the scene and applies the --set overrides; returns 0 or an exit code.  The
 * output folder, if asked for, comes back in *out_dir. */
static int load_scene(int argc, char **argv, cloth_scene *scene, const char **out_dir)
{
    cloth_error err;
    if (argc < 3)
        return bad_input("missing the scene file (see 'cloth help')");
    if (cloth_scene_load(argv[2], scene, &err) != CLOTH_OK)
        return bad_input(err.msg);
    int set_count = 0;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--set") == 0 && i + 1 < argc) {
            if (cloth_scene_set(scene, argv[++i], ++set_count, &err) != CLOTH_OK)
                return bad_input(err.msg);
        } else if (strncmp(argv[i], "--set=", 6) == 0) {
            if (cloth_scene_set(scene, argv[i] + 6, ++set_count, &err) != CLOTH_OK)
                return bad_input(err.msg);
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc && out_dir) {
            *out_dir = argv[++i];
        } else {
            char msg[256];
            snprintf(msg, sizeof msg, "unexpected argument '%s' (see 'cloth help')", argv[i]);
            return bad_input(msg);
        }
    }
    return 0;
}

/* load_scene, then the sim; returns 0 or an exit code: 2 for bad input, 1 when the
 * machine failed (out of memory). */
static int make_sim(int argc, char **argv, cloth_sim **sim, const char **out_dir)
{
    cloth_scene scene;
    int code = load_scene(argc, argv, &scene, out_dir);
    if (code)
        return code;
    cloth_error err;
    cloth_status st = cloth_sim_create(&scene, sim, &err);
    if (st == CLOTH_ENOMEM) {
        fprintf(stderr, "cloth: %s\n", err.msg);
        return 1;
    }
    if (st != CLOTH_OK)
        return bad_input(err.msg);
    return 0;
}

/* <parent>/<scene file name without folder and .ini> */
static void default_out_dir(const char *parent, const char *scene_path, char *buf,
                            size_t size)
{
    const char *base = strrchr(scene_path, '/');
    base = base ? base + 1 : scene_path;
    size_t len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".ini") == 0)
        len -= 4;
    snprintf(buf, size, "%s/%.*s", parent, (int)len, base);
}

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
    if (s->lin_capped > 0)
        fprintf(stderr, "cloth: %s: warning: %ld Newton solves stopped at newton.pcg_max_iters "
                "(lin_capped in summary.csv)\n", name, s->lin_capped);
    return 0;
}

/* cloth run; --sweep-id ID (what a sweep plan's jobs.tsv passes) marks the folder as that
 * run of the sweep once summary.csv is written (cloth_run_mark_done). */
static int cmd_run(int argc, char **argv)
{
    char **rest = malloc(sizeof(char *) * (size_t)(argc + 1));
    if (!rest)
        return bad_input("out of memory");
    int n;
    const char *sweep_id = take_option(argc, argv, "--sweep-id", rest, &n);
    int record = take_flag(rest, &n, "--record");
    if (sweep_id && (!*sweep_id || strpbrk(sweep_id, " \t\r\n"))) {
        free(rest);
        return bad_input("--sweep-id: expected one word");
    }
    const char *out_dir = NULL;
    cloth_sim *sim;
    int code = make_sim(n, rest, &sim, &out_dir);
    free(rest);
    if (code)
        return code;
    char dir[1024];
    if (!out_dir) {
        default_out_dir("build/runs", argv[2], dir, sizeof dir);
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
static int cmd_replay(int argc, char **argv)
{
    const char *out_dir = NULL;
    if (argc < 3)
        return bad_input("usage: cloth replay EVENTS.jsonl [--out DIR]");
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            out_dir = argv[++i];
        else
            return bad_input("usage: cloth replay EVENTS.jsonl [--out DIR]");
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
        return bad_input(err.msg);
    cloth_scene scene;
    int code = 0;
    if (cloth_scene_load(cloth_events_scene(ev), &scene, &err) != CLOTH_OK)
        code = bad_input(err.msg);
    for (int i = 0; !code && i < cloth_events_sets(ev); i++)
        if (cloth_scene_set(&scene, cloth_events_set(ev, i), i + 1, &err) != CLOTH_OK)
            code = bad_input(err.msg);
    cloth_sim *sim = NULL;
    if (!code && cloth_sim_create(&scene, &sim, &err) != CLOTH_OK)
        code = bad_input(err.msg);
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
        return bad_input(err.msg);
    if (st != CLOTH_OK) {
        fprintf(stderr, "cloth: %s\n", err.msg);
        return EXIT_RUN_FAILED;
    }
    return report_run(out_dir, argv[2], &s);
}

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
        return bad_input(err.msg);
    for (int s = 0; s < n_sets; s++)
        if (cloth_scene_set(&base, sets[s], s + 1, &err) != CLOTH_OK)
            return bad_input(err.msg);
    if (cloth_sweep_load(scene_path, &base, sweep, &err) != CLOTH_OK)
        return bad_input(err.msg);
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
        return bad_input(msg);
    int code = 0;
    cloth_sweep *sweep = NULL;
    if (!realpath(dir, abs_dir) || chdir(plan.cwd) != 0) {
        snprintf(msg, sizeof msg, "%s: cannot enter: %s (the folder the plan was made in)",
                 plan.cwd, strerror(errno));
        code = bad_input(msg);
    }
    if (!code && plan_hash_file(plan.scene, now.scene_hash, msg, sizeof msg) != 0)
        code = bad_input(msg);
    if (!code && strcmp(now.scene_hash, plan.scene_hash) != 0) {
        snprintf(msg, sizeof msg, "%s: the scene file changed since %s/plan.json was made "
                 "(FNV-1a %s, planned %s): plan again (--plan or --resume)", plan.scene, dir,
                 now.scene_hash, plan.scene_hash);
        code = bad_input(msg);
    }
    if (!code)
        code = load_sweep(plan.scene, plan.sets, plan.n_sets, &sweep);
    if (!code) {
        snprintf(now.scene, sizeof now.scene, "%s", plan.scene);
        now.sets = plan.sets;
        now.n_sets = plan.n_sets;
        if (plan_make_ids(&now, sweep) != 0)
            code = bad_input("out of memory");
        for (int i = 0; !code && i < now.n_runs; i++)
            if (now.n_runs != plan.n_runs || strcmp(now.labels[i], plan.labels[i]) != 0 ||
                strcmp(now.ids[i], plan.ids[i]) != 0) {
                snprintf(msg, sizeof msg, "%s/plan.json: its runs are not those of %s (a plan "
                         "of another version of cloth?): plan again", dir, plan.scene);
                code = bad_input(msg);
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
static int cmd_sweep(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[2], "--collect") == 0) {
        if (argc != 4)
            return bad_input("usage: cloth sweep --collect DIR");
        return cmd_collect(argv[3]);
    }
    int jobs = 1, mode = SWEEP_RUN;
    char **rest = malloc(sizeof(char *) * (size_t)(argc + 1));
    char **sets = malloc(sizeof(char *) * (size_t)(argc + 1));
    if (!rest || !sets) {
        free(rest);
        free(sets);
        return bad_input("out of memory");
    }
    int n = 0, n_sets = 0;
    for (int i = 0; i < argc; i++) {
        if (i >= 3 && strcmp(argv[i], "-j") == 0 && i + 1 < argc) {
            char *end;
            long j = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || j < 1 || j > 256) {
                free(rest);
                free(sets);
                return bad_input("-j: expected a whole number from 1 to 256");
            }
            jobs = (int)j;
            continue;
        }
        if (i >= 3 && (strcmp(argv[i], "--plan") == 0 || strcmp(argv[i], "--resume") == 0)) {
            int asked = argv[i][2] == 'p' ? SWEEP_PLAN : SWEEP_RESUME;
            if (mode != SWEEP_RUN && mode != asked) {
                free(rest);
                free(sets);
                return bad_input("--plan and --resume: one or the other");
            }
            mode = asked;
            continue;
        }
        if (i >= 3 && strcmp(argv[i], "--set") == 0 && i + 1 < argc)
            sets[n_sets++] = argv[i + 1];
        else if (i >= 3 && strncmp(argv[i], "--set=", 6) == 0)
            sets[n_sets++] = argv[i] + 6;
        rest[n++] = argv[i];
    }
    rest[n] = NULL;
    /* the base scene every run starts from: the file with the --set overrides */
    cloth_scene base;
    const char *out_dir = NULL;
    int code = load_scene(n, rest, &base, &out_dir);
    free(rest);
    if (code) {
        free(sets);
        return code;
    }
    char dir[1024], msg[2048];
    if (!out_dir) {
        default_out_dir("build/sweeps", argv[2], dir, sizeof dir);
        out_dir = dir;
    }
    sweep_plan plan = {.n_sets = n_sets, .sets = sets};
    snprintf(plan.scene, sizeof plan.scene, "%s", argv[2]);
    cloth_error err;
    cloth_sweep *sweep = NULL;
    if (!getcwd(plan.cwd, sizeof plan.cwd))
        code = bad_input("the current folder's path is too long");
    if (!code && plan_hash_file(argv[2], plan.scene_hash, msg, sizeof msg) != 0)
        code = bad_input(msg);
    if (!code && cloth_sweep_load(argv[2], &base, &sweep, &err) != CLOTH_OK)
        code = bad_input(err.msg);
    if (!code && plan_make_ids(&plan, sweep) != 0)
        code = bad_input("out of memory");
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
    free(sets);
    cloth_sweep_destroy(sweep);
    return code;
}

static int cmd_info(int argc, char **argv)
{
    cloth_scene scene;
    int code = load_scene(argc, argv, &scene, NULL);
    if (code)
        return code;
    cloth_error err;
    cloth_mesh *m = NULL;
    cloth_sim *sim = NULL;
    if (scene.mesh.garment[0]) { /* sewn by the simulation */
        if (cloth_sim_create(&scene, &sim, &err) != CLOTH_OK)
            return bad_input(err.msg);
        m = (cloth_mesh *)cloth_sim_mesh(sim);
    } else if (cloth_mesh_create(&scene, &m, &err) != CLOTH_OK) {
        return bad_input(err.msg);
    }
    printf("vertices: %d\ntriangles: %d\nsprings.structural: %d\nsprings.shear: %d\n"
           "springs.bend: %d\npinned: %d\n", m->n, m->n_tris,
           m->family_count[CLOTH_STRUCTURAL], m->family_count[CLOTH_SHEAR],
           m->family_count[CLOTH_BEND], m->n_pinned);
    if (sim)
        cloth_sim_destroy(sim);
    else
        cloth_mesh_destroy(m);
    return 0;
}

static int cmd_stability(int argc, char **argv)
{
    cloth_sim *sim;
    int code = make_sim(argc, argv, &sim, NULL);
    if (code)
        return code;
    cloth_error err;
    double w;
    cloth_status st = cloth_sim_omega_max(sim, &w, &err);
    cloth_sim_destroy(sim);
    if (st != CLOTH_OK)
        return bad_input(err.msg);
    printf("omega_max: %.17g\nh_max: %.17g\n", w, 2 / w);
    return 0;
}

/* The run's dt from DIR/summary.csv (its "dt" column); 0 when it has none. */
static double summary_dt(const char *dir)
{
    char path[1100], head[2048], row[4096];
    snprintf(path, sizeof path, "%s/summary.csv", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    double dt = 0;
    if (fgets(head, sizeof head, f) && fgets(row, sizeof row, f)) {
        int col = -1, i = 0;
        for (char *h = strtok(head, ",\n"); h; h = strtok(NULL, ",\n"), i++)
            if (strcmp(h, "dt") == 0)
                col = i;
        const char *field = row;
        for (i = 0; col >= 0 && i < col && field; i++) {
            field = strchr(field, ',');
            field = field ? field + 1 : NULL;
        }
        if (col >= 0 && field)
            dt = strtod(field, NULL);
    }
    fclose(f);
    return dt > 0 && dt < 1e3 ? dt : 0;
}

/* cloth serve --replay DIR: the mesh from DIR/cloth.obj, the frames from DIR/cloth.pc2
 * at the run's frame rate (1/dt, from DIR/summary.csv). */
static int serve_replay(const char *dir, cloth_serve_def *def)
{
    char path[1100], msg[1400];
    cloth_error err;
    cloth_scene scene;
    cloth_default_scene(&scene);
    snprintf(path, sizeof path, "mesh.obj=%s/cloth.obj", dir);
    if (cloth_scene_set(&scene, path, 1, &err) != CLOTH_OK ||
        cloth_scene_set(&scene, "mesh.pins=none", 2, &err) != CLOTH_OK)
        return bad_input(err.msg);
    double dt = summary_dt(dir);
    if (dt <= 0) {
        snprintf(msg, sizeof msg, "%s/summary.csv: no dt there: --replay takes the folder of "
                 "a finished 'cloth run --record'", dir);
        return bad_input(msg);
    }
    cloth_sim *sim;
    if (cloth_sim_create(&scene, &sim, &err) != CLOTH_OK)
        return bad_input(err.msg);
    snprintf(path, sizeof path, "%s/cloth.pc2", dir);
    cloth_pc2 *pc2;
    if (cloth_pc2_open(path, &pc2, &err) != CLOTH_OK) {
        cloth_sim_destroy(sim);
        return bad_input(err.msg);
    }
    cloth_pc2_info info;
    cloth_pc2_header(pc2, &info);
    int code = 0;
    if (info.points != cloth_sim_mesh(sim)->n || info.samples < 1) {
        snprintf(msg, sizeof msg, "%s: %d points in %d samples, but cloth.obj has %d vertices",
                 path, info.points, info.samples, cloth_sim_mesh(sim)->n);
        code = bad_input(msg);
    }
    def->replay = pc2;
    def->max_fps = fmin(1 / dt, 1000);
    if (!code && cloth_serve(sim, def, &err) != CLOTH_OK) {
        fprintf(stderr, "cloth: serve: %s\n", err.msg);
        code = EXIT_RUN_FAILED;
    }
    cloth_pc2_close(pc2);
    cloth_sim_destroy(sim);
    return code;
}

/* cloth serve: the scene's sim behind the viewer's server (serve.c). */
static int cmd_serve(int argc, char **argv)
{
    cloth_serve_def def;
    cloth_default_serve_def(&def);
    /* --port and --web are ours; the rest goes to load_scene */
    char **rest = malloc(sizeof(char *) * (size_t)(argc + 1));
    char **sets = malloc(sizeof(char *) * (size_t)(argc + 1));
    if (!rest || !sets) {
        free(rest);
        free(sets);
        return bad_input("out of memory");
    }
    const char *events_dir = NULL, *replay_dir = NULL;
    int n = 0, n_sets = 0;
    for (int i = 0; i < argc; i++) {
        if (i >= 3 && strcmp(argv[i], "--port") == 0 && i + 1 < argc) {
            char *end;
            long port = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || port < 1 || port > 65535) {
                free(rest);
                free(sets);
                return bad_input("--port: expected a port number in 1..65535");
            }
            def.port = (int)port;
        } else if (i >= 3 && strcmp(argv[i], "--web") == 0 && i + 1 < argc) {
            def.web_dir = argv[++i];
        } else if (i >= 3 && strcmp(argv[i], "--events") == 0 && i + 1 < argc) {
            events_dir = argv[++i];
        } else if (i == 2 && strcmp(argv[i], "--replay") == 0 && i + 1 < argc) {
            replay_dir = argv[++i];
        } else {
            if (i >= 3 && strcmp(argv[i], "--set") == 0 && i + 1 < argc)
                sets[n_sets++] = argv[i + 1];
            else if (i >= 3 && strncmp(argv[i], "--set=", 6) == 0)
                sets[n_sets++] = argv[i] + 6;
            rest[n++] = argv[i];
        }
    }
    rest[n] = NULL;
    if (replay_dir) {
        int code = n > 2 || events_dir ? bad_input("serve --replay DIR takes only --port "
                                                   "and --web")
                                       : serve_replay(replay_dir, &def);
        free(rest);
        free(sets);
        return code;
    }
    cloth_sim *sim;
    int code = make_sim(n, rest, &sim, NULL);
    free(rest);
    cloth_error err;
    cloth_status st = CLOTH_OK;
    if (!code && events_dir)
        st = cloth_session_open(sim, events_dir, argv[2], (const char *const *)sets, n_sets,
                                &def.session, &err);
    free(sets);
    if (code)
        return code;
    if (st == CLOTH_OK)
        st = cloth_serve(sim, &def, &err);
    cloth_error close_err;
    if (cloth_session_close(def.session, &close_err) != CLOTH_OK && st == CLOTH_OK) {
        st = CLOTH_EIO;
        err = close_err;
    }
    cloth_sim_destroy(sim);
    if (st != CLOTH_OK) {
        fprintf(stderr, "cloth: serve: %s\n", err.msg);
        return EXIT_RUN_FAILED;
    }
    return 0;
}

/* cloth list --kernels: the kernel table's facts, one CSV row a kernel, for scripts. */
static int list_kernel_facts(void)
{
    printf("name,interactive_max,dense_max,iteration_key,stiffness_key,stiffness_max,"
           "reports_cond,cond_off,frame_substeps\n");
    cloth_kernel_facts f;
    for (int i = 0; cloth_kernel_info(i, &f) == CLOTH_OK; i++)
        printf("%s,%d,%d,%s,%s,%.17g,%d,%s,%d\n", f.name, f.interactive_max, f.dense_max,
               f.iteration_key ? f.iteration_key : "", f.stiffness_key ? f.stiffness_key : "",
               f.stiffness_max, f.reports_cond, f.cond_off ? f.cond_off : "",
               f.frame_substeps);
    return 0;
}

static int cmd_list(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[2], "--kernels") == 0)
        return list_kernel_facts();
    if (argc > 2)
        return bad_input("list: the only option is --kernels");
    printf("kernels:\n");
    for (int i = 0; cloth_kernel_name(i); i++)
        printf("  %-10s %s\n", cloth_kernel_name(i), cloth_kernel_summary(i));
    printf("\nscene keys (section.key = default):\n");
    cloth_scene_print_keys(stdout, NULL);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_BAD_INPUT;
    }
    if (strcmp(argv[1], "run") == 0)
        return cmd_run(argc, argv);
    if (strcmp(argv[1], "sweep") == 0)
        return cmd_sweep(argc, argv);
    if (strcmp(argv[1], "stability") == 0)
        return cmd_stability(argc, argv);
    if (strcmp(argv[1], "info") == 0)
        return cmd_info(argc, argv);
    if (strcmp(argv[1], "list") == 0)
        return cmd_list(argc, argv);
    if (strcmp(argv[1], "serve") == 0)
        return cmd_serve(argc, argv);
    if (strcmp(argv[1], "replay") == 0)
        return cmd_replay(argc, argv);
    if (strcmp(argv[1], "garment") == 0)
        return cloth__cmd_garment(argc, argv);
    if (strcmp(argv[1], "body-distance") == 0)
        return cloth__cmd_body_distance(argc, argv);
    if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "cloth: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return EXIT_BAD_INPUT;
}
