/* Sparse Cholesky through CHOLMOD; contract in cholmod.h. */
#include "linalg/cholmod.h"

#include "core/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <suitesparse/cholmod.h>
#ifdef _OPENMP
#include <omp.h>
#endif

struct cloth__chol {
    int n;                          /* rows and columns                                 */
    cholmod_common c;               /* CHOLMOD's settings, statistics and workspace     */
    cholmod_sparse A;               /* header over the arrays of the matrix at hand     */
    cholmod_factor *L;              /* symbolic after analyse, numeric after a factor   */
    const cloth__sparse *analysed;  /* the matrix whose pattern L is for ...            */
    unsigned long pattern_id;       /* ... and that pattern's id                        */
    long analyses;                  /* cholmod_analyze calls since create               */
    long pattern_factors;           /* numeric factorisations since the last analyse    */
    int factored;                   /* 1 while L holds a factor of the last matrix      */
    cholmod_dense *X, *Y, *E;       /* cholmod_solve2's solution and workspaces, reused */
};

/* ------------------------------------------------------------------ statuses */

/* A failed CHOLMOD call (Common->status < 0) as a status and a message. */
static cloth_status fail_cholmod(const cloth__chol *ch, const char *stage, cloth_error *err)
{
    int s = ch->c.status;
    switch (s) {
    case CHOLMOD_OUT_OF_MEMORY:
        return cloth__fail(err, CLOTH_ENOMEM,
                           "CHOLMOD: %s: out of memory (%d unknowns, %.3g entries in the "
                           "factor)", stage, ch->n, ch->c.lnz);
    case CHOLMOD_TOO_LARGE:
        return cloth__fail(err, CLOTH_ENUMERIC,
                           "CHOLMOD: %s: the factor is too large for 32-bit indices (%d "
                           "unknowns, %.3g entries)", stage, ch->n, ch->c.lnz);
    case CHOLMOD_INVALID:
        return cloth__fail(err, CLOTH_EINVAL,
                           "CHOLMOD: %s: invalid input (a bug in clothbench's call)", stage);
    case CHOLMOD_NOT_INSTALLED:
        return cloth__fail(err, CLOTH_ENUMERIC,
                           "CHOLMOD: %s: this build of CHOLMOD lacks the method asked for",
                           stage);
    case CHOLMOD_GPU_PROBLEM:
        return cloth__fail(err, CLOTH_ENUMERIC, "CHOLMOD: %s: GPU failure", stage);
    default:
        return cloth__fail(err, CLOTH_ENUMERIC, "CHOLMOD: %s failed (status %d)", stage, s);
    }
}

/* ------------------------------------------------------------------ one thread */

/* cholmod_factorize_p on the calling thread alone.
 *
 * CHOLMOD 3 (Debian's SuiteSparse 5) opens an OpenMP region of a fixed 4 threads
 * (CHOLMOD_OMP_NUM_THREADS, compiled in; OMP_NUM_THREADS does not change it) around
 * small loops inside its supernodal factorisation, one region per supernode.  On two
 * cores that costs more than it gains: the 64 x 64 cloth of experiments/ablation_grid.ini
 * (12 288 unknowns), 230 Newton iterations, took 27.5 s of wall time and 54 s of CPU with
 * those regions, 21.7 s of wall and CPU without (OPENBLAS_NUM_THREADS=1 in both).  With
 * max-active-levels 0 every parallel region the factorisation opens runs on the thread
 * that opened it; the setting is restored afterwards, so the kernels' own threads
 * (run.threads) are not affected.  The arithmetic is the same either way: those regions
 * only fill and copy. */
static int factorize(cloth__chol *ch, double beta)
{
    double b[2] = {beta, 0};
#ifdef _OPENMP
    int levels = omp_get_max_active_levels();
    omp_set_max_active_levels(0);
#endif
    int ok = cholmod_factorize_p(&ch->A, b, NULL, 0, ch->L, &ch->c);
    ch->pattern_factors++;
#ifdef _OPENMP
    omp_set_max_active_levels(levels);
#endif
    return ok;
}

/* ------------------------------------------------------------------ ordering */

