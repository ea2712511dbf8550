/*
 * The simulation object: mesh + state + the chosen kernel's work memory, and the frame
 * loop every kernel shares: move obstacles, step the kernel run.substeps times, check
 * for divergence, measure.
 */
#include "core/scene.h"
#include "core/status.h"
#include "sim/contact.h"
#include "sim/interact.h"
#include "sim/pin_follow.h"
#include "terms/obstacle.h"
#include "terms/self_collision.h"
#include "terms/collide.h"
#include "sim/sim.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void cloth__sim_key_where(const cloth_sim *sim, const char *section, const char *name,
                          char *where, size_t size)
{
    cloth__key_where(&sim->scene, cloth__key_index(&sim->registry->keys, section, name), where,
                     size);
}

cloth__force_env cloth__sim_force_env(const cloth_sim *sim)
{
    cloth__force_env env = {sim->mesh, &sim->scene.world, &sim->scene.material, &sim->wind};
    return env;
}

void cloth__sim_move_obstacles(cloth_sim *sim, double t)
{
    if (sim->scene.sphere.enabled)
        cloth__sphere_center(&sim->scene.sphere, t, sim->sphere_c);
    if (sim->avatar)
        cloth__avatar_move(sim->avatar, t);
}

/* E_scale = sum m |g| L + kinetic_0 + elastic_0: the energy the cloth could trade with
 * gravity over its own size, so drift does not depend on where potential energy is 0. */
void cloth__sim_energy_reference(cloth_sim *sim)
{
    const double *g = sim->scene.world.gravity;
    double gmag = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]), mass = 0;
    for (int i = 0; i < sim->mesh->n; i++)
        mass += sim->mesh->mass[i];
    sim->total0 = 0;
    sim->e_scale = 1;
    cloth_frame f0;
    cloth_sim_measure(sim, &f0);
    sim->total0 = f0.total;
    sim->e_scale = mass * gmag * sim->mesh->rest_diag + f0.kinetic + f0.elastic;
    if (!(sim->e_scale > 0))
        sim->e_scale = 1; /* no gravity, at rest, unstretched: drift in joules */
}

void cloth_sim_reset(cloth_sim *sim)
{
    size_t bytes = sizeof(double) * 3 * (size_t)sim->mesh->n;
    cloth__interact_reset(sim); /* the scene's pins and x0 back, no grab */
    memcpy(sim->x, sim->mesh->x0, bytes);
    memcpy(sim->x_prev, sim->mesh->x0, bytes);
    memcpy(sim->x_frame, sim->mesh->x0, bytes);
    memset(sim->v, 0, bytes);
    sim->t = 0;
    sim->frame = 0;
    cloth__sim_move_obstacles(sim, 0);
    if (sim->avatar)
        cloth__avatar_reset(sim->avatar, 0);
    cloth__contact_reset(sim->contact);
    cloth__pin_follow_apply(sim, sim->follow, 0);
    if (sim->kernel->start)
        sim->kernel->start(sim, sim->work);
    cloth__sim_energy_reference(sim);
}

/* run.self_collision = on: the contact stage's robust phase (contact.h) needs a thickness,
 * and a start where no point-triangle or edge-edge pair (sharing no vertex, not wholly
 * pinned) is closer than it: its CCD measures every pair from the step's start and lets
 * none come closer than half that distance, so a pair that starts too close could never
 * be kept apart by the thickness.  newton (contact = OWN) checks its own pairs at
 * creation, with its rest-distance exemption. */
