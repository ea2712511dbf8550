/*
 * Sweeps: a scene file may declare a set of runs in its [sweep] section.
 *
 *   [sweep]
 *   run  = LABEL: section.key=value; section.key=value     # one named run
 *   vary = section.key: v1, v2, v3                         # a list of values
 *
 * The runs are every `run` line (or the scene as it is, when there is none) crossed with
 * the product of all `vary` lines.  Every run starts from the base scene (the file with
 * the caller's overrides: `cloth sweep --set`) and applies its own overrides on top.
 * Each run goes into OUT/<label>/ with the files of cloth_run, and OUT/sweep.csv joins
 * each run's summary row with its overrides.  A run that cannot start, diverges or does
 * not converge is recorded as such and the sweep goes on.  Runs may execute on several
 * threads; each is independent and the CSV is written in declaration order, so the
 * result does not depend on the thread count.
 *
 * Runs may also be made elsewhere (`cloth run ... --sweep-id ID` from a plan's jobs.tsv)
 * and collected: a run's folder counts as its result when run.done, written after
 * summary.csv, names the run's id (cloth_run_mark_done); cloth_sweep_collect builds the
 * same table from the folders, and cloth_sweep_execute with resume runs only the rest.
 */
#include "core/status.h"
#include "cloth.h"
#include "core/ini.h"
#include "core/scene.h"
#include "kernels/registry.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

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

/* ----------------------------------------------------------------- parsing */

/* One declared line: a `run` (label + overrides) or a `vary` (key + values). */
typedef struct decl {
    int line;
    char label[TEXT];
    int n_sets;
    char sets[MAX_SETS][TEXT];
} decl;

typedef struct vary_decl {
    int line;
    char key[64];
    int n_values;
    char values[MAX_VALUES][TEXT];
} vary_decl;

static int add_column(cloth_sweep *sw, const char *set)
{
    char key[64];
    size_t len = strcspn(set, "=");
    snprintf(key, sizeof key, "%.*s", (int)len, set);
    char *k = cloth__trim(key);
    for (int c = 0; c < sw->n_columns; c++)
        if (strcmp(sw->columns[c], k) == 0)
            return 0;
    if (sw->n_columns == MAX_COLUMNS)
        return 1;
    snprintf(sw->columns[sw->n_columns++], sizeof sw->columns[0], "%s", k);
    return 0;
}

static cloth_status parse_run(char *value, decl *d, const char *where, cloth_error *err)
{
    char *colon = strchr(value, ':');
    if (!colon)
        return cloth__fail(err, CLOTH_EPARSE, "%s: sweep.run: expected 'LABEL: key=value; ...'",
                           where);
    *colon = '\0';
    char *label = cloth__trim(value);
    if (!*label)
        return cloth__fail(err, CLOTH_EPARSE, "%s: sweep.run: the label is empty", where);
    snprintf(d->label, sizeof d->label, "%s", label);
    d->n_sets = 0;
    for (char *save = NULL, *tok = strtok_r(colon + 1, ";", &save); tok;
         tok = strtok_r(NULL, ";", &save)) {
        char *set = cloth__trim(tok);
        if (!*set)
            continue;
        if (d->n_sets == MAX_SETS)
            return cloth__fail(err, CLOTH_EPARSE, "%s: sweep.run: more than %d overrides", where,
                               MAX_SETS);
        snprintf(d->sets[d->n_sets++], TEXT, "%s", set);
    }
    return CLOTH_OK;
}

