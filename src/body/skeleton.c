/* Skeletons and forward kinematics (skeleton.h), with the few rotation helpers the body
 * layer shares. */
#include "body/skeleton.h"

#include <math.h>
#include <string.h>

int cloth__skeleton_add(cloth__skeleton *s, const char *name, int parent,
                        const double offset[3], double limit)
{
    if (s->n >= CLOTH__MAX_JOINTS || parent >= s->n || parent < -1 || (parent < 0 && s->n > 0) ||
        strlen(name) >= CLOTH__JOINT_NAME || cloth__skeleton_find(s, name) >= 0)
        return -1;
    cloth__joint *j = &s->joint[s->n];
    memset(j, 0, sizeof *j);
    strcpy(j->name, name);
    j->parent = parent;
    j->limit = limit;
    for (int k = 0; k < 3; k++) {
        j->offset[k] = offset[k];
        s->rest[s->n][k] = offset[k] + (parent >= 0 ? s->rest[parent][k] : 0);
    }
    return s->n++;
}

int cloth__skeleton_find(const cloth__skeleton *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->joint[i].name, name) == 0)
            return i;
    return -1;
}

void cloth__pose_rest(const cloth__skeleton *s, cloth__pose *pose)
{
    static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    memset(pose, 0, sizeof *pose);
    for (int j = 0; j < s->n; j++)
        memcpy(pose->rot[j], I, sizeof I);
}

void cloth__skeleton_fk(const cloth__skeleton *s, const cloth__pose *pose, double pos[][3],
                        cloth__xform *xf)
{
    double W[CLOTH__MAX_JOINTS][9], p[CLOTH__MAX_JOINTS][3];
    for (int j = 0; j < s->n; j++) {
        int a = s->joint[j].parent;
        if (a < 0) {
            memcpy(W[j], pose->rot[j], sizeof W[j]);
            for (int k = 0; k < 3; k++)
                p[j][k] = s->joint[j].offset[k] + pose->root[k];
        } else {
            double o[3];
            cloth__mat_mul(W[a], pose->rot[j], W[j]);
            cloth__mat_vec(W[a], s->joint[j].offset, o);
            for (int k = 0; k < 3; k++)
                p[j][k] = p[a][k] + o[k];
        }
        if (pos)
            memcpy(pos[j], p[j], sizeof p[j]);
        if (xf) {
            double Wr[3];
            memcpy(xf[j].R, W[j], sizeof W[j]);
            cloth__mat_vec(W[j], s->rest[j], Wr);
            for (int k = 0; k < 3; k++)
                xf[j].t[k] = p[j][k] - Wr[k];
        }
    }
}

/* ------------------------------------------------------- rotation helpers */

void cloth__mat_mul(const double A[9], const double B[9], double C[9])
{
    double T[9];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            T[3 * r + c] = A[3 * r] * B[c] + A[3 * r + 1] * B[3 + c] + A[3 * r + 2] * B[6 + c];
    memcpy(C, T, sizeof T);
}

void cloth__mat_tmul(const double A[9], const double B[9], double C[9])
{
    double T[9];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            T[3 * r + c] = A[r] * B[c] + A[3 + r] * B[3 + c] + A[6 + r] * B[6 + c];
    memcpy(C, T, sizeof T);
}

void cloth__mat_vec(const double A[9], const double x[3], double y[3])
{
    for (int r = 0; r < 3; r++)
        y[r] = A[3 * r] * x[0] + A[3 * r + 1] * x[1] + A[3 * r + 2] * x[2];
}

void cloth__mat_tvec(const double A[9], const double x[3], double y[3])
{
    for (int r = 0; r < 3; r++)
        y[r] = A[r] * x[0] + A[3 + r] * x[1] + A[6 + r] * x[2];
}

void cloth__rot_axis_angle(const double u[3], double a, double R[9])
{
    /* R = cos a I + sin a [u]x + (1 - cos a) u u^T */
    double c = cos(a), s = sin(a), C = 1 - c;
    R[0] = c + C * u[0] * u[0];
    R[1] = C * u[0] * u[1] - s * u[2];
    R[2] = C * u[0] * u[2] + s * u[1];
    R[3] = C * u[1] * u[0] + s * u[2];
    R[4] = c + C * u[1] * u[1];
    R[5] = C * u[1] * u[2] - s * u[0];
    R[6] = C * u[2] * u[0] - s * u[1];
    R[7] = C * u[2] * u[1] + s * u[0];
    R[8] = c + C * u[2] * u[2];
}

double cloth__rot_angle(const double R[9], double axis[3])
{
    /* trace R = 1 + 2 cos a; the skew part is sin a [u]x */
    double c = 0.5 * (R[0] + R[4] + R[8] - 1);
    double v[3] = {R[7] - R[5], R[2] - R[6], R[3] - R[1]};
    double s = 0.5 * sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    double a = atan2(s, c < -1 ? -1 : c > 1 ? 1 : c);
    if (s > 1e-12) {
        for (int k = 0; k < 3; k++)
            axis[k] = v[k] / (2 * s);
    } else if (c > 0) {
        axis[0] = 1, axis[1] = axis[2] = 0;
    } else {
        /* a = pi: R = 2 u u^T - I; the largest diagonal entry gives a stable column */
        int k = R[0] >= R[4] && R[0] >= R[8] ? 0 : R[4] >= R[8] ? 1 : 2;
        double col[3] = {R[k] + (k == 0), R[3 + k] + (k == 1), R[6 + k] + (k == 2)};
        double n = sqrt(col[0] * col[0] + col[1] * col[1] + col[2] * col[2]);
        for (int i = 0; i < 3; i++)
            axis[i] = col[i] / n;
    }
    return a;
}

void cloth__rot_basic(int axis, double a, double R[9])
{
    double u[3] = {0, 0, 0};
    u[axis] = 1;
    cloth__rot_axis_angle(u, a, R);
}
