/* events_map.c: reading and checking configs/events/<arch>.ini (inih, through the shared line
 * reader lib/ini_lines, so that every error names its file and line), and choosing the map for
 * this CPU (a table of vendor/family/model ranges) or the one `--set events=FILE` names. */
#include "config.h"
#include "counters/events_map.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "host/host.h"
#ifdef HAVE_LIBPFM
#include "counters/events_pfm.h"
#endif

/* --- which map for which CPU ------------------------------------------------------------------ */

static const struct cpu_map_row {
    const char *vendor;
    unsigned family, model_lo, model_hi;
    const char *map, *what;
} cpu_maps[] = {
    {"AuthenticAMD", 0x0f, 0x40, 0xff, "amd-k8", "AMD K8 rev F or later"},
    {"AuthenticAMD", 0x10, 0x00, 0xff, "amd-fam10h", "AMD family 10h (Barcelona..Istanbul)"},
    {"AuthenticAMD", 0x17, 0x30, 0x4f, "amd-zen2", "AMD Zen 2"},
    {"AuthenticAMD", 0x17, 0x60, 0x7f, "amd-zen2", "AMD Zen 2"},
    {"AuthenticAMD", 0x17, 0x90, 0x91, "amd-zen2", "AMD Zen 2"},
    {"AuthenticAMD", 0x17, 0xa0, 0xaf, "amd-zen2", "AMD Zen 2"},
    {"AuthenticAMD", 0x19, 0x00, 0x0f, "amd-zen3", "AMD Zen 3"},
    {"AuthenticAMD", 0x19, 0x20, 0x5f, "amd-zen3", "AMD Zen 3"},
    {"AuthenticAMD", 0x19, 0x10, 0x1f, "amd-zen4", "AMD Zen 4"},
    {"AuthenticAMD", 0x19, 0x60, 0xff, "amd-zen4", "AMD Zen 4"},
    {"AuthenticAMD", 0x1a, 0x00, 0x2f, "amd-zen5", "AMD Zen 5"},
    {"AuthenticAMD", 0x1a, 0x40, 0x4f, "amd-zen5", "AMD Zen 5"},
    {"AuthenticAMD", 0x1a, 0x60, 0x7f, "amd-zen5", "AMD Zen 5"},
    {"GenuineIntel", 6, 0x0f, 0x0f, "intel-core2", "Intel Core 2 (Merom/Clovertown)"},
    {"GenuineIntel", 6, 0x16, 0x16, "intel-core2", "Intel Core 2 (Merom-L)"},
    {"GenuineIntel", 6, 0x17, 0x17, "intel-core2", "Intel Core 2 (Penryn/Harpertown)"},
    {"GenuineIntel", 6, 0x1d, 0x1d, "intel-core2", "Intel Core 2 (Dunnington)"},
    {"GenuineIntel", 6, 0x1a, 0x1a, "intel-nehalem", "Intel Nehalem-EP (Gainestown/Bloomfield)"},
    {"GenuineIntel", 6, 0x1e, 0x1f, "intel-nehalem", "Intel Nehalem (Lynnfield)"},
    {"GenuineIntel", 6, 0x2e, 0x2e, "intel-nehalem", "Intel Nehalem-EX"},
    {"GenuineIntel", 6, 0x25, 0x25, "intel-nehalem", "Intel Westmere (Clarkdale)"},
    {"GenuineIntel", 6, 0x2c, 0x2c, "intel-nehalem", "Intel Westmere-EP"},
    {"GenuineIntel", 6, 0x2f, 0x2f, "intel-nehalem", "Intel Westmere-EX"},
    {"GenuineIntel", 6, 0x55, 0x55, "intel-skx", "Intel Skylake-SP/Cascade Lake/Cooper Lake"},
    {"GenuineIntel", 6, 0x6a, 0x6a, "intel-icx", "Intel Ice Lake-SP"},
    {"GenuineIntel", 6, 0x6c, 0x6c, "intel-icx", "Intel Ice Lake-D"},
    {"GenuineIntel", 6, 0x8f, 0x8f, "intel-spr", "Intel Sapphire Rapids"},
};

