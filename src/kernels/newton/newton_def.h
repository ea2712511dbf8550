/* Private: the newton kernel's settings, its [newton] keys (newton.c). */
#ifndef CLOTH_KERNELS_NEWTON_DEF_H
#define CLOTH_KERNELS_NEWTON_DEF_H

#include "sim/kernel.h"
#include "terms/barrier.h"
#include "terms/stiffness.h"

typedef enum { CLOTH_KAPPA_FIXED = 0, CLOTH_KAPPA_IPC = 1, CLOTH_KAPPA_DYNAMIC = 2 } cloth_kappa_rule;
typedef enum { CLOTH_KAPPA_PER_STEP = 0, CLOTH_KAPPA_PER_ITERATION = 1 } cloth_kappa_update;
typedef enum { CLOTH_COND_EXACT = 0, CLOTH_COND_ESTIMATE = 1, CLOTH_COND_OFF = 2 } cloth_cond_mode;
typedef enum { CLOTH_STRAIN_TRIANGLE = 0, CLOTH_STRAIN_EDGE = 1 } cloth_strain_measure;
typedef enum { CLOTH_SOLVER_CHOLMOD = 0, CLOTH_SOLVER_PCG = 1, CLOTH_SOLVER_DENSE = 2 } cloth_solver;
typedef enum { CLOTH_CONTACT_FULL = 0, CLOTH_CONTACT_VERTEX = 1 } cloth_contact_set;
typedef enum { CLOTH_CONTACT_HESSIAN_PROJECT = 0, CLOTH_CONTACT_HESSIAN_GAUSS_NEWTON = 1 } cloth_contact_hessian;
typedef enum { CLOTH_INTEGRATOR_EULER = 0, CLOTH_INTEGRATOR_BDF2 = 1, CLOTH_INTEGRATOR_MIDPOINT = 2 } cloth_newton_integrator;

typedef struct cloth_newton_def {
    cloth_newton_integrator integrator; /* euler (implicit), bdf2 or midpoint (implicit) */
    cloth_barrier barrier;      /* log (IPC), cubic (ZOZO) or none                    */
    double dhat;                /* barrier activation distance g^ (m)                 */
    cloth_kappa_rule kappa;     /* fixed, ipc or dynamic                              */
    double kappa_value;         /* fixed kappa; < 0 means auto                        */
    cloth_kappa_update kappa_update; /* step or iteration                              */
    double strain_limit;        /* tau of the strain barrier; 0 = off                 */
    double strain_band;         /* beta: the barrier acts for strain > (1 - beta) tau  */
    cloth_strain_measure strain_measure; /* triangle (singular values) or edge        */
    cloth_kappa_form kappa_form;/* paper (published) or si (unit-consistent) mass term */
    cloth_contact_set contact;  /* self-contact terms: full (point-triangle and
                                 * edge-edge) or vertex (vertex-vertex)               */
    cloth_contact_hessian contact_hessian; /* self-contact Hessians made PSD by
                                 * eigenvalue projection or Gauss-Newton              */
    double friction;            /* Coulomb coefficient mu of contacts (0 = none)      */
    double friction_eps;        /* eps_v: slip speed below which friction sticks
                                 * elastically (m/s)                                  */
    double tol;                 /* stop when |dx|_inf / h < tol * L                   */
    int max_iters;              /* Newton iterations per step at most                 */
    cloth_cond_mode cond;       /* condition number: exact, estimate or off           */
    int cond_exact_max;         /* exact eigenvalues up to this many unknowns         */
    double eta;                 /* line search keeps gaps above eta * current gap     */
    cloth_solver solver;        /* the Newton system's solver: cholmod, pcg or dense  */
    double pcg_tol;             /* PCG stops at |r| <= pcg_tol |b|                    */
    int pcg_max_iters;          /* PCG iterations at most (then reported)             */
} cloth_newton_def;

CLOTH__SETTINGS_FIT(cloth_newton_def);

#endif
