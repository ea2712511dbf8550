/* Private: sewing patterns (docs/garments.md): panels as closed polygons in centimetres
 * with named edges, seams joining two ranges of edges, and where each panel is placed
 * around the body.  Read from JSON (cJSON); a panel's outline may come from an SVG
 * file's polyline or straight-segment path. */
#ifndef CLOTH_GARMENT_PATTERN_H
#define CLOTH_GARMENT_PATTERN_H

#include "cloth.h"

#define CLOTH_PATTERN_NAME 32

typedef struct cloth__placement {
    char bone[CLOTH_PATTERN_NAME]; /* the bone it wraps ("" = world placement)        */
    double at;                  /* with a bone: the panel's centre this far along the
                                 * bone from its joint (cm at body scale 1)           */
    double offset[3];           /* with a bone: a shift of the axis from there (cm at
                                 * scale 1, world axes); without: a point of the axis
                                 * (cm, world)                                        */
    double radius;              /* wrap radius (cm; with a bone, at scale 1); 0 leaves
                                 * the panel flat                                     */
    double angle;               /* where the panel's centre faces about the axis
                                 * (degrees; 0 = the front, +z, or +y for an axis
                                 * along z; 90 = a x (front))                         */
    int axis;                   /* the axis the panel's v runs along: 0 x, 1 y, 2 z,
                                 * -1 the bone's (joint to tip)                       */
    int axis_sign;              /* +1 or -1                                           */
} cloth__placement;

/* The body the panels are placed on (pattern.h's placement.bone): its bones in the rest
 * pose, each from its joint to its tip (m), as the caller has them (the mannequin at
 * avatar.scale: bones.c). */
#define CLOTH_GARMENT_MAX_BONES 32

typedef struct cloth__garment_bone {
    char name[CLOTH_PATTERN_NAME];
    double joint[3], tip[3];    /* m                                                  */
} cloth__garment_bone;

typedef struct cloth__garment_body {
    double scale;               /* lengths of a bone placement are cm at scale 1      */
    int n;
    cloth__garment_bone bone[CLOTH_GARMENT_MAX_BONES];
} cloth__garment_body;

typedef struct cloth__panel {
    char name[CLOTH_PATTERN_NAME];
    int n;                      /* corners = edges                                    */
    double *xy;                 /* 2n corner positions (cm)                           */
    char (*edge)[CLOTH_PATTERN_NAME]; /* n edge names, edge i from corner i to i+1    */
    cloth__placement place;
} cloth__panel;

typedef struct cloth__seam_side {
    int panel;                  /* index into the pattern's panels                    */
    int first, last;            /* edges first..last in outline order (wrapping)      */
} cloth__seam_side;

typedef struct cloth__seam {
    cloth__seam_side a, b;      /* b runs along a; with reverse, against it           */
    int reverse;
    double length_a, length_b;  /* cm                                                 */
} cloth__seam;

typedef struct cloth__pattern {
    char source[CLOTH_PATH_MAX];/* the file, for messages                             */
    char name[64];
    double edge_length;         /* target mesh edge length (cm)                       */
    double seam_tolerance;      /* largest length difference of a seam's sides (cm)   */
    double weld_distance;       /* seams close below this (m); the scene key
                                 * garment.weld_distance overrides it                 */
    int n_panels;
    cloth__panel *panels;
    int n_seams;
    cloth__seam *seams;
} cloth__pattern;

/* Reads and checks a pattern file.  Errors: "FILE: panel \"front\": edge 3 (\"waist\"):
 * why", "FILE:LINE: not JSON: ...", CLOTH_EIO, CLOTH_EPARSE or CLOTH_EINVAL. */
cloth_status cloth__pattern_load(const char *path, cloth__pattern **out, cloth_error *err);

/* The same from text; name stands for the file (and relative SVG paths are resolved
 * from its folder). */
cloth_status cloth__pattern_parse(const char *text, const char *name, cloth__pattern **out,
                                  cloth_error *err);
void cloth__pattern_free(cloth__pattern *p);

/* Reads the outline of an SVG file: the first <polygon>, <polyline> or <path> with
 * straight segments (M/L/H/V/Z, absolute and relative), each coordinate times scale.
 * *xy (2 per corner, the caller frees it) without a repeated closing corner. */
cloth_status cloth__svg_outline(const char *path, double scale, double **xy, int *n,
                                cloth_error *err);

/* Length of edges first..last of panel p (cm). */
double cloth__panel_edges_length(const cloth__panel *p, int first, int last);

#endif
