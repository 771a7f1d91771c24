/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_sources.c: unit tests for the file source and the bigtables (source_file.h, dma_fill.h,
 * scanner.h). A 4MB table (512 pages of 8KB) built in memory and as a nameless file in a fresh
 * scratch directory: the same checksums after the copy and after each op, the same bytes, the
 * same live rows; both scanned with count and vacuum, clock and ring, every page validated, with
 * the same figures; the file warm once built (mincore: every page resident) and its directory
 * empty (the file has no name) while it exists and after; the DMA-like fill leaves a frame's
 * bytes as they were; bigtable runs of both sources validate and record their device rate and
 * the file's drops behind the scan. Whether DONTNEED really evicts is tests/cli/dontneed.sh's (it
 * skips, saying why, where the file system keeps the pages). */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/scratch.h"
#include "engine/engine.h"
#include "engine/iocache.h"
#include "engine/scan.h"
#include "engine/source_file.h"
#include "plan/plan.h"
#include "vocab/dma_fill.h"

#include "helper.h"

#define PAGE 8192u
#define TABLE (4u << 20) /* 512 pages: two drops of SB_FILE_DROP_PAGES per scan */
#define NPAGES (TABLE / PAGE)
#define POOL (256u << 10)
#define RING (32u << 10)

static int remove_scratch(void **state)
{
    (void)state;
    return rmdir(sbtest_scratch); /* fails if anything was left in it */
}

static void make_params(struct sb_run_params *p, const char *source, bool bigtable,
                        const char *policy, const char *op)
{
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "t %s %s %s", source, policy, op);
    p->source = sb_source_find(source);
    assert_non_null(p->source);
    p->bigtable = bigtable;
    snprintf(p->data_dir, sizeof p->data_dir, "%s", sbtest_scratch);
    p->table_size = TABLE;
    p->pool_size = POOL;
    p->ring_size = RING;
    p->page_size = PAGE;
    assert_true(sb_heap_layout_init(&p->layout, PAGE, 100, 10));
    p->op = sb_op_find(op);
    p->kernel = p->source->is_file ? &sb_kernel_pread : sb_kernel_find("memcpy");
    p->policy = sb_policy_find(policy);
    assert_non_null(p->op);
    assert_non_null(p->policy);
    p->threads = 1;
    p->repetitions = 2;
    p->warmup = 1;
    p->seed = 3;
    p->counters = sb_counter_backend_find("none");
}

static void build(struct sb_iocache *ioc, const char *source)
{
    struct sb_run_params p;
    struct sb_error err = {0};

    make_params(&p, source, false, "clock", "count");
    if (sb_iocache_build(ioc, &p, -1, &err) != SB_OK)
        fail_msg("building the %s table: %s", source, err.msg);
}

static void test_same_tables(void **state)
{
    struct sb_iocache mem, file;
    struct sb_error err = {0};
    const char *ops[] = {"count", "vacuum", "none"};

    (void)state;
    build(&mem, "memory");
    build(&file, "file");
    assert_non_null(file.file);
    assert_int_equal(file.npages, mem.npages);
    assert_int_equal(file.live_rows, mem.live_rows);
    assert_memory_equal(file.pages, mem.pages, TABLE);
    assert_memory_equal(file.sum_copy, mem.sum_copy, NPAGES * sizeof *mem.sum_copy);
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        assert_int_equal(sb_iocache_expect_op(&mem, sb_op_find(ops[i]), &err), SB_OK);
        assert_int_equal(sb_iocache_expect_op(&file, sb_op_find(ops[i]), &err), SB_OK);
        assert_memory_equal(sb_iocache_sums_after(&file, sb_op_find(ops[i])),
                            sb_iocache_sums_after(&mem, sb_op_find(ops[i])),
                            NPAGES * sizeof *mem.sum_copy);
    }
    sb_iocache_destroy(&mem);
    sb_iocache_destroy(&file);
}

static void run_ok(struct sb_run_params *p, struct sb_iocache *ioc, struct sb_run_result *res)
{
    struct sb_error err = {0};

    if (sb_scan_run(p, ioc, res, &err) != SB_OK) {
        sb_run_result_free(res);
        fail_msg("%s: %s", p->name, err.msg);
    }
    assert_true(res->validation.ok);
    assert_int_equal(res->validation.pages_checked_after_copy, NPAGES);
    assert_int_equal(res->validation.pages_checked_after_op, NPAGES);
    assert_int_equal(res->validation.pages_read_once, NPAGES);
}

