/*
 * One CHOLMOD factorisation of a Newton matrix, by fill-reducing ordering (issue 34).
 *
 *   build/newton_bench dump N FRAMES FILE      the drape's H at N x N after FRAMES frames
 *   build/newton_bench dump3 N FRAMES FILE     the same for drape3 (three sheets)
 *   build/chol_bench FILE [ORDER [REPS]]       analyse with ORDER, factorise REPS times
 *
 * ORDER: default (CHOLMOD's own: AMD, then METIS when AMD's fill is large, nmethods = 0),
 * library (the ordering src/linalg/cholmod.c chooses, through cloth__chol_*), amd, metis,
 * nesdis, natural.  One line of CSV on stdout: the OpenBLAS core OpenBLAS chose
 * (openblas_get_corename, so OPENBLAS_CORETYPE can be checked), its threads, the order,
 * the entries of L (Common->lnz, without the supernodes' padding, and L->xsize, with it),
 * the factorisation's flops (Common->fl), the analyse's wall time, and one factorisation's
 * best wall time and best process CPU time (every thread's) over REPS, in ms; then the
 * relative residual |A x - b| / |b| of a solve with b = A 1.  The factorisation runs as
 * the library's does: supernodal where it pays, LL', CHOLMOD's OpenMP regions on the
 * calling thread.
 */
#include "linalg/cholmod.h"
#include "linalg/sparse.h"

#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <suitesparse/cholmod.h>
#include <time.h>

char *openblas_get_corename(void);
int openblas_get_num_threads(void);

