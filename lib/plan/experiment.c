/* experiment.c: the key registry, INI parsing through inih (with our own line reader so that every
 * value knows its file and line), --set, and per-value checks (type, range, registry names).
 * Checks that involve several keys (ring larger than pool, memory) are in plan.c. */
#include "config.h"
#include "plan/experiment.h"

#include <errno.h>
#include <ini.h>
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
    if (sb_keys[key].type == SB_KEY_TEXT && strlen(text) > text_max(key))
        return sb_fail(err, SB_ERR_INPUT, "%zu bytes: at most %zu (\"%.*s...\")", strlen(text),
                       text_max(key), (int)sb_utf8_fit(text, 40), text);
    return SB_OK;
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
    if (status == SB_OK && (!next.values[0] || !(next.origin = strdup(origin))))
        status = sb_fail(err, SB_ERR_RUN, "out of memory");
    if (status == SB_OK) {
        setting_clear(&exp->settings[key]);
        exp->settings[key] = next;
    } else {
        setting_clear(&next);
        sb_error_prefix(err, "%s", sb_keys[key].name);
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

/* The [thread] keys other than figure (which may be given many times), in the order of the
 * fields of struct sb_thread. */
static const char *const thread_keys[] = {"who", "machine", "table", "table_size", "slow",
                                          "fast", "figure"};
enum { T_WHO, T_MACHINE, T_TABLE, T_TABLE_SIZE, T_SLOW, T_FAST, T_FIGURE, NTHREAD_KEYS };

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
    default:
        return thread_text(t->fast, sizeof t->fast, value, err);
    }
}

enum { SECTION_NONE, SECTION_EXPERIMENT, SECTION_THREAD };

/* A key line is read once the lines that go on with it (indented, joined with a blank) have
 * been: when the next key line, a section line or the end comes. Meanwhile it is pending. */
struct parse_state {
    struct sb_experiment *exp;
    struct sb_ini_lines *reader; /* NULL for --set */
    const char *label;           /* the file; for --set, the origin itself ("--set K=V") */
    int section;
    bool seen_experiment;
    bool seen[SB_NKEYS];
    int thread_seen[NTHREAD_KEYS]; /* the line each [thread] key was given at (0: not yet) */
    int key;                     /* the pending key: an sb_key_id ([experiment]) or a thread
                                    key ([thread]); -1: none */
    int key_section;
    char *text;                  /* its value so far */
    char *origin;                /* where its key line is */
    int line;                    /* and that line's number (0 for --set) */
    struct sb_error *err;
    int status;
    int error_line;              /* the line of the first error (for inih's own, which come
                                    later in a file read on) */
};

/* Where the line being read is: "file:line", or the --set itself. */
static void here(const struct parse_state *ps, char *origin, size_t size)
{
    if (ps->reader)
        snprintf(origin, size, "%s:%d", ps->label, ps->reader->line);
    else
        snprintf(origin, size, "%s", ps->label);
}

static void clear_pending(struct parse_state *ps)
{
    free(ps->text);
    free(ps->origin);
    ps->text = ps->origin = NULL;
    ps->key = -1;
}

/* Reads the pending key's value (joined with the lines that went on with it), errors at its
 * key line. */
static int take_pending(struct parse_state *ps)
{
    int key = ps->key, status = SB_OK;

    if (key < 0)
        return SB_OK;
    if (ps->key_section == SECTION_THREAD) {
        status = thread_key(&ps->exp->thread, key, ps->text, ps->err);
        if (status != SB_OK)
            sb_error_prefix(ps->err, "%s: %s", ps->origin, thread_keys[key]);
    } else {
        status = assign(ps->exp, (enum sb_key_id)key, ps->text, ps->origin, ps->err);
        if (status != SB_OK)
            sb_error_prefix(ps->err, "%s", ps->origin);
    }
    if (status != SB_OK)
        ps->error_line = ps->line;
    clear_pending(ps);
    return status;
}

