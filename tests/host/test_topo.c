/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_topo.c: unit tests for lib/host/topo.h and lib/core/mem.h on fake trees. Builds a sysfs tree under
 * a temporary directory (cache index0..3 of cpu0 with an instruction cache to be ignored, two
 * hardware threads of one core, one NUMA node) and checks every figure and its source; checks
 * that a missing tree leaves every figure unknown, that config overrides are marked "config",
 * and, with hwloc, the figures of a synthetic hwloc topology. Then the memory limit from a fake
 * /proc/meminfo and fake cgroup v2 and v1 files at the hierarchies' roots (no
 * /proc/self/cgroup): the smallest limit wins and is named with its figures, an unlimited cgroup
 * ("max") is ignored (tests/core/test_mem.c: the process's own cgroup, RLIMIT_AS). The trees are
 * removed at the end. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/mem.h"
#include "host/cache_cpuid.h"
#include "host/topo.h"

#include "helper.h"

/* --- building fake trees -------------------------------------------------------------------- */

/* Writes text to root/rel, making the directories above it. */
static void put(const char *root, const char *rel, const char *text)
{
    sbtest_write_file(root, rel, text);
}

static void remove_tree(const char *root)
{
    assert_int_equal(sbtest_scratch_remove(root), 0);
}

static void put_cache(const char *root, int index, const char *level, const char *type,
                      const char *size, const char *line, const char *ways)
{
    char rel[256];
    const char *names[5] = {"level", "type", "size", "coherency_line_size",
                            "ways_of_associativity"};
    const char *values[5] = {level, type, size, line, ways};

    for (int i = 0; i < 5; i++) {
        char text[64];
        snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu0/cache/index%d/%s", index,
                 names[i]);
        snprintf(text, sizeof text, "%s\n", values[i]);
        put(root, rel, text);
    }
}

static void put_cpu(const char *root, int cpu, const char *package, const char *core)
{
    char rel[256];
    snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
    put(root, rel, package);
    snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
    put(root, rel, core);
}

static void assert_figure(const struct sb_figure *f, uint64_t value, const char *source)
{
    assert_int_equal(f->value, value);
    assert_non_null(f->source);
    assert_string_equal(f->source, source);
}

/* --- sysfs ------------------------------------------------------------------------------------ */

static void test_sysfs(void **state)
{
    char root[256];
    struct sb_topology t;
    (void)state;

    assert_int_equal(sbtest_scratch_make(root, sizeof root, "topo"), 0);
    put_cache(root, 0, "1", "Data", "32K", "64", "8");
    put_cache(root, 1, "1", "Instruction", "64K", "128", "4"); /* ignored */
    put_cache(root, 2, "2", "Unified", "1024K", "64", "16");
    put_cache(root, 3, "3", "Unified", "32768K", "64", "11");
    /* two hardware threads of one core, and entries that are not CPUs */
    put_cpu(root, 0, "0\n", "0\n");
    put_cpu(root, 1, "0\n", "0\n");
    put(root, "sys/devices/system/cpu/cpufreq/boost", "1\n");
    put(root, "sys/devices/system/cpu/cpuidle/current_driver", "none\n");
    put(root, "sys/devices/system/cpu/online", "0-1\n");
    put(root, "sys/devices/system/node/node0/cpulist", "0-1\n");
    put(root, "sys/devices/system/node/possible", "0\n");

    sb_topology_from_sysfs(&t, root);
    assert_figure(&t.cache[SB_L1D].size, 32768, "sysfs");
    assert_figure(&t.cache[SB_L1D].line, 64, "sysfs");
    assert_figure(&t.cache[SB_L1D].assoc, 8, "sysfs");
    assert_figure(&t.cache[SB_L2].size, 1048576, "sysfs");
    assert_figure(&t.cache[SB_L2].line, 64, "sysfs");
    assert_figure(&t.cache[SB_L2].assoc, 16, "sysfs");
    assert_figure(&t.cache[SB_L3].size, 33554432, "sysfs");
    assert_figure(&t.cache[SB_L3].line, 64, "sysfs");
    assert_figure(&t.cache[SB_L3].assoc, 11, "sysfs");
    assert_figure(&t.cores, 1, "sysfs"); /* (package 0, core 0) twice */
    assert_figure(&t.pus, 2, "sysfs");
    assert_figure(&t.numa_nodes, 1, "sysfs");

    /* a second core in another package: 2 cores, 3 threads */
    put_cpu(root, 2, "1\n", "0\n");
    sb_topology_from_sysfs(&t, root);
    assert_figure(&t.cores, 2, "sysfs");
    assert_figure(&t.pus, 3, "sysfs");

    /* overrides are the config's figures */
    sb_topology_override_size(&t, SB_L2, 2u << 20);
    assert_figure(&t.cache[SB_L2].size, 2u << 20, "config");
    assert_figure(&t.cache[SB_L1D].size, 32768, "sysfs");
    sb_topology_override_line(&t, 128);
    for (int l = 0; l < SB_NLEVELS; l++)
        assert_figure(&t.cache[l].line, 128, "config");
    assert_figure(&t.cache[SB_L3].size, 33554432, "sysfs");

    remove_tree(root);
}

