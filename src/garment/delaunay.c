/*
 * Bowyer–Watson Delaunay triangulation (Bowyer 1981, "Computing Dirichlet tessellations";
 * Watson 1981, "Computing the n-dimensional Delaunay tessellation"), as the mass-spring
 * cloth paper meshes its panels.
 *
 * Triangles are kept counter-clockwise with their neighbours: triangle t has vertices
 * v[3t+k] and nb[3t+k] is the triangle across edge (v[3t+k], v[3t+k+1 mod 3]), -1 on the
 * super-triangle's border.  Inserting p:
 *   locate   walk from the last triangle made towards p, crossing any edge that has p on
 *            its right (orient < 0); on a Delaunay triangulation this visibility walk
 *            ends (Edelsbrunner 1990), and with points in Hilbert order it is short;
 *   cavity   from that triangle, every neighbour whose circumcircle holds p strictly
 *            (in-circle test > 0), grown while some boundary edge does not see p
 *            counter-clockwise, so the cavity is star-shaped from p even when rounding
 *            made an in-circle test say 0;
 *   fill     each boundary edge (a, b) becomes the triangle (a, b, p); the new triangles
 *            are linked to each other through the vertex each boundary edge starts at.
 * Dead triangles go on a free list and are reused, so the arrays stay at most 2N + 1
 * triangles for N points (Euler).
 *
 * Predicates (Shewchuk 1997, "Adaptive precision floating-point arithmetic and fast
 * robust geometric predicates"): the determinants in doubles with his static error
 * bounds; a value within the bound counts as 0 (cocircular, collinear), which the
 * cavity treats as "not inside", the conservative side.
 */
#include "garment/delaunay.h"
#include "core/status.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cloth__delaunay {
    double *xy;                 /* 2 per point; the super-triangle's 3 come last ... */
    int n_points;               /* ... after these (given and inserted points)        */
    int cap_points;             /* room for points, super-triangle not counted        */
    double super[6];            /* the super-triangle's corners                       */
    int *v, *nb;                /* 3 per triangle: vertices and neighbours            */
    int *mark;                  /* per triangle: the insertion that put it in a cavity;
                                 * -1 for a dead one                                  */
    int n_tris, cap_tris;       /* slots used (alive or dead) and room                */
    int *free_list, n_free;     /* dead slots                                         */
    int *stack, cap_stack;      /* the cavity being built                             */
    int *edges, cap_edges;      /* its boundary: triangle, edge index pairs           */
    int *by_start;              /* per point: the new triangle whose boundary edge
                                 * starts there (during one insertion)                */
    int last;                   /* a live triangle to start the next walk from        */
    int stamp;                  /* insertions so far                                  */
    int skipped;                /* duplicates left out                                */
};

/* ------------------------------------------------------------ predicates */

/* eps = 2^-53, Shewchuk's epsilon (half the machine epsilon) */
#define HALF_EPS (DBL_EPSILON / 2)

int cloth__orient(const double a[2], const double b[2], const double c[2])
{
    double l = (a[0] - c[0]) * (b[1] - c[1]), r = (a[1] - c[1]) * (b[0] - c[0]);
    double det = l - r, bound = (3 + 16 * HALF_EPS) * HALF_EPS * (fabs(l) + fabs(r));
    return det > bound ? 1 : det < -bound ? -1 : 0;
}

/* | ax-dx ay-dy (ax-dx)^2+(ay-dy)^2 |
 * | bx-dx by-dy ...                 | > 0  <=>  d inside the circle of CCW a, b, c
 * | cx-dx cy-dy ...                 |   (Guibas and Stolfi 1985) */
int cloth__incircle(const double a[2], const double b[2], const double c[2], const double d[2])
{
    double adx = a[0] - d[0], ady = a[1] - d[1], bdx = b[0] - d[0], bdy = b[1] - d[1];
    double cdx = c[0] - d[0], cdy = c[1] - d[1];
    double bdxcdy = bdx * cdy, cdxbdy = cdx * bdy, alift = adx * adx + ady * ady;
    double cdxady = cdx * ady, adxcdy = adx * cdy, blift = bdx * bdx + bdy * bdy;
    double adxbdy = adx * bdy, bdxady = bdx * ady, clift = cdx * cdx + cdy * cdy;
    double det = alift * (bdxcdy - cdxbdy) + blift * (cdxady - adxcdy) +
                 clift * (adxbdy - bdxady);
    double permanent = (fabs(bdxcdy) + fabs(cdxbdy)) * alift +
                       (fabs(cdxady) + fabs(adxcdy)) * blift +
                       (fabs(adxbdy) + fabs(bdxady)) * clift;
    double bound = (10 + 96 * HALF_EPS) * HALF_EPS * permanent;
    return det > bound ? 1 : det < -bound ? -1 : 0;
}

