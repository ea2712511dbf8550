/* Private: what the registry, the tests and the bench see of the newton kernel — its
 * table entry, its incremental potential (newton_potential.h: finite differences of the
 * whole potential need to evaluate it at any x) and its stage profile.  The work memory
 * itself is in newton_work.h. */
#ifndef CLOTH_NEWTON_H
#define CLOTH_NEWTON_H

#include "sim/sim.h"
#include "kernels/newton/newton_def.h"
#include "kernels/newton/newton_potential.h"
#include "kernels/newton/newton_profile.h"

typedef struct cloth__newton cloth__newton;

extern const cloth__kernel cloth__newton_kernel;


void cloth__newton_profile_get(const cloth__newton *w, cloth__newton_profile *out);

/* Unknowns (3 per free vertex) and the first unknown of vertex i (-1 when pinned). */
int cloth__newton_ndof(const cloth__newton *w);
int cloth__newton_dof(const cloth__newton *w, int i);

/* The Newton matrix H of the last iteration (upper triangle, 3x3 blocks), for the bench's
 * yardstick: one factorisation of it alone. */
const struct cloth__sparse *cloth__newton_matrix(const cloth__newton *w);

#endif