/* The instruction cache must be skipped even when it comes first (it would otherwise be read
 * as the level-1 figures, which are taken from the first index that has them). */
static void test_sysfs_instruction_first(void **state)
{
    char root[256];
    struct sb_topology t;
    (void)state;

    assert_int_equal(sbtest_scratch_make(root, sizeof root, "topo"), 0);
    put_cache(root, 0, "1", "Instruction", "64K", "128", "4");
    put_cache(root, 1, "1", "Data", "48K", "64", "12");
    put_cache(root, 2, "2", "Unified", "2048K", "64", "16");
    /* index3 missing: L3 unknown */
    sb_topology_from_sysfs(&t, root);
    assert_figure(&t.cache[SB_L1D].size, 49152, "sysfs");
    assert_figure(&t.cache[SB_L1D].line, 64, "sysfs");
    assert_figure(&t.cache[SB_L1D].assoc, 12, "sysfs");
    assert_figure(&t.cache[SB_L2].size, 2097152, "sysfs");
    assert_figure(&t.cache[SB_L3].size, 0, "unknown");
    assert_figure(&t.cache[SB_L3].line, 0, "unknown");
    assert_figure(&t.cores, 0, "unknown"); /* no topology files */
    assert_figure(&t.pus, 1, "sysfs");     /* cpu0 */
    assert_figure(&t.numa_nodes, 0, "unknown");
    remove_tree(root);
}

static void test_sysfs_missing(void **state)
{
    struct sb_topology t;
    (void)state;

    sb_topology_from_sysfs(&t, "/tmp/sb_test_topo_no_such_root");
    for (int l = 0; l < SB_NLEVELS; l++) {
        assert_figure(&t.cache[l].size, 0, "unknown");
        assert_figure(&t.cache[l].line, 0, "unknown");
        assert_figure(&t.cache[l].assoc, 0, "unknown");
    }
    assert_figure(&t.cores, 0, "unknown");
    assert_figure(&t.pus, 0, "unknown");
    assert_figure(&t.numa_nodes, 0, "unknown");
    sb_topology_override_size(&t, SB_L3, 8u << 20);
    assert_figure(&t.cache[SB_L3].size, 8u << 20, "config");
}

/* --- hwloc ------------------------------------------------------------------------------------- */

