/* SPDX-License-Identifier: BSD-3-Clause */
/* events_map.c: reading and checking configs/events/<arch>.ini (through the core INI reader,
 * driven by the tables of sections and keys below, so that every error names its file and
 * line), and choosing the map for this CPU (a table of vendor/family/model ranges) or the one
 * `--set events=FILE` names. */
#include "config.h"
#include "counters/events_map.h"

#include <ctype.h>
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

enum { SECTION_MAP }; /* then section 1 + k: role k */
enum { KEY_DESCRIPTION, KEY_PMUS };
enum { KEY_EVENTS, KEY_SCALE, KEY_COUNTS, KEY_CAVEATS, KEY_REASON, NROLE_KEYS };

#define TEXT_MAX(type, field) (sizeof ((type *)0)->field - 1)

static const struct sb_ini_key map_keys[] = {
    {.name = "description", .type = SB_INI_TEXT,
     .max = TEXT_MAX(struct sb_events_map, description), .help = "what the map is for"},
    {.name = "pmus", .type = SB_INI_WORD, .list = true, .help = "the PMUs its events are of"},
    {0},
};

static const struct sb_ini_key role_keys[] = {
    {.name = "events", .type = SB_INI_WORD, .list = true,
     .help = "PMU::EVENT:UMASK, summed; or none"},
    /* at most the bytes of a 1GB page (an event that stands for one): 1e308 is no event's */
    {.name = "scale", .type = SB_INI_NUMBER, .max = 1024ull * 1024 * 1024,
     .help = "what the sum is multiplied by (1)"},
    {.name = "counts", .type = SB_INI_TEXT, .max = TEXT_MAX(struct sb_events_role, counts),
     .help = "what the events count"},
    {.name = "caveats", .type = SB_INI_TEXT, .max = TEXT_MAX(struct sb_events_role, caveats),
     .help = "what they miss or count too"},
    {.name = "reason", .type = SB_INI_TEXT, .max = TEXT_MAX(struct sb_events_role, reason),
     .help = "with events = none: why"},
    {0},
};

/* What the reading gathers for the checks after it (and the map). */
struct reader {
    const char *path;
    int line;                   /* the line an error is about */
    bool seen_map, seen_description, seen_pmus;
    bool seen_key[SB_NROLES][NROLE_KEYS];
    struct sb_events_map *map;
    struct sb_error *err;
};

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

