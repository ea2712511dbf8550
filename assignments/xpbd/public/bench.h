/* The assignment's test bench: scenes written here (the pbd kernel, variant xpbd, no
 * damping) and small helpers.  Every expected value in the tests is a closed form, never
 * a number taken from a reference program. */
#ifndef XPBD_BENCH_H
#define XPBD_BENCH_H

#include "cloth.h"
#include "kit_test.h"

#include <math.h>
#include <stdio.h>

/* A vertical chain of n + 1 vertices, the top one pinned unless pins = "none" (n springs
 * of rest length 1, stiffness k, vertex mass m), started stretched by prestretch, under
 * gravity g (down), pbd.iterations passes per step, substeps steps per frame of dt, air
 * damping c (F = -c v: it damps the motion but is zero at rest, so it leaves the static
 * equilibrium alone).  NULL (and a printed reason) when the scene cannot be made. */
static cloth_sim *chain(const char *pins, int n, double k, double m, double g,
                        double prestretch, int passes, double dt, int substeps, double air)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 1\nny = %d\nspacing = 1\nprestretch = %.17g\npins = %s\n"
             "springs = structural\n"
             "[material]\nk_structural = %.17g\nvertex_mass = %.17g\nspring_damping = 0\n"
             "[world]\ngravity = 0 %.17g 0\nair_damping = %.17g\n"
             "[run]\nkernel = pbd\ndt = %.17g\nsubsteps = %d\n"
             "[pbd]\nvariant = xpbd\niterations = %d\ndamping = 0\n",
             n + 1, prestretch, pins, k, m, -g, air, dt, substeps, passes);
    cloth_scene s;
    cloth_error err;
    cloth_sim *sim = NULL;
    if (cloth_scene_parse(text, "chain.ini", &s, &err) != CLOTH_OK ||
        cloth_sim_create(&s, &sim, &err) != CLOTH_OK) {
        printf("could not make the chain: %s\n", err.msg);
        return NULL;
    }
    return sim;
}

/* One frame; when it fails, prints the library's message and the last vertex (NaN while
 * a part is not written: the parts have no status to return). */
static cloth_status bench_step(cloth_sim *sim, int n)
{
    cloth_frame f;
    cloth_error err;
    err.msg[0] = 0;
    cloth_status st = KIT_GOTI(cloth_sim_frame(sim, &f, &err));
    if (st != CLOTH_OK && kit_mode != KIT_JUDGE) {
        const double *x = cloth_sim_positions(sim) + 3 * n;
        printf("cloth_sim_frame: %s: %s\n  last vertex at (%g, %g, %g)\n",
               cloth_status_string(st), err.msg, x[0], x[1], x[2]);
    }
    return st;
}

/* y of vertex i (the chain hangs along -y from y = 0) */
static double chain_y(cloth_sim *sim, int i) { return cloth_sim_positions(sim)[3 * i + 1]; }

/* The chain of n springs with k N/m (50 in the public tests), m kg (0.1), g = 9.81 m/s^2
 * and air damping 0.3 N s/m, run for 3000 frames of 0.01 s (at rest to rounding after
 * 30 s); e gets each spring's extension l - 1, from the top.  0 when every step worked. */
#define SETTLE_K 50.0
#define SETTLE_M 0.1
#define SETTLE_G 9.81
#define settle(n, passes, substeps, e) settle_km(n, passes, substeps, SETTLE_K, SETTLE_M, e)
static int settle_km(int n, int passes, int substeps, double k, double m, double e[])
{
    cloth_sim *sim = chain("top-row", n, k, m, SETTLE_G, 0, passes, 0.01, substeps, 0.3);
    if (!sim)
        return 1;
    cloth_status st = CLOTH_OK;
    for (int f = 0; f < 3000 && st == CLOTH_OK; f++)
        st = bench_step(sim, n);
    for (int j = 0; j < n; j++)
        e[j] = KIT_GOT(chain_y(sim, j) - chain_y(sim, j + 1) - 1);
    cloth_sim_destroy(sim);
    return st != CLOTH_OK;
}

/* One frame (one step of h, `passes` passes) of one spring k N/m (100 in the public tests)
 * between vertex 0 (pinned unless pins = "none") and vertex 1, masses m kg (0.5), started
 * at length 1 + pre (1.2), no gravity; y gets both ends' y before (y[0], y[1]) and after
 * (y[2], y[3]), side the largest |x| + |z| after.  0 when the step worked. */
#define ONCE_K 100.0
#define ONCE_M 0.5
#define project_once(pins, passes, h, y, side)                                             \
    project_once_kmp(pins, passes, h, ONCE_K, ONCE_M, 0.2, y, side)
static int project_once_kmp(const char *pins, int passes, double h, double k, double m,
                            double pre, double y[4], double *side)
{
    cloth_sim *sim = chain(pins, 1, k, m, 0, pre, passes, h, 1, 0);
    if (!sim)
        return 1;
    y[0] = chain_y(sim, 0);
    y[1] = chain_y(sim, 1);
    cloth_status st = bench_step(sim, 1);
    const double *x = cloth_sim_positions(sim);
    y[2] = KIT_GOT(x[1]);
    y[3] = KIT_GOT(x[4]);
    *side = KIT_GOT(fmax(fabs(x[0]) + fabs(x[2]), fabs(x[3]) + fabs(x[5])));
    cloth_sim_destroy(sim);
    return st != CLOTH_OK;
}

#endif
