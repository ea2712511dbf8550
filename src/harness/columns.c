/*
 * The column tables of series.csv and summary.csv, and the kernels' iteration logs
 * (cloth.h, "columns").
 *
 * One row per field of the row's struct: the file's columns first, in file order, then
 * the fields the file does not write.  A field's type comes from the field itself
 * (_Generic), its offset and size from offsetof and sizeof, so an entry cannot disagree
 * with its struct; tests/test_columns.c checks that the entries cover every byte of the
 * struct and that the files' headers are these names.  Adding a field to cloth_frame or
 * cloth_summary means one line here; the writers, the sweep table and the Python wrapper
 * follow.  A kernel's log table is the kernel's own (its ops table's log_columns, in the
 * same form): CLOTH_TABLE_LOG + i reads kernel i's.
 */
#include "cloth.h"
#include "core/column.h"
#include "kernels/registry.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef cloth__column field;

typedef struct table {
    const char *file;           /* the file's name                                    */
    size_t row_size;            /* sizeof the row struct                              */
    int n_columns;              /* the file's columns, in order                       */
    const field *columns;
    int n_others;               /* fields the file does not write                     */
    const field *others;
} table;

#define FIELD_T CLOTH__FIELD_T
#define FIELD CLOTH__FIELD

/* The status is written by name and read by bindings as an int. */
_Static_assert(sizeof(cloth_run_status) == sizeof(int), "cloth_run_status is not an int");

/* ------------------------------------------------------------- series.csv */

#define F(f, present, meaning) FIELD(cloth_frame, f, present, meaning)
static const field series_columns[] = {
    F(frame, NULL, "frame number, 0 = the initial state"),
    F(time, NULL, "simulated time (s)"),
    F(kinetic, NULL, "kinetic energy sum 1/2 m |v|^2 (J)"),
    F(gravity, NULL, "gravitational energy sum -m g.x (J)"),
    F(elastic, NULL, "spring energy sum 1/2 k (l - l0)^2 over all springs (J)"),
    F(barrier, NULL, "barrier energy sum kappa psi (newton), else 0 (J)"),
    F(total, NULL, "kinetic + gravity + elastic + barrier (J)"),
    F(drift, NULL, "(total - total_0) / E_scale"),
    F(stretch_max, NULL, "largest l/l0 - 1 over structural and shear springs"),
    F(stretch_mean, NULL, "mean l/l0 - 1 over structural and shear springs"),
    F(min_gap, "has_gap", "smallest obstacle or self-contact gap (m); empty without one"),
    F(penetrations, NULL, "vertices with a negative obstacle gap"),
    F(intersections, NULL, "edge-triangle crossings of the cloth with itself; -1: positions "
                           "not finite"),
    F(tunnelled, NULL, "point-triangle and edge-edge pairs (no shared vertex) whose linear "
                       "motion since the previous frame reaches separation 0 by the public "
                       "CCD; 0 at frame 0; -1: not finite or too many candidates"),
    F(collision_passes, NULL, "run.self_collision = on: most CCD impulse passes the robust "
                              "collision stage made in one step of the frame (0: none)"),
    F(impact_zones, NULL, "run.self_collision = on: rigid impact zones the stage formed, "
                          "summed over the frame's steps"),
    F(collide_ms, NULL, "run.self_collision = on: wall time of the robust collision stage "
                        "in the frame (ms; part of wall_ms)"),
    F(iterations, NULL, "the kernel's work in the frame (passes, Newton iterations)"),
    F(cond_max, "has_cond", "largest Newton condition number in the frame; empty when off"),
    F(body_depth, NULL, "[avatar]: largest avatar.offset - exact distance to the posed body "
                        "over vertices (m), 0 when all are outside the skin or no avatar"),
    F(stretch_sigma_max, NULL, "largest sigma1 - 1 over triangles, sigma1 the larger singular "
                               "value of the 3x2 deformation gradient (0 without triangles)"),
    F(wall_ms, NULL, "wall time of the frame's kernel work (ms)"),
};
static const field series_others[] = {
    F(body_ms, NULL, "[avatar]: wall time of the body's collision stage in the frame (ms; "
                     "not written: a timing, like wall_ms, but files keep one)"),
    F(has_gap, NULL, "1 when min_gap has a value"),
    F(has_cond, NULL, "1 when cond_max has a value"),
    F(not_converged, NULL, "kernel steps in the frame that did not converge"),
    F(stalled, NULL, "of those, steps that stopped early as stalled (newton)"),
    F(regularized, NULL, "Newton solves in the frame that needed Tikhonov regularisation"),
    F(lin_capped, NULL, "Newton solves in the frame whose PCG stopped at newton.pcg_max_iters"),
    F(cond_method, NULL, "how cond_max was computed: exact-2norm, estimate-1norm; empty if none"),
};
#undef F

/* ------------------------------------------------------------ summary.csv */

