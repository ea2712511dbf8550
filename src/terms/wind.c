/* Wind turbulence: a sum of a few travelling sine waves whose frequencies, directions and
 * phases are drawn from run.seed.  Smooth in t and x, bounded by 1, and the same on every
 * machine because it uses only integer hashing (core/random.h) and sin(). */
#include "terms/wind.h"
#include "core/random.h"

#include <math.h>
#include <stdint.h>

void cloth__wind_init(cloth__wind *wind, unsigned long seed, double length)
{
    uint64_t state = (uint64_t)seed;
    double scale = length > 0 ? length : 1.0;
    for (int m = 0; m < CLOTH__WIND_MODES; m++) {
        /* gusts of 0.3 .. 2 Hz over wavelengths of 0.5 .. 2 cloth sizes */
        wind->omega[m] = 2 * M_PI * (0.3 + 1.7 * cloth__random_unit(&state));
        double wavelength = scale * (0.5 + 1.5 * cloth__random_unit(&state));
        double theta = 2 * M_PI * cloth__random_unit(&state);
        double z = 2 * cloth__random_unit(&state) - 1;
        double r = sqrt(1 - z * z), kmag = 2 * M_PI / wavelength;
        wind->kvec[m][0] = kmag * r * cos(theta);
        wind->kvec[m][1] = kmag * r * sin(theta);
        wind->kvec[m][2] = kmag * z;
        wind->phase[m] = 2 * M_PI * cloth__random_unit(&state);
    }
}

double cloth__wind_noise(const cloth__wind *wind, double t, const double p[3])
{
    double sum = 0;
    for (int m = 0; m < CLOTH__WIND_MODES; m++)
        sum += sin(wind->omega[m] * t + wind->kvec[m][0] * p[0] + wind->kvec[m][1] * p[1] +
                   wind->kvec[m][2] * p[2] + wind->phase[m]);
    return sum / CLOTH__WIND_MODES;
}
