/*
 * make bench: every kernel's step on grids 30x24 .. 256x256 (SPEC 9; issue 20).
 *
 * Each kernel runs the same hanging cloth (top row pinned, gravity, no wind, no
 * obstacle): a warm-up frame, then kernel steps alone (no metrics).  The first row of a
 * kernel and grid takes at least 0.4 s and 3 frames (at most 20 s); the grid's other rows
 * of that kernel take as many steps, so that they simulate the same motion.  A kernel with
 * an `order` key runs three ways: sequential on one thread, coloured on one thread,
 * coloured on two (run.threads); the others run once.  A row is run three times (once
 * if it takes more than 5 s), the same steps from the same start, and the fastest run is
 * reported: on a shared machine the speed wanders by tens of percent, in spells of
 * minutes, so the runs go in three rounds over all the rows (each row's runs minutes
 * apart, every row meeting the same spells) and the table is printed at the end
 * (progress on stderr).  Reported per row:
 *   ms_per_frame    wall time of a frame's steps (60 frames a second)
 *   passes_per_step the step's passes (stats.iterations; verlet: the relaxation's and
 *                   Provot's sweeps)
 *   visits_per_s    spring visits a second of wall time, as the kernel's steps count
 *                   them (cloth__step_stats.visits; a kernel that does not count them:
 *                   every spring once an iteration, at least once a step)
 *   visits_per_cpu_s the same over the process's CPU time: on a machine busy with other
 *                   work, the one-thread rows' rate while running (a two-thread row's CPU
 *                   time counts both threads, spinning at barriers included)
 *   bytes_per_visit what a visit moves to and from memory when the mesh is out of cache
 *                   (the kernel's facts, visit_bytes; nan where it does not count them),
 *                   and mem_fraction = visits_per_s x bytes_per_visit / the triad
 *                   bandwidth of as many threads, measured first (`triad` rows)
 *   load            the 1-minute load average when the row finished
 * Each kernel runs with the substeps its table entry asks for at 60 frames a second
 * (cloth_kernel_facts), only on grids within its dense limit, and with its condition
 * numbers off.  The rows are the kernels of the table times the grids times three ways at
 * most.  `bench KERNEL [NX]` runs only that kernel's rows (of that grid width).
 * Output: a CSV table on stdout; `make bench` also stores it in
 * tests/bench/results/<arch>-<cores>cores.csv.
 */
#include "cloth.h"
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* runs of a row (the fastest counts); rows slower than 5 s run once */
#define REPEATS 3

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double load_now(void)
{
    double l[1] = {NAN};
    return getloadavg(l, 1) == 1 ? l[0] : NAN;
}

/* STREAM's triad a = b + s c over three arrays far larger than the caches, on `threads`
 * threads (OpenMP when built with it): bytes moved a second, best of 5. */
static double triad_bandwidth(int threads)
{
    const long n = 1L << 25; /* 3 x 256 MB */
    double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n),
           *c = malloc(sizeof(double) * n);
    double best = 0;
    if (a && b && c) {
        for (long i = 0; i < n; i++)
            a[i] = b[i] = c[i] = 1;
        for (int r = 0; r < 5; r++) {
            double t0 = clock_s(CLOCK_MONOTONIC);
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(static)
#endif
            for (long i = 0; i < n; i++)
                a[i] = b[i] + 0.5 * c[i];
            double t = clock_s(CLOCK_MONOTONIC) - t0;
            best = fmax(best, 3 * sizeof(double) * n / t);
        }
    }
    (void)threads;
    free(a);
    free(b);
    free(c);
    return best;
}

/* Bytes a spring visit moves when the mesh is out of cache, from the kernel's facts
 * (cloth_visit_bytes, cloth.h; the counts behind each kernel's numbers are in
 * docs/benchmarks.md); NaN when the kernel gives none. */
static double bytes_per_visit(cloth_visit_bytes b, int coloured, double per_vertex)
{
    double spring = coloured ? b.coloured_spring : b.spring;
    double vertex = coloured ? b.coloured_vertex : b.vertex;
    return spring > 0 || vertex > 0 ? spring + vertex / per_vertex : NAN;
}

static int set_key(cloth_scene *s, int line, const char *fmt, const char *text, double num)
{
    char set[160];
    if (text)
        snprintf(set, sizeof set, fmt, text);
    else
        snprintf(set, sizeof set, fmt, num);
    cloth_error err;
    return cloth_scene_set(s, set, line, &err) == CLOTH_OK;
}

