/* 1-norm condition estimate from solves; contract in condest.h. */
#include "linalg/condest.h"

#include "core/status.h"

#include <math.h>
#include <stdlib.h>

/* LAPACK's reverse-communication estimator of a matrix's 1-norm from products (OpenBLAS
 * exports it; LAPACKE has no wrapper for it). */
void dlacn2_(const int *n, double *v, double *x, int *isgn, double *est, int *kase,
             int *isave);

struct cloth__condest {
    int n;
    double *v, *x;              /* n each: dlacn2's vectors                           */
    int *isgn;                  /* n                                                  */
};

void cloth__condest_destroy(cloth__condest *c)
{
    if (!c)
        return;
    free(c->v);
    free(c->x);
    free(c->isgn);
    free(c);
}

cloth_status cloth__condest_create(int n, cloth__condest **out, cloth_error *err)
{
    *out = NULL;
    cloth__condest *c = calloc(1, sizeof *c);
    if (c) {
        c->n = n;
        c->v = malloc(((size_t)n + 1) * sizeof *c->v);
        c->x = malloc(((size_t)n + 1) * sizeof *c->x);
        c->isgn = malloc(((size_t)n + 1) * sizeof *c->isgn);
    }
    if (!c || !c->v || !c->x || !c->isgn) {
        cloth__condest_destroy(c);
        return cloth__fail(err, CLOTH_ENOMEM, "condest: out of memory for %d unknowns", n);
    }
    *out = c;
    return CLOTH_OK;
}

/* |A + eps I|_1: the largest column sum of absolute values, both triangles counted. */
static double one_norm(const cloth__sparse *A, double eps, double *colsum)
{
    for (int q = 0; q < A->n; q++)
        colsum[q] = 0;
    for (int q = 0; q < A->n; q++)
        for (int e = A->colp[q]; e < A->colp[q + 1]; e++) {
            int r = A->rowi[e];
            double a = A->val[e] + (r == q ? eps : 0);
            colsum[q] += fabs(a);
            if (r != q)
                colsum[r] += fabs(a);
        }
    double best = 0;
    for (int q = 0; q < A->n; q++)
        best = fmax(best, colsum[q]);
    return best;
}

cloth_status cloth__condest_1norm(cloth__condest *c, const cloth__sparse *A, double eps,
                                  cloth__solve_fn solve, void *ctx, double *cond,
                                  cloth_error *err)
{
    double anorm = one_norm(A, eps, c->v); /* v is dlacn2's scratch: free until it runs */
    double est = 0;
    int kase = 0, isave[3] = {0, 0, 0};
    for (;;) {
        dlacn2_(&c->n, c->v, c->x, c->isgn, &est, &kase, isave);
        if (kase == 0)
            break;
        /* kase 1: x <- A^-1 x; kase 2: x <- A^-T x, the same for a symmetric A */
        cloth_status st = solve(ctx, c->x, err);
        if (st != CLOTH_OK)
            return st;
    }
    *cond = anorm * est;
    return CLOTH_OK;
}
