/* The built-in mannequin (mannequin.h): joints, capsules and a drawing surface.
 *
 * Proportions are those of an adult of 1.75 m in round numbers (head about 1/8 of the
 * height, hips at 0.95 m, shoulders at 1.45 m, arm span about the height), not of any
 * scanned person. */
#include "body/mannequin.h"
#include "body/trisurf.h"
#include "core/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One joint: name, parent's name, rest world position, IK limit (degrees), bone tip. */
static const struct {
    const char *name, *parent;
    double at[3];
    double limit_deg;
    double tip[3];
} joints[] = {
    {"pelvis", NULL, {0, 1.00, 0}, 45, {0, 1.10, 0}},
    {"spine", "pelvis", {0, 1.10, 0}, 30, {0, 1.28, 0}},
    {"chest", "spine", {0, 1.28, 0}, 30, {0, 1.50, 0}},
    {"neck", "chest", {0, 1.50, 0}, 40, {0, 1.58, 0}},
    {"head", "neck", {0, 1.58, 0}, 40, {0, 1.75, 0}},
    {"l_shoulder", "chest", {0.18, 1.45, 0}, 150, {0.48, 1.45, 0}},
    {"l_elbow", "l_shoulder", {0.48, 1.45, 0}, 145, {0.74, 1.45, 0}},
    {"l_wrist", "l_elbow", {0.74, 1.45, 0}, 80, {0.90, 1.45, 0}},
    {"r_shoulder", "chest", {-0.18, 1.45, 0}, 150, {-0.48, 1.45, 0}},
    {"r_elbow", "r_shoulder", {-0.48, 1.45, 0}, 145, {-0.74, 1.45, 0}},
    {"r_wrist", "r_elbow", {-0.74, 1.45, 0}, 80, {-0.90, 1.45, 0}},
    {"l_hip", "pelvis", {0.10, 0.94, 0}, 120, {0.10, 0.52, 0}},
    {"l_knee", "l_hip", {0.10, 0.52, 0}, 140, {0.10, 0.09, 0}},
    {"l_ankle", "l_knee", {0.10, 0.09, 0}, 45, {0.10, 0.04, 0.16}},
    {"r_hip", "pelvis", {-0.10, 0.94, 0}, 120, {-0.10, 0.52, 0}},
    {"r_knee", "r_hip", {-0.10, 0.52, 0}, 140, {-0.10, 0.09, 0}},
    {"r_ankle", "r_knee", {-0.10, 0.09, 0}, 45, {-0.10, 0.04, 0.16}},
};

/* The flesh: capsules (joint, segment, radius), in metres at scale 1. */
static const struct {
    const char *joint;
    double a[3], b[3], r;
} capsules[] = {
    {"pelvis", {-0.07, 0.98, 0}, {0.07, 0.98, 0}, 0.13},
    {"spine", {0, 1.10, 0}, {0, 1.22, 0}, 0.125},
    {"chest", {-0.06, 1.33, 0}, {0.06, 1.33, 0}, 0.14},
    {"neck", {0, 1.47, 0}, {0, 1.57, 0}, 0.05},
    {"head", {0, 1.64, 0.01}, {0, 1.66, 0.01}, 0.09},
    {"l_shoulder", {0.20, 1.45, 0}, {0.48, 1.45, 0}, 0.05},
    {"l_elbow", {0.48, 1.45, 0}, {0.72, 1.45, 0}, 0.04},
    {"l_wrist", {0.77, 1.45, 0}, {0.86, 1.45, 0}, 0.035},
    {"r_shoulder", {-0.20, 1.45, 0}, {-0.48, 1.45, 0}, 0.05},
    {"r_elbow", {-0.48, 1.45, 0}, {-0.72, 1.45, 0}, 0.04},
    {"r_wrist", {-0.77, 1.45, 0}, {-0.86, 1.45, 0}, 0.035},
    {"l_hip", {0.10, 0.92, 0}, {0.10, 0.52, 0}, 0.075},
    {"l_knee", {0.10, 0.52, 0}, {0.10, 0.10, 0}, 0.055},
    {"l_ankle", {0.10, 0.045, -0.03}, {0.10, 0.04, 0.15}, 0.04},
    {"r_hip", {-0.10, 0.92, 0}, {-0.10, 0.52, 0}, 0.075},
    {"r_knee", {-0.10, 0.52, 0}, {-0.10, 0.10, 0}, 0.055},
    {"r_ankle", {-0.10, 0.045, -0.03}, {-0.10, 0.04, 0.15}, 0.04},
};

