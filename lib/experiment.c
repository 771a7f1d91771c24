/* experiment.c: the key registry, INI parsing through inih (with our own line reader so that every
 * value knows its file and line), --set, and per-value checks (type, range, registry names).
 * Checks that involve several keys (ring larger than pool, memory) are in plan.c. */
#include "config.h"
#include "experiment.h"

#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "kernel.h"
#include "op.h"
#include "placement.h"
#include "policy.h"
#include "source.h"
#include "ini_lines.h"
#include "units.h"

#define KB 1024ull
#define GB (1024ull * 1024 * 1024)

const struct sb_key sb_keys[SB_NKEYS] = {
    [SB_K_NAME] = {"name", SB_KEY_TEXT, "unnamed", false, 0, 0, "the experiment's name"},
    [SB_K_DESCRIPTION] = {"description", SB_KEY_TEXT, "", false, 0, 0, "what it measures"},
    [SB_K_SOURCE] = {"source", SB_KEY_NAME, "memory", true, 0, 0,
                     "where pages come from (the IO cache)"},
    [SB_K_BIGTABLE] = {"bigtable", SB_KEY_BOOL, "no", true, 0, 1,
                       "yes: the table does not fit in the IO cache: every page comes from the "
                       "device (file: dropped from the page cache; memory: a DMA-like fill)"},
    [SB_K_DATA_DIR] = {"data_dir", SB_KEY_TEXT, "", false, 0, 0,
                       "scratch directory of source file (empty: $TMPDIR, else /tmp)"},
    [SB_K_TABLE_SIZE] = {"table_size", SB_KEY_SIZE, "512M", true, 1, 1ull << 50,
                         "bytes of heap pages scanned"},
    [SB_K_PAGE_SIZE] = {"page_size", SB_KEY_SIZE, "8K", true, 1, 32 * KB,
                        "bytes per page (BLCKSZ): a power of two from 1KB to 32KB"},
    [SB_K_ROW_WIDTH] = {"row_width", SB_KEY_UINT, "100", true, 0, 32 * KB,
                        "user data bytes per row (100: 61 rows per 8KB page)"},
    [SB_K_DEAD_PCT] = {"dead_pct", SB_KEY_UINT, "10", true, 0, 100,
                       "percentage of rows deleted (dead) in the table"},
    [SB_K_OP] = {"op", SB_KEY_NAME, "count", true, 0, 0, "the executor pass over each page"},
    [SB_K_KERNEL] = {"kernel", SB_KEY_NAME, "memcpy", true, 0, 0, "how each page is copied"},
    [SB_K_POOL_SIZE] = {"pool_size", SB_KEY_SIZE, "16M", true, 1, 1ull << 50,
                        "bytes of buffers in the pool (shared_buffers)"},
    [SB_K_POLICY] = {"policy", SB_KEY_NAME, "clock", true, 0, 0,
                     "where the next page lands in the pool"},
    [SB_K_RING_SIZE] = {"ring_size", SB_KEY_SIZE, "256K", true, 1, 1ull << 50,
                        "bytes of the ring (policy ring)"},
    [SB_K_IOCACHE_NODE] = {"iocache_node", SB_KEY_NAME, "local", true, 0, 0,
                           "NUMA node of the table: local, remote, interleave or a node number"},
    [SB_K_POOL_NODE] = {"pool_node", SB_KEY_NAME, "local", true, 0, 0,
                        "NUMA node of the pool: local, remote, interleave or a node number"},
    [SB_K_THREADS] = {"threads", SB_KEY_UINT, "1", true, 1, SB_MAX_THREADS,
                      "concurrent scanners, pinned to distinct cores, started together"},
    [SB_K_SHARED_TABLE] = {"shared_table", SB_KEY_BOOL, "no", true, 0, 1,
                           "threads > 1: yes: all scan one table, dividing its pages; no: each "
                           "its own table"},
    [SB_K_SHARED_POOL] = {"shared_pool", SB_KEY_BOOL, "no", true, 0, 1,
                          "yes: one clock-swept pool shared by all scanners (atomic pins and "
                          "usage counts); no: each its own pool and policy"},
    [SB_K_OVERSUBSCRIBE] = {"oversubscribe", SB_KEY_BOOL, "no", false, 0, 1,
                            "yes: allow more threads than cores"},
    [SB_K_SCHEDULE] = {"schedule", SB_KEY_NAME, "interleaved", false, 0, 0,
                       "interleaved: every round times each run once, in a fresh seeded shuffle; "
                       "blocked: each run's timed scans together (for comparison)"},
    [SB_K_REPETITIONS] = {"repetitions", SB_KEY_AUTO_UINT, "5", false, 1, 1000,
                          "rounds: timed scans of every run (auto: 10, then more until every "
                          "comparison is precise to 1%, the time_budget or 60)"},
    [SB_K_TIME_BUDGET] = {"time_budget", SB_KEY_UINT, "600", false, 1, 30 * 24 * 3600,
                          "repetitions = auto: seconds the rounds may take in all"},
    [SB_K_MIN_SCAN_MS] = {"min_scan_ms", SB_KEY_UINT, "50", false, 0, 60000,
                          "a timed scan lasts at least this long: as many passes over the table "
                          "as that takes (0: one pass)"},
    [SB_K_SCHEDULE_SEED] = {"schedule_seed", SB_KEY_AUTO_UINT, "auto", false, 0, UINT64_MAX,
                            "seed of the rounds' shuffles (auto: from the clock; the report "
                            "keeps it)"},
    [SB_K_WARMUP] = {"warmup", SB_KEY_UINT, "1", true, 0, 100,
                     "untimed scans of each run before the rounds (after the validation scan)"},
    [SB_K_SEED] = {"seed", SB_KEY_UINT, "1", true, 0, UINT64_MAX, "seed of the random policy"},
    [SB_K_COUNTERS] = {"counters", SB_KEY_NAME, "none", false, 0, 0, "the counter backend"},
    [SB_K_EVENTS] = {"events", SB_KEY_TEXT, "auto", false, 0, 0,
                     "events map for counters=papi: auto (this CPU's) or configs/events NAME or "
                     "a path"},
    [SB_K_REQUIRE_COUNTERS] = {"require_counters", SB_KEY_BOOL, "no", false, 0, 1,
                               "yes: counters that are unavailable are an error (exit 3)"},
    [SB_K_MACHINE] = {"machine", SB_KEY_NAME, "auto", true, 0, 0,
                      "machine model for counters=sim: auto (this host's caches), a name of "
                      "configs/machines, or a path"},
    [SB_K_PREFETCH] = {"prefetch", SB_KEY_NAME, "machine", true, 0, 0,
                       "the model's next-line prefetcher: machine (the model's setting), no, yes"},
    [SB_K_L1D_SIZE] = {"l1d_size", SB_KEY_AUTO_SIZE, "auto", false, 1, GB,
                       "L1 data cache size override (auto: hwloc, else sysfs)"},
    [SB_K_L2_SIZE] = {"l2_size", SB_KEY_AUTO_SIZE, "auto", false, 1, GB, "L2 size override"},
    [SB_K_L3_SIZE] = {"l3_size", SB_KEY_AUTO_SIZE, "auto", false, 1, 64 * GB, "L3 size override"},
    [SB_K_LINE_SIZE] = {"line_size", SB_KEY_AUTO_SIZE, "auto", false, 1, 4 * KB,
                        "cache line size override"},
    [SB_K_RUN_TIMEOUT] = {"run_timeout", SB_KEY_UINT, "0", false, 0, 30 * 24 * 3600,
                          "seconds a run may take before the watchdog stops it (0: 600 s + 1 s "
                          "per 20MB the run reads and writes)"},
};

