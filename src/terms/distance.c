/* Point-triangle and edge-edge distances, their types and derivatives, and the edge-edge
 * mollifier; the maths is in distance.h. */
#include "terms/distance.h"
#include "terms/vec3.h"

#include <math.h>
#include <string.h>

/* 1 when u and v are parallel in the sense of CLOTH__PARALLEL_SIN2 (or one is zero) */
static int parallel(const double u[3], const double v[3])
{
    double n[3];
    cloth__cross(u, v, n);
    double nn = cloth__dot(n, n);
    return nn < CLOTH__PARALLEL_SIN2 * cloth__dot(u, u) * cloth__dot(v, v) || nn == 0;
}

/* ------------------------------------------------------------- the types */

/* A type as a minimisation over k parameters (distance.h, "Derivatives"): the
 * coefficients of r are c_i = c0_i + sum_a lam_a g_ai, i over vertices 0..3. */
typedef struct {
    int k;            /* parameters: 0 (PP), 1 (PE), 2 (PT, EE)                    */
    double c0[4];     /* coefficients at lam = 0                                    */
    double g[2][4];   /* d c_i / d lam_a                                            */
} affine_form;

/* r = p - q for PP; p - e0 - lam (e1 - e0) for PE; p - t0 - beta (t1 - t0) -
 * gamma (t2 - t0) for PT; the point of ea minus the point of eb for the edge types. */
static const affine_form pt_forms[CLOTH__PT_TYPES] = {
    [CLOTH__P_T0] = {0, {1, -1, 0, 0}, {{0}}},
    [CLOTH__P_T1] = {0, {1, 0, -1, 0}, {{0}}},
    [CLOTH__P_T2] = {0, {1, 0, 0, -1}, {{0}}},
    [CLOTH__P_E0] = {1, {1, -1, 0, 0}, {{0, 1, -1, 0}}},
    [CLOTH__P_E1] = {1, {1, 0, -1, 0}, {{0, 0, 1, -1}}},
    [CLOTH__P_E2] = {1, {1, 0, 0, -1}, {{0, -1, 0, 1}}},
    [CLOTH__P_T] = {2, {1, -1, 0, 0}, {{0, 1, -1, 0}, {0, 1, 0, -1}}},
};

static const affine_form ee_forms[CLOTH__EE_TYPES] = {
    [CLOTH__EA0_EB0] = {0, {1, 0, -1, 0}, {{0}}},
    [CLOTH__EA0_EB1] = {0, {1, 0, 0, -1}, {{0}}},
    [CLOTH__EA1_EB0] = {0, {0, 1, -1, 0}, {{0}}},
    [CLOTH__EA1_EB1] = {0, {0, 1, 0, -1}, {{0}}},
    [CLOTH__EA_EB0] = {1, {1, 0, -1, 0}, {{-1, 1, 0, 0}}},
    [CLOTH__EA_EB1] = {1, {1, 0, 0, -1}, {{-1, 1, 0, 0}}},
    [CLOTH__EA0_EB] = {1, {1, 0, -1, 0}, {{0, 0, 1, -1}}},
    [CLOTH__EA1_EB] = {1, {0, 1, -1, 0}, {{0, 0, 1, -1}}},
    [CLOTH__EA_EB] = {2, {1, 0, -1, 0}, {{-1, 1, 0, 0}, {0, 0, 1, -1}}},
};

static void fill_nan(double *v, int n)
{
    for (int i = 0; i < n; i++)
        v[i] = NAN;
}

