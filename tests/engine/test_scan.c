/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_scan.c: unit tests for lib/engine/scan.h, one run of the scan loop. Runs a 512KB table (64 pages
 * of 8KB) through a 128KB pool (16 buffers) with a 32KB ring (4 buffers) for every policy, op
 * and supported kernel, and checks the validation record, the buffers each policy wrote into and
 * the clock sweep's work per page. Then breaks things on purpose: a kernel that corrupts one
 * page, ops that miscount or write a byte they should not, and checks that sb_scan_run refuses
 * with SB_ERR_RUN and a message naming the scan, page or buffer where it went wrong. Last,
 * extra_copy: the pages each pass fetches beyond the table's, counted and validated; and
 * slice_ms: a slice's size from a pass's time, slices walked, row-checked and named. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/iocache.h"
#include "engine/scan.h"
#include "plan/plan.h"

#define PAGE 8192u
#define TABLE (512u << 10) /* 64 pages */
#define POOL (128u << 10)  /* 16 buffers */
#define RING (32u << 10)   /* 4 buffers */
#define NPAGES (TABLE / PAGE)

static void make_params(struct sb_run_params *p, const char *policy, const struct sb_op *op,
                        const struct sb_kernel *kernel, uint32_t warmup, uint32_t reps)
{
    memset(p, 0, sizeof *p);
    assert_non_null(op);
    assert_non_null(kernel);
    snprintf(p->name, sizeof p->name, "t %s %s %s", policy, op->name, kernel->name);
    p->source = sb_source_find("memory");
    p->table_size = TABLE;
    p->pool_size = POOL;
    p->ring_size = RING;
    p->page_size = PAGE;
    assert_true(sb_heap_layout_init(&p->layout, PAGE, 100, 10));
    p->op = op;
    p->kernel = kernel;
    p->policy = sb_policy_find(policy);
    assert_non_null(p->policy);
    assert_non_null(p->source);
    p->threads = 1;
    p->repetitions = reps;
    p->warmup = warmup;
    p->seed = 7;
    p->counters = sb_counter_backend_find("none");
    assert_non_null(p->counters);
}

static void make_table(struct sb_iocache *ioc)
{
    struct sb_heap_layout layout;
    struct sb_error err = {0};

    assert_true(sb_heap_layout_init(&layout, PAGE, 100, 10));
    assert_int_equal(sb_iocache_create(ioc, TABLE, &layout, &err), SB_OK);
    assert_int_equal(ioc->npages, NPAGES);
}

/* The live rows of the table, counted apart from iocache's own figure. */
static uint64_t table_live_rows(const struct sb_iocache *ioc)
{
    uint8_t *page = malloc(PAGE);
    uint64_t rows = 0;

    assert_non_null(page);
    for (uint64_t b = 0; b < ioc->npages; b++) {
        memcpy(page, sb_iocache_page(ioc, b), PAGE);
        rows += sb_heap_count(page, PAGE, NULL);
    }
    free(page);
    return rows;
}

/* Distinct buffers the policy picks over `scans` scans of the table (replayed apart). */
static uint64_t replay_buffers(const struct sb_run_params *p, uint32_t scans)
{
    struct sb_policy_state s;
    uint8_t used[POOL / PAGE] = {0};
    uint64_t n = 0;

    assert_int_equal(sb_policy_state_init(&s, POOL / PAGE, RING / PAGE, p->seed), 0);
    for (uint32_t i = 0; i < scans * NPAGES; i++) {
        uint32_t b = p->policy->victim(&s);
        assert_true(b < POOL / PAGE);
        n += !used[b];
        used[b] = 1;
    }
    sb_policy_state_destroy(&s);
    return n;
}

