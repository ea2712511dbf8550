/*
 * pbd — Position-Based Dynamics (Müller, Heidelberger, Hennix and Ratcliff 2007) and its
 * compliant extension XPBD (Macklin, Müller and Chentanez 2016).  SPEC 4.3.
 *
 * One step of length h (Müller 2007, algorithm 1):
 *
 *   predict   v += h a_ext;  damp v;  p = x + h v          (p = x + h v + h^2 a_ext)
 *   project   pbd.iterations Gauss-Seidel passes; each pass projects every distance
 *             constraint, every bending constraint, then the obstacles
 *   update    v = (p - x) / h;  x = p
 *
 * a_ext holds gravity, wind and air damping (forces.h).  Spring damping is a force
 * between springs' ends and is not used here: damping comes from pbd.damping, from air
 * damping, and from the method itself (XPBD is implicit Euler in the limit).
 *
 * Constraints.  Distance: C = |p_a - p_b| - l0 on structural and shear springs, and on
 * bend springs with pbd.bending = springs; grad_a C = n = (p_a - p_b)/|p_a - p_b| =
 * -grad_b C.
 * Dihedral (pbd.bending = dihedral): C = theta - theta0 on every hinge, theta the signed
 * angle between the two triangles (dihedral.h), theta0 its rest value.
 *
 * XPBD (Macklin 2016, section 3).  Constraint j has compliance alpha_j = 1/k_j and
 * alpha~_j = alpha_j / h^2; its multiplier lambda_j starts at 0 each step and each
 * projection does
 *
 *   dlambda = (-C - alpha~ lambda) / (sum_i w_i |grad_i C|^2 + alpha~)
 *   p_i    += w_i grad_i C dlambda,   lambda += dlambda
 *
 * (w = 1/m, 0 for pinned vertices).  Iterated to convergence this solves implicit Euler
 * with the energy 1/2 k C^2, so k keeps its meaning in N/m and the static equilibrium
 * does not depend on h.  A lone spring reaches it in one pass (its constraint is linear
 * along its line); coupled ones need the Gauss-Seidel solve to converge, and with too
 * few passes the cloth comes out softer than k (the convergence figure).
 * k_j is the spring's family stiffness; a hinge gets k_theta = k_bend l_e^2 (N m/rad^2,
 * l_e the rest length of the shared edge): a flap turned by theta moves a vertex about
 * l_e from the hinge by l_e theta, and a spring k_bend holding it would store
 * 1/2 k_bend l_e^2 theta^2.
 *
 * PBD (Müller 2007, section 3.3): p_i += -k' C / (sum w |grad C|^2) w_i grad_i C with
 * k' = 1 - (1 - k_pbd)^(1/n) for n passes, so that after n passes a lone constraint keeps
 * the fraction (1 - k')^n = 1 - k_pbd of its violation whatever n.  k_pbd is
 * dimensionless (pbd.k_pbd for distance constraints of structural and shear springs,
 * pbd.k_pbd_bend for bend springs and hinges); the material's k is not used, and the
 * stiffness one gets still depends on h and on the mesh.
 *
 * Obstacles are inequality constraints, gap(p) >= 0: after the other constraints of each
 * pass, a free vertex inside the sphere or below the floor is put on its surface
 * (cloth__push_out, the Verlet cloth web demo).  The last pass ends with them, so no
 * vertex ends a step inside an obstacle.
 *
 * Contact is the contact stage's (sim/contact.h; pbd calls its phases, `.contact =
 * IN_STEP`): the obstacles above are its position constraints (cloth__contact_obstacle_
 * positions), and its phases come after the passes as follows.
 * run.self_collision = on: the robust phase over x -> p after the passes, with the
 * update (collide_robust).
 * Self-collision (run.self_collision = particles | proximity, the stage's self phase): once per
 * step, after the passes, the vertex pairs (and vertex-triangle pairs) closer than
 * material.thickness are projected apart in p, as the Ten Minute Physics demo does once
 * per substep after its solver (inside every pass it would cost a hash query a pass),
 * so that the step ends with the pairs apart.  The obstacles are projected
 * once more after it, so obstacles win where both act (a pair pressed against the floor
 * may end closer than the thickness).  After the update the contacts' velocities get the
 * self-collision velocity correction (inelastic normal, material.self_friction).
 *
 * Strain limit (pbd.strain_limit = tau > 0): inequality constraints, projected only when
 * violated (Müller 2007, section 3.2's unilateral constraints), with zero compliance;
 * compression is left alone.  They are projected in every pass after the distance and
 * bending constraints, before the obstacles.
 *   edge:     C = |p_a - p_b| - (1 + tau) l0 <= 0 on every structural and shear spring,
 *             gradient as the distance constraint's.
 *   triangle: C = sigma1 - (1 + tau) <= 0 per triangle, sigma1 the larger singular value
 *             of its 3x2 deformation gradient (terms/strain_limit.h gives sigma1 and its
 *             gradient), after Müller, Chentanez, Kim and Macklin 2014, "Strain Based
 *             Dynamics", which limits the principal stretches of triangles; sigma2 <=
 *             sigma1 needs no constraint of its own.
 * XPBD: dlambda = -C / sum_i w_i |grad_i C|^2 (alpha = 0), with the multiplier kept on the
 * active side, lambda + dlambda <= 0, so that a constraint pushes only against stretching
 * and may give back, later in the step, what it pushed (Macklin 2016's inequality
 * constraints).  PBD: the full projection -C / sum w |grad C|^2 when C > 0, none else.
 * Both are linearisations (the triangle's C is not linear in p), so the passes converge
 * geometrically; a step counts as not converged when after them some limited spring is
 * longer than (1 + tau) l0 (1 + pbd.strain_tol), or some triangle has sigma1 > (1 + tau)
 * (1 + pbd.strain_tol), measured after self-collision.  pbd.order = coloured projects
 * them in the same place of each pass, colour by colour: the edge limits in the
 * distance constraints' colours (the same springs, so the same graph), the triangles in
 * colours of their own (no two of a colour share a vertex); the same check after the
 * passes.  Other order, so other numbers than sequential's (coloured.md).
 *
 * Damping (pbd.damping = k_d in [0, 1]): Müller 2007, section 3.5.  The velocities are
 * split into the rigid motion of the whole cloth (centre-of-mass velocity v_cm and
 * angular velocity omega = I^-1 L) and the rest; the rest is scaled by 1 - k_d:
 *
 *   v_i += k_d (v_cm + omega x r_i - v_i),    r_i = x_i - x_cm
 *
 * It damps deformation only: a cloth falling or turning as a whole keeps its motion,
 * which a plain velocity scale would slow.  It acts once per step, so the damping per
 * second grows with run.substeps.  Pinned vertices (v = 0) count in the sums.
 */