static cloth_status parse_vary(char *value, vary_decl *v, const char *where,
                               cloth_error *err)
{
    char *colon = strchr(value, ':');
    if (!colon)
        return cloth__fail(err, CLOTH_EPARSE, "%s: sweep.vary: expected 'section.key: v1, v2, ...'",
                           where);
    *colon = '\0';
    snprintf(v->key, sizeof v->key, "%s", cloth__trim(value));
    v->n_values = 0;
    for (char *save = NULL, *tok = strtok_r(colon + 1, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (v->n_values == MAX_VALUES)
            return cloth__fail(err, CLOTH_EPARSE, "%s: sweep.vary: more than %d values", where,
                               MAX_VALUES);
        snprintf(v->values[v->n_values++], TEXT, "%s", cloth__trim(tok));
    }
    if (v->n_values == 0)
        return cloth__fail(err, CLOTH_EPARSE, "%s: sweep.vary: no values", where);
    return CLOTH_OK;
}

/* Label characters other than letters, digits and ._=+- become '_' in folder names. */
static void folder_name(const char *label, char *out, size_t size)
{
    size_t i = 0;
    for (; label[i] && i + 1 < size; i++) {
        unsigned char c = (unsigned char)label[i];
        out[i] = isalnum(c) || strchr("._=+-", c) ? (char)c : '_';
    }
    out[i] = '\0';
}

/* Builds the runs: each run line (or one empty base) crossed with every vary value. */
static cloth_status expand(cloth_sweep *sw, const decl *runs, int n_runs,
                           const vary_decl *vary, int n_vary, cloth_error *err)
{
    long combos = 1;
    for (int v = 0; v < n_vary; v++)
        combos *= vary[v].n_values;
    long total = (n_runs ? n_runs : 1) * combos;
    if (total > MAX_RUNS)
        return cloth__fail(err, CLOTH_EINVAL, "%s: sweep: %ld runs, more than %d", sw->path, total,
                           MAX_RUNS);
    sw->runs = calloc((size_t)total, sizeof *sw->runs);
    if (!sw->runs)
        return cloth__fail(err, CLOTH_ENOMEM, "%s: sweep: out of memory", sw->path);
    static const decl base = {0, "", 0, {{0}}};
    for (int r = 0; r < (n_runs ? n_runs : 1); r++) {
        const decl *d = n_runs ? &runs[r] : &base;
        for (long c = 0; c < combos; c++) {
            sweep_run *run = &sw->runs[sw->n_runs++];
            snprintf(run->label, sizeof run->label, "%s", d->label);
            for (int s = 0; s < d->n_sets; s++) {
                snprintf(run->sets[run->n_sets], TEXT, "%s", d->sets[s]);
                run->lines[run->n_sets++] = d->line;
            }
            /* combination c: the last vary line changes fastest */
            int pick[MAX_VARY];
            long rest = c;
            for (int v = n_vary - 1; v >= 0; v--) {
                pick[v] = (int)(rest % vary[v].n_values);
                rest /= vary[v].n_values;
            }
            for (int v = 0; v < n_vary; v++) {
                if (run->n_sets == MAX_SETS)
                    return cloth__fail(err, CLOTH_EINVAL, "%s:%d: sweep.vary: too many overrides",
                                       sw->path, vary[v].line);
                snprintf(run->sets[run->n_sets], TEXT, "%s=%s", vary[v].key,
                         vary[v].values[pick[v]]);
                run->lines[run->n_sets++] = vary[v].line;
            }
            /* vary values join the label in declaration order */
            char label[TEXT];
            snprintf(label, sizeof label, "%s", d->label);
            for (int v = 0; v < n_vary; v++) {
                char joined[2 * TEXT + 2];
                snprintf(joined, sizeof joined, "%s%s%s", label, label[0] ? "/" : "",
                         run->sets[d->n_sets + v]);
                if (strlen(joined) >= sizeof label)
                    return cloth__fail(err, CLOTH_EINVAL, "%s:%d: sweep: a run label is longer "
                                       "than %d characters", sw->path, vary[v].line, TEXT - 1);
                memcpy(label, joined, sizeof label);
            }
            snprintf(run->label, sizeof run->label, "%s", label[0] ? label : "base");
            folder_name(run->label, run->folder, sizeof run->folder);
        }
    }
    return CLOTH_OK;
}

/* Takes the base scene (the file's own when base is NULL); every override must apply to
 * it, and every folder name must be unique. */
static cloth_status validate(cloth_sweep *sw, const cloth_scene *base, cloth_error *err)
{
    cloth_status st = CLOTH_OK;
    if (base)
        sw->base = *base;
    else
        st = cloth_scene_load(sw->path, &sw->base, err);
    if (st != CLOTH_OK)
        return st;
    for (int r = 0; r < sw->n_runs; r++) {
        cloth_scene copy = sw->base;
        for (int s = 0; s < sw->runs[r].n_sets; s++) {
            st = cloth__scene_set_at(&cloth__kernels()->keys, &copy, sw->runs[r].sets[s],
                                     sw->runs[r].lines[s], err);
            if (st != CLOTH_OK)
                return st;
            if (add_column(sw, sw->runs[r].sets[s]))
                return cloth__fail(err, CLOTH_EINVAL, "%s:%d: sweep: more than %d distinct keys",
                                   sw->path, sw->runs[r].lines[s], MAX_COLUMNS);
        }
        for (int q = 0; q < r; q++)
            if (strcmp(sw->runs[q].folder, sw->runs[r].folder) == 0)
                return cloth__fail(err, CLOTH_EINVAL, "%s:%d: sweep.run: two runs are named '%s'",
                                   sw->path, sw->runs[r].lines[0], sw->runs[r].folder);
    }
    return CLOTH_OK;
}

/* The [sweep] lines of a scene file, as the INI reader hands them over. */
typedef struct sweep_reader {
    decl *runs;                 /* grown as run lines arrive (a decl is 4 kB)         */
    int n_runs, cap_runs;
    vary_decl *vary;
    int n_vary;
} sweep_reader;

static cloth_status read_sweep_line(void *ctx, const cloth__ini_line *l, cloth_error *err)
{
    sweep_reader *r = ctx;
    if (!l->key || strcmp(l->section, "sweep") != 0)
        return CLOTH_OK; /* the scene parser checks everything else */
    char value[4096];
    snprintf(value, sizeof value, "%s", l->value);
    if (strcmp(l->key, "run") == 0) {
        if (r->n_runs == MAX_RUNS)
            return cloth__fail(err, CLOTH_EINVAL, "%s: sweep.run: more than %d runs", l->where,
                               MAX_RUNS);
        if (r->n_runs == r->cap_runs) {
            int cap = r->cap_runs ? 2 * r->cap_runs : 16;
            decl *grown = realloc(r->runs, (size_t)cap * sizeof *grown);
            if (!grown)
                return cloth__fail(err, CLOTH_ENOMEM, "%s: sweep.run: out of memory", l->where);
            r->runs = grown;
            r->cap_runs = cap;
        }
        memset(&r->runs[r->n_runs], 0, sizeof r->runs[0]);
        r->runs[r->n_runs].line = l->line;
        return parse_run(value, &r->runs[r->n_runs++], l->where, err);
    }
    if (strcmp(l->key, "vary") == 0) {
        if (r->n_vary == MAX_VARY)
            return cloth__fail(err, CLOTH_EINVAL, "%s: sweep.vary: more than %d lines", l->where,
                               MAX_VARY);
        r->vary[r->n_vary].line = l->line;
        return parse_vary(value, &r->vary[r->n_vary++], l->where, err);
    }
    return cloth__fail(err, CLOTH_EPARSE, "%s: sweep.%s: unknown key (run or vary)", l->where,
                       l->key);
}

cloth_status cloth_sweep_load(const char *path, const cloth_scene *base, cloth_sweep **out,
                              cloth_error *err)
{
    *out = NULL;
    char *text;
    cloth_status st = cloth__ini_read_file(path, &text, err);
    if (st != CLOTH_OK)
        return st;
    cloth_sweep *sw = calloc(1, sizeof *sw);
    sweep_reader r = {NULL, 0, 0, calloc(MAX_VARY, sizeof(vary_decl)), 0};
    if (!sw || !r.vary)
        st = cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory", path);
    if (st == CLOTH_OK)
        st = cloth__ini_parse(text, path, read_sweep_line, &r, NULL, err);
    free(text);
    if (st == CLOTH_OK) {
        snprintf(sw->path, sizeof sw->path, "%s", path);
        st = expand(sw, r.runs, r.n_runs, r.vary, r.n_vary, err);
    }
    if (st == CLOTH_OK)
        st = validate(sw, base, err);
    free(r.runs);
    free(r.vary);
    if (st != CLOTH_OK) {
        cloth_sweep_destroy(sw);
        return st;
    }
    *out = sw;
    return CLOTH_OK;
}

void cloth_sweep_destroy(cloth_sweep *sw)
{
    if (!sw)
        return;
    free(sw->runs);
    free(sw);
}

int cloth_sweep_count(const cloth_sweep *sw)
{
    return sw->n_runs;
}

const char *cloth_sweep_label(const cloth_sweep *sw, int i)
{
    return i >= 0 && i < sw->n_runs ? sw->runs[i].label : NULL;
}

const char *cloth_sweep_folder(const cloth_sweep *sw, int i)
{
    return i >= 0 && i < sw->n_runs ? sw->runs[i].folder : NULL;
}

int cloth_sweep_sets(const cloth_sweep *sw, int i)
{
    return i >= 0 && i < sw->n_runs ? sw->runs[i].n_sets : 0;
}

const char *cloth_sweep_set(const cloth_sweep *sw, int i, int s)
{
    if (i < 0 || i >= sw->n_runs || s < 0 || s >= sw->runs[i].n_sets)
        return NULL;
    return sw->runs[i].sets[s];
}

/* --------------------------------------------------------------- execution */

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

typedef struct pool {
    const cloth_sweep *sw;
    const char *out_dir;
    const cloth_sweep_def *def;
    result *results;
    const unsigned char *skip;    /* per run: 1 = not run (resume), or NULL   */
    int todo;                     /* runs to run                              */
    int next, done;               /* guarded by lock                          */
    pthread_mutex_t lock;
    double start;
} pool;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Run i's scene: the base with the run's overrides, applied with their file lines so
 * that errors name them (the same path for running and for collecting). */
static cloth_status run_scene(const cloth_sweep *sw, int i, cloth_scene *scene,
                              cloth_error *err)
{
    const sweep_run *run = &sw->runs[i];
    *scene = sw->base;
    cloth_status st = CLOTH_OK;
    for (int s = 0; st == CLOTH_OK && s < run->n_sets; s++)
        st = cloth__scene_set_at(&cloth__kernels()->keys, scene, run->sets[s], run->lines[s],
                                 err);
    return st;
}

static void run_one(pool *p, int i)
{
    const sweep_run *run = &p->sw->runs[i];
    result *res = &p->results[i];
    cloth_scene scene;
    cloth_error err;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", p->out_dir, run->folder);
    cloth_status st = run_scene(p->sw, i, &scene, &err);
    snprintf(res->kernel, sizeof res->kernel, "%s", scene.run.kernel);
    if (p->def->ids) {
        /* an earlier result stops counting before this run rewrites its files */
        char done[1040];
        snprintf(done, sizeof done, "%s/run.done", dir);
        remove(done);
    }
    if (st == CLOTH_OK)
        st = cloth_run(&scene, dir, NULL, &res->summary, &err);
    res->started = st == CLOTH_OK;
    res->status = "failed";
    if (st != CLOTH_OK)
        snprintf(res->message, sizeof res->message, "%s", err.msg);
    else if (p->def->ids && cloth_run_mark_done(dir, p->def->ids[i], &res->summary, &err) != CLOTH_OK
             && p->def->progress)
        fprintf(p->def->progress, "cloth: %s\n", err.msg); /* the run will count as missing */
}

static void *worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        while (p->next < p->sw->n_runs && p->skip && p->skip[p->next])
            p->next++;
        int i = p->next < p->sw->n_runs ? p->next++ : -1;
        pthread_mutex_unlock(&p->lock);
        if (i < 0)
            return NULL;
        run_one(p, i);
        pthread_mutex_lock(&p->lock);
        p->done++;
        if (p->def->progress) {
            const result *r = &p->results[i];
            fprintf(p->def->progress, "[%3d/%d %6.1fs] %s: %s\n", p->done, p->todo,
                    now_s() - p->start, p->sw->runs[i].label,
                    r->started ? cloth_run_status_string(r->summary.status) : r->message);
            fflush(p->def->progress);
        }
        pthread_mutex_unlock(&p->lock);
    }
}

