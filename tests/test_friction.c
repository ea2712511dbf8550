/* IPC's lagged friction (terms/friction.h) against closed forms and central differences:
 * f0 and f1 by hand and at their seam; the stencils' coefficients, normals and tangent
 * bases on hand-built contacts and on random ones of every distance type; the energy's
 * gradient and exact Hessian against differences for every type and the obstacle (with
 * and without a moving surface) at slips from 0 to 30 eps; both Hessians' spectra against
 * their closed form; the Coulomb limit; rigid translations; degenerate contacts. */
#include "terms/distance.h"
#include "terms/friction.h"
#include "terms/vec3.h"
#include "suites.h"
#include "testutil.h"

#include <lapacke.h>
#include <math.h>
#include <string.h>

#define EPS 1e-3   /* eps_v h: 0.1 m/s over a 10 ms step */
#define MU 0.4
#define LAMBDA 2.5 /* N */

/* Slips |u| at which the derivatives are checked, in units of eps: zero, tiny, sticking,
 * either side of the seam, sliding. */
static const double slips[] = {0, 1e-9, 0.01, 0.5, 0.999, 1.001, 2, 30};
#define N_SLIPS ((int)(sizeof slips / sizeof slips[0]))

/* ------------------------------------------------------------- the smoothing */

/* Values worked out by hand from f0 = -y^3/(3 eps^2) + y^2/eps + eps/3, f1 = 2t - t^2
 * (t = y/eps) below eps, y and 1 above: at t = 1/4, f0 = (-1/192 + 12/192 + 64/192) eps
 * = 25/64 eps and f1 = 7/16; at t = 1/2, f0 = 13/24 eps, f1 = 3/4. */
START_TEST(smoothing_values_by_hand)
{
    static const struct { double t, f0, f1; } cases[] = {
        {0, 1.0 / 3, 0}, {0.25, 25.0 / 64, 7.0 / 16}, {0.5, 13.0 / 24, 0.75},
        {1, 1, 1},       {2, 2, 1},                   {30, 30, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        double y = cases[k].t * EPS;
        ck_assert_double_eq_tol(cloth__friction_f0(y, EPS), cases[k].f0 * EPS, 1e-15 * EPS);
        ck_assert_double_eq_tol(cloth__friction_f1(y, EPS), cases[k].f1, 1e-15);
    }
}
END_TEST

/* The seam at y = eps: f0 is a cubic below, so f0(eps - d) - (eps - d) = d^3/(3 eps^2)
 * and f1(eps - d) = 1 - d^2/eps^2 exactly; value, slope and curvature meet the line
 * y, 1, 0 above.  The one-sided difference of f1 from the left is d/eps^2 -> 0 = f1' on
 * the right (f1 is C^1). */
START_TEST(smoothing_is_smooth_at_eps)
{
    for (double d = 1e-2 * EPS; d >= 1e-6 * EPS; d /= 10) {
        double y = EPS - d;
        ck_assert_double_eq_tol(cloth__friction_f0(y, EPS) - y, d * d * d / (3 * EPS * EPS),
                                1e-18);
        ck_assert_double_eq_tol(cloth__friction_f1(y, EPS), 1 - d * d / (EPS * EPS), 1e-15);
        double left = (cloth__friction_f1(EPS, EPS) - cloth__friction_f1(y, EPS)) / d;
        ck_assert_double_eq_tol(left, d / (EPS * EPS), 1e-13 / d);
        ck_assert_double_eq(cloth__friction_f1(EPS + d, EPS), 1);
    }
}
END_TEST

/* f0' = f1 by central differences, below, at and above the seam. */
START_TEST(f0_derivative_is_f1)
{
    static const double t[] = {0.05, 0.3, 0.7, 0.99, 1, 1.01, 4};
    double h = 1e-6 * EPS;
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
        double y = t[k] * EPS;
        double fp = cloth__friction_f0(y + h, EPS), fm = cloth__friction_f0(y - h, EPS);
        ck_assert_double_eq_tol((fp - fm) / (2 * h), cloth__friction_f1(y, EPS), 1e-9);
    }
}
END_TEST

/* ------------------------------------------------------------- contacts */

/* One contact: its stencil, lagged positions, surface displacement and unit normal at
 * x_n, the normal found here without friction.c (normal_of). */
typedef struct {
    cloth__friction_stencil st;
    double xn[12];
    double surface[3];
    int moving; /* 1: the surface moves by surface[] over the step */
    double normal[3];
} contact;

/* s for cloth__friction_energy: the surface's displacement, or NULL */
static const double *surface_of(const contact *ct)
{
    return ct->moving ? ct->surface : NULL;
}

static void normalise(double v[3])
{
    double l = cloth__norm(v);
    for (int c = 0; c < 3; c++)
        v[c] /= l;
}

/* r = sum c_i x_i at x */
static void relative_point(const cloth__friction_stencil *st, const double *x, double r[3])
{
    r[0] = r[1] = r[2] = 0;
    for (int i = 0; i < st->n_verts; i++)
        for (int c = 0; c < 3; c++)
            r[c] += st->coef[i] * x[3 * i + c];
}

