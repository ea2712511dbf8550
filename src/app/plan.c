/*
 * Sweep plans: what `cloth sweep --plan` writes and `--collect` and `--resume` read.
 *
 *   DIR/plan.json   {"format", "cwd", "scene", "scene_fnv1a64", "set": [...],
 *                    "runs": [{"label", "folder", "set": [...], "id"}, ...]}
 *   DIR/jobs.tsv    LABEL <TAB> cloth run SCENE --set ... --out DIR/FOLDER --sweep-id ID
 *
 * Paths are kept as the user gave them, relative to "cwd" (or absolute): a run's messages
 * name its scene as given, so a run made from jobs.tsv writes the same files as the same
 * run inside `cloth sweep`.  The hash is FNV-1a 64 (Fowler, Noll, Vo): it tells an edited
 * file from the planned one, not an adversary's file.
 */
#include "app/plan.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PLAN_FORMAT "clothbench sweep plan 1"

/* ------------------------------------------------------------------ hashing */

/* h = (h xor byte) * 1099511628211, from the offset basis 14695981039346656037 */
static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211u;
    return h;
}

#define FNV_BASIS 14695981039346656037u

/* A string and its terminating NUL, so that ("ab","c") and ("a","bc") differ. */
static uint64_t fnv1a_str(uint64_t h, const char *s)
{
    return fnv1a(h, s, strlen(s) + 1);
}

static void to_hex(uint64_t h, char out[PLAN_ID_LEN])
{
    snprintf(out, PLAN_ID_LEN, "%016llx", (unsigned long long)h);
}

int plan_hash_file(const char *path, char out[PLAN_ID_LEN], char *msg, size_t size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, size, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    uint64_t h = FNV_BASIS;
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        h = fnv1a(h, buf, n);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        snprintf(msg, size, "%s: cannot read", path);
        return -1;
    }
    to_hex(h, out);
    return 0;
}

int plan_make_ids(sweep_plan *plan, const cloth_sweep *sw)
{
    int n = cloth_sweep_count(sw);
    plan->n_runs = n;
    plan->labels = calloc((size_t)n + 1, sizeof *plan->labels);
    plan->ids = calloc((size_t)n + 1, sizeof *plan->ids);
    if (!plan->labels || !plan->ids)
        return -1;
    uint64_t base = fnv1a_str(FNV_BASIS, plan->scene);
    base = fnv1a_str(base, plan->scene_hash);
    for (int s = 0; s < plan->n_sets; s++)
        base = fnv1a_str(base, plan->sets[s]);
    for (int i = 0; i < n; i++) {
        plan->labels[i] = strdup(cloth_sweep_label(sw, i));
        plan->ids[i] = malloc(PLAN_ID_LEN);
        if (!plan->labels[i] || !plan->ids[i])
            return -1;
        uint64_t h = fnv1a_str(base, "\x1f"); /* between the --set list and the run's own */
        h = fnv1a_str(h, cloth_sweep_label(sw, i));
        for (int s = 0; s < cloth_sweep_sets(sw, i); s++)
            h = fnv1a_str(h, cloth_sweep_set(sw, i, s));
        to_hex(h, plan->ids[i]);
    }
    return 0;
}

void plan_free(sweep_plan *plan)
{
    for (int s = 0; plan->sets && s < plan->n_sets; s++)
        free(plan->sets[s]);
    for (int i = 0; plan->labels && i < plan->n_runs; i++)
        free(plan->labels[i]);
    for (int i = 0; plan->ids && i < plan->n_runs; i++)
        free(plan->ids[i]);
    free(plan->sets);
    free(plan->labels);
    free(plan->ids);
    plan->sets = plan->labels = plan->ids = NULL;
}

/* ------------------------------------------------------------------ writing */

/* One shell word: as it is when it holds only safe characters, else in single quotes
 * (a quote inside as '\''). */
static void put_word(FILE *f, const char *w)
{
    if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                        "_./=+,:@%-") == strlen(w)) {
        fputs(w, f);
        return;
    }
    fputc('\'', f);
    for (const char *c = w; *c; c++)
        if (*c == '\'')
            fputs("'\\''", f);
        else
            fputc(*c, f);
    fputc('\'', f);
}