/* |r|^2 at the minimising lam, with its gradient and Hessian (distance.h). */
static double form_distance2(const affine_form *f, const double *const x[4],
                             double grad[12], double hess[144])
{
    int k = f->k;
    double r[3] = {0, 0, 0}, s[2][3] = {{0, 0, 0}, {0, 0, 0}};
    for (int i = 0; i < 4; i++)
        for (int c = 0; c < 3; c++) {
            r[c] += f->c0[i] * x[i][c];
            for (int a = 0; a < k; a++)
                s[a][c] += f->g[a][i] * x[i][c];
        }
    /* A lam = -b with A_ab = s_a . s_b, b_a = r0 . s_a; inv = A^-1 */
    double lam[2] = {0, 0}, inv[2][2] = {{0, 0}, {0, 0}};
    if (k == 1) {
        double a = cloth__dot(s[0], s[0]);
        if (a == 0)
            goto degenerate;
        inv[0][0] = 1 / a;
        lam[0] = -cloth__dot(r, s[0]) / a;
    } else if (k == 2) {
        double n[3];
        cloth__cross(s[0], s[1], n);
        double det = cloth__dot(n, n); /* = a00 a11 - a01^2, without the cancellation */
        if (det == 0)
            goto degenerate;
        double a00 = cloth__dot(s[0], s[0]), a01 = cloth__dot(s[0], s[1]);
        double a11 = cloth__dot(s[1], s[1]);
        double b0 = cloth__dot(r, s[0]), b1 = cloth__dot(r, s[1]);
        inv[0][0] = a11 / det;
        inv[1][1] = a00 / det;
        inv[0][1] = inv[1][0] = -a01 / det;
        lam[0] = (a01 * b1 - a11 * b0) / det;
        /* lam[1] the best for this lam[0] (distance.h, "Rounding") */
        lam[1] = -(b1 + lam[0] * a01) / a11;
    }
    for (int a = 0; a < k; a++)
        for (int c = 0; c < 3; c++)
            r[c] += lam[a] * s[a][c];
    /* once more onto the complement of the s_a: what the solve's rounding left */
    if (k == 1) {
        double t = cloth__dot(r, s[0]) / cloth__dot(s[0], s[0]);
        for (int c = 0; c < 3; c++)
            r[c] -= t * s[0][c];
    } else if (k == 2) {
        double n[3];
        cloth__cross(s[0], s[1], n);
        double t = cloth__dot(r, n) / cloth__dot(n, n);
        for (int c = 0; c < 3; c++)
            r[c] = t * n[c];
    }
    double coef[4];
    for (int i = 0; i < 4; i++) {
        coef[i] = f->c0[i];
        for (int a = 0; a < k; a++)
            coef[i] += lam[a] * f->g[a][i];
    }
    if (grad)
        for (int i = 0; i < 4; i++)
            for (int c = 0; c < 3; c++)
                grad[3 * i + c] = 2 * coef[i] * r[c];
    if (hess) {
        /* B[i][a] = c_i s_a + g_ai r, the mixed second derivative over 2 */
        double B[4][2][3];
        for (int i = 0; i < 4; i++)
            for (int a = 0; a < k; a++)
                for (int c = 0; c < 3; c++)
                    B[i][a][c] = coef[i] * s[a][c] + f->g[a][i] * r[c];
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                for (int p = 0; p < 3; p++)
                    for (int q = 0; q < 3; q++) {
                        double h = p == q ? coef[i] * coef[j] : 0.0;
                        for (int a = 0; a < k; a++)
                            for (int b = 0; b < k; b++)
                                h -= B[i][a][p] * inv[a][b] * B[j][b][q];
                        hess[12 * (3 * i + p) + 3 * j + q] = 2 * h;
                    }
    }
    return cloth__dot(r, r);

degenerate:
    if (grad)
        fill_nan(grad, 12);
    if (hess)
        fill_nan(hess, 144);
    return NAN;
}

double cloth__point_triangle_distance2(const double p[3], const double t0[3],
                                       const double t1[3], const double t2[3],
                                       cloth__pt_type type, double grad[12],
                                       double hess[144])
{
    const double *const x[4] = {p, t0, t1, t2};
    return form_distance2(&pt_forms[type], x, grad, hess);
}

double cloth__edge_edge_distance2(const double ea0[3], const double ea1[3],
                                  const double eb0[3], const double eb1[3],
                                  cloth__ee_type type, double grad[12], double hess[144])
{
    const double *const x[4] = {ea0, ea1, eb0, eb1};
    return form_distance2(&ee_forms[type], x, grad, hess);
}

/* ------------------------------------------------------------ classifiers */

/* The squared distance from p to the closed segment (e0, e1), and where the closest point
 * is: 0 at e0 (also for a zero-length segment), 1 at e1, 2 inside. */
static double point_segment(const double p[3], const double e0[3], const double e1[3],
                            int *where)
{
    double e[3], w[3], n[3];
    cloth__sub(e1, e0, e);
    cloth__sub(p, e0, w);
    double ee = cloth__dot(e, e), t = cloth__dot(e, w);
    if (ee == 0 || t <= 0) {
        *where = 0;
        return cloth__dot(w, w);
    }
    if (t >= ee) {
        cloth__sub(p, e1, w);
        *where = 1;
        return cloth__dot(w, w);
    }
    cloth__cross(e, w, n);
    *where = 2;
    return cloth__dot(n, n) / ee;
}

