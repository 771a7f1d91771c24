/* SPDX-License-Identifier: BSD-3-Clause */
/* test_fit.c: the host's fit on made-up reports: predicted against measured MB/s, the median
 * error, the rank correlation and the sentence (fit.h). The Zen 4 case: a memcpy scan
 * measured at about 19 GB/s into L2-resident pools, 25 GB/s into L3-resident ones and 15 GB/s
 * beyond the L3, while the model's counts favour the small pools. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/render.h"
#include "report/report.h"
#include "helper.h"

/* A report on a host with a 32KB L1d, 1MB L2 and 32MB L3, one run per (pool KB, measured,
 * predicted) row, op none, clock. */
static json_t *made_up(const double rows[][3], size_t n)
{
    json_t *report = json_pack("{s:{s:[{s:s, s:{s:i}}, {s:s, s:{s:i}}, {s:s, s:{s:i}}]}, s:[]}",
                               "context", "caches", "level", "L1d", "size", "value", 32768,
                               "level", "L2", "size", "value", 1 << 20, "level", "L3", "size",
                               "value", 32 << 20, "runs");
    char name[64];

    for (size_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, "made-up pool_size=%gK", rows[i][0]);
        json_array_append_new(
            json_object_get(report, "runs"),
            json_pack("{s:s, s:s, s:s, s:I, s:{s:f}, s:{s:s, s:f}, s:{s:{s:s, s:s}}}", "name",
                      name, "op", "none", "policy", "clock", "footprint",
                      (json_int_t)(rows[i][0] * 1024), "mbps", "median", rows[i][1], "predicted",
                      "machine", "probe", "mbps", rows[i][2], "counters", "machine", "name",
                      "probe", "source", "geometry: the host's topology; costs: scanbench probe"));
    }
    return report;
}

static const char *fit_text(const json_t *fit)
{
    return json_string_value(json_object_get(fit, "text"));
}

/* The text report of a made-up report holds line. */
static void rendered_has(const json_t *report, const char *line)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    assert_non_null(out);
    sb_render_table(out, report);
    fclose(out);
    if (!strstr(text, line))
        fail_msg("not in the text report: \"%s\"\n%s", line, text);
    free(text);
}

/* L2 pools 19 GB/s, L3 pools 25, beyond 15; predicted 28, 22, 14. */
static void zen4_case_is_not_explained(void **state)
{
    const double rows[][3] = {
        {64, 19000, 28000},      {128, 19200, 27900},     {256, 18800, 27800},
        {2048, 25000, 22000},    {8192, 25300, 21900},    {16384, 24800, 21800},
        {131072, 15000, 14000},  {262144, 15100, 13900},
    };
    json_t *report = made_up(rows, 8), *fit = sb_fit_build(report);

    (void)state;
    assert_non_null(fit);
    assert_false(json_is_true(json_object_get(fit, "explained")));
    assert_string_equal(json_string_value(json_object_get(fit, "verdict")), "not explained");
    assert_int_equal(json_integer_value(json_object_get(fit, "n")), 8);
    assert_non_null(strstr(fit_text(fit), "not explained: L2-resident destinations are slower "
                                          "here than L3-resident ones (op none: measured 19000 "
                                          "against 25000 MB/s, predicted 27900 against 21900)"));
    /* L2 above memory in both: not named */
    assert_null(strstr(fit_text(fit), "than beyond-cache"));
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(json_object_get(fit, "runs"), 3), "resident")), "L3");
    rendered_has(report, "fit on this host: predicted MB/s (the time model, machine probe) "
                         "against measured");
    rendered_has(report, "  none     clock 2MB              L3            25000      22000     "
                         "-12%");
    rendered_has(report, fit_text(fit));
    json_decref(fit);
    json_decref(report);
}

/* Predictions 10% above every measurement, in the same order: explained; the error 0.10 and the
 * rank correlation 1. */
static void same_order_near_is_explained(void **state)
{
    const double rows[][3] = {
        {64, 20000, 22000}, {2048, 18000, 19800}, {16384, 15000, 16500}, {131072, 9000, 9900},
    };
    json_t *report = made_up(rows, 4), *fit = sb_fit_build(report);

    (void)state;
    assert_true(json_is_true(json_object_get(fit, "explained")));
    assert_float_equal(json_real_value(json_object_get(fit, "spearman")), 1, 1e-12);
    assert_float_equal(json_real_value(json_object_get(fit, "median_abs_error")), 0.10, 1e-9);
    assert_float_equal(json_real_value(json_object_get(
                           json_array_get(json_object_get(fit, "runs"), 0), "error")),
                       0.10, 1e-9);
    assert_string_equal(fit_text(fit), "explained: the model orders the 4 runs as measured "
                                       "(rank correlation 1.00) and is within a median 10% of "
                                       "their MB/s");
    json_decref(fit);
    json_decref(report);
}

