/* The bw kernel (Baraff and Witkin 1998) against closed forms: one step of one stretch
 * condition on one free vertex is the closed-form linearised implicit Euler step, the
 * filter keeps pins still, the forces are minus the energy's gradient (central
 * differences) and the kept Jacobian is the force's where the dropped term vanishes, a
 * hanging cloth comes to rest where the forces balance, the springs' stiffness is the own
 * one over the rest area; bad keys and a chain refused. */
#include "cloth.h"
#include "kernels/bw/bw_conditions.h"
#include "kernels/bw/bw_pcg.h"
#include "sim/state.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* One right triangle (0,0), (s,0), (0,s) in the xy plane, vertices 0 and 2 pinned: the
 * rest frame has u along x, v along y, and vertex 1's weight is c_1 = (1/s, 0), so of
 * the conditions only C_u = a (|x1 - x0|/s - 1) moves it (C_v does not depend on x1;
 * k_shear = 0, no hinge). */
static cloth_sim *one_triangle(double s, double m, double k, double beta, double h,
                               const char *tension)
{
    char obj[128], text[1024];
    snprintf(obj, sizeof obj, "v 0 0 0\nv %.17g 0 0\nv 0 %.17g 0\nf 1 2 3\n", s, s);
    const char *path = tu_temp_file("bw_tri.obj", obj);
    snprintf(text, sizeof text,
             "[mesh]\nobj = %s\npins = 0 2\n[material]\nvertex_mass = %.17g\n"
             "[world]\ngravity = 0 0 0\nair_damping = 0\nair_density = 0\n"
             "[run]\nkernel = bw\ndt = %.17g\nsubsteps = 1\n"
             "[bw]\nstiffness = own\nk_stretch = %.17g\nk_shear = 0\nk_bend = 0\ndamping = %.17g\n"
             "cg_tol = 1e-15\ntension_hessian = %s\n",
             path, m, h, k, beta, tension);
    return tu_sim(text, "bw_tri.ini");
}

/* The closed form: g = dC/dx1 = (a/s) e, e = (x1 - x0)/l, C = a (l/s - 1), a = s^2/2.
 * A = m I + (h k_d + h^2 k) g g^T + beta P, b = h g (-k C - k_d Cdot - h k Cdot) - beta P v,
 * Cdot = g.v, where P = I - e e^T and beta P = h^2 k C d2C/dx1^2 (beta = h^2 k C a/(s l))
 * is the tension term, kept (_i = 0: C > 0 here) or dropped (_i = 1, beta = 0).  g is an
 * eigenvector of A (value m + (h k_d + h^2 k) |g|^2) and P's range the other eigenspace
 * (value m + beta), so dv = b.g g / (|g|^2 (m + (h k_d + h^2 k)|g|^2)) - beta P v / (m + beta). */
START_TEST(one_stretch_condition_step_is_the_closed_form)
{
    double s = 0.5, m = 0.02, k = 3e4, beta = 2e-3, h = 1.0 / 60;
    cloth_sim *sim = one_triangle(s, m, k, beta, h, _i ? "drop" : "keep");
    double x1[3] = {0.61, 0.07, -0.03}, v1[3] = {0.3, -0.2, 0.1};
    memcpy(sim->x + 3, x1, sizeof x1);
    memcpy(sim->v + 3, v1, sizeof v1);
    double a = s * s / 2, l = sqrt(x1[0] * x1[0] + x1[1] * x1[1] + x1[2] * x1[2]);
    double g[3], C = a * (l / s - 1), cdot = 0, g2 = 0, kd = beta * k, ev = 0;
    for (int c = 0; c < 3; c++) {
        g[c] = a / s * x1[c] / l;
        cdot += g[c] * v1[c];
        g2 += g[c] * g[c];
        ev += x1[c] / l * v1[c];
    }
    double t = _i ? 0 : h * h * k * C * a / (s * l);
    double scale = h * (-k * C - kd * cdot - h * k * cdot) / (m + (h * kd + h * h * k) * g2);
    double want_v[3], want_x[3];
    for (int c = 0; c < 3; c++) {
        want_v[c] = v1[c] + scale * g[c] - t * (v1[c] - ev * x1[c] / l) / (m + t);
        want_x[c] = x1[c] + h * want_v[c];
    }
    cloth_frame f;
    cloth_error err;
    ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_double_le(tu_rel_error(sim->v + 3, want_v, 3, 1e-300), 1e-12);
    ck_assert_double_le(tu_rel_error(sim->x + 3, want_x, 3, 1e-300), 1e-12);
    ck_assert_int_eq(f.not_converged, 0);
    ck_assert_int_le(f.iterations, 3); /* CG on 3 unknowns */
    cloth_sim_destroy(sim);
}
END_TEST

