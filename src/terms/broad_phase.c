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
    int *slot_cell;             /* 3 per slot: the cell of its primitive              */
    double *slot_box;           /* 6 per slot: the box of its primitive (a bucket's
                                 * scan reads these in order, not box and cell at
                                 * random places)                                     */
    int *big;                   /* primitives too large for a cell                    */
    int n_big;
    double ext_max;             /* the largest extent of a box in the grid (<= s)     */
    unsigned mask;              /* buckets - 1 (a power of two)                       */
} grid;

/* One grid of the cell query (broad_phase.h): each box in every cell it touches. */
typedef struct cgrid {
    int count, verts;
    const int *vert;
    double *box;                /* 6 per primitive (grown)                            */
    int *lo, *hi;               /* 3 per primitive: the cells of its box's corners    */
    int *start;                 /* 8 buckets + 1: by bucket, then by class            */
    int *entry;                 /* 4 per entry: the primitive and the cell            */
    int *big;                   /* primitives spanning more than 3 cells on an axis   */
    int n_big;
    unsigned mask;
} cgrid;

struct cloth__broad_phase {
    const cloth_mesh *mesh;
    int *edges, n_edges;
    grid tri, edge;
    cgrid *ctri, *cedge;        /* the cell query's grids (NULL until enabled)        */
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
    *g = (grid){count, verts, vert, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0,
                buckets - 1};
    g->box = malloc((6 * (size_t)count + 1) * sizeof *g->box);
    g->cell = malloc((3 * (size_t)count + 1) * sizeof *g->cell);
    g->start = malloc(((size_t)buckets + 1) * sizeof *g->start);
    g->slot = malloc(((size_t)count + 1) * sizeof *g->slot);
    g->slot_cell = malloc((3 * (size_t)count + 1) * sizeof *g->slot_cell);
    g->slot_box = malloc((6 * (size_t)count + 1) * sizeof *g->slot_box);
    g->big = malloc(((size_t)count + 1) * sizeof *g->big);
    return g->box && g->cell && g->start && g->slot && g->slot_cell && g->slot_box && g->big;
}

