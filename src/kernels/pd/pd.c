/*
 * pd — Projective Dynamics: Bouaziz, Martin, Liu, Kavan and Pauly 2014, "Projective
 * Dynamics: Fusing Constraint Projections for Fast Simulation"; for mass-springs Liu,
 * Bargteil, O'Brien and Kavan 2013, "Fast Simulation of Mass-Spring Systems".
 *
 * One step of implicit Euler is the minimiser of
 *
 *   E(x) = 1/(2 h^2) |x - y|_M^2 + sum_i w_i/2 |A_i x - p_i|^2,   p_i = P_i(A_i x)
 *   y = x_n + h v_n + h^2 M^-1 f_ext(x_n, v_n)                     (inertia and forces)
 *
 * where P_i projects onto constraint i's set.  PD alternates
 *   local:  p_i <- P_i(A_i x)                           (each constraint on its own)
 *   global: (M/h^2 + sum_i w_i A_i'A_i) x = M/h^2 y + sum_i w_i A_i' p_i
 * and each half lowers E (Bouaziz section 3.3), so E falls at every iteration.  The
 * iterate starts at x_n + h v_n (so that a resting cloth is a fixed point at any
 * iteration count; predict).  A_i acts
 * on each coordinate alike, so the global matrix is n_free x n_free, the same for x, y
 * and z, and constant: factored once (CHOLMOD) when the work is built, for the scene's
 * h, and again in a step only when h or a weight (the springs' k, changed live) changes.
 *
 * Constraints (one weight each, a stiffness):
 *   spring (a, b), weight w_spring k:   A x = x_a - x_b,  P(d) = l0 d / |d|
 *     (Liu 2013: w/2 |d - P(d)|^2 = k/2 (|d| - l0)^2 is Hooke's energy, so PD converges
 *     to the implicit Euler step of the same springs; the bend springs are the bending,
 *     as in Liu 2013);
 *   spring limit (structural and shear, pd.strain_limit = tau > 0), weight w_limit k:
 *     P(d) = min(|d|, (1 + tau) l0) d / |d|  (zero energy inside the limit);
 *   triangle strain (pd.w_strain > 0), weight w_strain * rest area (Bouaziz section 5):
 *     A x = F = [x1 - x0, x2 - x0] Dm^-1 (3 x 2), F = U S V',
 *     P(F) = U clamp(S, 1 - tau, 1 + tau) V'  (tau = 0: the nearest rotation).
 * Pinned vertices are eliminated: they are not unknowns, their terms move to the
 * right-hand side (held at their x0 row, which a viewer may drag).
 *
 * Then v = (x - x_n) / h, and the contact stage (sim/contact.h) over x_n -> (x, v), as
 * for explicit (self-collision's projection, the obstacles' push-out, the velocity
 * corrections, the robust phase).
 * Not applied: the springs' material damping (implicit Euler damps on its own).
 *
 * Chebyshev (pd.chebyshev_rho = rho > 0; Wang 2015, "A Chebyshev Semi-Iterative Approach
 * for Accelerating Projective and Position-based Dynamics"): after the global step's
 * x^ of iteration k, x_{k+1} = omega_{k+1} (x^ - x_{k-1}) + x_{k-1} with omega_1 = 1,
 * omega_2 = 2 / (2 - rho^2), omega_{k+1} = 4 / (4 - rho^2 omega_k); rho is the spectral
 * radius of the plain iteration, which the user estimates (Wang: from a few runs).  E
 * then need not fall at every iteration.
 *
 * The energy E(x_k) before each global solve, and |grad E(x_k)|_inf, are the rows of
 * pd.csv (the kernel's iteration log, pd_log_columns), in the generic fields every
 * iterative kernel's log has.
 */
#include "kernels/pd/pd.h"
#include "linalg/cholmod.h"
#include "linalg/sparse.h"
#include "terms/forces.h"
#include "terms/strain_project.h"
#include "sim/contact.h"
#include "sim/sim.h"

#include "core/status.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cloth__pd_def *settings(const cloth_sim *sim)
{
    return cloth__sim_settings(sim);
}

/* One triangle's strain constraint: F = sum_a x_a D[a] (D row a, 2 columns). */
typedef struct pd_tri {
    int v[3];                   /* vertices                                           */
    double D[6];                /* 3 x 2 row-major: [-1 -1; 1 0; 0 1] Dm^-1           */
    double w;                   /* w_strain * rest area                               */
} pd_tri;

