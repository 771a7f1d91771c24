/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_counters_sim.c: unit tests for the `sim` counter backend (lib/counters/sim.h) and the
 * machine models (lib/cachesim/machine.h). The scan-level expectations run the real scan loop
 * (sb_scan_run) with counters=sim on a machine built here: L1d 32KB 8-way LRU over a 1MB 16-way
 * LRU non-inclusive L2, 64-byte lines, no L3. The table is 4MB (512 pages of 8KB: 128 lines
 * each), the pool 16MB (2048 buffers), op none unless said, no warm-up scan; the model sees
 * only the timed scans and starts cold at the first.
 *
 * Why the counts are exact: the model places the IO cache and the pool each at a 1TB-aligned
 * base, so page p of the table and buffer b of the pool both start at set 0 of a 64KB L2 way:
 * a page covers 128 of the L2's 1024 sets, and every L2 set receives one source line and one
 * destination line per 8 pages scanned. L1d holds the last two pages' source and destination
 * lines (32KB), so a destination line is written back from L1d into L2 about two pages after
 * it was filled, long before L2 (which holds the last 64 pages) evicts it. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cachesim/machine.h"
#include "counters/sim.h"
#include "counters/sim_replay.h"
#include "cachesim/model.h"
#include "engine/engine.h"
#include "engine/iocache.h"
#include "engine/scan.h"
#include "plan/plan.h"

#include "helper.h"

#define PAGE 8192u
#define TABLE (4u << 20)
#define NPAGES (TABLE / PAGE) /* 512 */
#define LINES_PER_PAGE (PAGE / 64)
#define POOL (16u << 20)
#define RING (256u << 10)
#define REPS 3

static struct sb_machine test_machine(void)
{
    struct sb_machine m;

    memset(&m, 0, sizeof m);
    snprintf(m.name, sizeof m.name, "test-1mb-l2");
    snprintf(m.file, sizeof m.file, "built in test_counters_sim.c");
    m.config.nlevels = 2;
    m.config.level[0] = (struct sb_cachesim_level_config){
        .size = 32 << 10, .line_size = 64, .associativity = 8,
        .replacement = SB_REPL_LRU, .inclusion = SB_INCL_NON_INCLUSIVE};
    m.config.level[1] = (struct sb_cachesim_level_config){
        .size = 1 << 20, .line_size = 64, .associativity = 16,
        .replacement = SB_REPL_LRU, .inclusion = SB_INCL_NON_INCLUSIVE};
    m.config.wc_buffers = 4;
    return m;
}

static struct sb_iocache table;

/* Gives every tuple of page its commit hint bits (hint_bits = set: t_infomask |=
 * XMIN_COMMITTED | (deleted ? XMAX_COMMITTED : XMAX_INVALID)), as the table the scans see by
 * default; nothing changes on a page that has them. On such a page count stores nothing and
 * vacuum stores no dead tuple's hint: the op walks these tests pin. */
static void set_hint_bits(uint8_t *page, uint32_t page_size)
{
    const uint32_t n = sb_page_nitems(page);
    uint32_t off;

    for (uint32_t i = 0; i < n; i++) {
        if (!sb_page_tuple(page, i, page_size, &off))
            continue;
        uint16_t mask = (uint16_t)(sb_tuple_infomask(page, off) | SB_HEAP_XMIN_COMMITTED |
                                   (sb_tuple_xmax(page, off) ? SB_HEAP_XMAX_COMMITTED
                                                             : SB_HEAP_XMAX_INVALID));
        memcpy(page + off + SB_T_INFOMASK, &mask, 2);
    }
}

static int make_table(void **state)
{
    struct sb_heap_layout layout;
    struct sb_error err = {0};

    (void)state;
    assert_true(sb_heap_layout_init(&layout, PAGE, 100, 10));
    if (sb_iocache_create(&table, TABLE, &layout, &err) != SB_OK)
        return -1;
    for (uint64_t b = 0; b < table.npages; b++) { /* and its checksum as copied */
        set_hint_bits(table.pages + b * PAGE, PAGE);
        table.sum_copy[b] = sb_page_checksum(table.pages + b * PAGE, PAGE);
    }
    return 0;
}

static int free_table(void **state)
{
    (void)state;
    sb_iocache_destroy(&table);
    return 0;
}

