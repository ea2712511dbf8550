/*
 * Coloured Gauss-Seidel (and coloured force scatter) for the kernels that work spring by
 * spring: explicit, verlet, pbd.  A kernel hands over the springs it projects; they are
 * coloured so that no two springs of a colour share a vertex, put in the tiled order of
 * terms/colour.h (tiles of nearby vertices, colour by colour within a tile), and kept as
 * structure of arrays in that order.  A run of one colour has no dependencies: the
 * compiler vectorises it (gathers and scatters; an AVX-512 and an AVX2 clone beside the
 * plain one, chosen at load time), and the hand-written AVX-512 blocks take it eight
 * springs at a time; threads take whole tiles.  Every vertex sees its springs in an
 * order fixed by the mesh alone, so the numbers do not depend on the thread count, nor
 * on the clone (-ffp-contract=off and no approximate sqrt or division: each lane rounds
 * as the scalar code does).
 *
 * Threads: OpenMP (run.threads); without -fopenmp the pragmas vanish and everything runs
 * on one thread with the same results.
 */
#ifndef CLOTH_KERNELS_COLOURED_H
#define CLOTH_KERNELS_COLOURED_H

#include "terms/colour.h"
#include "terms/forces.h"

/* The order a kernel works through its springs (its KERNEL.order key): the reference
 * order (the mesh's), or by colours with no shared vertex (vectorised and threaded;
 * other rounding, other results). */
typedef enum { CLOTH__ORDER_SEQUENTIAL = 0, CLOTH__ORDER_COLOURED = 1 } cloth__order;

/* The names of cloth__order in a key's choices (NULL-terminated). */
extern const char *const cloth__order_names[];

#ifdef _OPENMP
#include <omp.h>
#define CLOTH__PRAGMA(x) _Pragma(#x)
static inline int cloth__thread_id(void) { return omp_get_thread_num(); }
static inline int cloth__thread_count(void) { return omp_get_num_threads(); }
/* a parallel region of n threads (none when n is 1), a barrier */
#define CLOTH__PARALLEL(n) CLOTH__PRAGMA(omp parallel num_threads(n) if ((n) > 1))
#else
#define CLOTH__PRAGMA(x)
static inline int cloth__thread_id(void) { return 0; }
static inline int cloth__thread_count(void) { return 1; }
/* without OpenMP the region is the block that follows, on the calling thread */
#define CLOTH__PARALLEL(n) (void)(n);
#endif
#define CLOTH__BARRIER CLOTH__PRAGMA(omp barrier)

/* Thread `part` of `parts`'s ranges [lo, hi) of items in step `step` of a pass in the
 * tiled order `order` (terms/colour.h): the loop's body runs once a range; the threads
 * meet at a barrier after each step. */
#define CLOTH__RANGES(order, step, part, parts, lo, hi)                                    \
    for (int k_ = 0, lo, hi; cloth__colouring_range(order, step, part, parts, k_, &lo, &hi); \
         k_++)

/* Starts the OpenMP team of `threads` threads (the runtime keeps it for the parallel
 * regions that follow), so that a step's first region creates no threads. */
void cloth__coloured_start_threads(int threads);

/* Springs in the order of a pass, structure of arrays; item j is mesh spring spring[j]. */
typedef struct cloth__coloured {
    cloth__colouring colours;   /* the order of a pass: item j is colours.order[j]    */
    int n;                      /* items                                              */
    int stride;                 /* doubles a vertex in the positions: 3, or 4 padded  */
    int *spring;                /* the mesh spring of each item                       */
    int *ia, *ib;               /* stride a, stride b: offsets of the ends            */
    double *rest;               /* rest length l0                                     */
    double *k;                  /* stiffness k, copied from the mesh (explicit copies
                                 * it again when live.c changes it)                   */
    double *wa, *wb;            /* per-end weights (inverse masses, or end factors)   */
    double *gain, *inv_den, *alpha; /* pbd: k' or 1, 1/(w_a + w_b + alpha~), alpha~   */
    double *lambda;             /* pbd: XPBD multipliers                              */
} cloth__coloured;

/* Colours the mesh springs ids[0 .. count) (the caller's selection, in its order) and
 * fills spring, ia, ib (for positions of `stride` doubles a vertex), rest, k; the weights
 * are the caller's to fill.  with_pbd also allocates gain, inv_den, alpha, lambda. */
cloth_status cloth__coloured_create(const cloth_mesh *m, const int *ids, int count,
                                    int stride, int with_pbd, cloth__coloured **out,
                                    cloth_error *err);
