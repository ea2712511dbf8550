/*
 * A panel's mesh from its outline (the mass-spring cloth paper's pipeline):
 *   1. each outline edge of length L is cut into ceil(L / h) equal segments;
 *   2. points on the equilateral lattice of spacing h (rows h sqrt(3)/2 apart, every
 *      other row shifted by h/2: no four neighbours on one circle, unlike a square
 *      grid, and the Delaunay triangles of its inside are equilateral) fill the
 *      bounding box; those outside the outline, or closer to it than
 *      CLOTH_OUTLINE_CLEARANCE h, are removed: a lattice point nearer the outline than
 *      that would make a thin triangle with two outline points;
 *   3. Bowyer–Watson (delaunay.c) triangulates outline and lattice points together;
 *   4. an outline segment that is not a triangle edge is split at its midpoint (the new
 *      point inserted into the same triangulation) until every one is: the outline is
 *      then a union of edges, so
 *   5. a triangle is inside exactly when its centroid is, and the kept triangles' areas
 *      sum to the polygon's area (up to rounding).
 */
#include "garment/mesh_outline.h"
#include "core/status.h"
#include "garment/delaunay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RECOVERY_ROUNDS 40

double cloth__polygon_area(const double *c, int n)
{
    double a = 0;
    for (int i = 0; i < n; i++) {
        const double *p = c + 2 * i, *q = c + 2 * ((i + 1) % n);
        a += p[0] * q[1] - q[0] * p[1];
    }
    return 0.5 * a;
}

int cloth__polygon_contains(const double *c, int n, double x, double y)
{
    int in = 0;
    for (int i = 0, j = n - 1; i < n; j = i++) {
        const double *p = c + 2 * i, *q = c + 2 * j;
        if ((p[1] > y) != (q[1] > y) &&
            x < (q[0] - p[0]) * (y - p[1]) / (q[1] - p[1]) + p[0])
            in = !in;
    }
    return in;
}

/* Distance from (x, y) to the segment p q. */
static double segment_distance(const double *p, const double *q, double x, double y)
{
    double dx = q[0] - p[0], dy = q[1] - p[1], l2 = dx * dx + dy * dy;
    double t = l2 > 0 ? ((x - p[0]) * dx + (y - p[1]) * dy) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double ex = p[0] + t * dx - x, ey = p[1] + t * dy - y;
    return sqrt(ex * ex + ey * ey);
}

static double outline_distance(const double *c, int n, double x, double y)
{
    double d = HUGE_VAL;
    for (int i = 0; i < n; i++)
        d = fmin(d, segment_distance(c + 2 * i, c + 2 * ((i + 1) % n), x, y));
    return d;
}

static double angle_at(const double *a, const double *b, const double *c)
{
    double u[2] = {b[0] - a[0], b[1] - a[1]}, w[2] = {c[0] - a[0], c[1] - a[1]};
    return atan2(fabs(u[0] * w[1] - u[1] * w[0]), u[0] * w[0] + u[1] * w[1]);
}

void cloth__panel_mesh_measure(cloth__panel_mesh *pm)
{
    double smallest = M_PI, area = 0;
    for (int t = 0; t < pm->n_tris; t++) {
        const double *a = pm->uv + 2 * pm->tris[3 * t], *b = pm->uv + 2 * pm->tris[3 * t + 1],
                     *c = pm->uv + 2 * pm->tris[3 * t + 2];
        smallest = fmin(smallest, fmin(angle_at(a, b, c), fmin(angle_at(b, c, a),
                                                               angle_at(c, a, b))));
        area += 0.5 * ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
    }
    pm->min_angle = smallest * 180 / M_PI;
    pm->area = area;
}

/* ------------------------------------------------------------ edge lookup */

static int pair_cmp(const void *x, const void *y)
{
    const long long *p = x, *q = y;
    return (*p > *q) - (*p < *q);
}

static long long pair_key(int a, int b)
{
    return a < b ? ((long long)a << 32) | (unsigned)b : ((long long)b << 32) | (unsigned)a;
}

/* Sorted keys of every triangle edge (with repeats). */
static long long *edge_keys(const int *tris, int n_tris)
{
    long long *k = malloc(sizeof(long long) * 3 * (size_t)(n_tris + 1));
    if (!k)
        return NULL;
    for (int t = 0; t < n_tris; t++)
        for (int e = 0; e < 3; e++)
            k[3 * t + e] = pair_key(tris[3 * t + e], tris[3 * t + (e + 1) % 3]);
    qsort(k, (size_t)(3 * n_tris), sizeof *k, pair_cmp);
    return k;
}

