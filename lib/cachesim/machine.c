/* SPDX-License-Identifier: BSD-3-Clause */
/* machine.c: machine models for the cache model: reading configs/machines/NAME.ini (through
 * the core INI reader, driven by the tables of sections and keys below, so that every error
 * names its file, line and key), checking them, listing them, and building the host's model
 * from its topology; a file read once per process while it is unchanged. */
#include "config.h"
#include "cachesim/machine.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

enum { SEC_MACHINE, SEC_L1D, SEC_L2, SEC_L3, SEC_COSTS, NSECTIONS };
enum { K_NAME, K_DESCRIPTION, K_SOURCE, K_WC_BUFFERS, K_PREFETCH, K_WRITE_ALLOCATE,
       K_WRITE_ALLOCATE_SOURCE, K_RFO_SCANNERS, K_RFO_SCANNERS_SOURCE, K_RFO_SHARE,
       K_RFO_SHARE_SOURCE };                                                /* [machine] */
enum { K_SIZE, K_LINE_SIZE, K_ASSOCIATIVITY, K_REPLACEMENT, K_INCLUSION, K_SIZE_SOURCE,
       K_EFFECTIVE_SIZE, K_EFFECTIVE_SIZE_SOURCE };                          /* levels */
/* [costs]: each cost key k (costs.h), then its source at SB_COST_KEYS + k */
#define NKEYS (2 * SB_COST_KEYS)

/* --- parsing ------------------------------------------------------------------------------- */

#define TEXT_MAX(field) (sizeof ((struct sb_machine *)0)->field - 1)

static const struct sb_ini_key machine_keys[] = {
    {.name = "name", .type = SB_INI_WORD, .help = "the model's name (the file's, by default)"},
    {.name = "description", .type = SB_INI_TEXT, .max = TEXT_MAX(description),
     .help = "what the machine is"},
    {.name = "source", .type = SB_INI_TEXT, .max = TEXT_MAX(source),
     .help = "where the figures come from"},
    {.name = "wc_buffers", .type = SB_INI_UINT, .min = 1, .max = SB_CACHESIM_MAX_WC_BUFFERS,
     .help = "the write-combining buffers non-temporal stores go through"},
    {.name = "prefetch", .type = SB_INI_YESNO, .help = "the next-line prefetcher"},
    {.name = "write_allocate", .type = SB_INI_WORD,
     .help = "what a store miss reads first: nt_stores, full_line_loaded or full_line"},
    {.name = "write_allocate_source", .type = SB_INI_TEXT, .max = SB_COST_SOURCE_MAX - 1,
     .help = "where write_allocate comes from (required with it)"},
    {.name = "rfo_evasion_scanners", .type = SB_INI_UINT, .min = 1, .max = 1024,
     .help = "full_line_loaded: the scanners sharing a memory from which it evades"},
    {.name = "rfo_evasion_scanners_source", .type = SB_INI_TEXT, .max = SB_COST_SOURCE_MAX - 1,
     .help = "where rfo_evasion_scanners comes from (required with it)"},
    {.name = "rfo_evasion_share", .type = SB_INI_WORD,
     .help = "full_line_loaded: the share (0 to 1) of whole-line stores' reads evaded then"},
    {.name = "rfo_evasion_share_source", .type = SB_INI_TEXT, .max = SB_COST_SOURCE_MAX - 1,
     .help = "where rfo_evasion_share comes from (required with it)"},
    {0},
};

static const struct sb_ini_key level_keys[] = {
    {.name = "size", .type = SB_INI_SIZE, .min = 1, .max = UINT64_MAX, .help = "bytes"},
    {.name = "line_size", .type = SB_INI_SIZE, .min = 1, .max = UINT64_MAX,
     .help = "bytes a line: divides the page"},
    {.name = "associativity", .type = SB_INI_UINT, .min = 1, .max = SB_CACHESIM_MAX_WAYS,
     .help = "ways"},
    {.name = "replacement", .type = SB_INI_WORD, .help = "lru, plru or pairs (the K8 L2's)"},
    {.name = "inclusion", .type = SB_INI_WORD,
     .help = "inclusive, exclusive or non-inclusive (L2, L3)"},
    {.name = "size_source", .type = SB_INI_TEXT, .max = SB_COST_SOURCE_MAX - 1,
     .help = "where the nominal size comes from (optional)"},
    {.name = "effective_size", .type = SB_INI_SIZE, .min = 1, .max = UINT64_MAX,
     .help = "bytes a core can use (the model takes it; optional)"},
    {.name = "effective_size_source", .type = SB_INI_TEXT, .max = SB_COST_SOURCE_MAX - 1,
     .help = "where effective_size comes from (required with it)"},
    {0},
};

