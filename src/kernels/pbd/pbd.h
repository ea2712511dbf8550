/* Private: the pbd kernel's settings, its [pbd] keys (pbd.c). */
#ifndef CLOTH_KERNELS_PBD_H
#define CLOTH_KERNELS_PBD_H

#include "kernels/coloured.h"
#include "sim/kernel.h"
#include "terms/strain_project.h"

typedef enum { CLOTH__PBD_XPBD = 0, CLOTH__PBD_PLAIN = 1 } cloth__pbd_variant;
typedef enum { CLOTH__PBD_BEND_SPRINGS = 0, CLOTH__PBD_BEND_DIHEDRAL = 1 } cloth__pbd_bending;

typedef struct cloth__pbd_def {
    cloth__pbd_variant variant; /* xpbd (compliance 1/k) or pbd (k_pbd)               */
    int iterations;             /* Gauss-Seidel passes per step                       */
    cloth__pbd_bending bending; /* bend springs as distances, or dihedral hinges      */
    double k_pbd;               /* PBD stiffness factor in (0, 1]                     */
    double k_pbd_bend;          /* the same for bending constraints, in [0, 1]        */
    double damping;             /* velocity damping factor in [0, 1]                  */
    cloth__order order;         /* Gauss-Seidel order: sequential or coloured         */
    double strain_limit;        /* tau of the unilateral strain limit; 0 = off        */
    cloth__limit_measure strain_measure; /* edge: l <= (1+tau) l0 per stretch spring;
                                 * triangle: sigma1 <= 1 + tau per triangle           */
    double strain_tol;          /* a step converged when no limit exceeds by (1+tol)  */
} cloth__pbd_def;

CLOTH__SETTINGS_FIT(cloth__pbd_def);

#endif
