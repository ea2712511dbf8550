/* Extreme eigenvalues by ARPACK's Lanczos; contract in eigs.h.  The modes are those of the
 * ARPACK Users' Guide (Lehoucq, Sorensen and Yang, SIAM 1998), section 3.2: mode 1 for
 * lambda_max of A, mode 3 (shift-invert) for lambda_min. */
#include "linalg/eigs.h"

#include "core/status.h"

#include <arpack/arpack.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Lanczos basis sizes.  lambda_max of a cloth's matrix sits in a cluster (relative gaps of
 * 1e-4 and less), and a larger basis needs fewer restarts: on a 2-D cloth-like matrix of
 * 50 000 unknowns ncv = 40 takes about 840 products with A against 1225 for ncv = 24, and
 * the orthogonalisation against the basis (n ncv flops a step) keeps larger ones from
 * paying.  lambda_min under shift-invert is 1/nu, usually well separated; but a falling
 * cloth's matrix is nearly m/h^2 I, whose bottom is a cluster too, and there 8 vectors
 * settled on the second eigenvalue (1.8e-5 above the first, the newton tests' drape):
 * 20 find the first. */
#define NCV_MAX 40
#define NCV_MIN 20
/* Restarts allowed: lambda_max of the (-1, 2, -1) matrix of 3000 unknowns, whose top
 * eigenvalues are 3e-6 apart, takes about 370 at tol = 1e-8. */
#define MAX_RESTARTS 3000

/* ARPACK's SAVE variables are process-wide (eigs.h): one Lanczos run at a time. */
static pthread_mutex_t arpack_lock = PTHREAD_MUTEX_INITIALIZER;

struct cloth__eigs {
    int n;          /* rows and columns                                        */
    int ncv_max;    /* Lanczos vectors for lambda_max, min(n, NCV_MAX)         */
    int ncv_min;    /* and for lambda_min, min(n, NCV_MIN)                     */
    double *resid;  /* n: the start vector in, the final residual out          */
    double *v;      /* n ncv_max: the Lanczos basis                            */
    double *workd;  /* 3 n: the vectors of the reverse communication           */
    double *workl;  /* ncv_max (ncv_max + 8), ARPACK's minimum: the tridiagonal
                       matrix and ARPACK's bookkeeping                         */
    double *d;      /* ncv: Ritz values from dseupd                            */
    int *select;    /* ncv: dseupd's selection (unused with howmny = "A")      */
    double floor;   /* known lower bound of lambda_min, or -inf                */
    double lo_last; /* lambda_min of the last call with a floor, or NaN        */
    double *y_top;  /* n: the last call's top Ritz vector (with a floor)       */
    double *y_new;  /* n: this call's                                          */
    int have_top;   /* y_top holds one                                         */
    double *y_bot;  /* n: the last call's bottom Ritz vector (with a floor)    */
    int have_bot;   /* y_bot holds one                                         */
};

void cloth__eigs_forget(cloth__eigs *e)
{
    e->lo_last = NAN;
    e->have_top = 0;
    e->have_bot = 0;
}


void cloth__eigs_set_floor(cloth__eigs *e, double floor)
{
    e->floor = floor;
}

cloth_status cloth__eigs_create(int n, cloth__eigs **out, cloth_error *err)
{
    *out = NULL;
    if (n < 2)
        return cloth__fail(err, CLOTH_EINVAL, "ARPACK: %d unknowns (need at least 2)", n);
    cloth__eigs *e = calloc(1, sizeof *e);
    if (e) {
        e->n = n;
        e->floor = -INFINITY;
        e->lo_last = NAN;
        e->ncv_max = n < NCV_MAX ? n : NCV_MAX;
        e->ncv_min = n < NCV_MIN ? n : NCV_MIN;
        size_t ncv = (size_t)e->ncv_max;
        e->resid = malloc((size_t)n * sizeof *e->resid);
        e->v = malloc((size_t)n * ncv * sizeof *e->v);
        e->workd = malloc(3 * (size_t)n * sizeof *e->workd);
        e->workl = malloc(ncv * (ncv + 8) * sizeof *e->workl);
        e->d = malloc(ncv * sizeof *e->d);
        e->y_top = malloc((size_t)n * sizeof *e->y_top);
        e->y_new = malloc((size_t)n * sizeof *e->y_new);
        e->y_bot = malloc((size_t)n * sizeof *e->y_bot);
        e->select = calloc(ncv, sizeof *e->select); /* ARPACK's C wrapper reads it */
    }
    if (!e || !e->resid || !e->v || !e->workd || !e->workl || !e->d || !e->select ||
        !e->y_top || !e->y_new || !e->y_bot) {
        cloth__eigs_destroy(e);
        return cloth__fail(err, CLOTH_ENOMEM,
                           "ARPACK: out of memory for %d unknowns (%d Lanczos vectors)", n,
                           n < NCV_MAX ? n : NCV_MAX);
    }
    *out = e;
    return CLOTH_OK;
}

void cloth__eigs_destroy(cloth__eigs *e)
{
    if (!e)
        return;
    free(e->resid);
    free(e->v);
    free(e->workd);
    free(e->workl);
    free(e->d);
    free(e->select);
    free(e->y_top);
    free(e->y_new);
    free(e->y_bot);
    free(e);
}

/* ------------------------------------------------------------------ ARPACK's info */

/* ARPACK's meaning of info (dsaupd.f and dseupd.f), and whether it is our call's fault. */
static const char *reason(int info, int *illegal)
{
    *illegal = 0;
    switch (info) {
    case 1: return "no convergence within the restarts allowed";
    case 3: return "no shifts could be applied in a restart (ncv too small)";
    case -8: return "the tridiagonal eigenvalue problem failed (LAPACK dsteqr)";
    case -9: return "the start vector is zero";
    case -14: return "dsaupd found no eigenvalue to the tolerance";
    case -9999: return "no Lanczos factorisation could be built";
    }
    *illegal = 1;
    switch (info) {
    case -1: return "n must be positive";
    case -2: return "nev must be positive";
    case -3: return "ncv must be greater than nev and at most n";
    case -4: return "the restart cap must be positive";
    case -5: return "which is not one of LM, SM, LA, SA, BE";
    case -6: return "bmat is not I or G";
    case -7: return "workl is too short";
    case -17: return "dseupd counts other converged Ritz values than dsaupd";
    }
    return "an illegal argument";
}

static cloth_status fail_arpack(const char *routine, int info, const char *what,
                                double tol, cloth_error *err)
{
    int illegal;
    const char *why = reason(info, &illegal);
    if (info == 1)
        return cloth__fail(err, CLOTH_ENUMERIC,
                           "ARPACK: %s: %s (%d, to relative tolerance %g) for %s (info = %d)",
                           routine, why, MAX_RESTARTS, tol, what, info);
    return cloth__fail(err, illegal ? CLOTH_EINVAL : CLOTH_ENUMERIC,
                       "ARPACK: %s: %s for %s (info = %d)", routine, why, what, info);
}

/* ------------------------------------------------------------------ Lanczos */

/* Ones, each perturbed by up to 10 % from a hash of its index (Knuth's multiplicative
 * hash): no symmetry of the matrix makes it orthogonal to an extreme eigenvector, and it
 * is the same on every run. */
static void start_vector(cloth__eigs *e)
{
    for (int i = 0; i < e->n; i++) {
        unsigned h = ((unsigned)i * 2654435761u) >> 16;
        e->resid[i] = 1 + 0.1 * (double)(h & 0xffff) / 65536.0;
    }
}

/* One eigenvalue of A: mode 1 with which = "LA" (the largest, OP = A), or mode 3 with
 * which = "LM" (the nearest to sigma, OP = (A - sigma I)^-1 by ch, which holds that
 * factor), with ncv Lanczos vectors, from `start` (NULL: start_vector's); its Ritz vector
 * into y when y is not NULL.  Called with arpack_lock held. */
static cloth_status lanczos(cloth__eigs *e, const cloth__sparse *A, cloth__chol *ch, int mode,
                            int ncv, const double *start, double sigma, double tol,
                            double *lambda, double *y, cloth_error *err)
{
    const char *which = mode == 1 ? "LA" : "LM", *what = mode == 1 ? "lambda_max" : "lambda_min";
    int n = e->n, ido = 0, info = 1; /* info = 1: resid holds our start vector */
    int iparam[11] = {0}, ipntr[14] = {0};
    int lworkl = ncv * (ncv + 8);
    iparam[0] = 1;              /* exact shifts */
    iparam[2] = MAX_RESTARTS;
    iparam[6] = mode;
    if (start)
        memcpy(e->resid, start, (size_t)n * sizeof *e->resid);
    else
        start_vector(e);
    for (;;) {
        dsaupd_c(&ido, "I", n, which, 1, tol, e->resid, ncv, e->v, n, iparam, ipntr, e->workd,
                 e->workl, lworkl, &info);
        if (ido != -1 && ido != 1)
            break;
        /* y = OP x, x and y in workd at ipntr[0] and ipntr[1] (1-based) */
        const double *x = e->workd + ipntr[0] - 1;
        double *y = e->workd + ipntr[1] - 1;
        if (mode == 1) {
            cloth__sparse_mul(A, x, y);
        } else {
            cloth_status st = cloth__chol_solve(ch, x, y, err);
            if (st != CLOTH_OK)
                return st;
        }
    }
    if (info != 0)
        return fail_arpack("dsaupd", info, what, tol, err);
    if (iparam[4] < 1)
        return fail_arpack("dsaupd", 1, what, tol, err);
    /* the Ritz value (and vector when asked); in mode 3 dseupd returns lambda = sigma +
     * 1/nu */
    dseupd_c(y != NULL, "A", e->select, e->d, y ? y : e->v, n, sigma, "I", n, which, 1, tol,
             e->resid, ncv, e->v, n, iparam, ipntr, e->workd, e->workl, lworkl, &info);
    if (info != 0)
        return fail_arpack("dseupd", info, what, tol, err);
    *lambda = e->d[0];
    return CLOTH_OK;
}

/* lambda_max from the last call's top Ritz vector, certified (issue 34).  A Newton
 * iterate's matrix differs little from the last one, so Lanczos from the last top
 * eigenvector converges in about one basis (ncv_min products against 100-160 from the
 * fixed start).  But the top of a cloth's spectrum is a cluster whose members cross from
 * one matrix to the next, and a start vector with almost no component along the new top
 * eigenvector converges to the one below it (measured: 6.7e-6 low) with as small a
 * residual.  So the Ritz value theta, which is <= lambda_max (a Rayleigh quotient), is
 * accepted only with a proof that lambda_max < theta (1 + tol): a Cholesky factor of
 * theta (1 + tol) I - A, which exists iff that matrix is positive definite.  CHOLMOD
 * factors -A + beta I over A's own arrays, negated for the factor and negated back
 * (negation is exact, so A's values come back bit for bit), in A's pattern, already
 * analysed.  The factor's smallest pivot is about tol theta: far from round-off's
 * 1e-16 theta.  One factorisation (about 25 products' time at 30 x 24) for 75-140
 * products saved.  CLOTH_OK with *hi when certified (the Ritz vector becomes the next
 * start), else CLOTH_ENUMERIC and the caller starts afresh. */
static cloth_status warm_lambda_max(cloth__eigs *e, const cloth__sparse *A, cloth__chol *ch,
                                    double tol, double *hi, cloth_error *err)
{
    double theta;
    cloth_error ignored;
    if (lanczos(e, A, ch, 1, e->ncv_min, e->y_top, 0, tol, &theta, e->y_new, &ignored) !=
            CLOTH_OK ||
        !(theta > 0)) {
        return CLOTH_ENUMERIC;
    }
    int nnz = A->colp[A->n];
    for (int k = 0; k < nnz; k++)
        A->val[k] = -A->val[k];
    int certified = cloth__chol_factor_shifted(ch, A, theta * (1 + tol), &ignored) ==
                    CLOTH_OK;
    for (int k = 0; k < nnz; k++)
        A->val[k] = -A->val[k];
    if (!certified) {
        return cloth__fail(err, CLOTH_ENUMERIC, "ARPACK: warm lambda_max not certified");
    }
    memcpy(e->y_top, e->y_new, (size_t)e->n * sizeof *e->y_top);
    *hi = theta;
    return CLOTH_OK;
}

/* lambda_min at the floor, for one product: theta = y'A y / y'y of the last call's bottom
 * Ritz vector y is >= lambda_min (a Rayleigh quotient), and lambda_min >= floor; so when
 * theta <= floor (1 + tol), lambda_min lies in [floor, theta], and theta is lambda_min to
 * tol relative, proved (round-off in theta: about n 1e-16 lambda_max, 1e-11 of the
 * floor at 30 x 24).  A falling or draped cloth's matrix is there most of the time: its
 * bottom cluster sits within 1e-7 of m/h^2 (the 64 x 64 drape of
 * experiments/pcg_iters.ini: lambda_min/floor - 1 is 3e-9 at the median iteration),
 * and then neither the factor of A - sigma I nor the shift-invert pass is needed.  A
 * stretched cloth's is not (the hanging scene's: 1e-3 to 3e-3 above), and the check
 * costs one product.  1 with *lo when it holds. */
static int bottom_at_floor(cloth__eigs *e, const cloth__sparse *A, double tol, double *lo)
{
    double *Ay = e->workd, yAy = 0, yy = 0;
    cloth__sparse_mul(A, e->y_bot, Ay);
    for (int i = 0; i < e->n; i++) {
        yAy += e->y_bot[i] * Ay[i];
        yy += e->y_bot[i] * e->y_bot[i];
    }
    double theta = yAy / yy;
    if (!(theta <= e->floor * (1 + tol)))
        return 0;
    *lo = theta;
    return 1;
}

cloth_status cloth__eigs_range(cloth__eigs *e, const cloth__sparse *A, cloth__chol *ch,
                               double eps, double tol, double *lo, double *hi,
                               cloth_error *err)
{
    if (A->n != e->n)
        return cloth__fail(err, CLOTH_EINVAL, "ARPACK: a %d x %d matrix for workspaces of %d",
                           A->n, A->n, e->n);
    if (!(tol > 0 && tol < 1))
        return cloth__fail(err, CLOTH_EINVAL, "ARPACK: tolerance %g (need 0 < tol < 1)", tol);
    pthread_mutex_lock(&arpack_lock);
    cloth_status st = e->floor > 0 && e->have_top ? warm_lambda_max(e, A, ch, tol, hi, err)
                                                  : CLOTH_ENUMERIC;
    if (st != CLOTH_OK) /* none to start from, or not certified: from the fixed start */
        st = lanczos(e, A, ch, 1, e->ncv_max, NULL, 0, tol, hi,
                     e->floor > 0 ? e->y_top : NULL, err);
    e->have_top = st == CLOTH_OK && e->floor > 0;
    /* lambda_min: with a floor, shift-invert about sigma = floor - 1e-3 floor, below the
     * spectrum, so A - sigma I is positive definite (one more factor); its bottom
     * eigenvalues, clustered within 1e-7 of each other, become 1/(lambda - sigma),
     * spread by 1e-4 and more, which Lanczos resolves in a few restarts.  Without one
     * (or if that factor fails) about -eps with the caller's factor of A + eps I.
     * Neither when the last bottom Ritz vector proves lambda_min at the floor. */
    int at_floor = st == CLOTH_OK && e->floor > 0 && e->have_bot &&
                   bottom_at_floor(e, A, tol, lo);
    if (at_floor)
        e->lo_last = *lo;
    int shifted = at_floor, unfactored = 0;
    if (st == CLOTH_OK && e->floor > 0 && !at_floor) {
        double sigma = e->floor * (1 - 1e-3);
        cloth_error ignored;
        shifted = cloth__chol_factor_shifted(ch, A, -sigma, &ignored) == CLOTH_OK;
        /* ARPACK's residual bounds nu to tol_nu relative, so lambda - sigma too: lambda
         * is known to tol_nu (lambda - sigma), which is tol lambda for tol_nu = tol
         * lambda / (lambda - sigma), 1e3 tol at the floor and less above it.  The first
         * pass asks for what the last call's lambda needed, halved (a Newton iterate's
         * lambda_min moves by 1e-4 relative, and the need only shrinks when lambda moves
         * away from the floor), or 1e-4 when there was none; a second pass runs only if
         * that was not enough.  A pass costs ncv solves at least, so one pass at the
         * right tolerance is about half of a loose one and a tight one (issue 34); the
         * tolerance never goes below tol, nor ARPACK's work beyond what the need asks. */
        double loose = 1e-4, first = loose;
        if (isfinite(e->lo_last) && e->lo_last > sigma)
            first = fmin(loose, fmax(tol, 0.5 * tol * e->lo_last / (e->lo_last - sigma)));
        if (shifted) {
            st = lanczos(e, A, ch, 3, e->ncv_min, NULL, sigma, first, lo, e->y_bot, err);
            double need = st == CLOTH_OK ? tol * *lo / (*lo - sigma) : first;
            if (need < first)
                st = lanczos(e, A, ch, 3, e->ncv_min, NULL, sigma, fmax(need, tol), lo,
                             e->y_bot, err);
            e->lo_last = st == CLOTH_OK ? *lo : NAN;
            e->have_bot = st == CLOTH_OK;
        } else { /* the caller's factor is gone: made again */
            unfactored = (st = cloth__chol_factor_shifted(ch, A, eps, err)) == CLOTH_ENUMERIC;
        }
    }
    int row, col;
    if (unfactored && cloth__sparse_find_nonfinite(A, &row, &col) < 0) {
        /* A + eps I is not positive definite: lambda_min < -eps, the range has no bottom */
        *lo = -INFINITY;
        st = CLOTH_OK;
        shifted = 1; /* nothing more to find */
    }
    if (st == CLOTH_OK && !shifted)
        st = lanczos(e, A, ch, 3, e->ncv_min, NULL, -eps, tol, lo, NULL, err);
    pthread_mutex_unlock(&arpack_lock);
    return st;
}

cloth_status cloth__eigs_cond(cloth__eigs *e, const cloth__sparse *A, cloth__chol *ch,
                              double eps, double tol, double *cond, cloth_error *err)
{
    double lo, hi;
    cloth_status st = cloth__eigs_range(e, A, ch, eps, tol, &lo, &hi, err);
    if (st == CLOTH_OK)
        *cond = lo > 0 ? hi / lo : INFINITY;
    return st;
}
