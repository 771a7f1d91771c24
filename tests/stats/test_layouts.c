/* SPDX-License-Identifier: BSD-3-Clause */
/* test_layouts.c: unit tests for lib/stats/layouts.h (fast; the coverage simulation is
 * test_layouts_coverage.c). Student's t quantile against table values; Hesterberg's expanded
 * level by hand; the count of layouts; exactly estimate.h's results with no layouts or one;
 * two-stage bootstraps worked by hand (two and three layouts, constant within each: the
 * interval spans what the layouts allow, where the one-stage one does not), for the paired
 * estimate, the median's interval and the noise bound; rounds of a layout need not be adjacent
 * and any numbers name them; determinism, and a wider interval on clustered data; the same for
 * the unpaired estimate of two reports' samples (exactly estimate.h's with one layout a side,
 * by hand with two, deterministic and wider on clustered data); the spread between layouts by
 * hand. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "stats/estimate.h"
#include "stats/layouts.h"
#include "stats/schedule.h"

#include "helper.h"

#define SEED SB_BOOTSTRAP_SEED

/* Table values of t_{0.975} (to the table's 3 decimals), within 2e-3 relative; dof 1 and 2
 * exactly (closed forms); odd in p - 0.5; the edges. */
static void test_t_quantile(void **state)
{
    static const struct {
        unsigned dof;
        double t;
    } table[] = {{1, 12.706}, {2, 4.303}, {3, 3.182}, {5, 2.571}, {10, 2.228}, {30, 2.042},
                 {1000000, 1.960}};
    (void)state;

    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        double t = sb_t_quantile(0.975, table[i].dof);
        assert_near(t / table[i].t, 1.0, 2e-3);
        assert_near(sb_t_quantile(0.025, table[i].dof) / t, -1.0, 1e-12); /* 1 - 0.975 != 0.025 */
    }
    assert_near(sb_t_quantile(0.975, 1), tan(0.475 * M_PI), 1e-12);
    assert_near(sb_t_quantile(0.75, 1), 1.0, 1e-12);          /* Cauchy: the quartile is 1 */
    assert_near(sb_t_quantile(0.95, 2), 0.9 / sqrt(0.095), 1e-12);
    assert_near(sb_t_quantile(0.975, 4000000000u), 1.959963984540054, 1e-8); /* the normal's */
    assert_near(sb_t_quantile(0.95, 4000000000u), 1.6448536269514722, 1e-8);
    assert_near(sb_t_quantile(1e-10, 4000000000u), -6.361340902404056, 1e-7); /* z^3 / 4e9 */
    assert_true(sb_t_quantile(0.5, 7) == 0.0);
    assert_true(sb_t_quantile(0.0, 3) == -INFINITY && sb_t_quantile(1.0, 3) == INFINITY);
    assert_true(isnan(sb_t_quantile(0.975, 0)) && isnan(sb_t_quantile(NAN, 5)));
    assert_true(isnan(sb_t_quantile(1.5, 5)));
    for (unsigned dof = 1; dof < 60; dof++) /* decreasing towards the normal's */
        assert_true(sb_t_quantile(0.975, dof + 1) < sb_t_quantile(0.975, dof));
}

/* z' = sqrt(g / (g - 1)) t_{g-1}(0.975) with exact t: g = 20, t_19 = 2.0930240544, z' =
 * 2.1473970, 1 - erfc(z' / sqrt 2) = 0.96823834; g = 8, t_7 = 2.3646242516: 0.98852496; g = 2:
 * z' = 17.97, 1 to double precision. Under 2 layouts the level itself. */
static void test_expanded_level(void **state)
{
    (void)state;

    assert_true(sb_layouts_expanded_level(0.95, 0) == 0.95);
    assert_true(sb_layouts_expanded_level(0.95, 1) == 0.95);
    assert_near(sb_layouts_expanded_level(0.95, 20), 0.96823834, 1e-6);
    assert_near(sb_layouts_expanded_level(0.95, 8), 0.98852496, 1e-5);
    assert_near(sb_layouts_expanded_level(0.95, 2), 1.0, 1e-15);
    assert_near(sb_layouts_expanded_level(0.95, 1000000), 0.95, 1e-5);
    for (size_t g = 2; g < 100; g++) { /* wider than the level, narrowing as layouts add up */
        assert_true(sb_layouts_expanded_level(0.95, g) > 0.95);
        assert_true(sb_layouts_expanded_level(0.95, g + 1) <= sb_layouts_expanded_level(0.95, g));
        double at90 = sb_layouts_expanded_level(0.90, g + 1); /* (at 2 layouts both are 1) */
        assert_true(at90 < sb_layouts_expanded_level(0.95, g + 1));
    }
}

