/* The pbd kernel against mathematics: XPBD's static extensions (one spring, a chain),
 * PBD's exact constraints at k_pbd = 1, the dihedral gradient by finite differences,
 * obstacles, Müller's damping, determinism and bad keys. */
#include "cloth.h"
#include "terms/dihedral.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double dist(const double *a, const double *b)
{
    double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* ------------------------------------------------------ XPBD: static springs */

/* A free vertex of mass m on one spring k below a pinned one.  At rest p~ = x + h^2 g and
 * one XPBD projection gives the extension e' = (e + h^2 g) m/(m + k h^2), whose fixed
 * point is e = m g/k for every h; the constraint is linear along the line, so more
 * passes change nothing.  Air damping (a force, zero at rest) lets it settle. */
static const int single_iterations[] = {1, 4, 25};
static const double single_h[] = {1e-3, 4e-3, 2e-2};

START_TEST(xpbd_single_spring_settles_at_mg_over_k)
{
    int iterations = single_iterations[_i % 3];
    double h = single_h[_i / 3], k = 50, m = 0.5, g = 9.81, T = 5;
    char text[1024];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 1\nny = 2\nspacing = 1\nsprings = structural\n"
             "[material]\nk_structural = %g\nvertex_mass = %g\n"
             "[world]\nair_damping = 5\n"
             "[run]\nkernel = pbd\ndt = %.17g\n[pbd]\niterations = %d\n",
             k, m, h, iterations);
    cloth_sim *sim = tu_sim(text, "pbd.ini");
    tu_frames(sim, (int)lround(T / h));
    const double *x = cloth_sim_positions(sim), *v = cloth_sim_velocities(sim);
    double e = -x[4] - 1, expect = m * g / k;
    ck_assert_msg(fabs(e - expect) <= 1e-6 * expect,
                  "iterations %d, h %g: e = %.12g, m g/k = %.12g", iterations, h, e, expect);
    ck_assert(x[3] == 0 && x[5] == 0);
    ck_assert(fabs(v[4]) < 1e-6);
    cloth_sim_destroy(sim);
}
END_TEST

/* The extension of a damped chain of N free nodes hanging from a pinned one after it
 * settled, with n passes per step. */
static double chain_extension(int N, double m, double k, double s, double h, int passes)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 1\nny = %d\nspacing = %g\nsprings = structural\n"
             "[material]\nk_structural = %g\nvertex_mass = %g\n"
             "[world]\nair_damping = 2\n"
             "[run]\nkernel = pbd\ndt = %.17g\n[pbd]\niterations = %d\n",
             N + 1, s, k, m, h, passes);
    cloth_sim *sim = tu_sim(text, "pbd.ini");
    tu_frames(sim, (int)lround(6 / h));
    double extension = -(cloth_sim_positions(sim)[3 * N + 1] + N * s);
    cloth_sim_destroy(sim);
    return extension;
}

/* Static chain: spring j from the bottom carries j m g, so the chain stretches by
 * m g N (N + 1)/(2k).  XPBD reaches it only as its Gauss-Seidel solve converges: the
 * error must shrink as the passes grow, and vanish (1e-6) with enough of them. */
START_TEST(xpbd_chain_approaches_the_static_extension_as_passes_grow)
{
    int N = 8;
    double m = 0.05, k = 2000, s = 0.1, h = 0.01, g = 9.81;
    double expect = m * g * N * (N + 1) / (2 * k);
    static const int passes[] = {1, 4, 16, 64, 256};
    double previous = HUGE_VAL;
    for (int i = 0; i < 5; i++) {
        double error = fabs(chain_extension(N, m, k, s, h, passes[i]) - expect) / expect;
        ck_assert_msg(error < previous, "%d passes: error %g, not below %g", passes[i], error,
                      previous);
        previous = error;
    }
    ck_assert_msg(previous < 1e-6, "256 passes: relative error %g", previous);
}
END_TEST

/* --------------------------------------------------- PBD: exact constraints */

