/* SPDX-License-Identifier: BSD-3-Clause */
/* papi.c: the `papi` counter backend. Each role's native events (from the run's
 * events map) are added by name; core events go in one event set that counts this thread,
 * uncore (memory-controller) events in one set per package, each event bound to that
 * package's first CPU with a `cpu=` qualifier, as PAPI's perf_event_uncore component needs.
 * A set that needs more events than the PMU has counters is multiplexed (values "estimated").
 * Sets are started and stopped around each timed repetition only. A role that cannot be read
 * has no values and a reason; a negative or impossible count rejects its role (never clamped,
 * never reported as 0). */
#include "config.h"
#include "counters/papi.h"

#include <math.h>
#include <papi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "counters/events_map.h"
#include "counters/papi_probe.h"
#include "host/host.h"

#define MAX_PACKAGES 16
#define MAX_SETS (1 + MAX_PACKAGES) /* [0]: core events of this thread; [1+p]: package p */
#define MAX_SET_EVENTS 64
/* Time added to a repetition's in the rate check: counting starts a little before the clock
 * is read and stops a little after (microseconds); a 1ms allowance keeps that from making a
 * short region look impossible, and is 2% of a default scan. */
#define RATE_SLACK_SECONDS 1e-3

_Static_assert(SB_NROLES <= 32, "event_set.roles is a 32-bit mask of roles");

struct event_set {
    int handle;          /* PAPI_NULL until its first event */
    int cpu;             /* -1 for the core set, else the CPU its uncore events are bound to */
    int nevents;
    int code[MAX_SET_EVENTS];
    uint32_t roles[MAX_SET_EVENTS]; /* bit r: the event counts for role r (roles may share) */
    long long counts[MAX_SET_EVENTS];
    bool multiplexed;
    bool running;
};

struct papi_state {
    struct event_set sets[MAX_SETS];
    int live_sets;       /* sets with events that start: 0 makes start/stop return at once */
    bool changed;        /* a role or a set was dropped since the status was last worked out */
    int package_cpu[MAX_PACKAGES];
    int npackages;
    double scale[SB_NROLES];
    double started;      /* sb_timer_now() at the last start: the rate check's time base */
    struct sb_papi_host papi;
    struct sb_perf_host host;
    char first_error[256];
};

/* The highest plausible rate of each role, per second: above it a count is impossible (a
 * 10 GHz clock, 10 instructions per cycle, an L2 line every 0.2ns, 10TB/s of DRAM). */
static double max_rate(int role)
{
    switch (role) {
    case SB_ROLE_CYCLES: return 1e10;
    case SB_ROLE_INSTRUCTIONS: return 1e11;
    case SB_ROLE_L2_MISS:
    case SB_ROLE_L2_WRITEBACK: return 5e9;
    case SB_ROLE_MEM_READ_BYTES:
    case SB_ROLE_MEM_WRITE_BYTES: return 1e13;
    default: return 1e12;
    }
}

/* The first CPU of each package, from sysfs; CPU 0 alone when sysfs does not say. */
static void find_packages(struct papi_state *s)
{
    int seen[MAX_PACKAGES];

    for (int cpu = 0; cpu < 4096 && s->npackages < MAX_PACKAGES; cpu++) {
        char path[128];
        FILE *f;
        int package = -1;
        bool known = false;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
                 cpu);
        f = fopen(path, "r");
        if (!f) {
            if (cpu > 0)
                break;
            continue;
        }
        if (fscanf(f, "%d", &package) != 1)
            package = -1;
        fclose(f);
        for (int p = 0; p < s->npackages; p++)
            known |= seen[p] == package;
        if (!known) {
            seen[s->npackages] = package;
            s->package_cpu[s->npackages++] = cpu;
        }
    }
    if (s->npackages == 0)
        s->package_cpu[s->npackages++] = 0;
}

static void note_error(struct papi_state *s, const char *what)
{
    if (!s->first_error[0])
        snprintf(s->first_error, sizeof s->first_error, "%s", what);
}