static void test_count(void **state)
{
    const uint32_t group[] = {7, 3, 7, 0xffffffffu, 3, 0, 9};
    const unsigned char keep[] = {1, 1, 1, 0, 1, 0, 0}, none[7] = {0};
    (void)state;

    assert_int_equal(sb_layouts_count(group, NULL, 7), 5);
    assert_int_equal(sb_layouts_count(group, keep, 7), 2);
    assert_int_equal(sb_layouts_count(group, none, 7), 0);
    assert_int_equal(sb_layouts_count(group, NULL, 1), 1);
    assert_int_equal(sb_layouts_count(group, NULL, 0), 0);
}

static void assert_same_paired(const struct sb_paired *x, const struct sb_paired *y)
{
    assert_int_equal(x->n, y->n);
    assert_true(x->ratio == y->ratio || (isnan(x->ratio) && isnan(y->ratio)));
    assert_true(x->lo == y->lo || (isnan(x->lo) && isnan(y->lo)));
    assert_true(x->hi == y->hi || (isnan(x->hi) && isnan(y->hi)));
    assert_true(x->level == y->level);
    assert_int_equal(x->wilcoxon.n, y->wilcoxon.n);
    assert_true(x->wilcoxon.w_plus == y->wilcoxon.w_plus && x->wilcoxon.p == y->wilcoxon.p);
    assert_true(x->wilcoxon.exact == y->wilcoxon.exact);
}

/* 15 rounds, some missing; the layouts: none, one, or one among the usable rounds (the others'
 * layout names only missing rounds): each function gives estimate.h's result bit for bit. */
static void test_one_layout_is_one_stage(void **state)
{
    double a[15], b[15], lo1, hi1, lo2, hi2;
    uint32_t same[15], usable_one[15], present_one[15];
    const uint32_t *groups[] = {NULL, same, usable_one}, *x_groups[] = {NULL, same, present_one};
    struct sb_paired e1, e2;
    struct sb_rng rng;
    (void)state;

    sb_rng_seed(&rng, 11);
    for (int r = 0; r < 15; r++) {
        b[r] = 1000.0 * exp(0.05 * sb_rng_normal(&rng));
        a[r] = 1.03 * b[r] * exp(0.02 * sb_rng_normal(&rng));
        same[r] = 42;
    }
    a[3] = NAN;
    b[8] = 0.0;
    for (int r = 0; r < 15; r++) {
        usable_one[r] = r == 3 || r == 8 ? 5 : 6; /* 5: the rounds without both */
        present_one[r] = r == 3 ? 5 : 6;           /* 5: the NaN of a */
    }
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(sb_paired_estimate(a, b, 15, 0.95, 700, SEED, &e1), 0);
        assert_int_equal(sb_paired_estimate_layouts(a, b, groups[i], 15, 0.95, 700, SEED, &e2), 0);
        assert_same_paired(&e1, &e2);
        assert_true(sb_noise_bound(a, b, 15, 700, SEED) ==
                    sb_noise_bound_layouts(a, b, groups[i], 15, 700, SEED));
        sb_median_interval(a, 15, 0.9, 700, SEED, &lo1, &hi1);
        sb_median_interval_layouts(a, x_groups[i], 15, 0.9, 700, SEED, &lo2, &hi2);
        assert_true(lo1 == lo2 && hi1 == hi2);
    }
    /* under 2 usable rounds: estimate.h's failure, whatever the layouts */
    assert_int_equal(sb_paired_estimate_layouts(a + 3, b + 3, usable_one + 3, 1, 0.95, 100, SEED,
                                                &e2), -1);
    assert_true(e2.n == 0 && isnan(e2.ratio) && isnan(e2.lo) && isnan(e2.hi));
    assert_true(isnan(sb_noise_bound_layouts(a + 3, b + 3, usable_one + 3, 1, 100, SEED)));
    sb_median_interval_layouts(a + 3, usable_one + 3, 2, 0.95, 100, SEED, &lo2, &hi2);
    assert_true(isnan(lo2) && isnan(hi2));
}