/* The key of a key line of the section: known, given once (figure as often as wanted; in
 * [experiment], once per file, a later --set replacing it). -1 with the error in ps->err. */
static int find_key(struct parse_state *ps, const char *name, const char *origin)
{
    int key;

    if (ps->section == SECTION_EXPERIMENT) {
        key = (int)sb_key_find(name);
        if (key == SB_NKEYS)
            return sb_fail(ps->err, SB_ERR_INPUT, "%s: %s: unknown key (`scanbench list` shows "
                           "the keys)", origin, name), -1;
        if (ps->seen[key])
            return sb_fail(ps->err, SB_ERR_INPUT, "%s: %s: set twice (first at %s)", origin,
                           name, ps->exp->settings[key].origin), -1;
        ps->seen[key] = true;
        return key;
    }
    for (key = 0; key < NTHREAD_KEYS && strcmp(name, thread_keys[key]) != 0; key++)
        ;
    if (key == NTHREAD_KEYS)
        return sb_fail(ps->err, SB_ERR_INPUT, "%s: %s: unknown key in [thread] (who, machine, "
                       "table, table_size, slow, fast, figure)", origin, name), -1;
    if (key != T_FIGURE && ps->thread_seen[key])
        return sb_fail(ps->err, SB_ERR_INPUT, "%s: %s: set twice (first at %s:%d)", origin,
                       name, ps->label, ps->thread_seen[key]), -1;
    ps->thread_seen[key] = ps->reader ? ps->reader->line : 1;
    return key;
}

/* A line that goes on with the key above but reads as a key line of this section: a key
 * indented by mistake, which inih would add to the value above. */
static bool indented_key(const struct parse_state *ps, const char *value)
{
    char key[64];

    if (!sb_ini_key_line(value, key, sizeof key))
        return false;
    if (ps->section == SECTION_EXPERIMENT)
        return sb_key_find(key) != SB_NKEYS;
    for (int k = 0; k < NTHREAD_KEYS; k++)
        if (strcmp(key, thread_keys[k]) == 0)
            return true;
    return false;
}

/* Adds a line that goes on with the pending key to its value. */
static int go_on(struct parse_state *ps, const char *name, const char *value, const char *origin)
{
    size_t len = strlen(ps->text);
    char *text;

    if (indented_key(ps, value))
        return sb_fail(ps->err, SB_ERR_INPUT, "%s: \"%s\": an indented line goes on with the "
                       "value of %s above; a key of its own starts its line", origin, value,
                       name);
    if (!(text = realloc(ps->text, len + strlen(value) + 2)))
        return sb_fail(ps->err, SB_ERR_RUN, "out of memory");
    snprintf(text + len, strlen(value) + 2, " %s", value);
    ps->text = text;
    return SB_OK;
}

/* One key line (or a line that goes on with the key above: continued), of a file or a --set:
 * the one place where what a line says is taken in. The key is checked here, its value when
 * it is whole (take_pending). */
static int take_line(struct parse_state *ps, const char *name, const char *value, bool continued)
{
    char origin[SB_PATH_MAX + 32];
    int status;

    here(ps, origin, sizeof origin);
    if (ps->reader && ps->reader->too_long)
        return sb_fail(ps->err, SB_ERR_INPUT, "%s: line longer than %d characters (a long value "
                       "goes on over indented lines)", origin, INI_MAX_LINE - 2);
    if (continued && ps->key >= 0)
        return go_on(ps, name, value, origin);
    if ((status = take_pending(ps)) != SB_OK)
        return status;
    if (*name == '\0')
        return sb_fail(ps->err, SB_ERR_INPUT, "%s: %s", origin, ps->reader ? "no key before "
                       "'=' (want key = value)" : "want KEY=VALUE");
    if (ps->section == SECTION_NONE)
        return sb_fail(ps->err, SB_ERR_INPUT, "%s: %s: keys belong in the [experiment] or "
                       "[thread] section", origin, name);
    if ((ps->key = find_key(ps, name, origin)) < 0)
        return SB_ERR_INPUT;
    ps->key_section = ps->section;
    ps->line = ps->reader ? ps->reader->line : 0;
    ps->text = strdup(value);
    ps->origin = strdup(origin);
    if (!ps->text || !ps->origin)
        return sb_fail(ps->err, SB_ERR_RUN, "out of memory");
    return SB_OK;
}

