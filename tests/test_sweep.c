/* Sweeps: the declared runs become rows of sweep.csv; failures are recorded, the sweep
 * goes on; the thread count does not change the results. */
#include "cloth.h"
#include "suites.h"
#include "testutil.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Two named runs crossed with two values: 4 runs; the forward run with a huge dt
 * diverges, and pins=99 cannot be built on a 4 x 3 grid. */
static const char *SWEEP =
    "[mesh]\nnx = 4\nny = 3\n"
    "[run]\nframes = 10\ndt = 0.01\nsubsteps = 10\n"
    "[sweep]\n"
    "run = sym: explicit.scheme=symplectic\n"
    "run = fwd: explicit.scheme=forward; run.dt=0.5\n"
    "run = nopin: mesh.pins=99\n"
    "vary = material.k_shear: 100, 300\n";

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[3][1 << 15];
    static int slot;
    char *b = buf[slot++ % 3];
    size_t n = fread(b, 1, sizeof buf[0] - 1, f);
    b[n] = '\0';
    fclose(f);
    return b;
}

/* Field k (0-based) of a CSV line without quoted fields, into out. */
static void field(const char *line, int k, char *out, size_t size)
{
    for (int i = 0; i < k && line; i++) {
        line = strchr(line, ',');
        line = line ? line + 1 : NULL;
    }
    size_t len = line ? strcspn(line, ",\n") : 0;
    snprintf(out, size, "%.*s", (int)len, line ? line : "");
}

/* Drops the wall_ms field (the second last) of every row. */
static void drop_timing(char *csv)
{
    char *out = csv;
    for (char *line = csv; *line;) {
        char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char *last = NULL, *second = NULL;
        for (char *p = line; p < line + len; p++)
            if (*p == ',') {
                second = last;
                last = p;
            }
        size_t head = second ? (size_t)(second - line) : len;
        memmove(out, line, head);
        out += head;
        if (last) {
            size_t tail = len - (size_t)(last - line);
            memmove(out, last, tail);
            out += tail;
        }
        *out++ = '\n';
        line += len + (end != NULL);
    }
    *out = '\0';
}

