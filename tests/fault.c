/* The dpotrf fault hook; see fault.h. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "fault.h"

#include <arpack/arpack.h>
#include <dlfcn.h>
#include <lapacke.h>
#include <string.h>
#include <suitesparse/cholmod.h>

typedef lapack_int (*dpotrf_fn)(int, char, lapack_int, double *, lapack_int);

static long pass_left = -1; /* -1: unarmed */
static int fail_info;

void tu_fault_dpotrf(long pass, int info)
{
    pass_left = pass;
    fail_info = info;
}

static long cholmod_left = -1, arpack_left = -1; /* -1: unarmed */

void tu_fault_cholmod(long pass)
{
    cholmod_left = pass;
}

void tu_fault_arpack(long pass)
{
    arpack_left = pass;
}

void tu_fault_off(void)
{
    pass_left = cholmod_left = arpack_left = -1;
}

/* 1 when an armed hook fires now; counts a passed call down. */
static int fires(long *left)
{
    if (*left == 0)
        return 1;
    if (*left > 0)
        --*left;
    return 0;
}

/* The real function behind a hooked name. */
static void *next_symbol(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

lapack_int LAPACKE_dpotrf_work(int layout, char uplo, lapack_int n, double *a,
                               lapack_int lda)
{
    static dpotrf_fn real;
    if (pass_left == 0)
        return fail_info;
    if (pass_left > 0)
        pass_left--;
    if (!real) {
        void *sym = dlsym(RTLD_NEXT, "LAPACKE_dpotrf_work");
        if (!sym)
            return -1; /* linalg/dense.c reports an illegal argument */
        memcpy(&real, &sym, sizeof real);
    }
    return real(layout, uplo, n, a, lda);
}

typedef int (*factorize_fn)(cholmod_sparse *, double *, int *, size_t, cholmod_factor *,
                            cholmod_common *);

int cholmod_factorize_p(cholmod_sparse *A, double beta[2], int *fset, size_t fsize,
                        cholmod_factor *L, cholmod_common *c)
{
    static factorize_fn real;
    if (fires(&cholmod_left)) {
        c->status = CHOLMOD_OUT_OF_MEMORY;
        return 0;
    }
    if (!real) {
        void *sym = next_symbol("cholmod_factorize_p");
        if (!sym)
            return 0;
        memcpy(&real, &sym, sizeof real);
    }
    return real(A, beta, fset, fsize, L, c);
}

typedef void (*saupd_fn)(a_int *, char const *, a_int, char const *, a_int, double, double *,
                         a_int, double *, a_int, a_int *, a_int *, double *, double *, a_int,
                         a_int *);

void dsaupd_c(a_int *ido, char const *bmat, a_int n, char const *which, a_int nev, double tol,
              double *resid, a_int ncv, double *v, a_int ldv, a_int *iparam, a_int *ipntr,
              double *workd, double *workl, a_int lworkl, a_int *info)
{
    static saupd_fn real;
    if (fires(&arpack_left)) {
        *ido = 99;
        *info = -9999;
        return;
    }
    if (!real) {
        void *sym = next_symbol("dsaupd_c");
        if (!sym) {
            *ido = 99;
            *info = -9999;
            return;
        }
        memcpy(&real, &sym, sizeof real);
    }
    real(ido, bmat, n, which, nev, tol, resid, ncv, v, ldv, iparam, ipntr, workd, workl, lworkl,
         info);
}
