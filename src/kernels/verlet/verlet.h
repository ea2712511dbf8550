/* Private: the verlet kernel's settings, its [verlet] keys (verlet.c). */
#ifndef CLOTH_KERNELS_VERLET_H
#define CLOTH_KERNELS_VERLET_H

#include "kernels/coloured.h"
#include "sim/kernel.h"
#include "terms/strain_project.h"

typedef enum { CLOTH__VERLET_RELAX = 0, CLOTH__VERLET_PROVOT = 1 } cloth__verlet_mode;

typedef struct cloth__verlet_def {
    cloth__verlet_mode mode;    /* relax: the Verlet cloth web demo's relaxation;
                                 * provot: Hooke forces                               */
    double damping;             /* per-step factor d (the Verlet cloth web demo's)    */
    double damping_rate;        /* c > 0 overrides: d = exp(-c h)                     */
    int iterations;             /* relaxation passes per step                         */
    double k_relax;             /* relaxation stiffness (the Verlet cloth web demo's) */
    double strain_limit;        /* Provot's tau_c; 0 = off                            */
    int strain_passes;          /* Provot correction passes at most                   */
    double strain_tol;          /* a spring exceeds when l > (1+tau_c) l0 (1+tol)     */
    cloth__order order;         /* relaxation and Provot sweeps: sequential, coloured */
    cloth__limit_measure strain_measure; /* edge: Provot on springs; triangle: sigma of F
                                 * clamped per triangle (isotropic strain limiting)  */
} cloth__verlet_def;

CLOTH__SETTINGS_FIT(cloth__verlet_def);

#endif
