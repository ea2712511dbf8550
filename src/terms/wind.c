/* Wind turbulence: a sum of a few travelling sine waves whose frequencies, directions and
 * phases are drawn from run.seed.  Smooth in t and x, bounded by 1, and the same on every
 * machine because it uses only integer hashing and sin(). */
#include "terms/wind.h"

#include <math.h>
#include <stdint.h>

/* splitmix64: a small, well-mixed integer hash used as a generator */
static uint64_t next_u64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* uniform in [0, 1) from the top 53 bits */
static double next_unit(uint64_t *state)
{
    return (double)(next_u64(state) >> 11) * (1.0 / 9007199254740992.0);
}

void cloth__wind_init(cloth__wind *wind, unsigned long seed, double length)
{
    uint64_t state = (uint64_t)seed;
    double scale = length > 0 ? length : 1.0;
    for (int m = 0; m < CLOTH__WIND_MODES; m++) {
        /* gusts of 0.3 .. 2 Hz over wavelengths of 0.5 .. 2 cloth sizes */
        wind->omega[m] = 2 * M_PI * (0.3 + 1.7 * next_unit(&state));
        double wavelength = scale * (0.5 + 1.5 * next_unit(&state));
        double theta = 2 * M_PI * next_unit(&state), z = 2 * next_unit(&state) - 1;
        double r = sqrt(1 - z * z), kmag = 2 * M_PI / wavelength;
        wind->kvec[m][0] = kmag * r * cos(theta);
        wind->kvec[m][1] = kmag * r * sin(theta);
        wind->kvec[m][2] = kmag * z;
        wind->phase[m] = 2 * M_PI * next_unit(&state);
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
