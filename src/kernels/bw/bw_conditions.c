/*
 * The cloth model of Baraff and Witkin 1998 ("Large Steps in Cloth Simulation", section
 * 4): energies E = k/2 C^T C of condition functions C(x), per triangle and per hinge.
 *
 * (u, v) rest coordinates.  Each triangle gets a 2D frame of its rest plane: u along the
 * projection of the world x axis onto the plane (the grid's first axis for both
 * mesh.plane = xy and xz, so u and v are the weave directions of a grid), or along its
 * first edge when x is nearly normal to it (an OBJ mesh); v = n x u.  With the rest
 * coordinates P_i = (u_i, v_i), Dm = [P1 - P0, P2 - P0] and, as in terms/strain_limit.h,
 *
 *   [w_u, w_v] = [x1 - x0, x2 - x0] Dm^-1 = sum_i x_i c_i^T   (c1, c2 the rows of
 *                                                               Dm^-1, c0 = -(c1 + c2))
 *
 * which is Baraff and Witkin's equation (9) with dw_u/dx_i = c_i[0] I, dw_v/dx_i = c_i[1] I.
 *
 * Stretch (section 4.2), b_u = b_v = 1 (no built-in stretch):
 *   C_u = a (|w_u| - 1),  dC_u/dx_i = a c_i[0] w_u/|w_u|    (the same for v)
 * and d2C_u/dx_i dx_j = a c_i[0] c_j[0] (I - w_u w_u^T/|w_u|^2)/|w_u|, positive
 * semi-definite (the bw.tension_hessian term); the same for v.
 * Shear (section 4.3):
 *   C_s = a w_u.w_v,      dC_s/dx_i = a (c_i[0] w_v + c_i[1] w_u)
 * Bend (section 4.4) on the dihedral angle of each hinge (terms/dihedral.h, whose signed
 * angle and gradient are the paper's sin/cos form), about its rest angle:
 *   C_b = theta - theta_0,  dC_b/dx = d theta/dx
 * a is the triangle's rest area.  Each condition's force is f = -k C dC/dx.
 *
 * Since C is proportional to a, k/2 C^2 scales as a^2: a fixed k is the paper's choice
 * and its meaning depends on the mesh size.  With bw.stiffness = springs each triangle's
 * k is instead the material's spring k over a, k/2 C^2 = k_s a (|w_u| - 1)^2 / 2, which on a
 * grid of spacing s is the energy of its structural (and shear) springs for the same
 * stretch (and shear): a u-spring s long is shared by two triangles' C_u, so
 * k_t a^2 = k_s s^2 / 2 with a = s^2 / 2; the shear springs, sqrt 2 s long and stretched
 * gamma/2 by a shear gamma, two a cell, give the same with material.k_shear.
 */
