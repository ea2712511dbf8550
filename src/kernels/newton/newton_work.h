/* Private to src/kernels/newton/: the kernel's work memory and the functions its files
 * share (the map of the files is at the top of newton.c).  Sized at create; a step
 * allocates nothing. */
#ifndef CLOTH_NEWTON_WORK_H
#define CLOTH_NEWTON_WORK_H

#include "body/avatar.h"
#include "kernels/newton/newton_def.h"
#include "kernels/newton/newton_profile.h"
#include "sim/sim.h"
#include "linalg/dense.h"
#include "linalg/sparse.h"
#include "terms/broad_phase.h"
#include "terms/friction.h"
#include "terms/spatial_hash.h"

#include <stddef.h>
#include <time.h>

typedef struct cloth__newton cloth__newton; /* as newton.h names it                    */

/* ---------------------------------------------------------- step context */

/* Everything a step reads of the sim and its scene, gathered once at the step's start
 * (cloth__newton_ctx_build, newton_ctx.c) in the manner of Box2D v3's b2StepContext: the
 * stages read this, never the scene, so the settings' home can move without touching
 * them.  Also built at create and at start (h then as noted), and by the energy entry
 * points of newton.h that the tests call.  Values are copies; the pointers are the
 * sim's and stay valid for the step. */
typedef struct cloth__newton_ctx {
    const cloth__newton_def *nd; /* the kernel's settings (newton.*)                   */
    double h;                   /* this step's length (s)                             */
    int substeps;               /* run.substeps: steps a frame (newton.csv rows)      */
    long frame;                 /* frames done: this step's rows are frame + 1's      */
    const char *source;         /* the scene file, for messages                       */

    /* the cloth and its state at the step's start */
    const cloth_mesh *mesh;     /* read-only during a step                            */
    const double *x, *v;        /* 3n positions and velocities (the sim's)            */
    double t;                   /* time (s): the wind's and the sphere's spin         */
    cloth__force_env env;       /* what the wind force reads                          */
    double thickness;           /* material.thickness: self-contact distance (m)      */
    double spring_damping;      /* material.spring_damping c_d (N s/m)                */
    double prestretch;          /* mesh.prestretch (messages)                         */
    cloth_self_collision self_collision; /* run.self_collision                        */

    /* the world */
    double gravity[3];          /* world.gravity (m/s^2)                              */
    double air_damping;         /* world.air_damping c (N s/m)                        */

    /* the obstacles at this step */
    cloth_sphere_def sphere;    /* [sphere]: enabled, radius, offset, motion, spin    */
    double sphere_c[3];         /* its centre where the sim puts it for the step's end */
    cloth_floor_def floor;      /* [plane]: enabled, height, offset                   */
    const cloth_avatar *avatar; /* the [avatar]'s body posed for the step's end, or
                                 * NULL                                               */
    double avatar_offset;       /* avatar.offset: the skin's thickness (m)            */
    cloth_avatar_collision avatar_collision; /* avatar.collision                      */
} cloth__newton_ctx;

/* ctx <- the sim's scene and state for a step of length h; h <= 0 (at create) takes the
 * sim's own step, run.dt / run.substeps. */
void cloth__newton_ctx_build(cloth__newton_ctx *ctx, const cloth_sim *sim, double h);

/* ------------------------------------------------------------------ work */

typedef enum {
    CLOTH__CONTACT_SPHERE,      /* a vertex against the sphere                         */
    CLOTH__CONTACT_FLOOR,       /* a vertex against the floor ([plane])                */
    CLOTH__CONTACT_PAIR,        /* two vertices not joined by a spring or triangle
                                 * (newton.contact = vertex)                          */
    CLOTH__CONTACT_PT,          /* a vertex and a triangle (newton.contact = full)     */
    CLOTH__CONTACT_EE,          /* two edges (newton.contact = full)                  */
    CLOTH__CONTACT_STRAIN,      /* a structural or shear edge in its strain band       */
    CLOTH__CONTACT_TRIANGLE,    /* a triangle whose largest singular value is in it    */
    CLOTH__CONTACT_BODY         /* a vertex against the [avatar]'s body                */
} cloth__contact_kind;

