/*
 * explicit — mass-spring cloth integrated by an explicit scheme (SPEC 4.1; the explicit
 * mass-spring tutorial and the mass-spring cloth paper).
 *
 *   a = f(x, v) / m        f: gravity, wind, air damping, Hooke springs, spring damping
 *   forward:     x' = x + h v,   v' = v + h a        (energy grows: unstable for springs)
 *   symplectic:  v' = v + h a,   x' = x + h v'       (energy bounded for h < 2/omega_max)
 *   velocity-verlet (kick-drift-kick, second order, symplectic for conservative forces):
 *                v* = v + h/2 a(x, v),  x' = x + h v*,  v' = v* + h/2 a(x', v*)
 *   rk4 (classic Runge-Kutta, fourth order, not symplectic: for u'' = -w^2 u each step
 *        multiplies (u, v) by (1 - z^2/2 + z^4/24) I + h (1 - z^2/6) A, z = w h):
 *                k1 = F(y), k2 = F(y + h/2 k1), k3 = F(y + h/2 k2), k4 = F(y + h k3),
 *                y' = y + h/6 (k1 + 2 k2 + 2 k3 + k4),  y = (x, v), F(y) = (v, a(x, v))
 *   v' *= decay                                      (the explicit mass-spring tutorial)
 *
 * Then pinned vertices return to their prescribed positions.
 *
 * Contact.  The kernel has no contact code: the sim runs the contact stage
 * (sim/contact.h) after each step, over the step's start and the proposed (x, v), the
 * pins and the strain limit applied (its `.contact` is the default, AFTER).  A vertex
 * inside an obstacle is put back on its surface with its inward normal velocity
 * (relative to the obstacle) removed; self-collision's position and velocity corrections
 * are ones the integrator knows nothing of (an explicit scheme has no constraint solve
 * to put them in; the velocity correction is what keeps a pair from coming back at the
 * next step); run.self_collision = on is the robust phase, last of all.
 *
 * Strain limit (explicit.strain_limit = tau_c > 0): Provot 1995, "Deformation Constraints
 * in a Mass-Spring Model to Describe Rigid Cloth Behavior", the method it was written for
 * (an explicit mass-spring integrator).  After each step's update and the pins, the
 * structural and shear springs longer than (1 + tau_c) l0 (1 + explicit.strain_tol) are
 * shortened to (1 + tau_c) l0 along themselves, half at each end, all at the free end next
 * to a pin (terms/strain_project.h); sweeps repeat until one shortens nothing or
 * explicit.strain_passes are spent, as verlet's.  Provot section 5: the velocities are
 * then those of the corrected positions, v += (x_corrected - x_integrated) / h, which for
 * symplectic Euler (x' = x + h v') is v' = (x_corrected - x) / h; a vertex pulled back
 * loses the velocity that over-stretched its spring.  The obstacles and self-collision
 * come after it (they win where both act).  The frame's `iterations` are the sweeps made
 * (the last being the one that found nothing); a step whose limit still fails after the
 * budget reports that it did not converge, and so does every step when a spring between
 * two pins exceeds the limit.
 */
#include "kernels/explicit/explicit.h"
#include "kernels/coloured.h"
#include "terms/forces.h"
#include "terms/strain_project.h"
#include "sim/sim.h"

#include "core/status.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* This kernel's keys ([explicit] of the scene, explicit.h). */
static inline const cloth__explicit_def *settings(const cloth_sim *sim)
{
    return cloth__sim_settings(sim);
}

/* RK4's stages: the state at the step's start and four slopes of (x, v), 3n each; the
 * coloured order's and the strain limit's work.  Without them the schemes need only the
 * sim's force buffer (work stays NULL). */