static void check_one_run(struct sb_iocache *ioc, uint64_t live, const char *policy,
                          const struct sb_op *op, const struct sb_kernel *kernel)
{
    struct sb_run_params p;
    struct sb_run_result res;
    struct sb_error err = {0};
    const uint32_t warmup = 1, reps = 2;
    uint64_t want_buffers;
    int status;

    make_params(&p, policy, op, kernel, warmup, reps);
    status = sb_scan_run(&p, ioc, &res, &err);
    if (status != SB_OK) {
        sb_run_result_free(&res);
        fail_msg("%s: %s", p.name, err.msg);
    }
    assert_true(res.validation.ok);
    assert_int_equal(res.validation.pages_checked_after_copy, NPAGES);
    assert_int_equal(res.validation.pages_checked_after_op, NPAGES);
    assert_int_equal(res.validation.rows_expected, live);
    assert_int_equal(res.validation.scans_row_checked, op->counts_rows ? warmup + reps : 0);
    assert_int_equal(res.pages_per_scan, NPAGES);
    assert_int_equal(res.bytes_per_scan, TABLE);
    assert_int_equal(res.nreps, reps);
    for (uint32_t r = 0; r < reps; r++)
        assert_true(res.scans[r].seconds > 0);
    assert_true(res.mbps.best == res.mbps.max);
    assert_true(res.mbps.min <= res.mbps.median && res.mbps.median <= res.mbps.max);
    assert_string_equal(res.counters.status, "not requested");

    /* the whole pool for clock, the ring for ring, one buffer for single; random: whatever
     * its seeded sequence touched over the 4 scans (validation, warm-up, 2 timed) */
    if (strcmp(policy, "clock") == 0)
        want_buffers = 16;
    else if (strcmp(policy, "ring") == 0)
        want_buffers = 4;
    else if (strcmp(policy, "single") == 0)
        want_buffers = 1;
    else
        want_buffers = replay_buffers(&p, 1 + warmup + reps);
    assert_int_equal(replay_buffers(&p, 1 + warmup + reps), want_buffers);
    assert_int_equal(res.buffers_touched, want_buffers);
    assert_int_equal(res.validation.pool_pages_checked, want_buffers);

    /* Clock: the validation scan empties the free list (16 pages) and sweeps 3 laps; from then
     * on every lap of N = 16 buffers starts with all usage counts at 1, so the first pick of
     * the lap decrements all N and takes buffer 0 on the (N+1)th visit, and the other N-1
     * picks take a buffer with count 0 at one visit each: N decrements + N picks = 2N visits
     * for N pages. The table (64 pages) is a whole number of laps, so the timed scans do
     * exactly 2.0 visits per page. The other policies do no sweep. */
    if (strcmp(policy, "clock") == 0)
        assert_true(res.clock_visits_per_page == 2.0);
    else
        assert_true(res.clock_visits_per_page == 0.0);
    sb_run_result_free(&res);
}

static void test_every_policy_op_kernel(void **state)
{
    static const char *const policies[] = {"clock", "ring", "single", "random"};
    static const char *const ops[] = {"none", "count", "vacuum"};
    struct sb_iocache ioc;
    uint64_t live;
    int nkernels = 0;
    (void)state;

    make_table(&ioc);
    live = table_live_rows(&ioc);
    assert_int_equal(ioc.live_rows, live);
    assert_true(live > 0 && live < NPAGES * 61); /* 10% dead */
    for (const struct sb_kernel *k = sb_kernels; k->name; k++) {
        if (!k->supported())
            continue;
        nkernels++;
        for (size_t pi = 0; pi < 4; pi++)
            for (size_t oi = 0; oi < 3; oi++)
                check_one_run(&ioc, live, policies[pi], sb_op_find(ops[oi]), k);
    }
    assert_true(nkernels >= 1);
    /* the table itself was never written */
    assert_int_equal(table_live_rows(&ioc), live);
    for (uint64_t b = 0; b < ioc.npages; b++)
        assert_int_equal(sb_page_checksum(sb_iocache_page(&ioc, b), PAGE), ioc.sum_copy[b]);
    sb_iocache_destroy(&ioc);
}

/* --- statement sequences (key statements) ------------------------------------------------------ */

