/* The collision stage's obstacles (collide.h, (d); Bridson 7.1 and 7.4). */
#include "terms/collide_obstacles.h"
#include "terms/collide_pair.h"
#include "terms/vec3.h"

#include <math.h>
#include <string.h>

/* A move onto an obstacle's surface shorter than this fraction of the thickness is
 * rounding (a vertex put on the surface may test inside again by an ulp): not counted,
 * so that the passes can end. */
#define OBSTACLE_TOL 1e-9

/* Where the obstacles put vertex i's end position x1_i: 0 when it is outside them all
 * (or moved less than the tolerance), else its CLOTH__HIT_* kind with t = p - x1_i and
 * the outward normal. */
static int obstacle_push(const cloth__collide_def *def, const double *x1, int i, double t[3],
                         double normal[3])
{
    double p[3];
    memcpy(p, x1 + 3 * i, sizeof p);
    int hit = cloth__push_out(def->scene, def->sphere_c, def->body, p, normal);
    if (hit == CLOTH__HIT_NONE)
        return 0;
    cloth__sub(p, x1 + 3 * i, t);
    return cloth__norm(t) > OBSTACLE_TOL * def->thickness ? hit : 0;
}

static void obstacle_note(cloth__collide *c, int i, int hit, const double normal[3])
{
    c->ob_hit[i] = (unsigned char)hit;
    memcpy(c->ob_normal + 3 * i, normal, 3 * sizeof *normal);
}

/* (d): every free vertex whose x1 is inside an obstacle gets the obstacle's impulse
 * dv = (p - x1) / h, which puts x1 at its projection p on the surface (collide.h).
 * Returns the vertices moved; *most (unless NULL) the longest move |p - x1|. */
int cloth__collide_obstacle_pass(cloth__collide *c, const cloth__collide_def *def, double h,
                                 double *x1, double *v, double *most,
                                 cloth__collide_result *res)
{
    if (!def->scene)
        return 0;
    int moved = 0;
    c->clock++;
    for (int i = 0; i < c->mesh->n; i++) {
        double t[3], normal[3];
        int hit = c->fixed[i] ? 0 : obstacle_push(def, x1, i, t, normal);
        if (!hit)
            continue;
        if (most)
            *most = fmax(*most, cloth__norm(t));
        for (int a = 0; a < 3; a++)
            t[a] /= h;
        cloth__collide_nudge(c, x1, v, i, t, h);
        obstacle_note(c, i, hit, normal);
        moved++;
    }
    res->obstacle_moves += moved;
    return moved;
}

/* (d) for one zone just moved rigidly: the obstacle does not give way along its normal,
 * so the whole zone is translated by its deepest member's p - x1 (x1 += t, v += t / h),
 * again until no member is inside, or a few times (a zone wedged between the sphere and
 * the floor).  A zone held by a pin is left as its pins hold it. */
void cloth__collide_zone_obstacles(cloth__collide *c, const cloth__collide_def *def, double h,
                                   const int *verts, int count, double *x1, double *v,
                                   const double *inv_mass, cloth__collide_result *res)
{
    if (!def->scene)
        return;
    for (int k = 0; k < count; k++)
        if (!(inv_mass[verts[k]] > 0))
            return;
    for (int round = 0; round < CLOTH__COLLIDE_OBSTACLE_ROUNDS; round++) {
        double best = 0, t[3], t_best[3], normal[3], n_best[3];
        int deepest = -1, hit_best = 0;
        for (int k = 0; k < count; k++) {
            int hit = obstacle_push(def, x1, verts[k], t, normal);
            double depth = hit ? cloth__norm(t) : 0;
            if (depth > best) {
                best = depth;
                deepest = verts[k];
                hit_best = hit;
                memcpy(t_best, t, sizeof t);
                memcpy(n_best, normal, sizeof normal);
            }
        }
        if (deepest < 0)
            return;
        for (int k = 0; k < count; k++) {
            int i = verts[k];
            for (int a = 0; a < 3; a++) {
                x1[3 * i + a] += t_best[a];
                v[3 * i + a] += t_best[a] / h;
            }
        }
        obstacle_note(c, deepest, hit_best, n_best);
        res->obstacle_moves++;
    }
}

/* The free vertices whose x1 lies inside an obstacle. */
int cloth__collide_count_inside(const cloth__collide *c, const cloth__collide_def *def,
                                const double *x1)
{
    int inside = 0;
    for (int i = 0; def->scene && i < c->mesh->n; i++) {
        double t[3], normal[3];
        inside += !c->fixed[i] && obstacle_push(def, x1, i, t, normal);
    }
    return inside;
}