static void on_section(void *user, int section, int line)
{
    struct reader *r = user;

    r->seen_map |= section == SECTION_MAP;
    if (section > SECTION_MAP) {
        r->map->roles[section - 1].line = line;
        r->map->roles[section - 1].scale = 1.0;
    }
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

/* pmus = a, b: the PMUs of one line of the list. */
static int on_pmus(struct sb_events_map *map, char *line, struct sb_error *err)
{
    char *cursor = line, *item;

    for (int n = 0; (item = sb_ini_list_next(&cursor)) != NULL && !list_goes_on(item, cursor, n);
         n++) {
        if (*item == '\0')
            return sb_fail(err, SB_ERR_INPUT, "empty name in the list");
        if (map->npmus == SB_EVENTS_MAX_PMUS)
            return sb_fail(err, SB_ERR_INPUT, "more than %d PMUs", SB_EVENTS_MAX_PMUS);
        if (!valid_name(item, sizeof map->pmus[0]))
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not a PMU name (no spaces, under %zu "
                           "characters)", item, sizeof map->pmus[0]);
        snprintf(map->pmus[map->npmus++], sizeof map->pmus[0], "%s", item);
    }
    return SB_OK;
}

/* events = A, B or none: the events of one line of the list (first: its key line). */
static int on_events(struct sb_events_role *role, char *line, int at, bool first,
                     struct sb_error *err)
{
    char *cursor = line, *item;

    if (first && strcmp(line, "none") == 0) {
        role->none = true;
        return SB_OK;
    }
    if (role->none)
        return sb_fail(err, SB_ERR_INPUT, "\"none\" stands alone (no event on this "
                       "architecture)");
    for (int n = 0; (item = sb_ini_list_next(&cursor)) != NULL && !list_goes_on(item, cursor, n);
         n++) {
        if (strcmp(item, "none") == 0)
            return sb_fail(err, SB_ERR_INPUT, "\"none\" stands alone (no event on this "
                           "architecture)");
        if (!valid_name(item, SB_EVENT_NAME_LEN))
            return sb_fail(err, SB_ERR_INPUT, "\"%s\" is not an event name (PMU::EVENT:UMASK, "
                           "no spaces, under 128 characters)", item);
        if (role->nevents == SB_EVENTS_MAX_PER_ROLE)
            return sb_fail(err, SB_ERR_INPUT, "more than %d events", SB_EVENTS_MAX_PER_ROLE);
        role->event_lines[role->nevents] = at;
        snprintf(role->events[role->nevents++], SB_EVENT_NAME_LEN, "%s", item);
    }
    return SB_OK;
}

/* A list, line by line (a line break separates names as a comma does), each error at its
 * line. */
static int on_list(struct reader *r, struct sb_ini_value *v, struct sb_error *err)
{
    char piece[512]; /* a line of inih's: at most 198 characters */
    int status = SB_OK;

    for (int i = 0; i < v->npieces && status == SB_OK; i++) {
        sb_ini_piece(v, i, piece, sizeof piece);
        v->error_line = v->piece_line[i];
        if (v->section == SECTION_MAP)
            status = on_pmus(r->map, piece, err);
        else
            status = on_events(&r->map->roles[v->section - 1], piece, v->piece_line[i], i == 0,
                               err);
    }
    return status;
}

static int on_role_key(struct reader *r, struct sb_ini_value *v, struct sb_error *err)
{
    struct sb_events_role *role = &r->map->roles[v->section - 1];

    r->seen_key[v->section - 1][v->key] = true;
    switch (v->key) {
    case KEY_EVENTS:
        role->events_line = v->line;
        return on_list(r, v, err);
    case KEY_SCALE:
        return sb_ini_parse(v->desc, v->text, NULL, &role->scale, err);
    case KEY_COUNTS:
        snprintf(role->counts, sizeof role->counts, "%s", v->text);
        return SB_OK;
    case KEY_CAVEATS:
        snprintf(role->caveats, sizeof role->caveats, "%s", v->text);
        return SB_OK;
    default:
        snprintf(role->reason, sizeof role->reason, "%s", v->text);
        return SB_OK;
    }
}

/* The reader's handler: one value, whole (its lines joined, each with its line). */
static int on_value(void *user, struct sb_ini_value *v, struct sb_error *err)
{
    struct reader *r = user;
    char first[512];

    if (!*sb_ini_piece(v, 0, first, sizeof first)) /* its key line */
        return sb_fail(err, SB_ERR_INPUT, "empty value");
    if (v->section > SECTION_MAP)
        return on_role_key(r, v, err);
    if (v->key == KEY_PMUS) {
        r->seen_pmus = true;
        return on_list(r, v, err);
    }
    r->seen_description = true;
    snprintf(r->map->description, sizeof r->map->description, "%s", v->text);
    return SB_OK;
}

/* What every section must have, checked once the file is read. */
static int check_complete(struct reader *r)
{
    struct sb_events_map *map = r->map;

    r->line = 1;
    if (!r->seen_map)
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

/* The maps read and checked so far in this process, by path, each with the file's identity
 * when read (file_id.h): a file read again only when it changed (a reproduction plans each
 * experiment and each emulation of its thread's machine with the same map). */
#define MAP_MEMO 8
static struct sb_file_memo memo = {.cap = MAP_MEMO};
static struct sb_events_map kept[MAP_MEMO];

int sb_events_map_read(const char *path, struct sb_events_map *map, struct sb_error *err)
{
    struct reader r = {.path = path, .map = map, .err = err};
    struct sb_file_id id;
    bool regular = sb_file_id_of(path, &id);
    int slot = regular ? sb_file_memo_find(&memo, path, &id) : -1;
    int status;

    if (slot >= 0) {
        *map = kept[slot];
        return SB_OK;
    }
    status = sb_events_map_parse(path, map, err);
    if (status == SB_OK)
        status = check_names(&r);
    if (status == SB_OK && regular && (slot = sb_file_memo_take(&memo, path, &id)) >= 0)
        kept[slot] = *map;
    return status;
}

/* Parses the map from lines (open); path names it (and the map) in errors. */
static int parse_lines(struct sb_ini_lines *lines, const char *path, struct sb_events_map *map,
                       struct sb_error *err)
{
    struct reader r = {.path = path, .map = map, .err = err};
    struct sb_ini_section sections[SB_NROLES + 2] = {
        [SECTION_MAP] = {.name = "map", .keys = map_keys, .once = true}};
    struct sb_ini_spec spec = {
        .sections = sections,
        .on_section = on_section,
        .on_value = on_value,
    };
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t name_len = strcspn(base, ".");
    int status;

    for (int k = 0; k < SB_NROLES; k++)
        sections[k + 1] = (struct sb_ini_section){.name = sb_role_names[k], .keys = role_keys,
                                                  .once = true, .prefixed = true};
    memset(map, 0, sizeof *map);
    snprintf(map->path, sizeof map->path, "%s", path);
    name_len = sb_utf8_fit(base, name_len < sizeof map->name ? name_len : sizeof map->name - 1);
    snprintf(map->name, sizeof map->name, "%.*s", (int)name_len, base);
    status = sb_ini_read(lines, path, &spec, &r, err);
    return status == SB_OK ? check_complete(&r) : status;
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