static void run_statements(struct sb_iocache *ioc, const char *policy, const char *const *names,
                           uint32_t n, struct sb_run_result *res)
{
    struct sb_run_params p;
    struct sb_error err = {0};

    make_params(&p, policy, sb_statement_find(names[n - 1]), sb_kernel_find("memcpy"), 1, 2);
    for (uint32_t i = 0; i < n; i++)
        p.statements[i] = sb_statement_find(names[i]);
    p.nstatements = n;
    if (sb_scan_run(&p, ioc, res, &err) != SB_OK)
        fail_msg("%s: %s", p.name, err.msg);
    assert_true(res->validation.ok);
    assert_int_equal(res->nstatements, n);
    /* the validation scan checks every statement's pages, after the copy and after its op */
    assert_int_equal(res->validation.pages_checked_after_copy, n * NPAGES);
    assert_int_equal(res->validation.pages_checked_after_op, n * NPAGES);
    assert_int_equal(res->validation.pages_read_once, NPAGES);
}

/* pg82, statements = select, vacuum: 64 pages through 16 buffers, one pass each, warm-up 1 and
 * 2 timed scans (each: the SELECT untimed, then the VACUUM timed), derived by hand from 8.2's
 * freelist.c and bufmgr.c as in tests/vocab/test_policy.c:
 * Validation SELECT on the fresh pool: free list 0..15, then 3 laps of the sweep: every usage 1
 *   at the end, hand 0. Validation VACUUM: page 0: the sweep decrements 0..15 and takes 0 on
 *   its 17th visit; its release under the hint puts 0 on the free list; pages 1..63 take 0
 *   back off it (1 visit each). After: every usage 0, hand 1, free list 0.
 * Each later SELECT: page 0 takes 0 off the free list (1 visit), pages 1..15 take 1..15 at 0
 *   under the hand (1 visit each); pages 16, 32, 48 each sweep a lap (17 visits) and the 15
 *   after them 1 visit each: 16 + 3 * 32 = 112 visits, the 16 buffers in order, 4 times: every
 *   usage 1, hand 0. Each later VACUUM: as the validation's: 17 + 63 = 80 visits, buffer 0
 *   alone; the same state after it, so every timed scan is alike.
 * Per statement over the 2 timed scans: SELECT 128 pages, 224 visits (1.75 a page), cycles 16
 * buffers; VACUUM 128 pages, 160 visits (1.25 a page), one buffer (0). The pool is left with
 * buffer 0 holding the VACUUM's page 63 and 1..15 the SELECT's pages 49..63 (count's sums). */
static void test_pg82_select_vacuum(void **state)
{
    static const char *const seq[] = {"select", "vacuum"};
    struct sb_iocache ioc;
    struct sb_run_result res;
    (void)state;

    make_table(&ioc);
    run_statements(&ioc, "pg82", seq, 2, &res);
    assert_string_equal(res.statements[0].op, "count");
    assert_int_equal(res.statements[0].pages, 2 * NPAGES);
    assert_int_equal(res.statements[0].visits, 224);
    assert_int_equal(res.statements[0].footprint, 16);
    assert_string_equal(res.statements[0].shape, "cycles 16 buffers");
    assert_string_equal(res.statements[1].op, "vacuum");
    assert_int_equal(res.statements[1].pages, 2 * NPAGES);
    assert_int_equal(res.statements[1].visits, 160);
    assert_int_equal(res.statements[1].footprint, 1);
    assert_string_equal(res.statements[1].shape, "one buffer (0)");
    assert_true(res.clock_visits_per_page == 1.25); /* the measured statement's */
    assert_int_equal(res.buffers_touched, 16);
    assert_int_equal(res.validation.pool_pages_checked, 16);
    sb_run_result_free(&res);
    sb_iocache_destroy(&ioc);
}

/* pg82, statements = vacuum on a fresh pool: every page takes the free list's head and goes
 * back to its tail: the whole pool in order, one visit a page. And `clock` with the same
 * select, vacuum: no hint, so the VACUUM sweeps the whole pool as ever (2.0 visits a page). */