static cloth_status check_collide_start(const cloth_sim *sim, cloth_error *err)
{
    const cloth_scene *s = &sim->scene;
    const cloth_mesh *m = sim->mesh;
    char where[CLOTH_PATH_MAX + 32];
    if (!(s->material.thickness > 0)) {
        cloth__sim_key_where(sim, "material", "thickness", where, sizeof where);
        return cloth__fail(err, CLOTH_EINVAL, "%s: material.thickness = %g: run.self_collision "
                           "= on needs a thickness > 0 (the contact distance it keeps)", where,
                           s->material.thickness);
    }
    if (sim->kernel->contact == CLOTH__CONTACT_OWN)
        return CLOTH_OK;
    cloth__collide *c;
    cloth_status st = cloth__collide_create(m, 0, &c, err);
    if (st != CLOTH_OK)
        return st;
    int v[4], tri;
    double d;
    int close = cloth__collide_first_close_pair(c, m->x0, m->inv_mass, s->material.thickness,
                                                v, &tri, &d);
    cloth__collide_destroy(c);
    if (close < 0)
        return cloth__fail(err, CLOTH_EINVAL, "%s: material.thickness: too many point-triangle "
                           "or edge-edge pairs start closer than %g m (is the thickness larger "
                           "than the mesh's cells?)", s->source, s->material.thickness);
    if (close && tri < 0)
        return cloth__fail(err, CLOTH_EINVAL, "%s: edges %d-%d and %d-%d start %.3g mm apart, "
                           "closer than material.thickness = %.3g mm (run.self_collision = on)",
                           s->source, v[0], v[1], v[2], v[3], 1e3 * d, 1e3 * s->material.thickness);
    if (close)
        return cloth__fail(err, CLOTH_EINVAL, "%s: vertex %d and triangle %d (vertices %d %d %d) "
                           "start %.3g mm apart, closer than material.thickness = %.3g mm "
                           "(run.self_collision = on)", s->source, v[0], tri, v[1], v[2], v[3],
                           1e3 * d, 1e3 * s->material.thickness);
    return CLOTH_OK;
}

/* With run.self_collision the kernels keep non-adjacent vertices (and, with triangles,
 * vertices and triangles) material.thickness apart and assume the cloth does not cross
 * itself; a start that breaks either they could never repair, so it is refused here for
 * every kernel, naming the first offending pair: two vertices that self-collision would
 * push (no spring or triangle edge between them, rest distance >= thickness) closer than
 * the thickness, found with the spatial hash; or an edge through a triangle. */
static cloth_status check_self_collision_start(const cloth_sim *sim, cloth_error *err)
{
    const cloth_scene *s = &sim->scene;
    const cloth_mesh *m = sim->mesh;
    if (s->run.self_collision == CLOTH_SELF_OFF)
        return CLOTH_OK;
    if (s->run.self_collision == CLOTH_SELF_ON) {
        cloth_status st = check_collide_start(sim, err);
        if (st != CLOTH_OK)
            return st;
    }
    cloth__self_collision *sc;
    cloth_status st = cloth__self_collision_create(m, CLOTH_SELF_PARTICLES, s->material.thickness,
                                                   &sc, err);
    if (st != CLOTH_OK)
        return st;
    int i, j;
    double d;
    int close = cloth__self_collision_first_close_pair(sc, m, m->x0, &i, &j, &d);
    cloth__self_collision_destroy(sc);
    if (close)
        return cloth__fail(err, CLOTH_EINVAL,
                           "%s: vertices %d and %d start %.3g mm apart, closer than "
                           "material.thickness = %.3g mm",
                           s->source, i, j, 1e3 * d, 1e3 * s->material.thickness);
    int a, b, t;
    if (cloth__first_intersection(m, m->x0, sim->intersect, &a, &b, &t) > 0)
        return cloth__fail(err, CLOTH_EINVAL,
                           "%s: the cloth starts through itself: edge %d-%d crosses triangle "
                           "%d (vertices %d %d %d); run.self_collision needs a start without "
                           "intersections",
                           s->source, a, b, t, m->tris[3 * t], m->tris[3 * t + 1],
                           m->tris[3 * t + 2]);
    return CLOTH_OK;
}

/* The try-on's start: a free vertex that begins inside the avatar's skin (a garment sewn
 * in the air, wrapped tighter than the body) is moved out once, in the body's pose at
 * t = 0, by the push-out the kernels use; the springs keep their sewn rest lengths, so the
 * kernels then relax the stretch.  Vertices outside the skin and pinned ones stay. */
static void dress(cloth_sim *sim)
{
    cloth__avatar_reset(sim->avatar, 0);
    cloth_mesh *m = sim->mesh;
    double normal[3];
    for (int pass = 0; pass < 8; pass++) /* the push-out is first order in a blend zone */
        for (int i = 0; i < m->n; i++)
            if (!m->pinned[i])
                cloth__avatar_push_out(sim->avatar, m->x0 + 3 * i, normal);
}

/* The avatar's push-out as terms/obstacle.h takes a body: terms calls no body. */
static int avatar_push_out(const void *avatar, double x[3], double normal[3])
{
    return cloth__avatar_push_out(avatar, x, normal);
}