/* Largest |l/l0 - 1| over every spring (all are constraints with bending = springs). */
static double worst_violation(cloth_sim *sim)
{
    const cloth_mesh *mesh = cloth_sim_mesh(sim);
    const double *x = cloth_sim_positions(sim);
    double worst = 0;
    for (int s = 0; s < mesh->n_springs; s++) {
        const cloth_spring *sp = &mesh->springs[s];
        worst = fmax(worst, fabs(dist(x + 3 * sp->a, x + 3 * sp->b) / sp->rest - 1));
    }
    return worst;
}

/* With k_pbd = 1 each projection meets its constraint exactly; Gauss-Seidel over all of
 * them converges to a configuration that meets every one (the rest shape is feasible),
 * so with enough passes all hold to 1e-9.  One pass leaves the earlier constraints
 * broken by the later ones, by about h^2 g / l0. */
START_TEST(pbd_with_k_one_meets_every_distance_constraint)
{
    const char *base = "[mesh]\nnx = 4\nny = 4\nspacing = 0.1\n"
                       "[run]\nkernel = pbd\ndt = 0.01\n"
                       "[pbd]\nvariant = pbd\nk_pbd = 1\nk_pbd_bend = 1\niterations = %d\n";
    char text[512];
    snprintf(text, sizeof text, base, 3000);
    cloth_sim *sim = tu_sim(text, "pbd.ini");
    tu_frames(sim, 3);
    double worst = worst_violation(sim);
    ck_assert_msg(worst < 1e-9, "3000 passes: worst |l/l0 - 1| = %g", worst);
    cloth_sim_destroy(sim);

    snprintf(text, sizeof text, base, 1);
    sim = tu_sim(text, "pbd.ini");
    tu_frames(sim, 3);
    worst = worst_violation(sim);
    ck_assert_msg(worst > 1e-4, "1 pass: worst |l/l0 - 1| = %g", worst);
    cloth_sim_destroy(sim);
}
END_TEST

/* Müller's correction k' = 1 - (1 - k_pbd)^(1/n): a lone spring stretched by C0, at rest
 * and without gravity, keeps (1 - k')^n C0 = (1 - k_pbd) C0 after one step of n passes,
 * whatever n. */
START_TEST(pbd_stiffness_does_not_depend_on_the_pass_count)
{
    static const int passes[] = {1, 3, 10, 50};
    double k_pbd = 0.3, stretch = 0.2;
    char text[512];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 1\nny = 2\nspacing = 1\nprestretch = %g\nsprings = structural\n"
             "[world]\ngravity = 0 0 0\n[run]\nkernel = pbd\ndt = 0.01\n"
             "[pbd]\nvariant = pbd\nk_pbd = %g\niterations = %d\n",
             stretch, k_pbd, passes[_i]);
    cloth_sim *sim = tu_sim(text, "pbd.ini");
    tu_frames(sim, 1);
    double C = -cloth_sim_positions(sim)[4] - 1;
    ck_assert_double_eq_tol(C, (1 - k_pbd) * stretch, 1e-12);
    cloth_sim_destroy(sim);
}
END_TEST

/* ------------------------------------------------------------- dihedral */

/* A flap (x3) turned by phi about the edge x0-x1 from the flat position opposite x2: the
 * dihedral angle is phi, up to one sign for every phi, and odd in phi. */
START_TEST(dihedral_angle_of_a_turned_flap)
{
    double x0[3] = {0, 0, 0}, x1[3] = {1, 0, 0}, x2[3] = {0.3, -1, 0};
    double sign = 0;
    for (int i = -7; i <= 7; i++) {
        double phi = i * 0.4, x3[3] = {0.6, 0.7 * cos(phi), 0.7 * sin(phi)};
        double theta = cloth__dihedral_angle(x0, x1, x2, x3);
        if (i == 1)
            sign = theta > 0 ? 1 : -1;
        ck_assert_double_eq_tol(fabs(theta), fabs(phi), 1e-12);
        double mirror[3] = {0.6, 0.7 * cos(-phi), 0.7 * sin(-phi)};
        ck_assert_double_eq_tol(cloth__dihedral_angle(x0, x1, x2, mirror), -theta, 1e-12);
    }
    double x3[3] = {0.6, 0.7 * cos(0.8), 0.7 * sin(0.8)};
    ck_assert_double_eq_tol(cloth__dihedral_angle(x0, x1, x2, x3), sign * 0.8, 1e-12);
}
END_TEST

