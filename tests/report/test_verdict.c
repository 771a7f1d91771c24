/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_verdict.c: unit tests for the verdict of a reproduced experiment (lib/report/verdict.h) on its
 * analysis (lib/report/analysis.h), the lines the reproduction table prints from them
 * (lib/render/reproduction.h) and the run helpers they share with compare (lib/report/runs.h), on
 * reports built in memory with exact figures, timed in rounds: a slow/fast pair 20% apart in
 * every round is called faster with the ratio exact; a host whose A-A pair came out 25% apart
 * is flagged noisy and still called; a comparison whose ratio depends on the host's level is
 * called in its quiet and its busy third; a clock sweep of 3 pool sizes says it has too few points
 * for a knee; a sweep of 4 with a sharp 2x fall has a clear knee at that step, in order of pool
 * size whatever order the report lists them in; one clock run beside a ring, or two clock
 * pools, are no sweep; a report of schema 1 (no rounds) has no analysis and says why. */

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
#include "render/reproduction.h"
#include "report/analysis.h"
#include "report/runs.h"
#include "report/verdict.h"
#include "report/reproducible.h"

#define KB 1024
#define MB (1024 * 1024)
#define TABLE (64 * MB)

#define ROUNDS 10

/* Scans of TABLE bytes, one per round, at mbps[r] MB/s. */
static json_t *scans(const double *mbps, int rounds)
{
    json_t *list = json_array();
    for (int r = 0; r < rounds; r++)
        json_array_append_new(list, json_pack("{s:i, s:i, s:f, s:f, s:i, s:I, s:f}", "round", r,
                                              "position", 0, "at", (double)r, "seconds",
                                              TABLE / (mbps[r] * 1e6), "passes", 1, "bytes",
                                              (json_int_t)TABLE, "mbps", mbps[r]));
    return list;
}

/* A run of op under policy at footprint timed at mbps[r] in round r (its median: median_mbps). */
static json_t *run(const char *op, const char *policy, json_int_t footprint, const double *mbps,
                   double median_mbps)
{
    char name[96];
    json_t *r;

    snprintf(name, sizeof name, "test op=%s policy=%s pool=%lld", op, policy,
             (long long)footprint);
    r = json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:[], s:o, "
                  "s:{s:f}, s:{s:s, s:s}}",
                  "name", name, "source", "memory", "op", op, "policy", policy, "kernel",
                  "memcpy", "table_size", (json_int_t)TABLE, "pool_size", footprint, "ring_size",
                  (json_int_t)(256 * KB), "page_size", (json_int_t)8192, "footprint", footprint,
                  "bytes_per_scan", (json_int_t)TABLE, "repetitions", "scans",
                  scans(mbps, ROUNDS), "mbps", "median", median_mbps, "counters", "backend",
                  "none", "status", "none");
    assert_non_null(r);
    return r;
}

/* Every round at the same MB/s. */
static json_t *steady(const char *op, const char *policy, json_int_t footprint, double mbps)
{
    double m[ROUNDS];
    for (int r = 0; r < ROUNDS; r++)
        m[r] = mbps;
    return run(op, policy, footprint, m, mbps);
}

/* A report of the runs (reference taken over), with a [thread] block naming slow and fast and a
 * schedule whose A-A pair (the first run timed again) differs from it by the factors aa[r]. */
static json_t *report(json_t *runs, const char *slow, const char *fast, const double *aa)
{
    const json_t *first = json_object_get(json_array_get(runs, 0), "scans");
    double again[ROUNDS];
    json_t *r;

    for (int k = 0; k < ROUNDS; k++)
        again[k] = json_number_value(json_object_get(json_array_get(first, (size_t)k), "mbps")) *
                   (aa ? aa[k] : 1.0);
    r = json_pack("{s:o, s:{s:s, s:s, s:s, s:s, s:[]}, s:{s:s, s:s}, s:{s:[]}, "
                  "s:{s:s, s:i, s:{s:O, s:o}}}", "runs", runs, "thread", "who", "test", "table",
                  "test", "slow", slow, "fast", fast, "figures", "experiment", "name", "test",
                  "description", "test", "context", "caches", "schedule", "kind", "interleaved",
                  "rounds", ROUNDS, "reference", "run",
                  json_object_get(json_array_get(runs, 0), "name"), "scans",
                  scans(again, ROUNDS));
    assert_non_null(r);
    return r;
}

