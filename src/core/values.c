/* A key's value as text and back (values.h): one small function a key type. */
#include "core/values.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELD(T, scene, key) ((T *)((char *)(scene) + (key)->offset))
#define CFIELD(T, scene, key) ((const T *)((const char *)(scene) + (key)->offset))

int cloth__read_numbers(const char *text, double *out, int count)
{
    const char *p = text;
    for (int i = 0; i < count; i++) {
        char *end;
        errno = 0;
        out[i] = strtod(p, &end);
        if (end == p || errno == ERANGE || !isfinite(out[i]))
            return 1;
        p = end;
    }
    while (isspace((unsigned char)*p))
        p++;
    return *p != '\0';
}

/* ------------------------------------------------------------------ numbers */

static const char *describe_range(const cloth__key *k, char *buf, size_t n)
{
    if (isinf(k->hi) && isinf(k->lo))
        snprintf(buf, n, "a finite number");
    else if (isinf(k->hi))
        snprintf(buf, n, "%s %g", k->lo_open ? ">" : ">=", k->lo);
    else
        snprintf(buf, n, "in %c%g, %g%c", k->lo_open ? '(' : '[', k->lo, k->hi,
                 k->hi_open ? ')' : ']');
    return buf;
}

/* 1 when v lies in the key's range; else writes why. */
static int in_range(const cloth__key *k, double v, const char *value, char *why, size_t n)
{
    int ok = (k->lo_open ? v > k->lo : v >= k->lo) && (k->hi_open ? v < k->hi : v <= k->hi);
    if (!ok) {
        char range[96];
        snprintf(why, n, "%s is out of range: must be %s", value,
                 describe_range(k, range, sizeof range));
    }
    return ok;
}

static int set_double(void *s, const cloth__key *k, const char *value, char *why,
                      size_t n)
{
    double v;
    if (cloth__read_numbers(value, &v, 1)) {
        snprintf(why, n, "expected one finite number, got '%s'", value);
        return 1;
    }
    if (!in_range(k, v, value, why, n))
        return 1;
    *FIELD(double, s, k) = v;
    return 0;
}

/* CLOTH__KEY_INT (in the key's range) and CLOTH__KEY_ULONG (>= 0). */
static int set_whole(void *s, const cloth__key *k, const char *value, char *why,
                     size_t n)
{
    char *end;
    errno = 0;
    long long v = strtoll(value, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    if (end == value || *end || errno == ERANGE) {
        snprintf(why, n, "expected a whole number, got '%s'", value);
        return 1;
    }
    if (k->type == CLOTH__KEY_ULONG) {
        if (v < 0) {
            snprintf(why, n, "%s is out of range: must be >= 0", value);
            return 1;
        }
        *FIELD(unsigned long, s, k) = (unsigned long)v;
        return 0;
    }
    if (!in_range(k, (double)v, value, why, n))
        return 1;
    *FIELD(int, s, k) = (int)v;
    return 0;
}

static int set_vec3(void *s, const cloth__key *k, const char *value, char *why,
                    size_t n)
{
    double v[3];
    if (cloth__read_numbers(value, v, 3)) {
        snprintf(why, n, "expected three finite numbers, got '%s'", value);
        return 1;
    }
    memcpy(FIELD(double, s, k), v, sizeof v);
    return 0;
}

/* ------------------------------------------------------------------ names */

static int set_choice(void *s, const cloth__key *k, const char *value, char *why,
                      size_t n)
{
    char names[160] = "";
    for (int c = 0; k->choices[c]; c++) {
        if (strcmp(value, k->choices[c]) == 0) {
            *FIELD(int, s, k) = c;
            return 0;
        }
        strncat(names, c ? ", " : "", sizeof names - strlen(names) - 1);
        strncat(names, k->choices[c], sizeof names - strlen(names) - 1);
    }
    snprintf(why, n, "'%s' is not one of: %s", value, names);
    return 1;
}

static int set_text(void *s, const cloth__key *k, const char *value, char *why,
                    size_t n)
{
    if (strlen(value) >= k->size) {
        snprintf(why, n, "longer than %zu characters", k->size - 1);
        return 1;
    }
    memcpy(FIELD(char, s, k), value, strlen(value) + 1);
    return 0;
}

/* A kernel's name: one the keyset has (their sections are their names). */
static int set_kernel(const cloth__keyset *ks, void *s, const cloth__key *k,
                      const char *value, char *why, size_t n)
{
    char names[256] = "";
    const char *name;
    int count;
    for (int i = 0; ks && ks->kernel_keys(i, &name, &count); i++) {
        if (strcmp(name, value) == 0 && strlen(value) < k->size)
            return set_text(s, k, value, why, n);
        strncat(names, i ? ", " : "", sizeof names - strlen(names) - 1);
        strncat(names, name, sizeof names - strlen(names) - 1);
    }
    snprintf(why, n, "unknown kernel '%s' (one of: %s)", value, names);
    return 1;
}

/* ------------------------------------------------------------------ both ways */

int cloth__value_set(const cloth__keyset *ks, void *s, const cloth__key *k,
                     const char *value, char *why, size_t n)
{
    if (*value == '\0' && k->type != CLOTH__KEY_STRING) {
        snprintf(why, n, "missing value");
        return 1;
    }
    switch (k->type) {
    case CLOTH__KEY_DOUBLE: return set_double(s, k, value, why, n);
    case CLOTH__KEY_INT:
    case CLOTH__KEY_ULONG: return set_whole(s, k, value, why, n);
    case CLOTH__KEY_VEC3: return set_vec3(s, k, value, why, n);
    case CLOTH__KEY_CHOICE: return set_choice(s, k, value, why, n);
    case CLOTH__KEY_STRING: return set_text(s, k, value, why, n);
    case CLOTH__KEY_KERNEL: return set_kernel(ks, s, k, value, why, n);
    case CLOTH__KEY_CUSTOM: return k->parse(s, value, why, n);
    }
    snprintf(why, n, "unsupported key type");
    return 1;
}

int cloth__value_get(const cloth__key *k, const void *s, char *value, size_t size)
{
    switch (k->type) {
    case CLOTH__KEY_DOUBLE:
        snprintf(value, size, "%.17g", *CFIELD(double, s, k));
        return 0;
    case CLOTH__KEY_INT:
        snprintf(value, size, "%d", *CFIELD(int, s, k));
        return 0;
    case CLOTH__KEY_ULONG:
        snprintf(value, size, "%lu", *CFIELD(unsigned long, s, k));
        return 0;
    case CLOTH__KEY_VEC3: {
        const double *v = CFIELD(double, s, k);
        snprintf(value, size, "%.17g %.17g %.17g", v[0], v[1], v[2]);
        return 0;
    }
    case CLOTH__KEY_CHOICE:
        snprintf(value, size, "%s", k->choices[*CFIELD(int, s, k)]);
        return 0;
    case CLOTH__KEY_STRING:
    case CLOTH__KEY_KERNEL:
        snprintf(value, size, "%s", CFIELD(char, s, k));
        return 0;
    case CLOTH__KEY_CUSTOM:
        break;
    }
    return 1;
}
