/* SPDX-License-Identifier: BSD-3-Clause */
/* test_spearman.c: ranks with ties and Spearman's rho on made-up pairs, worked by hand. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include "stats/stats.h"
#include "helper.h"

static void ranks_of_ties_are_their_mean(void **state)
{
    const double v[] = {30, 10, 20, 20, 20, 40};
    double r[6];

    (void)state;
    assert_true(sb_ranks(v, 6, r));
    assert_float_equal(r[0], 5, 1e-12);
    assert_float_equal(r[1], 1, 1e-12);
    assert_float_equal(r[2], 3, 1e-12); /* ranks 2, 3, 4 shared */
    assert_float_equal(r[3], 3, 1e-12);
    assert_float_equal(r[4], 3, 1e-12);
    assert_float_equal(r[5], 6, 1e-12);
}

static void monotone_pairs_are_one_and_minus_one(void **state)
{
    const double x[] = {1, 2, 3, 4, 5}, up[] = {10, 20, 25, 100, 1000}, down[] = {9, 7, 5, 3, 1};

    (void)state;
    assert_float_equal(sb_spearman(x, up, 5), 1, 1e-12);
    assert_float_equal(sb_spearman(x, down, 5), -1, 1e-12);
}

/* The textbook example (IQ against hours of television, no ties): sum d^2 = 194, so
 * rho = 1 - 6 * 194 / (10 * 99) = -29/165. */
static void textbook_example(void **state)
{
    const double iq[] = {106, 86, 100, 101, 99, 103, 97, 113, 112, 110};
    const double tv[] = {7, 0, 27, 50, 28, 29, 20, 12, 6, 17};

    (void)state;
    assert_float_equal(sb_spearman(iq, tv, 10), -29.0 / 165, 1e-12);
}

/* Ties: x ranks 1, 2.5, 2.5, 4; y ranks 1, 3, 2, 4; deviations from 2.5: (-1.5, 0, 0, 1.5) and
 * (-1.5, 0.5, -0.5, 1.5): 4.5 / sqrt(4.5 * 5) = 0.9486833. */
static void tied_pairs(void **state)
{
    const double x[] = {1, 2, 2, 3}, y[] = {1, 3, 2, 4};

    (void)state;
    assert_float_equal(sb_spearman(x, y, 4), 4.5 / sqrt(22.5), 1e-12);
}

static void no_order_is_nan(void **state)
{
    const double x[] = {1, 2, 3}, flat[] = {5, 5, 5};

    (void)state;
    assert_true(isnan(sb_spearman(x, flat, 3)));
    assert_true(isnan(sb_spearman(x, x, 1)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ranks_of_ties_are_their_mean),
        cmocka_unit_test(monotone_pairs_are_one_and_minus_one),
        cmocka_unit_test(textbook_example),
        cmocka_unit_test(tied_pairs),
        cmocka_unit_test(no_order_is_nan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