const char *sb_events_map_for_cpu(const char *vendor, unsigned family, unsigned model,
                                  char *what, size_t len)
{
    for (size_t i = 0; i < sizeof cpu_maps / sizeof cpu_maps[0]; i++) {
        const struct cpu_map_row *r = &cpu_maps[i];
        if (strcmp(vendor, r->vendor) == 0 && family == r->family && model >= r->model_lo &&
            model <= r->model_hi) {
            snprintf(what, len, "%s", r->what);
            return r->map;
        }
    }
    if (strcmp(vendor, "AuthenticAMD") == 0 && family == 0x0f)
        snprintf(what, len, "AMD K8 before rev F: no events map (L2 write-backs are counted from "
                 "rev F on)");
    else if (strcmp(vendor, "AuthenticAMD") == 0 && family == 0x17)
        snprintf(what, len, "AMD Zen/Zen+: no events map (maps: Zen 2 to Zen 5)");
    else
        snprintf(what, len, "no events map for %s family 0x%x model 0x%02x (maps: amd-k8, "
                 "amd-fam10h, amd-zen2..5, intel-core2, intel-nehalem, intel-skx, intel-icx, "
                 "intel-spr; choose one with --set events=FILE)",
                 vendor[0] ? vendor : "an unknown vendor", family, model);
    return NULL;
}

/* --- reading a map file ---------------------------------------------------------------------- */

enum { SECTION_NONE = -2, SECTION_MAP = -1 }; /* else a role */

struct reader {
    const char *path;
    struct sb_ini_lines *lines; /* inih's line reader, while the file is read */
    int line;                   /* the line read, or the one an error is about */
    int section;
    bool seen_section[SB_NROLES + 1]; /* [0] is [map] */
    bool seen_description, seen_pmus;
    bool seen_key[SB_NROLES][5];
    struct sb_events_map *map;
    struct sb_error *err;
    int status;                 /* the first error's status, and its line */
    int error_line;
};

static const char *const role_keys[] = {"events", "scale", "counts", "caveats", "reason"};
enum { KEY_EVENTS, KEY_SCALE, KEY_COUNTS, KEY_CAVEATS, KEY_REASON, NROLE_KEYS };

static int fail_at(struct reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int fail_at(struct reader *r, const char *fmt, ...)
{
    char what[600];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    r->error_line = r->line;
    r->status = sb_fail(r->err, SB_ERR_INPUT, "%s:%d: %s", r->path, r->line, what);
    return r->status;
}

static void known_roles(char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "map");
    for (int k = 0; k < SB_NROLES && used < len; k++)
        used += (size_t)snprintf(buf + used, len - used, ", %s", sb_role_names[k]);
}

/* A text value into its field, or (continued) after what the field holds, joined with a
 * blank: UTF-8 (a report holds it) and fitting, never cut. what names it in errors. */
static int put_text(struct reader *r, const char *what, char *field, size_t size,
                    const char *value, bool continued)
{
    size_t used = continued ? strlen(field) : 0;

    if (!sb_utf8_valid(value))
        return fail_at(r, "%s: not UTF-8 (a report holds UTF-8 text only)", what);
    if (used + (used ? 1 : 0) + strlen(value) >= size)
        return fail_at(r, "%s: longer than %zu bytes", what, size - 1);
    snprintf(field + used, size - used, "%s%s", used ? " " : "", value);
    return SB_OK;
}

static int on_section(struct reader *r, const char *name)
{
    char known[512];

    if (strcmp(name, "map") == 0) {
        r->section = SECTION_MAP;
    } else {
        r->section = SECTION_NONE;
        for (int k = 0; k < SB_NROLES; k++)
            if (strcmp(name, sb_role_names[k]) == 0)
                r->section = k;
        if (r->section == SECTION_NONE) {
            known_roles(known, sizeof known);
            return fail_at(r, "[%s]: unknown role (known: %s)", name, known);
        }
    }
    if (r->seen_section[r->section + 1])
        return fail_at(r, "[%s]: section given twice", name);
    r->seen_section[r->section + 1] = true;
    if (r->section >= 0) {
        r->map->roles[r->section].line = r->line;
        r->map->roles[r->section].scale = 1.0;
    }
    return SB_OK;
}

