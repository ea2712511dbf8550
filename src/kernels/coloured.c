/* The coloured loops of explicit, verlet and pbd: coloured.h. */
#include "kernels/coloured.h"

#include "core/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const cloth__order_names[] = {"sequential", "coloured", NULL};

/* GCC builds an AVX-512 and an AVX2 copy of each loop beside the baseline one and picks
 * one at load time from the CPU; elsewhere only the baseline. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(CLOTH_NO_CLONES)
#define CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CLONES
#endif

void cloth__coloured_start_threads(int threads)
{
    int started = 0;
    CLOTH__PARALLEL(threads)
    {
        CLOTH__PRAGMA(omp atomic)
        started++;
    }
    (void)started;
}

void cloth__coloured_destroy(cloth__coloured *c)
{
    if (!c)
        return;
    cloth__colouring_free(&c->colours);
    free(c->spring);
    free(c->ia);
    free(c->ib);
    free(c->rest);
    free(c->k);
    free(c->wa);
    free(c->wb);
    free(c->gain);
    free(c->inv_den);
    free(c->alpha);
    free(c->lambda);
    free(c);
}

cloth_status cloth__coloured_create(const cloth_mesh *m, const int *ids, int count,
                                    int stride, int with_pbd, cloth__coloured **out,
                                    cloth_error *err)
{
    *out = NULL;
    cloth__coloured *c = calloc(1, sizeof *c);
    int *ends = malloc(sizeof(int) * 2 * (size_t)(count + 1));
    if (!c || !ends)
        goto fail_memory;
    for (int j = 0; j < count; j++) {
        ends[2 * j] = m->springs[ids[j]].a;
        ends[2 * j + 1] = m->springs[ids[j]].b;
    }
    cloth_status st = cloth__colour_items(count, 2, ends, m->n, &c->colours, err);
    free(ends);
    ends = NULL;
    if (st != CLOTH_OK) {
        cloth__coloured_destroy(c);
        return st;
    }
    size_t ni = sizeof(int) * (size_t)(count + 1), nd = sizeof(double) * (size_t)(count + 1);
    c->n = count;
    c->stride = stride;
    int ok = (c->spring = malloc(ni)) && (c->ia = malloc(ni)) && (c->ib = malloc(ni)) &&
             (c->rest = malloc(nd)) && (c->k = malloc(nd)) && (c->wa = malloc(nd)) &&
             (c->wb = malloc(nd));
    if (ok && with_pbd)
        ok = (c->gain = malloc(nd)) && (c->inv_den = malloc(nd)) && (c->alpha = malloc(nd)) &&
             (c->lambda = calloc((size_t)count + 1, sizeof(double)));
    if (!ok)
        goto fail_memory;
    for (int j = 0; j < count; j++) {
        const cloth_spring *sp = &m->springs[ids[c->colours.order[j]]];
        c->spring[j] = ids[c->colours.order[j]];
        c->ia[j] = stride * sp->a;
        c->ib[j] = stride * sp->b;
        c->rest[j] = sp->rest;
        c->k[j] = sp->k;
        c->wa[j] = c->wb[j] = 0;
    }
    *out = c;
    return CLOTH_OK;

fail_memory:
    free(ends);
    cloth__coloured_destroy(c);
    return cloth__fail(err, CLOTH_ENOMEM, "coloured springs: out of memory for %d springs",
                       count);
}

double *cloth__padded_alloc(int n)
{
    /* 32 bytes a vertex, rounded up to a pair: a multiple of the alignment, as
     * aligned_alloc asks */
    size_t bytes = 64 * (((size_t)(n > 0 ? n : 1) + 1) / 2);
    double *x4 = aligned_alloc(64, bytes);
    if (x4)
        memset(x4, 0, bytes);
    return x4;
}

void cloth__pad(const double *x, double *x4, int lo, int hi)
{
    for (int i = lo; i < hi; i++) {
        x4[4 * i] = x[3 * i];
        x4[4 * i + 1] = x[3 * i + 1];
        x4[4 * i + 2] = x[3 * i + 2];
    }
}

