/* The robust collision stage (terms/collide.h): a vertex thrown at a triangle and an
 * edge thrown across an edge stop at the thickness with the impulse's closed-form
 * velocity; a rigid zone of three vertices keeps its linear and angular momentum and its
 * shape; random throws of two sheets at each other end with no pair that the public CCD
 * sees come together, and with the momentum they started with; a triangle lying on the
 * floor or a sphere, struck by a vertex, stays out of it while the vertex stops a
 * thickness above. */
#include "terms/collide.h"
#include "terms/rigid_zone.h"
#include "terms/broad_phase.h"
#include "terms/ccd.h"
#include "suites.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAXV 64

typedef struct test_mesh {
    cloth_mesh mesh;
    int tris[3 * 2 * MAXV];
    double x0[3 * MAXV], x1[3 * MAXV], v[3 * MAXV], w[MAXV];
} test_mesh;

static void init_mesh(test_mesh *m, int n)
{
    memset(m, 0, sizeof *m);
    m->mesh.n = n;
    m->mesh.tris = m->tris;
    for (int i = 0; i < n; i++)
        m->w[i] = 1;
}

static void add_tri(test_mesh *m, int a, int b, int c)
{
    int *t = m->tris + 3 * m->mesh.n_tris++;
    t[0] = a, t[1] = b, t[2] = c;
}

static void set3(double *x, int i, double a, double b, double c)
{
    x[3 * i] = a, x[3 * i + 1] = b, x[3 * i + 2] = c;
}

/* x1 = x0 + h vbar with v = vbar + the end's own difference dv (an integrator's end
 * velocity is not its average velocity) */
static void propose(test_mesh *m, double h, const double *vbar, const double *dv)
{
    for (int k = 0; k < 3 * m->mesh.n; k++) {
        m->x1[k] = m->x0[k] + h * vbar[k];
        m->v[k] = vbar[k] + (dv ? dv[k] : 0);
    }
}

static cloth__collide_result run_passes(test_mesh *m, double h, double thickness, double mu,
                                        int passes)
{
    cloth__collide *c;
    cloth_error err;
    ck_assert_int_eq(cloth__collide_create(&m->mesh, 0, &c, &err), CLOTH_OK);
    cloth__collide_def def = {.thickness = thickness, .friction = mu, .passes = passes,
                              .zone_iterations = 1000};
    cloth__collide_result res;
    ck_assert_int_eq(cloth__collide_step(c, &def, h, m->x0, m->x1, m->v, m->w, &res), 0);
    cloth__collide_destroy(c);
    return res;
}

static cloth__collide_result run_stage(test_mesh *m, double h, double thickness, double mu)
{
    return run_passes(m, h, thickness, mu, 4);
}

#define TOL 1e-12

/* Triangle (0, 1, 2) in z = 0, vertex 3 (in no triangle) 10 cm above the point with
 * barycentric weights b = (0.2, 0.3, 0.5), thrown straight down at V = 20 m/s over
 * h = 10 ms (it would end 10 cm below).  With n = +z, d0n = H and v_N = -V, the stage's
 * impulse raises v_N to (delta - H) / h: dv_N = (delta - H) / h + V, j = dv_N / W,
 * W = w_p + sum b_k^2 w_k; vertex p's average and end velocities change by w_p j n,
 * corner k's by -w_k b_k j n, and the end separation along n is delta exactly.  Once
 * with the triangle pinned (it stays), once free with masses 1, 2, 4 kg. */
START_TEST(vertex_thrown_at_triangle_stops_at_thickness)
{
    const double h = 0.01, H = 0.1, V = 20, delta = 0.005, b[3] = {0.2, 0.3, 0.5};
    for (int free_tri = 0; free_tri < 2; free_tri++) {
        static test_mesh m;
        init_mesh(&m, 4);
        add_tri(&m, 0, 1, 2);
        set3(m.x0, 0, 0, 0, 0);
        set3(m.x0, 1, 1, 0, 0);
        set3(m.x0, 2, 0, 1, 0);
        set3(m.x0, 3, b[1], b[2], H);
        m.w[0] = free_tri ? 1.0 : 0, m.w[1] = free_tri ? 0.5 : 0, m.w[2] = free_tri ? 0.25 : 0;
        m.w[3] = 2;
        double vbar[12] = {0}, dv[12] = {0};
        vbar[11] = -V;
        dv[11] = 3; /* the end velocity differs from the average one */
        propose(&m, h, vbar, dv);
        cloth__collide_result res = run_stage(&m, h, delta, 0);
        ck_assert_int_eq(res.resolved, 1);
        ck_assert_int_eq(res.impulses, 1);
        ck_assert_int_eq(res.zones, 0);
        double W = m.w[3] + b[0] * b[0] * m.w[0] + b[1] * b[1] * m.w[1] + b[2] * b[2] * m.w[2];
        double j = ((delta - H) / h + V) / W;
        ck_assert_double_eq_tol(m.v[11], -V + 3 + m.w[3] * j, TOL * V);
        for (int k = 0; k < 3; k++)
            ck_assert_double_eq_tol(m.v[3 * k + 2], -m.w[k] * b[k] * j, TOL * V);
        double sep = m.x1[11];
        for (int k = 0; k < 3; k++)
            sep -= b[k] * m.x1[3 * k + 2];
        ck_assert_double_eq_tol(sep, delta, TOL);
        if (!free_tri)
            ck_assert_double_eq_tol(m.x1[11], delta, TOL);
        /* no tangential motion appeared */
        for (int i = 0; i < 4; i++)
            for (int a = 0; a < 2; a++)
                ck_assert_double_eq_tol(m.x1[3 * i + a], m.x0[3 * i + a], TOL);
    }
}
END_TEST

/* Edge 0-1 along x at height H, thrown down at V across edge 2-3 along y in z = 0; the
 * edges' third vertices (4 above, 5 below) are pinned and out of the way.  Closest points
 * at the middles: c = (1/2, 1/2, -1/2, -1/2), W = (w0 + w1 + w2 + w3) / 4, and the same
 * closed form as the vertex: j = ((delta - H) / h + V) / W, vertex i's velocity changes
 * by w_i c_i j n, and the edges end delta apart. */
