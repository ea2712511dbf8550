/*
 * The common mesh (SPEC 2): a grid or an OBJ file, with springs, triangles, hinges,
 * masses and pins.  Built once at creation; read-only during a step (between frames the
 * interaction and live settings may change pins, inverse masses, x0 rows and spring k).
 *
 * Grid vertex v = j*nx + i; row j = 0 is the top row.
 *   plane xy: p = o + (i s, -j s, 0)      plane xz: p = o + (i s, 0, j s)
 * Quad (a=(i,j), b=(i+1,j), c=(i,j+1), d=(i+1,j+1)) -> triangles [a,b,d], [a,d,c].
 * Springs: structural (i,j)-(i+1,j), (i,j)-(i,j+1); shear (i,j)-(i+1,j+1),
 * (i+1,j)-(i,j+1); bend (i,j)-(i+2,j), (i,j)-(i,j+2).
 * An OBJ mesh gets a structural spring on every triangle edge and a bend spring across
 * every hinge (between the two opposite vertices).
 *
 * Layers (mesh.layers = L): L copies of the grid, layer l holding vertices
 * l*nx*ny + j*nx + i, with its own springs, triangles and hinges and none between layers.
 * Layer l is moved from layer 0 by l (gap n + shift), n the plane's normal (+z for xy,
 * +y for xz), and its initial positions (not its rest shape) by u_l jitter n more, with
 * u_l = 2 U_l - 1, U_l the l-th number of core/random.h (SplitMix64) started at run.seed.
 * Pin modes act on every layer (each layer's top row, corners); an index list counts over
 * the whole mesh.  Layer 0 of a jitter-free mesh is built as a single grid always was.
 */
#include "core/status.h"
#include "cloth.h"
#include "core/mesh.h"
#include "core/random.h"
#include "core/scene.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double dist(const double *p, int a, int b)
{
    double d0 = p[3 * b] - p[3 * a], d1 = p[3 * b + 1] - p[3 * a + 1],
           d2 = p[3 * b + 2] - p[3 * a + 2];
    return sqrt(d0 * d0 + d1 * d1 + d2 * d2);
}

static double triangle_area(const double *p, const int *t)
{
    const double *a = p + 3 * t[0], *b = p + 3 * t[1], *c = p + 3 * t[2];
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2],
                   u[0] * w[1] - u[1] * w[0]};
    return 0.5 * sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
}

/* ------------------------------------------------------------------ edges */

/* Sorted unique triangle edges with the (up to two) opposite vertices of each. */
typedef struct { int a, b, o0, o1; } edge_rec;

static int edge_cmp(const void *x, const void *y)
{
    const edge_rec *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return (p->b > q->b) - (p->b < q->b);
}

/* Collects the triangle edges; *out has n_unique entries with o1 = -1 on a boundary.
 * Returns -1 when an edge is shared by more than two triangles (non-manifold). */
static int collect_edges(const int *tris, int n_tris, edge_rec **out, int *n_unique)
{
    edge_rec *e = malloc((size_t)(3 * n_tris + 1) * sizeof *e);
    if (!e)
        return -2;
    for (int t = 0; t < n_tris; t++)
        for (int k = 0; k < 3; k++) {
            int a = tris[3 * t + k], b = tris[3 * t + (k + 1) % 3];
            edge_rec r = {a < b ? a : b, a < b ? b : a, tris[3 * t + (k + 2) % 3], -1};
            e[3 * t + k] = r;
        }
    qsort(e, (size_t)(3 * n_tris), sizeof *e, edge_cmp);
    int m = 0;
    for (int i = 0; i < 3 * n_tris; i++) {
        if (m > 0 && e[m - 1].a == e[i].a && e[m - 1].b == e[i].b) {
            if (e[m - 1].o1 >= 0) {
                free(e);
                return -1;
            }
            e[m - 1].o1 = e[i].o0;
        } else {
            e[m++] = e[i];
        }
    }
    *out = e;
    *n_unique = m;
    return 0;
}

