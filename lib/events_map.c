/* events_map.c: reading and checking configs/events/<arch>.ini, and choosing the map for this
 * CPU (a table of vendor/family/model ranges) or the one `--set events=FILE` names. */
#include "config.h"
#include "events_map.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "configs_path.h"
#include "cpu_id.h"
#ifdef HAVE_LIBPFM
#include "events_pfm.h"
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

/* The most a map may hold: far beyond any real one, and an end to /dev/zero or `yes`. */
#define SB_EVENTS_MAX_BYTES (1u << 20)

enum { SECTION_NONE = -2, SECTION_MAP = -1 }; /* else a role */

struct reader {
    const char *path;
    int line;
    int section;
    bool seen_section[SB_NROLES + 1]; /* [0] is [map] */
    bool seen_description, seen_pmus;
    bool seen_key[SB_NROLES][5];
    struct sb_events_map *map;
    struct sb_error *err;
};

static const char *const role_keys[] = {"events", "scale", "counts", "caveats", "reason"};
enum { KEY_EVENTS, KEY_SCALE, KEY_COUNTS, KEY_CAVEATS, KEY_REASON, NROLE_KEYS };

static char *trim(char *s)
{
    char *end;

    while (isspace((unsigned char)*s))
        s++;
    end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

static int fail_at(struct reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int fail_at(struct reader *r, const char *fmt, ...)
{
    char what[600];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return sb_fail(r->err, SB_ERR_INPUT, "%s:%d: %s", r->path, r->line, what);
}

static void known_roles(char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "map");
    for (int k = 0; k < SB_NROLES && used < len; k++)
        used += (size_t)snprintf(buf + used, len - used, ", %s", sb_role_names[k]);
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

static int on_pmus(struct reader *r, char *value)
{
    char *cursor = value, *item;

    while ((item = strsep(&cursor, ",")) != NULL) {
        item = trim(item);
        if (*item == '\0')
            return fail_at(r, "pmus: empty name in the list");
        if (r->map->npmus == SB_EVENTS_MAX_PMUS)
            return fail_at(r, "pmus: more than %d PMUs", SB_EVENTS_MAX_PMUS);
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
    if (key[0] == 'd') {
        snprintf(r->map->description, sizeof r->map->description, "%s", value);
        return SB_OK;
    }
    return on_pmus(r, value);
}

static bool valid_event_name(const char *name)
{
    if (*name == '\0' || strlen(name) >= SB_EVENT_NAME_LEN)
        return false;
    for (const char *p = name; *p; p++)
        if (!isgraph((unsigned char)*p) || *p == ',')
            return false;
    return true;
}

static int on_events(struct reader *r, struct sb_events_role *role, char *value)
{
    const char *name = sb_role_names[r->section];
    char *cursor = value, *item;

    role->events_line = r->line;
    if (strcmp(value, "none") == 0) {
        role->none = true;
        return SB_OK;
    }
    while ((item = strsep(&cursor, ",")) != NULL) {
        item = trim(item);
        if (strcmp(item, "none") == 0)
            return fail_at(r, "%s: events: \"none\" stands alone (no event on this "
                           "architecture)", name);
        if (!valid_event_name(item))
            return fail_at(r, "%s: events: \"%s\" is not an event name (PMU::EVENT:UMASK, no "
                           "spaces, under 128 characters)", name, item);
        if (role->nevents == SB_EVENTS_MAX_PER_ROLE)
            return fail_at(r, "%s: events: more than %d events", name,
                           SB_EVENTS_MAX_PER_ROLE);
        snprintf(role->events[role->nevents++], SB_EVENT_NAME_LEN, "%s", item);
    }
    return SB_OK;
}

static int on_role_key(struct reader *r, const char *key, char *value)
{
    struct sb_events_role *role = &r->map->roles[r->section];
    const char *name = sb_role_names[r->section];
    int k;

    for (k = 0; k < NROLE_KEYS; k++)
        if (strcmp(key, role_keys[k]) == 0)
            break;
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
        return on_events(r, role, value);
    case KEY_SCALE: {
        char *end;
        errno = 0;
        role->scale = strtod(value, &end);
        if (errno || *end || !isfinite(role->scale) || role->scale <= 0)
            return fail_at(r, "%s: scale: \"%s\" is not a positive number", name, value);
        return SB_OK;
    }
    case KEY_COUNTS:
        snprintf(role->counts, sizeof role->counts, "%s", value);
        return SB_OK;
    case KEY_CAVEATS:
        snprintf(role->caveats, sizeof role->caveats, "%s", value);
        return SB_OK;
    default:
        snprintf(role->reason, sizeof role->reason, "%s", value);
        return SB_OK;
    }
}

static int on_line(struct reader *r, char *line)
{
    char *s = trim(line), *eq;

    if (*s == '\0' || *s == '#' || *s == ';')
        return SB_OK;
    if (*s == '[') {
        char *close = strchr(s, ']');
        if (!close || close[1] != '\0')
            return fail_at(r, "not a valid line (want [section] or key = value)");
        *close = '\0';
        return on_section(r, trim(s + 1));
    }
    eq = strchr(s, '=');
    if (!eq || eq == s)
        return fail_at(r, "not a valid line (want [section] or key = value)");
    *eq = '\0';
    if (r->section == SECTION_NONE)
        return fail_at(r, "%s: keys belong in [map] or a [role] section", trim(s));
    if (r->section == SECTION_MAP)
        return on_map_key(r, trim(s), trim(eq + 1));
    return on_role_key(r, trim(s), trim(eq + 1));
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
            r->line = role->events_line;
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

/* Parses the open map file f; path names it (and the map) in errors. */
static int parse_stream(FILE *f, const char *path, struct sb_events_map *map,
                        struct sb_error *err)
{
    struct reader r = {.path = path, .section = SECTION_NONE, .map = map, .err = err};
    char line[1024];
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t bytes = 0;
    int status = SB_OK;

    memset(map, 0, sizeof *map);
    snprintf(map->path, sizeof map->path, "%s", path);
    snprintf(map->name, sizeof map->name, "%.*s", (int)strcspn(base, "."), base);
    while (status == SB_OK && fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        r.line++;
        bytes += len;
        if (len == sizeof line - 1 && line[sizeof line - 2] != '\n')
            status = fail_at(&r, "line longer than %d characters", (int)sizeof line - 2);
        else if ((len == 0 || line[len - 1] != '\n') && !feof(f))
            status = fail_at(&r, "contains a NUL byte (not a text file)");
        else if (bytes > SB_EVENTS_MAX_BYTES)
            status = fail_at(&r, "more than 1MB (not an events map)");
        else
            status = on_line(&r, line);
    }
    if (status == SB_OK)
        status = check_complete(&r);
    return status;
}

int sb_events_map_parse(const char *path, struct sb_events_map *map, struct sb_error *err)
{
    FILE *f = fopen(path, "r");
    int status;

    if (!f) {
        memset(map, 0, sizeof *map);
        return sb_fail(err, SB_ERR_INPUT, "%s: cannot read: %s", path, strerror(errno));
    }
    status = parse_stream(f, path, map, err);
    fclose(f);
    return status;
}

int sb_events_map_read_stream(FILE *f, const char *label, struct sb_events_map *map,
                              struct sb_error *err)
{
    struct reader r = {.path = label, .map = map, .err = err};
    int status = parse_stream(f, label, map, err);

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
