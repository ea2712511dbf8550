/* What every fuzz target shares: the failure check and a scratch file for the readers
 * that take a path. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void fuzz_check_failure(cloth_status st, const cloth_error *err)
{
    if (st == CLOTH_OK)
        return;
    size_t len = strnlen(err->msg, sizeof err->msg);
    if (st < CLOTH_EINVAL || st > CLOTH_EIO || len == 0 || len == sizeof err->msg) {
        fprintf(stderr, "fuzz: status %d with message '%.*s'\n", (int)st, (int)len, err->msg);
        abort();
    }
}

const char *fuzz_scratch_file(const char *suffix, const uint8_t *data, size_t size)
{
    static char path[256];
    snprintf(path, sizeof path, "/tmp/clothfuzz_%d%s", (int)getpid(), suffix);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror(path);
        abort();
    }
    return path;
}