#define COST_KEY(n, what)                                                                   \
    {.name = n, .type = SB_INI_WORD, .help = what}
#define COST_SOURCE(n)                                                                      \
    {.name = n "_source", .type = SB_INI_TEXT, .max = SB_COST_SOURCE_MAX - 1,                \
     .help = "where " n " comes from (required with it)"}

/* In the order of enum sb_cost_key, then the sources in the same order. */
static const struct sb_ini_key cost_keys[] = {
    COST_KEY("clock_ghz", "the core clock, GHz"),
    COST_KEY("l1d_hit_cycles", "an L1d hit, load-to-use cycles"),
    COST_KEY("l2_hit_cycles", "an L2 hit, load-to-use cycles"),
    COST_KEY("l3_hit_cycles", "an L3 hit, load-to-use cycles (with an [L3])"),
    COST_KEY("mem_latency_ns", "an isolated fill from memory, ns"),
    COST_KEY("mem_read_gbps", "a stream of fills from memory, GB/s"),
    COST_KEY("mem_write_gbps", "write-backs to memory, GB/s"),
    COST_KEY("nt_write_gbps", "WC streaming stores to memory, GB/s"),
    COST_KEY("prefetch_hidden", "the fraction (0 to 1) of a sequential fill's latency hidden"),
    COST_KEY("mlp", "fills in flight one stream keeps (a whole number, at least 1)"),
    COST_KEY("memory_controllers", "memories with bandwidths of their own (optional, 1)"),
    COST_KEY("l2_read_gbps", "a stream of L2 hits, GB/s (optional)"),
    COST_KEY("l3_read_gbps", "a stream of L3 hits, GB/s (optional, with an [L3])"),
    COST_SOURCE("clock_ghz"),
    COST_SOURCE("l1d_hit_cycles"),
    COST_SOURCE("l2_hit_cycles"),
    COST_SOURCE("l3_hit_cycles"),
    COST_SOURCE("mem_latency_ns"),
    COST_SOURCE("mem_read_gbps"),
    COST_SOURCE("mem_write_gbps"),
    COST_SOURCE("nt_write_gbps"),
    COST_SOURCE("prefetch_hidden"),
    COST_SOURCE("mlp"),
    COST_SOURCE("memory_controllers"),
    COST_SOURCE("l2_read_gbps"),
    COST_SOURCE("l3_read_gbps"),
    {0},
};

static const struct sb_ini_section sections[] = {
    [SEC_MACHINE] = {.name = "machine", .keys = machine_keys},
    [SEC_L1D] = {.name = "L1d", .keys = level_keys},
    [SEC_L2] = {.name = "L2", .keys = level_keys},
    [SEC_L3] = {.name = "L3", .keys = level_keys},
    [SEC_COSTS] = {.name = "costs", .keys = cost_keys},
    {0},
};

struct parse_state {
    struct sb_machine *m;
    const char *label;
    int line_of[NSECTIONS][NKEYS]; /* where each key was set (0: not set) */
    int section_line[NSECTIONS];   /* the first key line of each section seen */
    struct sb_error *err;
};

static const char *key_name(int section, int key)
{
    return sections[section].keys[key].name;
}

/* Errors found once the file is read, at a line of it (0: none): "FILE:LINE: KEY: what". */
static int fail_at(struct parse_state *ps, int line, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail_at(struct parse_state *ps, int line, const char *key, const char *fmt, ...)
{
    char what[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (line > 0)
        return sb_fail(ps->err, SB_ERR_INPUT, "%s:%d: %s: %s", ps->label, line, key, what);
    return sb_fail(ps->err, SB_ERR_INPUT, "%s: %s: %s", ps->label, key, what);
}

static int parse_enum(const char *const *names, const char *value)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], value) == 0)
            return i;
    return -1;
}

/* [machine]'s write-allocate rule, its evasion's figures and their sources. */
static int set_write_allocate_key(struct sb_machine *m, const struct sb_ini_value *v,
                                  struct sb_error *err)
{
    uint64_t n;
    double x;
    char *end;
    int e;

