/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_estimate.c: unit tests for lib/stats/estimate.h (and the order statistics behind its
 * bootstraps). Hand-worked estimates: constant ratios give a degenerate interval at the ratio;
 * missing rounds (NaN, 0, negative, infinite) are skipped; under 2 rounds is -1 with NaN; two
 * rounds have a bootstrap distribution worked out by hand. The call at each of its boundaries,
 * Bonferroni, the threshold, the noise floor (0 for identical series, a two-round case by hand),
 * the median's interval, the drift of an exact exponential series, the precision check, and
 * quickselect against sb_median. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "stats/estimate.h"
#include "stats/order_stat.h"
#include "stats/schedule.h"
#include "stats/stats.h"

#include "helper.h"

#define SEED SB_BOOTSTRAP_SEED

static void test_constant_ratio(void **state)
{
    const double b[] = {900, 1000, 1100, 950, 1210, 870, 1005, 990, 1300, 1000};
    double a[10];
    struct sb_paired e;
    (void)state;

    for (int r = 0; r < 10; r++)
        a[r] = 1.1 * b[r];
    assert_int_equal(sb_paired_estimate(a, b, 10, 0.95, 500, SEED, &e), 0);
    assert_int_equal(e.n, 10);
    assert_near(e.ratio, 1.1, 1e-12);
    assert_near(e.lo, 1.1, 1e-12);
    assert_near(e.hi, 1.1, 1e-12);
    assert_true(e.level == 0.95);
    assert_int_equal(e.wilcoxon.n, 10); /* ten positive differences, tied */
    assert_true(e.wilcoxon.p < 0.01);
}

static void test_missing_rounds(void **state)
{
    const double a[] = {2, NAN, 3, 4, 0, 5, INFINITY, 7};
    const double b[] = {1, 1, 1, 1, 1, -1, 1, NAN};
    const double one_a[] = {2, NAN}, one_b[] = {1, 1};
    struct sb_paired e;
    (void)state;

    /* rounds 0, 2, 3 have both: d = ln 2, ln 3, ln 4, median ln 3 */
    assert_int_equal(sb_paired_estimate(a, b, 8, 0.95, 200, SEED, &e), 0);
    assert_int_equal(e.n, 3);
    assert_near(e.ratio, 3.0, 1e-12);
    assert_true(e.lo >= 2.0 - 1e-12 && e.hi <= 4.0 + 1e-12);
    /* one round: -1, zeroed, NaN ratio and interval */
    assert_int_equal(sb_paired_estimate(one_a, one_b, 2, 0.95, 200, SEED, &e), -1);
    assert_int_equal(e.n, 0);
    assert_true(isnan(e.ratio) && isnan(e.lo) && isnan(e.hi));
    assert_true(e.wilcoxon.n == 0 && e.wilcoxon.p == 1.0);
    assert_int_equal(sb_paired_estimate(one_a, one_b, 0, 0.95, 200, SEED, &e), -1);
    assert_true(isnan(e.ratio));
}

/* Two rounds, d = 0 and ln 4: a resample's median is 0 (both rounds the first, 1/4), ln 2
 * (one of each, 1/2) or ln 4 (1/4). The 95% interval is [1, 4]; the 40% one (quantiles 0.3 and
 * 0.7, both inside the middle half) is [2, 2]; the ratio is exp(ln 2) = 2. */
static void test_two_rounds_by_hand(void **state)
{
    const double a[] = {10, 40}, b[] = {10, 10};
    struct sb_paired e;
    (void)state;

    assert_int_equal(sb_paired_estimate(a, b, 2, 0.95, 2000, SEED, &e), 0);
    assert_near(e.ratio, 2.0, 1e-12);
    assert_near(e.lo, 1.0, 1e-12);
    assert_near(e.hi, 4.0, 1e-12);
    assert_int_equal(sb_paired_estimate(a, b, 2, 0.40, 2000, SEED, &e), 0);
    assert_near(e.lo, 2.0, 1e-12);
    assert_near(e.hi, 2.0, 1e-12);
}

