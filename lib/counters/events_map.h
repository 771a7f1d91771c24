/* SPDX-License-Identifier: BSD-3-Clause */
/* events_map.h: configs/events/<arch>.ini, the per-microarchitecture maps from counter roles to
 * native events (libpfm4 names, as PAPI's perf_event components take them), and the choice
 * of a map for this CPU (its vendor, family and model) or from `--set events=FILE`.
 *
 * A map file:
 *     [map]
 *     description = Intel Skylake-SP and Cascade Lake (family 6, model 0x55)
 *     pmus = skx, clx                 ; libpfm4 PMUs the unqualified event names belong to
 *     [l2_miss]                       ; a role (interface.h)
 *     events = L2_LINES_IN:ALL        ; one or more (comma-separated: their counts are summed)
 *     scale = 1                       ; each count times scale (64: lines to bytes)
 *     counts = what the event counts  ; required
 *     caveats = what it misses         ; optional
 *     [l2_writeback]
 *     events = none                   ; no event on this architecture
 *     reason = why                    ; required with none
 * The file is read by the core INI reader (lib/core/ini_keys.c), as experiments and machine
 * models are, with their errors in the same words:
 * comments are lines starting with # or ;, or the end of a key line from a ; after a blank; a
 * line holds at most 198 characters (inih's buffer): a longer value goes on over indented
 * lines, which continue its text (joined with a blank) or its list (each such line holds more
 * names; a comma may end a line of a list, and the line break separates names as a comma
 * does). A role without a section is "no event in this map". Bad input (exit 2, file:line): an
 * unknown section (role), a section twice, an unknown key, a key twice, a line that is not
 * `key = value` or `[section]`, a line too long, a missing required key, a bad scale, and,
 * when built with libpfm4, an event its tables do not have. */
#ifndef SB_EVENTS_MAP_H
#define SB_EVENTS_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/core.h"
#include "counters/interface.h"

#define SB_EVENTS_MAX_PER_ROLE 16
#define SB_EVENT_NAME_LEN 128
#define SB_EVENTS_MAX_PMUS 8

struct sb_events_role {
    int line;                 /* line of the [role] section; 0 when the map has none */
    int events_line;          /* line of its `events =` */
    bool none;                /* `events = none`: no event on this architecture */
    int nevents;
    char events[SB_EVENTS_MAX_PER_ROLE][SB_EVENT_NAME_LEN];
    int event_lines[SB_EVENTS_MAX_PER_ROLE]; /* the line each event is named on */
    double scale;             /* 1 unless given */
    char counts[512];
    char caveats[512];
    char reason[512];         /* with none: why */
};

struct sb_events_map {
    char name[64];            /* the file's name without directory and .ini */
    char path[1024];
    char description[256];
    int npmus;
    char pmus[SB_EVENTS_MAX_PMUS][48];
    char checked[256];        /* what checked the event names, e.g. "libpfm4 4.13 tables: skx" */
    struct sb_events_role roles[SB_NROLES];
};

/* Reads and checks a map file (see above); one this process read before and whose file is
 * unchanged (file_id.h) is not read again. */
int sb_events_map_read(const char *path, struct sb_events_map *map, struct sb_error *err);

/* The same without checking the event names against libpfm4 (map->checked left empty). */
int sb_events_map_parse(const char *path, struct sb_events_map *map, struct sb_error *err);

/* sb_events_map_read on an open file (or a memory stream); label names it in errors. */
int sb_events_map_read_stream(FILE *f, const char *label, struct sb_events_map *map,
                              struct sb_error *err);

/* The map for a CPU: a pure function of the vendor string ("GenuineIntel", "AuthenticAMD"),
 * display family and model. Returns the map's name (e.g. "amd-zen3") and writes what the CPU
 * is ("AMD Zen 3") into what; or NULL and writes why there is none into what. */
const char *sb_events_map_for_cpu(const char *vendor, unsigned family, unsigned model,
                                  char *what, size_t len);

/* The map a run uses. setting is the `events` key: "auto" (this CPU's map) or a file (a name
 * under configs/events, or a path); origin is where it was set, for error messages. */
struct sb_events_choice {
    struct sb_events_map *map; /* NULL: no map (why says why) */
    char why[384];             /* how it was chosen, e.g. "auto: AuthenticAMD family 0x19 model
                                  0x01 (cpuid) is AMD Zen 3", or why there is none */
};

/* SB_ERR_INPUT for a file that cannot be found or read or is bad; no map for this CPU is not
 * an error (choice->map NULL, the reason in choice->why). */
int sb_events_choose(const char *setting, const char *origin, struct sb_events_choice *choice,
                     struct sb_error *err);
void sb_events_choice_free(struct sb_events_choice *choice);

#endif