/* ---------------------------------------------------------------- storage */

static const double *point(const cloth__delaunay *dt, int i)
{
    return i < dt->n_points ? dt->xy + 2 * i : dt->super + 2 * (i - dt->cap_points);
}

/* Super-triangle vertices are numbered cap_points .. cap_points + 2, so they move when
 * the point array grows: renumber them in every triangle. */
static int grow_points(cloth__delaunay *dt, int need)
{
    if (need <= dt->cap_points)
        return 0;
    int cap = 2 * dt->cap_points > need ? 2 * dt->cap_points : need;
    double *xy = realloc(dt->xy, sizeof(double) * 2 * (size_t)cap);
    if (!xy)
        return 1;
    dt->xy = xy;
    int *by = realloc(dt->by_start, sizeof(int) * (size_t)(cap + 3));
    if (!by)
        return 1;
    dt->by_start = by;
    for (int i = 0; i < 3 * dt->n_tris; i++)
        if (dt->v[i] >= dt->cap_points)
            dt->v[i] += cap - dt->cap_points;
    dt->cap_points = cap;
    return 0;
}

static int grow_ints(int **a, int *cap, int need)
{
    if (need <= *cap)
        return 0;
    int c = *cap ? 2 * *cap : 64;
    while (c < need)
        c *= 2;
    int *p = realloc(*a, sizeof(int) * (size_t)c);
    if (!p)
        return 1;
    *a = p;
    *cap = c;
    return 0;
}

/* A triangle slot (a dead one if any); -1 when out of memory. */
static int new_triangle(cloth__delaunay *dt, int a, int b, int c)
{
    int t;
    if (dt->n_free > 0) {
        t = dt->free_list[--dt->n_free];
    } else {
        if (dt->n_tris == dt->cap_tris) {
            int cap = 2 * dt->cap_tris + 16;
            int *v = realloc(dt->v, sizeof(int) * 3 * (size_t)cap);
            if (v)
                dt->v = v;
            int *nb = v ? realloc(dt->nb, sizeof(int) * 3 * (size_t)cap) : NULL;
            if (nb)
                dt->nb = nb;
            int *mark = nb ? realloc(dt->mark, sizeof(int) * (size_t)cap) : NULL;
            if (mark)
                dt->mark = mark;
            int *fl = mark ? realloc(dt->free_list, sizeof(int) * (size_t)cap) : NULL;
            if (!fl)
                return -1;
            dt->free_list = fl;
            dt->cap_tris = cap;
        }
        t = dt->n_tris++;
    }
    dt->v[3 * t] = a;
    dt->v[3 * t + 1] = b;
    dt->v[3 * t + 2] = c;
    dt->nb[3 * t] = dt->nb[3 * t + 1] = dt->nb[3 * t + 2] = -1;
    dt->mark[t] = 0;
    return t;
}

/* --------------------------------------------------------------- insertion */

/* The triangle holding p (on its border counts), by the visibility walk; a scan of all
 * triangles if the walk has not arrived after as many steps as there are triangles
 * (rounding can make it cycle on nearly degenerate input).  -1 if p is outside the
 * super-triangle. */
static int locate(const cloth__delaunay *dt, const double *p)
{
    int t = dt->last;
    for (int steps = 0; steps <= dt->n_tris; steps++) {
        int next = -2;
        for (int k = 0; k < 3; k++) {
            const int *v = dt->v + 3 * t;
            if (cloth__orient(point(dt, v[k]), point(dt, v[(k + 1) % 3]), p) < 0) {
                next = dt->nb[3 * t + k];
                break;
            }
        }
        if (next == -2)
            return t;
        if (next < 0)
            return -1;
        t = next;
    }
    for (t = 0; t < dt->n_tris; t++) {
        if (dt->mark[t] < 0)
            continue;
        const int *v = dt->v + 3 * t;
        if (cloth__orient(point(dt, v[0]), point(dt, v[1]), p) >= 0 &&
            cloth__orient(point(dt, v[1]), point(dt, v[2]), p) >= 0 &&
            cloth__orient(point(dt, v[2]), point(dt, v[0]), p) >= 0)
            return t;
    }
    return -1;
}