/* The hook of the line reader: inih itself tells no handler of a section (see ini_lines.h). */
static bool on_section_line(void *user, const char *raw_name)
{
    struct reader *r = user;
    char name[256];

    if (r->status != SB_OK)
        return false;
    r->line = r->lines->line;
    snprintf(name, sizeof name, "%s", raw_name);
    return on_section(r, sb_ini_trim(name)) == SB_OK;
}

/* The end of a list line: a comma after its last name, so that the list goes on on the next
 * (indented) line. */
static bool list_goes_on(const char *item, const char *cursor, int items_before)
{
    return *item == '\0' && !cursor && items_before > 0;
}

/* An event or PMU name: printable ASCII without blanks or commas, shorter than size. */
static bool valid_name(const char *name, size_t size)
{
    if (*name == '\0' || strlen(name) >= size)
        return false;
    for (const char *p = name; *p; p++)
        if (!isgraph((unsigned char)*p) || *p == ',')
            return false;
    return true;
}

/* pmus = a, b: more PMUs (also on the lines that continue it). */
static int on_pmus(struct reader *r, char *value)
{
    char *cursor = value, *item;

    for (int n = 0; (item = sb_ini_list_next(&cursor)) != NULL && !list_goes_on(item, cursor, n);
         n++) {
        if (*item == '\0')
            return fail_at(r, "pmus: empty name in the list");
        if (r->map->npmus == SB_EVENTS_MAX_PMUS)
            return fail_at(r, "pmus: more than %d PMUs", SB_EVENTS_MAX_PMUS);
        if (!valid_name(item, sizeof r->map->pmus[0]))
            return fail_at(r, "pmus: \"%s\" is not a PMU name (no spaces, under %zu "
                           "characters)", item, sizeof r->map->pmus[0]);
        snprintf(r->map->pmus[r->map->npmus++], sizeof r->map->pmus[0], "%s", item);
    }
    return SB_OK;
}

static int on_map_key(struct reader *r, const char *key, char *value)
{
    bool *seen;

    if (strcmp(key, "description") == 0)
        seen = &r->seen_description;
    else if (strcmp(key, "pmus") == 0)
        seen = &r->seen_pmus;
    else
        return fail_at(r, "%s: unknown key in [map] (known: description, pmus)", key);
    if (*seen)
        return fail_at(r, "%s: given twice in [map]", key);
    *seen = true;
    if (*value == '\0')
        return fail_at(r, "%s: empty value", key);
    if (key[0] == 'd')
        return put_text(r, "description", r->map->description, sizeof r->map->description,
                        value, false);
    return on_pmus(r, value);
}

/* events = A, B or none; continued: a line that continues it, with more events. */
static int on_events(struct reader *r, struct sb_events_role *role, char *value, bool continued)
{
    const char *name = sb_role_names[r->section];
    char *cursor = value, *item;

    if (!continued) {
        role->events_line = r->line;
        if (strcmp(value, "none") == 0) {
            role->none = true;
            return SB_OK;
        }
    }
    if (role->none)
        return fail_at(r, "%s: events: \"none\" stands alone (no event on this architecture)",
                       name);
    for (int n = 0; (item = sb_ini_list_next(&cursor)) != NULL && !list_goes_on(item, cursor, n);
         n++) {
        if (strcmp(item, "none") == 0)
            return fail_at(r, "%s: events: \"none\" stands alone (no event on this "
                           "architecture)", name);
        if (!valid_name(item, SB_EVENT_NAME_LEN))
            return fail_at(r, "%s: events: \"%s\" is not an event name (PMU::EVENT:UMASK, no "
                           "spaces, under 128 characters)", name, item);
        if (role->nevents == SB_EVENTS_MAX_PER_ROLE)
            return fail_at(r, "%s: events: more than %d events", name,
                           SB_EVENTS_MAX_PER_ROLE);
        role->event_lines[role->nevents] = r->line;
        snprintf(role->events[role->nevents++], SB_EVENT_NAME_LEN, "%s", item);
    }
    return SB_OK;
}

