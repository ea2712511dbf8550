/* newton: the linear system of a Newton iteration — the sparse pattern of H (one 3x3
 * block per pair of coupled free vertices), its solution by newton.solver, and its
 * condition number by newton.cond.
 *
 * H couples two vertices when a spring, a triangle (its edges, its strain limit) or an
 * active self-contact joins them.  The mesh's couplings never change; contacts come and
 * go, so the pattern is the mesh's blocks plus the contact pairs met in the current step:
 * rebuilt (and re-analysed by CHOLMOD) only when a pair outside it becomes active. */
#include "core/status.h"
#include "kernels/newton/newton_work.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- pattern */

static int block_of(const cloth__newton *w, int v) { return w->dof[v] / 3; }

/* Sorts the rows of one column (a handful: insertion sort). */
static void sort_rows(int *r, int n)
{
    for (int i = 1; i < n; i++) {
        int v = r[i], k = i;
        for (; k > 0 && r[k - 1] > v; k--)
            r[k] = r[k - 1];
        r[k] = v;
    }
}

/* pat_start/pat_rows <- the mesh's blocks and the pairs in pat_pairs, then set. */
static void build_pattern(cloth__newton *w)
{
    int nb = w->ndof / 3, *start = w->pat_start, *rows = w->pat_rows;
    memset(start, 0, ((size_t)nb + 1) * sizeof *start);
    /* count, into start[j + 1]: the mesh's neighbours of lower block, then pairs */
    for (int v = 0; v < w->n; v++) {
        if (w->dof[v] < 0)
            continue;
        for (int k = w->adj_start[v]; k < w->adj_start[v + 1]; k++) {
            int u = w->adj[k];
            if (w->dof[u] >= 0 && u < v)
                start[block_of(w, v) + 1]++;
        }
    }
    for (int p = 0; p < w->n_pat_pairs; p++)
        start[w->pat_pairs[2 * p + 1] + 1]++;
    for (int j = 0; j < nb; j++)
        start[j + 1] += start[j];
    /* fill: start[j] runs ahead as a cursor and is restored after */
    for (int v = 0; v < w->n; v++) {
        if (w->dof[v] < 0)
            continue;
        int j = block_of(w, v);
        for (int k = w->adj_start[v]; k < w->adj_start[v + 1]; k++) {
            int u = w->adj[k];
            if (w->dof[u] >= 0 && u < v)
                rows[start[j]++] = block_of(w, u);
        }
    }
    for (int p = 0; p < w->n_pat_pairs; p++)
        rows[start[w->pat_pairs[2 * p + 1]]++] = w->pat_pairs[2 * p];
    for (int j = nb; j > 0; j--)
        start[j] = start[j - 1];
    start[0] = 0;
    for (int j = 0; j < nb; j++)
        sort_rows(rows + start[j], start[j + 1] - start[j]);
    cloth_error ignored;
    /* pairs never exceed pair_block_cap (pat_pairs' size), so this cannot fail */
    (void)cloth__sparse_set_pattern(w->H, start, rows, &ignored);
    w->pattern_builds++;
}

/* Appends the active self-contact pairs to pat_pairs (only those outside the pattern
 * when `missing_only`); 0 when it filled up. */
static int append_pairs(cloth__newton *w, int missing_only)
{
    for (int k = 0; k < w->n_contacts; k++) {
        const cloth__contact *c = &w->contacts[k];
        if (c->kind != CLOTH__CONTACT_PAIR || w->dof[c->a] < 0 || w->dof[c->b] < 0)
            continue;
        int i = block_of(w, c->a), j = block_of(w, c->b);
        if (missing_only && cloth__sparse_has_block(w->H, i, j))
            continue;
        if (w->n_pat_pairs == w->pair_block_cap)
            return 0;
        w->pat_pairs[2 * w->n_pat_pairs] = i < j ? i : j;
        w->pat_pairs[2 * w->n_pat_pairs + 1] = i < j ? j : i;
        w->n_pat_pairs++;
    }
    return 1;
}

