/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_policy.c: unit tests for lib/vocab/policy.h, the buffer replacement policies. Checks the exact
 * victim sequence of each policy and the clock sweep's work counter (visits) against sequences
 * worked out by hand, that `random` is a seeded, in-range, covering xorshift64, and the
 * registry lookups and the footprint (the bytes each policy writes into). */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "vocab/policy.h"

static void test_clock_sequence_and_visits(void **state)
{
    const struct sb_policy *clock = sb_policy_find("clock");
    struct sb_policy_state s;
    /* Picks 1-4 come off the free list: one visit each, every usage count set to 1.
     * Pick 5: the hand sweeps 0,1,2,3 decrementing each count to 0 (4 visits), wraps to 0 and
     * takes it (1 visit): 5 visits. Picks 6-8 find counts 0 at 1,2,3: 1 visit each. Pick 9
     * repeats pick 5 (every count is 1 again), and so on: 2N visits per lap of N buffers. */
    const uint32_t victims[12] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};
    const uint64_t visits[12] = {1, 2, 3, 4, 9, 10, 11, 12, 17, 18, 19, 20};
    (void)state;

    assert_non_null(clock);
    assert_int_equal(sb_policy_state_init(&s, 4, 1, 1), 0);
    assert_int_equal(s.visits, 0);
    for (int i = 0; i < 12; i++) {
        assert_int_equal(clock->victim(&s), victims[i]);
        assert_int_equal(s.visits, visits[i]);
        assert_int_equal(s.usage[victims[i]], 1);
    }
    sb_policy_state_destroy(&s);
    assert_null(s.usage);
}

static void test_clock_one_buffer(void **state)
{
    const struct sb_policy *clock = sb_policy_find("clock");
    struct sb_policy_state s;
    (void)state;

    /* free list: 1 visit; then each pick: decrement (1) + take (1) = 2 visits */
    assert_int_equal(sb_policy_state_init(&s, 1, 1, 1), 0);
    assert_int_equal(clock->victim(&s), 0);
    assert_int_equal(s.visits, 1);
    assert_int_equal(clock->victim(&s), 0);
    assert_int_equal(s.visits, 3);
    assert_int_equal(clock->victim(&s), 0);
    assert_int_equal(s.visits, 5);
    sb_policy_state_destroy(&s);
}

static void test_ring_sequence(void **state)
{
    const struct sb_policy *ring = sb_policy_find("ring");
    struct sb_policy_state s;
    const uint32_t victims[7] = {0, 1, 2, 0, 1, 2, 0};
    (void)state;

    assert_non_null(ring);
    assert_int_equal(sb_policy_state_init(&s, 8, 3, 1), 0);
    for (int i = 0; i < 7; i++)
        assert_int_equal(ring->victim(&s), victims[i]);
    assert_int_equal(s.visits, 0);
    sb_policy_state_destroy(&s);
}

static void test_single_sequence(void **state)
{
    const struct sb_policy *single = sb_policy_find("single");
    struct sb_policy_state s;
    (void)state;

    assert_non_null(single);
    assert_int_equal(sb_policy_state_init(&s, 8, 3, 1), 0);
    for (int i = 0; i < 20; i++)
        assert_int_equal(single->victim(&s), 0);
    sb_policy_state_destroy(&s);
}

static void draw(const struct sb_policy *p, uint32_t nbuffers, uint64_t seed, uint32_t *out,
                 int n)
{
    struct sb_policy_state s;
    assert_int_equal(sb_policy_state_init(&s, nbuffers, 1, seed), 0);
    for (int i = 0; i < n; i++)
        out[i] = p->victim(&s);
    sb_policy_state_destroy(&s);
}

static void test_random(void **state)
{
    const struct sb_policy *random = sb_policy_find("random");
    /* xorshift64 (13, 7, 17) from seed 42, victim = (x >> 32) * 10 >> 32, worked out apart */
    const uint32_t expect42[10] = {0, 6, 5, 1, 3, 5, 6, 5, 6, 3};
    uint32_t a[10], b[10], c[10], many[4000];
    int seen[37] = {0};
    int differ = 0;
    (void)state;

    assert_non_null(random);
    draw(random, 10, 42, a, 10);
    draw(random, 10, 42, b, 10);
    draw(random, 10, 7, c, 10);
    for (int i = 0; i < 10; i++) {
        assert_int_equal(a[i], expect42[i]);
        assert_int_equal(a[i], b[i]);
        differ += a[i] != c[i];
    }
    assert_true(differ > 0);

    /* in range and covering: 4000 draws over 37 buffers (about 108 each) */
    draw(random, 37, 12345, many, 4000);
    for (int i = 0; i < 4000; i++) {
        assert_true(many[i] < 37);
        seen[many[i]]++;
    }
    for (int i = 0; i < 37; i++)
        assert_true(seen[i] > 0);

    /* seed 0 is replaced by the fixed non-zero seed (xorshift would stay at 0 forever) */
    draw(random, 1000, 0, a, 10);
    draw(random, 1000, 0x2545F4914F6CDD1Dull, b, 10);
    for (int i = 0; i < 10; i++)
        assert_int_equal(a[i], b[i]);
}

