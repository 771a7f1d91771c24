/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_sim_writeback.c: the cache model's replay of the write-back (lib/counters/sim_replay.h:
 * writeback evict and checkpoint, the write-back kernels' accesses, the op's hint-bit stores)
 * and its counts split by phase, on hand-made traces with exact counts derived by hand.
 *
 * The machine (K8's shape, small enough to derive): L1d 16KB 2-way LRU, L2 128KB 16-way LRU
 * exclusive (a victim cache, as AMD K8's), 64-byte lines, 4 WC buffers, no prefetcher. Both
 * levels have 128 sets, and the model puts the IO cache and the pool each at a 1TB-aligned base,
 * so line s of every 8KB page (128 lines) falls in set s of both levels: each set sees the same
 * sequence, one line per page touched, and the counts per page are 128 times one set's (but for
 * solaris-nta's prefetches, which run 4 lines ahead: see there). A one-set trace is written as
 * [L1d, most recent first] and L2's lines in insertion order (LRU: a hit takes a line out).
 *
 * The trace: a ring of P pool buffers (page k into buffer k % P) over a table of NPAGES pages,
 * heap pages of 61 tuples of 100 bytes (10% deleted), every tuple's header in one line. Scans
 * are fed one after the other to one model (its state carrying over); the figures are those
 * of a later scan, in the steady state, which the replay's start state (each buffer holding
 * its last block, dirty as the op left it) continues exactly: the ring goes on at block 0 with
 * the buffer's tenant NPAGES - P + b. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "cachesim/cachesim.h"
#include "counters/sim_replay.h"
#include "cachesim/model.h"
#include "vocab/vocab.h"

#define PAGE 8192u
#define LINES 128u /* per page */
#define NPAGES 64u /* 512KB: four times L2 */
#define LINE 64u

static struct sb_cachesim_config k8_small(void)
{
    struct sb_cachesim_config c;

    memset(&c, 0, sizeof c);
    c.nlevels = 2;
    c.level[0] = (struct sb_cachesim_level_config){
        .size = 16 << 10, .line_size = LINE, .associativity = 2,
        .replacement = SB_REPL_LRU, .inclusion = SB_INCL_NON_INCLUSIVE};
    c.level[1] = (struct sb_cachesim_level_config){
        .size = 128 << 10, .line_size = LINE, .associativity = 16,
        .replacement = SB_REPL_LRU, .inclusion = SB_INCL_EXCLUSIVE};
    c.wc_buffers = 4;
    return c;
}

/* The table: NPAGES heap pages, with their hint bits (set) or without (unset: t_infomask 0, as
 * generated before issue 18). */
static uint8_t *make_pages(bool hints_set)
{
    struct sb_heap_layout layout;
    uint8_t *pages = malloc((size_t)NPAGES * PAGE);

    assert_non_null(pages);
    assert_true(sb_heap_layout_init(&layout, PAGE, 100, 10));
    assert_int_equal(layout.rows_per_page, 61);
    for (uint32_t b = 0; b < NPAGES; b++) {
        uint8_t *page = pages + (size_t)b * PAGE;
        uint32_t n, off;
        sb_heap_fill_page(&layout, page, b);
        n = sb_page_nitems(page);
        for (uint32_t i = 0; i < n; i++) {
            uint16_t mask = 0;
            if (!sb_page_tuple(page, i, PAGE, &off))
                continue;
            if (hints_set)
                mask = (uint16_t)(SB_HEAP_XMIN_COMMITTED | (sb_tuple_xmax(page, off)
                                                                ? SB_HEAP_XMAX_COMMITTED
                                                                : SB_HEAP_XMAX_INVALID));
            memcpy(page + off + SB_T_INFOMASK, &mask, 2);
        }
    }
    return pages;
}

/* Pages (of NPAGES) with a deleted tuple: where vacuum prunes (it also writes pd_flags). */
static uint64_t pruning_pages(const uint8_t *pages)
{
    uint64_t n = 0;

    for (uint32_t b = 0; b < NPAGES; b++) {
        const uint8_t *page = pages + (size_t)b * PAGE;
        uint32_t off;
        bool pruned = false;
        for (uint32_t i = 0; i < sb_page_nitems(page); i++)
            pruned |= sb_page_tuple(page, i, PAGE, &off) && !sb_tuple_is_live(page, off);
        n += pruned;
    }
    return n;
}

struct wb_run {
    uint8_t *pages;
    uint32_t victims[NPAGES];
    struct sb_scan_trace trace;
};

static void wb_run_init(struct wb_run *r, bool hints_set, uint32_t pool, const char *op,
                        enum sb_writeback_mode writeback, const char *kernel)
{
    r->pages = make_pages(hints_set);
    for (uint32_t k = 0; k < NPAGES; k++)
        r->victims[k] = k % pool;
    r->trace = (struct sb_scan_trace){.pages = r->pages, .npages = NPAGES, .page_size = PAGE,
                                      .op = sb_op_find(op), .temporal = true,
                                      .victims = r->victims, .writeback = writeback,
                                      .writeback_kernel = kernel ? sb_writeback_kernel_find(kernel)
                                                                 : NULL,
                                      .nbuffers = pool, .side = SB_KERNEL_COPY};
    assert_non_null(r->trace.op);
    assert_true(!kernel || r->trace.writeback_kernel);
}

/* Feeds scans scans to a cold model and gives the last one's counts, total and by phase
 * (checking that the phases add up to the total). */
static void feed(const struct sb_scan_trace *t, unsigned scans, struct sb_cachesim_counts *total,
                 struct sb_cachesim_counts phase[SB_NPHASES])
{
    struct sb_cachesim_config cfg = k8_small();
    struct sb_cachesim *sim = NULL;
    struct sb_error err = {0};
    struct sb_cachesim_counts sum;
    uint64_t live;

    assert_int_equal(sb_cachesim_create(&cfg, &sim, &err), SB_OK);
    for (unsigned s = 0; s < scans; s++) {
        sb_cachesim_reset_counts(sim);
        assert_int_equal(sb_sim_feed_scan_phases(sim, t, phase, &live, &err), SB_OK);
    }
    sb_cachesim_read_counts(sim, total);
    memset(&sum, 0, sizeof sum);
    for (unsigned p = 0; p < SB_NPHASES; p++)
        sb_cachesim_counts_add(&sum, &phase[p]);
    assert_memory_equal(&sum, total, sizeof sum);
    sb_cachesim_destroy(sim);
}

/* One phase's (or the scan's) counts, per page of the scan: L1d misses, hits, write-backs;
 * L2 hits, misses, fills, write-backs, invalidations; memory bytes read, written. */
struct per_page {
    uint64_t l1_miss, l1_hit, l1_wb, l2_hit, l2_miss, l2_fill, l2_wb, l2_inval, rd, wr;
};

static void expect(const struct sb_cachesim_counts *n, uint64_t pages, struct per_page want,
                   const char *what)
{
    const struct per_page got = {n->level[0].misses, n->level[0].hits, n->level[0].writebacks,
                                 n->level[1].hits, n->level[1].misses, n->level[1].fills,
                                 n->level[1].writebacks, n->level[1].invalidations,
                                 n->mem_read_bytes, n->mem_write_bytes};
    const uint64_t *g = &got.l1_miss, *w = &want.l1_miss;
    static const char *const names[] = {"l1_miss", "l1_hit", "l1_wb", "l2_hit", "l2_miss",
                                        "l2_fill", "l2_wb", "l2_inval", "rd", "wr"};

    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (g[i] != w[i] * pages)
            fail_msg("%s: %s %llu, want %llu x %llu pages", what, names[i],
                     (unsigned long long)g[i], (unsigned long long)w[i],
                     (unsigned long long)pages);
}

/* The op's phase: vacuum's accesses all hit L1d (the buffer's lines were just written by the
 * copy, the most recent of their sets: nothing else changes). Per page: pd_lower, 61 line
 * pointers and 61 tuple headers read (123), a store per tuple (a live one's hint bits, a dead
 * one's line pointer: 61; a `set` table gives no dead tuple's hint store), pd_prune_xid (1),
 * pd_flags where it prunes. count: the 123 reads, and on an `unset` table a hint store per tuple
 * (61). */
static void expect_op_hits_only(const struct sb_cachesim_counts *n, uint64_t hits)
{
    assert_int_equal(n->level[0].hits, hits);
    assert_int_equal(n->level[0].misses, 0);
    assert_int_equal(n->level[0].writebacks, 0);
    assert_int_equal(n->level[1].hits + n->level[1].misses + n->level[1].fills, 0);
    assert_int_equal(n->mem_read_bytes + n->mem_write_bytes, 0);
}

/* Pool of 4 buffers (32KB: fits in L2 with room), writeback evict, a temporal write-back
 * kernel (memcpy), vacuum (every page dirty). Per set, step k (buffer b = k % 4, b' the one
 * before; B the page copied in, B' the one before; t the tenant, page k - 4, going back),
 * starting from what step k - 1 left, L1 [b'*, B']:
 *   write-back: load b   L1 miss, L2 hit (b*, put there by step k - 3): up; L1 evicts B'
 *                        (clean) into L2                     L1 [b* b'*]
 *               store t  L1 miss, L2 hit (t: was B' of step k - 3): up, dirty; L1 evicts b'*
 *                        into L2 (an L1 write-back)          L1 [t* b*]
 *   copy-in:    load B   L1 miss, L2 miss: memory; L1 evicts b* into L2 (write-back)
 *                                                            L1 [B t*]
 *               store b  L1 miss, L2 hit (b*): up; L1 evicts t* into L2 (write-back)
 *                                                            L1 [b* B]
 *   op:         hits on b only; L1 [b* B] as the next step expects.
 * L2 per step: 4 fills and 3 hits take lines out: one more line a step. It holds the live
 * lines (3 pool buffers, the 3 pages to be written back) and the dirty pages already written
 * back (t*, never used again), 10 of them once full: each fill that finds the set full (the
 * copy-in's load, whose evicted b* arrives when the write-back's two fills have filled the
 * ways its hits freed) evicts the oldest line, always such a t* (10 steps old; a live line is
 * at most 3): an L2 write-back, 64 bytes written to memory.
 * Per page (x 128 sets):
 *   write-back: L1 misses 256, write-backs 128; L2 hits 256, fills 256; nothing else
 *   copy-in:    L1 misses 256, write-backs 256; L2 hits 128, misses 128, fills 256,
 *               write-backs 128; 8192 bytes read, 8192 written
 * Without write-back (writeback none) the same pool gives per page L1 misses 256, write-backs
 * 128, L2 hits 128, misses 128, fills 256, and no L2 write-back: the oldest line is then a
 * clean page copied in before. */
static void test_evict_temporal_pool_in_l2(void **state)
{
    struct wb_run r;
    struct sb_cachesim_counts n, ph[SB_NPHASES];
    const uint64_t op_hits = NPAGES * (123 + 61 + 1);

    (void)state;
    wb_run_init(&r, true, 4, "vacuum-dirty", SB_WRITEBACK_EVICT, "memcpy");
    feed(&r.trace, 3, &n, ph);
    expect(&ph[SB_PHASE_WRITEBACK], NPAGES,
           (struct per_page){256, 0, 128, 256, 0, 256, 0, 0, 0, 0}, "write-back");
    expect(&ph[SB_PHASE_COPY_IN], NPAGES,
           (struct per_page){256, 0, 256, 128, 128, 256, 128, 0, PAGE, PAGE}, "copy-in");
    expect_op_hits_only(&ph[SB_PHASE_OP], op_hits + pruning_pages(r.pages));
    r.trace.writeback = SB_WRITEBACK_NONE;
    feed(&r.trace, 3, &n, ph);
    expect(&ph[SB_PHASE_COPY_IN], NPAGES,
           (struct per_page){256, 0, 128, 128, 128, 256, 0, 0, PAGE, 0}, "no write-back");
    expect(&ph[SB_PHASE_WRITEBACK], 0, (struct per_page){0}, "no write-back's write-back");
    free(r.pages);
}

/* The same with solaris-nta's write-back: per line of the buffer, prefetchnta of the line
 * 4 ahead (256 bytes), the line loaded, the page's line streamed (whole: a WC buffer written
 * at once, the line invalidated in the caches); an mfence. Sets 4..127 (124 sets) see their
 * line of b prefetched before it is loaded; sets 0..3 see b's line loaded without a prefetch,
 * and at the end of the write-back the prefetch of the lines past the buffer's end: lines 0..3
 * of buffer b + 1 (or, for b = 3, of the page after the pool, which nothing else touches).
 * Sets 4..127, from L1 [b'* B']:
 *   write-back: nta b    L2 hit (b*): as a load's hit (AMD 25112 5.6): up, not marked;
 *                        L1 evicts B' into L2                L1 [b* b'*]
 *               load b   L1 hit
 *               stream t a whole line to memory (64 bytes); t (clean, in L2) invalidated
 *   copy-in:    load B   L1 miss, L2 miss: memory; L1 evicts b'* into L2 (write-back)
 *                                                            L1 [B b*]
 *               store b  L1 hit                              L1 [b* B]
 * L2: 2 fills, 1 hit and 1 invalidation a step: it never fills (at most the 4 pool lines and
 * 3 pages), so nothing dirty ever leaves it.
 * Sets 0..3, from L1 [b'* B'] (b' = b - 1 prefetched b's line at its end, and its copy-in
 * evicted it again: b is in L2):
 *   write-back: load b   L1 miss, L2 hit: up; L1 evicts B'   L1 [b* b'*]
 *               stream t as above
 *               nta b+1  L2 hit (a pool buffer): up; L1 evicts b'* (write-back)
 *                                                            L1 [(b+1)* b*]
 *   copy-in:    load B   L1 miss, L2 miss: memory; evicts b* (write-back)  L1 [B (b+1)*]
 *               store b  L1 miss, L2 hit: up; evicts (b+1)* (write-back)   L1 [b* B]
 *   for b = 3, nta of the page after the pool: L2 miss, read from memory, into L1d only,
 *   marked; the copy-in's store b evicts it clean: dropped, not into L2 (no fill, no
 *   write-back): the AMD rule at work.
 * Per page, b = 0, 1, 2 (124 sets + 4 sets):
 *   write-back: L1 hits 124, misses 4, write-backs 4; L2 hits 124 + 8, fills 124 + 8,
 *               invalidations 128; 8192 bytes written
 *   copy-in:    L1 hits 124, misses 124 + 8, write-backs 124 + 8; L2 hits 4, misses 128,
 *               fills 124 + 8; 8192 bytes read
 * b = 3: write-back L2 hits 128, misses 4, 256 bytes read (4 nta prefetches); copy-in L1
 * write-backs 128, L2 fills 128. */
static void test_evict_solaris_nta_pool_in_l2(void **state)
{
    struct wb_run r;
    struct sb_cachesim_counts n, ph[SB_NPHASES];
    const uint64_t q = NPAGES / 4; /* steps with b = 3 */

    (void)state;
    wb_run_init(&r, true, 4, "vacuum-dirty", SB_WRITEBACK_EVICT, "solaris-nta");
    feed(&r.trace, 3, &n, ph);
    expect(&ph[SB_PHASE_WRITEBACK], 1,
           (struct per_page){4 * NPAGES, 124 * NPAGES, 4 * NPAGES, 132 * NPAGES - 4 * q,
                             4 * q, 132 * NPAGES, 0, 128 * NPAGES, 4 * LINE * q, PAGE * NPAGES},
           "write-back");
    expect(&ph[SB_PHASE_COPY_IN], 1,
           (struct per_page){132 * NPAGES, 124 * NPAGES, 132 * NPAGES - 4 * q, 4 * NPAGES,
                             128 * NPAGES, 132 * NPAGES - 4 * q, 0, 0, PAGE * NPAGES, 0},
           "copy-in");
    assert_int_equal(n.nta_prefetches, 4 * q);
    assert_int_equal(n.wc_full_lines, LINES * NPAGES);
    free(r.pages);
}

/* Pool of 32 buffers (256KB: twice L2), temporal write-back, vacuum. Nothing of the pool or
 * of the pages to be written back survives 31 steps in L2 (each step fills 4 lines and takes
 * out one), so per set and step, from L1 [b'* B']:
 *   write-back: load b   L1, L2 miss: memory (clean: its data went back to memory when L2
 *                        evicted it); L1 evicts B' into L2   L1 [b b'*]
 *               store t  L1, L2 miss: memory (read for ownership); L1 evicts b'* (write-back)
 *                                                            L1 [t* b]
 *   copy-in:    load B   memory; L1 evicts b (clean: no write-back)     L1 [B t*]
 *               store b  L2 hit (b just put there); L1 evicts t* (write-back)
 * L2 takes in, in order, B', b'*, t* a step (b comes and goes) and evicts the oldest: 3 a step,
 * 16 = 5 x 3 + 1 lines held, so after step k it holds steps k-4..k's three and t* of step
 * k - 5: the write-back's two fills evict that t* (dirty) and B' of step k - 4, the copy-in's
 * load evicts b'* of step k - 4 (dirty). Per page:
 *   write-back: L1 misses 256, write-backs 128; L2 misses 256, fills 256, write-backs 128;
 *               16384 bytes read, 8192 written
 *   copy-in:    L1 misses 256, write-backs 128; L2 hits 128, misses 128, fills 256,
 *               write-backs 128; 8192 bytes read, 8192 written */
static void test_evict_temporal_pool_beyond_l2(void **state)
{
    struct wb_run r;
    struct sb_cachesim_counts n, ph[SB_NPHASES];

    (void)state;
    wb_run_init(&r, true, 32, "vacuum-dirty", SB_WRITEBACK_EVICT, "memcpy");
    feed(&r.trace, 3, &n, ph);
    expect(&ph[SB_PHASE_WRITEBACK], NPAGES,
           (struct per_page){256, 0, 128, 0, 256, 256, 128, 0, 2 * PAGE, PAGE}, "write-back");
    expect(&ph[SB_PHASE_COPY_IN], NPAGES,
           (struct per_page){256, 0, 128, 128, 128, 256, 128, 0, PAGE, PAGE}, "copy-in");
    free(r.pages);
}

/* Hint bits: count on an `unset` table stores t_infomask into every tuple (61 stores a page,
 * all L1d hits on the header lines just read) and so dirties every buffer: the write-back and
 * copy-in phases are exactly vacuum's of test_evict_temporal_pool_in_l2 (what they see is only
 * which buffers are dirty), the op's L1 hits 123 + 61 a page. On a `set` table count stores
 * nothing (123 hits a page), dirties nothing, and writes nothing back: the copy-in phase is that
 * test's writeback none. */
static void test_hint_bits(void **state)
{
    struct wb_run r;
    struct sb_cachesim_counts n, ph[SB_NPHASES];

    (void)state;
    wb_run_init(&r, false, 4, "count", SB_WRITEBACK_EVICT, "memcpy");
    feed(&r.trace, 3, &n, ph);
    expect_op_hits_only(&ph[SB_PHASE_OP], NPAGES * (123 + 61));
    expect(&ph[SB_PHASE_WRITEBACK], NPAGES,
           (struct per_page){256, 0, 128, 256, 0, 256, 0, 0, 0, 0}, "unset write-back");
    expect(&ph[SB_PHASE_COPY_IN], NPAGES,
           (struct per_page){256, 0, 256, 128, 128, 256, 128, 0, PAGE, PAGE}, "unset copy-in");
    free(r.pages);
    wb_run_init(&r, true, 4, "count", SB_WRITEBACK_EVICT, "memcpy");
    feed(&r.trace, 3, &n, ph);
    expect_op_hits_only(&ph[SB_PHASE_OP], NPAGES * 123);
    expect(&ph[SB_PHASE_WRITEBACK], 0, (struct per_page){0}, "set write-back");
    expect(&ph[SB_PHASE_COPY_IN], NPAGES,
           (struct per_page){256, 0, 128, 128, 128, 256, 0, 0, PAGE, 0}, "set copy-in");
    free(r.pages);
}

/* Checkpoints: with a checkpoint every 4 pages over the pool of 4 (auto: the pool's buffers),
 * each checkpoint writes back the 4 buffers the last 4 pages dirtied and no eviction finds a
 * dirty buffer; `nt` streams every written-back line whole to memory: the write-back phase
 * writes exactly NPAGES pages (16 checkpoints of 4). Every 3 pages: the same count of pages
 * (each page dirtied once is written back once, at a checkpoint or at its buffer's eviction). */
static void test_checkpoint_pages(void **state)
{
    struct wb_run r;
    struct sb_cachesim_counts n, ph[SB_NPHASES];

    (void)state;
    wb_run_init(&r, true, 4, "vacuum-dirty", SB_WRITEBACK_CHECKPOINT, "nt");
    feed(&r.trace, 2, &n, ph);
    assert_int_equal(ph[SB_PHASE_WRITEBACK].wc_full_lines, NPAGES * LINES);
    assert_int_equal(ph[SB_PHASE_WRITEBACK].mem_write_bytes, NPAGES * PAGE);
    r.trace.checkpoint_pages = 3;
    feed(&r.trace, 2, &n, ph);
    assert_int_equal(ph[SB_PHASE_WRITEBACK].mem_write_bytes, NPAGES * PAGE);
    free(r.pages);
}

/* A model in 2, 4 or 8 slices (each on a thread of its own, the op's walk shared) counts
 * exactly what the whole model counts, phase by phase, scan after scan, with write-back (evict
 * and checkpoint), each write-back kernel, count on an unset table and vacuum, pools inside and
 * beyond L2. */
static void test_slices_write_back(void **state)
{
    static const char *const kernels[] = {"memcpy", "nt", "solaris-nta", "pwrite"};
    static const uint32_t pools[] = {4, 32};
    const struct sb_cachesim_config cfg = k8_small();

    (void)state;
    for (int mode = SB_WRITEBACK_EVICT; mode <= SB_WRITEBACK_CHECKPOINT; mode++)
        for (size_t k = 0; k < 4; k++)
            for (size_t p = 0; p < 2; p++)
                for (int o = 0; o < 3; o++) {
                    static const char *const ops[] = {"count", "vacuum", "vacuum-dirty"};
                    struct sb_cachesim_counts whole[2][1 + SB_NPHASES];
                    struct wb_run r;
                    wb_run_init(&r, false, pools[p], ops[o], mode, kernels[k]);
                    r.trace.checkpoint_pages = 5;
                    for (unsigned want = 1; want <= 8; want *= 2) {
                        struct sb_sim_model *model = NULL;
                        struct sb_error err = {0};
                        assert_int_equal(sb_sim_model_create(&cfg, want, &model, &err), SB_OK);
                        assert_int_equal(sb_sim_model_slices(model), want);
                        for (int scan = 0; scan < 2; scan++) {
                            struct sb_cachesim_counts c[1 + SB_NPHASES];
                            uint64_t live;
                            assert_int_equal(sb_sim_model_replay_phases(model, &r.trace, &c[0],
                                                                        &c[1], &live, &err),
                                             SB_OK);
                            if (want == 1)
                                memcpy(whole[scan], c, sizeof c);
                            else
                                assert_memory_equal(c, whole[scan], sizeof c);
                        }
                        sb_sim_model_destroy(model);
                    }
                    free(r.pages);
                }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_evict_temporal_pool_in_l2),
        cmocka_unit_test(test_evict_solaris_nta_pool_in_l2),
        cmocka_unit_test(test_evict_temporal_pool_beyond_l2),
        cmocka_unit_test(test_hint_bits),
        cmocka_unit_test(test_checkpoint_pages),
        cmocka_unit_test(test_slices_write_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