#include "kernels/pbd/pbd.h"
#include "kernels/pbd/pbd_work.h"
#include "kernels/coloured.h"
#include "terms/dihedral.h"
#include "terms/forces.h"
#include "terms/obstacle.h"
#include "terms/spring.h"
#include "terms/strain_limit.h"
#include "terms/strain_project.h"
#include "sim/contact.h"
#include "sim/sim.h"

#include "core/scene.h"
#include "core/status.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* This kernel's keys ([pbd] of the scene, pbd.h). */
static inline const cloth__pbd_def *settings(const cloth_sim *sim)
{
    return cloth__sim_settings(sim);
}

/* The strain limit's settings for pbd_strain.c. */
static cloth__pbd_strain_def strain_def(const cloth_sim *sim)
{
    const cloth__pbd_def *def = settings(sim);
    return (cloth__pbd_strain_def){def->variant == CLOTH__PBD_XPBD,
                                   def->strain_measure == CLOTH__LIMIT_TRIANGLE,
                                   def->strain_limit, def->strain_tol};
}

/* ----------------------------------------------------------------- set-up */

static void pbd_destroy(void *work)
{
    cloth__pbd *w = work;
    if (!w)
        return;
    free(w->p);
    free(w->lambda);
    free(w->hinge_rest);
    free(w->hinge_k);
    cloth__coloured_destroy(w->col);
    cloth__coloured_tris_destroy(w->tris);
    free(w->p4);
    free(w->v4);
    free(w->f4);
    cloth__tri_limits_free(&w->tri);
    cloth__colouring_free(&w->tri_colours);
    free(w->lambda_limit);
    free(w);
}

/* k' = 1 - (1 - k)^(1/n) (Müller 2007, section 3.3) */
static double per_pass_stiffness(double k, int n)
{
    return 1 - pow(1 - k, 1.0 / n);
}

/* pbd.order = coloured: the distance constraints that can move (w_a + w_b > 0), coloured,
 * with their inverse masses and PBD gains; compliances follow each step (live k). */
