/*
 * Interaction (the Verlet cloth web demo and the mass-spring cloth paper): picking a
 * vertex with a camera ray, dragging it as a temporary pin, pinning and unpinning
 * vertices, all between frames.
 *
 * Picking (the mass-spring cloth paper, section 3.3): every vertex is a small sphere
 * |X - C| = r.  On the ray R(t) = o + t d (|d| = 1), |m + t d|^2 = r^2 with m = o - C gives
 *   t^2 + 2 b t + c = 0,   b = m.d,   c = m.m - r^2,   t = -b -+ sqrt(b^2 - c),
 * a hit when b^2 - c >= 0 and the far root is >= 0; the vertex with the smallest entry
 * parameter wins.
 *
 * Dragging (the mass-spring cloth paper, figure 5): P2 = P1 + (dir2 - dir1) dist.  With
 * unit rays and dist = |P1 - camera| the vertex stays on the mouse ray at its grab
 * distance.
 *
 * A pin is "inverse mass 0, held at mesh->x0": so every kernel that holds pins at x0,
 * or simply leaves them where they are, holds a runtime pin too.  Both x and x_prev are
 * set (Verlet reads velocity from their difference) and v is zeroed.  A kernel may sort
 * its springs by their pins at create (verlet leaves springs between two pins out of
 * Provot's limit), so a change of the pin set rebuilds the kernel's work with the
 * current state before the next frame (once, however many pins changed); moving a held
 * vertex does not.
 */
#include "core/status.h"
#include "sim/interact.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int finite3(const double a[3])
{
    return isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]);
}

/* ------------------------------------------------------------------ geometry */

int cloth_pick_ray(const double *x, int n, const double origin[3], const double dir[3],
                   double radius, double *t_hit)
{
    double len = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    if (!(len > 0) || !isfinite(len) || !finite3(origin) || !(radius > 0))
        return -1;
    double d[3] = {dir[0] / len, dir[1] / len, dir[2] / len};
    int best = -1;
    double best_t = HUGE_VAL;
    for (int i = 0; i < n; i++) {
        double m[3] = {origin[0] - x[3 * i], origin[1] - x[3 * i + 1], origin[2] - x[3 * i + 2]};
        double b = m[0] * d[0] + m[1] * d[1] + m[2] * d[2];
        double c = m[0] * m[0] + m[1] * m[1] + m[2] * m[2] - radius * radius;
        double disc = b * b - c;
        if (disc < 0)
            continue;
        double root = sqrt(disc), t_far = -b + root;
        if (t_far < 0)
            continue; /* the sphere is behind the camera */
        double t = fmax(-b - root, 0.0); /* 0 when the camera is inside the sphere */
        if (t < best_t) {
            best_t = t;
            best = i;
        }
    }
    if (t_hit)
        *t_hit = best >= 0 ? best_t : NAN;
    return best;
}

void cloth_drag_point(const double p1[3], const double o1[3], const double dir1[3],
                      const double o2[3], const double dir2[3], double dist, double p2[3])
{
    for (int k = 0; k < 3; k++)
        p2[k] = p1[k] + (o2[k] - o1[k]) + (dir2[k] - dir1[k]) * dist;
}

/* ---------------------------------------------------------- the sim's pins */

cloth_status cloth__interact_create(cloth_sim *sim, cloth_error *err)
{
    int n = sim->mesh->n;
    cloth__interact *ia = calloc(1, sizeof *ia);
    if (ia) {
        ia->scene_pinned = malloc((size_t)n);
        ia->scene_x0 = malloc(sizeof(double) * 3 * (size_t)n);
    }
    if (!ia || !ia->scene_pinned || !ia->scene_x0) {
        cloth__interact_destroy(ia);
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory for %d vertices", n);
    }
    memcpy(ia->scene_pinned, sim->mesh->pinned, (size_t)n);
    memcpy(ia->scene_x0, sim->mesh->x0, sizeof(double) * 3 * (size_t)n);
    ia->grabbed = -1;
    sim->interact = ia;
    return CLOTH_OK;
}

void cloth__interact_destroy(cloth__interact *ia)
{
    if (!ia)
        return;
    free(ia->scene_pinned);
    free(ia->scene_x0);
    free(ia);
}

/* Pins or frees one vertex, keeping inv_mass and n_pinned consistent. */
static void set_pinned(cloth_mesh *m, int i, int on)
{
    if (m->pinned[i] == (on != 0))
        return;
    m->pinned[i] = (unsigned char)(on != 0);
    m->n_pinned += on ? 1 : -1;
    m->inv_mass[i] = on ? 0.0 : 1.0 / m->mass[i];
}

/* Puts vertex i at p, at rest, and makes p where its pin holds it. */
static void hold_at(cloth_sim *sim, int i, const double p[3])
{
    memcpy(sim->mesh->x0 + 3 * i, p, 3 * sizeof(double));
    memcpy(sim->x + 3 * i, p, 3 * sizeof(double));
    memcpy(sim->x_prev + 3 * i, p, 3 * sizeof(double));
    memset(sim->v + 3 * i, 0, 3 * sizeof(double));
}

