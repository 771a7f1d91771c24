/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_threads.c: unit tests for concurrent scans (engine.h, team.h) and the shared pool
 * (shared_pool.h). The shared pool's clock by hand: the free list first, then a sweep that
 * decrements usage counts and skips pinned buffers, with the headers it visits counted; two
 * threads hammering an 8-buffer pool, each checking that no one else holds the buffer it has
 * pinned. Then whole runs on 1MB tables (128 pages): two scanners with their own tables and
 * rings, and two dividing one table in the shared pool: every page read once by the validation
 * scan, every scanner's pages, as many pins as pages and none left, every pool checked; where
 * the scanners could be pinned, each ran on its own PU and only there. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/iocache.h"
#include "engine/scan.h"
#include "engine/shared_pool.h"
#include "plan/plan.h"

#define PAGE 8192u
#define TABLE (1u << 20) /* 128 pages */
#define NPAGES (TABLE / PAGE)

static void pool_of(struct sb_shared_pool *sp, uint32_t n)
{
    struct sb_placement local = {0};
    struct sb_error err = {0};
    assert_int_equal(sb_shared_pool_create(sp, n, PAGE, &local, -1, &err), SB_OK);
}

static void test_shared_clock_by_hand(void **state)
{
    struct sb_shared_pool sp;
    uint64_t visits = 0;

    (void)state;
    pool_of(&sp, 4);
    for (uint32_t b = 0; b < 4; b++) /* the free list, in order, one header each */
        assert_int_equal(sb_shared_pool_acquire(&sp, &visits), b);
    assert_int_equal(visits, 4);
    assert_int_equal(sb_shared_pool_pinned(&sp), 4);
    for (uint32_t b = 0; b < 4; b++)
        sb_shared_pool_release(&sp, b, 100 + b);
    assert_int_equal(sb_shared_pool_pinned(&sp), 0);
    /* every usage count is 1: one lap takes them to 0, buffer 0 is the victim */
    assert_int_equal(sb_shared_pool_acquire(&sp, &visits), 0);
    assert_int_equal(visits, 4 + 5);
    /* buffer 0 stays pinned; 1 has usage 0 now */
    assert_int_equal(sb_shared_pool_acquire(&sp, &visits), 1);
    assert_int_equal(visits, 4 + 5 + 1);
    assert_int_equal(sb_shared_pool_pinned(&sp), 2);
    sb_shared_pool_release(&sp, 1, 7);
    /* 2 and 3 have usage 0: one header each; then 0, 2 and 3 are pinned (skipped) and 1 has
     * usage 1: 0 skip, 1 decrement, 2, 3, 0 skip, 1 victim */
    assert_int_equal(sb_shared_pool_acquire(&sp, &visits), 2);
    assert_int_equal(sb_shared_pool_acquire(&sp, &visits), 3);
    assert_int_equal(visits, 4 + 5 + 1 + 1 + 1);
    assert_int_equal(sb_shared_pool_acquire(&sp, &visits), 1);
    assert_int_equal(visits, 4 + 5 + 1 + 1 + 1 + 6);
    assert_int_equal(atomic_load(&sp.tag[1]), 7);
    sb_shared_pool_destroy(&sp);
}

struct hammer {
    struct sb_shared_pool *sp;
    _Atomic uint32_t *owner;
    uint32_t id;
    uint64_t clashes, visits;
};

static void *hammer_main(void *arg)
{
    struct hammer *h = arg;

    for (int i = 0; i < 200000; i++) {
        uint32_t b = sb_shared_pool_acquire(h->sp, &h->visits);
        h->clashes += atomic_exchange(&h->owner[b], h->id) != 0;
        atomic_store(&h->owner[b], 0);
        sb_shared_pool_release(h->sp, b, i);
    }
    return NULL;
}

static void test_shared_pool_concurrent(void **state)
{
    struct sb_shared_pool sp;
    _Atomic uint32_t owner[8];
    struct hammer h[2];
    pthread_t t[2];

    (void)state;
    pool_of(&sp, 8);
    for (int i = 0; i < 8; i++)
        atomic_init(&owner[i], 0);
    for (uint32_t i = 0; i < 2; i++) {
        h[i] = (struct hammer){&sp, owner, i + 1, 0, 0};
        assert_int_equal(pthread_create(&t[i], NULL, hammer_main, &h[i]), 0);
    }
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    assert_int_equal(h[0].clashes + h[1].clashes, 0);
    assert_int_equal(sb_shared_pool_pinned(&sp), 0);
    assert_true(h[0].visits >= 200000 && h[1].visits >= 200000);
    sb_shared_pool_destroy(&sp);
}

static void make_params(struct sb_run_params *p, const char *policy, uint64_t pool)
{
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "t threads %s", policy);
    p->source = sb_source_find("memory");
    p->table_size = TABLE;
    p->pool_size = pool;
    p->ring_size = 32u << 10;
    p->page_size = PAGE;
    assert_true(sb_heap_layout_init(&p->layout, PAGE, 100, 10));
    p->op = sb_op_find("vacuum");
    p->kernel = sb_kernel_find("memcpy");
    p->policy = sb_policy_find(policy);
    p->threads = 2;
    p->repetitions = 3;
    p->warmup = 1;
    p->seed = 5;
    p->counters = sb_counter_backend_find("none");
}

