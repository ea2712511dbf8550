/* The broad phase of cloth-cloth contact; the method is in broad_phase.h. */
#include "terms/broad_phase.h"

#include "core/status.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One grid of boxes: the triangles, or the edges. */
typedef struct grid {
    int count;                  /* primitives                                         */
    int verts;                  /* vertices of each: 3 or 2                           */
    const int *vert;            /* count x verts vertex indices                       */
    double *box;                /* 6 per primitive: lo xyz, hi xyz (grown)            */
    int *cell;                  /* 3 per primitive: the cell of its lower corner      */
    int *start;                 /* buckets + 1: counting-sort offsets                 */
    int *slot;                  /* count: primitive ids sorted by bucket              */
    int *big;                   /* primitives too large for a cell                    */
    int n_big;
    double ext_max;             /* the largest extent of a box in the grid (<= s)     */
    unsigned mask;              /* buckets - 1 (a power of two)                       */
} grid;

struct cloth__broad_phase {
    const cloth_mesh *mesh;
    int *edges, n_edges;
    grid tri, edge;
    int *pt, *ee, cap;          /* the pairs of the last query                        */
    int n_pt, n_ee, overflow;
    double s;                   /* the cell edge of the last query                    */
};

static int pair_cmp(const void *a, const void *b)
{
    const int *p = a, *q = b;
    return p[0] != q[0] ? (p[0] > q[0]) - (p[0] < q[0]) : (p[1] > q[1]) - (p[1] < q[1]);
}

int cloth__triangle_edges(const cloth_mesh *mesh, int *edges)
{
    int m = 0;
    for (int t = 0; t < mesh->n_tris; t++)
        for (int k = 0; k < 3; k++) {
            int i = mesh->tris[3 * t + k], j = mesh->tris[3 * t + (k + 1) % 3];
            if (i == j)
                continue;
            edges[2 * m] = i < j ? i : j;
            edges[2 * m + 1] = i < j ? j : i;
            m++;
        }
    qsort(edges, (size_t)m, 2 * sizeof *edges, pair_cmp);
    int unique = 0;
    for (int e = 0; e < m; e++)
        if (unique == 0 || pair_cmp(edges + 2 * e, edges + 2 * (unique - 1)) != 0) {
            edges[2 * unique] = edges[2 * e];
            edges[2 * unique + 1] = edges[2 * e + 1];
            unique++;
        }
    return unique;
}

static int grid_alloc(grid *g, int count, int verts, const int *vert)
{
    unsigned buckets = 1;
    while (buckets < 2u * (unsigned)count)
        buckets <<= 1;
    *g = (grid){count, verts, vert, NULL, NULL, NULL, NULL, NULL, 0, 0, buckets - 1};
    g->box = malloc((6 * (size_t)count + 1) * sizeof *g->box);
    g->cell = malloc((3 * (size_t)count + 1) * sizeof *g->cell);
    g->start = malloc(((size_t)buckets + 1) * sizeof *g->start);
    g->slot = malloc(((size_t)count + 1) * sizeof *g->slot);
    g->big = malloc(((size_t)count + 1) * sizeof *g->big);
    return g->box && g->cell && g->start && g->slot && g->big;
}

static void grid_free(grid *g)
{
    free(g->box);
    free(g->cell);
    free(g->start);
    free(g->slot);
    free(g->big);
}

cloth_status cloth__broad_phase_create(const cloth_mesh *mesh, int max_pairs,
                                       cloth__broad_phase **out, cloth_error *err)
{
    cloth__broad_phase *bp = calloc(1, sizeof *bp);
    *out = NULL;
    if (!bp)
        return cloth__fail(err, CLOTH_ENOMEM, "broad phase: out of memory");
    bp->mesh = mesh;
    bp->cap = max_pairs > 0 ? max_pairs : 1;
    bp->edges = malloc((6 * (size_t)mesh->n_tris + 2) * sizeof *bp->edges);
    bp->pt = malloc(2 * (size_t)bp->cap * sizeof *bp->pt);
    bp->ee = malloc(2 * (size_t)bp->cap * sizeof *bp->ee);
    int ok = bp->edges && bp->pt && bp->ee;
    if (ok) {
        bp->n_edges = cloth__triangle_edges(mesh, bp->edges);
        ok = grid_alloc(&bp->tri, mesh->n_tris, 3, mesh->tris) &&
             grid_alloc(&bp->edge, bp->n_edges, 2, bp->edges);
    }
    if (!ok) {
        cloth__broad_phase_destroy(bp);
        return cloth__fail(err, CLOTH_ENOMEM, "broad phase: out of memory for %d triangles",
                           mesh->n_tris);
    }
    *out = bp;
    return CLOTH_OK;
}