static bool is_uncore(const struct papi_state *s, int component)
{
    return component >= 0 && component == s->papi.uncore_component;
}

static int enable_multiplex(struct event_set *set)
{
    static int initialised = 0;
    int status = PAPI_OK;

    if (!initialised) {
        status = PAPI_multiplex_init();
        if (status != PAPI_OK)
            return status;
        initialised = 1;
    }
    status = PAPI_set_multiplex(set->handle);
    if (status == PAPI_OK)
        set->multiplexed = true;
    return status;
}

static int add_to_set(struct papi_state *s, struct event_set *set, int component, int code,
                      int role, const char *name, char *why, size_t len)
{
    char err[160];
    int status;

    for (int e = 0; e < set->nevents; e++) /* PAPI takes an event once per set: share it */
        if (set->code[e] == code) {
            set->roles[e] |= 1u << role;
            return PAPI_OK;
        }
    if (set->nevents == MAX_SET_EVENTS) {
        snprintf(why, len, "%s: more than %d events in one event set", name, MAX_SET_EVENTS);
        return PAPI_ECOUNT;
    }
    if (set->handle == PAPI_NULL) {
        status = PAPI_create_eventset(&set->handle);
        if (status == PAPI_OK)
            status = PAPI_assign_eventset_component(set->handle, component);
        if (status != PAPI_OK) {
            snprintf(why, len, "%s: PAPI_create_eventset: %s", name,
                     sb_papi_strerror(status, err, sizeof err));
            return status;
        }
        if (is_uncore(s, component)) { /* uncore PMUs take no user/kernel filter */
            PAPI_option_t opt;
            memset(&opt, 0, sizeof opt);
            opt.domain.eventset = set->handle;
            opt.domain.domain = PAPI_DOM_ALL;
            PAPI_set_opt(PAPI_DOMAIN, &opt);
        }
    }
    status = PAPI_add_event(set->handle, code);
    if (status == PAPI_ECNFLCT && !set->multiplexed && enable_multiplex(set) == PAPI_OK)
        status = PAPI_add_event(set->handle, code);
    if (status != PAPI_OK) {
        snprintf(why, len, "%s: PAPI_add_event: %s", name,
                 sb_papi_strerror(status, err, sizeof err));
        return status;
    }
    set->code[set->nevents] = code;
    set->roles[set->nevents++] = 1u << role;
    return PAPI_OK;
}

/* Appends PAPI's name for code to a role's list of resolved events. */
static void record_event(char *list, size_t len, int code)
{
    char name[PAPI_MAX_STR_LEN];
    size_t used = strlen(list);

    if (used < len && PAPI_event_code_to_name(code, name) == PAPI_OK)
        snprintf(list + used, len - used, "%s%s", used ? " + " : "", name);
}

