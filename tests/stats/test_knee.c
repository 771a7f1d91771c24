/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_knee.c: unit tests for lib/stats/knee.h on hand-made curves. A noise-free sharp drop between
 * two points: CLEAR at that step, x50 at the geometric mean of its ends, a degenerate interval;
 * the same with noise: CLEAR there, x50 and its interval inside the step. A drop spread evenly
 * over two steps: CLEAR of width 2. A gradual fall with noise: UNCLEAR with three steps. Flat
 * and rising curves: NO_DROP; a 10% fall under noise: FALL_UNSURE; under 4 points, under 2 rounds or a point no round has: TOO_FEW.
 * Centring: each round multiplied by its own constant gives the same answer. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "stats/knee.h"
#include "stats/schedule.h"

#include "helper.h"

#define NP 8
#define NR 6
#define RESAMPLES 1000
#define SEED 42u
#define KB 1024.0


static void sweep_x(double *x, size_t np)
{
    for (size_t i = 0; i < np; i++)
        x[i] = (512.0 + 128.0 * i) * KB;
}

/* mbps[r * np + i] = level[i] * exp(noise * N(0, 1)) */
static void rounds_of(const double *level, size_t np, size_t nr, double noise, uint64_t seed,
                      double *mbps)
{
    struct sb_rng rng;

    sb_rng_seed(&rng, seed);
    for (size_t r = 0; r < nr; r++)
        for (size_t i = 0; i < np; i++)
            mbps[r * np + i] = level[i] * exp(noise * sb_rng_normal(&rng));
}

static void test_sharp_drop_exact(void **state)
{
    const double level[NP] = {1000, 1000, 1000, 1000, 700, 700, 700, 700};
    double x[NP], mbps[NR * NP], curve[NP];
    struct sb_knee k;
    (void)state;

    assert_string_equal(sb_knee_kind_names[SB_KNEE_CLEAR], "clear");
    assert_string_equal(sb_knee_kind_names[SB_KNEE_UNCLEAR], "no clear knee");
    assert_string_equal(sb_knee_kind_names[SB_KNEE_NO_DROP], "no drop");
    assert_string_equal(sb_knee_kind_names[SB_KNEE_TOO_FEW], "too few points");
    sweep_x(x, NP);
    rounds_of(level, NP, NR, 0.0, 1, mbps);
    assert_int_equal(sb_knee_estimate(x, NP, mbps, NR, 0.9, RESAMPLES, SEED, &k, curve), 0);
    assert_int_equal(k.kind, SB_KNEE_CLEAR);
    assert_int_equal(k.npoints, NP);
    assert_int_equal(k.nrounds, NR);
    /* centred: ln 1000 - mean = ln(1000 / 700) / 2, and minus that after the drop */
    assert_near(curve[0], log(1000.0 / 700.0) / 2.0, 1e-12);
    assert_near(curve[7], -log(1000.0 / 700.0) / 2.0, 1e-12);
    assert_near(k.fall, 1000.0 / 700.0 - 1.0, 1e-12);
    /* the crossing half way between curve[3] and curve[4]: x50 = sqrt(x[3] x[4]) */
    assert_near(k.x50, sqrt(x[3] * x[4]), 1e-6);
    assert_near(k.x50_lo, k.x50, 1e-6);
    assert_near(k.x50_hi, k.x50, 1e-6);
    assert_true(k.x50_level == 0.9);
    assert_true(k.x50_uncrossed == 0.0);
    assert_true(k.step == 3 && k.step_width == 1 && k.step_prob == 1.0);
    assert_true(k.ntop == 1 && k.top[0] == 3 && k.top_prob[0] == 1.0);
}

static void test_sharp_drop_noisy(void **state)
{
    const double level[NP] = {1000, 1000, 1000, 1000, 1000, 700, 700, 700};
    double x[NP], mbps[NR * NP];
    struct sb_knee k;
    (void)state;

    sweep_x(x, NP);
    rounds_of(level, NP, NR, 0.02, 2, mbps);
    assert_int_equal(sb_knee_estimate(x, NP, mbps, NR, 0.9, RESAMPLES, SEED, &k, NULL), 0);
    assert_int_equal(k.kind, SB_KNEE_CLEAR);
    assert_true(k.step == 4 && k.step_width == 1 && k.step_prob >= 0.8);
    assert_true(k.x50 > x[4] && k.x50 < x[5]);
    assert_true(k.x50_lo > x[4] && k.x50_hi < x[5] && k.x50_lo <= k.x50 && k.x50 <= k.x50_hi);
    assert_near(k.fall, 1000.0 / 700.0 - 1.0, 0.05);
}

/* 1000, 1000, 1000, 837, 700, ...: two equal steps in ln MB/s. With 10 rounds of 2% noise the
 * sample may still favour one (seeds 1, 3, 5 and 7 of rounds_of put 80-90% of the resamples on
 * step 2: CLEAR of width 1 there); seed 2's rounds split them 47/53: CLEAR between x[2] and x[4]
 * (width 2). Either way the knee lies within x[2] .. x[4]. */