static int in_cavity(const cloth__delaunay *dt, int t)
{
    return t >= 0 && dt->mark[t] == dt->stamp;
}

/* The cavity of p from triangle t: dt->stack[0 .. *count).  Returns 1 when out of memory. */
static int dig_cavity(cloth__delaunay *dt, int t, const double *p, int *count)
{
    int n = 0;
    if (grow_ints(&dt->stack, &dt->cap_stack, 64))
        return 1;
    dt->mark[t] = dt->stamp;
    dt->stack[n++] = t;
    for (int i = 0; i < n; i++) {
        int s = dt->stack[i];
        for (int k = 0; k < 3; k++) {
            int o = dt->nb[3 * s + k];
            if (o < 0 || in_cavity(dt, o))
                continue;
            const int *v = dt->v + 3 * o;
            if (cloth__incircle(point(dt, v[0]), point(dt, v[1]), point(dt, v[2]), p) > 0) {
                if (grow_ints(&dt->stack, &dt->cap_stack, n + 1))
                    return 1;
                dt->mark[o] = dt->stamp;
                dt->stack[n++] = o;
            }
        }
    }
    *count = n;
    return 0;
}

/* Makes the cavity star-shaped from p: while a boundary edge (a, b) does not have p
 * strictly to its left, the triangle beyond it joins.  Then lists the boundary edges in
 * dt->edges.  Returns 1 when out of memory, 2 when the cavity reaches the super-
 * triangle's border with such an edge (p outside it). */
static int cavity_boundary(cloth__delaunay *dt, const double *p, int *count, int *n_edges)
{
    int changed = 1;
    while (changed) {
        changed = 0;
        int m = 0;
        for (int i = 0; i < *count; i++) {
            int s = dt->stack[i];
            for (int k = 0; k < 3; k++) {
                int o = dt->nb[3 * s + k];
                if (in_cavity(dt, o))
                    continue;
                const int *v = dt->v + 3 * s;
                if (cloth__orient(point(dt, v[k]), point(dt, v[(k + 1) % 3]), p) <= 0) {
                    if (o < 0)
                        return 2;
                    if (grow_ints(&dt->stack, &dt->cap_stack, *count + 1))
                        return 1;
                    dt->mark[o] = dt->stamp;
                    dt->stack[(*count)++] = o;
                    changed = 1;
                    continue;
                }
                if (grow_ints(&dt->edges, &dt->cap_edges, 2 * (m + 1)))
                    return 1;
                dt->edges[2 * m] = s;
                dt->edges[2 * m + 1] = k;
                m++;
            }
        }
        *n_edges = m;
    }
    return 0;
}

/* Bowyer–Watson's step for point index ip (already stored).  *dup gets the index of a
 * point it coincides with, or -1. */
