/* experiment.c: the key registry (the core INI reader's table for [experiment]), reading files
 * and --set through that reader (core/ini_keys.c: every value knows its file and line, and the
 * structure of the file is checked there), and per-value checks (type, range, registry names).
 * Checks that involve several keys (ring larger than pool, memory) are in plan.c. */
#include "config.h"
#include "plan/experiment.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "counters/counters.h"
#include "host/host.h"
#include "vocab/vocab.h"

#define KB 1024ull
#define GB (1024ull * 1024 * 1024)

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
    [SB_K_L1D_SIZE] = {.name = "l1d_size", .type = SB_INI_SIZE, .min = 1, .max = GB,
                       .or_word = "auto", .default_value = "auto", .help = "L1 data cache size "
                       "override (auto: hwloc, else sysfs, else CPUID)"},
    [SB_K_L2_SIZE] = {.name = "l2_size", .type = SB_INI_SIZE, .min = 1, .max = GB,
                      .or_word = "auto", .default_value = "auto", .help = "L2 size override"},
    [SB_K_L3_SIZE] = {.name = "l3_size", .type = SB_INI_SIZE, .min = 1, .max = 64 * GB,
                      .or_word = "auto", .default_value = "auto", .help = "L3 size override"},
    [SB_K_LINE_SIZE] = {.name = "line_size", .type = SB_INI_SIZE, .min = 1, .max = 4 * KB,
                        .or_word = "auto", .default_value = "auto", .help = "cache line size "
                        "override"},
    [SB_K_RUN_TIMEOUT] = {.name = "run_timeout", .type = SB_INI_UINT, .min = 0,
                          .max = 30 * 24 * 3600, .default_value = "0", .help = "seconds a run "
                          "may take before the watchdog stops it (0: 600 s + 1 s per 20MB the "
                          "run reads and writes)"},
    [SB_K_PLAN_LIMIT] = {.name = "plan_limit", .type = SB_INI_UINT, .min = 0,
                         .max = 365 * 24 * 3600, .default_value = "14400", .help = "seconds "
                         "past which a plan is refused before it runs: the least its scans take "
                         "on any host, or with repetitions auto its time budget (0: no limit)"},
    [SB_NKEYS] = {0},
};

enum sb_key_id sb_key_find(const char *name)
{
    for (int k = 0; k < SB_NKEYS; k++)
        if (strcmp(sb_keys[k].name, name) == 0)
            return (enum sb_key_id)k;
    return SB_NKEYS;
}

int sb_statements_parse(const char *text, const struct sb_op **ops, uint32_t *n,
                        struct sb_error *err)
{
    char *copy = strdup(text), *cursor = copy, *item;
    int status = copy ? SB_OK : sb_fail(err, SB_ERR_RUN, "out of memory");

    *n = 0;
    if (status == SB_OK && sb_ini_trim(copy)[0] == '\0') {
        free(copy);
        return SB_OK;
    }
    while (status == SB_OK && (item = sb_ini_list_next(&cursor)) != NULL) {
        const struct sb_op *op = item[0] ? sb_statement_find(item) : NULL;
        char known[128] = "select";
        for (const struct sb_op *o = sb_ops; o->name; o++)
            snprintf(known + strlen(known), sizeof known - strlen(known), ", %s", o->name);
        if (!op)
            status = sb_fail(err, SB_ERR_INPUT, "\"%s\" in \"%s\" is not a statement (known: "
                             "%s)", item, text, known);
        else if (*n == SB_MAX_STATEMENTS)
            status = sb_fail(err, SB_ERR_INPUT, "more than %d statements", SB_MAX_STATEMENTS);
        else
            ops[(*n)++] = op;
    }
    free(copy);
    return status;
}

/* A kernel that is known: SB_OK if this CPU runs it. */
static int kernel_runs_here(const struct sb_kernel *k, const char *value, struct sb_error *err)
{
    if (!k->supported())
        return sb_fail(err, SB_ERR_INPUT, "\"%s\" needs %s, which this CPU lacks", value,
                       k->requires);
    return SB_OK;
}