static void test_deterministic(void **state)
{
    double a[12], b[12];
    struct sb_paired e1, e2, e3;
    struct sb_rng rng;
    (void)state;

    sb_rng_seed(&rng, 3);
    for (int r = 0; r < 12; r++) {
        b[r] = 1000.0 * exp(0.05 * sb_rng_normal(&rng));
        a[r] = 1.05 * b[r] * exp(0.02 * sb_rng_normal(&rng));
    }
    sb_paired_estimate(a, b, 12, 0.95, 0, SEED, &e1); /* 0: SB_BOOTSTRAP_RESAMPLES */
    sb_paired_estimate(a, b, 12, 0.95, SB_BOOTSTRAP_RESAMPLES, SEED, &e2);
    sb_paired_estimate(a, b, 12, 0.95, SB_BOOTSTRAP_RESAMPLES, SEED + 1, &e3);
    assert_true(e1.n == e2.n && e1.ratio == e2.ratio && e1.lo == e2.lo && e1.hi == e2.hi);
    assert_true(e1.wilcoxon.p == e2.wilcoxon.p && e1.wilcoxon.w_plus == e2.wilcoxon.w_plus);
    /* another seed draws other resamples; the medians of 12 rounds take few values, so its
     * interval is the same or close */
    assert_near(log(e3.lo), log(e1.lo), 0.01);
    assert_near(log(e3.hi), log(e1.hi), 0.01);
    assert_true(e1.lo < e1.ratio && e1.ratio < e1.hi);
    assert_true(e1.lo > 1.0 && e1.hi < 1.1);
}

static struct sb_paired interval(double lo, double hi)
{
    struct sb_paired e = {10, 1.0, lo, hi, 0.95, {10, 0.0, 1.0, true}};
    return e;
}

static void test_call_boundaries(void **state)
{
    const double delta = 0.05, up = 1.0 + delta, down = 1.0 / (1.0 + delta);
    struct sb_paired e;
    (void)state;

    assert_string_equal(sb_call_names[SB_CALL_INCONCLUSIVE], "inconclusive");
    assert_string_equal(sb_call_names[SB_CALL_FASTER], "faster");
    assert_string_equal(sb_call_names[SB_CALL_SLOWER], "slower");
    assert_string_equal(sb_call_names[SB_CALL_SAME], "same");
    /* faster: lo strictly above 1 + delta */
    e = interval(nextafter(up, 2.0), 1.3);
    assert_int_equal(sb_paired_call(&e, delta), SB_CALL_FASTER);
    e = interval(up, 1.3);
    assert_int_equal(sb_paired_call(&e, delta), SB_CALL_INCONCLUSIVE);
    e = interval(up, up); /* lo = hi = 1 + delta: inside, so the same */
    assert_int_equal(sb_paired_call(&e, delta), SB_CALL_SAME);
    /* slower: hi strictly below 1 / (1 + delta) */
    e = interval(0.8, nextafter(down, 0.0));
    assert_int_equal(sb_paired_call(&e, delta), SB_CALL_SLOWER);
    e = interval(0.8, down);
    assert_int_equal(sb_paired_call(&e, delta), SB_CALL_INCONCLUSIVE);
    e = interval(down, down);
    assert_int_equal(sb_paired_call(&e, delta), SB_CALL_SAME);
    /* the same: both ends inside, ends included */
    e = interval(down, up);
    assert_int_equal(sb_paired_call(&e, delta), SB_CALL_SAME);
    e = interval(nextafter(down, 0.0), up);
    assert_int_equal(sb_paired_call(&e, delta), SB_CALL_INCONCLUSIVE);
    e = interval(down, nextafter(up, 2.0));
    assert_int_equal(sb_paired_call(&e, delta), SB_CALL_INCONCLUSIVE);
    e = interval(0.99, 1.01);
    assert_int_equal(sb_paired_call(&e, delta), SB_CALL_SAME);
    assert_int_equal(sb_paired_call(&e, 0.005), SB_CALL_INCONCLUSIVE);
    /* no interval: no call */
    e = interval(NAN, NAN);
    assert_int_equal(sb_paired_call(&e, delta), SB_CALL_INCONCLUSIVE);
}