static cloth_status colour_constraints(const cloth_mesh *m, cloth__pbd *w, int xpbd,
                                       cloth_error *err)
{
    int *ids = malloc(sizeof(int) * (size_t)(w->n_dist + 1)), count = 0;
    if (!ids)
        return cloth__fail(err, CLOTH_ENOMEM, "pbd: out of memory for %d constraints",
                           w->n_dist);
    for (int s = 0; s < w->n_dist; s++)
        if (m->inv_mass[m->springs[s].a] + m->inv_mass[m->springs[s].b] > 0)
            ids[count++] = s;
    cloth_status st = cloth__coloured_create(m, ids, count, 4, 1, &w->col, err);
    free(ids);
    if (st == CLOTH_OK)
        st = cloth__coloured_tris_create(m, 4, &w->tris, err);
    if (st != CLOTH_OK)
        return st;
    if (!(w->p4 = cloth__padded_alloc(m->n)) || !(w->v4 = cloth__padded_alloc(m->n)) ||
        !(w->f4 = cloth__padded_alloc(m->n)))
        return cloth__fail(err, CLOTH_ENOMEM, "pbd: out of memory for %d vertices", m->n);
    cloth__coloured *c = w->col;
    for (int j = 0; j < c->n; j++) {
        const cloth_spring *sp = &m->springs[c->spring[j]];
        c->wa[j] = m->inv_mass[sp->a];
        c->wb[j] = m->inv_mass[sp->b];
        c->gain[j] = xpbd ? 1 : c->spring[j] < w->n_stretch ? w->k_stretch : w->k_bend;
    }
    return CLOTH_OK;
}

/* strain_measure = triangle needs triangles. */
static cloth_status check_limit(const cloth_sim *sim, cloth_error *err)
{
    const cloth__pbd_def *def = settings(sim);
    char where[CLOTH_PATH_MAX + 16];
    if (!(def->strain_limit > 0))
        return CLOTH_OK;
    if (def->strain_measure == CLOTH__LIMIT_TRIANGLE && sim->mesh->n_tris == 0) {
        cloth__sim_key_where(sim, "pbd", "strain_measure", where, sizeof where);
        return cloth__fail(err, CLOTH_EINVAL, "%s: pbd.strain_measure = triangle: the mesh has "
                           "no triangles to limit (use edge)", where);
    }
    return CLOTH_OK;
}

/* The strain limit's multipliers, one a stretch spring (edge, sequential), one an item
 * of the coloured springs (edge, coloured: the limits share the springs' colours, so a
 * colour's runs hold limits with no shared vertex as well), or one a limited triangle;
 * with pbd.order = coloured and the triangle measure the triangles are coloured too. */
static cloth_status prepare_limit(const cloth_mesh *m, cloth__pbd *w, int triangles,
                                  int coloured, cloth_error *err)
{
    w->n_limits = triangles ? w->tri.n : coloured ? w->col->n : w->n_stretch;
    if (!(w->lambda_limit = calloc((size_t)w->n_limits + 1, sizeof(double))))
        return cloth__fail(err, CLOTH_ENOMEM, "pbd: out of memory for %d strain limits",
                           w->n_limits);
    if (triangles && coloured && w->tri.n > 0)
        return cloth__colour_items(w->tri.n, 3, w->tri.v, m->n, &w->tri_colours, err);
    return CLOTH_OK;
}