/* METIS is tried besides AMD from this many flops per entry of L (AMD's) ... */
#define METIS_FLOPS_PER_ENTRY 300.0
/* ... when the pattern last analysed lived for at least this many factorisations */
#define METIS_MIN_FACTORS 20

/* The symbolic factor of the matrix at ch->A, in the fill-reducing ordering that needs
 * the fewest flops of AMD's and METIS's.
 *
 * cholmod_analyze with its default strategy (nmethods = 0) orders by AMD and tries METIS
 * only where AMD gives at least 500 flops per entry of L and 5 entries of L per entry of
 * A, then keeps the ordering with fewer entries in L (SuiteSparse 5.12,
 * Cholesky/cholmod_analyze.c).  On the drape's Newton matrices (issue 34, one thread,
 * tests/bench/chol_bench.c) the 128 x 128 cloth falls just below that line (495 flops an
 * entry) although METIS's nested dissection needs 20 % fewer flops (4.20e9 against
 * 5.23e9) and 6 % fewer entries (9.94 M against 10.57 M), one factorisation 18 % less
 * CPU (196 against 240 ms); at 256 x 256 CHOLMOD already picks METIS (48.5 M entries
 * against AMD's 50.6 M); at 64 x 64 (240 flops an entry) and on the three sheets of
 * drape3 before contact (240) AMD is the better one (METIS: 7 % and 6 % more entries).
 * Planar meshes are where nested dissection is known to win asymptotically (George 1973,
 * "Nested dissection of a regular finite element mesh": O(n log n) fill, O(n^1.5)
 * flops), so past METIS_FLOPS_PER_ENTRY this also tries METIS and keeps whichever needs
 * fewer flops (the factorisation's time; CHOLMOD's own choice goes by entries).
 *
 * METIS's analysis costs about three factorisations at 49 k unknowns (700 against 240 ms
 * for AMD's analysis and factorisation alike), and it saves a fifth of one on every
 * factorisation: it pays back after about 15 factorisations of one pattern.  So after
 * the first analysis of a context it is tried only when the last pattern was factorised
 * METIS_MIN_FACTORS times or more: a scene whose contacts change the pattern every few
 * iterations keeps AMD's cheaper analysis.  Where METIS is not kept (or not tried) the
 * ordering, and so every result, is the one cholmod_analyze's default gives. */
static cholmod_factor *analyse_ordered(cloth__chol *ch)
{
    ch->c.nmethods = 0;
    cholmod_factor *L = cholmod_analyze(&ch->A, &ch->c);
    if (!L || L->ordering != CHOLMOD_AMD || ch->c.lnz < 5 * ch->c.anz ||
        ch->c.fl < METIS_FLOPS_PER_ENTRY * ch->c.lnz ||
        ch->c.fl >= 500 * ch->c.lnz || /* CHOLMOD tried METIS itself, and kept AMD */
        (ch->analyses > 0 && ch->pattern_factors < METIS_MIN_FACTORS))
        return L;
    double fl_amd = ch->c.fl, lnz_amd = ch->c.lnz;
    int ordering = ch->c.method[0].ordering;
    ch->c.nmethods = 1;
    ch->c.method[0].ordering = CHOLMOD_METIS;
    cholmod_factor *M = cholmod_analyze(&ch->A, &ch->c);
    ch->c.nmethods = 0;
    ch->c.method[0].ordering = ordering;
    /* CHOLMOD falls back to AMD when METIS fails (CHOLMOD_NOT_INSTALLED, out of memory) */
    if (M && M->ordering == CHOLMOD_METIS && ch->c.fl < fl_amd) {
        cholmod_free_factor(&L, &ch->c);
        return M;
    }
    cholmod_free_factor(&M, &ch->c);
    ch->c.status = CHOLMOD_OK;
    ch->c.fl = fl_amd; /* the statistics of the factor kept */
    ch->c.lnz = lnz_amd;
    return L;
}

/* ------------------------------------------------------------------ create, destroy */

