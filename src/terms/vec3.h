/* Private: the 3-vector operations the terms' geometry is written in, inline so that each
 * file need not carry its own copy. */
#ifndef CLOTH_VEC3_H
#define CLOTH_VEC3_H

#include <math.h>

static inline double cloth__dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline double cloth__norm(const double a[3])
{
    return sqrt(cloth__dot(a, a));
}

/* out = a - b */
static inline void cloth__sub(const double a[3], const double b[3], double out[3])
{
    for (int c = 0; c < 3; c++)
        out[c] = a[c] - b[c];
}

/* out = a x b (out must not be a or b) */
static inline void cloth__cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

#endif
