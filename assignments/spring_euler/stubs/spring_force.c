    /* TODO (handout, part 1): the tension T = k (l - l0) and the direction
     * u = (xb - xa)/l of the spring from xa to xb; u = 0 when l = 0. */
    (void)xa;
    (void)xb;
    (void)k;
    (void)l0;
    u[0] = u[1] = u[2] = 0;
    *tension = 0;
    return CLOTH_ENOTIMPL;