static void test_hwloc_synthetic(void **state)
{
    struct sb_topology t;
    (void)state;
#ifdef HAVE_HWLOC
    /* one package, one 32MB L3, two 1MB L2 under it, each with one 32KB L1d, one core and one
     * PU: 2 cores, 2 PUs; hwloc adds one NUMA node. Synthetic caches get hwloc's default 64-byte
     * line and no associativity. hwloc's synthetic sizes are decimal (KB = 1000, KiB = 1024). */
    assert_int_equal(sb_topology_from_hwloc_synthetic(
                         &t, "pack:1 l3:1(size=32MB) l2:2(size=1MB) l1d:1(size=32KB) core:1 pu:1"),
                     0);
    assert_figure(&t.cache[SB_L1D].size, 32000, "hwloc");
    assert_figure(&t.cache[SB_L2].size, 1000000, "hwloc");
    assert_figure(&t.cache[SB_L3].size, 32000000, "hwloc");
    assert_figure(&t.cores, 2, "hwloc");
    assert_figure(&t.pus, 2, "hwloc");
    assert_figure(&t.numa_nodes, 1, "hwloc");
    /* binary units; two packages of 4 cores with 2 PUs each */
    assert_int_equal(sb_topology_from_hwloc_synthetic(
                         &t, "pack:2 l3:1(size=32MiB) l2:4(size=1MiB) l1d:1(size=48KiB) core:1 "
                             "pu:2"), 0);
    assert_figure(&t.cache[SB_L1D].size, 49152, "hwloc");
    assert_figure(&t.cache[SB_L2].size, 1048576, "hwloc");
    assert_figure(&t.cache[SB_L3].size, 33554432, "hwloc");
    for (int l = 0; l < SB_NLEVELS; l++) {
        assert_figure(&t.cache[l].line, 64, "hwloc");
        assert_figure(&t.cache[l].assoc, 0, "unknown");
    }
    assert_figure(&t.cores, 8, "hwloc");
    assert_figure(&t.pus, 16, "hwloc");
    assert_figure(&t.numa_nodes, 1, "hwloc");

    assert_int_equal(sb_topology_from_hwloc_synthetic(&t, "this is not a topology"), -1);
    assert_figure(&t.cache[SB_L2].size, 0, "unknown");
#else
    assert_int_equal(sb_topology_from_hwloc_synthetic(&t, "pack:1 core:1 pu:1"), -1);
    skip(); /* built without hwloc */
#endif
}

/* --- memory limits ----------------------------------------------------------------------------- */

static void test_mem_limit(void **state)
{
    char root[256];
    char proc[300], cg[300], cg1[300], none[300];
    struct sb_mem_limit m;
    (void)state;

    assert_int_equal(sbtest_scratch_make(root, sizeof root, "topo"), 0);
    snprintf(proc, sizeof proc, "%s/proc-root", root);
    snprintf(cg, sizeof cg, "%s/cgroup-v2", root);
    snprintf(cg1, sizeof cg1, "%s/cgroup-v1", root);
    snprintf(none, sizeof none, "%s/nothing", root);
    put(proc, "proc/meminfo", "MemTotal:        2000 kB\nMemFree:          500 kB\n"
                              "MemAvailable:     1000 kB\nBuffers:           10 kB\n");

    /* nothing at all */
    sb_mem_limit_read(&m, none, none);
    assert_int_equal(m.bytes, UINT64_MAX);
    assert_string_equal(m.source, "no limit found");

    /* MemAvailable alone: 1000 kB = 1024000 bytes */
    sb_mem_limit_read(&m, proc, none);
    assert_int_equal(m.bytes, 1024000);
    assert_string_equal(m.source, "MemAvailable");

    /* cgroup v2: 500000 - 100000 = 400000 < 1024000 */
    put(cg, "sys/fs/cgroup/memory.max", "500000\n");
    put(cg, "sys/fs/cgroup/memory.current", "100000\n");
    sb_mem_limit_read(&m, proc, cg);
    assert_int_equal(m.bytes, 400000);
    assert_string_equal(m.source, "/sys/fs/cgroup/memory.max 500000B less memory.current "
                                  "100000B");

    /* a cgroup limit above MemAvailable does not decide */
    put(cg, "sys/fs/cgroup/memory.max", "5000000\n");
    sb_mem_limit_read(&m, proc, cg);
    assert_int_equal(m.bytes, 1024000);
    assert_string_equal(m.source, "MemAvailable");

    /* "max": no cgroup limit */
    put(cg, "sys/fs/cgroup/memory.max", "max\n");
    sb_mem_limit_read(&m, proc, cg);
    assert_int_equal(m.bytes, 1024000);
    assert_string_equal(m.source, "MemAvailable");
    sb_mem_limit_read(&m, none, cg);
    assert_int_equal(m.bytes, UINT64_MAX);

    /* usage above the limit (it happens while reclaim catches up) counts as none */
    put(cg, "sys/fs/cgroup/memory.max", "300000\n");
    put(cg, "sys/fs/cgroup/memory.current", "400000\n");
    sb_mem_limit_read(&m, proc, cg);
    assert_int_equal(m.bytes, 300000);
    assert_string_equal(m.source, "/sys/fs/cgroup/memory.max 300000B less memory.current (above "
                                  "it: taken as 0)");

    /* cgroup v1: 250000 - 50000 = 200000 */
    put(cg1, "sys/fs/cgroup/memory/memory.limit_in_bytes", "250000\n");
    put(cg1, "sys/fs/cgroup/memory/memory.usage_in_bytes", "50000\n");
    sb_mem_limit_read(&m, proc, cg1);
    assert_int_equal(m.bytes, 200000);
    assert_string_equal(m.source, "/sys/fs/cgroup/memory/memory.limit_in_bytes 250000B less "
                                  "memory.usage_in_bytes 50000B");

    remove_tree(root);
}