void cloth__unpad(const double *x4, double *x, int lo, int hi)
{
    for (int i = lo; i < hi; i++) {
        x[3 * i] = x4[4 * i];
        x[3 * i + 1] = x4[4 * i + 1];
        x[3 * i + 2] = x4[4 * i + 2];
    }
}

/* x_a += s_a d, x_b -= s_b d (inlined into the vector loops) */
static inline void move_ends(double *x, int a, int b, double sa, double sb, double dx,
                             double dy, double dz)
{
    x[a] += sa * dx;
    x[a + 1] += sa * dy;
    x[a + 2] += sa * dz;
    x[b] -= sb * dx;
    x[b + 1] -= sb * dy;
    x[b + 2] -= sb * dz;
}

/* The loops below carry `omp simd`: the items of a colour share no vertex, so the
 * gathers and scatters of different lanes never meet. */

CLONES static void xpbd_loop(cloth__coloured *c, double *p, int lo, int hi)
{
    const int *ia = c->ia, *ib = c->ib;
    const double *rest = c->rest, *wa = c->wa, *wb = c->wb, *gain = c->gain,
                 *inv_den = c->inv_den, *alpha = c->alpha;
    double *lambda = c->lambda;
    CLOTH__PRAGMA(omp simd)
    for (int j = lo; j < hi; j++) {
        int a = ia[j], b = ib[j]; /* indexed, not pointers: GCC recognises the gathers */
        double dx = p[a] - p[b], dy = p[a + 1] - p[b + 1], dz = p[a + 2] - p[b + 2];
        double l = sqrt(dx * dx + dy * dy + dz * dz);
        /* l = 0: no direction to push along; selects, not branches, keep the loop
         * vectorisable (a division under a condition is not if-converted) */
        double ls = l > 0 ? l : 1;
        double dl = (-gain[j] * (l - rest[j]) - alpha[j] * lambda[j]) * inv_den[j];
        dl = l > 0 ? dl : 0;
        double s = dl / ls;
        lambda[j] += dl;
        double sa = wa[j] * s, sb = wb[j] * s;
        move_ends(p, a, b, sa, sb, dx, dy, dz);
    }
}

CLONES static void relax_loop(cloth__coloured *c, double *x, double half_k, int lo, int hi)
{
    const int *ia = c->ia, *ib = c->ib;
    const double *rest = c->rest, *wa = c->wa, *wb = c->wb;
    CLOTH__PRAGMA(omp simd)
    for (int j = lo; j < hi; j++) {
        int a = ia[j], b = ib[j];
        double dx = x[b] - x[a], dy = x[b + 1] - x[a + 1], dz = x[b + 2] - x[a + 2];
        double l = sqrt(dx * dx + dy * dy + dz * dz);
        double ls = l > 0 ? l : 1; /* l = 0: d = 0, nothing moves */
        double s = (l - rest[j]) / ls * half_k;
        double sa = wa[j] * s, sb = wb[j] * s;
        move_ends(x, a, b, sa, sb, dx, dy, dz);
    }
}

#include "kernels/coloured_avx512.h"

/* the hand-written blocks: AVX-512 present and the positions padded (stride 4) */
static int use_avx512(int stride)
{
    return AVX512_BLOCKS && stride == 4 && __builtin_cpu_supports("avx512vl");
}

void cloth__coloured_xpbd(cloth__coloured *c, double *p, int lo, int hi)
{
    if (use_avx512(c->stride))
        lo = xpbd_avx512(c, p, lo, hi); /* whole blocks of 8; the rest below */
    xpbd_loop(c, p, lo, hi);
}

void cloth__coloured_relax(cloth__coloured *c, double *x, double half_k, int lo, int hi)
{
    if (use_avx512(c->stride))
        lo = relax_avx512(c, x, half_k, lo, hi);
    relax_loop(c, x, half_k, lo, hi);
}