cloth_status cloth__mannequin(double scale, cloth__body *body, cloth_error *err)
{
    if (!(scale > 0) || !isfinite(scale))
        return cloth__fail(err, CLOTH_EINVAL, "scale %g: must be a positive number", scale);
    memset(body, 0, sizeof *body);
    body->caps_exact = 1;
    int nj = (int)(sizeof joints / sizeof joints[0]);
    for (int i = 0; i < nj; i++) {
        int parent = joints[i].parent ? cloth__skeleton_find(&body->skel, joints[i].parent) : -1;
        double off[3];
        for (int k = 0; k < 3; k++)
            off[k] = scale * joints[i].at[k] -
                     (parent >= 0 ? body->skel.rest[parent][k] : 0);
        if (cloth__skeleton_add(&body->skel, joints[i].name, parent, off,
                                joints[i].limit_deg * M_PI / 180) != i)
            return cloth__fail(err, CLOTH_EINVAL, "mannequin: joint %s", joints[i].name);
        for (int k = 0; k < 3; k++)
            body->tip[i][k] = scale * joints[i].tip[k];
    }
    body->n_caps = (int)(sizeof capsules / sizeof capsules[0]);
    for (int c = 0; c < body->n_caps; c++) {
        cloth__capsule *cp = &body->cap[c];
        cp->joint = cloth__skeleton_find(&body->skel, capsules[c].joint);
        for (int k = 0; k < 3; k++) {
            cp->a[k] = scale * capsules[c].a[k];
            cp->b[k] = scale * capsules[c].b[k];
        }
        cp->r = scale * capsules[c].r;
    }
    return CLOTH_OK;
}

/* ----------------------------------------------------------------- surface */

/* Two unit vectors e1, e2 completing the unit u to a right-handed frame. */
static void frame_of(const double u[3], double e1[3], double e2[3])
{
    double t[3] = {0, 0, 0};
    t[fabs(u[0]) < 0.9 ? 0 : 1] = 1;
    /* e1 = t x u normalised, e2 = u x e1 */
    e1[0] = t[1] * u[2] - t[2] * u[1];
    e1[1] = t[2] * u[0] - t[0] * u[2];
    e1[2] = t[0] * u[1] - t[1] * u[0];
    double n = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    for (int k = 0; k < 3; k++)
        e1[k] /= n;
    e2[0] = u[1] * e1[2] - u[2] * e1[1];
    e2[1] = u[2] * e1[0] - u[0] * e1[2];
    e2[2] = u[0] * e1[1] - u[1] * e1[0];
}

