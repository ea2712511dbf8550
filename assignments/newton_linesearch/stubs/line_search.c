    /* TODO (handout, part 2): from alpha = min(1, feasible_alpha(w, ctx, w->x, w->dir)),
     * halve alpha until E(x + alpha dir) <= e0 + ARMIJO_C alpha slope (at most
     * MAX_HALVINGS times); leave x + alpha dir in w->x_trial and return alpha, or x and 0.
     * Until then NaN says "not written". */
    (void)e0;
    (void)slope;
    (void)feasible_alpha;
    for (int i = 0; i < 3 * w->n; i++)
        w->x_trial[i] = NAN;
    (void)ctx;
    return NAN;
