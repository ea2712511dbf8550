/* Private: the newton kernel's incremental potential as the tests evaluate it at any x
 * (newton_potential.c; the step itself calls cloth__newton_energy with its context,
 * newton_work.h). */
#ifndef CLOTH_NEWTON_POTENTIAL_H
#define CLOTH_NEWTON_POTENTIAL_H

#include "sim/sim.h"

typedef struct cloth__newton cloth__newton; /* the work memory, newton_work.h          */

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

#endif