START_TEST(edge_thrown_across_edge_stops_at_thickness)
{
    const double h = 0.01, H = 0.1, V = 20, delta = 0.005;
    static test_mesh m;
    init_mesh(&m, 6);
    add_tri(&m, 0, 1, 4);
    add_tri(&m, 2, 3, 5);
    set3(m.x0, 0, -0.5, 0, H);
    set3(m.x0, 1, 0.5, 0, H);
    set3(m.x0, 2, 0, -0.5, 0);
    set3(m.x0, 3, 0, 0.5, 0);
    set3(m.x0, 4, 0, 0, H + 0.5);
    set3(m.x0, 5, 0, 0, -0.5);
    m.w[2] = m.w[3] = 0.5;
    m.w[4] = m.w[5] = 0;
    double vbar[18] = {0};
    vbar[2] = vbar[5] = -V;
    propose(&m, h, vbar, NULL);
    cloth__collide_result res = run_stage(&m, h, delta, 0.3);
    ck_assert_int_eq(res.resolved, 1);
    ck_assert_int_eq(res.zones, 0);
    ck_assert_int_ge(res.impulses, 1);
    const double c[4] = {0.5, 0.5, -0.5, -0.5};
    double W = 0;
    for (int i = 0; i < 4; i++)
        W += m.w[i] * c[i] * c[i];
    double j = ((delta - H) / h + V) / W;
    for (int i = 0; i < 4; i++) {
        ck_assert_double_eq_tol(m.v[3 * i + 2], vbar[3 * i + 2] + m.w[i] * c[i] * j, TOL * V);
        ck_assert_double_eq_tol(m.v[3 * i], 0, TOL * V);  /* no tangential velocity: */
        ck_assert_double_eq_tol(m.v[3 * i + 1], 0, TOL * V); /* friction had none to take */
    }
    ck_assert_double_eq_tol(m.x1[2] - m.x1[8], delta, TOL);
    ck_assert_double_eq_tol(m.x1[5] - m.x1[11], delta, TOL);
}
END_TEST

/* Proximity with friction (Bridson 7.2): vertex 3 rests d = 0.4 delta above a pinned
 * triangle, sliding along x at u = 2 m/s and approaching at 1 m/s.  The impulse raises
 * v_N to 0.1 (delta - d) / h, dv_N = 0.1 (delta - d) / h + 1, and Coulomb friction takes
 * mu dv_N off the sliding speed; with mu = 1 and a faster approach it stops sliding (the
 * tangential speed does not change sign). */
START_TEST(proximity_pushes_out_with_friction)
{
    const double h = 0.01, delta = 0.01, d = 0.4 * delta, u = 2, mu = 0.25;
    for (int stop = 0; stop < 2; stop++) {
        static test_mesh m;
        init_mesh(&m, 4);
        add_tri(&m, 0, 1, 2);
        set3(m.x0, 1, 1, 0, 0);
        set3(m.x0, 2, 0, 1, 0);
        set3(m.x0, 3, 0.2, 0.2, d);
        m.w[0] = m.w[1] = m.w[2] = 0;
        double approach = stop ? 20 : 1, vbar[12] = {0};
        vbar[9] = u;
        vbar[11] = -approach;
        propose(&m, h, vbar, NULL);
        /* the step is short enough that the vertex stays over the triangle */
        cloth__collide_result res = run_stage(&m, h, delta, stop ? 1 : mu);
        ck_assert_int_eq(res.proximity, 1);
        ck_assert_int_eq(res.resolved, 1);
        double dvn = CLOTH__COLLIDE_REPULSION * (delta - d) / h + approach;
        ck_assert_double_eq_tol(m.v[11], CLOTH__COLLIDE_REPULSION * (delta - d) / h, TOL);
        ck_assert_double_eq_tol(m.v[9], stop ? 0 : u - mu * dvn, TOL);
        ck_assert_double_eq_tol(m.x1[11], d + h * m.v[11], TOL);
    }
}
END_TEST

static void momentum(const test_mesh *m, const int *verts, int count, const double c0[3],
                     double P[3], double L[3])
{
    P[0] = P[1] = P[2] = L[0] = L[1] = L[2] = 0;
    for (int k = 0; k < count; k++) {
        int i = verts[k];
        double mass = 1 / m->w[i], r[3], *v = (double *)m->v + 3 * i;
        for (int a = 0; a < 3; a++)
            r[a] = m->x0[3 * i + a] - c0[a];
        P[0] += mass * v[0], P[1] += mass * v[1], P[2] += mass * v[2];
        L[0] += mass * (r[1] * v[2] - r[2] * v[1]);
        L[1] += mass * (r[2] * v[0] - r[0] * v[2]);
        L[2] += mass * (r[0] * v[1] - r[1] * v[0]);
    }
}

/* Three vertices of masses 1, 2, 3 kg with unrelated velocities made one zone: the
 * velocities of v change by (V + omega x r) - vbar, which has no net linear or angular
 * momentum (about the start's centre of mass), so both are kept; the end positions are
 * the start moved rigidly (pairwise distances kept) and the centre of mass moves by
 * h V. */
START_TEST(zone_of_three_keeps_momentum)
{
    static test_mesh m;
    init_mesh(&m, 3);
    set3(m.x0, 0, 0, 0, 0);
    set3(m.x0, 1, 0.1, 0.02, -0.01);
    set3(m.x0, 2, 0.03, 0.09, 0.04);
    m.w[0] = 1, m.w[1] = 0.5, m.w[2] = 1.0 / 3;
    const double h = 0.01;
    double vbar[9] = {3, -1, 2, -2, 4, 0.5, 1, 1, -3}, dv[9] = {0.1, 0, 0, 0, -0.2, 0, 0, 0, 0.3};
    propose(&m, h, vbar, dv);
    int verts[3] = {0, 1, 2};
    double M = 6, c0[3] = {0, 0, 0}, P0[3], L0[3], P1[3], L1[3];
    for (int i = 0; i < 3; i++)
        for (int a = 0; a < 3; a++)
            c0[a] += m.x0[3 * i + a] / m.w[i] / M;
    momentum(&m, verts, 3, c0, P0, L0);
    cloth__collide_rigid_zone(verts, 3, h, m.x0, m.x1, m.v, m.w);
    momentum(&m, verts, 3, c0, P1, L1);
    for (int a = 0; a < 3; a++) {
        ck_assert_double_eq_tol(P1[a], P0[a], 1e-12);
        ck_assert_double_eq_tol(L1[a], L0[a], 1e-12);
    }
    for (int i = 0; i < 3; i++)
        for (int k = i + 1; k < 3; k++) {
            double d0 = 0, d1 = 0;
            for (int a = 0; a < 3; a++) {
                d0 += pow(m.x0[3 * i + a] - m.x0[3 * k + a], 2);
                d1 += pow(m.x1[3 * i + a] - m.x1[3 * k + a], 2);
            }
            ck_assert_double_eq_tol(sqrt(d1), sqrt(d0), 1e-14);
        }
    /* the centre of mass moves by h V, V = P / M of the average velocities */
    for (int a = 0; a < 3; a++) {
        double c1 = 0, pv = 0;
        for (int i = 0; i < 3; i++) {
            c1 += m.x1[3 * i + a] / m.w[i] / M;
            pv += vbar[3 * i + a] / m.w[i];
        }
        ck_assert_double_eq_tol(c1, c0[a] + h * pv / M, 1e-14);
    }
}
END_TEST

