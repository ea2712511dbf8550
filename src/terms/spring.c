/* One Hooke spring: energy, gradient, Hessian.  See spring.h for the formulas. */
#include "terms/spring.h"

#include <math.h>

static double length_and_direction(const double xa[3], const double xb[3], double u[3])
{
    double d[3] = {xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]};
    double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int c = 0; c < 3; c++)
        u[c] = l > 0 ? d[c] / l : 0.0;
    return l;
}

double cloth__spring_energy(const double xa[3], const double xb[3], double k, double l0)
{
    double u[3];
    double stretch = length_and_direction(xa, xb, u) - l0;
    return 0.5 * k * stretch * stretch;
}

cloth_status cloth__spring_tension(const double xa[3], const double xb[3], double k,
                                  double l0, double u[3], double *tension)
{
    /* ASSIGNMENT spring_euler: spring_force BEGIN */
    /* Hooke: T = k (l - l0) along u = (xb - xa)/l; u = 0 when l = 0 (no direction) */
    *tension = k * (length_and_direction(xa, xb, u) - l0);
    return CLOTH_OK;
    /* ASSIGNMENT spring_euler: spring_force END */
}

void cloth__spring_gradient(const double xa[3], const double xb[3], double k, double l0,
                            double g[6])
{
    double u[3], tension;
    if (cloth__spring_tension(xa, xb, k, l0, u, &tension) != CLOTH_OK) {
        /* an assignment's stub: NaN says "not written" (the kernels report the status) */
        for (int c = 0; c < 6; c++)
            g[c] = NAN;
        return;
    }
    for (int c = 0; c < 3; c++) {
        g[c] = -tension * u[c];
        g[3 + c] = tension * u[c];
    }
}

void cloth__spring_hessian(const double xa[3], const double xb[3], double k, double l0,
                           int psd, double H[36])
{
    double u[3];
    double l = length_and_direction(xa, xb, u);
    /* transverse stiffness k (1 - l0/l): negative for a compressed spring */
    double transverse = l > 0 ? 1.0 - l0 / l : 0.0;
    if (psd && transverse < 0)
        transverse = 0;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) {
            double uu = u[r] * u[c];
            double K = k * (uu + transverse * ((r == c ? 1.0 : 0.0) - uu));
            H[r * 6 + c] = K;
            H[(r + 3) * 6 + (c + 3)] = K;
            H[r * 6 + (c + 3)] = -K;
            H[(r + 3) * 6 + c] = -K;
        }
    }
}