/* Adds every event of a role (uncore ones once per package); all or none. */
static bool add_role(struct sb_counters *c, struct papi_state *s, int role,
                     const struct sb_events_role *r, char *why, size_t len)
{
    int before[MAX_SETS];
    char err[160], resolved[sizeof c->events[0]] = "";

    for (int i = 0; i < MAX_SETS; i++)
        before[i] = s->sets[i].nevents;
    for (int e = 0; e < r->nevents; e++) {
        int code, component, status = PAPI_event_name_to_code(r->events[e], &code);
        if (status != PAPI_OK) {
            snprintf(why, len, "%s: PAPI_event_name_to_code: %s", r->events[e],
                     sb_papi_strerror(status, err, sizeof err));
            goto rollback;
        }
        component = PAPI_get_event_component(code);
        if (!is_uncore(s, component)) {
            if (add_to_set(s, &s->sets[0], component, code, role, r->events[e], why, len) !=
                PAPI_OK)
                goto rollback;
            record_event(resolved, sizeof resolved, code);
            continue;
        }
        for (int p = 0; p < s->npackages; p++) {
            char bound[SB_EVENT_NAME_LEN + 16];
            snprintf(bound, sizeof bound, "%s:cpu=%d", r->events[e], s->package_cpu[p]);
            status = PAPI_event_name_to_code(bound, &code);
            if (status != PAPI_OK) {
                snprintf(why, len, "%s: PAPI_event_name_to_code: %s", bound,
                         sb_papi_strerror(status, err, sizeof err));
                goto rollback;
            }
            s->sets[1 + p].cpu = s->package_cpu[p];
            if (add_to_set(s, &s->sets[1 + p], component, code, role, bound, why, len) !=
                PAPI_OK)
                goto rollback;
            record_event(resolved, sizeof resolved, code);
        }
    }
    if (resolved[0]) /* what PAPI resolved the map's names to */
        snprintf(c->events[role], sizeof c->events[role], "%s", resolved);
    return true;

rollback:
    for (int i = 0; i < MAX_SETS; i++) {
        struct event_set *set = &s->sets[i];
        for (int e = 0; e < set->nevents; e++)
            set->roles[e] &= ~(1u << role);
        while (set->nevents > before[i])
            PAPI_remove_event(set->handle, set->code[--set->nevents]);
    }
    note_error(s, why);
    return false;
}

/* A role that cannot be trusted any more: no values, and why. */
static void reject_role(struct sb_counters *c, struct papi_state *s, int role, const char *why)
{
    note_error(s, why);
    s->changed = true;
    c->have[role] = false;
    snprintf(c->role_reason[role], sizeof c->role_reason[role], "%s", why);
}

/* A set PAPI would not start or stop: every role with an event in it is dropped. */
static void drop_set(struct sb_counters *c, struct papi_state *s, struct event_set *set,
                     const char *call, int status, unsigned rep)
{
    char err[160], why[384], obstacles[256], where[24] = "";

    sb_perf_host_obstacles(&s->host, set->cpu >= 0, obstacles, sizeof obstacles);
    if (set->cpu >= 0)
        snprintf(where, sizeof where, " cpu=%d", set->cpu);
    snprintf(why, sizeof why, "%s%s (repetition %u): %s%s%s", call, where, rep + 1,
             sb_papi_strerror(status, err, sizeof err), obstacles[0] ? "; " : "", obstacles);
    note_error(s, why);
    for (int e = 0; e < set->nevents; e++)
        for (int role = 0; role < SB_NROLES; role++)
            if ((set->roles[e] >> role & 1) && c->have[role])
                reject_role(c, s, role, why);
    if (set->running)
        PAPI_stop(set->handle, set->counts);
    set->running = false;
    PAPI_cleanup_eventset(set->handle);
    PAPI_destroy_eventset(&set->handle);
    set->handle = PAPI_NULL;
    set->nevents = 0;
    s->changed = true;
}

static void finish_status(struct sb_counters *c, struct papi_state *s)
{
    int read = 0, multiplexed_events = 0;

    for (int role = 0; role < SB_NROLES; role++)
        read += c->have[role];
    s->live_sets = 0;
    for (int i = 0; i < MAX_SETS; i++) {
        s->live_sets += s->sets[i].handle != PAPI_NULL && s->sets[i].nevents > 0;
        if (s->sets[i].multiplexed)
            multiplexed_events += s->sets[i].nevents;
    }
    c->multiplex_ratio = 0;
    if (read == 0) {
        char obstacles[256], disabled[300] = "";
        int core = s->papi.core_component;
        c->status = "unavailable";
        sb_perf_host_obstacles(&s->host, false, obstacles, sizeof obstacles);
        if (core >= 0 && s->papi.components[core].disabled)
            snprintf(disabled, sizeof disabled, " (perf_event component disabled: %s)",
                     s->papi.components[core].disabled_reason);
        if (core < 0)
            snprintf(disabled, sizeof disabled, " (PAPI has no perf_event component)");
        snprintf(c->reason, sizeof c->reason, "no role could be counted: %s%s%s; PAPI %s "
                 "reports %d hardware counters%s%s",
                 s->first_error[0] ? s->first_error : "the map names no event",
                 obstacles[0] ? "; " : "", obstacles, s->papi.version,
                 s->papi.core_counters > 0 ? s->papi.core_counters : 0, disabled,
                 s->papi.virtualized ? " and a virtual machine" : "");
    } else if (multiplexed_events > 0) {
        int counters = s->papi.core_counters > 0 ? s->papi.core_counters : 1;
        c->status = "estimated";
        c->multiplex_ratio = multiplexed_events > counters ? (double)counters /
                                                             multiplexed_events : 1.0;
        snprintf(c->reason, sizeof c->reason, "multiplexed: %d events share %d counters, each "
                 "counted about %.0f%% of the time and scaled up by its time enabled / time "
                 "running (PAPI does not expose that ratio; the share is nominal)",
                 multiplexed_events, counters, 100 * c->multiplex_ratio);
    } else {
        c->status = "ok";
        c->reason[0] = '\0';
    }
}

