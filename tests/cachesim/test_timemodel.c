/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_timemodel.c: unit tests for the machine files' [costs] (lib/cachesim/costs.h: every value
 * with its source, the file written back and read again) and the time model
 * (lib/cachesim/timemodel.h), on hand-worked cases: a stream of fills bandwidth-bound, the same
 * stream latency-bound when few fills are in flight, isolated misses latency-bound, a WC stream
 * at its bandwidth, write-backs at theirs, hits at their cycles. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cachesim/cachesim.h"
#include "cachesim/costs_probe.h"
#include "host/probe.h"

/* Made-up costs: 2GHz, hits 4/10/40 cycles, 100ns to memory, fills at 6.4 GB/s (64B in 10ns),
 * write-backs at 3.2 GB/s, WC stores at 4 GB/s, nothing hidden, 16 fills in flight. */
static struct sb_machine_costs made_up(void)
{
    struct sb_machine_costs c = {.present = true, .clock_ghz = 2, .hit_cycles = {4, 10, 40},
                                 .mem_latency_ns = 100, .mem_read_gbps = 6.4,
                                 .mem_write_gbps = 3.2, .nt_write_gbps = 4,
                                 .prefetch_hidden = 0, .mlp = 16};
    return c;
}

static void test_stream_bandwidth_bound(void **state)
{
    struct sb_machine_costs c = made_up();
    struct sb_time_events ev = {.fills = 128, .streams = 1, .line_size = 64};

    (void)state;
    /* the first fill 100ns, then 127 at max(64B / 6.4GB/s = 10ns, 100ns / 16 = 6.25ns) */
    assert_float_equal(sb_time_model_seconds(&c, &ev), (100 + 127 * 10) * 1e-9, 1e-15);
    /* 10 pages, 10 streams: ten times as long */
    ev.fills = 1280;
    ev.streams = 10;
    assert_float_equal(sb_time_model_seconds(&c, &ev), 10 * (100 + 127 * 10) * 1e-9, 1e-15);
}

/* full_line_loaded: 128 fills in one stream, 64 of them whole-line stores' reads; the rule
 * evades half of those (32) from 2 scanners sharing the memory on, none for one. */
static void test_rfo_evasion_when_loaded(void **state)
{
    struct sb_machine_costs c = made_up();
    struct sb_time_events ev = {.fills = 128, .streams = 1, .line_size = 64,
                                .full_line_rfos = 64, .sharing = 1};
    struct sb_time_parts parts;

    (void)state;
    c.write_allocate = SB_WA_FULL_LINE_LOADED;
    c.rfo_evasion_scanners = 2;
    c.rfo_evasion_share = 0.5;
    sb_time_model_parts(&c, &ev, &parts);
    assert_int_equal(parts.rfos_evaded, 0);
    assert_float_equal(parts.fills, (100 + 127 * 10) * 1e-9, 1e-15);
    ev.sharing = 2;
    sb_time_model_parts(&c, &ev, &parts);
    assert_int_equal(parts.rfos_evaded, 32);
    assert_float_equal(parts.fills, (100 + 95 * 10) * 1e-9, 1e-15);
    assert_float_equal(parts.bus_reads, 96 * 64 / 6.4e9, 1e-15);
    /* the other rules evade nothing here (full_line's never reached the counts) */
    c.write_allocate = SB_WA_FULL_LINE;
    sb_time_model_parts(&c, &ev, &parts);
    assert_int_equal(parts.rfos_evaded, 0);
}

static void test_stream_latency_bound(void **state)
{
    struct sb_machine_costs c = made_up();
    struct sb_time_events ev = {.fills = 128, .streams = 1, .line_size = 64};

    (void)state;
    c.mlp = 4; /* 100ns / 4 = 25ns a fill > 10ns */
    assert_float_equal(sb_time_model_seconds(&c, &ev), (100 + 127 * 25) * 1e-9, 1e-15);
    c.prefetch_hidden = 0.8; /* 100ns * 0.2 / 4 = 5ns < 10ns: bandwidth-bound again */
    assert_float_equal(sb_time_model_seconds(&c, &ev), (100 + 127 * 10) * 1e-9, 1e-15);
}