static double angle_of(const double *x, void *ctx)
{
    (void)ctx;
    return cloth__dihedral_angle(x, x + 3, x + 6, x + 9);
}

/* Hinges from near flat to folded past 90 degrees, both signs, skewed opposite vertices. */
static const double hinges[][12] = {
    {0, 0, 0, 1, 0.1, 0, 0.3, -0.9, 0.2, 0.6, 0.8, 0.5},
    {0, 0, 0, 1, 0, 0, 0.5, -1, 0.001, 0.5, 1, 0.002},
    {0.1, 0.2, -0.3, 0.9, -0.4, 0.5, -0.2, 0.7, 0.9, 1.3, 0.6, -0.8},
    {0, 0, 0, 0, 0.1, 1, 1, 0, 0.5, 0.2, -0.05, 0.3},
    {0, 0, 0, 2, 0, 0, 1.5, -0.3, 0.1, 0.2, -0.4, -0.2},
};

START_TEST(dihedral_gradient_matches_finite_differences)
{
    const double *x = hinges[_i];
    double theta, g[12], fd[12];
    ck_assert(cloth__dihedral_gradient(x, x + 3, x + 6, x + 9, &theta, g));
    ck_assert_double_eq_tol(theta, angle_of(x, NULL), 1e-15);
    tu_fd_gradient(angle_of, NULL, x, 12, 1e-6, fd);
    double err = tu_rel_error(g, fd, 12, 1e-3);
    ck_assert_msg(err < 1e-6, "hinge %d: relative error %g", _i, err);
    /* a translation does not change the angle: the gradient sums to zero */
    for (int k = 0; k < 3; k++)
        ck_assert(fabs(g[k] + g[3 + k] + g[6 + k] + g[9 + k]) < 1e-12);
}
END_TEST

/* A cantilever: a 3 x 3 cloth lying in xz with its first two rows pinned, so that the
 * last row can only fold about the middle row.  With dihedral constraints of a huge
 * k_bend it stays nearly level; with no bending at all (structural and shear springs
 * only) it hangs down by about its width 0.1 m. */
START_TEST(dihedral_bending_resists_folding)
{
    const char *fmt = "[mesh]\nnx = 3\nny = 3\nspacing = 0.1\nplane = xz\n"
                      "pins = 0 1 2 3 4 5\n"
                      "springs = structural,shear\n[material]\nk_bend = 1e6\n"
                      "[world]\nair_damping = 0.01\n"
                      "[run]\nkernel = pbd\ndt = 0.01\n[pbd]\nbending = %s\niterations = 20\n";
    char text[512];
    snprintf(text, sizeof text, fmt, "dihedral");
    cloth_sim *sim = tu_sim(text, "pbd.ini");
    tu_frames(sim, 100);
    double stiff = cloth_sim_positions(sim)[3 * 7 + 1];
    cloth_sim_destroy(sim);
    snprintf(text, sizeof text, fmt, "springs");
    sim = tu_sim(text, "pbd.ini");
    tu_frames(sim, 100);
    double limp = cloth_sim_positions(sim)[3 * 7 + 1];
    cloth_sim_destroy(sim);
    ck_assert_msg(limp < -0.05, "without bending the middle of the last row is at %g", limp);
    ck_assert_msg(stiff > -0.01, "with bending it is at %g (limp: %g)", stiff, limp);
}
END_TEST

/* With dihedral bending the elastic column holds the stretch springs and the hinges, not
 * the bend springs.  A 2 x 2 square (side s) has one hinge, the diagonal a-d; turning c
 * about that diagonal by phi keeps |c - a| and |c - d| and changes only the other
 * diagonal b-c (shear), so E = 1/2 k_shear (|b - c| - s sqrt 2)^2 + 1/2 k_bend (s sqrt 2)^2
 * phi^2 exactly. */
