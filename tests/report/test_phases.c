/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_phases.c: unit tests for counters split by phase (copy-in, op, write-back) on their way
 * through the report, on counters built by hand (no model run): the JSON a run's record gets
 * (runner/record_counters.h: counters.phases, each phase's counts and the figures derived from
 * them), the file read back (report/read.h: kept, a malformed block refused), the rows per phase
 * of the run table and of the reproduction's counters (render/), and the verdict's phrase of the
 * phase that carries a slow/fast change (report/verdict.h), which a pair without phases does not
 * get. The figures are chosen so that every derived number is exact (derivation at FIGURES). */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/counters.h"
#include "engine/scan.h"
#include "render/render.h"
#include "report/report.h"
#include "runner/record_counters.h"

#define PAGES 100
#define PAGE 8192
#define TABLE (PAGES * PAGE) /* 819200 bytes */
#define NREPS 3

/* FIGURES: each phase's count of rep 0, per role (L2 misses, L2 write-backs, memory bytes read,
 * memory bytes written), for a scan of PAGES pages (TABLE bytes, one pass). Rep 1 counts 3 times
 * rep 0, rep 2 nothing: the median of every count (and of every sum of phases) is rep 0's.
 *   slow (clock 16MB): L2 misses 12800 + 0 + 6400 = 192/page; L2 write-backs 6400 + 0 + 6400
 *     = 128/page (64 in copy-in, 64 in write-back); memory bytes read 819200 + 409600 + 0,
 *     written 0 + 0 + 409600: per table byte 1.00 + 0.50 + 0.50 = 2.00.
 *   fast (clock 680KB): L2 misses 12800 + 0 + 0 = 128/page; L2 write-backs 4000 + 0 + 0 =
 *     40/page; memory bytes read 491520 + 81920 + 0, written 0 + 0 + 409600: per table byte
 *     0.60 + 0.10 + 0.50 = 1.20.
 * L2 write-backs change by 24 (copy-in) and 64 (write-back): 64 is more than half of 88, so the
 * write-back phase carries it. Memory bytes change by 0.40 (copy-in), 0.40 (op), 0 (write-back):
 * neither 0.40 is more than half of 0.80, so the verdict names the two, copy-in first. */
enum { MISS, WB, RD, WR, NFIG };
static const enum sb_role fig_role[NFIG] = {SB_ROLE_L2_MISS, SB_ROLE_L2_WRITEBACK,
                                            SB_ROLE_MEM_READ_BYTES, SB_ROLE_MEM_WRITE_BYTES};
static const uint64_t slow_fig[SB_NPHASES][NFIG] = {
    {12800, 6400, 819200, 0}, {0, 0, 409600, 0}, {6400, 6400, 0, 409600}};
static const uint64_t fast_fig[SB_NPHASES][NFIG] = {
    {12800, 4000, 491520, 0}, {0, 0, 81920, 0}, {0, 0, 0, 409600}};
static const uint64_t rep_factor[NREPS] = {1, 3, 0};

/* Counters as the cache model leaves them: the four roles read, split by phase when phases. */
static void counters_of(struct sb_counters *c, const uint64_t fig[SB_NPHASES][NFIG],
                        bool phases)
{
    memset(c, 0, sizeof *c);
    c->status = "ok";
    c->nreps = NREPS;
    c->passes = 1;
    c->simulated = true;
    c->have_phases = phases;
    c->values = calloc(NREPS, sizeof *c->values);
    c->phase_values = calloc(NREPS, sizeof *c->phase_values);
    assert_true(c->values && c->phase_values);
    for (int f = 0; f < NFIG; f++) {
        c->have[fig_role[f]] = true;
        for (unsigned r = 0; r < NREPS; r++)
            for (int p = 0; p < SB_NPHASES; p++) {
                c->phase_values[r][p][fig_role[f]] = fig[p][f] * rep_factor[r];
                c->values[r][fig_role[f]] += fig[p][f] * rep_factor[r];
            }
    }
}

/* A result of one pass over PAGES pages. */
static struct sb_run_result result(void)
{
    struct sb_run_result res;
    memset(&res, 0, sizeof res);
    res.passes = 1;
    res.pages_per_scan = PAGES;
    res.bytes_per_scan = TABLE;
    return res;
}

