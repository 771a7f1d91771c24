/* machine.c: machine models for the cache model: reading configs/machines/NAME.ini (inih, fed
 * through our own line reader so that every error names its file and line), checking them,
 * listing them, and building the host's model from its topology. */
#include "config.h"
#include "cachesim/machine.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

enum { SEC_MACHINE, SEC_L1D, SEC_L2, SEC_L3, NSECTIONS };
static const char *const section_names[NSECTIONS] = {"machine", "L1d", "L2", "L3"};

enum {
    K_NAME, K_DESCRIPTION, K_SOURCE, K_WC_BUFFERS, K_PREFETCH,             /* [machine] */
    K_SIZE, K_LINE_SIZE, K_ASSOCIATIVITY, K_REPLACEMENT, K_INCLUSION,      /* levels */
    NKEYS
};
static const char *const key_names[NKEYS] = {"name", "description", "source", "wc_buffers",
                                             "prefetch", "size", "line_size", "associativity",
                                             "replacement", "inclusion"};

/* --- parsing ------------------------------------------------------------------------------- */

struct parse_state {
    struct sb_machine *m;
    struct sb_ini_lines *reader;
    const char *label;
    int line_of[NSECTIONS][NKEYS]; /* where each key was set (0: not set) */
    int section_line[NSECTIONS];   /* the first key line of each section seen */
    int last_section, last_key;    /* for continuation lines */
    struct sb_error *err;
    int status;
};

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
        ps->status = sb_fail(ps->err, SB_ERR_INPUT, "%s:%d: %s: %s", ps->label, line, key, what);
    else
        ps->status = sb_fail(ps->err, SB_ERR_INPUT, "%s: %s: %s", ps->label, key, what);
    return ps->status;
}

static int find_index(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

static int parse_enum(const char *const *names, const char *value)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], value) == 0)
            return i;
    return -1;
}

/* A text value into its field, or (continued) after what the field holds, joined with a
 * blank: UTF-8 (a report holds it) and fitting, never cut. */
static int put_text(struct parse_state *ps, int line, const char *key, char *field, size_t size,
                    const char *value, bool continued)
{
    size_t used = continued ? strlen(field) : 0;

    if (!sb_utf8_valid(value))
        return fail_at(ps, line, key, "not UTF-8 (a report holds UTF-8 text only)");
    if (used + (used ? 1 : 0) + strlen(value) >= size)
        return fail_at(ps, line, key, "longer than %zu bytes", size - 1);
    snprintf(field + used, size - used, "%s%s", used ? " " : "", value);
    return SB_OK;
}

static int set_machine_key(struct parse_state *ps, int key, const char *value, int line)
{
    struct sb_machine *m = ps->m;
    uint64_t n;

    switch (key) {
    case K_NAME:
        if (!*value || strlen(value) >= sizeof m->name || strpbrk(value, " \t/") ||
            !sb_utf8_valid(value))
            return fail_at(ps, line, "name", "\"%s\" is not a name (UTF-8, no blanks or '/', "
                           "under %zu bytes)", value, sizeof m->name);
        snprintf(m->name, sizeof m->name, "%s", value);
        return SB_OK;
    case K_DESCRIPTION:
        return put_text(ps, line, "description", m->description, sizeof m->description, value,
                        false);
    case K_SOURCE:
        return put_text(ps, line, "source", m->source, sizeof m->source, value, false);
    case K_WC_BUFFERS:
        if (!sb_parse_uint(value, &n) || n < 1 || n > SB_CACHESIM_MAX_WC_BUFFERS)
            return fail_at(ps, line, "wc_buffers", "\"%s\" is not a whole number from 1 to %d",
                           value, SB_CACHESIM_MAX_WC_BUFFERS);
        m->config.wc_buffers = (unsigned)n;
        return SB_OK;
    case K_PREFETCH:
        if (strcmp(value, "yes") == 0 || strcmp(value, "no") == 0) {
            m->config.prefetch = strcmp(value, "yes") == 0;
            return SB_OK;
        }
        return fail_at(ps, line, "prefetch", "\"%s\" is not yes or no", value);
    default:
        return fail_at(ps, line, key_names[key], "unknown key in [machine] (name, description, "
                       "source, wc_buffers, prefetch)");
    }
}