/* One statement over pages [0, npages) as a scanner runs it on pg82: for each page the victim,
 * then (no other buffer pinned) its release with the statement's hint; the buffers go to seq. */
static void statement(const struct sb_policy *pg82, struct sb_policy_state *s, bool vacuum,
                      uint32_t npages, uint32_t *seq)
{
    for (uint32_t i = 0; i < npages; i++) {
        seq[i] = pg82->victim(s);
        pg82->release(s, seq[i], vacuum);
    }
}

/* PostgreSQL 8.2 with statements = select, vacuum on a fresh pool of 8 buffers, a table of 20
 * pages (one pass each), derived by hand from REL8_2's freelist.c StrategyGetBuffer and
 * StrategyFreeBuffer and bufmgr.c BufferAlloc (a new page gets usage_count 0) and UnpinBuffer
 * (the last pin dropped: usage_count + 1 up to 5, or, under VACUUM's strategy_hint_vacuum, no
 * bump, and a buffer left at 0 goes to the free list's tail). vacuumlazy.c lazy_scan_heap
 * releases each page (ReleaseBuffer / WriteBuffer) before it reads the next, as the engine does.
 *
 * Start: free list 0,1,..,7 (InitBufferPool's order), every usage_count 0, hand 0.
 * SELECT pages 0-7: the free list's head each time (1 visit): buffers 0..7; each is released
 *   with a bump: usage 1 everywhere, free list empty, hand still 0. Visits 8.
 * SELECT page 8: the sweep decrements 0..7 to 0 (8 visits), wraps to buffer 0 at 0 and takes
 *   it (1 visit): buffer 0, hand 1, visits 17; released: usage(0) = 1.
 * SELECT pages 9-15: buffers 1..7 at usage 0 under the hand (1 visit each): visits 24, every
 *   usage 1 again, hand 0.
 * SELECT page 16: as page 8: buffer 0 (9 visits, 33); pages 17-19: buffers 1, 2, 3 (36).
 *   After the SELECT: usage 1 1 1 1 0 0 0 0, hand 4, free list empty.
 * VACUUM page 0: free list empty; the sweep finds buffer 4 unpinned at usage 0 (1 visit, 37),
 *   hand 5; BufferAlloc leaves usage 0; the release under the hint does not bump it and, at 0,
 *   puts buffer 4 on the (empty) free list: free list 4.
 * VACUUM page 1: the free list's head, buffer 4, unpinned at 0: taken (1 visit), released back
 *   to the free list: free list 4 again. And so on for every page: one buffer, 4, 1 visit each.
 *
 * So 8.2's code gives ONE buffer, not the two Luke Lonergan saw alternate. Two alternate only
 * when the next page is read while the previous one is still pinned (test_pg82_overlapping_pins
 * below): the sweep must then pass the pinned buffer and take the next one at usage 0, and the
 * two trade places on the free list. A seq scan holds its previous page so (heapgettup's
 * ReleaseAndReadBuffer, then ExecStoreTuple drops the slot's pin), but 8.2's lazy_scan_heap does
 * not; Tom Lane's 8.3 commit that replaced the hint with BufferAccessStrategy rings says the same
 * of 8.2 ("VACUUM ... we had it hacked to use only a single buffer"). Luke's GPDB 2.301
 * (8.1.6) may have differed there; 8.1's freelist.c and UnpinBuffer choose the same way. */