/* A name from one of the registries (kernel, op, policy, source, counters): SB_OK when value is
 * one, else an error (into err) listing the registry's names; -1 when key names no registry. */

static int check_registry_name(enum sb_key_id key, const char *value, struct sb_error *err)
{
    char known[256] = "";
    size_t used = 0;
    const struct sb_kernel *k;

#define KNOWN(table)                                                                          \
    for (size_t i = 0; (table)[i].name; i++)                                                 \
        used += (size_t)snprintf(known + used, used < sizeof known ? sizeof known - used : 0, \
                                 "%s%s", i ? ", " : "", (table)[i].name)

    switch (key) {
    case SB_K_KERNEL:
        if ((k = sb_kernel_find(value)))
            return kernel_runs_here(k, value, err);
        KNOWN(sb_kernels);
        used += (size_t)snprintf(known + used, used < sizeof known ? sizeof known - used : 0,
                                 ", %s, %s, %s", sb_kernel_pread.name, sb_kernel_read.name,
                                 sb_kernel_write.name);
        break;
    case SB_K_OP:
        if (sb_op_find(value))
            return SB_OK;
        KNOWN(sb_ops);
        break;
    case SB_K_EXECUTOR:
        if (sb_executor_find(value))
            return SB_OK;
        KNOWN(sb_executors);
        break;
    case SB_K_POLICY:
        if (sb_policy_find(value))
            return SB_OK;
        KNOWN(sb_policies);
        break;
    case SB_K_SOURCE:
        if (sb_source_find(value))
            return SB_OK;
        KNOWN(sb_sources);
        break;
    case SB_K_COUNTERS:
        if (sb_counter_backend_find(value))
            return SB_OK;
        KNOWN(sb_counter_backends);
        break;
    case SB_K_WRITEBACK:
        if (sb_writeback_find(value))
            return SB_OK;
        KNOWN(sb_writebacks);
        break;
    case SB_K_WRITEBACK_KERNEL: {
        if ((k = sb_writeback_kernel_find(value)))
            return kernel_runs_here(k, value, err);
        if (strcmp(value, "auto") == 0)
            return SB_OK;
        used = (size_t)snprintf(known, sizeof known, "auto, ");
        KNOWN(sb_kernels);
        used += (size_t)snprintf(known + used, used < sizeof known ? sizeof known - used : 0,
                                 ", %s, %s", sb_kernel_solaris_nta.name, sb_kernel_pwrite.name);
        break;
    }
    default:
        return -1;
    }
#undef KNOWN
    return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a known %s (known: %s)", value,
                   sb_keys[key].name, known);
}

/* A name key takes: from a registry, a placement, or one of a key's few words. */
static int check_name(enum sb_key_id key, const char *value, struct sb_error *err)
{
    const char *known;
    struct sb_placement placement;
    int status = check_registry_name(key, value, err);

    if (status != -1)
        return status;
    switch (key) {
    case SB_K_IOCACHE_NODE:
    case SB_K_POOL_NODE:
        if (sb_placement_parse(value, &placement))
            return SB_OK;
        return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a placement (local, remote, "
                       "interleave, or a node number)", value);
    case SB_K_PREFETCH:
        if (strcmp(value, "machine") == 0 || strcmp(value, "no") == 0 || strcmp(value, "yes") == 0)
            return SB_OK;
        known = "machine, no, yes";
        break;
    case SB_K_SCHEDULE:
        if (strcmp(value, "interleaved") == 0 || strcmp(value, "blocked") == 0)
            return SB_OK;
        known = "interleaved, blocked";
        break;
    case SB_K_HINT_BITS:
        if (strcmp(value, "set") == 0 || strcmp(value, "unset") == 0)
            return SB_OK;
        known = "set, unset";
        break;
    case SB_K_CONTENTION:
        for (int i = 0; sb_contention_names[i]; i++)
            if (strcmp(value, sb_contention_names[i]) == 0)
                return SB_OK;
        known = "none, stream, l3";
        break;
    default:
        return SB_OK;
    }
    return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a known %s (known: %s)", value,
                   sb_keys[key].name, known);
}