/* One active barrier term. */
typedef struct cloth__contact {
    cloth__contact_kind kind;
    int a, b;                   /* vertices; b = -1 for obstacles (a triangle: its first
                                 * two; PT: the vertex and -1; EE: the two edges, as
                                 * indices into the broad phase's edge list)          */
    int elem;                   /* the spring (STRAIN) or triangle (TRIANGLE, PT), else
                                 * -1                                                 */
} cloth__contact;

/* The lagged friction of one contact (newton_friction.c). */
typedef struct cloth__newton_friction {
    cloth__friction_stencil st; /* coefficients, tangents, lambda at x_n               */
    int v[4];                   /* its vertices (st.n_verts of them)                  */
    double surface[3];          /* the obstacle surface's displacement over the step  */
} cloth__newton_friction;

/* Frozen dynamic kappa of a vertex pair, keyed by a * n + b (a < b); key -1 is empty. */
typedef struct cloth__pair_slot {
    long long key;
    double kappa;
} cloth__pair_slot;

/* The dynamic kappa of every term a step has met, NAN = not met (newton_kappa.c). */
typedef struct cloth__kappa_store {
    double *sphere, *floor, *body;  /* n each                                         */
    double *edge;                   /* n_springs                                      */
    double *tri;                    /* n_tris                                         */
    cloth__pair_slot *pair;         /* self-contact terms: open addressing, pair_mask
                                     * + 1 slots                                      */
    int *pair_used, n_pair_used;    /* occupied slots, for clearing                   */
} cloth__kappa_store;

/* What one evaluation of E saw at its x. */
typedef struct cloth__newton_seen {
    int active;                 /* active barrier terms                               */
    double kappa_max;           /* largest kappa among them                           */
    double min_gap;             /* smallest contact (not strain) gap, or +inf         */
    double barrier;             /* sum of their kappa psi(g)                          */
    double self_gap;            /* smallest self-contact gap, or +inf                 */
    double energy;              /* E itself                                           */
} cloth__newton_seen;

/* What the last feasibility filter found (newton_line_search.c), for newton.csv: each
 * filter's bound on alpha along the direction (INFINITY when it bounds nothing; only a
 * bound below 1 is exact) and how many of its elements bound it. */
typedef struct cloth__newton_filters {
    double obstacle;            /* sphere, floor and body: the smallest vertex bound   */
    double ccd;                 /* self-contact (CCD, or the vertex pairs' bound)      */
    double strain;              /* the strain limit's filter                           */
    int n_obstacle;             /* vertices whose obstacle bound is below 1            */
    int n_ccd;                  /* self-contact queries that found an impact, each
                                 * lowering the running bound (and overflow halvings) */
    int n_strain;               /* limited triangles or edges whose bound is below 1
                                 * and below the obstacles'                           */
} cloth__newton_filters;

struct cloth__newton {
    int n;                      /* vertices                                           */
    int ndof;                   /* unknowns, 3 per free vertex                        */
    int *dof;                   /* n: first unknown of each vertex, -1 when pinned     */
    double mean_mass;           /* over free vertices                                 */
    double min_mass;            /* the smallest mass of a free vertex                 */

    /* mesh adjacency, built once */
    int *adj_start, *adj;       /* CSR, sorted: vertices joined by a spring or a triangle */
    int *inc_start, *inc;       /* CSR: springs at each vertex                        */
    int n_limited, *limited;    /* structural and shear springs (strain_measure edge) */
    int n_limited_tris, *limited_tris; /* non-degenerate triangles (triangle measure)  */
    double *tri_dm;             /* 4 per triangle: Dm^-1 of its rest shape             */
    double *tri_mass;           /* per triangle: its share of the lumped vertex masses,
                                 * rho A with material.density (strain kappa)         */

