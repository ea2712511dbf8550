/* newton's keys: the [newton] section of a scene, one row a field of cloth__newton_def
 * (newton_def.h), with its range, default and help line (`cloth list`, docs/keys.md). */
#include "kernels/newton/newton_def.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_kappa_value(void *owner, const char *value, char *why, size_t n)
{
    cloth__newton_def *nd = owner;
    if (strcmp(value, "auto") == 0) {
        nd->kappa_value = -1;
        return 0;
    }
    char *end;
    double v = strtod(value, &end);
    if (end == value || *end != '\0' || !isfinite(v) || v < 0) {
        snprintf(why, n, "'%s' is not auto or a finite number >= 0", value);
        return 1;
    }
    nd->kappa_value = v;
    return 0;
}

/* newton.preset = zozo: the keys of ZOZO's own configuration (ppf-contact-solver f23b356,
 * docs/kernels/newton.md), set where the preset stands: a key before it is overwritten,
 * a key after it (a later line, a sweep row, --set) wins.  none sets nothing. */
static int parse_preset(void *owner, const char *value, char *why, size_t n)
{
    cloth__newton_def *nd = owner;
    if (strcmp(value, "none") == 0)
        return 0;
    if (strcmp(value, "zozo") != 0) {
        snprintf(why, n, "'%s' is not none or zozo", value);
        return 1;
    }
    nd->integrator = CLOTH__INTEGRATOR_EULER;
    nd->loop = CLOTH__LOOP_ZOZO;           /* main.cu: solves to target_toi, then one more */
    nd->target_toi = 0.25;
    nd->max_dx = 1;
    nd->kappa = CLOTH__KAPPA_DYNAMIC;      /* barrier.cu, strainlimiting.cu: kappa per term */
    nd->kappa_update = CLOTH__KAPPA_PER_ITERATION; /* recomputed every pass, free to fall */
    nd->kappa_form = CLOTH__KAPPA_FORM_PAPER;
    nd->strain_band = 1;                   /* strainlimiting.cu: g^ = tau */
    nd->strain_measure = CLOTH__STRAIN_TRIANGLE;
    nd->solver = CLOTH__SOLVER_PCG;        /* params.rs: cg-tol 1e-3 */
    nd->pcg_tol = 1e-3;
    nd->spring_hessian = CLOTH__SPRING_HESSIAN_PROJECT; /* hook.hpp: always projected */
    nd->contact_hessian = CLOTH__CONTACT_HESSIAN_PROJECT;
    return 0;
}

#define OFF(field) offsetof(cloth__newton_def, field)
#define INF HUGE_VAL

static const char *const barrier_names[] = {"log", "cubic", "none", NULL};
static const char *const kappa_names[] = {"fixed", "ipc", "dynamic", NULL};
static const char *const update_names[] = {"step", "iteration", "monotone", NULL};
static const char *const cond_names[] = {"exact", "estimate", "off", NULL};
static const char *const measure_names[] = {"triangle", "edge", NULL};
static const char *const form_names[] = {"paper", "si", NULL};
static const char *const contact_names[] = {"full", "vertex", NULL};
static const char *const contact_hessian_names[] = {"project", "gauss-newton", "exact", NULL};
static const char *const solver_names[] = {"cholmod", "pcg", "dense", NULL};
static const char *const integrator_names[] = {"euler", "bdf2", "midpoint", NULL};
static const char *const loop_names[] = {"converge", "zozo", NULL};
static const char *const spring_hessian_names[] = {"adaptive", "project", NULL};
static const char *const last_step_names[] = {"armijo", "full", NULL};