typedef struct cloth__pd {
    int n, nf;                  /* vertices, free vertices (the unknowns)             */
    int *free_id;               /* n: index among the unknowns, -1 when pinned        */
    int *limited;               /* structural and shear springs with a free end       */
    int n_limited;
    pd_tri *tris;               /* strain triangles with a free vertex                */
    int n_tris;
    cloth__sparse *L;           /* M/h^2 + sum w A'A over the free vertices           */
    cloth__chol *chol;
    double h;                   /* the h L was factored for (0: none yet)            */
    unsigned stiffness_version; /* sim->stiffness_version when L was factored        */
    long factorisations;        /* numeric factors made                               */
    double *y;                  /* 3n: inertial target                                */
    double *x_n;                /* 3n: positions at the step's start                  */
    double *b;                  /* 3 nf: right-hand side, one column per coordinate   */
    double *col;                /* nf: a coordinate's solution, then L x - b          */
    double *xc;                 /* nf: a coordinate of the iterate                    */
    double *x_k, *x_km1;        /* 3n each: Chebyshev's x_k and x_{k-1}               */
    cloth_iter *rows;           /* the frame's log: iterations x the substeps at
                                 * creation (more substeps set live: rows dropped)     */
    int n_rows, row_cap, frame_iter;
} cloth__pd;

long cloth__pd_factorisations(const void *work)
{
    return work ? ((const cloth__pd *)work)->factorisations : 0;
}

/* ------------------------------------------------------------- create, destroy */

/* A limited spring longer than (1 + tau)(1 + LIMIT_TOL) l0 at the end of a step makes the
 * step not converged: pd's limit is a weighted constraint, a soft one, and a kernel never
 * reports success past its limit (issue 33); verlet's and explicit's strain_tol default. */
#define LIMIT_TOL 1e-6

static void pd_destroy(void *work)
{
    cloth__pd *w = work;
    if (!w)
        return;
    cloth__chol_destroy(w->chol);
    cloth__sparse_destroy(w->L);
    free(w->free_id);
    free(w->limited);
    free(w->tris);
    free(w->y);
    free(w->x_n);
    free(w->b);
    free(w->col);
    free(w->xc);
    free(w->x_k);
    free(w->x_km1);
    free(w->rows);
    free(w);
}

/* D = [-1 -1; 1 0; 0 1] Dm^-1, Dm the rest edges x1 - x0, x2 - x0 in the triangle's own
 * orthonormal frame; 0 for a degenerate rest triangle (no constraint then). */