    switch (v->key) {
    case K_WRITE_ALLOCATE:
        if ((e = parse_enum(sb_write_allocate_names, v->text)) < 0)
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a write-allocate rule (known: "
                           "nt_stores, full_line_loaded, full_line)", v->text);
        m->config.write_allocate = (enum sb_write_allocate)e;
        m->costs.write_allocate = (enum sb_write_allocate)e;
        return SB_OK;
    case K_RFO_SCANNERS:
        if (sb_ini_parse(v->desc, v->text, &n, NULL, err) != SB_OK)
            return SB_ERR_INPUT;
        m->costs.rfo_evasion_scanners = (unsigned)n;
        return SB_OK;
    case K_RFO_SHARE:
        errno = 0;
        x = strtod(v->text, &end);
        if (end == v->text || *end || errno || !(x > 0 && x <= 1))
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a share above 0 and at most 1",
                           v->text);
        m->costs.rfo_evasion_share = x;
        return SB_OK;
    default:
        snprintf(v->key == K_WRITE_ALLOCATE_SOURCE ? m->write_allocate_source
                 : v->key == K_RFO_SCANNERS_SOURCE ? m->rfo_evasion_source[0]
                                                    : m->rfo_evasion_source[1],
                 SB_COST_SOURCE_MAX, "%s", v->text);
        return SB_OK;
    }
}

static int set_machine_key(struct sb_machine *m, const struct sb_ini_value *v,
                           struct sb_error *err)
{
    uint64_t n;

    switch (v->key) {
    case K_NAME:
        if (!*v->text || strlen(v->text) >= sizeof m->name || strpbrk(v->text, " \t/") ||
            !sb_utf8_valid(v->text))
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a name (UTF-8, no blanks or '/', "
                           "under %zu bytes)", v->text, sizeof m->name);
        snprintf(m->name, sizeof m->name, "%s", v->text);
        return SB_OK;
    case K_DESCRIPTION:
        snprintf(m->description, sizeof m->description, "%s", v->text);
        return SB_OK;
    case K_SOURCE:
        snprintf(m->source, sizeof m->source, "%s", v->text);
        return SB_OK;
    case K_WC_BUFFERS:
        if (sb_ini_parse(v->desc, v->text, &n, NULL, err) != SB_OK)
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a whole number from 1 to %d",
                           v->text, SB_CACHESIM_MAX_WC_BUFFERS);
        m->config.wc_buffers = (unsigned)n;
        return SB_OK;
    case K_WRITE_ALLOCATE:
    case K_WRITE_ALLOCATE_SOURCE:
    case K_RFO_SCANNERS:
    case K_RFO_SCANNERS_SOURCE:
    case K_RFO_SHARE:
    case K_RFO_SHARE_SOURCE:
        return set_write_allocate_key(m, v, err);
    default:
        if (sb_ini_parse(v->desc, v->text, &n, NULL, err) != SB_OK)
            return SB_ERR_INPUT;
        m->config.prefetch = n;
        return SB_OK;
    }
}

static int set_level_key(struct sb_machine *m, const struct sb_ini_value *v,
                         struct sb_error *err)
{
    struct sb_cachesim_level_config *c = &m->config.level[v->section - SEC_L1D];
    struct sb_machine_size *sz = &m->sizes[v->section - SEC_L1D];
    uint64_t n = 0;
    int e;

    if (v->key == K_SIZE_SOURCE || v->key == K_EFFECTIVE_SIZE_SOURCE) {
        snprintf(v->key == K_SIZE_SOURCE ? sz->nominal_source : sz->effective_source,
                 SB_COST_SOURCE_MAX, "%s", v->text);
        return SB_OK;
    }
    if (v->desc->type != SB_INI_WORD && v->desc->type != SB_INI_TEXT &&
        sb_ini_parse(v->desc, v->text, &n, NULL, err) != SB_OK)
        return v->key == K_ASSOCIATIVITY
                   ? sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a number of ways from 1 to %d",
                             v->text, SB_CACHESIM_MAX_WAYS)
                   : SB_ERR_INPUT;
    switch (v->key) {
    case K_SIZE:
        c->size = n;
        sz->nominal = n;
        return SB_OK;
    case K_EFFECTIVE_SIZE:
        sz->effective = n;
        return SB_OK;
    case K_LINE_SIZE:
        if (n > SB_MACHINE_PAGE || SB_MACHINE_PAGE % n)
            return sb_fail(err, SB_ERR_INPUT, "%s does not divide the %uKB page", v->text,
                           SB_MACHINE_PAGE / 1024);
        c->line_size = (uint32_t)n;
        return SB_OK;
    case K_ASSOCIATIVITY:
        c->associativity = (uint32_t)n;
        return SB_OK;
    case K_REPLACEMENT:
        if ((e = parse_enum(sb_replacement_names, v->text)) < 0)
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a replacement policy (known: lru, "
                           "plru, pairs)", v->text);
        c->replacement = (enum sb_replacement)e;
        return SB_OK;
    default:
        if (v->section == SEC_L1D)
            return sb_fail(err, SB_ERR_INPUT, "L1d has no level above it (inclusion is set on "
                           "L2 and L3)");
        if ((e = parse_enum(sb_inclusion_names, v->text)) < 0)
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not an inclusion policy (known: "
                           "inclusive, exclusive, non-inclusive)", v->text);
        c->inclusion = (enum sb_inclusion)e;
        return SB_OK;
    }
}