START_TEST(sweep_records_every_run_and_goes_on)
{
    const char *scene = tu_temp_file("sweep.ini", SWEEP);
    cloth_sweep *sw;
    cloth_error err;
    ck_assert_msg(cloth_sweep_load(scene, NULL, &sw, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_int_eq(cloth_sweep_count(sw), 6);
    ck_assert_str_eq(cloth_sweep_label(sw, 0), "sym/material.k_shear=100");
    ck_assert_str_eq(cloth_sweep_label(sw, 3), "fwd/material.k_shear=300");
    const char *dir = tu_temp_dir(5);
    int not_ok = -1;
    ck_assert_msg(cloth_sweep_run(sw, dir, 1, NULL, &not_ok, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_int_eq(not_ok, 4);
    char path[512];
    snprintf(path, sizeof path, "%s/sweep.csv", dir);
    char *csv = read_all(path);
    ck_assert(csv != NULL);
    /* header: label, the three override keys, the summary columns, message */
    ck_assert(strncmp(csv, "label,explicit.scheme,material.k_shear,run.dt,mesh.pins,kernel,", 62) == 0);
    const char *expect_status[6] = {"ok", "ok", "diverged", "diverged", "failed", "failed"};
    const char *line = strchr(csv, '\n') + 1;
    for (int r = 0; r < 6; r++) {
        char label[128], status[32], shear[32];
        field(line, 0, label, sizeof label);
        field(line, 2, shear, sizeof shear);
        field(line, 5 + 6, status, sizeof status);
        ck_assert_str_eq(label, cloth_sweep_label(sw, r));
        ck_assert_str_eq(shear, r % 2 ? "300" : "100");
        ck_assert_msg(strcmp(status, expect_status[r]) == 0, "run %d: %s", r, status);
        line = strchr(line, '\n') + 1;
    }
    ck_assert(*line == '\0');
    ck_assert_msg(strstr(csv, "mesh.pins: vertex 99 is out of range"), "%s", csv);
    /* each started run has its own folder with its files */
    snprintf(path, sizeof path, "%s/fwd_material.k_shear=100/series.csv", dir);
    ck_assert(read_all(path) != NULL);
    cloth_sweep_destroy(sw);
}
END_TEST

START_TEST(parallel_and_serial_sweeps_agree)
{
    const char *scene = tu_temp_file("sweep_j.ini", SWEEP);
    char cmd[512], out[4096];
    const char *a = tu_temp_dir(6), *b = tu_temp_dir(7);
    snprintf(cmd, sizeof cmd, "sweep %s --out %s -j 1", scene, a);
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 0);
    ck_assert_msg(strstr(out, "6 runs, 2 ok, 4 not ok"), "%s", out);
    snprintf(cmd, sizeof cmd, "sweep %s --out %s -j 2", scene, b);
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 0);
    char pa[512], pb[512];
    snprintf(pa, sizeof pa, "%s/sweep.csv", a);
    snprintf(pb, sizeof pb, "%s/sweep.csv", b);
    char *ta = read_all(pa), *tb = read_all(pb);
    ck_assert(ta && tb);
    drop_timing(ta);
    drop_timing(tb);
    ck_assert_str_eq(ta, tb);
}
END_TEST

/* The index of the column named name in the header (first line) of a CSV text, or -1. */
static int column_of(const char *csv, const char *name)
{
    size_t len = strlen(name);
    const char *p = csv;
    for (int k = 0; *p && *p != '\n'; k++) {
        size_t n = strcspn(p, ",\n");
        if (n == len && strncmp(p, name, len) == 0)
            return k;
        p += n + (p[n] == ',');
    }
    return -1;
}

/* --set gives every run its base: the run's own overrides come after it and win. */
START_TEST(set_applies_to_every_run_before_its_own_overrides)
{
    const char *scene = tu_temp_file("sweep_set.ini",
                                     "[mesh]\nnx = 4\nny = 3\n"
                                     "[run]\nframes = 10\ndt = 0.01\nsubsteps = 10\n"
                                     "[sweep]\n"
                                     "run = own: explicit.scheme=symplectic\n"
                                     "run = short: run.frames=2\n");
    const char *dir = tu_temp_dir(1);
    char cmd[512], out[4096];
    snprintf(cmd, sizeof cmd, "sweep %s --set run.frames=3 --set=mesh.nx=5 --out %s -j 2",
             scene, dir);
    ck_assert_msg(tu_run_cli(cmd, out, sizeof out) == 0, "%s", out);
    char path[512];
    snprintf(path, sizeof path, "%s/sweep.csv", dir);
    const char *csv = read_all(path);
    ck_assert(csv != NULL);
    int frames = column_of(csv, "frames"), vertices = column_of(csv, "vertices");
    ck_assert(frames > 0 && vertices > 0);
    static const char *const expect_frames[] = {"3", "2"};
    const char *line = csv;
    for (int r = 0; r < 2; r++) {
        line = strchr(line, '\n') + 1;
        char f[32], v[32];
        field(line, frames, f, sizeof f);
        field(line, vertices, v, sizeof v);
        ck_assert_str_eq(f, expect_frames[r]);
        ck_assert_str_eq(v, "15"); /* 5 x 3 */
    }
    /* the library: the same with a base scene the caller made */
    cloth_scene base;
    cloth_error err;
    ck_assert(cloth_scene_load(scene, &base, &err) == CLOTH_OK);
    ck_assert(cloth_scene_set(&base, "run.frames=1", 1, &err) == CLOTH_OK);
    cloth_sweep *sw;
    ck_assert_msg(cloth_sweep_load(scene, &base, &sw, &err) == CLOTH_OK, "%s", err.msg);
    const char *lib_dir = tu_temp_dir(2);
    int not_ok = -1;
    ck_assert(cloth_sweep_run(sw, lib_dir, 1, NULL, &not_ok, &err) == CLOTH_OK);
    ck_assert_int_eq(not_ok, 0);
    cloth_sweep_destroy(sw);
    snprintf(path, sizeof path, "%s/own/summary.csv", lib_dir);
    csv = read_all(path);
    ck_assert(csv != NULL);
    char f[32];
    field(strchr(csv, '\n') + 1, column_of(csv, "frames"), f, sizeof f);
    ck_assert_str_eq(f, "1");
    /* a bad --set is bad input, named */
    snprintf(cmd, sizeof cmd, "sweep %s --set run.dt=-1 --out %s", scene, dir);
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "run.dt: -1 is out of range"), "%s", out);
}
END_TEST