static int tri_setup(const cloth_mesh *m, const int *t, double wstrain, pd_tri *out)
{
    const double *r0 = m->rest + 3 * t[0], *r1 = m->rest + 3 * t[1], *r2 = m->rest + 3 * t[2];
    double e1[3], e2[3], t1[3], t2[3];
    for (int k = 0; k < 3; k++) {
        e1[k] = r1[k] - r0[k];
        e2[k] = r2[k] - r0[k];
    }
    double l1 = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    if (!(l1 > 0))
        return 0;
    for (int k = 0; k < 3; k++)
        t1[k] = e1[k] / l1;
    double p = e2[0] * t1[0] + e2[1] * t1[1] + e2[2] * t1[2];
    for (int k = 0; k < 3; k++)
        t2[k] = e2[k] - p * t1[k];
    double l2 = sqrt(t2[0] * t2[0] + t2[1] * t2[1] + t2[2] * t2[2]);
    double det = l1 * l2; /* Dm = [l1 p; 0 l2] */
    if (!(det > 1e-14 * l1 * l1))
        return 0;
    double inv[4] = {1 / l1, -p / det, 0, 1 / l2}; /* Dm^-1, row-major */
    static const double G[6] = {-1, -1, 1, 0, 0, 1};
    for (int a = 0; a < 3; a++)
        for (int j = 0; j < 2; j++)
            out->D[2 * a + j] = G[2 * a] * inv[j] + G[2 * a + 1] * inv[2 + j];
    memcpy(out->v, t, sizeof out->v);
    out->w = wstrain * det / 2;
    return 1;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The pattern of the global matrix: an entry for each pair of free vertices that share a
 * spring or a triangle. */
static cloth_status build_matrix(cloth__pd *w, const cloth_mesh *m, int springs,
                                 cloth_error *err)
{
    long cap = (springs ? m->n_springs : 0) + 3L * w->n_tris + 1, n_pairs = 0;
    long *pairs = malloc((size_t)cap * sizeof *pairs);
    int *start = calloc((size_t)w->nf + 2, sizeof *start), *rows = NULL;
    cloth_status st = CLOTH_ENOMEM;
    if (!pairs || !start)
        goto done;
#define PAIR(i, j)                                                                         \
    do {                                                                                   \
        int fi_ = w->free_id[i], fj_ = w->free_id[j];                                      \
        if (fi_ >= 0 && fj_ >= 0 && fi_ != fj_)                                            \
            pairs[n_pairs++] = fi_ < fj_ ? (long)fj_ * w->nf + fi_ : (long)fi_ * w->nf + fj_; \
    } while (0)
    for (int s = 0; springs && s < m->n_springs; s++)
        PAIR(m->springs[s].a, m->springs[s].b);
    for (int t = 0; t < w->n_tris; t++) {
        const int *v = w->tris[t].v;
        PAIR(v[0], v[1]);
        PAIR(v[1], v[2]);
        PAIR(v[0], v[2]);
    }
#undef PAIR
    qsort(pairs, (size_t)n_pairs, sizeof *pairs, cmp_long);
    long u = 0;
    for (long p = 0; p < n_pairs; p++)
        if (u == 0 || pairs[p] != pairs[u - 1])
            pairs[u++] = pairs[p];
    rows = malloc(((size_t)u + 1) * sizeof *rows);
    if (!rows)
        goto done;
    for (long p = 0; p < u; p++) { /* sorted by column, then row */
        start[pairs[p] / w->nf + 1]++;
        rows[p] = (int)(pairs[p] % w->nf);
    }
    for (int j = 0; j < w->nf; j++)
        start[j + 1] += start[j];
    st = cloth__sparse_create_scalar(w->nf, start, rows, &w->L, err);
    if (st == CLOTH_OK)
        st = cloth__chol_create(w->nf, &w->chol, err);
done:
    free(pairs);
    free(start);
    free(rows);
    if (st == CLOTH_ENOMEM && !w->L)
        return cloth__fail(err, st, "pd: out of memory for the matrix of %d vertices", w->nf);
    return st;
}

static cloth_status factor(cloth__pd *w, const cloth_sim *sim, double h, cloth_error *err);

static cloth_status pd_create(const cloth_sim *sim, void **work, cloth_error *err)
{
    const cloth_mesh *m = sim->mesh;
    const cloth__pd_def *d = settings(sim);
    *work = NULL;
    cloth__pd *w = calloc(1, sizeof *w);
    size_t n3 = 3 * (size_t)m->n + 1;
    int ok = w != NULL;
    if (ok) {
        w->n = m->n;
        w->free_id = malloc(((size_t)m->n + 1) * sizeof *w->free_id);
        w->limited = malloc(((size_t)m->n_springs + 1) * sizeof *w->limited);
        w->tris = malloc(((size_t)m->n_tris + 1) * sizeof *w->tris);
        w->y = malloc(n3 * sizeof(double));
        w->x_n = malloc(n3 * sizeof(double));
        w->b = malloc(n3 * sizeof(double));
        w->col = malloc(n3 * sizeof(double));
        w->xc = malloc(n3 * sizeof(double));
        w->x_k = malloc(n3 * sizeof(double));
        w->x_km1 = malloc(n3 * sizeof(double));
        w->row_cap = d->iterations * sim->scene.run.substeps;
        w->rows = malloc(((size_t)w->row_cap + 1) * sizeof *w->rows);
        ok = w->free_id && w->limited && w->tris && w->y && w->x_n && w->b && w->col &&
             w->xc && w->x_k && w->x_km1 && w->rows;
    }
    if (!ok) {
        pd_destroy(w);
        return cloth__fail(err, CLOTH_ENOMEM, "pd: out of memory for %d vertices", m->n);
    }
    for (int i = 0; i < m->n; i++)
        w->free_id[i] = m->pinned[i] ? -1 : w->nf++;
    for (int s = 0; d->strain_limit > 0 && d->w_limit > 0 && s < m->n_springs; s++) {
        const cloth_spring *sp = &m->springs[s];
        if (sp->family != CLOTH_BEND && !(m->pinned[sp->a] && m->pinned[sp->b]))
            w->limited[w->n_limited++] = s;
    }
    for (int t = 0; d->w_strain > 0 && t < m->n_tris; t++) {
        const int *v = m->tris + 3 * t;
        if ((!m->pinned[v[0]] || !m->pinned[v[1]] || !m->pinned[v[2]]) &&
            tri_setup(m, v, d->w_strain, &w->tris[w->n_tris]))
            w->n_tris++;
    }
    if (w->nf > 0) {
        /* spring pairs for the springs' own constraints or for their limits */
        cloth_status st = build_matrix(w, m, d->w_spring > 0 || w->n_limited > 0, err);
        /* the factor for the scene's h, and CHOLMOD's solve workspace (a solve of b = 0),
         * here rather than in the first step */
        if (st == CLOTH_OK)
            st = factor(w, sim, sim->scene.run.dt / sim->scene.run.substeps, err);
        if (st == CLOTH_OK) {
            memset(w->b, 0, sizeof(double) * (size_t)w->nf);
            st = cloth__chol_solve(w->chol, w->b, w->col, err);
        }
        if (st != CLOTH_OK) {
            pd_destroy(w);
            return st;
        }
    }
    *work = w;
    return CLOTH_OK;
}

/* ------------------------------------------------------------- the global matrix */

/* Adds w to (i, i) and (j, j), -w to (i, j), over the free ones: w (x_i - x_j)^2 / 2.
 * Returns the entries missing from the pattern (0 unless build_matrix missed a pair). */
static int add_pair(cloth__pd *w, int i, int j, double wt)
{
    int fi = w->free_id[i], fj = w->free_id[j];
    if (fi >= 0)
        cloth__sparse_add_diag(w->L, fi, wt);
    if (fj >= 0)
        cloth__sparse_add_diag(w->L, fj, wt);
    return fi >= 0 && fj >= 0 && cloth__sparse_add_entry(w->L, fi, fj, -wt) != 0;
}

/* L = M/h^2 + sum w_i A_i'A_i (free rows and columns), factored.  Reads the springs'
 * current k. */
static cloth_status factor(cloth__pd *w, const cloth_sim *sim, double h, cloth_error *err)
{
    const cloth_mesh *m = sim->mesh;
    const cloth__pd_def *d = settings(sim);
    int missing = 0;
    cloth__sparse_zero(w->L);
    for (int i = 0; i < m->n; i++)
        if (w->free_id[i] >= 0)
            cloth__sparse_add_diag(w->L, w->free_id[i], m->mass[i] / (h * h));
    for (int s = 0; d->w_spring > 0 && s < m->n_springs; s++)
        missing += add_pair(w, m->springs[s].a, m->springs[s].b, d->w_spring * m->springs[s].k);
    for (int q = 0; q < w->n_limited; q++) {
        const cloth_spring *sp = &m->springs[w->limited[q]];
        missing += add_pair(w, sp->a, sp->b, d->w_limit * sp->k);
    }
    for (int t = 0; t < w->n_tris; t++) { /* w D D' over the triangle's free vertices */
        const pd_tri *tr = &w->tris[t];
        for (int a = 0; a < 3; a++)
            for (int c = a; c < 3; c++) {
                int fa = w->free_id[tr->v[a]], fc = w->free_id[tr->v[c]];
                if (fa < 0 || fc < 0)
                    continue;
                double k = tr->w * (tr->D[2 * a] * tr->D[2 * c] + tr->D[2 * a + 1] * tr->D[2 * c + 1]);
                if (a == c)
                    cloth__sparse_add_diag(w->L, fa, k);
                else
                    missing += cloth__sparse_add_entry(w->L, fa, fc, k) != 0;
            }
    }
    if (missing) /* a wrong matrix would make the global step no minimiser */
        return cloth__fail(err, CLOTH_ENUMERIC, "pd: %d entries of the global matrix are "
                           "not in its pattern (a bug)", missing);
    double eps;
    cloth_status st = cloth__chol_factor(w->chol, w->L, &eps, err);
    if (st != CLOTH_OK)
        return st;
    w->factorisations++;
    w->h = h;
    w->stiffness_version = sim->stiffness_version;
    return CLOTH_OK;
}

/* ------------------------------------------------------------- the local step */

/* The nearest 3 x 2 matrix to F (row-major) with singular values in [lo, hi], into P:
 * F = U S V' from the eigenvectors V of F'F (a 2 x 2 symmetric), U = F V S^-1. */
void cloth__pd_project_strain(const double F[6], double lo, double hi, double P[6])
{
    double a = 0, b = 0, c = 0;
    for (int r = 0; r < 3; r++) {
        a += F[2 * r] * F[2 * r];
        b += F[2 * r] * F[2 * r + 1];
        c += F[2 * r + 1] * F[2 * r + 1];
    }
    double th = 0.5 * atan2(2 * b, a - c), ct = cos(th), st = sin(th);
    double mean = 0.5 * (a + c), rad = sqrt(0.25 * (a - c) * (a - c) + b * b);
    double s1 = sqrt(mean + rad), s2 = sqrt(fmax(mean - rad, 0));
    double v1[2] = {ct, st}, v2[2] = {-st, ct}, u1[3], u2[3];
    for (int r = 0; r < 3; r++) {
        u1[r] = F[2 * r] * v1[0] + F[2 * r + 1] * v1[1];
        u2[r] = F[2 * r] * v2[0] + F[2 * r + 1] * v2[1];
    }
    if (s1 > 1e-300) {
        for (int r = 0; r < 3; r++)
            u1[r] /= s1;
    } else { /* collapsed to a point: any direction is nearest */
        u1[0] = 1, u1[1] = 0, u1[2] = 0;
    }
    double p = u1[0] * u2[0] + u1[1] * u2[1] + u1[2] * u2[2];
    for (int r = 0; r < 3; r++)
        u2[r] -= p * u1[r];
    double l = sqrt(u2[0] * u2[0] + u2[1] * u2[1] + u2[2] * u2[2]);
    if (!(l > 1e-12 * (s1 > 0 ? s1 : 1))) { /* a line: any unit vector normal to u1 */
        int k = fabs(u1[0]) < 0.9 ? 0 : 1;
        double e[3] = {0, 0, 0};
        e[k] = 1;
        p = u1[k];
        for (int r = 0; r < 3; r++)
            u2[r] = e[r] - p * u1[r];
        l = sqrt(u2[0] * u2[0] + u2[1] * u2[1] + u2[2] * u2[2]);
    }
    for (int r = 0; r < 3; r++)
        u2[r] /= l;
    double c1 = fmin(fmax(s1, lo), hi), c2 = fmin(fmax(s2, lo), hi);
    for (int r = 0; r < 3; r++)
        for (int j = 0; j < 2; j++)
            P[2 * r + j] = c1 * u1[r] * v1[j] + c2 * u2[r] * v2[j];
}

/* A distance constraint d = x_a - x_b onto |d| = target (target <= 0: stay as is):
 * its energy wt/2 |d - p|^2, and its part of the right-hand side, w A'p, with the pinned
 * end's known term (-L_fp x_p) for a free end. */
static double local_pair(cloth__pd *w, const cloth_mesh *m, const double *x, int a, int bv,
                         double wt, double target, int limit)
{
    const double *xa = x + 3 * a, *xb = x + 3 * bv;
    double d[3] = {xa[0] - xb[0], xa[1] - xb[1], xa[2] - xb[2]};
    double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), p[3];
    if (limit && l <= target)
        target = l;
    if (l > 0) {
        for (int k = 0; k < 3; k++)
            p[k] = target * d[k] / l;
    } else { /* coincident ends: along the rest direction */
        const double *ra = m->rest + 3 * a, *rb = m->rest + 3 * bv;
        double r[3] = {ra[0] - rb[0], ra[1] - rb[1], ra[2] - rb[2]};
        double lr = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
        for (int k = 0; k < 3; k++)
            p[k] = lr > 0 ? target * r[k] / lr : (k == 0 ? target : 0);
    }
    int fa = w->free_id[a], fb = w->free_id[bv];
    for (int k = 0; k < 3; k++) {
        if (fa >= 0)
            w->b[k * w->nf + fa] += wt * (p[k] + (fb < 0 ? xb[k] : 0));
        if (fb >= 0)
            w->b[k * w->nf + fb] -= wt * (p[k] - (fa < 0 ? xa[k] : 0));
    }
    return 0.5 * wt * (l - target) * (l - target);
}

