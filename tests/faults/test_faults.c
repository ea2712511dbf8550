/*
 * Fault injection (SQLite's method): an operation is run with its k-th allocation (or
 * file open, close or rename) made to fail, for k = 1, 2, ... until it runs with no
 * failure at all.  Every failed run must
 *   - return the library's status for it (CLOTH_ENOMEM with "out of memory", CLOTH_EIO
 *     with the file's name) and leave nothing allocated or open (inject.c counts the
 *     blocks and FILEs; make sanitize adds ASan and LSan),
 *   - leave no half-written file under a final name: every output file that exists
 *     equals the one a run without faults writes,
 *   - and, for a live change, leave the sim as it was and able to go on.
 * Each failure is tried once (only the k-th call fails) and persistently (every call
 * from the k-th on fails), for each kernel of the table where the operation has one.
 */
#define _GNU_SOURCE /* dladdr, to list the sites */
#include "cloth.h"
#include "inject.h"
#include "../testutil.h"

#include <check.h>
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Small, but with every part that allocates: a sphere, a floor, wind, lumped masses,
 * Provot strain limiting, dihedral bending, and Newton's self-contact, strain limit and
 * exact condition numbers. */
static const char *SCENE =
    "[mesh]\nnx = 5\nny = 4\nspacing = 0.1\nplane = xz\norigin = -0.2 0.3 -0.15\n"
    "pins = 0 4\n"
    "[material]\ndensity = 0.2\nspring_damping = 0.01\n"
    "[world]\nwind = 0 0 1\nturbulence = 0.3\n"
    "[sphere]\nradius = 0.2\noffset = 0.01\n"
    "[plane]\nheight = -0.5\n"
    "[run]\ndt = 0.01\nsubsteps = 2\nframes = 3\nself_collision = on\n"
    "[verlet]\nmode = provot\nstrain_limit = 0.1\n"
    "[pbd]\nbending = dihedral\n"
    "[newton]\nstrain_limit = 0.05\ncond = exact\n";

static const char *SWEEP_SUFFIX =
    "[sweep]\n"
    "run = fast: run.substeps=1\n"
    "run = slow: run.substeps=3\n"
    "vary = run.kernel: explicit, newton\n";

/* faults_sweep's sweep: two runs, one a kernel.  Each try runs the whole sweep, so the
 * tries cost the square of its allocations: SWEEP_SUFFIX's four runs made this one test
 * 50 of test_faults' 64 s of CPU (236 s under ASan), and failed the same 321 allocation
 * and 16 file call sites as these two (CLOTH_FAULT_SITES=1 lists them; 2026-12-06). */
static const char *SWEEP_TWO =
    "[sweep]\n"
    "run = fast: run.substeps=1\n"
    "vary = run.kernel: explicit, newton\n";

static const char *OUTPUTS[] = {"series.csv", "newton.csv", "final.obj", "summary.csv",
                                "cloth.obj", "cloth.pc2", "events.jsonl"};
#define N_OUTPUTS 7

/* ------------------------------------------------------------ the driver */

typedef struct op op;
struct op {
    const char *name;
    inject_kind kind;
    void (*prepare)(op *o);                 /* before each try, nothing injected   */
    cloth_status (*run)(op *o, cloth_error *err);
    void (*check)(op *o, cloth_status st, const cloth_error *err); /* a failed try */
    void (*cleanup)(op *o);                 /* after each try, nothing injected    */
    cloth_scene scene;
    cloth_sim *sim;
    cloth_sweep *sweep;                     /* loaded before the faults, or NULL   */
    const char *path;                       /* a scene or sweep file               */
    const char *dir;                        /* the output folder                   */
    const char *ref;                        /* a run's files without faults        */
    char kernel[CLOTH_NAME_MAX];
    int record;                             /* runs: 1 also writes cloth.pc2, cloth.obj */
    char problem[1024];                     /* the first unmet expectation of a try */
};

/* Within a try nothing may call Check (its library is linked in and allocates through
 * the same wrappers): an unmet expectation is written down and asserted after. */
#define EXPECT(o, cond, ...)                                                       \
    do {                                                                           \
        if (!(cond) && !(o)->problem[0])                                           \
            snprintf((o)->problem, sizeof (o)->problem, __VA_ARGS__);              \
    } while (0)

