/* Private: strain limiting by projection, for the kernels that move positions: Provot's
 * sweeps over springs (explicit.strain_limit) and isotropic limiting of triangles
 * (verlet.strain_measure = triangle), and the triangle measure every kernel is judged by
 * (series.csv's stretch_sigma_max).
 *
 * Provot 1995 ("Deformation Constraints in a Mass-Spring Model to Describe Rigid Cloth
 * Behavior"): a spring longer than (1 + tau_c) l0 is shortened to exactly that along
 * itself (cloth__provot_shorten, strain_limit.h); a sweep visits every limited spring once
 * in order (Gauss-Seidel), and sweeps repeat until one changes nothing.
 *
 * Sources: B. Thomaszewski, S. Pabst and W. Straßer 2009, "Continuum-based Strain
 * Limiting"; H. Wang, J. O'Brien and R. Ramamoorthi 2010, "Multi-resolution Isotropic
 * Strain Limiting".  Per triangle, the singular values of the 3x2 deformation gradient F
 * (strain_limit.h: F = [x1 - x0, x2 - x0] Dm^-1) are clamped, and the three vertices are
 * moved so that the triangle takes the clamped F; sweeps over the triangles repeat, as
 * Provot's over springs, because each projection disturbs the triangles that share its
 * vertices.
 *
 * One projection.  With F^T F = V diag(s1^2, s2^2) V^T (v1, v2 its eigenvectors) and
 * t_i = min(s_i, L), L = 1 + tau (compression is left alone: only the stretch above L is
 * removed),
 *
 *     F' = sum_i t_i u_i v_i^T = F (I + G),   G = sum_i (t_i / s_i - 1) v_i v_i^T
 *
 * (u_i = F v_i / s_i), so F' needs no left singular vectors, keeps the rotation and keeps
 * a singular value at or below L unchanged.  The edges become E' = F' Dm, i.e. the
 * vertices move by d_i = D_i + c with D_0 = 0, (D_1, D_2) = F G Dm, and the translation c
 * is the one free choice left.  The mass-weighted choice minimises sum m_i |d_i|^2:
 *
 *     c = -sum_i m_i D_i / sum_i m_i          (the triangle's centre of mass stays)
 *
 * A pinned vertex p has m_p = infinity: c = -D_p, so it stays and the other two follow.
 * With two pinned vertices the edges cannot in general all reach E'; the free vertex k
 * alone moves by the least-squares step (F' - F) c_k / |c_k|^2 (c_k its shape weight,
 * F = sum_i x_i c_i^T), which the next sweeps refine.  A triangle with three pinned
 * vertices cannot move and is not limited. */
#ifndef CLOTH_STRAIN_PROJECT_H
#define CLOTH_STRAIN_PROJECT_H

#include "cloth.h"

/* What a projecting kernel's strain limit measures (its strain_measure key). */
typedef enum { CLOTH__LIMIT_EDGE = 0, CLOTH__LIMIT_TRIANGLE = 1 } cloth__limit_measure;
extern const char *const cloth__limit_measure_names[]; /* "edge", "triangle", NULL */

/* One Provot sweep over the springs ids[0..n) of m on the positions x (3n): every spring
 * longer than factor l0 (1 + tol) is shortened to factor l0.  Returns how many it
 * shortened, -1 from an assignment's stub of cloth__provot_shorten. */
int cloth__provot_sweep(const cloth_mesh *m, const int *ids, int n, double *x, double factor,
                        double tol);

/* 1 when a spring of ids[0..n) is longer than factor l0 (1 + tol) at x. */
int cloth__provot_violated(const cloth_mesh *m, const int *ids, int n, const double *x,
                           double factor, double tol);

/* The triangles a kernel limits, with their rest shapes. */
typedef struct cloth__tri_limits {
    int n;                      /* limited triangles                                  */
    int *v;                     /* 3n vertex indices                                  */
    double *Dm_inv;             /* 4n: Dm^-1 of each (strain_limit.h), row-major      */
} cloth__tri_limits;

/* Fills t with the mesh's triangles that are not degenerate at rest and have a vertex
 * that is not pinned.  CLOTH_ENOMEM (with a message) when out of memory.  Free with
 * cloth__tri_limits_free (also after a failure). */
cloth_status cloth__tri_limits_init(const cloth_mesh *m, cloth__tri_limits *t,
                                    cloth_error *err);
void cloth__tri_limits_free(cloth__tri_limits *t);

/* One projection of the triangle (x0, x1, x2) with inverse masses w (0 = pinned) to
 * sigma_i <= limit, when sigma1 > limit (1 + tol).  Returns 1 when it moved the vertices,
 * 0 when the triangle was within the limit (or cannot move). */
int cloth__strain_clamp_tri(double *x0, double *x1, double *x2, const double w[3],
                            const double Dm_inv[4], double limit, double tol);

/* One Gauss-Seidel sweep of cloth__strain_clamp_tri over t on the positions pos (3n);
 * returns how many triangles it moved. */
int cloth__tri_limits_sweep(const cloth__tri_limits *t, double *pos, const double *inv_mass,
                            double limit, double tol);

/* The same projection of the triangles order[lo .. hi) of t (order NULL: lo .. hi) on
 * positions with `stride` doubles a vertex (3, or 4 padded); returns how many it moved.
 * A colour's triangles share no vertex (terms/colour.h), so threads may take its runs. */
int cloth__tri_limits_range(const cloth__tri_limits *t, const int *order, int lo, int hi,
                            double *pos, int stride, const double *inv_mass, double limit,
                            double tol);

/* The largest sigma1 over t at pos. */
double cloth__tri_limits_sigma_max(const cloth__tri_limits *t, const double *pos);

/* The largest sigma1 - 1 over the mesh's triangles at x (the rest shapes from m->rest;
 * degenerate triangles skipped), 0 without triangles. */
double cloth__strain_sigma_max(const cloth_mesh *m, const double *x);

#endif
