/* One rigid impact zone (Provot 1997; Bridson, Fedkiw and Anderson 2002, (c) of
 * collide.h): the zone's vertices move rigidly with the zone's linear and angular
 * momentum.  Contract in rigid_zone.h. */
#include "terms/rigid_zone.h"
#include "terms/vec3.h"

#include <math.h>
#include <string.h>

/* x = A^-1 b for the symmetric 3 x 3 A (rows a), by Cramer's rule; directions A does
 * not see (a zone on a line, whose I is singular along it) get a tiny Tikhonov shift,
 * along which L has no part anyway. */
static void solve_sym3(double a[3][3], const double b[3], double x[3])
{
    double tr = a[0][0] + a[1][1] + a[2][2], m[3][3];
    memcpy(m, a, sizeof m);
    for (int shift = 0; shift < 2; shift++) {
        double c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
        double c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
        double c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
        double det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
        if (fabs(det) > 1e-10 * tr * tr * tr || shift == 1) {
            if (!(fabs(det) > 0)) {
                x[0] = x[1] = x[2] = 0;
                return;
            }
            double inv[3][3] = {
                {c00, m[0][2] * m[2][1] - m[0][1] * m[2][2], m[0][1] * m[1][2] - m[0][2] * m[1][1]},
                {c01, m[0][0] * m[2][2] - m[0][2] * m[2][0], m[0][2] * m[1][0] - m[0][0] * m[1][2]},
                {c02, m[0][1] * m[2][0] - m[0][0] * m[2][1], m[0][0] * m[1][1] - m[0][1] * m[1][0]},
            };
            for (int i = 0; i < 3; i++)
                x[i] = (inv[i][0] * b[0] + inv[i][1] * b[1] + inv[i][2] * b[2]) / det;
            return;
        }
        for (int i = 0; i < 3; i++)
            m[i][i] += 1e-9 * tr;
    }
}

void cloth__collide_rigid_zone(const int *verts, int count, double h, const double *x0,
                               double *x1, double *v, const double *inv_mass)
{
    double M = 0, c0[3] = {0, 0, 0}, P[3] = {0, 0, 0}, pin_v[3] = {0, 0, 0};
    int pinned = 0;
    for (int k = 0; k < count; k++) {
        int i = verts[k];
        const double *p = x0 + 3 * i;
        if (!(inv_mass[i] > 0)) {
            pinned++;
            for (int a = 0; a < 3; a++)
                pin_v[a] += (x1[3 * i + a] - p[a]) / h;
            continue;
        }
        double m = 1 / inv_mass[i];
        M += m;
        for (int a = 0; a < 3; a++) {
            c0[a] += m * p[a];
            P[a] += m * (x1[3 * i + a] - p[a]) / h;
        }
    }
    if (pinned) {
        /* held by its pins: the free vertices translate with the pins' mean motion */
        for (int k = 0; k < count; k++) {
            int i = verts[k];
            if (!(inv_mass[i] > 0))
                continue;
            for (int a = 0; a < 3; a++) {
                double u = pin_v[a] / pinned, vbar = (x1[3 * i + a] - x0[3 * i + a]) / h;
                v[3 * i + a] += u - vbar;
                x1[3 * i + a] = x0[3 * i + a] + h * u;
            }
        }
        return;
    }
    double V[3], L[3] = {0, 0, 0}, I[3][3] = {{0}};
    for (int a = 0; a < 3; a++) {
        c0[a] /= M;
        V[a] = P[a] / M;
    }
    for (int k = 0; k < count; k++) {
        int i = verts[k];
        double m = 1 / inv_mass[i], r[3], vb[3], rv[3];
        for (int a = 0; a < 3; a++) {
            r[a] = x0[3 * i + a] - c0[a];
            vb[a] = (x1[3 * i + a] - x0[3 * i + a]) / h;
        }
        cloth__cross(r, vb, rv);
        double r2 = cloth__dot(r, r);
        for (int a = 0; a < 3; a++) {
            L[a] += m * rv[a];
            for (int b = 0; b < 3; b++)
                I[a][b] += m * ((a == b) * r2 - r[a] * r[b]);
        }
    }
    double w[3];
    solve_sym3(I, L, w);
    /* R(h omega) r = r cos + (u x r) sin + u (u . r)(1 - cos), u = omega / |omega| */
    double speed = cloth__norm(w), angle = h * speed, u[3] = {0, 0, 0};
    if (speed > 0)
        for (int a = 0; a < 3; a++)
            u[a] = w[a] / speed;
    double co = cos(angle), si = sin(angle);
    for (int k = 0; k < count; k++) {
        int i = verts[k];
        double r[3], ur[3], wr[3];
        for (int a = 0; a < 3; a++)
            r[a] = x0[3 * i + a] - c0[a];
        cloth__cross(u, r, ur);
        cloth__cross(w, r, wr);
        double ud = cloth__dot(u, r);
        for (int a = 0; a < 3; a++) {
            double vbar = (x1[3 * i + a] - x0[3 * i + a]) / h;
            v[3 * i + a] += V[a] + wr[a] - vbar;
            x1[3 * i + a] = c0[a] + h * V[a] + r[a] * co + ur[a] * si + u[a] * ud * (1 - co);
        }
    }
}
