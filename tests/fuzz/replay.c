/*
 * Replays inputs through a fuzz target without libFuzzer: every file named on the
 * command line, and every file inside a folder named there (one level, dot files
 * skipped), goes once through LLVMFuzzerTestOneInput.  A folder that does not exist is
 * skipped, so an empty regressions/<target>/ needs no placeholder.  Built with the
 * normal compiler (and under make sanitize with ASan+UBSan), it is how make check keeps
 * every crash the fuzzer once found fixed.
 */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    size_t size = 0, cap = 4096;
    uint8_t *data = malloc(cap);
    size_t got;
    while (data && (got = fread(data + size, 1, cap - size, f)) > 0) {
        size += got;
        if (size == cap) {
            uint8_t *grown = realloc(data, cap *= 2);
            if (!grown)
                free(data);
            data = grown;
        }
    }
    fclose(f);
    if (!data) {
        fprintf(stderr, "%s: out of memory\n", path);
        return 1;
    }
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    int inputs = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0)
            continue;
        if (!S_ISDIR(st.st_mode)) {
            bad += replay_file(argv[i]);
            inputs++;
            continue;
        }
        struct dirent **names;
        int n = scandir(argv[i], &names, NULL, alphasort);
        if (n < 0) {
            perror(argv[i]);
            return 1;
        }
        for (int k = 0; k < n; k++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], names[k]->d_name);
            if (names[k]->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
                bad += replay_file(path);
                inputs++;
            }
            free(names[k]);
        }
        free(names);
    }
    printf("replay %s: %d inputs\n", argc > 0 ? argv[0] : "", inputs);
    return bad ? 1 : 0;
}
