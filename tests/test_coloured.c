/* The coloured orders (explicit, verlet, pbd .order = coloured) and run.threads: the
 * colouring shares no vertex within a colour; results are bit-identical for every thread
 * count; the hand-written AVX-512 blocks are bit-identical to the scalar loops; coloured
 * forces are the sequential ones up to rounding; coloured Gauss-Seidel reaches the same
 * rest state as the sequential order. */
#include "cloth.h"
#include "kernels/coloured.h"
#include "sim/sim.h"
#include "terms/colour.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the colouring */

/* The order of a pass (terms/colour.h) over every spring of a 30 x 24 grid (structural,
 * shear, bend) and a few long springs across it (as a seam between far-apart panels
 * would be): every spring once; no two springs of a segment share a vertex, and a
 * segment runs by lowest vertex; no two tiles of one parity share a vertex; a tile's
 * springs span at most T, the long ones more; greedy needs between d and 2 d - 1 colours,
 * d the largest number of springs at a vertex.  Every thread count's ranges cover each
 * step once, within segments. */
START_TEST(colours_share_no_vertex)
{
    cloth_scene s;
    cloth_default_scene(&s);
    cloth_error err;
    ck_assert(cloth_scene_set(&s, "mesh.nx=30", 1, &err) == CLOTH_OK);
    ck_assert(cloth_scene_set(&s, "mesh.ny=24", 2, &err) == CLOTH_OK);
    cloth_mesh *m;
    ck_assert_msg(cloth_mesh_create(&s, &m, &err) == CLOTH_OK, "%s", err.msg);
    const int n_long = 20, n_items = m->n_springs + n_long;
    int *ends = malloc(sizeof(int) * 2 * n_items), *degree = calloc(m->n, sizeof(int));
    int *seen = malloc(sizeof(int) * m->n), *placed = calloc(n_items, sizeof(int));
    for (int j = 0; j < n_items; j++) {
        int long_one = j >= m->n_springs, i = j - m->n_springs;
        ends[2 * j] = long_one ? 3 * i : m->springs[j].a;
        ends[2 * j + 1] = long_one ? m->n - 1 - 5 * i : m->springs[j].b;
        degree[ends[2 * j]]++;
        degree[ends[2 * j + 1]]++;
    }
    int d = 0;
    for (int i = 0; i < m->n; i++)
        d = degree[i] > d ? degree[i] : d;
    cloth__colouring c;
    ck_assert_msg(cloth__colour_items(n_items, 2, ends, m->n, &c, &err) == CLOTH_OK, "%s",
                  err.msg);
    ck_assert_int_eq(c.n_items, n_items);
    ck_assert_int_ge(c.n_colours, d); /* a vertex's springs all differ */
    ck_assert_int_le(c.n_colours, 2 * d - 1);
    int T = c.tile_size, tiles = c.n_tiles[0] + c.n_tiles[1];
    ck_assert_int_ge(T, CLOTH__TILE_MIN);
    ck_assert_int_eq(tiles, (m->n + T - 1) / T);
    ck_assert_int_eq(c.segment[0], 0);
    ck_assert_int_eq(c.segment[c.n_segments], n_items);
    ck_assert_int_eq(c.tile[0], 0);
    ck_assert_int_eq(c.n_steps, 2 + c.n_segments - c.tile[tiles]);
    int longs = 0;
    for (int g = 0; g < c.n_segments; g++) {
        for (int i = 0; i < m->n; i++)
            seen[i] = 0;
        for (int k = c.segment[g]; k < c.segment[g + 1]; k++) {
            int j = c.order[k], a = ends[2 * j], b = ends[2 * j + 1];
            int low = a < b ? a : b, span = abs(b - a);
            if (k > c.segment[g]) {
                int p = c.order[k - 1], plow = ends[2 * p] < ends[2 * p + 1] ? ends[2 * p]
                                                                            : ends[2 * p + 1];
                ck_assert(plow < low || (plow == low && p < j));
            }
            ck_assert_msg(!seen[a] && !seen[b], "segment %d: spring %d shares a vertex", g, j);
            seen[a] = seen[b] = 1;
            placed[j]++;
            if (g >= c.tile[tiles]) {
                ck_assert_msg(span > T, "spring %d of span %d among the long ones", j, span);
                longs++;
            } else {
                ck_assert_msg(span <= T, "spring %d of span %d in a tile", j, span);
            }
        }
    }
    ck_assert_int_gt(longs, 0);
    ck_assert_int_le(longs, n_long);
    for (int j = 0; j < n_items; j++)
        ck_assert_int_eq(placed[j], 1);
    /* tiles of one parity share no vertex: seen[v] = the tile that touched v */
    for (int phase = 0; phase < 2; phase++) {
        for (int i = 0; i < m->n; i++)
            seen[i] = -1;
        int first = phase ? c.n_tiles[0] : 0;
        for (int t = first; t < first + c.n_tiles[phase]; t++)
            for (int k = c.segment[c.tile[t]]; k < c.segment[c.tile[t + 1]]; k++)
                for (int e = 0; e < 2; e++) {
                    int v = ends[2 * c.order[k] + e];
                    ck_assert_msg(seen[v] < 0 || seen[v] == t, "tiles %d and %d share %d",
                                  seen[v], t, v);
                    seen[v] = t;
                }
    }
    /* the threads' ranges: each position of a step once, each range in one segment */
    for (int parts = 1; parts <= 3; parts++)
        for (int step = 0; step < c.n_steps; step++) {
            int from = step < 2 ? c.segment[c.tile[step ? c.n_tiles[0] : 0]]
                                : c.segment[c.tile[tiles] + step - 2];
            int to = step == 0   ? c.segment[c.tile[c.n_tiles[0]]]
                     : step == 1 ? c.segment[c.tile[tiles]]
                                 : c.segment[c.tile[tiles] + step - 1];
            int *hits = calloc(n_items + 1, sizeof(int));
            for (int part = 0; part < parts; part++) {
                int lo, hi;
                for (int k = 0; cloth__colouring_range(&c, step, part, parts, k, &lo, &hi);
                     k++) {
                    int g = 0;
                    while (c.segment[g + 1] <= lo)
                        g++;
                    ck_assert_msg(hi <= c.segment[g + 1], "a range across segments");
                    if (step >= 2)
                        ck_assert_int_eq((lo - c.segment[g]) % 8, 0);
                    for (int q = lo; q < hi; q++)
                        hits[q]++;
                }
            }
            for (int q = 0; q < n_items; q++)
                ck_assert_int_eq(hits[q], q >= from && q < to);
            free(hits);
        }
    cloth__colouring_free(&c);
    free(ends);
    free(degree);
    free(seen);
    free(placed);
    cloth_mesh_destroy(m);
}
END_TEST

