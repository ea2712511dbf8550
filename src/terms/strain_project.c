/* Isotropic strain limiting of triangles by projection; the maths and the sources are in
 * strain_project.h. */
#include "terms/strain_project.h"

#include "terms/strain_limit.h"
#include "core/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const cloth__limit_measure_names[] = {"edge", "triangle", NULL};

/* ------------------------------------------------------------ Provot, springs */

static double spring_length(const double *x, const cloth_spring *sp)
{
    const double *a = x + 3 * sp->a, *b = x + 3 * sp->b;
    double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

int cloth__provot_sweep(const cloth_mesh *m, const int *ids, int n, double *x, double factor,
                        double tol)
{
    int shortened = 0;
    for (int q = 0; q < n; q++) {
        const cloth_spring *sp = &m->springs[ids[q]];
        double limit = factor * sp->rest;
        if (!(spring_length(x, sp) > limit * (1 + tol)))
            continue;
        if (cloth__provot_shorten(x + 3 * sp->a, x + 3 * sp->b, m->pinned[sp->a],
                                  m->pinned[sp->b], limit) != CLOTH_OK)
            return -1;
        shortened++;
    }
    return shortened;
}

int cloth__provot_violated(const cloth_mesh *m, const int *ids, int n, const double *x,
                           double factor, double tol)
{
    for (int q = 0; q < n; q++) {
        const cloth_spring *sp = &m->springs[ids[q]];
        if (spring_length(x, sp) > factor * sp->rest * (1 + tol))
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------------ isotropic, triangles */

cloth_status cloth__tri_limits_init(const cloth_mesh *m, cloth__tri_limits *t,
                                    cloth_error *err)
{
    memset(t, 0, sizeof *t);
    t->v = malloc(sizeof(int) * 3 * (size_t)(m->n_tris + 1));
    t->Dm_inv = malloc(sizeof(double) * 4 * (size_t)(m->n_tris + 1));
    if (!t->v || !t->Dm_inv)
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory for %d triangles", m->n_tris);
    for (int k = 0; k < m->n_tris; k++) {
        const int *id = m->tris + 3 * k;
        if (m->pinned[id[0]] && m->pinned[id[1]] && m->pinned[id[2]])
            continue;
        double X[9];
        for (int c = 0; c < 3; c++)
            memcpy(X + 3 * c, m->rest + 3 * id[c], 3 * sizeof(double));
        if (cloth__strain_rest(X, t->Dm_inv + 4 * t->n) == 0)
            continue;
        memcpy(t->v + 3 * t->n, id, 3 * sizeof(int));
        t->n++;
    }
    return CLOTH_OK;
}

void cloth__tri_limits_free(cloth__tri_limits *t)
{
    free(t->v);
    free(t->Dm_inv);
    memset(t, 0, sizeof *t);
}

/* F of the triangle (x0, x1, x2), and its singular values s[0] >= s[1] as in
 * strain_limit.h: s1^2 = m + r, m = (a + d)/2, r = hypot(p, b) with p = (a - d)/2 formed
 * as (f1 - f2).(f1 + f2)/2, and s2 = |f1 x f2| / s1; p and b are returned for v1. */
static void deformation_sigma(const double *x0, const double *x1, const double *x2,
                              const double Dm_inv[4], double F[6], double s[2], double *p,
                              double *b)
{
    for (int k = 0; k < 3; k++) {
        double e1 = x1[k] - x0[k], e2 = x2[k] - x0[k];
        F[2 * k] = e1 * Dm_inv[0] + e2 * Dm_inv[2];
        F[2 * k + 1] = e1 * Dm_inv[1] + e2 * Dm_inv[3];
    }
    double m = 0;
    *p = *b = 0;
    for (int k = 0; k < 3; k++) {
        double f1 = F[2 * k], f2 = F[2 * k + 1];
        m += 0.5 * (f1 * f1 + f2 * f2);
        *b += f1 * f2;
        *p += 0.5 * (f1 - f2) * (f1 + f2);
    }
    double cx = F[2] * F[5] - F[4] * F[3], cy = F[4] * F[1] - F[0] * F[5],
           cz = F[0] * F[3] - F[2] * F[1];
    s[0] = sqrt(m + hypot(*p, *b));
    s[1] = s[0] > 0 ? sqrt(cx * cx + cy * cy + cz * cz) / s[0] : 0;
}

/* v1 (unit) of F^T F = [[a, b], [b, d]] for its larger eigenvalue m + r, m = (a + d)/2,
 * p = (a - d)/2, r = hypot(p, b): (p + r, b) or (b, r - p), whichever has no
 * cancellation. */
static void major_axis(double p, double b, double v1[2])
{
    double r = hypot(p, b);
    if (r == 0) { /* s1 = s2: every direction is an eigenvector */
        v1[0] = 1;
        v1[1] = 0;
        return;
    }
    double x = p >= 0 ? p + r : b, y = p >= 0 ? b : r - p, l = hypot(x, y);
    v1[0] = x / l;
    v1[1] = y / l;
}

int cloth__strain_clamp_tri(double *x0, double *x1, double *x2, const double w[3],
                            const double Dm_inv[4], double limit, double tol)
{
    double *x[3] = {x0, x1, x2}, F[6], s[2], p, b;
    deformation_sigma(x0, x1, x2, Dm_inv, F, s, &p, &b);
    if (!(s[0] > limit * (1 + tol)))
        return 0;
    int pinned = (w[0] == 0) + (w[1] == 0) + (w[2] == 0);
    if (pinned == 3)
        return 0;
    double v[2][2];
    major_axis(p, b, v[0]);
    v[1][0] = -v[0][1];
    v[1][1] = v[0][0];
    /* G = sum_i (t_i/s_i - 1) v_i v_i^T, t_i = min(s_i, limit) */
    double G[4] = {0, 0, 0, 0};
    for (int i = 0; i < 2; i++) {
        if (!(s[i] > limit))
            continue;
        double g = limit / s[i] - 1;
        G[0] += g * v[i][0] * v[i][0];
        G[1] += g * v[i][0] * v[i][1];
        G[2] += g * v[i][1] * v[i][0];
        G[3] += g * v[i][1] * v[i][1];
    }
    /* Dm = (Dm^-1)^-1, then dE = F G Dm: row k of F times G times Dm */
    double det = Dm_inv[0] * Dm_inv[3] - Dm_inv[1] * Dm_inv[2];
    double Dm[4] = {Dm_inv[3] / det, -Dm_inv[1] / det, -Dm_inv[2] / det, Dm_inv[0] / det};
    double D[3][3] = {{0, 0, 0}};
    for (int k = 0; k < 3; k++) {
        double f0 = F[2 * k] * G[0] + F[2 * k + 1] * G[2];
        double f1 = F[2 * k] * G[1] + F[2 * k + 1] * G[3];
        D[1][k] = f0 * Dm[0] + f1 * Dm[2];
        D[2][k] = f0 * Dm[1] + f1 * Dm[3];
    }
    if (pinned == 2) {
        /* the free vertex j alone: dF c_j / |c_j|^2, with dF = F G and c_j its shape
         * weight (c_1, c_2 the rows of Dm^-1, c_0 = -(c_1 + c_2)) */
        int j = w[0] != 0 ? 0 : w[1] != 0 ? 1 : 2;
        double cj[2] = {j == 1 ? Dm_inv[0] : j == 2 ? Dm_inv[2] : -(Dm_inv[0] + Dm_inv[2]),
                        j == 1 ? Dm_inv[1] : j == 2 ? Dm_inv[3] : -(Dm_inv[1] + Dm_inv[3])};
        double c2 = cj[0] * cj[0] + cj[1] * cj[1];
        for (int k = 0; k < 3; k++) {
            double f0 = F[2 * k] * G[0] + F[2 * k + 1] * G[2];
            double f1 = F[2 * k] * G[1] + F[2 * k + 1] * G[3];
            x[j][k] += (f0 * cj[0] + f1 * cj[1]) / c2;
        }
        return 1;
    }
    /* the translation c: the centre of mass stays, or the one pinned vertex does */
    double c[3] = {0, 0, 0};
    if (pinned == 1) {
        int q = w[0] == 0 ? 0 : w[1] == 0 ? 1 : 2;
        for (int k = 0; k < 3; k++)
            c[k] = -D[q][k];
    } else {
        double msum = 1 / w[0] + 1 / w[1] + 1 / w[2];
        for (int k = 0; k < 3; k++)
            c[k] = -(D[1][k] / w[1] + D[2][k] / w[2]) / msum;
    }
    for (int i = 0; i < 3; i++)
        if (w[i] != 0)
            for (int k = 0; k < 3; k++)
                x[i][k] += D[i][k] + c[k];
    return 1;
}

int cloth__tri_limits_range(const cloth__tri_limits *t, const int *order, int lo, int hi,
                            double *pos, int stride, const double *inv_mass, double limit,
                            double tol)
{
    int moved = 0;
    for (int j = lo; j < hi; j++) {
        int q = order ? order[j] : j;
        const int *id = t->v + 3 * q;
        double w[3] = {inv_mass[id[0]], inv_mass[id[1]], inv_mass[id[2]]};
        moved += cloth__strain_clamp_tri(pos + stride * id[0], pos + stride * id[1],
                                         pos + stride * id[2], w, t->Dm_inv + 4 * q, limit, tol);
    }
    return moved;
}

int cloth__tri_limits_sweep(const cloth__tri_limits *t, double *pos, const double *inv_mass,
                            double limit, double tol)
{
    return cloth__tri_limits_range(t, NULL, 0, t->n, pos, 3, inv_mass, limit, tol);
}

double cloth__tri_limits_sigma_max(const cloth__tri_limits *t, const double *pos)
{
    double max = 0;
    for (int q = 0; q < t->n; q++) {
        const int *id = t->v + 3 * q;
        double F[6], s[2], p, b;
        deformation_sigma(pos + 3 * id[0], pos + 3 * id[1], pos + 3 * id[2], t->Dm_inv + 4 * q,
                          F, s, &p, &b);
        max = fmax(max, s[0]);
    }
    return max;
}

double cloth__strain_sigma_max(const cloth_mesh *m, const double *x)
{
    double max = -HUGE_VAL;
    for (int k = 0; k < m->n_tris; k++) {
        const int *id = m->tris + 3 * k;
        double R[9], X[9], Dm_inv[4], s[2];
        for (int c = 0; c < 3; c++) {
            memcpy(R + 3 * c, m->rest + 3 * id[c], 3 * sizeof(double));
            memcpy(X + 3 * c, x + 3 * id[c], 3 * sizeof(double));
        }
        if (cloth__strain_rest(R, Dm_inv) == 0)
            continue;
        cloth__strain_sigma(X, Dm_inv, s, NULL, NULL, 0);
        max = fmax(max, s[0] - 1);
    }
    return max == -HUGE_VAL ? 0 : max;
}