static void test_isolated_misses_latency_bound(void **state)
{
    struct sb_machine_costs c = made_up();
    struct sb_time_events ev = {.fills = 50, .streams = 50, .line_size = 64};

    (void)state;
    assert_float_equal(sb_time_model_seconds(&c, &ev), 50 * 100e-9, 1e-15);
    ev.streams = 0; /* no streams said: every fill isolated */
    assert_float_equal(sb_time_model_seconds(&c, &ev), 50 * 100e-9, 1e-15);
    c.prefetch_hidden = 1; /* the prefetcher hides nothing of an isolated miss */
    assert_float_equal(sb_time_model_seconds(&c, &ev), 50 * 100e-9, 1e-15);
}

static void test_wc_and_writebacks_at_their_bandwidth(void **state)
{
    struct sb_machine_costs c = made_up();
    struct sb_time_events ev = {.wc_bytes = 8192, .line_size = 64};
    struct sb_time_parts parts;

    (void)state;
    assert_float_equal(sb_time_model_seconds(&c, &ev), 8192 / 4e9, 1e-15);
    ev.wc_bytes = 0;
    ev.writeback_bytes = 8192;
    assert_float_equal(sb_time_model_parts(&c, &ev, &parts), 8192 / 3.2e9, 1e-15);
    assert_float_equal(parts.writebacks, 8192 / 3.2e9, 1e-15);
    assert_float_equal(parts.fills + parts.hits + parts.wc, 0, 1e-18);
}

static void test_hits_at_their_cycles(void **state)
{
    struct sb_machine_costs c = made_up();
    struct sb_time_events ev = {.hits = {1000, 100, 10}, .line_size = 64};

    (void)state;
    /* (1000 * 4 + 100 * 10 + 10 * 40) cycles at 2GHz */
    assert_float_equal(sb_time_model_seconds(&c, &ev), 5400 / 2e9, 1e-15);
}

/* Hits in streams where the level's bandwidth is given: 2 pages, 128 L2 hits and 64 L3 hits
 * each. L2 at 32 GB/s: each stream's first hit 10 cycles = 5ns, the rest max(64B / 32GB/s =
 * 2ns, 5ns x (1 - 0) / 16 = 0.3125ns) = 2ns; L3 without a bandwidth: 40 cycles = 20ns each;
 * L1d always at its cycles. With prefetch_hidden 0 and mlp 1 the latency term wins: 5ns. */
static void test_hits_in_streams(void **state)
{
    struct sb_machine_costs c = made_up();
    struct sb_time_events ev = {.hits = {1000, 256, 128}, .line_size = 64, .pages = 2};

    (void)state;
    c.hit_read_gbps[1] = 32;
    assert_float_equal(sb_time_model_seconds(&c, &ev),
                       (1000 * 2 + 2 * 5 + 254 * 2 + 128 * 20) * 1e-9, 1e-15);
    c.hit_read_gbps[2] = 6.4; /* L3: first 20ns, then max(10ns, 20ns / 16) = 10ns */
    assert_float_equal(sb_time_model_seconds(&c, &ev),
                       (1000 * 2 + 2 * 5 + 254 * 2 + 2 * 20 + 126 * 10) * 1e-9, 1e-15);
    c.mlp = 1; /* L2's rest at max(2ns, 5ns) = 5ns, L3's at max(10ns, 20ns) = 20ns */
    assert_float_equal(sb_time_model_seconds(&c, &ev),
                       (1000 * 2 + 256 * 5 + 128 * 20) * 1e-9, 1e-15);
    ev.pages = 0; /* no pages said: every hit at its latency */
    c.mlp = 16;
    assert_float_equal(sb_time_model_seconds(&c, &ev), (1000 * 2 + 256 * 5 + 128 * 20) * 1e-9,
                       1e-15);
}

/* The overlap rules (timemodel.h 1 to 4) on hand-worked parts: the fills' bus time is their
 * transfer alone (128 lines at 10 ns, not the first fill's 100 ns latency); the scan is the
 * larger of stalls + core and the bus, the bus times the scanners sharing the memory. */
