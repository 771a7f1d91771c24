/* plan.c: from an experiment's settings to a checked list of runs. */
#include "config.h"
#include "plan/plan.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "cachesim/cachesim.h"
#include "core/core.h"
#include "counters/counters.h"
#include "host/host.h"
#include "vocab/vocab.h"

/* The value of key for the run at position idx of the product. */
static const char *text_of(const struct sb_experiment *exp, const int *idx, enum sb_key_id key)
{
    return exp->settings[key].values[idx[key]];
}

static uint64_t number_of(const struct sb_experiment *exp, const int *idx, enum sb_key_id key)
{
    return exp->settings[key].numbers[idx[key]];
}

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

uint32_t sb_run_tables(const struct sb_run_params *run)
{
    return run->threads > 1 && !run->shared_table ? run->threads : 1;
}

uint32_t sb_run_pools(const struct sb_run_params *run)
{
    return run->threads > 1 && !run->shared_pool ? run->threads : 1;
}

bool sb_run_concurrent(const struct sb_run_params *run)
{
    return run->threads > 1 || run->shared_pool;
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

/* Tables in RAM + pools + the model + overhead; false when that overflows. */
static bool memory_need(const struct sb_run_params *run, uint64_t *need)
{
    uint64_t tables, pools;
    return !__builtin_mul_overflow(run->table_size, tables_in_memory(run), &tables) &&
           !__builtin_mul_overflow(run->pool_size, sb_run_pools(run), &pools) &&
           !__builtin_add_overflow(tables, pools, need) &&
           !__builtin_add_overflow(*need, model_bytes(run), need) &&
           !__builtin_add_overflow(*need, SB_RUN_OVERHEAD_BYTES, need);
}

/* The watchdog's limit: run_timeout, or 600 s plus 1 s per 20MB the run copies (every table
 * read and written by the build, the validation scan, the warm-up and the timed scans) plus,
 * with the cache model, 1 s per million lines it replays (three per line of a timed scan). */
static double run_timeout_of(const struct sb_experiment *exp, const int *idx,
                             const struct sb_run_params *run)
{
    /* repetitions = auto: as many rounds as the schedule may make */
    double rounds = number_of(exp, idx, SB_K_REPETITIONS) ? run->repetitions : SB_AUTO_ROUNDS_MAX;
    double scans = 2.0 + run->warmup + 2.0 * rounds;
    double bytes = 2.0 * (double)run->table_size * sb_run_tables(run) * scans;
    double lines = run->machine ? 3.0 * (double)run->table_size / 64 * 3 : 0;

    if (number_of(exp, idx, SB_K_RUN_TIMEOUT))
        return (double)number_of(exp, idx, SB_K_RUN_TIMEOUT);
    return 600.0 + bytes / 20e6 + lines / 1e6 + 2.0 * rounds * run->min_scan_seconds;
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

static int check_run(const struct sb_experiment *exp, const int *idx, struct sb_run_params *run,
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
    if (!memory_need(run, &need) || need > limit->bytes) {
        char what[1024], table[64] = "", model[64] = ""; /* the limit names a cgroup file */
        if (tables_in_memory(run))
            snprintf(table, sizeof table, "table %s%s + ",
                     sb_format_size(run->table_size, a, sizeof a), times(tables_in_memory(run)));
        if (model_bytes(run))
            snprintf(model, sizeof model, " + model %s (%s)",
                     sb_format_size(model_bytes(run) & ~((1ull << 20) - 1), c, sizeof c),
                     run->machine->name);
        snprintf(what, sizeof what, "%spool %s%s%s + %s overhead is more than this host can give "
                 "(%s, %s)", table, sb_format_size(run->pool_size, b, sizeof b),
                 times(sb_run_pools(run)), model,
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

/* What the checks below learn once per plan. */
struct plan_host {
    bool data_dir_ok;          /* a scratch file was made in data_dir */
    struct sb_figure cores;    /* read when a run has threads > 1 */
    bool cores_read;
};

/* The scratch directory of source file: data_dir, else $TMPDIR, else /tmp. */
static const char *data_dir_of(const struct sb_experiment *exp)
{
    const char *set = exp->settings[SB_K_DATA_DIR].values[0], *tmp = getenv("TMPDIR");
    return set[0] ? set : tmp && tmp[0] ? tmp : "/tmp";
}

static void resolve_data_dir(const struct sb_experiment *exp, char *dir, size_t len)
{
    snprintf(dir, len, "%s", data_dir_of(exp));
}

/* When a run reads a file: its directory must fit a run's data_dir and be UTF-8 (the report
 * says it). data_dir itself is checked when read; $TMPDIR here. */
static int check_data_dir(const struct sb_experiment *exp, struct sb_error *err)
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
static int check_sim_threads(const struct sb_experiment *exp, struct sb_error *err)
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
static int check_source(const struct sb_experiment *exp, struct sb_run_params *run,
                        struct plan_host *host, struct sb_error *err)
{
    char a[32], b[32], why[1024]; /* with data_dir */
    struct statvfs fs;
    uint64_t need, free_bytes;

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

static int check_placements(const struct sb_experiment *exp, const struct sb_run_params *run,
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
static int check_concurrency(const struct sb_experiment *exp, const int *idx,
                             const struct sb_run_params *run, struct plan_host *host,
                             struct sb_error *err)
{
    char why[256];
    uint64_t nbuffers = run->pool_size / run->page_size;

    if (run->threads > 1 && !host->cores_read) {
        struct sb_topology topo;
        sb_topology_detect(&topo, "");
        host->cores = topo.cores;
        host->cores_read = true;
    }
    if (run->threads > 1 && host->cores.value && run->threads > host->cores.value &&
        !number_of(exp, idx, SB_K_OVERSUBSCRIBE)) {
        snprintf(why, sizeof why, "%u scanners but this host has %llu cores (%s); "
                 "--set oversubscribe=yes runs them anyway", run->threads,
                 (unsigned long long)host->cores.value, host->cores.source);
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

/* The experiment's name and every listed key's value ("default op=count policy=clock"), shortened
 * between two characters with "..." when it passes SB_RUN_NAME_MAX (said once in the notes). */
static void name_run(const struct sb_experiment *exp, const int *idx, struct sb_run_params *run,
                     struct sb_plan *plan)
{
    char full[4096];
    size_t used = (size_t)snprintf(full, sizeof full, "%s", exp->settings[SB_K_NAME].values[0]);

    for (int k = 0; k < SB_NKEYS && used < sizeof full; k++) {
        if (exp->settings[k].nvalues < 2)
            continue;
        used += (size_t)snprintf(full + used, sizeof full - used, " %s=%s", sb_keys[k].name,
                                 k == SB_K_KERNEL ? run->kernel->name
                                                  : text_of(exp, idx, (enum sb_key_id)k));
    }
    if (used < sizeof run->name) {
        memcpy(run->name, full, used + 1);
        return;
    }
    used = sb_utf8_fit(full, sizeof run->name - 4);
    snprintf(run->name, sizeof run->name, "%.*s\xe2\x80\xa6", (int)used, full); /* "..." */
    if (!plan->names_shortened) {
        size_t n = strlen(plan->notes);
        snprintf(plan->notes + n, sizeof plan->notes - n, "%srun names shortened to %zu bytes",
                 n ? "; " : "", sizeof run->name - 1);
        plan->names_shortened = true;
    }
}

/* The events map, read and checked before any run when a counting backend that uses one
 * (papi) is asked for, or when `events` names a file: a bad map is bad input. */
static int load_events(const struct sb_experiment *exp, struct sb_events_choice *events,
                       struct sb_error *err)
{
    const struct sb_setting *setting = &exp->settings[SB_K_EVENTS];
    const struct sb_setting *counters = &exp->settings[SB_K_COUNTERS];
    bool wanted = strcmp(setting->values[0], "auto") != 0;

    for (int i = 0; i < counters->nvalues; i++)
        wanted |= strcmp(counters->values[i], "papi") == 0;
    if (!wanted) {
        snprintf(events->why, sizeof events->why, "not read: no backend asked for one");
        return SB_OK;
    }
    return sb_events_choose(setting->values[0], setting->origin, events, err);
}

/* The cache model's machines (one per value of `machine`), read and checked before any run:
 * every named model (a bad machine file is bad input whatever the backend), and `auto` (the
 * host's topology, with the l1d_size.. overrides) when counters=sim asks for it. */
static int load_machines(const struct sb_experiment *exp, struct sb_plan *plan,
                         struct sb_error *err)
{
    const struct sb_setting *setting = &exp->settings[SB_K_MACHINE];
    bool sim = false;

    for (int i = 0; i < exp->settings[SB_K_COUNTERS].nvalues; i++)
        sim |= strcmp(exp->settings[SB_K_COUNTERS].values[i], "sim") == 0;
    plan->machines = calloc((size_t)setting->nvalues, sizeof *plan->machines);
    if (!plan->machines)
        return sb_fail(err, SB_ERR_RUN, "out of memory for the machine models");
    for (int i = 0; i < setting->nvalues; i++) {
        int status;
        if (strcmp(setting->values[i], "auto") == 0) {
            struct sb_topology topo;
            struct sb_cpu_id cpu;
            if (!sim)
                continue;
            sb_topology_detect(&topo, "");
            for (int l = 0; l < SB_NLEVELS; l++)
                if (plan->override_size[l])
                    sb_topology_override_size(&topo, l, plan->override_size[l]);
            if (plan->override_line)
                sb_topology_override_line(&topo, plan->override_line);
            sb_cpu_id_detect(&cpu);
            status = sb_machine_from_topology(&topo, cpu.vendor, &plan->machines[i], err);
        } else {
            status = sb_machine_load(setting->values[i], &plan->machines[i], err);
        }
        if (status != SB_OK) {
            sb_error_prefix(err, "%s: machine", setting->origin);
            return status;
        }
    }
    return SB_OK;
}

const char *const sb_schedule_names[] = {"interleaved", "blocked"};

bool sb_plan_same_table(const struct sb_run_params *a, const struct sb_run_params *b)
{
    return a->source == b->source && a->table_size == b->table_size &&
           a->page_size == b->page_size && a->layout.row_width == b->layout.row_width &&
           a->layout.dead_pct == b->layout.dead_pct &&
           a->iocache_node.kind == b->iocache_node.kind &&
           a->iocache_node.node == b->iocache_node.node &&
           (!a->source->is_file || strcmp(a->data_dir, b->data_dir) == 0);
}

/* An interleaved schedule holds every run's pools and models, and every table, at once. */
static int check_memory_together(const struct sb_experiment *exp, const struct sb_plan *plan,
                                 const struct sb_mem_limit *limit, struct sb_error *err)
{
    uint64_t need = SB_RUN_OVERHEAD_BYTES, tables = 0, pools = 0, models = 0;
    char a[32], b[32], c[32], d[32], what[256];
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
        if (model_bytes(run) > models) /* one model at a time: made for the replays, then freed */
            models = model_bytes(run);
    }
    overflow |= __builtin_add_overflow(need, tables, &need) ||
                __builtin_add_overflow(need, pools, &need) ||
                __builtin_add_overflow(need, models, &need);
    if (!overflow && need <= limit->bytes)
        return SB_OK;
    snprintf(what, sizeof what, "the %zu runs interleaved hold tables %s + pools %s + a model %s "
             "+ %s overhead at once: more than this host can give (%s, %s); schedule=blocked "
             "holds one run at a time", plan->nruns, sb_format_size(tables, a, sizeof a),
             sb_format_size(pools, b, sizeof b), sb_format_size(models, c, sizeof c),
             sb_format_size(SB_RUN_OVERHEAD_BYTES, d, sizeof d),
             sb_format_size(limit->bytes & ~((1ull << 20) - 1), (char[32]){0}, 32),
             limit->source);
    return bad(err, exp, SB_K_SCHEDULE, "%s", what);
}

/* The schedule's keys; an automatic seed from the clock. */
static void schedule_of(const struct sb_experiment *exp, struct sb_schedule_params *s)
{
    const struct sb_setting *seed = &exp->settings[SB_K_SCHEDULE_SEED];

    s->kind = strcmp(exp->settings[SB_K_SCHEDULE].values[0], "blocked") == 0
                  ? SB_SCHEDULE_BLOCKED : SB_SCHEDULE_INTERLEAVED;
    s->rounds = (uint32_t)exp->settings[SB_K_REPETITIONS].numbers[0];
    s->time_budget = (double)exp->settings[SB_K_TIME_BUDGET].numbers[0];
    s->seed_auto = strcmp(seed->values[0], "auto") == 0;
    s->seed = s->seed_auto ? (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) : seed->numbers[0];
}

/* The number of runs the lists make (their product), refused past SB_MAX_RUNS. */
static int count_runs(const struct sb_experiment *exp, size_t *total, struct sb_error *err)
{
    *total = 1;
    for (int k = 0; k < SB_NKEYS; k++) {
        *total *= (size_t)exp->settings[k].nvalues;
        if (*total > SB_MAX_RUNS)
            return sb_fail(err, SB_ERR_INPUT, "%s: %s: the lists make more than %d runs",
                           exp->settings[k].origin, sb_keys[k].name, SB_MAX_RUNS);
    }
    return SB_OK;
}

/* What the plan says of the whole experiment: its names, notes, the topology overrides and the
 * schedule. */
static void plan_header(const struct sb_experiment *exp, struct sb_plan *plan)
{
    snprintf(plan->experiment, sizeof plan->experiment, "%s", exp->settings[SB_K_NAME].values[0]);
    snprintf(plan->description, sizeof plan->description, "%s",
             exp->settings[SB_K_DESCRIPTION].values[0]);
    snprintf(plan->config_source, sizeof plan->config_source, "%s", exp->source);
    snprintf(plan->notes, sizeof plan->notes, "%s", exp->notes);
    plan->override_size[0] = exp->settings[SB_K_L1D_SIZE].numbers[0];
    plan->override_size[1] = exp->settings[SB_K_L2_SIZE].numbers[0];
    plan->override_size[2] = exp->settings[SB_K_L3_SIZE].numbers[0];
    plan->override_line = exp->settings[SB_K_LINE_SIZE].numbers[0];
    schedule_of(exp, &plan->schedule);
}

/* Run r's parameters: idx (the mixed-radix digits of r, the last key varying fastest) picks
 * each key's value. */
static void fill_run(const struct sb_experiment *exp, size_t r, int *idx,
                     const struct sb_plan *plan, struct sb_run_params *run)
{
    memset(run, 0, sizeof *run); /* a slot a skipped run left */
    for (int k = SB_NKEYS - 1; k >= 0; k--) {
        idx[k] = (int)(r % (size_t)exp->settings[k].nvalues);
        r /= (size_t)exp->settings[k].nvalues;
    }
    run->source = sb_source_find(text_of(exp, idx, SB_K_SOURCE));
    run->bigtable = number_of(exp, idx, SB_K_BIGTABLE) != 0;
    resolve_data_dir(exp, run->data_dir, sizeof run->data_dir);
    sb_placement_parse(text_of(exp, idx, SB_K_IOCACHE_NODE), &run->iocache_node);
    sb_placement_parse(text_of(exp, idx, SB_K_POOL_NODE), &run->pool_node);
    run->shared_table = number_of(exp, idx, SB_K_SHARED_TABLE) != 0;
    run->shared_pool = number_of(exp, idx, SB_K_SHARED_POOL) != 0;
    run->table_size = number_of(exp, idx, SB_K_TABLE_SIZE);
    run->pool_size = number_of(exp, idx, SB_K_POOL_SIZE);
    run->ring_size = number_of(exp, idx, SB_K_RING_SIZE);
    run->page_size = (uint32_t)number_of(exp, idx, SB_K_PAGE_SIZE);
    run->op = sb_op_find(text_of(exp, idx, SB_K_OP));
    run->kernel = sb_kernel_find(text_of(exp, idx, SB_K_KERNEL));
    run->policy = sb_policy_find(text_of(exp, idx, SB_K_POLICY));
    run->threads = (uint32_t)number_of(exp, idx, SB_K_THREADS);
    /* a run alone (and a server run) with repetitions = auto makes the rounds' minimum */
    run->repetitions = plan->schedule.rounds ? plan->schedule.rounds : SB_AUTO_ROUNDS_MIN;
    run->warmup = (uint32_t)number_of(exp, idx, SB_K_WARMUP);
    run->min_scan_seconds = (double)number_of(exp, idx, SB_K_MIN_SCAN_MS) / 1000.0;
    run->seed = number_of(exp, idx, SB_K_SEED);
    run->counters = sb_counter_backend_find(text_of(exp, idx, SB_K_COUNTERS));
    run->events = &plan->events;
    run->require_counters = number_of(exp, idx, SB_K_REQUIRE_COUNTERS) != 0;
    run->machine = strcmp(run->counters->name, "sim") == 0
                       ? &plan->machines[idx[SB_K_MACHINE]] : NULL;
    run->prefetch = strcmp(text_of(exp, idx, SB_K_PREFETCH), "machine") == 0 ? -1
                    : strcmp(text_of(exp, idx, SB_K_PREFETCH), "yes") == 0;
    run->run_timeout = run_timeout_of(exp, idx, run);
}

/* Every run of the lists, filled, checked and named into plan->runs (room for total); a file
 * run copies with pread whatever the kernel: one run, not one per kernel. */
static int plan_runs(const struct sb_experiment *exp, const struct sb_mem_limit *limit,
                     size_t total, struct sb_plan *plan, struct sb_error *err)
{
    int idx[SB_NKEYS] = {0};
    int status = SB_OK;
    struct plan_host host = {0};

    for (size_t r = 0; r < total && status == SB_OK; r++) {
        struct sb_run_params *run = &plan->runs[plan->nruns];
        fill_run(exp, r, idx, plan, run);
        if (run->source->is_file && idx[SB_K_KERNEL] > 0)
            continue;
        status = check_run(exp, idx, run, limit, err);
        if (status == SB_OK)
            status = check_source(exp, run, &host, err);
        name_run(exp, idx, run, plan);
        if (status == SB_OK)
            status = check_placements(exp, run, err);
        if (status == SB_OK)
            status = check_concurrency(exp, idx, run, &host, err);
        if (status == SB_OK)
            plan->nruns++;
    }
    return status;
}

int sb_plan_build(const struct sb_experiment *exp, const struct sb_mem_limit *limit,
                  struct sb_plan *plan, struct sb_error *err)
{
    size_t total;
    int status;

    memset(plan, 0, sizeof *plan);
    status = count_runs(exp, &total, err);
    if (status != SB_OK)
        return status;
    plan_header(exp, plan);
    status = check_data_dir(exp, err);
    if (status == SB_OK)
        status = check_sim_threads(exp, err);
    if (status == SB_OK)
        status = load_events(exp, &plan->events, err);
    if (status == SB_OK)
        status = load_machines(exp, plan, err);
    if (status == SB_OK && !(plan->runs = calloc(total, sizeof *plan->runs)))
        status = sb_fail(err, SB_ERR_RUN, "out of memory for %zu runs", total);
    if (status == SB_OK)
        status = plan_runs(exp, limit, total, plan, err);
    if (status == SB_OK && plan->schedule.kind == SB_SCHEDULE_INTERLEAVED)
        status = check_memory_together(exp, plan, limit, err);
    if (status != SB_OK)
        sb_plan_free(plan);
    return status;
}

void sb_plan_free(struct sb_plan *plan)
{
    free(plan->runs);
    plan->runs = NULL;
    plan->nruns = 0;
    sb_events_choice_free(&plan->events);
    free(plan->machines);
    plan->machines = NULL;
}

void sb_run_counting(const struct sb_run_params *run, struct sb_counting *c)
{
    *c = (struct sb_counting){run->name, run->require_counters, run->events, run->machine,
                             run->prefetch, run->op};
}
