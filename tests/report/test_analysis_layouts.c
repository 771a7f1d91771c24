/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_analysis_layouts.c: a report's analysis with and without layouts (key layout), on a
 * synthetic report of two runs and the reference over 40 rounds whose layouts (8 rounds each)
 * move every run: without a scan naming its layout (a report from before layouts), the analysis
 * is the one-stage one, exactly sb_paired_estimate's interval and one layout; with them, exactly
 * sb_paired_estimate_layouts' two-stage interval, wider, five layouts, each run's layout medians
 * and a spread between them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "report/report.h"
#include "stats/stats.h"

#define ROUNDS 40
#define PER_LAYOUT 8
#define BYTES 8000000.0

/* MB/s of run k (0, 1; 2 the reference) in round r: layout effects of a few percent, round
 * noise of a fraction of one, run 1 5% faster. */
static double mbps_of(int k, uint32_t r)
{
    static const double layout[3][5] = {{0.03, -0.02, 0.01, -0.04, 0.02},
                                        {-0.01, 0.04, -0.03, 0.02, 0.00},
                                        {0.02, 0.01, -0.03, 0.03, -0.01}};
    double noise = 0.004 * sin(1.7 * r + k);
    return 1000.0 * (k == 1 ? 1.05 : 1.0) * exp(layout[k][r / PER_LAYOUT] + noise);
}

static json_t *scans(int k, bool with_layouts)
{
    json_t *list = json_array();
    for (uint32_t r = 0; r < ROUNDS; r++) {
        json_t *s = json_pack("{s:i, s:i, s:f, s:I}", "round", (int)r, "position", k,
                              "seconds", BYTES / (mbps_of(k, r) * 1e6), "bytes",
                              (json_int_t)BYTES);
        if (with_layouts)
            json_object_set_new(s, "layout", json_integer(r / PER_LAYOUT));
        json_array_append_new(list, s);
    }
    return list;
}

static json_t *report(bool with_layouts)
{
    return json_pack("{s:[{s:s, s:s, s:s, s:i, s:o}, {s:s, s:s, s:s, s:i, s:o}], "
                     "s:{s:{s:s, s:o}}}", "runs", "name", "a", "op", "count", "policy", "clock",
                     "footprint", 1 << 20, "scans", scans(0, with_layouts), "name", "b", "op",
                     "count", "policy", "ring", "footprint", 1 << 18, "scans",
                     scans(1, with_layouts), "schedule", "reference", "run", "a", "scans",
                     scans(2, with_layouts));
}

/* The comparison b / a as the analysis makes it, one way or the other. */
static void expected(bool with_layouts, struct sb_paired *e)
{
    double x[ROUNDS], y[ROUNDS];
    uint32_t g[ROUNDS];

    for (uint32_t r = 0; r < ROUNDS; r++) {
        x[r] = BYTES / (BYTES / (mbps_of(1, r) * 1e6)) / 1e6;
        y[r] = BYTES / (BYTES / (mbps_of(0, r) * 1e6)) / 1e6;
        g[r] = r / PER_LAYOUT;
    }
    if (with_layouts)
        sb_paired_estimate_layouts(x, y, g, ROUNDS, SB_CONFIDENCE, SB_BOOTSTRAP_RESAMPLES,
                                   SB_BOOTSTRAP_SEED + 1000, e);
    else
        sb_paired_estimate(x, y, ROUNDS, SB_CONFIDENCE, SB_BOOTSTRAP_RESAMPLES,
                           SB_BOOTSTRAP_SEED + 1000, e);
}

static void test_before_layouts(void **state)
{
    json_t *r = report(false), *a = sb_analysis_build(r);
    const json_t *c = json_array_get(json_object_get(a, "comparisons"), 0);
    struct sb_paired e;
    (void)state;

    expected(false, &e);
    assert_int_equal(json_integer_value(json_object_get(a, "layouts")), 1);
    assert_null(strstr(json_string_value(json_object_get(a, "method")), "two-stage"));
    assert_string_equal(json_string_value(json_object_get(c, "a")), "b");
    assert_true(json_number_value(json_object_get(c, "lo")) == e.lo);
    assert_true(json_number_value(json_object_get(c, "hi")) == e.hi);
    assert_true(json_is_null(json_object_get(json_array_get(json_object_get(a, "runs"), 0),
                                             "layout_spread")) ||
                !json_object_get(json_array_get(json_object_get(a, "runs"), 0),
                                 "layout_spread"));
    json_decref(a);
    json_decref(r);
}

static void test_with_layouts(void **state)
{
    json_t *r = report(true), *a = sb_analysis_build(r);
    const json_t *c = json_array_get(json_object_get(a, "comparisons"), 0);
    const json_t *run = json_array_get(json_object_get(a, "runs"), 1);
    struct sb_paired one, two;
    (void)state;

    expected(false, &one);
    expected(true, &two);
    assert_int_equal(json_integer_value(json_object_get(a, "layouts")), ROUNDS / PER_LAYOUT);
    assert_non_null(strstr(json_string_value(json_object_get(a, "method")), "two-stage"));
    assert_true(json_number_value(json_object_get(c, "lo")) == two.lo);
    assert_true(json_number_value(json_object_get(c, "hi")) == two.hi);
    assert_true(two.lo < one.lo && two.hi > one.hi); /* the layouts widen it */
    assert_int_equal(json_integer_value(json_object_get(run, "layouts")), ROUNDS / PER_LAYOUT);
    assert_int_equal(json_array_size(json_object_get(run, "layout_medians")),
                     ROUNDS / PER_LAYOUT);
    assert_int_equal(json_integer_value(json_object_get(
                         json_array_get(json_object_get(run, "layout_medians"), 2), "rounds")),
                     PER_LAYOUT);
    assert_true(json_number_value(json_object_get(run, "layout_spread")) > 0.02);
    json_decref(a);
    json_decref(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_before_layouts),
        cmocka_unit_test(test_with_layouts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
