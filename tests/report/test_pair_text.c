/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_pair_text.c: every paired comparison prints its ratio with its 95% interval, whatever its
 * call: a synthetic report of a first run, one that runs as fast (called the same) and one whose
 * rounds swing by 10% either way (inconclusive), over 12 rounds with the reference; scanbench
 * pg's "Paired by round" lines and run's "?" notes carry "1.00x [lo, hi]" as the analysis's
 * lo and hi; a run timed in one round only has no interval, null lo and hi with interval_why. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/pg.h"
#include "render/render.h"
#include "report/report.h"

#define ROUNDS 12
#define BYTES 8000000.0

/* MB/s of run k in round r: 0 the first, 1 as fast, 2 swinging by 10%, 3 (the reference)
 * the first's twin; a few tenths of a percent of noise on each. */
static double mbps_of(int k, uint32_t r)
{
    double noise = 0.003 * sin(1.7 * r + k);
    double swing = k == 2 ? (r % 2 ? 0.10 : -0.09) : 0.0;
    return 1000.0 * exp(noise + swing);
}

/* Run k's timed scans over the first `rounds` rounds. */
static json_t *scans(int k, uint32_t rounds)
{
    json_t *list = json_array();
    for (uint32_t r = 0; r < rounds; r++)
        json_array_append_new(list, json_pack("{s:i, s:i, s:f, s:I}", "round", (int)r,
                                              "position", k, "seconds",
                                              BYTES / (mbps_of(k, r) * 1e6), "bytes",
                                              (json_int_t)BYTES));
    return list;
}

static json_t *run(const char *name, int k, uint32_t rounds)
{
    return json_pack("{s:s, s:s, s:s, s:I, s:I, s:o}", "name", name, "op", "count", "policy",
                     "clock", "pool_size", (json_int_t)(k + 1) << 20, "footprint",
                     (json_int_t)(k + 1) << 20, "scans", scans(k, rounds));
}

/* The report, analysed; short: the third run timed in one round only. */
static json_t *report(bool short_third)
{
    json_t *r = json_pack("{s:[o, o, o], s:{s:{s:s, s:o}}}", "runs", run("first", 0, ROUNDS),
                          run("same", 1, ROUNDS), run("swing", 2, short_third ? 1 : ROUNDS),
                          "schedule", "reference",
                          "run", "first", "scans", scans(3, ROUNDS));
    json_object_set_new(r, "analysis", sb_analysis_build(r));
    return r;
}

static const json_t *comparison_of(const json_t *r, const char *a)
{
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(json_object_get(r, "analysis"), "comparisons"), i, c)
        if (strcmp(json_string_value(json_object_get(c, "a")), a) == 0)
            return c;
    fail_msg("no comparison of %s", a);
    return NULL;
}

/* "1.00x [0.99, 1.01]" from the comparison's own figures. */
static void interval_of(const json_t *c, char *buf, size_t len)
{
    snprintf(buf, len, "%.2fx [%.2f, %.2f]", json_number_value(json_object_get(c, "ratio")),
             json_number_value(json_object_get(c, "lo")),
             json_number_value(json_object_get(c, "hi")));
}

static char *rendered(const json_t *r, bool pg)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    assert_non_null(out);
    if (pg)
        sb_render_pg(out, r);
    else
        assert_int_equal(sb_render_table(out, r), 0);
    assert_int_equal(fclose(out), 0);
    return text;
}

/* Text holds "<interval>: <words>" for comparison c. */
static void assert_line(const char *text, const json_t *c, const char *words)
{
    char want[256];

    interval_of(c, want, sizeof want);
    snprintf(want + strlen(want), sizeof want - strlen(want), ": %s", words);
    if (!strstr(text, want))
        fail_msg("no \"%s\" in:\n%s", want, text);
}

static void test_pg_lines_carry_intervals(void **state)
{
    json_t *r = report(false);
    const json_t *same = comparison_of(r, "same"), *swing = comparison_of(r, "swing");
    char *text = rendered(r, true);
    (void)state;

    assert_string_equal(json_string_value(json_object_get(same, "call")), "same");
    assert_string_equal(json_string_value(json_object_get(swing, "call")), "inconclusive");
    assert_null(json_object_get(same, "interval_why"));
    assert_line(text, same, "the same within");
    assert_line(text, swing, "inconclusive: the interval crosses");
    free(text);
    json_decref(r);
}

static void test_run_notes_carry_intervals(void **state)
{
    json_t *r = report(false);
    char *text = rendered(r, false);
    (void)state;

    assert_line(text, comparison_of(r, "swing"), "this run could have resolved");
    free(text);
    json_decref(r);
}

static void test_no_interval_says_why(void **state)
{
    json_t *r = report(true);
    const json_t *c = comparison_of(r, "swing");
    char *text = rendered(r, true);
    (void)state;

    assert_true(json_is_null(json_object_get(c, "lo")) && json_is_null(json_object_get(c, "hi")));
    assert_non_null(strstr(json_string_value(json_object_get(c, "interval_why")), "rounds"));
    if (!strstr(text, ": no ratio: inconclusive: fewer than 2 rounds with both"))
        fail_msg("the comparison without an interval does not say so:\n%s", text);
    free(text);
    json_decref(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pg_lines_carry_intervals),
        cmocka_unit_test(test_run_notes_carry_intervals),
        cmocka_unit_test(test_no_interval_says_why),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