static void grid_free(grid *g)
{
    free(g->box);
    free(g->cell);
    free(g->start);
    free(g->slot);
    free(g->slot_cell);
    free(g->slot_box);
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

static void cgrid_free(cgrid *g)
{
    if (!g)
        return;
    free(g->box);
    free(g->lo);
    free(g->hi);
    free(g->start);
    free(g->entry);
    free(g->big);
    free(g);
}

void cloth__broad_phase_destroy(cloth__broad_phase *bp)
{
    if (!bp)
        return;
    cgrid_free(bp->ctri);
    cgrid_free(bp->cedge);
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
    cloth__box_reset(box);
    for (int i = 0; i < k; i++)
        for (int c = 0; c < 3; c++) {
            double a = x[3 * v[i] + c];
            cloth__box_add(box, c, a, dx ? a + dx[3 * v[i] + c] : a);
        }
    cloth__box_grow(box, half);
}

static int overlap(const double a[6], const double b[6])
{
    return cloth__boxes_meet(a, b);
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
    for (int k = 0; k < g->start[buckets]; k++) {
        memcpy(g->slot_cell + 3 * k, g->cell + 3 * g->slot[k], 3 * sizeof *g->slot_cell);
        memcpy(g->slot_box + 6 * k, g->box + 6 * g->slot[k], 6 * sizeof *g->slot_box);
    }
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

/* Records (query, p) when their boxes overlap (pbox p's) and they share no vertex. */
static void consider_box(query *q, const grid *g, int p, const double pbox[6],
                         const double qbox[6])
{
    cloth__broad_phase *bp = q->bp;
    const int *pv = g->vert + g->verts * p;
    if (q->qk == 2 && p <= q->qid)
        return; /* each edge pair once, from its lower edge */
    if (!overlap(qbox, pbox) || shares_vertex(q->qv, q->qk, pv, g->verts) ||
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

static void consider(query *q, const grid *g, int p, const double qbox[6])
{
    consider_box(q, g, p, g->box + 6 * p, qbox);
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
                    /* consider's own first tests, before the call: most entries fail
                     * one of them */
                    const int *pc = g->slot_cell + 3 * k;
                    const double *pbox = g->slot_box + 6 * k;
                    int p = g->slot[k];
                    if (pc[0] != c[0] || pc[1] != c[1] || pc[2] != c[2] ||
                        (q->qk == 2 && p <= q->qid) || !overlap(qbox, pbox))
                        continue;
                    consider_box(q, g, p, pbox, qbox);
                }
            }
    for (int k = 0; k < g->n_big; k++)
        consider(q, g, g->big[k], qbox);
}

/* The mean extent of the triangles' boxes over the motion, grown by half (both queries'
 * cell size; at least one triangle). */
static double mean_triangle_extent(const cloth_mesh *m, const double *x, const double *dx,
                                   double half)
{
    double sum = 0;
    for (int t = 0; t < m->n_tris; t++) {
        double b[6];
        box_of(x, dx, m->tris + 3 * t, 3, half, b);
        sum += extent(b);
    }
    return sum / m->n_tris;
}

void cloth__broad_phase_query(cloth__broad_phase *bp, const double *x, const double *dx,
                              double r, const unsigned char *fixed, cloth__broad_pairs *out)
{
    const cloth_mesh *m = bp->mesh;
    double half = 0.5 * r;
    bp->n_pt = bp->n_ee = bp->overflow = 0;
    /* cell edge: twice the mean extent of the grown triangle boxes */
    double s = m->n_tris ? 2 * mean_triangle_extent(m, x, dx, half) : 1;
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

/* ------------------------------------------------------------ the cell query */

/* The cells are about one mean box across, so a box touches 1-3 cells on an axis and a
 * small query box (a vertex's) looks in one or two: far fewer boxes to test than the
 * query above, whose cells are twice the mean box and which must look back by the
 * largest box.  A pair of boxes that meet is found in every cell both touch; it is kept
 * only in the cell max(lo_q, lo_p) (axis by axis, lo the cells of the boxes' lower
 * corners: floor(v / s) is monotone, so that is the cell of the lower corner of the
 * boxes' intersection, which both touch), so each pair once. */

#define CELL_SPAN 3                 /* cells a stored box may span on an axis         */
#define CELL_QUERY_MAX 64           /* a query box over more cells tests them all     */

static cgrid *cgrid_alloc(int count, int verts, const int *vert)
{
    cgrid *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    unsigned buckets = 1;
    while (buckets < (unsigned)count)
        buckets <<= 1;
    g->count = count;
    g->verts = verts;
    g->vert = vert;
    g->mask = buckets - 1;
    g->box = malloc((6 * (size_t)count + 1) * sizeof *g->box);
    g->lo = malloc((3 * (size_t)count + 1) * sizeof *g->lo);
    g->hi = malloc((3 * (size_t)count + 1) * sizeof *g->hi);
    g->start = malloc((8 * (size_t)buckets + 1) * sizeof *g->start);
    g->entry = malloc((4 * 27 * (size_t)count + 1) * sizeof *g->entry);
    g->big = malloc(((size_t)count + 1) * sizeof *g->big);
    if (!g->box || !g->lo || !g->hi || !g->start || !g->entry || !g->big) {
        cgrid_free(g);
        return NULL;
    }
    return g;
}

cloth_status cloth__broad_phase_enable_cells(cloth__broad_phase *bp, cloth_error *err)
{
    if (bp->ctri)
        return CLOTH_OK;
    if (bp->mesh->n_tris >= 1 << 24 || bp->n_edges >= 1 << 24)
        return cloth__fail(err, CLOTH_EINVAL, "broad phase: %d triangles are too many for "
                           "the cell query", bp->mesh->n_tris);
    bp->ctri = cgrid_alloc(bp->mesh->n_tris, 3, bp->mesh->tris);
    bp->cedge = cgrid_alloc(bp->n_edges, 2, bp->edges);
    if (!bp->ctri || !bp->cedge) {
        cgrid_free(bp->ctri);
        cgrid_free(bp->cedge);
        bp->ctri = bp->cedge = NULL;
        return cloth__fail(err, CLOTH_ENOMEM, "broad phase: out of memory for %d triangles",
                           bp->mesh->n_tris);
    }
    return CLOTH_OK;
}

/* The cells of box's corners. */
static void cells_of(const double box[6], double s, int lo[3], int hi[3])
{
    for (int k = 0; k < 3; k++) {
        lo[k] = cell_coord(box[k], s);
        hi[k] = cell_coord(box[3 + k], s);
    }
}

/* 1 when the cells lo..hi are at most most in number. */
static int cells_within(const int lo[3], const int hi[3], long most)
{
    long cells = 1;
    for (int k = 0; k < 3; k++) {
        long span = (long)hi[k] - lo[k] + 1;
        if (span < 1 || span > most)
            return 0;
        cells *= span;
    }
    return cells <= most;
}

/* Boxes at x (over dx), each into every cell it touches, by a counting sort on the
 * bucket and, within one, the class of the entry: bit k set when the cell is not the
 * box's lowest on axis k (csearch reads only the classes it may keep); boxes over more
 * than CELL_SPAN cells on an axis into the big list. */
static void cgrid_fill(cgrid *g, const double *x, const double *dx, double half, double s)
{
    size_t slots = 8 * ((size_t)g->mask + 1);
    memset(g->start, 0, (slots + 1) * sizeof *g->start);
    g->n_big = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int p = 0; p < g->count; p++) {
            double *b = g->box + 6 * p;
            int *lo = g->lo + 3 * p, *hi = g->hi + 3 * p;
            if (pass == 0) {
                box_of(x, dx, g->vert + g->verts * p, g->verts, half, b);
                cells_of(b, s, lo, hi);
            }
            int ok = 1;
            for (int k = 0; k < 3; k++)
                ok &= hi[k] - lo[k] < CELL_SPAN && hi[k] >= lo[k];
            if (!ok) {
                if (pass == 0)
                    g->big[g->n_big++] = p;
                continue;
            }
            int c[3];
            for (c[0] = lo[0]; c[0] <= hi[0]; c[0]++)
                for (c[1] = lo[1]; c[1] <= hi[1]; c[1]++)
                    for (c[2] = lo[2]; c[2] <= hi[2]; c[2]++) {
                        size_t slot = 8 * (size_t)bucket_of(c, g->mask) + (c[0] > lo[0]) +
                                      2 * (c[1] > lo[1]) + 4 * (c[2] > lo[2]);
                        if (pass == 0) {
                            g->start[slot + 1]++;
                        } else {
                            int *e = g->entry + 4 * g->start[slot]++;
                            e[0] = p, e[1] = c[0], e[2] = c[1], e[3] = c[2];
                        }
                    }
        }
        if (pass == 0)
            for (size_t k = 0; k < slots; k++)
                g->start[k + 1] += g->start[k];
    }
    for (size_t k = slots; k > 0; k--)
        g->start[k] = g->start[k - 1];
    g->start[0] = 0;
}

/* The pairs of the query primitive q (box qbox, cells qlo..qhi; qid its index in g when
 * g is its own grid, else -1) with the boxes of g that meet it, each once.  In cell c
 * the pair is kept when max(lo_q, lo_p) = c on every axis: where c is above lo_q, lo_p
 * must be c, so only the classes without that axis's bit are read. */
static void csearch(query *q, const cgrid *g, const double qbox[6], const int qlo[3],
                    const int qhi[3], int qid)
{
    /* consider reads the grid's boxes and vertices through the fields grid shares */
    grid view = {0};
    view.count = g->count;
    view.verts = g->verts;
    view.vert = g->vert;
    view.box = g->box;
    if (!cells_within(qlo, qhi, CELL_QUERY_MAX)) { /* a long query: every primitive */
        for (int p = 0; p < g->count; p++)
            consider(q, &view, p, qbox);
        return;
    }
    int c[3];
    for (c[0] = qlo[0]; c[0] <= qhi[0]; c[0]++)
        for (c[1] = qlo[1]; c[1] <= qhi[1]; c[1]++)
            for (c[2] = qlo[2]; c[2] <= qhi[2]; c[2]++) {
                int above = (c[0] > qlo[0]) + 2 * (c[1] > qlo[1]) + 4 * (c[2] > qlo[2]);
                size_t base = 8 * (size_t)bucket_of(c, g->mask);
                for (int cls = 0; cls < 8; cls++) {
                    if (cls & above)
                        continue;
                    for (int k = g->start[base + cls]; k < g->start[base + cls + 1]; k++) {
                        const int *e = g->entry + 4 * k;
                        /* each edge pair from its lower edge; the entry's cell (a
                         * bucket holds other cells too) */
                        if (e[0] <= qid || e[1] != c[0] || e[2] != c[1] || e[3] != c[2])
                            continue;
                        consider(q, &view, e[0], qbox);
                    }
                }
            }
    for (int k = 0; k < g->n_big; k++)
        consider(q, &view, g->big[k], qbox);
}

void cloth__broad_phase_query_cells(cloth__broad_phase *bp, const double *x,
                                    const double *dx, double r, const unsigned char *fixed,
                                    cloth__broad_pairs *out)
{
    const cloth_mesh *m = bp->mesh;
    double half = 0.5 * r;
    bp->n_pt = bp->n_ee = bp->overflow = 0;
    /* cell edge: the mean extent of the grown triangle boxes */
    double s = m->n_tris ? mean_triangle_extent(m, x, dx, half) : 1;
    if (!(s > 0 && isfinite(s)))
        s = 1;
    bp->s = s;
    cgrid_fill(bp->ctri, x, dx, half, s);
    cgrid_fill(bp->cedge, x, dx, half, s);
    query q = {bp, fixed, NULL, 1, 0};
    for (int v = 0; v < m->n && m->n_tris; v++) {
        double b[6];
        int lo[3], hi[3];
        box_of(x, dx, &v, 1, half, b);
        cells_of(b, s, lo, hi);
        q.qv = &v;
        q.qid = v;
        csearch(&q, bp->ctri, b, lo, hi, -1);
    }
    q.qk = 2;
    for (int e = 0; e < bp->n_edges; e++) {
        q.qv = bp->edges + 2 * e;
        q.qid = e;
        csearch(&q, bp->cedge, bp->cedge->box + 6 * e, bp->cedge->lo + 3 * e,
                bp->cedge->hi + 3 * e, e);
    }
    sort_runs(bp->pt, bp->n_pt);
    sort_runs(bp->ee, bp->n_ee);
    *out = (cloth__broad_pairs){bp->pt, bp->n_pt, bp->ee, bp->n_ee, bp->overflow};
}