static cloth_status pbd_create(const cloth_sim *sim, void **work, cloth_error *err)
{
    const cloth_mesh *m = sim->mesh;
    const cloth__pbd_def *def = settings(sim);
    cloth_status checked = check_limit(sim, err);
    if (checked != CLOTH_OK)
        return checked;
    cloth__pbd *w = calloc(1, sizeof *w);
    if (!w)
        goto fail_memory;
    /* springs are grouped by family in family order */
    w->n_stretch = m->family_count[CLOTH_STRUCTURAL] + m->family_count[CLOTH_SHEAR];
    w->n_dist = w->n_stretch;
    if (def->bending == CLOTH__PBD_BEND_SPRINGS)
        w->n_dist += m->family_count[CLOTH_BEND];
    else
        w->n_hinges = m->n_hinges;
    w->p = malloc(sizeof(double) * 3 * (size_t)m->n);
    w->lambda = malloc(sizeof(double) * (size_t)(w->n_dist + w->n_hinges + 1));
    w->hinge_rest = malloc(sizeof(double) * (size_t)(w->n_hinges + 1));
    w->hinge_k = malloc(sizeof(double) * (size_t)(w->n_hinges + 1));
    if (!w->p || !w->lambda || !w->hinge_rest || !w->hinge_k)
        goto fail_memory;
    int triangles = def->strain_measure == CLOTH__LIMIT_TRIANGLE;
    if (def->strain_limit > 0 && triangles && cloth__tri_limits_init(m, &w->tri, err) != CLOTH_OK)
        goto fail_memory;
    for (int j = 0; j < w->n_hinges; j++) {
        const int *hg = m->hinges + 4 * j;
        const double *r = m->rest;
        w->hinge_rest[j] = cloth__dihedral_angle(r + 3 * hg[0], r + 3 * hg[1], r + 3 * hg[2],
                                                 r + 3 * hg[3]);
        double le2 = 0;
        for (int k = 0; k < 3; k++) {
            double d = r[3 * hg[1] + k] - r[3 * hg[0] + k];
            le2 += d * d;
        }
        w->hinge_k[j] = sim->scene.material.k[CLOTH_BEND] * le2;
    }
    w->k_stretch = per_pass_stiffness(def->k_pbd, def->iterations);
    w->k_bend = per_pass_stiffness(def->k_pbd_bend, def->iterations);
    if (def->order == CLOTH__ORDER_COLOURED) {
        cloth_status st = colour_constraints(m, w, def->variant == CLOTH__PBD_XPBD, err);
        if (st != CLOTH_OK) {
            pbd_destroy(w);
            return st;
        }
        cloth__coloured_start_threads(sim->scene.run.threads);
    }
    if (def->strain_limit > 0) {
        cloth_status st = prepare_limit(m, w, triangles, def->order == CLOTH__ORDER_COLOURED,
                                        err);
        if (st != CLOTH_OK) {
            pbd_destroy(w);
            return st;
        }
    }
    *work = w;
    return CLOTH_OK;

fail_memory:
    pbd_destroy(w);
    if (err)
        snprintf(err->msg, sizeof err->msg, "pbd: out of memory for %d vertices", m->n);
    return CLOTH_ENOMEM;
}

/* ------------------------------------------------------------------ stages */

/* Solves the 3x3 symmetric system I omega = L by the adjugate.  I is singular when the
 * vertices are collinear (a chain): then L has no part along the line, and the small
 * shift eps tr(I) only picks the solution without spin about it. */
static void solve_inertia(const double I[9], const double L[3], double omega[3])
{
    double tr = I[0] + I[4] + I[8];
    omega[0] = omega[1] = omega[2] = 0;
    if (!(tr > 0))
        return;
    double A[9];
    memcpy(A, I, sizeof A);
    for (int k = 0; k < 3; k++)
        A[4 * k] += 1e-9 * tr;
    double c0 = A[4] * A[8] - A[5] * A[7], c1 = A[5] * A[6] - A[3] * A[8],
           c2 = A[3] * A[7] - A[4] * A[6];
    double det = A[0] * c0 + A[1] * c1 + A[2] * c2;
    if (det == 0)
        return;
    double inv[9] = {c0, A[2] * A[7] - A[1] * A[8], A[1] * A[5] - A[2] * A[4],
                     c1, A[0] * A[8] - A[2] * A[6], A[2] * A[3] - A[0] * A[5],
                     c2, A[1] * A[6] - A[0] * A[7], A[0] * A[4] - A[1] * A[3]};
    for (int r = 0; r < 3; r++)
        omega[r] = (inv[3 * r] * L[0] + inv[3 * r + 1] * L[1] + inv[3 * r + 2] * L[2]) / det;
}

/* Müller 2007, section 3.5: keep the rigid part of the motion, scale the rest by 1 -
 * k_d. */
static void damp_velocities(cloth_sim *sim, double kd)
{
    const cloth_mesh *m = sim->mesh;
    double M = 0, xcm[3] = {0, 0, 0}, vcm[3] = {0, 0, 0};
    for (int i = 0; i < m->n; i++)
        for (int k = 0; k < 3; k++) {
            xcm[k] += m->mass[i] * sim->x[3 * i + k];
            vcm[k] += m->mass[i] * sim->v[3 * i + k];
        }
    for (int i = 0; i < m->n; i++)
        M += m->mass[i];
    for (int k = 0; k < 3; k++) {
        xcm[k] /= M;
        vcm[k] /= M;
    }
    /* L = sum m r x v,  I = sum m (|r|^2 1 - r r^T) */
    double L[3] = {0, 0, 0}, I[9] = {0};
    for (int i = 0; i < m->n; i++) {
        const double *x = sim->x + 3 * i, *v = sim->v + 3 * i, mi = m->mass[i];
        double r[3] = {x[0] - xcm[0], x[1] - xcm[1], x[2] - xcm[2]};
        L[0] += mi * (r[1] * v[2] - r[2] * v[1]);
        L[1] += mi * (r[2] * v[0] - r[0] * v[2]);
        L[2] += mi * (r[0] * v[1] - r[1] * v[0]);
        double r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                I[3 * a + b] += mi * ((a == b ? r2 : 0) - r[a] * r[b]);
    }
    double omega[3];
    solve_inertia(I, L, omega);
    for (int i = 0; i < m->n; i++) {
        if (m->pinned[i])
            continue;
        const double *x = sim->x + 3 * i;
        double *v = sim->v + 3 * i;
        double r[3] = {x[0] - xcm[0], x[1] - xcm[1], x[2] - xcm[2]};
        double rigid[3] = {vcm[0] + omega[1] * r[2] - omega[2] * r[1],
                           vcm[1] + omega[2] * r[0] - omega[0] * r[2],
                           vcm[2] + omega[0] * r[1] - omega[1] * r[0]};
        for (int k = 0; k < 3; k++)
            v[k] += kd * (rigid[k] - v[k]);
    }
}

