/* Helpers shared by the test files: central finite differences and comparisons. */
#ifndef CLOTH_TESTUTIL_H
#define CLOTH_TESTUTIL_H

#include <stddef.h>

struct cloth_sim;
struct cloth_iter;

/* A scalar function of n variables, with context. */
typedef double (*tu_scalar_fn)(const double *x, void *ctx);
/* A vector function of n variables (a gradient), writing n values. */
typedef void (*tu_vector_fn)(const double *x, void *ctx, double *out);

/* Central differences of f at x (n <= 64) with step h: g[i] = (f(x+h e_i) - f(x-h e_i))/2h */
void tu_fd_gradient(tu_scalar_fn f, void *ctx, const double *x, int n, double h, double *g);

/* Central differences of a gradient: column j of H (row-major n x n). */
void tu_fd_jacobian(tu_vector_fn g, void *ctx, const double *x, int n, double h, double *H);

/* max_i |a_i - b_i| / max(max_i |b_i|, floor): a relative error over a whole vector;
 * INFINITY when any value of a or b is not finite. */
double tu_rel_error(const double *a, const double *b, int n, double floor);

/* A reproducible number in [-1, 1) from a 64-bit linear congruential state (Knuth's
 * MMIX constants); the same state gives the same sequence on every machine. */
double tu_random(unsigned long *state);

/* Writes text to a fresh temporary file and returns its path (static buffer per call
 * index 0..7, so up to eight may be alive at once). */
const char *tu_temp_file(const char *name, const char *text);

/* Runs the CLI (CLOTH_BIN) with args; returns its exit code and, if out is not NULL,
 * its stderr and stdout (up to size-1 bytes). */
int tu_run_cli(const char *args, char *out, size_t size);

/* A fresh empty directory under /tmp, returned in a static buffer of the slot (0..7). */
const char *tu_temp_dir(int slot);

/* A whole file as a fresh NUL-terminated buffer (the caller frees it), or NULL. */
char *tu_read_file(const char *path);

/* The same for dir/name. */
char *tu_slurp(const char *dir, const char *name);

/* A simulation of the scene text (named name in messages); fails the test on error. */
/* How many of a test's `full` random seeds to run: all of them, or at most
 * CLOTH_TEST_SEEDS when that is set to a positive number (make sanitize sets 3: the same
 * code paths under the sanitizers, fewer random starts; make check runs them all). */
int tu_seeds(int full);

struct cloth_sim *tu_sim(const char *text, const char *name);

/* Runs count frames of sim; fails the test at the first error. */
void tu_frames(struct cloth_sim *sim, int count);

/* The column named column of an iteration-log row of sim's kernel, read through the log
 * table (cloth_table_file, CLOTH_TABLE_LOG + kernel): a number (an int column as a
 * double); fails the test when the kernel's log has no such column. */
double tu_log_value(const struct cloth_sim *sim, const struct cloth_iter *row,
                    const char *column);
/* The same for a word column (newton's cond_method, alpha_by). */
const char *tu_log_word(const struct cloth_sim *sim, const struct cloth_iter *row,
                        const char *column);

/* Cuts the timings off every line of a CSV text, in place: the last field (wall_ms) and
 * the column named collide_ms when the header has one. */
void tu_drop_last_column(char *csv);

#endif
