/* SPDX-License-Identifier: BSD-3-Clause */
/* test_level.c: unit tests for lib/stats/level.h. The level of rounds worked by hand: runs of
 * different scales centred apart, a missing scan, the comparison's runs left out and taken back
 * where no other run was timed; the dependence on made-up rounds: a ratio that is 1.16x only in
 * busy rounds (depends, the thirds' intervals around the truth and apart), a ratio with no
 * dependence, a perfectly monotone one worked by hand, rho equal to sb_spearman's with ties, too
 * few rounds, no order, and the same output from the same seed. Nothing here times anything. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "stats/stats.h"

#include "helper.h"

#define SEED SB_BOOTSTRAP_SEED
#define NR 60

/* Three runs of scales 1000, 5000 and 200 MB/s moved alike by the host: level l[r] (mean 0). */
static void scaled_runs(double x[3 * 4])
{
    const double scale[] = {1000, 5000, 200}, l[] = {0.1, -0.2, 0.05, 0.05};

    for (int j = 0; j < 3; j++)
        for (int r = 0; r < 4; r++)
            x[j * 4 + r] = scale[j] * exp(l[r]);
}

static void levels_are_centred_per_run(void **state)
{
    double x[12], level[4];
    size_t fell = 99;

    (void)state;
    scaled_runs(x);
    assert_int_equal(sb_round_levels(x, 3, 4, NULL, 0, level, &fell), 0);
    assert_int_equal(fell, 0);
    assert_near(level[0], 0.1, 1e-12);
    assert_near(level[1], -0.2, 1e-12);
    assert_near(level[2], 0.05, 1e-12);
    assert_near(level[3], 0.05, 1e-12);
    /* the fastest run's scan of round 2 missing: round 2 keeps its level (no jump of the
     * scale); run 1's centre is its mean over rounds 0, 1, 3: -0.05 / 3 below, so the other
     * rounds read l + (0.05 / 3) / 3 */
    x[1 * 4 + 2] = NAN;
    assert_int_equal(sb_round_levels(x, 3, 4, NULL, 0, level, NULL), 0);
    assert_near(level[2], 0.05, 1e-12);
    assert_near(level[0], 0.1 + 0.05 / 9, 1e-12);
    assert_near(level[1], -0.2 + 0.05 / 9, 1e-12);
    /* zero, negative and infinite are no scan; a round without any is NaN */
    x[0 * 4 + 3] = 0;
    x[1 * 4 + 3] = -1;
    x[2 * 4 + 3] = INFINITY;
    assert_int_equal(sb_round_levels(x, 3, 4, NULL, 0, level, NULL), 0);
    assert_true(isnan(level[3]));
    assert_false(isnan(level[0]));
}

static void the_arms_are_left_out_where_others_ran(void **state)
{
    /* runs 0 and 1 (the arms) move apart from the host; run 2 is the host alone */
    double x[3 * 4] = {100, 200, 100, 200, 300, 100, 300, 100, 10, 20, 40, 20};
    const size_t arms[] = {0, 1};
    double level[4], alone[4];
    size_t fell = 99;

    (void)state;
    assert_int_equal(sb_round_levels(x + 8, 1, 4, NULL, 0, alone, NULL), 0);
    assert_int_equal(sb_round_levels(x, 3, 4, arms, 2, level, &fell), 0);
    assert_int_equal(fell, 0);
    for (int r = 0; r < 4; r++)
        assert_near(level[r], alone[r], 1e-12);
    /* round 1 without run 2: the arms are taken back for it alone, and counted */
    x[8 + 1] = NAN;
    assert_int_equal(sb_round_levels(x, 3, 4, arms, 2, level, &fell), 0);
    assert_int_equal(fell, 1);
    assert_near(level[1], (log(200.0) - log(sqrt(100.0 * 200.0)) + log(100.0) -
                           log(sqrt(300.0 * 100.0))) / 2.0, 1e-12);
    assert_near(level[0], log(10.0) - (log(10.0) + log(40.0) + log(20.0)) / 3.0, 1e-12);
    /* the arms' own scans never enter the other rounds */
    x[0] = 1e9;
    assert_int_equal(sb_round_levels(x, 3, 4, arms, 2, level, &fell), 0);
    assert_near(level[0], log(10.0) - (log(10.0) + log(40.0) + log(20.0)) / 3.0, 1e-12);
}

