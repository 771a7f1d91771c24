/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_proportion.c: unit tests for lib/stats/proportion.h, the Wilson score interval. Known
 * values at 95% (0 of 100: [0, 0.0370]; 5 of 100: [0.0215, 0.1118]; 50 of 100: [0.4038,
 * 0.5962]; 1 of 10: [0.0179, 0.4042]; 100 of 100: [0.9630, 1]), one at 90% (5 of 100:
 * [0.0245, 0.0992]), the normal quantiles behind them, the symmetry k <-> n - k, and n = 0
 * saying nothing. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/stats.h"

#include "helper.h"

static void test_normal_quantile(void **state)
{
    (void)state;
    assert_near(sb_normal_quantile(0.975), 1.959964, 1e-6);
    assert_near(sb_normal_quantile(0.95), 1.644854, 1e-6);
    assert_near(sb_normal_quantile(0.995), 2.575829, 1e-6);
    assert_near(sb_normal_quantile(0.5), 0.0, 1e-12);
    assert_near(sb_normal_quantile(0.025), -1.959964, 1e-6);
}

static void test_known_values(void **state)
{
    static const struct {
        unsigned k, n;
        double level, lo, hi;
    } cases[] = {
        {0, 100, 0.95, 0.0, 0.036993}, {5, 100, 0.95, 0.021544, 0.111750},
        {50, 100, 0.95, 0.403832, 0.596168}, {1, 10, 0.95, 0.017876, 0.404150},
        {100, 100, 0.95, 0.963007, 1.0}, {5, 100, 0.90, 0.024547, 0.099161},
        {3, 5, 0.95, 0.230724, 0.882379},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double lo, hi;
        sb_wilson_interval(cases[i].k, cases[i].n, cases[i].level, &lo, &hi);
        assert_near(lo, cases[i].lo, 1e-6);
        assert_near(hi, cases[i].hi, 1e-6);
    }
}

static void test_symmetry_and_bounds(void **state)
{
    (void)state;
    for (unsigned n = 1; n <= 30; n++)
        for (unsigned k = 0; k <= n; k++) {
            double lo, hi, lo2, hi2, p = (double)k / n;
            sb_wilson_interval(k, n, 0.95, &lo, &hi);
            sb_wilson_interval(n - k, n, 0.95, &lo2, &hi2);
            assert_true(0.0 <= lo && lo <= p && p <= hi && hi <= 1.0);
            assert_near(lo, 1.0 - hi2, 1e-12);
            assert_near(hi, 1.0 - lo2, 1e-12);
        }
}

static void test_nothing_known(void **state)
{
    double lo, hi;
    (void)state;
    sb_wilson_interval(0, 0, 0.95, &lo, &hi);
    assert_near(lo, 0.0, 0.0);
    assert_near(hi, 1.0, 0.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_normal_quantile),
        cmocka_unit_test(test_known_values),
        cmocka_unit_test(test_symmetry_and_bounds),
        cmocka_unit_test(test_nothing_known),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