/* extra_copy: a fraction from 0 to 0.5, its number in millionths. */
static int parse_fraction(const char *value, uint64_t *number, struct sb_error *err)
{
    char *end;
    double x;

    errno = 0;
    x = strtod(value, &end);
    if (end == value || *end != '\0' || errno || !isfinite(x) || x < 0 || x > 0.5)
        return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a fraction from 0 to 0.5 (e.g. 0.05)",
                       value);
    *number = (uint64_t)llround(x * 1e6);
    return SB_OK;
}

static int check_value(enum sb_key_id key, const char *value, uint64_t *number,
                       struct sb_error *err)
{
    *number = 0;
    if (key == SB_K_EXTRA_COPY)
        return parse_fraction(value, number, err);
    if (sb_keys[key].type == SB_INI_WORD)
        return check_name(key, value, err);
    return sb_ini_parse(&sb_keys[key], value, number, NULL, err);
}

/* `kernel = all`: every kernel this CPU can run; the others are noted, not refused. */
static int expand_all_kernels(struct sb_experiment *exp, struct sb_setting *next,
                              struct sb_error *err)
{
    size_t used = 0;

    exp->notes[0] = '\0';
    for (const struct sb_kernel *k = sb_kernels; k->name; k++) {
        if (!k->supported()) {
            used += (size_t)snprintf(exp->notes + used, used < sizeof exp->notes ?
                                     sizeof exp->notes - used : 0, "%skernel %s skipped: this "
                                     "CPU lacks %s", used ? "; " : "", k->name, k->requires);
            continue;
        }
        if (next->nvalues == SB_MAX_LIST)
            return sb_fail(err, SB_ERR_INPUT, "more than %d values", SB_MAX_LIST);
        next->values[next->nvalues] = strdup(k->name);
        if (!next->values[next->nvalues])
            return sb_fail(err, SB_ERR_RUN, "out of memory");
        next->nvalues++;
    }
    return SB_OK;
}

static void setting_clear(struct sb_setting *s)
{
    for (int i = 0; i < s->nvalues; i++)
        free(s->values[i]);
    s->nvalues = 0;
    free(s->origin);
    s->origin = NULL;
}

/* The most bytes a text key's value may have: what its field holds (name and description in
 * the plan and the report, data_dir in a run), never cut. */
static size_t text_max(enum sb_key_id key)
{
    switch (key) {
    case SB_K_NAME:
        return SB_NAME_MAX - 1;
    case SB_K_DESCRIPTION:
        return SB_DESCRIPTION_MAX - 1;
    case SB_K_DATA_DIR:
        return SB_DATA_DIR_MAX - 1;
    default:
        return SB_PATH_MAX - 1; /* events: a name or a path */
    }
}

/* Checks the whole text of a value before it is split: UTF-8 (it may reach the report), and a
 * text no longer than its field (a machine's path is checked when the model is read). */
static int check_text(enum sb_key_id key, const char *text, struct sb_error *err)
{
    if (!sb_utf8_valid(text))
        return sb_fail(err, SB_ERR_INPUT, "the value is not UTF-8 (a report holds UTF-8 text "
                       "only)");
    if (sb_keys[key].type == SB_INI_TEXT && strlen(text) > text_max(key))
        return sb_fail(err, SB_ERR_INPUT, "%zu bytes: at most %zu (\"%.*s...\")", strlen(text),
                       text_max(key), (int)sb_utf8_fit(text, 40), text);
    return SB_OK;
}