enum sb_key_id sb_key_find(const char *name)
{
    for (int k = 0; k < SB_NKEYS; k++)
        if (strcmp(sb_keys[k].name, name) == 0)
            return (enum sb_key_id)k;
    return SB_NKEYS;
}

/* Checks a registry name; on failure writes why into err. */
static int check_name(enum sb_key_id key, const char *value, struct sb_error *err)
{
    char known[256] = "";
    size_t used = 0;

#define KNOWN(table)                                                                          \
    for (size_t i = 0; (table)[i].name; i++)                                                 \
        used += (size_t)snprintf(known + used, used < sizeof known ? sizeof known - used : 0, \
                                 "%s%s", i ? ", " : "", (table)[i].name)

    switch (key) {
    case SB_K_KERNEL: {
        const struct sb_kernel *k = sb_kernel_find(value);
        if (k && !k->supported())
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" needs %s, which this CPU lacks", value,
                           k->requires);
        if (k)
            return SB_OK;
        KNOWN(sb_kernels);
        break;
    }
    case SB_K_OP:
        if (sb_op_find(value))
            return SB_OK;
        KNOWN(sb_ops);
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
    case SB_K_IOCACHE_NODE:
    case SB_K_POOL_NODE: {
        struct sb_placement placement;
        if (sb_placement_parse(value, &placement))
            return SB_OK;
        return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a placement (local, remote, "
                       "interleave, or a node number)", value);
    }
    case SB_K_PREFETCH:
        if (strcmp(value, "machine") == 0 || strcmp(value, "no") == 0 || strcmp(value, "yes") == 0)
            return SB_OK;
        snprintf(known, sizeof known, "machine, no, yes");
        break;
    case SB_K_SCHEDULE:
        if (strcmp(value, "interleaved") == 0 || strcmp(value, "blocked") == 0)
            return SB_OK;
        snprintf(known, sizeof known, "interleaved, blocked");
        break;
    default:
        return SB_OK;
    }
