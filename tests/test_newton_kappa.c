/* The newton kernel's barrier stiffness over a step (issue 31): kappa_update = monotone
 * never lowers a term's kappa within a step, and with it the cubic barrier converges on
 * the strain-limit ablation scene, where a kappa frozen at the step's start jams. */
#include "kernels/newton/newton.h"
#include "kernels/newton/newton_work.h"
#include "sim/sim.h"
#include "terms/spring.h"
#include "suites.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static cloth_sim *make_sim(const char *text)
{
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_parse(text, "newton_kappa_test.ini", &s, &err) == CLOTH_OK,
                  "%s", err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    return sim;
}

/* ------------------------------------------------- one vertex on a plane */

/* Two vertices 10 cm apart, 3 cm above a floor (g^ = 5 cm); vertex 0 is pinned, vertex 1
 * hangs on the spring and is pressed into the floor by 5 g.  Its one barrier term has
 * ZOZO's kappa = n^T H_el n + m / g^2 (Ando 2024, eq. 4; n = e_y), which grows at every
 * iterate as the gap closes within a step.  kappa_update = monotone: the first row of a
 * step shows the larger of kappa at the step's start (computed here from the state) and
 * the term's kappa at the end of the previous step (it stays active throughout, so its
 * kappa is carried), no later row shows less than the one before, kappa does rise
 * within some step, and every step converges.  (tol = 1e-8: |dx|/h < 1e-9 m/s.  At 1e-9
 * the test sat at round-off: with kappa carried, frame 7 stopped as stalled with
 * |grad E| = 3e-10 N and E = 0.0055 J unchanged to 16 digits, as no Armijo trial can
 * resolve a decrease below E's last bit.) */
static const char *pressed_scene =
    "[mesh]\nnx = 2\nny = 1\nspacing = 0.1\nplane = xz\norigin = 0 0.03 0\n"
    "springs = structural\npins = 0\n"
    "[material]\nk_structural = 50\nvertex_mass = 0.01\n"
    "[world]\ngravity = 0 -49.05 0\n"
    "[plane]\nheight = 0\n"
    "[run]\nkernel = newton\ndt = 0.01\n"
    "[newton]\nbarrier = cubic\nkappa = dynamic\nkappa_update = monotone\ndhat = 0.05\n"
    "strain_limit = 0\ntol = 1e-8\nmax_iters = 50\ncond = off\n";

START_TEST(monotone_kappa_never_drops_within_a_step)
{
    cloth_sim *sim = make_sim(pressed_scene);
    const double *x = cloth_sim_positions(sim);
    const cloth_mesh *m = cloth_sim_mesh(sim);
    cloth_frame f;
    cloth_error err;
    int rose = 0;
    double carried = 0; /* the term's kappa at the end of the previous step */
    for (int frame = 1; frame <= 20; frame++) {
        double H[36], g = x[3 * 1 + 1];
        const cloth_spring *sp = &m->springs[0];
        cloth__spring_hessian(x + 3 * sp->a, x + 3 * sp->b, sp->k, sp->rest, 1, H);
        double want = H[6 * 4 + 4] + 0.01 / (g * g); /* e_y^T H_11 e_y + m / g^2 */
        want = fmax(want, carried);
        ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
        ck_assert_int_eq(f.not_converged, 0);
        const cloth_iter *rows;
        int n = cloth_sim_log(sim, &rows);
        ck_assert_int_ge(n, 1);
        ck_assert_str_eq(rows[n - 1].stop, "converged");
        ck_assert_int_eq(tu_log_value(sim, &rows[0], "active_contacts"), 1);
        double kappa0 = tu_log_value(sim, &rows[0], "kappa_max");
        ck_assert_msg(fabs(kappa0 - want) <= 1e-12 * want,
                      "frame %d: kappa %.15g, closed form %.15g", frame, kappa0, want);
        for (int r = 1; r < n; r++) {
            double kappa = tu_log_value(sim, &rows[r], "kappa_max");
            double before = tu_log_value(sim, &rows[r - 1], "kappa_max");
            ck_assert_msg(kappa >= before, "frame %d row %d: kappa %.17g after %.17g", frame, r,
                          kappa, before);
            rose |= kappa > kappa0 * (1 + 1e-9);
        }
        carried = tu_log_value(sim, &rows[n - 1], "kappa_max");
    }
    ck_assert(rose); /* the rule was exercised, not only a constant kappa */
    ck_assert(x[3 * 1 + 1] > 0);
    cloth_sim_destroy(sim);
}
END_TEST

