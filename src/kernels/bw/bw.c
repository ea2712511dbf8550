/*
 * bw — Baraff and Witkin 1998, "Large Steps in Cloth Simulation": one linearised
 * implicit Euler step a step, solved by their modified preconditioned conjugate
 * gradients.  The model (stretch, shear and bend conditions) is bw_conditions.c, the
 * solver bw_pcg.c; this file is the step, as its stages:
 *
 *   assemble    A = M - h df/dv - h^2 df/dx,   b = h (f0 + h df/dx v0)      (eq. 18)
 *   solve       A dv = b by the filtered PCG (pins: S_i = 0, dv_i = 0; sphere and
 *               floor contacts: S_i = I - n n^T), from dv = h M^-1 f_ext
 *   update      v1 = v0 + dv,  x1 = x0 + h v1
 *   limit       Provot's strain limit (bw.strain_limit), as the explicit kernel's
 *   contact     the contact stage (sim/contact.h), which the sim runs after the step:
 *               self-collision and obstacles, as for the explicit kernel
 *
 * Forces.  Every condition C (bw_conditions.c) with stiffness k (bw.stiffness: the
 * spring grid's small-strain constants over the rest area, or bw.k_*) and damping
 * k_d = beta k
 * (bw.damping = beta) gives (sections 4.1 and 4.5)
 *
 *   f = -k C dC/dx,   d = -k_d Cdot dC/dx,   Cdot = dC/dx . v
 *
 * and the external forces of terms/forces.h (gravity, wind, air damping -c v) are added
 * to f0.  Jacobians kept, the definite part only (section 5.2 and the usual reading):
 *
 *   df/dx ~ -k dC/dx dC/dx^T      and, with bw.tension_hessian = keep (the default), the
 *                                 stretch conditions' -k C d2C/dx2 where C > 0 (positive
 *                                 semi-definite there); dropped where C <= 0, and for
 *                                 shear and bend (indefinite; zero at rest)
 *   dd/dv  = -k_d dC/dx dC/dx^T   exact
 *   dd/dx ~ 0                     dropped: -k_d (dC/dx dCdot/dx^T + Cdot d2C/dx2) (the
 *                                 first not symmetric, the second indefinite; the paper
 *                                 drops the first)
 *   air damping: d(-c v)/dv = -c I kept; wind and gravity explicit.
 *
 * so A = M + sum (h k_d + h^2 k) dC dC^T + h^2 sum_{C>0} k C d2C + h c I is symmetric
 * positive definite, and b = h (f0 - h sum k Cdot dC - h sum_{C>0} k C d2C v0).  A is one cloth__sparse
 * (linalg/sparse.h) of 3x3 blocks over every vertex, pinned ones included (the filter
 * removes them), its pattern the pairs of vertices sharing a triangle or a hinge, set
 * at create; a step only zeroes and adds values.
 *
 * Stats: a step's `iterations` are its CG iterations (Provot sweeps are not counted);
 * a CG that stops at bw.cg_max_iters before the rule counts in lin_capped and
 * not_converged, as does a strain limit still violated after bw.strain_passes.
 *
 * Obstacles, two ways.  After the step, the contact stage, as for the explicit kernel: a
 * vertex inside an obstacle goes back on its surface and loses its inward velocity
 * relative to it.  And the paper's way (section 5.3) from then on, for the sphere and the
 * floor: that vertex (the stage's hits, cloth__contact_obstacle_hits, read at the next
 * step's start) is a contact of the next step's filter, S = I - n n^T with its normal velocity
 * prescribed to the obstacle's, until the constraint's reaction pulls instead of pushes
 * (constraints, release_contacts); a contact released by a step's solve is not made one
 * again by the contact stage after that step (take_contacts).
 */