static void test_overlap_rules(void **state)
{
    struct sb_machine_costs c = made_up();
    struct sb_time_events ev = {.fills = 128, .streams = 1, .line_size = 64,
                                .writeback_bytes = 6400};
    struct sb_time_parts parts;
    struct sb_time_scan t;

    (void)state;
    sb_time_model_parts(&c, &ev, &parts);
    assert_float_equal(parts.bus_reads, 1280e-9, 1e-15);
    assert_float_equal(parts.writebacks, 2000e-9, 1e-15); /* 6400 B at 3.2 GB/s */
    /* core-bound: 1370 ns of stalls + 3000 ns of work > 3280 ns of bus: the write-backs hidden */
    sb_time_scan_combine(parts.hits + parts.fills, 3000e-9, parts.bus_reads + parts.writebacks,
                         1, &t);
    assert_false(t.memory_bound);
    assert_float_equal(t.seconds, 4370e-9, 1e-15);
    /* two on the memory: 6560 ns of bus: memory-bound */
    sb_time_scan_combine(parts.hits + parts.fills, 3000e-9, parts.bus_reads + parts.writebacks,
                         2, &t);
    assert_true(t.memory_bound);
    assert_float_equal(t.bus, 6560e-9, 1e-15);
    assert_float_equal(t.seconds, 6560e-9, 1e-15);
    /* no work: the bus bound (3280) against the stalls (1370) */
    sb_time_scan_combine(parts.hits + parts.fills, 0, parts.bus_reads + parts.writebacks, 0, &t);
    assert_float_equal(t.seconds, 3280e-9, 1e-15);
}

static void test_events_from_counts(void **state)
{
    struct sb_cachesim_counts n;
    struct sb_time_events ev;

    (void)state;
    memset(&n, 0, sizeof n);
    n.level[0].hits = 7;
    n.level[1].hits = 5;
    n.mem_read_bytes = 128 * 64;
    n.mem_write_bytes = 128 * 64 + 10 * 64;
    n.wc_full_lines = 100;
    n.wc_partial_bytes = 28 * 64;
    sb_time_events_from_counts(&n, 1, 64, &ev);
    assert_int_equal(ev.hits[0], 7);
    assert_int_equal(ev.hits[1], 5);
    assert_int_equal(ev.fills, 128);
    assert_int_equal(ev.streams, 1);
    assert_int_equal(ev.wc_bytes, 128 * 64);
    assert_int_equal(ev.writeback_bytes, 10 * 64);
    sb_time_events_from_counts(&n, 1000, 64, &ev); /* more pages than fills: one fill each */
    assert_int_equal(ev.streams, 128);
}

/* --- [costs] in machine files --------------------------------------------------------------- */

#define HEAD "[machine]\ndescription = d\nsource = s\nwc_buffers = 4\n[L1d]\nsize = 32K\n" \
             "line_size = 64\nassociativity = 8\n[L2]\nsize = 1M\nline_size = 64\n"        \
             "associativity = 16\n"
#define COSTS "[costs]\nclock_ghz = 2.6\nclock_ghz_source = a\nl1d_hit_cycles = 3\n"       \
              "l1d_hit_cycles_source = b\nl2_hit_cycles = 12\nl2_hit_cycles_source = c\n"     \
              "mem_latency_ns = 60\nmem_latency_ns_source = d\nmem_read_gbps = 2.7\n"         \
              "mem_read_gbps_source = e\nmem_write_gbps = 2.7\nmem_write_gbps_source = f\n"   \
              "nt_write_gbps = 2.7\nnt_write_gbps_source = g\nprefetch_hidden = 0.5\n"        \
              "prefetch_hidden_source = h\n"
#define MLP "mlp = 8\nmlp_source = assumed: why\n"

static void expect_refused(const char *text, const char *what)
{
    struct sb_machine m;
    struct sb_error err = {0};

    assert_int_equal(sb_machine_parse(text, "bad.ini", &m, &err), SB_ERR_INPUT);
    if (!strstr(err.msg, what))
        fail_msg("\"%s\" does not say \"%s\"", err.msg, what);
}

