/*
 * Baraff and Witkin's modified preconditioned conjugate gradients (1998, section 5.3):
 * conjugate gradients on A dv = b that never moves a constrained vertex, by a filter S
 * applied to every residual and search direction.  Here the constrained vertices are
 * the pinned ones, S_i = 0 and dv_i = z_i = 0 (a pin is held, its velocity stays 0);
 * the paper's S_i = I - n n^T for one constrained direction has no user yet.
 *
 *   dv = z (and a first guess elsewhere);  delta_0 = filter(b)^T P^-1 filter(b)
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

/* S: the constrained vertices' components to 0. */
static void filter(double *a, const unsigned char *fixed, int n)
{
    for (int i = 0; i < n / 3; i++)
        if (fixed[i])
            a[3 * i] = a[3 * i + 1] = a[3 * i + 2] = 0;
}

static double dot(const double *a, const double *b, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

int cloth__bw_pcg_solve(cloth__bw_pcg *p, const cloth__sparse *A, const double *b,
                        const unsigned char *fixed, double *dv, double eps, int max_iters,
                        int *iters)
{
    int n = p->n;
    for (int j = 0; j < n / 3; j++) {
        double B[9];
        cloth__sparse_diag_block(A, j, B);
        for (int k = 0; k < 3; k++)
            p->pinv[3 * j + k] = fixed[j] ? 0 : B[4 * k] > 0 ? 1 / B[4 * k] : 1;
    }
    filter(dv, fixed, n); /* z = 0 on the constrained vertices: pins keep v = 0 */
    memcpy(p->r, b, sizeof(double) * (size_t)n);
    filter(p->r, fixed, n);
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
    filter(p->r, fixed, n);
    for (int i = 0; i < n; i++)
        p->c[i] = p->pinv[i] * p->r[i];
    double delta = dot(p->r, p->c, n), limit = eps * eps * delta0;
    if (delta > delta0) {
        memset(dv, 0, sizeof(double) * (size_t)n);
        memcpy(p->r, b, sizeof(double) * (size_t)n);
        filter(p->r, fixed, n);
        for (int i = 0; i < n; i++)
            p->c[i] = p->pinv[i] * p->r[i];
        delta = delta0;
    }
    int k = 0;
    while (delta > limit && k < max_iters) {
        cloth__sparse_mul(A, p->c, p->q);
        filter(p->q, fixed, n);
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
        filter(p->c, fixed, n);
        k++;
    }
    *iters = k;
    return delta <= limit;
}