/* The projections at x, the right-hand side b they give, and E(x). */
static double local_step(cloth__pd *w, const cloth_sim *sim, const double *x, double h)
{
    const cloth_mesh *m = sim->mesh;
    const cloth__pd_def *d = settings(sim);
    double E = 0, tau = d->strain_limit;
    for (int i = 0; i < m->n; i++) {
        int f = w->free_id[i];
        if (f < 0)
            continue;
        double mh = m->mass[i] / (h * h);
        for (int k = 0; k < 3; k++) {
            double dy = x[3 * i + k] - w->y[3 * i + k];
            w->b[k * w->nf + f] = mh * w->y[3 * i + k];
            E += 0.5 * mh * dy * dy;
        }
    }
    for (int s = 0; d->w_spring > 0 && s < m->n_springs; s++) {
        const cloth_spring *sp = &m->springs[s];
        if (w->free_id[sp->a] >= 0 || w->free_id[sp->b] >= 0)
            E += local_pair(w, m, x, sp->a, sp->b, d->w_spring * sp->k, sp->rest, 0);
    }
    for (int q = 0; q < w->n_limited; q++) {
        const cloth_spring *sp = &m->springs[w->limited[q]];
        E += local_pair(w, m, x, sp->a, sp->b, d->w_limit * sp->k, (1 + tau) * sp->rest, 1);
    }
    for (int t = 0; t < w->n_tris; t++) {
        const pd_tri *tr = &w->tris[t];
        double F[6] = {0, 0, 0, 0, 0, 0}, P[6];
        for (int a = 0; a < 3; a++)
            for (int r = 0; r < 3; r++)
                for (int j = 0; j < 2; j++)
                    F[2 * r + j] += x[3 * tr->v[a] + r] * tr->D[2 * a + j];
        cloth__pd_project_strain(F, 1 - tau, 1 + tau, P);
        for (int q = 0; q < 6; q++)
            E += 0.5 * tr->w * (F[q] - P[q]) * (F[q] - P[q]);
        for (int a = 0; a < 3; a++) {
            int fa = w->free_id[tr->v[a]];
            if (fa < 0)
                continue;
            for (int r = 0; r < 3; r++) {
                double s = 0;
                for (int j = 0; j < 2; j++)
                    s += tr->D[2 * a + j] * P[2 * r + j];
                /* the pinned vertices' known terms: - w (D D')_ac x_c */
                for (int c = 0; c < 3; c++)
                    if (w->free_id[tr->v[c]] < 0)
                        s -= (tr->D[2 * a] * tr->D[2 * c] + tr->D[2 * a + 1] * tr->D[2 * c + 1]) *
                             x[3 * tr->v[c] + r];
                w->b[r * w->nf + fa] += tr->w * s;
            }
        }
    }
    return E;
}