static void test_pg82_vacuum_alone_and_clock(void **state)
{
    static const char *const alone[] = {"vacuum"}, *const seq[] = {"select", "vacuum"};
    struct sb_iocache ioc;
    struct sb_run_result res;
    (void)state;

    make_table(&ioc);
    run_statements(&ioc, "pg82", alone, 1, &res);
    assert_int_equal(res.statements[0].footprint, 16);
    assert_string_equal(res.statements[0].shape, "cycles 16 buffers");
    assert_int_equal(res.statements[0].visits, 2 * NPAGES);
    assert_int_equal(res.buffers_touched, 16);
    sb_run_result_free(&res);

    run_statements(&ioc, "clock", seq, 2, &res);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(res.statements[i].footprint, 16);
        assert_string_equal(res.statements[i].shape, "cycles 16 buffers");
        assert_int_equal(res.statements[i].visits, 2 * 2 * NPAGES);
    }
    assert_true(res.clock_visits_per_page == 2.0);
    sb_run_result_free(&res);
    sb_iocache_destroy(&ioc);
}

/* --- broken kernels and ops ------------------------------------------------------------------ */

static unsigned calls;         /* calls of the broken kernel or op since the test reset it */
static unsigned corrupt_call;  /* the call (1-based) that goes wrong */
static unsigned miscount_from; /* count ops: calls from this one on return one row too many */

/* memcpy, except that the corrupt_call-th copy flips one byte of the tuple data. */
static void broken_copy(void *restrict dst, const void *restrict src, size_t len)
{
    memcpy(dst, src, len);
    if (++calls == corrupt_call)
        ((uint8_t *)dst)[len - 100] ^= 0x40;
}

static const struct sb_kernel broken_kernel = {
    "broken", "flips one byte of one page", broken_copy, "", NULL, true, false,
    SB_KERNEL_COPY,
};

static uint32_t miscount_pass(void *page, uint32_t page_size, bool *dirtied)
{
    return sb_heap_count(page, page_size, dirtied) + (++calls >= miscount_from);
}

/* count, except that the corrupt_call-th call writes the page's last byte (padding) */
static uint32_t scribble_pass(void *page, uint32_t page_size, bool *dirtied)
{
    if (++calls == corrupt_call)
        ((uint8_t *)page)[page_size - 1] ^= 0xff;
    return sb_heap_count(page, page_size, dirtied);
}

static const struct sb_op miscount_op = {"miscount", "MISCOUNT", "count, wrong", "minimal",
                                         miscount_pass, SB_OP_KIND_COUNT, true, false};
static const struct sb_op scribble_op = {"scribble", "SCRIBBLE", "count, scribbling", "minimal",
                                         scribble_pass, SB_OP_KIND_COUNT, true, false};

/* Runs p; expects SB_ERR_RUN and a message that starts with want_prefix. */
static void expect_failure(struct sb_iocache *ioc, const struct sb_run_params *p,
                           const char *want_prefix)
{
    struct sb_run_result res;
    struct sb_error err = {0};
    int status = sb_scan_run(p, ioc, &res, &err);

    assert_false(res.validation.ok);
    sb_run_result_free(&res);
    assert_int_equal(status, SB_ERR_RUN);
    assert_int_equal(err.status, SB_ERR_RUN);
    if (strncmp(err.msg, want_prefix, strlen(want_prefix)) != 0)
        fail_msg("message \"%s\" does not start with \"%s\"", err.msg, want_prefix);
}

