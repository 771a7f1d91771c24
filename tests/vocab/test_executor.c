/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_executor.c: unit tests for lib/vocab/executor.h, count and vacuum with PostgreSQL 8.1's
 * and 8.2's per-tuple work. Each pass against its minimal op (heap.h) on tables with 0, 10 and
 * 100% dead tuples, hint bits set and unset, and on pages already counted or vacuumed: the same
 * bytes, the same live rows, dirtied in the same cases. The steps each takes over one page
 * against counts worked out by hand from the functions executor.c names. 8.1's buffer structures
 * at a pool's size (sb_exec_shared): the same pages, and what the region holds after a scan
 * longer than the pool. And the registry: op.h's sb_op_with_executor finds every executor's
 * row of count and vacuum, and only pg81's rows use the region. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "vocab/executor.h"
#include "vocab/heap.h"
#include "vocab/op.h"

#define PAGE 8192u

typedef uint32_t (*pass_fn)(void *, uint32_t, bool *);

/* pass and reference on copies of src: the same bytes, rows and dirtiness. */
static void same_as(pass_fn pass, pass_fn reference, const uint8_t *src, uint8_t *a, uint8_t *b)
{
    bool da = false, db = false;
    uint32_t ra, rb;

    memcpy(a, src, PAGE);
    memcpy(b, src, PAGE);
    ra = pass(a, PAGE, &da);
    rb = reference(b, PAGE, &db);
    assert_int_equal(ra, rb);
    assert_int_equal(da, db);
    assert_memory_equal(a, b, PAGE);
}

static void test_same_pages_as_minimal(void **state)
{
    const pass_fn counts[] = {sb_exec81_count, sb_exec82_count};
    const pass_fn vacuums[] = {sb_exec81_vacuum, sb_exec82_vacuum};
    const uint32_t dead[] = {0, 10, 100};
    uint8_t *x = malloc(PAGE), *y = malloc(PAGE), *a = malloc(PAGE), *b = malloc(PAGE);
    struct sb_heap_layout l;
    (void)state;

    assert_true(x && y && a && b);
    for (size_t d = 0; d < 3; d++)
        for (int set = 0; set < 2; set++) {
            assert_true(sb_heap_layout_init(&l, PAGE, 100, dead[d]));
            l.hint_bits_set = set;
            for (uint64_t block = 0; block < 20; block++) {
                sb_heap_fill_page(&l, x, block);
                for (int e = 0; e < 2; e++) {
                    same_as(counts[e], sb_heap_count, x, a, b);
                    same_as(vacuums[e], sb_heap_vacuum, x, a, b);
                    /* and on the page the other op left */
                    memcpy(y, x, PAGE);
                    sb_heap_count(y, PAGE, NULL);
                    same_as(vacuums[e], sb_heap_vacuum, y, a, b);
                    sb_heap_vacuum(y, PAGE, NULL);
                    same_as(counts[e], sb_heap_count, y, a, b);
                    same_as(vacuums[e], sb_heap_vacuum, y, a, b);
                }
            }
        }
    free(x);
    free(y);
    free(a);
    free(b);
}

/* A page of 61 tuples (100-byte rows), `live` of them visible. */
static uint32_t page_of(uint8_t *page, uint32_t dead_pct, bool hints, uint64_t block)
{
    struct sb_heap_layout l;
    assert_true(sb_heap_layout_init(&l, PAGE, 100, dead_pct));
    l.hint_bits_set = hints;
    return sb_heap_fill_page(&l, page, block);
}

/* 8.1's read of the page into the pool (ReadBuffer of a block not in it, BufferAlloc): the
 * mapping lock shared for the lookup (2 lock ops), the free list's lock (2), the mapping lock
 * exclusive for the insert and the delete (2), the buffer's I/O lock (2): 8 lock ops; 3 hash
 * searches; the victim's pin; 4 header spinlocks (the victim, its retagging, StartBufferIO,
 * TerminateBufferIO); one StartBufferIO and one smgrread. */
static void assert_read81(const struct sb_exec_steps *s)
{
    assert_int_equal(s->buffer_reads, 1);
    assert_int_equal(s->hash_searches, 3);
    assert_int_equal(s->buffer_ios, 1);
    assert_int_equal(s->smgr_reads, 1);
    assert_int_equal(s->unexpected, 0);
}