/* Two layouts of two rounds, d = 0, 0 (layout 5) and ln 4, ln 4 (layout 9): a resample draws
 * layout 5 twice (1/4: median 0), layout 9 twice (1/4: ln 4) or one of each (1/2: ln 2). Two
 * layouts read the extremes (expanded level 1): [1, 4]; the ratio exp(median d) is 2, n 4. */
static void test_two_layouts_by_hand(void **state)
{
    const double a[] = {10, 10, 40, 40}, b[] = {10, 10, 10, 10};
    const uint32_t group[] = {5, 5, 9, 9}, interleaved_group[] = {5, 9, 5, 9};
    const double ia[] = {10, 40, 10, 40};
    struct sb_paired e, one, ie;
    (void)state;

    assert_int_equal(sb_paired_estimate_layouts(a, b, group, 4, 0.95, 2000, SEED, &e), 0);
    assert_int_equal(e.n, 4);
    assert_near(e.ratio, 2.0, 1e-12);
    assert_near(e.lo, 1.0, 1e-12);
    assert_near(e.hi, 4.0, 1e-12);
    assert_true(e.level == 0.95);
    assert_int_equal(sb_paired_estimate(a, b, 4, 0.95, 2000, SEED, &one), 0);
    assert_true(e.wilcoxon.n == one.wilcoxon.n && e.wilcoxon.p == one.wilcoxon.p);
    /* the same rounds interleaved: the same layouts, in the same order, the same result */
    assert_int_equal(sb_paired_estimate_layouts(ia, b, interleaved_group, 4, 0.95, 2000, SEED,
                                                &ie), 0);
    assert_same_paired(&e, &ie);
}

/* Three layouts of one round each, d = 0, ln 2, ln 4: a resample's median is 0 with chance
 * 7/27 (two or three draws of the first), ln 4 with 7/27, else ln 2. At 40% the expanded level
 * for 3 layouts is 0.5503, read at 0.225 and 0.775, inside the outer 7/27 = 0.259: [1, 4];
 * the one-stage bootstrap reads 0.3 and 0.7: [2, 2]. At 95%: [1, 4]. */
static void test_three_layouts_expanded(void **state)
{
    const double a[] = {10, 20, 40}, b[] = {10, 10, 10};
    const uint32_t group[] = {1, 2, 3};
    struct sb_paired e, one;
    (void)state;

    assert_int_equal(sb_paired_estimate_layouts(a, b, group, 3, 0.40, 2000, SEED, &e), 0);
    assert_int_equal(sb_paired_estimate(a, b, 3, 0.40, 2000, SEED, &one), 0);
    assert_near(e.ratio, 2.0, 1e-12);
    assert_near(e.lo, 1.0, 1e-12);
    assert_near(e.hi, 4.0, 1e-12);
    assert_near(one.lo, 2.0, 1e-12);
    assert_near(one.hi, 2.0, 1e-12);
    assert_int_equal(sb_paired_estimate_layouts(a, b, group, 3, 0.95, 2000, SEED, &e), 0);
    assert_near(e.lo, 1.0, 1e-12);
    assert_near(e.hi, 4.0, 1e-12);
}

/* The median's interval: layouts 1, 2, 3 constant at 1, 3, 5 (two rounds each; the NaN is
 * skipped): a resample's pool is two copies of each layout drawn, its median the median of the
 * three drawn, so at 40% it reads [1, 5] as above. */
