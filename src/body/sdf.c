/* A signed distance field on a grid (sdf.h). */
#include "body/sdf.h"
#include "core/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

cloth_status cloth__sdf_build(cloth__sdf *f, const double lo[3], const double hi[3], double h,
                              cloth__distance_fn dist, const void *ctx, cloth_error *err)
{
    memset(f, 0, sizeof *f);
    if (!(h > 0) || !isfinite(h))
        return cloth__fail(err, CLOTH_EINVAL, "grid spacing %g: must be positive", h);
    double nodes = 1;
    for (int k = 0; k < 3; k++) {
        double cells = ceil((hi[k] - lo[k]) / h);
        if (!(cells >= 1))
            cells = 1;
        nodes *= cells + 1;
        if (nodes > (double)(1 << 27))
            return cloth__fail(err, CLOTH_EINVAL, "a grid of spacing %g m over the body has "
                               "more than 2^27 nodes", h);
        f->n[k] = (int)cells + 1;
        f->lo[k] = lo[k];
    }
    f->h = h;
    f->inv_h = 1 / h;
    f->d = malloc(sizeof(double) * (size_t)nodes);
    if (!f->d)
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory for a %dx%dx%d field", f->n[0],
                           f->n[1], f->n[2]);
    size_t i = 0;
    for (int z = 0; z < f->n[2]; z++)
        for (int y = 0; y < f->n[1]; y++)
            for (int x = 0; x < f->n[0]; x++) {
                double p[3] = {lo[0] + x * h, lo[1] + y * h, lo[2] + z * h};
                f->d[i++] = dist(p, ctx);
            }
    return CLOTH_OK;
}

void cloth__sdf_free(cloth__sdf *f)
{
    free(f->d);
    f->d = NULL;
}

double cloth__sdf_sample(const cloth__sdf *f, const double y[3], double grad[3])
{
    /* cell (i, j, k) and the local coordinates u in [0, 1]^3; a point outside the box is
     * clamped onto it and the distance to the box added (its direction to the gradient) */
    int c[3];
    double u[3], out[3], out2 = 0;
    for (int k = 0; k < 3; k++) {
        double s = (y[k] - f->lo[k]) * f->inv_h, top = f->n[k] - 1;
        out[k] = 0;
        if (s < 0) {
            out[k] = s * f->h;
            s = 0;
        } else if (s > top) {
            out[k] = (s - top) * f->h;
            s = top;
        }
        out2 += out[k] * out[k];
        int i = (int)s;
        if (i > f->n[k] - 2)
            i = f->n[k] - 2;
        if (i < 0)
            i = 0;
        c[k] = i;
        u[k] = s - i;
    }
    size_t sx = 1, sy = (size_t)f->n[0], sz = sy * (size_t)f->n[1];
    const double *p = f->d + c[0] * sx + c[1] * sy + c[2] * sz;
    double d000 = p[0], d100 = p[sx], d010 = p[sy], d110 = p[sx + sy];
    double d001 = p[sz], d101 = p[sx + sz], d011 = p[sy + sz], d111 = p[sx + sy + sz];
    /* along x, then y, then z */
    double a00 = d000 + u[0] * (d100 - d000), a10 = d010 + u[0] * (d110 - d010);
    double a01 = d001 + u[0] * (d101 - d001), a11 = d011 + u[0] * (d111 - d011);
    double b0 = a00 + u[1] * (a10 - a00), b1 = a01 + u[1] * (a11 - a01);
    double v = b0 + u[2] * (b1 - b0);
    if (grad) {
        double gx0 = (1 - u[1]) * (d100 - d000) + u[1] * (d110 - d010);
        double gx1 = (1 - u[1]) * (d101 - d001) + u[1] * (d111 - d011);
        grad[0] = ((1 - u[2]) * gx0 + u[2] * gx1) * f->inv_h;
        grad[1] = ((1 - u[2]) * (a10 - a00) + u[2] * (a11 - a01)) * f->inv_h;
        grad[2] = (b1 - b0) * f->inv_h;
    }
    if (out2 > 0) {
        double r = sqrt(out2);
        v += r;
        if (grad)
            for (int k = 0; k < 3; k++)
                grad[k] = out[k] / r;
    }
    return v;
}
