/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_report.c: unit tests for lib/report/report.h and lib/render/render.h. Runs a tiny plan for real (a 1MB
 * table, ops count and vacuum, the clock sweep over a 256KB pool and a 64KB ring, 2 timed scans)
 * and checks the JSON report field by field: schema, context (host, CPU, caches with their
 * sources, build provenance, system settings, timer) and each run's parameters, repetitions,
 * MB/s summary, validation record and counters. Then writes it: the file reads back equal, is
 * never overwritten (a second write keeps report-2.json), leaves no temporary file, and the
 * target checks refuse an existing file, an empty name, a name ending in '/' and a directory
 * that cannot be written; written as NAME.json.gz it is gzip data holding the same text, and
 * loads back. Last, the thread-style table rendered from it. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/git_hash.h"
#include "core/outfile.h"
#include "engine/engine.h"
#include "engine/iocache.h"
#include "engine/scan.h"
#include "host/topo.h"
#include "plan/plan.h"
#include "render/render.h"
#include "report/analysis.h"
#include "report/report.h"
#include "runner/record.h"
#include "runner/runner.h"
#include "stats/schedule.h"

#include "helper.h"

static const char tiny_ini[] = "[experiment]\n"
                               "name = tiny\n"
                               "description = a tiny report\n"
                               "table_size = 1M\n"
                               "pool_size = 256K\n"
                               "ring_size = 64K\n"
                               "repetitions = 2\n"
                               "warmup = 0\n"
                               "op = count, vacuum\n"
                               "policy = clock, ring\n"
                               "min_scan_ms = 0\n"
                               "slice_ms = 0\n"
                               "schedule_seed = 7\n";

struct fixture {
    json_t *report;
    struct sb_plan plan;
};

/* Plans tiny_ini, runs every run and collects the report (shared by the tests). */
static int setup(void **state)
{
    static struct fixture fx;
    struct sb_experiment exp;
    struct sb_mem_limit limit = {.bytes = 1ull << 40, .source = "test"};
    struct sb_topology topo;
    struct sb_error err = {0};

    if (sb_experiment_init(&exp, &err) != SB_OK ||
        sb_experiment_read_string(&exp, tiny_ini, "tiny.ini", &err) != SB_OK ||
        sb_plan_build(&exp, &limit, &fx.plan, &err) != SB_OK) {
        fprintf(stderr, "setup: %s\n", err.msg);
        sb_experiment_free(&exp);
        return -1;
    }
    sb_experiment_free(&exp);
    /* a topology that is known exactly: nothing found (no such sysfs), L2 and lines set */
    sb_topology_from_sysfs(&topo, "/nonexistent-sb-test-root");
    sb_topology_override_size(&topo, SB_L2, 1u << 20);
    sb_topology_override_line(&topo, 64);
    fx.report = sb_report_new(&fx.plan, &topo, "scanbench run tiny.ini");
    if (!fx.report || sb_runner_run(&fx.plan, fx.report, true, &err) != SB_OK) {
        fprintf(stderr, "setup: no report, or the runs failed: %s\n", err.msg);
        return -1;
    }
    json_object_set_new(fx.report, "analysis", sb_analysis_build(fx.report));
    *state = &fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;
    json_decref(fx->report);
    sb_plan_free(&fx->plan);
    return 0;
}

static const json_t *get(const json_t *obj, const char *key)
{
    const json_t *v = json_object_get(obj, key);
    if (!v)
        fail_msg("no key \"%s\"", key);
    return v;
}

static void assert_string_member(const json_t *obj, const char *key)
{
    const json_t *v = get(obj, key);
    if (!json_is_string(v))
        fail_msg("\"%s\" is not a string", key);
    assert_true(json_string_length(v) > 0);
}