static int set_level_key(struct parse_state *ps, int section, int key, const char *value, int line)
{
    struct sb_cachesim_level_config *c = &ps->m->config.level[section - SEC_L1D];
    uint64_t n;
    int e;

    switch (key) {
    case K_SIZE:
        if (!sb_parse_size(value, &n) || n == 0)
            return fail_at(ps, line, "size", "\"%s\" is not a size (e.g. 64K, 1M)", value);
        c->size = n;
        return SB_OK;
    case K_LINE_SIZE:
        if (!sb_parse_size(value, &n) || n == 0)
            return fail_at(ps, line, "line_size", "\"%s\" is not a size in bytes (e.g. 64)",
                           value);
        if (n > SB_MACHINE_PAGE || SB_MACHINE_PAGE % n)
            return fail_at(ps, line, "line_size", "%s does not divide the %uKB page", value,
                           SB_MACHINE_PAGE / 1024);
        c->line_size = (uint32_t)n;
        return SB_OK;
    case K_ASSOCIATIVITY:
        if (!sb_parse_uint(value, &n) || n == 0 || n > SB_CACHESIM_MAX_WAYS)
            return fail_at(ps, line, "associativity", "\"%s\" is not a number of ways from 1 to "
                           "%d", value, SB_CACHESIM_MAX_WAYS);
        c->associativity = (uint32_t)n;
        return SB_OK;
    case K_REPLACEMENT:
        if ((e = parse_enum(sb_replacement_names, value)) < 0)
            return fail_at(ps, line, "replacement", "\"%s\" is not a replacement policy (known: "
                           "lru, plru)", value);
        c->replacement = (enum sb_replacement)e;
        return SB_OK;
    case K_INCLUSION:
        if (section == SEC_L1D)
            return fail_at(ps, line, "inclusion", "L1d has no level above it (inclusion is "
                           "set on L2 and L3)");
        if ((e = parse_enum(sb_inclusion_names, value)) < 0)
            return fail_at(ps, line, "inclusion", "\"%s\" is not an inclusion policy (known: "
                           "inclusive, exclusive, non-inclusive)", value);
        c->inclusion = (enum sb_inclusion)e;
        return SB_OK;
    default:
        return fail_at(ps, line, key_names[key], "unknown key in [%s] (size, line_size, "
                       "associativity, replacement, inclusion)", section_names[section]);
    }
}