void cloth__interact_reset(cloth_sim *sim)
{
    cloth__interact *ia = sim->interact;
    cloth_mesh *m = sim->mesh;
    for (int i = 0; i < m->n; i++)
        set_pinned(m, i, ia->scene_pinned[i]);
    memcpy(m->x0, ia->scene_x0, sizeof(double) * 3 * (size_t)m->n);
    ia->grabbed = -1;
}

int cloth_sim_grabbed(const cloth_sim *sim)
{
    return sim->interact->grabbed;
}

void cloth_sim_release(cloth_sim *sim)
{
    cloth__interact *ia = sim->interact;
    int i = ia->grabbed;
    if (i < 0)
        return;
    ia->grabbed = -1;
    set_pinned(sim->mesh, i, ia->was_pinned);
    if (ia->was_pinned) {
        hold_at(sim, i, ia->was_x0); /* a pinned vertex goes back to its pin */
    } else {
        memcpy(sim->mesh->x0 + 3 * i, ia->was_x0, 3 * sizeof(double));
        sim->kernel_stale = 1;
    }
}

cloth_status cloth_sim_grab(cloth_sim *sim, const double origin[3], const double dir[3],
                            double radius, int *vertex, cloth_error *err)
{
    *vertex = -1;
    double len = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    if (!finite3(origin) || !isfinite(len) || !(len > 0))
        return cloth__fail(err, CLOTH_EINVAL, "grab: the ray needs a finite origin and a finite, "
                           "non-zero direction");
    if (!(radius > 0) || !isfinite(radius))
        return cloth__fail(err, CLOTH_EINVAL, "grab: the pick radius must be finite and > 0");
    cloth_sim_release(sim);
    int i = cloth_pick_ray(sim->x, sim->mesh->n, origin, dir, radius, NULL);
    if (i < 0)
        return CLOTH_OK;
    cloth__interact *ia = sim->interact;
    const double *p = sim->x + 3 * i;
    ia->grabbed = i;
    ia->was_pinned = sim->mesh->pinned[i];
    memcpy(ia->was_x0, sim->mesh->x0 + 3 * i, sizeof ia->was_x0);
    memcpy(ia->p1, p, sizeof ia->p1);
    memcpy(ia->o1, origin, sizeof ia->o1);
    for (int k = 0; k < 3; k++)
        ia->d1[k] = dir[k] / len;
    ia->dist = sqrt((p[0] - origin[0]) * (p[0] - origin[0]) +
                    (p[1] - origin[1]) * (p[1] - origin[1]) +
                    (p[2] - origin[2]) * (p[2] - origin[2]));
    int newly = !sim->mesh->pinned[i];
    set_pinned(sim->mesh, i, 1);
    hold_at(sim, i, ia->p1);
    *vertex = i;
    if (newly)
        sim->kernel_stale = 1;
    return CLOTH_OK;
}

cloth_status cloth_sim_drag(cloth_sim *sim, const double origin[3], const double dir[3],
                            cloth_error *err)
{
    cloth__interact *ia = sim->interact;
    if (ia->grabbed < 0)
        return cloth__fail(err, CLOTH_EINVAL, "drag: no vertex is grabbed");
    double len = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    if (!finite3(origin) || !isfinite(len) || !(len > 0))
        return cloth__fail(err, CLOTH_EINVAL, "drag: the ray needs a finite origin and a finite, "
                           "non-zero direction");
    double d2[3] = {dir[0] / len, dir[1] / len, dir[2] / len}, p2[3];
    cloth_drag_point(ia->p1, ia->o1, ia->d1, origin, d2, ia->dist, p2);
    hold_at(sim, ia->grabbed, p2);
    return CLOTH_OK;
}

cloth_status cloth_sim_pin(cloth_sim *sim, int vertex, int on, cloth_error *err)
{
    cloth_mesh *m = sim->mesh;
    if (vertex < 0 || vertex >= m->n)
        return cloth__fail(err, CLOTH_EINVAL, "pin: vertex %d is out of range (0..%d)", vertex,
                           m->n - 1);
    if (sim->interact->grabbed == vertex)
        cloth_sim_release(sim);
    if (m->pinned[vertex] == (on != 0))
        return CLOTH_OK;
    if (on) {
        double p[3];
        memcpy(p, sim->x + 3 * vertex, sizeof p);
        set_pinned(m, vertex, 1);
        hold_at(sim, vertex, p);
    } else {
        set_pinned(m, vertex, 0);
        /* x0 of a free vertex is only its initial position: the scene's again */
        memcpy(m->x0 + 3 * vertex, sim->interact->scene_x0 + 3 * vertex, 3 * sizeof(double));
    }
    sim->kernel_stale = 1;
    return CLOTH_OK;
}

int cloth_sim_sphere(const cloth_sim *sim, double center[3], double *radius)
{
    if (!sim->scene.sphere.enabled)
        return 0;
    memcpy(center, sim->sphere_c, 3 * sizeof(double));
    *radius = sim->scene.sphere.radius;
    return 1;
}
