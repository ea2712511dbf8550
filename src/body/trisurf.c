/* Distances to a triangle surface of closed parts (trisurf.h): closest points, the sign
 * of the nearest triangle, a box tree per part. */
#include "body/trisurf.h"
#include "core/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DOT(x, y) ((x)[0] * (y)[0] + (x)[1] * (y)[1] + (x)[2] * (y)[2])
#define LEAF 4

double cloth__triangle_closest(const double p[3], const double a[3], const double b[3],
                               const double c[3], double q[3])
{
    double ab[3], ac[3], ap[3];
    for (int k = 0; k < 3; k++) {
        ab[k] = b[k] - a[k];
        ac[k] = c[k] - a[k];
        ap[k] = p[k] - a[k];
    }
    double d1 = DOT(ab, ap), d2 = DOT(ac, ap);
    if (d1 <= 0 && d2 <= 0) {
        memcpy(q, a, 3 * sizeof *q);
    } else {
        double bp[3] = {p[0] - b[0], p[1] - b[1], p[2] - b[2]};
        double d3 = DOT(ab, bp), d4 = DOT(ac, bp);
        double cp[3] = {p[0] - c[0], p[1] - c[1], p[2] - c[2]};
        double d5 = DOT(ab, cp), d6 = DOT(ac, cp);
        double vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
        if (d3 >= 0 && d4 <= d3) {
            memcpy(q, b, 3 * sizeof *q);
        } else if (d6 >= 0 && d5 <= d6) {
            memcpy(q, c, 3 * sizeof *q);
        } else if (vc <= 0 && d1 >= 0 && d3 <= 0) {
            double v = d1 / (d1 - d3);
            for (int k = 0; k < 3; k++)
                q[k] = a[k] + v * ab[k];
        } else if (vb <= 0 && d2 >= 0 && d6 <= 0) {
            double w = d2 / (d2 - d6);
            for (int k = 0; k < 3; k++)
                q[k] = a[k] + w * ac[k];
        } else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
            double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
            for (int k = 0; k < 3; k++)
                q[k] = b[k] + w * (c[k] - b[k]);
        } else {
            double den = 1 / (va + vb + vc), v = vb * den, w = vc * den;
            for (int k = 0; k < 3; k++)
                q[k] = a[k] + v * ab[k] + w * ac[k];
        }
    }
    double e[3] = {p[0] - q[0], p[1] - q[1], p[2] - q[2]};
    return DOT(e, e);
}

void cloth__tri_hit_offer(cloth__tri_hit *hit, const double p[3], int t, const double a[3],
                          const double b[3], const double c[3])
{
    double q[3], d2 = cloth__triangle_closest(p, a, b, c, q);
    /* equally near within rounding: the same closest point of a shared edge or vertex */
    double tol = hit->tri >= 0 ? 1e-9 * hit->d2 + 1e-30 : 0;
    if (d2 > hit->d2 + tol)
        return; /* farther than the best, or than the bound before any */
    double n[3], e[3] = {p[0] - q[0], p[1] - q[1], p[2] - q[2]};
    n[0] = (b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1]);
    n[1] = (b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]);
    n[2] = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    double nn = sqrt(DOT(n, n)), side = nn > 0 ? DOT(e, n) / nn : 0;
    if (hit->tri >= 0 && d2 >= hit->d2 - tol && fabs(side) <= fabs(hit->side)) {
        hit->d2 = fmin(d2, hit->d2); /* a tie: the smaller distance, the other's sign */
        return;
    }
    hit->d2 = fmin(d2, hit->d2);
    hit->side = side;
    hit->tri = t;
    memcpy(hit->q, q, sizeof q);
}

/* ------------------------------------------------------------------- tree */

static void centroid(const cloth__trisurf *s, int t, double c[3])
{
    const int *v = s->tris + 3 * t;
    for (int k = 0; k < 3; k++)
        c[k] = (s->x[3 * v[0] + k] + s->x[3 * v[1] + k] + s->x[3 * v[2] + k]) / 3;
}

/* Reorders order[lo, hi) so that the triangle of rank mid along axis is at mid, smaller
 * ones before it (Hoare's quickselect on the centroids). */
static void select_median(const cloth__trisurf *s, int *order, int lo, int hi, int mid, int axis)
{
    while (hi - lo > 1) {
        double c[3], pivot;
        centroid(s, order[(lo + hi) / 2], c);
        pivot = c[axis];
        int i = lo, j = hi - 1;
        while (i <= j) {
            double ci[3], cj[3];
            for (;;) {
                centroid(s, order[i], ci);
                if (ci[axis] >= pivot)
                    break;
                i++;
            }
            for (;;) {
                centroid(s, order[j], cj);
                if (cj[axis] <= pivot)
                    break;
                j--;
            }
            if (i <= j) {
                int t = order[i];
                order[i++] = order[j];
                order[j--] = t;
            }
        }
        if (mid <= j)
            hi = j + 1;
        else if (mid >= i)
            lo = i;
        else
            return;
    }
}

/* Fills node id over order[first, first + count); an inner node's two children take
 * the next two free slots, reserved before either subtree is built. */