static void test_bonferroni_and_delta(void **state)
{
    (void)state;

    assert_true(sb_bonferroni_level(0.95, 0) == 0.95);
    assert_true(sb_bonferroni_level(0.95, 1) == 0.95);
    assert_near(sb_bonferroni_level(0.95, 5), 0.99, 1e-15);
    assert_near(sb_bonferroni_level(0.90, 4), 0.975, 1e-15);
    assert_true(sb_delta(NAN) == SB_DELTA_MIN);
    assert_true(sb_delta(0.0) == SB_DELTA_MIN);
    assert_true(sb_delta(0.019) == SB_DELTA_MIN);
    assert_true(sb_delta(0.031) == 0.031);
}

static void test_noise_floor(void **state)
{
    const double x[] = {1000, 980, 1030, 1010, 990, 1200, 700};
    const double up[] = {110, 100}, down[] = {100, 110};
    const double a[] = {120, 110, 100, 130, 105}, b[] = {100, 100, 100, 100, 100};
    (void)state;

    /* identical series: every d is 0 */
    assert_true(sb_noise_floor(x, x, 7) == 0.0);
    assert_true(sb_noise_bound(x, x, 7, 1000, SEED) == 0.0);
    /* the floor is the point: d = ln 1.2, ln 1.1, 0, ln 1.3, ln 1.05: median ln 1.1; the other
     * way round the same */
    assert_near(sb_noise_floor(a, b, 5), 0.1, 1e-12);
    assert_near(sb_noise_floor(b, a, 5), 0.1, 1e-12);
    /* d = +-ln 1.1: the floor is 0 (the median of the two is 0); the bound is ln 1.1 (|median|
     * is 0 in mixed resamples, 1/2, and ln 1.1 in the others: the 95th percentile) */
    assert_near(sb_noise_floor(up, down, 2), 0.0, 1e-12);
    assert_near(sb_noise_bound(up, down, 2, 1000, SEED), 0.1, 1e-12);
    assert_true(isnan(sb_noise_floor(x, x, 1)));
    assert_true(isnan(sb_noise_bound(x, x, 1, 1000, SEED)));
}

static void test_median_interval(void **state)
{
    const double two[] = {1.0, NAN, 3.0};
    const double one[] = {NAN, 5.0};
    double lo, hi;
    (void)state;

    /* medians 1 (1/4), 2 (1/2), 3 (1/4) */
    sb_median_interval(two, 3, 0.95, 2000, SEED, &lo, &hi);
    assert_true(lo == 1.0 && hi == 3.0);
    sb_median_interval(two, 3, 0.40, 2000, SEED, &lo, &hi);
    assert_true(lo == 2.0 && hi == 2.0);
    sb_median_interval(one, 2, 0.95, 2000, SEED, &lo, &hi);
    assert_true(isnan(lo) && isnan(hi));
}

static void test_drift(void **state)
{
    double t[31], y[31], epoch[31];
    const double k = log(1.05) / 60.0; /* 5% a minute */
    (void)state;

    for (int i = 0; i < 31; i++) {
        t[i] = 10.0 * i;
        epoch[i] = 1.7e9 + t[i];
        y[i] = 2500.0 * exp(k * t[i]);
    }
    assert_near(sb_drift_per_minute(t, y, 31), 0.05, 1e-12);
    assert_near(sb_drift_per_minute(epoch, y, 31), 0.05, 1e-9);
    y[3] = NAN; /* skipped */
    y[4] = 0.0;
    assert_near(sb_drift_per_minute(t, y, 31), 0.05, 1e-12);
    assert_true(isnan(sb_drift_per_minute(t, y, 2)));
    for (int i = 0; i < 31; i++)
        t[i] = 5.0;
    assert_true(isnan(sb_drift_per_minute(t, y, 31)));
}