static void test_broken_kernel(void **state)
{
    struct sb_iocache ioc;
    struct sb_run_params p;
    (void)state;

    make_table(&ioc);
    /* The validation scan is the kernel's first use: its 6th copy is page 5, which the clock's
     * free list puts in buffer 5. */
    calls = 0;
    corrupt_call = 6;
    make_params(&p, "clock", sb_op_find("count"), &broken_kernel, 1, 2);
    expect_failure(&ioc, &p, "t clock count broken: validation failed: page 5 copied by kernel "
                             "broken into buffer 5 has checksum ");
    /* the ring puts page 5 in buffer 5 % 4 = 1 */
    calls = 0;
    make_params(&p, "ring", sb_op_find("none"), &broken_kernel, 1, 2);
    expect_failure(&ioc, &p, "t ring none broken: validation failed: page 5 copied by kernel "
                             "broken into buffer 1 has checksum ");
    /* A copy gone wrong in the last timed scan is found by the final pool check if nothing
     * copies over it: warm-up 0, 2 timed scans, calls 1-64 validation, 65-128 timed 1,
     * 129-192 timed 2. Call 128 + 62 copies page 61 into ring buffer 61 % 4 = 1, and only
     * pages 62 and 63 (buffers 2, 3) follow. */
    calls = 0;
    corrupt_call = 2 * NPAGES + 62;
    make_params(&p, "ring", sb_op_find("none"), &broken_kernel, 0, 2);
    expect_failure(&ioc, &p, "t ring none broken: validation failed: buffer 1 holds page 61 "
                             "with checksum ");
    /* Page 58 of that scan goes to buffer 2, which page 62 then overwrites correctly: nothing
     * is left to find (the row counts and the checksums of the validation scan are the checks
     * for pages that do not stay in the pool). */
    calls = 0;
    corrupt_call = 2 * NPAGES + 59;
    make_params(&p, "ring", sb_op_find("none"), &broken_kernel, 0, 2);
    {
        struct sb_run_result res;
        struct sb_error err = {0};
        assert_int_equal(sb_scan_run(&p, &ioc, &res, &err), SB_OK);
        assert_true(res.validation.ok);
        assert_int_equal(res.validation.pool_pages_checked, 4);
        sb_run_result_free(&res);
    }
    sb_iocache_destroy(&ioc);
}

/* The halves, with the corrupt_call-th call leaving the wrong evidence: `read`'s fold with one
 * bit flipped, `write`'s buffer with its last word unstored. */
static void broken_read(void *restrict dst, const void *restrict src, size_t len)
{
    sb_kernel_read.copy(dst, src, len);
    if (++calls == corrupt_call)
        ((uint8_t *)dst)[0] ^= 0x01;
}

static void broken_write(void *restrict dst, const void *restrict src, size_t len)
{
    sb_kernel_write.copy(dst, src, len);
    if (++calls == corrupt_call)
        ((uint8_t *)dst)[len - 8] ^= 0x80;
}

static const struct sb_kernel broken_read_kernel = {
    "broken-read", "read, one fold wrong", broken_read, "", NULL, true, false, SB_KERNEL_READ,
};
static const struct sb_kernel broken_write_kernel = {
    "broken-write", "write, one word wrong", broken_write, "", NULL, true, false, SB_KERNEL_WRITE,
};

/* A half kernel is validated on what it documents: the good ones pass, in the validation scan
 * and in the final pool check; a wrong fold or word is found in either. */
static void test_half_kernels(void **state)
{
    struct sb_iocache ioc;
    struct sb_run_params p;
    struct sb_run_result res;
    struct sb_error err = {0};
    (void)state;

    make_table(&ioc);
    for (int w = 0; w < 2; w++) {
        make_params(&p, "ring", sb_op_find("none"), w ? &sb_kernel_write : &sb_kernel_read, 1, 2);
        assert_int_equal(sb_scan_run(&p, &ioc, &res, &err), SB_OK);
        assert_true(res.validation.ok);
        assert_int_equal(res.validation.pages_checked_after_copy, NPAGES);
        assert_int_equal(res.validation.pool_pages_checked, 4);
        sb_run_result_free(&res);
    }
    calls = 0;
    corrupt_call = 6; /* page 5 of the validation scan, into ring buffer 5 % 4 = 1 */
    make_params(&p, "ring", sb_op_find("none"), &broken_read_kernel, 1, 2);
    expect_failure(&ioc, &p, "t ring none broken-read: validation failed: buffer 1 does not hold "
                             "what kernel broken-read leaves for page 5");
    calls = 0;
    corrupt_call = 2 * NPAGES + 62; /* page 61 of the last timed scan, left in buffer 1 */
    make_params(&p, "ring", sb_op_find("none"), &broken_write_kernel, 0, 2);
    expect_failure(&ioc, &p, "t ring none broken-write: validation failed: buffer 1 does not "
                             "hold what kernel broken-write leaves for page 61");
    sb_iocache_destroy(&ioc);
}

