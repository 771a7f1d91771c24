/* SPDX-License-Identifier: BSD-3-Clause */
/* run_checks.c: a plan's runs checked against what the host can give (see run_checks.h): the
 * memory a run needs and an interleaved schedule's all at once, a file run's directory and
 * disk, NUMA placements, concurrency. */
#include "config.h"
#include "plan/run_checks.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cachesim/cachesim.h"
#include "core/core.h"
#include "counters/counters.h"
#include "host/host.h"
#include "plan/run_values.h"
#include "vocab/vocab.h"

static int bad(struct sb_error *err, const struct sb_experiment *exp, enum sb_key_id key,
               const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int bad(struct sb_error *err, const struct sb_experiment *exp, enum sb_key_id key,
               const char *fmt, ...)
{
    char what[1536]; /* a path, or a cgroup file, and what is wrong */
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return sb_fail(err, SB_ERR_INPUT, "%s: %s: %s", exp->settings[key].origin, sb_keys[key].name,
                   what);
}

/* Tables held in RAM: the memory source's, and a warm file's page cache (a bigtable file is
 * dropped from it as it is read). */
static uint32_t tables_in_memory(const struct sb_run_params *run)
{
    return run->source->is_file && run->bigtable ? 0 : sb_run_tables(run);
}

/* The cache model's state (counters = sim: one model per run), before it is built. */
static uint64_t model_bytes(const struct sb_run_params *run)
{
    return run->machine ? sb_cachesim_config_state_bytes(&run->machine->config) : 0;
}

/* The scanner threads' stacks: threads > 1 starts a team of that many threads (a run of one
 * scanner scans on the main thread). */
static uint64_t thread_bytes(const struct sb_run_params *run)
{
    return run->threads > 1 ? run->threads * sb_mem_thread_bytes() : 0;
}

/* Tables in RAM + pools + the model + the threads' stacks + overhead; false when that
 * overflows. */
static bool memory_need(const struct sb_run_params *run, uint64_t *need)
{
    uint64_t tables, pools;
    return !__builtin_mul_overflow(run->table_size, tables_in_memory(run), &tables) &&
           !__builtin_mul_overflow(run->pool_size, sb_run_pools(run), &pools) &&
           !__builtin_add_overflow(tables, pools, need) &&
           !__builtin_add_overflow(*need, model_bytes(run), need) &&
           !__builtin_add_overflow(*need, thread_bytes(run), need) &&
           !__builtin_add_overflow(*need, SB_RUN_OVERHEAD_BYTES, need);
}

/* " x N" when there are several, else "". */
static const char *times(uint32_t n)
{
    static char buf[4][24];
    static int next;
    char *b = buf[next++ & 3];
    if (n == 1)
        return "";
    snprintf(b, sizeof buf[0], " x %u", n);
    return b;
}

int sb_plan_check_run(const struct sb_experiment *exp, const int *idx, struct sb_run_params *run,
                      const struct sb_mem_limit *limit, struct sb_error *err)
{
    char a[32], b[32], c[32];
    uint64_t need;

    if (run->page_size < 1024 || (run->page_size & (run->page_size - 1)))
        return bad(err, exp, SB_K_PAGE_SIZE, "%s is not a power of two from 1KB to 32KB",
                   sb_format_size(run->page_size, a, sizeof a));
    sb_format_size(run->page_size, b, sizeof b);
    if (run->table_size % run->page_size)
        return bad(err, exp, SB_K_TABLE_SIZE, "%s is not a multiple of the page size (%s)",
                   sb_format_size(run->table_size, a, sizeof a), b);
    if (run->pool_size % run->page_size)
        return bad(err, exp, SB_K_POOL_SIZE, "%s is not a multiple of the page size (%s)",
                   sb_format_size(run->pool_size, a, sizeof a), b);
    if (run->pool_size / run->page_size > UINT32_MAX)
        return bad(err, exp, SB_K_POOL_SIZE, "%s holds more than 2^32 buffers",
                   sb_format_size(run->pool_size, a, sizeof a));
    if (run->policy->uses_ring) {
        if (run->ring_size % run->page_size)
            return bad(err, exp, SB_K_RING_SIZE, "%s is not a multiple of the page size (%s)",
                       sb_format_size(run->ring_size, a, sizeof a), b);
        if (run->ring_size > run->pool_size)
            return bad(err, exp, SB_K_RING_SIZE, "%s ring is larger than the pool (pool_size %s)",
                       sb_format_size(run->ring_size, a, sizeof a),
                       sb_format_size(run->pool_size, c, sizeof c));
    }
    if (!sb_heap_layout_init(&run->layout, run->page_size, (uint32_t)number_of(exp, idx,
                             SB_K_ROW_WIDTH), (uint32_t)number_of(exp, idx, SB_K_DEAD_PCT)))
        return bad(err, exp, SB_K_ROW_WIDTH, "no %s-byte row fits on a %s page",
                   text_of(exp, idx, SB_K_ROW_WIDTH), b);
    run->layout.hint_bits_set = run->hint_bits_set;
    if (!memory_need(run, &need) || need > limit->bytes) {
        char what[1024], table[64] = "", model[64] = "", stacks[64] = ""; /* the limit names a
                                                                              cgroup file */
        if (tables_in_memory(run))
            snprintf(table, sizeof table, "table %s%s + ",
                     sb_format_size(run->table_size, a, sizeof a), times(tables_in_memory(run)));
        if (model_bytes(run))
            snprintf(model, sizeof model, " + model %s (%s)",
                     sb_format_size(model_bytes(run) & ~((1ull << 20) - 1), c, sizeof c),
                     run->machine->name);
        if (thread_bytes(run))
            snprintf(stacks, sizeof stacks, " + stacks %s x %u",
                     sb_format_size(sb_mem_thread_bytes() & ~4095ull, c, sizeof c), run->threads);
        snprintf(what, sizeof what, "%spool %s%s%s%s + %s overhead is more than this host can "
                 "give (%s, %s)", table, sb_format_size(run->pool_size, b, sizeof b),
                 times(sb_run_pools(run)), model, stacks,
                 sb_format_size(SB_RUN_OVERHEAD_BYTES, c, sizeof c),
                 sb_format_size(limit->bytes & ~((1ull << 20) - 1), (char[32]){0}, 32),
                 limit->source);
        return bad(err, exp, model_bytes(run) > run->table_size + run->pool_size ? SB_K_MACHINE
                             : run->table_size >= run->pool_size ? SB_K_TABLE_SIZE : SB_K_POOL_SIZE,
                   "%s", what);
    }
    return SB_OK;
}

/* --- sources, NUMA placement and concurrent scans (issue 6) ------------------------------ */

/* When a run reads a file: its directory must fit a run's data_dir and be UTF-8 (the report
 * says it). data_dir itself is checked when read; $TMPDIR here. */
int sb_plan_check_data_dir(const struct sb_experiment *exp, struct sb_error *err)
{
    const struct sb_setting *source = &exp->settings[SB_K_SOURCE];
    const char *dir = data_dir_of(exp);
    bool file = false;

    for (int i = 0; i < source->nvalues; i++)
        file |= sb_source_find(source->values[i])->is_file;
    if (!file)
        return SB_OK;
    if (!sb_utf8_valid(dir))
        return bad(err, exp, SB_K_DATA_DIR, "$TMPDIR=%s: the path is not UTF-8 (a report "
                   "holds UTF-8 text only)", dir);
    if (strlen(dir) >= SB_DATA_DIR_MAX)
        return sb_fail(err, SB_ERR_INPUT, "%s: data_dir: $TMPDIR=%.80s...: a path of %zu bytes "
                       "(at most %d)", exp->settings[SB_K_DATA_DIR].origin, dir, strlen(dir),
                       SB_DATA_DIR_MAX - 1);
    return SB_OK;
}

/* The cache model's slices (SCANBENCH_SIM_THREADS), checked when a run uses the model, before
 * any run rather than when its model is built. */
int sb_plan_check_sim_threads(const struct sb_experiment *exp, struct sb_error *err)
{
    const struct sb_setting *counters = &exp->settings[SB_K_COUNTERS];
    unsigned slices;

    for (int i = 0; i < counters->nvalues; i++)
        if (strcmp(counters->values[i], "sim") == 0)
            return sb_sim_slices_wanted(&slices, err);
    return SB_OK;
}

/* Source file: a scratch file can be made in the directory (as the run will make it), and the
 * disk has room for the run's files. The source decides the copy: file copies with `pread`
 * whatever the kernel key says (a sweep over kernels makes one file run: sb_plan_build), and
 * `pread` is only file's. */
int sb_plan_check_source(const struct sb_experiment *exp, struct sb_run_params *run,
                         struct plan_host *host, struct sb_error *err)
{
    char a[32], b[32], why[1024]; /* with data_dir */
    struct statvfs fs;
    uint64_t need, free_bytes;

    if (run->kernel->side != SB_KERNEL_COPY && run->source->is_file)
        return bad(err, exp, SB_K_KERNEL, "%s is one side of a CPU copy: it needs source memory "
                   "(source %s copies with pread)", run->kernel->name, run->source->name);
    if (!run->source->is_file) {
        if (run->kernel == &sb_kernel_pread)
            return bad(err, exp, SB_K_KERNEL, "pread reads a file: it needs source file (source "
                       "%s copies with a CPU kernel)", run->source->name);
        if (run->bigtable && !sb_dma_fill_supported())
            return bad(err, exp, SB_K_BIGTABLE, "source memory's DMA-like fill needs x86-64 "
                       "non-temporal stores, which this build lacks");
        return SB_OK;
    }
    run->kernel = &sb_kernel_pread; /* the source decides the copy */
    if (!host->data_dir_ok) {
        const char *how;
        int fd = sb_file_scratch_open(run->data_dir, &how, why, sizeof why);
        if (fd < 0)
            return bad(err, exp, SB_K_DATA_DIR, "%s%s", why,
                       exp->settings[SB_K_DATA_DIR].values[0][0] ? "" :
                       " (data_dir empty: $TMPDIR, else /tmp)");
        close(fd);
        host->data_dir_ok = true;
    }
    if (statvfs(run->data_dir, &fs) != 0)
        return bad(err, exp, SB_K_DATA_DIR, "%s: statvfs: %s", run->data_dir, strerror(errno));
    free_bytes = (uint64_t)fs.f_bavail * fs.f_frsize;
    if (__builtin_mul_overflow(run->table_size, sb_run_tables(run), &need) ||
        __builtin_add_overflow(need, SB_DISK_MARGIN_BYTES, &need) || need > free_bytes) {
        snprintf(why, sizeof why, "table %s%s needs more disk than the %s free in %s (statvfs, "
                 "keeping %s free; data_dir)", sb_format_size(run->table_size, a, sizeof a),
                 times(sb_run_tables(run)), sb_format_size(free_bytes, b, sizeof b),
                 run->data_dir, sb_format_size(SB_DISK_MARGIN_BYTES, (char[32]){0}, 32));
        return bad(err, exp, SB_K_TABLE_SIZE, "%s", why);
    }
    return SB_OK;
}

int sb_plan_check_writeback(const struct sb_experiment *exp, const int *idx,
                            struct sb_run_params *run, struct sb_error *err)
{
    const char *name = text_of(exp, idx, SB_K_WRITEBACK_KERNEL);
    const struct sb_kernel *k = strcmp(name, "auto") == 0 ? NULL : sb_writeback_kernel_find(name);

    if (run->source->is_file && k && k != &sb_kernel_pwrite)
        return bad(err, exp, SB_K_WRITEBACK_KERNEL, "source file writes back with pwrite (auto "
                   "gives it), not %s", k->name);
    if (!run->source->is_file && k == &sb_kernel_pwrite)
        return bad(err, exp, SB_K_WRITEBACK_KERNEL, "pwrite writes into a file: it needs "
                   "source file (source %s writes back with a CPU kernel)", run->source->name);
    if (run->writeback == SB_WRITEBACK_NONE) {
        run->writeback_kernel = NULL;
        return SB_OK;
    }
    run->writeback_kernel = k ? k : run->source->is_file ? &sb_kernel_pwrite : run->kernel;
    if (run->shared_pool)
        return bad(err, exp, SB_K_WRITEBACK, "%s: the shared pool does not write back "
                   "(shared_pool = yes; writeback = none, or shared_pool = no)",
                   text_of(exp, idx, SB_K_WRITEBACK));
    if (run->threads > 1 && run->shared_table)
        return bad(err, exp, SB_K_WRITEBACK, "%s: scanners sharing one table cannot each write "
                   "it back (shared_table = yes; writeback = none, or shared_table = no)",
                   text_of(exp, idx, SB_K_WRITEBACK));
    return SB_OK;
}

int sb_plan_check_half_kernel(const struct sb_experiment *exp, const int *idx,
                              const struct sb_run_params *run, struct sb_error *err)
{
    const char *k = run->kernel->name;

    if (run->kernel->side == SB_KERNEL_COPY)
        return SB_OK;
    if (run->op->pass || run->nstatements > 1)
        return bad(err, exp, run->nstatements > 1 ? SB_K_STATEMENTS : SB_K_OP, "kernel %s "
                   "leaves no page in the buffer for an executor pass: it needs op none and no "
                   "statements", k);
    if (run->writeback != SB_WRITEBACK_NONE)
        return bad(err, exp, SB_K_WRITEBACK, "%s: kernel %s leaves no page to write back "
                   "(writeback = none)", text_of(exp, idx, SB_K_WRITEBACK), k);
    if (run->extra_ppm)
        return bad(err, exp, SB_K_EXTRA_COPY, "kernel %s: the extra copies are checked as "
                   "copies (extra_copy = 0)", k);
    if (run->shared_pool)
        return bad(err, exp, SB_K_SHARED_POOL, "kernel %s: the shared pool's buffers are "
                   "checked as copies (shared_pool = no)", k);
    return SB_OK;
}

int sb_plan_check_placements(const struct sb_experiment *exp, const struct sb_run_params *run,
                             struct sb_error *err)
{
    char why[256];

    if (!sb_placement_check(&run->iocache_node, why, sizeof why))
        return bad(err, exp, SB_K_IOCACHE_NODE, "%s", why);
    if (!sb_placement_check(&run->pool_node, why, sizeof why))
        return bad(err, exp, SB_K_POOL_NODE, "%s", why);
    return SB_OK;
}

/* Threads: no more than the cores without oversubscribe; counters count one scanner; the
 * shared pool is clock-swept and needs buffers to spare. */
int sb_plan_check_concurrency(const struct sb_experiment *exp, const int *idx,
                              const struct sb_run_params *run, struct plan_host *host,
                              struct sb_error *err)
{
    char why[256];
    uint64_t nbuffers = run->pool_size / run->page_size;

    if (run->threads > 1 && !host->cores_read) {
        struct sb_topology topo;
        cpu_set_t allowed;
        sb_topology_detect(&topo, "");
        host->cores = topo.cores;
        host->cpus = sb_cpus_allowed(&allowed, host->cpu_list, sizeof host->cpu_list);
        host->cores_read = true;
    }
    if (run->threads > 1 && host->cores.value && run->threads > host->cores.value &&
        !number_of(exp, idx, SB_K_OVERSUBSCRIBE)) {
        snprintf(why, sizeof why, "%u scanners but this host has %llu cores (%s); "
                 "--set oversubscribe=yes runs them anyway", run->threads,
                 (unsigned long long)host->cores.value, host->cores.source);
        return bad(err, exp, SB_K_THREADS, "%s", why);
    }
    /* each scanner its own core: as many CPUs as scanners where the process may run (the
     * aggressor's rule, sb_aggressor_cpu) */
    if (run->threads > 1 && host->cpus && run->threads > (uint32_t)host->cpus &&
        !number_of(exp, idx, SB_K_OVERSUBSCRIBE)) {
        snprintf(why, sizeof why, "%u scanners but this process may use %s %s (%s); "
                 "--set oversubscribe=yes runs them anyway", run->threads,
                 host->cpus == 1 ? "only CPU" : "the CPUs", host->cpu_list,
                 "sched_getaffinity: taskset or a cpuset");
        return bad(err, exp, SB_K_THREADS, "%s", why);
    }
    if (sb_run_concurrent(run) && strcmp(run->counters->name, "none") != 0)
        return bad(err, exp, run->threads > 1 ? SB_K_THREADS : SB_K_SHARED_POOL,
                   "counters=%s counts one scanner's own scan: concurrent scans and the shared "
                   "pool need counters=none", run->counters->name);
    if (run->shared_pool && strcmp(run->policy->name, "clock") != 0)
        return bad(err, exp, SB_K_SHARED_POOL, "the shared pool is clock-swept: policy %s is "
                   "per scanner (shared_pool=no gives each scanner its own)",
                   run->policy->name);
    if (run->shared_pool && nbuffers < 2ull * run->threads) {
        snprintf(why, sizeof why, "%llu buffers are too few to share among %u scanners (at "
                 "least 2 each)", (unsigned long long)nbuffers, run->threads);
        return bad(err, exp, SB_K_POOL_SIZE, "%s", why);
    }
    return SB_OK;
}

/* --- contention on purpose (host/aggressor.h) ---------------------------------------------- */

/* The aggressor's buffers, all of them. */
static uint64_t aggressor_bytes(const struct sb_plan *plan)
{
    return plan->contention.working_set_bytes * plan->contention.buffers;
}

/* The L3 (else the L2: l3 false) the aggressor is sized on, with the plan's overrides. */
static uint64_t llc_of(const struct sb_plan *plan, bool *l3)
{
    struct sb_topology topo;

    sb_topology_detect(&topo, "");
    for (int l = 0; l < SB_NLEVELS; l++)
        if (plan->override_size[l])
            sb_topology_override_size(&topo, l, plan->override_size[l]);
    *l3 = topo.cache[SB_L3].size.value != 0;
    return *l3 ? topo.cache[SB_L3].size.value : topo.cache[SB_L2].size.value;
}

int sb_plan_check_contention(const struct sb_experiment *exp, struct sb_plan *plan,
                             const struct sb_mem_limit *limit, struct sb_error *err)
{
    const char *name = exp->settings[SB_K_CONTENTION].values[0];
    enum sb_contention_kind kind = SB_CONTENTION_NONE;
    uint32_t scanners = 1;
    uint64_t need, most = 0, llc;
    char why[256], a[32], b[32];
    bool l3 = false;

    while (sb_contention_names[kind] && strcmp(sb_contention_names[kind], name) != 0)
        kind++;
    llc = kind == SB_CONTENTION_NONE ? 0 : llc_of(plan, &l3);
    if (!sb_aggressor_size(kind, llc, l3, &plan->contention, why, sizeof why))
        return bad(err, exp, SB_K_CONTENTION, "%s needs %s", name, why);
    if (kind == SB_CONTENTION_NONE)
        return SB_OK;
    for (size_t i = 0; i < plan->nruns; i++) {
        if (plan->runs[i].threads > scanners)
            scanners = plan->runs[i].threads;
        if (memory_need(&plan->runs[i], &need) && need > most)
            most = need;
    }
    if (!sb_aggressor_cpu(scanners, &plan->contention.cpu, why, sizeof why))
        return bad(err, exp, SB_K_CONTENTION, "%s needs %s", name, why);
    if (__builtin_add_overflow(most, aggressor_bytes(plan), &need) || need > limit->bytes)
        return bad(err, exp, SB_K_CONTENTION, "%s: the aggressor's %u x %s beside a run's %s is "
                   "more than this host can give (%s, %s)", name, plan->contention.buffers,
                   sb_format_size(plan->contention.working_set_bytes, a, sizeof a),
                   sb_format_size(most, b, sizeof b),
                   sb_format_size(limit->bytes & ~((1ull << 20) - 1), (char[32]){0}, 32),
                   limit->source);
    return SB_OK;
}

/* What the reference (a second instance of the first run: its pools and its scanners' stacks
 * its own, and its tables where the first run writes back into them) and, with key layout
 * random or hugepages, a draw (one pool copied into a fresh mapping before the old one goes;
 * 2MB more for a huge-page mapping's alignment) add to an interleaved schedule. */
static uint64_t layout_bytes(const struct sb_plan *plan)
{
    uint64_t most = 0, ref;

    if (plan->nruns == 0)
        return 0;
    ref = plan->runs[0].pool_size * sb_run_pools(&plan->runs[0]) + thread_bytes(&plan->runs[0]);
    if (plan->runs[0].writeback != SB_WRITEBACK_NONE)
        ref += plan->runs[0].table_size * tables_in_memory(&plan->runs[0]);
    for (size_t i = 0; plan->schedule.layout != SB_LAYOUT_FIXED && i < plan->nruns; i++)
        if (plan->runs[i].pool_size > most)
            most = plan->runs[i].pool_size;
    if (most && plan->schedule.layout == SB_LAYOUT_HUGEPAGES)
        most += 2ull << 20;
    return ref + most;
}

/* An interleaved schedule holds every run's pools and models, and every table, at once, every
 * run's scanner threads (each run's team starts when it is prepared, before the rounds), the
 * reference's pools and a draw's (layout_bytes), and the aggressor's buffers. */
int sb_plan_check_memory_together(const struct sb_experiment *exp, const struct sb_plan *plan,
                                  const struct sb_mem_limit *limit, struct sb_error *err)
{
    uint64_t need = SB_RUN_OVERHEAD_BYTES, tables = 0, pools = 0, models = 0, stacks = 0;
    char a[32], b[32], c[32], d[32], e[48] = "", s[48] = "", l[96] = "", what[1024];
    bool overflow = false;

    for (size_t i = 0; i < plan->nruns; i++) {
        const struct sb_run_params *run = &plan->runs[i];
        uint32_t most = tables_in_memory(run);
        size_t j;
        for (j = 0; j < i && !sb_plan_same_table(&plan->runs[j], run); j++)
            ;
        for (size_t k = i + 1; j == i && k < plan->nruns; k++)
            if (sb_plan_same_table(&plan->runs[k], run) && tables_in_memory(&plan->runs[k]) > most)
                most = tables_in_memory(&plan->runs[k]);
        if (j == i)
            overflow |= __builtin_add_overflow(tables, run->table_size * most, &tables);
        overflow |= __builtin_add_overflow(pools, run->pool_size * sb_run_pools(run), &pools);
        overflow |= __builtin_add_overflow(stacks, thread_bytes(run), &stacks);
        if (model_bytes(run) > models) /* one model at a time: made for the replays, then freed */
            models = model_bytes(run);
    }
    overflow |= __builtin_add_overflow(need, tables, &need) ||
                __builtin_add_overflow(need, pools, &need) ||
                __builtin_add_overflow(need, models, &need) ||
                __builtin_add_overflow(need, stacks, &need) ||
                __builtin_add_overflow(need, aggressor_bytes(plan), &need) ||
                __builtin_add_overflow(need, layout_bytes(plan), &need);
    if (!overflow && need <= limit->bytes)
        return SB_OK;
    if (aggressor_bytes(plan))
        snprintf(e, sizeof e, " + the aggressor %s",
                 sb_format_size(aggressor_bytes(plan), (char[32]){0}, 32));
    if (stacks)
        snprintf(s, sizeof s, " + stacks %s", sb_format_size(stacks & ~4095ull, (char[32]){0}, 32));
    if (layout_bytes(plan))
        snprintf(l, sizeof l, " + the reference's pool and a layout's draw %s",
                 sb_format_size(layout_bytes(plan), (char[32]){0}, 32));
    snprintf(what, sizeof what, "the %zu runs interleaved hold tables %s + pools %s%s%s + a model "
             "%s%s + %s overhead at once: more than this host can give (%s, %s); "
             "schedule=blocked holds one run at a time", plan->nruns,
             sb_format_size(tables, a, sizeof a), sb_format_size(pools, b, sizeof b), l, s,
             sb_format_size(models, c, sizeof c), e,
             sb_format_size(SB_RUN_OVERHEAD_BYTES, d, sizeof d),
             sb_format_size(limit->bytes & ~((1ull << 20) - 1), (char[32]){0}, 32),
             limit->source);
    return bad(err, exp, SB_K_SCHEDULE, "%s", what);
}