/* ------------------------------------------------------------- the step's stages */

/* y = x_n + h v_n + h^2 f_ext / m for the free vertices, the pinned ones at their x0
 * row.  The iterate starts at x_n + h v_n, not at y: at a static equilibrium (v_n = 0,
 * f_ext balanced by the springs at x_n) x_n is then the local/global fixed point, so a
 * resting cloth stays at rest whatever pd.iterations.  From y (h^2 g below x_n) a fixed
 * count of iterations stops short of the minimiser by an error that does not vanish at
 * rest, and the step's own rest shape is not the equilibrium (a 6 x 6 cloth: 7.6e-5 m
 * off newton's at 10 iterations, 1.2e-3 m at 3). */
static void predict(cloth__pd *w, cloth_sim *sim, double h)
{
    const cloth_mesh *m = sim->mesh;
    memcpy(w->x_n, sim->x, sizeof(double) * 3 * (size_t)m->n);
    memset(sim->force, 0, sizeof(double) * 3 * (size_t)m->n);
    cloth__add_external_forces(cloth__sim_force_env(sim), sim->x, sim->v, sim->t, sim->force);
    for (int i = 0; i < m->n; i++)
        for (int k = 0; k < 3; k++) {
            int j = 3 * i + k;
            double start = sim->x[j] + h * sim->v[j];
            w->y[j] = m->pinned[i] ? m->x0[j] : start + h * h * sim->force[j] * m->inv_mass[i];
            sim->x[j] = m->pinned[i] ? m->x0[j] : start;
        }
}

