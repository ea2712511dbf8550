/* The column tables (harness/columns.c): each covers its struct, the files' headers are
 * its names in its order, and a row writes its values in their formats.  The kernels'
 * iteration logs: every log has the generic fields of cloth_iter, by name, and its own
 * columns inside the row's value and word slots; a kernel without a log has no table and
 * a run writes no file for it. */
#include "cloth.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The columns are a contract with every reader of the files (plots, notebooks, scripts):
 * these names in this order. */
static const char *const HEADERS[] = {
    [CLOTH_TABLE_SERIES] = "frame,time,kinetic,gravity,elastic,barrier,total,drift,"
                           "stretch_max,stretch_mean,min_gap,penetrations,intersections,"
                           "tunnelled,collision_passes,impact_zones,collide_ms,"
                           "iterations,cond_max,body_depth,stretch_sigma_max,wall_ms",
    [CLOTH_TABLE_SUMMARY] = "kernel,vertices,springs,dt,substeps,frames,status,fail_frame,"
                            "max_abs_drift,final_drift,max_stretch,min_gap,max_penetrations,"
                            "max_intersections,max_tunnelled,max_collision_passes,max_impact_zones,"
                            "total_iterations,not_converged,stalled,"
                            "regularized,"
                            "lin_capped,cond_mean,cond_max,cond_method,wall_ms",
};
static const char *const FILES[] = {"series.csv", "summary.csv"};
#define N_TABLES 2 /* the tables before CLOTH_TABLE_LOG */

/* newton.csv's columns: the plots (pcg_iters.gp), the notebooks and plots/data read them
 * by these names. */
static const char NEWTON_HEADER[] = "frame,iter,energy,grad_norm,step_norm,alpha,cond,"
                                    "kappa_max,active_contacts,regularized,lin_iters,"
                                    "cond_method,alpha_by,alpha_contact,alpha_strain,"
                                    "alpha_armijo,alpha_max_dx,bound_contact,bound_strain,"
                                    "stop";

/* The generic fields every log has, where cloth_iter keeps them. */
static const struct {
    const char *name;
    size_t offset;
} GENERIC[] = {
    {"frame", offsetof(cloth_iter, frame)},       {"iter", offsetof(cloth_iter, iter)},
    {"energy", offsetof(cloth_iter, energy)},     {"grad_norm", offsetof(cloth_iter, grad_norm)},
    {"step_norm", offsetof(cloth_iter, step_norm)}, {"lin_iters", offsetof(cloth_iter, lin_iters)},
    {"stop", offsetof(cloth_iter, stop)},
};

/* The log table of the kernel named name. */
static cloth_table log_of(const char *name)
{
    ck_assert_int_ge(cloth_kernel_find(name), 0);
    return (cloth_table)(CLOTH_TABLE_LOG + cloth_kernel_find(name));
}

/* A table's header as cloth_table_write_header writes it. */
static char *header_of(cloth_table t, char *buf, size_t size)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    cloth_table_write_header(f, t);
    rewind(f);
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* The size and alignment a value type has in C. */
static size_t type_align(cloth_value_type type)
{
    switch (type) {
    case CLOTH_VALUE_INT: return alignof(int);
    case CLOTH_VALUE_LONG: return alignof(long);
    case CLOTH_VALUE_DOUBLE: return alignof(double);
    case CLOTH_VALUE_NAME: return 1;
    case CLOTH_VALUE_RUN_STATUS: return alignof(cloth_run_status);
    }
    return 0;
}

static size_t type_size(cloth_value_type type, size_t name_size)
{
    switch (type) {
    case CLOTH_VALUE_INT: return sizeof(int);
    case CLOTH_VALUE_LONG: return sizeof(long);
    case CLOTH_VALUE_DOUBLE: return sizeof(double);
    case CLOTH_VALUE_NAME: return name_size;
    case CLOTH_VALUE_RUN_STATUS: return sizeof(cloth_run_status);
    }
    return 0;
}

