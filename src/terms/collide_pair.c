/* A candidate pair of the collision stage (collide.h): its geometry, the impulse on it
 * and the CCD's start distance. */
#include "terms/collide_pair.h"
#include "terms/closest.h"
#include "terms/distance.h"
#include "terms/vec3.h"

#include <math.h>
#include <string.h>

cloth__collide_pair cloth__collide_pair_pt(const cloth__collide *c, const int *pt)
{
    const int *t = c->mesh->tris + 3 * pt[1];
    return (cloth__collide_pair){CLOTH__CCD_POINT_TRIANGLE, {pt[0], t[0], t[1], t[2]}};
}

cloth__collide_pair cloth__collide_pair_ee(const cloth__collide *c, const int *ee)
{
    const int *a = c->edges + 2 * ee[0], *b = c->edges + 2 * ee[1];
    return (cloth__collide_pair){CLOTH__CCD_EDGE_EDGE, {a[0], a[1], b[0], b[1]}};
}

/* The pair's weights c (collide.h) and unit normal n at positions x (the whole array),
 * and its distance.  A pair at distance 0 takes the normal of the triangle, or of the two
 * edges' cross product, turned to the side of ref (positions at which the pair is
 * apart), or as it comes when ref is NULL or no side can be told. */
double cloth__collide_pair_geometry(const cloth__collide_pair *pr, const double *x,
                                    const double *ref, double cw[4], double n[3])
{
    const double *p[4];
    for (int k = 0; k < 4; k++)
        p[k] = x + 3 * pr->v[k];
    if (pr->kind == CLOTH__CCD_POINT_TRIANGLE) {
        double b[3];
        cloth__closest_on_triangle(p[0], p[1], p[2], p[3], b);
        cw[0] = 1, cw[1] = -b[0], cw[2] = -b[1], cw[3] = -b[2];
    } else {
        double s, t;
        cloth__closest_on_segments(p[0], p[1], p[2], p[3], &s, &t);
        cw[0] = 1 - s, cw[1] = s, cw[2] = -(1 - t), cw[3] = -t;
    }
    double r[3] = {0, 0, 0};
    for (int k = 0; k < 4; k++)
        for (int a = 0; a < 3; a++)
            r[a] += cw[k] * p[k][a];
    double d = cloth__norm(r), scale = 0;
    for (int k = 0; k < 4; k++)
        scale = fmax(scale, cloth__norm(p[k]) + 1e-300);
    if (d > 1e-12 * scale) {
        for (int a = 0; a < 3; a++)
            n[a] = r[a] / d;
        return d;
    }
    double u[3], w[3];
    if (pr->kind == CLOTH__CCD_POINT_TRIANGLE) {
        cloth__sub(p[2], p[1], u);
        cloth__sub(p[3], p[1], w);
    } else {
        cloth__sub(p[1], p[0], u);
        cloth__sub(p[3], p[2], w);
    }
    cloth__cross(u, w, n);
    double len = cloth__norm(n);
    if (!(len > 0)) {
        n[0] = 1, n[1] = n[2] = 0;
        return d;
    }
    double side = 0;
    for (int k = 0; ref && k < 4; k++)
        for (int a = 0; a < 3; a++)
            side += cw[k] * ref[3 * pr->v[k] + a] * n[a];
    for (int a = 0; a < 3; a++)
        n[a] = (side < 0 ? -n[a] : n[a]) / len;
    return d;
}

/* The pair's distance at positions x. */
double cloth__collide_pair_distance(const cloth__collide_pair *pr, const double *x)
{
    double cw[4], n[3];
    return cloth__collide_pair_geometry(pr, x, NULL, cw, n);
}

/* Changes the average velocity of vertex i by dv: x1 += h dv, v += dv (stamped with
 * the current clock: pairs of i must be looked at again). */
void cloth__collide_nudge(cloth__collide *c, double *x1, double *v, int i, const double dv[3],
                          double h)
{
    for (int a = 0; a < 3; a++) {
        x1[3 * i + a] += h * dv[a];
        v[3 * i + a] += dv[a];
    }
    c->stamp[i] = c->clock;
}