#include "kernels/bw/bw_conditions.h"
#include "kernels/bw/bw_def.h"
#include "kernels/bw/bw_pcg.h"
#include "terms/forces.h"
#include "terms/obstacle.h"
#include "terms/strain_project.h"
#include "terms/dihedral.h"
#include "sim/contact.h"
#include "sim/sim.h"
#include "core/status.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const cloth__bw_def *settings(const cloth_sim *sim)
{
    return cloth__sim_settings(sim);
}

/* The step's stiffnesses: bw.k_* (own), or (springs, read afresh each step so a live
 * change of material.k applies) the spring grid's small-strain constants per unit area,
 * which Baraff and Witkin's conditions can match (docs/kernels/bw.md derives them): a
 * structural spring of the grid (k_s) adds k_s to C11, the two shear diagonals of a cell
 * (k_sh) add k_sh to C11, to C12 and to the shear modulus G, a skip-one bend spring (k_b,
 * 2s long) adds 4 k_b to C11.  Stretch then takes C11 = k_s + k_sh + 4 k_b, shear
 * G = k_sh, each over the triangle's rest area; C12 = k_sh has no condition to go to (a
 * triangle's C_u and C_v do not couple).  A family the mesh does not build
 * (mesh.springs) adds nothing. */
static cloth__bw_k stiffness(const cloth_sim *sim)
{
    const cloth__bw_def *def = settings(sim);
    cloth__bw_k k = {def->k_stretch, def->k_shear, def->k_bend, 0};
    if (def->stiffness == CLOTH__BW_K_SPRINGS) {
        const double *ks = sim->scene.material.k;
        unsigned fam = sim->scene.mesh.families;
        double s = (fam & (1u << CLOTH_STRUCTURAL)) ? ks[CLOTH_STRUCTURAL] : 0;
        double sh = (fam & (1u << CLOTH_SHEAR)) ? ks[CLOTH_SHEAR] : 0;
        double b = (fam & (1u << CLOTH_BEND)) ? ks[CLOTH_BEND] : 0;
        k.stretch = s + sh + 4 * b;
        k.shear = sh;
        k.per_area = 1;
    }
    return k;
}

typedef struct cloth__bw {
    cloth__bw_model model;      /* triangles' (u, v) frames, hinges' rest angles       */
    cloth__sparse *A;           /* the system matrix, every vertex a block            */
    cloth__bw_pcg *pcg;         /* the filtered PCG's vectors                         */
    double *b, *dv;             /* 3n: right-hand side, solution                      */
    int *limited;               /* strain limit: structural and shear springs with a
                                 * free end                                           */
    int n_limited;
    int pinned_violations;      /* ... springs between two pins over the limit        */
    double *x_int;              /* 3n: positions before Provot's correction           */
    unsigned char *kind;        /* n: the filter at each vertex (bw_pcg.h)            */
    unsigned char *contact;     /* n: the obstacle a vertex rests on (CLOTH__HIT_*),
                                 * from the collisions of the last step               */
    unsigned char *released;    /* n: 1 where the last step's solve let a contact go  */
    double *normal;             /* 3n: its outward normal there                        */
    double *z;                  /* 3n: the prescribed part of dv                       */
    double *q;                  /* 3n: A dv, for the contacts' reactions              */
} cloth__bw;