/* Runs the scan with counters=sim on machine m; res must be freed by the caller. */
static void run_sim(const struct sb_machine *m, const char *policy, const char *kernel,
                    const char *op, int prefetch, struct sb_run_result *res)
{
    struct sb_run_params p;
    struct sb_error err = {0};

    memset(&p, 0, sizeof p);
    snprintf(p.name, sizeof p.name, "sim %s %s %s", policy, kernel, op);
    p.source = sb_source_find("memory");
    p.table_size = TABLE;
    p.pool_size = POOL;
    p.ring_size = RING;
    p.page_size = PAGE;
    assert_true(sb_heap_layout_init(&p.layout, PAGE, 100, 10));
    p.op = sb_op_find(op);
    p.kernel = sb_kernel_find(kernel);
    p.policy = sb_policy_find(policy);
    p.threads = 1;
    p.repetitions = REPS;
    p.warmup = 0;
    p.seed = 1;
    p.counters = sb_counter_backend_find("sim");
    p.machine = m;
    p.prefetch = prefetch;
    assert_non_null(p.op);
    assert_non_null(p.kernel);
    assert_non_null(p.policy);
    assert_non_null(p.counters);
    if (sb_scan_run(&p, &table, res, &err) != SB_OK)
        fail_msg("sb_scan_run: %s", err.msg);
    assert_true(res->validation.ok);
    assert_true(res->counters.simulated);
    assert_string_equal(res->counters.status, "ok");
    /* the counts split by phase add up to them */
    assert_true(res->counters.have_phases);
    for (unsigned r = 0; r < REPS; r++)
        for (int role = 0; role < SB_NROLES; role++) {
            uint64_t sum = 0;
            for (int ph = 0; ph < SB_NPHASES; ph++)
                sum += res->counters.phase_values[r][ph][role];
            if (res->counters.have[role])
                assert_int_equal(sum, res->counters.values[r][role]);
        }
}

#define VAL(res, rep, role) ((res).counters.values[rep][SB_ROLE_##role])

/* clock over a 16MB pool, temporal copy (memcpy): the pool is 16 times the L2, so no buffer is
 * reused while its lines are still in L2. The clock hand hands out the buffers in order (all
 * four scans come off the free list: validation + 3 timed = 4 x 512 = 2048 buffers).
 * Every scan: each page misses L2 on its 128 source lines and its 128 destination lines (a
 * store miss reads the line first): 256 L2 misses and 256 x 64 bytes read per page.
 * Scan 0 (cold): the L2 fills up after 64 pages (16384 lines); from then on every fill evicts
 * the oldest line of its set, and as each set receives source and destination lines in turn,
 * the oldest is of the same kind as the newcomer: a clean source line or a dirty destination
 * line. Write-backs: 128 per page for the 512 - 64 pages after the first 64.
 * Scans 1, 2 (steady state): the L2 holds the previous scan's last 64 pages: 128 dirty
 * write-backs per page, 128 x 64 bytes written per page. cycles and instructions are absent. */
static void test_clock_temporal(void **state)
{
    struct sb_machine m = test_machine();
    struct sb_run_result res;

    (void)state;
    run_sim(&m, "clock", "memcpy", "none", -1, &res);
    assert_int_equal(VAL(res, 0, L2_MISS), NPAGES * 256);
    assert_int_equal(VAL(res, 0, L2_WRITEBACK), (NPAGES - 64) * 128);
    for (int r = 1; r < REPS; r++) {
        assert_int_equal(VAL(res, r, L2_MISS), NPAGES * 256);
        assert_int_equal(VAL(res, r, L2_HIT), 0);
        assert_int_equal(VAL(res, r, L2_WRITEBACK), NPAGES * 128);
        assert_int_equal(VAL(res, r, MEM_READ_BYTES), (uint64_t)NPAGES * 256 * 64);
        assert_int_equal(VAL(res, r, MEM_WRITE_BYTES), (uint64_t)NPAGES * 128 * 64);
        assert_int_equal(VAL(res, r, L1D_MISS), NPAGES * 256);
        assert_int_equal(VAL(res, r, L1D_HIT), 0);
        assert_int_equal(VAL(res, r, L1D_WRITEBACK), NPAGES * 128);
    }
    assert_false(res.counters.have[SB_ROLE_CYCLES]);
    assert_false(res.counters.have[SB_ROLE_INSTRUCTIONS]);
    assert_false(res.counters.have[SB_ROLE_L3_MISS]);
    assert_true(res.counters.have[SB_ROLE_L2_WRITEBACK]);
    assert_non_null(strstr(res.counters.model, "test-1mb-l2"));
    assert_non_null(strstr(res.counters.model, "prefetch off"));
    sb_run_result_free(&res);
}

/* ring of 256KB (32 buffers, 4 lines in every L2 set): a ring line is looked up in L2 once a
 * lap (32 pages), and between two lookups its set sees 4 source lines and the other 3 ring
 * lines: it never ages out of 16 ways. L1d write-backs mark it dirty in L2; L2 never evicts
 * it, so nothing dirty leaves L2.
 * Scan 0 (cold): the first lap (32 pages) misses on its destination lines too.
 * Scans 1, 2: 128 L2 misses per page (the source), 128 L2 hits (the ring), no write-backs,
 * nothing written to memory. */
static void test_ring_temporal(void **state)
{
    struct sb_machine m = test_machine();
    struct sb_run_result res;

    (void)state;
    run_sim(&m, "ring", "memcpy", "none", -1, &res);
    assert_int_equal(VAL(res, 0, L2_MISS), NPAGES * 128 + 32 * 128);
    assert_int_equal(VAL(res, 0, L2_WRITEBACK), 0);
    for (int r = 1; r < REPS; r++) {
        assert_int_equal(VAL(res, r, L2_MISS), NPAGES * 128);
        assert_int_equal(VAL(res, r, L2_HIT), NPAGES * 128);
        assert_int_equal(VAL(res, r, L2_WRITEBACK), 0);
        assert_int_equal(VAL(res, r, MEM_WRITE_BYTES), 0);
        assert_int_equal(VAL(res, r, MEM_READ_BYTES), (uint64_t)NPAGES * 128 * 64);
    }
    sb_run_result_free(&res);
}