/* v += h a_ext, damp, p = x + h v; pinned vertices stay where they are held. */
static void predict(cloth_sim *sim, cloth__pbd *w, double h)
{
    const cloth_mesh *m = sim->mesh;
    double *f = sim->force;
    if (w->tris) { /* pbd.order = coloured: the drag's blocks on padded copies */
        cloth__coloured_forces(cloth__sim_force_env(sim), w->tris, NULL, sim->scene.run.threads,
                               sim->x, sim->v, sim->t, w->p4, w->v4, w->f4, NULL, f);
    } else {
        memset(f, 0, sizeof(double) * 3 * (size_t)m->n);
        cloth__add_external_forces(cloth__sim_force_env(sim), sim->x, sim->v, sim->t, f);
    }
    for (int i = 0; i < m->n; i++)
        for (int k = 0; k < 3; k++)
            sim->v[3 * i + k] += h * m->inv_mass[i] * f[3 * i + k];
    if (settings(sim)->damping > 0)
        damp_velocities(sim, settings(sim)->damping);
    for (int i = 0; i < m->n; i++)
        for (int k = 0; k < 3; k++)
            w->p[3 * i + k] = m->pinned[i] ? m->x0[3 * i + k]
                                           : sim->x[3 * i + k] + h * sim->v[3 * i + k];
    memset(w->lambda, 0, sizeof(double) * (size_t)(w->n_dist + w->n_hinges));
}

/* The step of a constraint's multiplier (XPBD) or of its scaled projection (PBD), given
 * C and sum_i w_i |grad_i C|^2; the caller moves p_i by w_i grad_i C times it. */
static double constraint_step(int xpbd, double C, double wsum, double alpha_t,
                              double *lambda, double kprime)
{
    if (!xpbd)
        return -kprime * C / wsum;
    /* ASSIGNMENT xpbd: xpbd_multiplier BEGIN */
    if (isinf(alpha_t))
        return 0; /* k = 0: infinite compliance, the constraint exerts nothing */
    double dl = (-C - alpha_t * *lambda) / (wsum + alpha_t);
    *lambda += dl;
    return dl;
    /* ASSIGNMENT xpbd: xpbd_multiplier END */
}

static void project_distances(const cloth_sim *sim, cloth__pbd *w, double h)
{
    /* ASSIGNMENT xpbd: project_distances BEGIN */
    const cloth_mesh *m = sim->mesh;
    const double *wi = m->inv_mass;
    int xpbd = settings(sim)->variant == CLOTH__PBD_XPBD;
    double *p = w->p;
    for (int s = 0; s < w->n_dist; s++) {
        const cloth_spring *sp = &m->springs[s];
        double wsum = wi[sp->a] + wi[sp->b];
        if (wsum == 0)
            continue;
        double *pa = p + 3 * sp->a, *pb = p + 3 * sp->b;
        double d[3] = {pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]};
        double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (l == 0)
            continue; /* no direction to push along */
        double kprime = s < w->n_stretch ? w->k_stretch : w->k_bend;
        double dl = constraint_step(xpbd, l - sp->rest, wsum, 1 / (sp->k * h * h),
                                    &w->lambda[s], kprime);
        for (int k = 0; k < 3; k++) {
            double n = d[k] / l;
            pa[k] += wi[sp->a] * n * dl;
            pb[k] -= wi[sp->b] * n * dl;
        }
    }
    /* ASSIGNMENT xpbd: project_distances END */
}

/* The hinges on the positions pos, `stride` doubles a vertex (w->p, or the coloured
 * passes' padded copy). */