/* Whether item (its number parsed into the next slot) is already in the list so far: the same
 * size or whole number (16M and 16384K), or the same text for anything else. */
static bool repeated(int key, const struct sb_setting *list, const char *item)
{
    for (int v = 0; v < list->nvalues; v++)
        if (sb_keys[key].type == SB_INI_SIZE || sb_keys[key].type == SB_INI_UINT
                ? list->numbers[v] == list->numbers[list->nvalues]
                : strcmp(list->values[v], item) == 0)
            return true;
    return false;
}

/* Parses "value" or "v1, v2, ..." into the setting of key; on error the message starts with
 * the key's name. origin is recorded on success. */
static int assign(struct sb_experiment *exp, enum sb_key_id key, const char *text,
                  const char *origin, struct sb_error *err)
{
    struct sb_setting next = {0};
    char *copy = strdup(text), *cursor, *item;
    int status = check_text(key, text, err);

    if (!copy)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    if (status != SB_OK)
        goto done;
    cursor = copy;
    if (key == SB_K_STATEMENTS) {
        const struct sb_op *ops[SB_MAX_STATEMENTS];
        uint32_t n;
        status = sb_statements_parse(text, ops, &n, err);
        if (status != SB_OK)
            goto done;
    }
    if (sb_keys[key].type == SB_INI_TEXT) {
        next.values[next.nvalues++] = strdup(sb_ini_trim(copy));
        goto done;
    }
    while ((item = sb_ini_list_next(&cursor)) != NULL) {
        if (*item == '\0') {
            status = sb_fail(err, SB_ERR_INPUT, "empty value in \"%s\"", text);
            goto done;
        }
        if (next.nvalues == SB_MAX_LIST) {
            status = sb_fail(err, SB_ERR_INPUT, "more than %d values", SB_MAX_LIST);
            goto done;
        }
        if (key == SB_K_KERNEL && strcmp(item, "all") == 0) {
            status = expand_all_kernels(exp, &next, err);
            if (status != SB_OK)
                goto done;
            continue;
        }
        status = check_value(key, item, &next.numbers[next.nvalues], err);
        if (status == SB_OK && repeated(key, &next, item))
            status = sb_fail(err, SB_ERR_INPUT, "\"%s\" twice in the list: each value once (a "
                             "repeated value would make two runs of one name)", item);
        if (status != SB_OK)
            goto done;
        next.values[next.nvalues] = strdup(item);
        if (!next.values[next.nvalues]) {
            status = sb_fail(err, SB_ERR_RUN, "out of memory");
            goto done;
        }
        next.nvalues++;
    }
    if (next.nvalues > 1 && !sb_keys[key].list)
        status = sb_fail(err, SB_ERR_INPUT, "takes one value, not a list");

done:
    free(copy);
    if (status == SB_OK && (!next.values[0] || !(next.origin = strdup(origin))))
        status = sb_fail(err, SB_ERR_RUN, "out of memory");
    if (status == SB_OK) {
        setting_clear(&exp->settings[key]);
        exp->settings[key] = next;
    } else {
        setting_clear(&next);
    }
    return status;
}

void sb_experiment_keep_first(struct sb_experiment *exp, enum sb_key_id key)
{
    struct sb_setting *s = &exp->settings[key];

    for (int i = 1; i < s->nvalues; i++)
        free(s->values[i]);
    if (s->nvalues > 1)
        s->nvalues = 1;
}

int sb_experiment_init(struct sb_experiment *exp, struct sb_error *err)
{
    memset(exp, 0, sizeof *exp);
    snprintf(exp->source, sizeof exp->source, "defaults");
    for (int k = 0; k < SB_NKEYS; k++) {
        int status = assign(exp, (enum sb_key_id)k, sb_keys[k].default_value, "default", err);
        if (status != SB_OK)
            return status;
    }
    return SB_OK;
}

