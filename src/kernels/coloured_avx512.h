/*
 * The xpbd, relax, Provot, spring-force and drag loops of coloured.c by hand for AVX-512 (with VL), eight
 * springs at a time, without gather or scatter instructions, on padded positions
 * (cloth__pad: x, y, z and a spare double a vertex, 32-byte aligned).  Each end's vertex
 * is one aligned 256-bit load (and store), and eight of them are transposed into x, y and
 * z vectors by shuffles.  On the machine the benchmarks ran on, vgatherdpd and vscatterdpd
 * made the compiler's vectorised loops no faster than scalar code, and masked 256-bit
 * stores of 3-double vertices stalled the loads after them (a load overlapping a masked
 * store in flight waits for it to retire): the padding is worth about 40 %.  The
 * arithmetic is the scalar loop's, operation for operation (no FMA: each product is
 * rounded, as with -ffp-contract=off), so the results are bit-identical to it.  Private
 * to coloured.c.
 */
#ifndef CLOTH_KERNELS_COLOURED_AVX512_H
#define CLOTH_KERNELS_COLOURED_AVX512_H

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    !defined(CLOTH_NO_CLONES)
#define AVX512_BLOCKS 1
#include <immintrin.h>

#define TARGET __attribute__((target("avx512f,avx512vl")))

/* x, y, z of the eight padded vertices at offsets o[0..7] of p */
TARGET static inline void load8(const double *p, const int *o, __m512d *X, __m512d *Y,
                                __m512d *Z)
{
    __m512d A[4];
    for (int k = 0; k < 4; k++)
        A[k] = _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_load_pd(p + o[k])),
                                  _mm256_load_pd(p + o[k + 4]), 1);
    /* [x0 x1 z0 z1 | x4 x5 z4 z5], [y0 y1 . . | y4 y5 . .], the same for 2, 3 and 6, 7 */
    __m512d t0 = _mm512_unpacklo_pd(A[0], A[1]), t1 = _mm512_unpackhi_pd(A[0], A[1]);
    __m512d t2 = _mm512_unpacklo_pd(A[2], A[3]), t3 = _mm512_unpackhi_pd(A[2], A[3]);
    const __m512i lo = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
    const __m512i hi = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    *X = _mm512_permutex2var_pd(t0, lo, t2);
    *Y = _mm512_permutex2var_pd(t1, lo, t3);
    *Z = _mm512_permutex2var_pd(t0, hi, t2);
}

/* the inverse of load8: x, y, z back to the eight vertices (the spare double gets a
 * copy of y) */
TARGET static inline void store8(double *p, const int *o, __m512d X, __m512d Y, __m512d Z)
{
    const __m512i lo = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
    const __m512i hi = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    __m512d t0 = _mm512_permutex2var_pd(X, lo, Z), t2 = _mm512_permutex2var_pd(X, hi, Z);
    __m512d t1 = _mm512_permutex2var_pd(Y, lo, Y), t3 = _mm512_permutex2var_pd(Y, hi, Y);
    __m512d A[4] = {_mm512_unpacklo_pd(t0, t1), _mm512_unpackhi_pd(t0, t1),
                    _mm512_unpacklo_pd(t2, t3), _mm512_unpackhi_pd(t2, t3)};
    for (int k = 0; k < 4; k++) {
        _mm256_store_pd(p + o[k], _mm512_castpd512_pd256(A[k]));
        _mm256_store_pd(p + o[k + 4], _mm512_extractf64x4_pd(A[k], 1));
    }
}

/* l = sqrt(dx dx + dy dy + dz dz) and ls = l > 0 ? l : 1, as the scalar loops */
TARGET static inline __m512d length8(__m512d dx, __m512d dy, __m512d dz, __m512d *ls,
                                     __mmask8 *positive)
{
    __m512d l = _mm512_sqrt_pd(_mm512_add_pd(
        _mm512_add_pd(_mm512_mul_pd(dx, dx), _mm512_mul_pd(dy, dy)), _mm512_mul_pd(dz, dz)));
    *positive = _mm512_cmp_pd_mask(l, _mm512_setzero_pd(), _CMP_GT_OQ);
    *ls = _mm512_mask_blend_pd(*positive, _mm512_set1_pd(1), l);
    return l;
}

/* x_a += sa d, x_b -= sb d for the eight springs */
TARGET static inline void move8(double *p, const int *ia, const int *ib, __m512d ax,
                                __m512d ay, __m512d az, __m512d bx, __m512d by, __m512d bz,
                                __m512d sa, __m512d sb, __m512d dx, __m512d dy, __m512d dz)
{
    store8(p, ia, _mm512_add_pd(ax, _mm512_mul_pd(sa, dx)),
           _mm512_add_pd(ay, _mm512_mul_pd(sa, dy)), _mm512_add_pd(az, _mm512_mul_pd(sa, dz)));
    store8(p, ib, _mm512_sub_pd(bx, _mm512_mul_pd(sb, dx)),
           _mm512_sub_pd(by, _mm512_mul_pd(sb, dy)), _mm512_sub_pd(bz, _mm512_mul_pd(sb, dz)));
}