START_TEST(dihedral_elastic_energy_counts_hinges_not_bend_springs)
{
    const double s = 0.1, phi = 0.3, k_shear = 70, k_bend = 3;
    char text[512];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 2\nny = 2\nspacing = %g\nplane = xz\npins = none\n"
             "[material]\nk_shear = %g\nk_bend = %g\n[world]\ngravity = 0 0 0\n"
             "[run]\nkernel = pbd\n[pbd]\nbending = dihedral\n", s, k_shear, k_bend);
    cloth_sim *sim = tu_sim(text, "pbd.ini");
    double *x = cloth_sim_positions(sim);
    /* a = 0 (0,0,0), b = 1 (s,0,0), c = 2 (0,0,s), d = 3 (s,0,s): turn c about a-d */
    double u[3] = {1 / sqrt(2.0), 0, 1 / sqrt(2.0)}, c[3] = {0, 0, s};
    double along = c[0] * u[0] + c[2] * u[2];
    double perp[3] = {c[0] - along * u[0], 0, c[2] - along * u[2]}; /* from the axis to c */
    double pl = sqrt(perp[0] * perp[0] + perp[2] * perp[2]);
    for (int k = 0; k < 3; k++)
        x[3 * 2 + k] = along * u[k] + perp[k] * cos(phi) + (k == 1 ? pl * sin(phi) : 0);
    cloth_frame f;
    cloth_sim_measure(sim, &f);
    double bc[3] = {x[6] - s, x[7], x[8]};
    double lbc = sqrt(bc[0] * bc[0] + bc[1] * bc[1] + bc[2] * bc[2]);
    double expected = 0.5 * k_shear * pow(lbc - s * sqrt(2.0), 2) +
                      0.5 * k_bend * 2 * s * s * phi * phi;
    ck_assert_msg(fabs(f.elastic - expected) < 1e-12 * expected, "elastic %.17g, expected %.17g",
                  f.elastic, expected);
    cloth_sim_destroy(sim);

    /* A flat 3 x 3 cloth stretched by 1 + e in its plane: every hinge stays flat, and the
     * 12 structural (l0 = s) and 8 shear (l0 = s sqrt 2) springs hold all the energy; the
     * 6 bend springs, stretched too, are not simulated and must not count. */
    const double e = 0.05, k_st = 40;
    snprintf(text, sizeof text,
             "[mesh]\nnx = 3\nny = 3\nspacing = %g\nplane = xz\nprestretch = %g\n"
             "[material]\nk_structural = %g\nk_shear = %g\nk_bend = %g\n"
             "[run]\nkernel = pbd\n[pbd]\nbending = dihedral\n", s, e, k_st, k_shear, k_bend);
    sim = tu_sim(text, "pbd.ini");
    cloth_sim_measure(sim, &f);
    expected = 12 * 0.5 * k_st * pow(s * e, 2) + 8 * 0.5 * k_shear * pow(sqrt(2.0) * s * e, 2);
    ck_assert_msg(fabs(f.elastic - expected) < 1e-12 * expected, "elastic %.17g, expected %.17g",
                  f.elastic, expected);
    cloth_sim_destroy(sim);
}
END_TEST

/* ------------------------------------------------------------- obstacles */

/* A cloth dropped onto a sphere above a floor, both variants, both bendings: after every
 * step (one per frame) no vertex is inside either obstacle. */
