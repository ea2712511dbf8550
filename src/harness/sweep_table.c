/* A sweep's table, sweep.csv, and its run folders: a run's folder holds a result of this
 * plan when run.done names the run's id (cloth_run_mark_done); collecting builds the
 * table from the folders alone. */
#include "harness/sweep.h"
#include "core/status.h"
#include "core/ini.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

cloth_status cloth__sweep_write_table(const cloth_sweep *sw, const char *out_dir,
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

cloth_status cloth__sweep_read_folder(const char *out_dir, const sweep_run *run,
                                      const char *id, result *r, folder_state *state,
                                      cloth_error *err)
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
        st = cloth__sweep_read_folder(out_dir, &sw->runs[i], ids[i], r, &state, err);
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
        cloth_status made = cloth__sweep_scene(sw, i, &scene, &why);
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
        st = cloth__sweep_write_table(sw, out_dir, results, err);
    for (int i = 0; i < sw->n_runs; i++)
        free(results[i].line);
    free(results);
    if (tally)
        *tally = t;
    return st;
}
