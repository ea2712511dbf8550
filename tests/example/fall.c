/*
 * fall — the smallest program on an installed clothbench.  `make check-install` builds it
 * against a copy installed in a temporary prefix, with nothing but
 *
 *     cc fall.c $(pkg-config --cflags --libs clothbench)
 *
 * and runs it.  A 12 x 12 cloth with no pins and no air is let go.  Springs and
 * constraints only push vertices against each other, so with equal masses the centroid
 * falls as a stone does, by g t^2 / 2, up to a first-order integrator's error: symplectic
 * Euler falls h^2 g N(N+1)/2 after N steps, g t^2/2 (1 + 1/N).  Every vertex has the same
 * acceleration, so the cloth keeps its shape.  Prints a line every 10 frames and exits 1
 * unless both hold, and unless the kernel, which keeps no iteration log, logged nothing.
 * The kernel is XPBD: stable at this step, and without damping by default.
 */
#include <cloth.h>

#include <math.h>
#include <stdio.h>

static double centroid_y(cloth_sim *sim)
{
    const cloth_mesh *mesh = cloth_sim_mesh(sim);
    const double *x = cloth_sim_positions(sim);
    double my = 0, m = 0;
    for (int i = 0; i < mesh->n; i++) {
        my += mesh->mass[i] * x[3 * i + 1];
        m += mesh->mass[i];
    }
    return my / m;
}

int main(void)
{
    const char *sets[] = {"mesh.nx=12", "mesh.ny=12", "mesh.pins=none", "run.frames=50",
                          "run.kernel=pbd"};
    cloth_scene scene;
    cloth_error err;
    cloth_sim *sim = NULL;

    cloth_default_scene(&scene);
    for (int i = 0; i < 5; i++) {
        if (cloth_scene_set(&scene, sets[i], i + 1, &err) != CLOTH_OK) {
            fprintf(stderr, "fall: %s\n", err.msg);
            return 2;
        }
    }
    if (cloth_sim_create(&scene, &sim, &err) != CLOTH_OK) {
        fprintf(stderr, "fall: %s\n", err.msg);
        return 2;
    }

    printf("kernels:");
    for (int k = 0; k < cloth_kernel_count(); k++)
        printf(" %s", cloth_kernel_name(k));
    printf("\n%d vertices, %d springs, kernel %s, %d frames of %g s\n",
           cloth_sim_mesh(sim)->n, cloth_sim_mesh(sim)->n_springs, scene.run.kernel,
           scene.run.frames, scene.run.dt);

    const double g = -scene.world.gravity[1], y0 = centroid_y(sim);
    double stretch = 0;
    cloth_frame fr;
    for (int f = 1; f <= scene.run.frames; f++) {
        if (cloth_sim_frame(sim, &fr, &err) != CLOTH_OK) {
            fprintf(stderr, "fall: frame %d: %s\n", f, err.msg);
            cloth_sim_destroy(sim);
            return 1;
        }
        stretch = fmax(stretch, fabs(fr.stretch_max));
        if (f % 10 == 0)
            printf("t = %.2f s  fell %.6f m  (g t^2/2 = %.6f m)  max |stretch| %.1e\n",
                   fr.time, y0 - centroid_y(sim), 0.5 * g * fr.time * fr.time, stretch);
    }

    /* |fall / (g t^2/2) - 1| <= 1/N for a first-order integrator of N steps */
    const long steps = (long)scene.run.frames * scene.run.substeps;
    const double t = fr.time, fall = y0 - centroid_y(sim), stone = 0.5 * g * t * t;
    const int fell = fabs(fall / stone - 1) <= 1.0 / (double)steps + 1e-9;
    const int kept_shape = stretch < 1e-9;
    printf("fell %.6f m in %.2f s (h^2 g N(N+1)/2 = %.6f m): %s; shape %s\n", fall, t,
           0.5 * g * (t / (double)steps) * t * (double)(steps + 1),
           fell ? "as a stone, to 1/N" : "NOT as a stone", kept_shape ? "kept" : "NOT kept");

    /* XPBD's passes keep no iteration log: no rows, and its log table has no columns */
    const cloth_iter *rows;
    const int logged = cloth_sim_log(sim, &rows);
    const cloth_table log_table =
        (cloth_table)(CLOTH_TABLE_LOG + cloth_kernel_find(scene.run.kernel));
    const int no_log = logged == 0 && cloth_table_columns(log_table) == 0 &&
                       cloth_table_file(log_table) == NULL;
    printf("iteration log: %d rows, %d columns: %s\n", logged, cloth_table_columns(log_table),
           no_log ? "none, as the kernel keeps none" : "NOT empty");
    cloth_sim_destroy(sim);
    return fell && kept_shape && no_log ? 0 : 1;
}