/* A [costs] value or its source. The value: a finite number within its key's range; no machine
 * has a cost or a rate below a millionth of its unit (1e-300 GB/s made a scan last 1e297 s). */
static int set_cost_key(struct sb_machine_costs *c, const struct sb_ini_value *v,
                        struct sb_error *err)
{
    bool fraction = v->key == SB_COST_PREFETCH_HIDDEN;
    double x, lo = fraction ? 0 : 1e-6, hi = fraction ? 1 : 1e6;
    char *end;

    if (v->key >= SB_COST_KEYS) {
        snprintf(c->source[v->key - SB_COST_KEYS], sizeof c->source[0], "%s", v->text);
        return SB_OK;
    }
    errno = 0;
    x = strtod(v->text, &end);
    if (end == v->text || *end || errno || !isfinite(x) || x < lo || x > hi ||
        ((v->key == SB_COST_MLP || v->key == SB_COST_MEMORY_CONTROLLERS) && x != floor(x)))
        return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not %s", v->text,
                       fraction ? "a fraction from 0 to 1"
                       : v->key == SB_COST_MLP || v->key == SB_COST_MEMORY_CONTROLLERS
                           ? "a whole number from 1"
                           : "a positive number from 1e-06 to 1e+06");
    switch (v->key) {
    case SB_COST_CLOCK_GHZ:
        c->clock_ghz = x;
        break;
    case SB_COST_L1D_HIT_CYCLES:
    case SB_COST_L2_HIT_CYCLES:
    case SB_COST_L3_HIT_CYCLES:
        c->hit_cycles[v->key - SB_COST_L1D_HIT_CYCLES] = x;
        break;
    case SB_COST_MEM_LATENCY_NS:
        c->mem_latency_ns = x;
        break;
    case SB_COST_MEM_READ_GBPS:
        c->mem_read_gbps = x;
        break;
    case SB_COST_MEM_WRITE_GBPS:
        c->mem_write_gbps = x;
        break;
    case SB_COST_NT_WRITE_GBPS:
        c->nt_write_gbps = x;
        break;
    case SB_COST_PREFETCH_HIDDEN:
        c->prefetch_hidden = x;
        break;
    case SB_COST_MEMORY_CONTROLLERS:
        c->memory_controllers = (unsigned)x;
        break;
    case SB_COST_L2_READ_GBPS:
    case SB_COST_L3_READ_GBPS:
        c->hit_read_gbps[1 + v->key - SB_COST_L2_READ_GBPS] = x;
        break;
    default:
        c->mlp = (unsigned)x;
        break;
    }
    return SB_OK;
}

/* The reader's handler: one value, whole. */
static int on_value(void *user, struct sb_ini_value *v, struct sb_error *err)
{
    struct parse_state *ps = user;

    ps->line_of[v->section][v->key] = v->line;
    if (!ps->section_line[v->section])
        ps->section_line[v->section] = v->line;
    if (v->section == SEC_MACHINE)
        return set_machine_key(ps->m, v, err);
    if (v->section == SEC_COSTS)
        return set_cost_key(&ps->m->costs, v, err);
    return set_level_key(ps->m, v, err);
}

static const struct sb_ini_spec machine_spec = {
    .sections = sections,
    .lazy_sections = true,
    .on_value = on_value,
};

/* [costs], when given: every value (l3_hit_cycles exactly when there is an [L3];
 * memory_controllers optional, 1; l2_read_gbps and l3_read_gbps optional, the latter only with
 * an [L3]) with its source, and no source without its value. */