/* A figure: {"value": number or null, "source": text}. */
static void assert_figure(const json_t *f, json_int_t value, const char *source)
{
    assert_true(json_is_object(f));
    assert_string_equal(json_string_value(get(f, "source")), source);
    if (value)
        assert_int_equal(json_integer_value(get(f, "value")), value);
    else
        assert_true(json_is_null(get(f, "value")));
}

static void test_report_top(void **state)
{
    struct fixture *fx = *state;
    const json_t *r = fx->report, *exp;
    (void)state;

    assert_string_equal(json_string_value(get(r, "schema")), "scanbench-report");
    assert_true(json_is_integer(get(r, "schema_version")));
    assert_int_equal(json_integer_value(get(r, "schema_version")), 4);
    assert_string_equal(json_string_value(get(r, "command")), "scanbench run tiny.ini");
    exp = get(r, "experiment");
    assert_string_equal(json_string_value(get(exp, "name")), "tiny");
    assert_string_equal(json_string_value(get(exp, "description")), "a tiny report");
    assert_string_equal(json_string_value(get(exp, "config")), "tiny.ini");
    assert_string_equal(json_string_value(get(exp, "notes")), "");
    assert_true(json_is_array(get(r, "runs")));
    assert_int_equal(json_array_size(get(r, "runs")), 4);
    assert_true(json_is_object(get(r, "units")));
    /* the readers' bounds are what a plan can make */
    assert_int_equal(SB_REPORT_MAX_RUNS, SB_MAX_RUNS);
    assert_int_equal(SB_REPORT_MAX_SCANS, sb_keys[SB_K_REPETITIONS].max);
}

static void test_report_context(void **state)
{
    struct fixture *fx = *state;
    const json_t *c = get(fx->report, "context"), *caches, *v;
    static const char *const levels[3] = {"L1d", "L2", "L3"};
    const char *date;

    assert_true(json_is_object(c));
    assert_string_member(c, "host");
    assert_string_member(c, "cpu_model");
    assert_string_member(c, "kernel_release");
    assert_string_member(c, "frequency_governor");   /* a value or why it is unavailable */
    assert_string_member(c, "transparent_hugepages");
    assert_string_member(c, "numa_balancing");

    caches = get(c, "caches");
    assert_true(json_is_array(caches));
    assert_int_equal(json_array_size(caches), 3);
    for (size_t l = 0; l < 3; l++) {
        const json_t *level = json_array_get(caches, l);
        assert_string_equal(json_string_value(get(level, "level")), levels[l]);
        /* the fixture's topology: only L2's size and every line size are known */
        assert_figure(get(level, "size"), l == 1 ? 1 << 20 : 0, l == 1 ? "config" : "unknown");
        assert_figure(get(level, "line"), 64, "config");
        assert_figure(get(level, "associativity"), 0, "unknown");
    }
    assert_figure(get(c, "numa_nodes"), 0, "unknown");
    assert_figure(get(c, "cores"), 0, "unknown");

    v = get(c, "compiler");
    assert_string_member(v, "version");
    assert_true(json_is_string(get(v, "flags")));
    v = get(c, "scanbench");
    assert_string_equal(json_string_value(get(v, "version")), PACKAGE_VERSION);
    assert_string_equal(json_string_value(get(v, "git")), SB_BUILD_GIT);

    /* date: UTC, "YYYY-MM-DDTHH:MM:SSZ" */
    date = json_string_value(get(c, "date"));
    assert_non_null(date);
    assert_int_equal(strlen(date), 20);
    for (int i = 0; i < 20; i++) {
        const char *shape = "dddd-dd-ddTdd:dd:ddZ";
        if (shape[i] == 'd')
            assert_true(date[i] >= '0' && date[i] <= '9');
        else
            assert_int_equal(date[i], shape[i]);
    }

    v = get(c, "timer");
    assert_string_member(v, "clock");
    assert_true(json_is_real(get(v, "resolution_s")));
    assert_true(json_is_real(get(v, "observed_tick_s")));
    assert_true(json_real_value(get(v, "observed_tick_s")) > 0);
}