/* ------------------------------------------------------------------- grid */

static int grid_spring_count(int nx, int ny, int family)
{
    switch (family) {
    case CLOTH_STRUCTURAL: return (nx - 1) * ny + nx * (ny - 1);
    case CLOTH_SHEAR: return 2 * (nx - 1) * (ny - 1);
    default:
        return (nx > 2 ? (nx - 2) * ny : 0) + (ny > 2 ? nx * (ny - 2) : 0);
    }
}

/* Springs grouped by family (cloth_mesh's order), within a family layer by layer. */
static void grid_springs(const cloth_scene *s, cloth_mesh *m)
{
    int nx = s->mesh.nx, ny = s->mesh.ny, count = 0;
    cloth_spring *sp = m->springs;
#define ADD(fam, a, b) (sp[count++] = (cloth_spring){(a), (b), (fam), 0, 0})
    for (int f = 0; f < CLOTH_FAMILIES; f++) {
        if (!(s->mesh.families & (1u << f)))
            continue;
        int start = count;
        for (int l = 0; l < m->layers; l++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                int v = l * nx * ny + j * nx + i;
                if (f == CLOTH_STRUCTURAL) {
                    if (i + 1 < nx) ADD(f, v, v + 1);
                    if (j + 1 < ny) ADD(f, v, v + nx);
                } else if (f == CLOTH_SHEAR && i + 1 < nx && j + 1 < ny) {
                    ADD(f, v, v + nx + 1);
                    ADD(f, v + 1, v + nx);
                } else if (f == CLOTH_BEND) {
                    if (i + 2 < nx) ADD(f, v, v + 2);
                    if (j + 2 < ny) ADD(f, v, v + 2 * nx);
                }
            }
        m->family_count[f] = count - start;
    }
#undef ADD
    m->n_springs = count;
}

/* Layer 0 of the grid (the whole grid when there is one layer). */
static void grid_positions(const cloth_scene *s, double spacing, double *p)
{
    for (int j = 0; j < s->mesh.ny; j++)
        for (int i = 0; i < s->mesh.nx; i++) {
            double *q = p + 3 * (j * s->mesh.nx + i);
            double along = i * spacing, across = j * spacing;
            q[0] = s->mesh.origin[0] + along;
            q[1] = s->mesh.origin[1] + (s->mesh.plane == CLOTH_PLANE_XY ? -across : 0);
            q[2] = s->mesh.origin[2] + (s->mesh.plane == CLOTH_PLANE_XZ ? across : 0);
        }
}

static void grid_triangles(int nx, int ny, int layers, int *t)
{
    for (int l = 0; l < layers; l++)
    for (int j = 0; j + 1 < ny; j++)
        for (int i = 0; i + 1 < nx; i++) {
            int a = l * nx * ny + j * nx + i, b = a + 1, c = a + nx, d = c + 1;
            int quad[6] = {a, b, d, a, d, c};
            memcpy(t, quad, sizeof quad);
            t += 6;
        }
}

/* ------------------------------------------------------------------ layers */

/* The unit normal of the grid's plane, along which layers stack. */
static void plane_normal(cloth_plane plane, double n[3])
{
    n[0] = 0;
    n[1] = plane == CLOTH_PLANE_XZ ? 1 : 0;
    n[2] = plane == CLOTH_PLANE_XY ? 1 : 0;
}

/* mesh.layer_shift as a world vector: two numbers are along the plane's axes. */
static void layer_shift(const cloth_mesh_def *d, double v[3])
{
    v[0] = d->layer_shift[0];
    v[1] = d->layer_shift_dims == 3 || d->plane == CLOTH_PLANE_XY ? d->layer_shift[1] : 0;
    v[2] = d->layer_shift_dims == 3 ? d->layer_shift[2]
           : d->plane == CLOTH_PLANE_XZ ? d->layer_shift[1] : 0;
}

/* Copies layer 0 of p into layers 1.. and moves layer l by l (gap n + shift).  Layer 0
 * is not touched, so a one-layer grid is bit for bit the grid without layers. */