/* NR rounds of uniform level; d = 0.15 in the busy half (level below 0.5), 0 in the quiet
 * half, with noise of 1%; or, without dependence, 0.1 throughout with the same noise. */
static void made_up_rounds(bool dependent, uint64_t seed, double *d, double *level)
{
    struct sb_rng rng;

    sb_rng_seed(&rng, seed);
    for (int r = 0; r < NR; r++) {
        level[r] = sb_rng_unit(&rng);
        d[r] = (dependent ? (level[r] < 0.5 ? 0.15 : 0.0) : 0.1) + 0.01 * sb_rng_normal(&rng);
    }
}

static void a_ratio_that_grows_with_the_load_depends(void **state)
{
    double d[NR], level[NR];
    struct sb_level_dependence e;

    (void)state;
    made_up_rounds(true, 7, d, level);
    assert_int_equal(sb_level_dependence(d, level, NR, 0.95, 0, SEED, &e), 0);
    assert_true(e.available);
    assert_null(e.why);
    assert_int_equal(e.n, NR);
    assert_true(e.conf == 0.95);
    assert_true(e.depends);
    assert_true(e.rho < 0 && e.lo <= e.rho && e.rho <= e.hi && e.hi < 0);
    assert_int_equal(e.quiet.rounds, NR / 3);
    assert_int_equal(e.busy.rounds, NR / 3);
    assert_true(e.quiet.lo <= 1.0 && 1.0 <= e.quiet.hi);
    assert_true(e.busy.lo <= exp(0.15) && exp(0.15) <= e.busy.hi);
    assert_true(e.quiet.lo <= e.quiet.ratio && e.quiet.ratio <= e.quiet.hi);
    assert_true(e.busy.lo <= e.busy.ratio && e.busy.ratio <= e.busy.hi);
    assert_near(e.quiet.ratio, 1.0, 0.01);
    assert_near(e.busy.ratio, exp(0.15), 0.01);
    assert_true(e.quiet.hi < e.busy.lo); /* each excludes the other's */
    assert_false(e.quiet.lo <= exp(0.15) && exp(0.15) <= e.quiet.hi);
    assert_false(e.busy.lo <= 1.0 && 1.0 <= e.busy.hi);
}

static void a_ratio_without_dependence_does_not(void **state)
{
    double d[NR], level[NR];
    struct sb_level_dependence e;

    (void)state;
    made_up_rounds(false, 11, d, level);
    assert_int_equal(sb_level_dependence(d, level, NR, 0.95, 0, SEED, &e), 0);
    assert_true(e.available);
    assert_false(e.depends);
    assert_true(e.lo <= 0 && 0 <= e.hi);
    assert_true(e.quiet.lo <= exp(0.1) && exp(0.1) <= e.quiet.hi);
    assert_true(e.busy.lo <= exp(0.1) && exp(0.1) <= e.busy.hi);
}

/* d rises by 0.01 a round while the level falls: rho is -1 in every resample that has two
 * values; the quietest three rounds are 0, 1, 2 (median d 0.01), the busiest 6, 7, 8 (0.07). */
static void a_monotone_ratio_by_hand(void **state)
{
    double d[9], level[9];
    struct sb_level_dependence e;

    (void)state;
    for (int r = 0; r < 9; r++) {
        d[r] = 0.01 * r;
        level[r] = -r;
    }
    assert_int_equal(sb_level_dependence(d, level, 9, 0.9, 500, SEED, &e), 0);
    assert_near(e.rho, -1, 1e-12);
    assert_near(e.lo, -1, 1e-12);
    assert_near(e.hi, -1, 1e-12);
    assert_true(e.depends);
    assert_int_equal(e.quiet.rounds, 3);
    assert_int_equal(e.busy.rounds, 3);
    assert_near(e.quiet.ratio, exp(0.01), 1e-12);
    assert_near(e.busy.ratio, exp(0.07), 1e-12);
    assert_true(e.quiet.lo >= exp(0.0) - 1e-12 && e.quiet.hi <= exp(0.02) + 1e-12);
    assert_true(e.busy.lo >= exp(0.06) - 1e-12 && e.busy.hi <= exp(0.08) + 1e-12);
}