/* single: one buffer for every page. Its 128 lines are touched every page and never leave
 * L1d (8 ways: 2 of them per set hold the buffer, the source streams through the others).
 * Scan 0: the first page misses on them. Scans 1, 2: only the source misses; no write-backs
 * from L2 and nothing written to memory. */
static void test_single_temporal(void **state)
{
    struct sb_machine m = test_machine();
    struct sb_run_result res;

    (void)state;
    run_sim(&m, "single", "memcpy", "none", -1, &res);
    assert_int_equal(VAL(res, 0, L2_MISS), NPAGES * 128 + 128);
    for (int r = 1; r < REPS; r++) {
        assert_int_equal(VAL(res, r, L2_MISS), NPAGES * 128);
        assert_int_equal(VAL(res, r, L2_WRITEBACK), 0);
        assert_int_equal(VAL(res, r, L1D_HIT), NPAGES * 128);
        assert_int_equal(VAL(res, r, L1D_WRITEBACK), 0);
        assert_int_equal(VAL(res, r, MEM_WRITE_BYTES), 0);
    }
    sb_run_result_free(&res);
}

/* nt: streaming stores. The destination never enters a cache (op none never reads it): the
 * only lines looked up are the source's (128 L1d and L2 misses per page), and every
 * destination line leaves a WC buffer whole: 8192 bytes written per page, whatever the
 * placement, with no read for ownership and no write-back. */
static void test_nt_any_placement(void **state)
{
    static const char *const policies[] = {"clock", "ring", "single"};
    struct sb_machine m = test_machine();
    const struct sb_kernel *nt = sb_kernel_find("nt");

    (void)state;
    if (!nt || !nt->supported())
        skip();
    for (size_t i = 0; i < sizeof policies / sizeof *policies; i++) {
        struct sb_run_result res;
        run_sim(&m, policies[i], "nt", "none", -1, &res);
        for (int r = 0; r < REPS; r++) {
            assert_int_equal(VAL(res, r, L1D_MISS), NPAGES * 128);
            assert_int_equal(VAL(res, r, L2_MISS), NPAGES * 128);
            assert_int_equal(VAL(res, r, L2_WRITEBACK), 0);
            assert_int_equal(VAL(res, r, MEM_READ_BYTES), (uint64_t)NPAGES * 128 * 64);
            assert_int_equal(VAL(res, r, MEM_WRITE_BYTES), (uint64_t)NPAGES * PAGE);
        }
        sb_run_result_free(&res);
    }
}

/* The halves of a copy. read: the source's 128 lines loaded, the fold stored into the buffer's
 * first line. Over the clock's 16MB pool that line is new each page (a store miss reads it:
 * 129 L2 misses a page) and leaves L2 dirty: the first lines of the buffers share the 8 sets
 * (b * 128) % 1024, which receive one source and one buffer line per 8 pages, so a buffer line
 * ages out of 16 ways after 64 pages: 1 write-back a page in steady state, 64 bytes written.
 * The ring's 32 buffers are 8KB apart, so their first lines share one L1d set (8 ways, which the
 * source passes through too): each misses L1d and leaves it dirty a page later, but stays in
 * L2 (its set sees 4 source lines and 3 ring lines between two of its uses): 1 L2 hit a page,
 * no write-back from L2, nothing written to memory.
 * write: the buffer's 128 lines stored, the source unread. The clock's buffers miss (read for
 * ownership) and each set now receives buffer lines only: 128 write-backs a page once L2 is
 * full (after 128 pages of scan 0); the ring's 256KB stays in L2 after its first lap. */