static int on_key(void *user, const char *section_name, const char *name, const char *value)
{
    struct parse_state *ps = user;
    int line = ps->reader->line, section, key;

    if (ps->status != SB_OK)
        return 0; /* inih goes on after an error: keep the first */
    if (ps->reader->too_long) {
        fail_at(ps, line, name, "line longer than %d characters", INI_MAX_LINE - 2);
        return 0;
    }
    section = find_index(section_names, NSECTIONS, section_name);
    if (section < 0) {
        fail_at(ps, line, name, "unknown section [%s] (known: [machine], [L1d], [L2], [L3])",
                section_name);
        return 0;
    }
    key = find_index(key_names, NKEYS, name);
    if (key < 0 || (section == SEC_MACHINE) != (key < K_SIZE)) {
        fail_at(ps, line, name, "unknown key in [%s] (%s)", section_names[section],
                section == SEC_MACHINE ? "name, description, source, wc_buffers, prefetch"
                                       : "size, line_size, associativity, replacement, inclusion");
        return 0;
    }
    if (ps->reader->continued && ps->last_section == section && ps->last_key == key) {
        char other[64];
        if (sb_ini_key_line(value, other, sizeof other) &&
            find_index(key_names, NKEYS, other) >= 0)
            fail_at(ps, line, name, "\"%s\": an indented line goes on with the value above; a "
                    "key of its own starts its line", value);
        else if (key == K_DESCRIPTION || key == K_SOURCE)
            put_text(ps, line, name, key == K_DESCRIPTION ? ps->m->description : ps->m->source,
                     key == K_DESCRIPTION ? sizeof ps->m->description : sizeof ps->m->source,
                     value, true);
        else
            fail_at(ps, line, name, "an indented line goes on with the value above: only "
                    "description and source take more than one line (a key of its own starts "
                    "its line)");
        return ps->status == SB_OK;
    }
    if (ps->line_of[section][key]) {
        fail_at(ps, line, name, "set twice in [%s] (first at line %d)", section_names[section],
                ps->line_of[section][key]);
        return 0;
    }
    ps->line_of[section][key] = line;
    if (!ps->section_line[section])
        ps->section_line[section] = line;
    ps->last_section = section;
    ps->last_key = key;
    if (section == SEC_MACHINE)
        set_machine_key(ps, key, value, line);
    else
        set_level_key(ps, section, key, value, line);
    return ps->status == SB_OK;
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
    for (int s = SEC_L1D; s < NSECTIONS; s++) {
        if (!ps->section_line[s]) {
            if (s == SEC_L3)
                break;
            return fail_at(ps, 0, section_names[s], "no [%s] section (every machine has [L1d] "
                           "and [L2])", section_names[s]);
        }
        for (size_t k = 0; k < sizeof required / sizeof *required; k++)
            if (!ps->line_of[s][required[k]])
                return fail_at(ps, ps->section_line[s], key_names[required[k]], "missing in "
                               "[%s]", section_names[s]);
        m->config.nlevels = (unsigned)(s - SEC_L1D + 1);
    }
    if (sb_cachesim_config_check(&m->config, &problem) != SB_OK) {
        int section = problem.level < 0 ? SEC_MACHINE : SEC_L1D + problem.level;
        int key = find_index(key_names, NKEYS, problem.key);
        int line = key >= 0 && ps->line_of[section][key] ? ps->line_of[section][key]
                                                         : ps->section_line[section];
        return fail_at(ps, line, problem.key, "[%s] %s", section_names[section], problem.what);
    }
    return SB_OK;
}

static int parse(struct sb_ini_lines *reader, const char *label, struct sb_machine *m,
                 struct sb_error *err)
{
    struct parse_state ps = {.m = m, .reader = reader, .label = label, .err = err,
                             .last_section = -1, .last_key = -1};
    const char *base = strrchr(label, '/') ? strrchr(label, '/') + 1 : label;
    size_t name_len = strcspn(base, ".");
    int rc, status;

    memset(m, 0, sizeof *m);
    snprintf(m->file, sizeof m->file, "%s", label);
    name_len = sb_utf8_fit(base, name_len < sizeof m->name ? name_len : sizeof m->name - 1);
    snprintf(m->name, sizeof m->name, "%.*s", (int)name_len, base);
    rc = ini_parse_stream(sb_ini_read_line, reader, on_key, &ps);
    if (ps.status != SB_OK)
        return ps.status;
    if ((status = sb_ini_finish(reader, label, err)) != SB_OK)
        return status;
    if (rc > 0)
        return sb_fail(err, SB_ERR_INPUT, "%s:%d: not a valid INI line (want key = value or "
                       "[section])", label, rc);
    if (rc != 0)
        return sb_fail(err, SB_ERR_RUN, "%s: cannot parse (out of memory)", label);
    return check_machine(&ps);
}

int sb_machine_parse(const char *text, const char *label, struct sb_machine *m,
                     struct sb_error *err)
{
    struct sb_ini_lines reader = {.text = text};
    return parse(&reader, label, m, err);
}