void sb_experiment_free(struct sb_experiment *exp)
{
    for (int k = 0; k < SB_NKEYS; k++)
        setting_clear(&exp->settings[k]);
}

/* --- INI reading ---------------------------------------------------------------------------- */

/* `figure = OP POLICY SIZE: VALUE UNIT`, e.g. `count clock 16MB: 1221 MB/s`. */
static int thread_figure(struct sb_thread *t, const char *value, struct sb_error *err)
{
    struct sb_thread_figure *f;
    char size[32], unit[16];
    int used = 0;

    if (t->nfigures == SB_MAX_THREAD_FIGURES)
        return sb_fail(err, SB_ERR_INPUT, "more than %d figures", SB_MAX_THREAD_FIGURES);
    f = &t->figures[t->nfigures];
    if (sscanf(value, "%15s %15s %31[^:]: %lf %15s%n", f->op, f->policy, size, &f->value, unit,
               &used) != 5 || value[used] != '\0')
        return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not `OP POLICY SIZE: VALUE MB/s|s`", value);
    if (!sb_op_find(f->op) || !sb_policy_find(f->policy))
        return sb_fail(err, SB_ERR_INPUT, "\"%s\": unknown op or policy", value);
    if (!sb_parse_size(size, &f->footprint))
        return sb_fail(err, SB_ERR_INPUT, "\"%s\": \"%s\" is not a size", value, size);
    if (strcmp(unit, "MB/s") != 0 && strcmp(unit, "s") != 0)
        return sb_fail(err, SB_ERR_INPUT, "\"%s\": the unit is MB/s or s", value);
    if (!(f->value > 0) || !isfinite(f->value))
        return sb_fail(err, SB_ERR_INPUT, "\"%s\": the figure must be a positive number", value);
    snprintf(f->unit, sizeof f->unit, "%s", unit);
    t->nfigures++;
    return SB_OK;
}

/* The [thread] keys, in the order of the fields of struct sb_thread; figure may be given many
 * times. Their values are checked here (thread_key), not by the reader. */
static const struct sb_ini_key thread_keys[] = {
    {.name = "who", .type = SB_INI_TEXT, .help = "who ran it, when, on what"},
    {.name = "machine", .type = SB_INI_TEXT, .help = "the model of that machine"},
    {.name = "table", .type = SB_INI_TEXT, .help = "what the table was"},
    {.name = "table_size", .type = SB_INI_WORD, .help = "the thread's table (a size)"},
    {.name = "slow", .type = SB_INI_TEXT, .help = "the placement found slow"},
    {.name = "fast", .type = SB_INI_TEXT, .help = "and fast"},
    {.name = "figure", .type = SB_INI_TEXT, .repeat = true,
     .help = "OP POLICY SIZE: VALUE MB/s|s"},
    {.name = "calibrate", .type = SB_INI_TEXT,
     .help = "OP POLICY SIZE: the one figure the machine's core factor is fitted to"},
    {.name = "scanners", .type = SB_INI_WORD,
     .help = "scans the figures ran at once, each on a core of its own (1 to 64; 1)"},
    {.name = "scanners_source", .type = SB_INI_TEXT,
     .help = "where scanners comes from (required when more than 1)"},
    {0},
};
enum { T_WHO, T_MACHINE, T_TABLE, T_TABLE_SIZE, T_SLOW, T_FAST, T_FIGURE, T_CALIBRATE,
       T_SCANNERS, T_SCANNERS_SOURCE };

/* A text of [thread] into its field: UTF-8 (the verdict reports it) and fitting, never cut. */
static int thread_text(char *field, size_t size, const char *value, struct sb_error *err)
{
    if (!sb_utf8_valid(value))
        return sb_fail(err, SB_ERR_INPUT, "the value is not UTF-8 (a report holds UTF-8 text "
                       "only)");
    if (!sb_utf8_copy(field, size, value))
        return sb_fail(err, SB_ERR_INPUT, "%zu bytes: at most %zu (\"%.*s...\")", strlen(value),
                       size - 1, (int)sb_utf8_fit(value, 40), value);
    return SB_OK;
}

