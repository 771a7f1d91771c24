/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_predict.c: a run's prediction (lib/runner/predict.h) on hand-made counts and costs,
 * worked by hand: one scanner; several at once, each with its share of the table on a core of
 * its own and its share of a memory's bus; write-backs drained behind the core's work until the
 * bus is the bound; the calibration that reaches a figure through them.
 *
 * The machine: 1GHz, no cost for hits, a fill from memory 5 ns isolated, 6.4 GB/s (a 64-byte
 * line every 10 ns), no prefetcher, one fill in flight: a stream's fills are bandwidth-bound at
 * 10 ns each, after the first at the latency. The scan: one page, one pass, 1001 lines filled
 * in copy_in and nothing else; the op 100 ns a page on this host. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "runner/predict.h"

static struct sb_cachesim_counts phases[SB_NPHASES];

static void scan(struct sb_run_result *res, struct sb_machine *m, unsigned controllers)
{
    struct sb_counters *c = &res->counters;

    memset(res, 0, sizeof *res);
    memset(m, 0, sizeof *m);
    memset(phases, 0, sizeof phases);
    snprintf(m->name, sizeof m->name, "hand");
    m->costs = (struct sb_machine_costs){.present = true, .clock_ghz = 1, .mem_latency_ns = 5,
                                         .mem_read_gbps = 6.4, .mem_write_gbps = 6.4,
                                         .nt_write_gbps = 6.4, .mlp = 1,
                                         .memory_controllers = controllers};
    phases[SB_PHASE_COPY_IN].line_accesses = 1001;
    phases[SB_PHASE_COPY_IN].mem_read_bytes = 1001 * 64;
    c->simulated = c->have_phases = true;
    c->nreps = 1;
    c->line_size = 64;
    c->phase_counts = phases;
    res->passes = 1;
    res->pages_per_scan = 1;
    res->bytes_per_scan = 8192;
    res->op_host_ns_per_page = 100;
}

static void test_one_scanner(void **state)
{
    struct sb_run_result res;
    struct sb_machine m;
    struct sb_prediction p;

    (void)state;
    scan(&res, &m, 1);
    assert_int_equal(sb_predict_run(&res, &res.counters, &m, 2.0, 1, &p), SB_OK);
    assert_true(p.have);
    /* 5 ns + 1000 x 10 ns; the op 100 ns x factor 2 */
    assert_float_equal(p.memory_seconds, 10005e-9, 1e-15);
    assert_float_equal(p.cpu_seconds, 200e-9, 1e-15);
    assert_float_equal(p.mbps, 8192 / 10205e-9 / 1e6, 1e-6);
    assert_int_equal(p.scanners, 1);
    assert_int_equal(p.sharing, 1);
}

/* Four scanners on two memories: each a quarter of the table on a core of its own (stalls
 * 10005 / 4 ns, CPU 200 / 4), its bus time (1001 lines at 10 ns: 10010 / 4) twice over, the
 * two sharing its memory: 5005 ns > 2551.25: memory-bound. */
static void test_four_scanners_two_memories(void **state)
{
    struct sb_run_result res;
    struct sb_machine m;
    struct sb_prediction p;

    (void)state;
    scan(&res, &m, 2);
    assert_int_equal(sb_predict_run(&res, &res.counters, &m, 2.0, 4, &p), SB_OK);
    assert_int_equal(p.sharing, 2);
    assert_float_equal(p.memory_seconds, 10005e-9 / 4, 1e-15);
    assert_float_equal(p.cpu_seconds, 200e-9 / 4, 1e-15);
    assert_float_equal(p.bus_seconds, 2 * 10010e-9 / 4, 1e-15);
    assert_true(p.memory_bound);
    assert_float_equal(p.seconds_per_scan, 5005e-9, 1e-15);
    /* four memories: nobody shares; the bus 2502.5 ns < 2551.25: core-bound */
    scan(&res, &m, 4);
    assert_int_equal(sb_predict_run(&res, &res.counters, &m, 2.0, 4, &p), SB_OK);
    assert_int_equal(p.sharing, 1);
    assert_false(p.memory_bound);
    assert_float_equal(p.seconds_per_scan, (10005e-9 + 200e-9) / 4, 1e-15);
    /* three on two memories: two share one (ceil): 2 x 10010 / 3 > (10005 + 200) / 3 */
    scan(&res, &m, 2);
    assert_int_equal(sb_predict_run(&res, &res.counters, &m, 2.0, 3, &p), SB_OK);
    assert_int_equal(p.sharing, 2);
    assert_float_equal(p.seconds_per_scan, 2 * 10010e-9 / 3, 1e-15);
}