static void project_hinges(const cloth_sim *sim, cloth__pbd *w, double *pos, int stride,
                           double h)
{
    const cloth_mesh *m = sim->mesh;
    int xpbd = settings(sim)->variant == CLOTH__PBD_XPBD;
    for (int j = 0; j < w->n_hinges; j++) {
        const int *id = m->hinges + 4 * j;
        double *x[4], g[12], theta;
        for (int c = 0; c < 4; c++)
            x[c] = pos + stride * id[c];
        if (!cloth__dihedral_gradient(x[0], x[1], x[2], x[3], &theta, g))
            continue;
        double wsum = 0;
        for (int c = 0; c < 4; c++) {
            const double *gc = g + 3 * c;
            wsum += m->inv_mass[id[c]] * (gc[0] * gc[0] + gc[1] * gc[1] + gc[2] * gc[2]);
        }
        if (wsum == 0)
            continue;
        /* the shorter way round: C in (-pi, pi] */
        double C = theta - w->hinge_rest[j];
        if (C > M_PI)
            C -= 2 * M_PI;
        else if (C <= -M_PI)
            C += 2 * M_PI;
        double dl = constraint_step(xpbd, C, wsum, 1 / (w->hinge_k[j] * h * h),
                                    &w->lambda[w->n_dist + j], w->k_bend);
        for (int c = 0; c < 4; c++)
            for (int k = 0; k < 3; k++)
                x[c][k] += m->inv_mass[id[c]] * g[3 * c + k] * dl;
    }
}

/* gap(p) >= 0 for every free vertex: put it back on the surface it is inside (the
 * contact stage's obstacles as position constraints). */
static void project_obstacles(const cloth_sim *sim, cloth__pbd *w)
{
    cloth__contact_obstacle_positions(sim, w->p, 3, 0, sim->mesh->n);
}

/* The step's compliances alpha~ = 1/(k h^2) (k may have changed between frames),
 * 1/(w_a + w_b + alpha~), and lambda = 0.  PBD: alpha~ = 0 and the gain k'. */
static void prepare_coloured(const cloth_sim *sim, cloth__pbd *w, double h)
{
    cloth__coloured *c = w->col;
    int xpbd = settings(sim)->variant == CLOTH__PBD_XPBD;
    for (int j = 0; j < c->n; j++) {
        double alpha = xpbd ? 1 / (sim->mesh->springs[c->spring[j]].k * h * h) : 0;
        /* k = 0: infinite compliance, the constraint exerts nothing */
        c->alpha[j] = isinf(alpha) ? 0 : alpha;
        c->inv_den[j] = isinf(alpha) ? 0 : 1 / (c->wa[j] + c->wb[j] + alpha);
        c->lambda[j] = 0;
    }
}

/* pbd.order = coloured: each pass projects the constraints in the tiled order
 * (kernels/coloured.h), split among the threads (a barrier after each step), then the
 * hinges (one thread: they are few and not coloured), then the strain limit (edge: the
 * stretch items again in the springs' tiled order; triangle: the triangles in theirs),
 * then the obstacles split by vertex; on the padded positions w->p4 (each thread copies
 * its share of the vertices in and out).  The pass's order is the sequential one's
 * (distances, hinges, limits, obstacles), colour by colour within each. */
static void project_coloured(const cloth_sim *sim, cloth__pbd *w, int passes, double h)
{
    cloth__coloured *c = w->col;
    int threads = sim->scene.run.threads, n = sim->mesh->n;
    cloth__pbd_strain_def sd = strain_def(sim);
    int limit = sd.tau > 0;
    const cloth__colouring *limits = !limit ? NULL : sd.triangles ? &w->tri_colours
                                                                  : &c->colours;
    CLOTH__PARALLEL(threads)
    {
        int part = cloth__thread_id(), parts = cloth__thread_count(), v0, v1;
        cloth__share(n, part, parts, &v0, &v1);
        cloth__pad(w->p, w->p4, v0, v1);
        CLOTH__BARRIER
        for (int it = 0; it < passes; it++) {
            for (int step = 0; step < c->colours.n_steps; step++) {
                CLOTH__RANGES(&c->colours, step, part, parts, lo, hi)
                    cloth__coloured_xpbd(c, w->p4, lo, hi);
                CLOTH__BARRIER
            }
            if (w->n_hinges) {
                CLOTH__PRAGMA(omp single)
                project_hinges(sim, w, w->p4, 4, h);
            }
            for (int step = 0; limits && step < limits->n_steps; step++) {
                CLOTH__RANGES(limits, step, part, parts, lo, hi) {
                    if (sd.triangles)
                        cloth__pbd_project_strain_triangles_range(sim, &sd, w, lo, hi);
                    else
                        cloth__pbd_project_strain_edges_range(&sd, w, lo, hi);
                }
                CLOTH__BARRIER
            }
            cloth__contact_obstacle_positions(sim, w->p4, 4, v0, v1);
            CLOTH__BARRIER
        }
        cloth__unpad(w->p4, w->p, v0, v1);
    }
}

