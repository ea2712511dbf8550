/* The tunnelled metric: the pairs whose motion between two frames reaches separation 0
 * (tunnel.h). */
#include "terms/tunnel.h"
#include "terms/broad_phase.h"
#include "terms/ccd.h"
#include "core/status.h"

#include <math.h>
#include <stdlib.h>

struct cloth__tunnel {
    cloth__broad_phase *bp;     /* candidates over the motion's boxes                 */
    double *dx;                 /* 3n: x1 - x0                                        */
};

cloth_status cloth__tunnel_create(const cloth_mesh *mesh, cloth__tunnel **out,
                                  cloth_error *err)
{
    *out = NULL;
    cloth__tunnel *w = calloc(1, sizeof *w);
    if (!w)
        return cloth__fail(err, CLOTH_ENOMEM, "tunnelled metric: out of memory");
    /* at most 3 edges per triangle: n + 3 n_tris bounds vertices plus edges */
    long room = CLOTH__TUNNEL_PAIRS * ((long)mesh->n + 3L * mesh->n_tris) + 1024;
    if (room > 1L << 28)
        room = 1L << 28;
    w->dx = malloc((3 * (size_t)mesh->n + 1) * sizeof *w->dx);
    cloth_status st = w->dx ? cloth__broad_phase_create(mesh, (int)room, &w->bp, err)
                            : cloth__fail(err, CLOTH_ENOMEM, "tunnelled metric: out of memory");
    if (st != CLOTH_OK) {
        cloth__tunnel_destroy(w);
        return st;
    }
    *out = w;
    return CLOTH_OK;
}

void cloth__tunnel_destroy(cloth__tunnel *work)
{
    if (!work)
        return;
    cloth__broad_phase_destroy(work->bp);
    free(work->dx);
    free(work);
}

/* Whether the pair of vertices v (ordered as terms/ccd.h orders them) reaches separation 0
 * moving from x0 to x1, by the CCD with this metric's cap (tunnel.h). */
static int passes(cloth__ccd_pair pair, const int v[4], const double *x0, const double *x1)
{
    double a[12], b[12], toi;
    for (int i = 0; i < 4; i++)
        for (int c = 0; c < 3; c++) {
            a[3 * i + c] = x0[3 * v[i] + c];
            b[3 * i + c] = x1[3 * v[i] + c];
        }
    return cloth__ccd_capped(pair, a, b, 0, CLOTH__TUNNEL_CCD_STEPS, &toi, NULL) > 0;
}

long cloth__count_tunnelled(const cloth_mesh *mesh, const double *x0, const double *x1,
                            cloth__tunnel *work)
{
    for (int k = 0; k < 3 * mesh->n; k++) {
        if (!isfinite(x0[k]) || !isfinite(x1[k]))
            return -1;
        work->dx[k] = x1[k] - x0[k];
    }
    if (mesh->n_tris == 0)
        return 0;
    cloth__broad_pairs pairs;
    /* r = 0: boxes of the motion itself; pairs of fixed vertices are pairs too */
    cloth__broad_phase_query(work->bp, x0, work->dx, 0, NULL, &pairs);
    if (pairs.overflow)
        return -1;
    const int *edges;
    cloth__broad_phase_edges(work->bp, &edges);
    long count = 0;
    for (int k = 0; k < pairs.n_pt; k++) {
        int p = pairs.pt[2 * k];
        const int *t = mesh->tris + 3 * pairs.pt[2 * k + 1];
        int v[4] = {p, t[0], t[1], t[2]};
        count += passes(CLOTH__CCD_POINT_TRIANGLE, v, x0, x1);
    }
    for (int k = 0; k < pairs.n_ee; k++) {
        const int *a = edges + 2 * pairs.ee[2 * k], *b = edges + 2 * pairs.ee[2 * k + 1];
        int v[4] = {a[0], a[1], b[0], b[1]};
        count += passes(CLOTH__CCD_EDGE_EDGE, v, x0, x1);
    }
    return count;
}