/* Write-backs are posted (timemodel.h rule 2): 1000 dirty lines written back add 10000 ns to
 * the bus, none to the stalls. With the CPU at 200 ns the bus (20010 ns) is the bound; at
 * 20000 ns (factor 200) the core's 30005 ns hide them whole, where adding them up gave 40005. */
static void test_writebacks_drain_behind_the_core(void **state)
{
    struct sb_run_result res;
    struct sb_machine m;
    struct sb_prediction p;

    (void)state;
    scan(&res, &m, 1);
    phases[SB_PHASE_COPY_IN].mem_write_bytes = 1000 * 64;
    assert_int_equal(sb_predict_run(&res, &res.counters, &m, 2.0, 1, &p), SB_OK);
    assert_float_equal(p.memory_seconds, 10005e-9, 1e-15);
    assert_float_equal(p.bus_seconds, 20010e-9, 1e-15);
    assert_true(p.memory_bound);
    assert_float_equal(p.seconds_per_scan, 20010e-9, 1e-15);
    assert_int_equal(sb_predict_run(&res, &res.counters, &m, 200.0, 1, &p), SB_OK);
    assert_false(p.memory_bound);
    assert_float_equal(p.seconds_per_scan, 30005e-9, 1e-15);
}

/* The factor that reaches a figure with four scanners on two memories (stalls 2501.25 ns, bus
 * 5005 ns, host CPU 25 ns): 1000 ns is below the stalls, 4000 ns below the bus: none; 10000 ns:
 * (10000 - 2501.25) / 25. */
static void test_calibration_with_scanners(void **state)
{
    struct sb_run_result res;
    struct sb_machine m;
    struct sb_prediction p;
    double factor;
    char why[256];

    (void)state;
    scan(&res, &m, 2);
    assert_int_equal(sb_predict_run(&res, &res.counters, &m, 0, 4, &p), SB_OK);
    assert_false(p.have);
    assert_false(sb_predict_calibrate(&p, 1000e-9, &factor, why, sizeof why));
    assert_non_null(strstr(why, "memory part alone"));
    assert_false(sb_predict_calibrate(&p, 4000e-9, &factor, why, sizeof why));
    assert_non_null(strstr(why, "memory's bus alone"));
    assert_non_null(strstr(why, "no core factor can make it so"));
    assert_true(sb_predict_calibrate(&p, 10000e-9, &factor, why, sizeof why));
    assert_float_equal(factor, (10000 - 10005.0 / 4) / 25, 1e-9);
    assert_int_equal(sb_predict_run(&res, &res.counters, &m, factor, 4, &p), SB_OK);
    assert_float_equal(p.seconds_per_scan, 10000e-9, 1e-15);
}

/* The clocks' band beside a factor: within [low, high], above it (absorbs work the model
 * lacks), below it, unknown without clocks; the band's edges are within. */
static void test_clock_verdict(void **state)
{
    (void)state;
    assert_string_equal(sb_predict_clock_verdict(2.0, 1.14, 4.56), "within");
    assert_string_equal(sb_predict_clock_verdict(1.14, 1.14, 4.56), "within");
    assert_string_equal(sb_predict_clock_verdict(4.56, 1.14, 4.56), "within");
    assert_string_equal(sb_predict_clock_verdict(10.6, 1.14, 4.56), "above");
    assert_string_equal(sb_predict_clock_verdict(0.5, 1.14, 4.56), "below");
    assert_string_equal(sb_predict_clock_verdict(2.0, 0, 0), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_scanner),
        cmocka_unit_test(test_four_scanners_two_memories),
        cmocka_unit_test(test_writebacks_drain_behind_the_core),
        cmocka_unit_test(test_calibration_with_scanners),
        cmocka_unit_test(test_clock_verdict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
