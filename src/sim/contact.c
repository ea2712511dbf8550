/* The contact stage every kernel goes through: what and why in contact.h. */
#include "sim/contact.h"
#include "body/avatar.h"
#include "sim/state.h"
#include "terms/collide.h"
#include "terms/obstacle.h"

#include "core/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cloth__contact {
    cloth_self_collision mode;  /* the scene's run.self_collision                      */
    cloth__self_collision *self;/* particles | proximity, else NULL                    */
    cloth__collide *collide;    /* on, else NULL                                       */
    double *start;              /* 3n: save_start's copy (self-collision), else NULL    */
    unsigned char *hit;         /* n: the last obstacle pass's hits (CLOTH__HIT_*)      */
    double *normal;             /* 3n: ... and their outward normals                    */
    int n;                      /* the mesh's vertices                                  */
};

cloth_status cloth__contact_create(const cloth_sim *sim, cloth__contact **out,
                                   cloth_error *err)
{
    *out = NULL;
    if (sim->kernel->contact == CLOTH__CONTACT_OWN)
        return CLOTH_OK;
    const cloth_mesh *m = sim->mesh;
    cloth_self_collision mode = sim->scene.run.self_collision;
    cloth__contact *c = calloc(1, sizeof *c);
    size_t bytes = sizeof(double) * (3 * (size_t)m->n + 1);
    if (!c || !(c->hit = malloc((size_t)m->n + 1)) || !(c->normal = malloc(bytes)) ||
        (mode != CLOTH_SELF_OFF && !(c->start = malloc(bytes)))) {
        cloth__contact_destroy(c);
        return cloth__fail(err, CLOTH_ENOMEM, "contact stage: out of memory for %d vertices",
                           m->n);
    }
    c->mode = mode;
    c->n = m->n;
    cloth__contact_reset(c);
    cloth_status st = CLOTH_OK;
    if (mode == CLOTH_SELF_ON)
        st = cloth__collide_create(m, 0, &c->collide, err);
    else if (mode != CLOTH_SELF_OFF)
        st = cloth__self_collision_create(m, mode, sim->scene.material.thickness, &c->self, err);
    if (st != CLOTH_OK) {
        cloth__contact_destroy(c);
        return st;
    }
    *out = c;
    return CLOTH_OK;
}

void cloth__contact_destroy(cloth__contact *c)
{
    if (!c)
        return;
    cloth__self_collision_destroy(c->self);
    cloth__collide_destroy(c->collide);
    free(c->start);
    free(c->hit);
    free(c->normal);
    free(c);
}

void cloth__contact_reset(cloth__contact *c)
{
    if (c)
        memset(c->hit, CLOTH__HIT_NONE, (size_t)c->n);
}

const double *cloth__contact_save_start(cloth_sim *sim)
{
    cloth__contact *c = sim->contact;
    if (!c || !c->start)
        return NULL;
    memcpy(c->start, sim->x, sizeof(double) * 3 * (size_t)c->n);
    return c->start;
}

int cloth__contact_self_project(cloth_sim *sim, double *x, const double *x0,
                                cloth__step_stats *stats)
{
    cloth__contact *c = sim->contact;
    if (!c || !c->self)
        return 0;
    cloth__self_collision_result r = cloth__self_collision_project(c->self, sim->mesh, x, x0);
    if (!r.converged || r.overflow)
        stats->not_converged = 1;
    return r.pushes;
}

int cloth__contact_self_velocities(cloth_sim *sim, double *v, const cloth__self_contact **list)
{
    cloth__contact *c = sim->contact;
    if (list)
        *list = NULL;
    if (!c || !c->self)
        return 0;
    cloth__self_collision_velocities(c->self, sim->mesh, v, sim->scene.material.self_friction);
    const cloth__self_contact *l;
    int count = cloth__self_collision_contacts(c->self, &l);
    if (list)
        *list = l;
    return count;
}

/* The obstacle's own velocity at x (the sphere's centre velocity vs over the step, the
 * body's material velocity) and v's inward part relative to it removed along n. */
static void inelastic(const cloth_sim *sim, int hit, const double x[3], const double n[3],
                      const double vs[3], double h, double v[3])
{
    double vb[3] = {0, 0, 0}, vn = 0;
    if (hit == CLOTH__HIT_SPHERE)
        memcpy(vb, vs, sizeof vb);
    else if (hit == CLOTH__HIT_BODY)
        cloth__avatar_velocity(sim->avatar, x, h, vb);
    for (int k = 0; k < 3; k++)
        vn += (v[k] - vb[k]) * n[k];
    if (vn < 0)
        for (int k = 0; k < 3; k++)
            v[k] -= vn * n[k];
}

/* The sphere centre's velocity over the step that starts at sim->t. */
static void sphere_velocity(const cloth_sim *sim, double h, double vs[3])
{
    double c_old[3];
    cloth__sphere_center(&sim->scene.sphere, sim->t, c_old);
    for (int k = 0; k < 3; k++)
        vs[k] = (sim->sphere_c[k] - c_old[k]) / h;
}