static int role_key_index(const char *key)
{
    int k;

    for (k = 0; k < NROLE_KEYS; k++)
        if (strcmp(key, role_keys[k]) == 0)
            break;
    return k;
}

/* counts, caveats or reason of the section's role (continued: a line that goes on with it). */
static int on_role_text(struct reader *r, int k, const char *value, bool continued)
{
    struct sb_events_role *role = &r->map->roles[r->section];
    char what[64];

    snprintf(what, sizeof what, "%s: %s", sb_role_names[r->section], role_keys[k]);
    if (k == KEY_COUNTS)
        return put_text(r, what, role->counts, sizeof role->counts, value, continued);
    if (k == KEY_CAVEATS)
        return put_text(r, what, role->caveats, sizeof role->caveats, value, continued);
    return put_text(r, what, role->reason, sizeof role->reason, value, continued);
}

static int on_role_key(struct reader *r, const char *key, char *value)
{
    struct sb_events_role *role = &r->map->roles[r->section];
    const char *name = sb_role_names[r->section];
    int k = role_key_index(key);

    if (k == NROLE_KEYS)
        return fail_at(r, "%s: unknown key in [%s] (known: events, scale, counts, caveats, "
                       "reason)", key, name);
    if (r->seen_key[r->section][k])
        return fail_at(r, "%s: %s: given twice", name, key);
    r->seen_key[r->section][k] = true;
    if (*value == '\0')
        return fail_at(r, "%s: %s: empty value", name, key);
    switch (k) {
    case KEY_EVENTS:
        return on_events(r, role, value, false);
    case KEY_SCALE: {
        char *end;
        errno = 0;
        role->scale = strtod(value, &end);
        if (errno || *end || !isfinite(role->scale) || role->scale <= 0)
            return fail_at(r, "%s: scale: \"%s\" is not a positive number", name, value);
        return SB_OK;
    }
    default:
        return on_role_text(r, k, value, false);
    }
}

/* An indented line after key (already read and checked on its first line): more of its text,
 * or more names of its list. */
static int on_continued(struct reader *r, const char *key, char *value)
{
    char other[64];
    int k;

    if (sb_ini_key_line(value, other, sizeof other) &&
        (strcmp(other, "description") == 0 || strcmp(other, "pmus") == 0 ||
         role_key_index(other) < NROLE_KEYS))
        return fail_at(r, "%s: \"%s\": an indented line goes on with the value above; a key of "
                       "its own starts its line", key, value);

    if (r->section == SECTION_MAP && strcmp(key, "pmus") == 0)
        return on_pmus(r, value);
    if (r->section == SECTION_MAP)
        return put_text(r, "description", r->map->description, sizeof r->map->description,
                        value, true);
    k = role_key_index(key);
    if (k == KEY_EVENTS)
        return on_events(r, &r->map->roles[r->section], value, true);
    if (k == KEY_SCALE)
        return fail_at(r, "%s: scale: \"%s\" continues a number (an indented line goes on "
                       "with text or a list)", sb_role_names[r->section], value);
    return on_role_text(r, k, value, true);
}

/* inih's handler: one `key = value` line, or a line that continues the value above. */
static int on_key(void *user, const char *section, const char *key, const char *value)
{
    struct reader *r = user;
    char text[INI_MAX_LINE];

    (void)section; /* r->section: on_section_line has seen the line that opened it */
    if (r->status != SB_OK)
        return 0; /* inih goes on after an error: keep the first */
    r->line = r->lines->line;
    snprintf(text, sizeof text, "%s", value);
    if (r->lines->too_long)
        fail_at(r, "line longer than %d characters (a long value goes on over indented lines)",
                INI_MAX_LINE - 2);
    else if (*key == '\0')
        fail_at(r, "not a valid line (want [section] or key = value)");
    else if (r->section == SECTION_NONE)
        fail_at(r, "%s: keys belong in [map] or a [role] section", key);
    else if (r->lines->continued)
        on_continued(r, key, text);
    else if (r->section == SECTION_MAP)
        on_map_key(r, key, text);
    else
        on_role_key(r, key, text);
    return r->status == SB_OK;
}

