/* The column tables (harness/columns.c): each covers its struct, the files' headers are
 * its names in its order, and a row writes its values in their formats. */
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
    [CLOTH_TABLE_NEWTON] = "frame,iter,energy,grad_norm,step_norm,alpha,cond,kappa_max,"
                           "active_contacts,regularized,lin_iters,cond_method,stop",
    [CLOTH_TABLE_SUMMARY] = "kernel,vertices,springs,dt,substeps,frames,status,fail_frame,"
                            "max_abs_drift,final_drift,max_stretch,min_gap,max_penetrations,"
                            "max_intersections,max_tunnelled,max_collision_passes,max_impact_zones,"
                            "total_iterations,not_converged,stalled,"
                            "regularized,"
                            "lin_capped,cond_mean,cond_max,cond_method,wall_ms",
};
static const char *const FILES[] = {"series.csv", "newton.csv", "summary.csv"};

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
    ck_assert_uint_eq(cloth_table_row_size(CLOTH_TABLE_NEWTON), sizeof(cloth_newton_iter));
    ck_assert_uint_eq(cloth_table_row_size(CLOTH_TABLE_SUMMARY), sizeof(cloth_summary));
    ck_assert_uint_eq(cloth_table_row_size((cloth_table)3), 0);
    ck_assert_ptr_null(cloth_field_name((cloth_table)3, 0));
    ck_assert_ptr_null(cloth_field_name(t, -1));
}
END_TEST

/* A newton run of a small drape writes all three files: each header is the table's
 * column names in order, and the contract above. */
START_TEST(the_headers_a_run_writes_are_the_tables)
{
    const char *dir = tu_temp_dir(5);
    char cmd[512], out[4096];
    snprintf(cmd, sizeof cmd,
             "run ../experiments/drape.ini --set mesh.nx=4 --set mesh.ny=4 "
             "--set run.frames=2 --out %s", dir);
    ck_assert_msg(tu_run_cli(cmd, out, sizeof out) == 0, "%s", out);
    for (int t = 0; t < 3; t++) {
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
}
END_TEST

Suite *suite_columns(void)
{
    Suite *s = suite_create("columns");
    TCase *tc = tcase_create("tables");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, every_table_covers_its_struct, 0, 3);
    tcase_add_loop_test(tc, names_are_unique_and_flags_are_ints, 0, 3);
    tcase_add_test(tc, the_headers_a_run_writes_are_the_tables);
    tcase_add_test(tc, a_row_writes_each_value_in_its_format);
    suite_add_tcase(s, tc);
    return s;
}
