/* SPDX-License-Identifier: BSD-3-Clause */
/* test_shares.c: unit tests for lib/stats/shares.h on synthetic data (sb_rng, fixed seeds):
 * the statistics worked by hand (a cov ratio, a line's and groups' adjusted R^2); parts that
 * sum to y whose shares sum to 1, in the point estimates and in every resample (two parts'
 * intervals mirror each other), a constant part's 0, a part equal to y's 1, a part that takes
 * more than all; a y exactly linear in x, an x independent of y, groups with different means and
 * labels that carry nothing (about 0, not (k - 1) / (n - 1)); NAN for too few observations, no
 * variance or one group per observation; the same intervals from the same seed; and the 95%
 * interval of a share known exactly (y = a + b, a and b independent of equal variance: 1/2)
 * covering it in most of 100 synthetic samples. Nothing here times anything. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/shares.h"
#include "stats/schedule.h"

#include "helper.h"

static const struct sb_share_bootstrap B95 = {0.95, 400, 20070304u};

static void assert_nan_share(const struct sb_share *s)
{
    assert_true(isnan(s->share));
    assert_true(isnan(s->lo));
    assert_true(isnan(s->hi));
}

static void assert_brackets(const struct sb_share *s)
{
    assert_false(isnan(s->share) || isnan(s->lo) || isnan(s->hi));
    assert_true(s->lo <= s->share + 1e-12);
    assert_true(s->share <= s->hi + 1e-12);
}

/* The statistics on a few numbers worked by hand. */
static void statistics_by_hand(void **state)
{
    const double y[] = {1, 3, 2, 4}, x[] = {1, 1, 1, 3}, line_x[] = {1, 2, 3, 4};
    const double gy[] = {1, 2, 3, 4, 5, 6};
    const uint32_t groups[] = {7, 7, 7, 100, 100, 100}, mixed[] = {100, 7, 100, 7, 7, 100};

    (void)state;
    /* cov(x, y) = 3 / 4, var(y) = 5 / 4: 0.6 (not cov / var(x), which is 1) */
    assert_near(sb_share_cov_ratio(y, x, 4), 0.6, 1e-12);
    /* y on 1..4: cxy = 4, sxx = syy = 5: R^2 = 16 / 25, adjusted 1 - 0.36 * 3 / 2 = 0.46 */
    assert_near(sb_share_r2_line(y, line_x, 4), 0.46, 1e-12);
    /* groups {1,2,3} and {4,5,6}: within 4, total 17.5: 1 - (4 / 17.5) * 5 / 4 = 5 / 7; the
     * labels' values and order do not matter */
    assert_near(sb_share_r2_groups(gy, groups, 6), 5.0 / 7.0, 1e-12);
    /* {2, 4, 5} and {1, 3, 6} (means 11/3, 10/3): within 14/3 + 38/3 = 52/3 of 17.5:
     * 1 - (52 / 3 / 17.5) * 5 / 4 */
    assert_near(sb_share_r2_groups(gy, mixed, 6), 1.0 - (52.0 / 3.0 / 17.5) * 1.25, 1e-12);
}

/* Three correlated parts (the third moves against the first) and their sum. */
static void three_parts(size_t n, uint64_t seed, double *a, double *b, double *c, double *y)
{
    struct sb_rng rng;

    sb_rng_seed(&rng, seed);
    for (size_t i = 0; i < n; i++) {
        a[i] = 2.0 + sb_rng_normal(&rng);
        b[i] = 1.0 + 0.3 * sb_rng_normal(&rng);
        c[i] = 5.0 - 0.5 * a[i] + 0.7 * sb_rng_normal(&rng);
        y[i] = a[i] + b[i] + c[i];
    }
}