/* Pins are filtered out of the solve: after steps that move the free vertex, the pinned
 * ones are bit for bit where they started, with velocity 0; and the PCG alone returns
 * dv = 0 on a filtered vertex whatever b holds there. */
START_TEST(filter_keeps_pinned_vertices_still)
{
    cloth_sim *sim = one_triangle(0.5, 0.02, 3e4, 1e-3, 1.0 / 60, "keep");
    double x0[9];
    memcpy(x0, sim->x, sizeof x0);
    sim->x[3] = 0.7; /* stretched: the free vertex is pulled back */
    tu_frames(sim, 5);
    for (int i = 0; i < 3; i++) {
        ck_assert(sim->x[i] == x0[i] && sim->x[6 + i] == x0[6 + i]);
        ck_assert(sim->v[i] == 0 && sim->v[6 + i] == 0);
    }
    ck_assert(fabs(sim->x[3] - 0.7) > 1e-3);
    cloth_sim_destroy(sim);

    /* 2 vertices, A = [[2 I, -I], [-I, 2 I]], vertex 0 fixed: dv_1 = b_1 / 2 exactly */
    cloth__sparse *A;
    cloth__bw_pcg *p;
    cloth_error err;
    int start[3] = {0, 0, 1}, rows[1] = {0}, iters;
    ck_assert(cloth__sparse_create(2, 1, &A, &err) == CLOTH_OK);
    ck_assert(cloth__sparse_set_pattern(A, start, rows, &err) == CLOTH_OK);
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    cloth__sparse_add_block(A, 0, 0, I, 3, 2);
    cloth__sparse_add_block(A, 1, 1, I, 3, 2);
    cloth__sparse_add_block(A, 0, 1, I, 3, -1);
    ck_assert(cloth__bw_pcg_create(2, &p, &err) == CLOTH_OK);
    double b[6] = {5, -7, 9, 1, 2, -3}, dv[6] = {1, 1, 1, 0, 0, 0};
    unsigned char fixed[2] = {1, 0};
    cloth__bw_filter filt = {fixed, NULL, NULL};
    ck_assert_int_eq(cloth__bw_pcg_solve(p, A, b, filt, dv, 1e-14, 10, &iters), 1);
    for (int c = 0; c < 3; c++) {
        ck_assert(dv[c] == 0);
        ck_assert_double_eq_tol(dv[3 + c], b[3 + c] / 2, 1e-15);
    }
    cloth__bw_pcg_destroy(p);
    cloth__sparse_destroy(A);
}
END_TEST

/* A triangle lying on the floor (y = 0), sliding along x: once the floor has caught it,
 * the filter S = I - n n^T holds its normal velocity at the floor's (v_y = 0 exactly)
 * and leaves the tangential one alone (no tangential force: v_x stays).  When gravity
 * turns upward the contact still holds for the step whose reaction pulls (the release
 * is decided after the solve, section 5.2), then lets go: v_y = h g the step after. */