/* xpbd_loop on whole blocks of 8 from lo; returns where the blocks end */
TARGET static int xpbd_avx512(cloth__coloured *c, double *p, int lo, int hi)
{
    for (; lo + 8 <= hi; lo += 8) {
        __m512d ax, ay, az, bx, by, bz, ls;
        __mmask8 positive;
        load8(p, c->ia + lo, &ax, &ay, &az);
        load8(p, c->ib + lo, &bx, &by, &bz);
        __m512d dx = _mm512_sub_pd(ax, bx), dy = _mm512_sub_pd(ay, by),
                dz = _mm512_sub_pd(az, bz);
        __m512d l = length8(dx, dy, dz, &ls, &positive);
        __m512d lambda = _mm512_loadu_pd(c->lambda + lo);
        /* dl = (-k' (l - l0) - alpha~ lambda) inv_den, 0 where l = 0 */
        /* -k' exactly, -0 for 0 as the scalar negation */
        __m512d neg_gain = _mm512_mul_pd(_mm512_set1_pd(-1), _mm512_loadu_pd(c->gain + lo));
        __m512d dl = _mm512_mul_pd(
            _mm512_sub_pd(_mm512_mul_pd(neg_gain, _mm512_sub_pd(l, _mm512_loadu_pd(c->rest + lo))),
                          _mm512_mul_pd(_mm512_loadu_pd(c->alpha + lo), lambda)),
            _mm512_loadu_pd(c->inv_den + lo));
        dl = _mm512_maskz_mov_pd(positive, dl);
        __m512d s = _mm512_div_pd(dl, ls);
        _mm512_storeu_pd(c->lambda + lo, _mm512_add_pd(lambda, dl));
        __m512d sa = _mm512_mul_pd(_mm512_loadu_pd(c->wa + lo), s),
                sb = _mm512_mul_pd(_mm512_loadu_pd(c->wb + lo), s);
        move8(p, c->ia + lo, c->ib + lo, ax, ay, az, bx, by, bz, sa, sb, dx, dy, dz);
    }
    return lo;
}

/* relax_loop on whole blocks of 8 from lo (d = x_b - x_a); returns where they end */
TARGET static int relax_avx512(cloth__coloured *c, double *x, double half_k, int lo, int hi)
{
    const __m512d hk = _mm512_set1_pd(half_k);
    for (; lo + 8 <= hi; lo += 8) {
        __m512d ax, ay, az, bx, by, bz, ls;
        __mmask8 positive;
        load8(x, c->ia + lo, &ax, &ay, &az);
        load8(x, c->ib + lo, &bx, &by, &bz);
        __m512d dx = _mm512_sub_pd(bx, ax), dy = _mm512_sub_pd(by, ay),
                dz = _mm512_sub_pd(bz, az);
        __m512d l = length8(dx, dy, dz, &ls, &positive);
        /* s = (l - l0) / ls half_k */
        __m512d s = _mm512_mul_pd(
            _mm512_div_pd(_mm512_sub_pd(l, _mm512_loadu_pd(c->rest + lo)), ls), hk);
        __m512d sa = _mm512_mul_pd(_mm512_loadu_pd(c->wa + lo), s),
                sb = _mm512_mul_pd(_mm512_loadu_pd(c->wb + lo), s);
        move8(x, c->ia + lo, c->ib + lo, ax, ay, az, bx, by, bz, sa, sb, dx, dy, dz);
    }
    return lo;
}

/* provot_loop on whole blocks of 8 from lo (d = x_b - x_a): returns where they end and
 * adds the springs it shortened to *count */
