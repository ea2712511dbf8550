/* Private: the table of every kernel (registry.c).  Adding a kernel is one folder under
 * src/kernels/ and one line in that table (docs/architecture.md, Adding a kernel). */
#ifndef CLOTH_REGISTRY_H
#define CLOTH_REGISTRY_H

#include "sim/kernel.h"

/* Every kernel of the library, and their key sections. */
const cloth__registry *cloth__kernels(void);

#endif