static int check_costs(struct parse_state *ps)
{
    const int *line = ps->line_of[SEC_COSTS];
    bool l3 = ps->m->config.nlevels >= 3;

    if (!ps->section_line[SEC_COSTS])
        return SB_OK;
    for (int k = 0; k < SB_COST_KEYS; k++) {
        const char *name = sb_cost_key_names[k];
        if ((k == SB_COST_L3_HIT_CYCLES || k == SB_COST_L3_READ_GBPS) && !l3) {
            if (line[k] || line[SB_COST_KEYS + k])
                return fail_at(ps, line[k] ? line[k] : line[SB_COST_KEYS + k], name,
                               "the machine has no [L3]");
            continue;
        }
        if (k == SB_COST_MEMORY_CONTROLLERS && !line[k] && !line[SB_COST_KEYS + k]) {
            ps->m->costs.memory_controllers = 1;
            continue;
        }
        if ((k == SB_COST_L2_READ_GBPS || k == SB_COST_L3_READ_GBPS) && !line[k] &&
            !line[SB_COST_KEYS + k])
            continue; /* optional: hits at their full latency */
        if (!line[k])
            return fail_at(ps, line[SB_COST_KEYS + k] ? line[SB_COST_KEYS + k]
                                                       : ps->section_line[SEC_COSTS], name,
                           "missing in [costs] (every cost is given, with its source)");
        if (!line[SB_COST_KEYS + k])
            return fail_at(ps, line[k], name, "no %s_source (where the figure comes from: a "
                           "vendor manual, a paper, a published STREAM run, or \"assumed: "
                           "why\")", name);
    }
    ps->m->costs.present = true;
    return SB_OK;
}

/* The model's geometry for an effective size: a power-of-two number of sets of 8 to 16 ways
 * for an LRU level of up to 16 ways (within 1/16 of it), else the level's ways and the
 * largest power-of-two number of sets it holds. */
static void effective_geometry(struct sb_cachesim_level_config *c, uint64_t effective)
{
    uint64_t ways = c->associativity, min_ways = c->replacement == SB_REPL_LRU &&
                                                   ways <= SB_CACHESIM_MAX_LRU_WAYS ? 8 : ways;
    uint64_t sets = 1;

    while (sets * 2 * min_ways * c->line_size <= effective)
        sets *= 2;
    if (min_ways != ways) {
        ways = (effective + sets * c->line_size / 2) / (sets * c->line_size);
        ways = ways < 8 ? 8 : ways > SB_CACHESIM_MAX_LRU_WAYS ? SB_CACHESIM_MAX_LRU_WAYS : ways;
    }
    c->associativity = (uint32_t)ways;
    c->size = sets * ways * c->line_size;
}

/* Level l's model takes its effective size (set): the file's ways kept as the nominal ones. */
static void take_effective(struct sb_machine *m, unsigned l)
{
    m->sizes[l].nominal_ways = m->config.level[l].associativity;
    effective_geometry(&m->config.level[l], m->sizes[l].effective);
}

/* Each level's effective size, with its source, and the geometry the model takes for it. */
static int check_sizes(struct parse_state *ps)
{
    for (unsigned l = 0; l < ps->m->config.nlevels; l++) {
        const int *line = ps->line_of[SEC_L1D + l];
        struct sb_machine_size *sz = &ps->m->sizes[l];
        if (line[K_EFFECTIVE_SIZE_SOURCE] && !line[K_EFFECTIVE_SIZE])
            return fail_at(ps, line[K_EFFECTIVE_SIZE_SOURCE], "effective_size_source",
                           "[%s] has no effective_size", sb_cache_level_names[l]);
        if (!line[K_EFFECTIVE_SIZE])
            continue;
        if (!line[K_EFFECTIVE_SIZE_SOURCE])
            return fail_at(ps, line[K_EFFECTIVE_SIZE], "effective_size", "no "
                           "effective_size_source (how it was found: scanbench probe's sweep, "
                           "a paper, or \"assumed: why\")");
        if (sz->effective < (uint64_t)ps->m->config.level[l].line_size * 8)
            return fail_at(ps, line[K_EFFECTIVE_SIZE], "effective_size", "%llu bytes is less "
                           "than 8 lines", (unsigned long long)sz->effective);
        take_effective(ps->m, l);
    }
    return SB_OK;
}

/* The write-allocate rule: its source with it ("assumed" when not given), and the evasion's
 * figures exactly with full_line_loaded. */