typedef struct cloth__explicit {
    double *x0, *v0;            /* the state at the start of the step (RK4)            */
    double *kx[4], *kv[4];      /* RK4's four slopes: dx/dt = v, dv/dt = a            */
    cloth__coloured *springs;   /* explicit.order = coloured: every spring, coloured  */
    cloth__coloured_tris *tris; /* ... and the triangles for the wind's drag          */
    double *x4, *v4, *f4;       /* ... and x, v, f padded for the spring loop         */
    unsigned stiffness_version; /* ... and sim->stiffness_version when springs->k was
                                 * copied                                             */
    int *limited;               /* strain limit: structural and shear springs with a
                                 * free end                                           */
    int n_limited;
    int pinned_violations;      /* ... springs between two pins over the limit        */
    double *x_int;              /* ... 3n positions before the correction             */
} cloth__explicit;

static void explicit_destroy(void *work)
{
    cloth__explicit *w = work;
    if (!w)
        return;
    free(w->x0);
    free(w->v0);
    for (int k = 0; k < 4; k++) {
        free(w->kx[k]);
        free(w->kv[k]);
    }
    cloth__coloured_destroy(w->springs);
    cloth__coloured_tris_destroy(w->tris);
    free(w->x4);
    free(w->v4);
    free(w->f4);
    free(w->limited);
    free(w->x_int);
    free(w);
}

static cloth_status explicit_create(const cloth_sim *sim, void **work, cloth_error *err)
{
    *work = NULL;
    int rk4 = settings(sim)->scheme == CLOTH__RK4;
    int coloured = settings(sim)->order == CLOTH__ORDER_COLOURED;
    int limit = settings(sim)->strain_limit > 0;
    if (!rk4 && !coloured && !limit)
        return CLOTH_OK;
    size_t bytes = sizeof(double) * 3 * (size_t)sim->mesh->n + 1;
    cloth__explicit *w = calloc(1, sizeof *w);
    int ok = w != NULL;
    if (ok && rk4)
        ok = (w->x0 = malloc(bytes)) != NULL;
    if (ok && rk4)
        ok = (w->v0 = malloc(bytes)) != NULL;
    for (int k = 0; k < 4 && ok && rk4; k++)
        ok = (w->kx[k] = malloc(bytes)) && (w->kv[k] = malloc(bytes));
    if (ok && limit)
        ok = (w->x_int = malloc(bytes)) &&
             (w->limited = malloc(sizeof(int) * (size_t)(sim->mesh->n_springs + 1)));
    for (int s = 0; ok && limit && s < sim->mesh->n_springs; s++) {
        const cloth_spring *sp = &sim->mesh->springs[s];
        if (sp->family != CLOTH_BEND && !(sim->mesh->pinned[sp->a] && sim->mesh->pinned[sp->b]))
            w->limited[w->n_limited++] = s;
    }
    if (!ok) {
        explicit_destroy(w);
        return cloth__fail(err, CLOTH_ENOMEM, "explicit: out of memory for %d vertices",
                           sim->mesh->n);
    }
    if (coloured) {
        const cloth_mesh *m = sim->mesh;
        int *ids = malloc(sizeof(int) * (size_t)(m->n_springs + 1));
        if (!ids) {
            explicit_destroy(w);
            return cloth__fail(err, CLOTH_ENOMEM, "explicit: out of memory for %d springs",
                               m->n_springs);
        }
        for (int s = 0; s < m->n_springs; s++)
            ids[s] = s;
        cloth_status st = cloth__coloured_create(m, ids, m->n_springs, 4, 0, &w->springs, err);
        free(ids);
        if (st == CLOTH_OK)
            st = cloth__coloured_tris_create(m, 4, &w->tris, err);
        if (st == CLOTH_OK && (!(w->x4 = cloth__padded_alloc(m->n)) ||
                               !(w->v4 = cloth__padded_alloc(m->n)) ||
                               !(w->f4 = cloth__padded_alloc(m->n))))
            st = cloth__fail(err, CLOTH_ENOMEM, "explicit: out of memory for %d vertices",
                             m->n);
        if (st != CLOTH_OK) {
            explicit_destroy(w);
            return st;
        }
        cloth__coloured_start_threads(sim->scene.run.threads);
        w->stiffness_version = sim->stiffness_version;
    }
    *work = w;
    return CLOTH_OK;
}

/* a = f(x, v, t)/m into out (3n); pinned vertices get 0.  Not CLOTH_OK only from an
 * assignment's stub of the spring force. */