/* ------------------------------------------------- a stalled step */

/* The same vertex at 5 mm over the floor with a fixed kappa = 1 and the cubic barrier
 * (g^ = 1 cm): psi'(g) = -(2/g^)(g^ - g)^2 is at most 2 g^ in size, so the barrier pushes
 * with at most 2 kappa g^ = 0.02 N.  Gravity 500 m/s^2 puts x~ at y = 0.005 - h^2 500 =
 * -0.045, and the inertia term pulls with m/h^2 (y - y~) >= 4.5 N anywhere above the
 * floor (the horizontal spring's vertical pull at that sag is below 1e-3 N): E has no
 * minimiser above the floor, every Newton step points through it and the feasibility
 * filter lets the gap close only to eta of itself, so alpha |dx| falls geometrically and
 * E stops changing.  The step must stop as stalled, well before
 * max_iters, say so on its last newton.csv row, count as not converged, and keep the
 * vertex above the floor. */
static const char *jammed_scene =
    "[mesh]\nnx = 2\nny = 1\nspacing = 0.1\nplane = xz\norigin = 0 0.005 0\n"
    "springs = structural\npins = 0\n"
    "[material]\nk_structural = 50\nvertex_mass = 0.01\n"
    "[world]\ngravity = 0 -500 0\n"
    "[plane]\nheight = 0\n"
    "[run]\nkernel = newton\ndt = 0.01\n"
    "[newton]\nbarrier = cubic\nkappa = fixed\nkappa_value = 1\ndhat = 0.01\n"
    "strain_limit = 0\ntol = 1e-6\nmax_iters = 500\ncond = off\n";

START_TEST(jammed_step_stops_as_stalled)
{
    cloth_sim *sim = make_sim(jammed_scene);
    cloth_frame f;
    cloth_error err;
    ck_assert(cloth_sim_frame(sim, &f, &err) == CLOTH_OK);
    const cloth_iter *rows;
    int n = cloth_sim_log(sim, &rows);
    ck_assert_int_eq(f.not_converged, 1);
    ck_assert_int_eq(f.stalled, 1);
    ck_assert_int_lt(n, 100);
    ck_assert_str_eq(rows[n - 1].stop, "stalled");
    for (int r = 0; r < n - 1; r++)
        ck_assert_str_eq(rows[r].stop, "");
    ck_assert(cloth_sim_positions(sim)[3 * 1 + 1] > 0);
    cloth_sim_destroy(sim);
}
END_TEST

/* ------------------------------------------------- a triangle's strain kappa */

/* ZOZO's strain kappa of a triangle (ppf-contact-solver, strainlimiting.cu:22-43):
 * w^T H_el w + m_t / g^2, w the offsets of its vertices from their centroid at the step's
 * start, H_el the springs' Hessian over its stencil at the iterate, m_t = rho A.
 * A 6 x 6 grid of spacing s with structural springs k only, density rho, the step
 * starting at rest, evaluated at the sheet stretched uniformly by 1 + e in its plane
 * (tau = 5 %, beta = 0.5: e = 3 % is inside the band, g = tau - e).  An interior
 * triangle is right isosceles with legs s along the axes; a spring of direction u
 * stretched to l = (1 + e) l0 has the Hessian k u u^T + k c (I - u u^T), c = e/(1 + e).
 * w = (-s/3, -s/3), (2s/3, -s/3), (-s/3, 2s/3) at the right angle and the two others.
 * Summing k (u.dw)^2 + k c |dw - (u.dw) u|^2 over the springs that touch it (dw = w_b -
 * w_a for its two legs, w_a for the nine springs to outside vertices):
 *   along u:  2 s^2 (legs) + 2/9 s^2 + 6/9 s^2 + 6/9 s^2 = 32/9 s^2,
 *   across:   0 (legs)     + 2/9 s^2 + 9/9 s^2 + 9/9 s^2 = 20/9 s^2,
 * so kappa = k s^2 (32/9 + c 20/9) + (rho s^2/2) / (tau - e)^2. */