/* What every section must have, checked once the file is read. */
static int check_complete(struct reader *r)
{
    struct sb_events_map *map = r->map;

    r->line = 1;
    if (!r->seen_section[0])
        return sb_fail(r->err, SB_ERR_INPUT, "%s: no [map] section (description, pmus)",
                       r->path);
    if (!r->seen_description || !r->seen_pmus)
        return sb_fail(r->err, SB_ERR_INPUT, "%s: [map] needs description and pmus", r->path);
    for (int k = 0; k < SB_NROLES; k++) {
        const struct sb_events_role *role = &map->roles[k];
        r->line = role->line;
        if (!role->line)
            continue;
        if (!r->seen_key[k][KEY_EVENTS])
            return fail_at(r, "[%s]: no events (list them, or events = none with a reason)",
                           sb_role_names[k]);
        if (role->none && !role->reason[0])
            return fail_at(r, "[%s]: events = none needs a reason (why this architecture has "
                           "no event)", sb_role_names[k]);
        if (role->none && (r->seen_key[k][KEY_SCALE] || r->seen_key[k][KEY_COUNTS]))
            return fail_at(r, "[%s]: events = none takes a reason, not scale or counts",
                           sb_role_names[k]);
        if (!role->none && !role->counts[0])
            return fail_at(r, "[%s]: needs counts (what the events count, and their "
                           "caveats)", sb_role_names[k]);
        if (!role->none && role->reason[0])
            return fail_at(r, "[%s]: reason is for events = none; say it in caveats",
                           sb_role_names[k]);
    }
    return SB_OK;
}

/* With libpfm4: every event must be in its tables (see events_pfm.h). */
static int check_names(struct reader *r)
{
    struct sb_events_map *map = r->map;
#ifdef HAVE_LIBPFM
    bool any_checked = false;

    for (int k = 0; k < SB_NROLES; k++) {
        struct sb_events_role *role = &map->roles[k];
        for (int e = 0; e < role->nevents; e++) {
            char why[384];
            bool checked;
            r->line = role->event_lines[e];
            if (!sb_pfm_check_event(role->events[e], (const char (*)[48])map->pmus,
                                    map->npmus, &checked, why, sizeof why))
                return sb_fail(r->err, SB_ERR_INPUT, "%s:%d: %s: \"%s\": %s (%s)", r->path,
                               r->line, sb_role_names[k], role->events[e], why,
                               sb_pfm_version());
            any_checked |= checked;
        }
    }
    if (any_checked)
        snprintf(map->checked, sizeof map->checked, "every event found in %s's tables",
                 sb_pfm_version());
    else
        snprintf(map->checked, sizeof map->checked, "not checked: %s knows none of the map's "
                 "PMUs", sb_pfm_version());
#else
    (void)r;
    snprintf(map->checked, sizeof map->checked, "not checked: built without libpfm4");
#endif
    return SB_OK;
}

int sb_events_map_read(const char *path, struct sb_events_map *map, struct sb_error *err)
{
    struct reader r = {.path = path, .map = map, .err = err};
    int status = sb_events_map_parse(path, map, err);

    return status == SB_OK ? check_names(&r) : status;
}

/* Parses the map from lines (open); path names it (and the map) in errors. */
static int parse_lines(struct sb_ini_lines *lines, const char *path, struct sb_events_map *map,
                       struct sb_error *err)
{
    struct reader r = {.path = path, .lines = lines, .section = SECTION_NONE, .map = map,
                       .err = err};
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t name_len = strcspn(base, ".");
    int rc, status;