static void stack_layers(const cloth_scene *s, int per_layer, int layers, double *p)
{
    double n[3], shift[3];
    plane_normal(s->mesh.plane, n);
    layer_shift(&s->mesh, shift);
    for (int l = 1; l < layers; l++)
        for (int v = 0; v < per_layer; v++)
            for (int c = 0; c < 3; c++)
                p[3 * (l * per_layer + v) + c] =
                    p[3 * v + c] + l * (s->mesh.layer_gap * n[c] + shift[c]);
}

/* Moves each layer's initial positions along the normal by u_l jitter, u_l uniform in
 * [-1, 1) from SplitMix64 started at run.seed, one number a layer in layer order. */
static void jitter_layers(const cloth_scene *s, int per_layer, int layers, double *x0)
{
    if (!(s->mesh.jitter > 0))
        return;
    double n[3];
    plane_normal(s->mesh.plane, n);
    uint64_t state = (uint64_t)s->run.seed;
    for (int l = 0; l < layers; l++) {
        double h = s->mesh.jitter * (2 * cloth__random_unit(&state) - 1);
        for (int v = l * per_layer; v < (l + 1) * per_layer; v++)
            for (int c = 0; c < 3; c++)
                x0[3 * v + c] += h * n[c];
    }
}

/* The layer keys against the rest of the scene: an OBJ mesh has no layers, a shift
 * written as a vector must lie in the plane, and jittered layers must not be able to
 * touch.  Errors name where the key was set. */
static cloth_status check_layers(const cloth_scene *s, cloth_error *err)
{
    const cloth_mesh_def *d = &s->mesh;
    char where[CLOTH_PATH_MAX + 16];
#define WHERE(key) (cloth__key_where(s, cloth__key_index(NULL, "mesh", key), where, \
                                     sizeof where), where)
    if (d->obj[0] && d->layers > 1)
        return cloth__fail(err, CLOTH_EINVAL, "%s: mesh.layers: %d layers of an OBJ mesh: "
                           "layers stack the grid; put the copies in the OBJ file", WHERE("layers"),
                           d->layers);
    if (d->obj[0] && d->jitter > 0)
        return cloth__fail(err, CLOTH_EINVAL, "%s: mesh.jitter: an OBJ mesh has no plane to "
                           "jitter along: only the grid's layers are jittered", WHERE("jitter"));
    if (d->obj[0] && (d->layer_shift[0] != 0 || d->layer_shift[1] != 0 || d->layer_shift[2] != 0))
        return cloth__fail(err, CLOTH_EINVAL, "%s: mesh.layer_shift: an OBJ mesh has no layers "
                           "to shift", WHERE("layer_shift"));
    double n[3];
    plane_normal(d->plane, n);
    if (d->layer_shift_dims == 3) {
        double along = d->layer_shift[0] * n[0] + d->layer_shift[1] * n[1] +
                       d->layer_shift[2] * n[2];
        if (along != 0)
            return cloth__fail(err, CLOTH_EINVAL, "%s: mesh.layer_shift: %g m along the normal "
                               "(%s) of plane %s: the shift lies in the plane; the distance "
                               "between layers is mesh.layer_gap", WHERE("layer_shift"), along,
                               d->plane == CLOTH_PLANE_XY ? "z" : "y",
                               d->plane == CLOTH_PLANE_XY ? "xy" : "xz");
    }
    if (d->layers > 1 && !(2 * d->jitter < d->layer_gap))
        return cloth__fail(err, CLOTH_EINVAL, "%s: mesh.jitter: %g m lets neighbouring layers "
                           "touch: must be below half of mesh.layer_gap (%g m)", WHERE("jitter"),
                           d->jitter, d->layer_gap);
#undef WHERE
    return CLOTH_OK;
}

/* --------------------------------------------------------------- assembly */

