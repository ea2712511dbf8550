/* Every Check suite of the project; test_main.c runs them all.  A new test file adds
 * one line here. */
#ifndef CLOTH_TEST_SUITES_H
#define CLOTH_TEST_SUITES_H
#include <check.h>

/* make check runs every other suite in each of its two lanes (test_cloth K/2): the order
 * puts the heavy suites (pbd_strain, coloured, sparse, newton, collide_kernels,
 * strain_project, material, self_contact, body_play: 9-18 s of CPU each on 2026-12-06)
 * so that the lanes' shares are near (75 and 77 s), not 96 and 57 as before. */
#define CLOTH_TEST_SUITES(X) \
    X(spring) \
    X(mesh) \
    X(scene) \
    X(explicit) \
    X(verlet) \
    X(pbd) \
    X(pd) \
    X(pbd_strain) \
    X(run) \
    X(coloured) \
    X(columns) \
    X(sweep) \
    X(barrier) \
    X(contact) \
    X(linalg) \
    X(sparse) \
    X(spatial_hash) \
    X(stiffness) \
    X(newton_body) \
    X(newton) \
    X(newton_kappa) \
    X(newton_alpha) \
    X(newton_springs) \
    X(newton_floor) \
    X(newton_speed) \
    X(modes) \
    X(kernels) \
    X(kernel_facts) \
    X(interact) \
    X(commands) \
    X(intersect) \
    X(self_collision) \
    X(distance) \
    X(ccd) \
    X(tunnel) \
    X(collide) \
    X(collide_kernels) \
    X(broad_phase) \
    X(friction) \
    X(strain_limit) \
    X(strain_project) \
    X(bw) \
    X(io_failures) \
    X(material) \
    X(self_contact) \
    X(record) \
    X(garment) \
    X(garment_sewing) \
    X(body) \
    X(body_parts) \
    X(body_files) \
    X(body_motion) \
    X(body_play) \
    X(golden) \
    X(newton_exact)

#define CLOTH_DECLARE_SUITE(name) Suite *suite_##name(void);
CLOTH_TEST_SUITES(CLOTH_DECLARE_SUITE)
#undef CLOTH_DECLARE_SUITE

#endif