/* The analysis and the verdict, set in the report; the verdict returned. */
static const json_t *judge(json_t *doc)
{
    json_t *analysis = sb_analysis_build(doc);
    assert_non_null(analysis);
    json_object_set_new(doc, "analysis", analysis);
    json_object_set_new(doc, "verdict", sb_verdict_build(doc, analysis));
    assert_non_null(json_object_get(doc, "verdict"));
    return json_object_get(doc, "verdict");
}

/* The reproduction table of report, as text (free it). */
static char *rendered(const json_t *report)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    assert_non_null(out);
    sb_render_reproduction(out, report);
    fclose(out);
    return text;
}

/* The run's table of report (scanbench run's), as text (free it). */
static char *run_table(const json_t *report)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    assert_non_null(out);
    assert_int_equal(sb_render_table(out, report), 0);
    fclose(out);
    return text;
}

/* A slow/fast pair 20% apart in every round, on a host whose speed drifts by 30% between
 * rounds (each round alike for both): the paired ratio is exactly 1.2, its interval too, and
 * the call is faster; the reproduction's row says '+'. */
static void test_faster(void **state)
{
    double slow[ROUNDS], fast[ROUNDS];
    json_t *runs = json_array(), *doc;
    const json_t *verdict, *cmp;
    char *text;
    (void)state;

    for (int r = 0; r < ROUNDS; r++) {
        slow[r] = 1000.0 * (1.0 + 0.3 * (r % 3));
        fast[r] = 1.2 * slow[r];
    }
    json_array_append_new(runs, run("vacuum", "clock", 16 * MB, slow, 1300.0));
    json_array_append_new(runs, run("vacuum", "clock", 680 * KB, fast, 1560.0));
    doc = report(runs, "clock 16MB", "clock 680KB", NULL);
    verdict = judge(doc);
    assert_int_equal(json_integer_value(json_object_get(verdict, "compared")), 1);
    assert_int_equal(json_integer_value(json_object_get(verdict, "confined_faster")), 1);
    cmp = json_array_get(json_object_get(verdict, "comparisons"), 0);
    assert_string_equal(json_string_value(json_object_get(cmp, "call")), "faster");
    assert_true(fabs(json_number_value(json_object_get(cmp, "ratio_here")) - 1.2) < 1e-9);
    assert_true(fabs(json_number_value(json_object_get(cmp, "lo")) - 1.2) < 1e-9);
    assert_true(fabs(json_number_value(json_object_get(cmp, "hi")) - 1.2) < 1e-9);
    text = rendered(doc);
    if (!strstr(text, "     1.20+") || !strstr(text, "faster by 20.0% [20.0%, 20.0%]"))
        fail_msg("the table or the verdict does not say faster:\n%s", text);
    free(text);
    json_decref(doc);
}

/* A host whose A-A pair came out 25% apart, by 10% to 40% from round to round: flagged too
 * noisy (its bound is above 5%), and the threshold rises to the floor (25%); a difference whose
 * interval clears it is still called (1.5x: faster), and one inside it is "the same" (1.2x
 * within 25%). */
static void test_too_noisy(void **state)
{
    static const double aa[ROUNDS] = {1.3, 1.2, 1.35, 1.15, 1.3, 1.2, 1.25, 1.25, 1.4, 1.1};
    static const double fast[2] = {1500.0, 1200.0};
    static const char *const calls[2] = {"faster", "same"};

    for (int k = 0; k < 2; k++) {
        json_t *runs = json_array(), *doc;
        const json_t *verdict, *cmp, *noise;
        char *text;
        (void)state;

        json_array_append_new(runs, steady("count", "clock", 16 * MB, 1000.0));
        json_array_append_new(runs, steady("count", "clock", 680 * KB, fast[k]));
        doc = report(runs, "clock 16MB", "clock 680KB", aa);
        verdict = judge(doc);
        noise = json_object_get(verdict, "noise");
        assert_true(json_is_true(json_object_get(noise, "too_noisy")));
        assert_true(json_number_value(json_object_get(noise, "delta")) > 0.2);
        assert_true(json_number_value(json_object_get(noise, "delta")) < 0.45);
        cmp = json_array_get(json_object_get(verdict, "comparisons"), 0);
        assert_string_equal(json_string_value(json_object_get(cmp, "call")), calls[k]);
        assert_int_equal(json_integer_value(json_object_get(verdict, "undecided")), 0);
        text = rendered(doc);
        assert_non_null(strstr(text, "a noisy host (warning)"));
        assert_null(strstr(text, "withheld"));
        free(text);
        json_decref(doc);
    }
}

