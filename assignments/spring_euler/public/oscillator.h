/* The assignment's test bench: one free vertex on one spring (k, m) below a pinned one,
 * pulled down by 0.2 from rest, no gravity.  A 1-D oscillator u'' = -omega^2 u with
 * omega^2 = k/m, u = y - y_rest = y + 1 (the free vertex is vertex 1; y is x[4]).
 * Every expected value in the tests is a closed form of this oscillator. */
#ifndef SPRING_EULER_OSCILLATOR_H
#define SPRING_EULER_OSCILLATOR_H

#include "cloth.h"
#include "kit_test.h"

#include <math.h>
#include <stdio.h>

/* NULL (and a printed reason) when the scene cannot be made. */
static cloth_sim *oscillator(const char *scheme, double k, double m, double h)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 1\nny = 2\nspacing = 1\nprestretch = 0.2\nsprings = structural\n"
             "[material]\nk_structural = %.17g\nvertex_mass = %.17g\n"
             "[world]\ngravity = 0 0 0\n"
             "[run]\ndt = %.17g\nsubsteps = 1\nblowup_limit = 1e12\n"
             "[explicit]\nscheme = %s\n",
             k, m, h, scheme);
    cloth_scene s;
    cloth_error err;
    cloth_sim *sim = NULL;
    if (cloth_scene_parse(text, "oscillator.ini", &s, &err) != CLOTH_OK ||
        cloth_sim_create(&s, &sim, &err) != CLOTH_OK) {
        printf("could not make the oscillator: %s\n", err.msg);
        return NULL;
    }
    return sim;
}

/* One step (a frame is one step here); prints the library's message when it fails.  Its
 * status and the frame's energy are the student's values (KIT_GOT). */
static cloth_status oscillator_step(cloth_sim *sim, cloth_frame *f)
{
    cloth_error err;
    err.msg[0] = 0;
    cloth_status st = KIT_GOTI(cloth_sim_frame(sim, f, &err));
    f->total = KIT_GOT(f->total);
    if (st != CLOTH_OK)
        printf("cloth_sim_frame: %s: %s\n", cloth_status_string(st), KIT_MSG(err.msg));
    return st;
}

/* u and v of the free vertex: the scene's own before a step; after one, wrap them in
 * KIT_GOT (the student's values). */
static double oscillator_u(cloth_sim *sim) { return cloth_sim_positions(sim)[4] + 1; }
static double oscillator_v(cloth_sim *sim) { return cloth_sim_velocities(sim)[4]; }

#endif
