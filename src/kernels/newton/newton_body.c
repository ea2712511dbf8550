/* newton: the avatar's body as a barrier obstacle that moves within a step.
 *
 * The gap of a vertex x is g = d(x) - avatar.offset, d the body's signed distance by
 * avatar.collision (avatar.h): the union of the rigidly moved parts' rest fields (sdf,
 * src/body/partfields.h; not the back-transform the other kernels push out with, whose
 * gap is discontinuous at its seams and phantoms, README Avatar) or the exact distance
 * to the posed capsules (capsules); both continuous.  Its gradient is the body's outward
 * normal; its Hessian is taken as 0 (a contact keeps only the normal part
 * kappa psi'' n n^T of its barrier's Hessian, SPEC 4.4).
 *
 * The sim poses the avatar for the end of a step before the step.  Putting the body
 * there at once can put vertices inside it, where no barrier can start, and moving them
 * out by hand pushes them through their neighbours (the walking skirt's thighs did that
 * at every step).  So, as for the moving sphere (newton_contacts.c), the body moves
 * within the step between Newton iterations, a continuation: its pose goes from where
 * the last step left it (body_from) towards the avatar's pose, a fraction s of the way
 * (each joint's rotation along its geodesic, cloth__avatar_pose_between), and advances
 * from s to the largest s' = s + (1 - s) / 2^k at which
 *
 *   - every capsule moves by less than its own radius between the two stage poses,
 *     |x1 - x0| <= max(|a1 - a0|, |b1 - b0|) + r |R1 - R0|_F <= r for every point of it
 *     (a rigid motion's displacement is affine in the point, so it is largest at the
 *     segment's ends, plus the rotation of the radius): no body part passes over a
 *     vertex between two stages, so the stages are the body's whole path as E sees it;
 *   - every free vertex, held at its iterate x, keeps a gap g(s') >= max(eta g, g^/10) of
 *     its gap g now, or g(s') >= g/2 when g < g^/10: the body never closes a gap faster
 *     than the barrier, whose stiffness grows as the gap shrinks, can push back, and
 *     within g^/10 it closes a gap by at most half an iteration (holding it there
 *     outright, as the sphere's rule does, deadlocks where the cloth's equilibrium gap
 *     under the springs' load is below g^/10: the walking skirt's hem at the knee).  The
 *     gaps at s' are evaluated, not bounded, so a body part that slides along a vertex
 *     (the gap barely changes) does not stop the body.
 *
 * A step converges only once s = 1; a body still short of its pose at the end of a step
 * stays there (the next step starts from it) and the step counts as not converged; the
 * metrics, which see the avatar where the scene puts it, report what results. */
#include "kernels/newton/newton_work.h"

#include <math.h>
#include <string.h>

/* Halvings of the body's advance per iteration before it waits for the barrier. */
#define MAX_HALVINGS 20

double cloth__newton_body_gap(const cloth__newton *w, const cloth__newton_ctx *ctx,
                              const double x[3], double *grad, double *hess)
{
    double d = cloth__avatar_distance_at(ctx->avatar, &w->body_pose, x, grad);
    if (hess)
        memset(hess, 0, 9 * sizeof(double));
    return d - ctx->avatar_offset;
}

double cloth__newton_body_lipschitz(const cloth__newton_ctx *ctx)
{
    /* a signed distance to a set is 1-Lipschitz; the parts' trilinear fields, moved
     * rigidly and capped, sqrt 3 (|grad f| <= sqrt 3 per cell, partfields.h) */
    return ctx->avatar->def.collision == CLOTH_AVATAR_CAPSULES ? 1.0 : sqrt(3.0);
}

/* The body at progress s of the way from body_from to the avatar's pose. */
static void pose_at(const cloth_avatar *av, const cloth__pose *from, double s,
                    cloth__pose *pose, cloth__bt_pose *posed)
{
    cloth__avatar_pose_between(av, from, &av->pose, s, pose);
    cloth__bt_set_pose(&av->bt, &av->body, pose, posed);
}

void cloth__newton_body_start(cloth__newton *w, const cloth__newton_ctx *ctx)
{
    w->body_s = 1; /* no body: always where it should be */
    if (!ctx->avatar)
        return;
    w->body_from = ctx->avatar->pose;
    pose_at(ctx->avatar, &w->body_from, 1, &w->body_stage, &w->body_pose);
    w->body_s = 1;
}

/* 1 when no point of any capsule moves farther than the capsule's radius from pose p0
 * to pose p1. */
