/*
 * The xpbd, relax, Provot, spring-force and drag loops of coloured.c by hand for AVX-512
 * (with VL), eight springs at a time, without gather or scatter instructions, on padded
 * positions (cloth__pad: x, y, z and a spare double a vertex, 32-byte aligned).  Each
 * end's vertex is one aligned 256-bit load (and store), two vertices to a 512-bit
 * register ("pairs"); the componentwise updates are done on the pairs as loaded, and only
 * the differences whose lengths (dot and cross products) are needed are transposed into
 * x, y and z vectors.  On the machine the benchmarks ran on, vgatherdpd and vscatterdpd
 * made the compiler's vectorised loops no faster than scalar code; the padding made the
 * blocks 30-40 % faster than masked 256-bit loads and stores of 3-double vertices (likely
 * because a load that overlaps a masked store in flight waits for it), and updating the
 * pairs as loaded, instead of transposing every load and store, another 35-80 % (likely
 * from the fewer shuffles: one port of the core executes them).  The arithmetic is the
 * scalar loop's, operation for operation (no FMA: each product is rounded, as with
 * -ffp-contract=off), so the results are bit-identical to it.  Private to coloured.c.
 */
#ifndef CLOTH_KERNELS_COLOURED_AVX512_H
#define CLOTH_KERNELS_COLOURED_AVX512_H

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    !defined(CLOTH_NO_CLONES)
#define AVX512_BLOCKS 1
#include <immintrin.h>

#define TARGET __attribute__((target("avx512f,avx512vl")))

/* Eight padded vertices as four pairs, v[k] = [vertex k | vertex k + 4] (x, y, z and the
 * spare double each): what whole aligned 256-bit loads give without shuffling.  The
 * componentwise arithmetic of the updates is done on pairs; only what needs the three
 * components of one vertex together (a length, a dot or cross product) is transposed. */
typedef struct pairs {
    __m512d v0, v1, v2, v3; /* members, not an array: GCC keeps them in registers */
} pairs;

/* eight 3-vectors: x, y, z of eight vertices (or differences), one lane each */
typedef struct vec8 {
    __m512d x, y, z;
} vec8;

/* the eight padded vertices at offsets o[0..7] of p */
TARGET static inline __m512d load_pair(const double *p, int o, int o4)
{
    return _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_load_pd(p + o)),
                              _mm256_load_pd(p + o4), 1);
}
TARGET static inline pairs load_pairs(const double *p, const int *o)
{
    return (pairs){load_pair(p, o[0], o[4]), load_pair(p, o[1], o[5]), load_pair(p, o[2], o[6]),
                   load_pair(p, o[3], o[7])};
}

/* the inverse of load_pairs */
TARGET static inline void store_pair(double *p, int o, int o4, __m512d v)
{
    _mm256_store_pd(p + o, _mm512_castpd512_pd256(v));
    _mm256_store_pd(p + o4, _mm512_extractf64x4_pd(v, 1));
}
TARGET static inline void store_pairs(double *p, const int *o, pairs a)
{
    store_pair(p, o[0], o[4], a.v0);
    store_pair(p, o[1], o[5], a.v1);
    store_pair(p, o[2], o[6], a.v2);
    store_pair(p, o[3], o[7], a.v3);
}

/* a - b, a + S b and a - S b (S b rounded first) per double, as the scalar loops per
 * component; the spare doubles take part and are never read */
TARGET static inline pairs add_pairs(pairs a, pairs b)
{
    return (pairs){_mm512_add_pd(a.v0, b.v0), _mm512_add_pd(a.v1, b.v1),
                   _mm512_add_pd(a.v2, b.v2), _mm512_add_pd(a.v3, b.v3)};
}
TARGET static inline pairs sub_pairs(pairs a, pairs b)
{
    return (pairs){_mm512_sub_pd(a.v0, b.v0), _mm512_sub_pd(a.v1, b.v1),
                   _mm512_sub_pd(a.v2, b.v2), _mm512_sub_pd(a.v3, b.v3)};
}
TARGET static inline pairs mul_pairs(pairs a, pairs b)
{
    return (pairs){_mm512_mul_pd(a.v0, b.v0), _mm512_mul_pd(a.v1, b.v1),
                   _mm512_mul_pd(a.v2, b.v2), _mm512_mul_pd(a.v3, b.v3)};
}
TARGET static inline pairs add_scaled_pairs(pairs a, pairs s, pairs b)
{
    return add_pairs(a, mul_pairs(s, b));
}
TARGET static inline pairs sub_scaled_pairs(pairs a, pairs s, pairs b)
{
    return sub_pairs(a, mul_pairs(s, b));
}

