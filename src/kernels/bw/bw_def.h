/* Private: the bw kernel's settings, the fields of its [bw] keys (the key table is in
 * bw.c; Baraff and Witkin 1998, "Large Steps in Cloth Simulation"). */
#ifndef CLOTH_KERNELS_BW_DEF_H
#define CLOTH_KERNELS_BW_DEF_H

#include "sim/kernel.h"

/* Where the stretch and shear stiffnesses come from (bw.stiffness). */
typedef enum {
    CLOTH__BW_K_SPRINGS = 0,    /* triangle t: k = material.k_structural / a_t (stretch),
                                 * material.k_shear / a_t (shear)                     */
    CLOTH__BW_K_OWN = 1         /* bw.k_stretch and bw.k_shear for every triangle     */
} cloth__bw_stiffness;

/* The stretch conditions' -k C d2C/dx2 in df/dx (bw.tension_hessian). */
typedef enum {
    CLOTH__BW_TENSION_KEEP = 0, /* kept where C > 0 (stretched; positive semi-definite
                                 * there), dropped where compressed                   */
    CLOTH__BW_TENSION_DROP = 1  /* dropped everywhere (-k dC dC^T alone)               */
} cloth__bw_tension;

/* The [bw] keys. */
typedef struct cloth__bw_def {
    cloth__bw_stiffness stiffness; /* springs (the material's k) or own (bw.k_*)      */
    double k_stretch;           /* k of C_stretch = a (|w_u| - 1, |w_v| - 1)  (N/m^3)  */
    double k_shear;             /* k of C_shear = a w_u.w_v                   (N/m^3)  */
    double k_bend;              /* k of C_bend = theta - theta_0              (N m)    */
    double damping;             /* beta (s): each condition's k_d = beta k            */
    cloth__bw_tension tension;  /* the stretch conditions' second-derivative term     */
    double cg_tol;              /* epsilon of the stopping rule (section 5.3)         */
    int cg_max_iters;           /* CG iterations per step at most                     */
    double strain_limit;        /* Provot's tau_c after the step; 0 = off             */
    int strain_passes;          /* Provot sweeps per step at most                     */
    double strain_tol;          /* a spring exceeds when l > (1+tau_c) l0 (1+tol)     */
} cloth__bw_def;

CLOTH__SETTINGS_FIT(cloth__bw_def);

#endif