START_TEST(bad_sweep_lines_name_file_line_and_key)
{
    static const struct { const char *text, *needle; } cases[] = {
        {"[run]\nframes = 1\n[sweep]\nrun = a: run.dt=-1\n", ":4: run.dt: "},
        {"[run]\nframes = 1\n[sweep]\nrun = a: run.colour=1\n", ":4: run.colour: "},
        {"[run]\nframes = 1\n[sweep]\nwalk = a\n", ":4: sweep.walk: "},
        {"[run]\nframes = 1\n[sweep]\nrun = a\n", ":4: sweep.run: "},
        {"[run]\nframes = 1\n[sweep]\nrun = a: run.dt=0.1\nrun = a: run.dt=0.2\n",
         ":5: sweep.run: two runs"},
        {"[run]\nframes = 1\n[sweep]\nvary = run.dt:\n", ":4: sweep.vary: "},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *scene = tu_temp_file("badsweep.ini", cases[c].text);
        cloth_sweep *sw;
        cloth_error err;
        ck_assert(cloth_sweep_load(scene, NULL, &sw, &err) != CLOTH_OK);
        ck_assert_msg(strstr(err.msg, cases[c].needle), "case %zu: %s", c, err.msg);
        char cmd[512], out[2048];
        snprintf(cmd, sizeof cmd, "sweep %s --out %s", scene, tu_temp_dir(0));
        ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 2);
    }
}
END_TEST

/* ------------------------------------------------------- plans and collection */

/* dir/name as a fresh buffer without its timing column (the caller frees it), or NULL. */
static char *table_without_timing(const char *dir)
{
    char *csv = tu_slurp(dir, "sweep.csv");
    if (csv)
        drop_timing(csv);
    return csv;
}

static int exists(const char *dir, const char *name)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    return stat(path, &st) == 0;
}

/* Runs every command of dir/jobs.tsv with sh, from here (where the plan was made). */
static void run_jobs(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cut -f2- '%s/jobs.tsv' | sh >/dev/null 2>&1", dir);
    ck_assert(system(cmd) != -1);
}

/* --plan runs nothing and writes one job per run; the jobs, run by hand and collected,
 * give the local sweep's table apart from timings, and collecting a local sweep gives
 * its table to the byte. */
START_TEST(planned_jobs_collect_into_the_local_table)
{
    const char *scene = tu_temp_file("sweep_plan.ini", SWEEP);
    const char *local = tu_temp_dir(1), *planned = tu_temp_dir(2);
    char cmd[600], out[4096];
    snprintf(cmd, sizeof cmd, "sweep %s --out %s -j 2", scene, local);
    ck_assert_msg(tu_run_cli(cmd, out, sizeof out) == 0, "%s", out);
    char *made = tu_slurp(local, "sweep.csv");
    snprintf(cmd, sizeof cmd, "sweep --collect %s", local);
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "2 failed, 2 diverged"), "%s", out);
    char *collected = tu_slurp(local, "sweep.csv");
    ck_assert(made && collected);
    ck_assert_str_eq(made, collected);
    free(made);
    free(collected);

    snprintf(cmd, sizeof cmd, "sweep %s --plan --out %s/sub", scene, planned);
    ck_assert_msg(tu_run_cli(cmd, out, sizeof out) == 0, "%s", out);
    char dir[512];
    snprintf(dir, sizeof dir, "%s/sub", planned);
    ck_assert(exists(dir, "plan.json"));
    ck_assert(!exists(dir, "sym_material.k_shear=100")); /* nothing ran */
    char *jobs = tu_slurp(dir, "jobs.tsv");
    ck_assert(jobs != NULL);
    int lines = 0;
    for (const char *l = jobs; *l; l = strchr(l, '\n') + 1)
        lines++;
    ck_assert_int_eq(lines, 6);
    ck_assert_msg(strncmp(jobs, "sym/material.k_shear=100\t", 25) == 0, "%s", jobs);
    ck_assert_msg(strstr(jobs, " run ") && strstr(jobs, " --set mesh.pins=99 ") &&
                  strstr(jobs, "/sub/fwd_material.k_shear=300 --sweep-id "), "%s", jobs);
    free(jobs);
    /* before the jobs: the runs that can start are missing, the others failed */
    snprintf(cmd, sizeof cmd, "sweep --collect %s", dir);
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "4 missing, 0 stale, 2 failed, 0 diverged"), "%s", out);
    run_jobs(dir);
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "0 missing, 0 stale, 2 failed, 2 diverged"), "%s", out);
    char *a = table_without_timing(local), *b = table_without_timing(dir);
    ck_assert(a && b);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
}
END_TEST