static cloth_mesh *mesh_alloc(int n, int n_tris, int max_springs)
{
    cloth_mesh *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->n = n;
    m->n_tris = n_tris;
    m->rest = malloc(sizeof(double) * 3 * (size_t)n);
    m->x0 = malloc(sizeof(double) * 3 * (size_t)n);
    m->mass = malloc(sizeof(double) * (size_t)n);
    m->inv_mass = malloc(sizeof(double) * (size_t)n);
    m->pinned = calloc((size_t)n, 1);
    m->tris = malloc(sizeof(int) * 3 * (size_t)(n_tris + 1));
    m->springs = malloc(sizeof(cloth_spring) * (size_t)(max_springs + 1));
    if (!m->rest || !m->x0 || !m->mass || !m->inv_mass || !m->pinned || !m->tris ||
        !m->springs) {
        cloth_mesh_destroy(m);
        return NULL;
    }
    return m;
}

/* Hinges from the edges shared by two triangles. */
static cloth_status build_hinges(cloth_mesh *m, const edge_rec *e, int n_edges)
{
    int count = 0;
    for (int i = 0; i < n_edges; i++)
        count += e[i].o1 >= 0;
    m->hinges = malloc(sizeof(int) * 4 * (size_t)(count + 1));
    if (!m->hinges)
        return CLOTH_ENOMEM;
    m->n_hinges = 0;
    for (int i = 0; i < n_edges; i++)
        if (e[i].o1 >= 0) {
            int *h = m->hinges + 4 * m->n_hinges++;
            h[0] = e[i].a;
            h[1] = e[i].b;
            h[2] = e[i].o0;
            h[3] = e[i].o1;
        }
    return CLOTH_OK;
}

static cloth_status assign_masses(const cloth_scene *s, cloth_mesh *m)
{
    m->area = 0;
    for (int t = 0; t < m->n_tris; t++)
        m->area += triangle_area(m->rest, m->tris + 3 * t);
    if (s->material.density <= 0) {
        for (int i = 0; i < m->n; i++)
            m->mass[i] = s->material.vertex_mass;
        return CLOTH_OK;
    }
    /* lumped: each vertex gets a third of the area of its triangles */
    for (int i = 0; i < m->n; i++)
        m->mass[i] = 0;
    for (int t = 0; t < m->n_tris; t++) {
        double third = s->material.density * triangle_area(m->rest, m->tris + 3 * t) / 3;
        for (int k = 0; k < 3; k++)
            m->mass[m->tris[3 * t + k]] += third;
    }
    for (int i = 0; i < m->n; i++)
        if (!(m->mass[i] > 0))
            return CLOTH_EINVAL;
    return CLOTH_OK;
}

static cloth_status assign_pins(const cloth_scene *s, cloth_mesh *m, cloth_error *err)
{
    char where[CLOTH_PATH_MAX + 16];
    cloth__key_where(s, cloth__key_index(NULL, "mesh", "pins"), where, sizeof where);
    int nx = m->nx, ny = m->ny;
    if (s->mesh.pins != CLOTH_PINS_LIST && s->mesh.pins != CLOTH_PINS_NONE && nx == 0)
        return cloth__fail(err, CLOTH_EINVAL,
                           "%s: mesh.pins: an OBJ mesh has no rows or corners: give vertex indices",
                           where);
    /* row and corner modes pin the same vertices of every layer */
    for (int l = 0; l < m->layers; l++) {
        unsigned char *p = m->pinned + l * nx * ny;
        switch (s->mesh.pins) {
        case CLOTH_PINS_TOP_ROW:
            for (int i = 0; i < nx; i++)
                p[i] = 1;
            break;
        case CLOTH_PINS_TOP_CORNERS:
            p[0] = p[nx - 1] = 1;
            break;
        case CLOTH_PINS_CORNERS:
            p[0] = p[nx - 1] = 1;
            p[(ny - 1) * nx] = p[ny * nx - 1] = 1;
            break;
        default:
            break;
        }
    }
    switch (s->mesh.pins) {
    case CLOTH_PINS_NONE:
    case CLOTH_PINS_TOP_ROW:
    case CLOTH_PINS_TOP_CORNERS:
    case CLOTH_PINS_CORNERS:
        break;
    case CLOTH_PINS_LIST:
        for (int k = 0; k < s->mesh.n_pin_list; k++) {
            int v = s->mesh.pin_list[k];
            if (v >= m->n)
                return cloth__fail(err, CLOTH_EINVAL,
                                   "%s: mesh.pins: vertex %d is out of range (the mesh has %d "
                                   "vertices, 0..%d)", where, v, m->n, m->n - 1);
            m->pinned[v] = 1;
        }
        break;
    }
    m->n_pinned = 0;
    for (int i = 0; i < m->n; i++) {
        m->n_pinned += m->pinned[i];
        m->inv_mass[i] = m->pinned[i] ? 0.0 : 1.0 / m->mass[i];
    }
    return CLOTH_OK;
}