static void test_broken_kernel_pool_check(void **state)
{
    struct sb_iocache ioc;
    struct sb_run_params p;
    (void)state;

    make_table(&ioc);
    /* warm-up 0, 2 timed scans: calls 1-64 validation, 65-128 timed 1, 129-192 timed 2. Call
     * 192 - 3 = 189 copies page 60 of the last scan; clock puts page b in buffer b % 16 = 12
     * and nothing overwrites it: the final pool check finds it. */
    calls = 0;
    corrupt_call = 3 * NPAGES - 3;
    make_params(&p, "clock", sb_op_find("count"), &broken_kernel, 0, 2);
    expect_failure(&ioc, &p, "t clock count broken: validation failed: buffer 12 holds page 60 "
                             "with checksum ");
    sb_iocache_destroy(&ioc);
}

static void test_broken_op_count(void **state)
{
    struct sb_iocache ioc;
    struct sb_run_params p;
    char want[256];
    (void)state;

    make_table(&ioc);
    /* one row too many on every page of the validation scan: live + 64 */
    calls = 0;
    miscount_from = 1;
    make_params(&p, "clock", &miscount_op, sb_kernel_find("memcpy"), 1, 2);
    snprintf(want, sizeof want, "t clock miscount memcpy: validation failed: op miscount saw "
             "%llu live rows, the table has %llu", (unsigned long long)ioc.live_rows + NPAGES,
             (unsigned long long)ioc.live_rows);
    expect_failure(&ioc, &p, want);

    /* right until the first timed scan (scan 2, after one warm-up): calls 1-64 compute the
     * expected checksums (a fresh table: iocache keeps them per op), 65-128 are the validation
     * scan, 129-192 the warm-up (scan 1), and the 193rd is the first page of scan 2. */
    sb_iocache_destroy(&ioc);
    make_table(&ioc);
    calls = 0;
    miscount_from = 3 * NPAGES + 1;
    make_params(&p, "ring", &miscount_op, sb_kernel_find("memcpy"), 1, 2);
    snprintf(want, sizeof want, "t ring miscount memcpy: validation failed: scan 2: op miscount "
             "saw %llu live rows, the table has %llu", (unsigned long long)ioc.live_rows + NPAGES,
             (unsigned long long)ioc.live_rows);
    expect_failure(&ioc, &p, want);
    sb_iocache_destroy(&ioc);
}

static void test_broken_op_write(void **state)
{
    struct sb_iocache ioc;
    struct sb_run_params p;
    (void)state;

    make_table(&ioc);
    /* calls 1-64 compute the expected checksums, 65-128 are the validation scan: the 72nd
     * call is the validation scan's page 7 */
    calls = 0;
    corrupt_call = NPAGES + 8;
    make_params(&p, "clock", &scribble_op, sb_kernel_find("memcpy"), 1, 2);
    expect_failure(&ioc, &p, "t clock scribble memcpy: validation failed: page 7 after op "
                             "scribble has checksum ");

    /* in the last page of the last timed scan (warm-up 0, 1 timed scan: call 64 * 3 = 192,
     * page 63, clock buffer 63 % 16 = 15); the row count is still right, the pool check is
     * what finds it. */
    sb_iocache_destroy(&ioc);
    make_table(&ioc); /* a fresh table: recompute the expected checksums */
    calls = 0;
    corrupt_call = 3 * NPAGES;
    make_params(&p, "clock", &scribble_op, sb_kernel_find("memcpy"), 0, 1);
    expect_failure(&ioc, &p, "t clock scribble memcpy: validation failed: buffer 15 holds page "
                             "63 with checksum ");
    sb_iocache_destroy(&ioc);
}

/* --- extra_copy: real extra work of known size ------------------------------------------------- */

