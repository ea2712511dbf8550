/* Private: the forces shared by the force-based kernels (explicit, verlet provot) and,
 * for external forces, by pbd and newton.  Each adds into f (3n); none allocates. */
#ifndef CLOTH_FORCES_H
#define CLOTH_FORCES_H

#include "cloth.h"
#include "terms/wind.h"

/* What the forces read: the mesh, the scene's world and material, the wind's modes. */
typedef struct cloth__force_env {
    const cloth_mesh *mesh;             /* masses, springs, triangles                   */
    const cloth_world_def *world;       /* gravity, wind, air                           */
    const cloth_material_def *material; /* spring damping                               */
    const cloth__wind *wind;            /* turbulence modes                             */
} cloth__force_env;

/* Gravity m g on every free vertex. */
void cloth__add_gravity(cloth__force_env env, double *f);

/* Aerodynamic triangle force (the mass-spring cloth paper): v_rel = w(t, centroid) -
 * mean vertex velocity, F = 1/2 rho C_d A (n.v_rel)|v_rel| n, a third to each vertex.
 * v may be NULL (at rest). */
void cloth__add_wind(cloth__force_env env, const double *x, const double *v, double t,
                     double *f);

/* Air damping -c v per vertex. */
void cloth__add_air_damping(cloth__force_env env, const double *v, double *f);

/* Gravity + wind + air damping. */
void cloth__add_external_forces(cloth__force_env env, const double *x, const double *v,
                                double t, double *f);

/* Hooke forces -k (l - l0) u of every spring, plus spring damping
 * -c_d ((v_i - v_j).u) u when v is not NULL.  CLOTH_OK, or the status of
 * cloth__spring_tension (an assignment's stub: CLOTH_ENOTIMPL), f then partly summed. */
cloth_status cloth__add_spring_forces(cloth__force_env env, const double *x, const double *v,
                                      double *f);

#endif
