/* Private: deterministic, smooth wind turbulence n(t, x) in [-1, 1], seeded by run.seed. */
#ifndef CLOTH_WIND_H
#define CLOTH_WIND_H

#define CLOTH__WIND_MODES 4

typedef struct cloth__wind {
    double omega[CLOTH__WIND_MODES];     /* angular frequency of each mode (1/s)      */
    double kvec[CLOTH__WIND_MODES][3];   /* wave vector of each mode (1/m)            */
    double phase[CLOTH__WIND_MODES];     /* phase of each mode                        */
} cloth__wind;

/* Draws the modes from seed; length sets the spatial scale (the cloth's size). */
void cloth__wind_init(cloth__wind *wind, unsigned long seed, double length);

/* n(t, p) = (1/M) sum_m sin(omega_m t + k_m . p + phi_m), in [-1, 1]. */
double cloth__wind_noise(const cloth__wind *wind, double t, const double p[3]);

#endif