static void test_median_interval_by_hand(void **state)
{
    const double x[] = {1, 1, NAN, 3, 3, 5, 5};
    const uint32_t group[] = {1, 1, 2, 2, 2, 3, 3};
    double lo, hi, lo1, hi1;
    (void)state;

    sb_median_interval_layouts(x, group, 7, 0.40, 2000, SEED, &lo, &hi);
    assert_near(lo, 1.0, 1e-12);
    assert_near(hi, 5.0, 1e-12);
    sb_median_interval(x, 7, 0.40, 2000, SEED, &lo1, &hi1);
    assert_true(lo1 > 1.0 && hi1 < 5.0);
    /* the NaN alone in a layout of its own: still three layouts */
    sb_median_interval_layouts(x, (const uint32_t[]){1, 1, 4, 2, 2, 3, 3}, 7, 0.40, 2000, SEED,
                               &lo, &hi);
    assert_near(lo, 1.0, 1e-12);
    assert_near(hi, 5.0, 1e-12);
}

/* The noise bound: d = ln 1.1 in layout 1's two rounds, 0 in layouts 2 and 3; |median d| of a
 * resample is ln 1.1 when layout 1 is drawn two or three times (7/27), else 0; the 95th
 * percentile widened for 3 layouts (read at 0.99983) is ln 1.1: a bound of 0.1. Identical
 * series: 0. */
static void test_noise_bound_by_hand(void **state)
{
    const double x1[] = {11, 11, 10, 10, 10, 10}, x2[] = {10, 10, 10, 10, 10, 10};
    const uint32_t group[] = {1, 1, 2, 2, 3, 3};
    (void)state;

    assert_near(sb_noise_bound_layouts(x1, x2, group, 6, 2000, SEED), 0.1, 1e-12);
    assert_true(sb_noise_bound_layouts(x2, x2, group, 6, 2000, SEED) == 0.0);
    assert_true(sb_noise_bound(x1, x2, 6, 2000, SEED) < 0.1); /* one-stage: ln 1.1 / 2 */
}

/* 10 layouts of 6 rounds, layouts 3% apart in logs, rounds 1%: a deterministic interval around
 * the ratio, wider than the one-stage interval; the same interleaved gives the same bits. */
static void test_clustered(void **state)
{
    double a[60], b[60], ia[60], ib[60];
    uint32_t group[60], igroup[60];
    struct sb_paired e1, e2, e3, one, ie;
    struct sb_rng rng;
    (void)state;

    sb_rng_seed(&rng, 5);
    for (int l = 0; l < 10; l++) {
        double ua = 0.03 * sb_rng_normal(&rng), ub = 0.03 * sb_rng_normal(&rng);
        for (int k = 0; k < 6; k++) {
            int r = l * 6 + k, ir = k * 10 + l; /* blocked, and round-robin over layouts */
            a[r] = ia[ir] = 1050.0 * exp(ua + 0.01 * sb_rng_normal(&rng));
            b[r] = ib[ir] = 1000.0 * exp(ub + 0.01 * sb_rng_normal(&rng));
            group[r] = igroup[ir] = 100u + (uint32_t)l * 7u;
        }
    }
    assert_int_equal(sb_paired_estimate_layouts(a, b, group, 60, 0.95, 0, SEED, &e1), 0);
    assert_int_equal(sb_paired_estimate_layouts(a, b, group, 60, 0.95, 0, SEED, &e2), 0);
    assert_int_equal(sb_paired_estimate_layouts(a, b, group, 60, 0.95, 0, SEED + 1, &e3), 0);
    assert_int_equal(sb_paired_estimate(a, b, 60, 0.95, 0, SEED, &one), 0);
    assert_same_paired(&e1, &e2);
    assert_true(e3.ratio == e1.ratio && e3.n == 60);
    assert_near(log(e3.lo), log(e1.lo), 0.01);
    assert_near(log(e3.hi), log(e1.hi), 0.01);
    assert_true(e1.lo < e1.ratio && e1.ratio < e1.hi);
    assert_true(e1.ratio == one.ratio && e1.wilcoxon.p == one.wilcoxon.p);
    assert_true(log(e1.hi / e1.lo) > 1.5 * log(one.hi / one.lo));
    assert_int_equal(sb_paired_estimate_layouts(ia, ib, igroup, 60, 0.95, 0, SEED, &ie), 0);
    assert_same_paired(&e1, &ie);
    assert_true(sb_noise_bound_layouts(a, b, group, 60, 0, SEED) >
                sb_noise_bound(a, b, 60, 0, SEED));
}

