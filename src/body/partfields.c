/* The body as the union of its rigidly moved parts' rest fields (partfields.h). */
#include "body/partfields.h"
#include "core/status.h"

#include <math.h>
#include <string.h>

/* What the distance callback of one part's field reads. */
typedef struct part_ctx {
    const cloth__body *body;
    int joint;
} part_ctx;

/* The exact signed distance from y to the joint's rest capsules. */
static double part_distance(const double y[3], const void *ctx)
{
    const part_ctx *p = ctx;
    double best = HUGE_VAL;
    for (int c = 0; c < p->body->n_caps; c++) {
        const cloth__capsule *cp = &p->body->cap[c];
        if (cp->joint == p->joint)
            best = fmin(best, cloth__segment_distance(y, cp->a, cp->b) - cp->r);
    }
    return best;
}

cloth_status cloth__partfields_build(cloth__partfields *pf, const cloth__body *body, double h,
                                     double margin, cloth_error *err)
{
    memset(pf, 0, sizeof *pf);
    pf->far = margin;
    for (int j = 0; j < body->skel.n; j++) {
        double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
        for (int c = 0; c < body->n_caps; c++) {
            const cloth__capsule *cp = &body->cap[c];
            if (cp->joint != j)
                continue;
            for (int k = 0; k < 3; k++) {
                lo[k] = fmin(lo[k], fmin(cp->a[k], cp->b[k]) - cp->r);
                hi[k] = fmax(hi[k], fmax(cp->a[k], cp->b[k]) + cp->r);
            }
        }
        if (lo[0] > hi[0])
            continue; /* no flesh of its own */
        for (int k = 0; k < 3; k++) {
            lo[k] -= margin;
            hi[k] += margin;
        }
        part_ctx ctx = {body, j};
        cloth_status st = cloth__sdf_build(&pf->f[pf->n], lo, hi, h, part_distance, &ctx, err);
        if (st != CLOTH_OK)
            return st;
        pf->joint[pf->n++] = j;
    }
    return CLOTH_OK;
}

void cloth__partfields_free(cloth__partfields *pf)
{
    for (int k = 0; k < pf->n; k++)
        cloth__sdf_free(&pf->f[k]);
    pf->n = 0;
}

/* 1 when y is inside the field's grid box (where it is sampled without the outside
 * extension). */
static int in_box(const cloth__sdf *f, const double y[3])
{
    for (int k = 0; k < 3; k++) {
        double s = (y[k] - f->lo[k]) * f->inv_h;
        if (!(s >= 0 && s <= f->n[k] - 1))
            return 0;
    }
    return 1;
}

double cloth__partfields_distance(const cloth__partfields *pf, const cloth__xform *xf,
                                  const double x[3], double grad[3])
{
    double best = pf->far, g_best[3] = {0, 0, 0};
    int part = -1;
    for (int k = 0; k < pf->n; k++) {
        const cloth__xform *T = &xf[pf->joint[k]];
        double e[3] = {x[0] - T->t[0], x[1] - T->t[1], x[2] - T->t[2]}, y[3], g[3];
        cloth__mat_tvec(T->R, e, y); /* T^-1 x = R^T (x - t) */
        if (!in_box(&pf->f[k], y))
            continue; /* there f_k >= far: it cannot be the minimum (partfields.h) */
        double d = cloth__sdf_sample(&pf->f[k], y, grad ? g : NULL);
        if (d < best) {
            best = d;
            part = k;
            if (grad)
                memcpy(g_best, g, sizeof g);
        }
    }
    if (grad) {
        if (part >= 0)
            cloth__mat_vec(xf[pf->joint[part]].R, g_best, grad);
        else
            grad[0] = grad[1] = grad[2] = 0;
    }
    return best;
}

size_t cloth__partfields_nodes(const cloth__partfields *pf)
{
    size_t nodes = 0;
    for (int k = 0; k < pf->n; k++)
        nodes += (size_t)pf->f[k].n[0] * (size_t)pf->f[k].n[1] * (size_t)pf->f[k].n[2];
    return nodes;
}
