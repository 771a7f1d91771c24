/* SPDX-License-Identifier: BSD-3-Clause */
/* experiment.c: reading files and --set through the core INI reader (core/ini_keys.c: every
 * value knows its file and line, and the structure of the file is checked there) with the key
 * registry (keys.c) for [experiment] and thread.c's keys for [thread], and per-value checks
 * (type, range, registry names). Checks that involve several keys (ring larger than pool,
 * memory) are in plan.c. */
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
#include "plan/thread.h"
#include "vocab/vocab.h"

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
    const char *known = "", *const *names = NULL;
    char list[160];
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
    case SB_K_LAYOUT:
        names = sb_layout_names;
        break;
    case SB_K_HINT_BITS:
        if (strcmp(value, "set") == 0 || strcmp(value, "unset") == 0)
            return SB_OK;
        known = "set, unset";
        break;
    case SB_K_IO_METHOD:
        names = sb_io_method_names;
        break;
    case SB_K_IO_WORKER_CPU:
        names = sb_io_worker_cpu_names;
        break;
    case SB_K_HUGE_PAGES:
        names = sb_huge_pages_names;
        break;
    case SB_K_CONTENTION:
        names = sb_contention_names;
        break;
    default:
        return SB_OK;
    }
    if (names) { /* a registry of names: the value one of them */
        size_t used = 0;
        for (int i = 0; names[i]; i++) {
            if (strcmp(value, names[i]) == 0)
                return SB_OK;
            used += (size_t)snprintf(list + used, used < sizeof list ? sizeof list - used : 0,
                                     "%s%s", i ? ", " : "", names[i]);
        }
        known = list;
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

/* A server key that takes `default` (SB_SERVER_DEFAULT) and a zero: buffer_usage_limit, a
 * size from 128kB to 16GB or 0 (PostgreSQL's MIN_BAS_VAC_RING_SIZE_KB and
 * MAX_BAS_VAC_RING_SIZE_KB, src/include/miscadmin.h); effective_io_concurrency, 0 to 1000
 * (MAX_IO_CONCURRENCY, src/include/storage/bufmgr.h). */
static int parse_server_number(enum sb_key_id key, const char *value, uint64_t *number,
                               struct sb_error *err)
{
    bool size = key == SB_K_BUFFER_USAGE_LIMIT;
    uint64_t most = size ? 16ull << 30 : 1000;

    if (strcmp(value, "default") == 0) {
        *number = SB_SERVER_DEFAULT;
        return SB_OK;
    }
    if (!(size ? sb_parse_size(value, number) : sb_parse_uint(value, number)))
        return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not %s or default", value,
                       size ? "a size (e.g. 256K, 2M), 0" : "a whole number");
    if (*number > most || (size && *number != 0 && *number < 128 * 1024))
        return sb_fail(err, SB_ERR_INPUT, "\"%s\" is out of range (%s)", value,
                       size ? "128K to 16G, or 0 for no ring" : "0 to 1000");
    return SB_OK;
}

