/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_stats.c: unit tests for lib/stats/stats.h, the summary of a run's timed repetitions. Checks
 * sb_median for odd, even and single-value inputs (and that it leaves its input alone), and
 * sb_stats_from_seconds against MB/s figures, medians and coefficients of variation (sample
 * standard deviation over mean) worked out by hand. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "stats/stats.h"

#define assert_close(a, b) assert_true(fabs((a) - (b)) <= 1e-12 * (fabs(b) > 1 ? fabs(b) : 1))

static void test_median(void **state)
{
    const double odd[] = {3.0, 1.0, 2.0};
    const double even[] = {4.0, 1.0, 3.0, 2.0};
    const double one[] = {5.5};
    const double dup[] = {2.0, 9.0, 2.0, 2.0, 7.0};
    (void)state;

    assert_true(sb_median(odd, 3) == 2.0);
    assert_true(sb_median(even, 4) == 2.5); /* (2 + 3) / 2 */
    assert_true(sb_median(one, 1) == 5.5);
    assert_true(sb_median(dup, 5) == 2.0); /* sorted: 2 2 2 7 9 */
    /* the input is sorted in a copy, not in place */
    assert_true(odd[0] == 3.0 && odd[1] == 1.0 && odd[2] == 2.0);
    assert_true(isnan(sb_median(odd, 0)));
}

static void test_stats_three(void **state)
{
    const double seconds[] = {1.0, 0.5, 0.25};
    struct sb_stats s;
    (void)state;

    /* 1e6 bytes in 1, 0.5, 0.25 s: 1, 2, 4 MB/s. mean 7/3; squared deviations
     * (4/3)^2 + (1/3)^2 + (5/3)^2 = 42/9 = 14/3; sample variance 14/3 / 2 = 7/3;
     * cv = sqrt(7/3) / (7/3) = sqrt(3/7) = 0.6546536707... */
    sb_stats_from_seconds(seconds, 3, 1000000, &s);
    assert_close(s.best, 4.0);
    assert_close(s.max, 4.0);
    assert_close(s.min, 1.0);
    assert_close(s.median, 2.0);
    assert_close(s.cv, sqrt(3.0 / 7.0));
    assert_true(fabs(s.cv - 0.6546536707) < 1e-10);
}

static void test_stats_even(void **state)
{
    const double seconds[] = {0.002, 0.004, 0.001, 0.004};
    struct sb_stats s;
    (void)state;

    /* 8e6 bytes: 4000, 2000, 8000, 2000 MB/s; sorted 2000 2000 4000 8000: median 3000.
     * mean 4000; deviations 0, -2000, 4000, -2000: squares sum 24e6; variance 8e6;
     * cv = sqrt(8e6) / 4000 = 2828.427... / 4000 = sqrt(2) / 2 */
    sb_stats_from_seconds(seconds, 4, 8000000, &s);
    assert_close(s.best, 8000.0);
    assert_close(s.max, 8000.0);
    assert_close(s.min, 2000.0);
    assert_close(s.median, 3000.0);
    assert_close(s.cv, sqrt(2.0) / 2.0);
}

static void test_stats_one(void **state)
{
    const double seconds[] = {0.5};
    struct sb_stats s;
    (void)state;

    /* 3e6 bytes in 0.5 s: 6 MB/s; one repetition has no spread */
    sb_stats_from_seconds(seconds, 1, 3000000, &s);
    assert_close(s.best, 6.0);
    assert_close(s.median, 6.0);
    assert_close(s.min, 6.0);
    assert_close(s.max, 6.0);
    assert_true(s.cv == 0.0);
}

static void test_stats_equal(void **state)
{
    const double seconds[] = {0.125, 0.125, 0.125};
    struct sb_stats s;
    (void)state;

    /* 1e6 bytes in 0.125 s three times: 8 MB/s each, cv exactly 0 */
    sb_stats_from_seconds(seconds, 3, 1000000, &s);
    assert_close(s.median, 8.0);
    assert_true(s.cv == 0.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_median),
        cmocka_unit_test(test_stats_three),
        cmocka_unit_test(test_stats_even),
        cmocka_unit_test(test_stats_one),
        cmocka_unit_test(test_stats_equal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