/* Runs o with the k-th call failing for k = 1, 2, ... until a run meets no failure;
 * returns the number of calls that run made (the injection points tried). */
static long inject_all(op *o, int persistent)
{
    for (long k = 1;; k++) {
        ck_assert_msg(k < 100000, "%s: no end", o->name);
        long live = inject_live(), files = inject_open_files(), failed;
        o->problem[0] = '\0';
        if (o->prepare)
            o->prepare(o);
        if (o->problem[0])
            ck_abort_msg("%s: %s", o->name, o->problem);
        cloth_error err = {""};
        inject_arm(o->kind, k, persistent);
        cloth_status st = o->run(o, &err);
        long calls = inject_disarm(&failed);
        if (failed == 0)
            EXPECT(o, st == CLOTH_OK, "%s without faults: %s", o->name, err.msg);
        else
            o->check(o, st, &err);
        if (o->cleanup)
            o->cleanup(o);
        long leaked = inject_live() - live, left_open = inject_open_files() - files;
        if (o->problem[0] || leaked || left_open)
            ck_abort_msg("%s, call %ld failed%s: %s; %ld blocks leaked, %ld FILEs left open",
                         o->name, k, persistent ? " on" : "", o->problem[0] ? o->problem : "ok",
                         leaked, left_open);
        if (failed == 0)
            return calls;
    }
}

static void inject_both(op *o)
{
    long calls = inject_all(o, 0);
    ck_assert_int_eq(inject_all(o, 1), calls);
}

static void check_nomem(op *o, cloth_status st, const cloth_error *err)
{
    EXPECT(o, st == CLOTH_ENOMEM && strstr(err->msg, "out of memory"),
                  "%s: an allocation failed, but status %d, '%s'", o->name, (int)st, err->msg);
}

/* A whole file's bytes (a PC2 holds NULs) into *len, or NULL. */
static char *read_bytes(const char *dir, const char *name, long *len)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)*len + 1);
    if (buf && fread(buf, 1, (size_t)*len, f) != (size_t)*len) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

/* Every output file in o->dir that exists is the one the faultless run wrote (timings
 * dropped). */
static void check_outputs_intact(op *o)
{
    long got_len = 0, want_len = -1;
    char *got = read_bytes(o->dir, "cloth.pc2", &got_len);
    char *want = got ? read_bytes(o->ref, "cloth.pc2", &want_len) : NULL;
    EXPECT(o, !got || (want && got_len == want_len && memcmp(got, want, (size_t)got_len) == 0),
           "%s: %s/cloth.pc2 differs from a faultless run's", o->name, o->dir);
    free(got);
    free(want);
    for (int f = 0; f < N_OUTPUTS; f++) {
        if (strcmp(OUTPUTS[f], "cloth.pc2") == 0)
            continue; /* binary, compared above */
        char *got = tu_slurp(o->dir, OUTPUTS[f]);
        if (!got)
            continue;
        char *want = tu_slurp(o->ref, OUTPUTS[f]);
        EXPECT(o, want, "%s: %s/%s exists but a faultless run writes none", o->name,
                      o->dir, OUTPUTS[f]);
        if (strstr(OUTPUTS[f], ".csv") && strcmp(OUTPUTS[f], "newton.csv") != 0) {
            tu_drop_last_column(got);
            tu_drop_last_column(want);
        }
        EXPECT(o, strcmp(got, want) == 0, "%s: %s/%s differs from a faultless run's",
                      o->name, o->dir, OUTPUTS[f]);
        free(got);
        free(want);
    }
}

static void scene_for(op *o, int kernel)
{
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(SCENE, "faults.ini", &o->scene, &err) == CLOTH_OK, "%s",
                  err.msg);
    snprintf(o->kernel, sizeof o->kernel, "%s", cloth_kernel_name(kernel));
    char set[64];
    snprintf(set, sizeof set, "run.kernel=%s", o->kernel);
    ck_assert(cloth_scene_set(&o->scene, set, 1, &err) == CLOTH_OK);
}

/* ------------------------------------------------------ scenes and meshes */

static cloth_status run_scene_load(op *o, cloth_error *err)
{
    return cloth_scene_load(o->path, &o->scene, err);
}

