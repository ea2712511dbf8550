/*
 * Baraff and Witkin's modified preconditioned conjugate gradients (1998, section 5.3):
 * conjugate gradients on A dv = b that never moves a constrained vertex, by a filter S
 * applied to every residual and search direction: S_i = 0 at a pin (dv_i = z_i = 0, its
 * velocity stays 0), S_i = I - n n^T at a contact (dv_i.n = z_i.n prescribed, the two
 * tangential directions free), S_i = I elsewhere.
 *
 *   dv = z (and a first guess in S's range);  delta_0 = filter(b)^T P^-1 filter(b)
 *   r = filter(b - A dv);  c = filter(P^-1 r);  delta_new = r^T c
 *   while delta_new > eps^2 delta_0:
 *       q = filter(A c);  alpha = delta_new / (c^T q)
 *       dv += alpha c;  r -= alpha q;  s = P^-1 r
 *       delta_old = delta_new;  delta_new = r^T s
 *       c = filter(s + delta_new / delta_old c)
 *
 * P = diag(A), the paper's diagonal preconditioner: P^-1 is applied as the inverse of A's
 * diagonal (the paper writes delta_0 with P standing for that inverse; the rule compares
 * like with like, the preconditioned norms of the first and the current residual).
 */
#include "kernels/bw/bw_pcg.h"
#include "core/status.h"

#include <stdlib.h>
#include <string.h>

struct cloth__bw_pcg {
    int n;                      /* unknowns, 3 per vertex                             */
    double *r, *c, *q, *s;      /* residual, direction, A c, preconditioned residual  */
    double *pinv;               /* 1 / A_ii (0 on a constrained row)                  */
};

cloth_status cloth__bw_pcg_create(int nb, cloth__bw_pcg **out, cloth_error *err)
{
    *out = NULL;
    cloth__bw_pcg *p = calloc(1, sizeof *p);
    size_t bytes = sizeof(double) * (3 * (size_t)nb + 1);
    if (p) {
        p->n = 3 * nb;
        p->r = malloc(bytes);
        p->c = malloc(bytes);
        p->q = malloc(bytes);
        p->s = malloc(bytes);
        p->pinv = malloc(bytes);
    }
    if (!p || !p->r || !p->c || !p->q || !p->s || !p->pinv) {
        cloth__bw_pcg_destroy(p);
        return cloth__fail(err, CLOTH_ENOMEM, "bw: out of memory for CG on %d vertices", nb);
    }
    *out = p;
    return CLOTH_OK;
}

void cloth__bw_pcg_destroy(cloth__bw_pcg *p)
{
    if (!p)
        return;
    free(p->r);
    free(p->c);
    free(p->q);
    free(p->s);
    free(p->pinv);
    free(p);
}

/* a <- S a: a pin's components to 0, a contact's normal component to 0. */
static void filter(double *a, cloth__bw_filter f, int n)
{
    for (int i = 0; i < n / 3; i++) {
        double *ai = a + 3 * i;
        if (f.kind[i] == CLOTH__BW_PINNED) {
            ai[0] = ai[1] = ai[2] = 0;
        } else if (f.kind[i] == CLOTH__BW_NORMAL) {
            const double *nv = f.normal + 3 * i;
            double an = ai[0] * nv[0] + ai[1] * nv[1] + ai[2] * nv[2];
            for (int k = 0; k < 3; k++)
                ai[k] -= an * nv[k];
        }
    }
}

/* dv <- S dv + z. */
static void constrain(double *dv, cloth__bw_filter f, int n)
{
    filter(dv, f, n);
    for (int i = 0; f.z && i < n; i++)
        dv[i] += f.z[i];
}

static double dot(const double *a, const double *b, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

int cloth__bw_pcg_solve(cloth__bw_pcg *p, const cloth__sparse *A, const double *b,
                        cloth__bw_filter f, double *dv, double eps, int max_iters,
                        int *iters)
{
    int n = p->n;
    for (int j = 0; j < n / 3; j++) {
        double B[9];
        cloth__sparse_diag_block(A, j, B);
        for (int k = 0; k < 3; k++)
            p->pinv[3 * j + k] = f.kind[j] == CLOTH__BW_PINNED ? 0 : B[4 * k] > 0 ? 1 / B[4 * k] : 1;
    }
    constrain(dv, f, n);
    memcpy(p->r, b, sizeof(double) * (size_t)n);
    filter(p->r, f, n);
    double delta0 = 0;
    for (int i = 0; i < n; i++)
        delta0 += p->r[i] * p->r[i] * p->pinv[i];
    /* r = filter(b - A dv) from the caller's first guess; a guess farther from the
     * solution than dv = z (its residual larger than b's in the preconditioned norm: near
     * an equilibrium, where b ~ 0 but the guess is not) is dropped for z, since the rule
     * measures the residual against b's */
    cloth__sparse_mul(A, dv, p->q);
    for (int i = 0; i < n; i++)
        p->r[i] -= p->q[i];
    filter(p->r, f, n);
    for (int i = 0; i < n; i++)
        p->s[i] = p->pinv[i] * p->r[i];
    double delta = dot(p->r, p->s, n), limit = eps * eps * delta0;
    if (delta > delta0) { /* dv = z, r = filter(b - A z) */
        memset(dv, 0, sizeof(double) * (size_t)n);
        constrain(dv, f, n);
        cloth__sparse_mul(A, dv, p->q);
        for (int i = 0; i < n; i++)
            p->r[i] = b[i] - p->q[i];
        filter(p->r, f, n);
        for (int i = 0; i < n; i++)
            p->s[i] = p->pinv[i] * p->r[i];
        delta = dot(p->r, p->s, n);
    }
    /* c = filter(P^-1 r): P^-1 is diagonal, so S does not commute with it at a contact */
    memcpy(p->c, p->s, sizeof(double) * (size_t)n);
    filter(p->c, f, n);
    int k = 0;
    while (delta > limit && k < max_iters) {
        cloth__sparse_mul(A, p->c, p->q);
        filter(p->q, f, n);
        double cq = dot(p->c, p->q, n);
        if (!(cq > 0)) /* A is positive definite on the filtered space: only rounding */
            break;
        double alpha = delta / cq;
        for (int i = 0; i < n; i++) {
            dv[i] += alpha * p->c[i];
            p->r[i] -= alpha * p->q[i];
            p->s[i] = p->pinv[i] * p->r[i];
        }
        double delta_old = delta;
        delta = dot(p->r, p->s, n);
        for (int i = 0; i < n; i++)
            p->c[i] = p->s[i] + delta / delta_old * p->c[i];
        filter(p->c, f, n);
        k++;
    }
    *iters = k;
    return delta <= limit;
}