/* A vertex in more items than there are colours: refused with a message, not an abort. */
START_TEST(too_many_colours_is_an_error)
{
    int n = CLOTH__MAX_COLOURS + 1, *ends = malloc(sizeof(int) * 2 * n);
    for (int j = 0; j < n; j++) {
        ends[2 * j] = 0; /* a star: every item at vertex 0 */
        ends[2 * j + 1] = j + 1;
    }
    cloth__colouring c;
    cloth_error err = {""};
    ck_assert_int_eq(cloth__colour_items(n, 2, ends, n + 1, &c, &err), CLOTH_EINVAL);
    ck_assert_ptr_null(c.order);
    ck_assert(strstr(err.msg, "colours") != NULL);
    free(ends);
}
END_TEST

/* ------------------------------------------------------ threads change nothing */

/* The Verlet cloth web demo's scene shrunk (wind with turbulence, the moving sphere, so
 * that the obstacle passes run split among threads too), per kernel and variant; 33 x 25
 * vertices, so that each parity has two tiles (terms/colour.h) to share out. */
static const struct {
    const char *kernel;
    int substeps;
    const char *keys;           /* more lines of the kernel's section */
} variants[] = {
    {"explicit", 20, ""},
    {"explicit", 20, "scheme = rk4\n"},
    {"verlet", 5, ""},
    {"verlet", 5, "mode = provot\nstrain_limit = 0.02\n"},
    {"pbd", 5, ""},
    {"pbd", 5, "variant = pbd\nk_pbd = 0.9\nbending = dihedral\n"},
};
#define N_VARIANTS ((int)(sizeof variants / sizeof variants[0]))

