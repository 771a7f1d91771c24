/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_compare.c: unit tests for lib/stats/mannwhitney.h, lib/report/read.h, lib/report/compare.h, the table
 * rendered from a stored report (lib/render/render.h) and the gnuplot script (lib/render/plot.h). Works on
 * the two hand-made fixtures tests/data/report-a.json and report-b.json (1MB table, op count,
 * a clock sweep and a 64KB ring in pools of 256KB and 512KB, 5 timed scans):
 *   - clock 256KB: in both; every B repetition faster than every A one (exact p = 2/252);
 *   - ring 64KB in 256KB: in both; values interleaved (U of B = 14, exact p = 212/252);
 *   - clock 512KB: only in A; ring 64KB in 512KB: only in B;
 *   - B's clock 256KB run has counter-derived figures (l2_miss_per_page null), A's are null.
 * The compare table and the rendered table are compared with golden files in tests/data. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/plot.h"
#include "render/render.h"
#include "report/compare.h"
#include "report/read.h"
#include "report/schema.h"
#include "stats/mannwhitney.h"

#include "helper.h"

/* ---- helpers ------------------------------------------------------------------------------ */

static json_t *load_fixture(const char *name)
{
    struct sb_error err = {0};
    char *path = sbtest_data_path(name);
    json_t *report = NULL;
    int status = sb_report_load(path, &report, &err);
    if (status != SB_OK)
        fail_msg("%s: %s", path, err.msg);
    free(path);
    return report;
}

/* Fails showing both texts when got differs from the golden file tests/data/NAME. */
static void assert_golden(const char *got, const char *name)
{
    char *path = sbtest_data_path(name);
    char *want = sbtest_read_file(path, NULL);
    if (strcmp(got, want) != 0)
        fail_msg("output differs from %s\n--- want:\n%s--- got:\n%s", path, want, got);
    free(want);
    free(path);
}