cloth__pt_type cloth__point_triangle_type(const double p[3], const double t0[3],
                                          const double t1[3], const double t2[3])
{
    double ab[3], ac[3], ap[3], bp[3], cp[3];
    cloth__sub(t1, t0, ab);
    cloth__sub(t2, t0, ac);
    if (parallel(ab, ac)) {
        /* no face: the nearest of the three edges, each a PE or its nearer vertex */
        static const cloth__pt_type at[3][3] = {{CLOTH__P_T0, CLOTH__P_T1, CLOTH__P_E0},
                                                {CLOTH__P_T1, CLOTH__P_T2, CLOTH__P_E1},
                                                {CLOTH__P_T2, CLOTH__P_T0, CLOTH__P_E2}};
        const double *v[4] = {t0, t1, t2, t0};
        cloth__pt_type best = CLOTH__P_T0;
        double dbest = INFINITY;
        for (int e = 0; e < 3; e++) {
            int where;
            double d = point_segment(p, v[e], v[e + 1], &where);
            if (d < dbest) {
                dbest = d;
                best = at[e][where];
            }
        }
        return best;
    }
    /* Ericson 5.1.5: the signs of dot products and of the barycentric numerators va, vb,
     * vc (each |n|^2 times a barycentric coordinate of p's projection) */
    cloth__sub(p, t0, ap);
    double d1 = cloth__dot(ab, ap), d2 = cloth__dot(ac, ap);
    if (d1 <= 0 && d2 <= 0)
        return CLOTH__P_T0;
    cloth__sub(p, t1, bp);
    double d3 = cloth__dot(ab, bp), d4 = cloth__dot(ac, bp);
    if (d3 >= 0 && d4 <= d3)
        return CLOTH__P_T1;
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0)
        return CLOTH__P_E0;
    cloth__sub(p, t2, cp);
    double d5 = cloth__dot(ab, cp), d6 = cloth__dot(ac, cp);
    if (d6 >= 0 && d5 <= d6)
        return CLOTH__P_T2;
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0)
        return CLOTH__P_E2;
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0)
        return CLOTH__P_E1;
    return CLOTH__P_T;
}

cloth__ee_type cloth__edge_edge_type(const double ea0[3], const double ea1[3],
                                     const double eb0[3], const double eb1[3])
{
    /* the boundary of the square [0, 1]^2: the nearest of the four endpoint-segment
     * pairs, each a PE or, where the endpoint projects outside, a PP */
    static const cloth__ee_type at[4][3] = {
        {CLOTH__EA0_EB0, CLOTH__EA0_EB1, CLOTH__EA0_EB},
        {CLOTH__EA1_EB0, CLOTH__EA1_EB1, CLOTH__EA1_EB},
        {CLOTH__EA0_EB0, CLOTH__EA1_EB0, CLOTH__EA_EB0},
        {CLOTH__EA0_EB1, CLOTH__EA1_EB1, CLOTH__EA_EB1},
    };
    const double *pt[4] = {ea0, ea1, eb0, eb1};
    const double *seg[4][2] = {{eb0, eb1}, {eb0, eb1}, {ea0, ea1}, {ea0, ea1}};
    cloth__ee_type best = CLOTH__EA0_EB0;
    double dbest = INFINITY;
    for (int k = 0; k < 4; k++) {
        int where;
        double dist = point_segment(pt[k], seg[k][0], seg[k][1], &where);
        if (dist < dbest) {
            dbest = dist;
            best = at[k][where];
        }
    }
    double u[3], v[3], w[3], n[3];
    cloth__sub(ea1, ea0, u);
    cloth__sub(eb1, eb0, v);
    cloth__sub(ea0, eb0, w);
    if (parallel(u, v))
        return best;
    /* the lines' closest points ea0 + s u, eb0 + t v: the normal equations
     * a s - b t = -d, b s - c t = -e, with a c - b^2 = |u x v|^2 */
    cloth__cross(u, v, n);
    double a = cloth__dot(u, u), b = cloth__dot(u, v), c = cloth__dot(v, v);
    double d = cloth__dot(u, w), e = cloth__dot(v, w), D = cloth__dot(n, n);
    double s = (b * e - c * d) / D, t = (a * e - b * d) / D;
    if (!(s > 0 && s < 1 && t > 0 && t < 1))
        return best;
    /* s and t carry errors of about DBL_EPSILON |w| / (|u| sin^2) of the angle, so for
     * nearly parallel edges they may land inside the square when the true ones do not
     * (two collinear segments one edge apart: sin^2 = 4.5e-16, s = t = 0.77 where the
     * true s = 1.45, t = -0.55), and the lines' distance, about 0, is not the
     * segments'.  So the type is EE only with a witness: t again as the best one for the
     * computed s (the error of s then moves the points along the lines' common valley
     * only, where the distance changes as |u| sin), both inside (0, 1), and the two
     * points, on the segments, no further apart than the boundary's nearest pair.  Then
     * the minimum over the square is attained inside (a convex quadratic that takes its
     * least value on the square at an interior point has it on the plane too) and the
     * lines' distance is the segments'.  Without a witness the minimum is on the
     * boundary, or the edges are so nearly parallel that the boundary's distance is the
     * segments' to rounding and |u| sin. */
    t = (e + s * b) / c;
    if (!(t > 0 && t < 1))
        return best;
    double r[3];
    for (int q = 0; q < 3; q++)
        r[q] = w[q] + s * u[q] - t * v[q];
    return cloth__dot(r, r) <= dbest ? CLOTH__EA_EB : best;
}