cloth_status cloth__sim_create_mesh(const cloth__registry *reg, const cloth_scene *scene,
                                    cloth_mesh *mesh, cloth_sim **out, cloth_error *err)
{
    *out = NULL;
    const cloth__kernel *kernel = cloth__registry_find(reg, scene->run.kernel);
    int slot = kernel ? cloth__registry_slot(reg, kernel) : -1;
    if (slot < 0) {
        cloth_mesh_destroy(mesh);
        if (!kernel)
            return cloth__fail(err, CLOTH_EINVAL, "%s: run.kernel: unknown kernel '%s'",
                               scene->source, scene->run.kernel);
        return cloth__fail(err, CLOTH_EINVAL, "%s: run.kernel: %s is past the scene's "
                           "%d settings blocks", scene->source, kernel->name,
                           CLOTH_MAX_KERNELS);
    }
    /* what the kernel honours, before anything is built (a mesh of our own: its
     * triangles are known once it is made, below) */
    if (mesh) {
        cloth_status ck = cloth__kernel_check(kernel, scene, &reg->keys, mesh->n_tris, err);
        if (ck != CLOTH_OK) {
            cloth_mesh_destroy(mesh);
            return ck;
        }
    }
    cloth_sim *sim = calloc(1, sizeof *sim);
    if (!sim) {
        cloth_mesh_destroy(mesh);
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory");
    }
    sim->scene = *scene;
    sim->registry = reg;
    sim->kernel = kernel;
    sim->kernel_slot = slot;
    sim->mesh = mesh;
    cloth_status st = mesh ? CLOTH_OK : cloth_mesh_create(scene, &sim->mesh, err);
    if (st != CLOTH_OK) {
        free(sim);
        return st;
    }
    if (!mesh && (st = cloth__kernel_check(kernel, scene, &reg->keys, sim->mesh->n_tris,
                                           err)) != CLOTH_OK) {
        cloth_sim_destroy(sim);
        return st;
    }
    size_t n3 = 3 * (size_t)sim->mesh->n;
    sim->x = malloc(n3 * sizeof(double));
    sim->v = malloc(n3 * sizeof(double));
    sim->x_prev = malloc(n3 * sizeof(double));
    sim->force = malloc(n3 * sizeof(double));
    sim->x_frame = malloc(n3 * sizeof(double));
    if (!sim->x || !sim->v || !sim->x_prev || !sim->force || !sim->x_frame) {
        st = cloth__fail(err, CLOTH_ENOMEM, "out of memory for %d vertices", sim->mesh->n);
        cloth_sim_destroy(sim);
        return st;
    }
    if (scene->avatar.enabled) {
        cloth_error why;
        const char *bad;
        st = cloth__avatar_create(&scene->avatar, scene->source, &sim->avatar, &bad, &why);
        if (st != CLOTH_OK) {
            char where[CLOTH_PATH_MAX + 16];
            int key = cloth__key_index(NULL, "avatar", bad);
            cloth__key_where(scene, key, where, sizeof where);
            cloth__fail(err, st, "%s: avatar.%s: %s", where, bad, why.msg);
            cloth_sim_destroy(sim);
            return st;
        }
        sim->avatar_push = (cloth__push_body){avatar_push_out, sim->avatar};
        cloth__avatar_set_substep(sim->avatar, scene->run.dt / scene->run.substeps);
        dress(sim);
        /* run.frames unset: the blend-in, the clip and any hold */
        if (scene->origin[cloth__key_index(NULL, "run", "frames")].line == 0 &&
            scene->avatar.motion[0])
            sim->scene.run.frames = cloth__avatar_run_frames(sim->avatar, scene->run.dt);
    }
    st = cloth__interact_create(sim, err);
    if (st == CLOTH_OK)
        st = cloth__pin_follow_create(sim, &sim->follow, err);
    if (st != CLOTH_OK) {
        cloth_sim_destroy(sim);
        return st;
    }
    st = cloth__intersect_create(sim->mesh, &sim->intersect, err);
    if (st == CLOTH_OK)
        st = cloth__tunnel_create(sim->mesh, &sim->tunnel, err);
    if (st == CLOTH_OK)
        st = check_self_collision_start(sim, err);
    if (st == CLOTH_OK)
        st = cloth__contact_create(sim, &sim->contact, err);
    if (st != CLOTH_OK) {
        cloth_sim_destroy(sim);
        return st;
    }
    cloth__wind_init(&sim->wind, scene->run.seed, sim->mesh->rest_diag);
    st = kernel->create(sim, &sim->work, err);
    if (st != CLOTH_OK) {
        sim->work = NULL;
        cloth_sim_destroy(sim);
        return st;
    }
    cloth_sim_reset(sim);
    *out = sim;
    return CLOTH_OK;
}

