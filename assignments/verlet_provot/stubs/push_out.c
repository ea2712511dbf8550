    /* TODO (handout, part 3): put x on the surface of the sphere and of the plane it is
     * inside; return which surface it was put on last, its outward normal in normal.
     * Until then x becomes NaN: "not written" (the function has no status to return). */
    (void)scene;
    (void)c;
    for (int k = 0; k < 3; k++)
        x[k] = normal[k] = NAN;
    return CLOTH__HIT_NONE;
