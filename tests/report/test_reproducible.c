/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_reproducible.c: whether two analyses of one experiment (--twice) agree: calls that
 * contradict (faster and slower; the same within one pass's threshold against an interval
 * wholly beyond it) and calls that do not (inconclusive with anything; a small difference
 * called under a low threshold against "the same" under a higher one; a schema-2 analysis
 * without thresholds, whose differing decided calls disagree); calls by the host's level,
 * third against third, and a single call against them; knees: a clear one against no drop
 * disagrees, an undecided fall agrees with anything. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "report/report.h"

/* An analysis of one comparison, count ring against clock. delta < 0: none (schema 2). */
static json_t *analysis(const char *call, double lo, double hi, double delta)
{
    json_t *c = json_pack("{s:s, s:s, s:s, s:s, s:s, s:f, s:f, s:f}", "op", "count", "a",
                          "count-ring", "b", "count-clock", "a_placement", "ring 256KB", "call",
                          call, "ratio", (lo + hi) / 2, "lo", lo, "hi", hi);
    if (delta >= 0)
        json_object_set_new(c, "delta", json_real(delta));
    return json_pack("{s:[o], s:[]}", "comparisons", c, "knees");
}

/* An analysis with one knee of count's sweep over 256KB .. 2MB: clear (between 512KB and 1MB,
 * x50 724KB) or of the given kind, without a place. */
static json_t *knee_analysis(const char *kind)
{
    bool clear = strcmp(kind, "clear") == 0;
    json_t *k = json_pack("{s:s, s:s, s:[i, i, i, i], s:s}", "op", "count", "kernel", "memcpy",
                          "pools", 262144, 524288, 1048576, 2097152, "kind", kind);
    json_object_set_new(k, "x50", clear ? json_real(741455.0) : json_null());
    json_object_set_new(k, "x50_lo", clear ? json_real(600000.0) : json_null());
    json_object_set_new(k, "x50_hi", clear ? json_real(900000.0) : json_null());
    json_object_set_new(k, "step", clear ? json_pack("{s:f, s:f, s:f}", "from", 524288.0, "to",
                                                     1048576.0, "prob", 0.9) : json_null());
    return json_pack("{s:[], s:[o]}", "comparisons", "knees", k);
}

static bool agree(json_t *a, json_t *b, char *why, size_t len)
{
    bool same = sb_reproducible(a, b, why, len);
    json_decref(a);
    json_decref(b);
    return same;
}

static void test_contradictions(void **state)
{
    char why[512];
    (void)state;

    assert_false(agree(analysis("faster", 1.05, 1.10, 0.02), analysis("slower", 0.90, 0.95, 0.02),
                       why, sizeof why));
    assert_non_null(strstr(why, "SELECT COUNT(*) ring 256KB: faster, then slower"));
    /* the same within 2%, then an interval wholly beyond 2% */
    assert_false(agree(analysis("same", 0.99, 1.01, 0.02), analysis("faster", 1.04, 1.08, 0.03),
                       why, sizeof why));
    assert_false(agree(analysis("slower", 0.90, 0.95, 0.02), analysis("same", 0.97, 1.01, 0.04),
                       why, sizeof why));
}

static void test_agreements(void **state)
{
    char why[512];
    (void)state;

    assert_true(agree(analysis("faster", 1.05, 1.10, 0.02), analysis("faster", 1.12, 1.20, 0.05),
                      why, sizeof why));
    assert_string_equal(why, "");
    assert_true(agree(analysis("faster", 1.05, 1.10, 0.02),
                      analysis("inconclusive", 0.95, 1.10, 0.02), why, sizeof why));
    /* faster by 3% [2.5%, 3.5%] under 2%, and the same within a noisier pass's 5% */
    assert_true(agree(analysis("faster", 1.025, 1.035, 0.02), analysis("same", 0.98, 1.04, 0.05),
                      why, sizeof why));
    assert_true(agree(analysis("same", 0.97, 1.04, 0.05), analysis("slower", 0.96, 0.975, 0.02),
                      why, sizeof why));
}

/* A clear knee against "no drop" contradicts; against an undecided fall it does not (the fall's
 * interval reached across 10%: undecided, as an inconclusive call). */
static void test_knees(void **state)
{
    char why[512];
    (void)state;

    assert_true(agree(knee_analysis("clear"), knee_analysis("clear"), why, sizeof why));
    assert_false(agree(knee_analysis("clear"), knee_analysis("no drop"), why, sizeof why));
    assert_true(agree(knee_analysis("clear"), knee_analysis("fall undecided"), why, sizeof why));
    assert_true(agree(knee_analysis("fall undecided"), knee_analysis("no drop"), why, sizeof why));
}

/* Contradicting calls from schedules whose A-A run ran at different speeds: the why says how far
 * the host's level moved (the median of each trace: 1000, then 800). */
static void test_level_note(void **state)
{
    json_t *a = analysis("faster", 1.05, 1.10, 0.02), *b = analysis("slower", 0.90, 0.95, 0.02);
    char why[512];
    (void)state;

    json_object_set_new(a, "noise", json_pack("{s:[[f,f],[f,f],[f,f]]}", "trace", 0.0, 990.0,
                                              1.0, 1000.0, 2.0, 1010.0));
    json_object_set_new(b, "noise", json_pack("{s:[[f,f],[f,f]]}", "trace", 0.0, 790.0, 1.0,
                                              810.0));
    assert_false(agree(a, b, why, sizeof why));
    assert_non_null(strstr(why, "faster, then slower; the host's level moved between them: the "
                                "A-A run's median MB/s 1000, then 800 (-20%)"));
}

