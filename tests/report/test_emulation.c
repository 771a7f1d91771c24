/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_emulation.c: unit tests for issue 19's reproduction pieces, on made-up inputs only: the
 * scaling of the thread's pools to a host (plan/scaling.h) on made-up topologies (a pool keeps
 * its ratio to the L2; a scattered pool goes beyond the last level, or says it could not under
 * its cap); the emulation block (report/emulation.h) on made-up predicted MB/s (the share of
 * ln(ratio) each mechanism accounts for, the errors against the thread's figures with the
 * calibration figure marked, the emulated machine's call); and the reproduction's four columns
 * rendered from a made-up report (lib/render/reproduction.h), with "not predicted" and its
 * reason when the report has no prediction. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/scaling.h"
#include "render/reproduction.h"
#include "report/emulation.h"

#define KB 1024ull
#define MB (1024ull * 1024)
#define GB (1024ull * MB)

/* Luke's 680KB on a 1MB L2, on a host with a 2MB L2 and a 32MB L3: 0.66 x 2MB = 1360KB; his
 * scattered 16MB (16 L2s) becomes 32MB by the ratio, raised to 64MB (twice the L3), beyond. */
static void test_scale_ratio_and_scattered(void **state)
{
    struct sb_scaled_pool p;
    (void)state;

    sb_scale_pool(680 * KB, 1 * MB, false, 2 * MB, 32 * MB, "L3", 1 * GB, 8192, &p);
    assert_int_equal(p.bytes, 1360 * KB);
    assert_false(p.scattered);
    assert_non_null(strstr(p.how, "0.664 x the thread machine's L2 (1MB)"));
    sb_scale_pool(16 * MB, 1 * MB, true, 2 * MB, 32 * MB, "L3", 1 * GB, 8192, &p);
    assert_int_equal(p.bytes, 64 * MB);
    assert_true(p.beyond_llc);
    assert_non_null(strstr(p.how, "would be 32MB; scattered: 64MB"));
    /* Kirkwood's 400MB on a 512KB L2 (800 L2s) on a 1MB L2 host with a 16MB L3: 800MB kept */
    sb_scale_pool(400 * MB, 512 * KB, true, 1 * MB, 16 * MB, "L3", 1 * GB, 8192, &p);
    assert_int_equal(p.bytes, 800 * MB);
    assert_non_null(strstr(p.how, "= 800MB, beyond this host's 16MB L3"));
    /* a small pool rounds to whole pages, at least one */
    sb_scale_pool(8 * KB, 1 * MB, false, 64 * KB, 0, "L2", 1 * GB, 8192, &p);
    assert_int_equal(p.bytes, 8192);
}

/* This VM's CPUID L3 of 508MB with a 1GB cap: 1GB is beyond it; with a cap of 256MB the pool
 * cannot go beyond the L3, and the words say so. */
static void test_scale_capped(void **state)
{
    struct sb_scaled_pool p;
    (void)state;

    sb_scale_pool(16 * MB, 1 * MB, true, 1 * MB, 508 * MB, "L3", 1 * GB, 8192, &p);
    assert_int_equal(p.bytes, 1 * GB);
    assert_true(p.beyond_llc);
    sb_scale_pool(16 * MB, 1 * MB, true, 1 * MB, 508 * MB, "L3", 256 * MB, 8192, &p);
    assert_int_equal(p.bytes, 256 * MB);
    assert_false(p.beyond_llc);
    assert_non_null(strstr(p.how, "below this host's 508MB L3? NOT beyond its last level"));
    /* no L3: the L2 is the last level */
    sb_scale_pool(16 * MB, 1 * MB, true, 4 * MB, 0, "L2", 1 * GB, 8192, &p);
    assert_int_equal(p.bytes, 64 * MB);
}

/* The share of ln(ratio): all 2.0, off 1.0 -> 100%; off sqrt(2) -> 50%; off 2 -> 0; off 4 ->
 * -100% (switching it off widened the gap); a ratio within 1% of 1 has nothing to attribute. */
static void test_share(void **state)
{
    (void)state;
    assert_float_equal(sb_attribution_share(2.0, 1.0), 1.0, 1e-12);
    assert_float_equal(sb_attribution_share(2.0, sqrt(2.0)), 0.5, 1e-12);
    assert_float_equal(sb_attribution_share(2.0, 2.0), 0.0, 1e-12);
    assert_float_equal(sb_attribution_share(2.0, 4.0), -1.0, 1e-12);
    assert_float_equal(sb_attribution_share(0.5, 1.0), 1.0, 1e-12);
    assert_true(isnan(sb_attribution_share(1.0, 1.2)));
    assert_true(isnan(sb_attribution_share(1.005, 1.0)));
    assert_true(isnan(sb_attribution_share(2.0, 0.0)));
    assert_string_equal(sb_emulation_call(1.5, 0.02), "faster");
    assert_string_equal(sb_emulation_call(1.01, 0.02), "same");
    assert_string_equal(sb_emulation_call(0.9, 0.02), "slower");
}

static json_t *thread_block(void)
{
    return json_pack("{s:s, s:s, s:s, s:s, s:[{s:s, s:s, s:f}, {s:s, s:s, s:f}]}", "who",
                     "test", "machine", "x4500", "slow", "clock 16MB", "fast", "clock 680KB",
                     "figures", "op", "count", "placement", "clock 16MB", "mbps", 1000.0, "op",
                     "count", "placement", "clock 680KB", "mbps", 1500.0);
}

static json_t *prediction(const char *placement, const char *variant, double mbps)
{
    return json_pack("{s:s, s:s, s:s, s:f}", "op", "count", "placement", placement, "variant",
                     variant, "mbps", mbps);
}

/* Predicted 1000 and 2000 MB/s (ratio 2); writeback_copy off: 1000 and 1414.2 (half the log
 * ratio); footprint off: both 900 (all of it); the tlb absent. The slow figure is the
 * calibration one (no error); the fast figure's error is 2000 / 1500 - 1. */
static json_t *emulation(void)
{
    json_t *thread = thread_block(), *preds = json_array(), *e;

    json_array_append_new(preds, prediction("clock 16MB", "all", 1000.0));
    json_array_append_new(preds, prediction("clock 680KB", "all", 2000.0));
    json_array_append_new(preds, prediction("clock 16MB", "writeback_copy", 1000.0));
    json_array_append_new(preds, prediction("clock 680KB", "writeback_copy",
                                            1000.0 * sqrt(2.0)));
    json_array_append_new(preds, prediction("clock 16MB", "footprint", 900.0));
    json_array_append_new(preds, prediction("clock 680KB", "footprint", 900.0));
    json_array_append_new(preds, json_pack("{s:s, s:s}", "mechanism", "tlb", "absent",
                                           "no machine file gives a TLB"));
    e = sb_emulation_build(thread, "x4500", preds, "count clock 16MB", NULL);
    json_decref(thread);
    json_decref(preds);
    assert_non_null(e);
    return e;
}

static void test_emulation_block(void **state)
{
    json_t *e = emulation();
    const json_t *errors = json_object_get(e, "errors"), *pair, *rows;
    (void)state;

    assert_true(json_is_true(json_object_get(e, "available")));
    assert_string_equal(json_string_value(json_object_get(e, "label")), "predicted");
    assert_int_equal(json_array_size(json_object_get(e, "runs")), 2);
    assert_true(json_is_true(json_object_get(json_array_get(errors, 0), "calibration")));
    assert_true(json_is_null(json_object_get(json_array_get(errors, 0), "error")));
    assert_float_equal(json_number_value(json_object_get(json_array_get(errors, 1), "error")),
                       2000.0 / 1500.0 - 1.0, 1e-9);
    pair = json_array_get(json_object_get(e, "pairs"), 0);
    assert_float_equal(json_number_value(json_object_get(pair, "ratio_predicted")), 2.0, 1e-12);
    assert_float_equal(json_number_value(json_object_get(pair, "ratio_thread")), 1.5, 1e-12);
    assert_string_equal(json_string_value(json_object_get(pair, "call")), "faster");
    rows = json_object_get(pair, "attribution");
    assert_int_equal(json_array_size(rows), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 0), "mechanism")),
                        "writeback_copy");
    assert_float_equal(json_number_value(json_object_get(json_array_get(rows, 0), "share")),
                       0.5, 1e-9);
    assert_float_equal(json_number_value(json_object_get(json_array_get(rows, 1), "share")),
                       1.0, 1e-9);
    assert_string_equal(json_string_value(json_object_get(json_array_get(
                            json_object_get(pair, "absent"), 0), "mechanism")), "tlb");
    json_decref(e);
    e = sb_emulation_build(NULL, "x4500", NULL, NULL, "the machine has no [costs]");
    assert_false(json_is_true(json_object_get(e, "available")));
    assert_string_equal(json_string_value(json_object_get(e, "why")),
                        "the machine has no [costs]");
    json_decref(e);
}

