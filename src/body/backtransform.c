/* The skinning back-transform (backtransform.h): cylinders, separation planes, bone
 * planes and the weights they give. */
#include "body/backtransform.h"
#include "terms/vec3.h"

#include <math.h>
#include <string.h>

static double normalize3(double a[3])
{
    double n = cloth__norm(a);
    if (n > 0)
        for (int k = 0; k < 3; k++)
            a[k] /= n;
    return n;
}

/* An OBJ body's capsules are estimates: each cylinder also covers the surface vertices
 * skinned mainly to its bone, plus the reach. */
static void widen_over_surface(cloth__backtransform *bt, const cloth__body *body, double reach)
{
    const cloth__skeleton *s = bt->skel;
    for (int i = 0; i < body->n_verts; i++) {
        int j = body->skin_joint[CLOTH__SKIN * i];
        if (j < 0)
            continue;
        cloth__bt_bone *b = &bt->bone[j];
        const double *y = body->verts + 3 * i;
        double d[3] = {y[0] - s->rest[j][0], y[1] - s->rest[j][1], y[2] - s->rest[j][2]};
        double ax = cloth__dot(d, b->u_rest), r2 = cloth__dot(d, d) - ax * ax;
        b->lo = fmin(b->lo, ax - reach);
        b->hi = fmax(b->hi, ax + reach);
        b->radius = fmax(b->radius, sqrt(r2 > 0 ? r2 : 0) + reach);
    }
}

void cloth__bt_init(cloth__backtransform *bt, cloth__body *body, double reach)
{
    const cloth__skeleton *s = &body->skel;
    memset(bt, 0, sizeof *bt);
    bt->skel = s;
    bt->n = s->n;
    bt->n_caps = body->n_caps;
    for (int c = 0; c < body->n_caps; c++) {
        bt->cap_joint[c] = body->cap[c].joint;
        bt->cap_r[c] = body->cap[c].r;
    }
    for (int j = 0; j < s->n; j++) {
        cloth__bt_bone *b = &bt->bone[j];
        for (int k = 0; k < 3; k++)
            b->u_rest[k] = body->tip[j][k] - s->rest[j][k];
        b->len = normalize3(b->u_rest);
        int p = s->joint[j].parent;
        if (p >= 0) {
            for (int k = 0; k < 3; k++)
                b->v_rest[k] = s->rest[j][k] - s->rest[p][k];
            normalize3(b->v_rest);
            if (bt->n_children[p] < 6)
                bt->child[p][bt->n_children[p]++] = j;
        }
        /* the cylinder covers the joint's capsules: their end points' axial and radial
         * places, plus the radius, plus the reach */
        double lo = 0, hi = b->len, rad = 0, r_max = 0;
        for (int c = 0; c < body->n_caps; c++) {
            const cloth__capsule *cp = &body->cap[c];
            if (cp->joint != j)
                continue;
            for (int e = 0; e < 2; e++) {
                const double *q = e ? cp->b : cp->a;
                double d[3] = {q[0] - s->rest[j][0], q[1] - s->rest[j][1], q[2] - s->rest[j][2]};
                double ax = cloth__dot(d, b->u_rest), r2 = cloth__dot(d, d) - ax * ax;
                double r = sqrt(r2 > 0 ? r2 : 0) + cp->r;
                lo = fmin(lo, ax - cp->r);
                hi = fmax(hi, ax + cp->r);
                rad = fmax(rad, r);
            }
            r_max = fmax(r_max, cp->r);
        }
        b->radius = rad + reach;
        b->lo = lo - reach;
        b->hi = hi + reach;
        b->blend = r_max;
    }
    /* zones narrower than 0.3 of either bone, so that the two zones of one bone never
     * overlap */
    for (int j = 0; j < s->n; j++) {
        int p = s->joint[j].parent;
        if (p < 0)
            bt->bone[j].blend = 0;
        else
            bt->bone[j].blend = fmin(bt->bone[j].blend,
                                     0.3 * fmin(bt->bone[j].len, bt->bone[p].len));
    }
    if (!body->caps_exact)
        widen_over_surface(bt, body, reach);
    if (body->verts) {
        cloth__pose rest;
        cloth__bt_pose rp;
        cloth__pose_rest(s, &rest);
        cloth__bt_set_pose(bt, body, &rest, &rp);
        for (int i = 0; i < body->n_verts; i++) {
            cloth__bt_weights w;
            if (cloth__bt_weights_of(bt, &rp, body->verts + 3 * i, &w) == 0)
                continue; /* keeps the capsule's own joint */
            for (int k = 0; k < CLOTH__SKIN; k++) {
                body->skin_joint[CLOTH__SKIN * i + k] = k < w.n ? w.joint[k] : -1;
                body->skin_weight[CLOTH__SKIN * i + k] = k < w.n ? w.w[k] : 0;
            }
        }
    }
}

