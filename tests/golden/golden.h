/* Golden results: every kernel on the fixed scenes of tests/golden/, each output file
 * hashed (FNV-1a, 64 bits) with its wall times dropped and its condition numbers rounded
 * to 6 digits (they depend on the CPU's BLAS kernels).  test_golden.c compares them with
 * golden.tsv; `make golden` prints them (golden_main.c) to update it. */
#ifndef CLOTH_GOLDEN_H
#define CLOTH_GOLDEN_H

#include <stddef.h>
#include <stdint.h>

#define GOLDEN_MAX_ROWS 64

typedef struct golden_row {
    char scene[64];             /* file name in tests/golden/                         */
    char kernel[32];
    char file[32];              /* series.csv or final.obj                            */
    char hash[17];              /* 16 hex digits                                      */
} golden_row;

/* FNV-1a 64 of a NUL-terminated text. */
uint64_t golden_fnv1a(const char *text);

/* Runs every golden scene in scene_dir with every kernel, its files written under
 * tmp_dir, and fills rows (at most max); returns the row count, or -1 with *why. */
int golden_compute(const char *scene_dir, const char *tmp_dir, golden_row *rows, int max,
                   char *why, size_t why_size);

#endif