cloth_status cloth__body_surface(cloth__body *body, int slices, cloth_error *err)
{
    /* each capsule: a pole, `half` rings on each cap, the two cap rings joined, a pole;
     * rings are at polar angles theta_k from the axis */
    int half = slices / 4 < 2 ? 2 : slices / 4;
    int rings = 2 * half;                       /* ring count, poles excluded         */
    int vpc = rings * slices + 2, tpc = 2 * slices * rings;
    double out = 1 / cos(M_PI / slices); /* circumscribed: faces touch the capsule */
    body->n_verts = body->n_caps * vpc;
    body->n_tris = body->n_caps * tpc;
    body->n_parts = body->n_caps;
    body->verts = malloc(sizeof(double) * 3 * (size_t)body->n_verts);
    body->tris = malloc(sizeof(int) * 3 * (size_t)body->n_tris);
    body->skin_joint = malloc(sizeof(int) * CLOTH__SKIN * (size_t)body->n_verts);
    body->skin_weight = malloc(sizeof(double) * CLOTH__SKIN * (size_t)body->n_verts);
    body->part_tri = malloc(sizeof(int) * (size_t)(body->n_parts + 1));
    if (!body->verts || !body->tris || !body->skin_joint || !body->skin_weight ||
        !body->part_tri) {
        cloth__body_free(body);
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory for the body's surface");
    }
    for (int c = 0; c < body->n_caps; c++) {
        const cloth__capsule *cp = &body->cap[c];
        double u[3], e1[3], e2[3], len = 0;
        for (int k = 0; k < 3; k++) {
            u[k] = cp->b[k] - cp->a[k];
            len += u[k] * u[k];
        }
        len = sqrt(len);
        if (len > 0)
            for (int k = 0; k < 3; k++)
                u[k] /= len;
        else
            u[0] = 0, u[1] = 1, u[2] = 0;
        frame_of(u, e1, e2);
        double *v = body->verts + 3 * (size_t)c * vpc;
        int *t = body->tris + 3 * (size_t)c * tpc, base = c * vpc;
        for (int k = 0; k < 3; k++) {
            v[k] = cp->a[k] - out * cp->r * u[k];               /* pole at a's end  */
            v[3 * (vpc - 1) + k] = cp->b[k] + out * cp->r * u[k]; /* pole at b's end */
        }
        for (int ring = 0; ring < rings; ring++) {
            /* polar angle from -u: (ring+1) pi/(2 half) on a's cap, then b's */
            int on_b = ring >= half;
            double th = (ring + 1 - on_b) * M_PI / (2 * half);
            double axial = -out * cp->r * cos(th), radial = out * cp->r * sin(th);
            const double *centre = on_b ? cp->b : cp->a;
            for (int s = 0; s < slices; s++) {
                double ph = 2 * M_PI * s / slices;
                double *p = v + 3 * (1 + ring * slices + s);
                for (int k = 0; k < 3; k++)
                    p[k] = centre[k] + axial * u[k] +
                           radial * (cos(ph) * e1[k] + sin(ph) * e2[k]);
            }
        }
        /* fans at the poles, quads between rings, counter-clockwise seen from outside */
        int n = 0;
        for (int s = 0; s < slices; s++) {
            int s1 = (s + 1) % slices;
            t[3 * n] = base, t[3 * n + 1] = base + 1 + s1, t[3 * n + 2] = base + 1 + s;
            n++;
            int last = base + 1 + (rings - 1) * slices;
            t[3 * n] = base + vpc - 1, t[3 * n + 1] = last + s, t[3 * n + 2] = last + s1;
            n++;
        }
        for (int ring = 0; ring + 1 < rings; ring++)
            for (int s = 0; s < slices; s++) {
                int s1 = (s + 1) % slices;
                int a0 = base + 1 + ring * slices, a1 = a0 + slices;
                t[3 * n] = a0 + s, t[3 * n + 1] = a0 + s1, t[3 * n + 2] = a1 + s1;
                n++;
                t[3 * n] = a0 + s, t[3 * n + 1] = a1 + s1, t[3 * n + 2] = a1 + s;
                n++;
            }
        for (int i = 0; i < vpc; i++)
            for (int k = 0; k < CLOTH__SKIN; k++) {
                body->skin_joint[CLOTH__SKIN * (base + i) + k] = k ? -1 : cp->joint;
                body->skin_weight[CLOTH__SKIN * (base + i) + k] = k ? 0 : 1;
            }
    }
    for (int c = 0; c <= body->n_parts; c++)
        body->part_tri[c] = c * tpc;
    return CLOTH_OK;
}

void cloth__body_free(cloth__body *body)
{
    free(body->verts);
    free(body->tris);
    free(body->skin_joint);
    free(body->skin_weight);
    free(body->part_tri);
    body->verts = body->skin_weight = NULL;
    body->tris = body->skin_joint = body->part_tri = NULL;
    body->n_verts = body->n_tris = body->n_parts = 0;
}

/* ---------------------------------------------------------------- distance */

#define DOT(x, y) ((x)[0] * (y)[0] + (x)[1] * (y)[1] + (x)[2] * (y)[2])

/* The solid angle of the triangle (a, b, c) seen from p (signed by its orientation):
 * tan(omega/2) = a.(b x c) / (|a||b||c| + (a.b)|c| + (a.c)|b| + (b.c)|a|), the vectors
 * taken from p (Van Oosterom and Strackee 1983). */