/* A CSV field, quoted when it holds a comma, a quote or a newline. */
static void put_field(FILE *f, const char *text)
{
    if (!strpbrk(text, ",\"\n")) {
        fputs(text, f);
        return;
    }
    fputc('"', f);
    for (const char *c = text; *c; c++) {
        if (*c == '"')
            fputc('"', f);
        fputc(*c, f);
    }
    fputc('"', f);
}

/* The value run r gives column key, or "" */
static const char *override_of(const sweep_run *run, const char *key, char *buf, size_t n)
{
    buf[0] = '\0';
    for (int s = 0; s < run->n_sets; s++) {
        size_t len = strcspn(run->sets[s], "=");
        char k[64];
        snprintf(k, sizeof k, "%.*s", (int)len, run->sets[s]);
        if (strcmp(cloth__trim(k), key) == 0) {
            snprintf(buf, n, "%s", run->sets[s] + len + 1);
            char *v = cloth__trim(buf);
            memmove(buf, v, strlen(v) + 1);
        }
    }
    return buf;
}

/* The summary columns of a run that could not start: its kernel, status "failed", and
 * every other column empty. */
static void write_failed_row(FILE *f, const char *kernel, const char *status)
{
    for (int i = 0; i < cloth_table_columns(CLOTH_TABLE_SUMMARY); i++) {
        if (i)
            fputc(',', f);
        if (strcmp(cloth_field_name(CLOTH_TABLE_SUMMARY, i), "kernel") == 0)
            fputs(kernel, f);
        else if (cloth_field_type(CLOTH_TABLE_SUMMARY, i) == CLOTH_VALUE_RUN_STATUS)
            fputs(status, f);
    }
}