static void test_halves(void **state)
{
    struct sb_machine m = test_machine();
    struct sb_run_result res;

    (void)state;
    run_sim(&m, "clock", "read", "none", -1, &res);
    for (int r = 1; r < REPS; r++) {
        assert_int_equal(VAL(res, r, L1D_MISS), NPAGES * 129);
        assert_int_equal(VAL(res, r, L2_MISS), NPAGES * 129);
        assert_int_equal(VAL(res, r, L2_WRITEBACK), NPAGES);
        assert_int_equal(VAL(res, r, MEM_READ_BYTES), (uint64_t)NPAGES * 129 * 64);
        assert_int_equal(VAL(res, r, MEM_WRITE_BYTES), (uint64_t)NPAGES * 64);
    }
    sb_run_result_free(&res);
    run_sim(&m, "ring", "read", "none", -1, &res);
    for (int r = 1; r < REPS; r++) {
        assert_int_equal(VAL(res, r, L1D_MISS), NPAGES * 129);
        assert_int_equal(VAL(res, r, L1D_WRITEBACK), NPAGES);
        assert_int_equal(VAL(res, r, L2_HIT), NPAGES);
        assert_int_equal(VAL(res, r, L2_MISS), NPAGES * 128);
        assert_int_equal(VAL(res, r, L2_WRITEBACK), 0);
        assert_int_equal(VAL(res, r, MEM_WRITE_BYTES), 0);
    }
    sb_run_result_free(&res);
    run_sim(&m, "clock", "write", "none", -1, &res);
    assert_int_equal(VAL(res, 0, L2_MISS), NPAGES * 128);
    assert_int_equal(VAL(res, 0, L2_WRITEBACK), (NPAGES - 128) * 128);
    for (int r = 1; r < REPS; r++) {
        assert_int_equal(VAL(res, r, L2_MISS), NPAGES * 128);
        assert_int_equal(VAL(res, r, L2_WRITEBACK), NPAGES * 128);
        assert_int_equal(VAL(res, r, MEM_READ_BYTES), (uint64_t)NPAGES * 128 * 64);
        assert_int_equal(VAL(res, r, MEM_WRITE_BYTES), (uint64_t)NPAGES * 128 * 64);
    }
    sb_run_result_free(&res);
    run_sim(&m, "ring", "write", "none", -1, &res);
    assert_int_equal(VAL(res, 0, L2_MISS), 32 * 128);
    for (int r = 1; r < REPS; r++) {
        assert_int_equal(VAL(res, r, L2_MISS), 0);
        assert_int_equal(VAL(res, r, L2_HIT), NPAGES * 128);
        assert_int_equal(VAL(res, r, L2_WRITEBACK), 0);
        assert_int_equal(VAL(res, r, MEM_READ_BYTES), 0);
        assert_int_equal(VAL(res, r, MEM_WRITE_BYTES), 0);
    }
    sb_run_result_free(&res);
}

/* The op's walk: count reads pd_lower (the header line), each of the 61 line pointers and
 * each tuple header (one line each: tuples are 128-byte aligned), all in L1d just after the
 * copy: 123 L1d hits per page and nothing else changes. vacuum (the table's hint bits set)
 * adds a read of pd_prune_xid, a write of each dead tuple's line pointer, and on the pages it
 * prunes pd_flags and pd_prune_xid; vacuum-dirty one write per tuple (hint bits of a live one,
 * or the line pointer of a dead one), pd_prune_xid, and pd_flags on the pages it prunes; all
 * L1d hits on lines the copy already dirtied. */
static void test_op_walks(void **state)
{
    struct sb_machine m = test_machine();
    struct sb_run_result none, count, vacuum, dirty;
    uint64_t pruning_pages = 0, dead = 0;
    uint8_t *page = malloc(PAGE);

    (void)state;
    assert_non_null(page);
    for (uint64_t b = 0; b < NPAGES; b++) {
        uint32_t live;
        memcpy(page, sb_iocache_page(&table, b), PAGE);
        live = sb_heap_count(page, PAGE, NULL);
        pruning_pages += live < 61;
        dead += 61 - live;
    }
    free(page);
    run_sim(&m, "clock", "memcpy", "none", -1, &none);
    run_sim(&m, "clock", "memcpy", "count", -1, &count);
    run_sim(&m, "clock", "memcpy", "vacuum", -1, &vacuum);
    run_sim(&m, "clock", "memcpy", "vacuum-dirty", -1, &dirty);
    for (int r = 1; r < REPS; r++) {
        assert_int_equal(VAL(count, r, L1D_HIT), NPAGES * 123);
        assert_int_equal(VAL(vacuum, r, L1D_HIT), NPAGES * (123 + 1) + dead + 2 * pruning_pages);
        assert_int_equal(VAL(dirty, r, L1D_HIT), NPAGES * (123 + 61 + 1) + pruning_pages);
        assert_int_equal(VAL(count, r, L2_MISS), VAL(none, r, L2_MISS));
        assert_int_equal(VAL(vacuum, r, L2_WRITEBACK), VAL(none, r, L2_WRITEBACK));
        assert_int_equal(VAL(dirty, r, L2_WRITEBACK), VAL(none, r, L2_WRITEBACK));
        assert_int_equal(VAL(vacuum, r, MEM_WRITE_BYTES), VAL(none, r, MEM_WRITE_BYTES));
    }
    sb_run_result_free(&dirty);
    sb_run_result_free(&none);
    sb_run_result_free(&count);
    sb_run_result_free(&vacuum);
}

/* The walk counts the live tuples as the op does. */
static void test_walk_counts_live_rows(void **state)
{
    struct sb_machine m = test_machine();
    struct sb_cachesim *sim = NULL;
    struct sb_error err = {0};
    uint32_t *victims = calloc(NPAGES, sizeof *victims);
    struct sb_scan_trace trace = {.pages = table.pages, .npages = table.npages,
                                  .page_size = table.page_size, .op = sb_op_find("vacuum"),
                                  .temporal = sb_kernel_find("memcpy")->temporal,
                                  .victims = victims, .writeback = SB_WRITEBACK_NONE,
                                  .side = SB_KERNEL_COPY};

    (void)state;
    assert_non_null(victims);
    assert_int_equal(sb_cachesim_create(&m.config, &sim, &err), SB_OK);
    assert_int_equal(sb_sim_feed_scan(sim, &trace), table.live_rows);
    trace.op = sb_op_find("count");
    assert_int_equal(sb_sim_feed_scan(sim, &trace), table.live_rows);
    sb_cachesim_destroy(sim);
    free(victims);
}