#undef KNOWN
    return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a known %s (known: %s)", value,
                   sb_keys[key].name, known);
}

static int check_value(enum sb_key_id key, const char *value, uint64_t *number,
                       struct sb_error *err)
{
    const struct sb_key *k = &sb_keys[key];
    char a[32], b[32];

    *number = 0;
    switch (k->type) {
    case SB_KEY_TEXT:
        return SB_OK;
    case SB_KEY_NAME:
        return check_name(key, value, err);
    case SB_KEY_BOOL:
        if (strcmp(value, "yes") == 0 || strcmp(value, "true") == 0 || strcmp(value, "on") == 0 ||
            strcmp(value, "1") == 0)
            *number = 1;
        else if (strcmp(value, "no") != 0 && strcmp(value, "false") != 0 &&
                 strcmp(value, "off") != 0 && strcmp(value, "0") != 0)
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not yes or no", value);
        return SB_OK;
    case SB_KEY_AUTO_SIZE:
        if (strcmp(value, "auto") == 0)
            return SB_OK;
        /* fall through */
    case SB_KEY_SIZE:
        if (!sb_parse_size(value, number))
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a size (e.g. 8192, 256K, 16MB%s)",
                           value, k->type == SB_KEY_AUTO_SIZE ? ", auto" : "");
        if (*number == 0)
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is zero", value);
        if (*number < k->min || *number > k->max)
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is out of range (%s to %s)", value,
                           sb_format_size(k->min, a, sizeof a), sb_format_size(k->max, b, sizeof b));
        return SB_OK;
    case SB_KEY_AUTO_UINT:
        if (strcmp(value, "auto") == 0)
            return SB_OK;
        /* fall through */
    case SB_KEY_UINT:
        if (!sb_parse_uint(value, number))
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a whole number%s", value,
                           k->type == SB_KEY_AUTO_UINT ? " or auto" : "");
        if (*number < k->min || *number > k->max)
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is out of range (%llu to %llu)", value,
                           (unsigned long long)k->min, (unsigned long long)k->max);
        return SB_OK;
    }
    return SB_OK;
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
}

/* Parses "value" or "v1, v2, ..." into the setting of key; on error the message starts with
 * the key's name. origin is recorded on success. */