static void bw_destroy(void *work)
{
    cloth__bw *w = work;
    if (!w)
        return;
    cloth__bw_model_free(&w->model);
    cloth__sparse_destroy(w->A);
    cloth__bw_pcg_destroy(w->pcg);
    free(w->b);
    free(w->dv);
    free(w->limited);
    free(w->x_int);
    free(w->kind);
    free(w->contact);
    free(w->released);
    free(w->normal);
    free(w->z);
    free(w->q);
    free(w);
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The matrix's pattern: a block for each pair of distinct vertices of a triangle or a
 * hinge (block column the larger index). */
static cloth_status make_matrix(const cloth_mesh *m, cloth__sparse **out, cloth_error *err)
{
    long cap = 3L * m->n_tris + 6L * m->n_hinges, n_pairs = 0;
    long *pair = malloc(sizeof(long) * (size_t)(cap + 1));
    int *start = calloc((size_t)m->n + 1, sizeof(int));
    int *rows = malloc(sizeof(int) * (size_t)(cap + 1));
    cloth_status st = CLOTH_OK;
    if (!pair || !start || !rows) {
        st = cloth__fail(err, CLOTH_ENOMEM, "bw: out of memory for the matrix of %d vertices",
                         m->n);
        goto done;
    }
    for (int t = 0; t < m->n_tris + m->n_hinges; t++) {
        const int *v = t < m->n_tris ? m->tris + 3 * t : m->hinges + 4 * (t - m->n_tris);
        int nv = t < m->n_tris ? 3 : 4;
        for (int i = 0; i < nv; i++)
            for (int j = i + 1; j < nv; j++)
                if (v[i] != v[j]) {
                    long lo = v[i] < v[j] ? v[i] : v[j], hi = v[i] < v[j] ? v[j] : v[i];
                    pair[n_pairs++] = hi * m->n + lo;
                }
    }
    qsort(pair, (size_t)n_pairs, sizeof *pair, cmp_long);
    int n_rows = 0;
    for (long p = 0; p < n_pairs; p++) {
        if (p > 0 && pair[p] == pair[p - 1])
            continue;
        rows[n_rows++] = (int)(pair[p] % m->n);
        start[pair[p] / m->n + 1]++;
    }
    for (int j = 0; j < m->n; j++)
        start[j + 1] += start[j];
    st = cloth__sparse_create(m->n, n_rows, out, err);
    if (st == CLOTH_OK)
        st = cloth__sparse_set_pattern(*out, start, rows, err);
done:
    free(pair);
    free(start);
    free(rows);
    return st;
}

static cloth_status bw_create(const cloth_sim *sim, void **work, cloth_error *err)
{
    const cloth_mesh *m = sim->mesh;
    const cloth__bw_def *def = settings(sim);
    *work = NULL;
    cloth__bw *w = calloc(1, sizeof *w);
    if (!w)
        return cloth__fail(err, CLOTH_ENOMEM, "bw: out of memory");
    size_t bytes = sizeof(double) * (3 * (size_t)m->n + 1);
    cloth_status st = cloth__bw_model_init(m, &w->model, err);
    if (st == CLOTH_OK)
        st = make_matrix(m, &w->A, err);
    if (st == CLOTH_OK)
        st = cloth__bw_pcg_create(m->n, &w->pcg, err);
    if (st == CLOTH_OK && (!(w->b = malloc(bytes)) || !(w->dv = malloc(bytes)) ||
                           !(w->normal = malloc(bytes)) ||
                           !(w->z = malloc(bytes)) || !(w->q = malloc(bytes)) ||
                           !(w->kind = malloc((size_t)m->n + 1)) ||
                           !(w->contact = malloc((size_t)m->n + 1)) ||
                           !(w->released = malloc((size_t)m->n + 1))))
        st = cloth__fail(err, CLOTH_ENOMEM, "bw: out of memory for %d vertices", m->n);
    if (st == CLOTH_OK && def->strain_limit > 0) {
        if (!(w->x_int = malloc(bytes)) ||
            !(w->limited = malloc(sizeof(int) * (size_t)(m->n_springs + 1))))
            st = cloth__fail(err, CLOTH_ENOMEM, "bw: out of memory for %d springs",
                             m->n_springs);
        for (int s = 0; st == CLOTH_OK && s < m->n_springs; s++) {
            const cloth_spring *sp = &m->springs[s];
            if (sp->family != CLOTH_BEND && !(m->pinned[sp->a] && m->pinned[sp->b]))
                w->limited[w->n_limited++] = s;
        }
    }
    if (st != CLOTH_OK) {
        bw_destroy(w);
        return st;
    }
    *work = w;
    return CLOTH_OK;
}

/* Springs between two pins keep their length: count once those over the limit. */
static void bw_start(cloth_sim *sim, void *work)
{
    cloth__bw *w = work;
    const cloth__bw_def *def = settings(sim);
    const cloth_mesh *m = sim->mesh;
    w->pinned_violations = 0;
    memset(w->contact, CLOTH__HIT_NONE, (size_t)m->n);
    memset(w->released, 0, (size_t)m->n);
    for (int s = 0; def->strain_limit > 0 && s < m->n_springs; s++) {
        const cloth_spring *sp = &m->springs[s];
        if (sp->family != CLOTH_BEND && m->pinned[sp->a] && m->pinned[sp->b])
            w->pinned_violations += cloth__provot_violated(m, &s, 1, m->x0,
                                                           1 + def->strain_limit,
                                                           def->strain_tol);
    }
}

/* ------------------------------------------------------------ assemble */

/* The share of one element of nv vertices v[] with nc conditions (C[c], gradient
 * g[3 nv c ..], stiffness k[c]): b += h (-k C - k_d Cdot - h k Cdot) g and
 * A += (h k_d + h^2 k) g g^T, k_d = beta k.  T (nd x nd, or NULL) is the kept part of
 * sum k C d2C/dx2 (bw.tension_hessian): A += h^2 T and b -= h^2 T v0, eq. 18's
 * h^2 df/dx v0 with that term in df/dx. */
static void add_element(cloth__bw *w, const double *v0, const int *v, int nv, int nc,
                        const double *C, const double *g, const double *k, double beta,
                        double h, const double *T)
{
    double H[144];
    int nd = 3 * nv;
    memset(H, 0, sizeof(double) * (size_t)(nd * nd));
    for (int c = 0; c < nc; c++) {
        const double *gc = g + nd * c;
        if (!(k[c] > 0))
            continue;
        double cdot = 0;
        for (int i = 0; i < nv; i++)
            for (int d = 0; d < 3; d++)
                cdot += gc[3 * i + d] * v0[3 * v[i] + d];
        double kd = beta * k[c];
        double coef_b = h * (-k[c] * C[c] - kd * cdot - h * k[c] * cdot);
        double coef_a = h * kd + h * h * k[c];
        for (int i = 0; i < nv; i++)
            for (int d = 0; d < 3; d++)
                w->b[3 * v[i] + d] += coef_b * gc[3 * i + d];
        for (int p = 0; p < nd; p++)
            for (int q = 0; q < nd; q++)
                H[nd * p + q] += coef_a * gc[p] * gc[q];
    }
    for (int p = 0; T && p < nd; p++) {
        double Tv = 0;
        for (int q = 0; q < nd; q++) {
            H[nd * p + q] += h * h * T[nd * p + q];
            Tv += T[nd * p + q] * v0[3 * v[q / 3] + q % 3];
        }
        w->b[3 * v[p / 3] + p % 3] -= h * h * Tv;
    }
    for (int p = 0; p < nv; p++)
        for (int q = 0; q < nv; q++)
            cloth__sparse_add_block(w->A, v[p], v[q], H + 3 * nd * p + 3 * q, nd, 1);
}

/* The tension term of a triangle: T = sum over its stretch conditions with C > 0 of
 * k C d2C/dx2 (positive semi-definite there; where C <= 0 the term is indefinite and
 * dropped, the usual compromise).  Returns 0 when no condition is stretched. */
static int tension(const double xt[9], const double Dm_inv[4], double area, const double C[2],
                   double k, double T[81])
{
    double Hc[162];
    if (!(C[0] > 0) && !(C[1] > 0))
        return 0;
    cloth__bw_stretch_hessian(xt, Dm_inv, area, Hc);
    for (int p = 0; p < 81; p++)
        T[p] = k * ((C[0] > 0 ? C[0] * Hc[p] : 0) + (C[1] > 0 ? C[1] * Hc[81 + p] : 0));
    return 1;
}

/* A and b of the step from (x0, v0) = (sim->x, sim->v) at sim->t. */
static void assemble(cloth_sim *sim, cloth__bw *w, double h)
{
    const cloth_mesh *m = sim->mesh;
    const cloth__bw_def *def = settings(sim);
    const cloth__bw_model *md = &w->model;
    const double *x = sim->x, *v0 = sim->v;
    int n3 = 3 * m->n;
    cloth__sparse_zero(w->A);
    /* the external forces, explicit; the air damping's -c I also in A */
    memset(sim->force, 0, sizeof(double) * (size_t)n3);
    cloth__add_external_forces(cloth__sim_force_env(sim), x, v0, sim->t, sim->force);
    double c_air = sim->scene.world.air_damping;
    for (int i = 0; i < n3; i++) {
        w->b[i] = h * sim->force[i];
        cloth__sparse_add_diag(w->A, i, m->mass[i / 3] + h * c_air);
    }
    cloth__bw_k k = stiffness(sim);
    for (int t = 0; t < md->n_tris; t++) {
        if (!(md->area[t] > 0))
            continue;
        const int *tv = md->tris + 3 * t;
        double xt[9], C[3], g[27], T[81], ks = cloth__bw_tri_k(md, &k, t, 0);
        double kt[3] = {ks, ks, cloth__bw_tri_k(md, &k, t, 1)};
        for (int i = 0; i < 3; i++)
            memcpy(xt + 3 * i, x + 3 * tv[i], 3 * sizeof(double));
        cloth__bw_stretch(xt, md->Dm_inv + 4 * t, md->area[t], C, g);
        cloth__bw_shear(xt, md->Dm_inv + 4 * t, md->area[t], C + 2, g + 18);
        int kept = def->tension == CLOTH__BW_TENSION_KEEP &&
                   tension(xt, md->Dm_inv + 4 * t, md->area[t], C, ks, T);
        add_element(w, v0, tv, 3, 3, C, g, kt, def->damping, h, kept ? T : NULL);
    }
    for (int e = 0; e < md->n_hinges && k.bend > 0; e++) {
        const int *hv = md->hinges + 4 * e;
        double theta, g[12];
        if (!cloth__dihedral_gradient(x + 3 * hv[0], x + 3 * hv[1], x + 3 * hv[2],
                                      x + 3 * hv[3], &theta, g))
            continue;
        double C = theta - md->theta0[e];
        add_element(w, v0, hv, 4, 1, &C, g, &k.bend, def->damping, h, NULL);
    }
}

/* The solve's first guess: dv = h M^-1 f_ext, the external forces' velocity change
 * (sim->force holds them after assemble).  A uniform field (gravity) with uniform masses
 * is then solved exactly, A dv = M dv = b, as the elastic terms do not see a
 * translation: a free fall stays rigid whatever bw.cg_tol. */
static void guess(const cloth_sim *sim, cloth__bw *w, double h)
{
    const cloth_mesh *m = sim->mesh;
    for (int i = 0; i < 3 * m->n; i++)
        w->dv[i] = h * sim->force[i] * m->inv_mass[i / 3];
}

/* The filter of the solve (section 5.3): pins prescribe dv = 0; a vertex resting on the
 * sphere or the floor (put back on it by the last step's collisions, or held by it
 * since) prescribes its normal velocity change, dv.n = (v_b - v0).n, so that it ends the
 * step moving with the obstacle along the normal, free to slide.  v_b is the obstacle's
 * velocity there (the sphere's centre moving over the step, the floor's 0), n its normal
 * at the vertex now.  The avatar's body is left to the post-step projection alone: its
 * normal is known only where a vertex is inside it, and a normal kept from an earlier
 * step of a moving body held the cloth of experiments/avatar_skirt.ini in wrong places
 * (largest stretch 2-3 against 0.05-0.35 without the filter, one step a frame). */
static void constraints(cloth_sim *sim, cloth__bw *w, const double c_old[3], double h)
{
    const cloth_mesh *m = sim->mesh;
    for (int i = 0; i < m->n; i++) {
        double *n = w->normal + 3 * i, *z = w->z + 3 * i, vb[3] = {0, 0, 0};
        const double *x = sim->x + 3 * i, *v = sim->v + 3 * i;
        z[0] = z[1] = z[2] = 0;
        w->kind[i] = m->pinned[i] ? CLOTH__BW_PINNED : CLOTH__BW_FREE;
        if (m->pinned[i] || w->contact[i] == CLOTH__HIT_NONE)
            continue;
        if (w->contact[i] == CLOTH__HIT_SPHERE) {
            double r = 0;
            for (int k = 0; k < 3; k++) {
                n[k] = x[k] - sim->sphere_c[k];
                vb[k] = (sim->sphere_c[k] - c_old[k]) / h;
                r += n[k] * n[k];
            }
            r = sqrt(r);
            if (!(r > 0))
                continue;
            for (int k = 0; k < 3; k++)
                n[k] /= r;
        } else if (w->contact[i] != CLOTH__HIT_FLOOR) {
            continue;
        }
        double vn = 0;
        for (int k = 0; k < 3; k++)
            vn += (vb[k] - v[k]) * n[k];
        for (int k = 0; k < 3; k++)
            z[k] = vn * n[k];
        w->kind[i] = CLOTH__BW_NORMAL;
    }
}

/* A contact holds while the obstacle pushes: its reaction (A dv - b).n, the impulse
 * the constraint added, is > 0.  One that pulls the vertex in is released (Baraff and
 * Witkin section 5.2's rule), for the next step, and marked: the contact stage after this
 * step may still put it back on the surface, but take_contacts does not make it a contact
 * again.  Else a vertex held to the obstacle's normal velocity on a moving
 * sphere, which ends the step a little inside (the linearised constraint does not follow
 * the curved surface), was caught again by the projection of the step that let it go: over 170 frames of
 * experiments/hanging.ini, 879 of 1,057 releases were undone so, the cloth stuck to
 * the sphere and stretched to 0.46. */
static void release_contacts(cloth_sim *sim, cloth__bw *w)
{
    cloth__sparse_mul(w->A, w->dv, w->q);
    for (int i = 0; i < sim->mesh->n; i++) {
        w->released[i] = 0;
        if (w->kind[i] != CLOTH__BW_NORMAL)
            continue;
        double reaction = 0;
        for (int k = 0; k < 3; k++)
            reaction += (w->q[3 * i + k] - w->b[3 * i + k]) * w->normal[3 * i + k];
        if (!(reaction > 0)) {
            w->contact[i] = CLOTH__HIT_NONE;
            w->released[i] = 1;
        }
    }
}

/* ------------------------------------------------------------ update, limit, collide */

/* v1 = v0 + dv, x1 = x0 + h v1; pins stay at their (possibly dragged) x0 row, v = 0. */
static void update(cloth_sim *sim, const cloth__bw *w, double h)
{
    const cloth_mesh *m = sim->mesh;
    for (int i = 0; i < m->n; i++)
        for (int k = 0; k < 3; k++) {
            int j = 3 * i + k;
            if (m->pinned[i]) {
                sim->x[j] = m->x0[j];
                sim->v[j] = 0;
                continue;
            }
            sim->v[j] += w->dv[j];
            sim->x[j] += h * sim->v[j];
        }
}

/* Provot's sweeps, then v += (x_corrected - x_integrated) / h (Provot section 5), as
 * the explicit kernel's explicit.strain_limit. */
static void limit_strain(cloth_sim *sim, cloth__bw *w, double h, cloth__step_stats *stats)
{
    const cloth__bw_def *def = settings(sim);
    const cloth_mesh *m = sim->mesh;
    double factor = 1 + def->strain_limit;
    int n3 = 3 * m->n, passes = 0, changed = 1;
    memcpy(w->x_int, sim->x, sizeof(double) * (size_t)n3);
    while (changed > 0 && passes < def->strain_passes) {
        changed = cloth__provot_sweep(m, w->limited, w->n_limited, sim->x, factor,
                                      def->strain_tol);
        passes++;
    }
    for (int i = 0; i < n3; i++)
        sim->v[i] += (sim->x[i] - w->x_int[i]) / h;
    if ((changed && cloth__provot_violated(m, w->limited, w->n_limited, sim->x, factor,
                                           def->strain_tol)) || w->pinned_violations)
        stats->not_converged = 1;
}

/* The vertices the contact stage put back on an obstacle after the last step become
 * contacts of this step's filter, with the obstacle's normal there (the others keep
 * theirs until release_contacts lets them go), except those the last step's solve
 * released (Baraff and Witkin section 5.2; release_contacts says why). */
static void take_contacts(const cloth_sim *sim, cloth__bw *w)
{
    const double *normal;
    const unsigned char *hit = cloth__contact_obstacle_hits(sim, &normal);
    for (int i = 0; hit && i < sim->mesh->n; i++)
        if (hit[i] != CLOTH__HIT_NONE && !w->released[i]) {
            w->contact[i] = hit[i];
            memcpy(w->normal + 3 * i, normal + 3 * i, 3 * sizeof(double));
        }
}

static cloth_status bw_step(cloth_sim *sim, void *work, double h, cloth__step_stats *stats,
                            cloth_error *err)
{
    (void)err;
    cloth__bw *w = work;
    const cloth__bw_def *def = settings(sim);
    double c_old[3];
    cloth__sphere_center(&sim->scene.sphere, sim->t, c_old);
    take_contacts(sim, w);
    assemble(sim, w, h);
    constraints(sim, w, c_old, h);
    guess(sim, w, h);
    int iters = 0;
    cloth__bw_filter filter = {w->kind, w->normal, w->z};
    int converged = cloth__bw_pcg_solve(w->pcg, w->A, w->b, filter, w->dv, def->cg_tol,
                                        def->cg_max_iters, &iters);
    release_contacts(sim, w);
    stats->iterations = iters;
    if (!converged) {
        stats->lin_capped = 1;
        stats->not_converged = 1;
    }
    update(sim, w, h);
    if (def->strain_limit > 0)
        limit_strain(sim, w, h, stats);
    /* the contact stage follows (sim.c) */
    return CLOTH_OK;
}

/* The frame's elastic energy is the model's (sum k/2 C^2), not the springs'. */
static void bw_measure(const cloth_sim *sim, const void *work, cloth_frame *frame)
{
    const cloth__bw *w = work;
    cloth__bw_k k = stiffness(sim);
    frame->elastic = cloth__bw_energy(&w->model, &k, sim->x);
}

static const char *const stiffness_names[] = {"springs", "own", NULL};
static const char *const tension_names[] = {"keep", "drop", NULL};

static const cloth__key bw_keys[] = {
    {.section = "bw", .name = "stiffness", .type = CLOTH__KEY_CHOICE,
     .offset = offsetof(cloth__bw_def, stiffness), .choices = stiffness_names, .def = "springs",
     .help = "springs: the spring grid's small-strain constants over each triangle's rest area, "
     "stretch k_structural + k_shear + 4 k_bend, shear k_shear (any mesh size); own: "
     "bw.k_stretch and bw.k_shear (the paper's fixed k)"},
    {.section = "bw", .name = "k_stretch", .type = CLOTH__KEY_DOUBLE,
     .offset = offsetof(cloth__bw_def, k_stretch), .lo = 0, .hi = 1e15, .def = "1e5",
     .help = "with bw.stiffness = own: k of the stretch conditions a (|w_u| - 1, |w_v| - 1) "
     "(N/m^3; 2 k_s / s^2 matches springs k_s on a grid of spacing s)"},
    {.section = "bw", .name = "k_shear", .type = CLOTH__KEY_DOUBLE,
     .offset = offsetof(cloth__bw_def, k_shear), .lo = 0, .hi = 1e15, .def = "1e4",
     .help = "with bw.stiffness = own: k of the shear condition a w_u.w_v (N/m^3)"},
    {.section = "bw", .name = "k_bend", .type = CLOTH__KEY_DOUBLE,
     .offset = offsetof(cloth__bw_def, k_bend), .lo = 0, .hi = 1e15, .def = "1e-3",
     .help = "k of the bend condition theta - theta_0 on each hinge (N m)"},
    {.section = "bw", .name = "damping", .type = CLOTH__KEY_DOUBLE,
     .offset = offsetof(cloth__bw_def, damping), .lo = 0, .hi = 10, .def = "1e-3",
     .help = "beta (s): every condition's damping k_d = beta k, force -k_d Cdot dC/dx"},
    {.section = "bw", .name = "tension_hessian", .type = CLOTH__KEY_CHOICE,
     .offset = offsetof(cloth__bw_def, tension), .choices = tension_names, .def = "keep",
     .help = "the stretch conditions' -k C d2C/dx2 in df/dx: keep (where C > 0, stretched: "
     "positive semi-definite there) or drop (-k dC dC^T alone)"},
    {.section = "bw", .name = "cg_tol", .type = CLOTH__KEY_DOUBLE,
     .offset = offsetof(cloth__bw_def, cg_tol), .lo = 0, .hi = 1, .lo_open = 1, .def = "1e-4",
     .help = "epsilon of the PCG stopping rule delta <= epsilon^2 delta_0 (section 5.3)"},
    {.section = "bw", .name = "cg_max_iters", .type = CLOTH__KEY_INT,
     .offset = offsetof(cloth__bw_def, cg_max_iters), .lo = 1, .hi = 1000000, .def = "200",
     .help = "PCG iterations per step at most (then lin_capped and not-converged)"},
    {.section = "bw", .name = "strain_limit", .type = CLOTH__KEY_DOUBLE,
     .offset = offsetof(cloth__bw_def, strain_limit), .lo = 0, .hi = 1, .hi_open = 1,
     .def = "0",
     .help = "Provot's tau_c after each step: structural/shear l <= (1 + tau_c) l0, velocities "
     "from the corrected positions; 0 = off"},
    {.section = "bw", .name = "strain_passes", .type = CLOTH__KEY_INT,
     .offset = offsetof(cloth__bw_def, strain_passes), .lo = 1, .hi = 1000000, .def = "100",
     .help = "Provot sweeps per step at most (then not-converged)"},
    {.section = "bw", .name = "strain_tol", .type = CLOTH__KEY_DOUBLE,
     .offset = offsetof(cloth__bw_def, strain_tol), .lo = 0, .hi = 0.1, .lo_open = 1,
     .def = "1e-6", .help = "a spring exceeds the limit when l > (1 + tau_c) l0 (1 + tol)"},
};

const cloth__kernel cloth__bw_kernel = {
    .name = "bw",
    .summary = "Baraff-Witkin 1998: stretch/shear/bend conditions, one linearised implicit "
               "Euler step by filtered PCG",
    .keys = bw_keys,
    .n_keys = (int)(sizeof bw_keys / sizeof bw_keys[0]),
    .create = bw_create,
    .destroy = bw_destroy,
    .start = bw_start,
    .step = bw_step,
    .measure = bw_measure,
    .log = NULL,
    .begin_frame = NULL,
    .interactive_max = 0,
    .dense_max = 0,
    .iteration_key = "cg_max_iters",
    .stiffness_key = NULL,
    .stiffness_max = 0,
    .reports_cond = 0,
    .cond_off = NULL,
    .frame_substeps = 1, /* implicit: stable at h = 1/60 s */
    /* contact: the stage after each step; its obstacle hits feed the next step's filter */
    .contact = CLOTH__CONTACT_AFTER,
    .needs_triangles = 1, /* its conditions live on triangles */
    .visit_bytes = {.spring = 108, .vertex = 596}, /* an off-diagonal block; PCG vectors */
};