static int has_key(const long long *keys, int n, long long key)
{
    return bsearch(&key, keys, (size_t)n, sizeof key, pair_cmp) != NULL;
}

/* ----------------------------------------------------------------- meshing */

/* Outline points: ceil(L / h) segments per edge.  Returns the count, or -1 when out of
 * memory; *pts holds them (2 each), *edge_of the edge each one starts. */
static int outline_points(const double *c, int n, double h, double **pts, int **edge_of)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        const double *p = c + 2 * i, *q = c + 2 * ((i + 1) % n);
        count += (int)fmax(1, ceil(hypot(q[0] - p[0], q[1] - p[1]) / h - 1e-9));
    }
    *pts = malloc(sizeof(double) * 2 * (size_t)count);
    *edge_of = malloc(sizeof(int) * (size_t)count);
    if (!*pts || !*edge_of)
        return -1;
    int k = 0;
    for (int i = 0; i < n; i++) {
        const double *p = c + 2 * i, *q = c + 2 * ((i + 1) % n);
        int m = (int)fmax(1, ceil(hypot(q[0] - p[0], q[1] - p[1]) / h - 1e-9));
        for (int j = 0; j < m; j++) {
            double t = (double)j / m;
            (*pts)[2 * k] = p[0] + t * (q[0] - p[0]);
            (*pts)[2 * k + 1] = p[1] + t * (q[1] - p[1]);
            (*edge_of)[k++] = i;
        }
    }
    return count;
}

/* Appends the lattice points inside the outline and at least clearance h from it. */
static int lattice_points(const double *c, int n, double h, double **pts, int *count)
{
    double lo[2] = {HUGE_VAL, HUGE_VAL}, hi[2] = {-HUGE_VAL, -HUGE_VAL};
    for (int i = 0; i < 2 * n; i++) {
        lo[i % 2] = fmin(lo[i % 2], c[i]);
        hi[i % 2] = fmax(hi[i % 2], c[i]);
    }
    double dy = h * sqrt(3) / 2;
    int rows = (int)((hi[1] - lo[1]) / dy) + 1, cols = (int)((hi[0] - lo[0]) / h) + 2;
    /* centre the lattice in the box so that a symmetric panel gets a symmetric mesh */
    double y0 = lo[1] + 0.5 * (hi[1] - lo[1] - (rows - 1) * dy);
    double x0 = lo[0] + 0.5 * (hi[0] - lo[0] - (cols - 1.5) * h);
    double *p = realloc(*pts, sizeof(double) * 2 * (size_t)(*count + rows * cols));
    if (!p)
        return 1;
    *pts = p;
    for (int r = 0; r < rows; r++)
        for (int q = 0; q < cols; q++) {
            double x = x0 + (q + 0.5 * (r & 1)) * h, y = y0 + r * dy;
            if (!cloth__polygon_contains(c, n, x, y) ||
                outline_distance(c, n, x, y) < CLOTH_OUTLINE_CLEARANCE * h)
                continue;
            p[2 * *count] = x;
            p[2 * *count + 1] = y;
            (*count)++;
        }
    return 0;
}

/* Inserts the midpoint of every outline segment that is not a triangle edge, until all
 * are.  boundary/edge_of grow with the points (cap entries).  Returns the status. */
