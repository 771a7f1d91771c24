/* SPDX-License-Identifier: BSD-3-Clause */
/* events_pfm.c: native event names checked against libpfm4's tables by walking them
 * (pfm_get_pmu_info, pfm_get_event_info, pfm_get_event_attr_info): no PMU is forced or
 * programmed, so inactive PMUs (other microarchitectures) are checked as well. */
#include "config.h"
#include "counters/events_pfm.h"

#include <dlfcn.h>
#include <limits.h>
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool pfm_ready(void)
{
    static int ready = -1;

    if (ready < 0)
        ready = pfm_initialize() == PFM_SUCCESS;
    return ready == 1;
}

/* The library's release from the file it was loaded from (libpfm.so.4.13.0: the API version
 * pfm_get_version() gives stays 4.0 across releases), else the API version. */
const char *sb_pfm_version(void)
{
    static char version[48];
    Dl_info info;
    char real[4096];
    const char *so;
    int v;

    if (version[0])
        return version;
    if (!pfm_ready())
        return "libpfm4 (pfm_initialize failed)";
    if (dladdr((void *)pfm_initialize, &info) && info.dli_fname &&
        realpath(info.dli_fname, real) && (so = strstr(real, ".so.")) != NULL) {
        snprintf(version, sizeof version, "libpfm4 %.24s", so + 4);
        return version;
    }
    v = pfm_get_version();
    snprintf(version, sizeof version, "libpfm4 (API %d.%d)", (v >> 16) & 0xffff, v & 0xffff);
    return version;
}

static bool find_pmu(const char *name, pfm_pmu_info_t *info)
{
    pfm_pmu_t p;

    if (!pfm_ready())
        return false;
    pfm_for_all_pmus(p) {
        memset(info, 0, sizeof *info);
        info->size = sizeof *info;
        if (pfm_get_pmu_info(p, info) == PFM_SUCCESS && info->name &&
            strcasecmp(info->name, name) == 0)
            return true;
    }
    return false;
}

bool sb_pfm_pmu_known(const char *pmu, bool *uncore)
{
    pfm_pmu_info_t info;

    if (!find_pmu(pmu, &info))
        return false;
    if (uncore)
        *uncore = info.type == PFM_PMU_TYPE_UNCORE;
    return true;
}

/* The index of event (its bare name) in the PMU's table, or -1. */
static int find_event(const pfm_pmu_info_t *pmu, const char *event, size_t len)
{
    for (int i = pmu->first_event; i != -1; i = pfm_get_event_next(i)) {
        pfm_event_info_t ei;
        memset(&ei, 0, sizeof ei);
        ei.size = sizeof ei;
        if (pfm_get_event_info(i, PFM_OS_NONE, &ei) == PFM_SUCCESS && ei.name &&
            strlen(ei.name) == len && strncasecmp(ei.name, event, len) == 0)
            return i;
    }
    return -1;
}

static bool event_has_attr(int event, const char *attr, size_t len)
{
    pfm_event_info_t ei;

    memset(&ei, 0, sizeof ei);
    ei.size = sizeof ei;
    if (pfm_get_event_info(event, PFM_OS_NONE, &ei) != PFM_SUCCESS)
        return false;
    for (int a = 0; a < ei.nattrs; a++) {
        pfm_event_attr_info_t ai;
        memset(&ai, 0, sizeof ai);
        ai.size = sizeof ai;
        if (pfm_get_event_attr_info(event, a, PFM_OS_NONE, &ai) == PFM_SUCCESS && ai.name &&
            strlen(ai.name) == len && strncasecmp(ai.name, attr, len) == 0)
            return true;
    }
    return false;
}

/* Checks "EVENT[:ATTR...]" (no PMU prefix) in one PMU; false with why on failure. */
static bool check_in_pmu(const pfm_pmu_info_t *pmu, const char *spec, char *why, size_t len)
{
    size_t event_len = strcspn(spec, ":");
    const char *attr = spec + event_len;
    int event = find_event(pmu, spec, event_len);

    if (event < 0) {
        snprintf(why, len, "%.*s is not an event of PMU %s", (int)event_len, spec, pmu->name);
        return false;
    }
    while (*attr == ':') {
        size_t attr_len = strcspn(++attr, ":=");
        if (attr_len == 0 || !event_has_attr(event, attr, attr_len)) {
            snprintf(why, len, "%.*s has no unit mask or modifier \"%.*s\" in PMU %s",
                     (int)event_len, spec, (int)attr_len, attr, pmu->name);
            return false;
        }
        attr += strcspn(attr, ":");
    }
    return true;
}

