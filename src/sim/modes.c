/*
 * The fastest vibration of the springs: omega_max^2 = lambda_max(M^-1/2 K M^-1/2).
 *
 * K is the stiffness matrix of all springs at the initial positions (the exact Hessian
 * of sum 1/2 k (l - l0)^2, blocks k (u u^T + (1 - l0/l)(I - u u^T))), restricted to the
 * free vertices.  M^-1 K and M^-1/2 K M^-1/2 have the same eigenvalues, and the latter is
 * symmetric, so LAPACK's symmetric solver applies.  A linear oscillator u'' = -omega^2 u
 * under symplectic Euler (or Verlet) is stable exactly when h omega < 2 (the step matrix
 * has |trace| < 2), which makes 2/omega_max the step bound of an explicit cloth.
 */
#include "linalg/dense.h"
#include "sim/sim.h"
#include "terms/spring.h"

#include <math.h>
#include <stdlib.h>

cloth_status cloth_sim_omega_max(const cloth_sim *sim, double *omega_max, cloth_error *err)
{
    const cloth_mesh *m = sim->mesh;
    int *slot = malloc(sizeof(int) * (size_t)m->n), n = 0;
    if (!slot) {
        snprintf(err->msg, sizeof err->msg, "omega_max: out of memory");
        return CLOTH_ENOMEM;
    }
    for (int i = 0; i < m->n; i++)
        slot[i] = m->pinned[i] ? -1 : n++;
    int dim = 3 * n;
    if (dim == 0 || dim > CLOTH__LINALG_MAX) {
        free(slot);
        snprintf(err->msg, sizeof err->msg,
                 "omega_max: %d unknowns (the dense eigenvalue solver takes 1 to %d)", dim,
                 CLOTH__LINALG_MAX);
        return CLOTH_EINVAL;
    }
    double *A = calloc((size_t)dim * (size_t)dim, sizeof *A);
    cloth__linalg *la = NULL;
    cloth_status st = A ? cloth__linalg_create(dim, &la, err) : CLOTH_ENOMEM;
    if (st == CLOTH_OK) {
        for (int s = 0; s < m->n_springs; s++) {
            const cloth_spring *sp = &m->springs[s];
            double H[36];
            cloth__spring_hessian(m->x0 + 3 * sp->a, m->x0 + 3 * sp->b, sp->k, sp->rest, 0, H);
            int v[2] = {sp->a, sp->b};
            for (int p = 0; p < 2; p++)
                for (int q = 0; q < 2; q++) {
                    if (slot[v[p]] < 0 || slot[v[q]] < 0)
                        continue;
                    /* scaled by 1/sqrt(m_p m_q): M^-1/2 K M^-1/2 */
                    double scale = 1 / sqrt(m->mass[v[p]] * m->mass[v[q]]);
                    for (int r = 0; r < 3; r++)
                        for (int c = 0; c < 3; c++)
                            A[(size_t)(3 * slot[v[q]] + c) * (size_t)dim + 3 * slot[v[p]] + r] +=
                                scale * H[(3 * p + r) * 6 + 3 * q + c];
                }
        }
        double lo, hi;
        st = cloth__linalg_eig_range(la, A, &lo, &hi, err);
        if (st == CLOTH_OK)
            *omega_max = sqrt(fmax(hi, 0));
    } else if (!A) {
        snprintf(err->msg, sizeof err->msg, "omega_max: out of memory for %d unknowns", dim);
    }
    cloth__linalg_destroy(la);
    free(A);
    free(slot);
    return st;
}
