/* Ellipsoid bounds per bone and point-triangle tests inside them (ellipsoids.h). */
#include "body/ellipsoids.h"
#include "body/trisurf.h"
#include "core/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The eigenvectors (rows of V) of the symmetric A by cyclic Jacobi rotations (Golub and
 * Van Loan, 8.5): each rotation zeroes one off-diagonal pair. */
static void jacobi_eigenvectors(double A[9], double V[9])
{
    static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    memcpy(V, I, sizeof I);
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = A[1] * A[1] + A[2] * A[2] + A[5] * A[5];
        double diag = A[0] * A[0] + A[4] * A[4] + A[8] * A[8];
        if (off <= 1e-30 * diag || off == 0)
            break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                double apq = A[3 * p + q];
                if (apq == 0)
                    continue;
                /* tan(2 theta) = 2 a_pq / (a_qq - a_pp), the smaller root t = tan theta */
                double th = (A[3 * q + q] - A[3 * p + p]) / (2 * apq);
                double t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < 3; k++) { /* A <- J^T A J, columns then rows */
                    double akp = A[3 * k + p], akq = A[3 * k + q];
                    A[3 * k + p] = c * akp - s * akq;
                    A[3 * k + q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; k++) {
                    double apk = A[3 * p + k], aqk = A[3 * q + k];
                    A[3 * p + k] = c * apk - s * aqk;
                    A[3 * q + k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; k++) { /* V's rows: the eigenvectors */
                    double vp = V[3 * p + k], vq = V[3 * q + k];
                    V[3 * p + k] = c * vp - s * vq;
                    V[3 * q + k] = s * vp + c * vq;
                }
            }
    }
}

/* The bone of a triangle: the largest weight summed over its corners. */
static int bone_of(const cloth__body *b, int t)
{
    double w[CLOTH__MAX_JOINTS] = {0};
    int best = 0;
    for (int corner = 0; corner < 3; corner++) {
        int v = b->tris[3 * t + corner];
        for (int k = 0; k < CLOTH__SKIN; k++) {
            int j = b->skin_joint[CLOTH__SKIN * v + k];
            if (j >= 0)
                w[j] += b->skin_weight[CLOTH__SKIN * v + k];
        }
    }
    for (int j = 1; j < b->skel.n; j++)
        if (w[j] > w[best])
            best = j;
    return best;
}

/* Fits e to the corners of the triangles tri[0 .. n). */
static void fit(cloth__ellipsoid *e, const cloth__body *b, const int *tri, int n, double margin)
{
    double m[3] = {0, 0, 0}, C[9] = {0};
    for (int i = 0; i < n; i++)
        for (int corner = 0; corner < 3; corner++)
            for (int k = 0; k < 3; k++)
                m[k] += b->verts[3 * b->tris[3 * tri[i] + corner] + k] / (3.0 * n);
    for (int i = 0; i < n; i++)
        for (int corner = 0; corner < 3; corner++) {
            const double *v = b->verts + 3 * b->tris[3 * tri[i] + corner];
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++)
                    C[3 * r + c] += (v[r] - m[r]) * (v[c] - m[c]);
        }
    jacobi_eigenvectors(C, e->axis);
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int i = 0; i < n; i++)
        for (int corner = 0; corner < 3; corner++) {
            const double *v = b->verts + 3 * b->tris[3 * tri[i] + corner];
            for (int k = 0; k < 3; k++) {
                const double *a = e->axis + 3 * k;
                double l = a[0] * (v[0] - m[0]) + a[1] * (v[1] - m[1]) + a[2] * (v[2] - m[2]);
                lo[k] = fmin(lo[k], l);
                hi[k] = fmax(hi[k], l);
            }
        }
    double ext[3];
    memcpy(e->c, m, sizeof m);
    for (int k = 0; k < 3; k++) {
        ext[k] = fmax(0.5 * (hi[k] - lo[k]), 1e-6);
        for (int c = 0; c < 3; c++)
            e->c[c] += 0.5 * (lo[k] + hi[k]) * e->axis[3 * k + c];
    }
    double s = 0;
    for (int i = 0; i < n; i++)
        for (int corner = 0; corner < 3; corner++) {
            const double *v = b->verts + 3 * b->tris[3 * tri[i] + corner];
            double q = 0;
            for (int k = 0; k < 3; k++) {
                const double *a = e->axis + 3 * k;
                double l = a[0] * (v[0] - e->c[0]) + a[1] * (v[1] - e->c[1]) +
                           a[2] * (v[2] - e->c[2]);
                q += (l / ext[k]) * (l / ext[k]);
            }
            s = fmax(s, q);
        }
    /* a hair over the largest, so that the vertex that sets it is inside after rounding */
    s = s * (1 + 1e-12);
    double rmin = HUGE_VAL;
    for (int k = 0; k < 3; k++) {
        e->r[k] = sqrt(s) * ext[k];
        rmin = fmin(rmin, e->r[k]);
    }
    e->lambda = 1 + margin / rmin;
}