static void parts_that_sum_give_shares_that_sum_to_one(void **state)
{
    enum { N = 300 };
    double a[N], b[N], c[N], y[N], rest[N];
    const double *parts[] = {a, b, c};
    struct sb_share s[3], two[2];

    (void)state;
    three_parts(N, 11, a, b, c, y);
    sb_shares_additive(y, parts, 3, N, &B95, s);
    assert_near(s[0].share + s[1].share + s[2].share, 1.0, 1e-9);
    for (int k = 0; k < 3; k++) {
        assert_brackets(&s[k]);
        assert_near(s[k].share, sb_share_cov_ratio(y, parts[k], N), 1e-15);
    }
    /* var(y) = 0.25 + 0.09 + 0.49: the true shares are cov(part, y) / var(y) = 0.5, 0.09 and
     * 0.24 over 0.83, not var(part) / var(y) (a's is 1 / 0.83 > 1: the third moves against it) */
    assert_near(s[0].share, 0.5 / 0.83, 0.06);
    assert_near(s[1].share, 0.09 / 0.83, 0.06);
    assert_near(s[2].share, 0.24 / 0.83, 0.06);

    /* Every resample's shares sum to 1 too: with two parts, a's resampled shares are 1 - b's,
     * so a's percentiles are 1 - b's mirrored (lo of a + hi of b = 1). Drawn with different
     * resamples per part they would not be. */
    for (size_t i = 0; i < N; i++)
        rest[i] = y[i] - a[i];
    {
        const double *pair[] = {a, rest};
        sb_shares_additive(y, pair, 2, N, &B95, two);
    }
    assert_near(two[0].share + two[1].share, 1.0, 1e-9);
    assert_near(two[0].lo + two[1].hi, 1.0, 1e-9);
    assert_near(two[0].hi + two[1].lo, 1.0, 1e-9);
    assert_true(two[0].hi - two[0].lo > 0.01); /* a real interval, not a point */
    assert_brackets(&two[0]);
    assert_brackets(&two[1]);
}

static void constant_part_is_zero_equal_part_is_one(void **state)
{
    enum { N = 100 };
    double y[N], flat[N], other[N];
    const double *parts[] = {y, flat, other};
    struct sb_share s[3];
    struct sb_rng rng;

    (void)state;
    sb_rng_seed(&rng, 5);
    for (size_t i = 0; i < N; i++) {
        y[i] = 1.0 + sb_rng_unit(&rng);
        flat[i] = 0.25;
        other[i] = -3.0;
    }
    sb_shares_additive(y, parts, 3, N, &B95, s);
    assert_near(s[0].share, 1.0, 1e-12);
    assert_near(s[0].lo, 1.0, 1e-12);
    assert_near(s[0].hi, 1.0, 1e-12);
    for (int k = 1; k < 3; k++) {
        assert_near(s[k].share, 0.0, 1e-12);
        assert_near(s[k].lo, 0.0, 1e-12);
        assert_near(s[k].hi, 0.0, 1e-12);
    }
    assert_near(sb_share_cov_ratio(y, flat, N), 0.0, 1e-12);
}

/* A part can take more than all when another moves against it: a = 2z, b = -z, y = z. */
static void a_part_can_take_more_than_all(void **state)
{
    enum { N = 50 };
    double z[N], a[N], b[N];
    const double *parts[] = {a, b};
    struct sb_share s[2];

    (void)state;
    for (size_t i = 0; i < N; i++) {
        z[i] = sin(0.37 * (double)i) + 0.01 * (double)i;
        a[i] = 2.0 * z[i];
        b[i] = -z[i];
    }
    sb_shares_additive(z, parts, 2, N, &B95, s);
    assert_near(s[0].share, 2.0, 1e-12);
    assert_near(s[1].share, -1.0, 1e-12);
    assert_near(s[0].lo, 2.0, 1e-12);
    assert_near(s[1].hi, -1.0, 1e-12);
}

