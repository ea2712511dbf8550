/* Private: a key's value as text and back (values.c): the conversion scene files, --set,
 * the defaults and cloth_scene_get share, with the range and type checks of the key's
 * row (keys.h). */
#ifndef CLOTH_VALUES_H
#define CLOTH_VALUES_H

#include "core/keys.h"

/* Sets key k in its owner (the scene for a common key, the kernel's settings block for a
 * kernel's key: scene.h) from its text; 0 on success, else why (n bytes) says what is
 * wrong ("expected one finite number, got 'x'", "5 is out of range: must be in [0, 1]"...).
 * A kernel name is checked against the kernels of ks. */
int cloth__value_set(const cloth__keyset *ks, void *owner, const cloth__key *k,
                     const char *value, char *why, size_t n);

/* Writes key k of its owner as a scene file would hold it ("%.17g" for numbers); non-zero
 * for a key whose value cannot be written back (a custom one). */
int cloth__value_get(const cloth__key *k, const void *owner, char *value, size_t size);

/* Reads exactly count finite numbers separated by white space; 0 on success. */
int cloth__read_numbers(const char *text, double *out, int count);

#endif