    /* the step */
    double h;
    double h_in;                /* the inertia term's step: h (euler), 2h/3 (bdf2),
                                 * h/sqrt 2 (midpoint); M/h_in^2 in H                 */
    double h_damp;              /* damping's velocity is (x - x_hat)/h_damp: h, 2h/3  */
    int bdf2;                   /* 1 when this step is a BDF2 step (history there)    */
    double *x_n;                /* 3n positions at step start                         */
    double *z_x, *z_v;          /* newton.loop = zozo: 3n positions and velocities at
                                 * the start of the inner step (newton.c)             */
    double *v_n;                /* 3n velocities at step start                        */
    double *x_hat;              /* 3n: x_n, or 4/3 x_n - 1/3 x_{n-1} (bdf2)            */
    double *x_tilde;            /* 3n predicted positions                             */
    double *y;                  /* 3n: the midpoint (x + x_n)/2 (midpoint)            */
    double *x_prev, *v_prev;    /* 3n each: x_{n-1}, v_{n-1} (bdf2)                   */
    double *v_last;             /* 3n: the velocities the last step wrote             */
    double h_prev;              /* that step's h                                      */
    int history;                /* 1 while x_prev, v_prev belong to the sim's state   */
    double *f_ext;              /* 3n wind force at step start                        */
    double *u_n;                /* 3 per spring: its direction at step start          */
    double *x;                  /* 3n Newton iterate                                  */
    double *x_trial;            /* 3n line-search point                               */
    double *dir;                /* 3n Newton direction per vertex (0 when pinned)     */
    double *grad;               /* ndof                                               */
    double *grad_b;             /* ndof: contact barrier gradient at kappa = 1 (IPC)   */
    double *step;               /* ndof: the solve's result                           */
    long steps;                 /* steps begun since create                           */

    /* the Newton matrix (newton_system.c) */
    cloth__sparse *H;           /* 3x3 blocks, one block row per free vertex          */
    int *pat_start, *pat_rows;  /* scratch of a pattern: nb + 1, block_cap            */
    int *pat_pairs;             /* 2 per self-contact pair in the pattern (blocks)    */
    int n_pat_pairs, pair_block_cap;
    int contact_block_cap;      /* blocks of H beyond the mesh's, for contacts        */
    long pattern_overflows;     /* patterns that did not fit (an error)               */
    long pat_step;              /* the step in which the pattern was last built       */
    long pattern_builds;        /* since create                                       */
    double *H_dense;            /* ndof x ndof: solver = dense, or exact cond by
                                 * dsyevd; else NULL                                  */
    cloth__linalg *la;          /* the dense factor and eigenvalues, with H_dense     */
    struct cloth__chol *chol;   /* CHOLMOD: solver = cholmod, or cond by its factor   */
    struct cloth__pcg *pcg;     /* solver = pcg                                       */
    struct cloth__eigs *eigs;   /* ARPACK: exact cond above cond_exact_max            */
    struct cloth__condest *condest; /* 1-norm estimate from CHOLMOD's factor          */
    double *rhs;                /* ndof: -grad E for PCG                              */
    int factored;               /* chol holds the factor of this iteration's H        */
    double factor_eps;          /* the shift that factor needed                       */
    int reusable;               /* chol holds the factor of an earlier H (+ eps I) that
                                 * may precondition PCG (newton.factor_reuse)         */
    int reuse_fails;            /* factor reuse: attempts in a row that failed (at
                                 * most REUSE_BACKOFF_MAX, newton_system.c) ...       */
    int reuse_skip;             /* ... and iterations left that factor at once        */
    int spring_exact;           /* H takes the springs' Hessians unprojected (newton.c:
                                 * spring_hessian = adaptive, for the rest of a step)  */
    double *spring_neg;         /* n: with spring_exact, each vertex's sum of 2 k (l0/l
                                 * - 1)+ over its compressed springs (scratch)        */
    double spring_shift;        /* their largest: lambda_max of what projection adds
                                 * to H is at most this (Gershgorin)                  */
    int h_springs_exact;        /* H as last assembled holds the springs' Hessians
                                 * unprojected (spring_shift then bounds what it lacks
                                 * of the projected H: newton_system.c's floor)       */
    int *spring_blk;            /* 3 n_springs: each spring's blocks (a, a), (b, b) and
                                 * its off-diagonal one as H's block indices (-1: a
                                 * pinned end), so assembly adds without searching    */
    unsigned long spring_blk_id; /* the H pattern_id they were found for              */
    int spring_blk_ok;          /* 0 until found (and after a reset)                  */