static size_t count_of(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void assert_contains(const char *text, const char *needle)
{
    if (!strstr(text, needle))
        fail_msg("no \"%s\" in:\n%s", needle, text);
}

/* ---- Mann-Whitney U ----------------------------------------------------------------------- */

static void test_mw_separated(void **state)
{
    static const double lo[] = {1, 2, 3, 4, 5}, hi[] = {6, 7, 8, 9, 10};
    /* 5 vs 5 fully separated: only one of the C(10,5) = 252 arrangements has U = 0 and one
     * has U = 25, so the two-sided p is 2/252 whichever side is bigger. */
    struct sb_mann_whitney r = sb_mann_whitney(lo, 5, hi, 5);
    (void)state;
    assert_true(r.exact);
    assert_true(r.u == 0.0);
    assert_near(r.p, 2.0 / 252.0, 1e-12);

    r = sb_mann_whitney(hi, 5, lo, 5);
    assert_true(r.exact);
    assert_true(r.u == 25.0);
    assert_near(r.p, 2.0 / 252.0, 1e-12);
}

static void test_mw_small_exact(void **state)
{
    static const double a[] = {1, 2, 3}, b[] = {4, 5}, c[] = {1, 3, 5}, d[] = {2, 4};
    struct sb_mann_whitney r;
    (void)state;

    /* a = {1,2,3}, b = {4,5}: no a beats a b, U = 0. Of the C(5,2) = 10 arrangements, one has
     * U = 0 (and one U = 6): p = 2 * 1/10 = 0.2. */
    r = sb_mann_whitney(a, 3, b, 2);
    assert_true(r.exact);
    assert_true(r.u == 0.0);
    assert_near(r.p, 0.2, 1e-12);
    r = sb_mann_whitney(b, 2, a, 3);
    assert_true(r.u == 6.0);
    assert_near(r.p, 0.2, 1e-12);

    /* c = {1,3,5}, d = {2,4}: 3 > 2, 5 > 2, 5 > 4: U = 3, the middle of 0..6, so
     * P(U <= 3) = P(U >= 3) = 6/10 and p = min(1, 2 * 0.6) = 1. */
    r = sb_mann_whitney(c, 3, d, 2);
    assert_true(r.exact);
    assert_true(r.u == 3.0);
    assert_near(r.p, 1.0, 1e-12);
}

static void test_mw_ties(void **state)
{
    static const double same[] = {5, 5, 5, 5, 5};
    static const double a[] = {1, 2, 2}, b[] = {2, 3, 4};
    struct sb_mann_whitney r;
    (void)state;

    /* identical samples: every pair a tie, U = 25/2, no evidence of a difference */
    r = sb_mann_whitney(same, 5, same, 5);
    assert_false(r.exact);
    assert_true(r.u == 12.5);
    assert_near(r.p, 1.0, 0.0);

    /* a = {1,2,2}, b = {2,3,4}: ties, so the normal approximation. By hand:
     *   U of a: 1 beats nothing; each 2 ties the b 2 (1/2 each): U = 1.
     *   n = m = 3, N = 6, mean = nm/2 = 4.5.
     *   one tie group (three 2s), t = 3: sum(t^3 - t) = 24.
     *   var = nm/12 * ((N + 1) - 24 / (N (N - 1))) = 0.75 * (7 - 24/30) = 0.75 * 6.2 = 4.65.
     *   z = (|U - mean| - 0.5) / sqrt(var) = 3 / 2.156386 = 1.391217.
     *   p = 2 * (1 - Phi(1.391217)) = erfc(1.391217 / sqrt 2) = 0.164160. */
    r = sb_mann_whitney(a, 3, b, 3);
    assert_false(r.exact);
    assert_true(r.u == 1.0);
    assert_near(r.p, 0.164160, 1e-6);
    /* the other side: U = 9 - 1 = 8, the same distance from the mean, the same p */
    r = sb_mann_whitney(b, 3, a, 3);
    assert_true(r.u == 8.0);
    assert_near(r.p, 0.164160, 1e-6);
}

static void test_mw_large(void **state)
{
    double a[40], b[40];
    struct sb_mann_whitney r;
    (void)state;

    for (int i = 0; i < 40; i++) {
        a[i] = i;
        b[i] = 40 + i;
    }
    /* more than 30 a side: the normal approximation, even without ties:
     * z = (800 - 0.5) / sqrt(40*40*81/12) = 7.6932, p = 1.435e-14 */
    r = sb_mann_whitney(a, 40, b, 40);
    assert_false(r.exact);
    assert_true(r.u == 0.0);
    assert_near(r.p, 1.435085e-14, 1e-18);
}

/* ---- reading reports ---------------------------------------------------------------------- */

static void test_load_good(void **state)
{
    json_t *a = load_fixture("report-a.json"), *b = load_fixture("report-b.json");
    (void)state;
    assert_string_equal(json_string_value(json_object_get(json_object_get(a, "context"), "host")),
                        "host-a");
    assert_string_equal(json_string_value(json_object_get(json_object_get(b, "context"), "host")),
                        "host-b");
    assert_int_equal(json_array_size(json_object_get(a, "runs")), 3);
    assert_int_equal(json_array_size(json_object_get(b, "runs")), 3);
    json_decref(a);
    json_decref(b);
}

struct bad_case {
    const char *file;
    const char *content; /* NULL: the first 1000 bytes of report-a.json */
    const char *want[3];
};

static void test_load_errors(void **state)
{
    char dir[256];
    char *good_path = sbtest_data_path("report-a.json");
    size_t good_len;
    char *good = sbtest_read_file(good_path, &good_len);
    json_error_t jerr;
    json_t *doc;
    char *v2, *future, *no_field, *no_median;
    (void)state;

    assert_int_equal(sbtest_scratch_make(dir, sizeof dir, "compare"), 0);
    /* the fixture (schema 1) edited: a schema this scanbench does not read; schema 2 without
     * its scans (schemas 3 and 4 read the same); run 1 without "footprint"; no median */
    doc = json_loads(good, 0, &jerr);
    assert_non_null(doc);
    json_object_set_new(doc, "schema_version", json_integer(SB_REPORT_SCHEMA_VERSION + 1));
    future = json_dumps(doc, 0);
    json_object_set_new(doc, "schema_version", json_integer(2));
    v2 = json_dumps(doc, 0);
    json_object_set_new(doc, "schema_version", json_integer(1));
    json_object_del(json_array_get(json_object_get(doc, "runs"), 1), "footprint");
    no_field = json_dumps(doc, 0);
    json_object_set_new(json_array_get(json_object_get(doc, "runs"), 1), "footprint",
                        json_integer(65536));
    json_object_del(json_object_get(json_array_get(json_object_get(doc, "runs"), 2), "mbps"),
                    "median");
    no_median = json_dumps(doc, 0);
    json_decref(doc);
    assert_non_null(v2);
    assert_non_null(future);
    assert_non_null(no_field);
    assert_non_null(no_median);
    assert_true(good_len > 1000);
    {
        const struct bad_case cases[] = {
            {"notjson.json", "this is not JSON\n", {"not a scanbench report", NULL}},
            {"truncated.json", NULL, {"truncated", NULL}},
            {"empty.json", "", {"empty (not a scanbench report)", NULL}},
            {"other.json", "{\"name\": \"x\", \"runs\": []}\n", {"no \"schema\"", NULL}},
            {"array.json", "[1, 2, 3]\n", {"not a scanbench report", NULL}},
            {"future.json", future, {"version 5", "versions 1 to 4", NULL}},
            {"v2.json", v2, {"run 0", "\"scans\" missing", NULL}},
            {"nofield.json", no_field, {"run 1", "\"footprint\"", NULL}},
            {"nomedian.json", no_median, {"run 2", "median", NULL}},
            {"missing.json", "", {"cannot read", NULL}}, /* not written */
        };
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            char path[320];
            struct sb_error err = {0};
            json_t *report = (json_t *)1;
            FILE *f;

            snprintf(path, sizeof path, "%s/%s", dir, cases[c].file);
            if (strcmp(cases[c].file, "missing.json") != 0) {
                f = fopen(path, "w");
                assert_non_null(f);
                if (cases[c].content)
                    fputs(cases[c].content, f);
                else
                    fwrite(good, 1, 1000, f);
                assert_int_equal(fclose(f), 0);
            }
            if (sb_report_load(path, &report, &err) != SB_ERR_INPUT)
                fail_msg("%s: loaded, or not as bad input", cases[c].file);
            assert_null(report);
            assert_int_equal(err.status, SB_ERR_INPUT);
            if (!strstr(err.msg, path))
                fail_msg("%s: message does not name the file: %s", cases[c].file, err.msg);
            assert_null(strchr(err.msg, '\n'));
            for (int w = 0; cases[c].want[w]; w++)
                if (!strstr(err.msg, cases[c].want[w]))
                    fail_msg("%s: no \"%s\" in: %s", cases[c].file, cases[c].want[w], err.msg);
            unlink(path);
        }
    }
    assert_int_equal(rmdir(dir), 0);
    free(v2);
    free(future);
    free(no_field);
    free(no_median);
    free(good);
    free(good_path);
}

/* ---- compare ------------------------------------------------------------------------------ */

struct reports {
    json_t *r[3];
};

static int setup_reports(void **state)
{
    static struct reports fx;
    fx.r[0] = load_fixture("report-a.json");
    fx.r[1] = load_fixture("report-b.json");
    fx.r[2] = NULL;
    *state = &fx;
    return 0;
}

static int teardown_reports(void **state)
{
    struct reports *fx = *state;
    for (int i = 0; i < 3; i++)
        json_decref(fx->r[i]);
    return 0;
}

static const char *const fixture_paths[] = {"report-a.json", "report-b.json", "report-a.json"};

static double median_of(const json_t *report, size_t run)
{
    return json_number_value(json_object_get(
        json_object_get(json_array_get(json_object_get(report, "runs"), run), "mbps"), "median"));
}

static const json_t *at(const json_t *o, const char *k1, const char *k2)
{
    const json_t *v = json_object_get(o, k1);
    return k2 ? json_object_get(v, k2) : v;
}