static int thread_key(struct sb_thread *t, int key, const char *value, struct sb_error *err)
{
    t->present = true;
    switch (key) {
    case T_FIGURE:
        return thread_figure(t, value, err);
    case T_TABLE_SIZE:
        return sb_parse_size(value, &t->table_size)
                   ? SB_OK
                   : sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a size", value);
    case T_WHO:
        return thread_text(t->who, sizeof t->who, value, err);
    case T_MACHINE:
        return thread_text(t->machine, sizeof t->machine, value, err);
    case T_TABLE:
        return thread_text(t->table, sizeof t->table, value, err);
    case T_SLOW:
        return thread_text(t->slow, sizeof t->slow, value, err);
    case T_CALIBRATE:
        return thread_text(t->calibrate, sizeof t->calibrate, value, err);
    case T_SCANNERS: {
        uint64_t n;
        if (!sb_parse_uint(value, &n) || n < 1 || n > SB_MAX_THREAD_SCANNERS)
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a whole number from 1 to %d",
                           value, SB_MAX_THREAD_SCANNERS);
        t->scanners = (unsigned)n;
        return SB_OK;
    }
    case T_SCANNERS_SOURCE:
        return thread_text(t->scanners_source, sizeof t->scanners_source, value, err);
    default:
        return thread_text(t->fast, sizeof t->fast, value, err);
    }
}

enum { SECTION_EXPERIMENT, SECTION_THREAD };

/* The reader's tables: [experiment] (the key registry itself) and [thread]. */
struct experiment_spec {
    struct sb_ini_section sections[3];
    struct sb_ini_spec spec;
};

struct parse_state {
    struct sb_experiment *exp;
    bool seen_experiment;
};

static void on_section(void *user, int section, int line)
{
    struct parse_state *ps = user;

    (void)line;
    if (section == SECTION_EXPERIMENT)
        ps->seen_experiment = true;
}

/* A value, whole: a key of [experiment] (assign), or of [thread]. */
static int on_value(void *user, struct sb_ini_value *v, struct sb_error *err)
{
    struct parse_state *ps = user;

    if (v->section == SECTION_THREAD)
        return thread_key(&ps->exp->thread, v->key, v->text, err);
    return assign(ps->exp, (enum sb_key_id)v->key, v->text, v->origin, err);
}

static void experiment_spec(struct experiment_spec *e)
{
    e->sections[SECTION_EXPERIMENT] = (struct sb_ini_section){
        .name = "experiment", .keys = sb_keys, .once = true,
        .unknown_key = "(`scanbench list` shows the keys)"};
    e->sections[SECTION_THREAD] = (struct sb_ini_section){.name = "thread", .keys = thread_keys,
                                                          .once = true};
    e->sections[2] = (struct sb_ini_section){0};
    e->spec = (struct sb_ini_spec){
        .sections = e->sections,
        .on_section = on_section,
        .on_value = on_value,
    };
}

/* `calibrate = OP POLICY SIZE` names one of the section's figures (and there is a machine to
 * calibrate); its index into calibrate_figure. */
static int thread_calibration(struct sb_thread *t, const char *label, struct sb_error *err)
{
    char op[16], policy[16], size[32];
    uint64_t footprint;
    int used = 0;

    if (!t->calibrate[0])
        return SB_OK;
    if (sscanf(t->calibrate, "%15s %15s %31s%n", op, policy, size, &used) != 3 ||
        t->calibrate[used] != '\0' || !sb_parse_size(size, &footprint))
        return sb_fail(err, SB_ERR_INPUT, "%s: [thread] calibrate: \"%s\" is not `OP POLICY "
                       "SIZE` (a figure's, e.g. count clock 16MB)", label, t->calibrate);
    if (!t->machine[0])
        return sb_fail(err, SB_ERR_INPUT, "%s: [thread] calibrate: no machine to calibrate "
                       "(machine = a file of configs/machines)", label);
    for (int i = 0; i < t->nfigures; i++)
        if (strcmp(t->figures[i].op, op) == 0 && strcmp(t->figures[i].policy, policy) == 0 &&
            t->figures[i].footprint == footprint) {
            t->calibrate_figure = i;
            return SB_OK;
        }
    return sb_fail(err, SB_ERR_INPUT, "%s: [thread] calibrate: \"%s\" is not a figure of the "
                   "section (the calibration is one of the thread's figures)", label,
                   t->calibrate);
}

