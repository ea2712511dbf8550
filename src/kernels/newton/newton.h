/* Private: what the registry and the tests see of the newton kernel — its table entry,
 * and its incremental potential (finite differences of the whole potential need to
 * evaluate it at any x).  The work memory itself is in newton_work.h. */
#ifndef CLOTH_NEWTON_H
#define CLOTH_NEWTON_H

#include "sim/sim.h"
#include "kernels/newton/newton_def.h"

typedef struct cloth__newton cloth__newton;

extern const cloth__kernel cloth__newton_kernel;

/* Sets up a step of length h from the sim's state: x_n, x~, the wind force, the spring
 * damping directions, the kappa tables of kappa_update = step, the lagged friction.  The
 * tests call it before cloth__newton_potential (the step itself builds its context once
 * and calls cloth__newton_prepare_step, newton_work.h). */
void cloth__newton_prepare(cloth__newton *w, const cloth_sim *sim, double h);

/* The incremental potential E(x) of SPEC 4.4 at x (3n positions; pinned vertices must sit
 * where the sim has them).  grad (ndof) may be NULL; hess = 1 assembles the Newton
 * matrix into the work's sparse H (cloth__newton_hessian_dense reads it).  exact = 0
 * assembles the Newton matrix (PSD-clamped springs, contact barriers' normal part only);
 * exact = 1 the true Hessian, for finite-difference tests.  Kappa follows the scene's
 * rule; only newton.kappa = fixed makes E a fixed function of x.  For the tests: the
 * step evaluates E through cloth__newton_energy with its context. */
double cloth__newton_potential(cloth__newton *w, const cloth_sim *sim, const double *x,
                               double *grad, int hess, int exact);

/* D (ndof x ndof, both halves) <- the matrix the last cloth__newton_potential with
 * hess = 1 assembled. */
void cloth__newton_hessian_dense(const cloth__newton *w, double *D);

/* Wall time spent in each stage of the Newton iterations since the sim was created or
 * reset (for the benchmark, SPEC 9): assembly (contact set, E, grad E, H), analyse
 * (CHOLMOD's ordering and symbolic factor, when the pattern changed), factor (numeric
 * factorisation with any Tikhonov retries; dense: dpotrf), solve (triangular solves, or
 * all of PCG), cond (condition number), line search (feasibility filter and the Armijo
 * energies); and the sizes behind them.  Times never reach the CSV files, which stay
 * deterministic. */
typedef struct cloth__newton_profile {
    long iterations;            /* Newton iterations timed                            */
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
    long nnz;                   /* entries of H's upper triangle, at the last iteration */
    long factor_nnz;            /* entries of the last Cholesky factor (0: none)      */
} cloth__newton_profile;

void cloth__newton_profile_get(const cloth__newton *w, cloth__newton_profile *out);

/* Unknowns (3 per free vertex) and the first unknown of vertex i (-1 when pinned). */
int cloth__newton_ndof(const cloth__newton *w);
int cloth__newton_dof(const cloth__newton *w, int i);

#endif