/* A trial start/stop of every set, so that a set the kernel refuses (permissions, no PMU) is
 * known before the first timed scan, and require_counters can act on it. */
static void verify_sets(struct sb_counters *c, struct papi_state *s)
{
    for (int i = 0; i < MAX_SETS; i++) {
        struct event_set *set = &s->sets[i];
        int status;
        if (set->handle == PAPI_NULL || set->nevents == 0)
            continue;
        status = PAPI_start(set->handle);
        if (status != PAPI_OK) {
            drop_set(c, s, set, "PAPI_start", status, 0);
            continue;
        }
        set->running = true;
        status = PAPI_stop(set->handle, set->counts);
        set->running = false;
        if (status != PAPI_OK)
            drop_set(c, s, set, "PAPI_stop", status, 0);
    }
}

static void describe_map_roles(struct sb_counters *c, const struct sb_events_map *map)
{
    for (int role = 0; role < SB_NROLES; role++) {
        const struct sb_events_role *r = &map->roles[role];
        size_t used = 0;
        if (!r->line)
            snprintf(c->role_reason[role], sizeof c->role_reason[role],
                     "no event in this map (%s)", map->name);
        else if (r->none)
            snprintf(c->role_reason[role], sizeof c->role_reason[role],
                     "no event on this architecture: %s", r->reason);
        for (int e = 0; e < r->nevents && used < sizeof c->events[role]; e++)
            used += (size_t)snprintf(c->events[role] + used, sizeof c->events[role] - used,
                                     "%s%s", e ? " + " : "", r->events[e]);
    }
}

int sb_papi_open(struct sb_counters *c, const struct sb_counting *run, struct sb_error *err)
{
    const struct sb_events_map *map = run->events ? run->events->map : NULL;
    struct papi_state *s;
    char why[384];

    c->status = "unavailable";
    if (!map) {
        snprintf(c->reason, sizeof c->reason, "no events map: %s",
                 run->events ? run->events->why : "none chosen");
        for (int role = 0; role < SB_NROLES; role++)
            snprintf(c->role_reason[role], sizeof c->role_reason[role], "no events map");
        return SB_OK;
    }
    describe_map_roles(c, map);
    if (sb_papi_init(why, sizeof why) != PAPI_OK) {
        snprintf(c->reason, sizeof c->reason, "%s", why);
        for (int role = 0; role < SB_NROLES; role++)
            if (!c->role_reason[role][0])
                snprintf(c->role_reason[role], sizeof c->role_reason[role], "%s", why);
        return SB_OK;
    }
    s = calloc(1, sizeof *s);
    if (!s)
        return sb_fail(err, SB_ERR_RUN, "out of memory for the PAPI backend");
    c->state = s;
    for (int i = 0; i < MAX_SETS; i++) {
        s->sets[i].handle = PAPI_NULL;
        s->sets[i].cpu = -1;
    }
    sb_papi_host_probe(&s->papi);
    sb_perf_host_detect(&s->host, "");
    find_packages(s);
    for (int role = 0; role < SB_NROLES; role++) {
        const struct sb_events_role *r = &map->roles[role];
        if (!r->line || r->none)
            continue;
        s->scale[role] = r->scale;
        if (add_role(c, s, role, r, why, sizeof why))
            c->have[role] = true;
        else
            snprintf(c->role_reason[role], sizeof c->role_reason[role], "%s", why);
    }
    verify_sets(c, s);
    finish_status(c, s);
    return SB_OK;
}

