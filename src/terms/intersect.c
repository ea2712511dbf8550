/* Cloth-cloth intersections: an exact edge-triangle test and a grid broad phase; see
 * intersect.h for what counts and why. */
#include "terms/intersect.h"

#include "terms/broad_phase.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ exact orient */

/* Error-free transformations (Shewchuk 1997, after Dekker 1971 and Knuth): with
 * round-to-nearest and no overflow or underflow, a + b = s + e and a b = p + e exactly.
 * They need every operation rounded on its own: the build's -ffp-contract=off keeps the
 * compiler from fusing them. */
static void two_sum(double a, double b, double *s, double *e)
{
    double x = a + b, bv = x - a, av = x - bv;
    *s = x;
    *e = (a - av) + (b - bv);
}

/* a = hi + lo with hi and lo of at most 26 significant bits each (2^27 + 1 = 134217729) */
static void split(double a, double *hi, double *lo)
{
    double c = 134217729.0 * a, big = c - a;
    *hi = c - big;
    *lo = a - *hi;
}

static void two_product(double a, double b, double *p, double *e)
{
    double ahi, alo, bhi, blo, x = a * b;
    split(a, &ahi, &alo);
    split(b, &bhi, &blo);
    *p = x;
    *e = alo * blo - (((x - ahi * bhi) - alo * bhi) - ahi * blo);
}

/* Adds b to the nonoverlapping expansion e[0..n) (increasing magnitude) in place,
 * dropping zero components (Shewchuk's Grow-Expansion); returns the new length. */
static int grow_expansion(double *e, int n, double b)
{
    int m = 0;
    double q = b, h;
    for (int i = 0; i < n; i++) {
        two_sum(q, e[i], &q, &h);
        if (h != 0)
            e[m++] = h;
    }
    if (q != 0)
        e[m++] = q;
    return m;
}

/* Adds sign u v w to the expansion exactly: u v = p + e, then p w and e w each split in
 * two, four doubles that sum to u v w. */
static int grow_triple(double *exp, int n, double sign, double u, double v, double w)
{
    double p, e, p1, e1, p2, e2;
    two_product(u, v, &p, &e);
    two_product(p, w, &p1, &e1);
    two_product(e, w, &p2, &e2);
    n = grow_expansion(exp, n, sign * e2);
    n = grow_expansion(exp, n, sign * p2);
    n = grow_expansion(exp, n, sign * e1);
    return grow_expansion(exp, n, sign * p1);
}

/* The exact sign of det [a - d; b - d; c - d].  Subtracting the last row of
 *   | a 1 |
 *   | b 1 |      from the others and expanding along the column of ones gives
 *   | c 1 |      |abc| - |abd| + |acd| - |bcd|,  |uvw| = u.(v x w),
 *   | d 1 |
 * 24 products of three input coordinates, summed without rounding.  Slow (96 terms),
 * but only reached when the filtered estimate cannot decide. */
static int orient3d_exact(const double *a, const double *b, const double *c, const double *d)
{
    const double *rows[4][3] = {{a, b, c}, {a, b, d}, {a, c, d}, {b, c, d}};
    static const double minor_sign[4] = {1, -1, 1, -1};
    /* u.(v x w) = sum over the even permutations (i j k) of u_i v_j w_k minus the odd */
    static const int perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
                                   {0, 2, 1}, {1, 0, 2}, {2, 1, 0}};
    double exp[96];
    int n = 0;
    for (int m = 0; m < 4; m++)
        for (int p = 0; p < 6; p++) {
            double sign = p < 3 ? minor_sign[m] : -minor_sign[m];
            n = grow_triple(exp, n, sign, rows[m][0][perm[p][0]], rows[m][1][perm[p][1]],
                            rows[m][2][perm[p][2]]);
        }
    /* a nonoverlapping expansion has the sign of its largest component */
    return n == 0 ? 0 : exp[n - 1] > 0 ? 1 : -1;
}