static int assign(struct sb_experiment *exp, enum sb_key_id key, const char *text,
                  const char *origin, struct sb_error *err)
{
    struct sb_setting next = {0};
    char *copy = strdup(text), *cursor, *item;
    int status = SB_OK;

    if (!copy)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    cursor = copy;
    if (sb_keys[key].type == SB_KEY_TEXT) {
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
        if (status != SB_OK)
            goto done;
        next.values[next.nvalues] = strdup(item);
        if (!next.values[next.nvalues]) {
            status = sb_fail(err, SB_ERR_RUN, "out of memory");
            goto done;
        }
        next.nvalues++;
    }
    if (next.nvalues > 1 && !sb_keys[key].listable)
        status = sb_fail(err, SB_ERR_INPUT, "takes one value, not a list");

done:
    free(copy);
    if (status == SB_OK) {
        setting_clear(&exp->settings[key]);
        exp->settings[key] = next;
        snprintf(exp->settings[key].origin, sizeof exp->settings[key].origin, "%s", origin);
    } else {
        setting_clear(&next);
        sb_error_prefix(err, "%s", sb_keys[key].name);
    }
    return status;
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

static int thread_key(struct sb_thread *t, const char *name, const char *value,
                      struct sb_error *err)
{
    t->present = true;
    if (strcmp(name, "figure") == 0)
        return thread_figure(t, value, err);
    if (strcmp(name, "table_size") == 0)
        return sb_parse_size(value, &t->table_size)
                   ? SB_OK
                   : sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a size", value);
#define TEXT(field)                                                                           \
    if (strcmp(name, #field) == 0) {                                                          \
        snprintf(t->field, sizeof t->field, "%s", value);                                     \
        return SB_OK;                                                                         \
    }
    TEXT(who)
    TEXT(machine)
    TEXT(table)
    TEXT(slow)
    TEXT(fast)
#undef TEXT
    return sb_fail(err, SB_ERR_INPUT, "unknown key in [thread] (who, machine, table, table_size, "
                   "slow, fast, figure)");
}

struct parse_state {
    struct sb_experiment *exp;
    struct sb_ini_lines *reader;
    const char *label;
    bool seen[SB_NKEYS];
    struct sb_error *err;
    int status;
};

static int on_key(void *user, const char *section, const char *name, const char *value)
{
    struct parse_state *ps = user;
    char origin[256];
    enum sb_key_id key;

    if (ps->status != SB_OK)
        return 0; /* inih goes on after an error: keep the first one */
    snprintf(origin, sizeof origin, "%s:%d", ps->label, ps->reader->line);
    if (ps->reader->too_long) {
        ps->status = sb_fail(ps->err, SB_ERR_INPUT, "%s: line longer than %d characters", origin,
                             INI_MAX_LINE - 2);
        return 0;
    }
    if (strcmp(section, "thread") == 0) {
        ps->status = thread_key(&ps->exp->thread, name, value, ps->err);
        if (ps->status != SB_OK) {
            sb_error_prefix(ps->err, "%s: %s", origin, name);
            return 0;
        }
        return 1;
    }
    if (strcmp(section, "experiment") != 0) {
        ps->status = sb_fail(ps->err, SB_ERR_INPUT,
                             "%s: %s: keys belong in the [experiment] or [thread] section, not "
                             "[%s]", origin, name, section);
        return 0;
    }
    key = sb_key_find(name);
    if (key == SB_NKEYS) {
        ps->status = sb_fail(ps->err, SB_ERR_INPUT,
                             "%s: %s: unknown key (`scanbench list` shows the keys)", origin, name);
        return 0;
    }
    if (ps->seen[key]) {
        ps->status = sb_fail(ps->err, SB_ERR_INPUT, "%s: %s: set twice (first at %s)", origin,
                             name, ps->exp->settings[key].origin);
        return 0;
    }
    ps->seen[key] = true;
    ps->status = assign(ps->exp, key, value, origin, ps->err);
    if (ps->status != SB_OK) {
        sb_error_prefix(ps->err, "%s", origin);
        return 0;
    }
    return 1;
}

static int parse(struct sb_experiment *exp, struct sb_ini_lines *reader, const char *label,
                 struct sb_error *err)
{
    struct parse_state ps = {.exp = exp, .reader = reader, .label = label, .err = err};
    int rc = ini_parse_stream(sb_ini_read_line, reader, on_key, &ps);

    if (ps.status != SB_OK)
        return ps.status;
    if (reader->problem)
        return sb_fail(err, SB_ERR_INPUT, "%s:%d: %s", label, reader->line, reader->problem);
    if (rc > 0)
        return sb_fail(err, SB_ERR_INPUT, "%s:%d: not a valid INI line (want key = value)",
                       label, rc);
    if (rc != 0)
        return sb_fail(err, SB_ERR_RUN, "%s: cannot parse (out of memory)", label);
    snprintf(exp->source, sizeof exp->source, "%s", label);
    return SB_OK;
}

int sb_experiment_read_string(struct sb_experiment *exp, const char *text, const char *label,
                              struct sb_error *err)
{
    struct sb_ini_lines reader = {.text = text};
    return parse(exp, &reader, label, err);
}

int sb_experiment_read_file(struct sb_experiment *exp, const char *path, struct sb_error *err)
{
    struct sb_ini_lines reader = {0};
    int status;

    if (!path)
        return sb_experiment_read_string(exp, sb_default_experiment_ini, "embedded default", err);
    reader.file = fopen(path, "r");
    if (!reader.file)
        return sb_fail(err, SB_ERR_INPUT, "%s: cannot read: %s", path, strerror(errno));
    status = parse(exp, &reader, path, err);
    fclose(reader.file);
    return status;
}

int sb_experiment_set(struct sb_experiment *exp, const char *assignment, struct sb_error *err)
{
    const char *eq = strchr(assignment, '=');
    char name[64];
    char origin[256];
    enum sb_key_id key;
    size_t len;
    int status;

    snprintf(origin, sizeof origin, "--set %s", assignment);
    if (!eq)
        return sb_fail(err, SB_ERR_INPUT, "%s: want KEY=VALUE", origin);
    len = (size_t)(eq - assignment);
    if (len == 0 || len >= sizeof name)
        return sb_fail(err, SB_ERR_INPUT, "%s: want KEY=VALUE", origin);
    memcpy(name, assignment, len);
    name[len] = '\0';
    key = sb_key_find(name);
    if (key == SB_NKEYS)
        return sb_fail(err, SB_ERR_INPUT, "%s: %s: unknown key (`scanbench list` shows the keys)",
                       origin, name);
    status = assign(exp, key, eq + 1, origin, err);
    if (status != SB_OK)
        sb_error_prefix(err, "%s", origin);
    return status;
}