static const char *stretch_scene =
    "[mesh]\nnx = 6\nny = 6\nspacing = 0.1\nplane = xz\nsprings = structural\n"
    "pins = none\n"
    "[material]\nk_structural = 40\ndensity = 0.3\n"
    "[run]\nkernel = newton\ndt = 0.01\n"
    "[newton]\nbarrier = cubic\nkappa = dynamic\nkappa_form = paper\n"
    "strain_limit = 0.05\nstrain_band = 0.5\nstrain_measure = triangle\ncond = off\n";

START_TEST(interior_triangle_strain_kappa_has_its_closed_form)
{
    cloth_sim *sim = make_sim(stretch_scene);
    cloth__newton *w = sim->work;
    const cloth_mesh *m = cloth_sim_mesh(sim);
    double s = 0.1, k = 40, rho = 0.3, tau = 0.05, e = 0.03, c = e / (1 + e);
    double x[3 * 36], grad[3 * 36], lo[3] = {1e9, 1e9, 1e9}, hi[3] = {-1e9, -1e9, -1e9};
    ck_assert_int_eq(m->n, 36);
    ck_assert_int_eq(cloth__newton_ndof(w), 3 * 36);
    for (int i = 0; i < 3 * m->n; i++) {
        x[i] = (1 + e) * m->rest[i];
        lo[i % 3] = fmin(lo[i % 3], m->rest[i]);
        hi[i % 3] = fmax(hi[i % 3], m->rest[i]);
    }
    cloth__newton_prepare(w, sim, 0.01); /* the step starts at rest */
    cloth__newton_potential(w, sim, x, grad, 0, 0);
    double want = k * s * s * (32.0 / 9 + c * 20.0 / 9) + rho * s * s / 2 / ((tau - e) * (tau - e));
    int interior = 0;
    for (int t = 0; t < m->n_tris; t++) {
        int inside = 1;
        for (int q = 0; q < 3; q++) {
            const double *p = m->rest + 3 * m->tris[3 * t + q];
            inside &= p[0] > lo[0] + 1e-9 && p[0] < hi[0] - 1e-9 && p[2] > lo[2] + 1e-9 &&
                      p[2] < hi[2] - 1e-9;
        }
        if (!inside)
            continue;
        interior++;
        ck_assert_msg(fabs(w->kappa.tri[t] - want) <= 1e-12 * want,
                      "triangle %d: kappa %.15g, closed form %.15g", t, w->kappa.tri[t], want);
    }
    ck_assert_int_eq(interior, 2 * 3 * 3); /* the inner 4 x 4 vertices' 3 x 3 squares */
    cloth_sim_destroy(sim);
}
END_TEST

/* ------------------------------------------------- ZOZO's loop */

/* newton.loop = zozo on a free-falling 3 x 3 cloth at rest lengths, no air, no obstacle:
 * a uniform translation strains no spring, so the Newton step of every solve is exactly
 * dx = x~ - x (H dx = M/h^2 (x~ - x) + K dx, K dx = 0), and the loop reduces to the
 * scalar rule read from ZOZO's main.cu (newton.c, zozo_step): per inner step over the
 * time left, solves at x~ = y0 + dt v0 + dt^2 g, each moving r = min(1, max_dx/|dx|) of
 * dx (toi = 1: nothing to hit), a += (1 - a) r, until a >= target_toi; then one solve with
 * dt = a left; v = (y - y0)/(a left); inner steps until the kernel step is covered.
 * _i = 0: max_dx = 1 m never binds: two solves a step, the step ends at implicit Euler's
 * y0 + h v0 + h^2 g.  _i = 1: max_dx = 0.3 h^2 |g| binds: more solves, the same rule. */
static void zozo_model(double h, double g, double max_dx, double target, double *y,
                       double *v, int *solves)
{
    double left = h;
    while (left > 1e-12 * h) {
        double y0 = *y, v0 = *v, a = 0, yy = y0;
        int final = 0;
        for (;;) {
            double dt = final ? a * left : left;
            double d = y0 + dt * v0 + dt * dt * g - yy;
            double r = fabs(d) > max_dx ? max_dx / fabs(d) : 1;
            (*solves)++;
            yy += r * d;
            if (final)
                break;
            a += (1 - a) * r;
            final = a >= target;
        }
        *v = (yy - y0) / (a * left);
        *y = yy;
        left -= a * left;
    }
}

