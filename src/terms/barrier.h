/* Private: the two barrier curves of the newton kernel (SPEC 4.4), on the unsquared gap
 * g with activation distance g^ (dhat).  Both are zero, with zero first and second
 * derivative, for g >= g^, so a contact enters the energy smoothly (C^2).
 *
 *   log (IPC, Li et al. 2020):  psi   = -(g - g^)^2 ln(g/g^)
 *                               psi'  = (g^ - g)(2 ln(g/g^) - g^/g + 1)
 *                               psi'' = (g^/g + 2)(g^/g) - 2 ln(g/g^) - 3   (-> inf as g
 *                               -> 0)
 *   cubic (ZOZO, Ando 2024):    psi   = (2/(3 g^)) (g^ - g)^3
 *                               psi'  = -(2/g^) (g^ - g)^2
 *                               psi'' = 4 (1 - g/g^)                        (<= 4)
 *
 * The cubic-barrier article writes the cubic as kappa (1 - g/g^)^3: the same curve with
 * kappa rescaled by 2 g^2 / 3.  The normalisation here makes psi''(0) = 4 independent
 * of g^. */
#ifndef CLOTH_BARRIER_H
#define CLOTH_BARRIER_H

#include "cloth.h"

/* The barrier curve of newton.barrier: log (IPC), cubic (ZOZO) or none. */
typedef enum { CLOTH__BARRIER_LOG = 0, CLOTH__BARRIER_CUBIC = 1, CLOTH__BARRIER_NONE = 2 } cloth__barrier_kind;

/* psi(g) of the given barrier; writes psi'(g) to d1 and psi''(g) to d2 when they are not
 * NULL.  CLOTH__BARRIER_NONE is zero everywhere.  The log barrier is infinite for g <= 0
 * (psi = +inf, psi' = -inf, psi'' = +inf); the cubic is a polynomial and is evaluated as
 * such for any g < g^ (the line search keeps g > 0, not the curve). */
double cloth__barrier(cloth__barrier_kind kind, double g, double dhat, double *d1, double *d2);

/* "log", "cubic" or "none". */
const char *cloth__barrier_name(cloth__barrier_kind kind);

#endif