START_TEST(floor_contact_is_filtered_then_released)
{
    const char *path = tu_temp_file("bw_floor.obj", "v 0 0 0\nv 0.2 0 0\nv 0 0 0.2\nf 1 2 3\n");
    char text[1024];
    double h = 0.01, g = 9.81;
    snprintf(text, sizeof text,
             "[mesh]\nobj = %s\npins = none\n[world]\ngravity = 0 -9.81 0\n"
             "air_damping = 0\nair_density = 0\n[plane]\nheight = 0\n"
             "[run]\nkernel = bw\ndt = %.17g\nsubsteps = 1\n", path, h);
    cloth_sim *sim = tu_sim(text, "bw_floor.ini");
    for (int i = 0; i < 3; i++)
        sim->v[3 * i] = 0.5;
    tu_frames(sim, 5); /* the first step falls in and is put back; then held */
    for (int i = 0; i < 3; i++) {
        ck_assert(sim->v[3 * i + 1] == 0 && sim->x[3 * i + 1] == 0);
        ck_assert_double_eq_tol(sim->v[3 * i], 0.5, 1e-12); /* C = 0 to rounding */
    }
    cloth_error err;
    ck_assert(cloth_sim_set(sim, "world.gravity=0 9.81 0", &err) == CLOTH_OK);
    tu_frames(sim, 1);
    for (int i = 0; i < 3; i++)
        ck_assert(sim->v[3 * i + 1] == 0);
    tu_frames(sim, 1);
    for (int i = 0; i < 3; i++)
        ck_assert_double_eq_tol(sim->v[3 * i + 1], h * g, 1e-15);
    cloth_sim_destroy(sim);
}
END_TEST

/* The smallest distance of a vertex from the sphere's surface. */
static double sphere_gap(const cloth_sim *sim)
{
    double c[3], r, gap = INFINITY;
    ck_assert(cloth_sim_sphere(sim, c, &r));
    for (int i = 0; i < sim->mesh->n; i++) {
        double d = 0;
        for (int k = 0; k < 3; k++)
            d += (sim->x[3 * i + k] - c[k]) * (sim->x[3 * i + k] - c[k]);
        gap = fmin(gap, sqrt(d) - r);
    }
    return gap;
}

/* A cloth resting on a sphere that slides under it (along x, 0.2 m/s): when gravity
 * turns upward the contacts' reactions pull, and the cloth must leave.  A held vertex
 * moves with the sphere's normal velocity along the normal at the step's start, which on
 * the moving curved surface ends the step inside it by about h^2 |V_t|^2 / (2R); the
 * projection after the step puts it back and must not make it a contact again in the
 * step that released it.  So: the first step after the turn holds the cloth (the
 * reaction is read after the solve, as on the floor), the second is free and lifts every
 * vertex by about h^2 g = 2.7 mm while the surface under it rises at most V tan(theta)
 * h = 0.7 mm (theta < 0.21 rad under the 0.2 m cloth): every gap > 1 mm.  (Registered
 * again, every vertex stays on the surface, held, for three more steps here.)  Then it
 * rises as a body: after 20 frames every vertex is more than 0.1 m away. */
START_TEST(contacts_on_a_sliding_sphere_let_go)
{
    cloth_sim *sim = tu_sim(
        "[mesh]\nnx = 5\nny = 5\nspacing = 0.05\nplane = xz\norigin = -0.1 0.505 -0.1\n"
        "pins = none\n[material]\nvertex_mass = 0.01\n"
        "[world]\ngravity = 0 -9.81 0\nair_damping = 0\n"
        "[sphere]\ncenter = 0 0 0\nradius = 0.5\nmotion = path -0.05 0 0 0.05 0 0 1\n"
        "[run]\nkernel = bw\ndt = 0.016666666666666666\nsubsteps = 1\n",
        "bw_sliding.ini");
    tu_frames(sim, 20); /* falls 5 mm onto the sphere */
    ck_assert_double_le(sphere_gap(sim), 1e-12); /* resting on it */
    cloth_error err;
    ck_assert(cloth_sim_set(sim, "world.gravity=0 9.81 0", &err) == CLOTH_OK);
    tu_frames(sim, 2);
    ck_assert_msg(sphere_gap(sim) > 1e-3, "gap %g m two steps after the turn",
                  sphere_gap(sim));
    tu_frames(sim, 18);
    ck_assert_msg(sphere_gap(sim) > 0.1, "the cloth stays %g m from the sphere",
                  sphere_gap(sim));
    cloth_sim_destroy(sim);
}
END_TEST