cloth_status cloth__sim_rebuild_kernel(cloth_sim *sim, const cloth__kernel *kernel,
                                       cloth_error *err)
{
    void *work = NULL;
    cloth__contact *contact = NULL;
    cloth_status st = cloth__kernel_check(kernel, &sim->scene, &sim->registry->keys,
                                          sim->mesh->n_tris, err);
    if (st != CLOTH_OK)
        return st;
    int slot = cloth__registry_slot(sim->registry, kernel), old_slot = sim->kernel_slot;
    if (slot < 0)
        return cloth__fail(err, CLOTH_EINVAL, "run.kernel: %s is not in the sim's registry",
                           kernel->name);
    /* the stage is the new kernel's (built for its contact fact), fresh like its work */
    const cloth__kernel *old_kernel = sim->kernel;
    cloth__contact *old_contact = sim->contact;
    sim->kernel_slot = slot;
    sim->kernel = kernel;
    st = cloth__contact_create(sim, &contact, err);
    if (st == CLOTH_OK) {
        sim->contact = contact;
        st = kernel->create(sim, &work, err);
    }
    sim->kernel = old_kernel;
    sim->contact = old_contact;
    if (st != CLOTH_OK) {
        cloth__contact_destroy(contact);
        sim->kernel_slot = old_slot;
        return st;
    }
    if (sim->work && sim->kernel->destroy)
        sim->kernel->destroy(sim->work);
    cloth__contact_destroy(sim->contact);
    sim->kernel = kernel;
    sim->work = work;
    sim->contact = contact;
    double h = sim->scene.run.dt / sim->scene.run.substeps;
    for (int i = 0; i < 3 * sim->mesh->n; i++)
        sim->x_prev[i] = sim->x[i] - h * sim->v[i];
    if (kernel->start)
        kernel->start(sim, work);
    return CLOTH_OK;
}

void cloth_sim_destroy(cloth_sim *sim)
{
    if (!sim)
        return;
    if (sim->work && sim->kernel->destroy)
        sim->kernel->destroy(sim->work);
    cloth__contact_destroy(sim->contact);
    cloth__interact_destroy(sim->interact);
    cloth__intersect_destroy(sim->intersect);
    cloth__tunnel_destroy(sim->tunnel);
    cloth__avatar_destroy(sim->avatar);
    cloth__pin_follow_destroy(sim->follow);
    cloth_mesh_destroy(sim->mesh);
    free(sim->x);
    free(sim->v);
    free(sim->x_prev);
    free(sim->force);
    free(sim->x_frame);
    free(sim);
}

/* Index of the first vertex that is non-finite or beyond the blow-up limit, or -1. */
static int find_blowup(const cloth_sim *sim)
{
    double limit2 = sim->scene.run.blowup_limit * sim->scene.run.blowup_limit;
    for (int i = 0; i < sim->mesh->n; i++) {
        const double *x = sim->x + 3 * i, *v = sim->v + 3 * i;
        double r2 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
        if (!(r2 <= limit2) || !isfinite(v[0] + v[1] + v[2]))
            return i;
    }
    return -1;
}

/* The first stage of a frame: the pin set changed (interact.c records it), so the kernel's
 * work is rebuilt once, however many pins changed.  On failure the old work stays and the
 * rebuild is tried again next frame. */
