    /* TODO (handout, part 1): position Verlet, x' = x + d (x - x_prev) + a h^2 for every
     * free vertex (a in sim->force, d from verlet.damping or damping_rate), x_prev takes
     * x; a pinned vertex and its x_prev go back to the mesh's x0. */
    (void)sim;
    (void)h;
    return CLOTH_ENOTIMPL;
