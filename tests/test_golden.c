/* Golden results: every kernel's series.csv (wall times dropped) and final.obj on the
 * scenes of tests/golden/ hash to the values in tests/golden/golden.tsv.  A change that
 * alters any kernel's results shows here; if it is meant, `make golden` rewrites the
 * table and the commit says why.  Only on x86-64 (the table's machine; OpenBLAS on one
 * thread, as make check runs it). */
#include "golden/golden.h"
#include "suites.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TABLE "golden/golden.tsv"

static int read_table(golden_row *rows, int max)
{
    FILE *f = fopen(TABLE, "r");
    ck_assert_msg(f, "%s: cannot open", TABLE);
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        ck_assert_int_lt(n, max);
        golden_row *r = &rows[n++];
        ck_assert_msg(sscanf(line, "%63s %31s %31s %16s", r->scene, r->kernel, r->file,
                             r->hash) == 4, "%s: bad line '%s'", TABLE, line);
    }
    fclose(f);
    return n;
}

START_TEST(every_kernel_matches_the_golden_table)
{
#if defined(__x86_64__)
    /* threaded OpenBLAS sums in another order: Newton's results change with the threads */
    const char *threads = getenv("OPENBLAS_NUM_THREADS");
    if (!threads || strcmp(threads, "1") != 0) {
        fprintf(stderr, "golden: not compared: OPENBLAS_NUM_THREADS is not 1 (make check sets it)\n");
        return;
    }
    golden_row want[GOLDEN_MAX_ROWS], got[GOLDEN_MAX_ROWS];
    int n_want = read_table(want, GOLDEN_MAX_ROWS);
    char why[600];
    int n_got = golden_compute("golden", tu_temp_dir(5), got, GOLDEN_MAX_ROWS, why, sizeof why);
    ck_assert_msg(n_got >= 0, "%s", why);
    char diff[4096] = "";
    for (int i = 0; i < n_got; i++) {
        const golden_row *w = NULL;
        for (int j = 0; j < n_want && !w; j++)
            if (strcmp(want[j].scene, got[i].scene) == 0 &&
                strcmp(want[j].kernel, got[i].kernel) == 0 &&
                strcmp(want[j].file, got[i].file) == 0)
                w = &want[j];
        if (!w || strcmp(w->hash, got[i].hash) != 0) {
            char row[256];
            snprintf(row, sizeof row, "\n  %s %s %s: %s, table %s", got[i].scene,
                     got[i].kernel, got[i].file, got[i].hash, w ? w->hash : "(no row)");
            strncat(diff, row, sizeof diff - strlen(diff) - 1);
        }
    }
    ck_assert_msg(!diff[0] && n_got == n_want,
                  "results differ from %s (%d rows, %d now):%s\nIf the change is meant: "
                  "make golden, and give the reason in the commit message.", TABLE, n_want,
                  n_got, diff);
#endif
}
END_TEST

START_TEST(fnv1a_known_values)
{
    /* the FNV-1a 64 reference values of "" and "a" */
    ck_assert(golden_fnv1a("") == 0xcbf29ce484222325ull);
    ck_assert(golden_fnv1a("a") == 0xaf63dc4c8601ec8cull);
}
END_TEST

Suite *suite_golden(void)
{
    Suite *s = suite_create("golden");
    TCase *tc = tcase_create("golden");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, fnv1a_known_values);
    tcase_add_test(tc, every_kernel_matches_the_golden_table);
    suite_add_tcase(s, tc);
    return s;
}