static cloth_sim *hanging(int variant, const char *order, int threads)
{
    char text[2048];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 33\nny = 25\nspacing = 0.09\npins = top-row\n"
             "[material]\nk_structural = 500\nk_shear = 200\nk_bend = 50\n"
             "vertex_mass = 0.01\nspring_damping = 0.02\n"
             "[world]\nwind = 0 0 2\nturbulence = 0.5\nair_damping = 0.001\n"
             "[sphere]\nradius = 0.35\noffset = 0.15\n"
             "motion = path 1.45 -1.3 -1.2  1.45 -1.3 1.2  1\n"
             "[run]\nkernel = %s\nsubsteps = %d\ndt = 0.016666666666666666\nthreads = %d\n"
             "[%s]\norder = %s\n%s",
             variants[variant].kernel, variants[variant].substeps, threads,
             variants[variant].kernel, order, variants[variant].keys);
    return tu_sim(text, "coloured.ini");
}

START_TEST(threads_give_bit_identical_results)
{
    int v = _i;
    cloth_sim *one = hanging(v, "coloured", 1);
    const int n3 = 3 * cloth_sim_mesh(one)->n;
    tu_frames(one, 12);
    for (int threads = 2; threads <= 3; threads++) {
        cloth_sim *many = hanging(v, "coloured", threads);
        tu_frames(many, 12);
        ck_assert_msg(memcmp(cloth_sim_positions(one), cloth_sim_positions(many),
                             sizeof(double) * n3) == 0,
                      "variant %d: positions differ on %d threads", v, threads);
        ck_assert_msg(memcmp(cloth_sim_velocities(one), cloth_sim_velocities(many),
                             sizeof(double) * n3) == 0,
                      "variant %d: velocities differ on %d threads", v, threads);
        cloth_sim_destroy(many);
    }
    /* the sequential order does not look at run.threads at all */
    cloth_sim *seq1 = hanging(v, "sequential", 1), *seq2 = hanging(v, "sequential", 2);
    tu_frames(seq1, 5);
    tu_frames(seq2, 5);
    ck_assert(memcmp(cloth_sim_positions(seq1), cloth_sim_positions(seq2),
                     sizeof(double) * n3) == 0);
    cloth_sim_destroy(seq1);
    cloth_sim_destroy(seq2);
    cloth_sim_destroy(one);
}
END_TEST

/* A 24 x 18 grid with its vertex ids shuffled: nearly every spring spans more than a
 * tile, so a pass is one tile and then colours of long springs, each split among the
 * threads in blocks of 8 (terms/colour.h); 1 and 2 threads still give the same bits. */