#define F(f, meaning) FIELD(cloth_summary, f, NULL, meaning)
static const field summary_columns[] = {
    F(kernel, "the kernel's name"),
    F(vertices, "vertices of the mesh"),
    F(springs, "springs of the mesh"),
    F(dt, "frame step (s)"),
    F(substeps, "kernel steps per frame"),
    F(frames, "frames completed after frame 0"),
    FIELD_T(cloth_summary, status, CLOTH_VALUE_RUN_STATUS, NULL,
            "ok, diverged or not-converged"),
    F(fail_frame, "the frame that diverged, or -1"),
    F(max_abs_drift, "largest |drift|"),
    F(final_drift, "drift of the last frame"),
    F(max_stretch, "largest stretch_max"),
    F(min_gap, "smallest min_gap; empty when no frame had a gap"),
    F(max_penetrations, "largest penetrations"),
    F(max_intersections, "largest intersections"),
    F(max_tunnelled, "largest tunnelled"),
    F(max_collision_passes, "largest collision_passes"),
    F(max_impact_zones, "largest impact_zones"),
    F(total_iterations, "sum of iterations"),
    F(not_converged, "kernel steps that did not converge (stalled ones included)"),
    F(stalled, "kernel steps that stopped early as stalled (newton)"),
    F(regularized, "Newton solves that needed Tikhonov regularisation"),
    F(lin_capped, "Newton solves whose PCG stopped at newton.pcg_max_iters (0 = none)"),
    F(cond_mean, "mean cond_max over frames with one; empty when none"),
    F(cond_max, "largest cond_max; empty when none"),
    F(cond_method, "how cond was computed: exact-2norm, estimate-1norm, mixed; off if never"),
    F(wall_ms, "kernel wall time of all frames (ms)"),
};
static const field summary_others[] = {
    F(message, "why the run stopped early, or empty"),
};
#undef F

#define COUNT(a) ((int)(sizeof a / sizeof a[0]))
static const table tables[] = {
    [CLOTH_TABLE_SERIES] = {"series.csv", sizeof(cloth_frame), COUNT(series_columns),
                            series_columns, COUNT(series_others), series_others},
    [CLOTH_TABLE_SUMMARY] = {"summary.csv", sizeof(cloth_summary), COUNT(summary_columns),
                             summary_columns, COUNT(summary_others), summary_others},
};

/* ----------------------------------------------------------------- access */

/* Table t, or one without a file or fields (no such table, a kernel without a log). */
static table table_of(cloth_table t)
{
    if ((unsigned)t < CLOTH_TABLE_LOG)
        return tables[t];
    const cloth__kernel *k = (int)t >= CLOTH_TABLE_LOG
                                 ? cloth__kernels()->at((int)t - CLOTH_TABLE_LOG) : NULL;
    if (!k || !k->log || !k->log_columns)
        return (table){0};
    return (table){k->log_columns->file, sizeof(cloth_iter), k->log_columns->n_columns,
                   k->log_columns->columns, 0, NULL};
}

/* Field i: the columns first, then the others. */
static const field *field_of(cloth_table t, int i)
{
    table tb = table_of(t);
    if (i < 0)
        return NULL;
    if (i < tb.n_columns)
        return &tb.columns[i];
    return i - tb.n_columns < tb.n_others ? &tb.others[i - tb.n_columns] : NULL;
}

/* The index of a field by name, or -1. */
static int index_of(cloth_table t, const char *name)
{
    for (int i = 0; name && field_of(t, i); i++)
        if (strcmp(field_of(t, i)->name, name) == 0)
            return i;
    return -1;
}

const char *cloth_table_file(cloth_table t)
{
    return table_of(t).file;
}

size_t cloth_table_row_size(cloth_table t)
{
    return table_of(t).row_size;
}

int cloth_table_fields(cloth_table t)
{
    return table_of(t).n_columns + table_of(t).n_others;
}

int cloth_table_columns(cloth_table t)
{
    return table_of(t).n_columns;
}

const char *cloth_field_name(cloth_table t, int i)
{
    return field_of(t, i) ? field_of(t, i)->name : NULL;
}

cloth_value_type cloth_field_type(cloth_table t, int i)
{
    return field_of(t, i) ? field_of(t, i)->type : CLOTH_VALUE_INT;
}

size_t cloth_field_offset(cloth_table t, int i)
{
    return field_of(t, i) ? field_of(t, i)->offset : 0;
}

size_t cloth_field_size(cloth_table t, int i)
{
    return field_of(t, i) ? field_of(t, i)->size : 0;
}

int cloth_field_present(cloth_table t, int i)
{
    return field_of(t, i) ? index_of(t, field_of(t, i)->present) : -1;
}

const char *cloth_field_meaning(cloth_table t, int i)
{
    return field_of(t, i) ? field_of(t, i)->meaning : NULL;
}

/* ---------------------------------------------------------------- writing */

void cloth_table_write_header(FILE *f, cloth_table t)
{
    for (int i = 0; i < cloth_table_columns(t); i++)
        fprintf(f, "%s%s", i ? "," : "", field_of(t, i)->name);
}

#define AT(T, row, offset) (*(const T *)((const char *)(row) + (offset)))

/* One value in its type's format; a missing one (its flag 0, or a NaN) is empty. */
static void write_value(FILE *f, cloth_table t, const field *fd, const void *row)
{
    int flag = index_of(t, fd->present);
    if (flag >= 0 && !AT(int, row, field_of(t, flag)->offset))
        return;
    switch (fd->type) {
    case CLOTH_VALUE_INT: fprintf(f, "%d", AT(int, row, fd->offset)); break;
    case CLOTH_VALUE_LONG: fprintf(f, "%ld", AT(long, row, fd->offset)); break;
    case CLOTH_VALUE_DOUBLE:
        if (!isnan(AT(double, row, fd->offset)))
            fprintf(f, "%.17g", AT(double, row, fd->offset));
        break;
    case CLOTH_VALUE_NAME:
        fprintf(f, "%.*s", (int)fd->size, (const char *)row + fd->offset);
        break;
    case CLOTH_VALUE_RUN_STATUS:
        fputs(cloth_run_status_string(AT(cloth_run_status, row, fd->offset)), f);
        break;
    }
}

void cloth_table_write_row(FILE *f, cloth_table t, const void *row)
{
    for (int i = 0; i < cloth_table_columns(t); i++) {
        if (i)
            fputc(',', f);
        write_value(f, t, field_of(t, i), row);
    }
}