/* x4500-bigtable: count and vacuum over clock pools of 16MB, 680KB and 16KB: too few points for a
 * knee, and the verdict says so. */
/* A report whose host's level falls 5% a round (a third run, the reference, moves with it) and
 * whose fast placement runs `quiet` times the slow one in the first half of the rounds (the
 * quietest), `busy` times it in the second; judged. */
static json_t *level_report(double quiet, double busy)
{
    double host[ROUNDS], slow[ROUNDS], fast[ROUNDS];
    json_t *runs = json_array(), *doc;

    for (int r = 0; r < ROUNDS; r++) {
        host[r] = 1000.0 * (1.0 - 0.05 * r);
        slow[r] = 2.0 * host[r];
        fast[r] = slow[r] * (r < ROUNDS / 2 ? quiet : busy);
    }
    json_array_append_new(runs, run("count", "ring", 256 * KB, host, host[ROUNDS / 2]));
    json_array_append_new(runs, run("count", "clock", 16 * MB, slow, slow[ROUNDS / 2]));
    json_array_append_new(runs, run("count", "clock", 680 * KB, fast, fast[ROUNDS / 2]));
    doc = report(runs, "clock 16MB", "clock 680KB", NULL);
    judge(doc);
    return doc;
}

/* The host's level moves (a third run, the reference, falls 5% a round) and the fast placement
 * runs 0.9x the slow one in the five quietest rounds, 1.2x in the five busiest: the comparison
 * depends on the level, and each third gets its own call against the threshold: slower when
 * quiet, faster when busy. */
static void test_level_thirds(void **state)
{
    json_t *doc = level_report(0.9, 1.2);
    const json_t *cmp, *level, *verdict = json_object_get(doc, "verdict");
    const char *quiet, *busy;
    char mark[4], *text;
    (void)state;

    cmp = json_array_get(json_object_get(json_object_get(doc, "analysis"), "comparisons"), 0);
    level = json_object_get(cmp, "host_level");
    assert_true(json_is_true(json_object_get(level, "depends")));
    assert_string_equal(json_string_value(json_object_get(json_object_get(level, "quiet"),
                                                          "call")), "slower");
    assert_string_equal(json_string_value(json_object_get(json_object_get(level, "busy"),
                                                          "call")), "faster");
    /* the whole run's call is inconclusive (a median over both states): the thirds call it,
     * and the verdict, the table's mark and the sentence say so */
    assert_string_equal(json_string_value(json_object_get(cmp, "call")), "inconclusive");
    assert_true(sb_level_call(cmp, &quiet, &busy));
    assert_string_equal(quiet, "slower");
    assert_string_equal(busy, "faster");
    assert_string_equal(sb_call_mark(cmp, mark), "-/+");
    assert_int_equal(json_integer_value(json_object_get(verdict, "by_level")), 1);
    assert_int_equal(json_integer_value(json_object_get(verdict, "undecided")), 0);
    assert_int_equal(sb_analysis_decided(json_object_get(doc, "analysis")), 1);
    text = rendered(doc);
    if (!strstr(text, "-/+") || !strstr(text, "by the host's level: slower when the host is quiet") ||
        !strstr(text, "\"-/+\" called when the host is quiet / when it is busy"))
        fail_msg("the reproduction does not say the calls by the level:\n%s", text);
    free(text);
    text = run_table(doc);
    if (!strstr(text, "] -/+\n") || !strstr(text, "\"-/+\": inconclusive overall, called when") ||
        strstr(text, "could have resolved"))
        fail_msg("the run's table does not mark the calls by the level:\n%s", text);
    free(text);
    json_decref(doc);
}

/* A ratio that follows the level but is decided as a whole (1.2x busy, 1.3x quiet): its own
 * call stands, and there is no call by the level. */
