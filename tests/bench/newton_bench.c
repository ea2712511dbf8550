/*
 * make bench, part 2: what one Newton iteration of the newton kernel costs, stage by
 * stage (issue "Newton at scale"), with the sizes behind it.
 *
 * Scenes: the hanging cloth of experiments/hanging.ini (30 x 24, 2070 unknowns) and the
 * drape of experiments/drape.ini at 30 x 30, 64 x 64, 128 x 128 and 256 x 256 (the same
 * 1.5 m cloth, finer; contact distances at most 0.4 spacings), dropped from just above
 * the sphere so that contacts and the strain limit are active within a few frames.
 * Each runs with newton.solver = cholmod and pcg (dense too where it fits, as the
 * reference), condition numbers off, for a few frames after a warm-up; then the exact
 * 2-norm condition number at 64 x 64 and 128 x 128 (ARPACK) against the time of one
 * factorisation; and scene (b) of the self_contact figure, three 64 x 64 sheets dropped
 * onto the sphere (experiments/self_contact_drape3.ini, finer), timed once in contact.
 *
 * Columns: scene, nx, ny, unknowns, solver, iterations timed, nnz (upper triangle of H),
 * factor_nnz (entries of the Cholesky factor, the fill), then milliseconds per Newton
 * iteration: assembly, analyse, factor, solve (PCG: all of it), cond, line_search,
 * total; lin_iters per iteration (PCG); then the self-contact stages inside assembly and
 * line search (newton.contact = full): broad phase, distances of its candidates, CCD, in
 * milliseconds per iteration, and CCD queries per iteration; then the yardstick (issue
 * 34): factor1_ms, one CHOLMOD factorisation of the row's last H alone (analysed
 * beforehand, the best of three), iter_factors, the iteration's total in units of that
 * factorisation, factors_step, the solve's numeric factorisations per time step, and
 * threads, OPENBLAS_NUM_THREADS (CHOLMOD's own OpenMP regions run on one thread,
 * src/linalg/cholmod.c).  Output: CSV on stdout; `make bench` stores it in
 * tests/bench/results/<machine>-newton.csv.  With the argument "small", only the rows of
 * 30 x 24 and 30 x 30 (a few seconds; no dense rows).  "frames N [FRAMES]" (issue 47):
 * the drape at N x N from its first frame, whether every step converged and what a frame
 * in contact costs (bench_frames below).
 */
#include "cloth.h"
#include "kernels/newton/newton.h"
#include "linalg/cholmod.h"
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

char *openblas_get_corename(void); /* OpenBLAS's own, not in LAPACKE's headers */

