/* SPDX-License-Identifier: BSD-3-Clause */
/* test_plan_estimate.c: unit tests for lib/plan/estimate.c: the least time a plan takes
 * (sb_plan_least_seconds) is a floor on the schedule the engine really makes, on hosts of every
 * speed down to the fastest a core can be. Each synthetic plan's schedule is made here as the
 * runner and the engine make it (runner.c, phases.c): per instance (the runs, and the first
 * run's second instance on the interleaved schedule) one validation pass, the warm-up passes
 * (one when warmup = 0 and the warm-up sizes the timed scans), then a timed scan a round: a
 * slice of slice_ms only where a pass lasts two slices or more, else whole passes, as many as
 * min_scan_ms takes (one at least). The estimate must not pass that schedule at any pass
 * speed, and must keep the time a slice or min_scan_ms certainly gives (the plan_limit refusal
 * of a 10000-run sweep). Issue 49: 4 runs of a 4MB table, 1000 rounds, min_scan_ms 0, were
 * said to take "at least 50 s on any host" and took 2.1 s. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"

/* Per-scanner rates, bytes a second, from the fastest a core loads from its L1 (768 GB/s: 128
 * bytes a cycle at 6 GHz) down to a slow host's memory. */
static const double rates[] = {768e9, 300e9, 100e9, 20e9, 1e9};

/* A plan of n runs alike (run), its schedule kind and rounds (0: auto). */
static struct sb_plan *plan_of(size_t n, const struct sb_run_params *run,
                               enum sb_schedule_kind kind, uint32_t rounds)
{
    struct sb_plan *plan = calloc(1, sizeof *plan);

    assert_non_null(plan);
    plan->runs = calloc(n, sizeof *plan->runs);
    assert_non_null(plan->runs);
    for (size_t i = 0; i < n; i++)
        plan->runs[i] = *run;
    plan->nruns = n;
    plan->schedule.kind = kind;
    plan->schedule.rounds = rounds;
    return plan;
}

static void plan_free(struct sb_plan *plan)
{
    free(plan->runs);
    free(plan);
}

/* The seconds the schedule takes where a scanner moves rate bytes a second: its passes and
 * timed scans, nothing else (the settling passes, the statements, the draws come on top). */
static double schedule_seconds(const struct sb_plan *plan, double rate)
{
    const struct sb_schedule_params *s = &plan->schedule;
    uint32_t rounds = s->rounds ? s->rounds : SB_AUTO_ROUNDS_MIN;
    double total = 0.0;

    for (size_t i = 0; i < plan->nruns; i++) {
        const struct sb_run_params *r = &plan->runs[i];
        bool may_slice = r->slice_seconds > 0 && !r->slice_off;
        double bytes = (double)r->table_size / (r->threads > 1 && r->shared_table ? r->threads : 1);
        double pass = bytes / rate, timed;
        uint32_t warm = r->warmup ? r->warmup : r->min_scan_seconds > 0 || may_slice ? 1 : 0;
        unsigned instances = s->kind == SB_SCHEDULE_INTERLEAVED && i == 0 ? 2u : 1u;

        if (may_slice && pass >= SB_SLICES_PER_PASS * r->slice_seconds)
            timed = r->slice_seconds;
        else
            timed = fmax(1.0, ceil(r->min_scan_seconds / pass)) * pass;
        total += instances * ((1.0 + warm) * pass + rounds * timed);
    }
    return total;
}

/* The estimate is at most the schedule at every rate; its rounds are the schedule's. */
static double floor_holds(const struct sb_plan *plan)
{
    uint32_t rounds;
    double least = sb_plan_least_seconds(plan, &rounds);

    assert_int_equal(rounds, plan->schedule.rounds ? plan->schedule.rounds : SB_AUTO_ROUNDS_MIN);
    assert_true(least > 0);
    for (size_t k = 0; k < sizeof rates / sizeof rates[0]; k++)
        if (!(least <= schedule_seconds(plan, rates[k])))
            fail_msg("at %g B/s the schedule takes %g s, less than the estimate %g s", rates[k],
                     schedule_seconds(plan, rates[k]), least);
    return least;
}