/* The same run twice gives the same counts, and the prefetcher, when on, is said so and
 * changes them (a sequential source: most of its lines arrive before they are asked for). */
static void test_determinism_and_prefetch(void **state)
{
    struct sb_machine m = test_machine();
    struct sb_run_result a, b, pf;

    (void)state;
    run_sim(&m, "random", "memcpy", "vacuum", -1, &a);
    run_sim(&m, "random", "memcpy", "vacuum", -1, &b);
    for (int r = 0; r < REPS; r++)
        for (int role = 0; role < SB_NROLES; role++)
            assert_int_equal(a.counters.values[r][role], b.counters.values[r][role]);
    run_sim(&m, "random", "memcpy", "vacuum", 1, &pf);
    assert_non_null(strstr(pf.counters.model, "prefetch on"));
    assert_true(VAL(pf, 1, L1D_MISS) < VAL(a, 1, L1D_MISS));
    sb_run_result_free(&a);
    sb_run_result_free(&b);
    sb_run_result_free(&pf);
}

/* A model in 2, 4 or 8 slices, each replayed on a thread of its own, counts exactly what the
 * whole model counts, scan after scan (its state carrying over), on table t (pool buffers of
 * its page size), for temporal and streaming copies, with and without the bigtable's DMA
 * refill, with the op (its walk shared by the slices). */
static void check_slices_on(const struct sb_cachesim_config *cfg, const char *what,
                            const struct sb_iocache *t, const char *op)
{
    static const char *kernels[] = {"memcpy", "nt"};
    const uint32_t pool_pages = POOL / t->page_size;
    uint32_t *victims = calloc(t->npages, sizeof *victims);

    assert_non_null(victims);
    for (int k = 0; k < 2; k++) {
        for (int bigtable = 0; bigtable < 2; bigtable++) {
            struct sb_cachesim_counts whole[2];
            for (unsigned want = 1; want <= 8; want *= 2) {
                struct sb_sim_model *model = NULL;
                struct sb_error err = {0};
                struct sb_scan_trace trace = {
                    .pages = t->pages, .npages = t->npages, .page_size = t->page_size,
                    .op = sb_op_find(op), .temporal = sb_kernel_find(kernels[k])->temporal,
                    .bigtable = bigtable, .victims = victims, .writeback = SB_WRITEBACK_NONE,
                    .side = SB_KERNEL_COPY};
                if (sb_sim_model_create(cfg, want, &model, &err) != SB_OK)
                    fail_msg("%s: %s", what, err.msg);
                assert_int_equal(sb_sim_model_slices(model), want);
                for (int scan = 0; scan < 2; scan++) {
                    struct sb_cachesim_counts n;
                    /* scattered buffers of a 16MB pool, different in each scan */
                    for (uint32_t b = 0; b < t->npages; b++)
                        victims[b] = (b * 7919u + (uint32_t)scan * 104729u) % pool_pages;
                    assert_int_equal(sb_sim_model_replay(model, &trace, &n), t->live_rows);
                    if (want == 1)
                        whole[scan] = n;
                    else if (memcmp(&n, &whole[scan], sizeof n) != 0)
                        fail_msg("%s, %s, %s, %uB pages, bigtable %d, scan %d: %u slices count "
                                 "differently (L1d hits %llu, whole model %llu)", what, op,
                                 kernels[k], t->page_size, bigtable, scan, want,
                                 (unsigned long long)n.level[0].hits,
                                 (unsigned long long)whole[scan].level[0].hits);
                    assert_true(n.level[0].misses > 0);
                }
                sb_sim_model_destroy(model);
            }
        }
    }
    free(victims);
}

/* The same for both ops on the 8KB-page table; a model with a prefetcher has no slices. */
static void check_slices(const struct sb_cachesim_config *cfg, const char *what)
{
    check_slices_on(cfg, what, &table, "vacuum");
    check_slices_on(cfg, what, &table, "count");
}