static cloth_status accelerations_at(cloth_sim *sim, const cloth__explicit *w,
                                     const double *x, const double *v, double t, double *out)
{
    if (w && w->springs) { /* explicit.order = coloured: threads, padded copies */
        cloth__coloured_forces(cloth__sim_force_env(sim), w->tris, w->springs,
                               sim->scene.run.threads, x, v, t, w->x4, w->v4, w->f4,
                               sim->mesh->inv_mass, out);
        return CLOTH_OK;
    }
    memset(out, 0, sizeof(double) * 3 * (size_t)sim->mesh->n);
    cloth__add_external_forces(cloth__sim_force_env(sim), x, v, t, out);
    cloth_status st = cloth__add_spring_forces(cloth__sim_force_env(sim), x, v, out);
    for (int i = 0; i < sim->mesh->n; i++)
        for (int c = 0; c < 3; c++)
            out[3 * i + c] *= sim->mesh->inv_mass[i];
    return st;
}

static cloth_status compute_accelerations(cloth_sim *sim, const cloth__explicit *w)
{
    return accelerations_at(sim, w, sim->x, sim->v, sim->t, sim->force);
}

/* Velocity Verlet: kick h/2 with a(x, v), drift h, kick h/2 with a at the new positions
 * (and the half-step velocity, for the velocity-dependent damping and drag). */
static cloth_status velocity_verlet(cloth_sim *sim, const cloth__explicit *w, double h)
{
    int n3 = 3 * sim->mesh->n;
    cloth_status st = compute_accelerations(sim, w);
    for (int i = 0; i < n3; i++) {
        sim->v[i] += 0.5 * h * sim->force[i];
        sim->x[i] += h * sim->v[i];
    }
    if (st == CLOTH_OK)
        st = accelerations_at(sim, w, sim->x, sim->v, sim->t + h, sim->force);
    for (int i = 0; i < n3; i++)
        sim->v[i] = (sim->v[i] + 0.5 * h * sim->force[i]) * settings(sim)->decay;
    return st;
}

/* Classic RK4 on y = (x, v): four slopes at t, t + h/2, t + h/2, t + h. */
static cloth_status runge_kutta_4(cloth_sim *sim, cloth__explicit *w, double h)
{
    static const double along[4] = {0, 0.5, 0.5, 1}, weight[4] = {1, 2, 2, 1};
    int n3 = 3 * sim->mesh->n;
    cloth_status st = CLOTH_OK;
    memcpy(w->x0, sim->x, sizeof(double) * (size_t)n3);
    memcpy(w->v0, sim->v, sizeof(double) * (size_t)n3);
    for (int k = 0; k < 4; k++) {
        /* the stage's state: y0 + along[k] h k_{k-1} (sim->x, sim->v hold it) */
        for (int i = 0; k > 0 && i < n3; i++) {
            sim->x[i] = w->x0[i] + along[k] * h * w->kx[k - 1][i];
            sim->v[i] = w->v0[i] + along[k] * h * w->kv[k - 1][i];
        }
        memcpy(w->kx[k], sim->v, sizeof(double) * (size_t)n3);
        cloth_status sk = accelerations_at(sim, w, sim->x, sim->v, sim->t + along[k] * h,
                                           w->kv[k]);
        st = st == CLOTH_OK ? sk : st;
    }
    double decay = settings(sim)->decay;
    for (int i = 0; i < n3; i++) {
        double dx = 0, dv = 0;
        for (int k = 0; k < 4; k++) {
            dx += weight[k] * w->kx[k][i];
            dv += weight[k] * w->kv[k][i];
        }
        sim->x[i] = w->x0[i] + h / 6 * dx;
        sim->v[i] = (w->v0[i] + h / 6 * dv) * decay;
    }
    return st;
}

/* Forward or symplectic Euler on the 3n coordinates x, v with the accelerations a, then
 * the velocity decay.  Not CLOTH_OK only from an assignment's stub. */