static cloth_status recover_segments(cloth__delaunay *dt, int **boundary, int **edge_of,
                                     int *n_boundary, int *recovered)
{
    for (int round = 0; round < MAX_RECOVERY_ROUNDS; round++) {
        int n_tris;
        int *tris = cloth__delaunay_triangles(dt, &n_tris);
        long long *keys = tris ? edge_keys(tris, n_tris) : NULL;
        free(tris);
        if (!keys)
            return CLOTH_ENOMEM;
        int nb = *n_boundary, missing = 0;
        int *b = malloc(sizeof(int) * 2 * (size_t)nb), *e = malloc(sizeof(int) * 2 * (size_t)nb);
        if (!b || !e) {
            free(keys);
            free(b);
            free(e);
            return CLOTH_ENOMEM;
        }
        int m = 0;
        for (int j = 0; j < nb; j++) {
            int u = (*boundary)[j], w = (*boundary)[(j + 1) % nb];
            b[m] = u;
            e[m++] = (*edge_of)[j];
            if (has_key(keys, 3 * n_tris, pair_key(u, w)))
                continue;
            int np;
            const double *xy = cloth__delaunay_points(dt, &np);
            double mx = 0.5 * (xy[2 * u] + xy[2 * w]), my = 0.5 * (xy[2 * u + 1] + xy[2 * w + 1]);
            int mid;
            cloth_status st = cloth__delaunay_insert(dt, mx, my, &mid);
            if (st != CLOTH_OK) {
                free(keys);
                free(b);
                free(e);
                return st;
            }
            b[m] = mid;
            e[m++] = (*edge_of)[j];
            missing++;
        }
        free(keys);
        free(*boundary);
        free(*edge_of);
        *boundary = b;
        *edge_of = e;
        *n_boundary = m;
        *recovered += missing;
        if (!missing)
            return CLOTH_OK;
    }
    return CLOTH_ENUMERIC;
}

/* Keeps the triangles whose centroid is inside and renumbers the vertices they use. */
static cloth_status keep_inside(const cloth__delaunay *dt, const double *c, int n,
                                cloth__panel_mesh *pm, const int *boundary, const int *edge_of,
                                int n_boundary)
{
    int n_tris, np;
    int *tris = cloth__delaunay_triangles(dt, &n_tris);
    const double *xy = cloth__delaunay_points(dt, &np);
    int *map = malloc(sizeof(int) * (size_t)(np + 1));
    if (!tris || !map) {
        free(tris);
        free(map);
        return CLOTH_ENOMEM;
    }
    int kept = 0;
    for (int t = 0; t < n_tris; t++) {
        const int *v = tris + 3 * t;
        double gx = (xy[2 * v[0]] + xy[2 * v[1]] + xy[2 * v[2]]) / 3;
        double gy = (xy[2 * v[0] + 1] + xy[2 * v[1] + 1] + xy[2 * v[2] + 1]) / 3;
        if (cloth__polygon_contains(c, n, gx, gy))
            memmove(tris + 3 * kept++, v, sizeof(int) * 3);
    }
    for (int i = 0; i < np; i++)
        map[i] = -1;
    /* the outline vertices first, in order, then the others in order of use */
    int nv = 0;
    for (int j = 0; j < n_boundary; j++)
        if (map[boundary[j]] < 0)
            map[boundary[j]] = nv++;
    for (int i = 0; i < 3 * kept; i++)
        if (map[tris[i]] < 0)
            map[tris[i]] = nv++;
    pm->n = nv;
    pm->uv = malloc(sizeof(double) * 2 * (size_t)nv);
    pm->n_tris = kept;
    pm->n_boundary = n_boundary;
    pm->boundary = malloc(sizeof(int) * (size_t)(n_boundary + 1));
    pm->boundary_edge = malloc(sizeof(int) * (size_t)(n_boundary + 1));
    if (!pm->uv || !pm->boundary || !pm->boundary_edge) {
        free(tris);
        free(map);
        return CLOTH_ENOMEM;
    }
    for (int i = 0; i < np; i++)
        if (map[i] >= 0)
            memcpy(pm->uv + 2 * map[i], xy + 2 * i, sizeof(double) * 2);
    for (int i = 0; i < 3 * kept; i++)
        tris[i] = map[tris[i]];
    pm->tris = tris;
    for (int j = 0; j < n_boundary; j++) {
        pm->boundary[j] = map[boundary[j]];
        pm->boundary_edge[j] = edge_of[j];
    }
    free(map);
    return CLOTH_OK;
}