static void test_slices_add_up(void **state)
{
    static const char *files[] = {"x4500", "piii-1260", "xeon-1mb", "xeon-spr", "epyc-zen4"};
    struct sb_machine m = test_machine();
    struct sb_cachesim_config odd;
    struct sb_cachesim *sim = NULL;
    struct sb_sim_model *model = NULL;
    struct sb_error err = {0};

    (void)state;
    check_slices(&m.config, m.name);
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        assert_int_equal(sb_machine_load(files[i], &m, &err), SB_OK);
        check_slices(&m.config, files[i]);
    }
    /* a shape of no machine file (the general path): PLRU L1d, exclusive L2, inclusive L3 */
    memset(&odd, 0, sizeof odd);
    odd.nlevels = 3;
    odd.level[0] = (struct sb_cachesim_level_config){
        .size = 16 << 10, .line_size = 64, .associativity = 4,
        .replacement = SB_REPL_PLRU, .inclusion = SB_INCL_NON_INCLUSIVE};
    odd.level[1] = (struct sb_cachesim_level_config){
        .size = 256 << 10, .line_size = 64, .associativity = 8,
        .replacement = SB_REPL_LRU, .inclusion = SB_INCL_EXCLUSIVE};
    odd.level[2] = (struct sb_cachesim_level_config){
        .size = 2 << 20, .line_size = 64, .associativity = 32,
        .replacement = SB_REPL_PLRU, .inclusion = SB_INCL_INCLUSIVE};
    odd.wc_buffers = 2;
    check_slices(&odd, "plru/exclusive/inclusive");
    /* the prefetcher relates a line to the next: no slices */
    odd.prefetch = true;
    assert_int_equal(sb_cachesim_max_slice_shift(&odd), 0);
    assert_int_equal(sb_sim_model_create(&odd, 8, &model, &err), SB_OK);
    assert_int_equal(sb_sim_model_slices(model), 1);
    sb_sim_model_destroy(model);
    assert_int_equal(sb_cachesim_create_slice(&odd, 1, 0, &sim, &err), SB_ERR_INPUT);
    assert_null(sim);
    /* a slice needs a set of its own at every level */
    odd.prefetch = false;
    odd.level[0] = (struct sb_cachesim_level_config){ /* 2 sets */
        .size = 256, .line_size = 64, .associativity = 2,
        .replacement = SB_REPL_LRU, .inclusion = SB_INCL_NON_INCLUSIVE};
    assert_int_equal(sb_cachesim_max_slice_shift(&odd), 1);
    assert_int_equal(sb_cachesim_create_slice(&odd, 2, 0, &sim, &err), SB_ERR_INPUT);
    assert_int_equal(sb_cachesim_create_slice(&odd, 1, 2, &sim, &err), SB_ERR_INPUT);
    assert_int_equal(sb_cachesim_create_slice(&odd, 1, 1, &sim, &err), SB_OK);
    sb_cachesim_destroy(sim);
}

/* Pages of 32KB of tuples without data (1169 a page): a slice's share of a page's op walk
 * does not fit its list in the shared walk (1024 entries a page, shared out between the
 * slices), so each slice walks such a page itself; the counts are still the whole model's. */
static void test_slices_crowded_pages(void **state)
{
    struct sb_machine m = test_machine();
    struct sb_heap_layout layout;
    struct sb_iocache crowded;
    struct sb_error err = {0};

    (void)state;
    assert_true(sb_heap_layout_init(&layout, 32768, 0, 10));
    assert_int_equal(layout.rows_per_page, 1169);
    assert_int_equal(sb_iocache_create(&crowded, 1 << 20, &layout, &err), SB_OK);
    check_slices_on(&m.config, m.name, &crowded, "vacuum");
    check_slices_on(&m.config, m.name, &crowded, "count");
    sb_iocache_destroy(&crowded);
}

/* --- machine models ----------------------------------------------------------------------- */

/* Every file of configs/machines parses, and the thread's machines have the geometry the
 * issue gives. */
static void test_machine_files(void **state)
{
    char known[512], *name, *cursor;
    int n = 0;
    struct sb_machine m;
    struct sb_error err = {0};

    (void)state;
    sb_machine_known(known, sizeof known);
    cursor = known;
    while ((name = strsep(&cursor, ",")) != NULL) {
        while (*name == ' ')
            name++;
        if (sb_machine_load(name, &m, &err) != SB_OK)
            fail_msg("%s: %s", name, err.msg);
        assert_string_equal(m.name, name);
        assert_true(m.source[0] && m.description[0]);
        n++;
    }
    assert_true(n >= 5);
    assert_int_equal(sb_machine_load("x4500", &m, &err), SB_OK);
    assert_int_equal(m.config.nlevels, 2);
    assert_int_equal(m.config.level[0].size, 64 << 10);
    assert_int_equal(m.config.level[0].associativity, 2);
    assert_int_equal(m.config.level[1].size, 1 << 20);
    assert_int_equal(m.config.level[1].associativity, 16);
    assert_int_equal(m.config.level[1].inclusion, SB_INCL_EXCLUSIVE);
    assert_int_equal(m.config.level[1].line_size, 64);
    assert_int_equal(sb_machine_load("piii-1260", &m, &err), SB_OK);
    assert_int_equal(m.config.level[1].size, 512 << 10);
    assert_int_equal(m.config.level[1].line_size, 32);
    assert_int_equal(sb_machine_load("xeon-1mb", &m, &err), SB_OK);
    assert_int_equal(m.config.level[1].size, 1 << 20);
    assert_int_equal(sb_machine_load("xeon-spr", &m, &err), SB_OK);
    assert_int_equal(m.config.nlevels, 3);
    assert_int_equal(sb_machine_load("epyc-zen4", &m, &err), SB_OK);
    assert_int_equal(m.config.level[1].inclusion, SB_INCL_INCLUSIVE);
    assert_int_equal(m.config.level[2].inclusion, SB_INCL_EXCLUSIVE);
    assert_int_equal(sb_machine_load("no-such-machine", &m, &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "\"no-such-machine\" is not a known machine (known: auto, "));
    assert_non_null(strstr(err.msg, "x4500"));
}

#define GOOD_HEAD "[machine]\ndescription = d\nsource = s\nwc_buffers = 4\n"
#define GOOD_L1 "[L1d]\nsize = 32K\nline_size = 64\nassociativity = 8\n"
#define GOOD_L2 "[L2]\nsize = 1M\nline_size = 64\nassociativity = 16\n"