static cloth_status write_table(const cloth_sweep *sw, const char *out_dir,
                                const result *results, cloth_error *err)
{
    char path[1024], part[1040];
    snprintf(path, sizeof path, "%s/sweep.csv", out_dir);
    snprintf(part, sizeof part, "%s.part", path);
    FILE *f = fopen(part, "w");
    if (!f)
        return cloth__fail(err, CLOTH_EIO, "%s: cannot write: %s", part, strerror(errno));
    fputs("label", f);
    for (int c = 0; c < sw->n_columns; c++)
        fprintf(f, ",%s", sw->columns[c]);
    fputc(',', f);
    cloth_table_write_header(f, CLOTH_TABLE_SUMMARY);
    fputs(",message\n", f);
    for (int i = 0; i < sw->n_runs; i++) {
        const sweep_run *run = &sw->runs[i];
        const result *r = &results[i];
        char value[TEXT];
        put_field(f, run->label);
        for (int c = 0; c < sw->n_columns; c++) {
            fputc(',', f);
            put_field(f, override_of(run, sw->columns[c], value, sizeof value));
        }
        fputc(',', f);
        if (r->line)
            fputs(r->line, f);
        else if (r->started)
            cloth_table_write_row(f, CLOTH_TABLE_SUMMARY, &r->summary);
        else
            write_failed_row(f, r->kernel, r->status);
        fputc(',', f);
        put_field(f, r->started ? r->summary.message : r->message);
        fputc('\n', f);
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(part, path) != 0)
        return cloth__fail(err, CLOTH_EIO, "%s: cannot write: %s", path, strerror(errno));
    return CLOTH_OK;
}

