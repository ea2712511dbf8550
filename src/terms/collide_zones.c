/* The collision stage's rigid impact zones (collide.h, (c); Provot 1997, Bridson 7.4). */
#include "terms/collide_zones.h"
#include "terms/collide_candidates.h"
#include "terms/collide_obstacles.h"
#include "terms/collide_passes.h"
#include "terms/rigid_zone.h"

#include <string.h>

static int find_root(int *parent, int i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

static void join(cloth__collide *c, int i, int j)
{
    i = find_root(c->parent, i);
    j = find_root(c->parent, j);
    if (i == j)
        return;
    if (c->size[i] < c->size[j]) {
        int t = i;
        i = j;
        j = t;
    }
    c->parent[j] = i;
    c->size[i] += c->size[j];
}

/* One search of (c): the pairs not inside one zone that hit join their zones.  Returns
 * the hits. */
static int zone_search(cloth__collide *c, const cloth__collide_def *def, const double *x0,
                       const double *x1, cloth__collide_result *res)
{
    cloth__collide_ensure(c, def, x0, x1, res);
    int hits = 0, total = c->cand.n_pt + c->cand.n_ee;
    for (int k = 0; k < total; k++) {
        double *d0, toi;
        unsigned *seen;
        cloth__collide_pair pr = cloth__collide_candidate(c, k, &d0, &seen);
        int r0 = find_root(c->parent, pr.v[0]), inside = 1;
        for (int j = 1; j < 4; j++)
            inside &= find_root(c->parent, pr.v[j]) == r0;
        if (inside || !cloth__collide_candidate_hits(c, k, &pr, d0, seen, def, x0, x1, &toi))
            continue;
        hits++;
        for (int j = 1; j < 4; j++)
            join(c, pr.v[0], pr.v[j]);
    }
    return hits;
}

/* Every zone of two or more vertices moves rigidly from the motion the zones started
 * with; returns the zones, *members their vertices. */
static int move_zones(cloth__collide *c, const cloth__collide_def *def, double h,
                      const double *x0, double *x1, double *v, const double *inv_mass,
                      cloth__collide_result *res)
{
    int n = c->mesh->n, zones = 0;
    /* counting sort of the zoned vertices by root */
    memset(c->start, 0, ((size_t)n + 1) * sizeof *c->start);
    for (int i = 0; i < n; i++) {
        int r = find_root(c->parent, i);
        if (c->size[r] > 1)
            c->start[r + 1]++;
    }
    for (int i = 0; i < n; i++)
        c->start[i + 1] += c->start[i];
    res->zone_vertices = c->start[n];
    for (int i = 0; i < n; i++) {
        int r = find_root(c->parent, i);
        if (c->size[r] > 1)
            c->order[c->start[r]++] = i;
    }
    for (int r = n; r > 0; r--)
        c->start[r] = c->start[r - 1];
    c->start[0] = 0;
    for (int r = 0; r < n; r++) {
        int count = c->start[r + 1] - c->start[r];
        if (count < 2)
            continue;
        const int *verts = c->order + c->start[r];
        c->clock++;
        for (int k = 0; k < count; k++) {
            int i = verts[k];
            c->stamp[i] = c->clock;
            memcpy(x1 + 3 * i, c->x1_pre + 3 * i, 3 * sizeof *x1);
            memcpy(v + 3 * i, c->v_pre + 3 * i, 3 * sizeof *v);
        }
        cloth__collide_rigid_zone(verts, count, h, x0, x1, v, inv_mass);
        cloth__collide_zone_obstacles(c, def, h, verts, count, x1, v, inv_mass, res);
        zones++;
    }
    return zones;
}

/* (c): impact zones until no pair hits. */
void cloth__collide_impact_zones(cloth__collide *c, const cloth__collide_def *def, double h,
                                 const double *x0, double *x1, double *v,
                                 const double *inv_mass, cloth__collide_result *res)
{
    int n = c->mesh->n;
    memcpy(c->x1_pre, x1, 3 * (size_t)n * sizeof *x1);
    memcpy(c->v_pre, v, 3 * (size_t)n * sizeof *v);
    for (int i = 0; i < n; i++) {
        c->parent[i] = i;
        c->size[i] = 1;
    }
    res->resolved = 0;
    while (res->zone_searches < def->zone_iterations) {
        res->zone_searches++;
        int overflowed = res->overflow;
        res->overflow = 0;
        int hits = zone_search(c, def, x0, x1, res);
        int now = res->overflow;
        res->overflow |= overflowed;
        if (hits == 0) {
            res->resolved = !now;
            break;
        }
        res->zones = move_zones(c, def, h, x0, x1, v, inv_mass, res);
    }
}