static void expect_bad(const char *text, const char *want)
{
    struct sb_machine m;
    struct sb_error err = {0};

    assert_int_equal(sb_machine_parse(text, "bad.ini", &m, &err), SB_ERR_INPUT);
    sbtest_assert_error_contains(&err, SB_ERR_INPUT, want);
}

/* Each kind of bad machine file: the error names the file, the line and the key. */
static void test_bad_machine_files(void **state)
{
    struct sb_machine m;
    struct sb_error err = {0};

    (void)state;
    assert_int_equal(sb_machine_parse(GOOD_HEAD GOOD_L1 GOOD_L2, "good.ini", &m, &err), SB_OK);
    assert_string_equal(m.name, "good");
    /* lines: 1 [machine] 2 description 3 source 4 wc_buffers 5 [L1d] 6 size 7 line_size
     * 8 associativity 9 [L2] 10 size 11 line_size 12 associativity 13.. what follows */
    expect_bad(GOOD_HEAD GOOD_L1 "[L2]\nsize = 96K\nline_size = 64\nassociativity = 16\n",
               "bad.ini:10: size: [L2] 96KB makes 96 sets of 16 ways x 64B lines, not a power "
               "of two");
    expect_bad(GOOD_HEAD GOOD_L1 "[L2]\nsize = 512\nline_size = 64\nassociativity = 16\n",
               "bad.ini:10: size: [L2] 512B makes 0 sets");
    expect_bad(GOOD_HEAD "[L1d]\nsize = 32K\nline_size = 48\nassociativity = 8\n" GOOD_L2,
               "bad.ini:7: line_size: 48 does not divide the 8KB page");
    expect_bad(GOOD_HEAD GOOD_L1 GOOD_L2 "replacement = fifo\n",
               "bad.ini:13: replacement: \"fifo\" is not a replacement policy (known: lru, plru, pairs)");
    expect_bad(GOOD_HEAD GOOD_L1 GOOD_L2 "inclusion = mostly\n",
               "bad.ini:13: inclusion: \"mostly\" is not an inclusion policy");
    expect_bad(GOOD_HEAD "[L1d]\nsize = 2M\nline_size = 64\nassociativity = 8\n" GOOD_L2
               "inclusion = inclusive\n",
               "bad.ini:10: size: [L2] an inclusive L2 of 1MB must be larger than the L1d of 2MB");
    expect_bad(GOOD_HEAD GOOD_L1 GOOD_L2 "colour = blue\n",
               "bad.ini:13: colour: unknown key in [L2]");
    expect_bad(GOOD_HEAD GOOD_L1 GOOD_L2 "[L4]\nsize = 64M\n",
               "bad.ini:14: size: unknown section [L4]");
    expect_bad(GOOD_HEAD GOOD_L1 "[L2]\nsize = 1Q\n", "bad.ini:10: size: \"1Q\" is not a size");
    expect_bad(GOOD_HEAD "[L1d]\nsize = 32K\nline_size = 64\nassociativity = 8\n"
               "replacement = plru\n[L2]\nsize = 768K\nline_size = 64\nassociativity = 12\n"
               "replacement = plru\n",
               "bad.ini:14: replacement: [L2] plru (a binary tree) needs a power-of-two");
    expect_bad(GOOD_HEAD GOOD_L1 "inclusion = exclusive\n" GOOD_L2,
               "bad.ini:9: inclusion: L1d has no level above it");
    expect_bad(GOOD_HEAD GOOD_L1 GOOD_L2 "size = 2M\n", "bad.ini:13: size: set twice in [L2] "
               "(first at line 10)");
    expect_bad(GOOD_HEAD GOOD_L1, "bad.ini: L2: no [L2] section");
    expect_bad(GOOD_HEAD GOOD_L1 "[L2]\nsize = 1M\nline_size = 64\n",
               "bad.ini:10: associativity: missing in [L2]");
    expect_bad("[machine]\ndescription = d\nwc_buffers = 4\n" GOOD_L1 GOOD_L2,
               "bad.ini:2: source: missing in [machine]");
    expect_bad(GOOD_HEAD GOOD_L1 GOOD_L2 "this is not ini\n", "bad.ini:13: not a valid INI line");
    expect_bad("[machine]\ndescription = d\nsource = s\nwc_buffers = 0\n" GOOD_L1 GOOD_L2,
               "bad.ini:4: wc_buffers: \"0\" is not a whole number from 1 to 64");
    /* a continuation line extends the source */
    assert_int_equal(sb_machine_parse("[machine]\ndescription = d\nsource = first part\n"
                                      "  second part\nwc_buffers = 4\n" GOOD_L1 GOOD_L2,
                                      "cont.ini", &m, &err), SB_OK);
    assert_string_equal(m.source, "first part second part");
    /* issue 15: another key's indented line was "set twice"; an indented key is refused; text
     * is UTF-8 and fits its field (a continuation was cut silently); the whole file is read */
    expect_bad(GOOD_HEAD GOOD_L1 GOOD_L2 "  8\n", "bad.ini:13: associativity: \"8\": an "
               "indented line goes on with text or a list; a key of its own starts its line");
    expect_bad(GOOD_HEAD GOOD_L1 GOOD_L2 "  associativity = 8\n", "bad.ini:13: associativity: "
               "\"associativity = 8\": an indented line goes on with the value above");
    expect_bad("[machine]\ndescription = d\n  wc_buffers = 4\nsource = s\n" GOOD_L1 GOOD_L2,
               "bad.ini:3: description: \"wc_buffers = 4\": an indented line goes on with the "
               "value above; a key of its own starts its line");
    /* a key of another section (of a level) too: it was joined into the description */
    expect_bad("[machine]\ndescription = d\n  size = 3\nsource = s\n" GOOD_L1 GOOD_L2,
               "bad.ini:3: description: \"size = 3\": an indented line goes on with the value "
               "above; a key of its own starts its line");
    expect_bad("[machine]\ndescription = caf\xe9\nsource = s\nwc_buffers = 4\n" GOOD_L1 GOOD_L2,
               "bad.ini:2: description: not UTF-8 (a report holds UTF-8 text only)");
    {
        char text[4096] = "[machine]\nsource = s\nwc_buffers = 4\ndescription = d\n";
        for (int i = 0; i < 5; i++)
            strcat(text, "  xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                         "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                         "xxxxxxxxxxx\n");
        strcat(text, GOOD_L1 GOOD_L2);
        expect_bad(text, "bad.ini:9: description: longer than 767 bytes");
    }
    expect_bad("[machine] name = m\n", "bad.ini:1: [machine]: text after the section header");
    expect_bad("[machine]\rdescription = d\r", "bad.ini:1: a carriage return that does not end "
               "the line");
    expect_bad("", "bad.ini: empty (an INI file with its sections)");
}

