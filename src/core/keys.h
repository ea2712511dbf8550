/* Private: the table of scene keys.  Every key a scene file may set is one row, with
 * its type, where it lives in cloth_scene, its range and its default text; the parser,
 * the defaults, --set and `cloth list` all read this one table.  Kernel keys live in the
 * kernel's own file (cloth__kernel.keys). */
#ifndef CLOTH_KEYS_H
#define CLOTH_KEYS_H

#include "cloth.h"

typedef enum {
    CLOTH__KEY_DOUBLE,  /* one finite number in [lo, hi] (open ends by flag)             */
    CLOTH__KEY_INT,     /* one whole number in [lo, hi]                                  */
    CLOTH__KEY_ULONG,   /* one non-negative whole number (seeds)                         */
    CLOTH__KEY_VEC3,    /* three finite numbers separated by spaces                      */
    CLOTH__KEY_CHOICE,  /* one of choices[], stored as its index (an int/enum)           */
    CLOTH__KEY_STRING,  /* text stored in a char[size] field                             */
    CLOTH__KEY_CUSTOM   /* parsed by parse()                                             */
} cloth__key_type;

typedef struct cloth__key {
    const char *section;            /* "mesh", "run", ...                                 */
    const char *name;               /* "nx", "dt", ...                                    */
    cloth__key_type type;
    size_t offset;                  /* offsetof(cloth_scene, field)                       */
    size_t size;                    /* CLOTH__KEY_STRING: the field's size                */
    double lo, hi;                  /* range of numbers                                   */
    unsigned char lo_open, hi_open; /* 1: the end itself is not allowed                   */
    const char *const *choices;     /* CLOTH__KEY_CHOICE: NULL-terminated names           */
    /* CLOTH__KEY_CUSTOM: parses value into the scene; on error writes why and returns
     * non-zero. */
    int (*parse)(cloth_scene *scene, const char *value, char *why, size_t why_size);
    const char *def;                /* default, as text a scene file would hold           */
    const char *help;               /* one line for `cloth list` and the README           */
} cloth__key;

/* A key found by section and name: its row and its index into cloth_scene.origin. */
const cloth__key *cloth__key_find(const char *section, const char *name, int *index);

/* "FILE:LINE" (or "--set:ARG") where key index got its value, or the file name alone
 * when it kept its default. */
void cloth__key_where(const cloth_scene *scene, int index, char *buf, size_t size);

/* Index of the key section.name (for cross-field messages), -1 if none. */
int cloth__key_index(const char *section, const char *name);

/* Applies "section.key=value" as if it stood on line `line` of the scene's own file
 * (the sweep declarations do): messages read "FILE:LINE: key: why". */
cloth_status cloth__scene_set_at(cloth_scene *scene, const char *assignment, int line,
                                 cloth_error *err);

#endif
