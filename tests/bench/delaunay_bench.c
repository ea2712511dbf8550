/*
 * make bench: Bowyer–Watson (src/garment/delaunay.c) on uniform random points in the
 * unit square, 10^3 .. 10^5 (issue 16's target: 10^5 points in at most 1 s), best of
 * three runs; then the garment meshes of experiments/garments/ are not timed here
 * (cloth garment prints them).  The Delaunay property is checked on the 10^5 set by
 * comparing every triangle's circumcircle against the points of a uniform grid of
 * buckets around it.  Output: a CSV table on stdout.
 */
#include "cloth.h"
#include "garment/delaunay.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Points strictly inside some triangle's circumcircle: each circle is checked against
 * the points in the buckets of its bounding box (a G x G grid over the unit square). */
static long violations(const double *xy, int n, const int *tris, int n_tris)
{
    int g = (int)sqrt((double)n / 2) + 1;
    int *count = calloc((size_t)g * g + 1, sizeof(int)), *start, *items;
    for (int i = 0; i < n; i++) {
        int bx = (int)fmin(g - 1, xy[2 * i] * g), by = (int)fmin(g - 1, xy[2 * i + 1] * g);
        count[by * g + bx + 1]++;
    }
    for (int b = 0; b < g * g; b++)
        count[b + 1] += count[b];
    start = malloc(sizeof(int) * ((size_t)g * g + 1));
    items = malloc(sizeof(int) * (size_t)n);
    for (int b = 0; b <= g * g; b++)
        start[b] = count[b];
    for (int i = 0; i < n; i++) {
        int bx = (int)fmin(g - 1, xy[2 * i] * g), by = (int)fmin(g - 1, xy[2 * i + 1] * g);
        items[count[by * g + bx]++] = i;
    }
    long bad = 0;
    for (int t = 0; t < n_tris; t++) {
        const int *v = tris + 3 * t;
        const double *a = xy + 2 * v[0], *b = xy + 2 * v[1], *c = xy + 2 * v[2];
        /* circumcentre and radius */
        double bx = b[0] - a[0], by = b[1] - a[1], cx = c[0] - a[0], cy = c[1] - a[1];
        double d = 2 * (bx * cy - by * cx);
        double ux = (cy * (bx * bx + by * by) - by * (cx * cx + cy * cy)) / d;
        double uy = (bx * (cx * cx + cy * cy) - cx * (bx * bx + by * by)) / d;
        double r = sqrt(ux * ux + uy * uy) * (1 + 1e-9), ox = a[0] + ux, oy = a[1] + uy;
        int x0 = (int)fmax(0, floor((ox - r) * g)), x1 = (int)fmin(g - 1, floor((ox + r) * g));
        int y0 = (int)fmax(0, floor((oy - r) * g)), y1 = (int)fmin(g - 1, floor((oy + r) * g));
        for (int yy = y0; yy <= y1; yy++)
            for (int xx = x0; xx <= x1; xx++)
                for (int k = start[yy * g + xx]; k < start[yy * g + xx + 1]; k++) {
                    int i = items[k];
                    if (i != v[0] && i != v[1] && i != v[2] &&
                        cloth__incircle(a, b, c, xy + 2 * i) > 0)
                        bad++;
                }
    }
    free(count);
    free(start);
    free(items);
    return bad;
}

int main(void)
{
    static const int sizes[] = {1000, 10000, 100000};
    printf("points,triangles,best_s_of_3,delaunay_violations\n");
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        double *xy = malloc(sizeof(double) * 2 * (size_t)n);
        unsigned long state = 12345 + (unsigned long)n;
        for (int i = 0; i < 2 * n; i++) {
            state = state * 6364136223846793005UL + 1442695040888963407UL;
            xy[i] = (double)(state >> 11) / (double)(1UL << 53);
        }
        double best = HUGE_VAL;
        int n_tris = 0;
        int *tris = NULL;
        for (int rep = 0; rep < 3; rep++) {
            cloth__delaunay *dt;
            cloth_error err;
            double t0 = now_s();
            if (cloth__delaunay_create(xy, n, &dt, &err) != CLOTH_OK) {
                fprintf(stderr, "delaunay_bench: %s\n", err.msg);
                return 1;
            }
            best = fmin(best, now_s() - t0);
            free(tris);
            tris = cloth__delaunay_triangles(dt, &n_tris);
            cloth__delaunay_destroy(dt);
        }
        printf("%d,%d,%.4f,%ld\n", n, n_tris, best, violations(xy, n, tris, n_tris));
        free(tris);
        free(xy);
    }
    return 0;
}
