/* Private to the pbd kernel: its work (pbd.c) and the strain limit's projections, moved
 * to pbd_strain.c to keep pbd.c readable (what they do: pbd.c's header, "Strain limit"). */
#ifndef CLOTH_KERNELS_PBD_WORK_H
#define CLOTH_KERNELS_PBD_WORK_H

#include "kernels/coloured.h"
#include "terms/strain_project.h"
#include "sim/sim.h"

typedef struct cloth__pbd {
    double *p;                  /* 3n predicted, then projected, positions           */
    double *lambda;             /* XPBD multipliers: distance constraints, hinges    */
    double *hinge_rest;         /* rest dihedral angle theta0 per hinge (rad)        */
    double *hinge_k;            /* k_theta = k_bend l_e^2 per hinge (N m/rad^2)      */
    int n_dist;                 /* springs [0, n_dist) are distance constraints      */
    int n_hinges;               /* dihedral constraints (0 with bending = springs)   */
    int n_stretch;              /* springs [0, n_stretch) are structural or shear    */
    double k_stretch, k_bend;   /* PBD per-pass factors k' (unused by XPBD)          */
    cloth__coloured *col;       /* pbd.order = coloured: the distance constraints     */
    cloth__coloured_tris *tris; /* ... and the triangles for the wind's drag          */
    double *p4;                 /* ... and p padded for its passes (cloth__pad), and
                                 * x for the external forces                          */
    double *v4, *f4;            /* ... and v and f padded for the external forces     */
    cloth__tri_limits tri;      /* strain_measure = triangle: the limited triangles   */
    cloth__colouring tri_colours; /* ... and with pbd.order = coloured their colours:
                                 * no two triangles of a colour share a vertex        */
    double *lambda_limit;       /* strain limit: multipliers, <= 0, one a stretch
                                 * spring (edge; with pbd.order = coloured one an item
                                 * of col, bend items unused) or a limited triangle  */
    int n_limits;               /* multipliers in lambda_limit                        */
} cloth__pbd;

/* The settings the strain limit reads (pbd.h's cloth__pbd_def, passed by value so that
 * pbd_strain.c needs no include of the kernel's own header). */
typedef struct cloth__pbd_strain_def {
    int xpbd;                   /* pbd.variant = xpbd                                 */
    int triangles;              /* pbd.strain_measure = triangle                      */
    double tau;                 /* pbd.strain_limit                                   */
    double tol;                 /* pbd.strain_tol                                     */
} cloth__pbd_strain_def;

/* strain_measure = edge: C = l - (1 + tau) l0 <= 0 on the structural and shear springs,
 * in every pass (pbd_strain.c). */
void cloth__pbd_project_strain_edges(const cloth_sim *sim, const cloth__pbd_strain_def *sd,
                                     cloth__pbd *w);

/* strain_measure = triangle: C = sigma1 - (1 + tau) <= 0 per triangle (pbd_strain.c). */
void cloth__pbd_project_strain_triangles(const cloth_sim *sim, const cloth__pbd_strain_def *sd,
                                         cloth__pbd *w);

/* pbd.order = coloured, strain_measure = edge: the unilateral constraints of the stretch
 * items among positions [lo, hi) of w->col's order (one colour's run; bend items
 * skipped) on the padded positions w->p4, with the multipliers lambda_limit[j] of item j
 * (pbd_strain.c). */
void cloth__pbd_project_strain_edges_range(const cloth__pbd_strain_def *sd, cloth__pbd *w,
                                           int lo, int hi);

/* pbd.order = coloured, strain_measure = triangle: the triangles at positions [lo, hi)
 * of w->tri_colours' order (one colour's run) on the padded positions w->p4
 * (pbd_strain.c). */
void cloth__pbd_project_strain_triangles_range(const cloth_sim *sim,
                                               const cloth__pbd_strain_def *sd,
                                               cloth__pbd *w, int lo, int hi);

/* 1 when a limit exceeds by more than the tolerance at pos (pbd_strain.c). */
int cloth__pbd_strain_violated(const cloth_sim *sim, const cloth__pbd_strain_def *sd,
                               const cloth__pbd *w, const double *pos);

#endif