/* A folder made by another plan is stale; resuming reruns it, and only what has no
 * result of this plan. */
START_TEST(other_plans_folders_are_stale_and_resume_reruns_them)
{
    const char *scene = tu_temp_file("sweep_stale.ini", SWEEP);
    const char *dir = tu_temp_dir(3), *fresh = tu_temp_dir(4);
    char cmd[600], out[4096];
    snprintf(cmd, sizeof cmd, "sweep %s --set run.frames=3 --out %s", scene, dir);
    ck_assert_msg(tu_run_cli(cmd, out, sizeof out) == 0, "%s", out);
    snprintf(cmd, sizeof cmd, "sweep %s --set run.frames=4 --plan --out %s", scene, dir);
    ck_assert_msg(tu_run_cli(cmd, out, sizeof out) == 0, "%s", out);
    snprintf(cmd, sizeof cmd, "sweep --collect %s", dir);
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "0 missing, 4 stale, 2 failed"), "%s", out);
    /* a resumed run is run again: its series.csv changes; a fresh one is left alone */
    snprintf(cmd, sizeof cmd, "sweep %s --set run.frames=4 --resume --out %s -j 2", scene, dir);
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "0 missing, 0 stale, 2 failed, 2 diverged"), "%s", out);
    ck_assert_msg(strstr(out, "[  6/6 "), "%s", out);
    /* again: only the two runs that cannot start are tried (they have no result) */
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "[  2/2 ") && !strstr(out, ": ok\n"), "%s", out);
    snprintf(cmd, sizeof cmd, "sweep %s --set run.frames=4 --out %s", scene, fresh);
    ck_assert_msg(tu_run_cli(cmd, out, sizeof out) == 0, "%s", out);
    char *a = table_without_timing(fresh), *b = table_without_timing(dir);
    ck_assert(a && b);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
}
END_TEST

/* Bad input to --collect: exit 2, a clear message, nothing deleted. */
START_TEST(collect_refuses_bad_plans)
{
    const char *scene = tu_temp_file("sweep_bad_plan.ini", SWEEP);
    const char *dir = tu_temp_dir(5);
    char cmd[600], out[4096];
    snprintf(cmd, sizeof cmd, "sweep --collect %s", dir);
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "plan.json: cannot read") && strstr(out, "--plan"), "%s", out);
    snprintf(cmd, sizeof cmd, "sweep %s --out %s --set run.frames=2", scene, dir);
    ck_assert_msg(tu_run_cli(cmd, out, sizeof out) == 0, "%s", out);
    char *before = tu_slurp(dir, "sweep.csv");
    /* the scene file changes after planning */
    FILE *f = fopen(scene, "a");
    ck_assert(f != NULL);
    fputs("# edited\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "sweep --collect %s", dir);
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "the scene file changed since"), "%s", out);
    char *after = tu_slurp(dir, "sweep.csv");
    ck_assert(before && after);
    ck_assert_str_eq(before, after);
    ck_assert(exists(dir, "sym_material.k_shear=100/summary.csv"));
    free(before);
    free(after);
    /* a plan that is not one */
    char path[512];
    snprintf(path, sizeof path, "%s/plan.json", dir);
    f = fopen(path, "w");
    ck_assert(f != NULL);
    fputs("{\"format\": 1}\n", f);
    fclose(f);
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "not a plan"), "%s", out);
    ck_assert(exists(dir, "sym_material.k_shear=100/summary.csv"));
    /* one mode at a time */
    snprintf(cmd, sizeof cmd, "sweep %s --plan --resume --out %s", scene, dir);
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "one or the other"), "%s", out);
    /* labels that collide once made folder names */
    const char *twins = tu_temp_file("sweep_twins.ini", "[run]\nframes = 1\n[sweep]\n"
                                     "run = a b: run.dt=0.1\nrun = a_b: run.dt=0.2\n");
    snprintf(cmd, sizeof cmd, "sweep %s --plan --out %s", twins, tu_temp_dir(6));
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 2);
    ck_assert_msg(strstr(out, ":5: sweep.run: two runs are named 'a_b'"), "%s", out);
}
END_TEST

