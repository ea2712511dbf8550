/* Private: the pbd kernel's settings, its [pbd] keys (pbd.c). */
#ifndef CLOTH_KERNELS_PBD_H
#define CLOTH_KERNELS_PBD_H

#include "kernels/coloured.h"
#include "sim/kernel.h"

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
} cloth__pbd_def;

CLOTH__SETTINGS_FIT(cloth__pbd_def);

#endif
