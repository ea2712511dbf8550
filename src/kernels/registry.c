/* The kernel table: every kernel is one file and one line here. */
#include "sim/kernel.h"

#include <string.h>

extern const cloth__kernel cloth__explicit_kernel;
extern const cloth__kernel cloth__verlet_kernel;
extern const cloth__kernel cloth__pbd_kernel;
extern const cloth__kernel cloth__newton_kernel;

static const cloth__kernel *const kernels[] = {
    &cloth__explicit_kernel,
    &cloth__verlet_kernel,
    &cloth__pbd_kernel,
    &cloth__newton_kernel,
};

#define N_KERNELS ((int)(sizeof kernels / sizeof kernels[0]))

const cloth__kernel *cloth__kernel_at(int i)
{
    return i >= 0 && i < N_KERNELS ? kernels[i] : NULL;
}

const cloth__kernel *cloth__kernel_find(const char *name)
{
    for (int i = 0; i < N_KERNELS; i++)
        if (strcmp(kernels[i]->name, name) == 0)
            return kernels[i];
    return NULL;
}

int cloth_kernel_count(void)
{
    return N_KERNELS;
}

const char *cloth_kernel_name(int i)
{
    return cloth__kernel_at(i) ? kernels[i]->name : NULL;
}

const char *cloth_kernel_summary(int i)
{
    return cloth__kernel_at(i) ? kernels[i]->summary : NULL;
}