/* A machine that could not be calibrated: its predictions are of the memory part only; no MB/s
 * is predicted (available false, no runs, no errors' predictions) but the pairs and their
 * attribution are there, labelled with their basis. */
static void test_memory_only(void **state)
{
    json_t *thread = thread_block(), *preds = json_array(), *e, *p;
    const json_t *pair;
    const double mbps[4] = {1000.0, 1500.0, 1000.0, 1000.0};
    const char *pl[4] = {"clock 16MB", "clock 680KB", "clock 16MB", "clock 680KB"};
    const char *var[4] = {"all", "all", "l2_deferral", "l2_deferral"};
    (void)state;

    for (int k = 0; k < 4; k++) {
        p = prediction(pl[k], var[k], mbps[k]);
        json_object_set_new(p, "memory_only", json_true());
        json_array_append_new(preds, p);
    }
    e = sb_emulation_build(thread, "x4500", preds, "count clock 16MB", "no core factor");
    assert_false(json_is_true(json_object_get(e, "available")));
    assert_string_equal(json_string_value(json_object_get(e, "why")), "no core factor");
    assert_int_equal(json_array_size(json_object_get(e, "runs")), 0);
    pair = json_array_get(json_object_get(e, "pairs"), 0);
    assert_non_null(strstr(json_string_value(json_object_get(pair, "basis")), "memory part only"));
    assert_float_equal(json_number_value(json_object_get(json_array_get(
                           json_object_get(pair, "attribution"), 0), "share")), 1.0, 1e-9);
    json_decref(e);
    json_decref(preds);
    json_decref(thread);
}