int cloth__orient3d(const double a[3], const double b[3], const double c[3],
                    const double d[3])
{
    double adx = a[0] - d[0], bdx = b[0] - d[0], cdx = c[0] - d[0];
    double ady = a[1] - d[1], bdy = b[1] - d[1], cdy = c[1] - d[1];
    double adz = a[2] - d[2], bdz = b[2] - d[2], cdz = c[2] - d[2];
    double bdxcdy = bdx * cdy, cdxbdy = cdx * bdy;
    double cdxady = cdx * ady, adxcdy = adx * cdy;
    double adxbdy = adx * bdy, bdxady = bdx * ady;
    double det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
    double permanent = (fabs(bdxcdy) + fabs(cdxbdy)) * fabs(adz) +
                       (fabs(cdxady) + fabs(adxcdy)) * fabs(bdz) +
                       (fabs(adxbdy) + fabs(bdxady)) * fabs(cdz);
    /* Shewchuk's o3derrboundA = (7 + 56 eps) eps, eps = 2^-53: |det - exact| is below
     * this times the permanent, so a larger |det| has the exact sign. */
    const double eps = 0x1p-53, bound = (7.0 + 56.0 * eps) * eps * permanent;
    if (det > bound)
        return 1;
    if (-det > bound)
        return -1;
    /* A zero permanent means each of the six products has a zero factor, and a rounded
     * difference is zero only when the exact one is: the determinant is exactly 0 (the
     * common case of a sheet lying in an axis plane). */
    if (permanent == 0)
        return 0;
    return orient3d_exact(a, b, c, d);
}

/* ------------------------------------------------------------- narrow phase */

int cloth__edge_meets_triangle(const double p[3], const double q[3], const double a[3],
                               const double b[3], const double c[3])
{
    /* the closed segment reaches the plane at one point X (a degenerate triangle has
     * no plane: every orient is 0 and it falls out here as coplanar) */
    int sp = cloth__orient3d(a, b, c, p), sq = cloth__orient3d(a, b, c, q);
    if (sp == sq) /* both on one side, or both in the plane */
        return 0;
    /* X in the closed triangle: its barycentric signs agree (zeros agree with both) */
    int s1 = cloth__orient3d(p, q, a, b), s2 = cloth__orient3d(p, q, b, c);
    if (s1 * s2 < 0)
        return 0;
    int s3 = cloth__orient3d(p, q, c, a);
    return s1 * s3 >= 0 && s2 * s3 >= 0;
}

/* ------------------------------------------------------------- broad phase */

struct cloth__intersect {
    int n;              /* vertices of the mesh                                      */
    int n_tris;         /* triangles of the mesh                                     */
    int n_edges;        /* unique triangle edges                                     */
    int *edges;         /* 2 n_edges vertex indices, smaller first                   */
    uint32_t mask;      /* buckets - 1 (buckets is a power of two >= 2 n_tris)       */
    double *box;        /* 6 n_tris: each triangle's box, lower corner then upper    */
    int *cell;          /* 3 n_tris: grid cell of a small triangle's lower corner    */
    uint32_t *bucket;   /* n_tris: its bucket                                        */
    int *start;         /* buckets + 1: first slot of each bucket                    */
    double *slot_box;   /* 6 per slot: the box of the small triangle in the slot,    */
    int *slot_cell;     /* 3 per slot: its cell, and                                 */
    int *slot_vert;     /* 3 per slot: its vertices, copied so that a bucket is read */
                        /* from consecutive memory                                   */
    int *slot_tri;      /* per slot: the triangle's index (to name it)               */
    int *big;           /* triangles too large for the grid                          */
};