static int on_key(void *user, const char *section, const char *name, const char *value)
{
    struct parse_state *ps = user;

    (void)section; /* ps->section: on_section has seen the line that opened it */
    if (ps->status != SB_OK)
        return 0; /* inih goes on after an error: keep the first one */
    ps->status = take_line(ps, name, value, ps->reader->continued);
    if (ps->status != SB_OK && !ps->error_line)
        ps->error_line = ps->reader->line;
    return ps->status == SB_OK;
}

/* The hook of the line reader for every [section] line (inih tells no handler of one). */
static bool on_section(void *user, const char *name)
{
    struct parse_state *ps = user;
    char origin[SB_PATH_MAX + 32];

    if (ps->status != SB_OK || (ps->status = take_pending(ps)) != SB_OK)
        return false;
    here(ps, origin, sizeof origin);
    if (strcmp(name, "experiment") == 0) {
        ps->section = SECTION_EXPERIMENT;
        ps->seen_experiment = true;
    } else if (strcmp(name, "thread") == 0) {
        ps->section = SECTION_THREAD;
    } else {
        ps->status = sb_fail(ps->err, SB_ERR_INPUT, "%s: [%s]: unknown section (known: "
                             "[experiment], [thread])", origin, name);
        ps->error_line = ps->reader->line;
    }
    return ps->status == SB_OK;
}

static int parse(struct sb_experiment *exp, struct sb_ini_lines *reader, const char *label,
                 struct sb_error *err)
{
    struct parse_state ps = {.exp = exp, .reader = reader, .label = label, .key = -1,
                             .err = err};
    int rc, status;

    reader->on_section = on_section;
    reader->user = &ps;
    rc = ini_parse_stream(sb_ini_read_line, reader, on_key, &ps);
    if (ps.status == SB_OK)
        ps.status = take_pending(&ps); /* before any problem that stopped the reading */
    clear_pending(&ps);
    /* the first error in the file: a line inih could not read, or one of ours */
    if (rc > 0 && (ps.status == SB_OK || rc < ps.error_line))
        return sb_fail(err, SB_ERR_INPUT, "%s:%d: not a valid INI line (want key = value)",
                       label, rc);
    if (ps.status != SB_OK)
        return ps.status;
    if ((status = sb_ini_finish(reader, label, err)) != SB_OK)
        return status;
    if (rc != 0)
        return sb_fail(err, SB_ERR_RUN, "%s: cannot parse (out of memory)", label);
    if (!ps.seen_experiment)
        return sb_fail(err, SB_ERR_INPUT, "%s: no [experiment] section", label);
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
    struct parse_state ps = {.exp = exp, .label = origin, .section = SECTION_EXPERIMENT,
                             .key = -1, .err = err};
    int status;

    if (!origin || !line) {
        status = sb_fail(err, SB_ERR_RUN, "out of memory");
        goto out;
    }
    sprintf(origin, "--set %s", assignment);
    if (strpbrk(assignment, "\n\r"))
        status = sb_fail(err, SB_ERR_INPUT, "%s: want one KEY=VALUE (a line break in it)",
                         origin);
    else if (sb_ini_split_line(line, &name, &value) != SB_INI_KEY)
        status = sb_fail(err, SB_ERR_INPUT, "%s: want KEY=VALUE", origin);
    else if ((status = take_line(&ps, name, value, false)) == SB_OK)
        status = take_pending(&ps);
out:
    clear_pending(&ps);
    free(origin);
    free(line);
    return status;
}