/* The unpaired estimate: a of 12 values, b of 9, some unusable; the layouts NULL on either
 * side, one on each, or one among each side's usable values (the others name only NaN, 0 or
 * negative values): exactly sb_unpaired_estimate's result, bit for bit, return included; and its
 * failures (under 2 usable values a side) whatever the layouts. */
static void test_unpaired_one_layout_is_one_stage(void **state)
{
    double a[12], b[9], r1, lo1, hi1, r2, lo2, hi2;
    uint32_t ga_one[12], gb_one[9], ga_usable[12], gb_usable[9];
    const uint32_t *gas[] = {NULL, ga_one, NULL, ga_usable, ga_one};
    const uint32_t *gbs[] = {NULL, NULL, gb_one, gb_usable, gb_usable};
    struct sb_rng rng;
    (void)state;

    sb_rng_seed(&rng, 23);
    for (int i = 0; i < 12; i++) {
        a[i] = 1000.0 * exp(0.05 * sb_rng_normal(&rng));
        ga_one[i] = 3;
        ga_usable[i] = i == 2 || i == 7 ? 8 : 4;
    }
    for (int i = 0; i < 9; i++) {
        b[i] = 1100.0 * exp(0.05 * sb_rng_normal(&rng));
        gb_one[i] = 77;
        gb_usable[i] = i == 5 ? 1 : 0;
    }
    a[2] = NAN;
    a[7] = -5.0;
    b[5] = INFINITY;
    for (size_t i = 0; i < sizeof gas / sizeof *gas; i++) {
        assert_int_equal(sb_unpaired_estimate(a, 12, b, 9, 0.95, 700, SEED, &r1, &lo1, &hi1), 0);
        assert_int_equal(sb_unpaired_estimate_layouts(a, gas[i], 12, b, gbs[i], 9, 0.95, 700,
                                                      SEED, &r2, &lo2, &hi2), 0);
        assert_true(r1 == r2 && lo1 == lo2 && hi1 == hi2);
        assert_true(lo1 < r1 && r1 < hi1);
    }
    /* one usable value in a (a[1]; a[2] is NaN): -1 and NaN, as sb_unpaired_estimate */
    assert_int_equal(sb_unpaired_estimate_layouts(a + 1, (const uint32_t[]){1, 2}, 2, b,
                                                  (const uint32_t[]){1, 1, 2, 2, 3, 3, 4, 4, 5},
                                                  9, 0.95, 100, SEED, &r2, &lo2, &hi2), -1);
    assert_true(isnan(r2) && isnan(lo2) && isnan(hi2));
}

/* By hand: a of two layouts constant at 10 and 40 (two values each), b of one layout at 20.
 * median(a*) is 10 (both draws of the first layout, 1/4), 40 (1/4) or 25 (1/2): the ratio
 * median(b*) / median(a*) is 2, 0.5 or 0.8. Two layouts (the only side of 2 or more) read the
 * extremes at 95% (expanded level 1): [0.5, 2]; the ratio itself 20 / 25. At 30% the level for
 * 2 layouts is 0.5288, read at 0.236 and 0.764, inside the outer quarters: [0.5, 2] still; the
 * one-stage bootstrap draws a's values singly (median 10 or 40 with 5/16 each), reads 0.35 and
 * 0.65: [0.8, 0.8]. The same with the sides swapped: [0.5, 2] around 25 / 20. */