static double solid_angle(const double p[3], const double a0[3], const double b0[3],
                          const double c0[3])
{
    double a[3], b[3], c[3];
    for (int k = 0; k < 3; k++) {
        a[k] = a0[k] - p[k];
        b[k] = b0[k] - p[k];
        c[k] = c0[k] - p[k];
    }
    double la = sqrt(DOT(a, a)), lb = sqrt(DOT(b, b)), lc = sqrt(DOT(c, c));
    double bxc[3] = {b[1] * c[2] - b[2] * c[1], b[2] * c[0] - b[0] * c[2],
                     b[0] * c[1] - b[1] * c[0]};
    double num = DOT(a, bxc);
    double den = la * lb * lc + DOT(a, b) * lc + DOT(a, c) * lb + DOT(b, c) * la;
    return 2 * atan2(num, den);
}

double cloth__body_surface_distance(const cloth__body *body, const double *verts,
                                    const double *sphere, double reach, const double p[3])
{
    double out = HUGE_VAL, in = -1; /* nearest surface outside; deepest inside        */
    for (int c = 0; c < body->n_parts; c++) {
        const double *s = sphere + 4 * c;
        double e[3] = {p[0] - s[0], p[1] - s[1], p[2] - s[2]};
        if (DOT(e, e) > (s[3] + reach) * (s[3] + reach))
            continue;
        int first = body->part_tri[c], end = body->part_tri[c + 1];
        cloth__tri_hit hit = {.d2 = HUGE_VAL, .tri = -1};
        for (int i = first; i < end; i++) {
            const int *t = body->tris + 3 * (size_t)i;
            cloth__tri_hit_offer(&hit, p, i, verts + 3 * t[0], verts + 3 * t[1],
                                 verts + 3 * t[2]);
        }
        double d = sqrt(hit.d2);
        int inside;
        if (d > 0 && fabs(hit.side) >= (1 - 1e-9) * d) {
            /* p - q along the nearest triangle's normal (q inside its face, or p in the
             * normal's direction from an edge or corner): the segment from q to p meets no
             * other point of the closed, outward-facing part, so the triangle's side is
             * p's */
            inside = hit.side < 0;
        } else {
            /* otherwise the winding number, |omega| / 4 pi above 1/2: inside */
            double omega = 0;
            for (int i = first; i < end; i++) {
                const int *t = body->tris + 3 * (size_t)i;
                omega += solid_angle(p, verts + 3 * t[0], verts + 3 * t[1], verts + 3 * t[2]);
            }
            inside = fabs(omega) > 2 * M_PI;
        }
        /* the union's depth is at least the deepest of the parts p is inside */
        if (inside)
            in = fmax(in, d);
        else
            out = fmin(out, d);
    }
#undef DOT
    return in >= 0 ? -in : out;
}

double cloth__segment_distance(const double p[3], const double a[3], const double b[3])
{
    double ab[3], ap[3], ll = 0, s = 0;
    for (int k = 0; k < 3; k++) {
        ab[k] = b[k] - a[k];
        ap[k] = p[k] - a[k];
        ll += ab[k] * ab[k];
        s += ab[k] * ap[k];
    }
    s = ll > 0 ? s / ll : 0;
    s = s < 0 ? 0 : s > 1 ? 1 : s;
    double d2 = 0;
    for (int k = 0; k < 3; k++) {
        double e = ap[k] - s * ab[k];
        d2 += e * e;
    }
    return sqrt(d2);
}

double cloth__body_distance_rest(const cloth__body *body, const double y[3], int *which)
{
    double best = HUGE_VAL;
    for (int c = 0; c < body->n_caps; c++) {
        double d = cloth__segment_distance(y, body->cap[c].a, body->cap[c].b) - body->cap[c].r;
        if (d < best) {
            best = d;
            if (which)
                *which = c;
        }
    }
    return best;
}

double cloth__body_distance_posed(const cloth__body *body, const cloth__xform *xf,
                                  const double x[3])
{
    /* the capsule's own frame: y = R^T (x - t), distances kept by the rotation */
    double best = HUGE_VAL;
    for (int c = 0; c < body->n_caps; c++) {
        const cloth__xform *T = &xf[body->cap[c].joint];
        double d[3] = {x[0] - T->t[0], x[1] - T->t[1], x[2] - T->t[2]}, y[3];
        cloth__mat_tvec(T->R, d, y);
        double g = cloth__segment_distance(y, body->cap[c].a, body->cap[c].b) - body->cap[c].r;
        best = g < best ? g : best;
    }
    return best;
}