cloth_status cloth__mesh_outline(const double *c, int n, double h, const char *what,
                                 cloth__panel_mesh *pm, cloth_error *err)
{
    memset(pm, 0, sizeof *pm);
    if (n < 3 || !(h > 0))
        return cloth__fail(err, CLOTH_EINVAL, "%s: an outline needs 3 corners and an edge "
                           "length > 0", what);
    double *pts = NULL;
    int *edge_of = NULL, *boundary = NULL;
    cloth__delaunay *dt = NULL;
    cloth_status st = CLOTH_ENOMEM;
    int nb = outline_points(c, n, h, &pts, &edge_of), count = nb;
    if (nb < 0 || lattice_points(c, n, h, &pts, &count))
        goto fail;
    boundary = malloc(sizeof(int) * (size_t)nb);
    if (!boundary)
        goto fail;
    for (int j = 0; j < nb; j++)
        boundary[j] = j;
    st = cloth__delaunay_create(pts, count, &dt, err);
    if (st != CLOTH_OK) {
        free(pts);
        free(edge_of);
        free(boundary);
        char why[CLOTH_MSG_MAX];
        snprintf(why, sizeof why, "%s", err ? err->msg : "");
        return cloth__fail(err, st, "%s: %s", what, why);
    }
    free(pts);
    pts = NULL;
    st = recover_segments(dt, &boundary, &edge_of, &nb, &pm->recovered);
    if (st == CLOTH_ENUMERIC) {
        cloth__delaunay_destroy(dt);
        free(edge_of);
        free(boundary);
        return cloth__fail(err, st, "%s: the outline's segments could not all be made mesh "
                           "edges in %d rounds of midpoint insertion", what,
                           MAX_RECOVERY_ROUNDS);
    }
    if (st == CLOTH_OK)
        st = keep_inside(dt, c, n, pm, boundary, edge_of, nb);
    if (st != CLOTH_OK)
        goto fail;
    cloth__delaunay_destroy(dt);
    free(edge_of);
    free(boundary);
    cloth__panel_mesh_measure(pm);
    return CLOTH_OK;
fail:
    cloth__delaunay_destroy(dt);
    free(pts);
    free(edge_of);
    free(boundary);
    cloth__panel_mesh_free(pm);
    return cloth__fail(err, st, "%s: out of memory meshing the outline", what);
}

void cloth__panel_mesh_free(cloth__panel_mesh *pm)
{
    free(pm->uv);
    free(pm->tris);
    free(pm->boundary);
    free(pm->boundary_edge);
    memset(pm, 0, sizeof *pm);
}

cloth_status cloth__panel_mesh_split(cloth__panel_mesh *pm, int j, double t, int *index)
{
    int u = pm->boundary[j], w = pm->boundary[(j + 1) % pm->n_boundary], tri = -1, k = 0;
    for (int s = 0; s < pm->n_tris && tri < 0; s++)
        for (k = 0; k < 3; k++) {
            int a = pm->tris[3 * s + k], b = pm->tris[3 * s + (k + 1) % 3];
            if ((a == u && b == w) || (a == w && b == u)) {
                tri = s;
                break;
            }
        }
    if (tri < 0)
        return CLOTH_EINVAL;
    double *uv = realloc(pm->uv, sizeof(double) * 2 * (size_t)(pm->n + 1));
    if (!uv)
        return CLOTH_ENOMEM;
    pm->uv = uv;
    int *tris = realloc(pm->tris, sizeof(int) * 3 * (size_t)(pm->n_tris + 1));
    if (!tris)
        return CLOTH_ENOMEM;
    pm->tris = tris;
    int *b = realloc(pm->boundary, sizeof(int) * (size_t)(pm->n_boundary + 1));
    if (!b)
        return CLOTH_ENOMEM;
    pm->boundary = b;
    int *be = realloc(pm->boundary_edge, sizeof(int) * (size_t)(pm->n_boundary + 1));
    if (!be)
        return CLOTH_ENOMEM;
    pm->boundary_edge = be;
    int m = pm->n++;
    uv[2 * m] = (1 - t) * uv[2 * u] + t * uv[2 * w];
    uv[2 * m + 1] = (1 - t) * uv[2 * u + 1] + t * uv[2 * w + 1];
    /* triangle (a, b, o) with edge a b the segment becomes (a, m, o) and (m, b, o) */
    int *v = tris + 3 * tri, a = v[k], bb = v[(k + 1) % 3], o = v[(k + 2) % 3];
    v[0] = a;
    v[1] = m;
    v[2] = o;
    int *nt = tris + 3 * pm->n_tris++;
    nt[0] = m;
    nt[1] = bb;
    nt[2] = o;
    memmove(b + j + 2, b + j + 1, sizeof(int) * (size_t)(pm->n_boundary - j - 1));
    memmove(be + j + 2, be + j + 1, sizeof(int) * (size_t)(pm->n_boundary - j - 1));
    b[j + 1] = m;
    be[j + 1] = be[j];
    pm->n_boundary++;
    *index = m;
    return CLOTH_OK;
}