/* The normal at x from distance.h: for a face (PT) or two lines (EE) the cross product of
 * the type's directions, else r = 1/2 the sum of grad d^2 over the first primitive's
 * vertices (grad_i d^2 = 2 c_i r, and the first primitive's c_i sum to 1). */
static void normal_of(cloth__friction_kind kind, int type, const double *x, double n[3])
{
    double a[3], b[3], g[12];
    if (kind == CLOTH__FRICTION_POINT_TRIANGLE && type == CLOTH__P_T) {
        cloth__sub(x + 6, x + 3, a);
        cloth__sub(x + 9, x + 3, b);
        cloth__cross(a, b, n);
    } else if (kind == CLOTH__FRICTION_EDGE_EDGE && type == CLOTH__EA_EB) {
        cloth__sub(x + 3, x, a);
        cloth__sub(x + 9, x + 6, b);
        cloth__cross(a, b, n);
    } else if (kind == CLOTH__FRICTION_POINT_TRIANGLE) {
        cloth__point_triangle_distance2(x, x + 3, x + 6, x + 9, (cloth__pt_type)type, g, NULL);
        for (int c = 0; c < 3; c++)
            n[c] = g[c] / 2;
    } else {
        cloth__edge_edge_distance2(x, x + 3, x + 6, x + 9, (cloth__ee_type)type, g, NULL);
        for (int c = 0; c < 3; c++)
            n[c] = (g[c] + g[3 + c]) / 2;
    }
    normalise(n);
}

/* T orthonormal and perpendicular to the unit normal n. */
static void check_basis(const cloth__friction_stencil *st, const double n[3], double tol)
{
    const double (*T)[3] = st->tangent;
    for (int a = 0; a < 2; a++) {
        ck_assert_double_eq_tol(cloth__dot(T[a], T[a]), 1, tol);
        ck_assert_msg(fabs(cloth__dot(T[a], n)) <= tol, "t%d . n = %g", a + 1,
                      cloth__dot(T[a], n));
    }
    ck_assert_double_le(fabs(cloth__dot(T[0], T[1])), tol);
}

/* A contact of the given kind: types 0..6 point-triangle, 7..15 edge-edge (the distance
 * type), 16 an obstacle, 17 an obstacle under a sphere spinning at omega = (0, 3, 1) rad/s
 * about c over h = 0.01 s, s = h omega x (x_n - c).  Random lagged positions are drawn
 * until the classifier picks the type asked for. */
#define N_KINDS (CLOTH__PT_TYPES + CLOTH__EE_TYPES + 2)

static contact make_contact(int which, unsigned long *seed)
{
    contact ct;
    memset(&ct, 0, sizeof ct);
    if (which >= CLOTH__PT_TYPES + CLOTH__EE_TYPES) {
        double n[3], c[3], omega[3] = {0, 3, 1}, arm[3];
        for (int k = 0; k < 3; k++) {
            ct.xn[k] = tu_random(seed);
            c[k] = 0.1 * tu_random(seed);
            n[k] = tu_random(seed);
        }
        ct.st = cloth__friction_obstacle(n, LAMBDA);
        memcpy(ct.normal, n, sizeof n);
        normalise(ct.normal);
        if (which == N_KINDS - 1) {
            cloth__sub(ct.xn, c, arm);
            cloth__cross(omega, arm, ct.surface);
            for (int k = 0; k < 3; k++)
                ct.surface[k] *= 0.01;
            ct.moving = 1;
        }
        return ct;
    }
    int pt = which < CLOTH__PT_TYPES, want = pt ? which : which - CLOTH__PT_TYPES;
    for (int tries = 0; tries < 100000; tries++) {
        double *x = ct.xn;
        for (int k = 0; k < 12; k++)
            x[k] = tu_random(seed);
        if (pt)
            for (int c = 0; c < 3; c++)
                x[c] *= 1.5; /* the point further out: vertex and edge regions too */
        int type = pt ? (int)cloth__point_triangle_type(x, x + 3, x + 6, x + 9)
                      : (int)cloth__edge_edge_type(x, x + 3, x + 6, x + 9);
        if (type != want)
            continue;
        ct.st = pt ? cloth__friction_point_triangle(x, x + 3, x + 6, x + 9, LAMBDA)
                   : cloth__friction_edge_edge(x, x + 3, x + 6, x + 9, LAMBDA);
        ck_assert_int_eq(ct.st.type, want);
        normal_of(ct.st.kind, type, x, ct.normal);
        return ct;
    }
    ck_abort_msg("no random contact of kind %d", which);
    return ct;
}

/* ------------------------------------------------------------- stencils by hand */

/* The unit right triangle in z = 0 (t0 at the origin, t1 on x, t2 on y) and a point in
 * each region, as in test_distance.c; the closest point of the triangle worked out by
 * hand gives c = (1, -(1 - beta - gamma), -beta, -gamma) and r = p - that point. */
