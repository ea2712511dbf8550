/* Private: inverse kinematics by cyclic coordinate descent (CCD: Wang and Chen 1991;
 * the thesis animates its avatar with it).  A chain of joints ending at an end effector
 * (a joint's position) is turned, one joint at a time from the effector towards the
 * chain's root, each by the rotation that swings the effector onto the line from the
 * joint to the target:
 *
 *   a = e - p_k,  b = target - p_k,  axis = a x b / |a x b|,  angle = atan2(|a x b|, a.b),
 *
 * applied in the world frame (W_k <- Q W_k, so R_k <- W_parent^T Q W_parent R_k), then
 * clamped to the joint's limit (the angle of R_k from rest at most limit_k).  Sweeps
 * repeat until the effector is within tol of the target or max_iter sweeps are done.
 * The public cloth_avatar_ik (cloth.h) adds the per-step bound on the effector's motion. */
#ifndef CLOTH_BODY_IK_H
#define CLOTH_BODY_IK_H

#include "body/skeleton.h"

/* Moves pose so that joint end reaches target, turning end's chain ancestors (chain of
 * them, at most up to the root).  Returns the sweeps used; the effector's final distance
 * to the target in *dist. */
int cloth__ik_ccd(const cloth__skeleton *s, cloth__pose *pose, int end, int chain,
                  const double target[3], int max_iter, double tol, double *dist);

/* Limits a rotation to angle at most limit (rad) about its own axis. */
void cloth__rot_clamp(double R[9], double limit);

#endif
