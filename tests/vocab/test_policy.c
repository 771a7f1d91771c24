#include "config.h"
/* test_policy.c: unit tests for lib/vocab/policy.h, the buffer replacement policies. Checks the exact
 * victim sequence of each policy and the clock sweep's work counter (visits) against sequences
 * worked out by hand, that `random` is a seeded, in-range, covering xorshift64, and the
 * registry lookups and the footprint (the bytes each policy writes into). */

#include <stdarg.h>
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

static void test_find(void **state)
{
    const char *names[] = {"clock", "ring", "single", "random"};
    int n = 0;
    (void)state;

    for (int i = 0; i < 4; i++) {
        const struct sb_policy *p = sb_policy_find(names[i]);
        assert_non_null(p);
        assert_string_equal(p->name, names[i]);
        assert_non_null(p->victim);
        assert_non_null(p->description);
    }
    for (const struct sb_policy *p = sb_policies; p->name; p++)
        n++;
    assert_int_equal(n, 4);
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
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clock_sequence_and_visits),
        cmocka_unit_test(test_clock_one_buffer),
        cmocka_unit_test(test_ring_sequence),
        cmocka_unit_test(test_single_sequence),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_footprint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
