/* The log and cubic barriers and their first two derivatives; formulas in barrier.h. */
#include "terms/barrier.h"

#include <math.h>

static double log_barrier(double g, double dhat, double *d1, double *d2)
{
    if (g <= 0) {
        *d1 = -INFINITY;
        *d2 = INFINITY;
        return INFINITY;
    }
    double r = dhat / g;           /* g^/g >= 1 inside the activation band */
    double ln = log(g / dhat);     /* <= 0 inside the band                 */
    double s = dhat - g;
    *d1 = s * (2 * ln - r + 1);
    *d2 = (r + 2) * r - 2 * ln - 3;
    return -s * s * ln;
}

/* psi = (2/(3 g^)) (g^ - g)^3 below g^, 0 from g^ on (barrier.h) */
static double cubic_barrier(double g, double dhat, double *d1, double *d2)
{
    /* ASSIGNMENT newton_linesearch: cubic_barrier BEGIN */
    if (g >= dhat) {
        *d1 = *d2 = 0;
        return 0;
    }
    double s = dhat - g;
    *d1 = -(2 / dhat) * s * s;
    *d2 = 4 * s / dhat;
    return (2 / (3 * dhat)) * s * s * s;
    /* ASSIGNMENT newton_linesearch: cubic_barrier END */
}

double cloth__barrier(cloth__barrier_kind kind, double g, double dhat, double *d1, double *d2)
{
    double first = 0, second = 0, value = 0;
    if (kind == CLOTH__BARRIER_LOG && g < dhat)
        value = log_barrier(g, dhat, &first, &second);
    else if (kind == CLOTH__BARRIER_CUBIC)
        value = cubic_barrier(g, dhat, &first, &second);
    if (d1)
        *d1 = first;
    if (d2)
        *d2 = second;
    return value;
}

const char *cloth__barrier_name(cloth__barrier_kind kind)
{
    switch (kind) {
    case CLOTH__BARRIER_LOG: return "log";
    case CLOTH__BARRIER_CUBIC: return "cubic";
    case CLOTH__BARRIER_NONE: return "none";
    }
    return "?";
}