static int check_value(enum sb_key_id key, const char *value, uint64_t *number,
                       struct sb_error *err)
{
    *number = 0;
    if (key == SB_K_EXTRA_COPY)
        return parse_fraction(value, number, err);
    if (key == SB_K_BUFFER_USAGE_LIMIT || key == SB_K_EFFECTIVE_IO_CONCURRENCY)
        return parse_server_number(key, value, number, err);
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

/* next in key's place when status is SB_OK (the old setting freed), else next freed; status. */
static int setting_install(struct sb_experiment *exp, enum sb_key_id key,
                           struct sb_setting *next, int status)
{
    if (status == SB_OK) {
        setting_clear(&exp->settings[key]);
        exp->settings[key] = *next;
    } else {
        setting_clear(next);
    }
    return status;
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
    return setting_install(exp, key, &next, status);
}

/* The words of size b in setting s: the words it was given there, else a size word. */
static char *size_text(const struct sb_setting *s, uint64_t b)
{
    char word[32];

    for (int v = 0; v < s->nvalues; v++)
        if (s->numbers[v] == b)
            return strdup(s->values[v]);
    return strdup(sb_format_size_word(b, word, sizeof word));
}

int sb_experiment_set_sizes(struct sb_experiment *exp, enum sb_key_id key, const uint64_t *bytes,
                            int n, const char *origin, struct sb_error *err)
{
    struct sb_setting *old = &exp->settings[key], next = {.nvalues = 0};
    const struct sb_ini_key *k = &sb_keys[key];
    int status = SB_OK;
    char a[32];

    if (k->type != SB_INI_SIZE || n < 1 || n > SB_MAX_LIST || (n > 1 && !k->list))
        return sb_fail(err, SB_ERR_INPUT, "%s: %d sizes (1 to %d)", k->name, n,
                       k->list ? SB_MAX_LIST : 1);
    for (int v = 0; v < n && status == SB_OK; v++) {
        next.numbers[v] = bytes[v];
        if (bytes[v] == 0 || bytes[v] < k->min || bytes[v] > k->max)
            status = sb_fail(err, SB_ERR_INPUT, "%s: %s is out of range", k->name,
                             sb_format_size(bytes[v], a, sizeof a));
        else if (repeated(key, &next, ""))
            status = sb_fail(err, SB_ERR_INPUT, "%s: %s twice in the list", k->name,
                             sb_format_size(bytes[v], a, sizeof a));
        else if (!(next.values[v] = size_text(old, bytes[v])))
            status = sb_fail(err, SB_ERR_RUN, "out of memory");
        next.nvalues += status == SB_OK;
    }
    if (status == SB_OK && !(next.origin = strdup(origin ? origin : old->origin)))
        status = sb_fail(err, SB_ERR_RUN, "out of memory");
    if (status == SB_OK) {
        setting_clear(old);
        *old = next;
    } else {
        setting_clear(&next);
    }
    return status;
}

int sb_experiment_set_values(struct sb_experiment *exp, enum sb_key_id key,
                             const char *const *values, int n, const char *origin,
                             struct sb_error *err)
{
    struct sb_setting next = {.nvalues = 0};
    const struct sb_ini_key *k = &sb_keys[key];
    int status = SB_OK;

    if (n < 1 || n > SB_MAX_LIST || (n > 1 && (!k->list || k->type == SB_INI_TEXT)) ||
        key == SB_K_KERNEL || key == SB_K_STATEMENTS)
        return sb_fail(err, SB_ERR_INPUT, "%s: %d values, not a list this key takes", k->name, n);
    for (int v = 0; v < n && status == SB_OK; v++) {
        status = check_text(key, values[v], err);
        if (status == SB_OK && k->type != SB_INI_TEXT)
            status = check_value(key, values[v], &next.numbers[v], err);
        if (status == SB_OK && repeated(key, &next, values[v]))
            status = sb_fail(err, SB_ERR_INPUT, "%s: \"%s\" twice in the list", k->name,
                             values[v]);
        if (status == SB_OK && !(next.values[v] = strdup(values[v])))
            status = sb_fail(err, SB_ERR_RUN, "out of memory");
        next.nvalues += status == SB_OK;
    }
    if (status == SB_OK && !(next.origin = strdup(origin)))
        status = sb_fail(err, SB_ERR_RUN, "out of memory");
    return setting_install(exp, key, &next, status);
}

int sb_experiment_copy(struct sb_experiment *dst, const struct sb_experiment *src,
                       struct sb_error *err)
{
    int status = SB_OK;