cloth_status cloth__intersect_create(const cloth_mesh *mesh, cloth__intersect **out,
                                     cloth_error *err)
{
    *out = NULL;
    int n = mesh->n, nt = mesh->n_tris;
    if (n < 0 || nt < 0 || nt > (1 << 26)) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "intersections: %d vertices, %d triangles (need 0 <= triangles < 2^26)",
                     n, nt);
        return CLOTH_EINVAL;
    }
    for (int k = 0; k < 3 * nt; k++)
        if (mesh->tris[k] < 0 || mesh->tris[k] >= n) {
            if (err)
                snprintf(err->msg, sizeof err->msg,
                         "intersections: triangle %d names vertex %d of %d", k / 3,
                         mesh->tris[k], n);
            return CLOTH_EINVAL;
        }
    cloth__intersect *w = calloc(1, sizeof *w);
    if (!w)
        goto fail_alloc;
    uint32_t buckets = 2;
    while (buckets < 2u * (uint32_t)nt)
        buckets <<= 1;
    w->n = n;
    w->n_tris = nt;
    w->mask = buckets - 1;
    w->edges = malloc((6 * (size_t)nt + 2) * sizeof *w->edges);
    w->box = malloc((6 * (size_t)nt + 1) * sizeof *w->box);
    w->cell = malloc((3 * (size_t)nt + 1) * sizeof *w->cell);
    w->bucket = malloc(((size_t)nt + 1) * sizeof *w->bucket);
    w->start = malloc(((size_t)buckets + 1) * sizeof *w->start);
    w->slot_box = malloc((6 * (size_t)nt + 1) * sizeof *w->slot_box);
    w->slot_cell = malloc((3 * (size_t)nt + 1) * sizeof *w->slot_cell);
    w->slot_vert = malloc((3 * (size_t)nt + 1) * sizeof *w->slot_vert);
    w->slot_tri = malloc(((size_t)nt + 1) * sizeof *w->slot_tri);
    w->big = malloc(((size_t)nt + 1) * sizeof *w->big);
    if (!w->edges || !w->box || !w->cell || !w->bucket || !w->start || !w->slot_box ||
        !w->slot_cell || !w->slot_vert || !w->slot_tri || !w->big)
        goto fail_alloc;

    w->n_edges = cloth__triangle_edges(mesh, w->edges);
    *out = w;
    return CLOTH_OK;

fail_alloc:
    cloth__intersect_destroy(w);
    if (err)
        snprintf(err->msg, sizeof err->msg,
                 "intersections: out of memory for %d triangles", nt);
    return CLOTH_ENOMEM;
}

void cloth__intersect_destroy(cloth__intersect *w)
{
    if (!w)
        return;
    free(w->edges);
    free(w->box);
    free(w->cell);
    free(w->bucket);
    free(w->start);
    free(w->slot_box);
    free(w->slot_cell);
    free(w->slot_vert);
    free(w->slot_tri);
    free(w->big);
    free(w);
}

int cloth__intersect_edge_count(const cloth__intersect *w)
{
    return w->n_edges;
}

/* Teschner et al. 2003's hash of a cell (three large primes, xor). */
static uint32_t hash_cell(int i, int j, int k, uint32_t mask)
{
    uint64_t h = ((uint64_t)(int64_t)i * 73856093u) ^ ((uint64_t)(int64_t)j * 19349663u) ^
                 ((uint64_t)(int64_t)k * 83492791u);
    return (uint32_t)(h ^ (h >> 32)) & mask;
}

/* The grid: origin o, 1/s, half = s/2 (the largest box extent it stores), and
 * reach = half (1 + 2^-10), how far below an edge's box a stored box's corner can be,
 * with room for rounding. */
typedef struct {
    double o[3], inv, half, reach;
} grid;

/* Cell index along one axis of v - shift.  The cell edge keeps (v - o)/s below
 * 2^30 + 1, so the rounding of this is below 1e-6 of a cell and the index fits an int
 * (a truncation corrected downwards is floor here, without a libm call). */
static int cell_of(const grid *g, double v, double shift, int axis)
{
    double c = ((v - g->o[axis]) - shift) * g->inv;
    int i = (int)c;
    return i - (i > c);
}

static double min3(double p, double q, double r)
{
    double m = p < q ? p : q;
    return m < r ? m : r;
}

static double max3(double p, double q, double r)
{
    double m = p > q ? p : q;
    return m > r ? m : r;
}

/* The edge (p, q) (vertices ei, ej, box elo..ehi) against the triangle with vertices v
 * and box tb: shared vertex, boxes, exact test.  Boxes are compared closed: touching
 * boxes can hold touching primitives. */
static int test_pair(const double *x, int ei, int ej, const double *elo, const double *ehi,
                     const int *v, const double *tb)
{
    if (v[0] == ei || v[1] == ei || v[2] == ei || v[0] == ej || v[1] == ej || v[2] == ej)
        return 0;
    for (int d = 0; d < 3; d++)
        if (elo[d] > tb[3 + d] || tb[d] > ehi[d])
            return 0;
    return cloth__edge_meets_triangle(x + 3 * ei, x + 3 * ej, x + 3 * v[0], x + 3 * v[1],
                                      x + 3 * v[2]);
}

/* Boxes of the triangles and the cell edge s = 2 min(max extent, 4 mean extent), made
 * large enough that the box of the whole mesh spans at most 2^30 cells; the grid's origin
 * is that box's lower corner. */