static cloth_status rebuild_stale_kernel(cloth_sim *sim, cloth_error *err)
{
    if (!sim->kernel_stale)
        return CLOTH_OK;
    cloth_status st = cloth__sim_rebuild_kernel(sim, sim->kernel, err);
    if (st == CLOTH_OK)
        sim->kernel_stale = 0;
    return st;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

cloth_status cloth_sim_frame(cloth_sim *sim, cloth_frame *out, cloth_error *err)
{
    int substeps = sim->scene.run.substeps;
    double h = sim->scene.run.dt / substeps;
    long iterations = 0;
    int not_converged = 0, stalled = 0, regularized = 0, lin_capped = 0;
    double cond_max = NAN;
    const char *cond_method = "";
    sim->step_failed = 0;
    cloth_status rebuilt = rebuild_stale_kernel(sim, err);
    if (rebuilt != CLOTH_OK)
        return rebuilt;
    double start = now_ms();
    if (sim->avatar)
        sim->avatar->collide_ms = 0;
    sim->collide_passes = 0;
    sim->collide_zones = 0;
    sim->collide_ms = 0;
    if (sim->kernel->begin_frame)
        sim->kernel->begin_frame(sim, sim->work);
    for (int s = 0; s < substeps; s++) {
        /* obstacles are where they will be at the end of the step */
        cloth__sim_move_obstacles(sim, sim->t + h);
        cloth__pin_follow_apply(sim, sim->follow, h);
        if (sim->avatar && sim->avatar->def.strict && sim->avatar->play.fired) {
            char note[512];
            cloth__avatar_guard_note(sim->avatar, sim->scene.run.dt, note, sizeof note);
            sim->step_failed = 1;
            return cloth__fail(err, CLOTH_ENUMERIC, "%s: %s (avatar.strict = on)",
                               sim->scene.source, note);
        }
        cloth__step_stats st = {.cond_max = NAN};
        cloth_error why = {""};
        /* the contact stage after the step, unless the kernel calls it (or does its own) */
        int after = sim->kernel->contact == CLOTH__CONTACT_AFTER;
        const double *x0 = after ? cloth__contact_save_start(sim) : NULL;
        cloth_status status = sim->kernel->step(sim, sim->work, h, &st, &why);
        if (status == CLOTH_OK && after)
            cloth__contact_after_step(sim, h, x0, &st);
        sim->t = (sim->frame * substeps + s + 1) * h;
        iterations += st.iterations;
        not_converged += st.not_converged;
        stalled += st.stalled;
        regularized += st.regularized;
        lin_capped += st.lin_capped;
        if (!isnan(st.cond_max))
            cond_max = isnan(cond_max) ? st.cond_max : fmax(cond_max, st.cond_max);
        if (st.cond_method)
            cond_method = st.cond_method;
        if (status != CLOTH_OK) {
            sim->step_failed = 1;
            return cloth__fail(err, status, "%s: frame %ld: %s: %s", sim->scene.source,
                               sim->frame + 1, sim->kernel->name,
                               why.msg[0] ? why.msg : "the step failed");
        }
        int bad = find_blowup(sim);
        if (bad >= 0)
            return cloth__fail(err, CLOTH_ENUMERIC,
                               "frame %ld: diverged: vertex %d left |x| <= %g or became non-finite",
                               sim->frame + 1, bad, sim->scene.run.blowup_limit);
    }
    double wall = now_ms() - start;
    sim->frame++;
    cloth_sim_measure(sim, out);
    out->iterations = iterations;
    out->not_converged = not_converged;
    out->stalled = stalled;
    out->regularized = regularized;
    out->lin_capped = lin_capped;
    out->has_cond = !isnan(cond_max);
    out->cond_max = cond_max;
    snprintf(out->cond_method, sizeof out->cond_method, "%s", cond_method);
    out->wall_ms = wall;
    out->collision_passes = sim->collide_passes;
    out->impact_zones = sim->collide_zones;
    out->collide_ms = sim->collide_ms;
    out->body_ms = sim->avatar ? sim->avatar->collide_ms : 0;
    /* the next frame's tunnelled motion starts where this frame was measured */
    memcpy(sim->x_frame, sim->x, 3 * (size_t)sim->mesh->n * sizeof *sim->x);
    return CLOTH_OK;
}

double *cloth_sim_positions(cloth_sim *sim) { return sim->x; }
double *cloth_sim_velocities(cloth_sim *sim) { return sim->v; }
const cloth_mesh *cloth_sim_mesh(const cloth_sim *sim) { return sim->mesh; }
const cloth_scene *cloth_sim_scene(const cloth_sim *sim) { return &sim->scene; }
cloth_avatar *cloth_sim_avatar(cloth_sim *sim) { return sim->avatar; }
double cloth_sim_time(const cloth_sim *sim) { return sim->t; }

int cloth_sim_log(const cloth_sim *sim, const cloth_iter **rows)
{
    *rows = NULL;
    return sim->kernel->log ? sim->kernel->log(sim->work, rows) : 0;
}