void cloth__broad_phase_destroy(cloth__broad_phase *bp)
{
    if (!bp)
        return;
    grid_free(&bp->tri);
    grid_free(&bp->edge);
    free(bp->edges);
    free(bp->pt);
    free(bp->ee);
    free(bp);
}

int cloth__broad_phase_edges(const cloth__broad_phase *bp, const int **edges)
{
    *edges = bp->edges;
    return bp->n_edges;
}

/* ------------------------------------------------------------------ boxes */

/* box <- the box of vertices v[0..k) at x and x + dx, grown by half on every side. */
static void box_of(const double *x, const double *dx, const int *v, int k, double half,
                   double box[6])
{
    for (int c = 0; c < 3; c++) {
        box[c] = INFINITY;
        box[3 + c] = -INFINITY;
    }
    for (int i = 0; i < k; i++)
        for (int c = 0; c < 3; c++) {
            /* comparisons, not fmin and fmax (calls, here): they differ only in the
             * sign of a zero, which no comparison of boxes sees */
            double a = x[3 * v[i] + c], b = dx ? a + dx[3 * v[i] + c] : a;
            double lo = b < a ? b : a, hi = b > a ? b : a;
            box[c] = lo < box[c] ? lo : box[c];
            box[3 + c] = hi > box[3 + c] ? hi : box[3 + c];
        }
    for (int c = 0; c < 3; c++) {
        box[c] -= half;
        box[3 + c] += half;
    }
}

static int overlap(const double a[6], const double b[6])
{
    return a[0] <= b[3] && b[0] <= a[3] && a[1] <= b[4] && b[1] <= a[4] && a[2] <= b[5] &&
           b[2] <= a[5];
}

static double extent(const double box[6])
{
    return fmax(box[3] - box[0], fmax(box[4] - box[1], box[5] - box[2]));
}

static int cell_coord(double v, double s)
{
    double c = floor(v / s);
    if (isnan(c))
        return 0;
    return c < -1e9 ? -1000000000 : c > 1e9 ? 1000000000 : (int)c;
}

static unsigned bucket_of(const int c[3], unsigned mask)
{
    unsigned h = (unsigned)c[0] * 73856093u ^ (unsigned)c[1] * 19349663u ^
                 (unsigned)c[2] * 83492791u;
    return h & mask;
}

/* Boxes at x (over dx), then the grid with cell edge s: small boxes by bucket, large
 * ones in the big list. */
static void grid_fill(grid *g, const double *x, const double *dx, double half, double s)
{
    unsigned buckets = g->mask + 1;
    memset(g->start, 0, ((size_t)buckets + 1) * sizeof *g->start);
    g->n_big = 0;
    g->ext_max = 0;
    for (int p = 0; p < g->count; p++) {
        double *b = g->box + 6 * p;
        box_of(x, dx, g->vert + g->verts * p, g->verts, half, b);
        int *c = g->cell + 3 * p;
        for (int k = 0; k < 3; k++)
            c[k] = cell_coord(b[k], s);
        double e = extent(b);
        if (e > s) {
            g->big[g->n_big++] = p;
        } else {
            g->start[bucket_of(c, g->mask) + 1]++;
            g->ext_max = e > g->ext_max ? e : g->ext_max;
        }
    }
    for (unsigned k = 0; k < buckets; k++)
        g->start[k + 1] += g->start[k];
    for (int p = 0; p < g->count; p++)
        if (extent(g->box + 6 * p) <= s)
            g->slot[g->start[bucket_of(g->cell + 3 * p, g->mask)]++] = p;
    for (unsigned k = buckets; k > 0; k--)
        g->start[k] = g->start[k - 1];
    g->start[0] = 0;
}

/* ------------------------------------------------------------------ pairs */

typedef struct query {
    cloth__broad_phase *bp;
    const unsigned char *fixed;
    const int *qv;              /* the query primitive's vertices                     */
    int qk;                     /* and their number (1: a vertex, 2: an edge)         */
    int qid;                    /* its index (a vertex or an edge)                    */
} query;

static int shares_vertex(const int *a, int ka, const int *b, int kb)
{
    for (int i = 0; i < ka; i++)
        for (int j = 0; j < kb; j++)
            if (a[i] == b[j])
                return 1;
    return 0;
}

static int all_fixed(const unsigned char *fixed, const int *a, int ka, const int *b, int kb)
{
    if (!fixed)
        return 0;
    for (int i = 0; i < ka; i++)
        if (!fixed[a[i]])
            return 0;
    for (int j = 0; j < kb; j++)
        if (!fixed[b[j]])
            return 0;
    return 1;
}

