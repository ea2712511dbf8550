/* The dpotrf fault hook; see fault.h. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "fault.h"

#include <dlfcn.h>
#include <lapacke.h>
#include <string.h>

typedef lapack_int (*dpotrf_fn)(int, char, lapack_int, double *, lapack_int);

static long pass_left = -1; /* -1: unarmed */
static int fail_info;

void tu_fault_dpotrf(long pass, int info)
{
    pass_left = pass;
    fail_info = info;
}

void tu_fault_off(void)
{
    pass_left = -1;
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