/* extra_copy = f: each pass fetches floor(64 f) pages more (a count, not a time), into a spare
 * buffer, while the credited bytes stay the table's; the validation scan checks every extra
 * copy, the pool check still passes. */
static void check_extra_copy(struct sb_iocache *ioc, const char *op, const char *writeback,
                             uint32_t ppm, uint64_t want_per_pass)
{
    struct sb_run_params p;
    struct sb_run_result res;
    struct sb_error err = {0};

    make_params(&p, "ring", sb_op_find(op), sb_kernel_find("memcpy"), 1, 3);
    p.writeback = sb_writeback_find(writeback)->mode;
    p.checkpoint_pages = POOL / PAGE;
    p.extra_ppm = ppm;
    p.min_scan_seconds = 0.002; /* a few passes */
    if (sb_scan_run(&p, ioc, &res, &err) != SB_OK) {
        sb_run_result_free(&res);
        fail_msg("%s extra_copy %u ppm: %s", op, ppm, err.msg);
    }
    assert_true(res.validation.ok);
    assert_int_equal(res.validation.extra_copies_checked, want_per_pass);
    assert_int_equal(res.validation.pages_checked_after_op, NPAGES);
    for (uint32_t r = 0; r < res.nreps; r++) {
        const struct sb_scan_record *rec = &res.scans[r];
        assert_int_equal(rec->bytes, (uint64_t)rec->passes * TABLE);
        assert_int_equal(rec->bytes_copied_in, (uint64_t)rec->passes * TABLE);
        assert_int_equal(rec->bytes_copied_extra, (uint64_t)rec->passes * want_per_pass * PAGE);
    }
    sb_run_result_free(&res);
}

static void test_extra_copy(void **state)
{
    struct sb_iocache ioc;
    (void)state;

    make_table(&ioc);
    /* 0.10: 6 of 64 pages a pass (9.4%: the whole pages of 10%) */
    check_extra_copy(&ioc, "count", "none", 100000, 6);
    assert_true(6.0 / NPAGES > 0.09 && 6.0 / NPAGES <= 0.10);
    check_extra_copy(&ioc, "count", "none", 0, 0);
    check_extra_copy(&ioc, "count", "none", 20000, 1);
    check_extra_copy(&ioc, "none", "none", 50000, 3);
    check_extra_copy(&ioc, "vacuum", "none", 500000, 32);
    sb_iocache_destroy(&ioc);
    /* the write-back changes the table's pages: each extra copy matches its page's state */
    make_table(&ioc);
    check_extra_copy(&ioc, "vacuum", "evict", 100000, 6);
    sb_iocache_destroy(&ioc);
}

/* The live rows of pages [first, end), counted apart from iocache's own figures. */
static uint64_t range_live_rows(const struct sb_iocache *ioc, uint64_t first, uint64_t end)
{
    uint8_t *page = malloc(PAGE);
    uint64_t rows = 0;

    assert_non_null(page);
    for (uint64_t b = first; b < end; b++) {
        memcpy(page, sb_iocache_page(ioc, b), PAGE);
        rows += sb_heap_count(page, PAGE, NULL);
    }
    free(page);
    return rows;
}

/* The slice's size from a pass's time: a pass of at least 2 slices, room after the settling. */
static void test_slice_pages(void **state)
{
    (void)state;
    assert_int_equal(sb_slice_pages(65536, 0.050, 0.010, 2048), 13108); /* ceil(13107.2) */
    assert_int_equal(sb_slice_pages(65536, 0.040, 0.010, 2048), 16384);
    assert_int_equal(sb_slice_pages(65536, 0.020, 0.010, 2048), 32768); /* 2 slices exactly */
    assert_int_equal(sb_slice_pages(65536, 0.019, 0.010, 2048), 0);     /* fewer: whole passes */
    assert_int_equal(sb_slice_pages(65536, 0.050, 0.0, 2048), 0);       /* slice_ms 0 */
    assert_int_equal(sb_slice_pages(100, 1.0, 0.010, 99), 1);
    assert_int_equal(sb_slice_pages(100, 1.0, 0.010, 100), 0); /* no room after settling */
    assert_int_equal(sb_slice_pages(64, 0.080, 0.010, 4), 8);
}