static void test_precise(void **state)
{
    (void)state;

    assert_true(sb_interval_precise(1 / 1.01, 1.01, 0.02));
    assert_false(sb_interval_precise(1 / 1.03, 1.03, 0.02));
    assert_false(sb_interval_precise(0.98, 1.02, 0.0198)); /* half-width 0.020003 */
    assert_true(sb_interval_precise(0.98, 1.02, 0.0203));
    assert_true(sb_interval_precise(1.2, 1.2, 0.0));
    assert_false(sb_interval_precise(NAN, NAN, 0.02));
    assert_false(sb_interval_precise(0.0, 1.0, 0.02));
}

/* quickselect against sb_median's sort, with duplicates, for every n up to 40 */
static void test_select_median(void **state)
{
    const double sorted[] = {1.0, 2.0, 4.0, 8.0};
    struct sb_rng rng;
    (void)state;

    sb_rng_seed(&rng, 11);
    for (size_t n = 1; n <= 40; n++)
        for (int rep = 0; rep < 20; rep++) {
            double v[40];
            for (size_t i = 0; i < n; i++)
                v[i] = (double)sb_rng_below(&rng, rep % 2 ? 5 : 1000);
            double m = sb_median(v, n);
            assert_true(sb_select_median(v, n) == m);
        }
    assert_true(isnan(sb_select_median(NULL, 0)));
    assert_true(sb_sorted_quantile(sorted, 4, 0.0) == 1.0);
    assert_true(sb_sorted_quantile(sorted, 4, 1.0) == 8.0);
    assert_true(sb_sorted_quantile(sorted, 4, 0.5) == 3.0);      /* h = 1.5 */
    assert_near(sb_sorted_quantile(sorted, 4, 0.9), 6.8, 1e-12); /* h = 2.7 */
}

/* Two samples with no pairing: constant samples give the ratio of their values exactly, and its
 * interval collapses on it; a sample with fewer than 2 usable values gives -1 and NaN; the
 * interval of a spread sample holds the ratio of the medians. */
static void test_unpaired(void **state)
{
    const double a[] = {100, 100, 100}, b[] = {150, NAN, 150, 150, -1};
    const double c[] = {90, 100, 110, 95, 105}, d[] = {180, 200, 220, 190, 210};
    double ratio, lo, hi;
    (void)state;

    assert_int_equal(sb_unpaired_estimate(a, 3, b, 5, 0.95, 500, 1, &ratio, &lo, &hi), 0);
    assert_true(ratio == 1.5 && lo == 1.5 && hi == 1.5);
    assert_int_equal(sb_unpaired_estimate(a, 1, b, 5, 0.95, 500, 1, &ratio, &lo, &hi), -1);
    assert_true(isnan(ratio) && isnan(lo) && isnan(hi));
    assert_int_equal(sb_unpaired_estimate(c, 5, d, 5, 0.95, 2000, 7, &ratio, &lo, &hi), 0);
    assert_true(fabs(ratio - 2.0) < 1e-12);
    assert_true(lo < 2.0 && hi > 2.0 && lo >= 180.0 / 110.0 && hi <= 220.0 / 90.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unpaired),
        cmocka_unit_test(test_constant_ratio),
        cmocka_unit_test(test_missing_rounds),
        cmocka_unit_test(test_two_rounds_by_hand),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_call_boundaries),
        cmocka_unit_test(test_bonferroni_and_delta),
        cmocka_unit_test(test_noise_floor),
        cmocka_unit_test(test_median_interval),
        cmocka_unit_test(test_drift),
        cmocka_unit_test(test_precise),
        cmocka_unit_test(test_select_median),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