/* ------------------------------------------------ forces and Jacobians by differences */

typedef struct fd_ctx {
    const double *Dm_inv;
    double area, k_u, k_s;      /* stretch (both components) and shear stiffness      */
    const cloth__bw_model *md;  /* whole-mesh energy                                  */
    const cloth__bw_k *k;
} fd_ctx;

static double tri_energy(const double *x, void *ctx)
{
    fd_ctx *c = ctx;
    double C[2], Cs, dC[18], dS[9];
    cloth__bw_stretch(x, c->Dm_inv, c->area, C, dC);
    cloth__bw_shear(x, c->Dm_inv, c->area, &Cs, dS);
    return 0.5 * c->k_u * (C[0] * C[0] + C[1] * C[1]) + 0.5 * c->k_s * Cs * Cs;
}

static void tri_force(const double *x, void *ctx, double *f)
{
    fd_ctx *c = ctx;
    double C[2], Cs, dC[18], dS[9];
    cloth__bw_stretch(x, c->Dm_inv, c->area, C, dC);
    cloth__bw_shear(x, c->Dm_inv, c->area, &Cs, dS);
    for (int i = 0; i < 9; i++)
        f[i] = -c->k_u * (C[0] * dC[i] + C[1] * dC[9 + i]) - c->k_s * Cs * dS[i];
}

