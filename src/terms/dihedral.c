/* The dihedral angle of a hinge and its gradient; the formulas are in dihedral.h. */
#include "terms/dihedral.h"

#include <math.h>
#include <string.h>

static void sub(const double a[3], const double b[3], double out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] = a[k] - b[k];
}

static void cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* The edge e, the two unnormalised normals and the angle; 0 when degenerate. */
static int hinge_frame(const double x0[3], const double x1[3], const double x2[3],
                       const double x3[3], double e[3], double n1[3], double n2[3],
                       double *theta)
{
    double a[3], b[3];
    sub(x1, x0, e);
    sub(x0, x2, a);
    sub(x1, x2, b);
    cross(a, b, n1);
    sub(x1, x3, a);
    sub(x0, x3, b);
    cross(a, b, n2);
    double le = sqrt(dot(e, e)), l1 = sqrt(dot(n1, n1)), l2 = sqrt(dot(n2, n2));
    *theta = 0;
    /* a sliver triangle (area ~ 1e-12 of its edge squared) has no usable normal */
    if (le == 0 || !(l1 > 1e-12 * le * le) || !(l2 > 1e-12 * le * le))
        return 0;
    double c[3];
    cross(n1, n2, c);
    /* atan2 of (|n1||n2| sin, |n1||n2| cos): the common factor cancels */
    *theta = atan2(dot(c, e) / le, dot(n1, n2));
    return 1;
}

double cloth__dihedral_angle(const double x0[3], const double x1[3], const double x2[3],
                             const double x3[3])
{
    double e[3], n1[3], n2[3], theta;
    hinge_frame(x0, x1, x2, x3, e, n1, n2, &theta);
    return theta;
}

int cloth__dihedral_gradient(const double x0[3], const double x1[3], const double x2[3],
                             const double x3[3], double *theta, double g[12])
{
    double e[3], n1[3], n2[3];
    memset(g, 0, 12 * sizeof(double));
    if (!hinge_frame(x0, x1, x2, x3, e, n1, n2, theta))
        return 0;
    double le = sqrt(dot(e, e));
    double q1 = 1 / dot(n1, n1), q2 = 1 / dot(n2, n2);
    double d[3];
    /* projections of the opposite vertices on the edge, measured from either end */
    sub(x2, x1, d);
    double a21 = dot(d, e) / le;
    sub(x3, x1, d);
    double a31 = dot(d, e) / le;
    sub(x2, x0, d);
    double a20 = dot(d, e) / le;
    sub(x3, x0, d);
    double a30 = dot(d, e) / le;
    for (int k = 0; k < 3; k++) {
        double u1 = n1[k] * q1, u2 = n2[k] * q2;
        g[0 + k] = -a21 * u1 - a31 * u2;
        g[3 + k] = a20 * u1 + a30 * u2;
        g[6 + k] = -le * u1;
        g[9 + k] = -le * u2;
    }
    return 1;
}
