/* Private: the output files of runs and sessions (files.c).  A file is written as
 * NAME.part and renamed to NAME when closed whole, so nothing half-written carries a
 * final name. */
#ifndef CLOTH_HARNESS_FILES_H
#define CLOTH_HARNESS_FILES_H

#include "cloth.h"

#include <stdio.h>

typedef struct cloth__out_file {
    FILE *f;
    char path[1024];            /* final name */
    char part[1040];            /* NAME.part while writing */
} cloth__out_file;

/* Opens dir/name as dir/name.part for writing. */
cloth_status cloth__out_open(cloth__out_file *o, const char *dir, const char *name,
                             cloth_error *err);

/* Closes and renames into place; on a write error keeps the .part and says so.  st is
 * the status so far: when it is not OK the file keeps its .part name (the operation that
 * wrote it failed) and st is returned.  Nothing when not open. */
cloth_status cloth__out_close(cloth__out_file *o, cloth_status st, cloth_error *err);

/* mkdir -p, then checks that dir is a folder. */
cloth_status cloth__make_dir(const char *dir, cloth_error *err);

#endif
