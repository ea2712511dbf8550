/* A point attached to the avatar's skin (attach.h). */
#include "body/attach.h"

#include <math.h>
#include <string.h>

double cloth__avatar_attach_distance(const cloth_avatar *av, const double x[3])
{
    return cloth__avatar_field(av, x, NULL);
}

void cloth__avatar_attach(cloth_avatar *av, const double x0[3], cloth__attachment *a)
{
    const cloth__body *b = &av->body;
    cloth__avatar_skin(av);
    int best = 0;
    double best_d2 = HUGE_VAL;
    for (int i = 0; i < b->n_verts; i++) {
        const double *s = av->skin + 3 * i;
        double d2 = (s[0] - x0[0]) * (s[0] - x0[0]) + (s[1] - x0[1]) * (s[1] - x0[1]) +
                    (s[2] - x0[2]) * (s[2] - x0[2]);
        if (d2 < best_d2)
            best_d2 = d2, best = i;
    }
    memset(a, 0, sizeof *a);
    memcpy(a->x0, x0, sizeof a->x0);
    for (int k = 0; k < CLOTH__SKIN; k++) {
        int j = b->skin_joint[CLOTH__SKIN * best + k];
        a->joint[k] = j;
        a->weight[k] = j < 0 ? 0 : b->skin_weight[CLOTH__SKIN * best + k];
        if (j < 0)
            continue;
        /* y_k = R_k^T (x0 - t_k) */
        const cloth__xform *T = &av->now.xf[j];
        double d[3] = {x0[0] - T->t[0], x0[1] - T->t[1], x0[2] - T->t[2]};
        cloth__mat_tvec(T->R, d, a->y[k]);
    }
    a->keep = fmin(av->def.offset, cloth__avatar_attach_distance(av, x0));
}

void cloth__avatar_attached(const cloth_avatar *av, const cloth__attachment *a, double x[3])
{
    double d[3] = {0, 0, 0};
    for (int k = 0; k < CLOTH__SKIN; k++) {
        if (a->joint[k] < 0)
            continue;
        const cloth__xform *T = &av->now.xf[a->joint[k]];
        double p[3];
        cloth__mat_vec(T->R, a->y[k], p);
        for (int c = 0; c < 3; c++)
            d[c] += a->weight[k] * (p[c] + T->t[c] - a->x0[c]);
    }
    for (int c = 0; c < 3; c++)
        x[c] = a->x0[c] + d[c];
    double normal[3];
    cloth__avatar_push_out_to(av, x, a->keep, normal);
}

int cloth__attachment_main_joint(const cloth__attachment *a)
{
    int main = -1;
    for (int k = 0; k < CLOTH__SKIN; k++)
        if (a->joint[k] >= 0 && (main < 0 || a->weight[k] > a->weight[main]))
            main = k;
    return main < 0 ? -1 : a->joint[main];
}

void cloth__attachment_make_rigid(const cloth_avatar *av, int joint, cloth__attachment *a)
{
    for (int k = 0; k < CLOTH__SKIN; k++)
        a->joint[k] = -1, a->weight[k] = 0;
    a->joint[0] = joint;
    a->weight[0] = 1;
    const cloth__xform *T = &av->now.xf[joint];
    double d[3] = {a->x0[0] - T->t[0], a->x0[1] - T->t[1], a->x0[2] - T->t[2]};
    cloth__mat_tvec(T->R, d, a->y[0]);
}