/* COUNT, 8.1 (heapgettup, a tuple a call, under the Agg node's loop): V visible of N tuples.
 * The read (8 lock ops, above); the walk to the first visible tuple under the content lock (2),
 * the tuple stored in the slot (IncrBufferRefCount: a pin); then V turns of the Agg node's loop,
 * each evaluating the argument, calling int8inc through fmgr, resetting the per-tuple context
 * and calling down the plan (ExecProcNode, with its interrupt check): SeqNext clears the slot
 * (ReleaseBuffer: an unpin) and heapgettup takes and drops the content lock (2 lock ops) to
 * find the next tuple, stored (a pin) but for the last call, which finds the page exhausted;
 * then ReleaseAndReadBuffer unpins the page (the last pin: its header spinlock). Lock ops
 * 8 + 2 + 2V, pins 1 + V, unpins V + 1, spinlocks one per lock op, 4 for the read, 1 for the
 * last unpin and one for the first hint stored. Hinted, one xid comparison a visible tuple and
 * two a dead one; unhinted, six xid lookups a tuple and three or four comparisons. */
static void test_count81_steps(void **state)
{
    uint8_t *page = malloc(PAGE);
    (void)state;

    assert_non_null(page);
    for (int hints = 0; hints < 2; hints++)
        for (uint32_t dead_pct = 0; dead_pct <= 10; dead_pct += 10) {
            uint64_t v = page_of(page, dead_pct, hints, 5);
            struct sb_exec_steps s = {0};
            bool dirtied;
            assert_int_equal(sb_exec_count_steps(SB_EXEC_PG81, page, PAGE, &dirtied, &s), v);
            assert_read81(&s);
            assert_int_equal(s.pages, 1);
            assert_int_equal(s.tuples, 61);
            assert_int_equal(s.visibility_tests, 61);
            assert_int_equal(s.lwlock_ops, 10 + 2 * v);
            assert_int_equal(s.pins, 1 + v);
            assert_int_equal(s.unpins, v + 1);
            assert_int_equal(s.resowner_ops, s.pins + s.unpins);
            assert_int_equal(s.slot_stores, v);
            assert_int_equal(s.stats_counted, v);
            assert_int_equal(s.agg_calls, v);
            assert_int_equal(s.expr_evals, v);
            assert_int_equal(s.context_resets, v);
            assert_int_equal(s.plan_calls, v);
            assert_int_equal(s.interrupt_checks, v);
            assert_int_equal(s.spinlock_ops, s.lwlock_ops + 4 + 1 + !hints);
            assert_int_equal(s.xid_compares, hints ? v + 2 * (61 - v) : 3 * v + 4 * (61 - v));
            assert_int_equal(s.xid_lookups, hints ? 0 : 6 * 61);
            assert_int_equal(dirtied, !hints);
            assert_int_equal(s.freeze_tests + s.dead_noted + s.free_space_notes, 0);
            assert_int_equal(s.delay_points, 0);
        }
    free(page);
}

/* COUNT, 8.2 (heapgetpage, a page at a time): the content lock once (2 lock ops), the same
 * tests, slot stores, statistics counts and calls as 8.1; the slot pins the page once (its
 * first store) instead of per tuple: 2 pins, 2 unpins. */
static void test_count82_steps(void **state)
{
    uint8_t *page = malloc(PAGE);
    uint64_t v;
    struct sb_exec_steps s = {0};
    (void)state;

    assert_non_null(page);
    v = page_of(page, 10, true, 7);
    assert_true(v > 0 && v < 61);
    assert_int_equal(sb_exec_count_steps(SB_EXEC_PG82, page, PAGE, NULL, &s), v);
    assert_int_equal(s.tuples, 61);
    assert_int_equal(s.visibility_tests, 61);
    assert_int_equal(s.lwlock_ops, 4);
    assert_int_equal(s.pins, 2);
    assert_int_equal(s.unpins, 2);
    assert_int_equal(s.resowner_ops, 4);
    assert_int_equal(s.slot_stores, v);
    assert_int_equal(s.stats_counted, v);
    assert_int_equal(s.agg_calls, v);
    assert_int_equal(s.spinlock_ops, 4 + 2);
    free(page);
}

/* VACUUM (lazy_scan_heap): every tuple's vacuum test, a live one's freeze test, a dead one
 * noted; the free space noted only on a page without dead tuples. 8.2: the buffer read and
 * pinned once, the content lock once (2 + 2 lock ops), one pin, one unpin. 8.1: its
 * vacuum_delay_point (an interrupt check), the read of the page into the pool (8 lock ops,
 * assert_read81), the content lock (2), ReleaseBuffer's unpin putting the buffer back on the
 * free list under its lock (2): 12 lock ops, and spinlocks one per lock op, 4 for the read, 1 for
 * the unpin and one for the first hint stored; one xid comparison a tuple hinted (the freeze
 * test's, or a dead tuple's against OldestXmin), three unhinted with four xid lookups. A clean
 * hinted page without dead tuples is not dirtied and keeps its checksum; a page with dead
 * tuples or missing hints is dirtied (once: a second pass finds nothing to change). */