static struct sb_run_params run_of(uint64_t table, uint32_t warmup, double min_scan, double slice)
{
    struct sb_run_params r;

    memset(&r, 0, sizeof r);
    r.table_size = table;
    r.page_size = 8192;
    r.threads = 1;
    r.warmup = warmup;
    r.min_scan_seconds = min_scan;
    r.slice_seconds = slice;
    return r;
}

/* Issue 49's plan: 4 runs of a 4MB table, min_scan_ms 0, warmup 0, slice_ms 10, 1000 rounds.
 * A pass lasts far less than two slices anywhere: whole passes, and plan_limit = 30 holds it. */
static void test_small_table_no_slices(void **state)
{
    struct sb_run_params r = run_of(4ull << 20, 0, 0.0, 0.010);
    struct sb_plan *plan = plan_of(4, &r, SB_SCHEDULE_INTERLEAVED, 1000);
    char line[256];
    struct sb_error err = {0};
    (void)state;

    assert_true(floor_holds(plan) < 1.0);
    assert_int_equal(sb_plan_check_limit(plan, 30, "--set plan_limit=30", &err), SB_OK);
    sb_plan_estimate_text(plan, line, sizeof line);
    assert_string_equal(line, "4 runs, 1000 rounds: the scans take at least 0.0 s on any host");
    plan_free(plan);

    /* 256 runs of 1000 rounds: "at least 43 min" before, a minute on a 2-vCPU guest */
    r = run_of(4ull << 20, 0, 0.0, 0.010);
    plan = plan_of(256, &r, SB_SCHEDULE_INTERLEAVED, 1000);
    assert_true(floor_holds(plan) < 60.0);
    plan_free(plan);
}

/* min_scan_ms: every timed scan lasts at least that long, sliced or not: the floor keeps it
 * (the 10000-run sweep of bad_input.sh is refused for its 28 h). */
static void test_min_scan_kept(void **state)
{
    struct sb_run_params r = run_of(1ull << 20, 0, 0.010, 0.010);
    struct sb_plan *plan = plan_of(10000, &r, SB_SCHEDULE_INTERLEAVED, 1000);
    struct sb_error err = {0};
    double least;
    (void)state;

    least = floor_holds(plan);
    assert_true(least >= 10001 * 1000 * 0.010);
    assert_int_equal(sb_plan_check_limit(plan, 14400, "default", &err), SB_ERR_INPUT);
    plan_free(plan);

    /* no slices (a file run): whole passes of at least min_scan_ms */
    r = run_of(512ull << 20, 1, 0.010, 0.010);
    r.slice_off = "source file: the kernel's reads are timed in whole passes";
    plan = plan_of(3, &r, SB_SCHEDULE_BLOCKED, 0);
    assert_true(floor_holds(plan) >= 3 * SB_AUTO_ROUNDS_MIN * 0.010);
    plan_free(plan);
}

/* A table so large that a pass lasts two slices even at the fastest rate: sliced everywhere,
 * each timed scan a slice; with min_scan_ms 0 and a pass under two slices, one pass. */
static void test_slices_certain(void **state)
{
    struct sb_run_params r = run_of(64ull << 30, 0, 0.0, 0.010);
    struct sb_plan *plan = plan_of(2, &r, SB_SCHEDULE_INTERLEAVED, 0);
    (void)state;

    assert_true(floor_holds(plan) >= 3 * SB_AUTO_ROUNDS_MIN * 0.010);
    plan_free(plan);
}

/* Scanners dividing one table pass over it together, each its share; with tables of their own,
 * each a whole table at once. */
static void test_threads(void **state)
{
    struct sb_run_params r = run_of(256ull << 20, 2, 0.0, 0.0);
    struct sb_plan *plan;
    (void)state;

    r.threads = 4;
    r.shared_table = true;
    plan = plan_of(2, &r, SB_SCHEDULE_INTERLEAVED, 50);
    floor_holds(plan);
    plan_free(plan);
    r.shared_table = false;
    plan = plan_of(2, &r, SB_SCHEDULE_BLOCKED, 50);
    floor_holds(plan);
    plan_free(plan);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_table_no_slices),
        cmocka_unit_test(test_min_scan_kept),
        cmocka_unit_test(test_slices_certain),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