#define HEADER "scene,nx,ny,unknowns,solver,iterations,nnz,factor_nnz,assembly_ms,analyse_ms," \
    "factor_ms,solve_ms,cond_ms,line_search_ms,total_ms,lin_iters,broad_ms,distance_ms," \
    "ccd_ms,ccd_queries,factor1_ms,iter_factors,factors_step,threads\n"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The process's CPU time (s): what a frame cost, less the other jobs' share of the cores. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* BLAS threads: OPENBLAS_NUM_THREADS, else every core (OpenBLAS's default). */
static int blas_threads(void)
{
    const char *t = getenv("OPENBLAS_NUM_THREADS");
    return t && atoi(t) > 0 ? atoi(t) : (int)sysconf(_SC_NPROCESSORS_ONLN);
}

/* The yardstick: one numeric CHOLMOD factorisation of H alone, in ms (the best of
 * three, after an untimed analyse); NaN when it fails. */
static double factor_alone_ms(const cloth__sparse *H, int n)
{
    cloth__chol *ch;
    cloth_error err;
    double best = NAN;
    if (cloth__chol_create(n, &ch, &err) != CLOTH_OK)
        return NAN;
    if (cloth__chol_analyse(ch, H, &err) == CLOTH_OK)
        for (int k = 0; k < 3; k++) {
            double eps = 0, t0 = now_s();
            if (cloth__chol_factor(ch, H, &eps, &err) != CLOTH_OK)
                break;
            double ms = 1e3 * (now_s() - t0);
            best = isnan(best) ? ms : fmin(best, ms);
        }
    cloth__chol_destroy(ch);
    return best;
}

/* The yardstick's four columns for a row whose iterations took `total` ms each. */
static void print_yardstick(const cloth__newton *w, double total, double factors,
                            double steps)
{
    double f1 = factor_alone_ms(cloth__newton_matrix(w), cloth__newton_ndof(w));
    printf(",%.4g,%.3g,%.3g,%d\n", f1, total / f1, steps > 0 ? factors / steps : 0,
           blas_threads());
    fflush(stdout);
}


/* Applies "key=value" settings, then those of NEWTON_BENCH_SET (space-separated, for
 * measuring a setting on every row: NEWTON_BENCH_SET="newton.factor_reuse=5"); 0 on the
 * first that fails (printed). */
static int apply(cloth_scene *s, const char *const *sets, int n)
{
    cloth_error err;
    for (int i = 0; i < n; i++)
        if (sets[i] && cloth_scene_set(s, sets[i], i + 1, &err) != CLOTH_OK) {
            fprintf(stderr, "newton_bench: %s\n", err.msg);
            return 0;
        }
    const char *env = getenv("NEWTON_BENCH_SET");
    char buf[512];
    snprintf(buf, sizeof buf, "%s", env ? env : "");
    int line = n;
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
        if (cloth_scene_set(s, tok, ++line, &err) != CLOTH_OK) {
            fprintf(stderr, "newton_bench: NEWTON_BENCH_SET: %s\n", err.msg);
            return 0;
        }
    return 1;
}

/* Scene (b) of the self_contact figure, experiments/self_contact_drape3.ini (three
 * sheets onto the sphere), at nx x nx a sheet: the same 1.05 m sheets, finer, still
 * shifted by half a cell, contact distances at most 0.4 spacings. */
static int make_drape3(cloth_scene *s, int nx, const char *solver, const char *cond)
{
    cloth_error err;
    if (cloth_scene_load("experiments/self_contact_drape3.ini", s, &err) != CLOTH_OK) {
        fprintf(stderr, "newton_bench: %s (run from the repository's root)\n", err.msg);
        return 0;
    }
    double spacing = 1.05 / (nx - 1), reach = fmin(0.005, 0.4 * spacing);
    char set[7][80];
    snprintf(set[0], sizeof set[0], "mesh.nx=%d", nx);
    snprintf(set[1], sizeof set[1], "mesh.ny=%d", nx);
    snprintf(set[2], sizeof set[2], "mesh.spacing=%.17g", spacing);
    snprintf(set[3], sizeof set[3], "mesh.layer_shift=%.17g %.17g", spacing / 2, spacing / 2);
    snprintf(set[4], sizeof set[4], "newton.dhat=%.17g", reach);
    snprintf(set[5], sizeof set[5], "material.thickness=%.17g", reach);
    snprintf(set[6], sizeof set[6], "newton.solver=%s", solver);
    char cnd[64];
    snprintf(cnd, sizeof cnd, "newton.cond=%s", cond);
    const char *sets[] = {"run.kernel=newton", set[0], set[1], set[2], set[3], set[4], set[5],
                          set[6], cnd};
    return apply(s, sets, (int)(sizeof sets / sizeof sets[0]));
}

/* The scene: hanging.ini (drape = 0), drape.ini (1) or self_contact_drape3.ini (2) at
 * nx x nx, newton with `solver`. */
static int make_scene(cloth_scene *s, int drape, int nx, int ny, const char *solver,
                      const char *cond)
{
    cloth_error err;
    if (drape == 2)
        return make_drape3(s, nx, solver, cond);
    const char *path = drape ? "experiments/drape.ini" : "experiments/hanging.ini";
    if (cloth_scene_load(path, s, &err) != CLOTH_OK) {
        fprintf(stderr, "newton_bench: %s (run from the repository's root)\n", err.msg);
        return 0;
    }
    char mesh[5][64], sol[64], cnd[64];
    double spacing = 1.5 / (nx - 1);
    /* contact distances no larger than 0.4 spacings: with drape.ini's 1 cm, at 256 x 256
     * (5.9 mm spacing) every vertex would start in self-contact with its second
     * neighbours, a different scene */
    double reach = fmin(0.01, 0.4 * spacing);
    snprintf(mesh[0], sizeof mesh[0], "mesh.nx=%d", nx);
    snprintf(mesh[1], sizeof mesh[1], "mesh.ny=%d", ny);
    snprintf(mesh[2], sizeof mesh[2], "mesh.spacing=%.17g", spacing);
    snprintf(mesh[3], sizeof mesh[3], "newton.dhat=%.17g", reach);
    snprintf(mesh[4], sizeof mesh[4], "material.thickness=%.17g", reach);
    snprintf(sol, sizeof sol, "newton.solver=%s", solver);
    snprintf(cnd, sizeof cnd, "newton.cond=%s", cond);
    const char *sets[] = {"run.kernel=newton", "run.substeps=1", sol, cnd,
                          drape ? mesh[0] : NULL, drape ? mesh[1] : NULL,
                          drape ? mesh[2] : NULL, drape ? mesh[3] : NULL,
                          drape ? mesh[4] : NULL,
                          /* 2 cm above the sphere's top: in contact after ~4 frames */
                          drape ? "mesh.origin=-0.75 0.53 -0.75" : NULL};
    return apply(s, sets, (int)(sizeof sets / sizeof sets[0]));
}

/* Runs `frames` frames after `warm` and prints one row; 0 when the run failed. */
static int bench_row(const char *name, int drape, int nx, int ny, const char *solver,
                     const char *cond, int warm, int frames)
{
    cloth_scene s;
    cloth_sim *sim;
    cloth_error err;
    if (!make_scene(&s, drape, nx, ny, solver, cond))
        return 0;
    if (cloth_sim_create(&s, &sim, &err) != CLOTH_OK) {
        fprintf(stderr, "newton_bench: %s %dx%d %s: %s\n", name, nx, ny, solver, err.msg);
        return 0;
    }
    cloth_frame f;
    int ok = 1;
    for (int k = 0; k < warm && ok; k++)
        ok = cloth_sim_frame(sim, &f, &err) == CLOTH_OK;
    cloth__newton_profile p0, p1;
    cloth__newton_profile_get(sim->work, &p0);
    for (int k = 0; k < frames && ok; k++)
        ok = cloth_sim_frame(sim, &f, &err) == CLOTH_OK;
    if (!ok)
        fprintf(stderr, "newton_bench: %s %dx%d %s: %s\n", name, nx, ny, solver, err.msg);
    cloth__newton_profile_get(sim->work, &p1);
    double it = (double)(p1.iterations - p0.iterations);
    if (it > 0) {
        double a = (p1.assembly_ms - p0.assembly_ms) / it,
               an = (p1.analyse_ms - p0.analyse_ms) / it,
               fa = (p1.factor_ms - p0.factor_ms) / it,
               so = (p1.solve_ms - p0.solve_ms) / it, co = (p1.cond_ms - p0.cond_ms) / it,
               ls = (p1.line_search_ms - p0.line_search_ms) / it;
        printf("%s,%d,%d,%d,%s,%.0f,%ld,%ld,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,"
               "%.4g,%.4g", name, nx, ny, cloth__newton_ndof(sim->work), solver, it, p1.nnz,
               p1.factor_nnz, a, an, fa, so, co, ls, a + an + fa + so + co + ls,
               (double)(p1.lin_iters - p0.lin_iters) / it, (p1.broad_ms - p0.broad_ms) / it,
               (p1.distance_ms - p0.distance_ms) / it, (p1.ccd_ms - p0.ccd_ms) / it,
               (double)(p1.ccd_queries - p0.ccd_queries) / it);
        print_yardstick(sim->work, a + an + fa + so + co + ls,
                        (double)(p1.factorizations - p0.factorizations),
                        (double)(p1.steps - p0.steps));
    }
    cloth_sim_destroy(sim);
    return ok;
}

/* "frames N [FRAMES]" (issue 47): the drape at N x N from its first frame, FRAMES of
 * them (8 by default; in contact from frame 4), with NEWTON_BENCH_SET's settings: does
 * every step converge, how many iterations a step takes in contact, and what a frame
 * costs.  A frame is in contact from the first whose smallest obstacle gap is below
 * newton.dhat (the sphere's barrier is active).
 * Columns: scene, nx, unknowns, frames, contact_from, max_iters_steps (steps stopped at
 * newton.max_iters), stalled_steps, iters_step (mean Newton iterations a step in
 * contact), frame_ms_mean and frame_ms_max (in contact), frames_min (frames a minute at
 * the mean), cpu_ms_mean and cpu_ms_max (the same in the process's CPU time, which other
 * jobs on the machine disturb less than the wall time), factor_share (analyse + factor over every stage's time, in contact),
 * sigma1_max (largest sigma1 - 1 of any frame), intersections, tunnelled (most in a
 * frame), set (NEWTON_BENCH_SET). */
#define FRAMES_HEADER "scene,nx,unknowns,frames,contact_from,max_iters_steps,stalled_steps," \
    "iters_step,frame_ms_mean,frame_ms_max,frames_min,cpu_ms_mean,cpu_ms_max,factor_share," \
    "sigma1_max," \
    "intersections,tunnelled,set\n"

static int bench_frames(int nx, int frames)
{
    cloth_scene s;
    cloth_sim *sim;
    cloth_error err;
    if (!make_scene(&s, 1, nx, nx, "cholmod", "off"))
        return 0;
    if (cloth_sim_create(&s, &sim, &err) != CLOTH_OK) {
        fprintf(stderr, "newton_bench: drape %dx%d: %s\n", nx, nx, err.msg);
        return 0;
    }
    cloth_frame f;
    cloth__newton_profile p0 = {0}, p1, before;
    double reach = fmin(0.01, 0.4 * 1.5 / (nx - 1)); /* newton.dhat (make_scene) */
    int from = 0, at_max = 0, stalled = 0, ok = 1, steps = 0;
    long iters = 0, inter = 0, tun = 0;
    double ms_sum = 0, ms_max = 0, sigma = 0, cpu_sum = 0, cpu_max = 0;
    for (int k = 1; k <= frames && ok; k++) {
        cloth__newton_profile_get(sim->work, &before);
        double cpu0 = cpu_s();
        if (!(ok = cloth_sim_frame(sim, &f, &err) == CLOTH_OK))
            fprintf(stderr, "newton_bench: drape %dx%d: %s\n", nx, nx, err.msg);
        if (!ok)
            break;
        at_max += f.not_converged - f.stalled;
        stalled += f.stalled;
        sigma = fmax(sigma, f.stretch_sigma_max);
        inter = inter > f.intersections ? inter : f.intersections;
        tun = tun > f.tunnelled ? tun : f.tunnelled;
        if (!from && f.has_gap && f.min_gap < reach) {
            from = k;
            p0 = before;
        }
        if (from) {
            iters += f.iterations;
            steps += s.run.substeps;
            ms_sum += f.wall_ms;
            ms_max = fmax(ms_max, f.wall_ms);
            double cpu = 1e3 * (cpu_s() - cpu0);
            cpu_sum += cpu;
            cpu_max = fmax(cpu_max, cpu);
        }
    }
    cloth__newton_profile_get(sim->work, &p1);
    double stage = (p1.assembly_ms - p0.assembly_ms) + (p1.analyse_ms - p0.analyse_ms) +
                   (p1.factor_ms - p0.factor_ms) + (p1.solve_ms - p0.solve_ms) +
                   (p1.cond_ms - p0.cond_ms) + (p1.line_search_ms - p0.line_search_ms);
    double factor = (p1.analyse_ms - p0.analyse_ms) + (p1.factor_ms - p0.factor_ms);
    int n_contact = from ? frames - from + 1 : 0;
    const char *set = getenv("NEWTON_BENCH_SET");
    printf("drape,%d,%d,%d,%d,%d,%d,%.3g,%.0f,%.0f,%.3g,%.0f,%.0f,%.3g,%.4g,%ld,%ld,%s\n", nx,
           cloth__newton_ndof(sim->work), frames, from, at_max, stalled,
           steps ? (double)iters / steps : NAN, n_contact ? ms_sum / n_contact : NAN, ms_max,
           n_contact ? 60000 / (ms_sum / n_contact) : NAN,
           n_contact ? cpu_sum / n_contact : NAN, cpu_max, stage > 0 ? factor / stage : NAN,
           sigma, inter, tun, set ? set : "");
    fflush(stdout);
    cloth_sim_destroy(sim);
    return ok;
}

/* The exact 2-norm condition number at the drape's nx x nx, by ARPACK: its time per
 * iteration against one factorisation's (stderr, and a row with solver "cond-exact"). */
static void bench_cond(int nx, int warm)
{
    cloth_scene s;
    cloth_sim *sim;
    cloth_error err;
    if (!make_scene(&s, 1, nx, nx, "cholmod", "exact") ||
        cloth_sim_create(&s, &sim, &err) != CLOTH_OK)
        return;
    cloth_frame f;
    int ok = 1;
    for (int k = 0; k < warm + 1 && ok; k++)
        ok = cloth_sim_frame(sim, &f, &err) == CLOTH_OK;
    cloth__newton_profile p;
    cloth__newton_profile_get(sim->work, &p);
    if (ok && p.iterations > 0) {
        double it = (double)p.iterations;
        printf("drape-cond-exact,%d,%d,%d,cholmod,%.0f,%ld,%ld,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,"
               "%.4g,0,%.4g,%.4g,%.4g,%.4g", nx, nx, cloth__newton_ndof(sim->work), it, p.nnz, p.factor_nnz,
               p.assembly_ms / it, p.analyse_ms / it, p.factor_ms / it, p.solve_ms / it,
               p.cond_ms / it, p.line_search_ms / it,
               (p.assembly_ms + p.analyse_ms + p.factor_ms + p.solve_ms + p.cond_ms +
                p.line_search_ms) / it, p.broad_ms / it, p.distance_ms / it, p.ccd_ms / it,
               (double)p.ccd_queries / it);
        print_yardstick(sim->work, (p.assembly_ms + p.analyse_ms + p.factor_ms + p.solve_ms +
                                    p.cond_ms + p.line_search_ms) / it,
                        (double)p.factorizations, (double)p.steps);
        fprintf(stderr, "newton_bench: %dx%d: exact cond %.3g ms = %.2f factorisations\n",
                nx, nx, p.cond_ms / it, p.cond_ms / p.factor_ms);
    }
    cloth_sim_destroy(sim);
}

/* Writes H of the drape (drape = 1) or of drape3 (2) at nx x nx after `frames` frames
 * (cholmod, cond off) to `path`
 * for chol_bench: n, nnz (int32, int64), then colp, rowi and val as stored (upper
 * triangle, CSC).  0 on failure. */
static int dump_matrix(int drape, int nx, int frames, const char *path)
{
    cloth_scene s;
    cloth_sim *sim;
    cloth_error err;
    if (!make_scene(&s, drape, nx, nx, "cholmod", "off") ||
        cloth_sim_create(&s, &sim, &err) != CLOTH_OK)
        return 0;
    cloth_frame f;
    int ok = 1;
    for (int k = 0; k < frames && ok; k++)
        ok = cloth_sim_frame(sim, &f, &err) == CLOTH_OK;
    const cloth__sparse *H = cloth__newton_matrix(sim->work);
    FILE *out = ok && H ? fopen(path, "wb") : NULL;
    if (out) {
        int n = H->n;
        long nnz = H->nnz;
        ok = fwrite(&n, sizeof n, 1, out) == 1 && fwrite(&nnz, sizeof nnz, 1, out) == 1 &&
             fwrite(H->colp, sizeof *H->colp, (size_t)n + 1, out) == (size_t)n + 1 &&
             fwrite(H->rowi, sizeof *H->rowi, (size_t)nnz, out) == (size_t)nnz &&
             fwrite(H->val, sizeof *H->val, (size_t)nnz, out) == (size_t)nnz;
        ok = fclose(out) == 0 && ok;
    } else {
        ok = 0;
    }
    if (!ok)
        fprintf(stderr, "newton_bench: dump %dx%d to %s failed\n", nx, nx, path);
    cloth_sim_destroy(sim);
    return ok;
}

/* The kernels OpenBLAS picked for this CPU.  Debian's OpenBLAS 0.3.21 falls back to its
 * generic Prescott kernels on a CPU it does not know (this machine's AMD EPYC on some
 * hosts; on others it picks Cooperlake), and those factorise the 256 x 256 drape's H in
 * 3.7 s of CPU against 1.4-1.6 s with its Haswell, SkylakeX, Zen or Cooperlake kernels
 * (issue 34, docs/kernels/newton.md).  So that the table measures the machine and not
 * the fallback, the bench runs itself again once with OPENBLAS_CORETYPE=Haswell (AVX2 and
 * FMA) when OpenBLAS reports Prescott on a CPU that has both and the variable is unset;
 * setting OPENBLAS_CORETYPE (to Prescott, say) keeps the choice as it is. */
static void use_fast_blas_core(char **argv)
{
    const char *core = openblas_get_corename();
    if (getenv("OPENBLAS_CORETYPE") || !core || strcmp(core, "Prescott") != 0)
        return;
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
        return;
    fprintf(stderr, "newton_bench: OpenBLAS chose its generic kernels (Prescott) on a CPU "
                    "with AVX2 and FMA: running again with OPENBLAS_CORETYPE=Haswell\n");
    setenv("OPENBLAS_CORETYPE", "Haswell", 1);
    execv("/proc/self/exe", argv);
    unsetenv("OPENBLAS_CORETYPE"); /* exec failed: go on with the generic kernels */
}

/* With the argument "cond", only the condition-number rows; with "drape N [SOLVER]",
 * only the drape's rows at N x N (of that solver); with "small", only the rows of 30 x 24 and 30 x 30, and the
 * hanging scene with the default exact condition numbers too. */
int main(int argc, char **argv)
{
    double t0 = now_s();
    int cond_only = argc > 1 && strcmp(argv[1], "cond") == 0;
    int small = argc > 1 && strcmp(argv[1], "small") == 0;
    /* dump N FRAMES FILE, dump3 N FRAMES FILE: H for chol_bench */
    if (argc > 4 && (strcmp(argv[1], "dump") == 0 || strcmp(argv[1], "dump3") == 0))
        return dump_matrix(strcmp(argv[1], "dump3") == 0 ? 2 : 1, atoi(argv[2]),
                           atoi(argv[3]), argv[4]) ? 0 : 1;
    use_fast_blas_core(argv);
    if (argc > 2 && strcmp(argv[1], "frames") == 0) {
        printf(FRAMES_HEADER);
        return bench_frames(atoi(argv[2]), argc > 3 ? atoi(argv[3]) : 8) ? 0 : 1;
    }
    fprintf(stderr, "newton_bench: OpenBLAS core %s, %d thread(s)\n", openblas_get_corename(),
            blas_threads());
    printf(HEADER);
    if (argc > 2 && (strcmp(argv[1], "drape") == 0 || strcmp(argv[1], "drape3") == 0)) {
        int nx = atoi(argv[2]), three = strcmp(argv[1], "drape3") == 0;
        for (int k = 0; k < 2 && nx >= 2; k++)
            if (argc < 4 || strcmp(argv[3], k ? "pcg" : "cholmod") == 0)
                bench_row(argv[1], three ? 2 : 1, nx, nx, k ? "pcg" : "cholmod", "off",
                          three ? 9 : 5, nx <= 64 ? 10 : 4);
        return 0;
    }
    static const char *const solvers[] = {"cholmod", "pcg", "dense"};
    for (int k = 0; k < 3 - small && !cond_only; k++)
        bench_row("hanging", 0, 30, 24, solvers[k], "off", 2, 30);
    if (small) /* the default settings: exact condition numbers (ARPACK at this size) */
        bench_row("hanging-cond-exact", 0, 30, 24, "cholmod", "exact", 2, 30);
    static const int sizes[] = {30, 64, 128, 256};
    for (int g = 0; g < (small ? 1 : 4) && !cond_only; g++) {
        int nx = sizes[g], frames = nx <= 64 ? 10 : nx <= 128 ? 4 : 2;
        for (int k = 0; k < 3 - small; k++)
            if (k < 2 || 3 * nx * nx <= 6000)
                bench_row("drape", 1, nx, nx, solvers[k], "off", 5, frames);
    }
    if (small)
        return 0;
    /* scene (b) of the self_contact figure: in contact from frame 8 */
    for (int k = 0; k < 2 && !cond_only; k++)
        bench_row("drape3", 2, 64, 64, k ? "pcg" : "cholmod", "off", 9, 3);
    bench_cond(64, 5);
    bench_cond(128, 5);
    fprintf(stderr, "newton_bench: %.0f s\n", now_s() - t0);
    return 0;
}