static int check_write_allocate(struct parse_state *ps)
{
    const int *line = ps->line_of[SEC_MACHINE];
    struct sb_machine *m = ps->m;
    bool loaded = m->config.write_allocate == SB_WA_FULL_LINE_LOADED;
    static const int pairs[][2] = {{K_WRITE_ALLOCATE, K_WRITE_ALLOCATE_SOURCE},
                                   {K_RFO_SCANNERS, K_RFO_SCANNERS_SOURCE},
                                   {K_RFO_SHARE, K_RFO_SHARE_SOURCE}};

    for (int i = 0; i < 3; i++) {
        if (line[pairs[i][1]] && !line[pairs[i][0]])
            return fail_at(ps, line[pairs[i][1]], key_name(SEC_MACHINE, pairs[i][1]),
                           "without %s", key_name(SEC_MACHINE, pairs[i][0]));
        if (line[pairs[i][0]] && !line[pairs[i][1]])
            return fail_at(ps, line[pairs[i][0]], key_name(SEC_MACHINE, pairs[i][0]), "no %s "
                           "(where the figure comes from)", key_name(SEC_MACHINE, pairs[i][1]));
        if (i > 0 && loaded != (line[pairs[i][0]] != 0))
            return fail_at(ps, line[pairs[i][0]] ? line[pairs[i][0]] : line[K_WRITE_ALLOCATE],
                           key_name(SEC_MACHINE, pairs[i][0]), loaded ? "missing: "
                           "write_allocate = full_line_loaded needs it" : "only with "
                           "write_allocate = full_line_loaded");
    }
    if (!line[K_WRITE_ALLOCATE])
        snprintf(m->write_allocate_source, sizeof m->write_allocate_source, "assumed: not "
                 "given (every temporal store that misses reads its line first; non-temporal "
                 "stores go through the WC buffers)");
    return SB_OK;
}

/* After the whole file: required keys and sections, then the geometry (cachesim's checks),
 * each error at the line of the key it concerns. */
static int check_machine(struct parse_state *ps)
{
    static const int required[] = {K_SIZE, K_LINE_SIZE, K_ASSOCIATIVITY};
    struct sb_machine *m = ps->m;
    struct sb_cachesim_problem problem;

    if (!ps->section_line[SEC_MACHINE])
        return fail_at(ps, 0, "machine", "no [machine] section (name, description, source, "
                       "wc_buffers, prefetch)");
    if (!ps->line_of[SEC_MACHINE][K_DESCRIPTION] || !ps->line_of[SEC_MACHINE][K_SOURCE])
        return fail_at(ps, ps->section_line[SEC_MACHINE],
                       ps->line_of[SEC_MACHINE][K_DESCRIPTION] ? "source" : "description",
                       "missing in [machine] (say what the machine is and where the figures "
                       "come from)");
    if (!ps->line_of[SEC_MACHINE][K_WC_BUFFERS])
        return fail_at(ps, ps->section_line[SEC_MACHINE], "wc_buffers", "missing in [machine] "
                       "(the write-combining buffers non-temporal stores go through)");
    for (int s = SEC_L1D; s <= SEC_L3; s++) {
        if (!ps->section_line[s]) {
            if (s == SEC_L3)
                break;
            return fail_at(ps, 0, sections[s].name, "no [%s] section (every machine has [L1d] "
                           "and [L2])", sections[s].name);
        }
        for (size_t k = 0; k < sizeof required / sizeof *required; k++)
            if (!ps->line_of[s][required[k]])
                return fail_at(ps, ps->section_line[s], key_name(s, required[k]), "missing in "
                               "[%s]", sections[s].name);
        m->config.nlevels = (unsigned)(s - SEC_L1D + 1);
    }
    if (check_sizes(ps) != SB_OK || check_write_allocate(ps) != SB_OK)
        return SB_ERR_INPUT;
    if (sb_cachesim_config_check(&m->config, &problem) != SB_OK) {
        int section = problem.level < 0 ? SEC_MACHINE : SEC_L1D + problem.level;
        int key = sb_ini_key_find(sections[section].keys, problem.key);
        int line = key >= 0 && ps->line_of[section][key] ? ps->line_of[section][key]
                                                         : ps->section_line[section];
        return fail_at(ps, line, problem.key, "[%s] %s", sections[section].name, problem.what);
    }
    return check_costs(ps);
}

static int parse(struct sb_ini_lines *reader, const char *label, struct sb_machine *m,
                 struct sb_error *err)
{
    struct parse_state ps = {.m = m, .label = label, .err = err};
    const char *base = strrchr(label, '/') ? strrchr(label, '/') + 1 : label;
    size_t name_len = strcspn(base, ".");
    int status;

    memset(m, 0, sizeof *m);
    snprintf(m->file, sizeof m->file, "%s", label);
    name_len = sb_utf8_fit(base, name_len < sizeof m->name ? name_len : sizeof m->name - 1);
    snprintf(m->name, sizeof m->name, "%.*s", (int)name_len, base);
    status = sb_ini_read(reader, label, &machine_spec, &ps, err);
    return status == SB_OK ? check_machine(&ps) : status;
}