static size_t align_up(size_t n, size_t a)
{
    return (n + a - 1) / a * a;
}

/* Laid out in offset order, the fields leave no gap but alignment padding and end where
 * the struct ends: a field added to the struct and not to its table fails here. */
START_TEST(every_table_covers_its_struct)
{
    cloth_table t = (cloth_table)_i;
    int n = cloth_table_fields(t);
    ck_assert_int_gt(n, 0);
    ck_assert_int_le(cloth_table_columns(t), n);
    ck_assert_ptr_null(cloth_field_name(t, n));
    int done[64] = {0};
    ck_assert_int_le(n, 64);
    size_t end = 0, max_align = 1;
    for (int k = 0; k < n; k++) {
        int next = -1; /* the field with the smallest offset not yet taken */
        for (int i = 0; i < n; i++)
            if (!done[i] && (next < 0 || cloth_field_offset(t, i) < cloth_field_offset(t, next)))
                next = i;
        done[next] = 1;
        cloth_value_type type = cloth_field_type(t, next);
        size_t size = cloth_field_size(t, next), align = type_align(type);
        ck_assert_msg(size == type_size(type, size), "%s: size %zu for its type",
                      cloth_field_name(t, next), size);
        ck_assert_msg(cloth_field_offset(t, next) == align_up(end, align),
                      "%s at %zu: a gap or an overlap after byte %zu", cloth_field_name(t, next),
                      cloth_field_offset(t, next), end);
        end = cloth_field_offset(t, next) + size;
        if (align > max_align)
            max_align = align;
    }
    ck_assert_uint_eq(cloth_table_row_size(t), align_up(end, max_align));
}
END_TEST

/* Names are unique, each has a meaning, and a presence flag is an int the file does not
 * write. */
START_TEST(names_are_unique_and_flags_are_ints)
{
    cloth_table t = (cloth_table)_i;
    for (int i = 0; i < cloth_table_fields(t); i++) {
        ck_assert(cloth_field_meaning(t, i) && *cloth_field_meaning(t, i));
        for (int j = 0; j < i; j++)
            ck_assert_str_ne(cloth_field_name(t, i), cloth_field_name(t, j));
        int p = cloth_field_present(t, i);
        if (p >= 0) {
            ck_assert_int_eq(cloth_field_type(t, p), CLOTH_VALUE_INT);
            ck_assert_int_ge(p, cloth_table_columns(t));
            ck_assert_int_lt(i, cloth_table_columns(t));
        }
    }
    ck_assert_uint_eq(cloth_table_row_size(CLOTH_TABLE_SERIES), sizeof(cloth_frame));
    ck_assert_uint_eq(cloth_table_row_size(CLOTH_TABLE_SUMMARY), sizeof(cloth_summary));
    cloth_table past = (cloth_table)(CLOTH_TABLE_LOG + cloth_kernel_count());
    ck_assert_uint_eq(cloth_table_row_size(past), 0);
    ck_assert_ptr_null(cloth_field_name(past, 0));
    ck_assert_ptr_null(cloth_table_file(past));
    ck_assert_ptr_null(cloth_field_name(t, -1));
}
END_TEST

/* A run of the drape at 4 x 4 for 2 frames with the overrides sets, into temp dir slot. */
static const char *small_drape(int slot, const char *sets)
{
    const char *dir = tu_temp_dir(slot);
    char cmd[512], out[4096];
    snprintf(cmd, sizeof cmd,
             "run ../experiments/drape.ini --set mesh.nx=4 --set mesh.ny=4 --set run.frames=2 "
             "%s --out %s", sets, dir);
    ck_assert_msg(tu_run_cli(cmd, out, sizeof out) == 0, "%s", out);
    return dir;
}

/* A newton run of a small drape writes series.csv, summary.csv and its log newton.csv:
 * each header is the table's column names in order, and the contract above. */
