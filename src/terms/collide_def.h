/* Private: what the robust collision stage (collide.h) is asked to do and what it
 * answers: its constants, cloth__collide_def and cloth__collide_result.  collide.h
 * includes it for the stage's callers; the stage's own files (collide_*.c) include it
 * instead of collide.h, which collide.c implements on top of them. */
#ifndef CLOTH_COLLIDE_DEF_H
#define CLOTH_COLLIDE_DEF_H

#include "cloth.h"
#include "terms/obstacle.h"

/* the collision passes' distance, as a fraction of the thickness */
#define CLOTH__COLLIDE_ETA 0.5
/* Bridson's push out of the thickness: 0.1 of the overlap per step */
#define CLOTH__COLLIDE_REPULSION 0.1
/* (d): a zone's translations out of the obstacles at most (each puts the deepest member
 * on the surface and may leave others inside, less deep: on a sphere the depths fall
 * geometrically; a 90-vertex zone draped on drape3's sphere needed up to 29) */
#define CLOTH__COLLIDE_OBSTACLE_ROUNDS 64
/* (d): the proximity sweeps end when no impulse moved a pair, nor an obstacle a vertex,
 * by more than this fraction of the thickness (the push is 0.1 of the overlap a step: a
 * shortfall of a thousandth of the thickness is below what it does in a step) */
#define CLOTH__COLLIDE_OBSTACLE_ENOUGH 1e-3
/* (d): sweeps of the proximity impulses at most, with obstacles */
#define CLOTH__COLLIDE_PROXIMITY_SWEEPS 16
/* the slack of the stage's broad-phase query beyond the passes' reach, in thicknesses
 * (collide_candidates.c: a pass queries again only when corrections have moved a
 * vertex's end by more than 0.9 of it), kept between these bounds: each call starts with
 * the slack the previous call's corrections would have needed (1.25 times), a query again
 * within a call doubles it, up to the cap below.  A larger slack costs more candidates, a
 * smaller one more queries. */
#define CLOTH__COLLIDE_SLACK_MIN 0.25
#define CLOTH__COLLIDE_SLACK_MAX 4.0
/* and at most this fraction of the mean edge length */
#define CLOTH__COLLIDE_SLACK_EDGE 0.125
/* the steps of motion beyond the call's own that the query's boxes reach after a call
 * that corrected nothing (collide_candidates.c): a sheet that moves on as it did keeps
 * its candidate list for the next calls */
#define CLOTH__COLLIDE_AHEAD 8
/* a vertex's own room in the query's boxes (collide_candidates.c query): 1.25 times its
 * largest correction of the last call, and the same for the vertices within this many
 * rings of triangles around it (the contact front moves on from step to step) */
#define CLOTH__COLLIDE_RINGS 2
/* the default room for candidate pairs, per vertex and triangle edge (a draped pile of
 * three sheets needs more than 64 per vertex: its edges overlap many edges) */
#define CLOTH__COLLIDE_PAIRS 16

typedef struct cloth__collide cloth__collide;

/* What the stage is asked to do. */
typedef struct cloth__collide_def {
    double thickness;           /* delta (m): proximity distance and impulses' target  */
    double friction;            /* mu in [0, 1]: Coulomb friction of the impulses      */
    int passes;                 /* collision passes at most (b), >= 0                  */
    int zone_iterations;        /* searches of the impact zones at most (c)            */
    /* (d): the obstacles the step's end positions must stay out of; scene NULL: none */
    const cloth_scene *scene;   /* its sphere and floor                               */
    const double *sphere_c;     /* the sphere's centre at the step's end              */
    const cloth__push_body *body; /* a body (NULL: none)                              */
} cloth__collide_def;

/* What one call did. */
typedef struct cloth__collide_result {
    int proximity;              /* proximity impulses (a)                              */
    int impulses;               /* collision impulses over all passes (b)              */
    int passes;                 /* collision passes made (b)                           */
    int zone_searches;          /* searches made in (c), the last one finding no hit
                                 * when resolved                                       */
    int zones;                  /* impact zones (of two or more vertices) at the end   */
    int zone_vertices;          /* vertices in them                                    */
    int resolved;               /* 1: the last search found no pair that hits          */
    int overflow;               /* 1: a broad-phase query ran out of room (pairs may
                                 * have been missed: resolved is then 0)               */
    int obstacle_moves;         /* (d): obstacle impulses and zone translations        */
    int inside;                 /* (d): free vertices left inside an obstacle (in a
                                 * zone held by a pin)                                 */
} cloth__collide_result;

#endif