static void test_compare_build(void **state)
{
    struct reports *fx = *state;
    json_t *doc = sb_compare_build(fx->r, fixture_paths, 2);
    const json_t *pairs, *p, *c, *unmatched;

    assert_non_null(doc);
    assert_string_equal(json_string_value(at(doc, "schema", NULL)), "scanbench-compare");
    assert_int_equal(json_integer_value(at(doc, "schema_version", NULL)), 2);
    assert_near(json_real_value(at(doc, "alpha", NULL)), 0.05, 0.0);
    assert_int_equal(json_array_size(at(doc, "reports", NULL)), 2);
    assert_string_equal(json_string_value(at(json_array_get(at(doc, "reports", NULL), 1), "host",
                                             NULL)), "host-b");
    assert_string_equal(json_string_value(at(json_array_get(at(doc, "reports", NULL), 0), "date",
                                             NULL)), "2025-03-01T10:00:00Z");

    pairs = at(doc, "pairs", NULL);
    assert_int_equal(json_array_size(pairs), 2);

    /* clock 256KB: A run 0 against B run 2; every B scan faster */
    p = json_array_get(pairs, 0);
    assert_string_equal(json_string_value(at(p, "a", "name")), "fixture pool_size=256K policy=clock");
    assert_string_equal(json_string_value(at(p, "b", "name")), "fixture pool_size=256K policy=clock");
    assert_int_equal(json_integer_value(at(p, "b", "report")), 1);
    assert_string_equal(json_string_value(at(p, "parameters", "policy")), "clock");
    assert_int_equal(json_integer_value(at(p, "parameters", "footprint")), 262144);
    assert_int_equal(json_integer_value(at(p, "parameters", "pool_size")), 262144);
    assert_int_equal(json_object_size(at(p, "parameters", NULL)), 12);
    assert_true(json_real_value(at(p, "a", "median")) == median_of(fx->r[0], 0));
    assert_true(json_real_value(at(p, "b", "median")) == median_of(fx->r[1], 2));
    assert_true(json_real_value(at(p, "ratio", NULL)) ==
                median_of(fx->r[1], 2) / median_of(fx->r[0], 0));
    assert_near(json_real_value(at(p, "ratio", NULL)), 1.6, 1e-12);
    assert_near(json_real_value(at(p, "p", NULL)), 2.0 / 252.0, 1e-12);
    assert_true(json_is_true(at(p, "exact", NULL)));
    assert_true(json_is_true(at(p, "significant", NULL)));
    /* counters: A has none, B three of four (l2_miss_per_page null in both: left out) */
    c = at(p, "counters", NULL);
    assert_int_equal(json_object_size(c), 3);
    assert_null(json_object_get(c, "l2_miss_per_page"));
    assert_true(json_is_null(at(c, "l2_writeback_per_page", "a")));
    assert_near(json_number_value(at(c, "l2_writeback_per_page", "b")), 65.0, 0.0);
    assert_true(json_is_null(at(c, "l2_writeback_per_page", "difference")));
    assert_true(json_is_null(at(c, "mem_read_bytes_per_table_byte", "a")));
    assert_near(json_number_value(at(c, "mem_read_bytes_per_table_byte", "b")), 2.0, 0.0);
    assert_true(json_is_null(at(c, "mem_write_bytes_per_table_byte", "difference")));
    assert_near(json_number_value(at(c, "mem_write_bytes_per_table_byte", "b")), 1.5, 0.0);

    /* ring 64KB in 256KB: interleaved, U of B = 14, p = 2 * P(U >= 14) = 2 * 106/252 */
    p = json_array_get(pairs, 1);
    assert_string_equal(json_string_value(at(p, "a", "name")), "fixture pool_size=256K policy=ring");
    assert_string_equal(json_string_value(at(p, "b", "name")), "fixture pool_size=256K policy=ring");
    assert_int_equal(json_integer_value(at(p, "parameters", "footprint")), 65536);
    assert_near(json_real_value(at(p, "ratio", NULL)), 25600.0 / 25000.0, 1e-12);
    assert_near(json_real_value(at(p, "p", NULL)), 212.0 / 252.0, 1e-12);
    assert_true(json_is_true(at(p, "exact", NULL)));
    assert_true(json_is_false(at(p, "significant", NULL)));
    assert_int_equal(json_object_size(at(p, "counters", NULL)), 0);

    /* the runs with no partner: B's first, then A's */
    unmatched = at(doc, "unmatched", NULL);
    assert_int_equal(json_array_size(unmatched), 2);
    assert_int_equal(json_integer_value(at(json_array_get(unmatched, 0), "report", NULL)), 1);
    assert_string_equal(json_string_value(at(json_array_get(unmatched, 0), "name", NULL)),
                        "fixture pool_size=512K policy=ring");
    assert_int_equal(json_integer_value(at(json_array_get(unmatched, 1), "report", NULL)), 0);
    assert_string_equal(json_string_value(at(json_array_get(unmatched, 1), "name", NULL)),
                        "fixture pool_size=512K policy=clock");
    json_decref(doc);
}

static void test_compare_counter_difference(void **state)
{
    struct reports *fx = *state;
    json_t *a = json_deep_copy(fx->r[0]);
    json_t *reports[2] = {a, fx->r[1]};
    json_t *doc;
    const json_t *c;

    /* give A's clock 256KB run a write-back figure: the difference is B - A */
    json_object_set_new(json_object_get(json_object_get(json_array_get(json_object_get(a, "runs"),
                                                                       0), "counters"), "derived"),
                        "l2_writeback_per_page", json_real(60.0));
    doc = sb_compare_build(reports, fixture_paths, 2);
    c = at(json_array_get(json_object_get(doc, "pairs"), 0), "counters", NULL);
    assert_near(json_number_value(at(c, "l2_writeback_per_page", "a")), 60.0, 0.0);
    assert_near(json_number_value(at(c, "l2_writeback_per_page", "difference")), 5.0,
                        0.0);
    assert_true(json_is_null(at(c, "mem_read_bytes_per_table_byte", "difference")));
    json_decref(doc);
    json_decref(a);
}

static void test_compare_three(void **state)
{
    struct reports *fx = *state;
    json_t *reports[3] = {fx->r[0], fx->r[1], fx->r[0]};
    json_t *doc = sb_compare_build(reports, fixture_paths, 3);
    const json_t *pairs = json_object_get(doc, "pairs"), *p;

    /* A against B (2 pairs), then A against itself (3 pairs): equal samples, all ties */
    assert_int_equal(json_array_size(pairs), 5);
    for (size_t i = 2; i < 5; i++) {
        p = json_array_get(pairs, i);
        assert_int_equal(json_integer_value(at(p, "b", "report")), 2);
        assert_near(json_real_value(at(p, "ratio", NULL)), 1.0, 0.0);
        assert_near(json_real_value(at(p, "p", NULL)), 1.0, 0.0);
        assert_true(json_is_false(at(p, "exact", NULL)));
        assert_true(json_is_false(at(p, "significant", NULL)));
    }
    /* every A run has a partner in the third report; B's extra run has none */
    assert_int_equal(json_array_size(json_object_get(doc, "unmatched")), 1);
    json_decref(doc);
}