static void a_line_explains_everything(void **state)
{
    enum { N = 200 };
    double x[N], up[N], down[N];
    struct sb_share s;
    struct sb_rng rng;

    (void)state;
    sb_rng_seed(&rng, 17);
    for (size_t i = 0; i < N; i++) {
        x[i] = 10.0 * sb_rng_unit(&rng);
        up[i] = 3.0 * x[i] + 2.0;
        down[i] = 7.0 - 0.5 * x[i];
    }
    assert_near(sb_share_r2_line(up, x, N), 1.0, 1e-12);
    assert_near(sb_share_r2_line(down, x, N), 1.0, 1e-12);
    sb_share_covariate(up, x, N, &B95, &s);
    assert_near(s.share, 1.0, 1e-12);
    assert_near(s.lo, 1.0, 1e-12);
    assert_near(s.hi, 1.0, 1e-12);
}

static void an_independent_covariate_explains_nothing(void **state)
{
    enum { N = 2000 };
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y), *flat = malloc(N * sizeof *y);
    struct sb_share s;
    struct sb_rng rng;

    (void)state;
    assert_non_null(x);
    assert_non_null(y);
    assert_non_null(flat);
    sb_rng_seed(&rng, 23);
    for (size_t i = 0; i < N; i++) {
        x[i] = sb_rng_normal(&rng);
        y[i] = 5.0 + sb_rng_unit(&rng);
        flat[i] = 3.0;
    }
    assert_true(fabs(sb_share_r2_line(y, x, N)) < 0.05);
    sb_share_covariate(y, x, N, &B95, &s);
    assert_true(fabs(s.share) < 0.05);
    assert_true(s.hi < 0.05);
    assert_brackets(&s);
    /* a covariate the same in every scan has no line: not a share (NAN), not -1 / (n - 2) */
    assert_true(isnan(sb_share_r2_line(y, flat, N)));
    free(x);
    free(y);
    free(flat);
}

static void groups_with_different_means_explain_everything(void **state)
{
    enum { N = 120 };
    const double mean[] = {1.0, 1.5, 0.7, 2.2};
    const uint32_t label[] = {9, 3, 0xfffffffeu, 40}; /* any values */
    double y[N];
    uint32_t g[N];
    struct sb_share s;
    struct sb_rng rng;

    (void)state;
    sb_rng_seed(&rng, 29);
    for (size_t i = 0; i < N; i++) {
        size_t k = (size_t)sb_rng_below(&rng, 4);
        g[i] = label[k];
        y[i] = mean[k];
    }
    assert_near(sb_share_r2_groups(y, g, N), 1.0, 1e-12);
    sb_share_factor(y, g, N, &B95, &s);
    assert_near(s.share, 1.0, 1e-12);
    assert_near(s.lo, 1.0, 1e-12);
    assert_near(s.hi, 1.0, 1e-12);
    /* one group only: the factor explains nothing (0, not NAN) */
    for (size_t i = 0; i < N; i++)
        g[i] = 4;
    assert_near(sb_share_r2_groups(y, g, N), 0.0, 1e-12);
}

/* 100 labels that carry nothing over 2000 observations: R^2 about (k - 1) / (n - 1) = 0.05,
 * adjusted about 0. */
static void labels_that_carry_nothing_explain_nothing(void **state)
{
    enum { N = 2000, K = 100 };
    double *y = malloc(N * sizeof *y);
    uint32_t *g = malloc(N * sizeof *g);
    struct sb_share s;
    struct sb_rng rng;

    (void)state;
    assert_non_null(y);
    assert_non_null(g);
    sb_rng_seed(&rng, 31);
    for (size_t i = 0; i < N; i++) {
        y[i] = 2.0 + sb_rng_normal(&rng);
        g[i] = (uint32_t)sb_rng_below(&rng, K);
    }
    assert_true(fabs(sb_share_r2_groups(y, g, N)) < 0.02);
    sb_share_factor(y, g, N, &B95, &s);
    assert_true(fabs(s.share) < 0.02);
    /* (not that lo <= share: with 20 observations a group, a resample's repeated observations
     * shrink the within-group sum of squares, and the percentile interval lies above 0) */
    assert_false(isnan(s.lo) || isnan(s.hi));
    assert_true(s.lo <= s.hi);
    /* few labels over many observations: still about 0 */
    for (size_t i = 0; i < N; i++)
        g[i] = (uint32_t)sb_rng_below(&rng, 3);
    assert_true(fabs(sb_share_r2_groups(y, g, N)) < 0.05);
    free(y);
    free(g);
}