TARGET static int provot_avx512(cloth__coloured *c, double *x, double factor, double tol,
                                int lo, int hi, int *count)
{
    const __m512d f = _mm512_set1_pd(factor), over_by = _mm512_set1_pd(1 + tol);
    for (; lo + 8 <= hi; lo += 8) {
        __m512d ax, ay, az, bx, by, bz, ls;
        __mmask8 positive;
        load8(x, c->ia + lo, &ax, &ay, &az);
        load8(x, c->ib + lo, &bx, &by, &bz);
        __m512d dx = _mm512_sub_pd(bx, ax), dy = _mm512_sub_pd(by, ay),
                dz = _mm512_sub_pd(bz, az);
        __m512d l = length8(dx, dy, dz, &ls, &positive);
        __m512d limit = _mm512_mul_pd(f, _mm512_loadu_pd(c->rest + lo));
        __mmask8 over = _mm512_cmp_pd_mask(l, _mm512_mul_pd(limit, over_by), _CMP_GT_OQ);
        if (!over)
            continue; /* nothing to shorten: the vertices stay as they are */
        /* where over: x_a += w_a s d, x_b -= w_b s d, s = (l - limit) / ls; elsewhere the
         * vertices keep their bits (as the scalar loop, which does not touch them) */
        __m512d s = _mm512_div_pd(_mm512_sub_pd(l, limit), ls);
        __m512d sa = _mm512_mul_pd(_mm512_loadu_pd(c->wa + lo), s),
                sb = _mm512_mul_pd(_mm512_loadu_pd(c->wb + lo), s);
        store8(x, c->ia + lo,
               _mm512_mask_add_pd(ax, over, ax, _mm512_mul_pd(sa, dx)),
               _mm512_mask_add_pd(ay, over, ay, _mm512_mul_pd(sa, dy)),
               _mm512_mask_add_pd(az, over, az, _mm512_mul_pd(sa, dz)));
        store8(x, c->ib + lo,
               _mm512_mask_sub_pd(bx, over, bx, _mm512_mul_pd(sb, dx)),
               _mm512_mask_sub_pd(by, over, by, _mm512_mul_pd(sb, dy)),
               _mm512_mask_sub_pd(bz, over, bz, _mm512_mul_pd(sb, dz)));
        *count += __builtin_popcount(over);
    }
    return lo;
}

/* springs_loop on whole blocks of 8 from lo, padded x, v and f (d = x_b - x_a, v = x
 * with c_d = 0 when there is no damping): returns where they end */
TARGET static int springs_avx512(const cloth__coloured *c, const cloth_spring *springs,
                                 const double *x, const double *v, double cd, double *f,
                                 int lo, int hi)
{
    const __m512d damping = _mm512_set1_pd(cd), one = _mm512_set1_pd(1);
    for (; lo + 8 <= hi; lo += 8) {
        const int *ia = c->ia + lo, *ib = c->ib + lo, *s = c->spring + lo;
        __m512d ax, ay, az, bx, by, bz, ls;
        __mmask8 positive;
        load8(x, ia, &ax, &ay, &az);
        load8(x, ib, &bx, &by, &bz);
        __m512d dx = _mm512_sub_pd(bx, ax), dy = _mm512_sub_pd(by, ay),
                dz = _mm512_sub_pd(bz, az);
        __m512d l = length8(dx, dy, dz, &ls, &positive);
        __m512d r = _mm512_div_pd(one, ls);
        __m512d ux = _mm512_mul_pd(dx, r), uy = _mm512_mul_pd(dy, r), uz = _mm512_mul_pd(dz, r);
        /* k from the mesh's springs (the viewer's slider changes them between frames) */
        __m512d k = _mm512_setr_pd(springs[s[0]].k, springs[s[1]].k, springs[s[2]].k,
                                   springs[s[3]].k, springs[s[4]].k, springs[s[5]].k,
                                   springs[s[6]].k, springs[s[7]].k);
        load8(v, ia, &ax, &ay, &az);
        load8(v, ib, &bx, &by, &bz);
        /* t = k (l - l0) + c_d (v_b - v_a).u */
        __m512d rel = _mm512_add_pd(
            _mm512_add_pd(_mm512_mul_pd(_mm512_sub_pd(bx, ax), ux),
                          _mm512_mul_pd(_mm512_sub_pd(by, ay), uy)),
            _mm512_mul_pd(_mm512_sub_pd(bz, az), uz));
        __m512d t = _mm512_add_pd(
            _mm512_mul_pd(k, _mm512_sub_pd(l, _mm512_loadu_pd(c->rest + lo))),
            _mm512_mul_pd(damping, rel));
        load8(f, ia, &ax, &ay, &az);
        load8(f, ib, &bx, &by, &bz);
        move8(f, ia, ib, ax, ay, az, bx, by, bz, t, t, ux, uy, uz);
    }
    return lo;
}