/* A made-up reproduced report: the thread's pair and its scaled pair (16MB -> 1GB), no
 * analysis needed for the table. */
static json_t *report(json_t *emulation_block)
{
    json_t *runs = json_array(), *thread = thread_block(), *doc;
    const char *names[3] = {"clock 16MB", "clock 680KB", "clock 1GB"};
    const json_int_t sizes[3] = {16 * MB, 680 * KB, 1 * GB};
    const double mbps[3] = {5000.0, 6000.0, 600.0};

    for (int k = 0; k < 3; k++)
        json_array_append_new(runs, json_pack(
            "{s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:{s:f}}", "name", names[k], "op", "count",
            "policy", "clock", "kernel", "memcpy", "pool_size", sizes[k], "ring_size",
            (json_int_t)0, "page_size", (json_int_t)8192, "footprint", sizes[k], "mbps",
            "median", mbps[k]));
    json_object_set_new(thread, "scaled", json_pack(
        "{s:b, s:{s:s, s:s, s:s}, s:{s:s, s:s, s:s}}", "available", 1, "slow", "thread",
        "clock 16MB", "here", "clock 1GB", "how", "scattered: 1GB", "fast", "thread",
        "clock 680KB", "here", "clock 680KB", "how", "= 680KB"));
    doc = json_pack("{s:o, s:o, s:{s:s, s:s}, s:{s:[{s:s, s:f, s:f, s:s}], s:[{s:s, s:f, s:s, "
                    "s:s}]}}", "runs", runs, "thread", thread, "experiment", "name", "test",
                    "description", "test", "verdict", "comparisons", "op", "count",
                    "ratio_here", 1.2, "ratio_thread", 1.5, "call", "faster", "scaled", "op",
                    "count", "ratio_here", 10.0, "call", "faster", "text", "scaled text");
    if (emulation_block)
        json_object_set_new(doc, "emulation", emulation_block);
    return doc;
}