CLONES static int provot_loop(cloth__coloured *c, double *x, double factor, double tol,
                              int lo, int hi)
{
    const int *ia = c->ia, *ib = c->ib;
    const double *rest = c->rest, *wa = c->wa, *wb = c->wb;
    double shortened = 0; /* a double: lanes as wide as the positions' */
    CLOTH__PRAGMA(omp simd reduction(+ : shortened))
    for (int j = lo; j < hi; j++) {
        int a = ia[j], b = ib[j];
        double dx = x[b] - x[a], dy = x[b + 1] - x[a + 1], dz = x[b + 2] - x[a + 2];
        double l = sqrt(dx * dx + dy * dy + dz * dz), limit = factor * rest[j];
        int over = l > limit * (1 + tol);
        double ls = l > 0 ? l : 1, s = (l - limit) / ls;
        double sa = wa[j] * s, sb = wb[j] * s;
        if (over) /* a spring within its limit leaves its ends' bits as they are */
            move_ends(x, a, b, sa, sb, dx, dy, dz);
        shortened += over ? 1.0 : 0.0;
    }
    return (int)shortened;
}

int cloth__coloured_provot(cloth__coloured *c, double *x, double factor, double tol, int lo,
                           int hi)
{
    int count = 0;
    if (use_avx512(c->stride))
        lo = provot_avx512(c, x, factor, tol, lo, hi, &count);
    return count + provot_loop(c, x, factor, tol, lo, hi);
}

CLONES static void springs_loop(const cloth__coloured *c, const double *x, const double *v,
                                double cd, double *f, int lo, int hi)
{
    const int *ia = c->ia, *ib = c->ib;
    const double *rest = c->rest, *k = c->k;
    int damped = v != NULL;
    if (!damped)
        v = x; /* read, never used: a select, not a branch, keeps the loop vectorisable */
    CLOTH__PRAGMA(omp simd)
    for (int j = lo; j < hi; j++) {
        int a = ia[j], b = ib[j];
        double dx = x[b] - x[a], dy = x[b + 1] - x[a + 1], dz = x[b + 2] - x[a + 2];
        double l = sqrt(dx * dx + dy * dy + dz * dz);
        double r = 1 / (l > 0 ? l : 1); /* l = 0: d = 0, so u = 0, no direction */
        double ux = dx * r, uy = dy * r, uz = dz * r;
        double t = k[j] * (l - rest[j]);
        double damping = cd * ((v[b] - v[a]) * ux + (v[b + 1] - v[a + 1]) * uy +
                               (v[b + 2] - v[a + 2]) * uz);
        t = damped ? t + damping : t;
        move_ends(f, a, b, t, t, ux, uy, uz);
    }
}

void cloth__coloured_copy_k(cloth__coloured *c, const cloth_mesh *m)
{
    for (int j = 0; j < c->n; j++)
        c->k[j] = m->springs[c->spring[j]].k;
}

void cloth__coloured_springs(const cloth__coloured *c, const double *x, const double *v,
                             double cd, double *f, int lo, int hi)
{
    if (!(cd > 0)) /* no damping term (and none of its reads) */
        v = NULL;
    if (use_avx512(c->stride))
        lo = springs_avx512(c, x, v, cd, f, lo, hi);
    springs_loop(c, x, v, cd, f, lo, hi);
}

/* ------------------------------------------------------------ triangle drag */

void cloth__coloured_tris_destroy(cloth__coloured_tris *c)
{
    if (!c)
        return;
    cloth__colouring_free(&c->colours);
    free(c->i0);
    free(c->i1);
    free(c->i2);
    free(c->gust);
    free(c);
}

