/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_mem.c: unit tests for lib/core/mem.h's limits (sb_mem_limit_read) on fake /proc and
 * /sys/fs/cgroup trees: MemAvailable; RLIMIT_AS less what is mapped; cgroup v2 (the process's
 * own cgroup from /proc/self/cgroup, and its ancestors: the tightest memory.max less
 * memory.current; "max" is no limit); cgroup v1 (the memory controller's line, its
 * limit_in_bytes less usage_in_bytes, not the hierarchy's root); every figure named in the
 * source. And the kept mappings (sb_mem_keep_*): a freed mapping comes back zeroed to an
 * allocation of its length and tag only, 16 at most are kept. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/mem.h"

#include "helper.h"

#define MB (1ull << 20)

/* Writes text to the scratch directory's path, making its directories. */
static void put(const char *path, const char *text)
{
    sbtest_write_file(sbtest_scratch, path, text);
}

static void read_limit(struct sb_mem_limit *limit)
{
    sb_mem_limit_read(limit, sbtest_scratch, sbtest_scratch);
}

static void test_meminfo_only(void **state)
{
    struct sb_mem_limit limit;
    (void)state;

    put("proc/meminfo", "MemTotal: 4096000 kB\nMemAvailable: 2048000 kB\n");
    read_limit(&limit);
    assert_int_equal(limit.bytes, 2048000ull * 1024);
    assert_string_equal(limit.source, "MemAvailable");
}

/* ulimit -v: the address space left, with both figures. */
static void test_rlimit_as(void **state)
{
    struct sb_mem_limit limit;
    (void)state;

    put("proc/meminfo", "MemAvailable: 2048000 kB\n");
    put("proc/self/limits", "Limit                     Soft Limit           Hard Limit    Units\n"
                            "Max stack size            8388608              unlimited     bytes\n"
                            "Max address space         314572800            unlimited     bytes\n");
    put("proc/self/status", "Name:\tscanbench\nVmPeak:\t   50000 kB\nVmSize:\t   40960 kB\n");
    read_limit(&limit);
    assert_int_equal(limit.bytes, 300 * MB - 40 * MB);
    assert_string_equal(limit.source, "RLIMIT_AS (ulimit -v) 300MB less 40MB mapped (VmSize)");
    /* unlimited: no limit */
    put("proc/self/limits", "Max address space         unlimited            unlimited     bytes\n");
    read_limit(&limit);
    assert_string_equal(limit.source, "MemAvailable");
    /* less room than is mapped: none */
    put("proc/self/limits", "Max address space         10485760             unlimited     bytes\n");
    read_limit(&limit);
    assert_int_equal(limit.bytes, 0);
}

/* cgroup v2: the process's own cgroup (0::/PATH) and its ancestors; the tightest wins. */
static void test_cgroup_v2(void **state)
{
    struct sb_mem_limit limit;
    (void)state;

    put("proc/meminfo", "MemAvailable: 8192000 kB\n");
    put("proc/self/cgroup", "0::/user.slice/job.scope\n");
    put("sys/fs/cgroup/user.slice/job.scope/memory.max", "max\n");
    put("sys/fs/cgroup/user.slice/job.scope/memory.current", "1048576\n");
    put("sys/fs/cgroup/user.slice/memory.max", "1073741824\n");
    put("sys/fs/cgroup/user.slice/memory.current", "268435456\n");
    read_limit(&limit);
    assert_int_equal(limit.bytes, 768 * MB);
    assert_string_equal(limit.source, "/sys/fs/cgroup/user.slice/memory.max 1GB less "
                                      "memory.current 256MB");
    /* the process's own cgroup, tighter than its parent */
    put("sys/fs/cgroup/user.slice/job.scope/memory.max", "536870912\n");
    read_limit(&limit);
    assert_int_equal(limit.bytes, 511 * MB);
    assert_string_equal(limit.source, "/sys/fs/cgroup/user.slice/job.scope/memory.max 512MB less "
                                      "memory.current 1MB");
    /* the mount's root too (under a cgroup namespace, a container's own cgroup) */
    put("sys/fs/cgroup/memory.max", "2097152\n");
    read_limit(&limit);
    assert_int_equal(limit.bytes, 2 * MB);
}

/* cgroup v1: the memory controller's own line, not the hierarchy's root (which has no limit
 * on a real host: 9223372036854771712). */
static void test_cgroup_v1(void **state)
{
    struct sb_mem_limit limit;
    (void)state;

    put("proc/meminfo", "MemAvailable: 8192000 kB\n");
    put("proc/self/cgroup", "9:name=systemd:/\n5:devices:/\n4:cpu,memory:/batch/job42\n"
                            "1:cpuset:/\n0::/\n");
    put("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
    put("sys/fs/cgroup/memory/memory.usage_in_bytes", "600768512\n");
    put("sys/fs/cgroup/memory/batch/job42/memory.limit_in_bytes", "419430400\n");
    put("sys/fs/cgroup/memory/batch/job42/memory.usage_in_bytes", "20971520\n");
    read_limit(&limit);
    assert_int_equal(limit.bytes, 380 * MB);
    assert_string_equal(limit.source, "/sys/fs/cgroup/memory/batch/job42/memory.limit_in_bytes "
                                      "400MB less memory.usage_in_bytes 20MB");
}

static void test_keep_reuses_zeroed(void **state)
{
    unsigned char *p, *q;

    (void)state;
    sb_mem_keep_drop_all();
    p = sb_mem_alloc(64 * 1024);
    assert_non_null(p);
    memset(p, 0xa5, 64 * 1024);
    sb_mem_free(p, 64 * 1024);
    assert_null(sb_mem_keep_take(32 * 1024, 0)); /* another length */
    q = sb_mem_alloc(64 * 1024);
    assert_ptr_equal(q, p);
    for (size_t i = 0; i < 64 * 1024; i++)
        assert_int_equal(q[i], 0);
    sb_mem_free(q, 64 * 1024);
    sb_mem_keep_drop_all();
    assert_null(sb_mem_keep_take(64 * 1024, 0));
}

static void test_keep_tags_apart(void **state)
{
    void *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    (void)state;
    assert_true(p != MAP_FAILED);
    sb_mem_keep_drop_all();
    sb_mem_keep_put(p, 8192, 7);
    assert_null(sb_mem_keep_take(8192, 0));
    assert_ptr_equal(sb_mem_keep_take(8192, 7), p);
    assert_null(sb_mem_keep_take(8192, 7));
    munmap(p, 8192);
}

/* 17 mappings of one length: 16 are kept, the 17th (none shorter to make room) is unmapped. */
static void test_keep_sixteen(void **state)
{
    void *p[17];
    int kept = 0;

    (void)state;
    sb_mem_keep_drop_all();
    for (int i = 0; i < 17; i++) {
        p[i] = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        assert_true(p[i] != MAP_FAILED);
        sb_mem_keep_put(p[i], 4096, 9);
    }
    for (int i = 0; i < 17; i++) {
        void *q = sb_mem_keep_take(4096, 9);
        kept += q != NULL;
        if (q)
            munmap(q, 4096);
    }
    assert_int_equal(kept, 16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_meminfo_only, sbtest_scratch_setup,
                                        sbtest_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_rlimit_as, sbtest_scratch_setup,
                                        sbtest_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_cgroup_v2, sbtest_scratch_setup,
                                        sbtest_scratch_teardown),
        cmocka_unit_test_setup_teardown(test_cgroup_v1, sbtest_scratch_setup,
                                        sbtest_scratch_teardown),
        cmocka_unit_test(test_keep_reuses_zeroed),
        cmocka_unit_test(test_keep_tags_apart),
        cmocka_unit_test(test_keep_sixteen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