/* The comparison as compare prints it (a malloc'd string). */
static char *compare_text(const json_t *doc)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    assert_non_null(out);
    sb_compare_render(out, doc);
    assert_int_equal(fclose(out), 0);
    return text;
}

/* The report's table as run prints it (a malloc'd string). */
static char *table_text(const json_t *report)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    assert_non_null(out);
    assert_int_equal(sb_render_table(out, report), 0);
    assert_int_equal(fclose(out), 0);
    return text;
}

static void test_compare_render(void **state)
{
    struct reports *fx = *state;
    json_t *doc = sb_compare_build(fx->r, fixture_paths, 2);
    char *text = compare_text(doc);

    assert_contains(text, "A = report-a.json (host host-a, AMD EPYC 7B13, 2025-03-01T10:00:00Z)");
    assert_contains(text, "count clock 256KB memcpy table 1MB");
    assert_contains(text, "count ring 64KB in 256KB memcpy table 1MB");
    assert_contains(text, "   1.600 [1.250, 2.500] +   0.0079 *\n");
    assert_contains(text, "   1.024 [0.512, 2.048] ?   0.8413 ~\n");
    assert_contains(text, "A n/a  X 65.000");
    assert_contains(text, "runs with no partner:\n  B: fixture pool_size=512K policy=ring\n"
                          "  A: fixture pool_size=512K policy=clock\n");
    assert_golden(text, "compare-ab.txt");
    free(text);
    json_decref(doc);
}

/* An inconclusive comparison's line names its sides as their columns are labelled (here the
 * pool sizes tell the two clock runs apart), not by placement alone, and carries its ratio and
 * interval; a side the report has no run of falls back to the comparison's placement. */
static void test_render_undecided_labels(void **state)
{
    struct reports *fx = *state;
    json_t *r = json_deep_copy(fx->r[0]);
    char *text;

    json_object_set_new(
        r, "analysis",
        json_pack("{s:b, s:[{s:s, s:s, s:s, s:s, s:s, s:s, s:f, s:i, s:f, s:f, s:f}, "
                  "{s:s, s:s, s:s, s:s, s:s, s:s, s:f, s:i}]}",
                  "available", 1, "comparisons", "op", "count", "a",
                  "fixture pool_size=512K policy=clock", "b",
                  "fixture pool_size=256K policy=clock", "a_placement", "PA", "b_placement", "PB",
                  "call", "inconclusive", "resolvable", 0.05, "rounds", 5, "ratio", 1.01, "lo",
                  0.97, "hi", 1.05, "op", "count", "a",
                  "no such run", "b", "fixture pool_size=256K policy=clock", "a_placement", "PA",
                  "b_placement", "PB", "call", "inconclusive", "resolvable", 0.05, "rounds", 5));
    text = table_text(r);
    assert_contains(text, "\"?\" SELECT COUNT(*), clock 512KB / clock 256KB: 1.01x [0.97, 1.05]: "
                          "this run could have resolved a difference of 5.0% (5 rounds, more "
                          "time: --set time_budget=S)");
    assert_contains(text, "\"?\" SELECT COUNT(*), PA / clock 256KB: no ratio: this run");
    free(text);
    /* rounds stopped at repetitions = auto's most: more time would not add any */
    if (!json_is_object(json_object_get(r, "schedule")))
        json_object_set_new(r, "schedule", json_object());
    json_object_set_new(json_object_get(r, "schedule"), "stopped_by", json_string("max_rounds"));
    text = table_text(r);
    assert_contains(text, "(5 rounds, the most a report holds; a quieter host narrows it)");
    free(text);
    json_decref(r);
}

/* Issue 24: how each report's rounds went (floor, rounds, contention, the comparisons that
 * depend on the host's level), a note when the reports ran beside different aggressors, and
 * one under a pair whose sides timed slices in one and whole passes in the other. A report
 * without these fields (the fixtures, schema 1) says none of it (the golden text above). */
static void test_compare_rounds_fields(void **state)
{
    struct reports *fx = *state;
    json_t *r[2] = {json_deep_copy(fx->r[0]), json_deep_copy(fx->r[1])}, *doc, *rep, *run;
    char *text;
    size_t i;

    json_object_set_new(r[0], "analysis",
                        json_pack("{s:{s:f}, s:[{s:s, s:s, s:s, s:{s:b}}, {s:s, s:s, s:s, "
                                  "s:{s:b}}]}",
                                  "noise", "floor", 0.034, "comparisons", "op", "count",
                                  "a_placement", "ring 64KB", "b_placement", "clock 256KB",
                                  "host_level", "depends", 1, "op", "vacuum", "a_placement",
                                  "ring 64KB", "b_placement", "clock 256KB", "host_level",
                                  "depends", 0));
    json_object_set_new(r[0], "schedule", json_pack("{s:i, s:{s:s}}", "rounds", 48,
                                                    "contention", "kind", "none"));
    json_object_set_new(r[1], "schedule", json_pack("{s:i, s:{s:s}}", "rounds", 200,
                                                    "contention", "kind", "stream"));
    json_array_foreach(json_object_get(r[1], "runs"), i, run)
        json_object_set_new(run, "slice", json_pack("{s:i}", "pages", 16));
    doc = sb_compare_build(r, fixture_paths, 2);
    rep = json_array_get(json_object_get(doc, "reports"), 0);
    assert_true(json_number_value(json_object_get(rep, "noise_floor")) == 0.034);
    assert_int_equal(json_integer_value(json_object_get(rep, "rounds")), 48);
    assert_string_equal(json_string_value(json_object_get(rep, "contention")), "none");
    assert_int_equal(json_array_size(json_object_get(rep, "level_dependent")), 1);
    rep = json_array_get(json_object_get(doc, "reports"), 1);
    assert_true(json_is_null(json_object_get(rep, "noise_floor")));
    assert_int_equal(json_array_size(json_object_get(rep, "level_dependent")), 0);
    assert_true(json_is_null(at(json_array_get(json_object_get(doc, "pairs"), 0), "slice_pages",
                                "a")));
    assert_int_equal(json_integer_value(at(json_array_get(json_object_get(doc, "pairs"), 0),
                                           "slice_pages", "b")), 16);

    text = compare_text(doc);
    assert_contains(text, "2025-03-01T10:00:00Z)\n    48 rounds, noise floor 3.4%, contention "
                          "none; depends on the host's level: count ring 64KB / clock 256KB\n");
    assert_contains(text, "2025-03-02T11:30:00Z)\n    200 rounds, contention stream\n");
    assert_contains(text, "the reports ran beside different aggressors (contention)");
    assert_contains(text, "\n    timed units: A whole passes, X slices\n");
    assert_int_equal(count_of(text, "timed units"), 2); /* both pairs */
    free(text);
    json_decref(doc);
    json_decref(r[0]);
    json_decref(r[1]);
}