void cloth__newton_system_pattern(cloth__newton *w)
{
    int missing = 0;
    for (int k = 0; k < w->n_contacts && !missing; k++) {
        const cloth__contact *c = &w->contacts[k];
        if (c->kind == CLOTH__CONTACT_PAIR && w->dof[c->a] >= 0 && w->dof[c->b] >= 0)
            missing = !cloth__sparse_has_block(w->H, block_of(w, c->a), block_of(w, c->b));
    }
    if (!missing)
        return;
    /* the pairs met earlier in this step stay, so that one coming back costs no new
     * analysis; those of earlier steps go.  A contact pair is never a mesh block, and the
     * active pairs alone always fit (pair_block_cap = the most a query returns). */
    int same_step = w->pat_step == w->steps;
    w->pat_step = w->steps;
    if (!same_step || !append_pairs(w, 1)) {
        w->n_pat_pairs = 0;
        append_pairs(w, 0);
    }
    build_pattern(w);
}

/* ------------------------------------------------------------------ solve */

/* H_dense <- H (both halves) for the dense factor or dsyevd. */
static void densify(cloth__newton *w)
{
    cloth__sparse_to_dense(w->H, w->H_dense);
}

static cloth_status solve_dense(cloth__newton *w, double *eps, cloth_error *err)
{
    densify(w);
    cloth_status st = cloth__linalg_factor(w->la, w->H_dense, eps, err);
    if (st != CLOTH_OK)
        return st;
    for (int k = 0; k < w->ndof; k++)
        w->step[k] = -w->grad[k];
    return cloth__linalg_solve(w->la, w->step, w->step, err);
}

cloth_status cloth__newton_system_solve(cloth__newton *w, const cloth_sim *sim, double *eps,
                                        int *lin_iters, int *capped, cloth_error *err)
{
    (void)sim;
    *lin_iters = 0;
    *capped = 0;
    return solve_dense(w, eps, err);
}

/* ------------------------------------------------------- condition number */

const char *cloth__newton_cond_method(const cloth__newton *w, const cloth_newton_def *nd)
{
    if (nd->cond == CLOTH_COND_OFF)
        return "off";
    if (nd->cond == CLOTH_COND_EXACT && w->ndof <= nd->cond_exact_max)
        return "exact-2norm";
    return "estimate-1norm";
}

cloth_status cloth__newton_system_cond(cloth__newton *w, const cloth_sim *sim, double *cond,
                                       cloth_error *err)
{
    *cond = NAN;
    const char *how = cloth__newton_cond_method(w, &sim->scene.newton);
    if (how[1] == 'x') { /* exact-2norm: the factor kept H_dense as it was */
        densify(w);
        return cloth__linalg_cond_exact(w->la, w->H_dense, cond, err);
    }
    if (how[0] == 'e') /* estimate-1norm */
        return cloth__linalg_cond_estimate(w->la, cond, err);
    return CLOTH_OK;
}

/* ------------------------------------------------------- create, destroy */

cloth_status cloth__newton_system_create(cloth__newton *w, const cloth_sim *sim,
                                         cloth_error *err)
{
    (void)sim;
    int nb = w->ndof / 3, mesh_blocks = 0;
    for (int v = 0; v < w->n; v++)
        for (int k = w->adj_start[v]; k < w->adj_start[v + 1]; k++)
            mesh_blocks += w->dof[v] >= 0 && w->dof[w->adj[k]] >= 0 && w->adj[k] < v;
    w->pair_block_cap = w->pair_cap;
    int cap = mesh_blocks + w->pair_block_cap;
    w->pat_start = malloc(((size_t)nb + 1) * sizeof *w->pat_start);
    w->pat_rows = malloc(((size_t)cap + 1) * sizeof *w->pat_rows);
    w->pat_pairs = malloc((2 * (size_t)w->pair_block_cap + 1) * sizeof *w->pat_pairs);
    size_t nd = (size_t)w->ndof;
    w->H_dense = malloc(nd * nd * sizeof *w->H_dense);
    if (!w->pat_start || !w->pat_rows || !w->pat_pairs || !w->H_dense)
        return cloth__fail(err, CLOTH_ENOMEM, "newton: out of memory for the Newton matrix "
                           "(%d unknowns)", w->ndof);
    cloth_status st = cloth__sparse_create(nb, cap, &w->H, err);
    if (st == CLOTH_OK)
        st = cloth__linalg_create(w->ndof, &w->la, err);
    if (st != CLOTH_OK)
        return st;
    w->n_pat_pairs = 0;
    w->pat_step = -1;
    build_pattern(w);
    return CLOTH_OK;
}

void cloth__newton_system_destroy(cloth__newton *w)
{
    free(w->pat_start);
    free(w->pat_rows);
    free(w->pat_pairs);
    free(w->H_dense);
    cloth__sparse_destroy(w->H);
    cloth__linalg_destroy(w->la);
}