/* Self-collision in p (the side of a vertex-triangle contact from x, the step's start),
 * then, if it moved anything, the obstacles again so that no vertex ends inside one. */
static void collide_self(cloth_sim *sim, cloth__pbd *w, cloth__step_stats *stats)
{
    if (cloth__contact_self_project(sim, w->p, sim->x, stats) > 0)
        project_obstacles(sim, w);
}

/* The update v = (p - x)/h, x = p, with the robust phase (run.self_collision = on) over
 * the step x -> p between them, after the passes (constraints, strain limit and
 * obstacles).  The velocity is set first and handed to the phase with p: its impulses
 * change p and v alike (p += h dv, v += dv), so v stays the velocity of the corrected
 * positions, and an impact zone's v is its rigid velocity (not the chord of its
 * rotation).  Doing it inside the passes would cost a CCD search a pass, and a later
 * constraint projection could undo the guarantee; after the update the step's start x
 * would be gone.  Then x = p.  The obstacles were projected in the
 * passes; the phase keeps every free vertex out of them (sim/contact.h). */
static void update(cloth_sim *sim, cloth__pbd *w, double h, cloth__step_stats *stats)
{
    int n3 = 3 * sim->mesh->n;
    for (int i = 0; i < n3; i++)
        sim->v[i] = (w->p[i] - sim->x[i]) / h;
    cloth__contact_robust(sim, h, sim->x, w->p, sim->v, stats);
    memcpy(sim->x, w->p, sizeof(double) * (size_t)n3);
}

static cloth_status pbd_step(cloth_sim *sim, void *work, double h, cloth__step_stats *stats,
                             cloth_error *err)
{
    (void)err;
    cloth__pbd *w = work;
    int passes = settings(sim)->iterations;
    predict(sim, w, h);
    int limit = settings(sim)->strain_limit > 0;
    int triangles = settings(sim)->strain_measure == CLOTH__LIMIT_TRIANGLE;
    cloth__pbd_strain_def sd = strain_def(sim);
    if (limit)
        memset(w->lambda_limit, 0, sizeof(double) * (size_t)w->n_limits);
    if (w->col) {
        prepare_coloured(sim, w, h);
        project_coloured(sim, w, passes, h);
    }
    for (int it = 0; it < passes && !w->col; it++) {
        project_distances(sim, w, h);
        if (w->n_hinges)
            project_hinges(sim, w, w->p, 3, h);
        if (limit && triangles)
            cloth__pbd_project_strain_triangles(sim, &sd, w);
        else if (limit)
            cloth__pbd_project_strain_edges(sim, &sd, w);
        project_obstacles(sim, w);
    }
    collide_self(sim, w, stats);
    if (limit && cloth__pbd_strain_violated(sim, &sd, w, w->p))
        stats->not_converged = 1;
    update(sim, w, h, stats);
    cloth__contact_self_velocities(sim, sim->v, NULL);
    stats->iterations = passes;
    return CLOTH_OK;
}

/* --------------------------------------------------------------- the keys */

static const char *const variant_names[] = {"xpbd", "pbd", NULL};
static const char *const bending_names[] = {"springs", "dihedral", NULL};

#define OFF(field) offsetof(cloth__pbd_def, field)