cloth_status cloth__coloured_tris_create(const cloth_mesh *m, int stride,
                                         cloth__coloured_tris **out, cloth_error *err)
{
    *out = NULL;
    cloth__coloured_tris *c = calloc(1, sizeof *c);
    if (!c)
        return cloth__fail(err, CLOTH_ENOMEM, "coloured triangles: out of memory");
    cloth_status st = cloth__colour_items(m->n_tris, 3, m->tris, m->n, &c->colours, err);
    if (st != CLOTH_OK) {
        cloth__coloured_tris_destroy(c);
        return st;
    }
    size_t ni = sizeof(int) * (size_t)(m->n_tris + 1);
    c->n = m->n_tris;
    c->stride = stride;
    if (!(c->i0 = malloc(ni)) || !(c->i1 = malloc(ni)) || !(c->i2 = malloc(ni)) ||
        !(c->gust = malloc(sizeof(double) * (size_t)(m->n_tris + 1)))) {
        cloth__coloured_tris_destroy(c);
        return cloth__fail(err, CLOTH_ENOMEM, "coloured triangles: out of memory for %d",
                           m->n_tris);
    }
    for (int j = 0; j < c->n; j++) {
        const int *id = m->tris + 3 * c->colours.order[j];
        c->i0[j] = stride * id[0];
        c->i1[j] = stride * id[1];
        c->i2[j] = stride * id[2];
        c->gust[j] = 1;
    }
    *out = c;
    return CLOTH_OK;
}

/* Triangle drag of triangles [lo, hi) of one colour (terms/forces.c: F = 1/2 rho C_d A
 * (n.v_rel) |v_rel| n, a third to each corner, v_rel = wind gust - mean corner velocity).
 * With N = u x q = 2 A n unnormalised the same force is coeff/6 (N.v_rel) |v_rel| N / |N|
 * = coeff/6 (N.v_rel) sqrt(v_rel.v_rel / N.N) N: a square root and a division a triangle
 * instead of two and five (equal to terms/forces.c's to rounding). */
CLONES static void drag_range(const cloth__coloured_tris *c, int turbulent,
                              const double wind[3], double coeff, const double *x,
                              const double *v, double *f, int lo, int hi)
{
    const int *i0 = c->i0, *i1 = c->i1, *i2 = c->i2;
    const double *gust = c->gust;
    const double sixth = coeff / 6, third = 1.0 / 3;
    CLOTH__PRAGMA(omp simd)
    for (int j = lo; j < hi; j++) {
        int a = i0[j], b = i1[j], d = i2[j];
        double g = turbulent ? gust[j] : 1;
        double ux = x[b] - x[a], uy = x[b + 1] - x[a + 1], uz = x[b + 2] - x[a + 2];
        double qx = x[d] - x[a], qy = x[d + 1] - x[a + 1], qz = x[d + 2] - x[a + 2];
        double nx = uy * qz - uz * qy, ny = uz * qx - ux * qz, nz = ux * qy - uy * qx;
        double nn = nx * nx + ny * ny + nz * nz;
        double rx = wind[0] * g - (v[a] + v[b] + v[d]) * third,
               ry = wind[1] * g - (v[a + 1] + v[b + 1] + v[d + 1]) * third,
               rz = wind[2] * g - (v[a + 2] + v[b + 2] + v[d + 2]) * third;
        /* 0 area: N = 0, no force */
        double mag = sixth * (nx * rx + ny * ry + nz * rz) *
                     sqrt((rx * rx + ry * ry + rz * rz) / (nn > 0 ? nn : 1));
        f[a] += mag * nx;
        f[a + 1] += mag * ny;
        f[a + 2] += mag * nz;
        f[b] += mag * nx;
        f[b + 1] += mag * ny;
        f[b + 2] += mag * nz;
        f[d] += mag * nx;
        f[d + 1] += mag * ny;
        f[d + 2] += mag * nz;
    }
}

/* The gusts of the triangles, then their drag in the tiled order (terms/colour.h): thread
 * `part` of `parts` of the caller's parallel region (a barrier after the gusts and after
 * each step). */
