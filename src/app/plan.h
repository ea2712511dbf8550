/* Sweep plans (plan.c): DIR/plan.json and DIR/jobs.tsv, the runs' ids, reading a plan
 * back.  A plan is what the engines (GNU parallel, a Slurm array) run and what
 * `cloth sweep --collect` checks the run folders against. */
#ifndef CLOTH_APP_PLAN_H
#define CLOTH_APP_PLAN_H

#include "cloth.h"

#include <stddef.h>

#define PLAN_ID_LEN 17             /* 16 hex digits and the NUL                          */

typedef struct sweep_plan {
    char cwd[1024];                /* where it was made: the paths below are relative to
                                    * it (or absolute), jobs.tsv's commands run there     */
    char scene[1024];              /* the scene file as given                            */
    char scene_hash[PLAN_ID_LEN];  /* FNV-1a 64 of the scene file's bytes                */
    int n_sets;
    char **sets;                   /* the --set overrides, in order                      */
    int n_runs;
    char **labels;                 /* per run, in declaration order                      */
    char **ids;                    /* per run: its id, 16 hex digits (plan_make_ids)     */
} sweep_plan;

/* FNV-1a 64 of a file's bytes as 16 hex digits; 0, or -1 with a message. */
int plan_hash_file(const char *path, char out[PLAN_ID_LEN], char *msg, size_t size);

/* Fills plan->labels and plan->ids from the sweep (plan->scene, scene_hash and sets set):
 * a run's id hashes the scene path and bytes, the --set overrides and the run's own, so a
 * folder made by any other plan of different inputs has another id.  0, or -1 (memory). */
int plan_make_ids(sweep_plan *plan, const cloth_sweep *sw);

/* Writes out_dir/plan.json and out_dir/jobs.tsv (each through NAME.part and a rename):
 * one line per run, its label, a TAB and the `cloth run` command (cloth_bin as the
 * program) that makes out_dir/<folder>/ and marks it with the run's id.  0, or -1 with a
 * message. */
int plan_write(const sweep_plan *plan, const cloth_sweep *sw, const char *out_dir,
               const char *cloth_bin, char *msg, size_t size);

/* Reads dir/plan.json; 0, or -1 with a message. */
int plan_read(const char *dir, sweep_plan *plan, char *msg, size_t size);

void plan_free(sweep_plan *plan);

#endif
