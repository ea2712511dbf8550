#include "testutil.h"
#include "cloth.h"

#include <check.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void tu_fd_gradient(tu_scalar_fn f, void *ctx, const double *x, int n, double h, double *g)
{
    double y[64];
    memcpy(y, x, (size_t)n * sizeof *y);
    for (int i = 0; i < n; i++) {
        y[i] = x[i] + h;
        double fp = f(y, ctx);
        y[i] = x[i] - h;
        double fm = f(y, ctx);
        y[i] = x[i];
        g[i] = (fp - fm) / (2 * h);
    }
}

void tu_fd_jacobian(tu_vector_fn g, void *ctx, const double *x, int n, double h, double *H)
{
    double y[64], gp[64], gm[64];
    memcpy(y, x, (size_t)n * sizeof *y);
    for (int j = 0; j < n; j++) {
        y[j] = x[j] + h;
        g(y, ctx, gp);
        y[j] = x[j] - h;
        g(y, ctx, gm);
        y[j] = x[j];
        for (int i = 0; i < n; i++)
            H[i * n + j] = (gp[i] - gm[i]) / (2 * h);
    }
}

double tu_rel_error(const double *a, const double *b, int n, double floor)
{
    double scale = floor, err = 0;
    for (int i = 0; i < n; i++) {
        if (!isfinite(a[i]) || !isfinite(b[i]))
            return INFINITY; /* fmax drops NaN: a non-finite value must fail, not hide */
        scale = fmax(scale, fabs(b[i]));
    }
    for (int i = 0; i < n; i++)
        err = fmax(err, fabs(a[i] - b[i]));
    return err / scale;
}

double tu_random(unsigned long *state)
{
    *state = *state * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(*state >> 11) / (double)(1UL << 52) - 1.0;
}

const char *tu_temp_file(const char *name, const char *text)
{
    static char paths[8][256];
    static int next;
    char *path = paths[next++ % 8];
    snprintf(path, sizeof paths[0], "/tmp/clothtest_%d_%s", (int)getpid(), name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return path;
}

const char *tu_temp_dir(int slot)
{
    static char dirs[8][256];
    char *dir = dirs[slot % 8];
    snprintf(dir, sizeof dirs[0], "/tmp/clothtest_%d_dir%d", (int)getpid(), slot);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    if (system(cmd) != 0)
        return NULL;
    return dir;
}

int tu_seeds(int full)
{
    const char *cap = getenv("CLOTH_TEST_SEEDS");
    int n = cap ? atoi(cap) : 0;
    return n > 0 && n < full ? n : full;
}

int tu_run_cli(const char *args, char *out, size_t size)
{
    const char *bin = getenv("CLOTH_BIN");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", bin ? bin : "../build/cloth", args);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t used = 0;
    char buf[512];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, p)) > 0) {
        if (out && used + 1 < size) {
            size_t take = got < size - 1 - used ? got : size - 1 - used;
            memcpy(out + used, buf, take);
            used += take;
        }
    }
    if (out && size)
        out[used] = '\0';
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

char *tu_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[n] = '\0';
    fclose(f);
    return buf;
}

char *tu_slurp(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return tu_read_file(path);
}

/* The field number of the column named name in the header line of csv, or -1. */
static int column_named(const char *csv, const char *name)
{
    size_t n = strlen(name);
    int col = 0;
    for (const char *p = csv; *p && *p != '\n'; col++) {
        size_t len = strcspn(p, ",\n");
        if (len == n && strncmp(p, name, n) == 0)
            return col;
        p += len;
        if (*p == ',')
            p++;
    }
    return -1;
}

/* Drops field col of every line in place. */
static void drop_column(char *csv, int col)
{
    char *out = csv, *p = csv;
    while (*p) {
        int c = 0, written = 0;
        for (;;) {
            size_t len = strcspn(p, ",\n");
            if (c != col) {
                if (written++)
                    *out++ = ',';
                memmove(out, p, len);
                out += len;
            }
            p += len;
            c++;
            if (*p != ',')
                break;
            p++;
        }
        if (*p == '\n')
            *out++ = *p++;
    }
    *out = '\0';
}

void tu_drop_last_column(char *csv)
{
    /* the robust collision stage's time (collide_ms) is a timing too */
    int stage = column_named(csv, "collide_ms");
    if (stage >= 0)
        drop_column(csv, stage);
    char *out = csv;
    for (char *line = csv; *line;) {
        char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char *comma = NULL;
        for (char *p = line; p < line + len; p++)
            if (*p == ',')
                comma = p;
        size_t keep = comma ? (size_t)(comma - line) : len;
        memmove(out, line, keep);
        out += keep;
        *out++ = '\n';
        line += len + (end != NULL);
    }
    *out = '\0';
}

cloth_sim *tu_sim(const char *text, const char *name)
{
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(text, name, &s, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s: %s", name, err.msg);
    return sim;
}

void tu_frames(cloth_sim *sim, int count)
{
    cloth_frame f;
    cloth_error err;
    for (int i = 0; i < count; i++)
        ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "frame %d: %s", i, err.msg);
}

/* The log table of sim's kernel's column `column`; fails the test when it has none. */
static cloth_table log_column(const struct cloth_sim *sim, const char *column, int *at)
{
    char kernel[CLOTH_NAME_MAX];
    cloth_error err;
    ck_assert_int_eq(cloth_scene_get(cloth_sim_scene(sim), "run.kernel", kernel, sizeof kernel,
                                     &err), CLOTH_OK);
    cloth_table t = (cloth_table)(CLOTH_TABLE_LOG + cloth_kernel_find(kernel));
    for (*at = 0; *at < cloth_table_columns(t); (*at)++)
        if (strcmp(cloth_field_name(t, *at), column) == 0)
            return t;
    ck_abort_msg("%s's log has no column %s", kernel, column);
    return t;
}

const char *tu_log_word(const struct cloth_sim *sim, const struct cloth_iter *row,
                        const char *column)
{
    int i;
    cloth_table t = log_column(sim, column, &i);
    ck_assert_msg(cloth_field_type(t, i) == CLOTH_VALUE_NAME, "%s is not a word", column);
    return (const char *)row + cloth_field_offset(t, i);
}

double tu_log_value(const struct cloth_sim *sim, const struct cloth_iter *row,
                    const char *column)
{
    char kernel[CLOTH_NAME_MAX];
    cloth_error err;
    ck_assert_int_eq(cloth_scene_get(cloth_sim_scene(sim), "run.kernel", kernel, sizeof kernel,
                                     &err), CLOTH_OK);
    cloth_table t = (cloth_table)(CLOTH_TABLE_LOG + cloth_kernel_find(kernel));
    for (int i = 0; i < cloth_table_columns(t); i++) {
        if (strcmp(cloth_field_name(t, i), column) != 0)
            continue;
        const char *at = (const char *)row + cloth_field_offset(t, i);
        switch (cloth_field_type(t, i)) {
        case CLOTH_VALUE_DOUBLE: return *(const double *)at;
        case CLOTH_VALUE_INT: return *(const int *)at;
        case CLOTH_VALUE_LONG: return (double)*(const long *)at;
        default: break;
        }
        ck_abort_msg("%s: %s is not a number", kernel, column);
    }
    ck_abort_msg("%s's log has no column %s", kernel, column);
    return NAN;
}