static void drag_colours(cloth__force_env env, const cloth__coloured_tris *c, int part,
                         int parts, const double *x, const double *v, double t, double *f)
{
    const cloth_world_def *w = env.world;
    double coeff = 0.5 * w->air_density * w->drag_coefficient;
    /* the gusts: sines, one triangle at a time (without turbulence the factor is 1, and
     * wind 1 is wind exactly: the loops below then read no gusts) */
    int turbulent = w->turbulence > 0;
    if (turbulent) {
        int g0, g1;
        cloth__share(c->n, part, parts, &g0, &g1);
        for (int j = g0; j < g1; j++) {
            double centroid[3];
            for (int k = 0; k < 3; k++)
                centroid[k] = (x[c->i0[j] + k] + x[c->i1[j] + k] + x[c->i2[j] + k]) / 3;
            c->gust[j] = 1 + w->turbulence * cloth__wind_noise(env.wind, t, centroid);
        }
        CLOTH__BARRIER
    }
    int padded = use_avx512(c->stride);
    const cloth__colouring *order = &c->colours;
    for (int step = 0; step < order->n_steps; step++) {
        CLOTH__RANGES(order, step, part, parts, lo, hi) {
            if (padded)
                lo = drag_avx512(c, turbulent, w->wind, coeff, x, v, f, lo, hi);
            drag_range(c, turbulent, w->wind, coeff, x, v, f, lo, hi);
        }
        CLOTH__BARRIER
    }
}

void cloth__coloured_external_forces(cloth__force_env env, const cloth__coloured_tris *c,
                                     int threads, const double *x, const double *v,
                                     double t, double *f)
{
    cloth__add_gravity(env, f);
    const cloth_world_def *w = env.world;
    if (0.5 * w->air_density * w->drag_coefficient != 0 && c->n > 0) {
        CLOTH__PARALLEL(threads)
        drag_colours(env, c, cloth__thread_id(), cloth__thread_count(), x, v, t, f);
    }
    cloth__add_air_damping(env, v, f);
}

void cloth__coloured_forces(cloth__force_env env, const cloth__coloured_tris *tris,
                            const cloth__coloured *springs, int threads, const double *x,
                            const double *v, double t, double *x4, double *v4, double *f4,
                            const double *inv_mass, double *f)
{
    const cloth_mesh *m = env.mesh;
    const cloth_world_def *w = env.world;
    int n = m->n, drag = 0.5 * w->air_density * w->drag_coefficient != 0 && tris->n > 0;
    double cd = env.material->spring_damping, air = w->air_damping;
    const double *g = w->gravity;
    CLOTH__PARALLEL(threads)
    {
        int part = cloth__thread_id(), parts = cloth__thread_count(), v0, v1;
        cloth__share(n, part, parts, &v0, &v1);
        cloth__pad(x, x4, v0, v1);
        cloth__pad(v, v4, v0, v1);
        for (int i = v0; i < v1; i++) { /* 0 + m g: cloth__add_gravity on a zeroed f */
            double mi = m->mass[i];
            f4[4 * i] = 0.0 + mi * g[0];
            f4[4 * i + 1] = 0.0 + mi * g[1];
            f4[4 * i + 2] = 0.0 + mi * g[2];
            f4[4 * i + 3] = 0;
        }
        CLOTH__BARRIER
        if (drag)
            drag_colours(env, tris, part, parts, x4, v4, t, f4);
        for (int j = 4 * v0; j < 4 * v1 && air != 0; j++) /* cloth__add_air_damping */
            f4[j] -= air * v4[j];
        CLOTH__BARRIER
        const cloth__colouring *order = springs ? &springs->colours : NULL;
        for (int step = 0; order && step < order->n_steps; step++) {
            CLOTH__RANGES(order, step, part, parts, lo, hi)
                cloth__coloured_springs(springs, x4, v4, cd, f4, lo, hi);
            CLOTH__BARRIER
        }
        if (inv_mass) /* a = f / m, as f[i] *= inv_mass[i] after the sums */
            for (int i = v0; i < v1; i++)
                for (int k = 0; k < 3; k++)
                    f[3 * i + k] = f4[4 * i + k] * inv_mass[i];
        else
            cloth__unpad(f4, f, v0, v1);
    }
}