static cloth_status insert_index(cloth__delaunay *dt, int ip, int *dup)
{
    const double *p = point(dt, ip);
    *dup = -1;
    int t = locate(dt, p);
    if (t < 0)
        return CLOTH_EINVAL;
    for (int k = 0; k < 3; k++) {
        const double *q = point(dt, dt->v[3 * t + k]);
        if (q[0] == p[0] && q[1] == p[1]) {
            *dup = dt->v[3 * t + k];
            return CLOTH_OK;
        }
    }
    dt->stamp++;
    int count = 0, n_edges = 0;
    if (dig_cavity(dt, t, p, &count))
        return CLOTH_ENOMEM;
    int r = cavity_boundary(dt, p, &count, &n_edges);
    if (r)
        return r == 1 ? CLOTH_ENOMEM : CLOTH_EINVAL;
    /* the boundary edges' outer neighbours and vertices, before their slots are reused */
    if (grow_ints(&dt->edges, &dt->cap_edges, 4 * n_edges))
        return CLOTH_ENOMEM;
    for (int e = n_edges - 1; e >= 0; e--) {
        int s = dt->edges[2 * e], k = dt->edges[2 * e + 1];
        dt->edges[4 * e] = dt->v[3 * s + k];
        dt->edges[4 * e + 1] = dt->v[3 * s + (k + 1) % 3];
        dt->edges[4 * e + 2] = dt->nb[3 * s + k];
        dt->edges[4 * e + 3] = s;
    }
    for (int i = 0; i < count; i++) {
        dt->mark[dt->stack[i]] = -1;
        dt->free_list[dt->n_free++] = dt->stack[i];
    }
    int first = -1;
    for (int e = 0; e < n_edges; e++) {
        int a = dt->edges[4 * e], b = dt->edges[4 * e + 1], o = dt->edges[4 * e + 2];
        int nt = new_triangle(dt, a, b, ip);
        if (nt < 0)
            return CLOTH_ENOMEM;
        dt->nb[3 * nt] = o;
        if (o >= 0)
            for (int k = 0; k < 3; k++)
                if (dt->v[3 * o + k] == b && dt->v[3 * o + (k + 1) % 3] == a) {
                    dt->nb[3 * o + k] = nt;
                    break;
                }
        dt->by_start[a] = nt;
        dt->edges[4 * e + 3] = nt;
        if (first < 0)
            first = nt;
    }
    for (int e = 0; e < n_edges; e++) {
        int b = dt->edges[4 * e + 1], nt = dt->edges[4 * e + 3], next = dt->by_start[b];
        dt->nb[3 * nt + 1] = next;   /* edge (b, p) */
        dt->nb[3 * next + 2] = nt;   /* its edge (p, b) */
    }
    dt->last = first;
    return CLOTH_OK;
}

/* ------------------------------------------------------------ Hilbert order */

/* The index of cell (x, y) along the Hilbert curve filling a 2^16 x 2^16 grid. */
static unsigned long long hilbert_index(unsigned x, unsigned y)
{
    const unsigned n = 1u << 16;
    unsigned long long d = 0;
    for (unsigned s = n / 2; s > 0; s /= 2) {
        unsigned rx = (x & s) > 0, ry = (y & s) > 0;
        d += (unsigned long long)s * s * ((3 * rx) ^ ry);
        if (ry == 0) { /* turn the quadrant so the curve continues */
            if (rx == 1) {
                x = n - 1 - x;
                y = n - 1 - y;
            }
            unsigned t = x;
            x = y;
            y = t;
        }
    }
    return d;
}

typedef struct { unsigned long long key; int index; } keyed;

static int keyed_cmp(const void *a, const void *b)
{
    const keyed *p = a, *q = b;
    if (p->key != q->key)
        return p->key < q->key ? -1 : 1;
    return (p->index > q->index) - (p->index < q->index);
}

/* --------------------------------------------------------------- public */