#include "kernels/bw/bw_conditions.h"
#include "terms/dihedral.h"
#include "terms/strain_limit.h"
#include "core/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Rest coordinates of triangle X (9) in the frame of the header; its Dm^-1 and area. */
static double rest_frame(const double X[9], double Dm_inv[4])
{
    double e1[3], e2[3], n[3], u[3], v[3];
    for (int k = 0; k < 3; k++) {
        e1[k] = X[3 + k] - X[k];
        e2[k] = X[6 + k] - X[k];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    double ln = sqrt(dot3(n, n));
    if (!(ln > 0)) {
        memset(Dm_inv, 0, 4 * sizeof *Dm_inv);
        return 0;
    }
    for (int k = 0; k < 3; k++)
        n[k] /= ln;
    /* u = x axis minus its normal part; the first edge when that is too short */
    double ax[3] = {1, 0, 0}, an = n[0];
    for (int k = 0; k < 3; k++)
        u[k] = ax[k] - an * n[k];
    if (dot3(u, u) < 0.01)
        memcpy(u, e1, sizeof u);
    double lu = sqrt(dot3(u, u));
    for (int k = 0; k < 3; k++)
        u[k] /= lu;
    v[0] = n[1] * u[2] - n[2] * u[1];
    v[1] = n[2] * u[0] - n[0] * u[2];
    v[2] = n[0] * u[1] - n[1] * u[0];
    double P[6] = {0, 0, dot3(e1, u), dot3(e1, v), dot3(e2, u), dot3(e2, v)};
    return cloth__strain_rest_2d(P, Dm_inv);
}

cloth_status cloth__bw_model_init(const cloth_mesh *m, cloth__bw_model *md, cloth_error *err)
{
    memset(md, 0, sizeof *md);
    md->n_tris = m->n_tris;
    md->tris = m->tris;
    md->n_hinges = m->n_hinges;
    md->hinges = m->hinges;
    md->Dm_inv = malloc(sizeof(double) * (4 * (size_t)m->n_tris + 1));
    md->area = malloc(sizeof(double) * ((size_t)m->n_tris + 1));
    md->theta0 = malloc(sizeof(double) * ((size_t)m->n_hinges + 1));
    if (!md->Dm_inv || !md->area || !md->theta0)
        return cloth__fail(err, CLOTH_ENOMEM, "bw: out of memory for %d triangles",
                           m->n_tris);
    for (int t = 0; t < m->n_tris; t++) {
        double X[9];
        for (int i = 0; i < 3; i++)
            memcpy(X + 3 * i, m->rest + 3 * m->tris[3 * t + i], 3 * sizeof(double));
        md->area[t] = rest_frame(X, md->Dm_inv + 4 * t);
    }
    for (int e = 0; e < m->n_hinges; e++) {
        const int *hv = m->hinges + 4 * e;
        md->theta0[e] = cloth__dihedral_angle(m->rest + 3 * hv[0], m->rest + 3 * hv[1],
                                              m->rest + 3 * hv[2], m->rest + 3 * hv[3]);
    }
    return CLOTH_OK;
}

void cloth__bw_model_free(cloth__bw_model *md)
{
    free(md->Dm_inv);
    free(md->area);
    free(md->theta0);
    memset(md, 0, sizeof *md);
}

/* w_u and w_v of the triangle x. */
static void stretch_vectors(const double x[9], double c[3][2], double wu[3],
                            double wv[3])
{
    for (int k = 0; k < 3; k++) {
        wu[k] = c[0][0] * x[k] + c[1][0] * x[3 + k] + c[2][0] * x[6 + k];
        wv[k] = c[0][1] * x[k] + c[1][1] * x[3 + k] + c[2][1] * x[6 + k];
    }
}

void cloth__bw_stretch(const double x[9], const double Dm_inv[4], double area, double C[2],
                       double dC[18])
{
    double c[3][2], w[2][3];
    cloth__strain_shape_weights(Dm_inv, c); /* w = sum_i x_i c_i^T */
    stretch_vectors(x, c, w[0], w[1]);
    for (int d = 0; d < 2; d++) {
        double l = sqrt(dot3(w[d], w[d]));
        C[d] = area * (l - 1);
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++)
                dC[9 * d + 3 * i + k] = l > 0 ? area * c[i][d] * w[d][k] / l : 0;
    }
}

void cloth__bw_stretch_hessian(const double x[9], const double Dm_inv[4], double area,
                               double H[162])
{
    double c[3][2], w[2][3];
    cloth__strain_shape_weights(Dm_inv, c); /* w = sum_i x_i c_i^T */
    stretch_vectors(x, c, w[0], w[1]);
    memset(H, 0, 162 * sizeof *H);
    for (int d = 0; d < 2; d++) {
        double l = sqrt(dot3(w[d], w[d]));
        if (!(l > 0))
            continue;
        /* d2|w|/dw2 = (I - w w^T / |w|^2) / |w|, and dw/dx_i = c_i[d] I */
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                for (int p = 0; p < 3; p++)
                    for (int q = 0; q < 3; q++)
                        H[81 * d + 9 * (3 * i + p) + 3 * j + q] =
                            area * c[i][d] * c[j][d] *
                            ((p == q) - w[d][p] * w[d][q] / (l * l)) / l;
    }
}