cloth_status cloth__chol_create(int n, cloth__chol **out, cloth_error *err)
{
    *out = NULL;
    if (n < 1)
        return cloth__fail(err, CLOTH_EINVAL, "CHOLMOD: %d unknowns (need at least 1)", n);
    cloth__chol *ch = calloc(1, sizeof *ch);
    if (!ch)
        return cloth__fail(err, CLOTH_ENOMEM, "CHOLMOD: out of memory for its context");
    ch->n = n;
    if (!cholmod_start(&ch->c)) {
        free(ch);
        return cloth__fail(err, CLOTH_ENOMEM, "CHOLMOD: cholmod_start failed");
    }
    ch->c.print = 0;                        /* statuses become our messages instead   */
    ch->c.error_handler = NULL;
    ch->c.supernodal = CHOLMOD_AUTO;        /* supernodal when flops per entry pay    */
    ch->c.quick_return_if_not_posdef = 1;   /* a failed pivot ends the attempt        */
    ch->c.final_ll = 1;                     /* simplicial LL' too: LDL' would accept an
                                               indefinite matrix the shift must fix    */
    ch->X = cholmod_allocate_dense((size_t)n, 1, (size_t)n, CHOLMOD_REAL, &ch->c);
    if (!ch->X) {
        cloth__chol_destroy(ch);
        return cloth__fail(err, CLOTH_ENOMEM, "CHOLMOD: out of memory for %d unknowns", n);
    }
    *out = ch;
    return CLOTH_OK;
}

void cloth__chol_destroy(cloth__chol *ch)
{
    if (!ch)
        return;
    cholmod_free_factor(&ch->L, &ch->c);
    cholmod_free_dense(&ch->X, &ch->c);
    cholmod_free_dense(&ch->Y, &ch->c);
    cholmod_free_dense(&ch->E, &ch->c);
    cholmod_finish(&ch->c);
    free(ch);
}

/* ------------------------------------------------------------------ analyse, factor */

/* The header CHOLMOD reads A through: A's own arrays, upper triangle (stype = 1), rows
 * sorted within each column, packed.  CHOLMOD reads them and never writes. */
static void point_at(cloth__chol *ch, const cloth__sparse *A)
{
    ch->A = (cholmod_sparse){
        .nrow = (size_t)A->n, .ncol = (size_t)A->n, .nzmax = (size_t)A->nnz,
        .p = A->colp, .i = A->rowi, .nz = NULL, .x = A->val, .z = NULL,
        .stype = 1, .itype = CHOLMOD_INT, .xtype = CHOLMOD_REAL, .dtype = CHOLMOD_DOUBLE,
        .sorted = 1, .packed = 1,
    };
}

static cloth_status check_size(const cloth__chol *ch, const cloth__sparse *A, cloth_error *err)
{
    if (A->n != ch->n)
        return cloth__fail(err, CLOTH_EINVAL, "CHOLMOD: a %d x %d matrix for a context of %d",
                           A->n, A->n, ch->n);
    return CLOTH_OK;
}

cloth_status cloth__chol_analyse(cloth__chol *ch, const cloth__sparse *A, cloth_error *err)
{
    cloth_status st = check_size(ch, A, err);
    if (st != CLOTH_OK)
        return st;
    if (ch->L && ch->analysed == A && ch->pattern_id == A->pattern_id)
        return CLOTH_OK;
    cholmod_free_factor(&ch->L, &ch->c);
    ch->factored = 0;
    ch->analysed = NULL;
    point_at(ch, A);
    ch->L = analyse_ordered(ch);
    if (!ch->L)
        return fail_cholmod(ch, "analyse", err);
    ch->analysed = A;
    ch->pattern_id = A->pattern_id;
    ch->analyses++;
    ch->pattern_factors = 0;
    return CLOTH_OK;
}