static void test_pg82_select_then_vacuum(void **state)
{
    const struct sb_policy *pg82 = sb_policy_find("pg82");
    const uint32_t select_expect[20] = {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3};
    const uint8_t usage_after_select[8] = {1, 1, 1, 1, 0, 0, 0, 0};
    struct sb_policy_state s;
    uint32_t seq[20], distinct;
    char shape[64];
    (void)state;

    assert_non_null(pg82);
    assert_non_null(pg82->release);
    assert_int_equal(sb_policy_state_init(&s, 8, 1, 1), 0);
    statement(pg82, &s, false, 20, seq);
    for (int i = 0; i < 20; i++)
        assert_int_equal(seq[i], select_expect[i]);
    assert_int_equal(s.visits, 36);
    assert_int_equal(s.hand, 4);
    assert_int_equal(s.free_head, SB_FREE_END);
    for (int b = 0; b < 8; b++)
        assert_int_equal(s.usage[b], usage_after_select[b]);

    statement(pg82, &s, true, 20, seq);
    for (int i = 0; i < 20; i++)
        assert_int_equal(seq[i], 4);
    assert_int_equal(s.visits, 36 + 20);
    assert_int_equal(s.hand, 5);
    assert_int_equal(s.free_head, 4);
    assert_int_equal(s.free_tail, 4);
    assert_int_equal(s.usage[4], 0);
    sb_policy_sequence_shape(seq, 20, 8, &distinct, shape, sizeof shape);
    assert_int_equal(distinct, 1);
    assert_string_equal(shape, "one buffer (4)");
    sb_policy_state_destroy(&s);
}

/* statements = vacuum on a fresh pool of 8: page 0 takes the free list's head, buffer 0, and
 * its release puts it back at the tail (free list 1..7, 0); page 1 takes 1 (free list 2..7,
 * 0, 1); and so on: the whole pool in order, over and over, one visit a page, no sweep. */
static void test_pg82_vacuum_on_fresh_pool(void **state)
{
    const struct sb_policy *pg82 = sb_policy_find("pg82");
    struct sb_policy_state s;
    uint32_t seq[20], distinct;
    char shape[64];
    (void)state;

    assert_int_equal(sb_policy_state_init(&s, 8, 1, 1), 0);
    statement(pg82, &s, true, 20, seq);
    for (int i = 0; i < 20; i++)
        assert_int_equal(seq[i], (uint32_t)i % 8);
    assert_int_equal(s.visits, 20);
    assert_int_equal(s.hand, 0);
    assert_int_equal(s.free_head, 4); /* pages 16..19 took 0..3: free list 4..7, 0..3 */
    sb_policy_sequence_shape(seq, 20, 8, &distinct, shape, sizeof shape);
    assert_int_equal(distinct, 8);
    assert_string_equal(shape, "cycles 8 buffers");
    /* a second VACUUM goes on cycling: 4, 5, 6, 7, 0, ... */
    statement(pg82, &s, true, 8, seq);
    for (int i = 0; i < 8; i++)
        assert_int_equal(seq[i], (uint32_t)(i + 4) % 8);
    sb_policy_state_destroy(&s);
}

/* What gives two alternating buffers: the VACUUM after the same SELECT as above (buffer usage
 * 1 1 1 1 0 0 0 0, hand 4), but each page read while the previous one is still pinned.
 * Page 0: the sweep takes 4 (hand 5). Page 1, 4 pinned: free list empty, the sweep takes 5 at
 * usage 0 (hand 6); then 4 is released: at 0, to the free list (4). Page 2: 4 off the free list;
 * 5 released to it (5). Page 3: 5; 4 released (4). ... 4, 5, 4, 5: Luke's alternation. */
static void test_pg82_overlapping_pins(void **state)
{
    const struct sb_policy *pg82 = sb_policy_find("pg82");
    struct sb_policy_state s;
    uint32_t seq[20], distinct, held;
    char shape[64];
    (void)state;

    assert_int_equal(sb_policy_state_init(&s, 8, 1, 1), 0);
    statement(pg82, &s, false, 20, seq);
    held = pg82->victim(&s);
    seq[0] = held;
    for (int i = 1; i < 20; i++) {
        seq[i] = pg82->victim(&s);
        pg82->release(&s, held, true);
        held = seq[i];
    }
    pg82->release(&s, held, true);
    for (int i = 0; i < 20; i++)
        assert_int_equal(seq[i], i % 2 ? 5u : 4u);
    sb_policy_sequence_shape(seq, 20, 8, &distinct, shape, sizeof shape);
    assert_int_equal(distinct, 2);
    assert_string_equal(shape, "alternates between buffers 4 and 5");
    sb_policy_state_destroy(&s);
}

/* pg82 without the hint (a SELECT alone) chooses as `clock` does: the same buffers and visits
 * (clock sets usage 1 at the victim, pg82 sets 0 and bumps it at the release: the same counts
 * whenever the sweep looks). The usage bump stops at 5 (BM_MAX_USAGE_COUNT). */
