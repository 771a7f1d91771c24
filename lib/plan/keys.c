/* SPDX-License-Identifier: BSD-3-Clause */
/* keys.c: the key registry, the core INI reader's table for [experiment] (experiment.h): each
 * key's type, range, default and help, in the order of enum sb_key_id. */
#include "config.h"
#include "plan/experiment.h"

#include <string.h>

#include "core/core.h"

#define KB 1024ull
#define GB (1024ull * 1024 * 1024)
#define MB (1024ull * 1024)

const struct sb_ini_key sb_keys[SB_NKEYS + 1] = {
    [SB_K_NAME] = {.name = "name", .type = SB_INI_TEXT, .default_value = "unnamed", .help = "the "
                   "experiment's name"},
    [SB_K_DESCRIPTION] = {.name = "description", .type = SB_INI_TEXT, .default_value = "",
                          .help = "what it measures"},
    [SB_K_SOURCE] = {.name = "source", .type = SB_INI_WORD, .list = true,
                     .default_value = "memory", .help = "where pages come from (the IO cache)"},
    [SB_K_BIGTABLE] = {.name = "bigtable", .type = SB_INI_YESNO, .list = true,
                       .default_value = "no", .help = "yes: the table does not fit in the IO "
                       "cache: every page comes from the device (file: dropped from the page "
                       "cache; memory: a DMA-like fill)"},
    [SB_K_DATA_DIR] = {.name = "data_dir", .type = SB_INI_TEXT, .default_value = "",
                       .help = "scratch directory of source file (empty: $TMPDIR, else /tmp)"},
    [SB_K_TABLE_SIZE] = {.name = "table_size", .type = SB_INI_SIZE, .list = true, .min = 1,
                         .max = 1ull << 50, .default_value = "512M", .help = "bytes of heap "
                         "pages scanned"},
    [SB_K_PAGE_SIZE] = {.name = "page_size", .type = SB_INI_SIZE, .list = true, .min = KB,
                        .max = 32 * KB, .default_value = "8K", .help = "bytes per page (BLCKSZ): "
                        "a power of two from 1KB to 32KB"},
    [SB_K_ROW_WIDTH] = {.name = "row_width", .type = SB_INI_UINT, .list = true, .min = 0,
                        .max = 32 * KB, .default_value = "100", .help = "user data bytes per row "
                        "(100: 61 rows per 8KB page)"},
    [SB_K_DEAD_PCT] = {.name = "dead_pct", .type = SB_INI_UINT, .list = true, .min = 0, .max = 100,
                       .default_value = "10", .help = "percentage of rows deleted (dead) in the "
                       "table"},
    [SB_K_OP] = {.name = "op", .type = SB_INI_WORD, .list = true, .default_value = "count",
                 .help = "the executor pass over each page"},
    [SB_K_EXECUTOR] = {.name = "executor", .type = SB_INI_WORD, .list = true,
                       .default_value = "minimal", .help = "whose per-tuple work count and "
                       "vacuum do: minimal (the page's own), pg81 or pg82 (PostgreSQL 8.1's or "
                       "8.2's code besides; the same page bytes)"},
    [SB_K_KERNEL] = {.name = "kernel", .type = SB_INI_WORD, .list = true,
                     .default_value = "memcpy", .help = "how each page is copied (read, write: "
                     "only one side of a copy, with op none)"},
    [SB_K_POOL_SIZE] = {.name = "pool_size", .type = SB_INI_SIZE, .list = true, .min = 1,
                        .max = 1ull << 50, .default_value = "16M", .help = "bytes of buffers in "
                        "the pool (shared_buffers)"},
    [SB_K_POLICY] = {.name = "policy", .type = SB_INI_WORD, .list = true, .default_value = "clock",
                     .help = "where the next page lands in the pool"},
    [SB_K_RING_SIZE] = {.name = "ring_size", .type = SB_INI_SIZE, .list = true, .min = 1,
                        .max = 1ull << 50, .default_value = "256K", .help = "bytes of the ring "
                        "(policy ring)"},
    [SB_K_STATEMENTS] = {.name = "statements", .type = SB_INI_TEXT, .default_value = "",
                         .help = "a sequence (not a sweep), e.g. `select, vacuum`: every scan "
                         "runs these ops in order on one pool, the last measured, each "
                         "reported (select = count; empty: just op; op must then be left "
                         "alone or be the last)"},
    /* issue 18: the pages' way back (write-back) and the table's hint bits */
    [SB_K_WRITEBACK] = {.name = "writeback", .type = SB_INI_WORD, .list = true,
                        .default_value = "none", .help = "when a buffer the op dirtied goes back "
                        "to the IO cache: none (never), evict (before the buffer is reused: "
                        "BufferAlloc -> FlushBuffer), checkpoint (every checkpoint_pages pages, "
                        "all dirty buffers in buffer order)"},
    [SB_K_CHECKPOINT_PAGES] = {.name = "checkpoint_pages", .type = SB_INI_UINT, .list = true,
                               .min = 1, .max = UINT32_MAX, .or_word = "auto",
                               .default_value = "auto", .help = "writeback = checkpoint: pages "
                               "read between checkpoints (auto: the pool's buffers)"},
    [SB_K_WRITEBACK_KERNEL] = {.name = "writeback_kernel", .type = SB_INI_WORD, .list = true,
                               .default_value = "auto", .help = "how a dirty buffer is copied "
                               "back: auto (the copy-in kernel's; pwrite for source file), a "
                               "kernel, solaris-nta (Solaris 10's xcopyin_nta) or pwrite (source "
                               "file only)"},
    [SB_K_HINT_BITS] = {.name = "hint_bits", .type = SB_INI_WORD, .list = true,
                        .default_value = "set", .help = "the table's tuples as built: set (commit "
                        "hint bits stored) or unset (the first count stores them, dirtying every "
                        "page)"},
    [SB_K_IOCACHE_NODE] = {.name = "iocache_node", .type = SB_INI_WORD, .list = true,
                           .default_value = "local", .help = "NUMA node of the table: local, "
                           "remote, interleave or a node number"},
    [SB_K_POOL_NODE] = {.name = "pool_node", .type = SB_INI_WORD, .list = true,
                        .default_value = "local", .help = "NUMA node of the pool: local, remote, "
                        "interleave or a node number"},
    [SB_K_THREADS] = {.name = "threads", .type = SB_INI_UINT, .list = true, .min = 1,
                      .max = SB_MAX_THREADS, .default_value = "1", .help = "concurrent scanners, "
                      "pinned to distinct cores, started together"},
    [SB_K_SHARED_TABLE] = {.name = "shared_table", .type = SB_INI_YESNO, .list = true,
                           .default_value = "no", .help = "threads > 1: yes: all scan one table, "
                           "dividing its pages; no: each its own table"},
    [SB_K_SHARED_POOL] = {.name = "shared_pool", .type = SB_INI_YESNO, .list = true,
                          .default_value = "no", .help = "yes: one clock-swept pool shared by "
                          "all scanners (atomic pins and usage counts); no: each its own pool "
                          "and policy"},
    [SB_K_OVERSUBSCRIBE] = {.name = "oversubscribe", .type = SB_INI_YESNO, .default_value = "no",
                            .help = "yes: allow more threads than cores"},
    [SB_K_CONTENTION] = {.name = "contention", .type = SB_INI_WORD, .default_value = "none",
                         .help = "an aggressor on a CPU of its own during the timed scans: none, "
                         "stream (copies between two buffers of 4 x the L3, at least 256MB "
                         "each), l3 (read-modify-write over the L3's size, at most 64MB)"},
    [SB_K_SCHEDULE] = {.name = "schedule", .type = SB_INI_WORD, .default_value = "interleaved",
                       .help = "interleaved: every round times each run once, in a fresh seeded "
                       "shuffle; blocked: each run's timed scans together (for comparison)"},
    [SB_K_REPETITIONS] = {.name = "repetitions", .type = SB_INI_UINT, .min = 1, .max = 1000,
                          .or_word = "auto", .default_value = "auto", .help = "rounds: timed "
                          "scans of every run (auto: 10, then more until every comparison is "
                          "precise to 1%, the time_budget or 200)"},
    [SB_K_TIME_BUDGET] = {.name = "time_budget", .type = SB_INI_UINT, .min = 1,
                          .max = 30 * 24 * 3600, .or_word = "auto", .default_value = "auto",
                          .help = "repetitions = auto: seconds the run may take in all, from "
                          "its start (auto: 5 per run, at least 10)"},
    [SB_K_MIN_SCAN_MS] = {.name = "min_scan_ms", .type = SB_INI_UINT, .min = 0, .max = 60000,
                          .default_value = "10", .help = "a timed scan lasts at least this long: "
                          "as many passes over the table as that takes (0: one pass)"},
    [SB_K_SLICE_MS] = {.name = "slice_ms", .type = SB_INI_UINT, .list = true, .min = 0,
                       .max = 1000, .default_value = "10", .help = "a timed scan covers a slice "
                       "of the table lasting about this long (sized by the warm-up scan), after "
                       "settling over the pages before it, where a pass lasts at least 2 slices "
                       "(memory source, one scanner, counters none or papi, no statements); "
                       "else whole passes (0: always whole passes)"},
    [SB_K_SCHEDULE_SEED] = {.name = "schedule_seed", .type = SB_INI_UINT, .min = 0,
                            .max = UINT64_MAX, .or_word = "auto", .default_value = "auto",
                            .help = "seed of the rounds' shuffles (auto: from the clock; the "
                            "report keeps it)"},
    [SB_K_LAYOUT] = {.name = "layout", .type = SB_INI_WORD, .default_value = "random",
                     .help = "the memory behind each run's pools: random (drawn anew, in a "
                     "shuffled order, every layout_rounds rounds, so that intervals and calls "
                     "include what separates two allocations), fixed (one allocation per run, "
                     "to study one layout), hugepages (as random, on 2MB pages)"},
    [SB_K_LAYOUT_ROUNDS] = {.name = "layout_rounds", .type = SB_INI_UINT, .min = 2, .max = 1000,
                            .or_word = "auto", .default_value = "auto", .help = "layout random "
                            "or hugepages: rounds between two draws, even (auto: 2 at first, "
                            "then as many as keep the draws within a tenth of the rounds' time)"},
    [SB_K_WARMUP] = {.name = "warmup", .type = SB_INI_UINT, .list = true, .min = 0, .max = 100,
                     .default_value = "1", .help = "untimed scans of each run before the rounds "
                     "(after the validation scan)"},
    [SB_K_SEED] = {.name = "seed", .type = SB_INI_UINT, .list = true, .min = 0, .max = UINT64_MAX,
                   .default_value = "1", .help = "seed of the random policy"},
    [SB_K_EXTRA_COPY] = {.name = "extra_copy", .type = SB_INI_WORD, .list = true,
                         .default_value = "0", .help = "extra pages fetched per page of every "
                         "pass (0 to 0.5; 0.05: after one page in twenty, the page half a table "
                         "away into a spare buffer), never credited in MB/s: real work of known "
                         "size, the difference scanbench power injects"},
    [SB_K_COUNTERS] = {.name = "counters", .type = SB_INI_WORD, .default_value = "none",
                       .help = "the counter backend"},
    [SB_K_EVENTS] = {.name = "events", .type = SB_INI_TEXT, .default_value = "auto",
                     .help = "events map for counters=papi: auto (this CPU's) or configs/events "
                     "NAME or a path"},
    [SB_K_REQUIRE_COUNTERS] = {.name = "require_counters", .type = SB_INI_YESNO,
                               .default_value = "no", .help = "yes: counters that are "
                               "unavailable are an error (exit 3)"},
    [SB_K_MACHINE] = {.name = "machine", .type = SB_INI_WORD, .list = true,
                      .default_value = "auto", .help = "machine model for counters=sim: auto "
                      "(this host's caches), a name of configs/machines, or a path"},
    [SB_K_PREFETCH] = {.name = "prefetch", .type = SB_INI_WORD, .list = true,
                       .default_value = "machine", .help = "the model's next-line prefetcher: "
                       "machine (the model's setting), no, yes"},
    /* the caches' sizes and line within what machines have (issue 49): L1d from 1KB (the
     * 1990s) to 4MB, L2 from 16KB, L3 from 64KB (AMD's 3D V-Cache parts: 1152MB); lines of
     * 16 to 512 bytes, a power of two */
    [SB_K_L1D_SIZE] = {.name = "l1d_size", .type = SB_INI_SIZE, .min = KB, .max = 4 * MB,
                       .or_word = "auto", .default_value = "auto", .help = "L1 data cache size "
                       "override (auto: hwloc, else sysfs, else CPUID)"},
    [SB_K_L2_SIZE] = {.name = "l2_size", .type = SB_INI_SIZE, .min = 16 * KB, .max = GB,
                      .or_word = "auto", .default_value = "auto", .help = "L2 size override"},
    [SB_K_L3_SIZE] = {.name = "l3_size", .type = SB_INI_SIZE, .min = 64 * KB, .max = 64 * GB,
                      .or_word = "auto", .default_value = "auto", .help = "L3 size override"},
    [SB_K_LINE_SIZE] = {.name = "line_size", .type = SB_INI_SIZE, .min = 16, .max = 512,
                        .pow2 = true, .or_word = "auto", .default_value = "auto", .help = "cache "
                        "line size override: a power of two from 16 to 512"},
    [SB_K_RUN_TIMEOUT] = {.name = "run_timeout", .type = SB_INI_UINT, .min = 0,
                          .max = 30 * 24 * 3600, .default_value = "0", .help = "seconds a run "
                          "may take before the watchdog stops it (0: 600 s + 1 s per 20MB the "
                          "run reads and writes)"},
    [SB_K_PLAN_LIMIT] = {.name = "plan_limit", .type = SB_INI_UINT, .min = 0,
                         .max = 365 * 24 * 3600, .default_value = "14400", .help = "seconds "
                         "past which a plan is refused before it runs: the least its scans take "
                         "on any host, or with repetitions auto its time budget (0: no limit)"},
    /* issue 46: a PostgreSQL server's settings (scanbench pg sets them; run refuses them) */
    [SB_K_BUFFER_USAGE_LIMIT] = {.name = "buffer_usage_limit", .type = SB_INI_WORD, .list = true,
                                 .default_value = "default", .help = "scanbench pg, PostgreSQL "
                                 "16 on: VACUUM's ring, as VACUUM (BUFFER_USAGE_LIMIT ...): "
                                 "128K to 16G, 0 for none (default: the server's "
                                 "vacuum_buffer_usage_limit)"},
    [SB_K_IO_COMBINE_LIMIT] = {.name = "io_combine_limit", .type = SB_INI_SIZE, .list = true,
                               .min = 8 * KB, .max = 1024 * KB, .or_word = "default",
                               .default_value = "default", .help = "scanbench pg, PostgreSQL "
                               "17 on: the largest read (18 on: with effective_io_concurrency, "
                               "the bulk-read ring)"},
    [SB_K_EFFECTIVE_IO_CONCURRENCY] = {.name = "effective_io_concurrency", .type = SB_INI_WORD,
                                       .list = true, .default_value = "default", .help =
                                       "scanbench pg: reads in flight, 0 to 1000 (18 on: the "
                                       "bulk-read ring is 256kB + io_combine_limit x this)"},
    [SB_K_IO_METHOD] = {.name = "io_method", .type = SB_INI_WORD, .list = true,
                        .default_value = "default", .help = "scanbench pg, PostgreSQL 18 on: "
                        "who reads a page into shared_buffers: sync (the backend), worker (an "
                        "I/O worker process), io_uring (the kernel, for the backend)"},
    [SB_K_IO_WORKERS] = {.name = "io_workers", .type = SB_INI_UINT, .list = true, .min = 1,
                         .max = 32, .or_word = "default", .default_value = "default",
                         .help = "scanbench pg, PostgreSQL 18 on: I/O worker processes (19 on: "
                         "io_min_workers = io_max_workers)"},
    [SB_K_IO_WORKER_CPU] = {.name = "io_worker_cpu", .type = SB_INI_WORD, .list = true,
                            .default_value = "default", .help = "scanbench pg, PostgreSQL 18 "
                            "on: where the I/O workers run against the backend that scans: same "
                            "(both pinned to its CPU), other (the workers on another CPU), "
                            "default (neither pinned)"},
    [SB_K_HUGE_PAGES] = {.name = "huge_pages", .type = SB_INI_WORD, .list = true,
                         .default_value = "default", .help = "scanbench pg: shared memory on "
                         "huge pages: off, on, try"},
    [SB_NKEYS] = {0},
};

enum sb_key_id sb_key_find(const char *name)
{
    for (int k = 0; k < SB_NKEYS; k++)
        if (strcmp(sb_keys[k].name, name) == 0)
            return (enum sb_key_id)k;
    return SB_NKEYS;
}
