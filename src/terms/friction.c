/* IPC's lagged friction: a contact's stencil at x_n and its smoothed Coulomb potential;
 * the maths is in friction.h. */
#include "terms/friction.h"
#include "terms/distance.h"
#include "terms/vec3.h"

#include <math.h>

/* ------------------------------------------------------------- the smoothing */

double cloth__friction_f0(double y, double eps)
{
    if (y >= eps)
        return y;
    return -y * y * y / (3 * eps * eps) + y * y / eps + eps / 3;
}

double cloth__friction_f1(double y, double eps)
{
    if (y >= eps)
        return 1;
    double t = y / eps;
    return t * (2 - t);
}

/* f1(y)/y, written so that y = 0 gives its limit 2/eps */
static double f1_over_y(double y, double eps)
{
    return y >= eps ? 1 / y : (2 - y / eps) / eps;
}

static double f1_prime(double y, double eps)
{
    return y >= eps ? 0 : 2 * (1 - y / eps) / eps;
}

/* ------------------------------------------------------------- tangent bases */

/* out = v/|v|, v scaled by its largest component first so that tiny and huge vectors keep
 * their digits; returns 0 (out = 0) when v is zero or not finite. */
static int unit(const double v[3], double out[3])
{
    double m = fmax(fabs(v[0]), fmax(fabs(v[1]), fabs(v[2])));
    if (!(m > 0) || !isfinite(m)) {
        out[0] = out[1] = out[2] = 0;
        return 0;
    }
    double w[3] = {v[0] / m, v[1] / m, v[2] / m}, len = cloth__norm(w);
    for (int c = 0; c < 3; c++)
        out[c] = w[c] / len;
    return 1;
}

/* A unit vector perpendicular to the unit vector n: n x the axis least aligned with it */
static void perpendicular(const double n[3], double out[3])
{
    int axis = 0;
    for (int c = 1; c < 3; c++)
        if (fabs(n[c]) < fabs(n[axis]))
            axis = c;
    double e[3] = {0, 0, 0}, w[3];
    e[axis] = 1;
    cloth__cross(n, e, w);
    unit(w, out);
}

/* T = (t1, t2) perpendicular to the normal direction n: t1 along the part of a (may be
 * zero) perpendicular to n, t2 = n^ x t1.  A zero n becomes a direction perpendicular to
 * a (friction.h, "Normals and tangents"), or e_y when a is zero too. */
static void tangent_basis(const double n[3], const double a[3], double T[2][3])
{
    double nh[3], ah[3];
    if (!unit(n, nh)) {
        if (unit(a, ah))
            perpendicular(ah, nh);
        else
            nh[0] = 0, nh[1] = 1, nh[2] = 0;
    }
    double an = cloth__dot(a, nh), t[3];
    for (int c = 0; c < 3; c++)
        t[c] = a[c] - an * nh[c];
    if (!unit(t, T[0]))
        perpendicular(nh, T[0]);
    cloth__cross(nh, T[0], t);
    unit(t, T[1]);
}

/* ------------------------------------------------------------- stencils */

/* A distance type as its closest points: r = x_a - x_b + sum_j lam_j (x_to_j - x_from_j)
 * with the lam_j that minimise |r|, each direction an edge of one side walked from that
 * side's base vertex.  An edge of the second side enters r with a minus sign, which the
 * free sign of lam_j absorbs (lam_j = -t_j there).  k = 0 (PP), 1 (PE) or 2 (PT, EE). */
typedef struct {
    int a, b;     /* the base vertex of each side: r = x_a - x_b at lam = 0 */
    int k;        /* directions                                           */
    int to[2];    /* direction j is x_to - x_from                         */
    int from[2];
} closest_form;

/* p = 0, t0 = 1, t1 = 2, t2 = 3; E0 is (t0, t1), E1 (t1, t2), E2 (t2, t0). */
static const closest_form pt_forms[CLOTH__PT_TYPES] = {
    [CLOTH__P_T0] = {.a = 0, .b = 1, .k = 0},
    [CLOTH__P_T1] = {.a = 0, .b = 2, .k = 0},
    [CLOTH__P_T2] = {.a = 0, .b = 3, .k = 0},
    [CLOTH__P_E0] = {.a = 0, .b = 1, .k = 1, .to = {2}, .from = {1}},
    [CLOTH__P_E1] = {.a = 0, .b = 2, .k = 1, .to = {3}, .from = {2}},
    [CLOTH__P_E2] = {.a = 0, .b = 3, .k = 1, .to = {1}, .from = {3}},
    [CLOTH__P_T] = {.a = 0, .b = 1, .k = 2, .to = {2, 3}, .from = {1, 1}},
};