/* CPUID's deterministic cache parameters (leaf 4 / 0x8000001D), decoded from register values:
 * a 32KB 8-way L1d of 64B lines and 64 sets; a fully associative one; the list's end. */
static void test_cpuid_deterministic(void **state)
{
    struct sb_cpuid_cache c;

    (void)state;
    assert_true(sb_cpuid_cache_decode(0x21, (7u << 22) | 63, 63, &c));
    assert_int_equal(c.level, 1);
    assert_true(c.data);
    assert_int_equal(c.size, 32768);
    assert_int_equal(c.line, 64);
    assert_int_equal(c.ways, 8);
    /* a 1MB 16-way unified L2: 1024 sets */
    assert_true(sb_cpuid_cache_decode(0x43, (15u << 22) | 63, 1023, &c));
    assert_int_equal(c.level, 2);
    assert_true(c.data);
    assert_int_equal(c.size, 1 << 20);
    assert_int_equal(c.ways, 16);
    /* an instruction cache is not data; fully associative (EAX bit 9): no ways */
    assert_true(sb_cpuid_cache_decode(0x22 | (1u << 9), (3u << 22) | 63, 0, &c));
    assert_false(c.data);
    assert_int_equal(c.ways, 0);
    assert_false(sb_cpuid_cache_decode(0, 0, 0, &c));
}

/* AMD's legacy leaves, with the registers of a Zen 5 VM whose hypervisor hides Fn8000_001D:
 * L1d 48KB 12-way, L2 1MB 8-way (code 6), L3 1016 x 512KB with code 9 (ways unknown). */
static void test_cpuid_amd_legacy(void **state)
{
    struct sb_cpuid_cache c[3];

    (void)state;
    assert_int_equal(sb_cpuid_amd_legacy_decode(0x300c0140, 0x04006140, 0x0fe09140, c), 3);
    assert_int_equal(c[0].size, 48 * 1024);
    assert_int_equal(c[0].ways, 12);
    assert_int_equal(c[0].line, 64);
    assert_int_equal(c[1].size, 1 << 20);
    assert_int_equal(c[1].ways, 8);
    assert_false(c[1].ways_unknown);
    assert_int_equal(c[2].level, 3);
    assert_int_equal(c[2].size, 1016ull * 512 * 1024);
    assert_true(c[2].ways_unknown);
    /* no L3 (EDX 0), a 16-way L2 (code 8) */
    assert_int_equal(sb_cpuid_amd_legacy_decode(0x40020140, 0x02008140, 0, c), 2);
    assert_int_equal(c[1].ways, 16);
    assert_int_equal(c[2].size, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sysfs),
        cmocka_unit_test(test_sysfs_instruction_first),
        cmocka_unit_test(test_sysfs_missing),
        cmocka_unit_test(test_hwloc_synthetic),
        cmocka_unit_test(test_mem_limit),
        cmocka_unit_test(test_cpuid_deterministic),
        cmocka_unit_test(test_cpuid_amd_legacy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