static void finish_springs(const cloth_scene *s, cloth_mesh *m)
{
    for (int i = 0; i < m->n_springs; i++) {
        cloth_spring *sp = &m->springs[i];
        sp->rest = dist(m->rest, sp->a, sp->b);
        sp->k = s->material.k[sp->family];
    }
}

static void bounding_diagonal(cloth_mesh *m)
{
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int i = 0; i < m->n; i++)
        for (int c = 0; c < 3; c++) {
            lo[c] = fmin(lo[c], m->rest[3 * i + c]);
            hi[c] = fmax(hi[c], m->rest[3 * i + c]);
        }
    double d2 = 0;
    for (int c = 0; c < 3; c++)
        d2 += (hi[c] - lo[c]) * (hi[c] - lo[c]);
    m->rest_diag = sqrt(d2);
}

static cloth_status build_grid(const cloth_scene *s, cloth_mesh **out)
{
    int nx = s->mesh.nx, ny = s->mesh.ny, layers = s->mesh.layers;
    int n_tris = 2 * (nx - 1) * (ny - 1), max_springs = 0;
    for (int f = 0; f < CLOTH_FAMILIES; f++)
        max_springs += grid_spring_count(nx, ny, f);
    cloth_mesh *m = mesh_alloc(layers * nx * ny, layers * n_tris, layers * max_springs);
    if (!m)
        return CLOTH_ENOMEM;
    m->nx = nx;
    m->ny = ny;
    m->layers = layers;
    grid_positions(s, s->mesh.spacing, m->rest);
    grid_positions(s, s->mesh.spacing * (1 + s->mesh.prestretch), m->x0);
    stack_layers(s, nx * ny, layers, m->rest);
    stack_layers(s, nx * ny, layers, m->x0);
    jitter_layers(s, nx * ny, layers, m->x0);
    grid_triangles(nx, ny, layers, m->tris);
    grid_springs(s, m);
    *out = m;
    return CLOTH_OK;
}

/* Resolves mesh.obj relative to the scene file's folder. */
static void obj_path(const cloth_scene *s, char *buf, size_t size)
{
    const char *slash = strrchr(s->source, '/');
    if (s->mesh.obj[0] == '/' || !slash)
        snprintf(buf, size, "%s", s->mesh.obj);
    else
        snprintf(buf, size, "%.*s/%s", (int)(slash - s->source), s->source, s->mesh.obj);
}

/* Springs of a mesh given by triangles: structural on every edge, bend across every
 * hinge (between the two opposite vertices), as the families ask. */
static int edge_springs(const cloth_scene *s, const edge_rec *e, int n_edges)
{
    int count = 0;
    for (int i = 0; i < n_edges; i++)
        count += ((s->mesh.families & (1u << CLOTH_STRUCTURAL)) != 0) +
                 (e[i].o1 >= 0 && (s->mesh.families & (1u << CLOTH_BEND)));
    return count;
}