START_TEST(shuffled_ids_give_bit_identical_results)
{
    static const char *const kernels[] = {"explicit", "verlet", "pbd"};
    const int nx = 24, ny = 18, n = nx * ny;
    int *id = malloc(sizeof(int) * n);
    unsigned seed = 2026;
    for (int i = 0; i < n; i++)
        id[i] = i;
    for (int i = n - 1; i > 0; i--) { /* Fisher-Yates with a fixed LCG */
        seed = seed * 1664525u + 1013904223u;
        int j = (int)((seed >> 8) % (unsigned)(i + 1)), t = id[i];
        id[i] = id[j];
        id[j] = t;
    }
    size_t size = 64 * (size_t)n * 3, len = 0;
    char *obj = malloc(size), pins[512] = "", *at = pins;
    double (*x)[3] = malloc(sizeof *x * n);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            x[id[j * nx + i]][0] = 0.1 * i;
            x[id[j * nx + i]][1] = -0.1 * j;
            x[id[j * nx + i]][2] = 0;
        }
    for (int v = 0; v < n; v++)
        len += (size_t)snprintf(obj + len, size - len, "v %g %g %g\n", x[v][0], x[v][1],
                                x[v][2]);
    for (int j = 0; j + 1 < ny; j++)
        for (int i = 0; i + 1 < nx; i++) {
            int a = id[j * nx + i] + 1, b = id[j * nx + i + 1] + 1;
            int c = id[(j + 1) * nx + i] + 1, d = id[(j + 1) * nx + i + 1] + 1;
            len += (size_t)snprintf(obj + len, size - len, "f %d %d %d\nf %d %d %d\n", a, c,
                                    b, b, c, d);
        }
    for (int i = 0; i < nx; i++)
        at += snprintf(at, sizeof pins - (size_t)(at - pins), " %d", id[i]);
    const char *path = tu_temp_file("shuffled.obj", obj);
    for (int k = 0; k < 3; k++) {
        cloth_sim *sim[2];
        for (int t = 0; t < 2; t++) {
            char text[2048];
            snprintf(text, sizeof text,
                     "[mesh]\nobj = %s\npins =%s\n[world]\nwind = 1 0 2\nturbulence = 0.3\n"
                     "[run]\nkernel = %s\nsubsteps = %d\nthreads = %d\n"
                     "[%s]\norder = coloured\n",
                     path, pins, kernels[k], k == 0 ? 40 : 5, t + 1, kernels[k]);
            sim[t] = tu_sim(text, "shuffled.ini");
            tu_frames(sim[t], 10);
        }
        if (k == 0) { /* the springs' order really has long colours */
            const cloth_mesh *m = cloth_sim_mesh(sim[0]);
            int *ends = malloc(sizeof(int) * 2 * m->n_springs);
            for (int j = 0; j < m->n_springs; j++) {
                ends[2 * j] = m->springs[j].a;
                ends[2 * j + 1] = m->springs[j].b;
            }
            cloth__colouring c;
            cloth_error err;
            ck_assert(cloth__colour_items(m->n_springs, 2, ends, m->n, &c, &err) == CLOTH_OK);
            ck_assert_int_gt(c.n_steps, 2);
            cloth__colouring_free(&c);
            free(ends);
        }
        ck_assert_msg(memcmp(cloth_sim_positions(sim[0]), cloth_sim_positions(sim[1]),
                             sizeof(double) * 3 * n) == 0,
                      "%s: positions differ on 2 threads", kernels[k]);
        cloth_sim_destroy(sim[0]);
        cloth_sim_destroy(sim[1]);
    }
    free(id);
    free(obj);
    free(x);
}
END_TEST

/* ------------------------------------- the AVX-512 blocks are the scalar loops */

/* a reproducible number in [-1, 1) */
static double noise(unsigned *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (*state >> 8) / 8388608.0 - 1;
}

/* Where the CPU has AVX-512, a range of a colour runs in blocks of 8 by hand-written
 * intrinsics (coloured_avx512.h) and a range of one item runs the scalar loop.  Both
 * must give the same bits (the same operations in the same order, each rounded), on
 * positions scattered so that springs are stretched, compressed and some left alone;
 * elsewhere both are the scalar loop and the test holds trivially. */
