/* Private: the explicit kernel's settings, its [explicit] keys (explicit.c). */
#ifndef CLOTH_KERNELS_EXPLICIT_H
#define CLOTH_KERNELS_EXPLICIT_H

#include "kernels/coloured.h"
#include "sim/kernel.h"

typedef enum {
    CLOTH__EULER_FORWARD = 0,
    CLOTH__EULER_SYMPLECTIC = 1,
    CLOTH__VELOCITY_VERLET = 2,
    CLOTH__RK4 = 3
} cloth__euler_scheme;

typedef struct cloth__explicit_def {
    cloth__euler_scheme scheme; /* forward, symplectic (Euler), velocity-verlet, rk4   */
    double decay;               /* velocity factor per step (1 = none; the explicit
                                 * mass-spring tutorial's 0.98)                       */
    cloth__order order;         /* spring forces: sequential or coloured scatter      */
    double strain_limit;        /* Provot's tau_c; 0 = off                            */
    int strain_passes;          /* Provot correction sweeps per step at most          */
    double strain_tol;          /* a spring exceeds when l > (1+tau_c) l0 (1+tol)     */
} cloth__explicit_def;

CLOTH__SETTINGS_FIT(cloth__explicit_def);

#endif