START_TEST(no_vertex_ends_a_step_inside_an_obstacle)
{
    static const char *const modes[][2] = {
        {"xpbd", "springs"}, {"pbd", "springs"}, {"xpbd", "dihedral"}, {"pbd", "dihedral"}};
    char text[1024];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 8\nny = 8\nspacing = 0.1\nplane = xz\norigin = -0.35 0.3 -0.35\n"
             "pins = none\n"
             "[sphere]\ncenter = 0.1 0 0\nradius = 0.2\noffset = 0.02\n"
             "[plane]\nheight = -0.5\noffset = 0.01\n"
             "[run]\nkernel = pbd\ndt = 0.01\n[pbd]\nvariant = %s\nbending = %s\n"
             "iterations = 5\n",
             modes[_i][0], modes[_i][1]);
    cloth_sim *sim = tu_sim(text, "pbd.ini");
    cloth_frame f;
    cloth_error err;
    int touched = 0;
    for (int frame = 0; frame < 120; frame++) {
        ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
        const double *x = cloth_sim_positions(sim);
        for (int i = 0; i < 64; i++) {
            const double *p = x + 3 * i, c[3] = {0.1, 0, 0};
            double gap_sphere = dist(p, c) - 0.22, gap_floor = p[1] + 0.5 - 0.01;
            ck_assert_msg(gap_sphere >= -1e-12 && gap_floor >= -1e-12,
                          "frame %d vertex %d: gaps %g %g", frame, i, gap_sphere, gap_floor);
            touched |= fabs(gap_sphere) < 1e-9;
        }
        ck_assert_int_eq(f.penetrations, 0);
    }
    ck_assert_msg(touched, "the cloth never reached the sphere: the test tests nothing");
    cloth_sim_destroy(sim);
}
END_TEST

/* --------------------------------------------------------------- damping */

/* Sets v = u + omega x (x - c) on every vertex. */
static void set_rigid_velocity(cloth_sim *sim, const double u[3], const double omega[3],
                               const double c[3])
{
    const double *x = cloth_sim_positions(sim);
    double *v = cloth_sim_velocities(sim);
    for (int i = 0; i < cloth_sim_mesh(sim)->n; i++) {
        double r[3] = {x[3 * i] - c[0], x[3 * i + 1] - c[1], x[3 * i + 2] - c[2]};
        v[3 * i + 0] = u[0] + omega[1] * r[2] - omega[2] * r[1];
        v[3 * i + 1] = u[1] + omega[2] * r[0] - omega[0] * r[2];
        v[3 * i + 2] = u[2] + omega[0] * r[1] - omega[1] * r[0];
    }
}

/* Müller's damping removes only non-rigid velocity: a free square (and a free pair, whose
 * inertia tensor is singular) moving rigidly steps the same with k_d = 1 as with 0.  No
 * air (its drag on the triangles would twist the square). */
START_TEST(damping_leaves_rigid_motion_alone)
{
    static const char *const meshes[] = {"nx = 2\nny = 2\n", "nx = 2\nny = 1\n"};
    double u[3] = {0.3, -0.2, 0.1}, omega[3] = {0.5, 1, -2}, c[3] = {0.05, -0.05, 0};
    double after[2][12];
    for (int damped = 0; damped < 2; damped++) {
        char text[512];
        snprintf(text, sizeof text,
                 "[mesh]\n%sspacing = 0.1\npins = none\n"
                 "[world]\ngravity = 0 0 0\nair_density = 0\n"
                 "[run]\nkernel = pbd\ndt = 0.01\n[pbd]\ndamping = %d\n",
                 meshes[_i], damped);
        cloth_sim *sim = tu_sim(text, "pbd.ini");
        set_rigid_velocity(sim, u, omega, c);
        tu_frames(sim, 1);
        int n = cloth_sim_mesh(sim)->n;
        memcpy(after[damped], cloth_sim_velocities(sim), sizeof(double) * 3 * (size_t)n);
        cloth_sim_destroy(sim);
    }
    double err = tu_rel_error(after[1], after[0], _i == 0 ? 12 : 6, 1);
    ck_assert_msg(err < 1e-9, "relative difference %g", err);
}
END_TEST

/* A free pair flying apart along its axis while translating at U: k_d = 1 removes the
 * relative motion before the prediction, so both vertices end the step moving at U
 * (the spring is never stretched); with k_d = 0 the soft spring lets them separate. */
