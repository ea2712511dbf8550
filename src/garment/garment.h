/* Private: the one garment pipeline (garment.c), which `cloth garment` (app/garment.c)
 * and a scene's mesh.garment (cloth_sim_create) both run: the pattern file loaded, its
 * panels meshed and placed on the mannequin, sewn by the scene's kernel and welded. */
#ifndef CLOTH_GARMENT_GARMENT_H
#define CLOTH_GARMENT_GARMENT_H

#include "garment/sewing.h"

/* Called once the panels are placed, before they are sewn (the CLI prints and writes
 * them); a status other than CLOTH_OK (with err) stops the pipeline with it. */
typedef cloth_status (*cloth__garment_placed)(const cloth__garment *g, void *ctx,
                                              cloth_error *err);

/* The pattern file at path, placed on the mannequin at the scene's avatar.scale (1
 * without an [avatar]), sewn with scene (cloth__garment_sew: its kernel, run.dt and
 * run.substeps, garment.weld_distance and garment.max_frames) and welded.  placed may be
 * NULL.  On failure *out is NULL when the pattern could not be loaded or prepared, else
 * the garment as far as it got; the caller frees *out (cloth__garment_free, which frees
 * the pattern too). */
cloth_status cloth__garment_make(const char *path, const cloth_scene *scene,
                                 cloth__garment_placed placed, void *ctx,
                                 cloth__garment **out, cloth_error *err);

/* The welded garment as scene's cloth: the mesh of its triangles with scene's material,
 * and mesh.pins when it lists vertices (CLOTH_EINVAL for one the garment has not). */
cloth_status cloth__garment_cloth(const cloth__garment *g, const cloth_scene *scene,
                                  cloth_mesh **out, cloth_error *err);

#endif
