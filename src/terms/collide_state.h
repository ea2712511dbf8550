/* Private to the collision stage's files (collide.c and collide_*.c, collide.h says
 * what each does): the stage's state.  Sized at creation (cloth__collide_create); a step
 * allocates nothing. */
#ifndef CLOTH_COLLIDE_STATE_H
#define CLOTH_COLLIDE_STATE_H

#include "terms/collide_def.h"
#include "terms/broad_phase.h"

struct cloth__collide {
    const cloth_mesh *mesh;
    cloth__broad_phase *bp;
    const int *edges;           /* the broad phase's edge list                        */
    double *dx;                 /* 3n: x1 - x0, the motion a query boxes              */
    double *x1_pre, *v_pre;     /* 3n each: x1 and v as the zones found them          */
    unsigned char *fixed;       /* n: inverse mass 0                                  */
    int *parent;                /* n: union-find of the impact zones                  */
    int *size;                  /* n: a root's zone size                              */
    int *start, *order;         /* n + 1, n: the zones' vertices grouped by root      */
    /* the candidates of one stage call (reuse_candidates) */
    double *xq;                 /* 3n: the start positions the last query boxed, its
                                 * boxes over xq -> xq + dx (query)                   */
    double *grow;               /* n: a vertex's own room in its query box (m): 1.25
                                 * times its largest correction in the last call      */
    double *grow_ring;          /* n: scratch of next_slack                           */
    double q_thickness;         /* the thickness it was made for                      */
    int ahead;                  /* the steps of motion its boxes reach beyond x1      */
    int ahead_max;              /* CLOTH__COLLIDE_AHEAD (0 in some tests)             */
    int calm;                   /* the last call changed no end position              */
    int carried;                /* calls that kept the last call's list (for tests)   */
    int plain;                  /* 1: no kept list and no bounds (for tests)          */
    double slack, tol;          /* its boxes' slack beyond the passes' reach and the
                                 * drift of x1 allowed, in units of the thickness     */
    double slack_next;          /* the slack the next call starts with                */
    double slack_cap;           /* this call's largest slack (collide.h)              */
    int n_edges;                /* the broad phase's edges                            */
    double *x1_prop;            /* 3n: the proposed end positions of this call        */
    double need;                /* the largest |x1 - x1_prop|_inf seen (m)            */
    cloth__broad_pairs cand;    /* the candidates (the broad phase's lists)           */
    int queried;                /* 1: the broad phase holds the stage's candidates    */
    int cand_overflow;          /* that query ran out of room                         */
    double *d0_pt, *d0_ee;      /* a candidate's distance at x0, NAN until computed   */
    double *g0_pt, *g0_ee;      /* and as the CCD computes it (ccd_clear), NAN too     */
    unsigned *seen_pt, *seen_ee;/* the clock of its last CCD without a hit, 0: none   */
    unsigned *stamp;            /* n: the clock of a vertex's last change of x1       */
    unsigned clock;             /* counts changes of x1 in this call                  */
    int max_pairs;              /* the broad phase's room per kind                    */
    int queries;                /* broad-phase queries made (for the tests)           */
    /* the pairs closer than delta at x0 (the proximity impulses' pairs), found by the
     * first proximity sweep of a query: candidate index and geometry at x0 */
    int *close_k;               /* room close_cap; n_close < 0: not found this query  */
    double *close_geo;          /* 8 each: c (4), n (3), the distance                 */
    int n_close, close_cap;
    /* the motions of one pass (motion_spread): a vertex's |x1 - x0 - D| (D the mean
     * motion), valid for vertices not changed since the clock spread_clock, and a bound
     * of the CCD's coordinate scale L for any pair */
    double *spread;             /* n                                                  */
    /* lower bounds of g0 carried from call to call (g0_lower): a candidate's g0 when it
     * was last computed and the least drift of its vertices then; each vertex's drift,
     * the sum over the calls of |its x0's move less the mean move| */
    double *lb, *lb_drift;      /* per candidate (both kinds), NAN: none              */
    double *drift;              /* n                                                  */
    double *x0_last;            /* 3n: the last call's x0                             */
    double x0_scale;            /* max |x0|_inf of this call                          */
    unsigned spread_clock;
    double spread_L;
    unsigned char *ob_hit;      /* n: (d) the obstacle that last moved a vertex       */
    double *ob_normal;          /* 3n: its outward normal there                       */
};

#endif