    memset(map, 0, sizeof *map);
    snprintf(map->path, sizeof map->path, "%s", path);
    name_len = sb_utf8_fit(base, name_len < sizeof map->name ? name_len : sizeof map->name - 1);
    snprintf(map->name, sizeof map->name, "%.*s", (int)name_len, base);
    lines->on_section = on_section_line;
    lines->user = &r;
    rc = ini_parse_stream(sb_ini_read_line, lines, on_key, &r);
    /* the first error in the file: a line inih could not read, or one of ours */
    if (rc > 0 && (r.status == SB_OK || rc < r.error_line))
        return sb_fail(err, SB_ERR_INPUT, "%s:%d: not a valid line (want [section] or key = "
                       "value)", path, rc);
    if (r.status != SB_OK)
        return r.status;
    if ((status = sb_ini_finish(lines, path, err)) != SB_OK)
        return status;
    if (rc != 0)
        return sb_fail(err, SB_ERR_RUN, "%s: cannot parse (out of memory)", path);
    r.lines = NULL;
    return check_complete(&r);
}

int sb_events_map_parse(const char *path, struct sb_events_map *map, struct sb_error *err)
{
    struct sb_ini_lines lines;
    int status;

    memset(map, 0, sizeof *map);
    status = sb_path_check(path, err);
    if (status == SB_OK)
        status = sb_ini_open(&lines, path, err);
    if (status != SB_OK)
        return status;
    status = parse_lines(&lines, path, map, err);
    sb_ini_close(&lines);
    return status;
}

int sb_events_map_read_stream(FILE *f, const char *label, struct sb_events_map *map,
                              struct sb_error *err)
{
    struct reader r = {.path = label, .map = map, .err = err};
    struct sb_ini_lines lines = {.file = f};
    int status = parse_lines(&lines, label, map, err);

    return status == SB_OK ? check_names(&r) : status;
}

/* --- choosing ------------------------------------------------------------------------------- */

int sb_events_choose(const char *setting, const char *origin, struct sb_events_choice *choice,
                     struct sb_error *err)
{
    char path[1024], what[256];
    const char *name = setting;
    int status;

    memset(choice, 0, sizeof *choice);
    if (strcmp(setting, "auto") == 0) {
        struct sb_cpu_id cpu;
        sb_cpu_id_detect(&cpu);
        name = sb_events_map_for_cpu(cpu.vendor, cpu.family, cpu.model, what, sizeof what);
        snprintf(choice->why, sizeof choice->why, "auto: %s family 0x%x model 0x%02x (%s): %s",
                 cpu.vendor[0] ? cpu.vendor : "unknown vendor", cpu.family, cpu.model,
                 cpu.source, what);
        if (!name)
            return SB_OK;
        if (sb_configs_find("events", name, path, sizeof path, err) != SB_OK) {
            /* our own file is missing (a broken install): counters unavailable, not bad input */
            snprintf(choice->why, sizeof choice->why, "auto: map %s: %s", name,
                     err ? err->msg : "not found");
            if (err) {
                err->msg[0] = '\0';
                err->status = SB_OK;
            }
            return SB_OK;
        }
    } else {
        snprintf(choice->why, sizeof choice->why, "%s", origin);
        status = sb_configs_find("events", setting, path, sizeof path, err);
        if (status != SB_OK) {
            sb_error_prefix(err, "%s: events", origin);
            return status;
        }
    }
    choice->map = malloc(sizeof *choice->map);
    if (!choice->map)
        return sb_fail(err, SB_ERR_RUN, "out of memory for the events map");
    status = sb_events_map_read(path, choice->map, err);
    if (status != SB_OK) {
        if (strcmp(setting, "auto") != 0)
            sb_error_prefix(err, "%s: events", origin);
        sb_events_choice_free(choice);
    } else {
        size_t used = strlen(choice->why);
        snprintf(choice->why + used, sizeof choice->why - used, " -> %s", path);
    }
    return status;
}

void sb_events_choice_free(struct sb_events_choice *choice)
{
    free(choice->map);
    choice->map = NULL;
}