static void fit_grid(cloth__intersect *w, const cloth_mesh *mesh, const double *x, grid *g)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    double ext_max = 0, ext_sum = 0;
    for (int t = 0; t < w->n_tris; t++) {
        const int *v = mesh->tris + 3 * t;
        double *b = w->box + 6 * t, ext = 0;
        for (int d = 0; d < 3; d++) {
            b[d] = min3(x[3 * v[0] + d], x[3 * v[1] + d], x[3 * v[2] + d]);
            b[3 + d] = max3(x[3 * v[0] + d], x[3 * v[1] + d], x[3 * v[2] + d]);
            ext = max3(ext, b[3 + d] - b[d], 0);
            lo[d] = lo[d] < b[d] ? lo[d] : b[d];
            hi[d] = hi[d] > b[3 + d] ? hi[d] : b[3 + d];
        }
        ext_max = ext_max > ext ? ext_max : ext;
        ext_sum += ext;
    }
    double cap = 4 * ext_sum / w->n_tris;
    double half = ext_max < cap ? ext_max : cap;
    double span = max3(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
    double s = 2 * half;
    if (s < span * 0x1p-30)
        s = span * 0x1p-30;
    if (!(s > 0))
        s = 1; /* every vertex at one point: any cell will do */
    for (int d = 0; d < 3; d++)
        g->o[d] = lo[d];
    g->inv = 1 / s;
    g->half = s / 2;
    g->reach = g->half + g->half * 0x1p-10;
}

/* Small triangles (box extent <= s/2) counting-sorted into buckets by the cell of their
 * box's lower corner; the others listed as big.  Returns the number of big ones. */
static int fill_grid(cloth__intersect *w, const cloth_mesh *mesh, const grid *g)
{
    uint32_t buckets = w->mask + 1;
    int n_big = 0;
    for (uint32_t b = 0; b <= buckets; b++)
        w->start[b] = 0;
    for (int t = 0; t < w->n_tris; t++) {
        const double *b = w->box + 6 * t;
        int *c = w->cell + 3 * t;
        if (b[3] - b[0] > g->half || b[4] - b[1] > g->half || b[5] - b[2] > g->half) {
            w->big[n_big++] = t;
            w->bucket[t] = UINT32_MAX;
            continue;
        }
        for (int d = 0; d < 3; d++)
            c[d] = cell_of(g, b[d], 0, d);
        w->bucket[t] = hash_cell(c[0], c[1], c[2], w->mask);
        w->start[w->bucket[t] + 1]++;
    }
    for (uint32_t b = 0; b < buckets; b++)
        w->start[b + 1] += w->start[b];
    for (int t = 0; t < w->n_tris; t++) {
        if (w->bucket[t] == UINT32_MAX)
            continue;
        int slot = w->start[w->bucket[t]]++;
        memcpy(w->slot_box + 6 * slot, w->box + 6 * t, 6 * sizeof *w->slot_box);
        memcpy(w->slot_cell + 3 * slot, w->cell + 3 * t, 3 * sizeof *w->slot_cell);
        memcpy(w->slot_vert + 3 * slot, mesh->tris + 3 * t, 3 * sizeof *w->slot_vert);
        w->slot_tri[slot] = t;
    }
    for (uint32_t b = buckets; b > 0; b--) /* undo the shift the fill left behind */
        w->start[b] = w->start[b - 1];
    w->start[0] = 0;
    return n_big;
}

/* The smallest triangle index met so far (*first) and the count, for one more hit. */
static long hit(int met, int tri, int *first)
{
    if (met && first && (*first < 0 || tri < *first))
        *first = tri;
    return met;
}

/* The small triangles that can touch an edge's box lo..hi, the edge's cells being
 * c0..c1 (the cells of lo - reach and of hi).  Such a triangle's lower corner m has
 * lo - s/2 <= m <= hi on each axis, so its cell lies in that range (rounding moves an
 * index by < 1e-6 of a cell, inside the 2^-11 cell of slack that reach leaves).  Cells
 * may share a bucket: each bucket is read once and a triangle is taken only when its
 * own cell is in the range, so each is tested once. */
