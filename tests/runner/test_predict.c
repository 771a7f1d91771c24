#include "config.h"
/* test_predict.c: a run's prediction (lib/runner/predict.h) on hand-made counts and costs,
 * worked by hand: one scanner; several at once, each with its share of the table and its share
 * of a memory's bandwidths; the calibration that reaches a figure through them.
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

/* Four scanners on two memories: two share each, a line every 20 ns each; a quarter of the
 * table each. */
static void test_four_scanners_two_memories(void **state)
{
    struct sb_run_result res;
    struct sb_machine m;
    struct sb_prediction p;

    (void)state;
    scan(&res, &m, 2);
    assert_int_equal(sb_predict_run(&res, &res.counters, &m, 2.0, 4, &p), SB_OK);
    assert_int_equal(p.sharing, 2);
    assert_float_equal(p.memory_seconds, (5e-9 + 1000 * 20e-9) / 4, 1e-15);
    assert_float_equal(p.cpu_seconds, 200e-9 / 4, 1e-15);
    /* four memories: nobody shares; the table four times as fast as one scanner's */
    scan(&res, &m, 4);
    assert_int_equal(sb_predict_run(&res, &res.counters, &m, 2.0, 4, &p), SB_OK);
    assert_int_equal(p.sharing, 1);
    assert_float_equal(p.memory_seconds, 10005e-9 / 4, 1e-15);
    /* three on two memories: two share one (ceil) */
    scan(&res, &m, 2);
    assert_int_equal(sb_predict_run(&res, &res.counters, &m, 2.0, 3, &p), SB_OK);
    assert_int_equal(p.sharing, 2);
    assert_float_equal(p.memory_seconds, (5e-9 + 1000 * 20e-9) / 3, 1e-15);
}

/* The factor that reaches a figure of 1000 ns a scan with four scanners on two memories:
 * (1000 - 20005 / 4) / (100 / 4) is negative: none; with 10000 ns: (10000 - 5001.25) / 25. */
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
    assert_non_null(strstr(why, "no core factor can make it so"));
    assert_true(sb_predict_calibrate(&p, 10000e-9, &factor, why, sizeof why));
    assert_float_equal(factor, (10000 - 20005.0 / 4) / 25, 1e-9);
    assert_int_equal(sb_predict_run(&res, &res.counters, &m, factor, 4, &p), SB_OK);
    assert_float_equal(p.seconds_per_scan, 10000e-9, 1e-15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_scanner),
        cmocka_unit_test(test_four_scanners_two_memories),
        cmocka_unit_test(test_calibration_with_scanners),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