cloth_status cloth__ellipsoids_build(cloth__ellipsoids *E, const cloth__body *b, double margin,
                                     cloth_error *err)
{
    memset(E, 0, sizeof *E);
    E->margin = margin;
    E->tri = malloc(sizeof(int) * (size_t)(b->n_tris > 0 ? b->n_tris : 1));
    E->tri_part = malloc(sizeof(int) * (size_t)(b->n_tris > 0 ? b->n_tris : 1));
    int *bone = malloc(sizeof(int) * (size_t)(b->n_tris > 0 ? b->n_tris : 1));
    if (!E->tri || !E->tri_part || !bone) {
        free(bone);
        cloth__ellipsoids_free(E);
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory for the ellipsoids");
    }
    for (int c = 0; c < b->n_parts; c++)
        for (int t = b->part_tri[c]; t < b->part_tri[c + 1]; t++)
            E->tri_part[t] = c;
    int count[CLOTH__MAX_JOINTS] = {0};
    for (int t = 0; t < b->n_tris; t++)
        count[bone[t] = bone_of(b, t)]++;
    for (int j = 0; j < b->skel.n; j++) {
        if (!count[j])
            continue;
        E->e[E->n].joint = j;
        E->first[E->n + 1] = E->first[E->n] + count[j];
        int fill = E->first[E->n];
        for (int t = 0; t < b->n_tris; t++)
            if (bone[t] == j)
                E->tri[fill++] = t;
        fit(&E->e[E->n], b, E->tri + E->first[E->n], count[j], margin);
        E->n++;
    }
    free(bone);
    return CLOTH_OK;
}

void cloth__ellipsoids_free(cloth__ellipsoids *E)
{
    free(E->tri);
    free(E->tri_part);
    E->tri = E->tri_part = NULL;
    E->n = 0;
}

double cloth__ellipsoid_level(const cloth__ellipsoid *e, const cloth__xform *xf,
                              const double x[3], double scale)
{
    /* to the rest pose, y = R^T (x - t), then the ellipsoid's frame */
    double d[3] = {x[0] - xf->t[0], x[1] - xf->t[1], x[2] - xf->t[2]}, y[3], q = 0;
    cloth__mat_tvec(xf->R, d, y);
    for (int k = 0; k < 3; k++) {
        const double *a = e->axis + 3 * k;
        double l = (a[0] * (y[0] - e->c[0]) + a[1] * (y[1] - e->c[1]) +
                    a[2] * (y[2] - e->c[2])) / (scale * e->r[k]);
        q += l * l;
    }
    return q;
}

double cloth__ellipsoids_query(const cloth__ellipsoids *E, const cloth__body *body,
                               const double *verts, const cloth__xform *xf, const double x[3],
                               double dir[3], int *tested)
{
    cloth__tri_hit hit[CLOTH__MAX_PARTS];
    int touched[CLOTH__MAX_PARTS], n_touched = 0, n_tested = 0;
    unsigned char seen[CLOTH__MAX_PARTS];
    memset(seen, 0, (size_t)body->n_parts);
    for (int i = 0; i < E->n; i++) {
        const cloth__ellipsoid *e = &E->e[i];
        if (cloth__ellipsoid_level(e, &xf[e->joint], x, e->lambda) > 1)
            continue;
        for (int k = E->first[i]; k < E->first[i + 1]; k++) {
            int t = E->tri[k], c = E->tri_part[t];
            if (!seen[c]) {
                seen[c] = 1;
                touched[n_touched++] = c;
                hit[c] = (cloth__tri_hit){HUGE_VAL, 0, -1, {0, 0, 0}};
            }
            const int *v = body->tris + 3 * t;
            cloth__tri_hit_offer(&hit[c], x, t, verts + 3 * v[0], verts + 3 * v[1],
                                 verts + 3 * v[2]);
            n_tested++;
        }
    }
    if (tested)
        *tested = n_tested;
    if (!n_touched)
        return HUGE_VAL;
    /* inside some part: its depth, the deepest; else the nearest part */
    int best = -1, inside = 0;
    for (int i = 0; i < n_touched; i++) {
        const cloth__tri_hit *h = &hit[touched[i]];
        int in = h->side < 0 && h->d2 <= E->margin * E->margin;
        if (best < 0 || (in && !inside) || (in == inside && (in ? h->d2 > hit[best].d2
                                                                 : h->d2 < hit[best].d2))) {
            best = touched[i];
            inside = in;
        }
    }
    const cloth__tri_hit *h = &hit[best];
    double d = sqrt(h->d2);
    if (d > 0) {
        for (int k = 0; k < 3; k++)
            dir[k] = (inside ? h->q[k] - x[k] : x[k] - h->q[k]) / d;
    } else {
        /* on the surface: the triangle's normal */
        const int *v = body->tris + 3 * h->tri;
        const double *a = verts + 3 * v[0], *b = verts + 3 * v[1], *c = verts + 3 * v[2];
        dir[0] = (b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1]);
        dir[1] = (b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]);
        dir[2] = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
        double n = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
        for (int k = 0; k < 3; k++)
            dir[k] = n > 0 ? dir[k] / n : (k == 1);
    }
    return inside ? -d : d;
}