static long count_grid(const cloth__intersect *w, const double *x, const int *c0,
                       const int *c1, int ei, int ej, const double *lo, const double *hi,
                       int *first)
{
    uint32_t seen[27];
    int n_seen = 0;
    long count = 0;
    for (int i = c0[0]; i <= c1[0]; i++)
        for (int j = c0[1]; j <= c1[1]; j++)
            for (int k = c0[2]; k <= c1[2]; k++) {
                uint32_t b = hash_cell(i, j, k, w->mask);
                int dup = 0;
                for (int s = 0; s < n_seen && !dup; s++)
                    dup = seen[s] == b;
                if (dup)
                    continue;
                seen[n_seen++] = b;
                for (int s = w->start[b]; s < w->start[b + 1]; s++) {
                    const int *c = w->slot_cell + 3 * s;
                    if (c[0] < c0[0] || c[0] > c1[0] || c[1] < c0[1] || c[1] > c1[1] ||
                        c[2] < c0[2] || c[2] > c1[2])
                        continue;
                    count += hit(test_pair(x, ei, ej, lo, hi, w->slot_vert + 3 * s,
                                           w->slot_box + 6 * s),
                                 w->slot_tri[s], first);
                }
            }
    return count;
}

/* The pairs of edge e that count, on the grid g with n_big large triangles; *first, if
 * not NULL, gets the smallest index of a triangle met (or stays as it was). */
static long count_edge(const cloth__intersect *w, const cloth_mesh *mesh, const double *x,
                       const grid *g, int n_big, int e, int *first)
{
    int ei = w->edges[2 * e], ej = w->edges[2 * e + 1];
    double lo[3], hi[3];
    int c0[3], c1[3], few = 1;
    long count = 0;
    for (int d = 0; d < 3; d++) {
        double p = x[3 * ei + d], q = x[3 * ej + d];
        lo[d] = p < q ? p : q;
        hi[d] = p < q ? q : p;
        c0[d] = cell_of(g, lo[d], g->reach, d);
        c1[d] = cell_of(g, hi[d], 0, d);
        few = few && c1[d] - c0[d] <= 2;
    }
    /* an edge no longer than s/2 spans at most 3 cells per axis (2 most often); a
     * longer one that spans more is tested against every triangle */
    if (few) {
        count += count_grid(w, x, c0, c1, ei, ej, lo, hi, first);
        for (int b = 0; b < n_big; b++)
            count += hit(test_pair(x, ei, ej, lo, hi, mesh->tris + 3 * w->big[b],
                                   w->box + 6 * w->big[b]),
                         w->big[b], first);
    } else {
        for (int t = 0; t < w->n_tris; t++)
            count += hit(test_pair(x, ei, ej, lo, hi, mesh->tris + 3 * t, w->box + 6 * t), t,
                         first);
    }
    return count;
}

/* The grid of the triangles at x, with *n_big the triangles too large for it: 1, or -1
 * when a position is not finite, or 0 when there are no triangles (nothing to count). */
static int begin_count(const cloth_mesh *mesh, const double *x, cloth__intersect *w, grid *g,
                       int *n_big)
{
    for (int k = 0; k < 3 * w->n; k++)
        if (!isfinite(x[k]))
            return -1;
    if (w->n_tris == 0)
        return 0;
    fit_grid(w, mesh, x, g);
    *n_big = fill_grid(w, mesh, g);
    return 1;
}

long cloth__count_intersections(const cloth_mesh *mesh, const double *x,
                                cloth__intersect *w)
{
    grid g;
    int n_big, ready = begin_count(mesh, x, w, &g, &n_big);
    if (ready <= 0)
        return ready;
    long count = 0;
    for (int e = 0; e < w->n_edges; e++)
        count += count_edge(w, mesh, x, &g, n_big, e, NULL);
    return count;
}

int cloth__first_intersection(const cloth_mesh *mesh, const double *x, cloth__intersect *w,
                              int *a, int *b, int *tri)
{
    grid g;
    int n_big, ready = begin_count(mesh, x, w, &g, &n_big);
    if (ready <= 0)
        return ready;
    for (int e = 0; e < w->n_edges; e++) {
        int first = -1;
        if (count_edge(w, mesh, x, &g, n_big, e, &first) > 0) {
            *a = w->edges[2 * e];
            *b = w->edges[2 * e + 1];
            *tri = first;
            return 1;
        }
    }
    return 0;
}