START_TEST(blocks_are_the_scalar_loop)
{
    cloth_sim *sim = hanging(4, "coloured", 1); /* pbd, dihedral hinges: any mesh will do */
    const cloth_mesh *m = cloth_sim_mesh(sim);
    int n = m->n, ns = m->n_springs;
    int *ids = malloc(sizeof(int) * (size_t)ns);
    double *x = malloc(sizeof(double) * 3 * (size_t)n), *v = malloc(sizeof(double) * 3 * (size_t)n);
    double *one[3], *many[3], *out[2];
    for (int k = 0; k < 3; k++) {
        one[k] = cloth__padded_alloc(n);
        many[k] = cloth__padded_alloc(n);
    }
    for (int k = 0; k < 2; k++)
        out[k] = malloc(sizeof(double) * 3 * (size_t)n);
    unsigned seed = 12345;
    for (int i = 0; i < 3 * n; i++) {
        x[i] = m->x0[i] + 0.03 * noise(&seed); /* spacing 0.09: up to a third */
        v[i] = noise(&seed) / 0.7; /* every bit of the mantissa: a rounding shows */
    }
    for (int s = 0; s < ns; s++)
        ids[s] = s;
    cloth__coloured *c;
    cloth_error err = {""};
    ck_assert_int_eq(cloth__coloured_create(m, ids, ns, 4, 1, &c, &err), CLOTH_OK);
    for (int j = 0; j < c->n; j++) {
        c->wa[j] = (j % 3) * 0.5; /* 0 (pinned), 1/2 and 1, as the kernels give */
        c->wb[j] = ((j + 1) % 3) * 0.5;
        c->gain[j] = 0.5 + 0.5 * fabs(noise(&seed));
        c->alpha[j] = j % 2 ? 0 : 1e-3 * fabs(noise(&seed));
        c->inv_den[j] = 1 / (c->wa[j] + c->wb[j] + c->alpha[j] + 0.1);
        c->lambda[j] = noise(&seed);
    }
    double *lambda0 = malloc(sizeof(double) * (size_t)c->n);
    double *lambda1 = malloc(sizeof(double) * (size_t)c->n);
    memcpy(lambda0, c->lambda, sizeof(double) * (size_t)c->n);
    static const char *const loops[] = {"relax", "provot", "xpbd", "springs",
                                        "springs without damping"};
    for (int loop = 0; loop < 5; loop++) {
        int counted[2] = {0, 0};
        double **pos[2] = {one, many};
        for (int way = 0; way < 2; way++) { /* 0: whole colours, 1: one item at a time */
            double **p = pos[way];
            cloth__pad(x, p[0], 0, n);
            cloth__pad(v, p[1], 0, n);
            cloth__pad(v, p[2], 0, n); /* forces: start from anything */
            memcpy(c->lambda, lambda0, sizeof(double) * (size_t)c->n);
            for (int pass = 0; pass < 2; pass++)
                for (int g = 0; g < c->colours.n_segments; g++) {
                    int lo = c->colours.segment[g], hi = c->colours.segment[g + 1];
                    for (int j = lo; j < hi; j = way ? j + 1 : hi) {
                        int end = way ? j + 1 : hi;
                        if (loop == 0)
                            cloth__coloured_relax(c, p[0], 0.45, j, end);
                        else if (loop == 1)
                            counted[way] += cloth__coloured_provot(c, p[0], 1.1, 1e-3, j, end);
                        else if (loop == 2)
                            cloth__coloured_xpbd(c, p[0], j, end);
                        else
                            cloth__coloured_springs(c, p[0], p[1], loop == 3 ? 0.03 : 0,
                                                    p[2], j, end);
                    }
                }
            if (way == 0)
                memcpy(lambda1, c->lambda, sizeof(double) * (size_t)c->n);
        }
        int k = loop >= 3 ? 2 : 0;
        cloth__unpad(one[k], out[0], 0, n);
        cloth__unpad(many[k], out[1], 0, n);
        ck_assert_msg(memcmp(out[0], out[1], sizeof(double) * 3 * (size_t)n) == 0,
                      "%s: blocks and single items differ", loops[loop]);
        ck_assert_msg(memcmp(out[0], loop >= 3 ? v : x, sizeof(double) * 3 * (size_t)n) != 0,
                      "%s moved nothing", loops[loop]);
        ck_assert(memcmp(lambda1, c->lambda, sizeof(double) * (size_t)c->n) == 0);
        ck_assert_int_eq(counted[0], counted[1]);
        if (loop == 1)
            ck_assert_msg(counted[0] > 0 && counted[0] < 2 * c->n, "provot: %d of %d over",
                          counted[0], 2 * c->n);
    }
    /* every force of explicit's coloured step (gravity, the wind's drag with turbulence,
     * air damping, the springs) on padded copies with the blocks, against the same sums on
     * the 3n arrays by the scalar loops (stride 3: no blocks) */
    cloth__coloured_tris *t4, *t3;
    cloth__coloured *c3;
    ck_assert_int_eq(cloth__coloured_tris_create(m, 4, &t4, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__coloured_tris_create(m, 3, &t3, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__coloured_create(m, ids, ns, 3, 0, &c3, &err), CLOTH_OK);
    cloth__force_env env = cloth__sim_force_env(sim);
    cloth_world_def calm = *env.world;
    calm.turbulence = 0;
    for (int turbulent = 1; turbulent >= 0; turbulent--) { /* the wind with gusts, without */
        if (!turbulent)
            env.world = &calm;
        cloth__coloured_forces(env, t4, c, 1, x, v, 0.7, one[0], one[1], one[2], NULL, out[0]);
        memset(out[1], 0, sizeof(double) * 3 * (size_t)n);
        cloth__coloured_external_forces(env, t3, 1, x, v, 0.7, out[1]);
        for (int g = 0; g < c3->colours.n_segments; g++)
            cloth__coloured_springs(c3, x, v, env.material->spring_damping, out[1],
                                    c3->colours.segment[g], c3->colours.segment[g + 1]);
        ck_assert_msg(memcmp(out[0], out[1], sizeof(double) * 3 * (size_t)n) == 0,
                      "turbulence %g: blocks and scalar loops differ", env.world->turbulence);
    }
    cloth__coloured_tris_destroy(t4);
    cloth__coloured_tris_destroy(t3);
    cloth__coloured_destroy(c3);
    cloth__coloured_destroy(c);
    for (int k = 0; k < 3; k++) {
        free(one[k]);
        free(many[k]);
    }
    free(out[0]);
    free(out[1]);
    free(lambda0);
    free(lambda1);
    free(ids);
    free(x);
    free(v);
    cloth_sim_destroy(sim);
}
END_TEST

/* ------------------------------------------- the same physics in another order */

/* explicit: a coloured step sums each vertex's spring forces in another order, so a
 * frame from the same state agrees with the sequential one to rounding; and so does the
 * next frame after a live change of the stiffness (the coloured springs keep a copy of
 * k, which the change must reach). */
START_TEST(coloured_forces_are_the_sequential_ones)
{
    for (int v = 0; v < 2; v++) {
        cloth_sim *seq = hanging(v, "sequential", 1), *col = hanging(v, "coloured", 2);
        const cloth_mesh *m = cloth_sim_mesh(seq);
        const double *a = cloth_sim_velocities(seq), *b = cloth_sim_velocities(col);
        for (int change = 0; change < 2; change++) {
            cloth_error err;
            if (change) {
                ck_assert(cloth_sim_set(seq, "material.k_structural=5000", &err) == CLOTH_OK);
                ck_assert(cloth_sim_set(col, "material.k_structural=5000", &err) == CLOTH_OK);
            }
            tu_frames(seq, 1);
            tu_frames(col, 1);
            double worst = 0, scale = 0;
            for (int i = 0; i < 3 * m->n; i++) {
                worst = fmax(worst, fabs(a[i] - b[i]));
                scale = fmax(scale, fabs(a[i]));
            }
            /* a frame is 20 steps: rounding differences may grow a little */
            ck_assert_msg(worst <= 1e-10 * scale, "variant %d, frame %d: |dv| %g of %g", v,
                          change + 1, worst, scale);
        }
        cloth_sim_destroy(seq);
        cloth_sim_destroy(col);
    }
}
END_TEST

/* verlet (relaxation) and pbd (plain, k_pbd = 1: exact constraints): a hanging cloth with
 * damping comes to rest with its springs at their rest lengths in either order, so both
 * orders reach the same state: the springs' length errors are small and the positions
 * agree to about that. */
static const char *const statics[] = {
    "iterations = 60\ndamping = 0.9\nstrain_limit = 0\n",
    "variant = pbd\niterations = 60\ndamping = 0.2\n",
};

static double worst_length_error(const cloth_sim *sim)
{
    const cloth_mesh *m = cloth_sim_mesh(sim);
    const double *x = cloth_sim_positions((cloth_sim *)sim);
    double worst = 0;
    for (int s = 0; s < m->n_springs; s++) {
        const cloth_spring *sp = &m->springs[s];
        const double *a = x + 3 * sp->a, *b = x + 3 * sp->b;
        double l = sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                        (a[2] - b[2]) * (a[2] - b[2]));
        worst = fmax(worst, fabs(l / sp->rest - 1));
    }
    return worst;
}

START_TEST(coloured_reaches_the_sequential_rest_state)
{
    const char *kernel = _i == 0 ? "verlet" : "pbd";
    cloth_sim *sim[2];
    for (int o = 0; o < 2; o++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "[mesh]\nnx = 9\nny = 7\nspacing = 0.1\npins = top-row\n"
                 "[material]\nvertex_mass = 0.01\n"
                 "[world]\nair_damping = 0.01\n"
                 "[run]\nkernel = %s\nsubsteps = 5\ndt = 0.016666666666666666\n"
                 "[%s]\norder = %s\n%s",
                 kernel, kernel, o ? "coloured" : "sequential", statics[_i]);
        sim[o] = tu_sim(text, "coloured.ini");
        tu_frames(sim[o], 300);
    }
    const int n = cloth_sim_mesh(sim[0])->n;
    double e0 = worst_length_error(sim[0]), e1 = worst_length_error(sim[1]), gap = 0;
    const double *x0 = cloth_sim_positions(sim[0]), *x1 = cloth_sim_positions(sim[1]);
    for (int i = 0; i < 3 * n; i++)
        gap = fmax(gap, fabs(x0[i] - x1[i]));
    ck_assert_msg(e0 < 1e-3 && e1 < 1e-3, "%s: length errors %g %g", kernel, e0, e1);
    ck_assert_msg(gap < 1e-3, "%s: the rest states differ by %g m", kernel, gap);
    /* and they are not bit-identical: the order really changed */
    ck_assert(memcmp(x0, x1, sizeof(double) * 3 * n) != 0);
    cloth_sim_destroy(sim[0]);
    cloth_sim_destroy(sim[1]);
}
END_TEST