static cloth_status euler_update(double *x, double *v, const double *a, int n3, double h,
                                 int forward, double decay)
{
    /* ASSIGNMENT spring_euler: euler_update BEGIN */
    for (int i = 0; i < n3; i++) {
        if (forward) {
            x[i] += h * v[i];
            v[i] += h * a[i];
        } else {
            v[i] += h * a[i];
            x[i] += h * v[i];
        }
        v[i] *= decay;
    }
    return CLOTH_OK;
    /* ASSIGNMENT spring_euler: euler_update END */
}

static cloth_status integrate(cloth_sim *sim, double h)
{
    return euler_update(sim->x, sim->v, sim->force, 3 * sim->mesh->n, h,
                        settings(sim)->scheme == CLOTH__EULER_FORWARD,
                        settings(sim)->decay);
}

static void hold_pins(cloth_sim *sim)
{
    const cloth_mesh *m = sim->mesh;
    for (int i = 0; i < m->n; i++)
        if (m->pinned[i]) {
            memcpy(sim->x + 3 * i, m->x0 + 3 * i, 3 * sizeof(double));
            memset(sim->v + 3 * i, 0, 3 * sizeof(double));
        }
}

/* Pins are static, so a spring between two pins keeps its length: count once the ones
 * over the limit (a pinned bar built with mesh.prestretch > tau_c). */
static void explicit_start(cloth_sim *sim, void *work)
{
    cloth__explicit *w = work;
    const cloth__explicit_def *ed = settings(sim);
    const cloth_mesh *m = sim->mesh;
    if (!w || !(ed->strain_limit > 0))
        return;
    w->pinned_violations = 0;
    for (int s = 0; s < m->n_springs; s++) {
        const cloth_spring *sp = &m->springs[s];
        if (sp->family != CLOTH_BEND && m->pinned[sp->a] && m->pinned[sp->b])
            w->pinned_violations += cloth__provot_violated(m, &s, 1, m->x0,
                                                           1 + ed->strain_limit, ed->strain_tol);
    }
}

/* Provot's sweeps, then v += (x_corrected - x_integrated) / h (Provot section 5).  Not
 * CLOTH_OK only from an assignment's stub of the shortening. */
static cloth_status limit_strain(cloth_sim *sim, cloth__explicit *w, double h,
                                 cloth__step_stats *stats)
{
    const cloth__explicit_def *ed = settings(sim);
    const cloth_mesh *m = sim->mesh;
    double factor = 1 + ed->strain_limit;
    int n3 = 3 * m->n, passes = 0, changed = 1;
    memcpy(w->x_int, sim->x, sizeof(double) * (size_t)n3);
    while (changed && passes < ed->strain_passes) {
        changed = cloth__provot_sweep(m, w->limited, w->n_limited, sim->x, factor,
                                      ed->strain_tol);
        if (changed < 0)
            return CLOTH_ENOTIMPL;
        passes++;
    }
    for (int i = 0; i < n3; i++)
        sim->v[i] += (sim->x[i] - w->x_int[i]) / h;
    stats->iterations += passes;
    /* the last sweep of a spent budget may still have finished the job: look again */
    if (changed && cloth__provot_violated(m, w->limited, w->n_limited, sim->x, factor,
                                          ed->strain_tol))
        stats->not_converged = 1;
    if (w->pinned_violations)
        stats->not_converged = 1;
    return CLOTH_OK;
}