static const cloth__key pbd_keys[] = {
    {.section = "pbd", .name = "variant", .type = CLOTH__KEY_CHOICE, .offset = OFF(variant),
     .choices = variant_names, .def = "xpbd",
     .help = "xpbd (compliance 1/k from the material, Macklin 2016) or pbd (k_pbd, Mueller "
     "2007)"},
    {.section = "pbd", .name = "iterations", .type = CLOTH__KEY_INT, .offset = OFF(iterations),
     .lo = 1, .hi = 100000, .def = "10",
     .help = "Gauss-Seidel passes over all constraints per step"},
    {.section = "pbd", .name = "bending", .type = CLOTH__KEY_CHOICE, .offset = OFF(bending),
     .choices = bending_names, .def = "springs",
     .help = "springs (bend springs as distance constraints) or dihedral (angle of each "
     "hinge)"},
    {.section = "pbd", .name = "k_pbd", .type = CLOTH__KEY_DOUBLE, .offset = OFF(k_pbd),
     .lo = 0, .hi = 1, .lo_open = 1, .def = "1",
     .help = "pbd variant: stiffness of stretch constraints after all passes, in (0, 1]"},
    {.section = "pbd", .name = "k_pbd_bend", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(k_pbd_bend), .lo = 0, .hi = 1, .def = "1",
     .help = "pbd variant: the same for bending constraints, in [0, 1]"},
    {.section = "pbd", .name = "damping", .type = CLOTH__KEY_DOUBLE, .offset = OFF(damping),
     .lo = 0, .hi = 1, .def = "0",
     .help = "k_d of Mueller's damping: non-rigid velocity scaled by 1 - k_d per step"},
    {.section = "pbd", .name = "order", .type = CLOTH__KEY_CHOICE, .offset = OFF(order),
     .choices = cloth__order_names, .def = "sequential",
     .help = "sequential (the reference Gauss-Seidel order) or coloured (vectorised, "
     "run.threads; other rounding)"},
    {.section = "pbd", .name = "strain_limit", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(strain_limit), .lo = 0, .hi = 1, .hi_open = 1, .def = "0",
     .help = "tau of unilateral constraints in every pass (zero compliance): l <= (1 + tau) l0 "
     "(edge) or sigma1 <= 1 + tau (triangle); 0 = off"},
    {.section = "pbd", .name = "strain_measure", .type = CLOTH__KEY_CHOICE,
     .offset = OFF(strain_measure), .choices = cloth__limit_measure_names, .def = "edge",
     .help = "edge (structural and shear springs) or triangle (principal stretch, after Strain "
     "Based Dynamics, Mueller 2014)"},
    {.section = "pbd", .name = "strain_tol", .type = CLOTH__KEY_DOUBLE,
     .offset = OFF(strain_tol), .lo = 0, .hi = 0.1, .lo_open = 1, .def = "1e-6",
     .help = "a step has not converged when after its passes a limit is exceeded by the factor "
     "1 + tol (verlet's strain_tol)"},
};

/* ---------------------------------------------------------------- metrics */

/* With dihedral bending the elastic energy counts what the kernel simulates: the stretch
 * springs, and 1/2 k_theta (theta - theta0)^2 per hinge instead of the bend springs. */
static void pbd_measure(const cloth_sim *sim, const void *work, cloth_frame *f)
{
    const cloth__pbd *w = work;
    if (w->n_hinges == 0)
        return;
    const cloth_mesh *m = sim->mesh;
    const double *x = sim->x;
    double e = 0;
    for (int s = 0; s < m->n_springs; s++) {
        const cloth_spring *sp = &m->springs[s];
        if (sp->family != CLOTH_BEND)
            e += cloth__spring_energy(x + 3 * sp->a, x + 3 * sp->b, sp->k, sp->rest);
    }
    for (int j = 0; j < w->n_hinges; j++) {
        const int *hg = m->hinges + 4 * j;
        double d = cloth__dihedral_angle(x + 3 * hg[0], x + 3 * hg[1], x + 3 * hg[2],
                                         x + 3 * hg[3]) - w->hinge_rest[j];
        e += 0.5 * w->hinge_k[j] * d * d;
    }
    f->elastic = e;
}

const cloth__kernel cloth__pbd_kernel = {
    .name = "pbd",
    .summary = "position-based dynamics and XPBD (Mueller 2007, Macklin 2016)",
    .keys = pbd_keys,
    .n_keys = (int)(sizeof pbd_keys / sizeof pbd_keys[0]),
    .create = pbd_create,
    .destroy = pbd_destroy,
    .start = NULL,
    .step = pbd_step,
    .measure = pbd_measure,
    .log = NULL,
    .begin_frame = NULL,
    .interactive_max = 0,
    .dense_max = 0,
    .iteration_key = "iterations",
    .stiffness_key = NULL, /* xpbd takes the springs' k; plain pbd's k_pbd is a factor */
    .stiffness_max = 0,
    .reports_cond = 0,
    .cond_off = NULL,
    .frame_substeps = 5,
    /* contact: the stage's phases inside its step (obstacles as constraints of every
     * pass, then self-collision and the robust phase with the update) */
    .contact = CLOTH__CONTACT_IN_STEP,
    .visit_bytes = {.spring = 160, .coloured_spring = 72, .coloured_vertex = 64},
};