/* the pairs' x, y and z, lane j from vertex j */
TARGET static inline vec8 transpose(pairs a)
{
    /* [x0 x1 z0 z1 | x4 x5 z4 z5], [y0 y1 . . | y4 y5 . .], the same for 2, 3 and 6, 7 */
    __m512d t0 = _mm512_unpacklo_pd(a.v0, a.v1), t1 = _mm512_unpackhi_pd(a.v0, a.v1);
    __m512d t2 = _mm512_unpacklo_pd(a.v2, a.v3), t3 = _mm512_unpackhi_pd(a.v2, a.v3);
    const __m512i lo = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
    const __m512i hi = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    return (vec8){_mm512_permutex2var_pd(t0, lo, t2), _mm512_permutex2var_pd(t1, lo, t3),
                  _mm512_permutex2var_pd(t0, hi, t2)};
}

/* the inverse of transpose, the spare doubles 0 */
TARGET static inline pairs untranspose(vec8 a)
{
    const __m512i lo = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
    const __m512i hi = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    const __m512d zero = _mm512_setzero_pd();
    __m512d t0 = _mm512_permutex2var_pd(a.x, lo, a.z);
    __m512d t2 = _mm512_permutex2var_pd(a.x, hi, a.z);
    __m512d t1 = _mm512_permutex2var_pd(a.y, lo, zero);
    __m512d t3 = _mm512_permutex2var_pd(a.y, hi, zero);
    return (pairs){_mm512_unpacklo_pd(t0, t1), _mm512_unpackhi_pd(t0, t1),
                   _mm512_unpacklo_pd(t2, t3), _mm512_unpackhi_pd(t2, t3)};
}

/* lane j of s in all four doubles of vertex j */
TARGET static inline pairs spread(__m512d s)
{
    return (pairs){_mm512_permutexvar_pd(_mm512_setr_epi64(0, 0, 0, 0, 4, 4, 4, 4), s),
                   _mm512_permutexvar_pd(_mm512_setr_epi64(1, 1, 1, 1, 5, 5, 5, 5), s),
                   _mm512_permutexvar_pd(_mm512_setr_epi64(2, 2, 2, 2, 6, 6, 6, 6), s),
                   _mm512_permutexvar_pd(_mm512_setr_epi64(3, 3, 3, 3, 7, 7, 7, 7), s)};
}

/* w_j s_j (w loaded from w[0..7]) in all four doubles of vertex j: an end's factor */
TARGET static inline pairs spread_times(const double *w, __m512d s)
{
    return spread(_mm512_mul_pd(_mm512_loadu_pd(w), s));
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
        pairs a = load_pairs(p, c->ia + lo), b = load_pairs(p, c->ib + lo), d = sub_pairs(a, b);
        __m512d ls, l = length8(transpose(d), &ls);
        __m512d lambda = _mm512_loadu_pd(c->lambda + lo);
        /* dl = (-k' (l - l0) - alpha~ lambda) inv_den, 0 where l = 0; -k' exactly (-0
         * for 0), as the scalar negation */
        __m512d neg_gain = _mm512_mul_pd(_mm512_set1_pd(-1), _mm512_loadu_pd(c->gain + lo));
        __m512d stretch = _mm512_sub_pd(l, _mm512_loadu_pd(c->rest + lo));
        __m512d dl = _mm512_mul_pd(
            _mm512_sub_pd(_mm512_mul_pd(neg_gain, stretch),
                          _mm512_mul_pd(_mm512_loadu_pd(c->alpha + lo), lambda)),
            _mm512_loadu_pd(c->inv_den + lo));
        dl = _mm512_maskz_mov_pd(_mm512_cmp_pd_mask(l, _mm512_setzero_pd(), _CMP_GT_OQ), dl);
        __m512d s = _mm512_div_pd(dl, ls);
        _mm512_storeu_pd(c->lambda + lo, _mm512_add_pd(lambda, dl));
        store_pairs(p, c->ia + lo, add_scaled_pairs(a, spread_times(c->wa + lo, s), d));
        store_pairs(p, c->ib + lo, sub_scaled_pairs(b, spread_times(c->wb + lo, s), d));
    }
    return lo;
}

