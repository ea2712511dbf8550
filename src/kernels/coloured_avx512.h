/*
 * The xpbd, relax, Provot, spring-force and drag loops of coloured.c by hand for AVX-512
 * (with VL), eight springs at a time, without gather or scatter instructions, on padded
 * positions (cloth__pad: x, y, z and a spare double a vertex, 32-byte aligned).  Each
 * end's vertex is one aligned 256-bit load (and store), and eight of them are transposed
 * into x, y and z vectors by shuffles.  On the machine the benchmarks ran on, vgatherdpd
 * and vscatterdpd made the compiler's vectorised loops no faster than scalar code, and
 * the padding made these blocks 30-40 % faster than masked 256-bit loads and stores of
 * 3-double vertices (likely because a load that overlaps a masked store in flight waits
 * for it).  The arithmetic is the scalar loop's, operation for operation (no FMA: each
 * product is rounded, as with -ffp-contract=off), so the results are bit-identical to
 * it.  Private to coloured.c.
 */
#ifndef CLOTH_KERNELS_COLOURED_AVX512_H
#define CLOTH_KERNELS_COLOURED_AVX512_H

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    !defined(CLOTH_NO_CLONES)
#define AVX512_BLOCKS 1
#include <immintrin.h>

#define TARGET __attribute__((target("avx512f,avx512vl")))

/* eight 3-vectors: x, y, z of eight vertices (or differences), one lane each */
typedef struct vec8 {
    __m512d x, y, z;
} vec8;

/* the eight padded vertices at offsets o[0..7] of p */
TARGET static inline vec8 load8(const double *p, const int *o)
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
    return (vec8){_mm512_permutex2var_pd(t0, lo, t2), _mm512_permutex2var_pd(t1, lo, t3),
                  _mm512_permutex2var_pd(t0, hi, t2)};
}

/* the inverse of load8 (the spare double gets a copy of y) */
TARGET static inline void store8(double *p, const int *o, vec8 v)
{
    const __m512i lo = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
    const __m512i hi = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    __m512d t0 = _mm512_permutex2var_pd(v.x, lo, v.z), t2 = _mm512_permutex2var_pd(v.x, hi, v.z);
    __m512d t1 = _mm512_permutex2var_pd(v.y, lo, v.y), t3 = _mm512_permutex2var_pd(v.y, hi, v.y);
    __m512d A[4] = {_mm512_unpacklo_pd(t0, t1), _mm512_unpackhi_pd(t0, t1),
                    _mm512_unpacklo_pd(t2, t3), _mm512_unpackhi_pd(t2, t3)};
    for (int k = 0; k < 4; k++) {
        _mm256_store_pd(p + o[k], _mm512_castpd512_pd256(A[k]));
        _mm256_store_pd(p + o[k + 4], _mm512_extractf64x4_pd(A[k], 1));
    }
}

/* a - b, a + s b (s b rounded first), a - s b: per component, as the scalar loops */
TARGET static inline vec8 sub8(vec8 a, vec8 b)
{
    return (vec8){_mm512_sub_pd(a.x, b.x), _mm512_sub_pd(a.y, b.y), _mm512_sub_pd(a.z, b.z)};
}
TARGET static inline vec8 add_scaled8(vec8 a, __m512d s, vec8 b)
{
    return (vec8){_mm512_add_pd(a.x, _mm512_mul_pd(s, b.x)),
                  _mm512_add_pd(a.y, _mm512_mul_pd(s, b.y)),
                  _mm512_add_pd(a.z, _mm512_mul_pd(s, b.z))};
}
TARGET static inline vec8 sub_scaled8(vec8 a, __m512d s, vec8 b)
{
    return (vec8){_mm512_sub_pd(a.x, _mm512_mul_pd(s, b.x)),
                  _mm512_sub_pd(a.y, _mm512_mul_pd(s, b.y)),
                  _mm512_sub_pd(a.z, _mm512_mul_pd(s, b.z))};
}

/* a.b = (ax bx + ay by) + az bz, the scalar loops' order */
TARGET static inline __m512d dot8(vec8 a, vec8 b)
{
    return _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(a.x, b.x), _mm512_mul_pd(a.y, b.y)),
                         _mm512_mul_pd(a.z, b.z));
}