/* pd.csv's own column (pd_log_columns): its slot of cloth_iter's value. */
enum { LOG_OMEGA };

/* The iterations: local step (E(x_k), b), |grad E|_inf = |L x - b|_inf, global solve. */
static cloth_status iterate(cloth__pd *w, cloth_sim *sim, double h, cloth__step_stats *stats,
                            cloth_error *err)
{
    const cloth_mesh *m = sim->mesh;
    int iters = settings(sim)->iterations;
    double rho = settings(sim)->chebyshev_rho, omega = 1;
    size_t bytes = sizeof(double) * 3 * (size_t)m->n;
    for (int it = 0; it < iters; it++) {
        double E = local_step(w, sim, sim->x, h), grad = 0, move = 0;
        if (rho > 0)
            memcpy(w->x_k, sim->x, bytes);
        for (int k = 0; k < 3; k++) {
            for (int i = 0; i < m->n; i++)
                if (w->free_id[i] >= 0)
                    w->xc[w->free_id[i]] = sim->x[3 * i + k];
            cloth__sparse_mul(w->L, w->xc, w->col);
            for (int f = 0; f < w->nf; f++)
                grad = fmax(grad, fabs(w->col[f] - w->b[k * w->nf + f]));
            cloth_status st = cloth__chol_solve(w->chol, w->b + k * w->nf, w->col, err);
            if (st != CLOTH_OK)
                return st;
            for (int i = 0; i < m->n; i++) {
                int f = w->free_id[i];
                if (f < 0)
                    continue;
                move = fmax(move, fabs(w->col[f] - sim->x[3 * i + k]));
                sim->x[3 * i + k] = w->col[f];
            }
        }
        if (rho > 0) { /* sim->x holds x^ */
            omega = it == 0 ? 1 : it == 1 ? 2 / (2 - rho * rho) : 4 / (4 - rho * rho * omega);
            for (int i = 0; it > 0 && i < m->n; i++)
                for (int k = 0; w->free_id[i] >= 0 && k < 3; k++) {
                    int j = 3 * i + k;
                    sim->x[j] = omega * (sim->x[j] - w->x_km1[j]) + w->x_km1[j];
                }
            memcpy(w->x_km1, w->x_k, bytes);
        }
        stats->iterations++;
        if (w->n_rows < w->row_cap) {
            cloth_iter *row = &w->rows[w->n_rows++];
            *row = (cloth_iter){.frame = sim->frame + 1, .iter = w->frame_iter, .energy = E,
                                .grad_norm = grad, .step_norm = move,
                                .value = {[LOG_OMEGA] = omega}};
            if (it == iters - 1) /* a fixed count: the step stops at it */
                snprintf(row->stop, sizeof row->stop, "max_iters");
        }
        w->frame_iter++;
    }
    return CLOTH_OK;
}

