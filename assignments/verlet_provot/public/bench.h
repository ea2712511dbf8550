/* The assignment's test bench: scenes written here (the verlet kernel in mode provot, one
 * frame = one step of h = run.dt) and small vector helpers.  Every expected value in the
 * tests is a closed form, never a number taken from a reference program. */
#ifndef VERLET_PROVOT_BENCH_H
#define VERLET_PROVOT_BENCH_H

#include "cloth.h"
#include "kit_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* NULL (and a printed reason) when the scene cannot be made. */
static cloth_sim *bench_sim(const char *text)
{
    cloth_scene s;
    cloth_error err;
    cloth_sim *sim = NULL;
    if (cloth_scene_parse(text, "bench.ini", &s, &err) != CLOTH_OK ||
        cloth_sim_create(&s, &sim, &err) != CLOTH_OK) {
        printf("could not make the scene: %s\n", err.msg);
        return NULL;
    }
    return sim;
}

/* Two free vertices 1 m apart with no spring force (k = 0) and no strain limit, gravity
 * (0, -9.81, 0), steps of h = 0.01, velocity damping d per step, both started with the
 * velocity v0; x0 gets vertex 0's start.  NULL when the scene cannot be made. */
static cloth_sim *free_fall(double d, const double v0[3], double x0[3])
{
    char text[1024];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 2\nny = 1\nspacing = 1\npins = none\nsprings = structural\n"
             "[material]\nk_structural = 0\nvertex_mass = 0.5\nspring_damping = 0\n"
             "[world]\ngravity = 0 -9.81 0\nair_damping = 0\n"
             "[run]\nkernel = verlet\ndt = 0.01\nsubsteps = 1\n"
             "[verlet]\nmode = provot\ndamping = %.17g\nstrain_limit = 0\n", d);
    cloth_sim *sim = bench_sim(text);
    if (!sim)
        return NULL;
    double *x = cloth_sim_positions(sim), *v = cloth_sim_velocities(sim);
    for (int k = 0; k < 3; k++) {
        x0[k] = x[k];
        v[k] = v[3 + k] = v0[k];
    }
    return sim;
}

/* The scene alone (for cloth__push_out); 0 when it parses. */
static int bench_scene(const char *text, cloth_scene *s)
{
    cloth_error err;
    if (cloth_scene_parse(text, "bench.ini", s, &err) != CLOTH_OK) {
        printf("could not parse the scene: %s\n", err.msg);
        return 1;
    }
    return 0;
}

/* One frame; prints the library's message when it fails. */
static cloth_status bench_step(cloth_sim *sim)
{
    cloth_frame f;
    cloth_error err;
    err.msg[0] = 0;
    cloth_status st = KIT_GOTI(cloth_sim_frame(sim, &f, &err));
    if (st != CLOTH_OK)
        printf("cloth_sim_frame: %s: %s\n", cloth_status_string(st), KIT_MSG(err.msg));
    return st;
}

static double bench_dist(const double a[3], const double b[3])
{
    double d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* 1 when |a - b| <= tol (1 + |b|) in every coordinate */
static int bench_near3(const double a[3], const double b[3], double tol)
{
    for (int k = 0; k < 3; k++)
        if (!(fabs(a[k] - b[k]) <= tol * (1 + fabs(b[k]))))
            return 0;
    return 1;
}

#endif