/* ea0 = 0, ea1 = 1, eb0 = 2, eb1 = 3 */
static const closest_form ee_forms[CLOTH__EE_TYPES] = {
    [CLOTH__EA0_EB0] = {.a = 0, .b = 2, .k = 0},
    [CLOTH__EA0_EB1] = {.a = 0, .b = 3, .k = 0},
    [CLOTH__EA1_EB0] = {.a = 1, .b = 2, .k = 0},
    [CLOTH__EA1_EB1] = {.a = 1, .b = 3, .k = 0},
    [CLOTH__EA_EB0] = {.a = 0, .b = 2, .k = 1, .to = {1}, .from = {0}},
    [CLOTH__EA_EB1] = {.a = 0, .b = 3, .k = 1, .to = {1}, .from = {0}},
    [CLOTH__EA0_EB] = {.a = 0, .b = 2, .k = 1, .to = {3}, .from = {2}},
    [CLOTH__EA1_EB] = {.a = 1, .b = 2, .k = 1, .to = {3}, .from = {2}},
    [CLOTH__EA_EB] = {.a = 0, .b = 2, .k = 2, .to = {1, 3}, .from = {0, 2}},
};

/* The coefficients of the form's closest points at x, its tangent basis, and lambda.
 * lam solves the normal equations sum_j (e_i . e_j) lam_j = -w . e_i, w = x_a - x_b,
 * whose determinant for k = 2 is |e_0 x e_1|^2; the classifiers never pick a form whose
 * directions are degenerate, and if given one lam stays 0 (a vertex pair). */
static cloth__friction_stencil from_form(cloth__friction_kind kind, int type,
                                         const closest_form *f, const double *const x[4],
                                         double lambda)
{
    cloth__friction_stencil st = {.kind = kind, .type = type, .n_verts = 4, .lambda = lambda};
    double w[3], e[2][3], lam[2] = {0, 0}, n[3] = {0, 0, 0};
    cloth__sub(x[f->a], x[f->b], w);
    for (int j = 0; j < f->k; j++)
        cloth__sub(x[f->to[j]], x[f->from[j]], e[j]);
    if (f->k == 1) {
        double ee = cloth__dot(e[0], e[0]);
        if (ee > 0)
            lam[0] = -cloth__dot(w, e[0]) / ee;
    } else if (f->k == 2) {
        cloth__cross(e[0], e[1], n);
        double det = cloth__dot(n, n);
        double a00 = cloth__dot(e[0], e[0]), a01 = cloth__dot(e[0], e[1]);
        double a11 = cloth__dot(e[1], e[1]);
        double b0 = -cloth__dot(w, e[0]), b1 = -cloth__dot(w, e[1]);
        if (det > 0) {
            lam[0] = (a11 * b0 - a01 * b1) / det;
            lam[1] = (a00 * b1 - a01 * b0) / det;
        }
    }
    st.coef[f->a] += 1;
    st.coef[f->b] -= 1;
    for (int j = 0; j < f->k; j++) {
        st.coef[f->to[j]] += lam[j];
        st.coef[f->from[j]] -= lam[j];
    }
    /* the normal: the directions' cross product (PT, EE), else r itself */
    if (f->k < 2)
        for (int c = 0; c < 3; c++) {
            n[c] = 0;
            for (int i = 0; i < 4; i++)
                n[c] += st.coef[i] * x[i][c];
        }
    const double zero[3] = {0, 0, 0};
    tangent_basis(n, f->k > 0 ? e[0] : zero, st.tangent);
    return st;
}

cloth__friction_stencil cloth__friction_point_triangle(const double p[3], const double t0[3],
                                                       const double t1[3],
                                                       const double t2[3], double lambda)
{
    const double *const x[4] = {p, t0, t1, t2};
    cloth__pt_type type = cloth__point_triangle_type(p, t0, t1, t2);
    return from_form(CLOTH__FRICTION_POINT_TRIANGLE, (int)type, &pt_forms[type], x, lambda);
}