static cloth_status explicit_step(cloth_sim *sim, void *work, double h,
                                  cloth__step_stats *stats, cloth_error *err)
{
    cloth__explicit *w = work;
    cloth_status st, integrated = CLOTH_OK;
    if (w && w->springs && w->stiffness_version != sim->stiffness_version) {
        cloth__coloured_copy_k(w->springs, sim->mesh); /* a live change of k */
        w->stiffness_version = sim->stiffness_version;
    }
    switch (settings(sim)->scheme) {
    case CLOTH__VELOCITY_VERLET:
        st = velocity_verlet(sim, w, h);
        break;
    case CLOTH__RK4:
        st = runge_kutta_4(sim, work, h);
        break;
    default:
        st = compute_accelerations(sim, w);
        integrated = integrate(sim, h);
    }
    /* only an assignment's stubs fail here (assignments/spring_euler) */
    if (st != CLOTH_OK)
        return cloth__fail(err, st, "not implemented: spring_force");
    if (integrated != CLOTH_OK)
        return cloth__fail(err, integrated, "not implemented: euler_update");
    hold_pins(sim);
    stats->iterations = 0;
    if (settings(sim)->strain_limit > 0 && limit_strain(sim, w, h, stats) != CLOTH_OK)
        return cloth__fail(err, CLOTH_ENOTIMPL, "not implemented: provot_correction");
    /* the contact stage follows (sim.c): its robust phase's impulses change x and v alike
     * (x += h dv, v += dv), which keeps symplectic Euler's x' = x + h v' */
    return CLOTH_OK;
}

static const char *const scheme_names[] = {"forward", "symplectic", "velocity-verlet", "rk4",
                                           NULL};

static const cloth__key explicit_keys[] = {
    {.section = "explicit", .name = "scheme", .type = CLOTH__KEY_CHOICE,
     .offset = offsetof(cloth__explicit_def, scheme), .choices = scheme_names,
     .def = "symplectic",
     .help = "forward or symplectic Euler, velocity-verlet (2nd order) or rk4 (4th order)"},
    {.section = "explicit", .name = "decay", .type = CLOTH__KEY_DOUBLE,
     .offset = offsetof(cloth__explicit_def, decay), .lo = 0, .hi = 1, .lo_open = 1, .def = "1",
     .help = "velocity factor per step (the mass-spring tutorial: 0.98)"},
    {.section = "explicit", .name = "order", .type = CLOTH__KEY_CHOICE,
     .offset = offsetof(cloth__explicit_def, order), .choices = cloth__order_names,
     .def = "sequential",
     .help = "sequential (the reference order) or coloured spring forces (vectorised, "
     "run.threads; other rounding)"},
    {.section = "explicit", .name = "strain_limit", .type = CLOTH__KEY_DOUBLE,
     .offset = offsetof(cloth__explicit_def, strain_limit), .lo = 0, .hi = 1, .hi_open = 1,
     .def = "0",
     .help = "Provot's tau_c after each step: structural/shear l <= (1 + tau_c) l0, velocities "
     "from the corrected positions; 0 = off"},
    {.section = "explicit", .name = "strain_passes", .type = CLOTH__KEY_INT,
     .offset = offsetof(cloth__explicit_def, strain_passes), .lo = 1, .hi = 1000000,
     .def = "100", .help = "Provot sweeps per step at most (then not-converged)"},
    {.section = "explicit", .name = "strain_tol", .type = CLOTH__KEY_DOUBLE,
     .offset = offsetof(cloth__explicit_def, strain_tol), .lo = 0, .hi = 0.1, .lo_open = 1,
     .def = "1e-6", .help = "a spring exceeds the limit when l > (1 + tau_c) l0 (1 + tol)"},
};

const cloth__kernel cloth__explicit_kernel = {
    .name = "explicit",
    .summary = "mass-spring forces; forward or symplectic Euler, velocity Verlet, RK4",
    .keys = explicit_keys,
    .n_keys = (int)(sizeof explicit_keys / sizeof explicit_keys[0]),
    .create = explicit_create,
    .destroy = explicit_destroy,
    .start = explicit_start,
    .step = explicit_step,
    .measure = NULL,
    .log = NULL,
    .begin_frame = NULL,
    .interactive_max = 0,
    .dense_max = 0,
    .iteration_key = NULL,
    .stiffness_key = NULL,
    .stiffness_max = 0,
    .reports_cond = 0,
    .cond_off = NULL,
    .frame_substeps = 20, /* conditionally stable: h = 1/1200 s < 2 / omega_max */
    /* contact: the stage after each step (AFTER, the default): every obstacle, every
     * run.self_collision mode, any avatar.collision */
    .contact = CLOTH__CONTACT_AFTER,
    .visit_bytes = {.spring = 224, .coloured_spring = 24, .coloured_vertex = 128},
};