/* l = |d| and ls = l > 0 ? l : 1, as the scalar loops */
TARGET static inline __m512d length8(vec8 d, __m512d *ls)
{
    __m512d l = _mm512_sqrt_pd(dot8(d, d));
    *ls = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(l, _mm512_setzero_pd(), _CMP_GT_OQ),
                               _mm512_set1_pd(1), l);
    return l;
}

/* xpbd_loop on whole blocks of 8 from lo (d = p_a - p_b); returns where they end */
TARGET static int xpbd_avx512(cloth__coloured *c, double *p, int lo, int hi)
{
    for (; lo + 8 <= hi; lo += 8) {
        vec8 a = load8(p, c->ia + lo), b = load8(p, c->ib + lo), d = sub8(a, b);
        __m512d ls, l = length8(d, &ls);
        __m512d lambda = _mm512_loadu_pd(c->lambda + lo);
        /* dl = (-k' (l - l0) - alpha~ lambda) inv_den, 0 where l = 0; -k' exactly (-0
         * for 0), as the scalar negation */
        __m512d neg_gain = _mm512_mul_pd(_mm512_set1_pd(-1), _mm512_loadu_pd(c->gain + lo));
        __m512d dl = _mm512_mul_pd(
            _mm512_sub_pd(_mm512_mul_pd(neg_gain, _mm512_sub_pd(l, _mm512_loadu_pd(c->rest + lo))),
                          _mm512_mul_pd(_mm512_loadu_pd(c->alpha + lo), lambda)),
            _mm512_loadu_pd(c->inv_den + lo));
        dl = _mm512_maskz_mov_pd(_mm512_cmp_pd_mask(l, _mm512_setzero_pd(), _CMP_GT_OQ), dl);
        __m512d s = _mm512_div_pd(dl, ls);
        _mm512_storeu_pd(c->lambda + lo, _mm512_add_pd(lambda, dl));
        store8(p, c->ia + lo, add_scaled8(a, _mm512_mul_pd(_mm512_loadu_pd(c->wa + lo), s), d));
        store8(p, c->ib + lo, sub_scaled8(b, _mm512_mul_pd(_mm512_loadu_pd(c->wb + lo), s), d));
    }
    return lo;
}