static void test_two_step_drop(void **state)
{
    double level[NP] = {1000, 1000, 1000, 0, 700, 700, 700, 700}, x[NP], mbps[10 * NP];
    struct sb_knee k;
    (void)state;

    level[3] = sqrt(1000.0 * 700.0);
    sweep_x(x, NP);
    for (uint64_t seed = 1; seed <= 7; seed++) {
        rounds_of(level, NP, 10, 0.02, seed, mbps);
        assert_int_equal(sb_knee_estimate(x, NP, mbps, 10, 0.9, RESAMPLES, SEED, &k, NULL), 0);
        assert_int_equal(k.kind, SB_KNEE_CLEAR);
        assert_true(k.step >= 2 && k.step + k.step_width <= 4 && k.step_prob >= 0.8);
        assert_true(k.ntop == 2 && k.top[0] + k.top[1] == 5); /* steps 2 and 3 only */
        assert_true(k.x50 > x[2] && k.x50 < x[4]);
        if (seed == 2) {
            assert_true(k.step == 2 && k.step_width == 2 && k.step_prob == 1.0);
            assert_true(k.top_prob[0] < 0.8);
        }
    }
}

/* A fall of 30% spread evenly over 13 points, 2% noise: no step stands out. */
static void test_gradual_fall(void **state)
{
    double level[13], x[13], mbps[10 * 13];
    struct sb_knee k;
    (void)state;

    for (size_t i = 0; i < 13; i++)
        level[i] = 1000.0 * pow(0.7, i / 12.0);
    sweep_x(x, 13);
    rounds_of(level, 13, 10, 0.02, 4, mbps);
    assert_int_equal(sb_knee_estimate(x, 13, mbps, 10, 0.9, RESAMPLES, SEED, &k, NULL), 0);
    assert_int_equal(k.kind, SB_KNEE_UNCLEAR);
    assert_int_equal(k.ntop, 3);
    assert_true(k.top_prob[0] >= k.top_prob[1] && k.top_prob[1] >= k.top_prob[2]);
    assert_true(k.top_prob[0] + k.top_prob[1] < 0.8 + 1e-12);
    assert_true(k.x50 > x[3] && k.x50 < x[9]); /* the true x50 is x[6] */
    assert_true(k.x50_lo < k.x50 && k.x50 < k.x50_hi);
}

static void test_no_drop(void **state)
{
    const double flat[NP] = {1000, 1000, 990, 1000, 980, 975, 970, 960};
    const double rising[NP] = {500, 520, 600, 700, 800, 900, 950, 1000};
    double x[NP], mbps[NR * NP];
    struct sb_knee k;
    (void)state;

    sweep_x(x, NP);
    rounds_of(flat, NP, NR, 0.01, 5, mbps);
    assert_int_equal(sb_knee_estimate(x, NP, mbps, NR, 0.9, RESAMPLES, SEED, &k, NULL), 0);
    assert_int_equal(k.kind, SB_KNEE_NO_DROP);
    assert_true(k.fall > 0.0 && k.fall < 0.1);
    assert_true(isnan(k.x50) && isnan(k.x50_lo) && isnan(k.x50_hi));
    rounds_of(rising, NP, NR, 0.0, 5, mbps);
    assert_int_equal(sb_knee_estimate(x, NP, mbps, NR, 0.9, RESAMPLES, SEED, &k, NULL), 0);
    assert_int_equal(k.kind, SB_KNEE_NO_DROP);
    assert_near(k.fall, sqrt(500.0 * 520.0) / sqrt(950.0 * 1000.0) - 1.0, 1e-12);
}

/* A fall of 10% (1000 to 909) under 3% noise: the fall's interval reaches across 0.10, so the
 * answer is neither "no drop" nor a knee; without noise the interval is the fall itself. */
static void test_fall_undecided(void **state)
{
    const double ten[NP] = {1000, 1000, 980, 960, 940, 920, 909, 909};
    double x[NP], mbps[NR * NP];
    struct sb_knee k;
    (void)state;

    sweep_x(x, NP);
    rounds_of(ten, NP, NR, 0.03, 7, mbps);
    assert_int_equal(sb_knee_estimate(x, NP, mbps, NR, 0.9, RESAMPLES, SEED, &k, NULL), 0);
    assert_int_equal(k.kind, SB_KNEE_FALL_UNSURE);
    assert_string_equal(sb_knee_kind_names[SB_KNEE_FALL_UNSURE], "fall undecided");
    assert_true(k.fall_lo < SB_KNEE_MIN_FALL && SB_KNEE_MIN_FALL <= k.fall_hi);
    assert_true(k.fall_lo <= k.fall && k.fall <= k.fall_hi);
    assert_true(isnan(k.x50) && isnan(k.x50_lo));
    rounds_of(ten, NP, NR, 0.0, 7, mbps);
    assert_int_equal(sb_knee_estimate(x, NP, mbps, NR, 0.9, RESAMPLES, SEED, &k, NULL), 0);
    assert_near(k.fall_lo, k.fall, 1e-12);
    assert_near(k.fall_hi, k.fall, 1e-12);
}