/* Issue 15, item 10: runs without repetitions have no test (p null, "n/a", not 1.0000); a
 * median of 1e308 MB/s is shown in %g form, not in 309 digits; a ratio past the largest double
 * is null. */
static void test_compare_odd_values(void **state)
{
    struct reports *fx = *state;
    json_t *b = json_deep_copy(fx->r[1]), *reports[2] = {fx->r[0], b};
    json_t *runs = json_object_get(b, "runs"), *run, *doc;
    char *text;
    size_t i;

    json_array_foreach(runs, i, run)
        json_object_set_new(run, "repetitions", json_array());
    json_object_set_new(json_object_get(json_array_get(runs, 2), "mbps"), "median",
                        json_real(1e308));
    json_object_set_new(json_object_get(json_array_get(json_object_get(fx->r[0], "runs"), 0),
                                        "mbps"), "median", json_real(1e-300));
    doc = sb_compare_build(reports, fixture_paths, 2);
    assert_int_equal(json_array_size(json_object_get(doc, "pairs")), 2);
    json_array_foreach(json_object_get(doc, "pairs"), i, run) {
        assert_true(json_is_null(json_object_get(run, "p")));
        assert_true(json_is_false(json_object_get(run, "significant")));
    }
    assert_true(json_is_null(json_object_get(json_array_get(json_object_get(doc, "pairs"), 0),
                                             "ratio")));
    text = compare_text(doc);
    assert_contains(text, "     n/a ~\n");
    assert_null(strstr(text, "1.0000"));
    assert_contains(text, " 1e+308 ");
    assert_contains(text, "p n/a: a run without repetitions has nothing to test.\n");
    for (const char *line = text; *line; line = strchr(line, '\n') + 1)
        assert_true(strchr(line, '\n') - line < 120);
    free(text);
    json_decref(doc);
    json_decref(b);
}

/* ---- the table and the plot script -------------------------------------------------------- */

static void test_render_stored(void **state)
{
    struct reports *fx = *state;
    char *text = table_text(fx->r[0]);

    assert_golden(text, "report-a.table");
    free(text);
}

static char *plot_script(const json_t *report, const char *output, int want)
{
    char *text = NULL;
    size_t len = 0;
    struct sb_error err = {0};
    FILE *out = open_memstream(&text, &len);

    assert_non_null(out);
    assert_int_equal(sb_plot_script(out, report, output, &err), want);
    assert_int_equal(fclose(out), 0);
    if (want != SB_OK) {
        assert_int_equal(err.status, want);
        if (!strstr(err.msg, output))
            fail_msg("message does not name %s: %s", output, err.msg);
    }
    return text;
}

static void test_plot_script(void **state)
{
    struct reports *fx = *state;
    char *text;

    /* A: two lines (clock at 256KB and 512KB, ring at 64KB), three known caches, no counters */
    text = plot_script(fx->r[0], "out/a.png", SB_OK);
    assert_contains(text, "set terminal pngcairo");
    assert_contains(text, "set output 'out/a.png'\n");
    assert_contains(text, "set logscale x 2\n");
    assert_contains(text, "set label 'L1d' at 32768,");
    assert_contains(text, "set label 'L2' at 524288,");
    assert_contains(text, "set label 'L3' at 33554432,");
    assert_int_equal(count_of(text, "set label '"), 3);
    assert_int_equal(count_of(text, "set arrow from "), 3);
    /* x range from the smallest mark (L1d) to the largest (L3), widened 1.5 times each way */
    assert_contains(text, "set xrange [21845.3:5.03316e+07]\n");
    assert_int_equal(count_of(text, "<< EOD\n"), 2);
    assert_contains(text, "$mbps0 << EOD\n262144 10000 10000 10000\n524288 15625 15625 "
                          "15625\nEOD\n");
    assert_contains(text, "$mbps1 << EOD\n65536 25000 25000 25000\nEOD\n");
    assert_contains(text, "title 'count clock memcpy'");
    assert_contains(text, "title 'count ring memcpy'");
    assert_contains(text, "scanbench fixture on host-a (AMD EPYC 7B13)' noenhanced\n");
    assert_null(strstr(text, "multiplot"));
    free(text);

    /* a report that says how its rounds went: the title says it too */
    {
        json_t *r = json_deep_copy(fx->r[0]);
        json_object_set_new(r, "schedule", json_pack("{s:i, s:{s:s}}", "rounds", 48,
                                                     "contention", "kind", "stream"));
        json_object_set_new(r, "analysis", json_pack("{s:{s:f}}", "noise", "floor", 0.022));
        text = plot_script(r, "t.png", SB_OK);
        assert_contains(text, "scanbench fixture on host-a (AMD EPYC 7B13), 48 rounds, noise "
                              "floor 2.2%, beside a stream aggressor' noenhanced\n");
        free(text);
        json_decref(r);
    }

    /* B: L3 unknown (no mark), counters in one run: a second plot from 3 more blocks a line */
    text = plot_script(fx->r[1], "b.svg", SB_OK);
    assert_contains(text, "set terminal svg");
    assert_null(strstr(text, "pngcairo"));
    assert_contains(text, "set logscale x 2\n");
    assert_contains(text, "set label 'L1d' at 49152,");
    assert_contains(text, "set label 'L2' at 1310720,");
    assert_null(strstr(text, "'L3'"));
    assert_int_equal(count_of(text, "set label '"), 2);
    assert_int_equal(count_of(text, "<< EOD\n"), 12);
    /* B's series: its two ring runs (64KB rings in pools of 256KB and 512KB) are one line each,
     * titled with the pool, not two points at 64KB of one line; then clock at 256KB */
    assert_contains(text, "$mbps0 << EOD\n65536 25600 25600 25600\nEOD\n");
    assert_contains(text, "$mbps1 << EOD\n65536 25000 25000 25000\nEOD\n");
    assert_contains(text, "title 'count ring memcpy pool_size=256KB', $mbps1 using 1:2:3:4 with "
                          "yerrorlines title 'count ring memcpy pool_size=512KB', $mbps2");
    assert_contains(text, "$mbps2 << EOD\n262144 16000 16000 16000\nEOD\n");
    assert_contains(text, "$wb0 << EOD\nEOD\n");
    assert_contains(text, "$wb2 << EOD\n262144 65\nEOD\n");
    assert_contains(text, "$rd2 << EOD\n262144 16384\nEOD\n");
    assert_contains(text, "$wr2 << EOD\n262144 12288\nEOD\n");
    assert_contains(text, "set multiplot layout 2,1\n");
    assert_contains(text, "unset multiplot\n");
    /* the counters plot draws only lines with points: the ring series (0, 1) have none */
    assert_contains(text, "\nplot $wb2 using 1:2 with linespoints title 'count clock memcpy: L2 "
                          "write-backs', $rd2 using");
    assert_contains(text, "$wr2 using 1:2 axes x1y2");
    assert_null(strstr(text, "$wb0 using"));
    assert_null(strstr(text, "$rd1 using"));
    free(text);

    /* no run could read the write-backs: no write-back line at all (gnuplot fails on an axis
     * whose every line is empty), the memory bytes still drawn */
    {
        json_t *b = json_deep_copy(fx->r[1]);
        json_object_set_new(json_object_get(json_object_get(json_array_get(
                                json_object_get(b, "runs"), 2), "counters"), "derived"),
                            "l2_writeback_per_page", json_null());
        text = plot_script(b, "b.svg", SB_OK);
        assert_contains(text, "set multiplot layout 2,1\n");
        assert_contains(text, "\nplot $rd2 using 1:2 axes x1y2");
        assert_null(strstr(text, "$wb2 using"));
        free(text);
        json_decref(b);
    }

    /* neither .png nor .svg: refused, nothing written */
    text = plot_script(fx->r[0], "a.jpg", SB_ERR_INPUT);
    assert_string_equal(text, "");
    free(text);
    text = plot_script(fx->r[0], "png", SB_ERR_INPUT);
    assert_string_equal(text, "");
    free(text);
}