/* relax_loop on whole blocks of 8 from lo (d = x_b - x_a); returns where they end */
TARGET static int relax_avx512(cloth__coloured *c, double *x, double half_k, int lo, int hi)
{
    const __m512d hk = _mm512_set1_pd(half_k);
    for (; lo + 8 <= hi; lo += 8) {
        vec8 a = load8(x, c->ia + lo), b = load8(x, c->ib + lo), d = sub8(b, a);
        __m512d ls, l = length8(d, &ls);
        /* s = (l - l0) / ls half_k */
        __m512d s = _mm512_mul_pd(
            _mm512_div_pd(_mm512_sub_pd(l, _mm512_loadu_pd(c->rest + lo)), ls), hk);
        store8(x, c->ia + lo, add_scaled8(a, _mm512_mul_pd(_mm512_loadu_pd(c->wa + lo), s), d));
        store8(x, c->ib + lo, sub_scaled8(b, _mm512_mul_pd(_mm512_loadu_pd(c->wb + lo), s), d));
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
        vec8 a = load8(x, c->ia + lo), b = load8(x, c->ib + lo), d = sub8(b, a);
        __m512d ls, l = length8(d, &ls);
        __m512d limit = _mm512_mul_pd(f, _mm512_loadu_pd(c->rest + lo));
        __mmask8 over = _mm512_cmp_pd_mask(l, _mm512_mul_pd(limit, over_by), _CMP_GT_OQ);
        if (!over)
            continue; /* nothing to shorten: the vertices stay as they are */
        /* where over: x_a += w_a s d, x_b -= w_b s d, s = (l - limit) / ls; elsewhere the
         * vertices keep their bits (as the scalar loop, which does not touch them) */
        __m512d s = _mm512_div_pd(_mm512_sub_pd(l, limit), ls);
        vec8 na = add_scaled8(a, _mm512_mul_pd(_mm512_loadu_pd(c->wa + lo), s), d);
        vec8 nb = sub_scaled8(b, _mm512_mul_pd(_mm512_loadu_pd(c->wb + lo), s), d);
        store8(x, c->ia + lo,
               (vec8){_mm512_mask_blend_pd(over, a.x, na.x), _mm512_mask_blend_pd(over, a.y, na.y),
                      _mm512_mask_blend_pd(over, a.z, na.z)});
        store8(x, c->ib + lo,
               (vec8){_mm512_mask_blend_pd(over, b.x, nb.x), _mm512_mask_blend_pd(over, b.y, nb.y),
                      _mm512_mask_blend_pd(over, b.z, nb.z)});
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
        vec8 d = sub8(load8(x, ib), load8(x, ia));
        __m512d ls, l = length8(d, &ls), r = _mm512_div_pd(one, ls);
        vec8 u = {_mm512_mul_pd(d.x, r), _mm512_mul_pd(d.y, r), _mm512_mul_pd(d.z, r)};
        /* k from the mesh's springs (the viewer's slider changes them between frames) */
        __m512d k = _mm512_setr_pd(springs[s[0]].k, springs[s[1]].k, springs[s[2]].k,
                                   springs[s[3]].k, springs[s[4]].k, springs[s[5]].k,
                                   springs[s[6]].k, springs[s[7]].k);
        /* t = k (l - l0) + c_d (v_b - v_a).u */
        __m512d t = _mm512_add_pd(
            _mm512_mul_pd(k, _mm512_sub_pd(l, _mm512_loadu_pd(c->rest + lo))),
            _mm512_mul_pd(damping, dot8(sub8(load8(v, ib), load8(v, ia)), u)));
        store8(f, ia, add_scaled8(load8(f, ia), t, u));
        store8(f, ib, sub_scaled8(load8(f, ib), t, u));
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
    for (; lo + 8 <= hi; lo += 8) {
        const int *corner[3] = {c->i0 + lo, c->i1 + lo, c->i2 + lo};
        vec8 a = load8(x, corner[0]);
        vec8 u = sub8(load8(x, corner[1]), a), q = sub8(load8(x, corner[2]), a);
        vec8 n = {_mm512_sub_pd(_mm512_mul_pd(u.y, q.z), _mm512_mul_pd(u.z, q.y)),
                  _mm512_sub_pd(_mm512_mul_pd(u.z, q.x), _mm512_mul_pd(u.x, q.z)),
                  _mm512_sub_pd(_mm512_mul_pd(u.x, q.y), _mm512_mul_pd(u.y, q.x))};
        __m512d ls, area2 = length8(n, &ls); /* twice the area, and 1 where it is 0 */
        __m512d r = _mm512_div_pd(one, ls);
        n = (vec8){_mm512_mul_pd(n.x, r), _mm512_mul_pd(n.y, r), _mm512_mul_pd(n.z, r)};
        /* v_rel = wind gust - (v_a + v_b + v_d) / 3 */
        __m512d gust = _mm512_loadu_pd(c->gust + lo);
        vec8 va = load8(v, corner[0]), vb = load8(v, corner[1]), vd = load8(v, corner[2]);
        vec8 rel = {
            _mm512_sub_pd(_mm512_mul_pd(_mm512_set1_pd(wind[0]), gust),
                          _mm512_div_pd(_mm512_add_pd(_mm512_add_pd(va.x, vb.x), vd.x), three)),
            _mm512_sub_pd(_mm512_mul_pd(_mm512_set1_pd(wind[1]), gust),
                          _mm512_div_pd(_mm512_add_pd(_mm512_add_pd(va.y, vb.y), vd.y), three)),
            _mm512_sub_pd(_mm512_mul_pd(_mm512_set1_pd(wind[2]), gust),
                          _mm512_div_pd(_mm512_add_pd(_mm512_add_pd(va.z, vb.z), vd.z), three))};
        /* mag = coeff 0.5 |2A| (n.v_rel) |v_rel| / 3, left to right as the scalar loop */
        __m512d mag = _mm512_div_pd(
            _mm512_mul_pd(_mm512_mul_pd(_mm512_mul_pd(half_coeff, area2), dot8(n, rel)),
                          _mm512_sqrt_pd(dot8(rel, rel))),
            three);
        for (int k = 0; k < 3; k++)
            store8(f, corner[k], add_scaled8(load8(f, corner[k]), mag, n));
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