/* relax_loop on whole blocks of 8 from lo (d = x_b - x_a); returns where they end */
TARGET static int relax_avx512(cloth__coloured *c, double *x, double half_k, int lo, int hi)
{
    const __m512d hk = _mm512_set1_pd(half_k);
    for (; lo + 8 <= hi; lo += 8) {
        pairs a = load_pairs(x, c->ia + lo), b = load_pairs(x, c->ib + lo), d = sub_pairs(b, a);
        __m512d ls, l = length8(transpose(d), &ls);
        /* s = (l - l0) / ls half_k */
        __m512d s = _mm512_mul_pd(
            _mm512_div_pd(_mm512_sub_pd(l, _mm512_loadu_pd(c->rest + lo)), ls), hk);
        store_pairs(x, c->ia + lo, add_scaled_pairs(a, spread_times(c->wa + lo, s), d));
        store_pairs(x, c->ib + lo, sub_scaled_pairs(b, spread_times(c->wb + lo, s), d));
    }
    return lo;
}

/* the pairs' doubles of the lanes set in m (vertex j: the four doubles of pair j mod 4,
 * low half for j < 4) */
static inline __mmask8 pair_mask(__mmask8 m, int k)
{
    return (__mmask8)(((m >> k) & 1 ? 0x0f : 0) | ((m >> (k + 4)) & 1 ? 0xf0 : 0));
}

/* b's vertices where m is set, a's elsewhere */
TARGET static inline pairs blend_pairs(__mmask8 m, pairs a, pairs b)
{
    return (pairs){_mm512_mask_blend_pd(pair_mask(m, 0), a.v0, b.v0),
                   _mm512_mask_blend_pd(pair_mask(m, 1), a.v1, b.v1),
                   _mm512_mask_blend_pd(pair_mask(m, 2), a.v2, b.v2),
                   _mm512_mask_blend_pd(pair_mask(m, 3), a.v3, b.v3)};
}

/* provot_loop on whole blocks of 8 from lo (d = x_b - x_a): returns where they end and
 * adds the springs it shortened to *count */
TARGET static int provot_avx512(cloth__coloured *c, double *x, double factor, double tol,
                                int lo, int hi, int *count)
{
    const __m512d f = _mm512_set1_pd(factor), over_by = _mm512_set1_pd(1 + tol);
    for (; lo + 8 <= hi; lo += 8) {
        pairs a = load_pairs(x, c->ia + lo), b = load_pairs(x, c->ib + lo), d = sub_pairs(b, a);
        __m512d ls, l = length8(transpose(d), &ls);
        __m512d limit = _mm512_mul_pd(f, _mm512_loadu_pd(c->rest + lo));
        __mmask8 over = _mm512_cmp_pd_mask(l, _mm512_mul_pd(limit, over_by), _CMP_GT_OQ);
        if (!over)
            continue; /* nothing to shorten: the vertices stay as they are */
        /* where over: x_a += w_a s d, x_b -= w_b s d, s = (l - limit) / ls; elsewhere the
         * vertices keep their bits (as the scalar loop, which does not touch them) */
        __m512d s = _mm512_div_pd(_mm512_sub_pd(l, limit), ls);
        pairs na = add_scaled_pairs(a, spread_times(c->wa + lo, s), d);
        pairs nb = sub_scaled_pairs(b, spread_times(c->wb + lo, s), d);
        a = blend_pairs(over, a, na);
        b = blend_pairs(over, b, nb);
        store_pairs(x, c->ia + lo, a);
        store_pairs(x, c->ib + lo, b);
        *count += __builtin_popcount(over);
    }
    return lo;
}

/* springs_loop on whole blocks of 8 from lo, padded x, v and f (d = x_b - x_a; v NULL
 * when there is no damping term): returns where they end */
TARGET static int springs_avx512(const cloth__coloured *c, const double *x, const double *v,
                                 double cd, double *f, int lo, int hi)
{
    const __m512d damping = _mm512_set1_pd(cd), one = _mm512_set1_pd(1);
    for (; lo + 8 <= hi; lo += 8) {
        const int *ia = c->ia + lo, *ib = c->ib + lo;
        pairs d = sub_pairs(load_pairs(x, ib), load_pairs(x, ia));
        vec8 dt = transpose(d);
        __m512d ls, l = length8(dt, &ls), r = _mm512_div_pd(one, ls);
        /* t = k (l - l0) [+ c_d (v_b - v_a).u], u = d r */
        __m512d t = _mm512_mul_pd(_mm512_loadu_pd(c->k + lo),
                                  _mm512_sub_pd(l, _mm512_loadu_pd(c->rest + lo)));
        if (v) {
            vec8 u = {_mm512_mul_pd(dt.x, r), _mm512_mul_pd(dt.y, r), _mm512_mul_pd(dt.z, r)};
            vec8 dv = transpose(sub_pairs(load_pairs(v, ib), load_pairs(v, ia)));
            t = _mm512_add_pd(t, _mm512_mul_pd(damping, dot8(dv, u)));
        }
        /* t u per component, u = d r: the same products as the lanes' u above */
        pairs tu = mul_pairs(spread(t), mul_pairs(d, spread(r)));
        store_pairs(f, ia, add_pairs(load_pairs(f, ia), tu));
        store_pairs(f, ib, sub_pairs(load_pairs(f, ib), tu));
    }
    return lo;
}