void sb_papi_start(struct sb_counters *c, unsigned rep)
{
    struct papi_state *s = c->state;

    if (!s || s->live_sets == 0)
        return;
    /* uncore sets first, the core set last: the closest to the scan */
    for (int i = MAX_SETS - 1; i >= 0; i--) {
        struct event_set *set = &s->sets[i];
        int status;
        if (set->handle == PAPI_NULL || set->nevents == 0)
            continue;
        status = PAPI_start(set->handle);
        if (status != PAPI_OK)
            drop_set(c, s, set, "PAPI_start", status, rep);
        else
            set->running = true;
    }
    s->started = sb_timer_now();
}

/* Checks one role's count of one repetition and stores it, or rejects the role. */
static void store(struct sb_counters *c, struct papi_state *s, int role, unsigned rep,
                  long long count, double seconds)
{
    double value = (double)count * s->scale[role];
    char why[384];

    if (count < 0) {
        snprintf(why, sizeof why, "repetition %u: PAPI returned a negative count (%lld): "
                 "impossible, role rejected", rep + 1, count);
        reject_role(c, s, role, why);
    } else if (value >= 9.2e18 || value > max_rate(role) * (seconds + RATE_SLACK_SECONDS)) {
        snprintf(why, sizeof why, "repetition %u: %.0f in %.3gs is more than the highest "
                 "plausible rate (%.3g/s): impossible, role rejected", rep + 1, value, seconds,
                 max_rate(role));
        reject_role(c, s, role, why);
    } else {
        c->values[rep][role] = (uint64_t)llround(value);
    }
}

void sb_papi_stop(struct sb_counters *c, unsigned rep)
{
    struct papi_state *s = c->state;
    long long sums[SB_NROLES] = {0}, negative[SB_NROLES] = {0};
    double seconds;

    if (!s || s->live_sets == 0)
        return;
    for (int i = 0; i < MAX_SETS; i++) { /* the core set first: the closest to the scan */
        struct event_set *set = &s->sets[i];
        int status;
        if (!set->running)
            continue;
        status = PAPI_stop(set->handle, set->counts);
        set->running = false;
        if (status != PAPI_OK) {
            drop_set(c, s, set, "PAPI_stop", status, rep);
            continue;
        }
        for (int e = 0; e < set->nevents; e++) {
            for (int role = 0; role < SB_NROLES; role++) {
                if (!(set->roles[e] >> role & 1))
                    continue;
                if (set->counts[e] < 0 && !negative[role])
                    negative[role] = set->counts[e]; /* the first negative count */
                sums[role] += set->counts[e];
            }
        }
    }
    seconds = sb_timer_now() - s->started;
    for (int role = 0; role < SB_NROLES; role++)
        if (c->have[role])
            store(c, s, role, rep, negative[role] ? negative[role] : sums[role], seconds);
    if (s->changed) {
        finish_status(c, s);
        s->changed = false;
    }
}

void sb_papi_close(struct sb_counters *c)
{
    struct papi_state *s = c->state;

    if (!s)
        return;
    for (int i = 0; i < MAX_SETS; i++) {
        struct event_set *set = &s->sets[i];
        if (set->handle == PAPI_NULL)
            continue;
        if (set->running)
            PAPI_stop(set->handle, set->counts);
        PAPI_cleanup_eventset(set->handle);
        PAPI_destroy_eventset(&set->handle);
    }
    free(s);
    c->state = NULL;
}