    /* the sphere within a step (newton_contacts.c) */
    double sphere_from[3];      /* its centre at the step's start                     */
    double sphere_c[3];         /* its centre for E now                               */
    double sphere_s;            /* progress from sphere_from to ctx->sphere_c, 0..1   */

    /* the avatar's body within a step (newton_body.c) */
    cloth__pose body_from;      /* its pose where the last step left it               */
    cloth__pose body_stage;     /* its pose for E now, between body_from and the
                                 * avatar's pose for the step's end                   */
    cloth__bt_pose body_pose;   /* body_stage posed (transforms, planes, capsules)    */
    double body_s;              /* progress from body_from to the avatar's pose, 0..1 */
    long body_stages;           /* stages the body advanced by, since create          */
    double *body_gap;           /* n: each vertex's body gap at the stage (scratch)   */

    /* contacts */
    cloth__spatial_hash *hash;  /* vertex-pair candidates (contact = vertex)           */
    cloth__broad_phase *bp;     /* point-triangle and edge-edge candidates (full)     */
    const int *edges;           /* the broad phase's edge list, 2 vertices each       */
    int n_edges;
    int pair_cap;               /* pairs a query may return (of each kind)            */
    int *cand_pt, *cand_ee;     /* the line search's candidates, 2 ints a pair: every
                                 * pair within thickness + g^ somewhere on the segment
                                 * from the iterate to the full step                  */
    int n_cand_pt, n_cand_ee;
    int cand_valid;             /* 1 while the points evaluated lie on that segment   */
    signed char *cand_rest_pt, *cand_rest_ee; /* pair_cap: per candidate, 1 when it is
                                 * within reach in the rest shape (not a contact), 0
                                 * when not, -1 not yet known (a pair's is constant)  */
    double *cand_reach_pt, *cand_reach_ee; /* 2 pair_cap: per candidate, its stencil's
                                 * distance d0 at the segment's start and the speed l_p
                                 * at which it may close along dir, relative to its
                                 * first vertex (self_contact_alpha),
                                 * so that a trial point's collection skips a pair whose
                                 * d0 - alpha l_p keeps it out of reach               */
    double cand_scale;          /* the largest |coordinate| on the segment (the margin
                                 * of that bound: newton_contacts.c)                  */
    int cand_bounds;            /* 1 when the two above are this line search's        */
    int trial;                  /* 1 while the line search evaluates x + trial_alpha
                                 * dir from the segment's start (its Armijo trials)   */
    double trial_alpha;
    char layout_pad[16];        /* the seven fields above and this: 64 bytes, so that
                                 * the arrays allocated after the work keep their
                                 * alignment modulo a cache line, which the round-off
                                 * of OpenBLAS's kernels follows (48 bytes moved the
                                 * last digits of the 1-norm condition estimate of the
                                 * hanging figure's run; issue 47, item 5)           */
    int self_cap;               /* active self-contacts at most                       */
    cloth__contact *contacts;   /* active terms at the last evaluated x               */
    int n_contacts, contact_cap;
    double *contact_gap;        /* contact_cap: each term's gap at that x (the
                                 * stencils' from their collection, the rest's from
                                 * cloth__newton_energy), so it is computed once      */
    /* the last collection of point-triangle and edge-edge terms from the kept
     * candidates: the accepted trial point of a line search is the next iterate, bit for
     * bit, and its terms need not be collected twice (newton_contacts.c) */
    int full_valid;             /* 1 while the fields below hold such a collection    */
    double *full_x;             /* 3n: the x it was at                                */
    cloth__contact *full_terms; /* self_cap: its terms, in their order                */
    double *full_gap;           /* self_cap: and their gaps                           */
    int n_full;
    double *speed;              /* n: |dir| of each vertex (the feasibility filter's)  */
    long contact_overflows;     /* active terms dropped for want of room (an error)   */
    long pair_overflows;        /* queries that had more pairs than pair_cap          */

