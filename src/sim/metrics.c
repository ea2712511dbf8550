/* The shared metrics of a frame (SPEC 5): energies, drift, stretch, gaps.  Every kernel
 * is measured by the same formulas so that their numbers can be compared. */
#include "body/avatar.h"
#include "terms/contact.h"
#include "terms/obstacle.h"
#include "sim/state.h"
#include "terms/spring.h"
#include "terms/strain_project.h"

#include <math.h>

/* A vertex counts as penetrating when its gap is below -PENETRATION_TOL * L: a vertex
 * projected onto a surface sits there only up to rounding. */
#define PENETRATION_TOL 1e-9

static void measure_energies(const cloth_sim *sim, cloth_frame *f)
{
    const cloth_mesh *m = sim->mesh;
    const double *g = sim->scene.world.gravity;
    f->kinetic = f->gravity = f->elastic = 0;
    for (int i = 0; i < m->n; i++) {
        const double *v = sim->v + 3 * i, *x = sim->x + 3 * i;
        f->kinetic += 0.5 * m->mass[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        f->gravity -= m->mass[i] * (g[0] * x[0] + g[1] * x[1] + g[2] * x[2]);
    }
    for (int s = 0; s < m->n_springs; s++) {
        const cloth_spring *sp = &m->springs[s];
        f->elastic += cloth__spring_energy(sim->x + 3 * sp->a, sim->x + 3 * sp->b, sp->k,
                                           sp->rest);
    }
}

static void measure_stretch(const cloth_sim *sim, cloth_frame *f)
{
    const cloth_mesh *m = sim->mesh;
    int count = 0;
    double sum = 0, max = 0;
    for (int s = 0; s < m->n_springs; s++) {
        const cloth_spring *sp = &m->springs[s];
        if (sp->family == CLOTH_BEND)
            continue;
        const double *a = sim->x + 3 * sp->a, *b = sim->x + 3 * sp->b;
        double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double strain = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) / sp->rest - 1;
        max = count ? fmax(max, strain) : strain;
        sum += strain;
        count++;
    }
    f->stretch_max = max;
    f->stretch_mean = count ? sum / count : 0;
    /* the triangle measure (newton's strain_measure = triangle, the isotropic limits'):
     * the same number for every kernel, so edge- and triangle-limited runs compare */
    f->stretch_sigma_max = cloth__strain_sigma_max(m, sim->x);
}

static void measure_gaps(const cloth_sim *sim, cloth_frame *f)
{
    const cloth_scene *s = &sim->scene;
    const cloth_mesh *m = sim->mesh;
    double tol = PENETRATION_TOL * m->rest_diag;
    f->has_gap = s->sphere.enabled || s->floor.enabled;
    f->min_gap = f->has_gap ? HUGE_VAL : NAN;
    f->penetrations = 0;
    if (!f->has_gap)
        return;
    for (int i = 0; i < m->n; i++) {
        const double *x = sim->x + 3 * i;
        double gap = cloth__obstacle_gap(s, sim->sphere_c, x);
        f->min_gap = fmin(f->min_gap, gap);
        f->penetrations += gap < -tol;
    }
}

/* The deepest vertex in the body's skin, offset - d with d the exact distance to the
 * body's triangle surface skinned to the pose (not the field the kernels collide with). */
static void measure_body(const cloth_sim *sim, cloth_frame *f)
{
    f->body_depth = 0;
    f->body_ms = 0;
    if (!sim->avatar)
        return;
    cloth__avatar_skin(sim->avatar);
    for (int i = 0; i < sim->mesh->n; i++)
        f->body_depth = fmax(f->body_depth, cloth__avatar_skin_depth(sim->avatar, sim->x + 3 * i));
}

void cloth_sim_measure(const cloth_sim *sim, cloth_frame *f)
{
    f->frame = sim->frame;
    f->time = sim->t;
    f->iterations = 0;
    f->not_converged = f->stalled = f->regularized = f->lin_capped = 0;
    f->has_cond = 0;
    f->cond_max = NAN;
    f->cond_method[0] = '\0';
    f->wall_ms = 0;
    f->collision_passes = 0;
    f->impact_zones = 0;
    f->collide_ms = 0;
    measure_energies(sim, f);
    measure_stretch(sim, f);
    measure_gaps(sim, f);
    measure_body(sim, f);
    f->intersections = cloth__count_intersections(sim->mesh, sim->x, sim->intersect);
    /* what passed through between the last frame and this one; nothing at frame 0 */
    f->tunnelled = sim->frame == 0 ? 0
                                   : cloth__count_tunnelled(sim->mesh, sim->x_frame, sim->x,
                                                            sim->tunnel);
    f->barrier = 0;
    if (sim->kernel->measure)
        sim->kernel->measure(sim, sim->work, f);
    f->total = f->kinetic + f->gravity + f->elastic + f->barrier;
    f->drift = (f->total - sim->total0) / sim->e_scale;
}