static void test_report_runs(void **state)
{
    struct fixture *fx = *state;
    const json_t *runs = get(fx->report, "runs"), *run;
    static const char *const names[4] = {"tiny op=count policy=clock", "tiny op=count policy=ring",
                                         "tiny op=vacuum policy=clock",
                                         "tiny op=vacuum policy=ring"};
    size_t i;

    json_array_foreach(runs, i, run) {
        const json_t *reps, *mbps, *val, *ctr, *v;
        size_t j;
        int clock = i % 2 == 0;

        assert_string_equal(json_string_value(get(run, "name")), names[i]);
        assert_string_equal(json_string_value(get(run, "source")), "memory");
        assert_string_equal(json_string_value(get(run, "policy")), clock ? "clock" : "ring");
        assert_string_equal(json_string_value(get(run, "op")), i < 2 ? "count" : "vacuum");
        assert_string_equal(json_string_value(get(run, "kernel")), "memcpy");
        assert_int_equal(json_integer_value(get(run, "ring_size")), 65536);
        assert_int_equal(json_integer_value(get(run, "pool_size")), 262144);
        assert_int_equal(json_integer_value(get(run, "footprint")), clock ? 262144 : 65536);
        assert_int_equal(json_integer_value(get(run, "table_size")), 1048576);
        assert_int_equal(json_integer_value(get(run, "page_size")), 8192);
        assert_int_equal(json_integer_value(get(run, "rows_per_page")), 61);
        assert_int_equal(json_integer_value(get(run, "threads")), 1);
        assert_int_equal(json_integer_value(get(run, "warmup")), 0);
        assert_int_equal(json_integer_value(get(run, "pages")), 128);
        assert_int_equal(json_integer_value(get(run, "bytes_per_scan")), 1048576);
        /* 128 pages: clock uses all 32 buffers, the ring its 8; 128 is 4 laps of 32 */
        assert_int_equal(json_integer_value(get(run, "buffers_touched")), clock ? 32 : 8);
        assert_true(json_real_value(get(run, "clock_visits_per_page")) == (clock ? 2.0 : 0.0));

        reps = get(run, "repetitions");
        assert_true(json_is_array(reps));
        assert_int_equal(json_array_size(reps), 2);
        json_array_foreach(reps, j, v) {
            assert_true(json_is_number(v));
            assert_true(json_number_value(v) > 0);
        }
        mbps = get(run, "mbps");
        assert_true(json_is_real(get(mbps, "best")));
        assert_true(json_real_value(get(mbps, "best")) == json_real_value(get(mbps, "max")));
        assert_true(json_real_value(get(mbps, "min")) <= json_real_value(get(mbps, "median")));
        assert_true(json_real_value(get(mbps, "median")) <= json_real_value(get(mbps, "max")));
        assert_true(json_real_value(get(mbps, "min")) > 0);
        assert_true(json_real_value(get(mbps, "cv")) >= 0);

        assert_true(json_real_value(get(get(run, "slice"), "asked_ms")) == 0);
        assert_true(json_is_null(get(get(run, "slice"), "pages")));
        assert_true(json_is_null(get(get(run, "slice"), "whole_passes_because")));
        assert_int_equal(json_integer_value(get(get(run, "slice"), "table_pages")), 128);

        val = get(run, "validation");
        assert_true(json_is_true(get(val, "ok")));
        assert_int_equal(json_integer_value(get(val, "pages_checked_after_copy")),
                         json_integer_value(get(run, "pages")));
        assert_int_equal(json_integer_value(get(val, "pages_checked_after_op")), 128);
        assert_int_equal(json_integer_value(get(val, "pool_pages_checked")), clock ? 32 : 8);
        assert_int_equal(json_integer_value(get(val, "scans_row_checked")), 2);
        assert_true(json_integer_value(get(val, "rows_expected")) > 0);
        assert_int_equal(json_array_size(get(val, "checked")), 4);

        ctr = get(run, "counters");
        assert_string_equal(json_string_value(get(ctr, "backend")), "none");
        assert_string_equal(json_string_value(get(ctr, "status")), "not requested");
        assert_true(json_is_null(get(ctr, "reason")));
        assert_true(json_is_object(get(ctr, "values")));
        assert_int_equal(json_object_size(get(ctr, "values")), 0);
    }
    assert_int_equal(i, 4);
}