int sb_machine_load(const char *name, struct sb_machine *m, struct sb_error *err)
{
    struct sb_ini_lines reader;
    char path[SB_PATH_MAX], known[512];
    int status = sb_path_check(name, err);

    if (status != SB_OK)
        return status;
    if (!strchr(name, '/') && sb_configs_find("machines", name, path, sizeof path, NULL) != SB_OK) {
        sb_machine_known(known, sizeof known);
        return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a known machine (known: auto%s%s; or "
                       "a path to a machine file)", name, known[0] ? ", " : "", known);
    }
    if (strchr(name, '/'))
        snprintf(path, sizeof path, "%s", name);
    status = sb_ini_open(&reader, path, err);
    if (status != SB_OK)
        return status;
    status = parse(&reader, path, m, err);
    sb_ini_close(&reader);
    return status;
}

/* --- listing --------------------------------------------------------------------------------- */

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void sb_machine_known(char *buf, size_t len)
{
    const char *dirs[SB_CONFIGS_MAX_DIRS];
    char *names[128];
    int n = 0, ndirs = sb_configs_dirs(dirs);
    size_t used = 0;

    buf[0] = '\0';
    for (int d = 0; d < ndirs; d++) {
        char path[1024];
        DIR *dir;
        struct dirent *e;

        snprintf(path, sizeof path, "%s/machines", dirs[d]);
        if (!(dir = opendir(path)))
            continue;
        while ((e = readdir(dir)) != NULL && n < 128) {
            size_t l = strlen(e->d_name);
            bool seen = false;
            if (l < 5 || strcmp(e->d_name + l - 4, ".ini") != 0)
                continue;
            for (int i = 0; i < n; i++)
                seen |= strncmp(names[i], e->d_name, l - 4) == 0 && names[i][l - 4] == '\0';
            if (!seen && (names[n] = strndup(e->d_name, l - 4)) != NULL)
                n++;
        }
        closedir(dir);
    }
    qsort(names, (size_t)n, sizeof *names, compare_names);
    for (int i = 0; i < n; i++) {
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", i ? ", " : "",
                                 names[i]);
        free(names[i]);
    }
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

int sb_machine_from_topology(const struct sb_topology *topo, const char *vendor,
                             struct sb_machine *m, struct sb_error *err)
{
    bool amd = vendor && strcmp(vendor, "AuthenticAMD") == 0;
    char assumed[512] = "", geometry[256], a[32], b[32];
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
        struct sb_cachesim_level_config *c = &m->config.level[l];
        uint64_t ways = topo->cache[l].assoc.value, sets, pow2 = 1;

        if (topo->cache[l].line.value && topo->cache[l].line.value != line)
            note(assumed, sizeof assumed, "%s line %lluB modelled as %uB (one line size)",
                 sb_cache_level_names[l], (unsigned long long)topo->cache[l].line.value, line);
        if (ways == 0) {
            ways = l == SB_L1D ? 8 : 16;
            note(assumed, sizeof assumed, "%s associativity %s: %llu ways assumed",
                 sb_cache_level_names[l],
                 strcmp(topo->cache[l].assoc.source ? topo->cache[l].assoc.source : "unknown",
                        "unknown") == 0 ? "unknown" : "full",
                 (unsigned long long)ways);
        }
        if (ways > SB_CACHESIM_MAX_LRU_WAYS) {
            note(assumed, sizeof assumed, "%s %llu ways modelled as %d (LRU keeps 16 in order)",
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
            note(assumed, sizeof assumed, "%s %s modelled as %s (a power-of-two number of sets)",
                 sb_cache_level_names[l], sb_format_size(topo->cache[l].size.value, a, sizeof a),
                 sb_format_size(c->size, b, sizeof b));
        m->config.nlevels = (unsigned)l + 1;
    }
    if (m->config.nlevels == 3 && m->config.level[2].inclusion == SB_INCL_INCLUSIVE &&
        m->config.level[2].size <= m->config.level[1].size) {
        m->config.level[2].inclusion = SB_INCL_NON_INCLUSIVE;
        note(assumed, sizeof assumed, "L3 no larger than L2: non-inclusive");
    }
    m->config.wc_buffers = 10;
    m->config.prefetch = false;
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
    snprintf(m->source, sizeof m->source, "the host's topology (hwloc, else sysfs; see the "
             "report's context.caches)");
    return SB_OK;
}
