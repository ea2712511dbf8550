/* Forces on the vertices (SPEC 3): gravity, aerodynamic wind on triangles, air damping,
 * Hooke springs with spring damping.  Pinned vertices receive forces too; the kernels
 * ignore them because their inverse mass is 0. */
#include "terms/forces.h"
#include "terms/spring.h"

#include <math.h>

void cloth__add_gravity(cloth__force_env env, double *f)
{
    const cloth_mesh *m = env.mesh;
    const double *g = env.world->gravity;
    for (int i = 0; i < m->n; i++)
        for (int c = 0; c < 3; c++)
            f[3 * i + c] += m->mass[i] * g[c];
}

void cloth__add_wind(cloth__force_env env, const double *x, const double *v, double t,
                     double *f)
{
    const cloth_world_def *w = env.world;
    const cloth_mesh *m = env.mesh;
    double coeff = 0.5 * w->air_density * w->drag_coefficient;
    if (coeff == 0)
        return;
    for (int tri = 0; tri < m->n_tris; tri++) {
        const int *id = m->tris + 3 * tri;
        const double *a = x + 3 * id[0], *b = x + 3 * id[1], *c = x + 3 * id[2];
        double centroid[3], vmean[3] = {0, 0, 0};
        for (int k = 0; k < 3; k++) {
            centroid[k] = (a[k] + b[k] + c[k]) / 3;
            if (v)
                vmean[k] = (v[3 * id[0] + k] + v[3 * id[1] + k] + v[3 * id[2] + k]) / 3;
        }
        double gust = w->turbulence > 0
                          ? 1 + w->turbulence * cloth__wind_noise(env.wind, t, centroid)
                          : 1;
        double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double q[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        double n[3] = {u[1] * q[2] - u[2] * q[1], u[2] * q[0] - u[0] * q[2],
                       u[0] * q[1] - u[1] * q[0]};
        double twice_area = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (twice_area == 0)
            continue;
        double rel[3], speed2 = 0, normal_speed = 0;
        for (int k = 0; k < 3; k++) {
            n[k] /= twice_area;
            rel[k] = w->wind[k] * gust - vmean[k];
            speed2 += rel[k] * rel[k];
            normal_speed += n[k] * rel[k];
        }
        /* F = 1/2 rho C_d A (n.v_rel) |v_rel| n, a third to each corner (after the
         * mass-spring cloth paper's triangle drag) */
        double mag = coeff * 0.5 * twice_area * normal_speed * sqrt(speed2) / 3;
        for (int corner = 0; corner < 3; corner++)
            for (int k = 0; k < 3; k++)
                f[3 * id[corner] + k] += mag * n[k];
    }
}

void cloth__add_air_damping(cloth__force_env env, const double *v, double *f)
{
    double c = env.world->air_damping;
    if (c == 0)
        return;
    for (int i = 0; i < 3 * env.mesh->n; i++)
        f[i] -= c * v[i];
}

void cloth__add_external_forces(cloth__force_env env, const double *x, const double *v,
                                double t, double *f)
{
    cloth__add_gravity(env, f);
    cloth__add_wind(env, x, v, t, f);
    if (v)
        cloth__add_air_damping(env, v, f);
}

cloth_status cloth__add_spring_forces(cloth__force_env env, const double *x, const double *v,
                                      double *f)
{
    const cloth_mesh *m = env.mesh;
    double cd = env.material->spring_damping;
    for (int s = 0; s < m->n_springs; s++) {
        const cloth_spring *sp = &m->springs[s];
        double u[3], tension;
        /* tension k (l - l0) (terms/spring.h), plus c_d (v_b - v_a).u along u */
        cloth_status st = cloth__spring_tension(x + 3 * sp->a, x + 3 * sp->b, sp->k,
                                                sp->rest, u, &tension);
        if (st != CLOTH_OK)
            return st;
        if (v && cd > 0) {
            const double *va = v + 3 * sp->a, *vb = v + 3 * sp->b;
            tension += cd * ((vb[0] - va[0]) * u[0] + (vb[1] - va[1]) * u[1] +
                             (vb[2] - va[2]) * u[2]);
        }
        for (int k = 0; k < 3; k++) {
            f[3 * sp->a + k] += tension * u[k];
            f[3 * sp->b + k] -= tension * u[k];
        }
    }
    return CLOTH_OK;
}
