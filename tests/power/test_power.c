/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_power.c: unit tests of the power check's parts that need no rounds, on synthetic
 * trials: the draw (the kinds take turns, a seed's coin picks the arm, the same master seed the
 * same trials), which call detects the difference and which calls it the wrong way (whole, and
 * by the host's level), each kind's summary with its Wilson interval, the sentence and
 * power.json; and the refusals before any trial (the trials' own keys, lists that do not make
 * two arms). */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "power/power.h"
#include "report/report.h"
#include "stats/stats.h"

#include "helper.h"

/* A check of per_kind trials a kind, quick's kinds (A-A, extra_copy 0.05 and 0.10). */
static void check_of(struct sb_power *pw, unsigned per_kind)
{
    memset(pw, 0, sizeof *pw);
    pw->quick = true;
    pw->per_kind = per_kind;
    sb_power_settle(pw, true);
    pw->ntrials = per_kind * (unsigned)pw->nkinds;
    pw->trials = calloc(pw->ntrials, sizeof *pw->trials);
    assert_non_null(pw->trials);
}

/* A trial of kind with the extra copy in arm (-1: A-A), called call, ratio the second's MB/s
 * over the first's, lasting seconds. */
static struct sb_power_trial trial(int kind, int arm, const char *call, double ratio,
                                   double seconds)
{
    struct sb_power_trial t;

    memset(&t, 0, sizeof t);
    t.kind = kind;
    t.arm = arm;
    snprintf(t.call, sizeof t.call, "%s", call);
    t.ratio = ratio;
    t.lo = ratio * 0.99;
    t.hi = ratio * 1.01;
    t.floor = 0.01;
    t.bound = 0.02;
    t.rounds = 10;
    t.seconds = seconds;
    return t;
}

/* The kinds take turns; A-A has no arm, the others one of the two by the seed's coin; the same
 * master seed draws the same trials; the defaults of --quick and of the full check. */
static void test_draw(void **state)
{
    struct sb_power pw;
    struct sb_power_trial a, b;
    bool arm[2] = {false, false};
    (void)state;

    check_of(&pw, 3);
    assert_int_equal(pw.nkinds, 3);
    assert_string_equal(pw.budget, "time_budget=3");
    pw.master_seed = 12345;
    for (unsigned i = 0; i < 300; i++) {
        sb_power_draw(&pw, i, &a);
        sb_power_draw(&pw, i, &b);
        assert_int_equal(a.kind, (int)(i % 3));
        assert_true(a.seed == b.seed && a.arm == b.arm);
        assert_true(a.seed < (1ull << 53));
        if (a.kind == 0)
            assert_int_equal(a.arm, -1);
        else
            arm[a.arm] = true;
    }
    assert_true(arm[0] && arm[1]);
    sb_power_draw(&pw, 1, &a);
    pw.master_seed = 12346;
    sb_power_draw(&pw, 0, &b); /* trial i's seed comes from master + i */
    assert_true(a.seed == b.seed);
    sb_power_free(&pw);
    memset(&pw, 0, sizeof pw);
    sb_power_settle(&pw, false);
    assert_int_equal(pw.per_kind, SB_POWER_TRIALS);
    assert_int_equal(pw.nkinds, 4);
    assert_string_equal(pw.sizes[1], "0.02");
}

/* Detected: the extra-copy arm called slower (second arm: "slower"; first arm: the second run
 * "faster"); called the other way it is a wrong call; by the host's level, one third finding it
 * and the other not calling against it. */
static void test_detected(void **state)
{
    struct sb_power_trial t;
    (void)state;

    t = trial(1, 1, "slower", 0.95, 1.0);
    assert_true(sb_power_detected(&t) && sb_power_called_different(&t));
    t = trial(1, 0, "faster", 1.05, 1.0);
    assert_true(sb_power_detected(&t));
    t = trial(1, 0, "slower", 0.95, 1.0); /* the wrong way */
    assert_false(sb_power_detected(&t));
    assert_true(sb_power_called_different(&t));
    t = trial(1, 1, "inconclusive", 0.99, 1.0);
    assert_false(sb_power_detected(&t) || sb_power_called_different(&t));
    snprintf(t.by_level[0], sizeof t.by_level[0], "slower");
    snprintf(t.by_level[1], sizeof t.by_level[1], "inconclusive");
    assert_true(sb_power_detected(&t));
    snprintf(t.by_level[1], sizeof t.by_level[1], "faster"); /* one third against it */
    assert_false(sb_power_detected(&t));
    assert_true(sb_power_called_different(&t));
    t = trial(0, -1, "same", 1.0, 1.0);
    assert_false(sb_power_called_different(&t));
    /* the extra-copy arm over the other: the first arm's is the inverse of the ratio */
    t = trial(1, 0, "faster", 1.25, 1.0);
    assert_near(sb_power_extra_over_clean(&t), 0.8, 1e-12);
    t = trial(1, 1, "slower", 0.8, 1.0);
    assert_near(sb_power_extra_over_clean(&t), 0.8, 1e-12);
}

/* Four synthetic trials of each kind: the shares, the wrong calls, the Wilson intervals, the
 * true ratios and the seconds, and the sentence made from them. */
static void fill(struct sb_power *pw)
{
    check_of(pw, 4);
    pw->trials[0] = trial(0, -1, "same", 1.0, 2.0);
    pw->trials[1] = trial(0, -1, "faster", 1.02, 3.0); /* a false call */
    pw->trials[2] = trial(0, -1, "inconclusive", 1.0, 2.5);
    pw->trials[3] = trial(0, -1, "same", 1.0, 2.0);
    pw->trials[4] = trial(1, 1, "slower", 0.95, 1.0);
    pw->trials[5] = trial(1, 0, "faster", 1.0 / 0.96, 2.0);
    pw->trials[6] = trial(1, 1, "inconclusive", 0.97, 3.0);
    pw->trials[7] = trial(1, 0, "slower", 1.0 / 0.95, 1.5); /* the wrong way */
    for (unsigned i = 8; i < 12; i++)
        pw->trials[i] = trial(2, (int)(i & 1), (i & 1) ? "slower" : "faster",
                              (i & 1) ? 0.9 : 1.0 / 0.9, 1.0);
    pw->done = 12;
}

static void test_summary(void **state)
{
    struct sb_power pw;
    struct sb_power_kind k;
    double lo, hi;
    (void)state;

    fill(&pw);
    sb_power_summarise(&pw, 0, &k);
    assert_int_equal(k.n, 4);
    assert_int_equal(k.hits, 1);
    assert_int_equal(k.wrong, 0);
    sb_wilson_interval(1, 4, SB_CONFIDENCE, &lo, &hi);
    assert_near(k.lo, lo, 1e-12);
    assert_near(k.hi, hi, 1e-12);
    assert_near(k.median_s, 2.25, 1e-12);
    assert_near(k.max_s, 3.0, 0.0);
    sb_power_summarise(&pw, 1, &k);
    assert_int_equal(k.hits, 2);
    assert_int_equal(k.wrong, 1);
    assert_near(k.ratio, 0.955, 1e-9); /* the median of 0.95, 0.95, 0.96, 0.97 */
    sb_power_summarise(&pw, 2, &k);
    assert_int_equal(k.hits, 4);
    assert_near(k.ratio, 0.9, 1e-9);
    sb_power_free(&pw);
}

static void test_sentence(void **state)
{
    struct sb_power pw;
    char buf[512];
    (void)state;

    fill(&pw);
    sb_power_sentence(&pw, buf, sizeof buf);
    assert_string_equal(buf, "on this host a difference of 4.5% (extra_copy 0.05) is found in "
                             "50% of runs within 3.0 s, one of 10.0% (extra_copy 0.10) in 100% "
                             "within 1.0 s; identical configurations were called different in "
                             "25% (1 of 4)");
    pw.done = 0;
    sb_power_sentence(&pw, buf, sizeof buf);
    assert_string_equal(buf, "on this host");
    sb_power_free(&pw);
}

/* power.json: every trial done, each kind with its counts and share, the sentence. */
static void test_json(void **state)
{
    struct sb_power pw;
    json_t *doc;
    (void)state;

    fill(&pw);
    doc = sb_power_json(&pw, "scanbench power --quick", "the sentence", false);
    assert_string_equal(sb_field_text(doc, "schema"), "scanbench-power");
    assert_int_equal(json_array_size(json_object_get(doc, "trials")), 12);
    assert_int_equal(json_array_size(json_object_get(doc, "kinds")), 3);
    assert_int_equal(sb_field_integer(doc, "kinds.0.called_different"), 1);
    assert_int_equal(sb_field_integer(doc, "kinds.1.detected"), 2);
    assert_int_equal(sb_field_integer(doc, "kinds.1.wrong_way"), 1);
    assert_near(sb_field_number(doc, "kinds.1.share"), 0.5, 1e-12);
    assert_string_equal(sb_field_text(doc, "trials.7.arm"), "first");
    assert_true(json_is_false(sb_field(doc, "trials.7.detected")));
    assert_true(json_is_null(sb_field(doc, "trials.0.detected")));
    assert_string_equal(sb_field_text(doc, "sentence"), "the sentence");
    assert_true(json_is_false(json_object_get(doc, "incomplete")));
    json_decref(doc);
    sb_power_free(&pw);
}

/* Before any trial: the keys the trials set are refused, and lists that make other than two
 * arms. */
static void test_refusals(void **state)
{
    struct sb_power pw;
    struct sb_error err = {0};
    (void)state;

    memset(&pw, 0, sizeof pw);
    pw.user_sets[pw.nuser++] = "extra_copy=0.2";
    sb_power_settle(&pw, false);
    assert_int_equal(sb_power_prepare(&pw, &err), SB_ERR_INPUT);
    sbtest_assert_error(&err, SB_ERR_INPUT, "--set extra_copy=0.2: power sets extra_copy "
                        "itself, in each trial (the arms)");
    sb_power_free(&pw);
    memset(&pw, 0, sizeof pw);
    pw.user_sets[pw.nuser++] = "op=count,vacuum";
    sb_power_settle(&pw, false);
    assert_int_equal(sb_power_prepare(&pw, &err), SB_ERR_INPUT);
    sbtest_assert_error(&err, SB_ERR_INPUT, "--set: a trial has two runs, its arms; the lists "
                        "of --set make 4");
    sb_power_free(&pw);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_draw),      cmocka_unit_test(test_detected),
        cmocka_unit_test(test_summary),   cmocka_unit_test(test_sentence),
        cmocka_unit_test(test_json),      cmocka_unit_test(test_refusals),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