static void add_edge_springs(const cloth_scene *s, cloth_mesh *m, const edge_rec *e,
                             int n_edges)
{
    int count = 0;
    if (s->mesh.families & (1u << CLOTH_STRUCTURAL))
        for (int i = 0; i < n_edges; i++)
            m->springs[count++] = (cloth_spring){e[i].a, e[i].b, CLOTH_STRUCTURAL, 0, 0};
    m->family_count[CLOTH_STRUCTURAL] = count;
    if (s->mesh.families & (1u << CLOTH_BEND))
        for (int i = 0; i < n_edges; i++)
            if (e[i].o1 >= 0)
                m->springs[count++] = (cloth_spring){e[i].o0, e[i].o1, CLOTH_BEND, 0, 0};
    m->family_count[CLOTH_BEND] = count - m->family_count[CLOTH_STRUCTURAL];
    m->n_springs = count;
}

static cloth_status build_obj(const cloth_scene *s, cloth_mesh **out, edge_rec **edges,
                              int *n_edges, cloth_error *err)
{
    char path[2 * CLOTH_PATH_MAX], where[CLOTH_PATH_MAX + 16];
    obj_path(s, path, sizeof path);
    cloth__key_where(s, cloth__key_index(NULL, "mesh", "obj"), where, sizeof where);
    double *x = NULL;
    int *tris = NULL, n = 0, n_tris = 0;
    cloth_error obj_err;
    cloth_status st = cloth_obj_read(path, &x, &n, &tris, &n_tris, &obj_err);
    if (st != CLOTH_OK)
        return cloth__fail(err, st, "%s: mesh.obj: %s", where, obj_err.msg);
    if (n == 0 || n_tris == 0) {
        free(x);
        free(tris);
        return cloth__fail(err, CLOTH_EINVAL, "%s: mesh.obj: '%s' has %d vertices and %d faces: "
                           "a cloth needs at least one triangle", where, path, n, n_tris);
    }
    int r = collect_edges(tris, n_tris, edges, n_edges);
    if (r < 0) {
        free(x);
        free(tris);
        return cloth__fail(err, r == -2 ? CLOTH_ENOMEM : CLOTH_EINVAL,
                           "%s: mesh.obj: %s", where,
                           r == -2 ? "out of memory" : "an edge is shared by more than two faces");
    }
    cloth_mesh *m = mesh_alloc(n, n_tris, edge_springs(s, *edges, *n_edges));
    if (!m) {
        free(x);
        free(tris);
        free(*edges);
        *edges = NULL;
        return cloth__fail(err, CLOTH_ENOMEM, "%s: mesh.obj: out of memory for '%s'", where,
                           path);
    }
    m->layers = 1;
    memcpy(m->rest, x, sizeof(double) * 3 * (size_t)n);
    memcpy(m->tris, tris, sizeof(int) * 3 * (size_t)n_tris);
    free(x);
    free(tris);
    /* initial positions: the rest shape scaled by (1 + prestretch) about vertex 0 */
    for (int i = 0; i < 3 * n; i++)
        m->x0[i] = m->rest[i % 3] + (m->rest[i] - m->rest[i % 3]) * (1 + s->mesh.prestretch);
    add_edge_springs(s, m, *edges, *n_edges);
    *out = m;
    return CLOTH_OK;
}