    cloth__newton_friction *friction; /* contact_cap: the step's lagged contacts     */
    int n_friction;

    cloth__newton_seen eval;    /* the last evaluation of E                           */
    cloth__newton_seen measured;/* at the state after the last step (for measure)     */

    /* stiffness */
    double kappa_contact_auto;  /* kappa_value = auto for contacts                    */
    double kappa_strain_auto;   /* and for limited edges                              */
    cloth__kappa_store kappa;   /* this step's dynamic kappa of each active term      */
    cloth__kappa_store kappa_prev; /* the previous step's (monotone: carried, below)  */
    unsigned pair_mask;
    double ipc_kappa;           /* IPC's adaptive kappa (contacts)                    */
    double ipc_min, ipc_max;
    double ipc_prev_gap;
    int ipc_set;                /* 0 until contacts first appear                      */

    cloth__newton_filters filters; /* what the last feasibility filter found       */

    /* newton.csv rows of the current frame */
    cloth_iter *rows;
    int n_rows, row_cap;

    cloth__newton_profile profile; /* stage times since create or reset            */
};

/* Wall-clock milliseconds, for the stage profile (never for results). */
static inline double cloth__newton_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static inline double cloth__dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* 1 for the self-contact terms of newton.contact = full (4-vertex stencils). */
static inline int cloth__newton_is_stencil(cloth__contact_kind kind)
{
    return kind == CLOTH__CONTACT_PT || kind == CLOTH__CONTACT_EE;
}

/* 1 for the strain-limit terms (edges and triangles), 0 for contacts. */
static inline int cloth__newton_is_strain(cloth__contact_kind kind)
{
    return kind == CLOTH__CONTACT_STRAIN || kind == CLOTH__CONTACT_TRIANGLE;
}

/* out <- the 3k coordinates of vertices v[0..k) of x. */
static inline void cloth__newton_gather(const double *x, const int *v, int k, double *out)
{
    for (int i = 0; i < k; i++)
        for (int c = 0; c < 3; c++)
            out[3 * i + c] = x[3 * v[i] + c];
}

/* grad[dof(v)] += s g3 (nothing for a pinned vertex). */
static inline void cloth__newton_add_grad(const cloth__newton *w, double *grad, int v,
                                          const double *g3, double s)
{
    int d = w->dof[v];
    if (d >= 0)
        for (int c = 0; c < 3; c++)
            grad[d + c] += s * g3[c];
}

/* H[dof(va), dof(vb)] += s B, B 3x3 with row stride `stride` (the pattern holds every
 * block a term adds: the mesh's and, by cloth__newton_system_pattern, the contacts'). */
static inline void cloth__newton_add_block(const cloth__newton *w, cloth__sparse *H, int va,
                                           int vb, const double *B, int stride, double s)
{
    int da = w->dof[va], db = w->dof[vb];
    /* H keeps the upper triangle: a block below it adds nothing (sparse.h), so it is
     * not even looked up */
    if (da >= 0 && db >= 0 && da <= db)
        cloth__sparse_add_block(H, da / 3, db / 3, B, stride, s);
}

/* The k-th point-triangle (ee = 0) or edge-edge (ee = 1) pair of a broad-phase result as
 * a contact term, and how many there are of that kind. */
static inline int cloth__newton_broad_count(const cloth__broad_pairs *bp, int ee)
{
    return ee ? bp->n_ee : bp->n_pt;
}

static inline cloth__contact cloth__newton_broad_pair(const cloth__broad_pairs *bp, int ee,
                                                      int k)
{
    if (ee)
        return (cloth__contact){CLOTH__CONTACT_EE, bp->ee[2 * k], bp->ee[2 * k + 1], -1};
    return (cloth__contact){CLOTH__CONTACT_PT, bp->pt[2 * k], -1, bp->pt[2 * k + 1]};
}

/* ------------------------------------ the linear system (newton_system.c) */