    *dst = *src;
    for (int k = 0; k < SB_NKEYS; k++) {
        struct sb_setting *d = &dst->settings[k];
        d->origin = src->settings[k].origin ? strdup(src->settings[k].origin) : NULL;
        for (int v = 0; v < d->nvalues; v++)
            d->values[v] = strdup(src->settings[k].values[v]);
        for (int v = 0; v < d->nvalues && status == SB_OK; v++)
            if (!d->values[v] || (src->settings[k].origin && !d->origin))
                status = sb_fail(err, SB_ERR_RUN, "out of memory copying the experiment");
    }
    if (status != SB_OK)
        sb_experiment_free(dst);
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
    if (section == SECTION_THREAD)
        ps->exp->thread.present = true; /* keys or none: sb_thread_check wants who and table */
}

/* A value, whole: a key of [experiment] (assign), or of [thread]. */
static int on_value(void *user, struct sb_ini_value *v, struct sb_error *err)
{
    struct parse_state *ps = user;

    if (v->section == SECTION_THREAD)
        return sb_thread_key(&ps->exp->thread, v->key, v->text, err);
    return assign(ps->exp, (enum sb_key_id)v->key, v->text, v->origin, err);
}

static void experiment_spec(struct experiment_spec *e)
{
    e->sections[SECTION_EXPERIMENT] = (struct sb_ini_section){
        .name = "experiment", .keys = sb_keys, .once = true,
        .unknown_key = "(`scanbench list` shows the keys)"};
    e->sections[SECTION_THREAD] = (struct sb_ini_section){.name = "thread", .keys = sb_thread_keys,
                                                          .once = true};
    e->sections[2] = (struct sb_ini_section){0};
    e->spec = (struct sb_ini_spec){
        .sections = e->sections,
        .on_section = on_section,
        .on_value = on_value,
    };
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
        status = sb_thread_check(&exp->thread, label, err);
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

/* A --set's origin, as messages name it: "--set KEY=VALUE", a long one cut after its first 60
 * bytes ("--set seed=1,2,3,...,20,2... (48894 bytes)"), so that what is wrong follows close by. */
#define SET_ORIGIN_WHOLE 80
#define SET_ORIGIN_START 60

static void set_origin(char *origin, size_t size, const char *assignment)
{
    size_t n = strlen(assignment);

    if (n <= SET_ORIGIN_WHOLE)
        snprintf(origin, size, "--set %s", assignment);
    else
        snprintf(origin, size, "--set %.*s... (%zu bytes)",
                 (int)sb_utf8_fit(assignment, SET_ORIGIN_START), assignment, n);
}

int sb_experiment_set(struct sb_experiment *exp, const char *assignment, struct sb_error *err)
{
    char origin[SET_ORIGIN_WHOLE + 40], *line = strdup(assignment), *name, *value;
    struct experiment_spec e;
    struct parse_state ps = {.exp = exp};
    int status;

    if (!line) {
        status = sb_fail(err, SB_ERR_RUN, "out of memory");
        goto out;
    }
    set_origin(origin, sizeof origin, assignment);
    experiment_spec(&e);
    if (strpbrk(assignment, "\n\r"))
        status = sb_fail(err, SB_ERR_INPUT, "%s: want one KEY=VALUE (a line break in it)",
                         origin);
    else if (sb_ini_split_line(line, &name, &value) != SB_INI_KEY || !*name)
        status = sb_fail(err, SB_ERR_INPUT, "%s: want KEY=VALUE", origin);
    else
        status = sb_ini_take(&e.spec, SECTION_EXPERIMENT, origin, name, value, &ps, err);
out:
    free(line);
    return status;
}

int sb_experiment_check_no_server_keys(const struct sb_experiment *exp, const char *command,
                                       struct sb_error *err)
{
    for (int k = SB_K_BUFFER_USAGE_LIMIT; k <= SB_K_HUGE_PAGES; k++) {
        const struct sb_setting *s = &exp->settings[k];
        for (int v = 0; v < s->nvalues; v++)
            if (strcmp(s->values[v], "default") != 0)
                return sb_fail(err, SB_ERR_INPUT, "%s: %s: a PostgreSQL server's setting, for "
                               "scanbench pg; %s has no server to give %s = %s to",
                               s->origin, sb_keys[k].name, command, sb_keys[k].name,
                               s->values[v]);
    }
    return SB_OK;
}
