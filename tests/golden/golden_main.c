/* `make golden`: prints the golden table of the current build (golden.tsv's form).
 * Usage: golden SCENE_DIR TMP_DIR */
#include "golden.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: golden SCENE_DIR TMP_DIR\n");
        return 2;
    }
    golden_row rows[GOLDEN_MAX_ROWS];
    char why[600];
    int n = golden_compute(argv[1], argv[2], rows, GOLDEN_MAX_ROWS, why, sizeof why);
    if (n < 0) {
        fprintf(stderr, "golden: %s\n", why);
        return 1;
    }
    printf("# scene\tkernel\tfile\tfnv1a64 (wall_ms dropped); x86-64, OpenBLAS on one thread.\n"
           "# A change of results updates this table in the same commit (make golden), with\n"
           "# the reason in the commit message.\n");
    for (int i = 0; i < n; i++)
        printf("%s\t%s\t%s\t%s\n", rows[i].scene, rows[i].kernel, rows[i].file, rows[i].hash);
    return 0;
}