static const char *falling_scene =
    "[mesh]\nnx = 3\nny = 3\nspacing = 0.1\nplane = xz\nsprings = structural,shear\n"
    "pins = none\n"
    "[material]\nk_structural = 40\nk_shear = 15\nvertex_mass = 0.01\n"
    "[world]\ngravity = 0 -9.81 0\nair_density = 0\nair_damping = 0\n"
    "[run]\nkernel = newton\ndt = 0.01\n"
    "[newton]\nloop = zozo\nmax_dx = %.17g\nstrain_limit = 0\ncond = off\n"
    "solver = dense\n";

START_TEST(zozo_loop_follows_its_rule_on_a_contact_free_step)
{
    double h = 0.01, g = -9.81, max_dx = _i ? 0.3 * h * h * 9.81 : 1;
    char text[1024];
    snprintf(text, sizeof text, falling_scene, max_dx);
    cloth_sim *sim = make_sim(text);
    const double *x = cloth_sim_positions(sim);
    double y0 = x[1], y = 0, v = 0;
    for (int frame = 1; frame <= 4; frame++) {
        int solves = 0;
        zozo_model(h, g, max_dx, 0.25, &y, &v, &solves);
        if (!_i)
            ck_assert_int_eq(solves, 2);
        cloth_frame f;
        cloth_error err;
        ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
        const cloth_iter *rows;
        int n = cloth_sim_log(sim, &rows);
        ck_assert_int_eq(n, solves);
        ck_assert_int_eq(f.not_converged, 0);
        ck_assert_str_eq(rows[n - 1].stop, "converged");
        for (int i = 0; i < 9; i++) {
            ck_assert_msg(fabs(x[3 * i + 1] - y0 - y) <= 1e-12 + 1e-9 * fabs(y),
                          "frame %d vertex %d: y %.17g, rule %.17g", frame, i,
                          x[3 * i + 1] - y0, y);
            ck_assert(fabs(cloth_sim_velocities(sim)[3 * i + 1] - v) <= 1e-9 * fabs(v));
        }
    }
    cloth_sim_destroy(sim);
}
END_TEST

/* Out-of-range values of the loop's keys are refused with file:line, key and range. */
START_TEST(zozo_keys_refuse_bad_values)
{
    static const char *const bad[][2] = {
        {"target_toi = 0", "newton.target_toi"}, {"target_toi = 1.5", "(0, 1]"},
        {"max_dx = 0", "newton.max_dx"}, {"loop = newton", "converge, zozo"}};
    for (int k = 0; k < 4; k++) {
        char text[256];
        snprintf(text, sizeof text, "[run]\nkernel = newton\n[newton]\n%s\n", bad[k][0]);
        cloth_scene s;
        cloth_error err;
        ck_assert(cloth_scene_parse(text, "bad.ini", &s, &err) != CLOTH_OK);
        ck_assert_msg(strstr(err.msg, "bad.ini:4") && strstr(err.msg, bad[k][1]), "%s",
                      err.msg);
    }
}
END_TEST

/* newton.preset = zozo sets ZOZO's configuration (docs/kernels/newton.md) where it stands:
 * a key before it is overwritten, a key after it or a --set wins; a bad name is refused. */
START_TEST(zozo_preset_sets_its_keys_and_later_keys_win)
{
    static const char text[] = "[run]\nkernel = newton\n[newton]\nkappa_update = step\n"
                               "strain_band = 0.5\nsolver = cholmod\npreset = zozo\n"
                               "spring_hessian = adaptive\n";
    static const char *const want[][2] = {
        {"newton.loop", "zozo"}, {"newton.kappa", "dynamic"},
        {"newton.kappa_update", "iteration"}, {"newton.strain_band", "1"},
        {"newton.solver", "pcg"}, {"newton.pcg_tol", "0.001"},
        {"newton.integrator", "euler"}, {"newton.target_toi", "0.25"},
        {"newton.spring_hessian", "adaptive"}, /* the line after the preset */
        {"newton.contact_hessian", "project"}};
    cloth_scene s;
    cloth_error err;
    char value[64];
    ck_assert_msg(cloth_scene_parse(text, "p.ini", &s, &err) == CLOTH_OK, "%s", err.msg);
    for (int k = 0; k < (int)(sizeof want / sizeof want[0]); k++) {
        ck_assert_msg(cloth_scene_get(&s, want[k][0], value, sizeof value, &err) == CLOTH_OK,
                      "%s", err.msg);
        ck_assert_msg(strcmp(value, want[k][1]) == 0, "%s = %s, not %s", want[k][0], value,
                      want[k][1]);
    }
    ck_assert(cloth_scene_set(&s, "newton.kappa_update=monotone", 1, &err) == CLOTH_OK);
    ck_assert(cloth_scene_get(&s, "newton.kappa_update", value, sizeof value, &err) ==
              CLOTH_OK);
    ck_assert_str_eq(value, "monotone");
    ck_assert(cloth_scene_parse("[newton]\npreset = ipc\n", "bad.ini", &s, &err) != CLOTH_OK);
    ck_assert_msg(strstr(err.msg, "bad.ini:2") && strstr(err.msg, "none or zozo"), "%s",
                  err.msg);
    /* a later key the preset's loop refuses: the refusal names the preset's line */
    ck_assert(cloth_scene_parse("[mesh]\nnx = 3\nny = 3\n[run]\nkernel = newton\n[newton]\n"
                                "preset = zozo\nintegrator = bdf2\n", "z.ini", &s, &err) ==
              CLOTH_OK);
    cloth_sim *sim;
    ck_assert(cloth_sim_create(&s, &sim, &err) != CLOTH_OK);
    ck_assert_msg(strstr(err.msg, "z.ini:7") && strstr(err.msg, "newton.preset = zozo") &&
                  strstr(err.msg, "integrator = euler"), "%s", err.msg);
}
END_TEST