/* `scanners = N` above 1 needs its source and the machine it ran on. */
static int thread_scanners(const struct sb_thread *t, const char *label, struct sb_error *err)
{
    if (t->scanners <= 1)
        return SB_OK;
    if (!t->scanners_source[0])
        return sb_fail(err, SB_ERR_INPUT, "%s: [thread] scanners = %u: no scanners_source (where "
                       "the thread or its software says so)", label, t->scanners);
    if (!t->machine[0])
        return sb_fail(err, SB_ERR_INPUT, "%s: [thread] scanners = %u: no machine they ran on "
                       "(machine = a file of configs/machines)", label, t->scanners);
    return SB_OK;
}

static int parse(struct sb_experiment *exp, struct sb_ini_lines *reader, const char *label,
                 struct sb_error *err)
{
    struct experiment_spec e;
    struct parse_state ps = {.exp = exp};
    int status;

    experiment_spec(&e);
    status = sb_ini_read(reader, label, &e.spec, &ps, err);
    if (status == SB_OK && !ps.seen_experiment)
        status = sb_fail(err, SB_ERR_INPUT, "%s: no [experiment] section", label);
    if (status == SB_OK)
        status = thread_calibration(&exp->thread, label, err);
    if (status == SB_OK)
        status = thread_scanners(&exp->thread, label, err);
    if (status == SB_OK)
        snprintf(exp->source, sizeof exp->source, "%s", label);
    return status;
}

int sb_experiment_read_string(struct sb_experiment *exp, const char *text, const char *label,
                              struct sb_error *err)
{
    struct sb_ini_lines reader = {.text = text};
    return parse(exp, &reader, label, err);
}

int sb_experiment_read_file(struct sb_experiment *exp, const char *path, struct sb_error *err)
{
    struct sb_ini_lines reader;
    int status;

    if (!path)
        return sb_experiment_read_string(exp, sb_default_experiment_ini, "embedded default", err);
    status = sb_path_check(path, err);
    if (status == SB_OK)
        status = sb_ini_open(&reader, path, err);
    if (status != SB_OK)
        return status;
    status = parse(exp, &reader, path, err);
    sb_ini_close(&reader);
    return status;
}

int sb_experiment_set(struct sb_experiment *exp, const char *assignment, struct sb_error *err)
{
    char *origin = malloc(strlen(assignment) + 8), *line = strdup(assignment), *name, *value;
    struct experiment_spec e;
    struct parse_state ps = {.exp = exp};
    int status;

    if (!origin || !line) {
        status = sb_fail(err, SB_ERR_RUN, "out of memory");
        goto out;
    }
    sprintf(origin, "--set %s", assignment);
    experiment_spec(&e);
    if (strpbrk(assignment, "\n\r"))
        status = sb_fail(err, SB_ERR_INPUT, "%s: want one KEY=VALUE (a line break in it)",
                         origin);
    else if (sb_ini_split_line(line, &name, &value) != SB_INI_KEY || !*name)
        status = sb_fail(err, SB_ERR_INPUT, "%s: want KEY=VALUE", origin);
    else
        status = sb_ini_take(&e.spec, SECTION_EXPERIMENT, origin, name, value, &ps, err);
out:
    free(origin);
    free(line);
    return status;
}