START_TEST(alloc_scene_load)
{
    static const char *files[] = {"../experiments/hanging.ini", "../experiments/drape.ini",
                                  "../experiments/two_sheets.ini"};
    op o = {.name = files[_i], .kind = INJECT_ALLOC, .run = run_scene_load,
            .check = check_nomem, .path = files[_i]};
    inject_both(&o);
}
END_TEST

static cloth_status run_mesh_create(op *o, cloth_error *err)
{
    cloth_mesh *mesh;
    cloth_status st = cloth_mesh_create(&o->scene, &mesh, err);
    if (st == CLOTH_OK)
        cloth_mesh_destroy(mesh);
    return st;
}

START_TEST(alloc_mesh_create)
{
    static const char *files[] = {"../experiments/hanging.ini", "../experiments/two_sheets.ini"};
    op o = {.name = files[_i], .kind = INJECT_ALLOC, .run = run_mesh_create,
            .check = check_nomem};
    cloth_error err;
    ck_assert(cloth_scene_load(files[_i], &o.scene, &err) == CLOTH_OK);
    inject_both(&o);
}
END_TEST

/* ------------------------------------------------------------------- sims */

static cloth_status run_sim_create(op *o, cloth_error *err)
{
    cloth_sim *sim;
    cloth_status st = cloth_sim_create(&o->scene, &sim, err);
    if (st == CLOTH_OK)
        cloth_sim_destroy(sim);
    return st;
}

/* Every kernel, then every kernel again with self-collision's triangles (their incidence
 * lists are allocated only then). */
START_TEST(alloc_sim_create)
{
    op o = {.name = "sim create", .kind = INJECT_ALLOC, .run = run_sim_create,
            .check = check_nomem};
    cloth_error err;
    scene_for(&o, _i % cloth_kernel_count());
    if (_i >= cloth_kernel_count())
        ck_assert(cloth_scene_set(&o.scene, "run.self_collision=proximity", 2, &err) ==
                  CLOTH_OK);
    inject_both(&o);
}
END_TEST

/* A garment (mesh.garment): the pattern read, two panels meshed by Bowyer-Watson, a seam
 * paired with a split (its sides are cut differently), the sewing mesh and its sim (b's
 * top 1 cm below a's bottom: the sewing takes frames), the weld and the welded mesh.
 * cJSON's own allocations are not made to fail (it is a shared library; only the
 * project's calls are wrapped). */
START_TEST(alloc_garment_sim_create)
{
    const char *pattern = tu_temp_file("faults_pattern.json",
        "{\"edge_length\": 1.5, \"panels\": [\n"
        " {\"name\": \"a\", \"outline\": [[0,0],[2,0],[5,0],[5,4],[0,4]],\n"
        "  \"edges\": [\"b1\", \"b2\", \"right\", \"top\", \"left\"]},\n"
        " {\"name\": \"b\", \"outline\": [[0,0],[5,0],[5,4],[0,4]],\n"
        "  \"edges\": [\"bottom\", \"right\", \"top\", \"left\"],\n"
        "  \"placement\": {\"offset\": [0, -5, 0]}}],\n"
        " \"seams\": [{\"a\": [\"a\", \"b1\", \"b2\"], \"b\": [\"b\", \"top\"],\n"
        "              \"reverse\": true}]}\n");
    char text[512];
    snprintf(text, sizeof text, "[mesh]\ngarment = %s\npins = none\n[run]\nkernel = %s\n"
             "substeps = 5\n", pattern, cloth_kernel_name(_i));
    op o = {.name = "garment sim create", .kind = INJECT_ALLOC, .run = run_sim_create,
            .check = check_nomem};
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(text, "garment.ini", &o.scene, &err) == CLOTH_OK, "%s",
                  err.msg);
    inject_both(&o);
}
END_TEST

/* A live change that rebuilds the kernel's work: a switch to the next kernel. */
static void prepare_live(op *o)
{
    cloth_error err;
    EXPECT(o, cloth_sim_create(&o->scene, &o->sim, &err) == CLOTH_OK, "%s", err.msg);
}