static int moves_less_than_radius(const cloth_avatar *av, const cloth__bt_pose *p0,
                                  const cloth__bt_pose *p1)
{
    for (int c = 0; c < av->body.n_caps; c++) {
        const double *R0 = p0->xf[av->body.cap[c].joint].R, *R1 = p1->xf[av->body.cap[c].joint].R;
        double da = 0, db = 0, dR = 0;
        for (int k = 0; k < 3; k++) {
            da += (p1->cap_a[c][k] - p0->cap_a[c][k]) * (p1->cap_a[c][k] - p0->cap_a[c][k]);
            db += (p1->cap_b[c][k] - p0->cap_b[c][k]) * (p1->cap_b[c][k] - p0->cap_b[c][k]);
        }
        for (int k = 0; k < 9; k++)
            dR += (R1[k] - R0[k]) * (R1[k] - R0[k]);
        double r = av->body.cap[c].r;
        if (sqrt(fmax(da, db)) + r * sqrt(dR) > r)
            return 0;
    }
    return 1;
}

void cloth__newton_body_begin(cloth__newton *w, const cloth__newton_ctx *ctx)
{
    w->body_s = 1;
    if (!ctx->avatar)
        return;
    const cloth_avatar *av = ctx->avatar;
    w->body_s = memcmp(&w->body_from, &av->pose, sizeof av->pose) == 0 ? 1 : 0;
    pose_at(av, &w->body_from, w->body_s, &w->body_stage, &w->body_pose);
}

/* Rounding may leave a vertex on or inside the skin where the body stands at the step's
 * start, or within rounding of it (the line search keeps eta times a gap that can
 * itself be rounding; the try-on's dressing puts vertices exactly at the offset, gap
 * 0 up to rounding).  No barrier can start at g <= 0, and from a gap of rounding size
 * the line search's conservative step (a fraction of the gap) would take some hundred
 * iterations to grow it; so a vertex within 1e-9 L (L the rest diagonal) starts the step
 * at g^/2 outside, along the normal (a few passes: the gap is piecewise, trilinear for
 * the field, so one move along the gradient may fall short). */
void cloth__newton_body_start_outside(cloth__newton *w, const cloth__newton_ctx *ctx)
{
    if (!ctx->avatar || ctx->nd->barrier == CLOTH__BARRIER_NONE)
        return;
    double to = 0.5 * ctx->nd->dhat, tiny = 1e-9 * ctx->mesh->rest_diag;
    for (int i = 0; i < w->n; i++) {
        double *xi = w->x + 3 * i, n[3];
        for (int pass = 0; pass < 4 && w->dof[i] >= 0; pass++) {
            double g = cloth__newton_body_gap(w, ctx, xi, n, NULL), nn = cloth__dot3(n, n);
            if ((pass == 0 ? g > tiny : g > 0) || !(nn > 0))
                break;
            for (int c = 0; c < 3; c++)
                xi[c] += (to - g) * n[c] / nn;
        }
    }
}

/* 1 when every free vertex at x keeps its gap with the body at `posed` (top of file). */
static int vertices_keep_gaps(const cloth__newton *w, const cloth__newton_ctx *ctx,
                              const double *x, const cloth__bt_pose *posed)
{
    const cloth_avatar *av = ctx->avatar;
    double eta = ctx->nd->eta, least = 0.1 * ctx->nd->dhat;
    double off = ctx->avatar_offset;
    for (int i = 0; i < w->n; i++) {
        if (w->dof[i] < 0)
            continue;
        double g0 = w->body_gap[i];
        double keep = g0 >= least ? fmax(eta * g0, least) : 0.5 * g0;
        if (cloth__avatar_distance_at(av, posed, x + 3 * i, NULL) - off < keep)
            return 0;
    }
    return 1;
}

void cloth__newton_body_advance(cloth__newton *w, const cloth__newton_ctx *ctx,
                                const double *x)
{
    if (!ctx->avatar || w->body_s >= 1)
        return;
    const cloth_avatar *av = ctx->avatar;
    if (ctx->nd->barrier == CLOTH__BARRIER_NONE) {
        w->body_s = 1;
        pose_at(av, &w->body_from, 1, &w->body_stage, &w->body_pose);
        return;
    }
    for (int i = 0; i < w->n; i++)
        w->body_gap[i] =
            w->dof[i] < 0 ? 0 : cloth__newton_body_gap(w, ctx, x + 3 * i, NULL, NULL);
    double step = 1 - w->body_s;
    for (int k = 0; k < MAX_HALVINGS; k++, step *= 0.5) {
        double s = k == 0 ? 1 : w->body_s + step;
        cloth__pose pose;
        cloth__bt_pose posed;
        pose_at(av, &w->body_from, s, &pose, &posed);
        if (!moves_less_than_radius(av, &w->body_pose, &posed) ||
            !vertices_keep_gaps(w, ctx, x, &posed))
            continue;
        w->body_s = s;
        w->body_stage = pose;
        w->body_pose = posed;
        w->body_stages++;
        return;
    }
}

void cloth__newton_body_end(cloth__newton *w)
{
    w->body_from = w->body_stage;
}