const cloth__key cloth__newton_keys[CLOTH__NEWTON_N_KEYS] = {
    {.section = "newton", .name = "integrator", .type = CLOTH__KEY_CHOICE,
     .offset = OFF(integrator), .choices = integrator_names, .def = "euler",
     .help = "time integrator: euler (implicit, first order, damping), bdf2 (second order, "
     "mildly damping) or midpoint (implicit midpoint, symplectic)"},
    {.section = "newton", .name = "barrier", .type = CLOTH__KEY_CHOICE, .offset = OFF(barrier),
     .choices = barrier_names, .def = "cubic",
     .help = "log (IPC), cubic (ZOZO) or none (plain implicit Euler, no contact)"},
    {.section = "newton", .name = "dhat", .type = CLOTH__KEY_DOUBLE, .offset = OFF(dhat),
     .lo = 0, .hi = INF, .lo_open = 1, .hi_open = 1, .def = "0.01",
     .help = "barrier activation distance g^ of contacts (m)"},
    {.section = "newton", .name = "kappa", .type = CLOTH__KEY_CHOICE, .offset = OFF(kappa),
     .choices = kappa_names, .def = "dynamic",
     .help = "barrier stiffness: fixed, ipc (adaptive) or dynamic (ZOZO, per contact)"},
    {.section = "newton", .name = "kappa_value", .type = CLOTH__KEY_CUSTOM,
     .parse = parse_kappa_value, .def = "auto",
     .help = "fixed kappa, or auto: the dynamic rule at rest with g = g^/2"},
    {.section = "newton", .name = "kappa_update", .type = CLOTH__KEY_CHOICE,
     .offset = OFF(kappa_update), .choices = update_names, .def = "monotone",
     .help = "dynamic kappa: frozen per step when a term appears (step), recomputed per "
     "iteration (iteration), or recomputed per iteration but never below its last value in the "
     "step, nor below its value at the end of the last step while active (monotone)"},
    {.section = "newton", .name = "strain_limit", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(strain_limit), .lo = 0, .hi = 10, .def = "0",
     .help = "strain limit tau (barrier on tau - strain); 0 = off"},
    {.section = "newton", .name = "strain_band", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(strain_band), .lo = 0, .hi = 1, .lo_open = 1, .def = "1",
     .help = "beta: the strain barrier acts for strain > (1 - beta) tau (ZOZO's code, "
     "f23b356: 1, g^ = tau; its 2024 examples 0.5, which makes Newton's steps creep: "
     "docs/kernels/newton.md, issue 47)"},
    {.section = "newton", .name = "strain_measure", .type = CLOTH__KEY_CHOICE,
     .offset = OFF(strain_measure), .choices = measure_names, .def = "triangle",
     .help = "triangle (both singular values of F, as ZOZO) or edge (structural and shear "
     "springs)"},
    {.section = "newton", .name = "kappa_form", .type = CLOTH__KEY_CHOICE,
     .offset = OFF(kappa_form), .choices = form_names, .def = "paper",
     .help = "mass term of kappa: paper (m/g^2, as published) or si (unit-consistent)"},
    {.section = "newton", .name = "contact", .type = CLOTH__KEY_CHOICE, .offset = OFF(contact),
     .choices = contact_names, .def = "full",
     .help = "self-contact terms with run.self_collision: full (point-triangle and edge-edge, "
     "IPC) or vertex (vertex-vertex)"},
    {.section = "newton", .name = "contact_hessian", .type = CLOTH__KEY_CHOICE,
     .offset = OFF(contact_hessian), .choices = contact_hessian_names, .def = "project",
     .help = "contact barriers' Hessians in H: project (point-triangle and edge-edge blocks' "
     "eigenvalues clamped at 0; obstacles and vertex pairs psi'' grad g grad g^T only), "
     "gauss-newton (psi'' grad g grad g^T only) or exact (unprojected, indefinite where "
     "psi' d2g is: a shifted solve never ends a step as converged; docs/kernels/newton.md)"},
    {.section = "newton", .name = "spring_hessian", .type = CLOTH__KEY_CHOICE,
     .offset = OFF(spring_hessian), .choices = spring_hessian_names, .def = "adaptive",
     .help = "compressed springs' Hessians: project (the negative part across the spring "
     "clamped at 0, always) or adaptive (projected until a full Newton step decreases E by "
     "more than 1.5x the model's prediction, then, for the rest of the step, as they are "
     "whenever H, or H shifted by a small multiple of I, stays positive definite; solver = "
     "pcg: as project)"},
    {.section = "newton", .name = "friction", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(friction), .lo = 0, .hi = INF, .hi_open = 1, .def = "0",
     .help = "Coulomb friction coefficient mu of obstacle and point-triangle/edge-edge "
     "contacts (IPC's lagged friction); 0 = none"},
    {.section = "newton", .name = "friction_eps", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(friction_eps), .lo = 0, .hi = INF, .lo_open = 1, .hi_open = 1, .def = "1e-3",
     .help = "eps_v: slip speed below which friction sticks elastically (m/s)"},
    {.section = "newton", .name = "tol", .type = CLOTH__KEY_DOUBLE, .offset = OFF(tol), .lo = 0,
     .hi = INF, .lo_open = 1, .hi_open = 1, .def = "1e-3",
     .help = "stop when |dx|_inf / h < tol * L (L = rest bounding-box diagonal)"},
    {.section = "newton", .name = "max_iters", .type = CLOTH__KEY_INT, .offset = OFF(max_iters),
     .lo = 1, .hi = 10000, .def = "50",
     .help = "Newton iterations per step at most (then reported as not converged)"},
    {.section = "newton", .name = "last_step", .type = CLOTH__KEY_CHOICE,
     .offset = OFF(last_step), .choices = last_step_names, .def = "armijo",
     .help = "a Newton step dx already within tol (|dx|_inf / h < tol * L): armijo "
     "(backtracking like any step: below E's round-off it is cut to ~0 and its correction "
     "left out) or full (taken whole when the feasibility filter allows it; needed for "
     "accuracy below ~1e-8 m, e.g. midpoint's work-precision reference)"},
    {.section = "newton", .name = "loop", .type = CLOTH__KEY_CHOICE, .offset = OFF(loop),
     .choices = loop_names, .def = "converge",
     .help = "step loop: converge (Newton with Armijo to newton.tol) or zozo (ZOZO's inexact "
     "loop: solves until the accumulated time of impact reaches target_toi, then one solve "
     "over that fraction of the step)"},
    {.section = "newton", .name = "preset", .type = CLOTH__KEY_CUSTOM, .parse = parse_preset,
     .def = "none",
     .help = "zozo: ZOZO's configuration (loop zozo, kappa dynamic per iteration, beta 1, "
     "pcg to 1e-3, springs projected; docs/kernels/newton.md); keys after it win; none"},
    {.section = "newton", .name = "target_toi", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(target_toi), .lo = 0, .hi = 1, .lo_open = 1, .def = "0.25",
     .help = "loop = zozo: fraction of the step the solves must make good before the "
     "error-reduction solve (ZOZO: 0.25)"},
    {.section = "newton", .name = "max_dx", .type = CLOTH__KEY_DOUBLE, .offset = OFF(max_dx),
     .lo = 0, .hi = INF, .lo_open = 1, .hi_open = 1, .def = "1",
     .help = "loop = zozo: no vertex moves more than this in one solve (m; ZOZO: 1)"},
    {.section = "newton", .name = "solver", .type = CLOTH__KEY_CHOICE, .offset = OFF(solver),
     .choices = solver_names, .def = "cholmod",
     .help = "Newton system: cholmod (sparse Cholesky), pcg (block Jacobi) or dense"},
    {.section = "newton", .name = "pcg_tol", .type = CLOTH__KEY_DOUBLE, .offset = OFF(pcg_tol),
     .lo = 0, .hi = 1, .lo_open = 1, .hi_open = 1, .def = "1e-3",
     .help = "PCG stops when |r| <= pcg_tol |b|"},
    {.section = "newton", .name = "pcg_max_iters", .type = CLOTH__KEY_INT,
     .offset = OFF(pcg_max_iters), .lo = 1, .hi = 1000000, .def = "10000",
     .help = "PCG iterations at most (a solve that stops there is counted)"},
    {.section = "newton", .name = "factor_reuse", .type = CLOTH__KEY_INT,
     .offset = OFF(factor_reuse), .lo = 0, .hi = 1000, .def = "0",
     .help = "solver = cholmod: solve by at most this many PCG iterations preconditioned by "
     "the last Cholesky factor, and factor H afresh only when they do not reach reuse_tol "
     "(after two such failures in a row the next 1, 3, 7 ... 31 iterations do not try); 0 = "
     "factor every iteration"},
    {.section = "newton", .name = "reuse_tol", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(reuse_tol), .lo = 0, .hi = 1, .lo_open = 1, .hi_open = 1, .def = "1e-6",
     .help = "factor_reuse: PCG's relative residual |r| <= reuse_tol |grad E|"},
    {.section = "newton", .name = "cond", .type = CLOTH__KEY_CHOICE, .offset = OFF(cond),
     .choices = cond_names, .def = "exact",
     .help = "condition number of H: exact 2-norm (dsyevd or ARPACK), estimate (1-norm), off"},
    {.section = "newton", .name = "cond_exact_max", .type = CLOTH__KEY_INT,
     .offset = OFF(cond_exact_max), .lo = 0, .hi = 100000, .def = "180",
     .help = "exact condition numbers by dsyevd up to this many unknowns, ARPACK's Lanczos "
     "above (the default is where ARPACK becomes the faster one)"},
    {.section = "newton", .name = "eta", .type = CLOTH__KEY_DOUBLE, .offset = OFF(eta), .lo = 0,
     .hi = 1, .lo_open = 1, .hi_open = 1, .def = "0.2",
     .help = "line search keeps every gap above eta times its current value (0.2: the gap "
     "left by 0.8 of the time of impact, ZOZO's and ipc-toolkit's factor)"},
};
