/* The inertia term; formulas in inertia.h. */
#include "terms/inertia.h"

void cloth__inertia_predict(int n, const double *x, const double *v, const double g[3],
                            double h, const unsigned char *pinned, double *x_tilde)
{
    for (int i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            int k = 3 * i + c;
            x_tilde[k] = pinned[i] ? x[k] : x[k] + h * v[k] + h * h * g[c];
        }
}

double cloth__inertia_energy(int n, const double *x, const double *x_tilde,
                             const double *mass, const unsigned char *pinned, double h)
{
    double e = 0;
    for (int i = 0; i < n; i++) {
        if (pinned[i])
            continue;
        double s = 0;
        for (int c = 0; c < 3; c++) {
            double d = x[3 * i + c] - x_tilde[3 * i + c];
            s += d * d;
        }
        e += 0.5 * mass[i] / (h * h) * s;
    }
    return e;
}
