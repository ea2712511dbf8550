    /* TODO (handout, part 1): XPBD's dlambda = (-C - alpha~ lambda) / (wsum + alpha~);
     * add it to *lambda and return it (0 when alpha~ is infinite: k = 0).  Until then
     * NaN says "not written" (the function has no status to return). */
    (void)C;
    (void)wsum;
    (void)alpha_t;
    (void)lambda;
    return NAN;
