#include "config.h"
/* test_verdict.c: unit tests for the verdict of a reproduced experiment (lib/verdict.h), the
 * lines the reproduction table prints from it (lib/render_thread.h) and the run helpers they
 * share with compare (lib/report_runs.h), on reports built in memory: a clock sweep of 3 pool
 * sizes (x4500-bigtable's 16MB, 680KB and 16KB) gives no knee and says that it has too few
 * points for one; a sweep of 4 gives its knee, in order of pool size; one clock run beside a
 * ring, or two clock pools, are no sweep and say nothing about knees. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_thread.h"
#include "report_runs.h"
#include "verdict.h"

#define KB 1024
#define MB (1024 * 1024)
#define TABLE (64 * MB)

/* A run of op under policy at footprint whose repetitions took seconds[0..2]; its median MB/s
 * is that of seconds[1] (the middle one). */
static json_t *run(const char *op, const char *policy, json_int_t footprint,
                   const double seconds[3])
{
    json_t *r = json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:[f, f, f], "
                          "s:{s:f}, s:{s:s, s:s}}",
                          "name", "run", "source", "memory", "op", op, "policy", policy,
                          "kernel", "memcpy", "table_size", (json_int_t)TABLE, "pool_size",
                          footprint, "ring_size", (json_int_t)(256 * KB), "page_size",
                          (json_int_t)8192, "footprint", footprint, "repetitions", seconds[0],
                          seconds[1], seconds[2], "mbps", "median", TABLE / seconds[1] / 1e6,
                          "counters", "backend", "none", "status", "none");
    assert_non_null(r);
    return r;
}

/* A report of the runs (reference taken over), with a [thread] block naming slow and fast. */
static json_t *report(json_t *runs, const char *slow, const char *fast)
{
    json_t *r = json_pack("{s:o, s:{s:s, s:s, s:s, s:s, s:[]}, s:{s:s, s:s}, s:{s:[]}}", "runs",
                          runs, "thread", "who", "test", "table", "test", "slow", slow, "fast",
                          fast, "figures", "experiment", "name", "test", "description", "test",
                          "context", "caches");
    assert_non_null(r);
    return r;
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

/* x4500-bigtable: count and vacuum over clock pools of 16MB, 680KB and 16KB. */
static void test_three_pool_sizes(void **state)
{
    static const double s[] = {0.5, 0.4, 0.45};
    json_t *runs = json_array(), *doc, *verdict, *no_knee;
    char *text;
    (void)state;

    for (int op = 0; op < 2; op++) {
        const char *name = op ? "vacuum" : "count";
        json_array_append_new(runs, run(name, "clock", 16 * MB, s));
        json_array_append_new(runs, run(name, "clock", 680 * KB, s));
        json_array_append_new(runs, run(name, "clock", 16 * KB, s));
    }
    doc = report(runs, "clock 16MB", "clock 680KB");
    verdict = sb_verdict_build(doc);
    assert_int_equal(json_array_size(json_object_get(verdict, "knees")), 0);
    no_knee = json_object_get(verdict, "no_knee");
    assert_int_equal(json_array_size(no_knee), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(no_knee, 0), "op")),
                        "count");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(no_knee, 0), "points")), 3);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(no_knee, 0), "needed")), 4);
    assert_string_equal(json_string_value(json_object_get(json_array_get(no_knee, 0), "text")),
                        "SELECT COUNT(*): no knee: the clock sweep has 3 pool sizes (16KB, 680KB, "
                        "16MB), too few points for a knee (at least 4 needed).");
    assert_string_equal(json_string_value(json_object_get(json_array_get(no_knee, 1), "op")),
                        "vacuum");
    /* the table's verdict says it, too */
    json_object_set_new(doc, "verdict", verdict);
    text = rendered(doc);
    if (!strstr(text, "\nverdict:\n") ||
        !strstr(text, "  VACUUM: no knee: the clock sweep has 3 pool sizes (16KB, 680KB, 16MB), "
                      "too few points for a knee (at least 4 needed).\n"))
        fail_msg("the verdict does not say why there is no knee:\n%s", text);
    free(text);
    json_decref(doc);
}

/* Four pool sizes: the knee is the step where MB/s falls most (here 2x, 512KB to 1MB), in order
 * of pool size whatever order the report lists them in. */