/* Closes f and renames part to path; 0, or -1 with a message. */
static int finish(FILE *f, const char *part, const char *path, char *msg, size_t size)
{
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || rename(part, path) != 0) {
        snprintf(msg, size, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

static int write_jobs(const sweep_plan *plan, const cloth_sweep *sw, const char *out_dir,
                      const char *cloth_bin, char *msg, size_t size)
{
    char path[1100], part[1110];
    snprintf(path, sizeof path, "%s/jobs.tsv", out_dir);
    snprintf(part, sizeof part, "%s.part", path);
    FILE *f = fopen(part, "w");
    if (!f) {
        snprintf(msg, size, "%s: cannot write: %s", part, strerror(errno));
        return -1;
    }
    for (int i = 0; i < plan->n_runs; i++) {
        char out[2100];
        snprintf(out, sizeof out, "%s/%s", out_dir, cloth_sweep_folder(sw, i));
        fprintf(f, "%s\t", plan->labels[i]);
        put_word(f, cloth_bin);
        fputs(" run ", f);
        put_word(f, plan->scene);
        for (int s = 0; s < plan->n_sets; s++) {
            fputs(" --set ", f);
            put_word(f, plan->sets[s]);
        }
        for (int s = 0; s < cloth_sweep_sets(sw, i); s++) {
            fputs(" --set ", f);
            put_word(f, cloth_sweep_set(sw, i, s));
        }
        fputs(" --out ", f);
        put_word(f, out);
        fprintf(f, " --sweep-id %s\n", plan->ids[i]);
    }
    return finish(f, part, path, msg, size);
}

static cJSON *string_array(char *const *items, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; a && i < n; i++)
        if (!cJSON_AddItemToArray(a, cJSON_CreateString(items[i]))) {
            cJSON_Delete(a);
            return NULL;
        }
    return a;
}

static cJSON *plan_json(const sweep_plan *plan, const cloth_sweep *sw)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *runs = cJSON_AddArrayToObject(o, "runs");
    int ok = o && runs && cJSON_AddStringToObject(o, "format", PLAN_FORMAT) &&
             cJSON_AddStringToObject(o, "cwd", plan->cwd) &&
             cJSON_AddStringToObject(o, "scene", plan->scene) &&
             cJSON_AddStringToObject(o, "scene_fnv1a64", plan->scene_hash) &&
             cJSON_AddItemToObject(o, "set", string_array(plan->sets, plan->n_sets));
    for (int i = 0; ok && i < plan->n_runs; i++) {
        cJSON *r = cJSON_CreateObject();
        char **sets = malloc(sizeof(char *) * (size_t)(cloth_sweep_sets(sw, i) + 1));
        for (int s = 0; sets && s < cloth_sweep_sets(sw, i); s++)
            sets[s] = (char *)cloth_sweep_set(sw, i, s);
        ok = r && sets && cJSON_AddItemToArray(runs, r) &&
             cJSON_AddStringToObject(r, "label", plan->labels[i]) &&
             cJSON_AddStringToObject(r, "folder", cloth_sweep_folder(sw, i)) &&
             cJSON_AddItemToObject(r, "set", string_array(sets, cloth_sweep_sets(sw, i))) &&
             cJSON_AddStringToObject(r, "id", plan->ids[i]);
        free(sets);
    }
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

int plan_write(const sweep_plan *plan, const cloth_sweep *sw, const char *out_dir,
               const char *cloth_bin, char *msg, size_t size)
{
    for (int i = 0; i < plan->n_runs; i++)
        if (strpbrk(plan->labels[i], "\t\n")) {
            snprintf(msg, size, "%s: sweep: the label of run %d holds a tab (jobs.tsv "
                     "separates the label from the command with one)", plan->scene, i + 1);
            return -1;
        }
    cJSON *o = plan_json(plan, sw);
    char *text = o ? cJSON_Print(o) : NULL;
    cJSON_Delete(o);
    if (!text) {
        snprintf(msg, size, "out of memory");
        return -1;
    }
    char path[1100], part[1110];
    snprintf(path, sizeof path, "%s/plan.json", out_dir);
    snprintf(part, sizeof part, "%s.part", path);
    FILE *f = fopen(part, "w");
    if (!f) {
        snprintf(msg, size, "%s: cannot write: %s", part, strerror(errno));
        cJSON_free(text);
        return -1;
    }
    fprintf(f, "%s\n", text);
    cJSON_free(text);
    if (finish(f, part, path, msg, size) != 0)
        return -1;
    return write_jobs(plan, sw, out_dir, cloth_bin, msg, size);
}

/* ------------------------------------------------------------------ reading */

static int copy_string(const cJSON *o, const char *key, char *out, size_t n)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(v) || strlen(v->valuestring) >= n)
        return -1;
    snprintf(out, n, "%s", v->valuestring);
    return 0;
}