static void test_unpaired_by_hand(void **state)
{
    const double a[] = {10, 10, 40, 40}, b[] = {20, 20, 20};
    const uint32_t ga[] = {6, 6, 2, 2};
    double r, lo, hi, r1, lo1, hi1;
    (void)state;

    assert_int_equal(sb_unpaired_estimate_layouts(a, ga, 4, b, NULL, 3, 0.95, 2000, SEED, &r,
                                                  &lo, &hi), 0);
    assert_near(r, 0.8, 1e-12);
    assert_near(lo, 0.5, 1e-12);
    assert_near(hi, 2.0, 1e-12);
    assert_int_equal(sb_unpaired_estimate_layouts(a, ga, 4, b, NULL, 3, 0.30, 2000, SEED, &r,
                                                  &lo, &hi), 0);
    assert_near(lo, 0.5, 1e-12);
    assert_near(hi, 2.0, 1e-12);
    assert_int_equal(sb_unpaired_estimate(a, 4, b, 3, 0.30, 2000, SEED, &r1, &lo1, &hi1), 0);
    assert_true(r1 == r);
    assert_near(lo1, 0.8, 1e-12);
    assert_near(hi1, 0.8, 1e-12);
    assert_int_equal(sb_unpaired_estimate_layouts(b, NULL, 3, a, ga, 4, 0.95, 2000, SEED, &r,
                                                  &lo, &hi), 0);
    assert_near(r, 1.25, 1e-12);
    assert_near(lo, 0.5, 1e-12);
    assert_near(hi, 2.0, 1e-12);
}

/* Two reports of 10 layouts of 6 scans each, layouts 3% apart in logs, scans 1%, b 5% faster:
 * deterministic under a seed (the same bits twice; another seed nearly the same interval);
 * the ratio is the one-stage one; the interval holds it and is much wider than the one-stage
 * interval; a side's layouts in another order (round-robin) give the same bits. With b's
 * layouts only, the interval is expanded for b's 10; with a side of 3 layouts beside it,
 * for the 3 (wider again). */
static void test_unpaired_clustered(void **state)
{
    double a[60], b[60], ia[60], r, lo, hi, r2, lo2, hi2, r1, lo1, hi1;
    uint32_t ga[60], gb[60], iga[60], g3[60];
    struct sb_rng rng;
    (void)state;

    sb_rng_seed(&rng, 9);
    for (int l = 0; l < 10; l++) {
        double ua = 0.03 * sb_rng_normal(&rng), ub = 0.03 * sb_rng_normal(&rng);
        for (int k = 0; k < 6; k++) {
            int i = l * 6 + k, ii = k * 10 + l;
            a[i] = ia[ii] = 1000.0 * exp(ua + 0.01 * sb_rng_normal(&rng));
            b[i] = 1050.0 * exp(ub + 0.01 * sb_rng_normal(&rng));
            ga[i] = iga[ii] = 40u + (uint32_t)l;
            gb[i] = 900u - (uint32_t)l * 3u;
            g3[i] = (uint32_t)(l % 3);
        }
    }
    assert_int_equal(sb_unpaired_estimate_layouts(a, ga, 60, b, gb, 60, 0.95, 0, SEED, &r, &lo,
                                                  &hi), 0);
    assert_int_equal(sb_unpaired_estimate_layouts(a, ga, 60, b, gb, 60, 0.95, 0, SEED, &r2, &lo2,
                                                  &hi2), 0);
    assert_true(r == r2 && lo == lo2 && hi == hi2);
    assert_int_equal(sb_unpaired_estimate_layouts(ia, iga, 60, b, gb, 60, 0.95, 0, SEED, &r2,
                                                  &lo2, &hi2), 0);
    assert_true(r == r2 && lo == lo2 && hi == hi2);
    assert_int_equal(sb_unpaired_estimate_layouts(a, ga, 60, b, gb, 60, 0.95, 0, SEED + 1, &r2,
                                                  &lo2, &hi2), 0);
    assert_true(r == r2);
    assert_near(log(lo2), log(lo), 0.01);
    assert_near(log(hi2), log(hi), 0.01);
    assert_int_equal(sb_unpaired_estimate(a, 60, b, 60, 0.95, 0, SEED, &r1, &lo1, &hi1), 0);
    assert_true(r == r1 && lo < r && r < hi);
    assert_true(log(hi / lo) > 1.5 * log(hi1 / lo1));
    /* b's layouts only: between the one-stage interval and both sides' */
    assert_int_equal(sb_unpaired_estimate_layouts(a, NULL, 60, b, gb, 60, 0.95, 0, SEED, &r2,
                                                  &lo2, &hi2), 0);
    assert_true(r2 == r1 && log(hi2 / lo2) > log(hi1 / lo1) && log(hi2 / lo2) < log(hi / lo));
    /* a in 3 layouts: expanded for 3, not 10 (sb_layouts_expanded_level(0.95, 3) > 0.999) */
    assert_int_equal(sb_unpaired_estimate_layouts(a, g3, 60, b, gb, 60, 0.95, 0, SEED, &r2, &lo2,
                                                  &hi2), 0);
    assert_true(r2 == r1 && log(hi2 / lo2) > log(hi / lo));
}