/* ------------------------------------------------- the ablation scene */

/* Issue 31's "done when": experiments/ablation_grid.ini at 32 x 32, tau = 2 %, 1 substep,
 * 20 frames.  With kappa frozen per step the cubic barrier left 8 of 20 steps unconverged
 * in 470 iterations against the log barrier's 0 in 63; with the monotone kappa every step
 * converges and the cubic needs at most twice the log barrier's iterations. */
static void ablation_run(const char *barrier, long *iterations, long *not_converged)
{
    cloth_scene s;
    cloth_error err;
    ck_assert_msg(cloth_scene_load("../experiments/ablation_grid.ini", &s, &err) == CLOTH_OK,
                  "%s", err.msg);
    char set[64];
    snprintf(set, sizeof set, "newton.barrier=%s", barrier);
    const char *sets[] = {"run.kernel=newton", set, "newton.strain_limit=0.02", "mesh.nx=32",
                          "mesh.ny=32", "mesh.spacing=0.04838709677419355",
                          "run.substeps=1", "run.frames=20"};
    for (int k = 0; k < (int)(sizeof sets / sizeof sets[0]); k++)
        ck_assert_msg(cloth_scene_set(&s, sets[k], k + 1, &err) == CLOTH_OK, "%s", err.msg);
    cloth_sim *sim;
    ck_assert_msg(cloth_sim_create(&s, &sim, &err) == CLOTH_OK, "%s", err.msg);
    cloth_frame f;
    *iterations = *not_converged = 0;
    for (int frame = 1; frame <= 20; frame++) {
        ck_assert_msg(cloth_sim_frame(sim, &f, &err) == CLOTH_OK, "%s", err.msg);
        *iterations += f.iterations;
        *not_converged += f.not_converged;
    }
    cloth_sim_destroy(sim);
}

START_TEST(cubic_barrier_converges_on_the_ablation_scene)
{
    long it_log, nc_log, it_cubic, nc_cubic;
    ablation_run("log", &it_log, &nc_log);
    ablation_run("cubic", &it_cubic, &nc_cubic);
    ck_assert_int_eq(nc_log, 0);
    ck_assert_int_eq(nc_cubic, 0);
    ck_assert_msg(it_cubic <= 2 * it_log, "cubic %ld iterations, log %ld", it_cubic, it_log);
}
END_TEST

Suite *suite_newton_kappa(void)
{
    Suite *s = suite_create("newton_kappa");
    TCase *tc = tcase_create("kappa");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, monotone_kappa_never_drops_within_a_step);
    tcase_add_test(tc, jammed_step_stops_as_stalled);
    tcase_add_test(tc, interior_triangle_strain_kappa_has_its_closed_form);
    tcase_add_loop_test(tc, zozo_loop_follows_its_rule_on_a_contact_free_step, 0, 2);
    tcase_add_test(tc, zozo_keys_refuse_bad_values);
    tcase_add_test(tc, zozo_preset_sets_its_keys_and_later_keys_win);
    tcase_add_test(tc, cubic_barrier_converges_on_the_ablation_scene);
    suite_add_tcase(s, tc);
    return s;
}