/* ----------------------------------------------------------------- results */

/* What a run's folder holds: a result of this id, one of another id, or none. */
typedef enum { FOLDER_NONE, FOLDER_FRESH, FOLDER_STALE } folder_state;

/* A small file whole, NUL-terminated, into *text (the caller frees it): CLOTH_OK, or
 * CLOTH_OK with *text NULL when there is no such file, or an error. */
static cloth_status read_small(const char *path, char **text, cloth_error *err)
{
    *text = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT)
            return CLOTH_OK;
        return cloth__fail(err, errno == ENOMEM ? CLOTH_ENOMEM : CLOTH_EIO,
                           "%s: cannot read: %s", path, strerror(errno));
    }
    char *buf = malloc(8192);
    size_t n = buf ? fread(buf, 1, 8191, f) : 0;
    int bad = ferror(f);
    fclose(f);
    if (!buf)
        return cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory", path);
    if (bad) {
        free(buf);
        return cloth__fail(err, CLOTH_EIO, "%s: cannot read", path);
    }
    buf[n] = '\0';
    *text = buf;
    return CLOTH_OK;
}

/* Reads run i's folder into *state.  A result is a complete summary.csv (two lines)
 * beside run.done; run.done is written last, so the pair is whole.  For a fresh one, r (if
 * not NULL) gets summary.csv's data line and run.done's message.  An error when a file is
 * there but cannot be read, or memory runs out. */