/* v = (x - x_n) / h; the pinned vertices at rest at their x0 row. */
static void update_velocities(cloth__pd *w, cloth_sim *sim, double h)
{
    const cloth_mesh *m = sim->mesh;
    for (int i = 0; i < m->n; i++)
        for (int k = 0; k < 3; k++) {
            int j = 3 * i + k;
            if (m->pinned[i]) {
                sim->x[j] = m->x0[j];
                sim->v[j] = 0;
            } else {
                sim->v[j] = (sim->x[j] - w->x_n[j]) / h;
            }
        }
}

static cloth_status pd_step(cloth_sim *sim, void *work, double h, cloth__step_stats *stats,
                            cloth_error *err)
{
    cloth__pd *w = work;
    stats->iterations = 0;
    if (w->nf > 0 && (w->h != h || w->stiffness_version != sim->stiffness_version)) {
        cloth_status st = factor(w, sim, h, err);
        if (st != CLOTH_OK)
            return st;
    }
    predict(w, sim, h);
    if (w->nf > 0) {
        cloth_status st = iterate(w, sim, h, stats, err);
        if (st != CLOTH_OK)
            return st;
    }
    update_velocities(w, sim, h);
    /* the contact stage over x_n -> (x, v), called here (contact = IN_STEP) so that the
     * strain limit is checked on the positions the step ends with */
    cloth__contact_after_step(sim, h, w->x_n, stats);
    double tau = settings(sim)->strain_limit;
    if (tau > 0 && w->n_limited > 0 &&
        cloth__provot_violated(sim->mesh, w->limited, w->n_limited, sim->x, 1 + tau, LIMIT_TOL))
        stats->not_converged = 1;
    return CLOTH_OK;
}

/* ------------------------------------------------------------- log, table */

static void pd_start(cloth_sim *sim, void *work)
{
    (void)sim;
    cloth__pd *w = work;
    w->n_rows = 0;
    w->frame_iter = 0;
}

static void pd_begin_frame(cloth_sim *sim, void *work)
{
    pd_start(sim, work);
}

