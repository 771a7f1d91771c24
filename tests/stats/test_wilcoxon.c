/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_wilcoxon.c: unit tests for lib/stats/wilcoxon.h, the signed-rank test. Exact p-values worked by
 * hand (n of 5 and 6 all positive: 2/32 and 2/64; a W+ at the mean: 1; n of 5 with W+ 12:
 * 10/32), the exact distribution against brute-force enumeration of the 2^12 sign patterns,
 * zeros (dropped) and ties (mean ranks, the normal approximation with its tie correction) worked
 * by hand, the normal approximation for n of 60 worked by hand, and exact against normal within
 * 0.01 for n of 30 without ties. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "stats/wilcoxon.h"

#include "helper.h"


static double normal_two_sided(double z) { return erfc(fabs(z) / sqrt(2.0)); }

static void test_exact_all_positive(void **state)
{
    const double five[] = {0.5, 0.1, 0.3, 0.2, 0.4};
    const double six[] = {1, 2, 3, 4, 5, 6};
    double fifty[50];
    struct sb_wilcoxon w;
    (void)state;

    /* W+ 15 is the largest of 32 equally likely sign patterns: p = 2 / 32 */
    w = sb_wilcoxon_signed_rank(five, 5);
    assert_int_equal(w.n, 5);
    assert_true(w.exact);
    assert_true(w.w_plus == 15.0);
    assert_near(w.p, 2.0 / 32.0, 1e-15);
    w = sb_wilcoxon_signed_rank(six, 6);
    assert_true(w.exact && w.w_plus == 21.0);
    assert_near(w.p, 2.0 / 64.0, 1e-15);
    /* the largest exact n: 2^50 patterns, still counted exactly in doubles */
    for (int i = 0; i < 50; i++)
        fifty[i] = i + 1.0;
    w = sb_wilcoxon_signed_rank(fifty, 50);
    assert_true(w.exact);
    assert_true(w.p == ldexp(1.0, -49));
}

static void test_exact_hand_worked(void **state)
{
    const double mean[] = {1, -2, -3, 4};
    const double twelve[] = {1, 2, -3, 4, 5};
    const double mirrored[] = {-1, -2, 3, -4, -5};
    struct sb_wilcoxon w;
    (void)state;

    /* n 4: W+ 1 + 4 = 5, the mean; P(W+ <= 5) = 9/16 on both sides: p 1 */
    w = sb_wilcoxon_signed_rank(mean, 4);
    assert_true(w.exact && w.w_plus == 5.0 && w.p == 1.0);
    /* n 5, W+ 12: the patterns with W+ >= 12 are {12: 2, 13, 14, 15: 1 each}, 5 of 32 */
    w = sb_wilcoxon_signed_rank(twelve, 5);
    assert_true(w.exact && w.w_plus == 12.0);
    assert_near(w.p, 10.0 / 32.0, 1e-15);
    /* the mirror image: W+ 3, the same p */
    w = sb_wilcoxon_signed_rank(mirrored, 5);
    assert_true(w.w_plus == 3.0);
    assert_near(w.p, 10.0 / 32.0, 1e-15);
}

/* For n of 12 and a few sign patterns: the exact p against counting all 4096 patterns. */
static void test_exact_brute_force(void **state)
{
    const unsigned patterns[] = {0x000, 0x5a5, 0x0f3, 0xfff, 0x801, 0x7e0};
    (void)state;

    for (size_t k = 0; k < sizeof patterns / sizeof patterns[0]; k++) {
        double d[12], w_obs = 0.0, below = 0.0, above = 0.0, p;
        struct sb_wilcoxon w;
        for (int i = 0; i < 12; i++) {
            d[i] = (patterns[k] >> i & 1) ? i + 1.0 : -(i + 1.0);
            w_obs += d[i] > 0 ? i + 1.0 : 0.0;
        }
        for (unsigned s = 0; s < 4096; s++) {
            double ws = 0.0;
            for (int i = 0; i < 12; i++)
                ws += (s >> i & 1) ? i + 1.0 : 0.0;
            below += ws <= w_obs;
            above += ws >= w_obs;
        }
        p = fmin(1.0, 2.0 * fmin(below, above) / 4096.0);
        w = sb_wilcoxon_signed_rank(d, 12);
        assert_true(w.exact && w.w_plus == w_obs);
        assert_near(w.p, p, 1e-15);
    }
}