/* The spring visits of a step (visits_per_s above). */
static double step_visits(const cloth_sim *sim, const cloth__step_stats *st)
{
    return st->visits > 0 ? st->visits
                          : cloth_sim_mesh(sim)->n_springs * fmax(1.0, (double)st->iterations);
}

/* Runs `steps` kernel steps of sim (0: at least 3 frames' worth and 0.4 s, at most
 * 20 s), after a warm-up frame, without metrics; returns the steps made and sets the
 * passes and spring visits they made, their wall and CPU time. */
static long timed_steps(cloth_sim *sim, long steps_wanted, long *passes, double *visits,
                        double *elapsed, double *cpu)
{
    cloth_error err = {""};
    cloth_frame f;
    cloth_sim_frame(sim, &f, &err); /* warm-up (and the OpenMP team) */
    int substeps = sim->scene.run.substeps;
    double h = sim->scene.run.dt / substeps;
    long steps = 0;
    *passes = 0;
    *visits = 0;
    *elapsed = 0;
    double wall0 = clock_s(CLOCK_MONOTONIC), cpu0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    while (steps_wanted > 0 ? steps < steps_wanted : steps < 3L * substeps || *elapsed < 0.4) {
        cloth__step_stats st = {.cond_max = NAN};
        if (sim->kernel->step(sim, sim->work, h, &st, &err) != CLOTH_OK)
            break;
        sim->t += h;
        steps++;
        *passes += st.iterations;
        *visits += step_visits(sim, &st);
        *elapsed = clock_s(CLOCK_MONOTONIC) - wall0;
        if (steps_wanted == 0 && *elapsed > 20)
            break;
    }
    *cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
    return steps;
}

/* One row of the table: the kernel on an nx x ny grid in the given order on `threads`
 * threads; its fastest run so far. */
typedef struct row {
    cloth_kernel_facts facts;
    int nx, ny, threads;
    const char *order;          /* "sequential", "coloured", or NULL (no order key)   */
    int sibling;                /* the row whose steps it takes (itself: its own)     */
    long steps;                 /* steps of a run (0 until the first run)             */
    double elapsed, cpu;        /* the fastest run's wall and CPU time (s)            */
    double visits;              /* spring visits of a run                             */
    double passes;              /* passes a step                                      */
    int vertices, springs;
    double bytes;               /* bytes a visit                                      */
    int failed;                 /* the scene or a step failed: not run again          */
} row;

/* Runs r once (its sibling's steps; 0: the first run of a first row decides); returns 0
 * when the scene or a step failed. */
static int run_row(row *r, const row *rows)
{
    const char *kernel = r->facts.name;
    cloth_scene s;
    cloth_default_scene(&s);
    char key[96];
    int substeps = r->facts.frame_substeps;
    int ok = set_key(&s, 1, "run.kernel=%s", kernel, 0) &&
             set_key(&s, 2, "mesh.nx=%g", NULL, r->nx) &&
             set_key(&s, 3, "mesh.ny=%g", NULL, r->ny) &&
             /* the same 2.9 m wide cloth at every size */
             set_key(&s, 4, "mesh.spacing=%.17g", NULL, 2.9 / (r->nx - 1)) &&
             set_key(&s, 5, "run.dt=%.17g", NULL, 1.0 / 60) &&
             set_key(&s, 6, "run.substeps=%g", NULL, substeps) &&
             set_key(&s, 7, "run.threads=%g", NULL, r->threads);
    if (ok && r->order) {
        snprintf(key, sizeof key, "%s.order=%%s", kernel);
        ok = set_key(&s, 8, key, r->order, 0);
    }
    if (ok && r->facts.cond_off) {
        snprintf(key, sizeof key, "%s.%s", kernel, r->facts.cond_off);
        ok = set_key(&s, 9, "%s", key, 0);
    }
    cloth_sim *sim = NULL;
    cloth_error err = {""};
    if (!ok || cloth_sim_create(&s, &sim, &err) != CLOTH_OK) {
        fprintf(stderr, "bench: %s %dx%d: %s\n", kernel, r->nx, r->ny,
                ok ? err.msg : "a key");
        return 0;
    }
    long want = rows[r->sibling].steps, passes;
    double t, c, visits;
    long n = timed_steps(sim, want, &passes, &visits, &t, &c);
    if (n == 0 || (want > 0 && n != want)) { /* a step failed */
        cloth_sim_destroy(sim);
        return 0;
    }
    if (r->steps == 0) { /* the first run: what a run is */
        const cloth_mesh *m = cloth_sim_mesh(sim);
        r->steps = n;
        r->passes = fmax(1.0, (double)passes / n);
        r->visits = visits;
        r->vertices = m->n;
        r->springs = m->n_springs;
        r->bytes = bytes_per_visit(r->facts.visit_bytes,
                                   r->order && strcmp(r->order, "coloured") == 0,
                                   (double)m->n_springs / m->n);
    }
    if (t < r->elapsed) {
        r->elapsed = t;
        r->cpu = c;
    }
    cloth_sim_destroy(sim);
    return 1;
}