static void test_level_decided_whole(void **state)
{
    json_t *doc = level_report(1.3, 1.2);
    const json_t *cmp;
    const char *quiet, *busy;
    char mark[4];
    (void)state;

    cmp = json_array_get(json_object_get(json_object_get(doc, "analysis"), "comparisons"), 0);
    assert_true(json_is_true(json_object_get(json_object_get(cmp, "host_level"), "depends")));
    assert_string_equal(json_string_value(json_object_get(cmp, "call")), "faster");
    assert_false(sb_level_call(cmp, &quiet, &busy));
    assert_null(json_object_get(cmp, "level_call"));
    assert_string_equal(sb_call_mark(cmp, mark), "+");
    json_decref(doc);
}

static void test_three_pool_sizes(void **state)
{
    json_t *runs = json_array(), *doc;
    const json_t *verdict, *knee;
    char *text;
    (void)state;

    for (int op = 0; op < 2; op++) {
        const char *name = op ? "vacuum" : "count";
        json_array_append_new(runs, steady(name, "clock", 16 * MB, 1000.0));
        json_array_append_new(runs, steady(name, "clock", 680 * KB, 1100.0));
        json_array_append_new(runs, steady(name, "clock", 16 * KB, 1050.0));
    }
    doc = report(runs, "clock 16MB", "clock 680KB", NULL);
    verdict = judge(doc);
    assert_int_equal(json_array_size(json_object_get(verdict, "knees")), 2);
    knee = json_array_get(json_object_get(verdict, "knees"), 0);
    assert_string_equal(json_string_value(json_object_get(knee, "op")), "count");
    assert_string_equal(json_string_value(json_object_get(knee, "kind")), "too few points");
    assert_true(json_is_true(json_object_get(knee, "settled")));
    text = rendered(doc);
    if (!strstr(text, "\nverdict:\n") ||
        !strstr(text, "  VACUUM (clock, kernel memcpy): too few points for a knee (3 pool sizes, "
                      "10 rounds; at least 4 sizes and 2 rounds needed).\n"))
        fail_msg("the verdict does not say why there is no knee:\n%s", text);
    free(text);
    json_decref(doc);
}

/* Four pool sizes, MB/s halving from 512KB to 1MB and flat elsewhere, listed out of order: a
 * clear knee at that step, x50 between them. */
static void test_four_pool_sizes(void **state)
{
    json_t *runs = json_array(), *doc;
    const json_t *verdict, *knee, *step;
    char *text;
    (void)state;

    json_array_append_new(runs, steady("count", "clock", 2 * MB, 500.0));
    json_array_append_new(runs, steady("count", "clock", 256 * KB, 1000.0));
    json_array_append_new(runs, steady("count", "clock", 1 * MB, 500.0));
    json_array_append_new(runs, steady("count", "clock", 512 * KB, 1000.0));
    doc = report(runs, "", "", NULL);
    verdict = judge(doc);
    assert_int_equal(json_array_size(json_object_get(verdict, "knees")), 1);
    knee = json_array_get(json_object_get(verdict, "knees"), 0);
    assert_string_equal(json_string_value(json_object_get(knee, "kind")), "clear");
    step = json_object_get(knee, "step");
    assert_true(json_number_value(json_object_get(step, "from")) == 512 * KB);
    assert_true(json_number_value(json_object_get(step, "to")) == 1 * MB);
    assert_true(fabs(json_number_value(json_object_get(knee, "fall")) - 1.0) < 1e-9);
    assert_true(json_number_value(json_object_get(knee, "x50")) > 512 * KB &&
                json_number_value(json_object_get(knee, "x50")) < 1 * MB);
    text = rendered(doc);
    assert_non_null(strstr(text, "the steepest fall is between 512KB and 1MB in 100% of "
                                 "resamples."));
    free(text);
    json_decref(doc);
}

/* One clock run beside a ring (pg83-ring's shape), or two clock pools (x4500-memtable's slow/fast
 * pair): no sweep, nothing said about knees; a comparison only where slow and fast are there. */
static void test_no_sweep(void **state)
{
    json_t *runs = json_array(), *doc;
    const json_t *verdict;
    (void)state;

    json_array_append_new(runs, steady("count", "clock", 16 * MB, 1000.0));
    json_array_append_new(runs, steady("count", "ring", 256 * KB, 1000.0));
    json_array_append_new(runs, steady("vacuum", "clock", 16 * MB, 1000.0));
    json_array_append_new(runs, steady("vacuum", "clock", 680 * KB, 1000.0));
    doc = report(runs, "clock 16MB", "ring 256KB", NULL);
    verdict = judge(doc);
    assert_int_equal(json_array_size(json_object_get(verdict, "knees")), 0);
    assert_int_equal(json_integer_value(json_object_get(verdict, "compared")), 1);
    assert_int_equal(json_integer_value(json_object_get(verdict, "same")), 1);
    json_decref(doc);
}