void cloth__coloured_destroy(cloth__coloured *c);

/* Padded positions: x, y, z and a spare double a vertex, 32-byte aligned, so that the
 * AVX-512 blocks (coloured_avx512.h) load and store a vertex whole.  The projecting
 * kernels copy their 3n positions in before their coloured passes and out after them.
 * cloth__padded_alloc: 4n doubles, zeroed, freed with free(); NULL when out of memory. */
double *cloth__padded_alloc(int n);
/* x4 <- x and x <- x4 for vertices [lo, hi) */
void cloth__pad(const double *x, double *x4, int lo, int hi);
void cloth__unpad(const double *x4, double *x, int lo, int hi);

/* The loops below take positions in c's layout (c->stride); the AVX-512 blocks run only
 * on padded ones (stride 4). */

/* XPBD (or PBD) projection of items [lo, hi) of one colour in p:
 *   dl = (-k' C - alpha~ lambda) inv_den,  lambda += dl,  p_a += w_a (d/l) dl,
 *   p_b -= w_b (d/l) dl,  C = l - l0,  d = p_a - p_b. */
void cloth__coloured_xpbd(cloth__coloured *c, double *p, int lo, int hi);

/* The Verlet cloth web demo's relaxation of items [lo, hi):  c = (l - l0)/l half_k,
 * x_a += w_a c d,  x_b -= w_b c d,  d = x_b - x_a  (w: 0 pinned, 2 opposite a pin, else 1). */
void cloth__coloured_relax(cloth__coloured *c, double *x, double half_k, int lo, int hi);

/* Provot's correction of items [lo, hi) (w: 0 pinned, 1 opposite a pin, else 1/2);
 * returns how many springs it shortened. */
int cloth__coloured_provot(cloth__coloured *c, double *x, double factor, double tol, int lo,
                           int hi);

/* Hooke forces with spring damping of items [lo, hi), scattered into f:
 *   T = k (l - l0) + c_d (v_b - v_a).u,  f_a += T u,  f_b -= T u,  u = (x_b - x_a)/l;
 * without the damping term (not computed, v not read) when c_d = 0 or v is NULL. */
void cloth__coloured_springs(const cloth__coloured *c, const double *x, const double *v,
                             double cd, double *f, int lo, int hi);

/* c->k <- the mesh springs' k (after a live change of the stiffness) */
void cloth__coloured_copy_k(cloth__coloured *c, const cloth_mesh *m);

/* The triangles in colour order for the wind's drag (terms/forces.c's cloth__add_wind):
 * the corners' offsets and, per step, the gust factor of each triangle. */
typedef struct cloth__coloured_tris {
    cloth__colouring colours;   /* the order of a pass: triangle j is colours.order[j] */
    int n;                      /* triangles                                          */
    int stride;                 /* doubles a vertex in the positions: 3, or 4 padded  */
    int *i0, *i1, *i2;          /* stride x the corners' vertex indices               */
    double *gust;               /* 1 + turbulence noise at the centroid (this step;
                                 * not read without turbulence)                      */
} cloth__coloured_tris;

cloth_status cloth__coloured_tris_create(const cloth_mesh *m, int stride,
                                         cloth__coloured_tris **out, cloth_error *err);
void cloth__coloured_tris_destroy(cloth__coloured_tris *c);

/* Gravity, the wind's triangle drag in the tiled order (split among the threads of the
 * caller's run.threads) and air damping, added to f: cloth__add_external_forces in
 * another order of the drag's sums (v not NULL; c made with stride 3).  The scalar
 * loops on unpadded arrays: the tests' reference for cloth__coloured_forces. */
void cloth__coloured_external_forces(cloth__force_env env, const cloth__coloured_tris *c,
                                     int threads, const double *x, const double *v,
                                     double t, double *f);

/* The coloured orders' forces on x, v (3n, v not NULL) at time t into f (3n,
 * overwritten): cloth__coloured_external_forces on a zeroed f, then (springs not NULL:
 * explicit) cloth__coloured_springs in the tiled order, the same sums in the same order,
 * in one parallel region on the padded copies x4, v4, f4 (tris and springs made with
 * stride 4; the hand-written AVX-512 blocks run on them).  With inv_mass not NULL, f gets
 * the accelerations f_i inv_mass_i instead. */
void cloth__coloured_forces(cloth__force_env env, const cloth__coloured_tris *tris,
                            const cloth__coloured *springs, int threads, const double *x,
                            const double *v, double t, double *x4, double *v4, double *f4,
                            const double *inv_mass, double *f);

#endif
