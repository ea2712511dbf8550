/* Private: a garment from its pattern (docs/garments.md): the panels meshed, their seams
 * resampled to matching vertex pairs, the panels placed around the body, sewn by
 * zero-rest-length springs under a kernel with gravity off, and welded into one mesh. */
#ifndef CLOTH_GARMENT_SEWING_H
#define CLOTH_GARMENT_SEWING_H

#include "cloth.h"
#include "garment/mesh_outline.h"
#include "garment/pattern.h"

typedef struct cloth__garment {
    const cloth__pattern *pattern; /* not owned, unless it is own                     */
    cloth__pattern *own;        /* the pattern cloth__garment_make loaded, freed with
                                 * the garment; NULL after cloth__garment_prepare     */
    cloth__panel_mesh *panels;  /* per panel, after the seams' splits                 */
    int *offset;                /* per panel: its first vertex in the sewing mesh     */
    double min_angle;           /* smallest angle of the panel meshes after the seams'
                                 * splits and slides (degrees)                        */
    int splits;                 /* outline segments split to match the other side     */
    int n;                      /* vertices of all panels                             */
    double *placed;             /* 3n: the panels placed around the body (m)          */
    int n_tris;                 /* triangles of all panels                            */
    int *tris;
    int n_pairs;                /* seam vertex pairs, 2 vertex indices each           */
    int *pairs;
    /* after cloth__garment_sew */
    double *sewn;               /* 3n positions when every pair closed                */
    long frames, steps;         /* sewing frames and kernel steps to close them       */
    double gap;                 /* largest pair distance at the end (m)               */
    double wall_s;              /* wall time of the sewing (s)                        */
    double strain_min, strain_max; /* sewn edge length / the pattern's - 1, smallest and
                                 * largest over the panels' edges                     */
    /* after cloth__garment_weld */
    int n_welded;               /* vertices of the welded garment                     */
    double *welded;             /* 3 n_welded                                         */
    int n_welded_tris;
    int *welded_tris;
    int *weld_map;              /* per sewing-mesh vertex: its welded vertex          */
} cloth__garment;

/* Meshes every panel, pairs the seams' vertices (splitting outline segments where one
 * side has a vertex the other lacks) and places the panels (a placement with a bone on
 * body's bone of that name; body may be NULL when no panel names a bone).  Errors name
 * the panel ("FILE: panel \"front\": placement: unknown bone \"x\""). */
cloth_status cloth__garment_prepare(const cloth__pattern *pattern,
                                    const cloth__garment_body *body, cloth__garment **out,
                                    cloth_error *err);
void cloth__garment_free(cloth__garment *g);

/* The sewing mesh: all panels at their placed positions, with a structural spring on each
 * edge, a bend spring across each hinge and a zero-rest-length spring (family bend, so
 * no strain limit or stretch metric reads it, stiffness material.k of the structural
 * family) on each seam pair. */
cloth_status cloth__garment_sewing_mesh(const cloth__garment *g, const cloth_scene *scene,
                                        cloth_mesh **out, cloth_error *err);

/* Sews: runs scene's kernel on the sewing mesh with gravity, wind, sphere, floor, pins
 * and self-collision off (the scene's avatar stays: the seams close round the body) and
 * garment.sew_damping as the air damping, until every pair is closer than weld_distance
 * (m) after a frame (run.substeps steps: the steps to weld are counted in whole frames),
 * for at most max_frames frames.  CLOTH_ENUMERIC when they do not close, or the
 * kernel's error. */
cloth_status cloth__garment_sew(cloth__garment *g, const cloth_scene *scene,
                                double weld_distance, long max_frames, cloth_error *err);

/* Welds each group of paired vertices into one at their mean position and drops the
 * duplicates; CLOTH_EINVAL unless the result is manifold (every edge in one or two
 * triangles).  Uses the sewn positions (the placed ones if not sewn). */
cloth_status cloth__garment_weld(cloth__garment *g, cloth_error *err);

/* Counts the edges of triangles with one, two and more triangles. */
void cloth__edge_census(const int *tris, int n_tris, int *boundary, int *interior,
                        int *nonmanifold);

#endif
