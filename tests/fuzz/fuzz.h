/* The fuzz targets' common parts.  Each target is one LLVMFuzzerTestOneInput: libFuzzer
 * links it with its own main (make fuzz), replay.c with a main that feeds it the files
 * named on the command line (make check replays tests/fuzz/regressions/ and the seeds). */
#ifndef CLOTH_FUZZ_H
#define CLOTH_FUZZ_H

#include "cloth.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A failure must come with a known status and a message: aborts otherwise, which the
 * fuzzer reports as a crash. */
void fuzz_check_failure(cloth_status st, const cloth_error *err);

/* Writes data to this process's scratch file (name ends in suffix, made once) and returns
 * its path. */
const char *fuzz_scratch_file(const char *suffix, const uint8_t *data, size_t size);

#endif