/* The bootstrap's counted ranks give sb_spearman's rho, ties included. */
static void rho_is_spearmans(void **state)
{
    double d[NR], level[NR];
    struct sb_level_dependence e;

    (void)state;
    made_up_rounds(true, 5, d, level);
    for (int r = 0; r < NR; r++) { /* ties in both */
        d[r] = round(d[r] * 50) / 50;
        level[r] = round(level[r] * 8) / 8;
    }
    assert_int_equal(sb_level_dependence(d, level, NR, 0.95, 200, SEED, &e), 0);
    assert_near(e.rho, sb_spearman(d, level, NR), 1e-12);
}

static void too_few_rounds_or_no_order(void **state)
{
    double d[12], level[12];
    struct sb_level_dependence e;

    (void)state;
    for (int r = 0; r < 12; r++) {
        d[r] = 0.01 * r;
        level[r] = r % 2 ? -r : r;
    }
    assert_int_equal(sb_level_dependence(d, level, 8, 0.95, 100, SEED, &e), -1);
    assert_false(e.available);
    assert_int_equal(e.n, 8);
    assert_non_null(e.why);
    assert_non_null(strstr(e.why, "fewer than 9 rounds"));
    assert_true(isnan(e.rho) && isnan(e.lo) && isnan(e.hi));
    assert_false(e.depends);
    assert_int_equal(e.quiet.rounds, 0);
    assert_true(isnan(e.busy.ratio));
    /* 12 rounds, 4 of them missing d or level: 8 usable */
    d[0] = NAN;
    level[3] = NAN;
    d[5] = INFINITY;
    level[7] = NAN;
    assert_int_equal(sb_level_dependence(d, level, 12, 0.95, 100, SEED, &e), -1);
    assert_int_equal(e.n, 8);
    assert_non_null(strstr(e.why, "fewer than 9 rounds"));
    /* enough rounds, but one level throughout: no order to correlate */
    for (int r = 0; r < 12; r++) {
        d[r] = 0.01 * r;
        level[r] = 0.5;
    }
    assert_int_equal(sb_level_dependence(d, level, 12, 0.95, 100, SEED, &e), -1);
    assert_int_equal(e.n, 12);
    assert_non_null(strstr(e.why, "same in every round"));
    assert_false(e.depends);
}

static void the_same_seed_gives_the_same_answer(void **state)
{
    double d[NR], level[NR];
    struct sb_level_dependence e1, e2, e3;

    (void)state;
    made_up_rounds(true, 3, d, level);
    assert_int_equal(sb_level_dependence(d, level, NR, 0.99, 300, 42, &e1), 0);
    assert_int_equal(sb_level_dependence(d, level, NR, 0.99, 300, 42, &e2), 0);
    assert_int_equal(sb_level_dependence(d, level, NR, 0.99, 300, 43, &e3), 0);
    assert_true(e1.rho == e2.rho && e1.lo == e2.lo && e1.hi == e2.hi);
    assert_true(e1.depends == e2.depends);
    assert_true(e1.quiet.ratio == e2.quiet.ratio && e1.quiet.lo == e2.quiet.lo &&
                e1.quiet.hi == e2.quiet.hi);
    assert_true(e1.busy.ratio == e2.busy.ratio && e1.busy.lo == e2.busy.lo &&
                e1.busy.hi == e2.busy.hi);
    /* another seed moves the intervals, never the point estimates */
    assert_true(e1.rho == e3.rho && e1.quiet.ratio == e3.quiet.ratio &&
                e1.busy.ratio == e3.busy.ratio);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(levels_are_centred_per_run),
        cmocka_unit_test(the_arms_are_left_out_where_others_ran),
        cmocka_unit_test(a_ratio_that_grows_with_the_load_depends),
        cmocka_unit_test(a_ratio_without_dependence_does_not),
        cmocka_unit_test(a_monotone_ratio_by_hand),
        cmocka_unit_test(rho_is_spearmans),
        cmocka_unit_test(too_few_rounds_or_no_order),
        cmocka_unit_test(the_same_seed_gives_the_same_answer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