/* A run record of op at policy/pool with the counters of fig (by phase when phases), with
 * every field the readers require (report/read.c). */
static json_t *run_record(const char *op, json_int_t pool, double mbps,
                          const uint64_t fig[SB_NPHASES][NFIG], bool phases)
{
    struct sb_counters c;
    struct sb_run_result res = result();
    char name[64];
    json_t *counters, *run;

    counters_of(&c, fig, phases);
    snprintf(name, sizeof name, "%s pool=%lld", op, (long long)pool);
    counters = json_pack("{s:s, s:s, s:b, s:s, s:o}", "backend", "sim", "status", "ok",
                         "simulated", 1, "model", "x4500 (test), prefetch off", "derived",
                         sb_report_derived_json(&c, &res));
    assert_non_null(counters);
    if (phases)
        assert_int_equal(json_object_set_new(counters, "phases", sb_report_phases_json(&c, &res)),
                         0);
    else
        assert_true(json_is_null(sb_report_phases_json(&c, &res)));
    run = json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:i, s:I, s:[f], s:{s:f}, s:o, "
                    "s:i, s:i, s:i, s:i, s:i, s:[]}",
                    "name", name, "source", "memory", "policy", "clock", "kernel", "memcpy", "op",
                    op, "table_size", (json_int_t)TABLE, "pool_size", pool, "ring_size",
                    (json_int_t)(256 * 1024), "page_size", PAGE, "footprint", pool,
                    "repetitions", TABLE / (mbps * 1e6), "mbps", "median", mbps, "counters",
                    counters, "row_width", 100, "dead_pct", 0, "threads", 1, "warmup", 0,
                    "rows_per_page", 70, "scans");
    assert_non_null(run);
    sb_counters_close(&c);
    return run;
}

/* A reproduction's report of vacuum at 16MB (slow) and 680KB (fast); the fast run split by
 * phase when fast_phases. */
static json_t *pair_report(bool fast_phases)
{
    json_t *runs = json_array(), *doc;

    json_array_append_new(runs, run_record("vacuum", 16 * 1024 * 1024, 100.0, slow_fig, true));
    json_array_append_new(runs, run_record("vacuum", 680 * 1024, 150.0, fast_fig, fast_phases));
    doc = json_pack("{s:s, s:i, s:{s:s, s:s}, s:{s:[]}, s:{s:s, s:n}, s:o, "
                    "s:{s:s, s:s, s:s, s:s, s:[]}}",
                    "schema", SB_REPORT_SCHEMA, "schema_version", 2, "experiment", "name", "test",
                    "description", "test", "context", "caches", "schedule", "kind", "blocked",
                    "reference", "runs", runs, "thread", "who", "test", "table", "test", "slow",
                    "clock 16MB", "fast", "clock 680KB", "figures");
    assert_non_null(doc);
    return doc;
}

/* The analysis' one comparison (fast against slow) and the verdict made from it, set in doc;
 * the comparison's text returned. */
static const char *judge(json_t *doc)
{
    json_t *analysis = json_pack("{s:[{s:s, s:s, s:s, s:f, s:f, s:f, s:s, s:s}], s:[]}",
                                 "comparisons", "op", "vacuum", "a_placement", "clock 680KB",
                                 "b_placement", "clock 16MB", "ratio", 1.5, "lo", 1.4, "hi", 1.6,
                                 "call", "faster", "text", "faster", "knees");
    json_t *verdict = sb_verdict_build(doc, analysis);

    assert_non_null(verdict);
    json_object_set_new(doc, "analysis", analysis);
    json_object_set_new(doc, "verdict", verdict);
    return json_string_value(json_object_get(json_array_get(json_object_get(verdict,
                                                                            "comparisons"), 0),
                                             "text"));
}

/* A phase's derived figure in a run record. */
static double phase_figure(const json_t *run, int phase, const char *key)
{
    return json_number_value(json_object_get(sb_run_phase_derived(run, phase), key));
}

/* The JSON: each phase's counts per repetition and its figures, per page and per table byte
 * (medians: rep 0's); the whole scan's figures unchanged; the report's phase keys are the
 * counters' phase names. */