static int pd_log(const void *work, const cloth_iter **rows)
{
    const cloth__pd *w = work;
    *rows = w->rows;
    return w->n_rows;
}

static const cloth__key pd_keys[] = {
    {.section = "pd", .name = "iterations", .type = CLOTH__KEY_INT,
     .offset = offsetof(cloth__pd_def, iterations), .lo = 1, .hi = 100000, .def = "10",
     .help = "local/global iterations per step"},
    {.section = "pd", .name = "w_spring", .type = CLOTH__KEY_DOUBLE,
     .offset = offsetof(cloth__pd_def, w_spring), .lo = 0, .hi = 1e6, .def = "1",
     .help = "spring constraint weight, times each spring's k (0 = no springs)"},
    {.section = "pd", .name = "w_strain", .type = CLOTH__KEY_DOUBLE,
     .offset = offsetof(cloth__pd_def, w_strain), .lo = 0, .hi = 1e9, .def = "0",
     .help = "triangle strain constraint weight per rest area, N/m (0 = off)"},
    {.section = "pd", .name = "strain_limit", .type = CLOTH__KEY_DOUBLE,
     .offset = offsetof(cloth__pd_def, strain_limit), .lo = 0, .hi = 1, .hi_open = 1,
     .def = "0",
     .help = "tau: springs l <= (1 + tau) l0, triangles' singular values in [1 - tau, 1 + "
     "tau]; 0 = off (triangles: rotations)"},
    {.section = "pd", .name = "w_limit", .type = CLOTH__KEY_DOUBLE,
     .offset = offsetof(cloth__pd_def, w_limit), .lo = 0, .hi = 1e6, .def = "10",
     .help = "the springs' strain-limit constraint weight, times each spring's k"},
    {.section = "pd", .name = "chebyshev_rho", .type = CLOTH__KEY_DOUBLE,
     .offset = offsetof(cloth__pd_def, chebyshev_rho), .lo = 0, .hi = 1, .hi_open = 1,
     .def = "0",
     .help = "Wang 2015's Chebyshev acceleration with this spectral radius estimate, in [0, "
     "1); 0 = off"},
};

/* pd.csv: one row per local/global iteration (a direct solve: lin_iters 0). */
static const cloth__column pd_columns[] = {
    CLOTH__LOG_FIELD(frame, "frame of the iteration"),
    CLOTH__LOG_FIELD(iter, "local/global iteration within the frame (substeps continue the "
                           "count)"),
    CLOTH__LOG_FIELD(energy, "PD energy E(x_k) before the global solve"),
    CLOTH__LOG_FIELD(grad_norm, "|grad E(x_k)|_inf = |L x_k - b|_inf"),
    CLOTH__LOG_FIELD(step_norm, "|x_{k+1} - x_k|_inf of the global solve"),
    CLOTH__LOG_VALUE("omega", LOG_OMEGA, "Chebyshev's weight omega of the "
                                        "iteration (1 without pd.chebyshev_rho)"),
    CLOTH__LOG_FIELD(lin_iters, "0: the global solve is a prefactored Cholesky"),
    CLOTH__LOG_FIELD(stop, "on a step's last row max_iters (a fixed count), else empty"),
};

static const cloth__log_columns pd_log_columns = {
    "pd.csv", pd_columns, (int)(sizeof pd_columns / sizeof pd_columns[0])};

const cloth__kernel cloth__pd_kernel = {
    .name = "pd",
    .summary = "Projective Dynamics: local projections, a prefactored global solve (CHOLMOD)",
    .keys = pd_keys,
    .n_keys = (int)(sizeof pd_keys / sizeof pd_keys[0]),
    .create = pd_create,
    .destroy = pd_destroy,
    .start = pd_start,
    .step = pd_step,
    .measure = NULL,
    .log = pd_log,
    .begin_frame = pd_begin_frame,
    .interactive_max = 0,
    .dense_max = 0,
    .iteration_key = "iterations",
    .stiffness_key = NULL,
    .stiffness_max = 0,
    .reports_cond = 0,
    .cond_off = NULL,
    .frame_substeps = 1, /* implicit Euler: stable at h = 1/60 s */
    /* contact: the whole stage, called at the end of its step (the strain check reads
     * the positions after contact) */
    .contact = CLOTH__CONTACT_IN_STEP,
    .visit_bytes = {.spring = 184, .vertex = 248}, /* the factor not counted */
    .log_columns = &pd_log_columns,
};