/* drag_range on whole blocks of 8 from lo, padded x, v and f: returns where they end */
TARGET static int drag_avx512(const cloth__coloured_tris *c, const double wind[3],
                              double coeff, const double *x, const double *v, double *f,
                              int lo, int hi)
{
    const __m512d one = _mm512_set1_pd(1), three = _mm512_set1_pd(3);
    const __m512d half_coeff = _mm512_set1_pd(coeff * 0.5);
    const __m512d wx = _mm512_set1_pd(wind[0]), wy = _mm512_set1_pd(wind[1]),
                  wz = _mm512_set1_pd(wind[2]);
    for (; lo + 8 <= hi; lo += 8) {
        const int *i0 = c->i0 + lo, *i1 = c->i1 + lo, *i2 = c->i2 + lo;
        __m512d ax, ay, az, bx, by, bz, dx, dy, dz;
        load8(x, i0, &ax, &ay, &az);
        load8(x, i1, &bx, &by, &bz);
        load8(x, i2, &dx, &dy, &dz);
        __m512d ux = _mm512_sub_pd(bx, ax), uy = _mm512_sub_pd(by, ay),
                uz = _mm512_sub_pd(bz, az);
        __m512d qx = _mm512_sub_pd(dx, ax), qy = _mm512_sub_pd(dy, ay),
                qz = _mm512_sub_pd(dz, az);
        __m512d nx = _mm512_sub_pd(_mm512_mul_pd(uy, qz), _mm512_mul_pd(uz, qy)),
                ny = _mm512_sub_pd(_mm512_mul_pd(uz, qx), _mm512_mul_pd(ux, qz)),
                nz = _mm512_sub_pd(_mm512_mul_pd(ux, qy), _mm512_mul_pd(uy, qx));
        __m512d area2, ls; /* twice the area, and 1 where it is 0 */
        __mmask8 positive;
        area2 = length8(nx, ny, nz, &ls, &positive);
        __m512d r = _mm512_div_pd(one, ls);
        nx = _mm512_mul_pd(nx, r);
        ny = _mm512_mul_pd(ny, r);
        nz = _mm512_mul_pd(nz, r);
        /* v_rel = wind gust - (v_a + v_b + v_d) / 3 */
        __m512d gust = _mm512_loadu_pd(c->gust + lo);
        load8(v, i0, &ax, &ay, &az);
        load8(v, i1, &bx, &by, &bz);
        load8(v, i2, &dx, &dy, &dz);
        __m512d rx = _mm512_sub_pd(_mm512_mul_pd(wx, gust),
                                   _mm512_div_pd(_mm512_add_pd(_mm512_add_pd(ax, bx), dx), three));
        __m512d ry = _mm512_sub_pd(_mm512_mul_pd(wy, gust),
                                   _mm512_div_pd(_mm512_add_pd(_mm512_add_pd(ay, by), dy), three));
        __m512d rz = _mm512_sub_pd(_mm512_mul_pd(wz, gust),
                                   _mm512_div_pd(_mm512_add_pd(_mm512_add_pd(az, bz), dz), three));
        /* mag = coeff 0.5 |2A| (n.v_rel) |v_rel| / 3, left to right as the scalar loop */
        __m512d dot = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(nx, rx), _mm512_mul_pd(ny, ry)),
                                    _mm512_mul_pd(nz, rz));
        __m512d speed = _mm512_sqrt_pd(_mm512_add_pd(
            _mm512_add_pd(_mm512_mul_pd(rx, rx), _mm512_mul_pd(ry, ry)), _mm512_mul_pd(rz, rz)));
        __m512d mag = _mm512_div_pd(
            _mm512_mul_pd(_mm512_mul_pd(_mm512_mul_pd(half_coeff, area2), dot), speed), three);
        __m512d fx = _mm512_mul_pd(mag, nx), fy = _mm512_mul_pd(mag, ny),
                fz = _mm512_mul_pd(mag, nz);
        const int *corner[3] = {i0, i1, i2};
        for (int k = 0; k < 3; k++) {
            load8(f, corner[k], &ax, &ay, &az);
            store8(f, corner[k], _mm512_add_pd(ax, fx), _mm512_add_pd(ay, fy),
                   _mm512_add_pd(az, fz));
        }
    }
    return lo;
}

#undef TARGET
#else
#define AVX512_BLOCKS 0
static inline int xpbd_avx512(cloth__coloured *c, double *p, int lo, int hi)
{
    (void)c, (void)p, (void)hi;
    return lo;
}
static inline int relax_avx512(cloth__coloured *c, double *x, double half_k, int lo, int hi)
{
    (void)c, (void)x, (void)half_k, (void)hi;
    return lo;
}
static inline int provot_avx512(cloth__coloured *c, double *x, double factor, double tol,
                                int lo, int hi, int *count)
{
    (void)c, (void)x, (void)factor, (void)tol, (void)hi, (void)count;
    return lo;
}
static inline int springs_avx512(const cloth__coloured *c, const cloth_spring *springs,
                                 const double *x, const double *v, double cd, double *f,
                                 int lo, int hi)
{
    (void)c, (void)springs, (void)x, (void)v, (void)cd, (void)f, (void)hi;
    return lo;
}
static inline int drag_avx512(const cloth__coloured_tris *c, const double wind[3],
                              double coeff, const double *x, const double *v, double *f,
                              int lo, int hi)
{
    (void)c, (void)wind, (void)coeff, (void)x, (void)v, (void)f, (void)hi;
    return lo;
}
#endif

#endif