static void test_zeros_and_ties(void **state)
{
    const double zeros[] = {0.0, 0.1, 0.0, 0.2, 0.3, 0.4, 0.5, 0.0};
    const double none[] = {0.0, 0.0, 0.0};
    const double with_nan[] = {0.1, NAN, 0.2, 0.3, 0.4, 0.5};
    const double ties[] = {1, 1, 2, -3};
    struct sb_wilcoxon w;
    (void)state;

    /* zeros dropped: the 5 positive differences of test_exact_all_positive */
    w = sb_wilcoxon_signed_rank(zeros, 8);
    assert_int_equal(w.n, 5);
    assert_near(w.p, 2.0 / 32.0, 1e-15);
    w = sb_wilcoxon_signed_rank(with_nan, 6);
    assert_int_equal(w.n, 5);
    assert_near(w.p, 2.0 / 32.0, 1e-15);
    w = sb_wilcoxon_signed_rank(none, 3);
    assert_int_equal(w.n, 0);
    assert_true(w.p == 1.0);
    w = sb_wilcoxon_signed_rank(none, 0);
    assert_true(w.n == 0 && w.p == 1.0);
    /* |d| 1 1 2 3: ranks 1.5 1.5 3 4, W+ 6. Normal: mean 4 * 5 / 4 = 5, variance
     * 4 * 5 * 9 / 24 - (2^3 - 2) / 48 = 7.375, z = (|6 - 5| - 0.5) / sqrt(7.375) = 0.18411,
     * p = 0.853923 */
    w = sb_wilcoxon_signed_rank(ties, 4);
    assert_false(w.exact);
    assert_true(w.w_plus == 6.0);
    assert_near(w.p, 0.8539232993, 1e-9);
}

static void test_normal_hand_worked(void **state)
{
    double d[60];
    struct sb_wilcoxon w;
    (void)state;

    /* d = 1..60, every third negative: W+ = 1830 - 3 (1 + ... + 20) = 1200; mean 60 * 61 / 4 =
     * 915, variance 60 * 61 * 121 / 24 = 18452.5, z = 284.5 / 135.840 = 2.09438, p = 0.0362265 */
    for (int i = 0; i < 60; i++)
        d[i] = (i + 1) % 3 ? i + 1.0 : -(i + 1.0);
    w = sb_wilcoxon_signed_rank(d, 60);
    assert_false(w.exact);
    assert_true(w.w_plus == 1200.0);
    assert_near(w.p, 0.0362264942, 1e-9);
}

/* n 30 without ties: the exact p within 0.01 of the normal approximation (with continuity). */
static void test_exact_against_normal(void **state)
{
    const unsigned long patterns[] = {0x3fffffffUL, 0x2aaaaaaaUL, 0x0f0f0f0fUL, 0x3ff003ffUL,
                                      0x3fff0000UL, 0x1234567UL, 0x3ffffff0UL, 0x3f3f3f3fUL};
    (void)state;

    for (size_t k = 0; k < sizeof patterns / sizeof patterns[0]; k++) {
        double d[30], w_plus = 0.0, mean = 30 * 31 / 4.0, sd = sqrt(30 * 31 * 61 / 24.0), z;
        struct sb_wilcoxon w;
        for (int i = 0; i < 30; i++) {
            d[i] = (patterns[k] >> i & 1) ? i + 1.0 : -(i + 1.0);
            w_plus += d[i] > 0 ? i + 1.0 : 0.0;
        }
        z = (fabs(w_plus - mean) - 0.5) / sd;
        w = sb_wilcoxon_signed_rank(d, 30);
        assert_true(w.exact);
        print_message("n 30, W+ %.0f: exact %.5f, normal %.5f\n", w.w_plus, w.p,
                      z <= 0 ? 1.0 : normal_two_sided(z));
        assert_near(w.p, z <= 0 ? 1.0 : normal_two_sided(z), 0.01);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_all_positive),
        cmocka_unit_test(test_exact_hand_worked),
        cmocka_unit_test(test_exact_brute_force),
        cmocka_unit_test(test_zeros_and_ties),
        cmocka_unit_test(test_normal_hand_worked),
        cmocka_unit_test(test_exact_against_normal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