/* machine=auto from a topology: this VM's (EPYC: 32KB 8-way, 512KB 8-way, 32MB 16-way) gives
 * an exclusive L3 for AMD and an inclusive one otherwise; an unknown associativity is assumed
 * and said; a size that does not make a power-of-two number of sets is rounded down and said;
 * an unknown L2 is refused. */
static void test_machine_from_topology(void **state)
{
    struct sb_topology topo;
    struct sb_machine m;
    struct sb_error err = {0};

    (void)state;
    memset(&topo, 0, sizeof topo);
    topo.cache[SB_L1D] = (struct sb_cache_level){
        .size = {32 << 10, "sysfs"}, .line = {64, "sysfs"}, .assoc = {8, "sysfs"}};
    topo.cache[SB_L2] = (struct sb_cache_level){
        .size = {512 << 10, "sysfs"}, .line = {64, "sysfs"}, .assoc = {8, "sysfs"}};
    topo.cache[SB_L3] = (struct sb_cache_level){
        .size = {32u << 20, "sysfs"}, .line = {64, "sysfs"}, .assoc = {16, "sysfs"}};
    assert_int_equal(sb_machine_from_topology(&topo, "AuthenticAMD", &m, &err), SB_OK);
    assert_string_equal(m.name, "auto");
    assert_int_equal(m.config.nlevels, 3);
    assert_int_equal(m.config.level[2].inclusion, SB_INCL_EXCLUSIVE);
    assert_int_equal(m.config.level[1].inclusion, SB_INCL_NON_INCLUSIVE);
    assert_non_null(strstr(m.description, "exclusive victim cache"));
    assert_int_equal(sb_machine_from_topology(&topo, "GenuineIntel", &m, &err), SB_OK);
    assert_int_equal(m.config.level[2].inclusion, SB_INCL_INCLUSIVE);

    topo.cache[SB_L2].assoc = (struct sb_figure){0, "unknown"};
    topo.cache[SB_L3].size.value = 30u << 20; /* 30MB 16-way: 30720 sets */
    assert_int_equal(sb_machine_from_topology(&topo, "GenuineIntel", &m, &err), SB_OK);
    assert_int_equal(m.config.level[1].associativity, 16);
    assert_non_null(strstr(m.description, "L2 associativity unknown: 16 ways assumed"));
    assert_int_equal(m.config.level[2].size, 16u << 20);
    assert_non_null(strstr(m.description, "L3 30MB modelled as 16MB"));

    topo.cache[SB_L2].size = (struct sb_figure){0, "unknown"};
    assert_int_equal(sb_machine_from_topology(&topo, "GenuineIntel", &m, &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "the host's L2 size is unknown"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clock_temporal),
        cmocka_unit_test(test_ring_temporal),
        cmocka_unit_test(test_single_temporal),
        cmocka_unit_test(test_nt_any_placement),
        cmocka_unit_test(test_halves),
        cmocka_unit_test(test_op_walks),
        cmocka_unit_test(test_walk_counts_live_rows),
        cmocka_unit_test(test_determinism_and_prefetch),
        cmocka_unit_test(test_slices_add_up),
        cmocka_unit_test(test_slices_crowded_pages),
        cmocka_unit_test(test_machine_files),
        cmocka_unit_test(test_bad_machine_files),
        cmocka_unit_test(test_machine_from_topology),
    };
    return cmocka_run_group_tests(tests, make_table, free_table);
}
