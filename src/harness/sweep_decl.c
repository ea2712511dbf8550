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
#include "harness/sweep.h"
#include "core/status.h"
#include "core/ini.h"
#include "core/scene.h"
#include "kernels/registry.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

cloth_status cloth__sweep_scene(const cloth_sweep *sw, int i, cloth_scene *scene,
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