/* The Newton matrix's storage, solvers and condition-number work for the scene's
 * newton.solver and newton.cond (at create; after build_topology and alloc_contacts). */
cloth_status cloth__newton_system_create(cloth__newton *w, const cloth__newton_ctx *ctx,
                                         cloth_error *err);
void cloth__newton_system_destroy(cloth__newton *w);

/* Makes every pair of vertices that an active self-contact term of w->contacts couples a
 * block of the pattern, rebuilding
 * the pattern when one is missing (the mesh's couplings, the pairs of this step so far
 * and the new ones).  Values become 0 when it is rebuilt. */
void cloth__newton_system_pattern(cloth__newton *w, const cloth__newton_ctx *ctx);

/* spring_hessian = adaptive: a Cholesky factor of H as it is (the springs' Hessians
 * unprojected), or of H + tau I for tau = 0.01 and 0.1 times w->spring_shift when it is
 * not positive definite (*tau: the shift used, added to H's diagonal).  *solved is 1
 * when one factored and dx is in w->step, 0 when none did (or solver = pcg, which has
 * no factor to tell): then nothing is solved and the caller assembles the projected H.
 * An error is only a failed solve after a good factor.  solver = dense: LAPACK's factor,
 * which retries with its own shifts, counts as a no when it needed one. */
cloth_status cloth__newton_system_solve_unshifted(cloth__newton *w,
                                                  const cloth__newton_ctx *ctx,
                                                  double *tau, int *solved, cloth_error *err);

/* Solves H dx = -grad E into w->step by newton.solver; records the Tikhonov shift the
 * factor needed (*eps) and the iterations of PCG (*lin_iters, 0 for direct solvers) and
 * whether it stopped at its cap (*capped). */
cloth_status cloth__newton_system_solve(cloth__newton *w, const cloth__newton_ctx *ctx,
                                        double *eps, int *lin_iters, int *capped,
                                        cloth_error *err);

/* How newton.cond is computed for this mesh ("exact-2norm", "estimate-1norm", "off"). */
const char *cloth__newton_cond_method(const cloth__newton *w, const cloth__newton_def *nd);

/* The condition number of H by newton.cond (NaN when off); after a solve. */
cloth_status cloth__newton_system_cond(cloth__newton *w, const cloth__newton_ctx *ctx,
                                       double *cond, cloth_error *err);

/* ------------------------------------------- contacts (newton_contacts.c) */

/* Adjacency (springs and triangle edges), springs at each vertex and the limited
 * springs; 0 when out of memory. */
int cloth__newton_build_topology(cloth__newton *w, const cloth_mesh *m);

/* Self-contact candidates: not joined by a spring or triangle, not both pinned
 * (a spatial-hash filter of the work w). */
int cloth__newton_keep_pair(int i, int j, void *w);

/* w->contacts <- the active barrier terms at x: gaps below their activation distance. */
void cloth__newton_collect_contacts(cloth__newton *w, const cloth__newton_ctx *ctx,
                                    const double *x);

/* The gap of a term at x, with its gradient (3, 6 or 12 numbers) and Hessian (9, 36 or
 * 144; row-major); either may be NULL.  A triangle's gap is tau - (sigma1 - 1), without derivatives (its
 * barrier is terms/strain_limit.c's, over both singular values). */
double cloth__newton_contact_gap(const cloth__newton *w, const cloth__newton_ctx *ctx,
                                 const cloth__contact *c,
                                 const double *x, double *grad, double *hess);

/* The four vertices of a point-triangle (p, t0, t1, t2) or edge-edge (ea0, ea1, eb0, eb1)
 * term, in terms/distance.h's order. */
void cloth__newton_stencil(const cloth__newton *w, const cloth__newton_ctx *ctx,
                           const cloth__contact *c, int v[4]);

/* The gap d - material.thickness of a point-triangle or edge-edge term at x, d the
 * distance of the closed primitives; with (when not NULL) its gradient (12) and Hessian
 * (144, row-major) over the stencil.  For edge-edge terms *mollifier (when not NULL)
 * gets IPC's mollifier with its gradient and Hessian (mgrad, mhess; NULL to skip). */