/* Runs that name their own pairs (scanbench pg's rounds: paired_with) are compared as named,
 * a name of no run or of the run itself left out; without them, each against its op's first. */
static void test_paired_with(void **state)
{
    json_t *runs = json_array(), *doc, *b, *c;
    const json_t *list, *first, *second;
    (void)state;

    json_array_append_new(runs, steady("count", "clock", 16 * MB, 100.0));
    b = steady("count", "ring", 256 * KB, 200.0);
    c = steady("count", "clock", 1 * MB, 100.0);
    json_array_append(runs, b);
    json_array_append(runs, c);
    doc = report(runs, "", "", NULL);
    json_object_del(doc, "thread");
    json_object_set_new(doc, "analysis", sb_analysis_build(doc));
    list = json_object_get(json_object_get(doc, "analysis"), "comparisons");
    assert_int_equal(json_array_size(list), 2); /* b / first, c / first */
    assert_string_equal(json_string_value(json_object_get(json_array_get(list, 1), "b")),
                        "test op=count policy=clock pool=16777216");

    json_object_set_new(b, "paired_with", json_pack("[s]",
                                                    "test op=count policy=clock pool=16777216"));
    json_object_set_new(c, "paired_with", json_pack("[s, s, s]",
                                                    "test op=count policy=ring pool=262144",
                                                    "no such run",
                                                    "test op=count policy=clock pool=1048576"));
    json_object_set_new(doc, "analysis", sb_analysis_build(doc));
    list = json_object_get(json_object_get(doc, "analysis"), "comparisons");
    assert_int_equal(json_array_size(list), 2);
    first = json_array_get(list, 0);
    second = json_array_get(list, 1);
    assert_string_equal(json_string_value(json_object_get(first, "a")),
                        "test op=count policy=ring pool=262144");
    assert_string_equal(json_string_value(json_object_get(first, "call")), "faster");
    assert_true(fabs(json_number_value(json_object_get(first, "ratio")) - 2.0) < 1e-9);
    assert_string_equal(json_string_value(json_object_get(second, "a")),
                        "test op=count policy=clock pool=1048576");
    assert_string_equal(json_string_value(json_object_get(second, "b")),
                        "test op=count policy=ring pool=262144");
    assert_string_equal(json_string_value(json_object_get(second, "call")), "slower");
    json_decref(b);
    json_decref(c);
    json_decref(doc);
}

/* A pg run like run (the same op, table and pool) at mbps, its policy the server's. */
static json_t *pg_like(const json_t *run, double mbps, const char *policy)
{
    json_t *pg = json_deep_copy(run);

    json_object_set_new(json_object_get(pg, "mbps"), "median", json_real(mbps));
    json_object_set_new(pg, "policy", json_string(policy));
    return pg;
}

/* reproduce --pg with two servers: a column each, headed by its version, with its MB/s and its
 * own fast/slow ratio; the legend names both. */
static void test_pg_columns(void **state)
{
    json_t *runs = json_array(), *doc, *slow, *fast, *servers;
    char *text;
    (void)state;

    slow = steady("vacuum", "clock", 16 * MB, 1000.0);
    fast = steady("vacuum", "clock", 680 * KB, 1200.0);
    for (int k = 0; k < 2; k++) { /* the table's shape, which a server's run is matched by */
        json_object_set_new(k ? fast : slow, "row_width", json_integer(100));
        json_object_set_new(k ? fast : slow, "dead_pct", json_integer(10));
    }
    json_array_append(runs, slow);
    json_array_append(runs, fast);
    servers = json_pack("[{s:{s:s}, s:[o, o], s:s}, {s:{s:s}, s:[o, o], s:s}]", "server",
                        "server_version", "8.1.21", "runs", pg_like(slow, 2000.0, "clock"),
                        pg_like(fast, 3000.0, "clock"), "notes", "", "server",
                        "server_version", "15.20 (Debian 15.20-0+deb12u1)", "runs",
                        pg_like(slow, 1000.0, "ring"), pg_like(fast, 900.0, "ring"), "notes",
                        "");
    assert_non_null(servers);
    doc = report(runs, "clock 16MB", "clock 680KB", NULL);
    json_object_set_new(doc, "postgresql", json_deep_copy(json_array_get(servers, 0)));
    json_object_set_new(json_object_get(doc, "postgresql"), "servers", servers);
    judge(doc);
    text = rendered(doc);
    if (!strstr(text, "pg 8.1.21") || !strstr(text, "pg 15.20 ") ||
        !strstr(text, "   2000 clock   1000 ring") || !strstr(text, "   1.50         0.90") ||
        !strstr(text, "PostgreSQL 8.1.21, 15.20 (Debian 15.20-0+deb12u1) on this host (a column "
                      "each)"))
        fail_msg("the servers' columns are not as expected:\n%s", text);
    free(text);
    json_decref(slow);
    json_decref(fast);
    json_decref(doc);
}

