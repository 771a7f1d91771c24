/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_analysis_sim.c: the acceptance test of the rounds and their statistics, on synthetic
 * timings fed through the real schedule (sb_schedule_round_order) and the real analysis
 * (estimate.h, knee.h); nothing here times the host.
 *
 * The simulated host: its log speed is a random walk over the scan slots of a run, scaled so
 * its spread over the whole run (R rounds of n scans) has an 8% standard deviation; each scan
 * has 2% independent jitter (log-normal), and 5% of scans are slowed by "steal" to 0.7 .. 0.9 of
 * their speed. The speed of slot k multiplies the scan timed k-th. Every trial has its own
 * schedule seed and host; all seeds are fixed, so the rates are the same on every run. Every
 * bootstrap uses the production count, SB_BOOTSTRAP_RESAMPLES.
 *
 * - comparisons: 4 configurations (true MB/s 1000, 1000, 1100, 1000 / 1.1, the first the
 *   reference) and the reference a second time (the A-A pair). The threshold is sb_delta(noise
 *   floor of the A-A pair: how far apart its two timings came out; a bound above
 *   SB_NOISE_FLOOR_MAX is counted as "too noisy" but withholds nothing), and the level is Bonferroni over the trial's 4 calls (the A-A pair and the
 *   three configurations against the reference). The A-A comparisons (the reference against
 *   its second timing, configuration 1 against the reference) may be called faster or slower
 *   in at most 5% of 200 trials; the 10% differences must be found in the right direction in at
 *   least 95%. A call is wrong when it points the other way, or says "the same" within a
 *   threshold smaller than the true 10%.
 *   At R = 10 the definition (median of the round differences, percentile bootstrap) finds the
 *   10% difference in 91% (faster) and 83.5% (slower) of trials, never calling it the wrong way
 *   or the same: the rest is inconclusive (19% of the trials have a bound above 5%; with the
 *   bound as the floor, as until schema 4, it found ~74%). At 98.75% and 10 rounds, the bootstrap's
 *   lower bound of a median lies near the lowest one or two round differences, so one stolen
 *   scan of the faster configuration (40% of runs have one) pulls it down and two (8.6%) put it
 *   below 1; the A-A pair's own stolen scans spread its bootstrap medians and push its bound
 *   above 5%. Other estimators tried in its place did worse (Hodges-Lehmann, a 20%
 *   trimmed mean, Tukey's biweight: 55-65% before the too-noisy rule, against the median's
 *   80%) or, dropping the rounds beyond 3 MADs first, still missed 95% (92-95%) while their 95%
 *   intervals covered the true ratio in only 84-90% of trials (the median's: 92%).
 *   So R = 10 asserts what holds (no A-A call, no wrong call) and prints the rate; R = 15,
 *   where the definition meets them, asserts both bounds.
 * - a sharp knee: 13 pool sizes 512K .. 2M in 128K steps, MB/s 30% lower from 1408K on (the
 *   step from x[6] to x[7]), R = 10: the x50 interval must reach into that step in at least 90%
 *   of 200 trials.
 * - a gradual fall: the same sweep with ln MB/s falling linearly by ln(0.7) over it, R = 10: of
 *   100 pairs of trials, at most 10% may have both say CLEAR at steps that share no step.
 * - repetitions = auto, as the runner does it (built as tests/test_analysis_auto, with
 *   SB_SIM_AUTO, outside the valgrind run: it is the same code, 20 times the arithmetic): the
 *   host runs up to 60 rounds; from round 10 the rounds stop once every comparison's interval is
 *   precise to 1% (sb_interval_precise), checked here every
 *   5 rounds (the runner checks after every round); the calls are made at the round it stopped.
 *   Both bounds of the issue must hold, over 100 trials. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "plan/plan.h"
#include "stats/estimate.h"
#include "stats/knee.h"
#include "stats/schedule.h"

#define TRIALS 200
#define ROUNDS 10
#define DRIFT_SD 0.08
#define JITTER_SD 0.02
#define STEAL_SHARE 0.05
#define MAX_ITEMS 13
#define MAX_ROUNDS 60 /* SB_AUTO_ROUNDS_MAX */
#define CMP_ITEMS 5 /* the comparisons' items: 4 configurations, the reference again */
#define KNEE_POINTS 13
#define KNEE_STEP 6 /* the sharp knee: from x[6] = 1280K to x[7] = 1408K */

struct host {
    struct sb_rng rng;
    double log_speed, step_sd;
};

static void host_start(struct host *h, uint64_t seed, size_t slots)
{
    sb_rng_seed(&h->rng, seed);
    h->log_speed = 0.0;
    h->step_sd = DRIFT_SD / sqrt((double)slots); /* the walk's spread over the run: DRIFT_SD */
}

/* The MB/s of one scan of a configuration whose true MB/s is mu, in the next slot. */
static double host_scan(struct host *h, double mu)
{
    double v;

    h->log_speed += h->step_sd * sb_rng_normal(&h->rng);
    v = mu * exp(h->log_speed + JITTER_SD * sb_rng_normal(&h->rng));
    if (sb_rng_unit(&h->rng) < STEAL_SHARE)
        v *= 0.7 + 0.2 * sb_rng_unit(&h->rng);
    return v;
}

/* mbps[r * n + i]: item i's MB/s in round r of rounds, every round in its shuffled order. */
static void run_rounds(const double *mu, uint32_t n, uint32_t rounds, uint64_t schedule_seed,
                       uint64_t host_seed, double *mbps)
{
    struct host h;
    uint32_t order[MAX_ITEMS];

    host_start(&h, host_seed, (size_t)rounds * n);
    for (uint32_t r = 0; r < rounds; r++) {
        sb_schedule_round_order(schedule_seed, r, n, order);
        for (uint32_t k = 0; k < n; k++)
            mbps[r * n + order[k]] = host_scan(&h, mu[order[k]]);
    }
}

static enum sb_call call(const double *mbps, uint32_t rounds, uint32_t a, uint32_t b,
                         double level, double delta)
{
    double x[MAX_ROUNDS], y[MAX_ROUNDS];
    struct sb_paired e;

    for (uint32_t r = 0; r < rounds; r++) {
        x[r] = mbps[r * CMP_ITEMS + a];
        y[r] = mbps[r * CMP_ITEMS + b];
    }
    assert_int_equal(sb_paired_estimate(x, y, rounds, level, SB_BOOTSTRAP_RESAMPLES,
                                        SB_BOOTSTRAP_SEED, &e), 0);
    return sb_paired_call(&e, delta);
}

/* The A-A pair's floor (analysis.noise.floor); *bound: its bound (too noisy above 5%). */
static double noise_floor(const double *mbps, uint32_t rounds, double *bound)
{
    double x[MAX_ROUNDS], y[MAX_ROUNDS];

    for (uint32_t r = 0; r < rounds; r++) {
        x[r] = mbps[r * CMP_ITEMS + 0];
        y[r] = mbps[r * CMP_ITEMS + 4];
    }
    *bound = sb_noise_bound(x, y, rounds, SB_BOOTSTRAP_RESAMPLES, SB_BOOTSTRAP_SEED);
    return sb_noise_floor(x, y, rounds);
}

static bool flagged(enum sb_call c) { return c == SB_CALL_FASTER || c == SB_CALL_SLOWER; }

/* A call of a true 10% difference (expected: its direction) that is wrong: the other way, or
 * "the same" within a threshold that the 10% exceeds. */
static bool wrong_call(enum sb_call c, enum sb_call expected, double delta)
{
    if (c == SB_CALL_SAME)
        return delta < 0.1;
    return c != expected && c != SB_CALL_INCONCLUSIVE;
}

/* counts over the trials of one number of rounds */
struct comparisons {
    unsigned noisy;             /* noise floor above SB_NOISE_FLOOR_MAX: "too noisy" */
    unsigned aa, equal, either; /* A-A pairs called faster or slower */
    unsigned faster, slower;    /* the 10% differences found in the right direction */
    unsigned inconclusive;      /* 10% faster called inconclusive ("more rounds") */
    unsigned wrong;             /* 10% differences called the other way, or the same within a
                                   threshold below 10% */
    double floor_sum;
};

/* Items: configurations 0 .. 3 (true MB/s 1000, 1000, 1100, 1000 / 1.1; 0 the reference), then
 * configuration 0 again (the A-A pair). Bonferroni over the trial's 4 calls. */
static void comparisons(uint32_t rounds, struct comparisons *c)
{
    const double mu[CMP_ITEMS] = {1000.0, 1000.0, 1100.0, 1000.0 / 1.1, 1000.0};
    const double level = sb_bonferroni_level(SB_CONFIDENCE, 4);

    memset(c, 0, sizeof *c);
    for (unsigned t = 0; t < TRIALS; t++) {
        double mbps[MAX_ROUNDS * CMP_ITEMS], floor, bound, delta;
        enum sb_call aa, equal, up, down;
        run_rounds(mu, CMP_ITEMS, rounds, 1000 + t, 0xa11ce000 + t, mbps);
        floor = noise_floor(mbps, rounds, &bound);
        delta = sb_delta(floor);
        c->floor_sum += floor;
        c->noisy += bound > SB_NOISE_FLOOR_MAX; /* a warning: the calls are still made */
        aa = call(mbps, rounds, 0, 4, level, delta);
        equal = call(mbps, rounds, 1, 0, level, delta);
        up = call(mbps, rounds, 2, 0, level, delta);
        down = call(mbps, rounds, 3, 0, level, delta);
        c->aa += flagged(aa);
        c->equal += flagged(equal);
        c->either += flagged(aa) || flagged(equal);
        c->faster += up == SB_CALL_FASTER;
        c->slower += down == SB_CALL_SLOWER;
        c->inconclusive += up == SB_CALL_INCONCLUSIVE;
        c->wrong += wrong_call(up, SB_CALL_FASTER, delta) + wrong_call(down, SB_CALL_SLOWER, delta);
    }
    printf("R = %u: A-A flagged %.1f%% (reference twice %.1f%%, equal configurations %.1f%%), "
           "10%% faster found %.1f%% (inconclusive %.1f%%), 10%% slower found %.1f%%, too noisy "
           "%.1f%%, wrong calls %u; mean noise floor %.2f%%\n", rounds, 100.0 * c->either / TRIALS,
           100.0 * c->aa / TRIALS, 100.0 * c->equal / TRIALS, 100.0 * c->faster / TRIALS,
           100.0 * c->inconclusive / TRIALS, 100.0 * c->slower / TRIALS,
           100.0 * c->noisy / TRIALS, c->wrong, 100.0 * c->floor_sum / TRIALS);
    fflush(stdout);
}

/* The scenario, R = 10: no A-A pair called, and a 10% difference never called the
 * wrong way or the same; but the definition finds it in only 83-91% (see the header): what it
 * misses is inconclusive or too noisy, i.e. more rounds. */
static void test_comparisons_10(void **state)
{
    struct comparisons c;
    (void)state;

    comparisons(10, &c);
    assert_true(c.either <= TRIALS * 5 / 100);
    assert_int_equal(c.wrong, 0);
}

/* R = 15: both bounds of the issue hold. */
static void test_comparisons_15(void **state)
{
    struct comparisons c;
    (void)state;

    comparisons(15, &c);
    assert_true(c.either <= TRIALS * 5 / 100);
    assert_true(c.faster >= TRIALS * 95 / 100);
    assert_true(c.slower >= TRIALS * 95 / 100);
    assert_int_equal(c.wrong, 0);
}

#ifdef SB_SIM_AUTO
/* The comparisons' intervals at `rounds`: all four precise to SB_AUTO_PRECISION. */
static bool settled(const double *mbps, uint32_t rounds)
{
    static const uint32_t pairs[4][2] = {{0, 4}, {1, 0}, {2, 0}, {3, 0}};
    const double level = sb_bonferroni_level(SB_CONFIDENCE, 4);

    for (int p = 0; p < 4; p++) {
        double x[MAX_ROUNDS], y[MAX_ROUNDS];
        struct sb_paired e;
        for (uint32_t r = 0; r < rounds; r++) {
            x[r] = mbps[r * CMP_ITEMS + pairs[p][0]];
            y[r] = mbps[r * CMP_ITEMS + pairs[p][1]];
        }
        assert_int_equal(sb_paired_estimate(x, y, rounds, level, SB_BOOTSTRAP_RESAMPLES,
                                            SB_BOOTSTRAP_SEED, &e), 0);
        if (!sb_interval_precise(e.lo, e.hi, SB_AUTO_PRECISION))
            return false;
    }
    return true;
}

#define AUTO_TRIALS 100
#define AUTO_MIN 10
#define AUTO_STEP 5

static void test_comparisons_auto(void **state)
{
    const double mu[CMP_ITEMS] = {1000.0, 1000.0, 1100.0, 1000.0 / 1.1, 1000.0};
    const double level = sb_bonferroni_level(SB_CONFIDENCE, 4);
    unsigned either = 0, faster = 0, slower = 0, wrong = 0, noisy = 0, rounds_sum = 0;
    (void)state;

    for (unsigned t = 0; t < AUTO_TRIALS; t++) {
        static double mbps[MAX_ROUNDS * CMP_ITEMS];
        uint32_t rounds = AUTO_MIN;
        double floor, bound;
        enum sb_call aa, equal, up, down;
        run_rounds(mu, CMP_ITEMS, MAX_ROUNDS, 5000 + t, 0xb0b0000 + t, mbps);
        while (rounds < MAX_ROUNDS && !settled(mbps, rounds))
            rounds += AUTO_STEP;
        rounds_sum += rounds;
        floor = noise_floor(mbps, rounds, &bound);
        noisy += bound > SB_NOISE_FLOOR_MAX;
        aa = call(mbps, rounds, 0, 4, level, sb_delta(floor));
        equal = call(mbps, rounds, 1, 0, level, sb_delta(floor));
        up = call(mbps, rounds, 2, 0, level, sb_delta(floor));
        down = call(mbps, rounds, 3, 0, level, sb_delta(floor));
        either += flagged(aa) || flagged(equal);
        faster += up == SB_CALL_FASTER;
        slower += down == SB_CALL_SLOWER;
        wrong += wrong_call(up, SB_CALL_FASTER, sb_delta(floor)) +
                 wrong_call(down, SB_CALL_SLOWER, sb_delta(floor));
    }
    printf("repetitions = auto: A-A flagged %.1f%%, 10%% faster found %.1f%%, 10%% slower found "
           "%.1f%%, too noisy %.1f%%, wrong calls %u; %.1f rounds on average\n",
           100.0 * either / AUTO_TRIALS, 100.0 * faster / AUTO_TRIALS,
           100.0 * slower / AUTO_TRIALS, 100.0 * noisy / AUTO_TRIALS, wrong,
           (double)rounds_sum / AUTO_TRIALS);
    fflush(stdout);
    assert_true(either <= AUTO_TRIALS * 5 / 100);
    assert_true(faster >= AUTO_TRIALS * 95 / 100);
    assert_true(slower >= AUTO_TRIALS * 95 / 100);
    assert_int_equal(wrong, 0);
}
#endif

static void sweep(double *x)
{
    for (size_t i = 0; i < KNEE_POINTS; i++)
        x[i] = (512.0 + 128.0 * i) * 1024.0;
}

static void knee_trial(const double *mu, unsigned t, uint64_t base, struct sb_knee *k)
{
    double x[KNEE_POINTS], mbps[ROUNDS * KNEE_POINTS];

    sweep(x);
    run_rounds(mu, KNEE_POINTS, ROUNDS, base + t, (base << 16) + t, mbps);
    assert_int_equal(sb_knee_estimate(x, KNEE_POINTS, mbps, ROUNDS, SB_KNEE_LEVEL,
                                      SB_BOOTSTRAP_RESAMPLES, SB_BOOTSTRAP_SEED, k, NULL), 0);
}

static void test_sharp_knee(void **state)
{
    double mu[KNEE_POINTS], x[KNEE_POINTS];
    unsigned covered = 0, clear_there = 0;
    (void)state;

    sweep(x);
    for (size_t i = 0; i < KNEE_POINTS; i++)
        mu[i] = i <= KNEE_STEP ? 1000.0 : 700.0;
    for (unsigned t = 0; t < TRIALS; t++) {
        struct sb_knee k;
        knee_trial(mu, t, 2000, &k);
        covered += k.x50_lo <= x[KNEE_STEP + 1] && k.x50_hi >= x[KNEE_STEP];
        clear_there += k.kind == SB_KNEE_CLEAR && k.step <= KNEE_STEP &&
                       k.step + k.step_width > KNEE_STEP;
    }
    printf("sharp knee: x50 interval covered the step %.1f%%, CLEAR on it %.1f%%\n",
           100.0 * covered / TRIALS, 100.0 * clear_there / TRIALS);
    fflush(stdout);
    assert_true(covered >= TRIALS * 90 / 100);
}

/* both CLEAR, at steps [step, step + width) that share no step */
static bool apart(const struct sb_knee *a, const struct sb_knee *b)
{
    return a->kind == SB_KNEE_CLEAR && b->kind == SB_KNEE_CLEAR &&
           (a->step + a->step_width <= b->step || b->step + b->step_width <= a->step);
}

static void test_gradual_fall(void **state)
{
    double mu[KNEE_POINTS];
    unsigned bad = 0, unclear = 0, clear = 0;
    (void)state;

    for (size_t i = 0; i < KNEE_POINTS; i++)
        mu[i] = 1000.0 * pow(0.7, (double)i / (KNEE_POINTS - 1));
    for (unsigned t = 0; t < TRIALS; t += 2) {
        struct sb_knee k1, k2;
        knee_trial(mu, t, 3000, &k1);
        knee_trial(mu, t + 1, 3000, &k2);
        bad += apart(&k1, &k2);
        unclear += (k1.kind == SB_KNEE_UNCLEAR) + (k2.kind == SB_KNEE_UNCLEAR);
        clear += (k1.kind == SB_KNEE_CLEAR) + (k2.kind == SB_KNEE_CLEAR);
    }
    printf("gradual fall: pairs ok %.1f%% of %d (UNCLEAR %.1f%%, CLEAR %.1f%% of trials)\n",
           100.0 - 100.0 * bad / (TRIALS / 2), TRIALS / 2, 100.0 * unclear / TRIALS,
           100.0 * clear / TRIALS);
    fflush(stdout);
    assert_true(bad <= TRIALS / 2 / 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#ifdef SB_SIM_AUTO
        cmocka_unit_test(test_comparisons_auto),
#else
        cmocka_unit_test(test_comparisons_10),
        cmocka_unit_test(test_comparisons_15),
        cmocka_unit_test(test_sharp_knee),
        cmocka_unit_test(test_gradual_fall),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