/* drag_range on whole blocks of 8 from lo, padded x, v and f: returns where they end */
TARGET static int drag_avx512(const cloth__coloured_tris *c, int turbulent,
                              const double wind[3], double coeff, const double *x,
                              const double *v, double *f, int lo, int hi)
{
    const __m512d one = _mm512_set1_pd(1), third = _mm512_set1_pd(1.0 / 3);
    const __m512d sixth = _mm512_set1_pd(coeff / 6);
    for (; lo + 8 <= hi; lo += 8) {
        const int *corner[3] = {c->i0 + lo, c->i1 + lo, c->i2 + lo};
        pairs a = load_pairs(x, corner[0]);
        vec8 u = transpose(sub_pairs(load_pairs(x, corner[1]), a));
        vec8 q = transpose(sub_pairs(load_pairs(x, corner[2]), a));
        vec8 n = {_mm512_sub_pd(_mm512_mul_pd(u.y, q.z), _mm512_mul_pd(u.z, q.y)),
                  _mm512_sub_pd(_mm512_mul_pd(u.z, q.x), _mm512_mul_pd(u.x, q.z)),
                  _mm512_sub_pd(_mm512_mul_pd(u.x, q.y), _mm512_mul_pd(u.y, q.x))};
        /* N.N, and 1 where it is 0 */
        __m512d nn = dot8(n, n);
        nn = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(nn, _mm512_setzero_pd(), _CMP_GT_OQ), one,
                                  nn);
        /* v_rel = wind gust - (v_a + v_b + v_d) / 3 */
        __m512d gust = turbulent ? _mm512_loadu_pd(c->gust + lo) : one;
        pairs vs = load_pairs(v, corner[0]), vb = load_pairs(v, corner[1]),
              vd = load_pairs(v, corner[2]);
        vec8 sum = transpose(add_pairs(add_pairs(vs, vb), vd));
        vec8 rel = {_mm512_sub_pd(_mm512_mul_pd(_mm512_set1_pd(wind[0]), gust),
                                  _mm512_mul_pd(sum.x, third)),
                    _mm512_sub_pd(_mm512_mul_pd(_mm512_set1_pd(wind[1]), gust),
                                  _mm512_mul_pd(sum.y, third)),
                    _mm512_sub_pd(_mm512_mul_pd(_mm512_set1_pd(wind[2]), gust),
                                  _mm512_mul_pd(sum.z, third))};
        /* mag = coeff/6 (N.v_rel) sqrt(v_rel.v_rel / N.N), left to right as the scalar loop */
        __m512d mag = _mm512_mul_pd(_mm512_mul_pd(sixth, dot8(n, rel)),
                                    _mm512_sqrt_pd(_mm512_div_pd(dot8(rel, rel), nn)));
        /* f += mag n at each corner */
        pairs push = untranspose(
            (vec8){_mm512_mul_pd(mag, n.x), _mm512_mul_pd(mag, n.y), _mm512_mul_pd(mag, n.z)});
        for (int k = 0; k < 3; k++)
            store_pairs(f, corner[k], add_pairs(load_pairs(f, corner[k]), push));
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
static inline int springs_avx512(const cloth__coloured *c, const double *x, const double *v,
                                 double cd, double *f, int lo, int hi)
{
    (void)c, (void)x, (void)v, (void)cd, (void)f, (void)hi;
    return lo;
}
static inline int drag_avx512(const cloth__coloured_tris *c, int turbulent,
                              const double wind[3], double coeff, const double *x,
                              const double *v, double *f, int lo, int hi)
{
    (void)c, (void)turbulent, (void)wind, (void)coeff, (void)x, (void)v, (void)f, (void)hi;
    return lo;
}
#endif

#endif