void cloth__bt_set_pose(const cloth__backtransform *bt, const cloth__body *body,
                        const cloth__pose *pose, cloth__bt_pose *out)
{
    const cloth__skeleton *s = bt->skel;
    cloth__skeleton_fk(s, pose, out->a, out->xf);
    for (int c = 0; c < body->n_caps; c++) {
        const cloth__xform *T = &out->xf[body->cap[c].joint];
        cloth__mat_vec(T->R, body->cap[c].a, out->cap_a[c]);
        cloth__mat_vec(T->R, body->cap[c].b, out->cap_b[c]);
        for (int k = 0; k < 3; k++) {
            out->cap_a[c][k] += T->t[k];
            out->cap_b[c][k] += T->t[k];
        }
    }
    for (int j = 0; j < s->n; j++) {
        const double *R = out->xf[j].R;
        cloth__mat_vec(R, bt->bone[j].u_rest, out->u[j]);
        double tip[3];
        cloth__mat_vec(R, body->tip[j], tip);
        for (int k = 0; k < 3; k++)
            out->b[j][k] = tip[k] + out->xf[j].t[k];
        int p = s->joint[j].parent;
        if (p < 0) {
            memcpy(out->v[j], out->u[j], sizeof out->v[j]);
            memcpy(out->n[j], out->u[j], sizeof out->n[j]);
            continue;
        }
        cloth__mat_vec(out->xf[p].R, bt->bone[j].v_rest, out->v[j]);
        for (int k = 0; k < 3; k++)
            out->n[j][k] = out->u[j][k] + out->v[j][k];
        if (normalize3(out->n[j]) < 1e-9) /* folded straight back: the bone's own plane */
            memcpy(out->n[j], out->u[j], sizeof out->n[j]);
    }
}

/* Inside bone j's cylinder? */
static int in_cylinder(const cloth__bt_bone *b, const cloth__bt_pose *p, int j, const double x[3])
{
    double d[3] = {x[0] - p->a[j][0], x[1] - p->a[j][1], x[2] - p->a[j][2]};
    double ax = cloth__dot(d, p->u[j]);
    if (ax < b->lo || ax > b->hi)
        return 0;
    double r2 = cloth__dot(d, d) - ax * ax;
    return r2 <= b->radius * b->radius;
}

/* On j's side of the planes with its parent and with each of its children? */
static int on_own_side(const cloth__backtransform *bt, const cloth__bt_pose *p, int j,
                       const double x[3])
{
    if (bt->skel->joint[j].parent >= 0) {
        double d[3] = {x[0] - p->a[j][0], x[1] - p->a[j][1], x[2] - p->a[j][2]};
        if (cloth__dot(d, p->n[j]) < 0)
            return 0;
    }
    for (int i = 0; i < bt->n_children[j]; i++) {
        int c = bt->child[j][i];
        double d[3] = {x[0] - p->a[c][0], x[1] - p->a[c][1], x[2] - p->a[c][2]};
        if (cloth__dot(d, p->n[c]) > 0)
            return 0;
    }
    return 1;
}

/* The zone at joint c (with its parent): 1 and the child's weight if x is in it. */
static int zone(const cloth__backtransform *bt, const cloth__bt_pose *p, int c,
                const double x[3], double *w_child)
{
    double w = bt->bone[c].blend;
    if (!(w > 0))
        return 0;
    double d[3] = {x[0] - p->a[c][0], x[1] - p->a[c][1], x[2] - p->a[c][2]};
    double dc = w - cloth__dot(d, p->u[c]), dp = w + cloth__dot(d, p->v[c]);
    if (!(dc > 0 && dp > 0))
        return 0;
    *w_child = dp / (dp + dc);
    return 1;
}