START_TEST(bad_order_and_threads_are_refused)
{
    static const char *const bad[] = {"pbd.order=random", "verlet.order=", "explicit.order=1",
                                      "run.threads=0", "run.threads=65", "run.threads=1.5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cloth_scene s;
        cloth_default_scene(&s);
        cloth_error err = {""};
        ck_assert_msg(cloth_scene_set(&s, bad[i], 1, &err) != CLOTH_OK, "%s accepted", bad[i]);
        ck_assert(err.msg[0] != 0);
    }
}
END_TEST

Suite *suite_coloured(void)
{
    Suite *s = suite_create("coloured");
    TCase *tc = tcase_create("coloured");
    /* threads meeting at a barrier per colour crawl on a machine busy with other work */
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, colours_share_no_vertex);
    tcase_add_test(tc, too_many_colours_is_an_error);
    tcase_add_loop_test(tc, threads_give_bit_identical_results, 0, N_VARIANTS);
    tcase_add_test(tc, shuffled_ids_give_bit_identical_results);
    tcase_add_test(tc, blocks_are_the_scalar_loop);
    tcase_add_test(tc, coloured_forces_are_the_sequential_ones);
    tcase_add_loop_test(tc, coloured_reaches_the_sequential_rest_state, 0, 2);
    tcase_add_test(tc, bad_order_and_threads_are_refused);
    suite_add_tcase(s, tc);
    return s;
}
