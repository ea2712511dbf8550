/* The assignment's test bench: the cubic barrier written out here, and a 1-D problem for
 * the newton kernel: two free vertices (no spring force: k = 0) at height y0 above the
 * plane y = 0, velocity v0 along y, mass m, gravity, the cubic barrier with a fixed kappa.
 * Each vertex's part of the incremental potential is then
 *     E(y) = m/(2 h^2) (y - y~)^2 + kappa psi(y),   y~ = y0 + h v0 - g h^2,
 * a quadratic plus the barrier on the gap g = y.  Every expected value in the tests is a
 * closed form of these at the test's inputs (worked out in its comment), never a number
 * taken from a reference program; this bench holds no part of the answer. */
#ifndef NEWTON_LINESEARCH_BENCH_H
#define NEWTON_LINESEARCH_BENCH_H

#include "cloth.h"
#include "kernels/newton/newton.h"
#include "kernels/newton/newton_work.h"
#include "kit_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define B_M 0.01      /* vertex mass (kg): m/h^2 = 100 */
#define B_H 0.01      /* step (s) */
#define B_G 9.81      /* gravity (m/s^2), along -y */
#define B_DHAT 0.01   /* g^ (m) */
#define B_KAPPA 500.0 /* kappa (J) */
#define B_ETA 0.1     /* the line search keeps every gap above eta times its value */
#define B_ARMIJO 1e-4 /* Armijo's c */

static double bench_y_tilde(double y0, double v0) { return y0 + B_H * v0 - B_G * B_H * B_H; }

/* The problem's sim (newton.tol = tol), both vertices started with velocity v0 along y;
 * NULL (and a printed reason) when it cannot be made. */
static cloth_sim *bench_sim(double y0, double v0, double tol)
{
    char text[2048];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 2\nny = 1\nspacing = 1\nplane = xz\norigin = 0 %.17g 0\n"
             "pins = none\nsprings = structural\n"
             "[material]\nk_structural = 0\nvertex_mass = %.17g\nspring_damping = 0\n"
             "[world]\ngravity = 0 %.17g 0\nair_damping = 0\n"
             "[plane]\nheight = 0\noffset = 0\n"
             "[run]\nkernel = newton\ndt = %.17g\nsubsteps = 1\n"
             "[newton]\nbarrier = cubic\ndhat = %.17g\nkappa = fixed\nkappa_value = %.17g\n"
             "eta = %.17g\ntol = %.17g\nmax_iters = 200\ncond = off\nfriction = 0\n",
             y0, B_M, -B_G, B_H, B_DHAT, B_KAPPA, B_ETA, tol);
    cloth_scene s;
    cloth_error err;
    cloth_sim *sim = NULL;
    if (cloth_scene_parse(text, "bench.ini", &s, &err) != CLOTH_OK ||
        cloth_sim_create(&s, &sim, &err) != CLOTH_OK) {
        printf("could not make the problem: %s\n", err.msg);
        return NULL;
    }
    double *v = cloth_sim_velocities(sim);
    v[1] = v[4] = v0;
    return sim;
}

/* One call of cloth__newton_line_search as the kernel makes it, from both vertices at y0
 * (velocity v0) along dir = (0, d, 0) each: e0 = E(x), slope = grad E . dir.  Returns
 * alpha and the trial heights in y_trial[2]; NAN (and a printed reason) when the problem
 * cannot be made. */
static double bench_line_search(double y0, double v0, double d, double y_trial[2])
{
    cloth_sim *sim = bench_sim(y0, v0, 1e-3);
    if (!sim)
        return NAN;
    cloth__newton *w = sim->work;
    cloth__newton_prepare(w, sim, B_H);
    memcpy(w->x, sim->x, sizeof(double) * 3 * (size_t)w->n);
    memset(w->dir, 0, sizeof(double) * 3 * (size_t)w->n);
    w->dir[1] = w->dir[4] = d;
    double e0 = cloth__newton_potential(w, sim, w->x, w->grad, 0, 0), slope = 0;
    for (int i = 0; i < w->n; i++)
        slope += w->grad[w->dof[i] + 1] * d;
    /* what the search is given: E and its slope from the library's potential, whose
     * springs call spring_force (spring_euler's part) and whose barrier is yours */
    e0 = KIT_GOT(e0);
    slope = KIT_GOT(slope);
    if (!isfinite(e0) || !isfinite(slope)) {
        printf("the line search's inputs are not finite: E(x) = %g, slope = %g.  The "
               "potential calls spring_force (spring_euler's part: put in your solution or "
               "the released one, HANDOUT.md) and cubic_barrier (part 1): one of them returns "
               "NaN\n", e0, slope);
        cloth_sim_destroy(sim);
        return NAN;
    }
    cloth__newton_ctx ctx; /* what the step reads: the kernel builds one a step */
    cloth__newton_ctx_build(&ctx, sim, B_H);
    double alpha = KIT_GOT(cloth__newton_line_search(w, &ctx, e0, slope));
    y_trial[0] = KIT_GOT(w->x_trial[1]);
    y_trial[1] = KIT_GOT(w->x_trial[4]);
    cloth_sim_destroy(sim);
    return alpha;
}

#endif