static void test_costs_parsed(void **state)
{
    struct sb_machine m;
    struct sb_error err = {0};

    (void)state;
    assert_int_equal(sb_machine_parse(HEAD COSTS MLP, "good.ini", &m, &err), SB_OK);
    assert_true(m.costs.present);
    assert_float_equal(m.costs.clock_ghz, 2.6, 1e-12);
    assert_float_equal(m.costs.hit_cycles[1], 12, 1e-12);
    assert_float_equal(m.costs.prefetch_hidden, 0.5, 1e-12);
    assert_int_equal(m.costs.mlp, 8);
    assert_string_equal(m.costs.source[SB_COST_MLP], "assumed: why");
    assert_int_equal(m.costs.memory_controllers, 1); /* optional: one when not given */
    assert_int_equal(sb_machine_parse(HEAD COSTS MLP "memory_controllers = 2\n"
                                           "memory_controllers_source = two sockets\n",
                                      "two.ini", &m, &err), SB_OK);
    assert_int_equal(m.costs.memory_controllers, 2);
    assert_float_equal(m.costs.hit_read_gbps[1], 0, 0); /* optional: hits at their latency */
    assert_int_equal(sb_machine_parse(HEAD COSTS MLP "l2_read_gbps = 40\n"
                                           "l2_read_gbps_source = a streaming read\n",
                                      "l2.ini", &m, &err), SB_OK);
    assert_float_equal(m.costs.hit_read_gbps[1], 40, 1e-12);
    assert_int_equal(sb_machine_parse(HEAD, "plain.ini", &m, &err), SB_OK);
    assert_false(m.costs.present);
}

static void test_costs_without_source_refused(void **state)
{
    (void)state;
    expect_refused(HEAD COSTS "mlp = 8\n", "bad.ini:30: mlp: no mlp_source");
    expect_refused(HEAD COSTS "mlp_source = x\n", "mlp: missing in [costs]");
    expect_refused(HEAD "[costs]\nclock_ghz = 2\n", "clock_ghz: no clock_ghz_source");
    expect_refused(HEAD COSTS MLP "l3_hit_cycles = 40\nl3_hit_cycles_source = x\n",
                   "l3_hit_cycles: the machine has no [L3]");
    expect_refused(HEAD COSTS "mlp = 0\nmlp_source = x\n", "\"0\" is not a whole number");
    expect_refused(HEAD COSTS "mlp = 2.5\nmlp_source = x\n", "is not a whole number");
    expect_refused(HEAD COSTS MLP "memory_controllers = 2\n",
                   "memory_controllers: no memory_controllers_source");
    expect_refused(HEAD COSTS MLP "memory_controllers = 1.5\nmemory_controllers_source = x\n",
                   "is not a whole number");
    expect_refused(HEAD COSTS MLP "l2_read_gbps = 40\n", "l2_read_gbps: no l2_read_gbps_source");
    expect_refused(HEAD COSTS MLP "l3_read_gbps = 40\nl3_read_gbps_source = x\n",
                   "l3_read_gbps: the machine has no [L3]");
    expect_refused(HEAD "[costs]\nprefetch_hidden = 1.5\n", "not a fraction from 0 to 1");
    expect_refused(HEAD "[costs]\nclock_ghz = fast\n", "\"fast\" is not a positive number");
    /* no machine has it: 1e-300 GB/s made a scan last 1e297 s */
    expect_refused(HEAD "[costs]\nmem_read_gbps = 1e-300\n",
                   "\"1e-300\" is not a positive number from 1e-06 to 1e+06");
    expect_refused(HEAD "[costs]\nclock_ghz = 1e7\n", "\"1e7\" is not a positive number");
}

/* m written as a machine file and read back into back; the test fails with the file's text
 * when it does not read back. */
static void write_and_read_back(const struct sb_machine *m, const char *label,
                                struct sb_machine *back)
{
    struct sb_error err = {0};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    assert_non_null(f);
    assert_int_equal(sb_machine_costs_write(f, m), 0);
    fclose(f);
    if (sb_machine_parse(text, label, back, &err) != SB_OK)
        fail_msg("%s written back: %s\n%s", label, err.msg, text);
    free(text);
}

/* Every machine of configs/machines has costs, each value with a source, and is written back
 * to a file that reads the same. */