static char *rendered(const json_t *doc)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    assert_non_null(out);
    sb_render_reproduction(out, doc);
    fclose(out);
    return text;
}

/* Four columns, the scaled run on its thread placement's row (no row of its own), "n/p" and
 * the reason without a prediction; with one, the predicted figures, the errors (the
 * calibration figure marked) and the attribution table. */
static void test_four_columns(void **state)
{
    json_t *doc = report(NULL);
    char *text = rendered(doc);
    (void)state;

    assert_non_null(strstr(text, "thread predicted      here    scaled"));
    assert_non_null(strstr(text, "|      1000       n/p      5000       600"));
    assert_non_null(strstr(text, "|      1500       n/p      6000      6000"));
    assert_null(strstr(text, "clock 1GB ("));
    assert_non_null(strstr(text, "|      1.50         -     1.20+    10.00+"));
    assert_non_null(strstr(text, "predicted = not predicted: no emulation"));
    assert_non_null(strstr(text, "slow clock 16MB -> clock 1GB: scattered: 1GB"));
    assert_non_null(strstr(text, "scaled text"));
    free(text);
    json_decref(doc);
    doc = report(emulation());
    text = rendered(doc);
    assert_non_null(strstr(text, "|      1000      1000      5000       600"));
    assert_non_null(strstr(text, "|      1500      2000      6000      6000"));
    assert_non_null(strstr(text, "|      1.50      2.00     1.20+    10.00+"));
    assert_non_null(strstr(text, "the calibration figure (fitted, not a prediction)"));
    assert_non_null(strstr(text, "predicted   2000: error +33.3%"));
    assert_non_null(strstr(text, "count    writeback_copy       2.000     1.414     50%"));
    assert_non_null(strstr(text, "count    footprint            2.000     1.000    100%"));
    assert_non_null(strstr(text, "tlb              no row: no machine file gives a TLB"));
    assert_non_null(strstr(text, "emulated x4500, SELECT COUNT(*): clock 680KB predicted 2.00x"));
    assert_null(strstr(text, "scanners at once"));
    free(text);
    json_decref(doc);
}

/* A thread of four scans at once: the predictions say so, with the sharing of a memory its
 * emulated runs were predicted with. */
static void test_scanners_said(void **state)
{
    json_t *doc = report(emulation()), *runs;
    char *text;
    size_t i;
    json_t *run;
    (void)state;

    json_object_set_new(json_object_get(doc, "thread"), "scanners", json_integer(4));
    runs = json_object_get(json_object_get(doc, "emulation"), "runs");
    json_array_foreach(runs, i, run)
        json_object_set_new(run, "predicted", json_pack("{s:i}", "sharing", 2));
    text = rendered(doc);
    assert_non_null(strstr(text, "for 4 scanners at once, each on a core of its own with 1/4 of "
                                 "the table, 2 sharing each memory's bandwidths"));
    free(text);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scale_ratio_and_scattered),
        cmocka_unit_test(test_scale_capped),
        cmocka_unit_test(test_share),
        cmocka_unit_test(test_emulation_block),
        cmocka_unit_test(test_memory_only),
        cmocka_unit_test(test_four_columns),
        cmocka_unit_test(test_scanners_said),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
