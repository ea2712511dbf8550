/* Private: the tunnelled metric.  Cloth that passes through cloth between two frames
 * may be clear of itself in both, so the intersections column (terms/intersect.c) never
 * sees it.  This counts the point-triangle and edge-edge pairs of the mesh (sharing no
 * vertex) whose linear motion from one set of positions to the next reaches separation
 * 0, as the public conservative CCD (cloth_ccd_point_triangle, cloth_ccd_edge_edge,
 * terms/ccd.h) decides with dmin = 0: a pair that passes through, touches, or comes
 * within CLOTH__CCD_STOP of its starting distance on the way counts once.
 *
 * One difference from the public queries: the CCD gives up (a hit) after
 * CLOTH__TUNNEL_CCD_STEPS distance evaluations instead of CLOTH__CCD_MAX_STEPS.  A pair
 * needs that many only when it slides past the other at a gap of about 1/9000 of its
 * motion or less while staying above CLOTH__CCD_STOP of its starting gap (each step
 * advances 0.9 gap / motion): cloth lying on cloth and moving along it.  With the
 * simulation's cap such pairs cost up to 10^6 distances each; on the self_contact pile
 * with particles (1300-1850 candidates a frame, 70-200 of them at the cap) that was
 * 11-30 s a frame against the kernel's 0.3 ms.  With this cap they count as passing,
 * which is what the STOP rule already does to a pair that comes 1000 times closer than
 * it started.
 *
 * Candidates come from the broad phase (terms/broad_phase.h) over boxes of each
 * primitive's motion, which holds every pair that can meet during the motion, so the
 * count is the CCD's verdict over all pairs.  It reads positions only: the same for
 * every kernel.  The broad phase's room is sized at creation (CLOTH__TUNNEL_PAIRS per
 * vertex and edge); a motion with more candidate pairs than that is not counted (-1).
 * A count allocates nothing. */
#ifndef CLOTH_TUNNEL_H
#define CLOTH_TUNNEL_H

#include "cloth.h"

/* room for candidate pairs of each kind, per vertex and triangle edge of the mesh */
#define CLOTH__TUNNEL_PAIRS 16
/* the CCD's cap on distance evaluations a pair, for this metric (above) */
#define CLOTH__TUNNEL_CCD_STEPS 10000L

typedef struct cloth__tunnel cloth__tunnel;

cloth_status cloth__tunnel_create(const cloth_mesh *mesh, cloth__tunnel **out,
                                  cloth_error *err);
void cloth__tunnel_destroy(cloth__tunnel *work);

/* The pairs whose motion from x0 to x1 (3 mesh->n each) reaches separation 0.  Returns
 * -1 when a position is not finite or the candidates overflowed the room.  Allocates
 * nothing. */
long cloth__count_tunnelled(const cloth_mesh *mesh, const double *x0, const double *x1,
                            cloth__tunnel *work);

#endif
