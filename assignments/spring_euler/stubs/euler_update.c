    /* TODO (handout, part 2): one step of forward Euler (forward != 0) or symplectic
     * Euler on the n3 coordinates, then v *= decay. */
    (void)x;
    (void)v;
    (void)a;
    (void)n3;
    (void)h;
    (void)forward;
    (void)decay;
    return CLOTH_ENOTIMPL;