void cloth__contact_obstacles(cloth_sim *sim, double h)
{
    cloth__contact *c = sim->contact;
    const cloth_scene *s = &sim->scene;
    if (!c || (!s->sphere.enabled && !s->floor.enabled && !sim->avatar))
        return;
    cloth__contact_reset(c);
    double start = sim->avatar ? cloth__clock_ms() : 0, vs[3];
    sphere_velocity(sim, h, vs);
    for (int i = 0; i < sim->mesh->n; i++) {
        double *n = c->normal + 3 * i;
        if (sim->mesh->pinned[i])
            continue;
        int hit = cloth__push_out(s, sim->sphere_c, &sim->avatar_push, sim->x + 3 * i, n);
        if (hit == CLOTH__HIT_NONE)
            continue;
        c->hit[i] = (unsigned char)hit;
        inelastic(sim, hit, sim->x + 3 * i, n, vs, h, sim->v + 3 * i);
    }
    if (sim->avatar)
        sim->avatar->collide_ms += cloth__clock_ms() - start;
}

void cloth__contact_obstacle_positions(const cloth_sim *sim, double *pos, int stride, int lo,
                                       int hi)
{
    const cloth_scene *s = &sim->scene;
    if (!s->sphere.enabled && !s->floor.enabled && !sim->avatar)
        return;
    double start = sim->avatar ? cloth__clock_ms() : 0;
    for (int i = lo; i < hi; i++) {
        double normal[3];
        if (!sim->mesh->pinned[i])
            cloth__push_out(s, sim->sphere_c, &sim->avatar_push, pos + stride * i, normal);
    }
    /* the body's time is the first share's (the others run beside it) */
    if (sim->avatar && lo == 0)
        sim->avatar->collide_ms += cloth__clock_ms() - start;
}

int cloth__contact_obstacle_positions_counted(cloth_sim *sim, double *pos, int stride, int lo,
                                              int hi, double tol)
{
    const cloth_scene *s = &sim->scene;
    if (!s->sphere.enabled && !s->floor.enabled && !sim->avatar)
        return 0;
    int moved = 0;
    if (sim->avatar) {
        /* the body's skin first (its field is not exact: no gap test, a push-out is a
         * move), then the sphere and the floor below */
        double start = cloth__clock_ms();
        for (int i = lo; i < hi; i++) {
            double normal[3], *x = pos + stride * i, before[3] = {x[0], x[1], x[2]};
            if (!sim->mesh->pinned[i] && cloth__avatar_push_out(sim->avatar, x, normal))
                moved += fabs(x[0] - before[0]) + fabs(x[1] - before[1]) +
                         fabs(x[2] - before[2]) > tol;
        }
        if (lo == 0)
            sim->avatar->collide_ms += cloth__clock_ms() - start;
        if (!s->sphere.enabled && !s->floor.enabled)
            return moved;
    }
    for (int i = lo; i < hi; i++) {
        double *x = pos + stride * i, normal[3];
        if (sim->mesh->pinned[i])
            continue;
        double gap = cloth__obstacle_gap(s, sim->sphere_c, x);
        if (gap < 0) {
            cloth__push_out(s, sim->sphere_c, NULL, x, normal);
            moved += gap < -tol;
        }
    }
    return moved;
}

/* The obstacles' inelastic rule for the vertices the robust phase's obstacle impulses
 * moved (terms/collide.h (d)): the phase changed their v by its impulses, of which the
 * obstacle's only undid the part that pushed x1 in; v keeps only the outward part of its
 * velocity relative to the obstacle, as after the obstacle phase.  x1 is not changed (the
 * robust phase's positions are the safe ones). */
static void robust_obstacle_velocities(cloth__contact *c, cloth_sim *sim, double h,
                                       const double *x1, double *v)
{
    const double *normal;
    const unsigned char *hit = cloth__collide_obstacle_hits(c->collide, &normal);
    double vs[3];
    sphere_velocity(sim, h, vs);
    for (int i = 0; i < c->n; i++)
        if (hit[i] != CLOTH__HIT_NONE)
            inelastic(sim, hit[i], x1 + 3 * i, normal + 3 * i, vs, h, v + 3 * i);
}

int cloth__contact_robust(cloth_sim *sim, double h, const double *x0, double *x1, double *v,
                          cloth__step_stats *stats)
{
    cloth__contact *c = sim->contact;
    if (!c || !c->collide)
        return 0;
    double start = cloth__clock_ms();
    const cloth_scene *s = &sim->scene;
    int obstacles = s->sphere.enabled || s->floor.enabled || sim->avatar;
    cloth__collide_def def = {s->material.thickness, s->material.self_friction,
                              s->run.collision_passes, sim->mesh->n,
                              obstacles ? s : NULL, sim->sphere_c, &sim->avatar_push};
    cloth__collide_result r;
    int status = cloth__collide_step(c->collide, &def, h, x0, x1, v, sim->mesh->inv_mass, &r);
    if (status != 0 || !r.resolved)
        stats->not_converged = 1;
    if (status == 0 && r.obstacle_moves)
        robust_obstacle_velocities(c, sim, h, x1, v);
    if (r.passes > sim->collide_passes)
        sim->collide_passes = r.passes;
    sim->collide_zones += r.zones;
    sim->collide_ms += cloth__clock_ms() - start;
    return 1;
}

void cloth__contact_after_step(cloth_sim *sim, double h, const double *x0,
                               cloth__step_stats *stats)
{
    cloth__contact_self_project(sim, sim->x, x0, stats);
    cloth__contact_obstacles(sim, h);
    cloth__contact_self_velocities(sim, sim->v, NULL);
    cloth__contact_robust(sim, h, x0, sim->x, sim->v, stats);
}

const unsigned char *cloth__contact_obstacle_hits(const cloth_sim *sim, const double **normal)
{
    const cloth__contact *c = sim->contact;
    *normal = c ? c->normal : NULL;
    return c ? c->hit : NULL;
}
