/*
 * Fuzz target: the [sweep] section (run and vary lines, their expansion into runs, and
 * every override checked against the scene).  cloth_sweep_load reads a file, so the
 * scene text goes through a scratch file.  Input: the scene file, then optionally
 * NUL-separated --set assignments that make the base scene, as `cloth sweep --set` does:
 *   "[mesh]\nnx = 3\n[sweep]\nvary = run.dt: 0.1, 0.2\n" "\0" "mesh.ny=4"
 * The sweep is loaded, its labels read, and freed, not run.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#define MAX_SETS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, '\0', size);
    size_t text_size = nul ? (size_t)(nul - data) : size;
    const char *path = fuzz_scratch_file(".ini", data, text_size);
    cloth_error err;
    cloth_scene base;
    const cloth_scene *with = NULL;
    if (nul) {
        char *sets = malloc(size - text_size + 1);
        if (!sets)
            return 0;
        memcpy(sets, nul + 1, size - text_size - 1);
        sets[size - text_size - 1] = '\0';
        cloth_status st = cloth_scene_load(path, &base, &err);
        fuzz_check_failure(st, &err);
        const char *set = sets;
        for (int arg = 1; st == CLOTH_OK && arg <= MAX_SETS && set <= sets + (size - text_size - 1);
             arg++) {
            st = cloth_scene_set(&base, set, arg, &err);
            fuzz_check_failure(st, &err);
            set += strlen(set) + 1;
        }
        free(sets);
        if (st != CLOTH_OK)
            return 0;
        with = &base;
    }
    cloth_sweep *sweep;
    cloth_status st = cloth_sweep_load(path, with, &sweep, &err);
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