/* json_equal, except that reals agree to the 10 significant digits the writer keeps. */
static int same_json(const json_t *a, const json_t *b)
{
    if (json_is_real(a) && json_is_real(b)) {
        double x = json_real_value(a), y = json_real_value(b);
        return x == y || fabs(x - y) <= 1e-9 * fmax(fabs(x), fabs(y));
    }
    if (json_typeof(a) != json_typeof(b))
        return 0;
    if (json_is_object(a)) {
        const char *key;
        json_t *v;
        if (json_object_size(a) != json_object_size(b))
            return 0;
        json_object_foreach((json_t *)a, key, v)
            if (!json_object_get(b, key) || !same_json(v, json_object_get(b, key)))
                return 0;
        return 1;
    }
    if (json_is_array(a)) {
        if (json_array_size(a) != json_array_size(b))
            return 0;
        for (size_t i = 0; i < json_array_size(a); i++)
            if (!same_json(json_array_get(a, i), json_array_get(b, i)))
                return 0;
        return 1;
    }
    return json_equal((json_t *)a, (json_t *)b);
}

static void test_report_write(void **state)
{
    struct fixture *fx = *state;
    char dir[256];
    char path[320], sub[320], used[SB_OUTFILE_MAX], *before, *after, *second;
    struct sb_error err = {0};
    json_error_t jerr;
    json_t *back;

    assert_int_equal(sbtest_scratch_make(dir, sizeof dir, "report"), 0);
    snprintf(path, sizeof path, "%s/report.json", dir);
    assert_int_equal(sb_report_check_target(path, &err), SB_OK);
    assert_int_equal(sb_report_write(fx->report, path, used, &err), SB_OK);
    assert_string_equal(used, path);
    assert_true(json_is_integer(json_object_get(fx->report, "peak_rss_bytes")));

    back = json_load_file(path, 0, &jerr);
    if (!back)
        fail_msg("%s: %s", path, jerr.text);
    assert_true(same_json(back, fx->report));
    json_decref(back);
    assert_int_equal(sbtest_count_entries(dir, NULL), 1);
    assert_int_equal(sbtest_count_entries(dir, ".tmp."), 0);

    /* the file is there now: the check before a run refuses; a write at the end of one (the
     * name appeared during the run) keeps the report as report-2.json, the first file stays */
    before = sbtest_read_file(path, NULL);
    assert_int_equal(sb_report_check_target(path, &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "exists"));
    assert_true(strncmp(err.msg, path, strlen(path)) == 0);
    memset(&err, 0, sizeof err);
    assert_int_equal(sb_report_write(fx->report, path, used, &err), SB_OK);
    snprintf(sub, sizeof sub, "%s/report-2.json", dir);
    assert_string_equal(used, sub);
    after = sbtest_read_file(path, NULL);
    assert_string_equal(before, after);
    second = sbtest_read_file(sub, NULL);
    back = json_loads(second, 0, &jerr);
    assert_non_null(back);
    assert_true(same_json(back, fx->report));
    json_decref(back);
    free(before);
    free(after);
    free(second);
    assert_int_equal(sbtest_count_entries(dir, NULL), 2);
    assert_int_equal(sbtest_count_entries(dir, ".tmp."), 0);
    assert_int_equal(unlink(sub), 0);

    /* an empty name, a name ending in '/', a directory that does not exist cannot be written */
    assert_int_equal(sb_report_check_target("", &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "-o \"\": an empty name (the report needs a file name)");
    snprintf(sub, sizeof sub, "%s/", dir);
    assert_int_equal(sb_report_check_target(sub, &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "names a directory"));
    snprintf(sub, sizeof sub, "%s/no-such-dir/report.json", dir);
    assert_int_equal(sb_report_check_target(sub, &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "cannot write into"));
    assert_int_equal(sb_report_write(fx->report, sub, used, &err), SB_ERR_RUN);
    assert_non_null(strstr(err.msg, "cannot create"));
    /* a regular file as the directory */
    snprintf(sub, sizeof sub, "%s/report.json/x.json", dir);
    assert_int_equal(sb_report_check_target(sub, &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "Not a directory"));
    /* nor one without write permission (root writes anywhere: checked only for others) */
    if (geteuid() != 0) {
        snprintf(sub, sizeof sub, "%s/ro", dir);
        assert_int_equal(mkdir(sub, 0555), 0);
        snprintf(sub, sizeof sub, "%s/ro/report.json", dir);
        assert_int_equal(sb_report_check_target(sub, &err), SB_ERR_INPUT);
        assert_non_null(strstr(err.msg, "cannot write into"));
        snprintf(sub, sizeof sub, "%s/ro", dir);
        assert_int_equal(rmdir(sub), 0);
    }

    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* Written as NAME.json.gz: gzip data (the magic first), whose text is the report's exactly as
 * the plain file has it, and which the reader loads as the same report; nothing else left. */
static void test_report_write_gz(void **state)
{
    struct fixture *fx = *state;
    char dir[256], path[320], used[SB_OUTFILE_MAX], *packed, *text, *want;
    size_t len, text_len;
    struct sb_error err = {0};
    json_t *back;

    assert_int_equal(sbtest_scratch_make(dir, sizeof dir, "report_gz"), 0);
    snprintf(path, sizeof path, "%s/report.json.gz", dir);
    assert_int_equal(sb_report_write(fx->report, path, used, &err), SB_OK);
    assert_string_equal(used, path);
    packed = sbtest_read_file(path, &len);
    assert_true(len > 2 && (unsigned char)packed[0] == 0x1f && (unsigned char)packed[1] == 0x8b);
    assert_int_equal(sb_report_gz_inflate(packed, len, path, &text, &text_len, &err), SB_OK);
    want = json_dumps(fx->report, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    assert_non_null(want);
    assert_int_equal(text_len, strlen(want) + 1);
    assert_memory_equal(text, want, strlen(want));
    assert_int_equal(text[text_len - 1], '\n');
    assert_int_equal(sb_report_load(path, &back, &err), SB_OK);
    assert_true(same_json(back, fx->report));
    json_decref(back);
    free(want);
    free(text);
    free(packed);
    assert_int_equal(sbtest_count_entries(dir, NULL), 1);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* The schedule: interleaved, seed 7, 2 rounds; in each round the 4 runs and the first run's
 * second timing (the A-A pair) took the positions the round's seeded shuffle gave them: each
 * position once, run k at the place of k in sb_schedule_round_order(7, round, 5), the
 * reference at the place of 4; and each round's scans ran in that order in time. */
static void test_report_schedule(void **state)
{
    struct fixture *fx = *state;
    const json_t *schedule = get(fx->report, "schedule"), *ref = get(schedule, "reference");
    const json_t *runs = get(fx->report, "runs");

    assert_string_equal(json_string_value(get(schedule, "kind")), "interleaved");
    assert_int_equal(json_integer_value(get(schedule, "seed")), 7);
    assert_int_equal(json_integer_value(get(schedule, "rounds")), 2);
    assert_string_equal(json_string_value(get(schedule, "stopped_by")), "rounds");
    assert_string_equal(json_string_value(get(ref, "run")), "tiny op=count policy=clock");
    for (uint32_t round = 0; round < 2; round++) {
        uint32_t order[5];
        double at[5];
        sb_schedule_round_order(7, round, 5, order);
        for (uint32_t k = 0; k < 5; k++) {
            const json_t *scans = order[k] == 4 ? get(ref, "scans")
                                                : get(json_array_get(runs, order[k]), "scans");
            const json_t *scan = json_array_get(scans, round);
            assert_int_equal(json_integer_value(get(scan, "round")), round);
            assert_int_equal(json_integer_value(get(scan, "position")), k);
            assert_int_equal(json_integer_value(get(scan, "passes")), 1);
            at[k] = json_number_value(get(scan, "at"));
            assert_true(k == 0 || at[k] > at[k - 1]);
        }
    }
}

static void test_render(void **state)
{
    struct fixture *fx = *state;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    json_t *empty;
    static const char *const want[] = {
        "scanbench tiny: a tiny report", "table 1MB (128 pages of 8192 bytes, 61 rows each)",
        "2 rounds, interleaved, after 0 warm-up", "Operation", "SELECT COUNT(*)", "VACUUM",
        "clock 256KB", "ring 64KB", "ratio", "MB/s = table bytes", "counters: none, not requested",
    };

    assert_non_null(out);
    assert_int_equal(sb_render_table(out, fx->report), 0);
    assert_int_equal(fclose(out), 0);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(text, want[i]))
            fail_msg("no \"%s\" in:\n%s", want[i], text);
    /* the count row comes before the vacuum row, the clock column before the ring */
    assert_true(strstr(text, "SELECT COUNT(*)") < strstr(text, "VACUUM"));
    assert_true(strstr(text, "clock 256KB") < strstr(text, "ring 64KB"));
    assert_null(strstr(text, "not shown"));
    {
        /* the header has the two columns and the ratio column; each op row has a ratio */
        const char *head = strstr(text, "\nOperation ");
        const char *count = strstr(text, "\nSELECT COUNT(*) ");
        const char *end;
        assert_non_null(head);
        end = strchr(head + 1, '\n');
        assert_non_null(end);
        assert_true(end - head > 8 && strncmp(end - 8, "   ratio", 8) == 0);
        assert_non_null(count);
        end = strchr(count + 1, '\n');
        assert_non_null(end);
        /* the row ends with the paired ratio ring / clock (runs 1 and 0) of the analysis, its
         * interval and its call */
        {
            const json_t *cmp = json_array_get(json_object_get(json_object_get(fx->report,
                                                                               "analysis"),
                                                               "comparisons"), 0);
            const char *call = json_string_value(json_object_get(cmp, "call"));
            char ratio[64];
            int n;
            assert_string_equal(json_string_value(json_object_get(cmp, "a")),
                                "tiny op=count policy=ring");
            n = snprintf(ratio, sizeof ratio, "%.2fx [%.2f, %.2f] %c",
                         json_number_value(json_object_get(cmp, "ratio")),
                         json_number_value(json_object_get(cmp, "lo")),
                         json_number_value(json_object_get(cmp, "hi")),
                         strcmp(call, "faster") == 0 ? '+' : strcmp(call, "slower") == 0 ? '-'
                         : strcmp(call, "same") == 0 ? '=' : strcmp(call, "withheld") == 0 ? '!'
                                                                                           : '?');
            assert_true(end - count > n);
            if (strncmp(end - n, ratio, (size_t)n) != 0)
                fail_msg("count row does not end with \"%s\"", ratio);
        }
    }
    free(text);

    empty = json_object();
    out = open_memstream(&text, &len);
    assert_non_null(out);
    assert_int_equal(sb_render_table(out, empty), -1);
    fclose(out);
    free(text);
    json_decref(empty);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_top),
        cmocka_unit_test(test_report_context),
        cmocka_unit_test(test_report_runs),
        cmocka_unit_test(test_report_write),
        cmocka_unit_test(test_report_write_gz),
        cmocka_unit_test(test_report_schedule),
        cmocka_unit_test(test_render),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
