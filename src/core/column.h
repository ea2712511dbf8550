/* Private: a column of a file whose rows are structs (series.csv, summary.csv, a kernel's
 * iteration log): which field of the row struct it writes, and how.  Types only, so that
 * the harness's tables (harness/columns.c) and a kernel's log columns (its ops table) are
 * written in the same form. */
#ifndef CLOTH_COLUMN_H
#define CLOTH_COLUMN_H

#include "cloth.h"

#include <stddef.h>

typedef struct cloth__column {
    const char *name;           /* the column's header (the struct field's name)      */
    cloth_value_type type;
    size_t offset;              /* offsetof(row struct, field)                        */
    size_t size;                /* sizeof the field                                   */
    const char *present;        /* the int flag saying it has a value, or NULL        */
    const char *meaning;        /* one line for a reader                              */
} cloth__column;

/* A value type from the field's C type; a run status is an enum, named by hand. */
#define CLOTH__TYPE_OF(S, f)                                                              \
    _Generic(((S *)0)->f, int: CLOTH_VALUE_INT, long: CLOTH_VALUE_LONG,                   \
             double: CLOTH_VALUE_DOUBLE, char *: CLOTH_VALUE_NAME)
#define CLOTH__FIELD_T(S, f, type, present, meaning)                                      \
    {#f, type, offsetof(S, f), sizeof(((S *)0)->f), present, meaning}
#define CLOTH__FIELD(S, f, present, meaning)                                              \
    CLOTH__FIELD_T(S, f, CLOTH__TYPE_OF(S, f), present, meaning)

/* A kernel's log columns (cloth_iter): a generic field, one of the kernel's numbers
 * (value[slot], written "%.17g", NaN empty) or one of its words (word[slot]). */
#define CLOTH__LOG_FIELD(f, meaning) CLOTH__FIELD(cloth_iter, f, NULL, meaning)
#define CLOTH__LOG_VALUE(name, slot, meaning)                                             \
    {name, CLOTH_VALUE_DOUBLE, offsetof(cloth_iter, value) + (slot) * sizeof(double),     \
     sizeof(double), NULL, meaning}
#define CLOTH__LOG_WORD(name, slot, meaning)                                              \
    {name, CLOTH_VALUE_NAME, offsetof(cloth_iter, word) + (slot) * CLOTH_LOG_WORD_MAX,    \
     CLOTH_LOG_WORD_MAX, NULL, meaning}

#endif