/* slice_ms with a pass taken as 80 ms (SCANBENCH_TEST_PASS_MS): slices of 8 of the 64 pages,
 * each after the ring's 4 pages before it, walking [4, 60) and wrapping; every one row-checked,
 * the pool checked after; a wrong row count is named against its slice. */
static void test_slices(void **state)
{
    struct sb_iocache ioc;
    struct sb_run_params p;
    struct sb_run_result res;
    struct sb_error err = {0};
    char want[256];
    (void)state;

    make_table(&ioc);
    setenv("SCANBENCH_TEST_PASS_MS", "80", 1);
    make_params(&p, "ring", sb_op_find("count"), sb_kernel_find("memcpy"), 1, 9);
    p.slice_seconds = 0.010;
    assert_int_equal(sb_scan_run(&p, &ioc, &res, &err), SB_OK);
    assert_true(res.validation.ok);
    assert_int_equal(res.slice_pages, 8);
    assert_int_equal(res.pages_per_scan, 8);
    assert_int_equal(res.passes, 1);
    assert_int_equal(res.bytes_per_scan, 8 * PAGE);
    assert_int_equal(res.validation.scans_row_checked, 1 + 9);
    assert_null(res.slice_off);
    assert_int_equal(res.nreps, 9);
    for (uint32_t r = 0; r < res.nreps; r++)
        assert_int_equal(res.scans[r].bytes, 8 * PAGE);
    sb_run_result_free(&res);

    /* the plan's reason for whole passes is kept, and the run makes them */
    p.slice_off = "counters=sim replays whole passes";
    assert_int_equal(sb_scan_run(&p, &ioc, &res, &err), SB_OK);
    assert_int_equal(res.slice_pages, 0);
    assert_int_equal(res.pages_per_scan, NPAGES);
    assert_string_equal(res.slice_off, "counters=sim replays whole passes");
    sb_run_result_free(&res);

    /* a pass shorter than 2 slices: whole passes, and why */
    p.slice_off = NULL;
    setenv("SCANBENCH_TEST_PASS_MS", "19", 1);
    assert_int_equal(sb_scan_run(&p, &ioc, &res, &err), SB_OK);
    assert_int_equal(res.slice_pages, 0);
    assert_string_equal(res.slice_off, "a pass lasts less than 2 slices");
    sb_run_result_free(&res);

    /* one row too many from the first timed slice on (pages 4-11): 64 expected checksums, 64
     * validated, 64 warm-up calls, then the 193rd */
    setenv("SCANBENCH_TEST_PASS_MS", "80", 1);
    sb_iocache_destroy(&ioc);
    make_table(&ioc);
    calls = 0;
    miscount_from = 3 * NPAGES + 1;
    make_params(&p, "ring", &miscount_op, sb_kernel_find("memcpy"), 1, 2);
    p.slice_seconds = 0.010;
    snprintf(want, sizeof want, "t ring miscount memcpy: validation failed: scan 2: op miscount "
             "saw %llu live rows, its slice has %llu",
             (unsigned long long)range_live_rows(&ioc, 4, 12) + 8,
             (unsigned long long)range_live_rows(&ioc, 4, 12));
    expect_failure(&ioc, &p, want);
    unsetenv("SCANBENCH_TEST_PASS_MS");
    sb_iocache_destroy(&ioc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_policy_op_kernel),
        cmocka_unit_test(test_pg82_select_vacuum),
        cmocka_unit_test(test_pg82_vacuum_alone_and_clock),
        cmocka_unit_test(test_broken_kernel),
        cmocka_unit_test(test_half_kernels),
        cmocka_unit_test(test_broken_kernel_pool_check),
        cmocka_unit_test(test_broken_op_count),
        cmocka_unit_test(test_broken_op_write),
        cmocka_unit_test(test_extra_copy),
        cmocka_unit_test(test_slice_pages),
        cmocka_unit_test(test_slices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