static cloth_status run_live_switch(op *o, cloth_error *err)
{
    char set[64];
    int next = 0;
    while (strcmp(cloth_kernel_name(next), o->kernel) != 0)
        next++;
    next = (next + 1) % cloth_kernel_count();
    snprintf(set, sizeof set, "run.kernel=%s", cloth_kernel_name(next));
    return cloth_sim_set(o->sim, set, err);
}

static void check_live(op *o, cloth_status st, const cloth_error *err)
{
    check_nomem(o, st, err);
    EXPECT(o, strcmp(cloth_sim_scene(o->sim)->run.kernel, o->kernel) == 0,
           "after a failed switch the kernel is %s", cloth_sim_scene(o->sim)->run.kernel);
    cloth_frame fr;
    cloth_error frame_err;
    EXPECT(o, cloth_sim_frame(o->sim, &fr, &frame_err) == CLOTH_OK,
                  "after a failed switch: %s", frame_err.msg);
}

static void cleanup_live(op *o)
{
    cloth_sim_destroy(o->sim);
    o->sim = NULL;
}

START_TEST(alloc_live_kernel_switch)
{
    op o = {.name = "live kernel switch", .kind = INJECT_ALLOC, .prepare = prepare_live,
            .run = run_live_switch, .check = check_live, .cleanup = cleanup_live};
    scene_for(&o, _i);
    inject_both(&o);
}
END_TEST

/* omega_max: the dense stiffness matrix and LAPACK's eigenvalues (sim/modes.c). */
static cloth_status run_omega_max(op *o, cloth_error *err)
{
    double w;
    return cloth_sim_omega_max(o->sim, &w, err);
}

START_TEST(alloc_omega_max)
{
    op o = {.name = "omega_max", .kind = INJECT_ALLOC, .prepare = prepare_live,
            .run = run_omega_max, .check = check_nomem, .cleanup = cleanup_live};
    scene_for(&o, 0);
    inject_both(&o);
}
END_TEST

/* ------------------------------------------------------------------- runs */

/* Empties dir (files and the folders of a sweep's runs); tu_temp_dir would start a
 * shell for each of the thousands of tries. */
static void empty_dir(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (depth < 2 && lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            empty_dir(path, depth + 1);
            rmdir(path);
        } else {
            unlink(path);
        }
    }
    if (d)
        closedir(d);
}

static void prepare_out(op *o)
{
    if (!o->dir)
        o->dir = tu_temp_dir(1);
    empty_dir(o->dir, 0);
}

static cloth_status run_run(op *o, cloth_error *err)
{
    cloth_summary s;
    return cloth_run(&o->scene, o->dir, NULL, &s, err);
}

static void check_run_nomem(op *o, cloth_status st, const cloth_error *err)
{
    check_nomem(o, st, err);
    check_outputs_intact(o);
}