static void test_machine_files_have_costs(void **state)
{
    static const char *const names[] = {"x4500", "piii-1260", "xeon-1mb", "epyc-zen4",
                                        "xeon-spr"};
    (void)state;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        struct sb_machine m, back;
        struct sb_error err = {0};

        if (sb_machine_load(names[i], &m, &err) != SB_OK)
            fail_msg("%s: %s", names[i], err.msg);
        assert_true(m.costs.present);
        for (int k = 0; k < SB_COST_KEYS; k++)
            if ((k != SB_COST_L3_HIT_CYCLES || m.config.nlevels == 3) &&
                (k != SB_COST_MEMORY_CONTROLLERS || m.costs.memory_controllers > 1) &&
                ((k != SB_COST_L2_READ_GBPS && k != SB_COST_L3_READ_GBPS) ||
                 m.costs.hit_read_gbps[1 + k - SB_COST_L2_READ_GBPS] > 0))
                assert_true(strlen(m.costs.source[k]) > 0);
        assert_true(m.costs.memory_controllers >= 1);
        write_and_read_back(&m, names[i], &back);
        assert_memory_equal(&back.config, &m.config, sizeof m.config);
        assert_true(back.costs.present);
        assert_float_equal(back.costs.mem_read_gbps, m.costs.mem_read_gbps, 1e-12);
        assert_int_equal(back.costs.mlp, m.costs.mlp);
        assert_int_equal(back.costs.memory_controllers, m.costs.memory_controllers);
        assert_memory_equal(back.costs.hit_read_gbps, m.costs.hit_read_gbps,
                            sizeof m.costs.hit_read_gbps);
        assert_string_equal(back.costs.source[SB_COST_CLOCK_GHZ],
                            m.costs.source[SB_COST_CLOCK_GHZ]);
    }
}

/* A probe's sources are whole: the longest host name scanbench probe passes (383 characters)
 * in words, and the longest memory-set description (255) still leave every source short of the limit,
 * and the file written from them reads back with each source intact. */
static void test_probe_sources_whole(void **state)
{
    struct sb_probe p = {.clock_ghz = 3, .nt_stores = true, .huge_pages = true,
                         .repetitions = 5, .ms_per_measurement = 20, .mem_in_order_ns = 2,
                         .rfo_share = 1, .rmw_gbps = 20};
    struct sb_machine m, back;
    struct sb_error err = {0};
    char host[384];

    (void)state;
    for (size_t i = 0; i < sizeof host - 1; i++)
        host[i] = i % 8 == 7 ? ' ' : 'h';
    host[sizeof host - 1] = '\0';
    for (size_t i = 0; i < sizeof p.mem_set_why - 1; i++)
        p.mem_set_why[i] = i % 8 == 7 ? ' ' : 'w';
    for (int l = 0; l < SB_PROBE_LEVELS; l++)
        p.level[l] = (struct sb_probe_level){.measured = true, .level_size = 1u << (15 + 5 * l),
                                             .working_set = 1u << (14 + 5 * l),
                                             .latency_ns = 1 + 10 * l, .read_gbps = 100 - 20 * l,
                                             .write_gbps = 80 - 20 * l, .nt_write_gbps = 20};
    if (sb_machine_load("epyc-zen4", &m, &err) != SB_OK)
        fail_msg("epyc-zen4: %s", err.msg);
    sb_costs_from_probe(&p, host, "2026-12-05", &m.costs);
    for (int k = 0; k < SB_COST_KEYS; k++)
        assert_true(strlen(m.costs.source[k]) < SB_COST_SOURCE_MAX - 1);
    assert_non_null(strstr(m.costs.source[SB_COST_MEM_WRITE_GBPS], "no faster than it reads)"));
    write_and_read_back(&m, "probe.ini", &back);
    for (int k = 0; k < SB_COST_KEYS; k++)
        assert_string_equal(back.costs.source[k], m.costs.source[k]);
}

/* What else the probe found: a VM's L3 of 508MB nominal, 30MB effective (the model's geometry:
 * 32768 sets of 15 ways), the stores' lines read first (nt_stores) or not (full_line), and half
 * of them (nt_stores: the nearer from 1/2 on); written and read back whole. */
