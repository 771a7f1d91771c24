/* SPDX-License-Identifier: BSD-3-Clause */
/* papi_probe.h: PAPI as this process sees it: library initialisation (once), its version,
 * its components (and PAPI's own reason for each disabled one), the number of hardware
 * counters, PAPI's VM flag, PAPI error codes by name, and whether a native event can be
 * added here. Only built with PAPI (HAVE_PAPI). */
#ifndef SB_PAPI_PROBE_H
#define SB_PAPI_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#define SB_PAPI_MAX_COMPONENTS 16

struct sb_papi_component {
    char name[64];
    char description[128];
    bool disabled;
    char disabled_reason[256]; /* PAPI's own words */
    int counters;              /* num_cntrs */
};

struct sb_papi_host {
    char version[32];          /* "7.0.0.0" */
    int ncomponents;
    struct sb_papi_component components[SB_PAPI_MAX_COMPONENTS];
    int core_counters;         /* the perf_event component's num_cntrs (-1 if absent) */
    int core_component;        /* its index, or -1 */
    int uncore_component;      /* perf_event_uncore's index, or -1 */
    bool virtualized;          /* PAPI_get_hardware_info()->virtualized */
    char vm_vendor[64];
};

/* PAPI_library_init, once per process. PAPI_OK, or the error with why filled. */
int sb_papi_init(char *why, size_t len);

/* "PAPI_ENOEVNT (Event does not exist)" for a PAPI return code. */
const char *sb_papi_strerror(int code, char *buf, size_t len);

/* Fills host (after sb_papi_init). */
void sb_papi_host_probe(struct sb_papi_host *host);

/* Whether name can be added to an event set here: PAPI_OK, or PAPI's error (why filled).
 * *component gets the event's component index when the name resolves. */
int sb_papi_try_event(const char *name, int *component, char *why, size_t len);

#endif