static void reference_run(op *o)
{
    o->ref = tu_temp_dir(0);
    cloth_summary s;
    cloth_error err;
    cloth_sim *sim;
    cloth_output_def def;
    cloth_default_output_def(&def);
    def.record = o->record;
    ck_assert_msg(cloth_sim_create(&o->scene, &sim, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_msg(cloth_run_sim_with(sim, o->ref, &def, &s, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim_destroy(sim);
}

START_TEST(alloc_run)
{
    op o = {.name = "run", .kind = INJECT_ALLOC, .prepare = prepare_out, .run = run_run,
            .check = check_run_nomem};
    scene_for(&o, _i);
    reference_run(&o);
    inject_both(&o);
}
END_TEST

/* The sim exists before the faults: only the output files fail. */
static void prepare_io(op *o)
{
    prepare_out(o);
    cloth_error err;
    EXPECT(o, cloth_sim_create(&o->scene, &o->sim, &err) == CLOTH_OK, "%s", err.msg);
}

static cloth_status run_run_sim(op *o, cloth_error *err)
{
    cloth_summary s;
    cloth_output_def def;
    cloth_default_output_def(&def);
    def.record = o->record;
    return cloth_run_sim_with(o->sim, o->dir, &def, &s, err);
}

static void check_io(op *o, cloth_status st, const cloth_error *err)
{
    EXPECT(o, st == CLOTH_EIO, "%s: a file operation failed, but status %d, '%s'", o->name,
                  (int)st, err->msg);
    EXPECT(o, strstr(err->msg, o->dir), "%s: the message names no file: '%s'", o->name,
                  err->msg);
    check_outputs_intact(o);
}

START_TEST(io_run)
{
    op o = {.name = "run files", .kind = INJECT_IO, .prepare = prepare_io, .run = run_run_sim,
            .check = check_io, .cleanup = cleanup_live};
    scene_for(&o, _i);
    reference_run(&o);
    inject_both(&o);
}
END_TEST

/* A recorded run (cloth.pc2, cloth.obj): the files fail in turn, and with the sim made
 * before, the allocations of the run (the PC2 writer's). */
START_TEST(io_record)
{
    op o = {.name = "recorded run files", .kind = _i ? INJECT_ALLOC : INJECT_IO,
            .prepare = prepare_io, .run = run_run_sim,
            .check = _i ? check_run_nomem : check_io, .cleanup = cleanup_live, .record = 1};
    scene_for(&o, 0);
    reference_run(&o);
    inject_both(&o);
}
END_TEST

/* A viewer session (events.jsonl, series.csv): open, a frame, an input, a frame, close;
 * a failure ends it, and closing it still frees everything. */
static cloth_status run_session(op *o, cloth_error *err)
{
    static const char *const sets[] = {"run.frames=3"};
    cloth_session *ss;
    cloth_status st = cloth_session_open(o->sim, o->dir, "faults.ini", sets, 1, &ss, err);
    if (st != CLOTH_OK)
        return st;
    cloth_frame fr;
    cloth_input in = {.kind = CLOTH_INPUT_SET, .assignment = "world.wind=1 0 0"};
    st = cloth_session_frame(ss, &fr, err);
    if (st == CLOTH_OK)
        st = cloth_session_input(ss, &in, NULL, err);
    if (st == CLOTH_OK)
        st = cloth_session_frame(ss, &fr, err);
    cloth_error close_err;
    cloth_status closed = cloth_session_close(ss, &close_err);
    if (st == CLOTH_OK && closed != CLOTH_OK) {
        *err = close_err;
        st = closed;
    }
    return st;
}

static void reference_session(op *o)
{
    o->ref = tu_temp_dir(0);
    const char *dir = o->dir;
    o->dir = o->ref;
    cloth_error err;
    ck_assert_msg(cloth_sim_create(&o->scene, &o->sim, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_msg(run_session(o, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim_destroy(o->sim);
    o->sim = NULL;
    o->dir = dir;
}

START_TEST(faults_session)
{
    op o = {.name = "session files", .kind = _i ? INJECT_ALLOC : INJECT_IO,
            .prepare = prepare_io, .run = run_session,
            .check = _i ? check_run_nomem : check_io, .cleanup = cleanup_live};
    scene_for(&o, 0);
    reference_session(&o);
    inject_both(&o);
}
END_TEST

/* ----------------------------------------------------------------- sweeps */

/* With allocation faults the sweep is loaded and run; with file faults it is loaded
 * before (the scene file is input, not output). */
static cloth_status run_sweep(op *o, cloth_error *err)
{
    cloth_sweep *sw = o->sweep;
    if (!sw) {
        cloth_status st = cloth_sweep_load(o->path, NULL, &sw, err);
        if (st != CLOTH_OK)
            return st;
    }
    int not_ok;
    cloth_status st = cloth_sweep_run(sw, o->dir, 1, NULL, &not_ok, err);
    if (sw != o->sweep)
        cloth_sweep_destroy(sw);
    return st;
}

static void prepare_sweep_io(op *o)
{
    prepare_out(o);
    cloth_error err;
    EXPECT(o, cloth_sweep_load(o->path, NULL, &o->sweep, &err) == CLOTH_OK, "%s", err.msg);
}

static void cleanup_sweep_io(op *o)
{
    cloth_sweep_destroy(o->sweep);
    o->sweep = NULL;
}

/* A run that cannot start is a row "failed" with its reason; the sweep goes on. */
static void check_sweep(op *o, cloth_status st, const cloth_error *err, cloth_status want,
                        const char *reason)
{
    if (st == CLOTH_OK) {
        char *table = tu_slurp(o->dir, "sweep.csv");
        EXPECT(o, table && strstr(table, ",failed,") && strstr(table, reason),
                      "%s: a fault, yet sweep.csv records no failed run:\n%s", o->name,
                      table ? table : "(none)");
        free(table);
        return;
    }
    EXPECT(o, st == want && strstr(err->msg, reason), "%s: status %d, '%s'", o->name,
                  (int)st, err->msg);
}

static void check_sweep_nomem(op *o, cloth_status st, const cloth_error *err)
{
    check_sweep(o, st, err, CLOTH_ENOMEM, "out of memory");
}

/* A run's files that cannot be written, or the scene file that each run reads again
 * (input), make that run a failed row; only sweep.csv itself fails the sweep. */
static void check_sweep_io(op *o, cloth_status st, const cloth_error *err)
{
    check_sweep(o, st, err, CLOTH_EIO, st == CLOTH_OK ? "cannot " : o->dir);
}

START_TEST(faults_sweep)
{
    static char text[4096];
    snprintf(text, sizeof text, "%s%s", SCENE, SWEEP_TWO);
    op o = {.name = "sweep", .kind = _i ? INJECT_IO : INJECT_ALLOC,
            .prepare = _i ? prepare_sweep_io : prepare_out, .run = run_sweep,
            .check = _i ? check_sweep_io : check_sweep_nomem,
            .cleanup = _i ? cleanup_sweep_io : NULL,
            .path = tu_temp_file("faults_sweep.ini", text)};
    inject_both(&o);
}
END_TEST

/* Collecting a finished sweep (cloth_sweep_collect): a fault is an error that says what
 * failed, and sweep.csv stays the table of a faultless collect (it is written through
 * sweep.csv.part). */
static const char *const COLLECT_IDS[] = {"id0", "id1", "id2", "id3"};
static char *collect_reference;

static cloth_status run_collect(op *o, cloth_error *err)
{
    cloth_sweep_tally tally;
    return cloth_sweep_collect(o->sweep, o->dir, COLLECT_IDS, &tally, err);
}

static void check_collect(op *o, cloth_status st, const cloth_error *err)
{
    cloth_status want = o->kind == INJECT_ALLOC ? CLOTH_ENOMEM : CLOTH_EIO;
    const char *reason = o->kind == INJECT_ALLOC ? "out of memory" : "cannot ";
    EXPECT(o, st == want && strstr(err->msg, reason), "%s: status %d, '%s'", o->name, (int)st,
           err->msg);
    char *table = tu_slurp(o->dir, "sweep.csv");
    EXPECT(o, table && strcmp(table, collect_reference) == 0,
           "%s: sweep.csv is not the faultless table:\n%s", o->name, table ? table : "(none)");
    free(table);
}

START_TEST(faults_collect)
{
    static char text[4096];
    snprintf(text, sizeof text, "%s%s", SCENE, SWEEP_SUFFIX);
    op o = {.name = _i ? "collect (files)" : "collect (memory)",
            .kind = _i ? INJECT_IO : INJECT_ALLOC, .run = run_collect, .check = check_collect,
            .path = tu_temp_file("faults_collect.ini", text), .dir = tu_temp_dir(2)};
    cloth_error err;
    ck_assert_msg(cloth_sweep_load(o.path, NULL, &o.sweep, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_int_eq(cloth_sweep_count(o.sweep), 4);
    cloth_sweep_def def;
    cloth_default_sweep_def(&def);
    def.ids = COLLECT_IDS;
    ck_assert_msg(cloth_sweep_execute(o.sweep, o.dir, &def, NULL, &err) == CLOTH_OK, "%s",
                  err.msg);
    cloth_sweep_tally tally;
    ck_assert_msg(cloth_sweep_collect(o.sweep, o.dir, COLLECT_IDS, &tally, &err) == CLOTH_OK,
                  "%s", err.msg);
    ck_assert_int_eq(tally.missing + tally.stale + tally.failed, 0); /* every run has a result */
    collect_reference = tu_slurp(o.dir, "sweep.csv");
    ck_assert(collect_reference != NULL);
    inject_both(&o);
    free(collect_reference);
    cloth_sweep_destroy(o.sweep);
}
END_TEST

/* ------------------------------------------------------------------ steps */

/* No allocation inside a step (SPEC 8), counted by the same wrappers: every frame of
 * experiments/two_sheets.ini, where the upper sheet lands on the lower one, with
 * run.self_collision off, on and triangles (loop index: kernel * 3 + mode).  newton runs
 * with its allocation-free path (pcg, no condition numbers): CHOLMOD allocates in every
 * factorisation (src/linalg/README.md). */
/* Runs every frame of two_sheets.ini with the kernel and the settings (NULL-ended) and
 * counts the library's allocations; 0 when a setting does not exist (no such key). */
static long frames_allocations(const char *kernel, const char *const *sets)
{
    cloth_scene s;
    cloth_error err;
    char set[64];
    snprintf(set, sizeof set, "run.kernel=%s", kernel);
    ck_assert(cloth_scene_load("../experiments/two_sheets.ini", &s, &err) == CLOTH_OK);
    ck_assert_msg(cloth_scene_set(&s, set, 1, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert(cloth_scene_set(&s, "newton.solver=pcg", 2, &err) == CLOTH_OK);
    ck_assert(cloth_scene_set(&s, "newton.cond=off", 3, &err) == CLOTH_OK);
    for (int k = 0; sets[k]; k++)
        if (cloth_scene_set(&s, sets[k], k + 4, &err) != CLOTH_OK)
            return 0;
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    cloth_status st = CLOTH_OK;
    cloth_frame fr;
    inject_arm(INJECT_ALLOC, LONG_MAX, 0);
    for (int f = 0; f < s.run.frames && st == CLOTH_OK; f++)
        st = cloth_sim_frame(sim, &fr, &err);
    long calls = inject_disarm(NULL);
    ck_assert_msg(st == CLOTH_OK, "%s", err.msg);
    cloth_sim_destroy(sim);
    return calls;
}

START_TEST(frames_allocate_nothing)
{
    static const char *modes[] = {"off", "on", "proximity", "particles"};
    const char *kernel = cloth_kernel_name(_i / 4);
    char mode[64];
    snprintf(mode, sizeof mode, "run.self_collision=%s", modes[_i % 4]);
    const char *sets[] = {mode, NULL};
    long calls = frames_allocations(kernel, sets);
    ck_assert_msg(calls == 0, "%s with run.self_collision=%s: %ld allocations", kernel,
                  modes[_i % 4], calls);
}
END_TEST

/* The same in the coloured order on two threads, for the kernels that have one (the
 * OpenMP runtime's own memory is not the library's: the wrappers do not see it). */
START_TEST(coloured_frames_allocate_nothing)
{
    const char *kernel = cloth_kernel_name(_i);
    char order[64];
    snprintf(order, sizeof order, "%s.order=coloured", kernel);
    const char *sets[] = {order, "run.threads=2", NULL};
    long calls = frames_allocations(kernel, sets);
    ck_assert_msg(calls == 0, "%s coloured: %ld allocations", kernel, calls);
}
END_TEST

/* Creating a sim in the coloured order (colourings, structure of arrays) fails cleanly
 * at every allocation, for the kernels that have the order. */
START_TEST(alloc_sim_create_coloured)
{
    op o = {.name = "sim create coloured", .kind = INJECT_ALLOC, .run = run_sim_create,
            .check = check_nomem};
    cloth_error err;
    scene_for(&o, _i);
    char order[64];
    snprintf(order, sizeof order, "%s.order=coloured", o.kernel);
    if (cloth_scene_set(&o.scene, order, 2, &err) != CLOTH_OK)
        return; /* no order key */
    ck_assert(cloth_scene_set(&o.scene, "run.threads=2", 3, &err) == CLOTH_OK);
    inject_both(&o);
}
END_TEST

/* Recording a frame allocates nothing either: the PC2 writer's sample buffer is made
 * with the writer. */
START_TEST(record_appends_allocate_nothing)
{
    enum { N = 50 };
    char path[1100];
    snprintf(path, sizeof path, "%s/noalloc.pc2", tu_temp_dir(2));
    cloth_pc2_writer *w;
    cloth_error err;
    ck_assert_msg(cloth_pc2_create(path, N, 0.0f, 1.0f, &w, &err) == CLOTH_OK, "%s", err.msg);
    double x[3 * N] = {0};
    cloth_status st = CLOTH_OK;
    inject_arm(INJECT_ALLOC, LONG_MAX, 0);
    for (int k = 0; k < 5 && st == CLOTH_OK; k++)
        st = cloth_pc2_append(w, x, &err);
    long calls = inject_disarm(NULL);
    ck_assert_msg(st == CLOTH_OK, "%s", err.msg);
    ck_assert_msg(calls == 0, "%ld allocations in 5 appended samples", calls);
    ck_assert(cloth_pc2_finish(w, &err) == CLOTH_OK);
}
END_TEST

/* ---------------------------------------------------------------- numbers */

static int shard_part, shard_parts = 1, shard_index; /* main's K/N */

/* Not a check: prints how many distinct call sites were made to fail (the numbers of
 * docs/reliability.md).  It runs last. */
START_TEST(report_sites)
{
    printf("faults: %d allocation call sites and %d file call sites made to fail",
           inject_sites(INJECT_ALLOC), inject_sites(INJECT_IO));
    if (shard_parts > 1)
        printf(" (tries %d/%d: the sites of every try are those of a run without K/N)",
               shard_part, shard_parts);
    printf("\n");
    /* CLOTH_FAULT_SITES=1 lists them as offsets in the program for addr2line -e */
    if (getenv("CLOTH_FAULT_SITES"))
        for (int kind = 0; kind < 2; kind++)
            for (int i = 0; i < inject_sites((inject_kind)kind); i++) {
                Dl_info info;
                void *site = inject_site((inject_kind)kind, i);
                if (dladdr(site, &info) && info.dli_fbase)
                    printf("site %s 0x%lx\n", kind ? "file" : "alloc",
                           (unsigned long)((char *)site - (char *)info.dli_fbase - 1));
            }
}
END_TEST

/* Registers tries i in [start, end) of test f, those whose running number (counted over
 * every try of every test, in the order below) is K modulo N. */

static void add_tries(TCase *tc, const TTest *f, int start, int end)
{
    for (int i = start; i < end; i++)
        if (shard_index++ % shard_parts == shard_part)
            tcase_add_loop_test(tc, f, i, i + 1);
}

/* Every try, or with an argument K/N every N-th from the K-th (0-based), so that make
 * check can run the tries in N processes at once (make sanitize's ASan makes them the
 * slowest part of its run). */
int main(int argc, char **argv)
{
    if (argc > 1 && (sscanf(argv[1], "%d/%d", &shard_part, &shard_parts) != 2 ||
                     shard_parts < 1 || shard_part < 0 || shard_part >= shard_parts)) {
        fprintf(stderr, "usage: %s [K/N]   (the tries i with i mod N = K)\n", argv[0]);
        return 2;
    }
    Suite *s = suite_create("faults");
    TCase *tc = tcase_create("faults");
    tcase_set_timeout(tc, 600);
    int kernels = cloth_kernel_count();
    add_tries(tc, alloc_scene_load, 0, 3);
    add_tries(tc, alloc_mesh_create, 0, 2);
    add_tries(tc, alloc_sim_create, 0, 2 * kernels);
    add_tries(tc, alloc_garment_sim_create, 0, 3); /* explicit, verlet, pbd */
    add_tries(tc, alloc_live_kernel_switch, 0, kernels);
    add_tries(tc, alloc_omega_max, 0, 1);
    add_tries(tc, alloc_run, 0, kernels);
    add_tries(tc, io_run, 0, kernels);
    add_tries(tc, io_record, 0, 2);
    add_tries(tc, faults_session, 0, 2);
    add_tries(tc, faults_sweep, 0, 2);
    add_tries(tc, faults_collect, 0, 2);
    add_tries(tc, frames_allocate_nothing, 0, 4 * kernels);
    add_tries(tc, record_appends_allocate_nothing, 0, 1);
    add_tries(tc, coloured_frames_allocate_nothing, 0, kernels);
    add_tries(tc, alloc_sim_create_coloured, 0, kernels);
    tcase_add_test(tc, report_sites); /* in every share: the sites of its tries */
    suite_add_tcase(s, tc);
    SRunner *runner = srunner_create(s);
    /* one process: the sites counted by report_sites are those of every test above */
    srunner_set_fork_status(runner, CK_NOFORK);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