START_TEST(the_headers_a_run_writes_are_the_tables)
{
    const char *dir = small_drape(5, "");
    for (int t = 0; t < N_TABLES; t++) {
        char table[1024] = "";
        for (int i = 0; i < cloth_table_columns((cloth_table)t); i++)
            snprintf(table + strlen(table), sizeof table - strlen(table), "%s%s", i ? "," : "",
                     cloth_field_name((cloth_table)t, i));
        ck_assert_str_eq(table, HEADERS[t]);
        char *text = tu_slurp(dir, FILES[t]);
        ck_assert_msg(text != NULL, "%s missing", FILES[t]);
        ck_assert_msg(strncmp(text, table, strlen(table)) == 0 && text[strlen(table)] == '\n',
                      "%s: header differs from the table", FILES[t]);
        free(text);
    }
    char header[1024];
    ck_assert_str_eq(cloth_table_file(log_of("newton")), "newton.csv");
    ck_assert_str_eq(header_of(log_of("newton"), header, sizeof header), NEWTON_HEADER);
    char *text = tu_slurp(dir, "newton.csv");
    ck_assert_msg(text && strncmp(text, NEWTON_HEADER, strlen(NEWTON_HEADER)) == 0 &&
                      text[strlen(NEWTON_HEADER)] == '\n', "newton.csv: %s", text);
    free(text);
}
END_TEST

/* Kernel _i's log: either none (no file, no columns) or a table over cloth_iter whose
 * columns hold every generic field once, at cloth_iter's offset under its own name, and
 * whose other columns are numbers in value[] or words in word[], no two sharing a byte. */
START_TEST(every_log_holds_the_generic_fields_by_name)
{
    cloth_table t = (cloth_table)(CLOTH_TABLE_LOG + _i);
    int n = cloth_table_columns(t);
    if (n == 0) {
        ck_assert_ptr_null(cloth_table_file(t));
        ck_assert_int_eq(cloth_table_fields(t), 0);
        ck_assert_uint_eq(cloth_table_row_size(t), 0);
        return;
    }
    const char *file = cloth_table_file(t);
    ck_assert_ptr_nonnull(file);
    ck_assert(strcmp(file, "series.csv") != 0 && strcmp(file, "summary.csv") != 0);
    ck_assert_uint_eq(cloth_table_row_size(t), sizeof(cloth_iter));
    ck_assert_int_eq(cloth_table_fields(t), n);
    for (size_t g = 0; g < sizeof GENERIC / sizeof GENERIC[0]; g++) {
        int found = 0;
        for (int i = 0; i < n; i++)
            if (strcmp(cloth_field_name(t, i), GENERIC[g].name) == 0) {
                ck_assert_uint_eq(cloth_field_offset(t, i), GENERIC[g].offset);
                found++;
            }
        ck_assert_msg(found == 1, "%s: %s %d times", cloth_kernel_name(_i), GENERIC[g].name,
                      found);
    }
    size_t values = offsetof(cloth_iter, value), words = offsetof(cloth_iter, word);
    for (int i = 0; i < n; i++) {
        size_t at = cloth_field_offset(t, i), size = cloth_field_size(t, i);
        ck_assert(at + size <= sizeof(cloth_iter));
        if (at >= values && at < values + sizeof((cloth_iter *)0)->value)
            ck_assert(cloth_field_type(t, i) == CLOTH_VALUE_DOUBLE && size == sizeof(double) &&
                      (at - values) % sizeof(double) == 0);
        if (at >= words)
            ck_assert(cloth_field_type(t, i) == CLOTH_VALUE_NAME &&
                      size == CLOTH_LOG_WORD_MAX && (at - words) % CLOTH_LOG_WORD_MAX == 0);
        for (int j = 0; j < i; j++) {
            size_t b = cloth_field_offset(t, j), e = b + cloth_field_size(t, j);
            ck_assert_msg(at + size <= b || at >= e, "%s: %s and %s share bytes",
                          cloth_kernel_name(_i), cloth_field_name(t, i), cloth_field_name(t, j));
        }
    }
}
END_TEST