static double next_random(unsigned long *state)
{
    *state = *state * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(*state >> 11) / (double)(1UL << 53);
}

/* An nx x nx sheet at height y, its vertices from base on, in the grid's split. */
static void add_sheet(test_mesh *m, int base, int nx, double s, double x, double y, double z)
{
    for (int j = 0; j < nx; j++)
        for (int i = 0; i < nx; i++)
            set3(m->x0, base + j * nx + i, x + i * s, y, z + j * s);
    for (int j = 0; j + 1 < nx; j++)
        for (int i = 0; i + 1 < nx; i++) {
            int a = base + j * nx + i;
            add_tri(m, a, a + 1, a + nx);
            add_tri(m, a + 1, a + nx + 1, a + nx);
        }
}

/* Every pair sharing no vertex, by the public CCD over x0 -> x1 at dmin = 0. */
static int crossing_pairs(const test_mesh *m)
{
    const cloth_mesh *mesh = &m->mesh;
    int count = 0;
    const double *a = m->x0, *b = m->x1;
    for (int p = 0; p < mesh->n; p++)
        for (int t = 0; t < mesh->n_tris; t++) {
            const int *v = mesh->tris + 3 * t;
            if (p == v[0] || p == v[1] || p == v[2])
                continue;
            count += cloth_ccd_point_triangle(a + 3 * p, a + 3 * v[0], a + 3 * v[1],
                                              a + 3 * v[2], b + 3 * p, b + 3 * v[0],
                                              b + 3 * v[1], b + 3 * v[2], 0, NULL) != 0;
        }
    /* edges: every triangle side (duplicates only repeat a pair) */
    for (int s = 0; s < 3 * mesh->n_tris; s++)
        for (int u = s + 1; u < 3 * mesh->n_tris; u++) {
            int e0 = mesh->tris[s], e1 = mesh->tris[s / 3 * 3 + (s % 3 + 1) % 3];
            int f0 = mesh->tris[u], f1 = mesh->tris[u / 3 * 3 + (u % 3 + 1) % 3];
            if (e0 == f0 || e0 == f1 || e1 == f0 || e1 == f1)
                continue;
            count += cloth_ccd_edge_edge(a + 3 * e0, a + 3 * e1, a + 3 * f0, a + 3 * f1,
                                         b + 3 * e0, b + 3 * e1, b + 3 * f0, b + 3 * f1, 0,
                                         NULL) != 0;
        }
    return count;
}

/* Two 4 x 4 sheets (spacing 5 cm) 2 cm apart, every vertex moved by up to 3 mm, then
 * thrown at each other with random velocities of up to 6 m/s over h = 10 ms (up to 6 cm a
 * step, so most proposals cross), masses 0.5 to 2 kg, thickness 5 mm, friction 0.2.
 * After the stage no pair comes together by the public CCD, and the stage's changes
 * kept sum m v (every vertex free: all impulses are internal, and zones keep it).  The
 * trials take 4, 1 and 0 collision passes in turn, so that the impact zones get work. */
START_TEST(random_throws_end_without_crossings)
{
    unsigned long seed = 12345;
    int crossed = 0, zoned = 0;
    for (int trial = 0; trial < 60; trial++) {
        static test_mesh m;
        init_mesh(&m, 32);
        add_sheet(&m, 0, 4, 0.05, 0, 0, 0);
        add_sheet(&m, 16, 4, 0.05, 0.025, 0.02, 0.025);
        double vbar[96], dv[96];
        for (int i = 0; i < 32; i++) {
            m.w[i] = 1 / (0.5 + 1.5 * next_random(&seed));
            for (int a = 0; a < 3; a++) {
                m.x0[3 * i + a] += 0.003 * (2 * next_random(&seed) - 1);
                vbar[3 * i + a] = 6 * (2 * next_random(&seed) - 1);
                dv[3 * i + a] = 2 * next_random(&seed) - 1;
            }
        }
        propose(&m, 0.01, vbar, dv);
        crossed += crossing_pairs(&m) > 0;
        double P0[3] = {0, 0, 0}, P1[3] = {0, 0, 0};
        for (int i = 0; i < 32; i++)
            for (int a = 0; a < 3; a++)
                P0[a] += m.v[3 * i + a] / m.w[i];
        static const int passes[3] = {4, 1, 0};
        cloth__collide_result res = run_passes(&m, 0.01, 0.005, 0.2, passes[trial % 3]);
        ck_assert_msg(res.resolved, "trial %d: not resolved", trial);
        ck_assert_int_eq(res.overflow, 0);
        zoned += res.zones > 0;
        ck_assert_msg(crossing_pairs(&m) == 0, "trial %d: %d pairs still come together", trial,
                      crossing_pairs(&m));
        for (int i = 0; i < 32; i++)
            for (int a = 0; a < 3; a++)
                P1[a] += m.v[3 * i + a] / m.w[i];
        for (int a = 0; a < 3; a++)
            ck_assert_double_eq_tol(P1[a], P0[a], 1e-10 * (1 + fabs(P0[a])));
    }
    /* the trials did test something: most proposals crossed, some needed zones */
    ck_assert_int_ge(crossed, 45);
    ck_assert_int_ge(zoned, 20);
}
END_TEST

/* The stage's one broad-phase query a call (collide_candidates.c): after a query over
 * x0 -> x1_ref, a pass at x1 within the allowed drift looks at exactly the pairs a fresh
 * query over x0 -> x1 at the passes' reach (eta delta) lists, in the same sorted order.
 * Two 4 x 4 sheets (spacing 5 cm) 2 cm apart, every vertex moved by up to 3 mm, random
 * motions of up to 2 cm a coordinate (the sheets meet and pass), then every coordinate of
 * the end moved by up to the drift allowed (0.9 of the slack).  A drift past it makes the
 * stage query again.  A sabotaged slack (a quarter of the drift allowed) misses pairs: the
 * comparison catches it. */