START_TEST(point_triangle_stencils_by_hand)
{
    static const double t[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    static const struct {
        double p[3];
        cloth__pt_type type;
        double c[4], r[3];
    } cases[] = {
        {{0.2, 0.3, 0.5}, CLOTH__P_T, {1, -0.5, -0.2, -0.3}, {0, 0, 0.5}},
        {{0.2, 0.3, -0.4}, CLOTH__P_T, {1, -0.5, -0.2, -0.3}, {0, 0, -0.4}},
        {{0.5, -0.4, 0.3}, CLOTH__P_E0, {1, -0.5, -0.5, 0}, {0, -0.4, 0.3}},
        {{0.6, 0.6, 0.2}, CLOTH__P_E1, {1, 0, -0.5, -0.5}, {0.1, 0.1, 0.2}},
        {{-0.3, 0.5, 0.1}, CLOTH__P_E2, {1, -0.5, 0, -0.5}, {-0.3, 0, 0.1}},
        {{-0.2, -0.3, 0.4}, CLOTH__P_T0, {1, -1, 0, 0}, {-0.2, -0.3, 0.4}},
        {{1.5, -0.2, 0.1}, CLOTH__P_T1, {1, 0, -1, 0}, {0.5, -0.2, 0.1}},
        {{-0.1, 1.4, -0.3}, CLOTH__P_T2, {1, 0, 0, -1}, {-0.1, 0.4, -0.3}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        double x[12], r[3], n[3];
        memcpy(x, cases[k].p, sizeof cases[k].p);
        memcpy(x + 3, t, sizeof t);
        cloth__friction_stencil st = cloth__friction_point_triangle(x, x + 3, x + 6, x + 9, 7);
        ck_assert_int_eq(st.kind, CLOTH__FRICTION_POINT_TRIANGLE);
        ck_assert_int_eq(st.type, cases[k].type);
        ck_assert_int_eq(st.n_verts, 4);
        ck_assert_double_eq(st.lambda, 7);
        for (int i = 0; i < 4; i++)
            ck_assert_double_eq_tol(st.coef[i], cases[k].c[i], 1e-15);
        relative_point(&st, x, r);
        for (int c = 0; c < 3; c++)
            ck_assert_double_eq_tol(r[c], cases[k].r[c], 1e-15);
        memcpy(n, cases[k].r, sizeof n); /* every one of these normals is along r */
        normalise(n);
        check_basis(&st, n, 1e-15);
    }
}
END_TEST

/* Segments with their closest points worked out by hand (c = (1 - s, s, -(1 - t), -t)):
 * crossing at right angles 0.3 apart; eb0 above ea's middle; the same seen from eb;
 * ea1 and eb0 nearest. */
START_TEST(edge_edge_stencils_by_hand)
{
    static const struct {
        double x[12];
        cloth__ee_type type;
        double c[4], r[3];
    } cases[] = {
        {{0, 0, 0, 1, 0, 0, 0.5, -1, 0.3, 0.5, 1, 0.3}, CLOTH__EA_EB,
         {0.5, 0.5, -0.5, -0.5}, {0, 0, -0.3}},
        {{0, 0, 0, 2, 0, 0, 1, 0.5, 0.3, 1, 2, 0.3}, CLOTH__EA_EB0, {0.5, 0.5, -1, 0},
         {0, -0.5, -0.3}},
        {{1, 0.5, 0.3, 1, 2, 0.3, 0, 0, 0, 2, 0, 0}, CLOTH__EA0_EB, {1, 0, -0.5, -0.5},
         {0, 0.5, 0.3}},
        {{0, 0, 0, 1, 0, 0, 2, 1, 0.5, 2, 3, 0.5}, CLOTH__EA1_EB0, {0, 1, -1, 0},
         {-1, -1, -0.5}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const double *x = cases[k].x;
        double r[3], n[3];
        cloth__friction_stencil st = cloth__friction_edge_edge(x, x + 3, x + 6, x + 9, 1);
        ck_assert_int_eq(st.kind, CLOTH__FRICTION_EDGE_EDGE);
        ck_assert_int_eq(st.type, cases[k].type);
        for (int i = 0; i < 4; i++)
            ck_assert_double_eq_tol(st.coef[i], cases[k].c[i], 1e-15);
        relative_point(&st, x, r);
        for (int c = 0; c < 3; c++)
            ck_assert_double_eq_tol(r[c], cases[k].r[c], 1e-15);
        memcpy(n, cases[k].r, sizeof n);
        normalise(n);
        check_basis(&st, n, 1e-15);
    }
}
END_TEST

/* Parallel and nearly parallel edges fall back to a PE (or PP) type: edges 0.2 apart
 * overlapping over x in [0.5, 1] (r = (0, -0.2, 0) whichever end is taken), and lines in
 * z = 0 and z = 0.05 crossing in projection at angle dy: EE while dy = 1e-3, PE once
 * sin^2 < CLOTH__PARALLEL_SIN2 (dy = 1e-9); the distance stays 0.05 and T stays
 * perpendicular to the normal, which is e_z to 1e-8. */
START_TEST(parallel_edges_fall_back)
{
    const double x[12] = {0, 0, 0, 1, 0, 0, 0.5, 0.2, 0, 2, 0.2, 0};
    cloth__friction_stencil st = cloth__friction_edge_edge(x, x + 3, x + 6, x + 9, 1);
    ck_assert(st.type == CLOTH__EA_EB0 || st.type == CLOTH__EA1_EB);
    double r[3], ey[3] = {0, 1, 0}, n[3];
    relative_point(&st, x, r);
    ck_assert_double_eq_tol(r[0], 0, 1e-15);
    ck_assert_double_eq_tol(r[1], -0.2, 1e-15);
    ck_assert_double_eq_tol(r[2], 0, 1e-15);
    check_basis(&st, ey, 1e-15);
    for (double dy = 1e-3; dy >= 1e-9; dy /= 1e6) {
        double y[12] = {0, 0, 0, 1, 0, 0, 0.2, -dy / 2, 0.05, 0.9, dy / 2, 0.05};
        st = cloth__friction_edge_edge(y, y + 3, y + 6, y + 9, 1);
        if (dy > 1e-8)
            ck_assert_int_eq(st.type, CLOTH__EA_EB);
        else
            ck_assert(st.type >= CLOTH__EA_EB0 && st.type < CLOTH__EA_EB);
        relative_point(&st, y, r);
        ck_assert_double_eq_tol(cloth__norm(r), 0.05, 1e-12);
        normal_of(st.kind, st.type, y, n);
        ck_assert_double_ge(fabs(n[2]), 1 - 1e-15);
        check_basis(&st, n, 1e-15);
    }
}
END_TEST

/* On random contacts of every type: |r|^2 is distance.h's squared distance of that type,
 * the first primitive's coefficients sum to 1 and the second's to -1 (sum c_i = 0), and
 * T is orthonormal and perpendicular to the normal found by normal_of.  _i is the kind. */
START_TEST(random_stencils_are_closest_points)
{
    unsigned long seed = 40 + (unsigned long)_i;
    for (int trial = 0; trial < 20; trial++) {
        contact ct = make_contact(_i, &seed);
        const cloth__friction_stencil *st = &ct.st;
        check_basis(st, ct.normal, 1e-13);
        double sum = 0;
        for (int i = 0; i < st->n_verts; i++)
            sum += st->coef[i];
        if (st->kind == CLOTH__FRICTION_OBSTACLE) {
            ck_assert_double_eq(sum, 1);
            continue;
        }
        ck_assert_double_eq_tol(sum, 0, 1e-15);
        int first = st->kind == CLOTH__FRICTION_POINT_TRIANGLE ? 1 : 2;
        double side = 0;
        for (int i = 0; i < first; i++)
            side += st->coef[i];
        ck_assert_double_eq_tol(side, 1, 1e-15);
        double r[3], d2;
        const double *x = ct.xn;
        relative_point(st, x, r);
        d2 = st->kind == CLOTH__FRICTION_POINT_TRIANGLE
                 ? cloth__point_triangle_distance2(x, x + 3, x + 6, x + 9,
                                                   (cloth__pt_type)st->type, NULL, NULL)
                 : cloth__edge_edge_distance2(x, x + 3, x + 6, x + 9,
                                              (cloth__ee_type)st->type, NULL, NULL);
        ck_assert_double_eq_tol(cloth__dot(r, r), d2, 1e-12 * fmax(d2, 1e-3));
    }
}
END_TEST

/* The obstacle: T perpendicular to the normal of any length, e.g. the floor's e_y. */
START_TEST(obstacle_stencil)
{
    static const double normals[][3] = {{0, 2, 0}, {0, 0, -1e-200}, {1, 2, 3}, {-1e200, 1, 0}};
    for (int k = 0; k < 4; k++) {
        cloth__friction_stencil st = cloth__friction_obstacle(normals[k], 3);
        double n[3];
        ck_assert_int_eq(st.n_verts, 1);
        ck_assert_double_eq(st.coef[0], 1);
        ck_assert_double_eq(st.lambda, 3);
        double m = fmax(fabs(normals[k][0]), fmax(fabs(normals[k][1]), fabs(normals[k][2])));
        for (int c = 0; c < 3; c++)
            n[c] = normals[k][c] / m;
        normalise(n);
        check_basis(&st, n, 1e-15);
    }
}
END_TEST

/* ------------------------------------------------------------- derivatives */

typedef struct {
    const contact *ct;
    cloth__friction_hessian form;
} energy_ctx;

static double energy_value(const double *x, void *ctx)
{
    const energy_ctx *e = ctx;
    return cloth__friction_energy(&e->ct->st, MU, EPS, x, e->ct->xn, surface_of(e->ct), NULL,
                                  NULL, e->form);
}

static void energy_gradient(const double *x, void *ctx, double *g)
{
    const energy_ctx *e = ctx;
    cloth__friction_energy(&e->ct->st, MU, EPS, x, e->ct->xn, surface_of(e->ct), g, NULL,
                           e->form);
}

/* x = x_n (+ s for the obstacle) + a random displacement scaled so that |u| = y; its
 * tangential part alone would do, the normal part must change nothing. */
static void displaced(const contact *ct, double y, unsigned long *seed, double *x)
{
    int n = 3 * ct->st.n_verts;
    double d[12] = {0}, zero[12] = {0}, u[2];
    for (int k = 0; k < n; k++)
        d[k] = tu_random(seed);
    cloth__friction_slip(&ct->st, d, zero, NULL, u);
    double a = y / hypot(u[0], u[1]);
    for (int k = 0; k < n; k++)
        x[k] = ct->xn[k] + a * d[k];
    if (ct->moving)
        for (int c = 0; c < 3; c++)
            x[c] += ct->surface[c];
}

/* The gradient against central differences of the energy, the exact Hessian against
 * central differences of the gradient, at every slip, with steps of 1e-6 eps.  Near
 * y = 0 the gradient is mu lambda (2/eps - |u|/eps^2) u, whose |u| u term has no second
 * derivative at 0: there the differences of the gradient are off by h/(2 eps) = 5e-7
 * relative, the largest error of these checks; rounding costs about 1e-7 elsewhere. */
static void check_derivatives(const contact *ct, unsigned long *seed, int which)
{
    int n = 3 * ct->st.n_verts;
    energy_ctx e = {ct, CLOTH__FRICTION_EXACT};
    for (int k = 0; k < N_SLIPS; k++) {
        double x[12], g[12], H[144], fd[144];
        displaced(ct, slips[k] * EPS, seed, x);
        cloth__friction_energy(&ct->st, MU, EPS, x, ct->xn, surface_of(ct), g, H,
                               CLOTH__FRICTION_EXACT);
        tu_fd_gradient(energy_value, &e, x, n, 1e-6 * EPS, fd);
        double err = tu_rel_error(g, fd, n, MU * LAMBDA * 1e-3);
        ck_assert_msg(err <= 1e-6, "contact %d slip %g eps: gradient off by %g", which,
                      slips[k], err);
        tu_fd_jacobian(energy_gradient, &e, x, n, 1e-6 * EPS, fd);
        err = tu_rel_error(H, fd, n * n, MU * LAMBDA / EPS * 1e-3);
        ck_assert_msg(err <= 2e-6, "contact %d slip %g eps: Hessian off by %g", which,
                      slips[k], err);
    }
}

/* 3 random contacts of each kind; _i is the kind. */
START_TEST(derivatives_match_finite_differences)
{
    unsigned long seed = 300 + (unsigned long)_i;
    for (int trial = 0; trial < 3; trial++) {
        contact ct = make_contact(_i, &seed);
        check_derivatives(&ct, &seed, _i);
    }
}
END_TEST

/* Contacts at the edges of their types: nearly parallel edges (dy = 1e-3, EE) and
 * parallel to rounding (dy = 1e-9, PE), parallel overlapping edges, a point 1e-7 either
 * side of the face-edge boundary and of the edge-vertex boundary, touching contacts (PP
 * and PE at distance 0, collinear edges) whose normal is a fallback. */
START_TEST(derivatives_near_degenerate)
{
    static const double x[][12] = {
        {0, 0, 0, 1, 0, 0, 0.2, -5e-4, 0.05, 0.9, 5e-4, 0.05},
        {0, 0, 0, 1, 0, 0, 0.2, -5e-10, 0.05, 0.9, 5e-10, 0.05},
        {0, 0, 0, 1, 0, 0, 0.5, 0.2, 0, 2, 0.2, 0},
        {0, 0, 0, 2, 0, 0, 1, 0, 0, 3, 0, 0},
        {0.5, 1e-7, 0.3, 0, 0, 0, 1, 0, 0, 0, 1, 0},
        {0.5, -1e-7, 0.3, 0, 0, 0, 1, 0, 0, 0, 1, 0},
        {1e-7, -0.3, 0.2, 0, 0, 0, 1, 0, 0, 0, 1, 0},
        {-1e-7, -0.3, 0.2, 0, 0, 0, 1, 0, 0, 0, 1, 0},
        {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0},
        {0.5, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0},
    };
    unsigned long seed = 400;
    for (int k = 0; k < (int)(sizeof x / sizeof x[0]); k++) {
        contact ct;
        memset(&ct, 0, sizeof ct);
        memcpy(ct.xn, x[k], sizeof x[k]);
        const double *v = ct.xn;
        ct.st = k < 4 ? cloth__friction_edge_edge(v, v + 3, v + 6, v + 9, LAMBDA)
                      : cloth__friction_point_triangle(v, v + 3, v + 6, v + 9, LAMBDA);
        check_derivatives(&ct, &seed, 100 + k);
    }
}
END_TEST

/* At x = x_n (y = 0 exactly): D = mu lambda eps/3, the gradient is 0 to the bit, and
 * the Hessian is its limit mu lambda (2/eps) c_i c_j (I - n n^T), n the normal (T T^T =
 * I - n n^T); the cloth contacts only (an obstacle with s != 0 is not at y = 0 there). */
START_TEST(zero_slip_by_hand)
{
    unsigned long seed = 500 + (unsigned long)_i;
    contact ct = make_contact(_i, &seed);
    ct.moving = 0;
    int n = 3 * ct.st.n_verts;
    double g[12], H[144];
    double D = cloth__friction_energy(&ct.st, MU, EPS, ct.xn, ct.xn, NULL, g, H,
                                      CLOTH__FRICTION_EXACT);
    ck_assert_double_eq_tol(D, MU * LAMBDA * EPS / 3, 1e-15 * MU * LAMBDA * EPS);
    for (int k = 0; k < n; k++)
        ck_assert_double_eq(g[k], 0);
    double scale = MU * LAMBDA * 2 / EPS;
    for (int i = 0; i < ct.st.n_verts; i++)
        for (int j = 0; j < ct.st.n_verts; j++)
            for (int p = 0; p < 3; p++)
                for (int q = 0; q < 3; q++) {
                    double P = (p == q) - ct.normal[p] * ct.normal[q];
                    ck_assert_double_eq_tol(H[n * (3 * i + p) + 3 * j + q],
                                            scale * ct.st.coef[i] * ct.st.coef[j] * P,
                                            1e-12 * scale);
                }
}
END_TEST

/* ------------------------------------------------------------- spectra */

/* Eigenvalues of the symmetric n x n matrix A, ascending. */
static void eigenvalues(const double *A, int n, double *w)
{
    double a[144];
    memcpy(a, A, (size_t)(n * n) * sizeof *a);
    ck_assert_int_eq(LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', n, a, n, w), 0);
}

/* The Hessian is mu lambda (c c^T) (x) (T M T^T): its eigenvalues are |c|^2 mu lambda
 * times M's, f1'(y) = 2 (eps - y)/eps^2 (0 from eps on) and f1(y)/y, and 3k - 2 zeros.
 * Both forms have that spectrum (to rounding: M is PSD already), both are symmetric to
 * the bit, the PSD form has no eigenvalue below -1e-13 of the largest, and the two agree
 * entrywise. */
START_TEST(hessian_spectra)
{
    unsigned long seed = 700 + (unsigned long)_i;
    for (int trial = 0; trial < 3; trial++) {
        contact ct = make_contact(_i, &seed);
        int n = 3 * ct.st.n_verts;
        double cc = 0;
        for (int i = 0; i < ct.st.n_verts; i++)
            cc += ct.st.coef[i] * ct.st.coef[i];
        for (int k = 0; k < N_SLIPS; k++) {
            double x[12], H[144], P[144], w[12], want[12] = {0};
            double y = slips[k] * EPS;
            displaced(&ct, y, &seed, x);
            cloth__friction_energy(&ct.st, MU, EPS, x, ct.xn, surface_of(&ct), NULL, H,
                                   CLOTH__FRICTION_EXACT);
            cloth__friction_energy(&ct.st, MU, EPS, x, ct.xn, surface_of(&ct), NULL, P,
                                   CLOTH__FRICTION_PSD);
            double along = y < EPS ? 2 * (EPS - y) / (EPS * EPS) : 0;
            double across = y == 0 ? 2 / EPS : cloth__friction_f1(y, EPS) / y;
            want[n - 2] = cc * MU * LAMBDA * fmin(along, across);
            want[n - 1] = cc * MU * LAMBDA * fmax(along, across);
            double top = want[n - 1];
            for (int r = 0; r < n; r++)
                for (int c = 0; c < n; c++) {
                    ck_assert(H[n * r + c] == H[n * c + r] && P[n * r + c] == P[n * c + r]);
                    ck_assert_double_eq_tol(P[n * r + c], H[n * r + c], 1e-13 * top);
                }
            eigenvalues(H, n, w);
            for (int r = 0; r < n; r++)
                ck_assert_msg(fabs(w[r] - want[r]) <= 1e-12 * top,
                              "kind %d slip %g eps: eigenvalue %d is %g, not %g", _i,
                              slips[k], r, w[r], want[r]);
            eigenvalues(P, n, w);
            for (int r = 0; r < n; r++) {
                ck_assert_double_ge(w[r], -1e-13 * top);
                ck_assert_double_eq_tol(w[r], want[r], 1e-12 * top);
            }
        }
    }
}
END_TEST

/* ------------------------------------------------------------- Coulomb */

/* Sliding (y >= eps): the force on vertex i is mu lambda c_i along the tangential part of
 * the relative displacement, d_t = d - (d . n) n with d = sum c_i (x_i - x_n,i) - s (no
 * T involved), so |grad_i| = mu lambda |c_i| to the last digits; sticking (y < eps) it
 * is mu lambda |c_i| f1(y), less (to the rounding of y = |d_t|, 1e-13 relative for
 * positions of order 1).  D itself is mu lambda f0(|d_t|). */
START_TEST(coulomb_limit)
{
    static const double t[] = {0.3, 0.9, 1, 1.5, 10, 1e3};
    unsigned long seed = 900 + (unsigned long)_i;
    for (int trial = 0; trial < 3; trial++) {
        contact ct = make_contact(_i, &seed);
        for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
            double x[12], g[12], d[3], dt[3];
            displaced(&ct, t[k] * EPS, &seed, x);
            double D = cloth__friction_energy(&ct.st, MU, EPS, x, ct.xn, surface_of(&ct), g,
                                              NULL, CLOTH__FRICTION_PSD);
            for (int c = 0; c < 3; c++) {
                d[c] = ct.moving ? -ct.surface[c] : 0;
                for (int i = 0; i < ct.st.n_verts; i++)
                    d[c] += ct.st.coef[i] * (x[3 * i + c] - ct.xn[3 * i + c]);
            }
            double dn = cloth__dot(d, ct.normal);
            for (int c = 0; c < 3; c++)
                dt[c] = d[c] - dn * ct.normal[c];
            double y = cloth__norm(dt), r = y / EPS, f1 = t[k] >= 1 ? 1 : 2 * r - r * r;
            ck_assert_double_eq_tol(y, t[k] * EPS, 1e-9 * EPS);
            ck_assert_double_eq_tol(D, MU * LAMBDA * cloth__friction_f0(y, EPS),
                                    1e-12 * MU * LAMBDA * y);
            for (int i = 0; i < ct.st.n_verts; i++) {
                double want = MU * LAMBDA * ct.st.coef[i] * f1;
                ck_assert_double_eq_tol(cloth__norm(g + 3 * i), fabs(want),
                                        (t[k] >= 1 ? 1e-15 : 1e-12) * MU * LAMBDA);
                for (int c = 0; c < 3; c++)
                    ck_assert_double_eq_tol(g[3 * i + c], want * dt[c] / y,
                                            1e-10 * MU * LAMBDA);
            }
        }
    }
}
END_TEST

/* ------------------------------------------------------------- invariants */

/* Moving every vertex of a cloth contact by the same vector moves neither primitive
 * relative to the other: u = 0 (to the rounding of x - x_n), D at its minimum
 * mu lambda eps/3; and at any x the gradients sum to 0 over the vertices (sum c_i = 0:
 * friction forces between cloth vertices cancel, momentum is kept). */
START_TEST(rigid_translation_does_not_slip)
{
    unsigned long seed = 1100 + (unsigned long)_i;
    for (int trial = 0; trial < 10; trial++) {
        contact ct = make_contact(_i, &seed);
        double move[3], x[12], u[2], g[12];
        for (int c = 0; c < 3; c++)
            move[c] = tu_random(&seed);
        for (int k = 0; k < 12; k++)
            x[k] = ct.xn[k] + move[k % 3];
        cloth__friction_slip(&ct.st, x, ct.xn, NULL, u);
        ck_assert_double_le(hypot(u[0], u[1]), 1e-15);
        double D = cloth__friction_energy(&ct.st, MU, EPS, x, ct.xn, NULL, NULL, NULL,
                                          CLOTH__FRICTION_EXACT);
        ck_assert_double_eq_tol(D, MU * LAMBDA * EPS / 3, 1e-15);
        displaced(&ct, 3 * EPS * (1 + tu_random(&seed)), &seed, x);
        cloth__friction_energy(&ct.st, MU, EPS, x, ct.xn, NULL, g, NULL,
                               CLOTH__FRICTION_EXACT);
        for (int c = 0; c < 3; c++)
            ck_assert_double_eq_tol(g[c] + g[3 + c] + g[6 + c] + g[9 + c], 0,
                                    1e-15 * MU * LAMBDA);
    }
}
END_TEST

/* ------------------------------------------------------------- degenerate contacts */

static int all_finite(const double *v, int n)
{
    for (int k = 0; k < n; k++)
        if (!isfinite(v[k]))
            return 0;
    return 1;
}

/* Contacts with no normal direction: a vertex on a triangle's vertex (PP at distance 0),
 * on its edge (PE at 0), collinear overlapping edges (both off the axes), an obstacle
 * normal of 0.  T is orthonormal (and perpendicular to the edge for PE), energy,
 * gradient and both Hessians finite at a slip below and above eps. */
START_TEST(touching_contacts_are_finite)
{
    static const double x[][12] = {
        {0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0},     /* p = t0                              */
        {0, 0.5, 0.5, 0, 0, 0, 0, 1, 1, 1, 0, 0}, /* p on E0, along (0, 1, 1)            */
        {0, 0, 0, 0, 2, 2, 0, 1, 1, 0, 3, 3},     /* overlapping, both along (0, 1, 1)   */
    };
    contact cts[4];
    memset(cts, 0, sizeof cts);
    for (int k = 0; k < 3; k++) {
        memcpy(cts[k].xn, x[k], sizeof x[k]);
        const double *v = cts[k].xn;
        cts[k].st = k < 2 ? cloth__friction_point_triangle(v, v + 3, v + 6, v + 9, LAMBDA)
                          : cloth__friction_edge_edge(v, v + 3, v + 6, v + 9, LAMBDA);
    }
    ck_assert_int_eq(cts[0].st.type, CLOTH__P_T0);
    ck_assert_int_eq(cts[1].st.type, CLOTH__P_E0);
    ck_assert(cts[2].st.type != CLOTH__EA_EB);
    const double zero[3] = {0, 0, 0}, line[3] = {0, M_SQRT1_2, M_SQRT1_2};
    cts[3].st = cloth__friction_obstacle(zero, LAMBDA);
    for (int k = 0; k < 4; k++) {
        const cloth__friction_stencil *st = &cts[k].st;
        ck_assert_double_eq_tol(cloth__dot(st->tangent[0], st->tangent[0]), 1, 1e-15);
        ck_assert_double_eq_tol(cloth__dot(st->tangent[1], st->tangent[1]), 1, 1e-15);
        ck_assert_double_le(fabs(cloth__dot(st->tangent[0], st->tangent[1])), 1e-15);
        if (k == 1 || k == 2) { /* PE: the normal is some perpendicular to the line */
            double n[3];
            cloth__cross(st->tangent[0], st->tangent[1], n);
            ck_assert_double_le(fabs(cloth__dot(n, line)), 1e-15);
        }
        unsigned long seed = 1300 + (unsigned long)k;
        for (int s = 0; s < 2; s++) {
            double y[12], g[12], H[144], P[144];
            int n = 3 * st->n_verts;
            displaced(&cts[k], s == 0 ? 0.5 * EPS : 4 * EPS, &seed, y);
            double D = cloth__friction_energy(st, MU, EPS, y, cts[k].xn, NULL, g, H,
                                              CLOTH__FRICTION_EXACT);
            cloth__friction_energy(st, MU, EPS, y, cts[k].xn, NULL, NULL, P,
                                   CLOTH__FRICTION_PSD);
            ck_assert(isfinite(D) && all_finite(g, n) && all_finite(H, n * n) &&
                      all_finite(P, n * n));
        }
    }
}
END_TEST

/* Slips far below any rounding of O(1) positions: an obstacle vertex at the origin moved
 * by 1e-300 and by the smallest subnormal.  The gradient is mu lambda (2/eps) T T^T d to
 * first order, the Hessian its limit mu lambda (2/eps) (I - n n^T): finite, no 0/0. */
START_TEST(tiny_slips_are_finite)
{
    const double n[3] = {0, 1, 0}, xn[3] = {0, 0, 0};
    cloth__friction_stencil st = cloth__friction_obstacle(n, LAMBDA);
    static const double moves[][3] = {{1e-300, 0, 2e-300}, {4.9e-324, 0, 0}, {0, 0, 0}};
    for (int k = 0; k < 3; k++) {
        double g[3], H[9], P[9];
        double D = cloth__friction_energy(&st, MU, EPS, moves[k], xn, NULL, g, H,
                                          CLOTH__FRICTION_EXACT);
        cloth__friction_energy(&st, MU, EPS, moves[k], xn, NULL, NULL, P, CLOTH__FRICTION_PSD);
        ck_assert_double_eq_tol(D, MU * LAMBDA * EPS / 3, 1e-15 * MU * LAMBDA * EPS);
        double scale = MU * LAMBDA * 2 / EPS;
        for (int c = 0; c < 3; c++)
            ck_assert_double_eq_tol(g[c], scale * (c == 1 ? 0 : moves[k][c]), 1e-310 * scale);
        for (int p = 0; p < 3; p++)
            for (int q = 0; q < 3; q++) {
                double want = scale * ((p == q) - n[p] * n[q]);
                ck_assert_double_eq_tol(H[3 * p + q], want, 1e-12 * scale);
                ck_assert_double_eq_tol(P[3 * p + q], want, 1e-12 * scale);
            }
    }
}
END_TEST

/* No normal force, no friction: lambda = 0 gives D = 0 and zero derivatives. */
START_TEST(no_normal_force_no_friction)
{
    const double n[3] = {0, 0, 1}, xn[3] = {0.1, 0.2, 0.3}, x[3] = {0.4, -0.2, 0.3};
    cloth__friction_stencil st = cloth__friction_obstacle(n, 0);
    double g[3], H[9];
    ck_assert_double_eq(cloth__friction_energy(&st, MU, EPS, x, xn, NULL, g, H,
                                               CLOTH__FRICTION_PSD),
                        0);
    for (int k = 0; k < 3; k++)
        ck_assert_double_eq(g[k], 0);
    for (int k = 0; k < 9; k++)
        ck_assert_double_eq(H[k], 0);
}
END_TEST

Suite *suite_friction(void)
{
    Suite *s = suite_create("friction");
    TCase *tc = tcase_create("smoothing");
    tcase_add_test(tc, smoothing_values_by_hand);
    tcase_add_test(tc, smoothing_is_smooth_at_eps);
    tcase_add_test(tc, f0_derivative_is_f1);
    suite_add_tcase(s, tc);
    tc = tcase_create("stencils");
    tcase_add_test(tc, point_triangle_stencils_by_hand);
    tcase_add_test(tc, edge_edge_stencils_by_hand);
    tcase_add_test(tc, parallel_edges_fall_back);
    tcase_add_loop_test(tc, random_stencils_are_closest_points, 0, N_KINDS);
    tcase_add_test(tc, obstacle_stencil);
    suite_add_tcase(s, tc);
    tc = tcase_create("potential");
    tcase_add_loop_test(tc, derivatives_match_finite_differences, 0, N_KINDS);
    tcase_add_test(tc, derivatives_near_degenerate);
    tcase_add_loop_test(tc, zero_slip_by_hand, 0, N_KINDS - 1);
    tcase_add_loop_test(tc, hessian_spectra, 0, N_KINDS);
    tcase_add_loop_test(tc, coulomb_limit, 0, N_KINDS);
    tcase_add_loop_test(tc, rigid_translation_does_not_slip, 0, N_KINDS - 2);
    tcase_add_test(tc, touching_contacts_are_finite);
    tcase_add_test(tc, tiny_slips_are_finite);
    tcase_add_test(tc, no_normal_force_no_friction);
    suite_add_tcase(s, tc);
    return s;
}