double cloth__newton_stencil_gap(const cloth__newton *w, const cloth__newton_ctx *ctx,
                                 const cloth__contact *c, const double *x, double *grad,
                                 double *hess, double *mollifier, double *mgrad,
                                 double *mhess);

/* IPC's edge-edge mollifier of the edge-edge stencil v at x, with its gradient and
 * Hessian (mgrad, mhess; NULL to skip). */
double cloth__newton_stencil_mollifier(const cloth__newton_ctx *ctx, const int v[4],
                                       const double *x, double *mgrad, double *mhess);

/* 1 when the stencil (vertices v, an edge-edge one when edge_edge) is closer than
 * material.thickness + g^ in the rest shape: no contact term, ever. */
int cloth__newton_stencil_near_at_rest(const cloth__newton_ctx *ctx, const int v[4],
                                       int edge_edge);

/* The same for the k-th candidate of the given kind (w->cand_pt, w->cand_ee; v its
 * stencil), worked out once per candidate set (w->cand_rest_*). */
int cloth__newton_cand_near_at_rest(cloth__newton *w, const cloth__newton_ctx *ctx,
                                    const int v[4], int edge_edge, int k);

/* CLOTH_EINVAL with a message naming the key when the mesh's initial state is not
 * strictly feasible (every barrier needs a positive gap). */
cloth_status cloth__newton_check_initial_state(const cloth__newton *w,
                                               const cloth__newton_ctx *ctx,
                                               cloth_error *err);

/* The sphere's continuation within a step (newton_contacts.c): begin puts w->sphere_c at
 * w->sphere_from (progress 0); advance moves it toward ctx->sphere_c as far as the
 * vertices at x let it (progress 1 when it gets there). */
void cloth__newton_begin_obstacles(cloth__newton *w);
/* Moves vertices of w->x that rounding left on or inside the sphere at w->sphere_c to
 * g^/2 above it (at a step's start). */
void cloth__newton_start_outside_sphere(cloth__newton *w, const cloth__newton_ctx *ctx);
void cloth__newton_advance_obstacles(cloth__newton *w, const cloth__newton_ctx *ctx,
                                     const double *x);

/* ------------------------------------- the body within a step (newton_body.c) */

/* The body's gap at x with the body at w->body_pose: g = d - avatar.offset, d the
 * avatar's distance by avatar.collision (avatar.h), its gradient into grad; hess (9) is
 * 0 (the barrier keeps only the normal part of a contact's Hessian). */
double cloth__newton_body_gap(const cloth__newton *w, const cloth__newton_ctx *ctx,
                              const double x[3], double *grad, double *hess);

/* A bound L of |grad g| along a straight path (1 for capsules, the exact distance; 2 for
 * the field, README Avatar), for the line search's conservative step. */
double cloth__newton_body_lipschitz(const cloth__newton_ctx *ctx);

/* At newton's start: the body where the avatar is (progress 1). */
void cloth__newton_body_start(cloth__newton *w, const cloth__newton_ctx *ctx);

/* At a step's start: the body back where the last step left it (progress 0, or 1 when
 * the avatar has not moved since). */
void cloth__newton_body_begin(cloth__newton *w, const cloth__newton_ctx *ctx);

/* Vertices of w->x at a body gap <= 0 (rounding) go to g^/2 outside (a step's start). */
void cloth__newton_body_start_outside(cloth__newton *w, const cloth__newton_ctx *ctx);

/* Between Newton iterations: the body moves on toward the avatar's pose as far as the
 * vertices at x let it. */
void cloth__newton_body_advance(cloth__newton *w, const cloth__newton_ctx *ctx,
                                const double *x);

/* At a step's end: the next step starts from the pose reached. */
void cloth__newton_body_end(cloth__newton *w);

/* Why E is not finite at x (after an evaluation there): a vertex with a non-finite
 * position or prediction, or a term at a gap <= 0; a sentence into buf. */