/* Kernel _i logs rows exactly when its table names log columns: a frame of the small
 * drape (at the kernel's own frame_substeps) gives rows for a kernel with a log table and
 * none for one without. */
START_TEST(a_kernel_logs_rows_exactly_when_it_has_a_log_table)
{
    cloth_kernel_facts facts;
    ck_assert_int_eq(cloth_kernel_info(_i, &facts), CLOTH_OK);
    char text[512];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 4\nny = 4\nspacing = 0.1\n[run]\nkernel = %s\nsubsteps = %d\n",
             facts.name, facts.frame_substeps);
    cloth_sim *sim = tu_sim(text, "log.ini");
    tu_frames(sim, 1);
    const cloth_iter *rows;
    int n = cloth_sim_log(sim, &rows);
    cloth_table t = (cloth_table)(CLOTH_TABLE_LOG + _i);
    ck_assert_msg((n > 0) == (cloth_table_columns(t) > 0), "%s: %d rows, %d log columns",
                  facts.name, n, cloth_table_columns(t));
    cloth_sim_destroy(sim);
}
END_TEST

/* A run writes the log file its kernel's table names, and nothing more: pd writes pd.csv
 * with pd.iterations rows a frame (one substep), explicit (no log) only series.csv and
 * summary.csv besides final.obj. */
START_TEST(a_run_writes_the_log_its_kernel_names)
{
    const char *dir =
        small_drape(6, "--set run.kernel=pd --set pd.iterations=5 --set run.substeps=1");
    ck_assert_str_eq(cloth_table_file(log_of("pd")), "pd.csv");
    char header[1024], *text = tu_slurp(dir, "pd.csv");
    ck_assert_ptr_nonnull(text);
    header_of(log_of("pd"), header, sizeof header);
    ck_assert(strncmp(text, header, strlen(header)) == 0 && text[strlen(header)] == '\n');
    int lines = 0;
    for (const char *c = text; *c; c++)
        lines += *c == '\n';
    ck_assert_int_eq(lines, 1 + 2 * 5); /* the header, 5 iterations in each of 2 frames */
    free(text);
    ck_assert_ptr_null(tu_slurp(dir, "newton.csv"));

    dir = small_drape(7, "--set run.kernel=explicit --set run.substeps=20");
    ck_assert_int_eq(cloth_table_columns(log_of("explicit")), 0);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ls %s | grep -v -x -e series.csv -e summary.csv -e final.obj"
             " | grep -c .", dir);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    int others = -1;
    ck_assert_int_eq(fscanf(p, "%d", &others), 1);
    pclose(p);
    ck_assert_int_eq(others, 0);
}
END_TEST

/* A row: integers as integers, doubles round-tripping, a value whose flag is 0 and a NaN
 * as empty fields, the status by name. */
static char *written_row(cloth_table t, const void *row, char *buf, size_t size)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    cloth_table_write_row(f, t, row);
    rewind(f);
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