static int reuse_mismatches(test_mesh *m, cloth__collide *c, cloth__broad_phase *bp,
                            double delta, double slack, double tol, const double *x1_ref,
                            int *requeried)
{
    static int pt[2 * 20000], ee[2 * 20000];
    int n_pt, n_ee;
    int st = cloth__collide_pass_candidates(c, delta, slack, tol, m->x0, x1_ref, m->x1, m->w,
                                            pt, &n_pt, ee, &n_ee, 20000);
    ck_assert_int_ge(st, 0);
    *requeried = st == 1;
    if (st == 1)
        return 0;
    double dx[3 * MAXV];
    for (int k = 0; k < 3 * m->mesh.n; k++)
        dx[k] = m->x1[k] - m->x0[k];
    cloth__broad_pairs fresh;
    cloth__broad_phase_query(bp, m->x0, dx, CLOTH__COLLIDE_ETA * delta, NULL, &fresh);
    cloth__broad_phase_sort(bp);
    ck_assert(!fresh.overflow);
    int bad = abs(fresh.n_pt - n_pt) + abs(fresh.n_ee - n_ee);
    for (int k = 0; k < 2 * n_pt && k < 2 * fresh.n_pt; k++)
        bad += pt[k] != fresh.pt[k];
    for (int k = 0; k < 2 * n_ee && k < 2 * fresh.n_ee; k++)
        bad += ee[k] != fresh.ee[k];
    return bad;
}