/* The right order but twice the figures: not explained, by the error. */
static void same_order_far_is_not_explained(void **state)
{
    const double rows[][3] = {
        {64, 20000, 40000}, {2048, 18000, 36000}, {16384, 15000, 30000}, {131072, 9000, 18000},
    };
    json_t *report = made_up(rows, 4), *fit = sb_fit_build(report);

    (void)state;
    assert_false(json_is_true(json_object_get(fit, "explained")));
    assert_string_equal(fit_text(fit), "not explained: the predictions are a median 100% off "
                                       "(above the measured MB/s in 4 of 4 runs)");
    json_decref(fit);
    /* a host too noisy to weigh the measured side says so */
    json_object_set_new(report, "analysis", json_pack("{s:{s:b, s:f}}", "noise", "too_noisy", 1,
                                                      "bound", 0.12));
    fit = sb_fit_build(report);
    assert_string_equal(fit_text(fit), "not explained: the predictions are a median 100% off "
                                       "(above the measured MB/s in 4 of 4 runs); and the "
                                       "measured MB/s are too noisy here to weigh it (identical "
                                       "configurations could differ by 12%)");
    json_decref(fit);
    json_decref(report);
}

/* Within one group the order is wrong: no group pair to name, so the worst run is. */
static void scrambled_within_a_group_names_the_run(void **state)
{
    const double rows[][3] = {
        {64, 20000, 15000}, {128, 18000, 16000}, {256, 16000, 17000}, {512, 14000, 18000},
    };
    json_t *report = made_up(rows, 4), *fit = sb_fit_build(report);

    (void)state;
    assert_float_equal(json_real_value(json_object_get(fit, "spearman")), -1, 1e-12);
    assert_non_null(strstr(fit_text(fit), "not explained: the order differs most at none clock "
                                          "64KB: measured rank 1, predicted rank 4 of 4 (1 the "
                                          "fastest) (rank correlation -1.00)"));
    json_decref(fit);
    json_decref(report);
}

static void few_or_no_predictions(void **state)
{
    const double rows[][3] = {{64, 20000, 22000}, {2048, 18000, 19800}};
    json_t *report = made_up(rows, 2), *fit = sb_fit_build(report), *none;

    (void)state;
    assert_string_equal(json_string_value(json_object_get(fit, "verdict")), "not judged");
    assert_string_equal(fit_text(fit), "not judged: 2 runs with a prediction; the fit needs at "
                                       "least 4");
    /* an emulated machine's predictions are not this host's to fit */
    json_object_set_new(json_object_get(json_object_get(json_array_get(json_object_get(report,
                        "runs"), 1), "counters"), "machine"), "source", json_string("AMD 25112"));
    json_object_del(json_array_get(json_object_get(report, "runs"), 0), "predicted");
    none = sb_fit_build(report);
    assert_null(none);
    json_decref(fit);
    json_decref(report);
}

/* Runs that differ in kernel (a decomposition's sweep) get their kernel in the fit's rows, as in
 * the table above it: two rows "clock 64KB" would not say which is which. */
static void rows_say_what_tells_runs_apart(void **state)
{
    const double rows[][3] = {{64, 20000, 22000}, {64, 30000, 24000}};
    json_t *report = made_up(rows, 2), *runs = json_object_get(report, "runs");

    (void)state;
    json_object_set_new(json_array_get(runs, 0), "name", json_string("made-up memcpy"));
    json_object_set_new(json_array_get(runs, 0), "kernel", json_string("memcpy"));
    json_object_set_new(json_array_get(runs, 1), "name", json_string("made-up read"));
    json_object_set_new(json_array_get(runs, 1), "kernel", json_string("read"));
    rendered_has(report, "  none     clock 64KB memcpy      L2            20000      22000     "
                         "+10%");
    rendered_has(report, "  none     clock 64KB read        L2            30000      24000     "
                         "-20%");
    json_decref(report);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(zen4_case_is_not_explained),
        cmocka_unit_test(same_order_near_is_explained),
        cmocka_unit_test(same_order_far_is_not_explained),
        cmocka_unit_test(scrambled_within_a_group_names_the_run),
        cmocka_unit_test(few_or_no_predictions),
        cmocka_unit_test(rows_say_what_tells_runs_apart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
