/* SplitMix64 (random.h): Steele, Lea and Flood's finaliser of a Weyl sequence. */
#include "core/random.h"

uint64_t cloth__splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double cloth__random_unit(uint64_t *state)
{
    return (double)(cloth__splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
}