static cloth_status read_folder(const char *out_dir, const sweep_run *run, const char *id,
                                result *r, folder_state *state, cloth_error *err)
{
    char path[1024];
    char *done = NULL, *summary = NULL;
    snprintf(path, sizeof path, "%s/%s/run.done", out_dir, run->folder);
    cloth_status st = read_small(path, &done, err);
    snprintf(path, sizeof path, "%s/%s/summary.csv", out_dir, run->folder);
    if (st == CLOTH_OK)
        st = read_small(path, &summary, err);
    *state = FOLDER_NONE;
    char *data = summary ? strchr(summary, '\n') : NULL;
    size_t id_len = strlen(id);
    if (st == CLOTH_OK && data && data[1] && strchr(data + 1, '\n')) {
        data++;
        *strchr(data, '\n') = '\0';
        /* a complete summary.csv with no run.done, or another id's, is not this run's */
        int same = done && strncmp(done, "id ", 3) == 0 &&
                   strncmp(done + 3, id, id_len) == 0 && done[3 + id_len] == '\n';
        const char *msg = same ? strstr(done, "\nmessage ") : NULL;
        *state = msg ? FOLDER_FRESH : FOLDER_STALE;
        if (*state == FOLDER_FRESH && r) {
            size_t n = strlen(data) + 1;
            r->line = malloc(n); /* not strdup: its allocation would bypass the tests' wrappers */
            if (r->line)
                memcpy(r->line, data, n);
            r->started = 1;
            size_t len = strcspn(msg + 9, "\n");
            snprintf(r->summary.message, sizeof r->summary.message, "%.*s", (int)len, msg + 9);
            if (!r->line)
                st = cloth__fail(err, CLOTH_ENOMEM, "%s: out of memory", path);
        }
    }
    free(done);
    free(summary);
    return st;
}

/* ------------------------------------------------------------------ public */

void cloth_default_sweep_def(cloth_sweep_def *def)
{
    *def = (cloth_sweep_def){.jobs = 1, .progress = NULL, .ids = NULL, .resume = 0, .table = 1};
}

cloth_status cloth_sweep_execute(const cloth_sweep *sw, const char *out_dir,
                                 const cloth_sweep_def *def, int *not_ok, cloth_error *err)
{
    if (def->jobs < 1 || def->jobs > 256)
        return cloth__fail(err, CLOTH_EINVAL, "jobs: %d is out of range: must be in [1, 256]",
                           def->jobs);
    if (def->resume && !def->ids)
        return cloth__fail(err, CLOTH_EINVAL, "sweep: resuming needs the runs' ids");
    if (mkdir(out_dir, 0777) != 0 && errno != EEXIST)
        return cloth__fail(err, CLOTH_EIO, "%s: cannot create folder: %s", out_dir,
                           strerror(errno));
    pool p = {sw, out_dir, def, calloc((size_t)sw->n_runs, sizeof(result)), NULL, sw->n_runs,
              0, 0, PTHREAD_MUTEX_INITIALIZER, now_s()};
    unsigned char *skip = def->resume ? calloc((size_t)sw->n_runs, 1) : NULL;
    if (!p.results || (def->resume && !skip)) {
        free(p.results);
        free(skip);
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory for %d runs", sw->n_runs);
    }
    for (int i = 0; skip && i < sw->n_runs; i++) {
        folder_state state;
        cloth_status st = read_folder(out_dir, &sw->runs[i], def->ids[i], NULL, &state, err);
        if (st != CLOTH_OK) {
            free(p.results);
            free(skip);
            return st;
        }
        skip[i] = state == FOLDER_FRESH;
        p.todo -= skip[i];
    }
    p.skip = skip;
    pthread_t threads[256];
    int started = 0;
    for (int t = 0; t < def->jobs - 1 && t < p.todo - 1; t++)
        if (pthread_create(&threads[t], NULL, worker, &p) == 0)
            started++;
    worker(&p); /* the calling thread works too */
    for (int t = 0; t < started; t++)
        pthread_join(threads[t], NULL);
    cloth_status st = def->table ? write_table(sw, out_dir, p.results, err) : CLOTH_OK;
    int bad = 0;
    for (int i = 0; i < sw->n_runs; i++)
        bad += !(skip && skip[i]) &&
               (!p.results[i].started || p.results[i].summary.status != CLOTH_RUN_OK);
    if (not_ok)
        *not_ok = bad;
    free(p.results);
    free(skip);
    pthread_mutex_destroy(&p.lock);
    return st;
}