void cloth__bw_shear(const double x[9], const double Dm_inv[4], double area, double *C,
                     double dC[9])
{
    double c[3][2], wu[3], wv[3];
    cloth__strain_shape_weights(Dm_inv, c); /* w = sum_i x_i c_i^T */
    stretch_vectors(x, c, wu, wv);
    *C = area * dot3(wu, wv);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            dC[3 * i + k] = area * (c[i][0] * wv[k] + c[i][1] * wu[k]);
}

/* The positions of the nv vertices v[0..nv), packed. */
static void gather(const double *x, const int *v, int nv, double *out)
{
    for (int i = 0; i < nv; i++)
        memcpy(out + 3 * i, x + 3 * v[i], 3 * sizeof(double));
}

double cloth__bw_tri_k(const cloth__bw_model *md, const cloth__bw_k *k, int t, int which)
{
    double base = which == 0 ? k->stretch : k->shear;
    return k->per_area ? base / md->area[t] : base;
}

double cloth__bw_energy(const cloth__bw_model *md, const cloth__bw_k *k, const double *x)
{
    double E = 0;
    for (int t = 0; t < md->n_tris; t++) {
        if (!(md->area[t] > 0))
            continue;
        double xt[9], C[2], Cs, dC[18];
        gather(x, md->tris + 3 * t, 3, xt);
        cloth__bw_stretch(xt, md->Dm_inv + 4 * t, md->area[t], C, dC);
        cloth__bw_shear(xt, md->Dm_inv + 4 * t, md->area[t], &Cs, dC);
        E += 0.5 * cloth__bw_tri_k(md, k, t, 0) * (C[0] * C[0] + C[1] * C[1]) +
             0.5 * cloth__bw_tri_k(md, k, t, 1) * Cs * Cs;
    }
    for (int e = 0; e < md->n_hinges && k->bend > 0; e++) {
        const int *hv = md->hinges + 4 * e;
        double C = cloth__dihedral_angle(x + 3 * hv[0], x + 3 * hv[1], x + 3 * hv[2],
                                         x + 3 * hv[3]) - md->theta0[e];
        E += 0.5 * k->bend * C * C;
    }
    return E;
}

void cloth__bw_add_elastic_forces(const cloth__bw_model *md, const cloth__bw_k *k,
                                  const double *x, double *f)
{
    for (int t = 0; t < md->n_tris; t++) {
        if (!(md->area[t] > 0))
            continue;
        const int *tv = md->tris + 3 * t;
        double xt[9], C[2], Cs, dC[18], dS[9];
        gather(x, tv, 3, xt);
        cloth__bw_stretch(xt, md->Dm_inv + 4 * t, md->area[t], C, dC);
        cloth__bw_shear(xt, md->Dm_inv + 4 * t, md->area[t], &Cs, dS);
        double ks = cloth__bw_tri_k(md, k, t, 0), kh = cloth__bw_tri_k(md, k, t, 1);
        for (int i = 0; i < 3; i++)
            for (int d = 0; d < 3; d++)
                f[3 * tv[i] + d] -= ks * (C[0] * dC[3 * i + d] + C[1] * dC[9 + 3 * i + d]) +
                                    kh * Cs * dS[3 * i + d];
    }
    for (int e = 0; e < md->n_hinges && k->bend > 0; e++) {
        const int *hv = md->hinges + 4 * e;
        double theta, g[12];
        if (!cloth__dihedral_gradient(x + 3 * hv[0], x + 3 * hv[1], x + 3 * hv[2],
                                      x + 3 * hv[3], &theta, g))
            continue;
        for (int i = 0; i < 4; i++)
            for (int d = 0; d < 3; d++)
                f[3 * hv[i] + d] -= k->bend * (theta - md->theta0[e]) * g[3 * i + d];
    }
}