/* Constant within layouts: the sd of the layouts' means (n - 1); the same level everywhere
 * with noise: 0; by hand, layouts {1, 3}, {5, 7}, {2, 4}: means 2, 6, 3, their variance 13/3,
 * less the mean of within variance / rounds (2 / 2 = 1 each): sqrt(10 / 3). */
static void test_spread(void **state)
{
    const double y[] = {1, 1, 4, 4, NAN, 2, 2, 7, 7, INFINITY};
    const uint32_t group[] = {8, 8, 3, 3, 6, 8, 8, 5, 5, 6};
    const double h[] = {1, 5, 2, 3, 7, 4};
    const uint32_t hg[] = {0, 1, 2, 0, 1, 2};
    const double flat[] = {0.1, -0.1, 0.1, -0.1, 0.1, -0.1};
    double med[4];
    size_t g;
    (void)state;

    /* constant within layouts (1, 4, 2, 7; NaN and inf skipped): their sd (n - 1), sqrt 7 */
    assert_near(sb_layouts_spread(y, (const uint32_t[]){8, 8, 3, 3, 6, 6, 6, 5, 5, 6}, 10, NULL,
                                  0, NULL), sqrt(7.0), 1e-12);
    /* layouts 8 (1, 1, 2, 2: mean 1.5, variance 1/3 over 4 rounds), 3 (4, 4), 6 (none finite),
     * 5 (7, 7): the variance of the means 1.5, 4, 7 is 91/12, less (1/12) / 3 */
    assert_near(sb_layouts_spread(y, group, 10, med, 4, &g), sqrt(91.0 / 12.0 - 1.0 / 36.0),
                1e-12);
    assert_int_equal(g, 4);
    assert_near(med[0], 1.5, 1e-12);
    assert_near(med[1], 4.0, 1e-12);
    assert_true(isnan(med[2]));
    assert_near(med[3], 7.0, 1e-12);
    med[1] = 99.0;
    sb_layouts_spread(y, group, 10, med, 1, NULL); /* max_medians 1: med[1] untouched */
    assert_true(med[1] == 99.0);
    assert_near(sb_layouts_spread(h, hg, 6, NULL, 0, &g), sqrt(10.0 / 3.0), 1e-12);
    assert_int_equal(g, 3);
    assert_true(sb_layouts_spread(flat, hg, 6, NULL, 0, NULL) == 0.0); /* clamped */
    /* fewer than 2 layouts of 2 finite values: NaN (the medians still come) */
    assert_true(isnan(sb_layouts_spread(y, group, 3, med, 4, &g)));
    assert_int_equal(g, 2);
    assert_near(med[0], 1.0, 1e-12);
    assert_true(isnan(sb_layouts_spread(h, hg, 3, NULL, 0, &g)));
    assert_true(isnan(sb_layouts_spread(h, NULL, 6, med, 4, &g))); /* no layouts: one */
    assert_int_equal(g, 1);
    assert_near(med[0], 3.5, 1e-12);
    assert_true(isnan(sb_layouts_spread(h, hg, 0, NULL, 0, &g)));
    assert_int_equal(g, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_t_quantile),
        cmocka_unit_test(test_expanded_level),
        cmocka_unit_test(test_count),
        cmocka_unit_test(test_one_layout_is_one_stage),
        cmocka_unit_test(test_two_layouts_by_hand),
        cmocka_unit_test(test_three_layouts_expanded),
        cmocka_unit_test(test_median_interval_by_hand),
        cmocka_unit_test(test_noise_bound_by_hand),
        cmocka_unit_test(test_clustered),
        cmocka_unit_test(test_unpaired_one_layout_is_one_stage),
        cmocka_unit_test(test_unpaired_by_hand),
        cmocka_unit_test(test_unpaired_clustered),
        cmocka_unit_test(test_spread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