cloth_status cloth_sweep_run(const cloth_sweep *sw, const char *out_dir, int jobs,
                             FILE *progress, int *not_ok, cloth_error *err)
{
    cloth_sweep_def def;
    cloth_default_sweep_def(&def);
    def.jobs = jobs;
    def.progress = progress;
    return cloth_sweep_execute(sw, out_dir, &def, not_ok, err);
}

cloth_status cloth_sweep_collect(const cloth_sweep *sw, const char *out_dir,
                                 const char *const *ids, cloth_sweep_tally *tally,
                                 cloth_error *err)
{
    result *results = calloc((size_t)sw->n_runs, sizeof *results);
    if (!results)
        return cloth__fail(err, CLOTH_ENOMEM, "out of memory for %d runs", sw->n_runs);
    cloth_sweep_tally t = {0};
    cloth_status st = CLOTH_OK;
    for (int i = 0; st == CLOTH_OK && i < sw->n_runs; i++) {
        result *r = &results[i];
        folder_state state;
        st = read_folder(out_dir, &sw->runs[i], ids[i], r, &state, err);
        if (st != CLOTH_OK)
            break;
        if (state == FOLDER_FRESH) {
            /* the status column of the copied line */
            int col = 0;
            while (col < cloth_table_columns(CLOTH_TABLE_SUMMARY) &&
                   cloth_field_type(CLOTH_TABLE_SUMMARY, col) != CLOTH_VALUE_RUN_STATUS)
                col++;
            const char *p = r->line;
            for (int c = 0; c < col && p; c++)
                p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
            char status[32];
            snprintf(status, sizeof status, "%.*s", p ? (int)strcspn(p, ",") : 0, p ? p : "");
            if (strcmp(status, cloth_run_status_string(CLOTH_RUN_OK)) == 0)
                t.ok++;
            else if (strcmp(status, cloth_run_status_string(CLOTH_RUN_NOT_CONVERGED)) == 0)
                t.not_converged++;
            else if (strcmp(status, cloth_run_status_string(CLOTH_RUN_DIVERGED)) == 0)
                t.diverged++;
            else
                t.step_failed++;
            continue;
        }
        /* no result: a run that cannot start is "failed" with the reason a local sweep
         * gives (the same scene and the same check: creating its sim) */
        cloth_scene scene;
        cloth_error why;
        cloth_sim *sim = NULL;
        cloth_status made = run_scene(sw, i, &scene, &why);
        snprintf(r->kernel, sizeof r->kernel, "%s", scene.run.kernel);
        if (made == CLOTH_OK)
            made = cloth_sim_create(&scene, &sim, &why);
        cloth_sim_destroy(sim);
        if (made == CLOTH_ENOMEM) {
            st = cloth__fail(err, CLOTH_ENOMEM, "%s", why.msg);
        } else if (made != CLOTH_OK) {
            r->status = "failed";
            snprintf(r->message, sizeof r->message, "%s", why.msg);
            t.failed++;
        } else if (state == FOLDER_STALE) {
            r->status = "stale";
            snprintf(r->message, sizeof r->message, "%s/ holds a result of another plan",
                     sw->runs[i].folder);
            t.stale++;
        } else {
            r->status = "missing";
            snprintf(r->message, sizeof r->message, "%s/ has no complete summary.csv",
                     sw->runs[i].folder);
            t.missing++;
        }
    }
    if (st == CLOTH_OK)
        st = write_table(sw, out_dir, results, err);
    for (int i = 0; i < sw->n_runs; i++)
        free(results[i].line);
    free(results);
    if (tally)
        *tally = t;
    return st;
}