static void print_row(const row *r, const double triad[2])
{
    double rate = r->visits / r->elapsed;
    printf("%s,%s,%d,%d,%d,%d,%d,%d,%.4g,%.4g,%.4g,%.4g,%.0f,%.3g,%.2f\n", r->facts.name,
           r->order ? r->order : "-", r->threads, r->nx, r->ny, r->vertices, r->springs,
           r->facts.frame_substeps, 1e3 * r->elapsed / r->steps * r->facts.frame_substeps,
           r->passes, rate, r->visits / r->cpu, r->bytes,
           rate * r->bytes / triad[r->threads > 1], load_now());
}

/* bench [KERNEL [NX]]: only that kernel (and that grid width), for profiling one row */
int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    int only_nx = argc > 2 ? atoi(argv[2]) : 0;
    static const int grids[][2] = {{30, 24}, {64, 64}, {128, 128}, {256, 256}};
    double triad[2] = {triad_bandwidth(1), triad_bandwidth(2)};
    printf("kernel,order,threads,nx,ny,vertices,springs,substeps,ms_per_frame,"
           "passes_per_step,visits_per_s,visits_per_cpu_s,bytes_per_visit,mem_fraction,"
           "load\n");
    /* the triad rows: bytes a second in visits_per_s (a byte a visit) */
    for (int t = 0; t < 2; t++)
        printf("triad,-,%d,0,0,0,0,0,0,0,%.4g,%.4g,1,1,%.2f\n", t + 1, triad[t], triad[t],
               load_now());
    /* the rows: a kernel with an order key runs sequential, coloured, coloured on 2
     * threads, the coloured rows taking the sequential row's steps */
    /* at most three ways on every grid of every kernel */
    const int n_grids = (int)(sizeof grids / sizeof grids[0]);
    row *rows = calloc((size_t)(3 * n_grids * cloth_kernel_count()) + 1, sizeof *rows);
    int n_rows = 0;
    if (!rows) {
        fprintf(stderr, "bench: out of memory\n");
        return 1;
    }
    cloth_kernel_facts facts;
    for (int k = 0; cloth_kernel_info(k, &facts) == CLOTH_OK; k++) {
        if (only && strcmp(only, facts.name) != 0)
            continue;
        cloth_scene probe;
        cloth_default_scene(&probe);
        char key[96];
        snprintf(key, sizeof key, "%s.order=coloured", facts.name);
        cloth_error err;
        int ordered = cloth_scene_set(&probe, key, 1, &err) == CLOTH_OK;
        for (int g = 0; g < n_grids; g++) {
            int nx = grids[g][0], ny = grids[g][1];
            if ((facts.dense_max > 0 && 3 * nx * ny > facts.dense_max) ||
                (only_nx > 0 && nx != only_nx))
                continue;
            for (int way = 0; way < (ordered ? 3 : 1); way++, n_rows++)
                rows[n_rows] = (row){facts, nx, ny, way == 2 ? 2 : 1,
                                     ordered ? (way ? "coloured" : "sequential") : NULL,
                                     n_rows - way, 0, INFINITY, 0, 0, 0, 0, 0, 0, 0};
        }
    }
    /* REPEATS rounds over all the rows, so that a row's runs are minutes apart and the
     * machine's slow and fast spells fall on every row alike; a row counts its fastest
     * run, and runs once when it takes over 5 s (or failed) */
    for (int round = 0; round < REPEATS; round++)
        for (int i = 0; i < n_rows; i++) {
            row *r = &rows[i];
            if (r->failed || rows[r->sibling].failed || (round > 0 && r->elapsed > 5))
                continue;
            fprintf(stderr, "bench: round %d, %s %s %d thread(s) %dx%d\n", round + 1,
                    r->facts.name, r->order ? r->order : "-", r->threads, r->nx, r->ny);
            r->failed = !run_row(r, rows);
        }
    for (int i = 0; i < n_rows; i++)
        if (rows[i].steps > 0 && !rows[i].failed)
            print_row(&rows[i], triad);
    free(rows);
    return 0;
}