/* Analyses of schema 2 carry no delta: decided calls that differ disagree, as they did. */
static void test_schema2(void **state)
{
    char why[512];
    (void)state;

    assert_false(agree(analysis("faster", 1.025, 1.035, -1), analysis("same", 0.98, 1.04, -1),
                       why, sizeof why));
    assert_true(agree(analysis("withheld", 1.0, 1.3, -1), analysis("faster", 1.1, 1.2, -1), why,
                      sizeof why));
}

/* An inconclusive comparison called by the host's level: its quiet and busy thirds' calls,
 * their intervals from the ratio each third names (+-2%). */
static json_t *by_level(const char *quiet, double rq, const char *busy, double rb)
{
    json_t *a = analysis("inconclusive", 0.90, 1.15, 0.02);
    json_t *c = json_array_get(json_object_get(a, "comparisons"), 0);

    json_object_set_new(c, "host_level",
                        json_pack("{s:b, s:{s:s, s:f, s:f, s:f}, s:{s:s, s:f, s:f, s:f}}",
                                  "depends", 1, "quiet", "call", quiet, "ratio", rq, "lo",
                                  rq * 0.98, "hi", rq * 1.02, "busy", "call", busy, "ratio", rb,
                                  "lo", rb * 0.98, "hi", rb * 1.02));
    json_object_set_new(c, "level_call", json_pack("{s:s, s:s}", "quiet", quiet, "busy", busy));
    return a;
}

/* Calls by the host's level compare quiet with quiet and busy with busy; a single call
 * contradicts two only where it contradicts both; an analysis called by the level has decided
 * something. */
static void test_by_level(void **state)
{
    char why[512];
    json_t *a;
    (void)state;

    assert_true(agree(by_level("slower", 0.9, "faster", 1.1), by_level("slower", 0.92, "faster",
                                                                          1.08), why, sizeof why));
    assert_false(agree(by_level("slower", 0.9, "faster", 1.1), by_level("faster", 1.05, "faster",
                                                                           1.1), why, sizeof why));
    assert_non_null(strstr(why, "SELECT COUNT(*) ring 256KB: slower when quiet, faster when busy, "
                                "then faster when quiet, faster when busy"));
    /* "the same" in a quiet third against a busy third's 10% is no contradiction: unlike states */
    assert_true(agree(by_level("same", 1.0, "faster", 1.1), by_level("same", 1.0, "faster", 1.12),
                      why, sizeof why));
    /* one pass that met a busy host only: faster agrees with -/+, slower with it too */
    assert_true(agree(analysis("faster", 1.05, 1.10, 0.02), by_level("slower", 0.9, "faster", 1.1),
                      why, sizeof why));
    assert_true(agree(by_level("slower", 0.9, "faster", 1.1), analysis("slower", 0.90, 0.95, 0.02),
                      why, sizeof why));
    /* faster against slower in both states contradicts */
    assert_false(agree(analysis("faster", 1.05, 1.10, 0.02),
                       by_level("slower", 0.9, "slower", 0.93), why, sizeof why));
    assert_non_null(strstr(why, "faster, then slower when quiet, slower when busy"));
    a = by_level("slower", 0.9, "faster", 1.1);
    assert_int_equal(sb_analysis_decided(a), 1);
    json_decref(a);
    a = analysis("inconclusive", 0.90, 1.15, 0.02);
    assert_int_equal(sb_analysis_decided(a), 0);
    json_decref(a);
}

/* A report of one schedule: its seed and its analysis (taken). */
static json_t *report_of(json_int_t seed, json_t *analysis_taken)
{
    return json_pack("{s:{s:I}, s:o}", "schedule", "seed", seed, "analysis", analysis_taken);
}

/* --twice's block (both run --twice and reproduce --twice say it from here): kept in the
 * second report, with the first's seed; vacuous only where they agree on nothing decided. */
static void test_judge(void **state)
{
    struct {
        json_t *a, *b;
        bool reproducible, vacuous;
        const char *why;
    } cases[] = {
        {analysis("faster", 1.05, 1.10, 0.02), analysis("faster", 1.12, 1.20, 0.05), true, false,
         ""},
        {analysis("inconclusive", 0.95, 1.10, 0.02), analysis("inconclusive", 0.9, 1.2, 0.02),
         true, true, ""},
        {analysis("faster", 1.05, 1.10, 0.02), analysis("slower", 0.90, 0.95, 0.02), false,
         false, "SELECT COUNT(*) ring 256KB: faster, then slower"},
    };
    (void)state;

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *first = report_of(7, cases[i].a), *second = report_of(8, cases[i].b);
        const json_t *r = sb_reproducibility_judge(first, second);

        assert_ptr_equal(r, json_object_get(second, "reproducibility"));
        assert_null(json_object_get(first, "reproducibility"));
        assert_int_equal(json_is_true(json_object_get(r, "reproducible")), cases[i].reproducible);
        assert_int_equal(json_is_true(json_object_get(r, "vacuous")), cases[i].vacuous);
        assert_int_equal(json_integer_value(json_object_get(r, "first_seed")), 7);
        if (cases[i].why[0])
            assert_non_null(strstr(json_string_value(json_object_get(r, "why")), cases[i].why));
        else
            assert_string_equal(json_string_value(json_object_get(r, "why")), "");
        json_decref(first);
        json_decref(second);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contradictions),
        cmocka_unit_test(test_agreements),
        cmocka_unit_test(test_knees),
        cmocka_unit_test(test_level_note),
        cmocka_unit_test(test_schema2),
        cmocka_unit_test(test_by_level),
        cmocka_unit_test(test_judge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