/* A copy of report A's runs, each once per value of key (integers), or with field set. */
static json_t *with_runs(const json_t *report, const char *key, const json_int_t *values,
                         size_t nvalues)
{
    json_t *copy = json_deep_copy(report), *runs = json_array(), *run;
    size_t i;

    json_array_foreach(json_object_get(report, "runs"), i, run) {
        for (size_t v = 0; v < nvalues; v++) {
            json_t *r = json_deep_copy(run);
            json_object_set_new(r, key, json_integer(values[v]));
            json_array_append_new(runs, r);
        }
    }
    json_object_set_new(copy, "runs", runs);
    return copy;
}

/* Issue 15, item 9: one line per op, policy, kernel and value of every other key that varies
 * (table_size=4M,8M gave two points at each pool size, a zig-zag); no cap on lines or points;
 * a report with no runs, or two runs on one point, refused with a message. */
static void test_plot_lines(void **state)
{
    struct reports *fx = *state;
    const json_int_t tables[] = {4 << 20, 8 << 20};
    json_t *r = with_runs(fx->r[0], "table_size", tables, 2), *runs;
    struct sb_error err = {0};
    char *text;

    text = plot_script(r, "t.png", SB_OK);
    assert_int_equal(count_of(text, "<< EOD\n"), 4);
    assert_contains(text, "$mbps0 << EOD\n262144 10000 10000 10000\n524288 15625 15625 "
                          "15625\nEOD\n");
    assert_contains(text, "title 'count clock memcpy table_size=4MB'");
    assert_contains(text, "title 'count clock memcpy table_size=8MB'");
    assert_contains(text, "title 'count ring memcpy table_size=4MB'");
    free(text);
    json_decref(r);

    /* 300 pool sizes on one line, 100 seeds: every point and every line drawn */
    {
        json_int_t pools[300], seeds[100];
        json_t *one = json_deep_copy(fx->r[0]), *run;
        size_t i;
        json_array_remove(json_object_get(one, "runs"), 2);
        json_array_remove(json_object_get(one, "runs"), 1); /* clock 256KB alone */
        for (size_t p = 0; p < 300; p++)
            pools[p] = (json_int_t)(p + 1) * 8192;
        r = with_runs(one, "pool_size", pools, 300);
        json_array_foreach(json_object_get(r, "runs"), i, run)
            json_object_set(run, "footprint", json_object_get(run, "pool_size"));
        text = plot_script(r, "p.png", SB_OK);
        assert_int_equal(count_of(text, "<< EOD\n"), 1);
        assert_int_equal(count_of(text, " 10000\n"), 300);
        free(text);
        json_decref(r);
        for (size_t v = 0; v < 100; v++)
            seeds[v] = (json_int_t)v;
        r = with_runs(one, "seed", seeds, 100);
        text = plot_script(r, "s.png", SB_OK);
        assert_int_equal(count_of(text, "<< EOD\n"), 100);
        assert_contains(text, "title 'count clock memcpy seed=99'");
        free(text);
        json_decref(r);
        json_decref(one);
    }

    /* no runs: refused (gnuplot was given "plot " and nothing) */
    r = json_deep_copy(fx->r[0]);
    json_object_set_new(r, "runs", json_array());
    assert_int_equal(sb_plot_check(r, "zero.json", &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "zero.json: the report has no runs: nothing to plot");
    {
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        assert_non_null(out);
        assert_int_equal(sb_plot_script(out, r, "z.png", &err), SB_ERR_INPUT);
        assert_int_equal(fclose(out), 0);
        assert_string_equal(text, "");
        free(text);
    }
    /* two runs on one point of one line: refused, naming both */
    runs = json_object_get(r, "runs");
    json_array_append(runs, json_array_get(json_object_get(fx->r[0], "runs"), 0));
    json_array_append(runs, json_array_get(json_object_get(fx->r[0], "runs"), 0));
    assert_int_equal(sb_plot_check(r, "dup.json", &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "dup.json: runs \"fixture pool_size=256K policy=clock\" and "
                                 "\"fixture pool_size=256K policy=clock\" would be one point of "
                                 "the line 'count clock memcpy' (the same footprint, nothing else "
                                 "the plot tells apart): plot them from reports of their own");
    assert_int_equal(sb_plot_check(fx->r[1], "b.json", &err), SB_OK);
    json_decref(r);
}

/* Runs whose scans name their layouts: the interval resamples them (a report from before
 * layouts, above, compares as it did), each side's layout count is said. */
static json_t *with_layouts(const json_t *report)
{
    json_t *copy = json_deep_copy(report), *run = json_array_get(json_object_get(copy, "runs"), 0);
    json_t *scans = json_array();
    static const int layout[5] = {0, 0, 1, 1, 2};

    for (size_t i = 0; i < json_array_size(json_object_get(run, "repetitions")); i++)
        json_array_append_new(scans, json_pack("{s:i, s:i}", "round", (int)i, "layout",
                                               layout[i % 5]));
    json_object_set_new(run, "scans", scans);
    return copy;
}

static void test_compare_layouts(void **state)
{
    struct reports *fx = *state;
    json_t *r[2] = {with_layouts(fx->r[0]), with_layouts(fx->r[1])};
    json_t *before = sb_compare_build(fx->r, fixture_paths, 2), *doc = sb_compare_build(r, fixture_paths, 2);
    const json_t *p0 = json_array_get(json_object_get(before, "pairs"), 0);
    const json_t *p = json_array_get(json_object_get(doc, "pairs"), 0);
    const json_t *i0 = json_object_get(p0, "interval"), *i = json_object_get(p, "interval");

    assert_true(json_is_null(at(p0, "layouts", "a")));
    assert_int_equal(json_integer_value(at(p, "layouts", "a")), 3);
    assert_true(json_is_null(at(p, "layouts", "b"))); /* B's run 2 names no layout */
    assert_true(json_real_value(at(p, "ratio", NULL)) == json_real_value(at(p0, "ratio", NULL)));
    assert_true(json_number_value(json_array_get(i, 0)) <= json_number_value(json_array_get(i0, 0)));
    assert_true(json_number_value(json_array_get(i, 1)) >= json_number_value(json_array_get(i0, 1)));
    assert_true(json_number_value(json_array_get(i, 1)) - json_number_value(json_array_get(i, 0)) >
                json_number_value(json_array_get(i0, 1)) - json_number_value(json_array_get(i0, 0)));
    json_decref(before);
    json_decref(doc);
    json_decref(r[0]);
    json_decref(r[1]);
}

/* ---- the effects: each report's own comparisons side by side -------------------------------- */

/* A stored comparison of op: a / b (run names), with the placements its report gave them;
 * ratio < 0: none (no estimate). */
static json_t *stored(const char *op, const char *a, const char *b, const char *pa,
                      const char *pb, double ratio, double lo, double hi, const char *call)
{
    json_t *c = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "op", op, "a", a, "b", b,
                          "a_placement", pa, "b_placement", pb, "call", call);
    json_object_set_new(c, "ratio", ratio < 0 ? json_null() : json_real(ratio));
    json_object_set_new(c, "lo", ratio < 0 ? json_null() : json_real(lo));
    json_object_set_new(c, "hi", ratio < 0 ? json_null() : json_real(hi));
    return c;
}

#define RING256 "fixture pool_size=256K policy=ring"
#define CLOCK256 "fixture pool_size=256K policy=clock"

/* report copies with analyses of their own: A ring/clock for both ops and clock 512KB / 256KB;
 * B the two ring/clock in the other order and a ring in two pools, called by the host's level;
 * C ring/clock for count without an estimate, two runs told apart by extra_copy, and two
 * alike but for their names (one with an escape sequence, as B's host has). */
static void effects_reports(const struct reports *fx, json_t *r[3])
{
    json_t *runs, *again, *level;
    size_t i;

    for (int k = 0; k < 3; k++)
        r[k] = json_deep_copy(fx->r[k == 1]);
    json_object_set_new(r[0], "analysis", json_pack("{s:b, s:[o, o, o]}", "available", 1,
        "comparisons",
        stored("count", RING256, CLOCK256, "ring 64KB", "clock 256KB", 0.87, 0.86, 0.88, "slower"),
        stored("vacuum", RING256, CLOCK256, "ring 64KB", "clock 256KB", 0.88, 0.86, 0.89, "slower"),
        stored("count", "fixture pool_size=512K policy=clock", CLOCK256, "clock 512KB",
               "clock 256KB", 1.0, 0.99, 1.01, "same")));
    level = stored("count", "fixture pool_size=512K policy=ring", RING256, "ring 64KB",
                   "ring 64KB", 0.95, 0.90, 1.01, "inconclusive");
    json_object_set_new(level, "level_call", json_pack("{s:s, s:s}", "quiet", "slower", "busy",
                                                       "faster"));
    json_object_set_new(r[1], "analysis", json_pack("{s:b, s:[o, o, o]}", "available", 1,
        "comparisons",
        stored("vacuum", RING256, CLOCK256, "ring 64KB", "clock 256KB", 1.22, 1.19, 1.23, "faster"),
        stored("count", RING256, CLOCK256, "ring 64KB", "clock 256KB", 1.24, 1.21, 1.26, "faster"),
        level));
    json_object_set_new(json_object_get(r[1], "context"), "host", json_string("b\x1b]0;x\x07"));
    runs = json_object_get(r[2], "runs");
    json_array_foreach(runs, i, again)
        json_object_set_new(again, "extra_copy", json_integer(0));
    json_object_set_new(json_array_get(runs, 2), "extra_copy", json_real(0.05));
    json_object_set_new(json_array_get(runs, 2), "pool_size", json_integer(262144));
    json_object_set_new(json_array_get(runs, 2), "footprint", json_integer(262144));
    again = json_deep_copy(json_array_get(runs, 0));
    json_object_set_new(again, "name", json_string("again\x1b[2J"));
    json_array_append_new(runs, again);
    json_object_set_new(r[2], "analysis", json_pack("{s:b, s:[o, o, o]}", "available", 1,
        "comparisons",
        stored("count", RING256, CLOCK256, "ring 64KB", "clock 256KB", -1, 0, 0, "inconclusive"),
        stored("count", "fixture pool_size=512K policy=clock", CLOCK256, "clock 256KB",
               "clock 256KB", 1.05, 1.03, 1.07, "faster"),
        stored("count", "again\x1b[2J", CLOCK256, "clock 256KB", "clock 256KB", 1.0, 0.99, 1.01,
               "same")));
}

static void test_compare_effects(void **state)
{
    static const char *const paths[] = {"a.json", "b.json", "c.json"};
    static const char *const rows[] = {
        "count ring 64KB / clock 256KB", "vacuum ring 64KB / clock 256KB",
        "count clock 512KB / clock 256KB", "count ring 64KB in 512KB / ring 64KB in 256KB",
        "count clock 256KB extra_copy=0.05 / clock 256KB extra_copy=0",
        "count again\x1b[2J / " CLOCK256};
    json_t *r[3], *doc;
    const json_t *effects, *row;
    char *text;

    effects_reports(*state, r);
    doc = sb_compare_build(r, paths, 3);
    effects = json_object_get(doc, "effects");
    assert_int_equal(json_array_size(effects), 6);
    for (size_t k = 0; k < 6; k++)
        assert_string_equal(json_string_value(at(json_array_get(effects, k), "comparison", NULL)),
                            rows[k]);
    /* matched by what they compare, not by position: B lists vacuum first */
    row = json_array_get(effects, 0);
    assert_string_equal(json_string_value(at(row, "op", NULL)), "count");
    assert_string_equal(json_string_value(at(row, "a", NULL)), "ring 64KB");
    assert_string_equal(json_string_value(at(row, "b", NULL)), "clock 256KB");
    assert_true(json_real_value(at(json_array_get(at(row, "reports", NULL), 0), "ratio", NULL)) ==
                0.87);
    assert_true(json_real_value(at(json_array_get(at(row, "reports", NULL), 1), "lo", NULL)) ==
                1.21);
    assert_true(json_is_null(at(json_array_get(at(row, "reports", NULL), 2), "ratio", NULL)));
    assert_string_equal(json_string_value(at(json_array_get(at(row, "reports", NULL), 2), "call",
                                             NULL)), "inconclusive");
    row = json_array_get(effects, 1);
    assert_true(json_real_value(at(json_array_get(at(row, "reports", NULL), 1), "hi", NULL)) ==
                1.23);
    assert_true(json_is_null(json_array_get(at(row, "reports", NULL), 2)));
    row = json_array_get(effects, 3);
    assert_true(json_is_null(json_array_get(at(row, "reports", NULL), 0)));
    assert_string_equal(json_string_value(at(at(json_array_get(at(row, "reports", NULL), 1),
                                                "level_call", NULL), "quiet", NULL)), "slower");
    assert_non_null(json_object_get(doc, "effects_how"));

    text = compare_text(doc);
    assert_contains(text, "\neach report's own comparisons, as its run table shows them:\n"
        "comparison (op a / b)                                        |  "
        "                    A |                      B |                      C\n"
        "count ring 64KB / clock 256KB                                |  "
        " 0.87x [0.86, 0.88] - |   1.24x [1.21, 1.26] + |                      ?\n"
        "vacuum ring 64KB / clock 256KB                               |  "
        " 0.88x [0.86, 0.89] - |   1.22x [1.19, 1.23] + |                      -\n"
        "count clock 512KB / clock 256KB                              |  "
        " 1.00x [0.99, 1.01] = |                      - |                      -\n"
        "count ring 64KB in 512KB / ring 64KB in 256KB                |  "
        "                    - | 0.95x [0.90, 1.01] -/+ |                      -\n"
        "count clock 256KB extra_copy=0.05 / clock 256KB extra_copy=0 |  "
        "                    - |                      - |   1.05x [1.03, 1.07] +\n"
        "count again\\x1b[2J / fixture pool_size=256K policy=clock     | "
        "                     - |                      - |   1.00x [0.99, 1.01] =\n");
    assert_null(strchr(text, '\x1b')); /* nor in the runs with no partner */
    assert_contains(text, "  C: again\\x1b[2J\n");
    assert_contains(text, "B = b.json (host b\\x1b]0;x\\x07, ");
    free(text);
    json_decref(doc);
    for (int k = 0; k < 3; k++)
        json_decref(r[k]);
}

/* Reports without comparisons (the fixtures, schema 1) print no effects. */
static void test_compare_no_effects(void **state)
{
    struct reports *fx = *state;
    json_t *doc = sb_compare_build(fx->r, fixture_paths, 2);
    char *text = compare_text(doc);

    assert_int_equal(json_array_size(json_object_get(doc, "effects")), 0);
    assert_null(strstr(text, "own comparisons"));
    free(text);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mw_separated),
        cmocka_unit_test(test_mw_small_exact),
        cmocka_unit_test(test_mw_ties),
        cmocka_unit_test(test_mw_large),
        cmocka_unit_test(test_load_good),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test_setup_teardown(test_compare_build, setup_reports, teardown_reports),
        cmocka_unit_test_setup_teardown(test_compare_counter_difference, setup_reports,
                                        teardown_reports),
        cmocka_unit_test_setup_teardown(test_compare_three, setup_reports, teardown_reports),
        cmocka_unit_test_setup_teardown(test_compare_render, setup_reports, teardown_reports),
        cmocka_unit_test_setup_teardown(test_render_stored, setup_reports, teardown_reports),
        cmocka_unit_test_setup_teardown(test_plot_script, setup_reports, teardown_reports),
        cmocka_unit_test_setup_teardown(test_plot_lines, setup_reports, teardown_reports),
        cmocka_unit_test_setup_teardown(test_compare_odd_values, setup_reports,
                                        teardown_reports),
        cmocka_unit_test_setup_teardown(test_compare_rounds_fields, setup_reports,
                                        teardown_reports),
        cmocka_unit_test_setup_teardown(test_render_undecided_labels, setup_reports,
                                        teardown_reports),
        cmocka_unit_test_setup_teardown(test_compare_layouts, setup_reports, teardown_reports),
        cmocka_unit_test_setup_teardown(test_compare_effects, setup_reports, teardown_reports),
        cmocka_unit_test_setup_teardown(test_compare_no_effects, setup_reports,
                                        teardown_reports),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