static void test_pg82_select_is_clock(void **state)
{
    const struct sb_policy *pg82 = sb_policy_find("pg82"), *clock = sb_policy_find("clock");
    struct sb_policy_state a, b;
    (void)state;

    assert_int_equal(sb_policy_state_init(&a, 5, 1, 1), 0);
    assert_int_equal(sb_policy_state_init(&b, 5, 1, 1), 0);
    for (int i = 0; i < 37; i++) {
        uint32_t v = pg82->victim(&a);
        pg82->release(&a, v, false);
        assert_int_equal(v, clock->victim(&b));
        assert_int_equal(a.visits, b.visits);
    }
    sb_policy_state_destroy(&a);
    sb_policy_state_destroy(&b);
    /* the same buffer pinned and released 7 times: usage 0 -> 5, no further */
    assert_int_equal(sb_policy_state_init(&a, 2, 1, 1), 0);
    assert_int_equal(pg82->victim(&a), 0);
    pg82->release(&a, 0, false);
    for (int i = 0; i < 6; i++) {
        a.pins[0]++;
        pg82->release(&a, 0, false);
    }
    assert_int_equal(a.usage[0], SB_PG82_MAX_USAGE);
    sb_policy_state_destroy(&a);
}

static void test_sequence_shape(void **state)
{
    const uint32_t cyc[7] = {2, 0, 1, 2, 0, 1, 2}, odd[6] = {0, 1, 0, 0, 1, 0};
    const uint32_t once[3] = {3, 1, 2};
    uint32_t distinct;
    char shape[64];
    (void)state;

    sb_policy_sequence_shape(cyc, 7, 4, &distinct, shape, sizeof shape);
    assert_int_equal(distinct, 3);
    assert_string_equal(shape, "cycles 3 buffers");
    sb_policy_sequence_shape(odd, 6, 4, &distinct, shape, sizeof shape);
    assert_int_equal(distinct, 2);
    assert_string_equal(shape, "2 buffers, no simple cycle");
    sb_policy_sequence_shape(once, 3, 4, &distinct, shape, sizeof shape);
    assert_string_equal(shape, "3 buffers, each once");
    sb_policy_sequence_shape(once, 0, 4, &distinct, shape, sizeof shape);
    assert_int_equal(distinct, 0);
    assert_string_equal(shape, "no pages");
}

static void test_find(void **state)
{
    const char *names[] = {"clock", "ring", "single", "random", "pg82"};
    int n = 0;
    (void)state;

    for (int i = 0; i < 5; i++) {
        const struct sb_policy *p = sb_policy_find(names[i]);
        assert_non_null(p);
        assert_string_equal(p->name, names[i]);
        assert_non_null(p->victim);
        assert_non_null(p->description);
    }
    for (const struct sb_policy *p = sb_policies; p->name; p++)
        n++;
    assert_int_equal(n, 5);
    /* only pg82 is told of the releases; clock stays as it was (no release hook) */
    for (int i = 0; i < 4; i++)
        assert_null(sb_policy_find(names[i])->release);
    assert_null(sb_policy_find("nope"));
    assert_null(sb_policy_find(""));
    assert_null(sb_policy_find("Clock"));
    assert_int_equal(sb_policy_find("ring")->uses_ring, 1);
    assert_int_equal(sb_policy_find("clock")->uses_ring, 0);
}

static void test_footprint(void **state)
{
    const uint64_t pool = 16ull << 20, ring = 256ull << 10;
    (void)state;

    assert_int_equal(sb_policy_footprint(sb_policy_find("clock"), pool, ring, 8192), pool);
    assert_int_equal(sb_policy_footprint(sb_policy_find("ring"), pool, ring, 8192), ring);
    assert_int_equal(sb_policy_footprint(sb_policy_find("single"), pool, ring, 8192), 8192);
    assert_int_equal(sb_policy_footprint(sb_policy_find("single"), pool, ring, 32768), 32768);
    assert_int_equal(sb_policy_footprint(sb_policy_find("random"), pool, ring, 8192), pool);
    assert_int_equal(sb_policy_footprint(sb_policy_find("pg82"), pool, ring, 8192), pool);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clock_sequence_and_visits),
        cmocka_unit_test(test_clock_one_buffer),
        cmocka_unit_test(test_ring_sequence),
        cmocka_unit_test(test_single_sequence),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_pg82_select_then_vacuum),
        cmocka_unit_test(test_pg82_vacuum_on_fresh_pool),
        cmocka_unit_test(test_pg82_overlapping_pins),
        cmocka_unit_test(test_pg82_select_is_clock),
        cmocka_unit_test(test_sequence_shape),
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_footprint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