cloth_status cloth_mesh_create(const cloth_scene *s, cloth_mesh **out, cloth_error *err)
{
    cloth_mesh *m = NULL;
    edge_rec *edges = NULL;
    int n_edges = 0;
    cloth_status st = check_layers(s, err);
    *out = NULL;
    if (st != CLOTH_OK)
        return st;
    if (s->mesh.garment[0])
        return cloth__fail(err, CLOTH_EINVAL, "%s: mesh.garment: a garment is sewn by the "
                           "simulation (cloth_sim_create); take its mesh from cloth_sim_mesh",
                           s->source);
    if (s->mesh.obj[0]) {
        st = build_obj(s, &m, &edges, &n_edges, err);
        if (st != CLOTH_OK)
            return st;
    } else {
        st = build_grid(s, &m);
        if (st != CLOTH_OK)
            return cloth__fail(err, st, "%s: mesh: out of memory for a %d x %d grid", s->source,
                               s->mesh.nx, s->mesh.ny);
        if (collect_edges(m->tris, m->n_tris, &edges, &n_edges) != 0) {
            cloth_mesh_destroy(m);
            return cloth__fail(err, CLOTH_ENOMEM, "%s: mesh: out of memory", s->source);
        }
    }
    st = build_hinges(m, edges, n_edges);
    free(edges);
    if (st != CLOTH_OK) {
        cloth_mesh_destroy(m);
        return cloth__fail(err, st, "%s: mesh: out of memory", s->source);
    }
    finish_springs(s, m);
    bounding_diagonal(m);
    if (assign_masses(s, m) != CLOTH_OK) {
        char where[CLOTH_PATH_MAX + 16];
        cloth__key_where(s, cloth__key_index(NULL, "material", "density"), where, sizeof where);
        cloth_mesh_destroy(m);
        return cloth__fail(err, CLOTH_EINVAL,
                           "%s: material.density: a vertex belongs to no triangle and would get no "
                           "mass (a chain has no area: use material.vertex_mass)", where);
    }
    st = assign_pins(s, m, err);
    if (st != CLOTH_OK) {
        cloth_mesh_destroy(m);
        return st;
    }
    for (int i = 0; i < m->n_springs; i++)
        if (!(m->springs[i].rest > 0)) {
            st = cloth__fail(err, CLOTH_EINVAL, "%s: mesh: spring %d-%d has zero rest length",
                             s->source, m->springs[i].a, m->springs[i].b);
            cloth_mesh_destroy(m);
            return st;
        }
    *out = m;
    return CLOTH_OK;
}

cloth_status cloth__mesh_from_triangles(const cloth_scene *s, const double *x, int n,
                                        const int *tris, int n_tris, int extra_springs,
                                        const char *what, cloth_mesh **out, cloth_error *err)
{
    edge_rec *edges = NULL;
    int n_edges = 0;
    *out = NULL;
    int r = n_tris > 0 ? collect_edges(tris, n_tris, &edges, &n_edges) : -3;
    if (r < 0)
        return cloth__fail(err, r == -2 ? CLOTH_ENOMEM : CLOTH_EINVAL, "%s: %s", what,
                           r == -2 ? "out of memory" : r == -1 ? "an edge is shared by more "
                           "than two triangles" : "no triangles");
    cloth_mesh *m = mesh_alloc(n, n_tris, edge_springs(s, edges, n_edges) + extra_springs);
    cloth_status st = m ? build_hinges(m, edges, n_edges) : CLOTH_ENOMEM;
    if (st != CLOTH_OK) {
        free(edges);
        cloth_mesh_destroy(m);
        return cloth__fail(err, st, "%s: out of memory", what);
    }
    m->layers = 1;
    memcpy(m->rest, x, sizeof(double) * 3 * (size_t)n);
    memcpy(m->x0, x, sizeof(double) * 3 * (size_t)n);
    memcpy(m->tris, tris, sizeof(int) * 3 * (size_t)n_tris);
    add_edge_springs(s, m, edges, n_edges);
    free(edges);
    finish_springs(s, m);
    bounding_diagonal(m);
    if (assign_masses(s, m) != CLOTH_OK) {
        cloth_mesh_destroy(m);
        return cloth__fail(err, CLOTH_EINVAL, "%s: a vertex belongs to no triangle", what);
    }
    for (int i = 0; i < n; i++)
        m->inv_mass[i] = 1 / m->mass[i];
    *out = m;
    return CLOTH_OK;
}

void cloth_mesh_destroy(cloth_mesh *m)
{
    if (!m)
        return;
    free(m->rest);
    free(m->x0);
    free(m->mass);
    free(m->inv_mass);
    free(m->pinned);
    free(m->springs);
    free(m->tris);
    free(m->hinges);
    free(m);
}