/* ------------------------------------------------------------- mollifier */

double cloth__edge_edge_mollifier_eps(const double ea0[3], const double ea1[3],
                                      const double eb0[3], const double eb1[3])
{
    double u[3], v[3];
    cloth__sub(ea1, ea0, u);
    cloth__sub(eb1, eb0, v);
    return 1e-3 * cloth__dot(u, u) * cloth__dot(v, v);
}

double cloth__edge_edge_mollifier(const double ea0[3], const double ea1[3],
                                  const double eb0[3], const double eb1[3], double eps_x,
                                  double grad[12], double hess[144])
{
    double u[3], v[3], n[3];
    cloth__sub(ea1, ea0, u);
    cloth__sub(eb1, eb0, v);
    cloth__cross(u, v, n);
    double c = cloth__dot(n, n);
    if (grad)
        memset(grad, 0, 12 * sizeof *grad);
    if (hess)
        memset(hess, 0, 144 * sizeof *hess);
    if (c >= eps_x)
        return 1.0;
    double m = (2 - c / eps_x) * c / eps_x;
    double m1 = 2 * (eps_x - c) / (eps_x * eps_x), m2 = -2 / (eps_x * eps_x);
    double uu = cloth__dot(u, u), uv = cloth__dot(u, v), vv = cloth__dot(v, v);
    /* grad c on u and v; vertex i is sign_u[i] u + sign_v[i] v */
    double gu[3], gv[3];
    for (int k = 0; k < 3; k++) {
        gu[k] = 2 * (vv * u[k] - uv * v[k]);
        gv[k] = 2 * (uu * v[k] - uv * u[k]);
    }
    static const double sign_u[4] = {-1, 1, 0, 0}, sign_v[4] = {0, 0, -1, 1};
    double gc[12];
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 3; k++)
            gc[3 * i + k] = sign_u[i] * gu[k] + sign_v[i] * gv[k];
    if (grad)
        for (int k = 0; k < 12; k++)
            grad[k] = m1 * gc[k];
    if (hess)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                for (int p = 0; p < 3; p++)
                    for (int q = 0; q < 3; q++) {
                        double id = p == q ? 1.0 : 0.0;
                        double huu = 2 * (vv * id - v[p] * v[q]);
                        double hvv = 2 * (uu * id - u[p] * u[q]);
                        double huv = 2 * (2 * u[p] * v[q] - v[p] * u[q] - uv * id);
                        double hvu = 2 * (2 * v[p] * u[q] - u[p] * v[q] - uv * id);
                        double hc = sign_u[i] * sign_u[j] * huu + sign_v[i] * sign_v[j] * hvv +
                                    sign_u[i] * sign_v[j] * huv + sign_v[i] * sign_u[j] * hvu;
                        int row = 3 * i + p, col = 3 * j + q;
                        hess[12 * row + col] = m2 * gc[row] * gc[col] + m1 * hc;
                    }
    return m;
}