/* A random rest triangle in 3D and its (u, v) weights through a rest frame of its own. */
static double random_rest(unsigned long *seed, double X[9], double Dm_inv[4])
{
    for (int i = 0; i < 9; i++)
        X[i] = tu_random(seed);
    /* P: coordinates in an orthonormal frame of the plane (e1 along the first edge) */
    double e1[3], e2[3], n[3], u[3], v[3];
    for (int k = 0; k < 3; k++) {
        e1[k] = X[3 + k] - X[k];
        e2[k] = X[6 + k] - X[k];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    double l1 = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    for (int k = 0; k < 3; k++)
        u[k] = e1[k] / l1;
    v[0] = n[1] * u[2] - n[2] * u[1];
    v[1] = n[2] * u[0] - n[0] * u[2];
    v[2] = n[0] * u[1] - n[1] * u[0];
    double lv = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    double P[6] = {0, 0, l1, 0, 0, 0};
    for (int k = 0; k < 3; k++)
        P[5] += e2[k] * v[k] / lv;
    for (int k = 0; k < 3; k++)
        P[4] += e2[k] * u[k];
    /* Dm = [[P2 - P0, P4 - P0], [P3 - P1, P5 - P1]] */
    double det = P[2] * P[5] - P[4] * P[3];
    Dm_inv[0] = P[5] / det;
    Dm_inv[1] = -P[4] / det;
    Dm_inv[2] = -P[3] / det;
    Dm_inv[3] = P[2] / det;
    return 0.5 * fabs(det);
}

/* f = -grad E for stretch and shear at random deformed triangles (central differences,
 * h = 1e-6: error O(h^2) relative). */
START_TEST(stretch_and_shear_forces_are_minus_the_energy_gradient)
{
    unsigned long seed = 12345;
    for (int trial = 0; trial < 20; trial++) {
        double X[9], Dm_inv[4], x[9], f[9], g[9];
        fd_ctx c = {Dm_inv, 0, 1e4, 3e3, NULL, NULL};
        c.area = random_rest(&seed, X, Dm_inv);
        for (int i = 0; i < 9; i++)
            x[i] = X[i] + 0.2 * tu_random(&seed);
        tri_force(x, &c, f);
        tu_fd_gradient(tri_energy, &c, x, 9, 1e-6, g);
        for (int i = 0; i < 9; i++)
            g[i] = -g[i];
        ck_assert_double_le(tu_rel_error(f, g, 9, 1e-12), 1e-7);
    }
}
END_TEST

/* The kept Jacobian -sum k dC dC^T equals the force's Jacobian (central differences)
 * where every C = 0 (the dropped -k C d2C/dx2 vanishes there): the rest triangle moved
 * rigidly.  It is symmetric negative semi-definite by construction. */
START_TEST(kept_jacobian_is_the_force_jacobian_where_conditions_vanish)
{
    unsigned long seed = 777;
    for (int trial = 0; trial < 10; trial++) {
        double X[9], Dm_inv[4], x[9], J[81], K[81];
        fd_ctx c = {Dm_inv, 0, 1e4, 3e3, NULL, NULL};
        c.area = random_rest(&seed, X, Dm_inv);
        /* a rotation about z by phi then about x by psi, and a shift */
        double phi = 3 * tu_random(&seed), psi = 3 * tu_random(&seed);
        for (int i = 0; i < 3; i++) {
            double p[3] = {cos(phi) * X[3 * i] - sin(phi) * X[3 * i + 1],
                           sin(phi) * X[3 * i] + cos(phi) * X[3 * i + 1], X[3 * i + 2]};
            x[3 * i] = p[0] + 0.3;
            x[3 * i + 1] = cos(psi) * p[1] - sin(psi) * p[2] - 0.1;
            x[3 * i + 2] = sin(psi) * p[1] + cos(psi) * p[2];
        }
        double C[2], Cs, dC[18], dS[9];
        cloth__bw_stretch(x, Dm_inv, c.area, C, dC);
        cloth__bw_shear(x, Dm_inv, c.area, &Cs, dS);
        ck_assert_double_le(fabs(C[0]) + fabs(C[1]) + fabs(Cs), 1e-12);
        for (int p = 0; p < 9; p++)
            for (int q = 0; q < 9; q++)
                K[9 * p + q] = -c.k_u * (dC[p] * dC[q] + dC[9 + p] * dC[9 + q]) -
                               c.k_s * dS[p] * dS[q];
        tu_fd_jacobian(tri_force, &c, x, 9, 1e-6, J);
        ck_assert_double_le(tu_rel_error(J, K, 81, 1e-12), 1e-7);
    }
}
END_TEST

/* Component d of the stretch conditions' gradient, for its Jacobian by differences. */
typedef struct hess_ctx {
    const double *Dm_inv;
    double area;
    int d;
} hess_ctx;

static void stretch_gradient(const double *x, void *ctx, double *out)
{
    hess_ctx *c = ctx;
    double C[2], dC[18];
    cloth__bw_stretch(x, c->Dm_inv, c->area, C, dC);
    memcpy(out, dC + 9 * c->d, 9 * sizeof(double));
}

/* The stretch conditions' second derivatives (bw.tension_hessian's term) are the central-
 * difference Jacobian of their gradients, at random deformed triangles. */
START_TEST(stretch_hessian_is_the_gradient_s_jacobian)
{
    unsigned long seed = 4242;
    for (int trial = 0; trial < 20; trial++) {
        double X[9], Dm_inv[4], x[9], H[162], J[81];
        hess_ctx c = {Dm_inv, 0, 0};
        c.area = random_rest(&seed, X, Dm_inv);
        for (int i = 0; i < 9; i++)
            x[i] = X[i] + 0.2 * tu_random(&seed);
        cloth__bw_stretch_hessian(x, Dm_inv, c.area, H);
        for (c.d = 0; c.d < 2; c.d++) {
            tu_fd_jacobian(stretch_gradient, &c, x, 9, 1e-6, J);
            ck_assert_double_le(tu_rel_error(H + 81 * c.d, J, 81, 1e-12), 1e-7);
        }
    }
}
END_TEST

/* With the tension term the Jacobian is the force's where the triangle is stretched
 * along u and v (C_u, C_v > 0) and not sheared (C_s = 0, so the shear's dropped
 * -k C_s d2C_s vanishes): -k_u (sum dC dC^T + C d2C/dx2) - k_s dC_s dC_s^T, against
 * central differences; without the term (-k dC dC^T alone) it is not. */
START_TEST(kept_jacobian_with_tension_is_the_force_jacobian_when_stretched)
{
    unsigned long seed = 31337;
    for (int trial = 0; trial < 10; trial++) {
        double X[9], Dm_inv[4], x[9], J[81], K[81], Kd[81], H[162];
        fd_ctx c = {Dm_inv, 0, 1e4, 3e3, NULL, NULL};
        c.area = random_rest(&seed, X, Dm_inv);
        /* rest coordinates P_i (u, v) back from Dm^-1: P1 - P0 = (l1, 0), P2 - P0 */
        double det = Dm_inv[0] * Dm_inv[3] - Dm_inv[1] * Dm_inv[2];
        double P[6] = {0, 0, Dm_inv[3] / det, -Dm_inv[2] / det, -Dm_inv[1] / det,
                       Dm_inv[0] / det};
        double su = 1.1 + 0.05 * tu_random(&seed), sv = 1.05 + 0.03 * tu_random(&seed);
        double phi = 3 * tu_random(&seed), psi = 3 * tu_random(&seed);
        for (int i = 0; i < 3; i++) {
            double p[3] = {su * P[2 * i], sv * P[2 * i + 1], 0};
            double q[3] = {cos(phi) * p[0] - sin(phi) * p[1], sin(phi) * p[0] + cos(phi) * p[1],
                           0};
            x[3 * i] = q[0] + 0.3;
            x[3 * i + 1] = cos(psi) * q[1] - sin(psi) * q[2];
            x[3 * i + 2] = sin(psi) * q[1] + cos(psi) * q[2];
        }
        double C[2], Cs, dC[18], dS[9];
        cloth__bw_stretch(x, Dm_inv, c.area, C, dC);
        cloth__bw_shear(x, Dm_inv, c.area, &Cs, dS);
        ck_assert(C[0] > 0 && C[1] > 0);
        ck_assert_double_le(fabs(Cs), 1e-12);
        cloth__bw_stretch_hessian(x, Dm_inv, c.area, H);
        for (int p = 0; p < 9; p++)
            for (int q = 0; q < 9; q++) {
                Kd[9 * p + q] = -c.k_u * (dC[p] * dC[q] + dC[9 + p] * dC[9 + q]) -
                                c.k_s * dS[p] * dS[q];
                K[9 * p + q] = Kd[9 * p + q] -
                               c.k_u * (C[0] * H[9 * p + q] + C[1] * H[81 + 9 * p + q]);
            }
        tu_fd_jacobian(tri_force, &c, x, 9, 1e-6, J);
        ck_assert_double_le(tu_rel_error(J, K, 81, 1e-12), 1e-7);
        ck_assert_double_ge(tu_rel_error(J, Kd, 81, 1e-12), 1e-3); /* the term matters */
    }
}
END_TEST

static double mesh_energy(const double *x, void *ctx)
{
    fd_ctx *c = ctx;
    return cloth__bw_energy(c->md, c->k, x);
}

/* The whole model (stretch, shear and bend on a 3 x 3 sheet) by the same check, with
 * fixed k (_i = 0) and with k per rest area (_i = 1). */
START_TEST(model_forces_with_bending_are_minus_the_energy_gradient)
{
    cloth_sim *sim = tu_sim("[mesh]\nnx = 3\nny = 3\nspacing = 0.2\npins = none\n"
                            "[run]\nkernel = bw\n", "bw_sheet.ini");
    cloth__bw_model md;
    cloth_error err;
    ck_assert(cloth__bw_model_init(sim->mesh, &md, &err) == CLOTH_OK);
    cloth__bw_k k = {1e5, 1e4, 0.5, 0};
    if (_i == 1)
        k = (cloth__bw_k){500, 200, 0.5, 1};
    int n3 = 3 * sim->mesh->n;
    ck_assert_int_le(n3, 64);
    double x[27], f[27], g[27];
    unsigned long seed = 99;
    for (int i = 0; i < n3; i++)
        x[i] = sim->mesh->rest[i] + 0.03 * tu_random(&seed);
    memset(f, 0, sizeof f);
    cloth__bw_add_elastic_forces(&md, &k, x, f);
    fd_ctx c = {NULL, 0, 0, 0, &md, &k};
    tu_fd_gradient(mesh_energy, &c, x, n3, 1e-7, g);
    for (int i = 0; i < n3; i++)
        g[i] = -g[i];
    ck_assert_double_le(tu_rel_error(f, g, n3, 1e-12), 1e-6);
    cloth__bw_model_free(&md);
    cloth_sim_destroy(sim);
}
END_TEST

/* A 5 x 5 cloth hanging from its top row, damped, comes to rest where gravity and the
 * elastic forces balance at every free vertex: |f| <= 1e-6 m |g| after 20 s. */
START_TEST(hanging_cloth_settles_where_forces_balance)
{
    cloth_sim *sim = tu_sim("[mesh]\nnx = 5\nny = 5\nspacing = 0.1\npins = top-row\n"
                            "[material]\nvertex_mass = 0.01\n"
                            "[world]\ngravity = 0 -9.81 0\nair_damping = 0.01\n"
                            "[run]\nkernel = bw\ndt = 0.016666666666666666\nsubsteps = 1\n"
                            "[bw]\nstiffness = own\nk_stretch = 1e5\nk_shear = 1e4\n"
                            "k_bend = 1e-3\ndamping = 0.01\ncg_tol = 1e-8\n"
                            "cg_max_iters = 1000\n",
                            "bw_hang.ini");
    tu_frames(sim, 1200);
    cloth__bw_model md;
    cloth_error err;
    ck_assert(cloth__bw_model_init(sim->mesh, &md, &err) == CLOTH_OK);
    cloth__bw_k k = {1e5, 1e4, 1e-3, 0};
    int n = sim->mesh->n;
    double f[75];
    memset(f, 0, sizeof f);
    cloth__bw_add_elastic_forces(&md, &k, sim->x, f);
    double worst = 0, sag = 0;
    for (int i = 0; i < n; i++) {
        if (sim->mesh->pinned[i])
            continue;
        f[3 * i + 1] -= sim->mesh->mass[i] * 9.81;
        for (int c = 0; c < 3; c++)
            worst = fmax(worst, fabs(f[3 * i + c]));
        sag = fmax(sag, fabs(sim->x[3 * i + 1] - sim->mesh->rest[3 * i + 1]));
    }
    ck_assert_msg(worst <= 1e-6 * 0.01 * 9.81, "largest net force %g N", worst);
    ck_assert(sag > 1e-4); /* it did stretch: the balance is not the rest shape's */
    cloth__bw_model_free(&md);
    cloth_sim_destroy(sim);
}
END_TEST

/* bw.stiffness = springs on a grid of spacing s (every triangle of area a = s^2/2) is
 * bw.stiffness = own with the spring grid's small-strain constants over a:
 * k_stretch = (k_structural + k_shear + 4 k_bend) / a, k_shear = k_shear / a
 * (docs/kernels/bw.md derives them): the same motion to rounding.  _i = 1: the mesh
 * builds no bend springs (mesh.springs), which then add nothing. */
START_TEST(springs_stiffness_is_own_stiffness_over_the_rest_area)
{
    char common[512], own[1024], springs[1024];
    snprintf(common, sizeof common,
             "[mesh]\nnx = 5\nny = 4\nspacing = 0.2\npins = top-row\n%s"
             "[material]\nk_structural = 300\nk_shear = 40\nk_bend = 7\n"
             "[world]\nwind = 0 0 1\n[run]\nkernel = bw\ndt = 0.01\n"
             "substeps = 1\n[bw]\ncg_tol = 1e-12\n",
             _i ? "springs = structural,shear\n" : "");
    double a = 0.2 * 0.2 / 2, c11 = 300 + 40 + (_i ? 0 : 4 * 7);
    snprintf(springs, sizeof springs, "%sstiffness = springs\n", common);
    snprintf(own, sizeof own, "%sstiffness = own\nk_stretch = %.17g\nk_shear = %.17g\n",
             common, c11 / a, 40 / a);
    cloth_sim *p = tu_sim(springs, "bw_springs.ini"), *q = tu_sim(own, "bw_own.ini");
    tu_frames(p, 30);
    tu_frames(q, 30);
    int n3 = 3 * p->mesh->n;
    ck_assert_double_le(tu_rel_error(p->x, q->x, n3, 1e-300), 1e-10);
    double moved = 0;
    for (int i = 0; i < n3; i++)
        moved = fmax(moved, fabs(p->x[i] - p->mesh->x0[i]));
    ck_assert(moved > 1e-3);
    cloth_sim_destroy(p);
    cloth_sim_destroy(q);
}
END_TEST

/* Keys out of range and a mesh without triangles: "FILE:LINE: key: why", exit 2. */
static const struct {
    const char *text, *prefix;
} bad[] = {
    {"[run]\nkernel = bw\n[bw]\nk_stretch = -1\n", "bad.ini:4: bw.k_stretch"},
    {"[run]\nkernel = bw\n[bw]\nk_bend = -0.5\n", "bad.ini:4: bw.k_bend"},
    {"[run]\nkernel = bw\n[bw]\ncg_tol = 0\n", "bad.ini:4: bw.cg_tol"},
    {"[run]\nkernel = bw\n[bw]\ncg_max_iters = 0\n", "bad.ini:4: bw.cg_max_iters"},
    {"[run]\nkernel = bw\n[bw]\nstrain_passes = 0\n", "bad.ini:4: bw.strain_passes"},
    {"[run]\nkernel = bw\n[bw]\nstiffness = soft\n", "bad.ini:4: bw.stiffness"},
    {"[mesh]\nnx = 1\nny = 4\n[run]\nkernel = bw\n", "bad.ini:5: run.kernel = bw needs triangles"},
};

START_TEST(bad_input_is_refused_with_its_line)
{
    const char *path = tu_temp_file("bw_bad.ini", bad[_i].text);
    char cmd[512], out[2048], prefix[512];
    snprintf(cmd, sizeof cmd, "run %s --out %s", path, tu_temp_dir(7));
    snprintf(prefix, sizeof prefix, "cloth: %s%s", path, bad[_i].prefix + strlen("bad.ini"));
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 2);
    ck_assert_msg(strncmp(out, prefix, strlen(prefix)) == 0, "got '%s', want '%s'", out,
                  prefix);
}
END_TEST