static void too_few_or_no_variance_is_nan(void **state)
{
    const double y[] = {1.0, 2.0, 4.0, 3.0, 5.0}, x[] = {2.0, 1.0, 3.0, 5.0, 4.0};
    const double flat[] = {3.0, 3.0, 3.0, 3.0, 3.0};
    const double *parts[] = {x, y};
    const uint32_t g[] = {0, 0, 1, 1, 1}, own[] = {0, 1, 2, 3, 4};
    struct sb_share s[2];

    (void)state;
    /* two observations (and none) */
    assert_true(isnan(sb_share_cov_ratio(y, x, 2)));
    assert_true(isnan(sb_share_r2_line(y, x, 2)));
    assert_true(isnan(sb_share_r2_groups(y, g, 2)));
    assert_true(isnan(sb_share_cov_ratio(NULL, NULL, 0)));
    assert_true(isnan(sb_share_r2_line(NULL, NULL, 0)));
    assert_true(isnan(sb_share_r2_groups(NULL, NULL, 0)));
    sb_shares_additive(y, parts, 2, 2, &B95, s);
    assert_nan_share(&s[0]);
    assert_nan_share(&s[1]);
    sb_share_covariate(y, x, 2, &B95, &s[0]);
    assert_nan_share(&s[0]);
    sb_share_factor(y, g, 2, &B95, &s[0]);
    assert_nan_share(&s[0]);
    /* three are enough */
    assert_false(isnan(sb_share_cov_ratio(y, x, 3)));
    assert_false(isnan(sb_share_r2_line(y, x, 3)));
    /* y the same in every observation */
    assert_true(isnan(sb_share_cov_ratio(flat, x, 5)));
    assert_true(isnan(sb_share_r2_line(flat, x, 5)));
    assert_true(isnan(sb_share_r2_groups(flat, g, 5)));
    {
        const double *fparts[] = {x, flat};
        sb_shares_additive(flat, fparts, 2, 5, &B95, s);
    }
    assert_nan_share(&s[0]);
    assert_nan_share(&s[1]);
    sb_share_covariate(flat, x, 5, &B95, &s[0]);
    assert_nan_share(&s[0]);
    sb_share_factor(flat, g, 5, &B95, &s[0]);
    assert_nan_share(&s[0]);
    /* one group per observation: nothing left to adjust by */
    assert_true(isnan(sb_share_r2_groups(y, own, 5)));
    sb_share_factor(y, own, 5, &B95, &s[0]);
    assert_nan_share(&s[0]);
}

static void the_same_seed_gives_the_same_interval(void **state)
{
    enum { N = 150 };
    double a[N], b[N], c[N], y[N];
    uint32_t g[N];
    const double *parts[] = {a, b, c};
    struct sb_share s1[3], s2[3], s3[3], f1, f2, v1, v2, v3;
    struct sb_share_bootstrap other = B95;

    (void)state;
    three_parts(N, 41, a, b, c, y);
    for (size_t i = 0; i < N; i++)
        g[i] = (uint32_t)(i % 5) + (a[i] > 2.0 ? 10u : 0u);
    other.seed++;
    sb_shares_additive(y, parts, 3, N, &B95, s1);
    sb_shares_additive(y, parts, 3, N, &B95, s2);
    sb_shares_additive(y, parts, 3, N, &other, s3);
    assert_memory_equal(s1, s2, sizeof s1);
    for (int k = 0; k < 3; k++) {
        assert_true(s1[k].share == s3[k].share); /* the point estimate does not resample */
        assert_true(s1[k].lo != s3[k].lo || s1[k].hi != s3[k].hi);
    }
    sb_share_factor(y, g, N, &B95, &f1);
    sb_share_factor(y, g, N, &B95, &f2);
    assert_memory_equal(&f1, &f2, sizeof f1);
    assert_brackets(&f1);
    sb_share_covariate(y, a, N, &B95, &v1);
    sb_share_covariate(y, a, N, &B95, &v2);
    sb_share_covariate(y, a, N, &other, &v3);
    assert_memory_equal(&v1, &v2, sizeof v1);
    assert_true(v1.share == v3.share && (v1.lo != v3.lo || v1.hi != v3.hi));
}