static void test_vacuum_steps(void **state)
{
    uint8_t *page = malloc(PAGE);
    (void)state;

    assert_non_null(page);
    for (int v = SB_EXEC_PG81; v <= SB_EXEC_PG82; v++)
        for (int hints = 0; hints < 2; hints++)
            for (uint32_t dead_pct = 0; dead_pct <= 10; dead_pct += 10) {
                uint64_t live = page_of(page, dead_pct, hints, 9);
                uint32_t sum = sb_page_checksum(page, PAGE);
                struct sb_exec_steps s = {0};
                bool dirtied;
                assert_int_equal(sb_exec_vacuum_steps(v, page, PAGE, &dirtied, &s), live);
                assert_int_equal(s.visibility_tests, 61);
                assert_int_equal(s.freeze_tests, live);
                assert_int_equal(s.dead_noted, 61 - live);
                assert_int_equal(s.free_space_notes, dead_pct == 0);
                assert_int_equal(s.pins, 1);
                assert_int_equal(s.unpins, 1);
                assert_int_equal(s.slot_stores + s.agg_calls + s.stats_counted, 0);
                if (v == SB_EXEC_PG81) {
                    assert_read81(&s);
                    assert_int_equal(s.lwlock_ops, 12);
                    assert_int_equal(s.spinlock_ops, 12 + 4 + 1 + !hints);
                    assert_int_equal(s.delay_points, 1);
                    assert_int_equal(s.interrupt_checks, 1);
                    assert_int_equal(s.xid_compares, hints ? 61 : 3 * 61);
                    assert_int_equal(s.xid_lookups, hints ? 0 : 4 * 61);
                    assert_int_equal(s.plan_calls + s.expr_evals + s.context_resets, 0);
                } else {
                    assert_int_equal(s.lwlock_ops, 4);
                }
                assert_int_equal(dirtied, !hints || dead_pct > 0);
                if (!dirtied)
                    assert_int_equal(sb_page_checksum(page, PAGE), sum);
                sum = sb_page_checksum(page, PAGE);
                assert_int_equal(sb_exec_vacuum_steps(v, page, PAGE, &dirtied, &s), live);
                assert_false(dirtied);
                assert_int_equal(sb_page_checksum(page, PAGE), sum);
            }
    free(page);
}

/* A pass over pages more than a region's buffers: the pages as the minimal op leaves them, no
 * error path, and the region after it as 8.1's would be: every buffer used once the pool has
 * filled, each holding one tag of the table (nbuffers entries), no pin and no LWLock left;
 * three hash searches a page (lookup, insert, delete of the victim's old tag) but for the
 * first nbuffers pages, whose victims came off the free list with no tag. */