static void test_probe_effective_and_write_allocate(void **state)
{
    static const double shares[] = {0.95, 0.1, 0.5};
    static const enum sb_write_allocate want[] = {SB_WA_NT_STORES, SB_WA_FULL_LINE,
                                                  SB_WA_NT_STORES};
    struct sb_topology topo = {0};
    struct sb_probe p = {.clock_ghz = 3, .repetitions = 5, .mem_in_order_ns = 2, .rmw_gbps = 20};
    struct sb_error err = {0};
    struct sb_machine m, back;

    (void)state;
    topo.cache[0].size = (struct sb_figure){.value = 48u << 10, .source = "hwloc"};
    topo.cache[1].size = (struct sb_figure){.value = 1u << 20, .source = "hwloc"};
    topo.cache[2].size = (struct sb_figure){.value = 508ull << 20, .source = "hwloc"};
    for (int l = 0; l < 3; l++) {
        topo.cache[l].line = (struct sb_figure){.value = 64, .source = "hwloc"};
        topo.cache[l].assoc = (struct sb_figure){.value = l == 2 ? 16 : 8, .source = "hwloc"};
    }
    for (int l = 0; l < SB_PROBE_LEVELS; l++)
        p.level[l] = (struct sb_probe_level){.measured = true, .working_set = 1u << 20,
                                             .latency_ns = 1 + 10 * l, .read_gbps = 30,
                                             .write_gbps = 25, .nt_write_gbps = 20};
    p.sweep.levels = 3;
    p.sweep.npoints = 2;
    p.sweep.point[0].working_set = 12u << 10;
    p.sweep.point[1].working_set = 1u << 30;
    p.sweep.by_latency[2] = (struct sb_steps_level){
        .why = SB_STEPS_FOUND, .size = 30u << 20, .own = 15, .next = 300};
    p.sweep.by_read[2] = (struct sb_steps_level){
        .why = SB_STEPS_NO_STEP, .size = 0, .own = 1, .next = 1};
    for (int i = 0; i < 3; i++) {
        p.rfo_share = shares[i];
        assert_int_equal(sb_machine_from_topology(&topo, "AuthenticAMD", &m, &err), SB_OK);
        sb_machine_apply_probe(&p, &topo, "a host", "2026-12-07", &m);
        assert_int_equal(m.config.level[2].size, 30u << 20);
        assert_int_equal(m.config.level[2].associativity, 15);
        assert_int_equal(m.sizes[2].nominal, 508ull << 20);
        assert_int_equal(m.sizes[1].effective, 0);
        assert_int_equal(m.config.write_allocate, want[i]);
        write_and_read_back(&m, "probe.ini", &back);
        assert_int_equal(back.config.level[2].size, 30u << 20);
        assert_int_equal(back.config.level[2].associativity, 15);
        assert_int_equal(back.sizes[2].nominal, 508ull << 20);
        assert_int_equal(back.sizes[2].effective, 30u << 20);
        assert_string_equal(back.sizes[2].effective_source, m.sizes[2].effective_source);
        assert_int_equal(back.config.write_allocate, want[i]);
        assert_int_equal(back.costs.write_allocate, want[i]);
        assert_string_equal(back.write_allocate_source, m.write_allocate_source);
    }
    /* where only the streaming read steps, the model takes its step */
    p.sweep.by_latency[2] = (struct sb_steps_level){
        .why = SB_STEPS_NO_STEP, .size = 0, .own = 15, .next = 16};
    p.sweep.by_read[2] = (struct sb_steps_level){
        .why = SB_STEPS_FOUND, .size = 18u << 20, .own = 0.01, .next = 0.03};
    assert_int_equal(sb_machine_from_topology(&topo, "AuthenticAMD", &m, &err), SB_OK);
    sb_machine_apply_probe(&p, &topo, "a host", "2026-12-07", &m);
    assert_int_equal(m.sizes[2].effective, 18u << 20);
    assert_int_equal(m.config.level[2].size, 18u << 20); /* 32768 sets of 9 ways */
    assert_int_equal(m.config.level[2].associativity, 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream_bandwidth_bound),
        cmocka_unit_test(test_rfo_evasion_when_loaded),
        cmocka_unit_test(test_stream_latency_bound),
        cmocka_unit_test(test_isolated_misses_latency_bound),
        cmocka_unit_test(test_wc_and_writebacks_at_their_bandwidth),
        cmocka_unit_test(test_hits_at_their_cycles),
        cmocka_unit_test(test_hits_in_streams),
        cmocka_unit_test(test_overlap_rules),
        cmocka_unit_test(test_events_from_counts),
        cmocka_unit_test(test_costs_parsed),
        cmocka_unit_test(test_costs_without_source_refused),
        cmocka_unit_test(test_machine_files_have_costs),
        cmocka_unit_test(test_probe_sources_whole),
        cmocka_unit_test(test_probe_effective_and_write_allocate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