cloth_status cloth__chol_factor(cloth__chol *ch, const cloth__sparse *A, double *eps_used,
                                cloth_error *err)
{
    *eps_used = 0;
    ch->factored = 0;
    int row, col;
    cloth_status st = check_size(ch, A, err);
    if (st != CLOTH_OK)
        return st;
    /* a NaN or inf would fail every shifted factor, so it is named instead */
    long bad = cloth__sparse_find_nonfinite(A, &row, &col);
    if (bad >= 0)
        return cloth__fail(err, CLOTH_ENUMERIC, "CHOLMOD: entry (%d, %d) is %g", row + 1,
                           col + 1, A->val[bad]);
    st = cloth__chol_analyse(ch, A, err);
    if (st != CLOTH_OK)
        return st;
    point_at(ch, A);
    double scale = 0;
    for (int q = 0; q < A->n; q++)
        scale = fmax(scale, fabs(A->val[A->colp[q + 1] - 1])); /* diagonal: last in column */
    if (scale == 0)
        scale = 1;
    /* Tikhonov, as dense.c: A + eps I for eps = 0, then 1e-8 s, 1e-7 s, ..., 10 s */
    double eps = 0;
    int minor_col = -1;
    for (int attempt = 0; attempt <= 10; attempt++) {
        if (!factorize(ch, eps) || ch->c.status < 0)
            return fail_cholmod(ch, "factor", err);
        if (ch->c.status != CHOLMOD_NOT_POSDEF && ch->L->minor >= ch->L->n) {
            ch->factored = 1;
            *eps_used = eps;
            return CLOTH_OK;
        }
        /* L->minor counts columns after the fill-reducing permutation; name A's own */
        if (attempt == 0 && ch->L->minor < ch->L->n)
            minor_col = ((const int *)ch->L->Perm)[ch->L->minor];
        eps = 1e-8 * scale * pow(10.0, attempt);
    }
    return cloth__fail(err, CLOTH_ENUMERIC,
                       "CHOLMOD: not positive definite (the pivot of column %d), nor with a "
                       "Tikhonov shift of up to 10 max|A_ii| = %.3g", minor_col + 1, 10 * scale);
}

cloth_status cloth__chol_factor_shifted(cloth__chol *ch, const cloth__sparse *A, double beta,
                                        cloth_error *err)
{
    ch->factored = 0;
    cloth_status st = check_size(ch, A, err);
    if (st == CLOTH_OK)
        st = cloth__chol_analyse(ch, A, err);
    if (st != CLOTH_OK)
        return st;
    point_at(ch, A);
    if (!factorize(ch, beta) || ch->c.status < 0)
        return fail_cholmod(ch, "factor", err);
    if (ch->c.status == CHOLMOD_NOT_POSDEF || ch->L->minor < ch->L->n)
        return cloth__fail(err, CLOTH_ENUMERIC,
                           "CHOLMOD: A + %g I is not positive definite (pivot of column %d)",
                           beta, ((const int *)ch->L->Perm)[ch->L->minor] + 1);
    ch->factored = 1;
    return CLOTH_OK;
}

/* ------------------------------------------------------------------ solve, info */

cloth_status cloth__chol_solve(cloth__chol *ch, const double *b, double *x, cloth_error *err)
{
    if (!ch->factored)
        return cloth__fail(err, CLOTH_EINVAL,
                           "CHOLMOD: solve: no factor (none made, or the last one failed)");
    cholmod_dense B = {
        .nrow = (size_t)ch->n, .ncol = 1, .nzmax = (size_t)ch->n, .d = (size_t)ch->n,
        .x = (void *)b, .z = NULL, .xtype = CHOLMOD_REAL, .dtype = CHOLMOD_DOUBLE,
    };
    /* X, Y and E keep their size from one call to the next, so only the first solve
     * after an analyse allocates (simplicial factors excepted: cholmod.h) */
    if (!cholmod_solve2(CHOLMOD_A, ch->L, &B, NULL, &ch->X, NULL, &ch->Y, &ch->E, &ch->c))
        return fail_cholmod(ch, "solve", err);
    memcpy(x, ch->X->x, (size_t)ch->n * sizeof *x);
    return CLOTH_OK;
}

void cloth__chol_info(const cloth__chol *ch, long *factor_nnz, int *is_supernodal,
                      long *analyses)
{
    *factor_nnz = 0;
    *is_supernodal = 0;
    *analyses = ch->analyses;
    const cholmod_factor *L = ch->L;
    if (!L)
        return;
    *is_supernodal = L->is_super;
    if (L->is_super) {
        *factor_nnz = (long)L->xsize;
    } else {
        const int *count = L->ColCount;
        for (size_t j = 0; j < L->n; j++)
            *factor_nnz += count[j];
    }
}
