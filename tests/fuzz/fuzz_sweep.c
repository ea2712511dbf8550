/*
 * Fuzz target: the [sweep] section (run and vary lines, their expansion into runs, and
 * every override checked against the scene).  cloth_sweep_load reads a file, so the input
 * goes through a scratch file; the sweep is loaded, its labels read, and freed, not run.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_scratch_file(".ini", data, size);
    cloth_sweep *sweep;
    cloth_error err;
    cloth_status st = cloth_sweep_load(path, &sweep, &err);
    fuzz_check_failure(st, &err);
    if (st != CLOTH_OK)
        return 0;
    int n = cloth_sweep_count(sweep);
    for (int i = 0; i < n; i++)
        if (!cloth_sweep_label(sweep, i) || strlen(cloth_sweep_label(sweep, i)) == 0)
            abort();
    cloth_sweep_destroy(sweep);
    return 0;
}