static void fill_node(cloth__trisurf *s, int id, int first, int count)
{
    cloth__tri_node *nd = &s->node[id];
    double clo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, chi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int k = 0; k < 3; k++) {
        nd->lo[k] = HUGE_VAL;
        nd->hi[k] = -HUGE_VAL;
    }
    for (int i = first; i < first + count; i++) {
        const int *v = s->tris + 3 * s->order[i];
        double c[3];
        for (int corner = 0; corner < 3; corner++)
            for (int k = 0; k < 3; k++) {
                nd->lo[k] = fmin(nd->lo[k], s->x[3 * v[corner] + k]);
                nd->hi[k] = fmax(nd->hi[k], s->x[3 * v[corner] + k]);
            }
        centroid(s, s->order[i], c);
        for (int k = 0; k < 3; k++) {
            clo[k] = fmin(clo[k], c[k]);
            chi[k] = fmax(chi[k], c[k]);
        }
    }
    nd->first = first;
    nd->count = count;
    if (count <= LEAF)
        return;
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (chi[k] - clo[k] > chi[axis] - clo[axis])
            axis = k;
    int half = count / 2, kids = s->n_nodes;
    select_median(s, s->order, first, first + count, first + half, axis);
    s->n_nodes += 2;
    nd->first = kids;
    nd->count = 0;
    fill_node(s, kids, first, half);
    fill_node(s, kids + 1, first + half, count - half);
}

static int build_node(cloth__trisurf *s, int first, int count)
{
    int id = s->n_nodes++;
    fill_node(s, id, first, count);
    return id;
}

cloth_status cloth__trisurf_build(cloth__trisurf *s, const double *x, const int *tris,
                                  int n_parts, const int *part_tri, cloth_error *err)
{
    memset(s, 0, sizeof *s);
    s->x = x;
    s->tris = tris;
    s->n_parts = n_parts;
    s->part_tri = part_tri;
    int n_tris = part_tri[n_parts];
    s->root = malloc(sizeof(int) * (size_t)(n_parts > 0 ? n_parts : 1));
    s->order = malloc(sizeof(int) * (size_t)(n_tris > 0 ? n_tris : 1));
    s->node = malloc(sizeof(cloth__tri_node) * (size_t)(2 * n_tris + n_parts + 1));
    if (!s->root || !s->order || !s->node) {
        cloth__trisurf_free(s);
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory for the trees of %d triangles",
                           n_tris);
    }
    for (int t = 0; t < n_tris; t++)
        s->order[t] = t;
    for (int c = 0; c < n_parts; c++)
        s->root[c] = part_tri[c + 1] > part_tri[c]
                         ? build_node(s, part_tri[c], part_tri[c + 1] - part_tri[c]) : -1;
    return CLOTH_OK;
}

void cloth__trisurf_free(cloth__trisurf *s)
{
    free(s->root);
    free(s->order);
    free(s->node);
    s->root = s->order = NULL;
    s->node = NULL;
}

/* ------------------------------------------------------------------ queries */

static double box_distance2(const cloth__tri_node *nd, const double p[3])
{
    double d2 = 0;
    for (int k = 0; k < 3; k++) {
        double e = p[k] < nd->lo[k] ? nd->lo[k] - p[k] : p[k] > nd->hi[k] ? p[k] - nd->hi[k] : 0;
        d2 += e * e;
    }
    return d2;
}

/* The nearest triangle of the tree at root to p, nearer than hit->d2 already is. */
static void nearest(const cloth__trisurf *s, int root, const double p[3], cloth__tri_hit *hit)
{
    int stack[128], top = 0;
    stack[top++] = root;
    while (top > 0) {
        const cloth__tri_node *nd = &s->node[stack[--top]];
        if (box_distance2(nd, p) > hit->d2 * (1 + 1e-9) + 1e-30)
            continue;
        if (nd->count > 0) {
            for (int i = nd->first; i < nd->first + nd->count; i++) {
                int t = s->order[i];
                const int *v = s->tris + 3 * t;
                cloth__tri_hit_offer(hit, p, t, s->x + 3 * v[0], s->x + 3 * v[1],
                                     s->x + 3 * v[2]);
            }
            continue;
        }
        /* the nearer child last, so that it is searched first */
        int a = nd->first, b = nd->first + 1;
        double da = box_distance2(&s->node[a], p), db = box_distance2(&s->node[b], p);
        if (top + 2 > (int)(sizeof stack / sizeof stack[0]))
            continue; /* cannot happen: median splits keep the depth near log2 */
        stack[top++] = da < db ? b : a;
        stack[top++] = da < db ? a : b;
    }
}

double cloth__trisurf_distance(const cloth__trisurf *s, const double p[3])
{
    double out = HUGE_VAL, in = -1;
    for (int c = 0; c < s->n_parts; c++) {
        if (s->root[c] < 0)
            continue;
        const cloth__tri_node *box = &s->node[s->root[c]];
        int in_box = box_distance2(box, p) == 0;
        cloth__tri_hit hit = {in_box ? HUGE_VAL : out * out, 0, -1, {0, 0, 0}};
        nearest(s, s->root[c], p, &hit);
        if (hit.tri < 0)
            continue;
        double d = sqrt(hit.d2);
        if (in_box && hit.side < 0)
            in = fmax(in, d);
        else
            out = fmin(out, d);
    }
    return in >= 0 ? -in : out;
}