int sb_machine_parse(const char *text, const char *label, struct sb_machine *m,
                     struct sb_error *err)
{
    struct sb_ini_lines reader = {.text = text};
    return parse(&reader, label, m, err);
}

/* The machine files read so far in this process, by path, each with the file's identity when
 * read (file_id.h): a file read again only when it changed. A reproduction plans every
 * experiment and each emulation of its thread's machine with the same few files. */
static struct sb_file_memo memo = {.cap = SB_FILE_MEMO_MAX};
static struct sb_machine kept[SB_FILE_MEMO_MAX];

int sb_machine_load(const char *name, struct sb_machine *m, struct sb_error *err)
{
    struct sb_file_id id;
    bool regular;
    struct sb_ini_lines reader;
    char path[SB_PATH_MAX], known[512];
    int slot, status = sb_path_check(name, err);

    if (status != SB_OK)
        return status;
    if (!strchr(name, '/') && sb_configs_find("machines", name, path, sizeof path, NULL) != SB_OK) {
        sb_machine_known(known, sizeof known);
        return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a known machine (known: auto%s%s; or "
                       "a path to a machine file)", name, known[0] ? ", " : "", known);
    }
    if (strchr(name, '/'))
        snprintf(path, sizeof path, "%s", name);
    regular = sb_file_id_of(path, &id);
    if (regular && (slot = sb_file_memo_find(&memo, path, &id)) >= 0) {
        *m = kept[slot];
        return SB_OK;
    }
    status = sb_ini_open(&reader, path, err);
    if (status != SB_OK)
        return status;
    status = parse(&reader, path, m, err);
    sb_ini_close(&reader);
    if (status == SB_OK && regular && (slot = sb_file_memo_take(&memo, path, &id)) >= 0)
        kept[slot] = *m;
    return status;
}

void sb_machine_set_effective(struct sb_machine *m, unsigned l, uint64_t effective,
                              const char *source)
{
    struct sb_machine_size *sz = &m->sizes[l];

    if (!sz->nominal)
        sz->nominal = m->config.level[l].size;
    sz->effective = effective;
    snprintf(sz->effective_source, sizeof sz->effective_source, "%s", source);
    take_effective(m, l);
}

/* --- listing --------------------------------------------------------------------------------- */

void sb_machine_known(char *buf, size_t len)
{
    char names[128][SB_CONFIGS_NAME_MAX];
    int n = sb_configs_names("machines", false, NULL, names, 128);
    size_t used = 0;

    buf[0] = '\0';
    for (int i = 0; i < n; i++)
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", i ? ", " : "",
                                 names[i]);
}

const char *sb_machine_geometry(const struct sb_machine *m, char *buf, size_t len)
{
    size_t used = 0;
    char size[32];

    buf[0] = '\0';
    for (unsigned l = 0; l < m->config.nlevels; l++) {
        const struct sb_cachesim_level_config *c = &m->config.level[l];
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s %s %u-way %s%s%s, ",
                                 sb_cache_level_names[l], sb_format_size(c->size, size, sizeof size),
                                 c->associativity, sb_replacement_names[c->replacement],
                                 l ? " " : "", l ? sb_inclusion_names[c->inclusion] : "");
    }
    snprintf(buf + used, used < len ? len - used : 0, "%uB lines, %u WC buffers",
             m->config.level[0].line_size, m->config.wc_buffers);
    return buf;
}

/* --- the host's model ------------------------------------------------------------------------- */

