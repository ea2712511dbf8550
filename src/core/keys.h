/* Private: a scene key's row (scene.h's table, a kernel's own table) and the kernels'
 * tables as the scene layer sees them.  Types only, apart from scene.h so that values.c,
 * which scene.c calls, reads a row without including scene.h back. */
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
    CLOTH__KEY_KERNEL,  /* a kernel's name from the keyset, in a char[size] field           */
    CLOTH__KEY_CUSTOM   /* parsed by parse()                                             */
} cloth__key_type;

typedef struct cloth__key {
    const char *section;            /* "mesh", "run", ...                                 */
    const char *name;               /* "nx", "dt", ...                                    */
    cloth__key_type type;
    size_t offset;                  /* offsetof(owner, field): the owner is cloth_scene
                                     * for the common keys, the kernel's own settings
                                     * struct for a kernel's keys                         */
    size_t size;                    /* CLOTH__KEY_STRING: the field's size                */
    double lo, hi;                  /* range of numbers                                   */
    unsigned char lo_open, hi_open; /* 1: the end itself is not allowed                   */
    const char *const *choices;     /* CLOTH__KEY_CHOICE: NULL-terminated names           */
    /* CLOTH__KEY_CUSTOM: parses value into the owner (as for offset); on error writes
     * why and returns non-zero. */
    int (*parse)(void *owner, const char *value, char *why, size_t why_size);
    const char *def;                /* default, as text a scene file would hold           */
    const char *help;               /* one line for `cloth list` and docs/keys.md         */
} cloth__key;

/* The kernels as the scene layer sees them: each one's name (also its section) and key
 * table.  kernel_keys(i, &name, &n) gives the i-th, or NULL past the end; the i-th
 * kernel's keys live in the scene's settings block kernel[i].  A NULL keyset means no
 * kernels: only the common keys exist. */
typedef struct cloth__keyset {
    const cloth__key *(*kernel_keys)(int i, const char **name, int *n_keys);
} cloth__keyset;

#endif