static double clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int read_matrix(const char *path, cholmod_sparse *A, cholmod_common *c)
{
    FILE *in = fopen(path, "rb");
    int n;
    long nnz;
    if (!in || fread(&n, sizeof n, 1, in) != 1 || fread(&nnz, sizeof nnz, 1, in) != 1)
        return 0;
    cholmod_sparse *S = cholmod_allocate_sparse((size_t)n, (size_t)n, (size_t)nnz, 1, 1, 1,
                                                CHOLMOD_REAL, c);
    int ok = S && fread(S->p, sizeof(int), (size_t)n + 1, in) == (size_t)n + 1 &&
             fread(S->i, sizeof(int), (size_t)nnz, in) == (size_t)nnz &&
             fread(S->x, sizeof(double), (size_t)nnz, in) == (size_t)nnz;
    fclose(in);
    if (ok)
        *A = *S;
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: chol_bench FILE [default|library|amd|metis|nesdis|natural "
                        "[REPS]]\n");
        return 2;
    }
    const char *order = argc > 2 ? argv[2] : "default";
    int reps = argc > 3 ? atoi(argv[3]) : 3;
    cholmod_common c;
    cholmod_start(&c);
    cholmod_sparse A;
    if (!read_matrix(argv[1], &A, &c)) {
        fprintf(stderr, "chol_bench: cannot read %s\n", argv[1]);
        return 1;
    }
    int n = (int)A.nrow;
    double best = INFINITY, best_cpu = INFINITY, t_an = 0, lnz = 0, xsize = 0, fl = 0;
    double *b = calloc((size_t)n, sizeof *b), *one = malloc((size_t)n * sizeof *one),
           *x = malloc((size_t)n * sizeof *x), *r = malloc((size_t)n * sizeof *r);
    for (int i = 0; i < n; i++)
        one[i] = 1;
    double alpha[2] = {1, 0}, zero[2] = {0, 0};
    cholmod_dense B1 = {.nrow = n, .ncol = 1, .nzmax = n, .d = n, .x = one,
                        .xtype = CHOLMOD_REAL, .dtype = CHOLMOD_DOUBLE};
    cholmod_dense Bb = B1;
    Bb.x = b;
    cholmod_sdmult(&A, 0, alpha, zero, &B1, &Bb, &c); /* b = A 1 */
    if (strcmp(order, "library") == 0) {
        /* through src/linalg/cholmod.c, as the newton kernel calls it */
        cloth__sparse H = {.n = n, .colp = A.p, .rowi = A.i, .val = A.x, .nnz = (long)A.nzmax,
                           .pattern_id = 1};
        cloth__chol *ch;
        cloth_error err;
        if (cloth__chol_create(n, &ch, &err) != CLOTH_OK)
            return 1;
        double t0 = clock_ms(CLOCK_MONOTONIC);
        if (cloth__chol_analyse(ch, &H, &err) != CLOTH_OK) {
            fprintf(stderr, "chol_bench: %s\n", err.msg);
            return 1;
        }
        t_an = clock_ms(CLOCK_MONOTONIC) - t0;
        for (int k = 0; k < reps; k++) {
            double eps, w0 = clock_ms(CLOCK_MONOTONIC), c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
            if (cloth__chol_factor(ch, &H, &eps, &err) != CLOTH_OK) {
                fprintf(stderr, "chol_bench: %s\n", err.msg);
                return 1;
            }
            best = fmin(best, clock_ms(CLOCK_MONOTONIC) - w0);
            best_cpu = fmin(best_cpu, clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0);
        }
        long fnnz, an;
        int super;
        cloth__chol_info(ch, &fnnz, &super, &an);
        xsize = (double)fnnz;
        lnz = NAN;
        fl = NAN;
        if (cloth__chol_solve(ch, b, x, &err) != CLOTH_OK)
            return 1;
        cloth__chol_destroy(ch);
    } else {
        c.supernodal = CHOLMOD_AUTO;
        /* supernodal amalgamation, to measure: CHOL_NRELAX="4 16 48", CHOL_ZRELAX="0.8 0.1
         * 0.05" (CHOLMOD's defaults) */
        const char *nr = getenv("CHOL_NRELAX"), *zr = getenv("CHOL_ZRELAX");
        if (nr)
            sscanf(nr, "%zu %zu %zu", &c.nrelax[0], &c.nrelax[1], &c.nrelax[2]);
        if (zr)
            sscanf(zr, "%lf %lf %lf", &c.zrelax[0], &c.zrelax[1], &c.zrelax[2]);
        c.final_ll = 1;
        c.quick_return_if_not_posdef = 1;
        if (strcmp(order, "default") != 0) {
            int m = strcmp(order, "amd") == 0      ? CHOLMOD_AMD
                    : strcmp(order, "metis") == 0  ? CHOLMOD_METIS
                    : strcmp(order, "nesdis") == 0 ? CHOLMOD_NESDIS
                                                   : CHOLMOD_NATURAL;
            c.nmethods = 1;
            c.method[0].ordering = m;
            c.postorder = 1;
        }
        double t0 = clock_ms(CLOCK_MONOTONIC);
        cholmod_factor *L = cholmod_analyze(&A, &c);
        t_an = clock_ms(CLOCK_MONOTONIC) - t0;
        if (!L) {
            fprintf(stderr, "chol_bench: analyse with %s: status %d%s\n", order, c.status,
                    c.status == CHOLMOD_NOT_INSTALLED ? " (not installed)" : "");
            return 1;
        }
        lnz = c.lnz;
        fl = c.fl;
        for (int k = 0; k < reps; k++) {
            double w0 = clock_ms(CLOCK_MONOTONIC), c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
#ifdef _OPENMP
            omp_set_max_active_levels(0); /* as src/linalg/cholmod.c: one thread */
#endif
            cholmod_factorize(&A, L, &c);
            best = fmin(best, clock_ms(CLOCK_MONOTONIC) - w0);
            best_cpu = fmin(best_cpu, clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0);
            if (c.status != CHOLMOD_OK) {
                fprintf(stderr, "chol_bench: factorise: status %d\n", c.status);
                return 1;
            }
        }
        xsize = L->is_super ? (double)L->xsize : lnz;
        cholmod_dense *X = cholmod_solve(CHOLMOD_A, L, &Bb, &c);
        memcpy(x, X->x, (size_t)n * sizeof *x);
        cholmod_free_dense(&X, &c);
        cholmod_free_factor(&L, &c);
    }
    cholmod_dense Bx = B1, Br = B1;
    Bx.x = x;
    Br.x = r;
    memcpy(r, b, (size_t)n * sizeof *r);
    double m1[2] = {-1, 0}, p1[2] = {1, 0};
    cholmod_sdmult(&A, 0, p1, m1, &Bx, &Br, &c); /* r = A x - b */
    double rn = 0, bn = 0;
    for (int i = 0; i < n; i++) {
        rn += r[i] * r[i];
        bn += b[i] * b[i];
    }
    printf("core,threads,order,n,nnz,lnz,xsize,flops,analyse_ms,factor_ms,factor_cpu_ms,"
           "resid\n%s,%d,%s,%d,%ld,%.0f,%.0f,%.4g,%.4g,%.4g,%.4g,%.2g\n",
           openblas_get_corename(), openblas_get_num_threads(), order, n, (long)A.nzmax, lnz,
           xsize, fl, t_an, best, best_cpu, sqrt(rn / bn));
    return 0;
}
