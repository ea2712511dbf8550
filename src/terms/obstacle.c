/* The sphere and the floor: motion (the centre's path, its velocity and the surface
 * velocity of a spinning sphere), and the Verlet cloth web demo's projection onto the
 * surface. */
#include "terms/obstacle.h"
#include "terms/contact.h"

#include <math.h>
#include <time.h>

double cloth__clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

void cloth__sphere_center(const cloth_sphere_def *s, double t, double c[3])
{
    switch (s->motion) {
    case CLOTH_MOTION_ORBIT: {
        /* a horizontal circle of radius A about the centre, period T */
        double phi = 2 * M_PI * t / s->period;
        c[0] = s->center[0] + s->amplitude * cos(phi);
        c[1] = s->center[1];
        c[2] = s->center[2] + s->amplitude * sin(phi);
        return;
    }
    case CLOTH_MOTION_PATH: {
        /* back and forth between the end points: w = (1 - cos(2 pi t / T)) / 2 */
        double w = 0.5 * (1 - cos(2 * M_PI * t / s->period));
        for (int k = 0; k < 3; k++)
            c[k] = s->path[k] + w * (s->path[3 + k] - s->path[k]);
        return;
    }
    case CLOTH_MOTION_STATIC:
        break;
    }
    for (int k = 0; k < 3; k++)
        c[k] = s->center[k];
}

void cloth__sphere_center_velocity(const cloth_sphere_def *s, double t, double v[3])
{
    switch (s->motion) {
    case CLOTH_MOTION_ORBIT: {
        /* d/dt of A (cos phi, 0, sin phi), phi = 2 pi t / T */
        double phi = 2 * M_PI * t / s->period, rate = 2 * M_PI / s->period;
        v[0] = -s->amplitude * rate * sin(phi);
        v[1] = 0;
        v[2] = s->amplitude * rate * cos(phi);
        return;
    }
    case CLOTH_MOTION_PATH: {
        /* dw/dt = (pi / T) sin(2 pi t / T) times the path's chord */
        double dw = M_PI / s->period * sin(2 * M_PI * t / s->period);
        for (int k = 0; k < 3; k++)
            v[k] = dw * (s->path[3 + k] - s->path[k]);
        return;
    }
    case CLOTH_MOTION_STATIC:
        break;
    }
    v[0] = v[1] = v[2] = 0;
}

void cloth__sphere_surface_velocity(const cloth_sphere_def *s, double t, const double x[3],
                                    double v[3])
{
    double c[3];
    cloth__sphere_center(s, t, c);
    cloth__sphere_center_velocity(s, t, v);
    /* w x r with w = (0, spin, 0): (spin r_z, 0, -spin r_x) */
    v[0] += s->spin * (x[2] - c[2]);
    v[2] -= s->spin * (x[0] - c[0]);
}

/* The sphere and the plane (the Verlet cloth web demo's projection): which surface x was
 * put on last, or CLOTH__HIT_NONE. */
static int push_out_sphere_plane(const cloth_scene *scene, const double c[3], double x[3],
                                 double normal[3])
{
    /* ASSIGNMENT verlet_provot: push_out BEGIN */
    int hit = CLOTH__HIT_NONE;
    if (scene->sphere.enabled) {
        double d[3] = {x[0] - c[0], x[1] - c[1], x[2] - c[2]};
        double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        double r = scene->sphere.radius + scene->sphere.offset;
        if (len < r) {
            /* at the centre itself any direction is outward: take +y */
            double n[3] = {0, 1, 0};
            if (len > 0)
                for (int k = 0; k < 3; k++)
                    n[k] = d[k] / len;
            for (int k = 0; k < 3; k++) {
                x[k] = c[k] + r * n[k];
                normal[k] = n[k];
            }
            hit = CLOTH__HIT_SPHERE;
        }
    }
    if (scene->floor.enabled) {
        double floor_y = scene->floor.height + scene->floor.offset;
        if (x[1] < floor_y) {
            x[1] = floor_y;
            normal[0] = normal[2] = 0;
            normal[1] = 1;
            hit = CLOTH__HIT_FLOOR;
        }
    }
    return hit;
    /* ASSIGNMENT verlet_provot: push_out END */
}

double cloth__obstacle_gap(const cloth_scene *scene, const double c[3], const double x[3])
{
    double gap = HUGE_VAL;
    if (scene->sphere.enabled)
        gap = cloth__gap_sphere(x, c, scene->sphere.radius, scene->sphere.offset, NULL, NULL);
    if (scene->floor.enabled)
        gap = fmin(gap, cloth__gap_floor(x, scene->floor.height, scene->floor.offset, NULL,
                                         NULL));
    return gap;
}

int cloth__push_out(const cloth_scene *scene, const double c[3], const cloth__push_body *body,
                    double x[3], double normal[3])
{
    int hit = body && body->push_out && body->push_out(body->ctx, x, normal) ? CLOTH__HIT_BODY
                                                                             : CLOTH__HIT_NONE;
    int last = push_out_sphere_plane(scene, c, x, normal);
    return last != CLOTH__HIT_NONE ? last : hit;
}
