/* Private: the body's joints a page may pull by IK (effectors.c). */
#ifndef CLOTH_APP_EFFECTORS_H
#define CLOTH_APP_EFFECTORS_H

#include "app/serve/viewer.h"

/* The joint name of effector e (0 .. CLOTH__VIEW_EFFECTORS - 1: hands, then feet). */
const char *cloth__viewer_effector(int e);

/* The effector whose joint the ray origin + t u (u unit, t > 0) passes closest to,
 * within 8 cm, the nearest along the ray (its t in *t_hit); -1 for none. */
int cloth__viewer_pick_effector(const cloth__viewer *v, const double origin[3],
                                const double u[3], double *t_hit);

/* page holds effector e, grabbed along the ray origin + t u: its IK target starts where
 * it is (a cloth vertex held is let go first).  Fills reply. */
void cloth__viewer_grab_effector(cloth__viewer *v, const void *page, int e,
                                 const double origin[3], const double u[3],
                                 cloth__reply *reply);

/* One IK call pulling the held effector towards its target (between two frames). */
void cloth__viewer_pull_effector(cloth__viewer *v, cloth__reply *reply);

#endif
