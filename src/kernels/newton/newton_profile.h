/* Private: the newton kernel's stage profile (newton.c fills it, the benchmark reads it
 * through cloth__newton_profile_get, newton.h).  A header of its own so that the work
 * memory (newton_work.h) keeps one without including newton.h back. */
#ifndef CLOTH_NEWTON_PROFILE_H
#define CLOTH_NEWTON_PROFILE_H

/* Wall time spent in each stage of the Newton iterations since the sim was created or
 * reset (for the benchmark, SPEC 9): assembly (contact set, E, grad E, H), analyse
 * (CHOLMOD's ordering and symbolic factor, when the pattern changed), factor (numeric
 * factorisation with any Tikhonov retries; dense: dpotrf), solve (triangular solves, or
 * all of PCG), cond (condition number), line search (feasibility filter and the Armijo
 * energies); and the sizes behind them.  Times never reach the CSV files, which stay
 * deterministic. */
typedef struct cloth__newton_profile {
    long iterations;            /* Newton iterations timed                            */
    long steps;                 /* time steps those iterations belong to              */
    long factorizations;        /* numeric factorisations of H by the solve stage
                                 * (cholmod, dense; Tikhonov retries count once):
                                 * per step, the yardstick                    */
    double assembly_ms;
    double analyse_ms;
    double factor_ms;
    double solve_ms;
    double cond_ms;
    double line_search_ms;
    double broad_ms;            /* of those: the broad phase of self-contact (assembly
                                 * and line search)                                   */
    double distance_ms;         /* the distances of its candidates (assembly)         */
    double ccd_ms;              /* continuous collision detection (line search)       */
    long ccd_queries;           /* point-triangle and edge-edge CCD queries           */
    long analyses;              /* symbolic analyses (pattern changes) since create   */
    long lin_iters;             /* PCG iterations, summed                             */
    long cond_dsyevd;           /* exact condition numbers by dsyevd (dense H)        */
    long cond_arpack;           /* and by ARPACK's Lanczos (newton.cond_exact_max)    */
    long nnz;                   /* entries of H's upper triangle, at the last iteration */
    long factor_nnz;            /* entries of the last Cholesky factor (0: none)      */
} cloth__newton_profile;

#endif