void cloth__newton_explain_energy(const cloth__newton *w, const cloth__newton_ctx *ctx,
                                  const double *x, char *buf, size_t size);

/* ------------------------------------------ stiffness (newton_kappa.c) */

/* The kappa of a term at x with gap g, by newton.kappa.  freeze: x is a Newton iterate;
 * a dynamic kappa computed there is held for the rest of the step (step), of the
 * iteration (iteration), or raised to max(held, kappa(x)) and held (monotone);
 * line-search points only read. */
double cloth__newton_kappa_of(cloth__newton *w, const cloth__newton_ctx *ctx,
                              const cloth__contact *c, const double *x, double g,
                              int freeze);

/* Forgets every frozen dynamic kappa. */
void cloth__newton_clear_kappa(cloth__newton *w, const cloth_mesh *m);
/* A new step with kappa_update = monotone: this step's kappa becomes the previous step's
 * (the floor of the terms still active), and this step starts with none. */
void cloth__newton_carry_kappa(cloth__newton *w, const cloth_mesh *m);

/* kappa_value = auto for contacts and limited elements, from the rest shape (at create). */
void cloth__newton_set_auto_kappa(cloth__newton *w, const cloth__newton_ctx *ctx);

/* newton.kappa = ipc: sets IPC's kappa at an iterate whose contacts were just collected
 * (w->eval.min_gap set), from grad (the rest of grad E there) and, for the first kappa
 * only (w->ipc_set = 0; NULL after), grad_b: the contact barriers' gradient at kappa = 1
 * there, which the potential hands down. */
void cloth__newton_update_ipc_kappa(cloth__newton *w, const cloth__newton_ctx *ctx,
                                    const double *grad, const double *grad_b);

/* ----------------------------------------- potential (newton_potential.c) */

/* Sets up the step ctx describes (cloth__newton_prepare of newton.h, from a context). */
void cloth__newton_prepare_step(cloth__newton *w, const cloth__newton_ctx *ctx);

/* E at x (cloth__newton_potential of newton.h, from a context). */
double cloth__newton_energy(cloth__newton *w, const cloth__newton_ctx *ctx, const double *x,
                            double *grad, int hess, int exact);

/* w->measured <- the barrier energy and smallest self-contact gap of the sim's state, in
 * a pass of its own (at start; a step records them from its own evaluations of E). */
void cloth__newton_measure_state(cloth__newton *w, const cloth__newton_ctx *ctx);

/* ---------------------------------------------- friction (newton_friction.c) */

/* Records the lagged friction stencils of the contacts active at w->x_n (after
 * cloth__newton_prepare); none when newton.friction is 0. */
void cloth__newton_friction_lag(cloth__newton *w, const cloth__newton_ctx *ctx);

/* The friction potential at x, its gradient added into grad and its (PSD) Hessian into
 * H when they are not NULL. */
double cloth__newton_friction_term(cloth__newton *w, const cloth__newton_ctx *ctx,
                                   const double *x, double *grad, cloth__sparse *H);

/* -------------------------------------- line search (newton_line_search.c) */

/* Armijo backtracking along w->dir from w->x from the largest feasible alpha <= 1; e0 =
 * E(x), slope = grad E . dx < 0.  Returns the accepted alpha (0 if none) with w->x_trial
 * at x + alpha dir. */
double cloth__newton_line_search(cloth__newton *w, const cloth__newton_ctx *ctx, double e0,
                                 double slope);

/* The feasibility filter alone: the largest alpha with every gap above eta times its
 * value at x and every limited element under its limit along x + alpha dir.  Exact
 * below 1 only: a value >= 1 (INFINITY when nothing limits it) means only that alpha = 1
 * is feasible, so callers take min(1, .).  Uses w->x_trial as scratch. */
double cloth__newton_feasible_alpha(cloth__newton *w, const cloth__newton_ctx *ctx,
                                    const double *x, const double *dir);

/* newton_create.c: the kernel's create and destroy (its ops table is newton.c's). */
cloth_status cloth__newton_create(const cloth_sim *sim, void **work, cloth_error *err);
void cloth__newton_destroy(void *work);

#endif