bool sb_pfm_pmu_has_event(const char *pmu, const char *name)
{
    pfm_pmu_info_t info;

    return find_pmu(pmu, &info) && find_event(&info, name, strcspn(name, ":")) >= 0;
}

/* An unqualified event checked in the map's PMUs, grouped by type: core, uncore, other (perf's
 * generic events...). Per group: whether a PMU of it is known here (seen), whether the event
 * is in one of them (found), in all of them (ok), and why not in the first that lacks it. */
enum { PMU_CORE, PMU_UNCORE, PMU_OTHER, PMU_GROUPS };
struct pmu_groups {
    char why[PMU_GROUPS][256];
    bool ok[PMU_GROUPS], seen[PMU_GROUPS], found[PMU_GROUPS];
};

static void check_in_groups(const char *name, const char (*pmus)[48], int npmus,
                            struct pmu_groups *g)
{
    pfm_pmu_info_t info;

    for (int k = 0; k < PMU_GROUPS; k++) {
        g->why[k][0] = '\0';
        g->ok[k] = true;
        g->seen[k] = g->found[k] = false;
    }
    for (int i = 0; i < npmus; i++) {
        char pmu_why[256];
        int group;
        if (!find_pmu(pmus[i], &info))
            continue;
        group = info.type == PFM_PMU_TYPE_CORE     ? PMU_CORE
                : info.type == PFM_PMU_TYPE_UNCORE ? PMU_UNCORE
                                                   : PMU_OTHER;
        g->seen[group] = true;
        if (check_in_pmu(&info, name, pmu_why, sizeof pmu_why)) {
            g->found[group] = true;
            continue;
        }
        g->ok[group] = false;
        if (!g->why[group][0])
            snprintf(g->why[group], sizeof g->why[group], "%s", pmu_why);
    }
}

/* Why an event no group has whole is refused: the more telling failure, where the event was
 * found in some PMUs of a type but not all; else the first type seen. */
static void groups_why(const struct pmu_groups *g, char *why, size_t len)
{
    int pick = -1;

    for (int k = 0; k < PMU_GROUPS && pick < 0; k++)
        if (g->found[k])
            pick = k;
    for (int k = 0; k < PMU_GROUPS && pick < 0; k++)
        if (g->seen[k])
            pick = k;
    snprintf(why, len, "%s", g->why[pick]);
}

/* A PMU-qualified event ("pmu::event"): that PMU must be known and have it. */
static bool check_qualified(const char *name, const char *sep, bool *checked, char *why,
                            size_t len)
{
    pfm_pmu_info_t info;
    char pmu[64];

    snprintf(pmu, sizeof pmu, "%.*s", (int)(sep - name), name);
    if (!find_pmu(pmu, &info)) {
        snprintf(why, len, "%s is not a PMU %s knows", pmu, sb_pfm_version());
        return false;
    }
    *checked = true;
    return check_in_pmu(&info, sep + 2, why, len);
}

bool sb_pfm_check_event(const char *name, const char (*pmus)[48], int npmus, bool *checked,
                        char *why, size_t len)
{
    const char *sep = strstr(name, "::");
    struct pmu_groups groups;

    *checked = false;
    if (!pfm_ready()) {
        snprintf(why, len, "libpfm4 cannot be initialized");
        return false;
    }
    if (sep)
        return check_qualified(name, sep, checked, why, len);
    /* Unqualified: every known PMU of the list of one type (core, uncore or other). */
    check_in_groups(name, pmus, npmus, &groups);
    if (!groups.seen[PMU_CORE] && !groups.seen[PMU_UNCORE] && !groups.seen[PMU_OTHER])
        return true; /* this libpfm4 knows none of the map's PMUs: nothing to check against */
    *checked = true;
    for (int k = 0; k < PMU_GROUPS; k++)
        if (groups.seen[k] && groups.ok[k])
            return true;
    groups_why(&groups, why, len);
    return false;
}