cloth_status cloth__delaunay_create(const double *xy, int n, cloth__delaunay **out,
                                    cloth_error *err)
{
    *out = NULL;
    if (n < 3)
        return cloth__fail(err, CLOTH_EINVAL, "delaunay: %d points: need at least 3", n);
    double lo[2] = {HUGE_VAL, HUGE_VAL}, hi[2] = {-HUGE_VAL, -HUGE_VAL};
    for (int i = 0; i < 2 * n; i++) {
        if (!isfinite(xy[i]))
            return cloth__fail(err, CLOTH_EINVAL, "delaunay: point %d is not finite", i / 2);
        lo[i % 2] = fmin(lo[i % 2], xy[i]);
        hi[i % 2] = fmax(hi[i % 2], xy[i]);
    }
    cloth__delaunay *dt = calloc(1, sizeof *dt);
    keyed *order = malloc(sizeof(keyed) * (size_t)n);
    if (!dt || !order || grow_points(dt, n)) {
        free(order);
        cloth__delaunay_destroy(dt);
        return cloth__fail(err, CLOTH_ENOMEM, "delaunay: out of memory for %d points", n);
    }
    memcpy(dt->xy, xy, sizeof(double) * 2 * (size_t)n);
    dt->n_points = n;
    /* a super-triangle 100 times the bounding box: its corners are far enough that no
     * triangle of the points' hull is lost to them on well-spread input */
    double cx = 0.5 * (lo[0] + hi[0]), cy = 0.5 * (lo[1] + hi[1]);
    double d = fmax(fmax(hi[0] - lo[0], hi[1] - lo[1]), 1e-300) * 100;
    double sup[6] = {cx - 2 * d, cy - d, cx + 2 * d, cy - d, cx, cy + 2 * d};
    memcpy(dt->super, sup, sizeof sup);
    int s0 = dt->cap_points;
    if (new_triangle(dt, s0, s0 + 1, s0 + 2) < 0)
        goto nomem;
    dt->last = 0;
    double w = fmax(hi[0] - lo[0], 1e-300), h = fmax(hi[1] - lo[1], 1e-300);
    for (int i = 0; i < n; i++) {
        unsigned gx = (unsigned)fmin(65535, (xy[2 * i] - lo[0]) / w * 65535);
        unsigned gy = (unsigned)fmin(65535, (xy[2 * i + 1] - lo[1]) / h * 65535);
        order[i] = (keyed){hilbert_index(gx, gy), i};
    }
    qsort(order, (size_t)n, sizeof *order, keyed_cmp);
    for (int i = 0; i < n; i++) {
        int dup;
        cloth_status st = insert_index(dt, order[i].index, &dup);
        if (st == CLOTH_ENOMEM)
            goto nomem;
        if (st != CLOTH_OK) {
            int bad = order[i].index;
            free(order);
            cloth__delaunay_destroy(dt);
            return cloth__fail(err, st, "delaunay: point %d (%g, %g) could not be inserted",
                               bad, xy[2 * bad], xy[2 * bad + 1]);
        }
        dt->skipped += dup >= 0;
    }
    free(order);
    *out = dt;
    return CLOTH_OK;
nomem:
    free(order);
    cloth__delaunay_destroy(dt);
    return cloth__fail(err, CLOTH_ENOMEM, "delaunay: out of memory for %d points", n);
}

cloth_status cloth__delaunay_insert(cloth__delaunay *dt, double x, double y, int *index)
{
    if (!isfinite(x) || !isfinite(y))
        return CLOTH_EINVAL;
    if (grow_points(dt, dt->n_points + 1))
        return CLOTH_ENOMEM;
    int ip = dt->n_points;
    dt->xy[2 * ip] = x;
    dt->xy[2 * ip + 1] = y;
    dt->n_points++;
    int dup;
    cloth_status st = insert_index(dt, ip, &dup);
    if (st != CLOTH_OK || dup >= 0) {
        dt->n_points--;
        if (dup >= 0)
            dt->skipped++;
    }
    *index = dup >= 0 ? dup : ip;
    return st;
}

void cloth__delaunay_destroy(cloth__delaunay *dt)
{
    if (!dt)
        return;
    free(dt->xy);
    free(dt->v);
    free(dt->nb);
    free(dt->mark);
    free(dt->free_list);
    free(dt->stack);
    free(dt->edges);
    free(dt->by_start);
    free(dt);
}

const double *cloth__delaunay_points(const cloth__delaunay *dt, int *n)
{
    *n = dt->n_points;
    return dt->xy;
}

int cloth__delaunay_skipped(const cloth__delaunay *dt)
{
    return dt->skipped;
}

int *cloth__delaunay_triangles(const cloth__delaunay *dt, int *n_tris)
{
    int count = 0;
    for (int t = 0; t < dt->n_tris; t++)
        count += dt->mark[t] >= 0 && dt->v[3 * t] < dt->n_points &&
                 dt->v[3 * t + 1] < dt->n_points && dt->v[3 * t + 2] < dt->n_points;
    int *out = malloc(sizeof(int) * 3 * (size_t)(count + 1));
    if (!out)
        return NULL;
    int m = 0;
    for (int t = 0; t < dt->n_tris; t++) {
        const int *v = dt->v + 3 * t;
        if (dt->mark[t] >= 0 && v[0] < dt->n_points && v[1] < dt->n_points &&
            v[2] < dt->n_points) {
            memcpy(out + 3 * m, v, sizeof(int) * 3);
            m++;
        }
    }
    *n_tris = m;
    return out;
}