/* Records (query, p) when their boxes overlap and they share no vertex. */
static void consider(query *q, const grid *g, int p, const double qbox[6])
{
    cloth__broad_phase *bp = q->bp;
    const int *pv = g->vert + g->verts * p;
    if (q->qk == 2 && p <= q->qid)
        return; /* each edge pair once, from its lower edge */
    if (!overlap(qbox, g->box + 6 * p) || shares_vertex(q->qv, q->qk, pv, g->verts) ||
        all_fixed(q->fixed, q->qv, q->qk, pv, g->verts))
        return;
    int *list = q->qk == 1 ? bp->pt : bp->ee, *n = q->qk == 1 ? &bp->n_pt : &bp->n_ee;
    if (*n == bp->cap) {
        bp->overflow = 1;
        return;
    }
    list[2 * *n] = q->qid;
    list[2 * *n + 1] = p;
    (*n)++;
}

/* Every primitive of g whose box overlaps qbox, each once. */
static void search(query *q, const grid *g, const double qbox[6], double s)
{
    int lo[3], hi[3], wide = 0;
    for (int k = 0; k < 3; k++) {
        lo[k] = cell_coord(qbox[k] - s, s);
        hi[k] = cell_coord(qbox[3 + k], s);
        wide |= hi[k] - lo[k] > 4;
        /* a box of the grid that meets qbox has lo >= qbox.lo - its extent >= qbox.lo -
         * ext_max: the cells below hold none (a margin for rounding), so the loop starts
         * higher; the wide test above keeps its bound, and so the pairs and their order */
        double reach = g->ext_max * (1 + 1e-7) + 8 * DBL_EPSILON * fabs(qbox[k]);
        int tight = cell_coord(qbox[k] - reach, s);
        lo[k] = tight > lo[k] ? tight : lo[k];
    }
    if (wide) { /* a long query: every primitive, big or not */
        for (int p = 0; p < g->count; p++)
            consider(q, g, p, qbox);
        return;
    }
    int c[3];
    for (c[0] = lo[0]; c[0] <= hi[0]; c[0]++)
        for (c[1] = lo[1]; c[1] <= hi[1]; c[1]++)
            for (c[2] = lo[2]; c[2] <= hi[2]; c[2]++) {
                unsigned b = bucket_of(c, g->mask);
                for (int k = g->start[b]; k < g->start[b + 1]; k++) {
                    int p = g->slot[k];
                    const int *pc = g->cell + 3 * p;
                    if (pc[0] == c[0] && pc[1] == c[1] && pc[2] == c[2])
                        consider(q, g, p, qbox);
                }
            }
    for (int k = 0; k < g->n_big; k++)
        consider(q, g, g->big[k], qbox);
}

void cloth__broad_phase_query(cloth__broad_phase *bp, const double *x, const double *dx,
                              double r, const unsigned char *fixed, cloth__broad_pairs *out)
{
    const cloth_mesh *m = bp->mesh;
    double half = 0.5 * r, sum = 0;
    bp->n_pt = bp->n_ee = bp->overflow = 0;
    /* cell edge: twice the mean extent of the grown triangle boxes */
    for (int t = 0; t < m->n_tris; t++) {
        double b[6];
        box_of(x, dx, m->tris + 3 * t, 3, half, b);
        sum += extent(b);
    }
    double s = m->n_tris ? 2 * sum / m->n_tris : 1;
    if (!(s > 0 && isfinite(s)))
        s = 1; /* a flat point set, or positions that are not finite */
    bp->s = s;
    grid_fill(&bp->tri, x, dx, half, s);
    grid_fill(&bp->edge, x, dx, half, s);
    query q = {bp, fixed, NULL, 1, 0};
    for (int v = 0; v < m->n && m->n_tris; v++) {
        double b[6];
        box_of(x, dx, &v, 1, half, b);
        q.qv = &v;
        q.qid = v;
        search(&q, &bp->tri, b, s);
    }
    q.qk = 2;
    for (int e = 0; e < bp->n_edges; e++) {
        q.qv = bp->edges + 2 * e;
        q.qid = e;
        search(&q, &bp->edge, bp->edge.box + 6 * e, s);
    }
    *out = (cloth__broad_pairs){bp->pt, bp->n_pt, bp->ee, bp->n_ee, bp->overflow};
}

/* Insertion sort of count pairs by their second entry within runs of equal first entry
 * (the runs come in ascending order already). */
static void sort_runs(int *list, int count)
{
    int run = 0;
    for (int k = 1; k <= count; k++) {
        if (k < count && list[2 * k] == list[2 * run])
            continue;
        for (int i = run + 1; i < k; i++) {
            int key = list[2 * i + 1], j = i - 1;
            while (j >= run && list[2 * j + 1] > key) {
                list[2 * (j + 1) + 1] = list[2 * j + 1];
                j--;
            }
            list[2 * (j + 1) + 1] = key;
        }
        run = k;
    }
}

void cloth__broad_phase_sort(cloth__broad_phase *bp)
{
    sort_runs(bp->pt, bp->n_pt);
    sort_runs(bp->ee, bp->n_ee);
}