/* y = a + b, a and b independent with the same variance: a's share is 1/2. Over 100 samples of
 * 200, its 95% interval covers 1/2 in about 95 (binomial: fewer than 85 has probability about
 * 1e-4 at the nominal level); each interval about 2 * 1.96 * 0.035 wide. */
static void the_interval_covers_a_known_share(void **state)
{
    enum { N = 200, SAMPLES = 100 };
    double a[N], b[N], y[N];
    const double *parts[] = {a, b};
    const struct sb_share_bootstrap boot = {0.95, 300, 99};
    struct sb_share s[2];
    struct sb_rng rng;
    int covered = 0;
    double width = 0.0;

    (void)state;
    sb_rng_seed(&rng, 43);
    for (int k = 0; k < SAMPLES; k++) {
        for (size_t i = 0; i < N; i++) {
            a[i] = 3.0 + sb_rng_normal(&rng);
            b[i] = 1.0 + sb_rng_normal(&rng);
            y[i] = a[i] + b[i];
        }
        sb_shares_additive(y, parts, 2, N, &boot, s);
        assert_near(s[0].share + s[1].share, 1.0, 1e-9);
        assert_near(s[0].share, 0.5, 0.2);
        assert_brackets(&s[0]);
        covered += s[0].lo <= 0.5 && 0.5 <= s[0].hi;
        width += (s[0].hi - s[0].lo) / SAMPLES;
    }
    assert_in_range(covered, 85, 100);
    assert_true(width > 0.08 && width < 0.2);
}

/* Labels that carry nothing, 60 observations in 16 groups: a resample repeats observations and
 * so shrinks the groups' spread, and the plain percentile interval of the factor's R^2 left 0
 * out in 28 of 50 samples; moved by the resamples' bias, about 5% of them (binomial: 9 or more
 * of 50 at 5% has probability about 0.03). */
static void labels_that_carry_nothing_keep_zero_in_the_interval(void **state)
{
    enum { N = 60, SAMPLES = 50 };
    double y[N];
    uint32_t g[N];
    const struct sb_share_bootstrap boot = {0.95, 400, 7};
    struct sb_share s;
    struct sb_rng rng;
    int excluded = 0;

    (void)state;
    sb_rng_seed(&rng, 47);
    for (int k = 0; k < SAMPLES; k++) {
        for (size_t i = 0; i < N; i++) {
            y[i] = 10.0 + sb_rng_normal(&rng);
            g[i] = (uint32_t)sb_rng_below(&rng, 16);
        }
        sb_share_factor(y, g, N, &boot, &s);
        assert_true(s.lo <= s.hi);
        excluded += s.lo > 0.0 || s.hi < 0.0;
    }
    assert_in_range(excluded, 0, 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(statistics_by_hand),
        cmocka_unit_test(labels_that_carry_nothing_keep_zero_in_the_interval),
        cmocka_unit_test(parts_that_sum_give_shares_that_sum_to_one),
        cmocka_unit_test(constant_part_is_zero_equal_part_is_one),
        cmocka_unit_test(a_part_can_take_more_than_all),
        cmocka_unit_test(a_line_explains_everything),
        cmocka_unit_test(an_independent_covariate_explains_nothing),
        cmocka_unit_test(groups_with_different_means_explain_everything),
        cmocka_unit_test(labels_that_carry_nothing_explain_nothing),
        cmocka_unit_test(too_few_or_no_variance_is_nan),
        cmocka_unit_test(the_same_seed_gives_the_same_interval),
        cmocka_unit_test(the_interval_covers_a_known_share),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