/* Schema 1: runs without scans: the analysis says it needs rounds. */
static void test_schema_1(void **state)
{
    json_t *doc = json_pack("{s:[{s:s, s:[f, f]}]}", "runs", "name", "old", "repetitions", 0.1,
                            0.2);
    json_t *analysis = sb_analysis_build(doc);
    (void)state;

    assert_false(json_is_true(json_object_get(analysis, "available")));
    assert_non_null(strstr(json_string_value(json_object_get(analysis, "why")), "rounds"));
    assert_false(sb_analysis_settled(analysis, 0.01));
    json_decref(analysis);
    json_decref(doc);
}

/* The shared run helpers: MB/s per repetition (bytes per scan / seconds / 10^6), per round, the
 * median, the placement's name and the lookup by op and placement. */
static void test_report_runs(void **state)
{
    static const double m[ROUNDS] = {1000, 500, 250, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
    json_t *runs = json_array();
    double *per_round;
    const json_t *r;
    char placement[64];
    double *samples;
    size_t n;
    (void)state;

    json_array_append_new(runs, run("count", "clock", 16 * MB, m, 1000.0));
    json_array_append_new(runs, run("vacuum", "ring", 256 * KB, m, 1000.0));
    r = json_array_get(runs, 1);
    json_object_set_new((json_t *)r, "repetitions", json_pack("[f, f, f]", 0.5, 0.25, 2.0));
    samples = sb_run_mbps_samples(r, &n);
    assert_non_null(samples);
    assert_int_equal(n, 3);
    assert_true(fabs(samples[0] - TABLE / 0.5 / 1e6) < 1e-9);
    assert_true(fabs(samples[1] - TABLE / 0.25 / 1e6) < 1e-9);
    assert_true(fabs(samples[2] - TABLE / 2.0 / 1e6) < 1e-9);
    free(samples);
    per_round = sb_run_round_mbps(r, ROUNDS + 1);
    assert_non_null(per_round);
    assert_true(fabs(per_round[1] - 500.0) < 1e-6 && fabs(per_round[2] - 250.0) < 1e-6);
    assert_true(isnan(per_round[ROUNDS]));
    free(per_round);
    assert_true(fabs(sb_run_median_mbps(r) - 1000.0) < 1e-9);
    sb_run_placement(r, placement, sizeof placement);
    assert_string_equal(placement, "ring 256KB");
    assert_ptr_equal(sb_find_run(runs, "vacuum", "ring 256KB"), r);
    assert_ptr_equal(sb_find_run(runs, "count", "clock 16MB"), json_array_get(runs, 0));
    assert_null(sb_find_run(runs, "count", "ring 256KB"));
    /* the size is a number, however it is spelled; a text that is no placement finds nothing */
    assert_ptr_equal(sb_find_run(runs, "count", "clock 16M"), json_array_get(runs, 0));
    assert_ptr_equal(sb_find_run(runs, "vacuum", "ring 262144"), r);
    assert_null(sb_find_run(runs, "count", "clock 15MB"));
    assert_null(sb_find_run(runs, "count", "clock"));
    json_decref(runs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_faster),
        cmocka_unit_test(test_too_noisy),
        cmocka_unit_test(test_level_thirds),
        cmocka_unit_test(test_level_decided_whole),
        cmocka_unit_test(test_three_pool_sizes),
        cmocka_unit_test(test_four_pool_sizes),
        cmocka_unit_test(test_no_sweep),
        cmocka_unit_test(test_schema_1),
        cmocka_unit_test(test_report_runs),
        cmocka_unit_test(test_paired_with),
        cmocka_unit_test(test_pg_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
