/* The body as the union of its rigidly moved parts' rest fields (partfields.h). */
#include "body/partfields.h"
#include "body/trisurf.h"
#include "core/status.h"

#include <math.h>
#include <stdlib.h>
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

static double surface_distance(const double y[3], const void *ctx)
{
    return cloth__trisurf_distance(ctx, y);
}

/* An OBJ body's closed pieces to joints: each to the joint whose rest bone (joint to
 * tip) is nearest its vertices on average (the bone the piece wraps; its skinning
 * weights, from the distances to all bones, blend near the joints).  1 when the pieces
 * make the parts: more than one piece, and every joint with capsules gets one (a body
 * of one closed surface, or one whose limbs share a piece, gives 0: its parts are its
 * estimated capsules). */
static int pieces_to_joints(const cloth__body *b, int *joint_of)
{
    if (b->caps_exact || b->n_parts < 2)
        return 0;
    int has[CLOTH__MAX_JOINTS] = {0};
    for (int c = 0; c < b->n_parts; c++) {
        double best = HUGE_VAL;
        joint_of[c] = 0;
        for (int j = 0; j < b->skel.n; j++) {
            double sum = 0;
            for (int t = 3 * b->part_tri[c]; t < 3 * b->part_tri[c + 1]; t++)
                sum += cloth__segment_distance(b->verts + 3 * b->tris[t], b->skel.rest[j],
                                               b->tip[j]);
            if (sum < best) {
                best = sum;
                joint_of[c] = j;
            }
        }
        has[joint_of[c]] = 1;
    }
    for (int c = 0; c < b->n_caps; c++)
        if (!has[b->cap[c].joint])
            return 0;
    return 1;
}

/* Part k's field from joint j's pieces: the signed distance to their triangles (a box
 * tree per piece, trisurf.h) over their box grown by margin. */
static cloth_status field_of_pieces(cloth__sdf *f, const cloth__body *b, const int *joint_of,
                                    int j, double h, double margin, cloth_error *err)
{
    int n_tris = 0, n_pieces = 0;
    for (int c = 0; c < b->n_parts; c++)
        if (joint_of[c] == j) {
            n_tris += b->part_tri[c + 1] - b->part_tri[c];
            n_pieces++;
        }
    int *tris = malloc(sizeof(int) * 3 * (size_t)n_tris);
    int *part_tri = malloc(sizeof(int) * ((size_t)n_pieces + 1));
    if (!tris || !part_tri) {
        free(tris);
        free(part_tri);
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory for the body's part fields");
    }
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    int at = 0, p = 0;
    part_tri[0] = 0;
    for (int c = 0; c < b->n_parts; c++) {
        if (joint_of[c] != j)
            continue;
        for (int t = 3 * b->part_tri[c]; t < 3 * b->part_tri[c + 1]; t++) {
            tris[at++] = b->tris[t];
            for (int k = 0; k < 3; k++) {
                lo[k] = fmin(lo[k], b->verts[3 * b->tris[t] + k]);
                hi[k] = fmax(hi[k], b->verts[3 * b->tris[t] + k]);
            }
        }
        part_tri[++p] = at / 3;
    }
    for (int k = 0; k < 3; k++) {
        lo[k] -= margin;
        hi[k] += margin;
    }
    cloth__trisurf ts;
    cloth_status st = cloth__trisurf_build(&ts, b->verts, tris, n_pieces, part_tri, err);
    if (st == CLOTH_OK)
        st = cloth__sdf_build(f, lo, hi, h, surface_distance, &ts, err);
    cloth__trisurf_free(&ts);
    free(tris);
    free(part_tri);
    return st;
}

cloth_status cloth__partfields_build(cloth__partfields *pf, const cloth__body *body, double h,
                                     double margin, cloth_error *err)
{
    memset(pf, 0, sizeof *pf);
    pf->far = margin;
    int joint_of[CLOTH__MAX_PARTS];
    pf->from_pieces = pieces_to_joints(body, joint_of);
    for (int j = 0; j < body->skel.n; j++) {
        if (pf->from_pieces) {
            int any = 0;
            for (int c = 0; c < body->n_parts; c++)
                any |= joint_of[c] == j;
            if (!any)
                continue;
            cloth_status st = field_of_pieces(&pf->f[pf->n], body, joint_of, j, h, margin, err);
            if (st != CLOTH_OK)
                return st;
            pf->joint[pf->n++] = j;
            continue;
        }
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
