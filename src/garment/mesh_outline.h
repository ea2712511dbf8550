/* Private: a panel's triangle mesh from its outline, as the mass-spring cloth paper
 * meshes a pattern piece: the outline discretised at the target edge length, points on
 * a lattice filling the bounding box, those outside or too close to the outline removed,
 * Bowyer–Watson (delaunay.h), every outline segment made a mesh edge, the triangles
 * outside the outline removed. */
#ifndef CLOTH_GARMENT_MESH_OUTLINE_H
#define CLOTH_GARMENT_MESH_OUTLINE_H

#include "cloth.h"

/* Interior lattice points closer to the outline than this many edge lengths are removed:
 * below about 0.5 the triangles along the outline get thin (docs/garments.md). */
#define CLOTH_OUTLINE_CLEARANCE 0.6

typedef struct cloth__panel_mesh {
    int n;                      /* vertices                                           */
    double *uv;                 /* 2n positions in the pattern's plane (cm)           */
    int n_tris;                 /* triangles, counter-clockwise in (u, v)             */
    int *tris;                  /* 3 indices each                                     */
    int n_boundary;             /* outline vertices, in the outline's order ...       */
    int *boundary;              /* ... starting at corner 0                           */
    int *boundary_edge;         /* per outline vertex: the outline edge (corner i to
                                 * i+1) its segment to the next one lies on           */
    double min_angle;           /* smallest triangle angle (degrees)                  */
    double area;                /* sum of the triangles' areas (cm^2)                 */
    int recovered;              /* outline segments that needed a midpoint inserted   */
} cloth__panel_mesh;

/* Meshes the polygon of n corners (2n doubles, cm, either orientation, simple) at edge
 * length h (cm).  what names the panel in messages ("FILE: panel \"front\""). */
cloth_status cloth__mesh_outline(const double *corners, int n, double h, const char *what,
                                 cloth__panel_mesh *out, cloth_error *err);
void cloth__panel_mesh_free(cloth__panel_mesh *pm);

/* Recomputes min_angle and area (after splits or moved vertices). */
void cloth__panel_mesh_measure(cloth__panel_mesh *pm);

/* 1 when (x, y) is inside the polygon (even-odd rule), 0 outside. */
int cloth__polygon_contains(const double *corners, int n, double x, double y);

/* The polygon's signed area (counter-clockwise positive, cm^2). */
double cloth__polygon_area(const double *corners, int n);

/* Splits outline segment j (from boundary[j] to boundary[j+1]) at fraction t in (0, 1):
 * adds a vertex there, splits the one triangle on that segment in two and puts the
 * vertex into the boundary after j.  *index gets the new vertex.  CLOTH_ENOMEM, or
 * CLOTH_EINVAL when no triangle has that segment. */
cloth_status cloth__panel_mesh_split(cloth__panel_mesh *pm, int j, double t, int *index);

#endif