START_TEST(reused_candidates_match_a_fresh_query)
{
    static test_mesh m;
    const double delta = 0.005, slack = 1.0, tol = 0.9 * slack;
    unsigned long seed = 12345;
    init_mesh(&m, 32);
    add_sheet(&m, 0, 4, 0.05, 0, 0, 0);
    add_sheet(&m, 16, 4, 0.05, 0.025, 0.02, 0.025);
    cloth__collide *c;
    cloth__broad_phase *bp;
    cloth_error err;
    ck_assert_int_eq(cloth__collide_create(&m.mesh, 20000, &c, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__broad_phase_create(&m.mesh, 20000, &bp, &err), CLOTH_OK);
    double base[3 * MAXV], x1_ref[3 * MAXV];
    memcpy(base, m.x0, sizeof base);
    int reused = 0, requeried = 0, caught = 0;
    for (int trial = 0; trial < 300; trial++) {
        for (int k = 0; k < 3 * 32; k++) {
            m.x0[k] = base[k] + 0.006 * (next_random(&seed) - 0.5);
            x1_ref[k] = m.x0[k] + 0.04 * (next_random(&seed) - 0.5);
        }
        /* within the drift allowed in two trials of three, past it in the third */
        double amp = (trial % 3 == 2 ? 2.0 : next_random(&seed)) * tol * delta;
        for (int k = 0; k < 3 * 32; k++)
            m.x1[k] = x1_ref[k] + amp * (2 * next_random(&seed) - 1);
        int again;
        int bad = reuse_mismatches(&m, c, bp, delta, slack, tol, x1_ref, &again);
        ck_assert_msg(bad == 0, "trial %d: %d candidates differ from a fresh query", trial, bad);
        reused += !again;
        requeried += again;
        /* sabotage: boxes grown by a quarter of the drift the reuse allows */
        bad = reuse_mismatches(&m, c, bp, delta, 0.25 * tol, tol, x1_ref, &again);
        caught += bad > 0;
    }
    /* the trials tested both branches, and the sabotaged slack was caught */
    ck_assert_int_ge(reused, 150);
    ck_assert_int_ge(requeried, 50);
    ck_assert_int_ge(caught, 10);
    cloth__broad_phase_destroy(bp);
    cloth__collide_destroy(c);
}
END_TEST

/* The stage's savings change no result: the same sequences of calls run through a stage
 * with them (the list kept from call to call, the bounds of g0 carried along, the skip
 * tests' bounds) and through one without (cloth__collide_plain) end bitwise equal after
 * every call.  Two 4 x 4 sheets 2 cm apart, the upper one falling onto the lower at 0.5
 * to 2 m/s, each vertex's velocity jittered by up to 5 % of that (so that pairs drift
 * apart and together), h = 5 ms, 40 calls a trial, x0 of a call the last call's end;
 * thickness 5 mm, friction 0.2; six more trials with cells of 1.5 cm (the slack's cap,
 * an eighth of an edge, is then its least: the vertices' own room in the query's boxes
 * keeps the list through corrections).  The trials keep lists, and the sheets meet.  A bound
 * made unsound (g0_lower without the drift) fails here at the first trial's 32nd call. */
START_TEST(savings_change_no_result)
{
    unsigned long seed = 777;
    int kept = 0, acted = 0;
    for (int trial = 0; trial < 12; trial++) {
        static test_mesh m, p;
        double s = trial < 6 ? 0.05 : 0.015;
        init_mesh(&m, 32);
        add_sheet(&m, 0, 4, s, 0, 0, 0);
        add_sheet(&m, 16, 4, s, s / 2, 0.02, s / 2);
        for (int i = 0; i < 32; i++)
            m.w[i] = 1 / (0.5 + 1.5 * next_random(&seed));
        p = m;
        p.mesh.tris = p.tris;
        cloth__collide *a, *b;
        cloth_error err;
        ck_assert_int_eq(cloth__collide_create(&m.mesh, 0, &a, &err), CLOTH_OK);
        ck_assert_int_eq(cloth__collide_create(&p.mesh, 0, &b, &err), CLOTH_OK);
        cloth__collide_plain(b, 1);
        cloth__collide_def def = {.thickness = 0.005, .friction = 0.2, .passes = 2,
                                  .zone_iterations = 1000};
        double speed = 0.5 + 1.5 * next_random(&seed), h = 0.005;
        double vel[96];
        for (int i = 0; i < 32; i++)
            for (int a3 = 0; a3 < 3; a3++)
                vel[3 * i + a3] = (i >= 16 && a3 == 1 ? -speed : 0) +
                                  0.05 * speed * (2 * next_random(&seed) - 1);
        for (int call = 0; call < 40; call++) {
            for (int k = 0; k < 96; k++) {
                m.v[k] = p.v[k] = vel[k];
                m.x1[k] = p.x1[k] = m.x0[k] + h * vel[k];
            }
            cloth__collide_result ra, rb;
            ck_assert_int_eq(cloth__collide_step(a, &def, h, m.x0, m.x1, m.v, m.w, &ra), 0);
            ck_assert_int_eq(cloth__collide_step(b, &def, h, p.x0, p.x1, p.v, p.w, &rb), 0);
            ck_assert_msg(memcmp(m.x1, p.x1, sizeof m.x1) == 0 &&
                              memcmp(m.v, p.v, sizeof m.v) == 0,
                          "trial %d, call %d: the savings changed the result", trial, call);
            acted += ra.proximity + ra.impulses > 0;
            memcpy(m.x0, m.x1, sizeof m.x0);
            memcpy(p.x0, p.x1, sizeof p.x0);
            memcpy(vel, m.v, sizeof vel);
        }
        kept += cloth__collide_plain(a, 0);
        cloth__collide_destroy(a);
        cloth__collide_destroy(b);
    }
    ck_assert_int_ge(kept, 30);
    ck_assert_int_ge(acted, 20);
}
END_TEST

/* The list kept from call to call (collide_candidates.c): after a query over xq -> x1q
 * whose boxes reach `ahead` steps further, a later call over x0 -> x1 that keeps it looks
 * at exactly the pairs a fresh query lists, both the proximity impulses' (boxes at x0
 * grown by delta / 2) and a pass's (over x0 -> x1, eta delta / 2), in the same sorted
 * order.  Returns the mismatches, counting both lists. */
static int next_mismatches(test_mesh *m, cloth__collide *c, cloth__broad_phase *bp,
                           double delta, double slack, double tol, int ahead,
                           const double *xq, const double *x1q, int *requeried)
{
    static int pt[2 * 20000], ee[2 * 20000];
    int bad = 0;
    for (int at_start = 0; at_start < 2; at_start++) {
        int n_pt, n_ee;
        int st = cloth__collide_next_candidates(c, delta, slack, tol, ahead, xq, x1q, m->x0,
                                                m->x1, m->w, at_start, pt, &n_pt, ee, &n_ee,
                                                20000);
        ck_assert_int_ge(st, 0);
        *requeried = st == 1;
        if (st == 1)
            return 0;
        double dx[3 * MAXV];
        for (int k = 0; k < 3 * m->mesh.n; k++)
            dx[k] = m->x1[k] - m->x0[k];
        cloth__broad_pairs fresh;
        if (at_start)
            cloth__broad_phase_query(bp, m->x0, NULL, delta, NULL, &fresh);
        else
            cloth__broad_phase_query(bp, m->x0, dx, CLOTH__COLLIDE_ETA * delta, NULL, &fresh);
        cloth__broad_phase_sort(bp);
        ck_assert(!fresh.overflow);
        bad += abs(fresh.n_pt - n_pt) + abs(fresh.n_ee - n_ee);
        for (int k = 0; k < 2 * n_pt && k < 2 * fresh.n_pt; k++)
            bad += pt[k] != fresh.pt[k];
        for (int k = 0; k < 2 * n_ee && k < 2 * fresh.n_ee; k++)
            bad += ee[k] != fresh.ee[k];
    }
    return bad;
}

/* Sequences of calls: the query over xq -> x1q = xq + d, then the calls k = 1..4 after
 * it, over x0 = xq + k d -> x1 = xq + (k + 1) d (a sheet moving on as it did), every
 * coordinate of both moved by up to the drift allowed (in one sequence of three by
 * twice it).  Same sheets as above, d up to 1 cm a coordinate (the sheets meet and pass
 * within the four calls), boxes reaching two steps ahead (CLOTH__COLLIDE_AHEAD): the
 * calls k = 1, 2 may keep the list, the later ones leave its boxes.  A sabotaged slack
 * (boxes not grown by the drift allowed) is caught.  100 more sequences give every other
 * vertex its own room in the boxes (cloth__collide_set_room, up to 3 delta) and move it
 * by up to that room too, as a call's corrections do (134 of their calls keep the list);
 * a query that boxes the motions without the room while the check reads the grown boxes
 * fails at the first of them (trial 100, call 2). */
START_TEST(kept_candidates_match_a_fresh_query)
{
    static test_mesh m;
    const double delta = 0.005, slack = 1.0, tol = 0.9 * slack;
    const int ahead = 2;
    unsigned long seed = 4242, seed_room = 99;
    init_mesh(&m, 32);
    add_sheet(&m, 0, 4, 0.05, 0, 0, 0);
    add_sheet(&m, 16, 4, 0.05, 0.025, 0.02, 0.025);
    cloth__collide *c;
    cloth__broad_phase *bp;
    cloth_error err;
    ck_assert_int_eq(cloth__collide_create(&m.mesh, 20000, &c, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__broad_phase_create(&m.mesh, 20000, &bp, &err), CLOTH_OK);
    double base[3 * MAXV], xq[3 * MAXV], x1q[3 * MAXV], d[3 * MAXV];
    memcpy(base, m.x0, sizeof base);
    int kept = 0, kept_room = 0, requeried = 0, caught = 0;
    for (int trial = 0; trial < 200; trial++) {
        for (int k = 0; k < 3 * 32; k++) {
            xq[k] = base[k] + 0.006 * (next_random(&seed) - 0.5);
            d[k] = 0.01 * (next_random(&seed) - 0.5);
            x1q[k] = xq[k] + d[k];
        }
        double amp = (trial % 3 == 2 ? 2.0 : next_random(&seed)) * tol * delta;
        /* the trials from 100 on: half the vertices with their own room (up to 3 delta),
         * and moved by up to it too (a call's corrections) */
        double room[MAXV];
        for (int i = 0; i < 32; i++)
            room[i] = trial >= 100 && i % 2 ? 3 * delta * next_random(&seed_room) : 0;
        cloth__collide_set_room(c, room);
        for (int step = 1; step <= 4; step++) {
            for (int k = 0; k < 3 * 32; k++) {
                double r = room[k / 3];
                m.x0[k] = xq[k] + step * d[k] + amp * (2 * next_random(&seed) - 1) +
                          r * (2 * next_random(&seed_room) - 1);
                m.x1[k] = xq[k] + (step + 1) * d[k] + amp * (2 * next_random(&seed) - 1) +
                          r * (2 * next_random(&seed_room) - 1);
            }
            int again;
            int bad = next_mismatches(&m, c, bp, delta, slack, tol, ahead, xq, x1q, &again);
            ck_assert_msg(bad == 0, "trial %d, call %d: %d candidates differ from a fresh query",
                          trial, step, bad);
            kept += !again;
            kept_room += !again && trial >= 100;
            requeried += again;
            /* sabotage: boxes with no slack, the same drift allowed */
            if (trial >= 100)
                continue;
            bad = next_mismatches(&m, c, bp, delta, 0, tol, ahead, xq, x1q, &again);
            caught += bad > 0;
        }
    }
    /* both branches were tested, and the sabotaged slack was caught */
    ck_assert_int_ge(kept, 100);
    ck_assert_int_ge(kept_room, 100);
    ck_assert_int_ge(requeried, 100);
    ck_assert_int_ge(caught, 10);
    cloth__broad_phase_destroy(bp);
    cloth__collide_destroy(c);
}
END_TEST

/* The stage's cell query (broad_phase.h cloth__broad_phase_query_cells) lists exactly
 * the point-triangle and edge-edge pairs whose grown boxes meet (sharing no vertex, not
 * all fixed), in sorted order: an all-pairs loop over random triangle soups is the
 * reference.  60 vertices in a 0.3 m cube, 40 triangles of random corners (every fifth
 * vertex thrown 1-2 m away: boxes over many cells, the big list), motions of up to 3 cm
 * (every 13th coordinate 40 times that: queries over more cells than the grid reads, so
 * every primitive), radii 0 to several cells, every seventh vertex fixed; the hash has
 * few buckets for the entries, so buckets hold several cells. */
static void soup_box(const double *x, const double *dx, const int *v, int k, double half,
                     double b[6])
{
    for (int a = 0; a < 3; a++) {
        b[a] = INFINITY;
        b[3 + a] = -INFINITY;
    }
    for (int i = 0; i < k; i++)
        for (int a = 0; a < 3; a++) {
            double p = x[3 * v[i] + a], q = dx ? p + dx[3 * v[i] + a] : p;
            b[a] = fmin(b[a], fmin(p, q));
            b[3 + a] = fmax(b[3 + a], fmax(p, q));
        }
    for (int a = 0; a < 3; a++) {
        b[a] -= half;
        b[3 + a] += half;
    }
}

static int soup_keep(const double *a, const double *b, const int *va, int ka, const int *vb,
                     int kb, const unsigned char *fixed)
{
    for (int c = 0; c < 3; c++)
        if (a[c] > b[3 + c] || b[c] > a[3 + c])
            return 0;
    int all = 1;
    for (int i = 0; i < ka; i++) {
        all &= fixed[va[i]];
        for (int j = 0; j < kb; j++)
            if (va[i] == vb[j])
                return 0;
    }
    for (int j = 0; j < kb; j++)
        all &= fixed[vb[j]];
    return !all;
}

START_TEST(cell_query_matches_all_pairs)
{
    static test_mesh m;
    static int want[2 * 20000];
    static const double radii[] = {0, 0.005, 0.03, 0.2};
    unsigned long seed = 777 + (unsigned long)_i;
    init_mesh(&m, 60);
    for (int i = 0; i < 60; i++)
        for (int a = 0; a < 3; a++)
            m.x0[3 * i + a] = 0.3 * next_random(&seed) + (i % 5 == 4 && a == _i % 3 ? 1 + next_random(&seed) : 0);
    for (int t = 0; t < 40; t++) {
        int a = (int)(60 * next_random(&seed)), b = (int)(60 * next_random(&seed)),
            c = (int)(60 * next_random(&seed));
        if (a == b || b == c || a == c)
            b = (a + 1) % 60, c = (a + 2) % 60;
        add_tri(&m, a, b, c);
    }
    double dx[3 * MAXV];
    for (int k = 0; k < 3 * 60; k++)
        dx[k] = 0.06 * (next_random(&seed) - 0.5) * (k % 13 == 0 ? 40 : 1);
    unsigned char fixed[MAXV] = {0};
    for (int i = 0; i < 60; i += 7)
        fixed[i] = 1;
    cloth__broad_phase *bp;
    cloth_error err;
    ck_assert_int_eq(cloth__broad_phase_create(&m.mesh, 20000, &bp, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__broad_phase_enable_cells(bp, &err), CLOTH_OK);
    const int *edges;
    int ne = cloth__broad_phase_edges(bp, &edges);
    for (int moving = 0; moving < 2; moving++)
        for (size_t ri = 0; ri < sizeof radii / sizeof radii[0]; ri++) {
            const double *d = moving ? dx : NULL;
            double half = radii[ri] / 2;
            cloth__broad_pairs out;
            cloth__broad_phase_query_cells(bp, m.x0, d, radii[ri], fixed, &out);
            ck_assert(!out.overflow);
            int n = 0;
            for (int v = 0; v < 60; v++)
                for (int t = 0; t < m.mesh.n_tris; t++) {
                    double a[6], b[6];
                    soup_box(m.x0, d, &v, 1, half, a);
                    soup_box(m.x0, d, m.tris + 3 * t, 3, half, b);
                    if (soup_keep(a, b, &v, 1, m.tris + 3 * t, 3, fixed))
                        want[2 * n] = v, want[2 * n + 1] = t, n++;
                }
            ck_assert_int_eq(out.n_pt, n);
            for (int k = 0; k < 2 * n; k++)
                ck_assert_int_eq(out.pt[k], want[k]);
            n = 0;
            for (int e = 0; e < ne; e++)
                for (int f = e + 1; f < ne; f++) {
                    double a[6], b[6];
                    soup_box(m.x0, d, edges + 2 * e, 2, half, a);
                    soup_box(m.x0, d, edges + 2 * f, 2, half, b);
                    if (soup_keep(a, b, edges + 2 * e, 2, edges + 2 * f, 2, fixed))
                        want[2 * n] = e, want[2 * n + 1] = f, n++;
                }
            ck_assert_int_eq(out.n_ee, n);
            for (int k = 0; k < 2 * n; k++)
                ck_assert_int_eq(out.ee[k], want[k]);
            ck_assert_msg(out.n_pt + out.n_ee > 0, "radius %g: no pairs at all", radii[ri]);
        }
    cloth__broad_phase_destroy(bp);
}
END_TEST

/* The collision passes skip the CCD of a pair whose relative motion cannot close its gap
 * (collide_passes.c ccd_clear): whenever they skip, the CCD finds no hit.  Random
 * point-triangle and edge-edge pairs in a 10 cm box (offset by up to 100 m: the rounding
 * allowance grows with the coordinates), a common motion of up to 1 m and a relative one
 * of 10^-6 to 10 cm, dmin from 0 to 2 cm, so the skip is taken and refused many times; and
 * head-on approaches (a third of the trials) that close from half to 1.5 times their gap,
 * where the skip's bound is tight: a skip past it (at 0.8 of the bound) is caught. */
START_TEST(ccd_skip_only_when_the_ccd_finds_no_hit)
{
    unsigned long seed = 4242;
    int skipped = 0, asked = 0;
    for (int trial = 0; trial < 20000; trial++) {
        double x0[12], x1[12], common[3], off = trial % 4 == 3 ? 100 : trial % 4;
        double rel = 1e-6 * pow(1e5, next_random(&seed));
        double dmin = trial % 5 == 0 ? 0 : 0.02 * next_random(&seed);
        for (int a = 0; a < 3; a++)
            common[a] = 2 * next_random(&seed) - 1;
        for (int k = 0; k < 12; k++) {
            x0[k] = off + 0.1 * next_random(&seed);
            x1[k] = x0[k] + common[k % 3] + rel * (2 * next_random(&seed) - 1);
        }
        if (trial % 3 == 2) {
            /* head-on: the point over the triangle's centroid (the first edge over the
             * second, crossing), H above, falling by D = (0.5 to 1.5) (H - dmin), where
             * the relative speed l_p is the closing speed: a hit exactly when D >= H - dmin */
            static const double pt[12] = {0.04, 0.05, 0.04, 0, 0, 0, 0.12, 0, 0, 0, 0, 0.12};
            static const double ee[12] = {0, 0.05, 0.05, 0.1, 0.05, 0.05, 0.05, 0, 0, 0.05, 0, 0.1};
            const double *shape = trial % 2 ? ee : pt;
            double H = 0.05, D = (H - dmin) * (0.5 + next_random(&seed));
            for (int k = 0; k < 12; k++) {
                x0[k] = off + shape[k];
                x1[k] = x0[k] + common[k % 3] - (k % 3 == 1 && k < 3 * (1 + trial % 2) ? D : 0);
            }
        }
        int ee = trial % 2, clear = cloth__collide_ccd_clear(ee, x0, x1, dmin);
        double toi;
        int hit = cloth__ccd(ee ? CLOTH__CCD_EDGE_EDGE : CLOTH__CCD_POINT_TRIANGLE, x0, x1,
                             dmin, &toi, NULL);
        ck_assert_msg(!(clear && hit), "trial %d: skipped a pair the CCD hits", trial);
        skipped += clear;
        asked += !clear && !hit;
    }
    ck_assert_int_ge(skipped, 2000);
    ck_assert_int_ge(asked, 2000);
}
END_TEST

/* Bad input leaves x1 and v alone: a thickness of 0, a position that is not finite. */
/* Obstacles in the stage (collide.h (d)).  Triangle (0, 1, 2) lying on an obstacle,
 * vertex 3 a height H above the point with barycentric weights b, thrown down at
 * V = H / h over h: it would end on the triangle (a kernel hands the stage end positions
 * outside the obstacles, and the triangle lies on one), the vertex 1 kg (w_p = 1), the
 * corners 0.25 kg (w_k = 4).
 *
 * On the floor (y = 0, no offset, normal +y): without the floor the impulse is shared,
 * and the corners end below the floor by h w_k b_k j, j = ((delta - H) / h + V) / W,
 * W = w_p + sum b_k^2 w_k = 2.52 (the closed form of the test above), the vertex at
 * h w_p j = delta / W.  With it, the floor's impulse puts the corners back at y = 0,
 * which leaves the vertex delta / W = 0.4 delta above them, under the passes' distance
 * eta delta: the next pass stops the pair again, now with the floor's infinite mass under
 * the corners, so the vertex takes the whole stop and ends exactly delta above the
 * triangle, at y = delta; the corners end with their velocities back at 0.
 *
 * On a sphere (radius R, the corners on its top; the vertex would end on the triangle,
 * a few micrometres inside the sphere): all four end on or outside the sphere, the
 * vertex more than the passes' distance eta delta from the triangle (not delta: the
 * corners' tangential share of the second stop, along the sphere, takes them inward and
 * the sphere's impulse back out, a little closer), and the public CCD sees no crossing
 * over the step.  The floor's case is checked the same way. */
START_TEST(obstacle_holds_a_sheet_pressed_by_an_impulse)
{
    const double h = 0.01, H = 0.1, V = H / h, delta = 0.005, b[3] = {0.2, 0.3, 0.5};
    const double R = 0.5;
    for (int shape = 0; shape < 3; shape++) { /* floor off, floor on, sphere */
        static test_mesh m;
        init_mesh(&m, 4);
        add_tri(&m, 0, 1, 2);
        set3(m.x0, 0, -0.05, 0, -0.05);
        set3(m.x0, 1, 0.05, 0, -0.05);
        set3(m.x0, 2, -0.05, 0, 0.05);
        m.w[0] = m.w[1] = m.w[2] = 4;
        cloth_scene scene;
        memset(&scene, 0, sizeof scene);
        double centre[3] = {0, -R, 0};
        if (shape == 2) {
            /* the corners on the sphere: at height sqrt(R^2 - x^2 - z^2) - R */
            for (int k = 0; k < 3; k++) {
                double *q = m.x0 + 3 * k;
                q[1] = sqrt(R * R - q[0] * q[0] - q[2] * q[2]) - R;
            }
            scene.sphere.enabled = 1;
            scene.sphere.radius = R;
        } else {
            scene.floor.enabled = shape == 1;
        }
        double p[3] = {0, H, 0};
        for (int k = 0; k < 3; k++)
            for (int a = 0; a < 3; a++)
                p[a] += b[k] * m.x0[3 * k + a];
        set3(m.x0, 3, p[0], p[1], p[2]);
        double vbar[12] = {0};
        vbar[10] = -V;
        propose(&m, h, vbar, NULL);
        cloth__collide *c;
        cloth_error err;
        ck_assert_int_eq(cloth__collide_create(&m.mesh, 0, &c, &err), CLOTH_OK);
        cloth__collide_def def = {.thickness = delta, .passes = 4, .zone_iterations = 1000,
                                  .scene = shape ? &scene : NULL, .sphere_c = centre};
        cloth__collide_result res;
        ck_assert_int_eq(cloth__collide_step(c, &def, h, m.x0, m.x1, m.v, m.w, &res), 0);
        ck_assert_int_eq(res.resolved, 1);
        const double *normal;
        const unsigned char *hit = cloth__collide_obstacle_hits(c, &normal);
        double W = 1 + 4 * (b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
        double j = ((delta - H) / h + V) / W;
        if (shape == 0) {
            for (int k = 0; k < 3; k++)
                ck_assert_double_eq_tol(m.x1[3 * k + 1], -h * 4 * b[k] * j, TOL);
            ck_assert_double_eq_tol(m.x1[10], delta / W, TOL);
        } else if (shape == 1) {
            ck_assert_int_gt(res.obstacle_moves, 0);
            for (int k = 0; k < 3; k++) {
                ck_assert_double_eq_tol(m.x1[3 * k + 1], 0, TOL);
                ck_assert_double_eq_tol(m.v[3 * k + 1], 0, TOL * V);
                ck_assert_int_eq(hit[k], CLOTH__HIT_FLOOR);
                ck_assert_double_eq_tol(normal[3 * k + 1], 1, TOL);
            }
            ck_assert_int_eq(hit[3], CLOTH__HIT_NONE);
            ck_assert_double_eq_tol(m.x1[10], delta, TOL);
        } else {
            ck_assert_int_gt(res.obstacle_moves, 0);
            for (int k = 0; k < 4; k++) {
                double d[3] = {m.x1[3 * k] - centre[0], m.x1[3 * k + 1] - centre[1],
                               m.x1[3 * k + 2] - centre[2]};
                ck_assert_double_ge(sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]),
                                    R * (1 - 1e-12));
            }
        }
        if (shape > 0) {
            /* the vertex a thickness from the triangle, and no crossing over the step */
            double toi, sep;
            ck_assert_int_eq(cloth_ccd_point_triangle(m.x0 + 9, m.x0, m.x0 + 3, m.x0 + 6,
                                                      m.x1 + 9, m.x1, m.x1 + 3, m.x1 + 6,
                                                      0, &toi), 0);
            double e1[3], e2[3], nt[3], r[3];
            for (int a = 0; a < 3; a++) {
                e1[a] = m.x1[3 + a] - m.x1[a];
                e2[a] = m.x1[6 + a] - m.x1[a];
                r[a] = m.x1[9 + a] - m.x1[a];
            }
            nt[0] = e1[1] * e2[2] - e1[2] * e2[1];
            nt[1] = e1[2] * e2[0] - e1[0] * e2[2];
            nt[2] = e1[0] * e2[1] - e1[1] * e2[0];
            sep = fabs(nt[0] * r[0] + nt[1] * r[1] + nt[2] * r[2]) /
                  sqrt(nt[0] * nt[0] + nt[1] * nt[1] + nt[2] * nt[2]);
            ck_assert_double_gt(sep, CLOTH__COLLIDE_ETA * delta);
            if (shape == 1)
                ck_assert_double_eq_tol(sep, delta, TOL);
            ck_assert_double_ge(m.x1[10], m.x1[1]);
        }
        cloth__collide_destroy(c);
    }
}
END_TEST

/* An impact zone carried into the floor (collide.h (d)).  The triangle of the test above
 * on the floor, equal masses, the vertex above its centroid thrown down to land on it,
 * and no collision passes: the pair goes straight to a zone of four, whose rigid motion
 * (L = 0 about the centre of mass, which lies above the centroid) is the mean velocity
 * -V/4, taking the corners H/4 under the floor.  The floor does not give way: the zone is
 * translated up by H/4, so every vertex ends where it started, with velocity
 * -V/4 + V/4 = 0. */
START_TEST(zone_carried_into_the_floor_is_lifted_out)
{
    const double h = 0.01, H = 0.1, V = H / h, delta = 0.005;
    static test_mesh m;
    init_mesh(&m, 4);
    add_tri(&m, 0, 1, 2);
    set3(m.x0, 0, -0.05, 0, -0.05);
    set3(m.x0, 1, 0.1, 0, -0.05);
    set3(m.x0, 2, -0.05, 0, 0.1);
    set3(m.x0, 3, 0, H, 0);
    double vbar[12] = {0};
    vbar[10] = -V;
    propose(&m, h, vbar, NULL);
    cloth_scene scene;
    memset(&scene, 0, sizeof scene);
    scene.floor.enabled = 1;
    double centre[3] = {0, 0, 0};
    cloth__collide *c;
    cloth_error err;
    ck_assert_int_eq(cloth__collide_create(&m.mesh, 0, &c, &err), CLOTH_OK);
    cloth__collide_def def = {.thickness = delta, .passes = 0, .zone_iterations = 1000,
                              .scene = &scene, .sphere_c = centre};
    cloth__collide_result res;
    ck_assert_int_eq(cloth__collide_step(c, &def, h, m.x0, m.x1, m.v, m.w, &res), 0);
    ck_assert_int_eq(res.resolved, 1);
    ck_assert_int_eq(res.zones, 1);
    ck_assert_int_eq(res.zone_vertices, 4);
    ck_assert_int_eq(res.inside, 0);
    ck_assert_int_gt(res.obstacle_moves, 0);
    for (int k = 0; k < 12; k++) {
        ck_assert_double_eq_tol(m.x1[k], m.x0[k], TOL);
        ck_assert_double_eq_tol(m.v[k], 0, TOL * V);
    }
    cloth__collide_destroy(c);
}
END_TEST

START_TEST(bad_input_is_refused)
{
    static test_mesh m;
    init_mesh(&m, 3);
    add_tri(&m, 0, 1, 2);
    set3(m.x0, 1, 1, 0, 0);
    set3(m.x0, 2, 0, 1, 0);
    propose(&m, 0.01, m.x0, NULL);
    cloth__collide *c;
    cloth_error err;
    ck_assert_int_eq(cloth__collide_create(&m.mesh, 16, &c, &err), CLOTH_OK);
    cloth__collide_def def = {.passes = 4, .zone_iterations = 100};
    cloth__collide_result res;
    ck_assert_int_eq(cloth__collide_step(c, &def, 0.01, m.x0, m.x1, m.v, m.w, &res), -1);
    def.thickness = 0.01;
    m.x1[4] = NAN;
    ck_assert_int_eq(cloth__collide_step(c, &def, 0.01, m.x0, m.x1, m.v, m.w, &res), -1);
    ck_assert(isnan(m.x1[4]));
    cloth__collide_destroy(c);
}
END_TEST

Suite *suite_collide(void)
{
    Suite *s = suite_create("collide");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, vertex_thrown_at_triangle_stops_at_thickness);
    tcase_add_test(tc, edge_thrown_across_edge_stops_at_thickness);
    tcase_add_test(tc, proximity_pushes_out_with_friction);
    tcase_add_test(tc, zone_of_three_keeps_momentum);
    tcase_add_test(tc, random_throws_end_without_crossings);
    tcase_add_test(tc, reused_candidates_match_a_fresh_query);
    tcase_add_test(tc, kept_candidates_match_a_fresh_query);
    tcase_add_test(tc, savings_change_no_result);
    tcase_add_loop_test(tc, cell_query_matches_all_pairs, 0, 6);
    tcase_add_test(tc, ccd_skip_only_when_the_ccd_finds_no_hit);
    tcase_add_test(tc, obstacle_holds_a_sheet_pressed_by_an_impulse);
    tcase_add_test(tc, zone_carried_into_the_floor_is_lifted_out);
    tcase_add_test(tc, bad_input_is_refused);
    suite_add_tcase(s, tc);
    return s;
}