cloth__friction_stencil cloth__friction_edge_edge(const double ea0[3], const double ea1[3],
                                                  const double eb0[3], const double eb1[3],
                                                  double lambda)
{
    const double *const x[4] = {ea0, ea1, eb0, eb1};
    cloth__ee_type type = cloth__edge_edge_type(ea0, ea1, eb0, eb1);
    return from_form(CLOTH__FRICTION_EDGE_EDGE, (int)type, &ee_forms[type], x, lambda);
}

cloth__friction_stencil cloth__friction_obstacle(const double normal[3], double lambda)
{
    cloth__friction_stencil st = {.kind = CLOTH__FRICTION_OBSTACLE, .n_verts = 1,
                                  .coef = {1}, .lambda = lambda};
    const double zero[3] = {0, 0, 0};
    tangent_basis(normal, zero, st.tangent);
    return st;
}

/* ------------------------------------------------------------- the potential */

void cloth__friction_slip(const cloth__friction_stencil *st, const double *x,
                          const double *xn, const double *surface, double u[2])
{
    double d[3] = {0, 0, 0};
    for (int i = 0; i < st->n_verts; i++)
        for (int c = 0; c < 3; c++)
            d[c] += st->coef[i] * (x[3 * i + c] - xn[3 * i + c]);
    if (surface)
        for (int c = 0; c < 3; c++)
            d[c] -= surface[c];
    u[0] = cloth__dot(st->tangent[0], d);
    u[1] = cloth__dot(st->tangent[1], d);
}

/* mu lambda M (friction.h) as a symmetric 2 x 2 in the tangent basis, exact or with its
 * eigenvalues clamped at 0; uh = u/|u|, or 0 at u = 0 where M is a multiple of I. */
static void slip_hessian(double scale, double y, const double uh[2], double eps,
                         cloth__friction_hessian form, double M[2][2])
{
    double across = scale * f1_over_y(y, eps), along = scale * f1_prime(y, eps);
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            double id = a == b ? 1.0 : 0.0, uu = uh[a] * uh[b];
            if (form == CLOTH__FRICTION_PSD)
                M[a][b] = fmax(along, 0) * uu + fmax(across, 0) * (id - uu);
            else
                M[a][b] = across * id + (along - across) * uu;
        }
}

double cloth__friction_energy(const cloth__friction_stencil *st, double mu, double eps,
                              const double *x, const double *xn, const double *surface,
                              double *grad, double *hess, cloth__friction_hessian form)
{
    int k = st->n_verts, n = 3 * k;
    const double (*T)[3] = st->tangent;
    double u[2], uh[2] = {0, 0}, y = 0;
    cloth__friction_slip(st, x, xn, surface, u);
    /* y = |u| and u^ scaled first, as in unit(): a tiny u keeps its direction */
    double m = fmax(fabs(u[0]), fabs(u[1]));
    if (m > 0) {
        double v0 = u[0] / m, v1 = u[1] / m, len = sqrt(v0 * v0 + v1 * v1);
        y = m * len;
        uh[0] = v0 / len;
        uh[1] = v1 / len;
    }
    double scale = mu * st->lambda;
    if (grad) {
        /* grad_i = c_i T (mu lambda f1(y)/y u) */
        double phi = scale * f1_over_y(y, eps), f[3];
        for (int c = 0; c < 3; c++)
            f[c] = phi * (T[0][c] * u[0] + T[1][c] * u[1]);
        for (int i = 0; i < k; i++)
            for (int c = 0; c < 3; c++)
                grad[3 * i + c] = st->coef[i] * f[c];
    }
    if (hess) {
        /* hess_ij = c_i c_j T M T^T, K = T M T^T filled on and above the diagonal and
         * mirrored, so that the Hessian is symmetric to the bit */
        double M[2][2], K[3][3];
        slip_hessian(scale, y, uh, eps, form, M);
        for (int p = 0; p < 3; p++)
            for (int q = p; q < 3; q++) {
                double s = 0;
                for (int a = 0; a < 2; a++)
                    for (int b = 0; b < 2; b++)
                        s += T[a][p] * M[a][b] * T[b][q];
                K[p][q] = K[q][p] = s;
            }
        for (int i = 0; i < k; i++)
            for (int j = 0; j < k; j++) {
                double cc = st->coef[i] * st->coef[j];
                for (int p = 0; p < 3; p++)
                    for (int q = 0; q < 3; q++)
                        hess[n * (3 * i + p) + 3 * j + q] = cc * K[p][q];
            }
    }
    return scale * cloth__friction_f0(y, eps);
}
