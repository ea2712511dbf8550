/*
 * The xpbd, relax and Provot loops of coloured.c by hand for AVX-512 (with VL), eight
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
#endif

#endif
