/* Private: the newton kernel's settings, its [newton] keys (newton.c). */
#ifndef CLOTH_KERNELS_NEWTON_DEF_H
#define CLOTH_KERNELS_NEWTON_DEF_H

#include "sim/kernel.h"
#include "terms/barrier.h"
#include "terms/stiffness.h"

typedef enum {
    CLOTH__KAPPA_FIXED = 0,
    CLOTH__KAPPA_IPC = 1,
    CLOTH__KAPPA_DYNAMIC = 2
} cloth__kappa_rule;
typedef enum {
    CLOTH__KAPPA_PER_STEP = 0,
    CLOTH__KAPPA_PER_ITERATION = 1,
    CLOTH__KAPPA_MONOTONE = 2
} cloth__kappa_update;
typedef enum {
    CLOTH__COND_EXACT = 0,
    CLOTH__COND_ESTIMATE = 1,
    CLOTH__COND_OFF = 2
} cloth__cond_mode;
typedef enum { CLOTH__STRAIN_TRIANGLE = 0, CLOTH__STRAIN_EDGE = 1 } cloth__strain_measure;
typedef enum {
    CLOTH__SOLVER_CHOLMOD = 0,
    CLOTH__SOLVER_PCG = 1,
    CLOTH__SOLVER_DENSE = 2
} cloth__solver;
typedef enum { CLOTH__CONTACT_FULL = 0, CLOTH__CONTACT_VERTEX = 1 } cloth__contact_set;
typedef enum {
    CLOTH__CONTACT_HESSIAN_PROJECT = 0,
    CLOTH__CONTACT_HESSIAN_GAUSS_NEWTON = 1,
    CLOTH__CONTACT_HESSIAN_EXACT = 2
} cloth__contact_hessian;
typedef enum {
    CLOTH__SPRING_HESSIAN_ADAPTIVE = 0,
    CLOTH__SPRING_HESSIAN_PROJECT = 1
} cloth__spring_hessian_rule;
typedef enum {
    CLOTH__INTEGRATOR_EULER = 0,
    CLOTH__INTEGRATOR_BDF2 = 1,
    CLOTH__INTEGRATOR_MIDPOINT = 2
} cloth__newton_integrator;

typedef enum { CLOTH__LOOP_CONVERGE = 0, CLOTH__LOOP_ZOZO = 1 } cloth__newton_loop;
typedef enum { CLOTH__LAST_STEP_ARMIJO = 0, CLOTH__LAST_STEP_FULL = 1 } cloth__last_step;

typedef struct cloth__newton_def {
    cloth__newton_integrator integrator; /* euler (implicit), bdf2 or midpoint (implicit) */
    cloth__barrier_kind barrier;      /* log (IPC), cubic (ZOZO) or none                    */
    double dhat;                /* barrier activation distance g^ (m)                 */
    cloth__kappa_rule kappa;     /* fixed, ipc or dynamic                              */
    double kappa_value;         /* fixed kappa; < 0 means auto                        */
    cloth__kappa_update kappa_update; /* step, iteration or monotone                    */
    double strain_limit;        /* tau of the strain barrier; 0 = off                 */
    double strain_band;         /* beta: the barrier acts for strain > (1 - beta) tau  */
    cloth__strain_measure strain_measure; /* triangle (singular values) or edge        */
    cloth__kappa_form kappa_form;/* paper (published) or si (unit-consistent) mass term */
    cloth__contact_set contact;  /* self-contact terms: full (point-triangle and
                                 * edge-edge) or vertex (vertex-vertex)               */
    cloth__contact_hessian contact_hessian; /* contact Hessians made PSD by eigenvalue
                                 * projection or Gauss-Newton, or exact (indefinite)  */
    cloth__spring_hessian_rule spring_hessian; /* springs' Hessians: projected always, or
                                 * as they are once the projected model is seen to
                                 * cost (adaptive; newton.c)                          */
    double friction;            /* Coulomb coefficient mu of contacts (0 = none)      */
    double friction_eps;        /* eps_v: slip speed below which friction sticks
                                 * elastically (m/s)                                  */
    double tol;                 /* stop when |dx|_inf / h < tol * L                   */
    int max_iters;              /* Newton iterations per step at most                 */
    cloth__last_step last_step; /* a step already within tol: armijo (searched like
                                 * any) or full (taken whole when feasible; newton.c) */
    cloth__newton_loop loop;     /* converge (Newton to tol) or zozo (ZOZO's inexact
                                 * loop to an accumulated time of impact)             */
    double target_toi;          /* zozo: accumulated fraction of the step to reach    */
    double max_dx;              /* zozo: a vertex moves at most this far a solve (m)  */
    cloth__cond_mode cond;       /* condition number: exact, estimate or off           */
    int cond_exact_max;         /* dsyevd up to this many unknowns, ARPACK above      */
    double eta;                 /* line search keeps gaps above eta * current gap     */
    cloth__solver solver;        /* the Newton system's solver: cholmod, pcg or dense  */
    double pcg_tol;             /* PCG stops at |r| <= pcg_tol |b|                    */
    int factor_reuse;           /* cholmod: PCG iterations preconditioned by the last
                                 * factor before H is factored afresh; 0 = every
                                 * iteration factors                                  */
    double reuse_tol;           /* and the relative residual they must reach          */
    int pcg_max_iters;          /* PCG iterations at most (then reported)             */
} cloth__newton_def;

CLOTH__SETTINGS_FIT(cloth__newton_def);

/* The [newton] section's keys (newton_keys.c), one a field above. */
#define CLOTH__NEWTON_N_KEYS 30
extern const cloth__key cloth__newton_keys[CLOTH__NEWTON_N_KEYS];

#endif