static void test_too_few(void **state)
{
    const double level[NP] = {1000, 1000, 1000, 1000, 700, 700, 700, 700};
    double x[NP], mbps[NR * NP];
    struct sb_knee k;
    (void)state;

    sweep_x(x, NP);
    rounds_of(level, NP, NR, 0.0, 6, mbps);
    /* 3 points */
    assert_int_equal(sb_knee_estimate(x, 3, mbps, NR, 0.9, RESAMPLES, SEED, &k, NULL), 0);
    assert_int_equal(k.kind, SB_KNEE_TOO_FEW);
    assert_true(isnan(k.fall) && isnan(k.x50));
    /* one round */
    assert_int_equal(sb_knee_estimate(x, NP, mbps, 1, 0.9, RESAMPLES, SEED, &k, NULL), 0);
    assert_int_equal(k.kind, SB_KNEE_TOO_FEW);
    /* two rounds, one of them with a single point: one round kept */
    for (size_t i = 1; i < NP; i++)
        mbps[NP + i] = NAN;
    assert_int_equal(sb_knee_estimate(x, NP, mbps, 2, 0.9, RESAMPLES, SEED, &k, NULL), 0);
    assert_int_equal(k.kind, SB_KNEE_TOO_FEW);
    assert_int_equal(k.nrounds, 1);
    /* a point no round has */
    rounds_of(level, NP, NR, 0.0, 6, mbps);
    for (size_t r = 0; r < NR; r++)
        mbps[r * NP + 5] = NAN;
    assert_int_equal(sb_knee_estimate(x, NP, mbps, NR, 0.9, RESAMPLES, SEED, &k, NULL), 0);
    assert_int_equal(k.kind, SB_KNEE_TOO_FEW);
    assert_int_equal(sb_knee_estimate(x, 0, mbps, 0, 0.9, RESAMPLES, SEED, &k, NULL), 0);
    assert_int_equal(k.kind, SB_KNEE_TOO_FEW);
}

/* Each round multiplied by its own constant (host speed per round): the same curve and knee. */
static void test_centring(void **state)
{
    const double level[NP] = {1000, 1000, 1000, 1000, 1000, 700, 700, 700};
    const double factor[NR] = {1.0, 0.7, 1.3, 0.85, 2.0, 1.1};
    double x[NP], mbps[NR * NP], scaled[NR * NP], c1[NP], c2[NP];
    struct sb_knee k1, k2;
    (void)state;

    sweep_x(x, NP);
    rounds_of(level, NP, NR, 0.02, 7, mbps);
    for (size_t r = 0; r < NR; r++)
        for (size_t i = 0; i < NP; i++)
            scaled[r * NP + i] = mbps[r * NP + i] * factor[r];
    sb_knee_estimate(x, NP, mbps, NR, 0.9, RESAMPLES, SEED, &k1, c1);
    sb_knee_estimate(x, NP, scaled, NR, 0.9, RESAMPLES, SEED, &k2, c2);
    for (size_t i = 0; i < NP; i++)
        assert_near(c1[i], c2[i], 1e-12);
    assert_int_equal(k1.kind, k2.kind);
    assert_true(k1.step == k2.step && k1.step_width == k2.step_width);
    assert_near(k1.step_prob, k2.step_prob, 1e-12);
    assert_near(k1.fall, k2.fall, 1e-12);
    assert_near(k1.x50, k2.x50, 1e-3);
    assert_near(k1.x50_lo, k2.x50_lo, 1e-3);
    assert_near(k1.x50_hi, k2.x50_hi, 1e-3);
}

/* A missing scan (NaN) in some rounds: those rounds centre on the points they have. */
static void test_missing_scans(void **state)
{
    const double level[NP] = {1000, 1000, 1000, 1000, 700, 700, 700, 700};
    double x[NP], mbps[NR * NP];
    struct sb_knee k;
    (void)state;

    sweep_x(x, NP);
    rounds_of(level, NP, NR, 0.01, 8, mbps);
    mbps[0 * NP + 2] = NAN;
    mbps[3 * NP + 6] = -1.0;
    assert_int_equal(sb_knee_estimate(x, NP, mbps, NR, 0.9, RESAMPLES, SEED, &k, NULL), 0);
    assert_int_equal(k.kind, SB_KNEE_CLEAR);
    assert_true(k.step == 3 && k.step_width == 1);
    assert_int_equal(k.nrounds, NR);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sharp_drop_exact),
        cmocka_unit_test(test_sharp_drop_noisy),
        cmocka_unit_test(test_two_step_drop),
        cmocka_unit_test(test_gradual_fall),
        cmocka_unit_test(test_fall_undecided),
        cmocka_unit_test(test_no_drop),
        cmocka_unit_test(test_too_few),
        cmocka_unit_test(test_centring),
        cmocka_unit_test(test_missing_scans),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
