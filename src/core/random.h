/* Private: the one random generator of the library, SplitMix64 (G. L. Steele, D. Lea and
 * C. H. Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014).  Integer
 * arithmetic modulo 2^64 only, so a seed gives the same numbers on every machine and
 * compiler.  The wind's turbulence (terms/wind.c) and the layers' jitter (mesh.c) draw
 * from it, each from a state started at run.seed. */
#ifndef CLOTH_RANDOM_H
#define CLOTH_RANDOM_H

#include <stdint.h>

/* The next 64-bit output; advances *state by the golden-ratio increment 0x9e3779b97f4a7c15. */
uint64_t cloth__splitmix64(uint64_t *state);

/* Uniform in [0, 1): the top 53 bits of the next output times 2^-53. */
double cloth__random_unit(uint64_t *state);

#endif