static void region_scan(pass_fn pass, pass_fn reference, uint32_t nbuffers, uint32_t pages,
                        bool hinted)
{
    struct sb_exec_shared *r = sb_exec_shared_create(nbuffers);
    struct sb_exec_shared_state st;
    struct sb_exec_steps steps = {0};
    uint8_t *x = malloc(PAGE), *a = malloc(PAGE), *b = malloc(PAGE);
    struct sb_heap_layout l;
    bool vacuum = pass == sb_exec81_vacuum;

    assert_true(r && x && a && b);
    assert_true(sb_heap_layout_init(&l, PAGE, 100, 10));
    l.hint_bits_set = hinted; /* unhinted: the op's hints dirty the buffer, flushed as a victim */
    sb_exec_shared_bind(r);
    for (uint32_t block = 0; block < pages; block++) {
        sb_heap_fill_page(&l, x, block);
        same_as(pass, reference, x, a, b);
        memcpy(a, x, PAGE);
        if (vacuum)
            (void)sb_exec_vacuum_steps(SB_EXEC_PG81, a, PAGE, NULL, &steps);
        else
            (void)sb_exec_count_steps(SB_EXEC_PG81, a, PAGE, NULL, &steps);
    }
    sb_exec_shared_bind(NULL);
    sb_exec_shared_state(r, &st);
    assert_int_equal(steps.unexpected, 0);
    assert_int_equal(st.unexpected, 0); /* every page the region saw */
    assert_int_equal(st.nbuffers, nbuffers);
    assert_int_equal(st.pages, 2ull * pages);
    assert_int_equal(st.used, nbuffers < 2 * pages ? nbuffers : 2 * pages);
    assert_int_equal(st.entries, st.used);
    assert_int_equal(st.pinned, 0);
    assert_int_equal(st.locks_held, 0);
    /* the victims: VACUUM puts each buffer back on the free list's tail, so the list cycles
       through them all; COUNT takes the free list's buffers, then the clock hand's */
    if (vacuum) {
        assert_int_equal(st.first_free, (int)(2 * pages % nbuffers));
        assert_int_equal(st.next_victim, 0);
    } else if (2 * pages < nbuffers) {
        assert_int_equal(st.first_free, (int)(2 * pages));
        assert_int_equal(st.next_victim, 0);
    } else {
        assert_int_equal(st.first_free, -1);
        assert_int_equal(st.next_victim, (int)((2 * pages - nbuffers) % nbuffers));
    }
    /* the counted passes are the region's pages 2, 4, ... 2 * pages: those up to nbuffers
       took a victim with no tag to delete */
    assert_int_equal(steps.hash_searches,
                     3ull * pages - (nbuffers / 2 < pages ? nbuffers / 2 : pages));
    sb_exec_shared_destroy(r);
    free(x);
    free(a);
    free(b);
}

static void test_shared_region(void **state)
{
    struct sb_exec_shared_state st;
    struct sb_exec_shared *r;
    (void)state;

    assert_null(sb_exec_shared_create(0));
    /* 2^k - 1 buffers fill the table to its buckets and 8.1 expands it (expand_table: not
       emulated, counted as unexpected): 2, 8, 32, 128 buffers do not */
    for (uint32_t n = 2; n <= 128; n *= 4)
        for (int hinted = 0; hinted < 2; hinted++) {
            region_scan(sb_exec81_count, sb_heap_count, n, 40, hinted);
            region_scan(sb_exec81_vacuum, sb_heap_vacuum, n, 40, hinted);
        }
    region_scan(sb_exec81_count, sb_heap_count, 85, 40, true); /* 680KB: more buffers than
                                                                   pages */
    region_scan(sb_exec81_count, sb_heap_count, 85, 50, false);
    /* a fresh region: 8.1's table for 2048 buffers has 4096 buckets (InitBufTable(NBuffers +
       1), fill factor 1), no entry, every buffer free */
    r = sb_exec_shared_create(2048);
    assert_non_null(r);
    sb_exec_shared_state(r, &st);
    assert_int_equal(st.buckets, 4096);
    assert_int_equal(st.entries, 0);
    assert_int_equal(st.used, 0);
    sb_exec_shared_destroy(r);
    /* unbound again: the one-buffer stand-in (test_count81_steps' counts hold after this) */
}

static void test_registry(void **state)
{
    const char *ops[] = {"count", "vacuum"};
    (void)state;

    for (const struct sb_executor *e = sb_executors; e->name; e++)
        for (int i = 0; i < 2; i++) {
            const struct sb_op *base = sb_op_find(ops[i]);
            const struct sb_op *o = sb_op_with_executor(base, e->name);
            assert_non_null(o);
            assert_string_equal(o->name, ops[i]);
            assert_string_equal(o->executor, e->name);
            assert_int_equal(o->kind, base->kind);
            assert_true(strcmp(e->name, "minimal") != 0 || o == base);
        }
    assert_ptr_equal(sb_op_with_executor(sb_op_find("none"), "pg81"), sb_op_find("none"));
    assert_null(sb_op_with_executor(sb_op_find("count"), "pg90"));
    assert_null(sb_executor_find("pg90"));
    assert_true(sb_op_uses_buffer_manager(sb_op_with_executor(sb_op_find("count"), "pg81")));
    assert_true(sb_op_uses_buffer_manager(sb_op_with_executor(sb_op_find("vacuum"), "pg81")));
    assert_false(sb_op_uses_buffer_manager(sb_op_with_executor(sb_op_find("count"), "pg82")));
    assert_false(sb_op_uses_buffer_manager(sb_op_find("count")));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_pages_as_minimal),
        cmocka_unit_test(test_count81_steps),
        cmocka_unit_test(test_count82_steps),
        cmocka_unit_test(test_vacuum_steps),
        cmocka_unit_test(test_shared_region),
        cmocka_unit_test(test_registry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
