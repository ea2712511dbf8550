/* Private: the pd kernel's settings, its [pd] keys (pd.c), and what its test reads of
 * its work. */
#ifndef CLOTH_KERNELS_PD_H
#define CLOTH_KERNELS_PD_H

#include "sim/kernel.h"

typedef struct cloth__pd_def {
    int iterations;             /* local/global iterations per step                  */
    double w_spring;            /* spring constraint weight = w_spring k (each spring,
                                 * every family; 0 = no springs)                      */
    double w_strain;            /* triangle strain weight per rest area (N/m); 0 = off */
    double strain_limit;        /* tau; 0 = off: springs get a limit constraint
                                 * l <= (1 + tau) l0, triangles project their singular
                                 * values into [1 - tau, 1 + tau]                    */
    double w_limit;             /* the springs' limit constraint weight = w_limit k   */
    double chebyshev_rho;       /* Wang 2015's spectral radius estimate; 0 = off      */
} cloth__pd_def;

CLOTH__SETTINGS_FIT(cloth__pd_def);

/* The nearest 3 x 2 matrix to F (row-major) in Frobenius norm whose singular values lie
 * in [lo, hi], into P: the triangles' local step (Bouaziz section 5). */
void cloth__pd_project_strain(const double F[6], double lo, double hi, double P[6]);

/* Numeric factorisations of the global matrix since the work was built (tests). */
long cloth__pd_factorisations(const void *work);

#endif