int cloth__bt_weights_of(const cloth__backtransform *bt, const cloth__bt_pose *p,
                         const double x[3], cloth__bt_weights *w)
{
    /* the flesh of every joint whose cylinder holds x: its nearest posed capsule */
    double flesh[CLOTH__MAX_JOINTS];
    int inside = 0;
    for (int j = 0; j < bt->n; j++) {
        flesh[j] = HUGE_VAL;
        if (in_cylinder(&bt->bone[j], p, j, x)) {
            flesh[j] = -HUGE_VAL; /* a candidate, distance to come */
            inside = 1;
        }
    }
    w->n = 0;
    if (!inside)
        return 0;
    for (int c = 0; c < bt->n_caps; c++) {
        int j = bt->cap_joint[c];
        if (flesh[j] == HUGE_VAL)
            continue;
        double d = cloth__segment_distance(x, p->cap_a[c], p->cap_b[c]) - bt->cap_r[c];
        flesh[j] = flesh[j] == -HUGE_VAL ? d : fmin(flesh[j], d);
    }
    int best = -1;
    double best_d = HUGE_VAL;
    for (int j = 0; j < bt->n; j++) {
        if (flesh[j] == HUGE_VAL)
            continue;
        double d = flesh[j] == -HUGE_VAL ? cloth__segment_distance(x, p->a[j], p->b[j])
                                          : flesh[j];
        /* equally near (within rounding): the half-space decides */
        if (best < 0 || d < best_d - 1e-12 ||
            (d <= best_d + 1e-12 && on_own_side(bt, p, j, x) && !on_own_side(bt, p, best, x))) {
            best_d = fmin(d, best_d);
            best = j;
        }
    }
    w->n = 1;
    w->joint[0] = best;
    w->w[0] = 1;
    double wc;
    int parent = bt->skel->joint[best].parent;
    if (parent >= 0 && zone(bt, p, best, x, &wc)) {
        w->n = 2;
        w->w[0] = wc;
        w->joint[1] = parent;
        w->w[1] = 1 - wc;
        return 2;
    }
    for (int i = 0; i < bt->n_children[best]; i++) {
        int c = bt->child[best][i];
        if (zone(bt, p, c, x, &wc)) {
            w->n = 2;
            w->w[0] = 1 - wc;
            w->joint[1] = c;
            w->w[1] = wc;
            return 2;
        }
    }
    return 1;
}

void cloth__bt_to_rest(const cloth__bt_pose *p, const cloth__bt_weights *w, const double x[3],
                       double y[3])
{
    y[0] = y[1] = y[2] = 0;
    for (int i = 0; i < w->n; i++) {
        const cloth__xform *T = &p->xf[w->joint[i]];
        double d[3] = {x[0] - T->t[0], x[1] - T->t[1], x[2] - T->t[2]}, r[3];
        cloth__mat_tvec(T->R, d, r); /* T^-1 x = R^T (x - t) */
        if (w->n == 1) {
            memcpy(y, r, sizeof r);
            return;
        }
        for (int k = 0; k < 3; k++)
            y[k] += w->w[i] * r[k];
    }
}

void cloth__bt_to_pose(const cloth__bt_pose *p, const cloth__bt_weights *w, const double y[3],
                       double x[3])
{
    x[0] = x[1] = x[2] = 0;
    for (int i = 0; i < w->n; i++) {
        const cloth__xform *T = &p->xf[w->joint[i]];
        double r[3];
        cloth__mat_vec(T->R, y, r);
        for (int k = 0; k < 3; k++)
            x[k] += w->w[i] * (r[k] + T->t[k]);
    }
}

void cloth__bt_direction_to_pose(const cloth__bt_pose *p, const cloth__bt_weights *w,
                                 const double d[3], double out[3])
{
    out[0] = out[1] = out[2] = 0;
    for (int i = 0; i < w->n; i++) {
        double r[3];
        cloth__mat_vec(p->xf[w->joint[i]].R, d, r);
        for (int k = 0; k < 3; k++)
            out[k] += w->w[i] * r[k];
    }
    normalize3(out);
}
