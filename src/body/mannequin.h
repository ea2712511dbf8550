/* Private: the built-in mannequin, an adult of about 1.75 m in a T pose (y up, facing
 * +z, feet on y = 0): a skeleton of 17 joints and one or more capsules per bone, and a
 * triangle surface tessellated from the capsules, skinned by linear blend skinning.
 *
 * The capsules are the body's exact shape: its signed distance in the rest pose is
 *
 *   d(y) = min_c ( |y - seg_c| - r_c ),
 *
 * exact outside the body (a union's distance is the smallest of its parts'); in a pose
 * each capsule moves rigidly with its joint, which gives the posed body's exact distance
 * (cloth__body_distance_posed, the metric of penetration).  The surface is for drawing:
 * its vertices are on the capsules, with the skinning weights of the back-transform at
 * their rest places (backtransform.h), so surface and collision bend alike. */
#ifndef CLOTH_BODY_MANNEQUIN_H
#define CLOTH_BODY_MANNEQUIN_H

#include "body/skeleton.h"

#define CLOTH__MAX_CAPSULES 32
#define CLOTH__SKIN 4            /* skinning weights per surface vertex at most      */
#define CLOTH__MAX_PARTS 256     /* closed pieces of a body's surface at most         */

typedef struct cloth__capsule {
    int joint;                  /* the joint that moves it                            */
    double a[3], b[3];          /* its segment in the rest pose (m)                   */
    double r;                   /* radius (m)                                         */
} cloth__capsule;

typedef struct cloth__body {
    cloth__skeleton skel;
    double tip[CLOTH__MAX_JOINTS][3]; /* each joint's bone runs from the joint to here
                                       * in the rest pose (its main child, or an end)  */
    int n_caps;
    cloth__capsule cap[CLOTH__MAX_CAPSULES];
    int caps_exact;             /* 1: the capsules are the body (the mannequin); 0: an
                                 * OBJ body's, estimated for the back-transform only  */
    /* the surface in the rest pose, with up to CLOTH__SKIN weights per vertex */
    int n_verts, n_tris;
    double *verts;              /* 3 n_verts                                          */
    int *tris;                  /* 3 n_tris, counter-clockwise seen from outside      */
    int *skin_joint;            /* CLOTH__SKIN n_verts: joints (-1: none)             */
    double *skin_weight;        /* CLOTH__SKIN n_verts: their weights, summing to 1   */
    int n_parts;                /* closed pieces of the surface (the mannequin: one a
                                 * capsule)                                           */
    int *part_tri;              /* n_parts + 1: part c owns triangles
                                 * [part_tri[c], part_tri[c + 1])                      */
} cloth__body;

/* The mannequin scaled by scale (1 = 1.75 m tall), without its surface. */
cloth_status cloth__mannequin(double scale, cloth__body *body, cloth_error *err);

/* Tessellates the capsules: slices around each, rings along it, each a closed surface
 * around its capsule (vertices at r / cos(pi/slices) from the segment, so that the
 * flat faces do not cut into the capsule by more than r (1/cos(pi/slices) - 1) either
 * way); allocates; the weights are left for the back-transform to fill.
 * cloth__body_free releases it. */
cloth_status cloth__body_surface(cloth__body *body, int slices, cloth_error *err);
void cloth__body_free(cloth__body *body);

/* Signed distance of y to the rest body (negative inside); the nearest capsule in
 * *which if not NULL. */
double cloth__body_distance_rest(const cloth__body *body, const double y[3], int *which);

/* Signed distance of x to the body whose capsules moved with the transforms xf. */
double cloth__body_distance_posed(const cloth__body *body, const cloth__xform *xf,
                                  const double x[3]);

/* Signed distance from p to the surface whose vertices are at verts (the body's
 * triangles, posed), over its closed parts whose bounding spheres (centre
 * sphere[4c..4c+2], radius sphere[4c+3]) come within reach of p: inside one of them
 * (generalised winding number above 1/2: the solid angles of its triangles, Van
 * Oosterom and Strackee 1983), minus the largest distance to the surface of one that
 * holds p; else the smallest distance to a triangle.  HUGE_VAL when no sphere comes
 * within reach. */
double cloth__body_surface_distance(const cloth__body *body, const double *verts,
                                    const double *sphere, double reach, const double p[3]);

/* Distance from p to the segment [a, b]. */
double cloth__segment_distance(const double p[3], const double a[3], const double b[3]);

#endif