static void test_phases_json(void **state)
{
    json_t *run = run_record("vacuum", 16 * 1024 * 1024, 100.0, slow_fig, true);
    const json_t *counters = json_object_get(run, "counters");
    const json_t *phases = json_object_get(counters, "phases");
    const json_t *wb = json_object_get(json_object_get(json_object_get(phases, "writeback"),
                                                       "values"), "l2_writeback");
    (void)state;

    for (int p = 0; p < SB_NPHASES; p++)
        assert_string_equal(sb_report_phase_keys[p], sb_phase_names[p]);
    assert_int_equal(json_object_size(phases), 3);
    assert_int_equal(json_array_size(wb), NREPS);
    assert_int_equal(json_integer_value(json_array_get(wb, 0)), 6400);
    assert_int_equal(json_integer_value(json_array_get(wb, 1)), 19200);
    assert_int_equal(json_integer_value(json_array_get(wb, 2)), 0);
    /* roles not read are absent, as in counters.values */
    assert_int_equal(json_object_size(json_object_get(json_object_get(phases, "op"), "values")),
                     4);
    assert_true(phase_figure(run, SB_PHASE_COPY_IN, "l2_miss_per_page") == 128.0);
    assert_true(phase_figure(run, SB_PHASE_WRITEBACK, "l2_miss_per_page") == 64.0);
    assert_true(phase_figure(run, SB_PHASE_COPY_IN, "l2_writeback_per_page") == 64.0);
    assert_true(phase_figure(run, SB_PHASE_OP, "l2_writeback_per_page") == 0.0);
    assert_true(phase_figure(run, SB_PHASE_OP, "mem_read_bytes_per_table_byte") == 0.5);
    assert_true(phase_figure(run, SB_PHASE_WRITEBACK, "mem_write_bytes_per_table_byte") == 0.5);
    assert_true(json_number_value(json_object_get(json_object_get(counters, "derived"),
                                                  "l2_writeback_per_page")) == 128.0);
    assert_true(json_number_value(json_object_get(json_object_get(counters, "derived"),
                                                  "l2_miss_per_page")) == 192.0);
    assert_true(sb_run_has_phases(run));
    assert_null(sb_run_phase_derived(run, SB_NPHASES));
    json_decref(run);
}

/* Written and read back: the phases are kept; a block of an unknown phase, a phase without
 * its derived figures, or a figure that is not a number is refused, naming the run. */
static void test_phases_read_back(void **state)
{
    json_t *doc = pair_report(true), *back;
    struct sb_error err;
    char *text = json_dumps(doc, 0);
    (void)state;

    assert_non_null(text);
    assert_int_equal(sb_report_parse(text, strlen(text), "r.json", &back, &err), SB_OK);
    assert_true(json_equal(json_object_get(json_object_get(json_array_get(json_object_get(
                                                               back, "runs"), 1), "counters"),
                                           "phases"),
                           json_object_get(json_object_get(json_array_get(json_object_get(
                                                               doc, "runs"), 1), "counters"),
                                           "phases")));
    json_decref(back);
    free(text);
    {
        static const char *const bad[] = {
            "{\"checkpoint\": {\"values\": {}, \"derived\": {}}}",
            "{\"op\": {\"values\": {}}}",
            "{\"op\": {\"values\": {}, \"derived\": {\"l2_miss_per_page\": \"many\"}}}",
            "[]",
        };
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            json_t *counters = json_object_get(json_array_get(json_object_get(doc, "runs"), 0),
                                               "counters");
            json_object_set_new(counters, "phases", json_loads(bad[k], 0, NULL));
            text = json_dumps(doc, 0);
            assert_int_equal(sb_report_parse(text, strlen(text), "r.json", &back, &err),
                             SB_ERR_INPUT);
            assert_null(back);
            assert_non_null(strstr(err.msg, "r.json: run 0: "));
            assert_non_null(strstr(err.msg, "phase"));
            free(text);
        }
    }
    json_decref(doc);
}

/* text of what render writes of report */
static char *rendered(const json_t *report, bool reproduction)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);

    assert_non_null(out);
    if (reproduction)
        sb_render_reproduction(out, report);
    else
        assert_int_equal(sb_render_table(out, report), 0);
    fclose(out);
    return text;
}

/* The run table: under each run split by phase, a row per phase with its figures (the run's
 * columns: per page, per table byte), and the legend. The reproduction's counters per page: a
 * row per phase with L2 write-backs and memory bytes per page (per table byte x 8192). */
