/* A test program of an assignment: a table of named tests with points.
 *
 *   prog --list              one line per test: NAME POINTS
 *   prog NAME                runs that test alone and says PASS or FAIL (a student's look)
 *   prog                     runs every test in this process (a student's quick look)
 *   prog --probe NAME FILE   the grader's probe: runs the test and writes, one a line, every
 *                            value the student's code produced (KIT_GOT) into FILE
 *   prog --judge NAME FILE   the grader's judge: the same test, but each KIT_GOT takes the
 *                            next value of FILE instead of its own; exit 0 when it passes
 *
 * The grader (assignments/kit.py) never believes the student's process: it runs the probe
 * (built with the student's code) in a scratch folder, then the judge, built from the
 * pristine tree (the stubs, never the student's code), which recomputes every expected
 * value itself and compares it with the numbers the probe wrote.  Only the judge's exit
 * status counts; what the probe prints, its exit status and a crash of it say nothing
 * (except that a crash or a timeout fails that test).  Every value a test reads from the
 * library (a status, a position, a returned number) goes through KIT_GOT; expected values
 * never do.
 *
 * Inputs: kit_uniform(lo, hi) draws from the grading run's seed (KIT_SEED in the
 * environment, 1 when unset), so the probe and the judge draw the same inputs and each
 * grading run draws others.  A test returns 0 when it passes; KIT_CHECK prints what was
 * expected and returns 1. */
#ifndef KIT_TEST_H
#define KIT_TEST_H

#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

enum { KIT_ALONE, KIT_PROBE, KIT_JUDGE };
static int kit_mode = KIT_ALONE;
static FILE *kit_values;     /* the probe's output, the judge's input */
static long kit_count;       /* values passed so far                  */
static jmp_buf kit_short;    /* the judge: the probe wrote too few    */
static uint64_t kit_state;   /* the draws' state (splitmix64)         */

/* A value the student's code produced: written by the probe, replaced by the probe's
 * value in the judge (whose own, from the stubs, is ignored). */
static double kit_got(double x)
{
    kit_count++;
    if (kit_mode == KIT_PROBE) {
        fprintf(kit_values, "%a\n", x);
    } else if (kit_mode == KIT_JUDGE) {
        char line[128];
        if (!fgets(line, sizeof line, kit_values))
            longjmp(kit_short, 1);
        char *end;
        x = strtod(line, &end);
        if (end == line)
            longjmp(kit_short, 2);
    }
    return x;
}
#define KIT_GOT(x) kit_got((double)(x))
#define KIT_GOTI(x) ((int)kit_got((double)(x)))
static void kit_got_array(double *a, int n)
{
    for (int i = 0; i < n; i++)
        a[i] = kit_got(a[i]);
}

/* A message the library wrote beside a status of the student's run: the judge's own (from
 * the stubs) would mislead, so it points at the probe's output, which printed the real one. */
#define KIT_MSG(m) (kit_mode == KIT_JUDGE ? "(the probe's output below has the message)" : (m))

/* The next draw, uniform in [lo, hi): the same sequence in the probe and the judge. */
static double kit_uniform(double lo, double hi)
{
    uint64_t z = (kit_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return lo + (hi - lo) * (double)(z >> 11) / 9007199254740992.0;
}

/* A unit direction drawn from the seed (uniform on the sphere: a point of the ball,
 * normalised). */
static void kit_direction(double u[3])
{
    double n;
    do {
        for (int c = 0; c < 3; c++)
            u[c] = kit_uniform(-1, 1);
        n = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    } while (n < 0.04 || n > 1);
    n = sqrt(n);
    for (int c = 0; c < 3; c++)
        u[c] /= n;
}

static int kit_main(const kit_test *tests, int n, int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0); /* a crash keeps what was printed */
    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < n; i++)
            printf("%s %g\n", tests[i].name, tests[i].points);
        return 0;
    }
    const char *seed = getenv("KIT_SEED");
    if (argc == 4 && (strcmp(argv[1], "--probe") == 0 || strcmp(argv[1], "--judge") == 0)) {
        kit_mode = argv[1][2] == 'p' ? KIT_PROBE : KIT_JUDGE;
        kit_values = fopen(argv[3], kit_mode == KIT_PROBE ? "w" : "r");
        if (!kit_values) {
            printf("kit: cannot open %s\n", argv[3]);
            return 2;
        }
        argv[1] = argv[2];
        argc = 2;
    }
    int failed = 0;
    for (int i = 0; i < n; i++) {
        if (argc > 1 && strcmp(argv[1], tests[i].name) != 0)
            continue;
        kit_state = seed ? strtoull(seed, NULL, 10) : 1;
        kit_state ^= (uint64_t)i * 0x2545f4914f6cdd1dull; /* each test its own draws */
        kit_count = 0;
        int r;
        if (kit_mode == KIT_JUDGE && setjmp(kit_short)) {
            printf("FAILED: the probe (your code's process) stopped or wrote garbage before "
                   "value %ld of this test (did it exit, crash or print instead of "
                   "returning?)\n", kit_count);
            r = 1;
        } else {
            r = tests[i].run();
        }
        if (kit_mode == KIT_JUDGE && !r) {
            char extra[8];
            if (fgets(extra, sizeof extra, kit_values)) {
                printf("FAILED: the probe wrote more values than the test reads\n");
                r = 1;
            }
        }
        if (kit_mode == KIT_PROBE) {
            fclose(kit_values);
            return 0; /* the judge decides */
        }
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
