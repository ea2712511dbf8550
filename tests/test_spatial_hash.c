/* The spatial hash finds exactly the pairs an all-pairs loop finds. */
#include "terms/spatial_hash.h"
#include "suites.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double next_random(unsigned long *state)
{
    *state = *state * 6364136223846793005UL + 1442695040888963407UL;
    return (double)(*state >> 11) / (double)(1UL << 53);
}

static int compare_pairs(const void *a, const void *b)
{
    const int *p = a, *q = b;
    return p[0] != q[0] ? (p[0] > q[0]) - (p[0] < q[0]) : (p[1] > q[1]) - (p[1] < q[1]);
}

/* Skips neighbours in index order, as a filter for adjacent vertices would. */
static int not_consecutive(int i, int j, void *ctx)
{
    (void)ctx;
    return j - i != 1;
}

/* All pairs i < j closer than r that keep accepts, in sorted order. */
static int brute_force(const double *x, int n, double r, cloth__pair_filter keep, int *out)
{
    int count = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double d2 = 0;
            for (int c = 0; c < 3; c++)
                d2 += (x[3 * i + c] - x[3 * j + c]) * (x[3 * i + c] - x[3 * j + c]);
            if (d2 < r * r && (!keep || keep(i, j, NULL))) {
                out[2 * count] = i;
                out[2 * count + 1] = j;
                count++;
            }
        }
    return count;
}

enum { N = 600 };

/* Random points in a box (some of them in a thin slab, some shifted to negative
 * coordinates), several radii, with and without a filter: the sorted lists are equal. */
START_TEST(matches_brute_force)
{
    static const double radii[] = {0.01, 0.05, 0.13, 0.4};
    double *x = malloc(3 * N * sizeof *x);
    unsigned long seed = 1234 + (unsigned long)_i;
    for (int v = 0; v < N; v++) {
        x[3 * v] = 2 * next_random(&seed) - 1.3;
        x[3 * v + 1] = v % 3 == 0 ? 0.001 * next_random(&seed) : next_random(&seed);
        x[3 * v + 2] = 0.7 * next_random(&seed);
    }
    int max_pairs = N * (N - 1) / 2;
    int *want = malloc(2 * (size_t)max_pairs * sizeof *want);
    int *got = malloc(2 * (size_t)max_pairs * sizeof *got);
    cloth__spatial_hash *hash;
    cloth_error err;
    ck_assert_int_eq(cloth__spatial_hash_create(N, max_pairs, &hash, &err), CLOTH_OK);
    for (int r = 0; r < 4; r++)
        for (int filtered = 0; filtered < 2; filtered++) {
            cloth__pair_filter keep = filtered ? not_consecutive : NULL;
            int n_want = brute_force(x, N, radii[r], keep, want);
            const int *pairs;
            int overflow;
            int n_got = cloth__spatial_hash_query(hash, x, radii[r], keep, NULL, &pairs,
                                                  &overflow);
            ck_assert(!overflow);
            ck_assert_int_eq(n_got, n_want);
            memcpy(got, pairs, 2 * (size_t)n_got * sizeof *got);
            for (int p = 0; p < n_got; p++)
                ck_assert_int_lt(got[2 * p], got[2 * p + 1]);
            qsort(got, (size_t)n_got, 2 * sizeof *got, compare_pairs);
            ck_assert(memcmp(got, want, 2 * (size_t)n_got * sizeof *got) == 0);
        }
    cloth__spatial_hash_destroy(hash);
    free(x);
    free(want);
    free(got);
}
END_TEST

/* A grid of 20 x 20 points at spacing 0.1 with a radius just above the spacing finds
 * exactly the 2 * 19 * 20 grid neighbours; with room for 100 it reports overflow. */
START_TEST(grid_neighbours_and_overflow)
{
    double x[3 * 400];
    for (int j = 0; j < 20; j++)
        for (int i = 0; i < 20; i++) {
            double *p = x + 3 * (20 * j + i);
            p[0] = 0.1 * i;
            p[1] = 0.25;
            p[2] = 0.1 * j;
        }
    cloth__spatial_hash *hash;
    cloth_error err;
    const int *pairs;
    int overflow;
    ck_assert_int_eq(cloth__spatial_hash_create(400, 1000, &hash, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__spatial_hash_query(hash, x, 0.1001, NULL, NULL, &pairs, &overflow),
                     760);
    ck_assert(!overflow);
    cloth__spatial_hash_destroy(hash);
    ck_assert_int_eq(cloth__spatial_hash_create(400, 100, &hash, &err), CLOTH_OK);
    ck_assert_int_eq(cloth__spatial_hash_query(hash, x, 0.1001, NULL, NULL, &pairs, &overflow),
                     100);
    ck_assert(overflow);
    cloth__spatial_hash_destroy(hash);
    ck_assert_int_eq(cloth__spatial_hash_create(0, 10, &hash, &err), CLOTH_EINVAL);
}
END_TEST

Suite *suite_spatial_hash(void)
{
    Suite *s = suite_create("spatial_hash");
    TCase *tc = tcase_create("pairs");
    tcase_add_loop_test(tc, matches_brute_force, 0, 3);
    tcase_add_test(tc, grid_neighbours_and_overflow);
    suite_add_tcase(s, tc);
    return s;
}