static void run(struct sb_run_params *p, struct sb_run_result *res)
{
    struct sb_iocache tables[2];
    struct sb_error err = {0};
    uint32_t n = sb_run_tables(p);
    int status;

    for (uint32_t t = 0; t < n; t++)
        assert_int_equal(sb_iocache_build(&tables[t], p, sb_engine_home_node(p, t), &err),
                         SB_OK);
    status = sb_scan_run_concurrent(p, tables, res, &err);
    for (uint32_t t = 0; t < n; t++)
        sb_iocache_destroy(&tables[t]);
    if (status != SB_OK) {
        sb_run_result_free(res);
        fail_msg("%s: %s", p->name, err.msg);
    }
    assert_true(res->validation.ok);
    assert_int_equal(res->nscanners, 2);
    assert_int_equal(res->validation.pages_read_once, NPAGES * n);
    assert_int_equal(res->validation.pages_checked_after_copy, NPAGES * n);
    assert_int_equal(res->validation.pages_checked_after_op, NPAGES * n);
    assert_int_equal(res->validation.scans_row_checked, p->warmup + p->repetitions);
    assert_int_equal(res->bytes_per_scan, (uint64_t)TABLE * n);
}

/* Pinned scanners ran on their own PU and nowhere else. */
static void check_placement(const struct sb_run_result *res)
{
    const struct sb_scanner_record *a = &res->scanners[0], *b = &res->scanners[1];

    assert_int_equal(a->pinned, b->pinned);
    if (!a->pinned)
        return; /* built without hwloc, or a host that refused the binding */
    assert_true(a->pu >= 0 && b->pu >= 0 && a->pu != b->pu);
    assert_true(a->core != b->core);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(res->scanners[i].ncpus_seen, 1);
        assert_int_equal(res->scanners[i].cpus_seen[0], res->scanners[i].pu);
    }
}

static void test_own_tables_own_rings(void **state)
{
    struct sb_run_params p;
    struct sb_run_result res;

    (void)state;
    make_params(&p, "ring", 256u << 10);
    run(&p, &res);
    for (uint32_t i = 0; i < 2; i++) {
        assert_int_equal(res.scanners[i].table, i);
        for (uint32_t r = 0; r < p.repetitions; r++) {
            assert_int_equal(res.scanners[i].pages[r], NPAGES);
            assert_true(res.scanners[i].seconds[r] > 0 &&
                        res.scanners[i].seconds[r] <= res.scans[r].seconds);
        }
        assert_true(res.scanners[i].mbps.median > 0);
    }
    assert_int_equal(res.buffers_touched, 2 * 4); /* each its own 4-buffer ring */
    assert_int_equal(res.validation.pool_pages_checked, 2 * 4);
    assert_false(res.shared.used);
    check_placement(&res);
    sb_run_result_free(&res);
}

static void test_shared_table_shared_pool(void **state)
{
    struct sb_run_params p;
    struct sb_run_result res;

    (void)state;
    make_params(&p, "clock", 256u << 10); /* 32 buffers for 128 pages */
    p.shared_table = p.shared_pool = true;
    run(&p, &res);
    for (uint32_t r = 0; r < p.repetitions; r++) /* no page lost, none read twice */
        assert_int_equal(res.scanners[0].pages[r] + res.scanners[1].pages[r], NPAGES);
    assert_true(res.shared.used);
    assert_int_equal(res.shared.nbuffers, 32);
    assert_int_equal(res.shared.pages, p.repetitions * NPAGES);
    assert_int_equal(res.shared.acquisitions, res.shared.pages);
    assert_int_equal(res.shared.pins_left, 0);
    assert_int_equal(res.buffers_touched, 32);
    assert_int_equal(res.validation.pool_pages_checked, 32);
    assert_true(res.clock_visits_per_page >= 1.0);
    check_placement(&res);
    sb_run_result_free(&res);
}

static void test_own_tables_shared_pool(void **state)
{
    struct sb_run_params p;
    struct sb_run_result res;

    (void)state;
    make_params(&p, "clock", 512u << 10);
    p.shared_pool = true;
    run(&p, &res);
    for (uint32_t r = 0; r < p.repetitions; r++)
        for (uint32_t i = 0; i < 2; i++)
            assert_int_equal(res.scanners[i].pages[r], NPAGES);
    assert_int_equal(res.shared.acquisitions, 2 * p.repetitions * NPAGES);
    assert_int_equal(res.shared.pins_left, 0);
    sb_run_result_free(&res);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_clock_by_hand),
        cmocka_unit_test(test_shared_pool_concurrent),
        cmocka_unit_test(test_own_tables_own_rings),
        cmocka_unit_test(test_shared_table_shared_pool),
        cmocka_unit_test(test_own_tables_shared_pool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
