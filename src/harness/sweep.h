/* Private to the sweep files: a declared sweep (sweep_decl.c), its execution on threads
 * (sweep_exec.c), and its table and run folders (sweep_table.c).  What a sweep is and
 * how its results are found: the top comment of sweep_decl.c. */
#ifndef CLOTH_HARNESS_SWEEP_H
#define CLOTH_HARNESS_SWEEP_H

#include "cloth.h"

#define MAX_SETS 16        /* overrides of one run                    */
#define MAX_COLUMNS 32     /* distinct keys over the whole sweep      */
#define MAX_VARY 8         /* vary lines                              */
#define MAX_VALUES 32      /* values of one vary line                 */
#define MAX_RUNS 4096
#define TEXT 256

typedef struct sweep_run {
    char label[TEXT];             /* as written in sweep.csv                  */
    char folder[TEXT];            /* the label with unsafe characters as '_'  */
    int n_sets;
    char sets[MAX_SETS][TEXT];    /* "section.key=value"                      */
    int lines[MAX_SETS];          /* scene line each override came from       */
} sweep_run;

struct cloth_sweep {
    char path[CLOTH_PATH_MAX];    /* the scene file                           */
    int n_runs;
    sweep_run *runs;
    int n_columns;
    char columns[MAX_COLUMNS][64];/* "section.key" of every override          */
    cloth_scene base;             /* the scene every run starts from          */
};

/* The outcome of one run, as a row of sweep.csv. */
typedef struct result {
    int started;                  /* 1 once the run could be created          */
    char kernel[CLOTH_NAME_MAX];
    cloth_summary summary;
    char message[CLOTH_MSG_MAX];  /* why it failed, or ""                     */
    const char *status;           /* of a row without a summary: "failed",
                                   * "missing" or "stale"                     */
    char *line;                   /* a collected row: summary.csv's data line,
                                   * or NULL (the row is written from summary) */
} result;

/* What a run's folder holds: a result of this id, one of another id, or none. */
typedef enum { FOLDER_NONE, FOLDER_FRESH, FOLDER_STALE } folder_state;

/* Run i's scene: the base with the run's overrides, applied with their file lines so
 * that errors name them (the same path for running and for collecting). */
cloth_status cloth__sweep_scene(const cloth_sweep *sw, int i, cloth_scene *scene,
                                cloth_error *err);

/* Writes OUT/sweep.csv (through a .part file) from one result per run, in declaration
 * order. */
cloth_status cloth__sweep_write_table(const cloth_sweep *sw, const char *out_dir,
                                      const result *results, cloth_error *err);

/* Reads run i's folder into *state.  A result is a complete summary.csv (two lines)
 * beside run.done; run.done is written last, so the pair is whole.  For a fresh one, r (if
 * not NULL) gets summary.csv's data line and run.done's message.  An error when a file is
 * there but cannot be read, or memory runs out. */
cloth_status cloth__sweep_read_folder(const char *out_dir, const sweep_run *run,
                                      const char *id, result *r, folder_state *state,
                                      cloth_error *err);

#endif