START_TEST(full_damping_removes_deformation_velocity)
{
    double U[3] = {0.3, -0.2, 0.1}, spread = 0.5;
    double off = 0;
    for (int damped = 1; damped >= 0; damped--) {
        char text[512];
        snprintf(text, sizeof text,
                 "[mesh]\nnx = 2\nny = 1\nspacing = 0.1\npins = none\n"
                 "[material]\nk_structural = 1\n[world]\ngravity = 0 0 0\n"
                 "[run]\nkernel = pbd\ndt = 0.01\n[pbd]\ndamping = %d\n",
                 damped);
        cloth_sim *sim = tu_sim(text, "pbd.ini");
        double *v = cloth_sim_velocities(sim);
        for (int k = 0; k < 3; k++)
            v[k] = v[3 + k] = U[k];
        v[0] -= spread;
        v[3] += spread;
        tu_frames(sim, 1);
        off = 0;
        for (int i = 0; i < 2; i++)
            for (int k = 0; k < 3; k++)
                off = fmax(off, fabs(v[3 * i + k] - U[k]));
        if (damped)
            ck_assert_msg(off < 1e-12, "k_d = 1: |v - U| = %g", off);
        cloth_sim_destroy(sim);
    }
    ck_assert_msg(off > 0.1 * spread, "k_d = 0: |v - U| = %g", off);
}
END_TEST

/* ----------------------------------------------------------- determinism */

/* The hanging scene (wind, turbulence, moving sphere) run twice: identical series.csv
 * apart from wall_ms, identical final.obj. */