/* Killed with SIGKILL at any moment and resumed, a sweep gives the table of one never
 * stopped (timings aside): the kill lands at growing delays, from before the first run
 * to after the last, and once as soon as the first run folder appears. */
static const char *SLOW =
    "[mesh]\nnx = 20\nny = 20\n"
    "[run]\nframes = 100\ndt = 0.01\nsubsteps = 4\n"
    "[sweep]\n"
    "run = sym: explicit.scheme=symplectic\n"
    "run = fwd: explicit.scheme=forward; run.dt=0.5\n"
    "run = nopin: mesh.pins=999\n"
    "vary = material.k_shear: 100, 200, 300\n";

static pid_t start_cli(const char *scene, const char *dir)
{
    const char *bin = getenv("CLOTH_BIN");
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execl(bin ? bin : "../build/cloth", "cloth", "sweep", scene, "--out", dir, "-j", "2",
              (char *)NULL);
        _exit(127);
    }
    return pid;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

START_TEST(killed_and_resumed_sweeps_match_uninterrupted_ones)
{
    const char *scene = tu_temp_file("sweep_kill.ini", SLOW);
    const char *whole = tu_temp_dir(7);
    char cmd[600], out[8192];
    snprintf(cmd, sizeof cmd, "sweep %s --out %s -j 2", scene, whole);
    ck_assert_msg(tu_run_cli(cmd, out, sizeof out) == 0, "%s", out);
    char *expect = table_without_timing(whole);
    ck_assert(expect != NULL);
    static const long delays_ms[] = {-1, 0, 5, 20, 50, 100, 150, 220, 400};
    int interrupted = 0;
    for (size_t k = 0; k < sizeof delays_ms / sizeof delays_ms[0]; k++) {
        const char *dir = tu_temp_dir(0);
        pid_t pid = start_cli(scene, dir);
        ck_assert(pid > 0);
        if (delays_ms[k] < 0) /* as soon as the first run's folder is there */
            for (int t = 0; t < 5000 && !exists(dir, "sym_material.k_shear=100"); t++)
                sleep_ms(1);
        else
            sleep_ms(delays_ms[k]);
        kill(pid, SIGKILL);
        int status;
        waitpid(pid, &status, 0);
        interrupted += !exists(dir, "sweep.csv");
        snprintf(cmd, sizeof cmd, "sweep %s --resume --out %s -j 2", scene, dir);
        int code = tu_run_cli(cmd, out, sizeof out);
        ck_assert_msg(code == 1 && strstr(out, "0 missing, 0 stale, 3 failed, 3 diverged"),
                      "kill after %ld ms: exit %d: %s", delays_ms[k], code, out);
        char *got = table_without_timing(dir);
        ck_assert(got != NULL);
        ck_assert_msg(strcmp(got, expect) == 0, "kill after %ld ms:\n%s\nvs\n%s", delays_ms[k],
                      got, expect);
        free(got);
    }
    ck_assert_msg(interrupted >= 3, "only %d kills stopped the sweep: make it slower",
                  interrupted);
    free(expect);
}
END_TEST

Suite *suite_sweep(void)
{
    Suite *s = suite_create("sweep");
    TCase *tc = tcase_create("sweep");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, sweep_records_every_run_and_goes_on);
    tcase_add_test(tc, parallel_and_serial_sweeps_agree);
    tcase_add_test(tc, bad_sweep_lines_name_file_line_and_key);
    tcase_add_test(tc, set_applies_to_every_run_before_its_own_overrides);
    tcase_add_test(tc, planned_jobs_collect_into_the_local_table);
    tcase_add_test(tc, other_plans_folders_are_stale_and_resume_reruns_them);
    tcase_add_test(tc, collect_refuses_bad_plans);
    tcase_add_test(tc, killed_and_resumed_sweeps_match_uninterrupted_ones);
    suite_add_tcase(s, tc);
    return s;
}