/* The impulse that raises the pair's relative normal average velocity to at least
 * target (collide.h), with friction mu on the tangential part.  Returns 1 when it
 * acted.
 *
 * A vertex an obstacle has moved in this call ((d): it lies on the obstacle's surface,
 * normal m) has infinite mass along m for a push into the obstacle (Bridson 7.4): when
 * the impulse j n would push it inward (c_k n . m < 0) its change is projected,
 * dv_k = w_k c_k j (I - m m^T) n, so that W = sum_k w_k c_k^2 n^T P_k n (P_k that
 * projection, or I) and j = dv_N / W still meets the wanted dv_N, with the free vertices
 * taking the whole of it.  (Without this the obstacle's impulse undoes the vertex's share
 * and the pair falls short of its push by that share: Gauss-Seidel rounds converge, but
 * slowly.) */
static int blocked(const cloth__collide *c, int i, double cw, const double n[3])
{
    return c->ob_hit[i] != CLOTH__HIT_NONE && cw * cloth__dot(n, c->ob_normal + 3 * i) < 0;
}

int cloth__collide_impulse(cloth__collide *c, const cloth__collide_pair *pr,
                           const double cw[4], const double n[3], double target, double mu,
                           double h, const double *x0, double *x1, double *v,
                           const double *inv_mass, double *dvn_out)
{
    double rel[3] = {0, 0, 0}, W = 0;
    for (int k = 0; k < 4; k++) {
        int i = pr->v[k];
        double nm = blocked(c, i, cw[k], n) ? cloth__dot(n, c->ob_normal + 3 * i) : 0;
        W += inv_mass[i] * cw[k] * cw[k] * (1 - nm * nm);
        for (int a = 0; a < 3; a++)
            rel[a] += cw[k] * (x1[3 * i + a] - x0[3 * i + a]) / h;
    }
    double vn = cloth__dot(rel, n);
    if (!(W > 0) || !(vn < target))
        return 0;
    double dvn = target - vn, jn = dvn / W;
    if (dvn_out)
        *dvn_out = dvn;
    double vt[3], tlen;
    for (int a = 0; a < 3; a++)
        vt[a] = rel[a] - vn * n[a];
    tlen = cloth__norm(vt);
    /* Coulomb: the tangential relative velocity falls by mu dv_N, not past 0 */
    double jt = tlen > 0 ? fmin(mu * dvn, tlen) / W / tlen : 0;
    c->clock++;
    for (int k = 0; k < 4; k++) {
        int i = pr->v[k];
        double s = inv_mass[i] * cw[k], dv[3];
        if (s == 0)
            continue;
        for (int a = 0; a < 3; a++)
            dv[a] = s * (jn * n[a] - jt * vt[a]);
        if (blocked(c, i, cw[k], n)) {
            const double *m = c->ob_normal + 3 * i;
            double in = fmin(0, cloth__dot(dv, m));
            for (int a = 0; a < 3; a++)
                dv[a] -= in * m[a];
        }
        cloth__collide_nudge(c, x1, v, i, dv, h);
    }
    return 1;
}

/* The twelve coordinates of the pair's vertices in x. */
void cloth__collide_gather(const cloth__collide_pair *pr, const double *x, double out[12])
{
    for (int k = 0; k < 4; k++)
        memcpy(out + 3 * k, x + 3 * pr->v[k], 3 * sizeof *out);
}

/* The CCD's distance at the step's start (terms/ccd.c, in the frame of the pair's first
 * vertex): a[12] the start positions, moved there in place. */
double cloth__collide_ccd_start_distance(const cloth__collide_pair *pr, double a[12])
{
    for (int k = 3; k < 12; k++)
        a[k] -= a[k % 3];
    a[0] = a[1] = a[2] = 0;
    const double *p = a, *q = a + 3, *r = a + 6, *t = a + 9;
    if (pr->kind == CLOTH__CCD_POINT_TRIANGLE)
        return sqrt(cloth__point_triangle_distance2(
            p, q, r, t, cloth__point_triangle_type(p, q, r, t), NULL, NULL));
    return sqrt(cloth__edge_edge_distance2(p, q, r, t, cloth__edge_edge_type(p, q, r, t),
                                           NULL, NULL));
}
