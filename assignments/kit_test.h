/* A test program of an assignment: a table of named tests with points.
 *
 *   prog --list      one line per test: NAME POINTS
 *   prog NAME        runs that test alone; exit 0 when it passes, 1 when it fails
 *   prog             runs every test in this process (a student's quick look)
 *
 * The grader (assignments/grade.py) runs each test in its own process under a time
 * limit, so a crash or an endless loop costs only that test.  A test returns 0 when it
 * passes; KIT_CHECK prints what was expected and returns 1. */
#ifndef KIT_TEST_H
#define KIT_TEST_H

#include <stdio.h>
#include <string.h>

typedef struct kit_test {
    const char *name; /* the test's name in results.json           */
    double points;    /* its max_score                              */
    int (*run)(void); /* 0: passed; otherwise it printed why not    */
} kit_test;

#define KIT_CHECK(cond, ...)                                                             \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            printf("FAILED %s:%d: %s\n  ", __FILE__, __LINE__, #cond);                 \
            printf(__VA_ARGS__);                                                         \
            printf("\n");                                                                \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

static int kit_main(const kit_test *tests, int n, int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0); /* a crash keeps what was printed */
    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < n; i++)
            printf("%s %g\n", tests[i].name, tests[i].points);
        return 0;
    }
    int failed = 0;
    for (int i = 0; i < n; i++) {
        if (argc > 1 && strcmp(argv[1], tests[i].name) != 0)
            continue;
        int r = tests[i].run();
        printf("%s %s\n", r ? "FAIL" : "PASS", tests[i].name);
        failed += r != 0;
        if (argc > 1)
            return r != 0;
    }
    if (argc > 1) {
        printf("no test named %s\n", argv[1]);
        return 2;
    }
    return failed != 0;
}

#endif
