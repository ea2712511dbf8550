/* Write failures through the CLI: a folder that cannot be made, a full disk, the output
 * removed while a run writes it.  Each must end in exit 1 with a message naming the file
 * or folder, and leave the files written before the failure whole.  Tests run as root, so
 * "not writable" is a path under a regular file or in /proc, not a chmod; "disk full" is
 * a NAME.part that is a link to /dev/full, where every write fails with ENOSPC.
 * (tests/faults/ makes every open, close and rename of the library fail in turn.) */
#include "suites.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Stable with every kernel and short: 21 rows of series.csv. */
static const char *SCENE = "[mesh]\nnx = 6\nny = 5\n[run]\nkernel = pbd\nframes = 20\n";

static int count_lines(const char *text)
{
    int n = 0;
    for (; text && *text; text++)
        n += *text == '\n';
    return n;
}

START_TEST(out_dir_under_a_regular_file)
{
    const char *scene = tu_temp_file("io.ini", SCENE);
    const char *file = tu_temp_file("io_plain", "not a folder\n");
    char args[1024], out[4096];
    snprintf(args, sizeof args, "run %s --out %s/out", scene, file);
    ck_assert_int_eq(tu_run_cli(args, out, sizeof out), 1);
    ck_assert_msg(strstr(out, file) && strstr(out, "cannot create folder"), "%s", out);
}
END_TEST

START_TEST(out_dir_in_proc)
{
    const char *scene = tu_temp_file("io.ini", SCENE);
    char args[1024], out[4096];
    snprintf(args, sizeof args, "run %s --out /proc/clothbench_out", scene);
    ck_assert_int_eq(tu_run_cli(args, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "/proc/clothbench_out: cannot create folder"), "%s", out);
    /* a folder that exists but takes no new files */
    snprintf(args, sizeof args, "run %s --out /proc/self", scene);
    ck_assert_int_eq(tu_run_cli(args, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "/proc/self/series.csv"), "%s", out);
}
END_TEST

/* The output files in the order a run finishes them. */
static const char *FILES[] = {"series.csv", "final.obj", "summary.csv"};

/* FILES[_i] goes to a full disk: the run fails naming it; the files before it are whole,
 * the failed one and those after it do not exist under their final names. */
START_TEST(disk_full)
{
    const char *scene = tu_temp_file("io.ini", SCENE);
    const char *dir = tu_temp_dir(2);
    char part[512], args[1024], out[4096];
    snprintf(part, sizeof part, "%s/%s.part", dir, FILES[_i]);
    ck_assert_int_eq(symlink("/dev/full", part), 0);
    snprintf(args, sizeof args, "run %s --out %s", scene, dir);
    ck_assert_int_eq(tu_run_cli(args, out, sizeof out), 1);
    char named[512];
    snprintf(named, sizeof named, "%s/%s: cannot write: No space left on device", dir,
             FILES[_i]);
    ck_assert_msg(strstr(out, named), "want '%s' in:\n%s", named, out);
    for (int f = 0; f < 3; f++) {
        char *text = tu_slurp(dir, FILES[f]);
        if (f >= _i) {
            ck_assert_msg(!text, "%s exists after %s failed", FILES[f], FILES[_i]);
            continue;
        }
        ck_assert_msg(text, "%s, written before %s failed, is gone", FILES[f], FILES[_i]);
        if (f == 0)
            ck_assert_int_eq(count_lines(text), 22); /* header + frames 0..20 */
        if (f == 1)
            ck_assert_int_eq(count_lines(text), 1 + 30 + 40); /* comment, v, f */
        free(text);
    }
}
END_TEST

/* A run whose output folder is removed while it writes: the files cannot be put in place
 * at the end; the run says which and exits 1.  The folder goes when the run reports 10 %,
 * with 90 % of a second's frames still to go. */
START_TEST(output_removed_mid_run)
{
    const char *scene =
        tu_temp_file("io_long.ini", "[mesh]\nnx = 8\nny = 8\n[run]\nkernel = pbd\nframes = 8000\n");
    const char *dir = tu_temp_dir(3);
    const char *bin = getenv("CLOTH_BIN");
    char cmd[1024], line[1024], all[8192] = "";
    snprintf(cmd, sizeof cmd, "%s run %s --out %s 2>&1", bin ? bin : "../build/cloth", scene,
             dir);
    FILE *p = popen(cmd, "r");
    ck_assert(p);
    int removed = 0;
    while (fgets(line, sizeof line, p)) {
        strncat(all, line, sizeof all - strlen(all) - 1);
        if (!removed && strstr(line, " 10%)")) {
            char rm[600];
            snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
            ck_assert_int_eq(system(rm), 0);
            removed = 1;
        }
    }
    int status = pclose(p);
    ck_assert(removed);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1, "exit %d:\n%s",
                  WEXITSTATUS(status), all);
    char named[512];
    snprintf(named, sizeof named, "%s/series.csv: cannot write: No such file or directory",
             dir);
    ck_assert_msg(strstr(all, named), "want '%s' in:\n%s", named, all);
}
END_TEST

/* sweep.csv goes to a full disk after every run finished: exit 1 naming it, and every
 * run's own files are whole. */
START_TEST(sweep_table_disk_full)
{
    char text[512];
    snprintf(text, sizeof text, "%s[sweep]\nvary = run.kernel: verlet, pbd\n", SCENE);
    const char *scene = tu_temp_file("io_sweep.ini", text);
    const char *dir = tu_temp_dir(4);
    char part[512], args[1024], out[4096];
    snprintf(part, sizeof part, "%s/sweep.csv.part", dir);
    ck_assert_int_eq(symlink("/dev/full", part), 0);
    snprintf(args, sizeof args, "sweep %s --out %s", scene, dir);
    ck_assert_int_eq(tu_run_cli(args, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "sweep.csv: cannot write: No space left on device"), "%s", out);
    for (int k = 0; k < 2; k++) {
        char sub[600];
        snprintf(sub, sizeof sub, "%s/run.kernel=%s", dir, k ? "pbd" : "verlet");
        char *summary = tu_slurp(sub, "summary.csv");
        ck_assert_msg(summary && count_lines(summary) == 2, "%s/summary.csv", sub);
        free(summary);
    }
    char *table = tu_slurp(dir, "sweep.csv");
    ck_assert_msg(!table, "sweep.csv exists after its write failed");
}
END_TEST

Suite *suite_io_failures(void)
{
    Suite *s = suite_create("io_failures");
    TCase *tc = tcase_create("io_failures");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, out_dir_under_a_regular_file);
    tcase_add_test(tc, out_dir_in_proc);
    tcase_add_loop_test(tc, disk_full, 0, 3);
    tcase_add_test(tc, output_removed_mid_run);
    tcase_add_test(tc, sweep_table_disk_full);
    suite_add_tcase(s, tc);
    return s;
}