static void test_same_scans(void **state)
{
    const char *policies[] = {"clock", "ring"}, *ops[] = {"count", "vacuum"};
    struct sb_iocache mem, file;

    (void)state;
    build(&mem, "memory");
    build(&file, "file");
    for (int pi = 0; pi < 2; pi++)
        for (int oi = 0; oi < 2; oi++) {
            struct sb_run_params pm, pf;
            struct sb_run_result rm, rf;
            make_params(&pm, "memory", false, policies[pi], ops[oi]);
            make_params(&pf, "file", false, policies[pi], ops[oi]);
            run_ok(&pm, &mem, &rm);
            run_ok(&pf, &file, &rf);
            assert_int_equal(rf.validation.rows_expected, rm.validation.rows_expected);
            assert_int_equal(rf.validation.scans_row_checked, rm.validation.scans_row_checked);
            assert_int_equal(rf.validation.pool_pages_checked, rm.validation.pool_pages_checked);
            assert_int_equal(rf.buffers_touched, rm.buffers_touched);
            assert_true(rf.clock_visits_per_page == rm.clock_visits_per_page);
            assert_true(rf.io.resident_min == 1.0); /* warm: every page, every timed scan */
            assert_true(rm.io.resident_min < 0);    /* memory: not a file */
            sb_run_result_free(&rm);
            sb_run_result_free(&rf);
        }
    sb_iocache_destroy(&mem);
    sb_iocache_destroy(&file);
}

static void test_file_warm_and_nameless(void **state)
{
    struct sb_iocache file;

    (void)state;
    assert_int_equal(sbtest_count_entries(sbtest_scratch, NULL), 0);
    build(&file, "file");
    assert_true(sb_file_resident(&file) == 1.0);
    assert_int_equal(sbtest_count_entries(sbtest_scratch, NULL), 0);
    assert_true(strncmp(file.file->scratch, "O_TMPFILE", 9) == 0 ||
                strncmp(file.file->scratch, "mkstemp", 7) == 0);
    sb_iocache_destroy(&file);
    assert_int_equal(sbtest_count_entries(sbtest_scratch, NULL), 0);
}

static void test_scratch_errors(void **state)
{
    char why[256], dir[600];
    const char *how;

    (void)state;
    snprintf(dir, sizeof dir, "%s/does-not-exist", sbtest_scratch);
    assert_int_equal(sb_file_scratch_open(dir, &how, why, sizeof why), -1);
    assert_non_null(strstr(why, "cannot create a scratch file in"));
    assert_non_null(strstr(why, "does-not-exist"));
}

static void test_dma_fill_keeps_bytes(void **state)
{
    uint8_t *frame = aligned_alloc(64, PAGE), *copy = malloc(PAGE);

    (void)state;
    if (!sb_dma_fill_supported())
        skip();
    assert_non_null(frame);
    assert_non_null(copy);
    for (uint32_t i = 0; i < PAGE; i++)
        frame[i] = (uint8_t)(i * 131 + 7);
    memcpy(copy, frame, PAGE);
    sb_dma_fill(frame, PAGE);
    assert_memory_equal(frame, copy, PAGE);
    free(frame);
    free(copy);
}

static void test_bigtable_runs(void **state)
{
    const char *sources[] = {"memory", "file"};

    (void)state;
    for (int s = 0; s < 2; s++) {
        struct sb_iocache ioc;
        struct sb_run_params p;
        struct sb_run_result res;
        if (s == 0 && !sb_dma_fill_supported())
            continue;
        build(&ioc, sources[s]);
        make_params(&p, sources[s], true, "ring", "vacuum");
        run_ok(&p, &ioc, &res);
        assert_true(res.io.device_mbps > 0);
        if (s == 1) {
            /* every timed scan drops the pages behind it in two steps of 256 */
            assert_int_equal(res.io.drops, p.repetitions * (NPAGES / SB_FILE_DROP_PAGES));
            assert_true(res.io.resident_after_drop >= 0);
            assert_true(res.io.resident_min < 0); /* a bigtable is never warm */
        }
        sb_run_result_free(&res);
        sb_iocache_destroy(&ioc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_tables),
        cmocka_unit_test(test_same_scans),
        cmocka_unit_test(test_file_warm_and_nameless),
        cmocka_unit_test(test_scratch_errors),
        cmocka_unit_test(test_dma_fill_keeps_bytes),
        cmocka_unit_test(test_bigtable_runs),
    };
    return cmocka_run_group_tests(tests, sbtest_scratch_setup, remove_scratch);
}