static void test_phases_text(void **state)
{
    json_t *doc = pair_report(false);
    char *text;
    (void)state;

    judge(doc);
    text = rendered(doc, false);
    /* the slow run (16MB): copy-in 128 misses, 64 write-backs, 1.000 B/B read, 0 written;
     * op: 0.500 B/B read; write-back: 64 misses, 64 write-backs, 0.500 B/B written */
    assert_non_null(strstr(text, "VACUUM           clock 16MB  |       192.00 |       128.00 |  "
                                 "      1.500 |         0.500\n"
                                 "  copy-in                    |       128.00 |        64.00 |  "
                                 "      1.000 |         0.000\n"
                                 "  op                         |         0.00 |         0.00 |  "
                                 "      0.500 |         0.000\n"
                                 "  write-back                 |        64.00 |        64.00 |  "
                                 "      0.000 |         0.500\n"));
    assert_non_null(strstr(text, sb_report_phases_legend));
    /* the fast run has no phases: one row, none under it */
    assert_non_null(strstr(text, "VACUUM           clock 680KB |       128.00 |        40.00 |  "
                                 "      0.700 |         0.500\nper page scanned"));
    free(text);
    text = rendered(doc, true);
    /* per page: 1.50 B/B read x 8192 = 12288 (copy-in 8192, op 4096), 0.50 written = 4096 */
    assert_non_null(strstr(text,
                           "clock 16MB                 vacuum            "
                           "    128.0      12288       4096\n"
                           "  copy-in                                    "
                           "     64.0       8192          0\n"
                           "  op                                         "
                           "      0.0       4096          0\n"
                           "  write-back                                 "
                           "     64.0          0       4096\n"
                           "clock 680KB                vacuum            "
                           "     40.0       5734       4096\nby phase"));
    assert_non_null(strstr(text, sb_report_phases_legend));
    free(text);
    json_decref(doc);
}

/* The verdict: with both runs split by phase, the phrase names the phase that carries the
 * change, or the two largest (FIGURES), and the evidence keeps each phase's figures; with the
 * fast run not split, the phrase is as it always was and the evidence has no phases. */
static void test_phases_verdict(void **state)
{
    json_t *doc = pair_report(true);
    const json_t *ev, *wb;
    const char *text = judge(doc);
    (void)state;

    assert_non_null(strstr(text, "L2 write-backs per page 128.0 -> 40.0 (simulated), of which "
                                 "write-back phase 64.0 -> 0.0: fewer, as the hypothesis says. "
                                 "Memory bytes per table byte 2.00 -> 1.20 (simulated), of which "
                                 "copy-in phase 1.00 -> 0.60 and op phase 0.50 -> 0.10: less "
                                 "traffic."));
    ev = json_object_get(json_array_get(json_object_get(json_object_get(doc, "verdict"),
                                                        "comparisons"), 0), "counters");
    wb = json_object_get(json_object_get(ev, "phases"), "l2_writeback_per_page");
    assert_true(json_number_value(json_object_get(json_object_get(wb, "slow"), "writeback")) ==
                64.0);
    assert_true(json_number_value(json_object_get(json_object_get(wb, "fast"), "copy_in")) ==
                40.0);
    assert_int_equal(json_array_size(json_object_get(wb, "carried_by")), 1);
    assert_string_equal(json_string_value(json_array_get(json_object_get(wb, "carried_by"), 0)),
                        "writeback");
    assert_int_equal(json_array_size(json_object_get(json_object_get(json_object_get(
                                                         ev, "phases"), "mem_bytes_per_table_byte"),
                                                     "carried_by")),
                     2);
    json_decref(doc);

    doc = pair_report(false);
    text = judge(doc);
    assert_non_null(strstr(text, "L2 write-backs per page 128.0 -> 40.0 (simulated): fewer, as "
                                 "the hypothesis says. Memory bytes per table byte 2.00 -> 1.20 "
                                 "(simulated): less traffic."));
    ev = json_object_get(json_array_get(json_object_get(json_object_get(doc, "verdict"),
                                                        "comparisons"), 0), "counters");
    assert_null(json_object_get(ev, "phases"));
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_phases_json),
        cmocka_unit_test(test_phases_read_back),
        cmocka_unit_test(test_phases_text),
        cmocka_unit_test(test_phases_verdict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