Suite *suite_bw(void)
{
    Suite *s = suite_create("bw");
    TCase *tc = tcase_create("closed forms");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, one_stretch_condition_step_is_the_closed_form, 0, 2);
    tcase_add_test(tc, filter_keeps_pinned_vertices_still);
    tcase_add_test(tc, floor_contact_is_filtered_then_released);
    tcase_add_test(tc, contacts_on_a_sliding_sphere_let_go);
    tcase_add_test(tc, stretch_and_shear_forces_are_minus_the_energy_gradient);
    tcase_add_test(tc, kept_jacobian_is_the_force_jacobian_where_conditions_vanish);
    tcase_add_loop_test(tc, model_forces_with_bending_are_minus_the_energy_gradient, 0, 2);
    tcase_add_test(tc, stretch_hessian_is_the_gradient_s_jacobian);
    tcase_add_test(tc, kept_jacobian_with_tension_is_the_force_jacobian_when_stretched);
    tcase_add_test(tc, hanging_cloth_settles_where_forces_balance);
    tcase_add_loop_test(tc, springs_stiffness_is_own_stiffness_over_the_rest_area, 0, 2);
    tcase_add_loop_test(tc, bad_input_is_refused_with_its_line, 0,
                        (int)(sizeof bad / sizeof bad[0]));
    suite_add_tcase(s, tc);
    return s;
}