static void test_four_pool_sizes(void **state)
{
    static const double fast[] = {0.1, 0.1, 0.1}, slow[] = {0.2, 0.2, 0.2};
    json_t *runs = json_array(), *doc, *verdict, *knee;
    char *text;
    (void)state;

    json_array_append_new(runs, run("count", "clock", 2 * MB, slow));
    json_array_append_new(runs, run("count", "clock", 256 * KB, fast));
    json_array_append_new(runs, run("count", "clock", 1 * MB, slow));
    json_array_append_new(runs, run("count", "clock", 512 * KB, fast));
    doc = report(runs, "", "");
    verdict = sb_verdict_build(doc);
    assert_int_equal(json_array_size(json_object_get(verdict, "no_knee")), 0);
    assert_int_equal(json_array_size(json_object_get(verdict, "knees")), 1);
    knee = json_array_get(json_object_get(verdict, "knees"), 0);
    assert_string_equal(json_string_value(json_object_get(knee, "op")), "count");
    assert_int_equal(json_integer_value(json_object_get(knee, "from")), 512 * KB);
    assert_int_equal(json_integer_value(json_object_get(knee, "to")), 1 * MB);
    assert_true(fabs(json_number_value(json_object_get(knee, "fall")) - 2.0) < 1e-9);
    json_object_set_new(doc, "verdict", verdict);
    text = rendered(doc);
    assert_non_null(strstr(text, "  SELECT COUNT(*): MB/s falls most (2.00x) between pools of "
                                 "512KB and 1MB.\n"));
    assert_null(strstr(text, "no knee"));
    free(text);
    json_decref(doc);
}

/* One clock run beside a ring (pg83-ring's shape), or two clock pools (x4500-memtable's slow/fast
 * pair): no sweep, nothing said about knees. */
static void test_no_sweep(void **state)
{
    static const double s[] = {0.2, 0.2, 0.2};
    json_t *runs = json_array(), *doc, *verdict;
    (void)state;

    json_array_append_new(runs, run("count", "clock", 16 * MB, s));
    json_array_append_new(runs, run("count", "ring", 256 * KB, s));
    json_array_append_new(runs, run("vacuum", "clock", 16 * MB, s));
    json_array_append_new(runs, run("vacuum", "clock", 680 * KB, s));
    doc = report(runs, "clock 16MB", "ring 256KB");
    verdict = sb_verdict_build(doc);
    assert_int_equal(json_array_size(json_object_get(verdict, "knees")), 0);
    assert_int_equal(json_array_size(json_object_get(verdict, "no_knee")), 0);
    assert_int_equal(json_integer_value(json_object_get(verdict, "compared")), 1);
    json_decref(verdict);
    json_decref(doc);
}

/* The shared run helpers: MB/s per repetition (table bytes / seconds / 10^6), the median, the
 * placement's name and the lookup by op and placement. */
static void test_report_runs(void **state)
{
    static const double s[] = {0.5, 0.25, 2.0};
    json_t *runs = json_array();
    const json_t *r;
    char placement[64];
    double *samples;
    size_t n;
    (void)state;

    json_array_append_new(runs, run("count", "clock", 16 * MB, s));
    json_array_append_new(runs, run("vacuum", "ring", 256 * KB, s));
    r = json_array_get(runs, 1);
    samples = sb_run_mbps_samples(r, &n);
    assert_non_null(samples);
    assert_int_equal(n, 3);
    assert_true(fabs(samples[0] - TABLE / 0.5 / 1e6) < 1e-9);
    assert_true(fabs(samples[1] - TABLE / 0.25 / 1e6) < 1e-9);
    assert_true(fabs(samples[2] - TABLE / 2.0 / 1e6) < 1e-9);
    free(samples);
    assert_true(fabs(sb_run_median_mbps(r) - TABLE / 0.25 / 1e6) < 1e-9);
    sb_run_placement(r, placement, sizeof placement);
    assert_string_equal(placement, "ring 256KB");
    assert_ptr_equal(sb_find_run(runs, "vacuum", "ring 256KB"), r);
    assert_ptr_equal(sb_find_run(runs, "count", "clock 16MB"), json_array_get(runs, 0));
    assert_null(sb_find_run(runs, "count", "ring 256KB"));
    json_decref(runs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_pool_sizes),
        cmocka_unit_test(test_four_pool_sizes),
        cmocka_unit_test(test_no_sweep),
        cmocka_unit_test(test_report_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