int plan_read(const char *dir, sweep_plan *plan, char *msg, size_t size)
{
    memset(plan, 0, sizeof *plan);
    char path[1100];
    snprintf(path, sizeof path, "%s/plan.json", dir);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, size, "%s: cannot read: %s (a plan comes from cloth sweep SCENE.ini "
                 "--plan --out %s)", path, strerror(errno), dir);
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    for (size_t got = 1; text && got > 0;) {
        if (n + 1 == cap) {
            char *grown = cap < (1u << 28) ? realloc(text, cap *= 2) : NULL;
            if (!grown) {
                free(text);
                text = NULL;
                break;
            }
            text = grown;
        }
        got = fread(text + n, 1, cap - 1 - n, f);
        n += got;
    }
    fclose(f);
    if (!text) {
        snprintf(msg, size, "%s: out of memory", path);
        return -1;
    }
    text[n] = '\0';
    cJSON *o = cJSON_Parse(text);
    free(text);
    const cJSON *sets = cJSON_GetObjectItemCaseSensitive(o, "set");
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(o, "runs");
    char format[64];
    int ok = o && copy_string(o, "format", format, sizeof format) == 0 &&
             strcmp(format, PLAN_FORMAT) == 0 &&
             copy_string(o, "cwd", plan->cwd, sizeof plan->cwd) == 0 &&
             copy_string(o, "scene", plan->scene, sizeof plan->scene) == 0 &&
             copy_string(o, "scene_fnv1a64", plan->scene_hash, sizeof plan->scene_hash) == 0 &&
             cJSON_IsArray(sets) && cJSON_IsArray(runs);
    if (ok) {
        plan->sets = calloc((size_t)cJSON_GetArraySize(sets) + 1, sizeof *plan->sets);
        plan->labels = calloc((size_t)cJSON_GetArraySize(runs) + 1, sizeof *plan->labels);
        plan->ids = calloc((size_t)cJSON_GetArraySize(runs) + 1, sizeof *plan->ids);
        ok = plan->sets && plan->labels && plan->ids;
    }
    const cJSON *item;
    const cJSON *set_list = ok ? sets : NULL;
    cJSON_ArrayForEach(item, set_list)
    {
        if (!cJSON_IsString(item) || !(plan->sets[plan->n_sets++] = strdup(item->valuestring)))
            ok = 0;
    }
    const cJSON *run_list = ok ? runs : NULL;
    cJSON_ArrayForEach(item, run_list)
    {
        const cJSON *label = cJSON_GetObjectItemCaseSensitive(item, "label");
        int i = plan->n_runs++;
        plan->ids[i] = malloc(PLAN_ID_LEN);
        if (!cJSON_IsString(label) || !plan->ids[i] ||
            copy_string(item, "id", plan->ids[i], PLAN_ID_LEN) != 0 ||
            !(plan->labels[i] = strdup(label->valuestring)))
            ok = 0;
    }
    cJSON_Delete(o);
    if (!ok) {
        snprintf(msg, size, "%s: not a plan of this version of cloth (%s)", path, PLAN_FORMAT);
        plan_free(plan);
        return -1;
    }
    return 0;
}
