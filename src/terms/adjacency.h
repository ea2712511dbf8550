/* Private: the mesh's adjacency, which vertex pairs are joined by a spring or a triangle
 * edge (such pairs are never contacts: their distance is the mesh's own business).  A
 * CSR of sorted, unique neighbours: the neighbours of vertex i are
 * adj[start[i] .. start[i + 1]).  Built once; a lookup allocates nothing. */
#ifndef CLOTH_ADJACENCY_H
#define CLOTH_ADJACENCY_H

#include "cloth.h"

/* *start (n + 1) and *adj, freshly allocated (the caller frees both); 0 when out of
 * memory (nothing is then left allocated). */
int cloth__mesh_adjacency(const cloth_mesh *m, int **start, int **adj);

/* 1 when i and j are neighbours. */
int cloth__adjacent(const int *start, const int *adj, int i, int j);

#endif