START_TEST(two_runs_are_byte_identical_apart_from_wall_time)
{
    static const char *const sets[] = {"pbd.variant=xpbd", "pbd.bending=dihedral",
                                       "pbd.variant=pbd", "pbd.damping=0.1"};
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_load("../experiments/hanging.ini", &s, &err) == CLOTH_OK, "%s",
                  err.msg);
    ck_assert(cloth_scene_set(&s, "run.kernel=pbd", 1, &err) == CLOTH_OK);
    ck_assert(cloth_scene_set(&s, "run.frames=20", 2, &err) == CLOTH_OK);
    ck_assert(cloth_scene_set(&s, "run.substeps=2", 3, &err) == CLOTH_OK);
    for (int i = 0; i <= _i; i++)
        ck_assert(cloth_scene_set(&s, sets[i], 4 + i, &err) == CLOTH_OK);
    const char *a = tu_temp_dir(5), *b = tu_temp_dir(6);
    cloth_summary sa, sb;
    ck_assert_msg(cloth_run(&s, a, NULL, &sa, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_msg(cloth_run(&s, b, NULL, &sb, &err) == CLOTH_OK, "%s", err.msg);
    ck_assert_int_eq(sa.status, CLOTH_RUN_OK);
    ck_assert_int_eq(sa.total_iterations, 20 * 2 * 10);
    static const char *const files[] = {"series.csv", "final.obj"};
    for (int f = 0; f < 2; f++) {
        char *ta = tu_slurp(a, files[f]), *tb = tu_slurp(b, files[f]);
        ck_assert(ta && tb);
        if (f == 0) {
            tu_drop_last_column(ta);
            tu_drop_last_column(tb);
        }
        ck_assert_msg(strcmp(ta, tb) == 0, "%s differs", files[f]);
        free(ta);
        free(tb);
    }
}
END_TEST

/* ------------------------------------------------------------- bad keys */

static const struct { const char *text, *prefix; } bad[] = {
    {"[pbd]\niterations = 0\n", "bad.ini:2: pbd.iterations: "},
    {"[pbd]\n\niterations = 2.5\n", "bad.ini:3: pbd.iterations: "},
    {"[pbd]\nvariant = jacobi\n", "bad.ini:2: pbd.variant: "},
    {"[pbd]\nbending = hinges\n", "bad.ini:2: pbd.bending: "},
    {"[pbd]\nk_pbd = 0\n", "bad.ini:2: pbd.k_pbd: "},
    {"[pbd]\nk_pbd = 1.5\n", "bad.ini:2: pbd.k_pbd: "},
    {"[pbd]\nk_pbd_bend = -0.1\n", "bad.ini:2: pbd.k_pbd_bend: "},
    {"[pbd]\ndamping = 2\n", "bad.ini:2: pbd.damping: "},
    {"[pbd]\ndamping = nan\n", "bad.ini:2: pbd.damping: "},
    {"[pbd]\nstiffness = 1\n", "bad.ini:2: pbd.stiffness: "},
};

START_TEST(bad_keys_name_file_line_and_key)
{
    cloth_scene s;
    cloth_error err;
    ck_assert(cloth_scene_parse(bad[_i].text, "bad.ini", &s, &err) != CLOTH_OK);
    ck_assert_msg(strncmp(err.msg, bad[_i].prefix, strlen(bad[_i].prefix)) == 0,
                  "got '%s', want '%s'", err.msg, bad[_i].prefix);
    /* the CLI: exit 2 and "cloth: FILE:LINE: key: reason" */
    const char *path = tu_temp_file("pbd_bad.ini", bad[_i].text);
    char cmd[512], out[2048], prefix[512];
    snprintf(cmd, sizeof cmd, "run %s --set run.kernel=pbd --out %s", path, tu_temp_dir(7));
    snprintf(prefix, sizeof prefix, "cloth: %s%s", path, bad[_i].prefix + strlen("bad.ini"));
    ck_assert_int_eq(tu_run_cli(cmd, out, sizeof out), 2);
    ck_assert_msg(strncmp(out, prefix, strlen(prefix)) == 0, "got '%s', want '%s'", out,
                  prefix);
    ck_assert(strlen(out) > strlen(prefix) + 1); /* a reason follows */
}
END_TEST

/* XPBD with every stiffness 0 has infinite compliance everywhere: no constraint acts and
 * the cloth falls freely, y_n = y_0 - g h^2 n (n + 1) / 2 (position update after the
 * velocity update), in both bending modes. */
START_TEST(zero_stiffness_means_no_constraint)
{
    char text[512];
    snprintf(text, sizeof text,
             "[mesh]\nnx = 4\nny = 4\npins = none\n"
             "[material]\nk_structural = 0\nk_shear = 0\nk_bend = 0\n"
             "[world]\nair_density = 0\n"
             "[run]\nkernel = pbd\ndt = 0.01\n[pbd]\nbending = %s\n",
             _i ? "dihedral" : "springs");
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(text, "zero.ini", &s, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    cloth_frame f;
    int n = 10;
    for (int i = 0; i < n; i++)
        ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
    const double *x = cloth_sim_positions(sim);
    const cloth_mesh *m = cloth_sim_mesh(sim);
    for (int i = 0; i < m->n; i++)
        ck_assert_double_eq_tol(x[3 * i + 1] - m->x0[3 * i + 1],
                                -9.81 * 0.01 * 0.01 * n * (n + 1) / 2, 1e-12);
    cloth_sim_destroy(sim);
}
END_TEST

Suite *suite_pbd(void)
{
    Suite *s = suite_create("pbd");
    TCase *tc = tcase_create("closed forms");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, xpbd_single_spring_settles_at_mg_over_k, 0, 9);
    tcase_add_test(tc, xpbd_chain_approaches_the_static_extension_as_passes_grow);
    tcase_add_test(tc, pbd_with_k_one_meets_every_distance_constraint);
    tcase_add_loop_test(tc, pbd_stiffness_does_not_depend_on_the_pass_count, 0, 4);
    tcase_add_test(tc, dihedral_angle_of_a_turned_flap);
    tcase_add_loop_test(tc, dihedral_gradient_matches_finite_differences, 0,
                        (int)(sizeof hinges / sizeof hinges[0]));
    tcase_add_test(tc, dihedral_bending_resists_folding);
    tcase_add_test(tc, dihedral_elastic_energy_counts_hinges_not_bend_springs);
    tcase_add_loop_test(tc, zero_stiffness_means_no_constraint, 0, 2);
    tcase_add_loop_test(tc, no_vertex_ends_a_step_inside_an_obstacle, 0, 4);
    tcase_add_loop_test(tc, damping_leaves_rigid_motion_alone, 0, 2);
    tcase_add_test(tc, full_damping_removes_deformation_velocity);
    suite_add_tcase(s, tc);
    tc = tcase_create("runs");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, two_runs_are_byte_identical_apart_from_wall_time, 0, 4);
    tcase_add_loop_test(tc, bad_keys_name_file_line_and_key, 0,
                        (int)(sizeof bad / sizeof bad[0]));
    suite_add_tcase(s, tc);
    return s;
}
