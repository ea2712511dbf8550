/* Finding a kernel in a registry (sim/kernel.h). */
#include "sim/kernel.h"

#include <string.h>

const cloth__kernel *cloth__registry_find(const cloth__registry *reg, const char *name)
{
    const cloth__kernel *k;
    for (int i = 0; (k = reg->at(i)) != NULL; i++)
        if (strcmp(k->name, name) == 0)
            return k;
    return NULL;
}

int cloth__registry_slot(const cloth__registry *reg, const cloth__kernel *k)
{
    const cloth__kernel *at;
    for (int i = 0; (at = reg->at(i)) != NULL; i++)
        if (at == k)
            return i < CLOTH_MAX_KERNELS ? i : -1;
    return -1;
}
