/* Private: a mesh from triangles made elsewhere (the garment layer's panels and sewn
 * garments), with what cloth_mesh_create gives an OBJ mesh. */
#ifndef CLOTH_CORE_MESH_H
#define CLOTH_CORE_MESH_H

#include "cloth.h"

/* A mesh of n vertices at x (3n, the rest and initial positions) and n_tris triangles:
 * a structural spring on every edge and a bend spring across every hinge (as the scene's
 * mesh.springs families ask), stiffness and masses from the scene's material, no pins.
 * extra_springs more springs fit in mesh->springs after them (the caller appends them
 * and raises n_springs and the family count).  what names the mesh in messages;
 * CLOTH_EINVAL when an edge has more than two triangles or a vertex none. */
cloth_status cloth__mesh_from_triangles(const cloth_scene *scene, const double *x, int n,
                                        const int *tris, int n_tris, int extra_springs,
                                        const char *what, cloth_mesh **out, cloth_error *err);

#endif