START_TEST(a_row_writes_each_value_in_its_format)
{
    char buf[1024];
    cloth_frame fr = {.frame = 3, .time = 0.05, .kinetic = 1, .gravity = 2, .elastic = 3,
                      .total = 6, .drift = 0.1, .stretch_max = 0.25, .stretch_mean = 0.125,
                      .min_gap = 0.5, .intersections = 4, .tunnelled = 5, .collision_passes = 2,
                      .impact_zones = 6, .collide_ms = 0.75, .iterations = 7,
                      .cond_max = 2.5, .stretch_sigma_max = 0.375, .wall_ms = 1.5};
    ck_assert_str_eq(written_row(CLOTH_TABLE_SERIES, &fr, buf, sizeof buf),
                     "3,0.050000000000000003,1,2,3,0,6,0.10000000000000001,0.25,0.125,,0,4,5,2,6,"
                     "0.75,7,,0,0.375,1.5");
    fr.has_gap = fr.has_cond = 1;
    ck_assert(strstr(written_row(CLOTH_TABLE_SERIES, &fr, buf, sizeof buf),
                     ",0.5,0,4,5,2,6,0.75,7,2.5,0,"));
    cloth_summary s = {.kernel = "pbd", .vertices = 12, .springs = 39, .dt = 0.01,
                       .substeps = 2, .status = CLOTH_RUN_NOT_CONVERGED, .frames = 5,
                       .fail_frame = -1, .min_gap = NAN, .total_iterations = 10,
                       .not_converged = 1, .cond_mean = NAN, .cond_max = NAN,
                       .cond_method = "off", .wall_ms = 2, .max_collision_passes = 3,
                       .max_impact_zones = 4};
    ck_assert_str_eq(written_row(CLOTH_TABLE_SUMMARY, &s, buf, sizeof buf),
                     "pbd,12,39,0.01,2,5,not-converged,-1,0,0,0,,0,0,0,3,4,10,1,0,0,0,,,off,2");
    /* a log row, its own columns set by name: a count as an integer, a NaN empty */
    cloth_iter it = {.frame = 2, .iter = 5, .energy = 0.5, .grad_norm = 0.25,
                     .step_norm = 0.125, .lin_iters = 3, .stop = "converged"};
    cloth_table t = log_of("newton");
    const struct { const char *name; double v; } own[] = {
        {"alpha", 0.75}, {"cond", NAN}, {"kappa_max", 1e3}, {"active_contacts", 4},
        {"regularized", 1}, {"alpha_contact", 0.5}, {"alpha_strain", 1},
        {"alpha_armijo", 0.25}, {"alpha_max_dx", 1}, {"bound_contact", 2},
        {"bound_strain", 0}};
    for (size_t k = 0; k < sizeof own / sizeof own[0]; k++)
        for (int i = 0; i < cloth_table_columns(t); i++)
            if (strcmp(cloth_field_name(t, i), own[k].name) == 0)
                memcpy((char *)&it + cloth_field_offset(t, i), &own[k].v, sizeof(double));
    for (int i = 0; i < cloth_table_columns(t); i++)
        if (strcmp(cloth_field_name(t, i), "cond_method") == 0)
            memcpy((char *)&it + cloth_field_offset(t, i), "off", 4);
        else if (strcmp(cloth_field_name(t, i), "alpha_by") == 0)
            memcpy((char *)&it + cloth_field_offset(t, i), "armijo", 7);
    ck_assert_str_eq(written_row(t, &it, buf, sizeof buf),
                     "2,5,0.5,0.25,0.125,0.75,,1000,4,1,3,off,armijo,0.5,1,0.25,1,2,0,converged");
}
END_TEST

Suite *suite_columns(void)
{
    Suite *s = suite_create("columns");
    TCase *tc = tcase_create("tables");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, every_table_covers_its_struct, 0, N_TABLES);
    tcase_add_loop_test(tc, names_are_unique_and_flags_are_ints, 0,
                        CLOTH_TABLE_LOG + cloth_kernel_count());
    tcase_add_loop_test(tc, every_log_holds_the_generic_fields_by_name, 0, cloth_kernel_count());
    tcase_add_test(tc, a_run_writes_the_log_its_kernel_names);
    tcase_add_loop_test(tc, a_kernel_logs_rows_exactly_when_it_has_a_log_table, 0,
                        cloth_kernel_count());
    tcase_add_test(tc, the_headers_a_run_writes_are_the_tables);
    tcase_add_test(tc, a_row_writes_each_value_in_its_format);
    suite_add_tcase(s, tc);
    return s;
}