static void note(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void note(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strlen(buf);
    va_list ap;

    if (used + 2 >= len)
        return;
    if (used)
        used += (size_t)snprintf(buf + used, len - used, "; ");
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

/* Level l of the host's model from its topology: its line size the model's one, LRU, the ways
 * LRU keeps in order at most, a power-of-two number of sets; each assumption noted. */
static void level_from_topology(const struct sb_topology *topo, int l, uint32_t line, bool amd,
                                struct sb_cachesim_level_config *c, char *assumed, size_t len)
{
    uint64_t ways = topo->cache[l].assoc.value, sets, pow2 = 1;
    char a[32], b[32];

    if (topo->cache[l].line.value && topo->cache[l].line.value != line)
        note(assumed, len, "%s line %lluB modelled as %uB (one line size)",
             sb_cache_level_names[l], (unsigned long long)topo->cache[l].line.value, line);
    if (ways == 0) {
        ways = l == SB_L1D ? 8 : 16;
        note(assumed, len, "%s associativity %s: %llu ways assumed",
             sb_cache_level_names[l],
             strcmp(topo->cache[l].assoc.source ? topo->cache[l].assoc.source : "unknown",
                    "unknown") == 0 ? "unknown" : "full",
             (unsigned long long)ways);
    }
    if (ways > SB_CACHESIM_MAX_LRU_WAYS) {
        note(assumed, len, "%s %llu ways modelled as %d (LRU keeps 16 in order)",
             sb_cache_level_names[l], (unsigned long long)ways, SB_CACHESIM_MAX_LRU_WAYS);
        ways = SB_CACHESIM_MAX_LRU_WAYS;
    }
    sets = topo->cache[l].size.value / (ways * line);
    while (pow2 * 2 <= sets)
        pow2 *= 2;
    c->size = pow2 * ways * line;
    c->line_size = line;
    c->associativity = (uint32_t)ways;
    c->replacement = SB_REPL_LRU;
    c->inclusion = l == SB_L2 ? SB_INCL_NON_INCLUSIVE
                   : l == SB_L3 ? (amd ? SB_INCL_EXCLUSIVE : SB_INCL_INCLUSIVE)
                                : SB_INCL_NON_INCLUSIVE;
    if (c->size != topo->cache[l].size.value)
        note(assumed, len, "%s %s modelled as %s (a power-of-two number of sets)",
             sb_cache_level_names[l], sb_format_size(topo->cache[l].size.value, a, sizeof a),
             sb_format_size(c->size, b, sizeof b));
}

int sb_machine_from_topology(const struct sb_topology *topo, const char *vendor,
                             struct sb_machine *m, struct sb_error *err)
{
    bool amd = vendor && strcmp(vendor, "AuthenticAMD") == 0;
    char assumed[512] = "", geometry[256];
    uint32_t line = 64;
    struct sb_cachesim_problem problem;

    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "auto");
    snprintf(m->file, sizeof m->file, "the host topology");
    for (int l = 0; l < SB_NLEVELS; l++)
        if (l < SB_L3 && topo->cache[l].size.value == 0)
            return sb_fail(err, SB_ERR_INPUT, "the host's %s size is unknown (source %s): name a "
                           "machine model instead of auto", sb_cache_level_names[l],
                           topo->cache[l].size.source ? topo->cache[l].size.source : "unknown");
    if (topo->cache[SB_L1D].line.value)
        line = (uint32_t)topo->cache[SB_L1D].line.value;
    else
        note(assumed, sizeof assumed, "line size unknown: 64B assumed");
    for (int l = 0; l < SB_NLEVELS && topo->cache[l].size.value; l++) {
        level_from_topology(topo, l, line, amd, &m->config.level[l], assumed, sizeof assumed);
        m->config.nlevels = (unsigned)l + 1;
    }
    if (m->config.nlevels == 3 && m->config.level[2].inclusion == SB_INCL_INCLUSIVE &&
        m->config.level[2].size <= m->config.level[1].size) {
        m->config.level[2].inclusion = SB_INCL_NON_INCLUSIVE;
        note(assumed, sizeof assumed, "L3 no larger than L2: non-inclusive");
    }
    m->config.wc_buffers = 10;
    m->config.prefetch = false;
    snprintf(m->write_allocate_source, sizeof m->write_allocate_source, "assumed: not given "
             "(the topology does not say; every temporal store that misses reads its line "
             "first; scanbench probe measures the host's rule)");
    note(assumed, sizeof assumed, "LRU at every level, L2 non-inclusive, L3 %s, 10 WC buffers",
         m->config.nlevels < 3 ? "absent"
         : m->config.level[2].inclusion == SB_INCL_EXCLUSIVE ? "an exclusive victim cache of L2 "
                                                              "(AMD Zen)"
         : m->config.level[2].inclusion == SB_INCL_INCLUSIVE ? "inclusive" : "non-inclusive");
    if (sb_cachesim_config_check(&m->config, &problem) != SB_OK)
        return sb_fail(err, SB_ERR_INPUT, "machine=auto: the host's caches make no model: %s%s%s: "
                       "%s", problem.level >= 0 ? sb_cache_level_names[problem.level] : "",
                       problem.level >= 0 ? " " : "", problem.key, problem.what);
    snprintf(m->description, sizeof m->description, "this host (%s): %s; assumed: %s",
             topo->cache[SB_L2].size.source ? topo->cache[SB_L2].size.source : "topology",
             sb_machine_geometry(m, geometry, sizeof geometry), assumed);
    snprintf(m->source, sizeof m->source, "the host's topology (hwloc, else sysfs, else CPUID; "
             "see the report's context.caches)");
    return SB_OK;
}
