/* Private: the cloth model of the bw kernel (bw_conditions.c): Baraff and Witkin's
 * stretch, shear and bend conditions, their energy and forces; declared here for bw.c
 * and for tests/test_bw.c (closed forms, finite differences). */
#ifndef CLOTH_KERNELS_BW_CONDITIONS_H
#define CLOTH_KERNELS_BW_CONDITIONS_H

#include "kernels/bw/bw_def.h"


/* The mesh's triangles with their (u, v) rest coordinates and hinges with their rest
 * angles (bw_conditions.c). */
typedef struct cloth__bw_model {
    int n_tris;
    const int *tris;            /* the mesh's, 3 a triangle                           */
    double *Dm_inv;             /* 4 a triangle: rows c_1, c_2 of the (u, v) weights  */
    double *area;               /* a: rest area; 0 = degenerate, skipped              */
    int n_hinges;
    const int *hinges;          /* the mesh's, 4 a hinge: e0, e1, o0, o1              */
    double *theta0;             /* rest dihedral angle of each hinge                  */
} cloth__bw_model;

/* Fills md from the mesh's rest positions (CLOTH_ENOMEM with a message); free with
 * cloth__bw_model_free, also after a failure. */
cloth_status cloth__bw_model_init(const cloth_mesh *m, cloth__bw_model *md, cloth_error *err);
void cloth__bw_model_free(cloth__bw_model *md);

/* The stretch conditions C[0] = a (|w_u| - 1), C[1] = a (|w_v| - 1) of the triangle x
 * (9 coordinates) and their gradients dC[9 c + 3 i + k] = dC_c / dx_ik.  A zero w gives a
 * zero gradient. */
void cloth__bw_stretch(const double x[9], const double Dm_inv[4], double area, double C[2],
                       double dC[18]);

/* The stretch conditions' second derivatives at x: H[81 c + 9 p + q] = d2C_c / dx_p dx_q
 * (row-major 9 x 9 for c = u, v), a c_i c_j (I - w w^T/|w|^2)/|w| in 3 x 3 blocks:
 * positive semi-definite; zero for a zero w. */
void cloth__bw_stretch_hessian(const double x[9], const double Dm_inv[4], double area,
                               double H[162]);

/* The shear condition C = a w_u.w_v and its gradient (9). */
void cloth__bw_shear(const double x[9], const double Dm_inv[4], double area, double *C,
                     double dC[9]);

/* The stiffnesses of a step.  With per_area, triangle t's stretch and shear k are
 * stretch / a_t and shear / a_t (then k/2 C^2 = stretch a_t (|w_u| - 1)^2 / 2: an energy
 * per rest area, the same for any mesh size); else stretch and shear themselves. */
typedef struct cloth__bw_k {
    double stretch, shear;      /* N/m^3, or N/m with per_area                        */
    double bend;                /* N m                                                */
    int per_area;
} cloth__bw_k;

/* Triangle t's stretch (which = 0) or shear (which = 1) stiffness. */
double cloth__bw_tri_k(const cloth__bw_model *md, const cloth__bw_k *k, int t, int which);

/* E = sum over conditions of k/2 C^2 at x (3n). */
double cloth__bw_energy(const cloth__bw_model *md, const cloth__bw_k *k, const double *x);

/* f += -k C dC/dx of every condition at x (the elastic forces, no damping). */
void cloth__bw_add_elastic_forces(const cloth__bw_model *md, const cloth__bw_k *k,
                                  const double *x, double *f);

#endif
