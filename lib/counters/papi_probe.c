/* SPDX-License-Identifier: BSD-3-Clause */
/* papi_probe.c: PAPI's library state, components and errors, for the papi counter backend
 * and `scanbench events`. */
#include "config.h"
#include "counters/papi_probe.h"

#include <papi.h>
#include <stdio.h>
#include <string.h>

static const char *const error_names[] = {
    "PAPI_OK", "PAPI_EINVAL", "PAPI_ENOMEM", "PAPI_ESYS", "PAPI_ECMP", "PAPI_ECLOST",
    "PAPI_EBUG", "PAPI_ENOEVNT", "PAPI_ECNFLCT", "PAPI_ENOTRUN", "PAPI_EISRUN",
    "PAPI_ENOEVST", "PAPI_ENOTPRESET", "PAPI_ENOCNTR", "PAPI_EMISC", "PAPI_EPERM",
    "PAPI_ENOINIT", "PAPI_ENOCMP", "PAPI_ENOSUPP", "PAPI_ENOIMPL", "PAPI_EBUF",
    "PAPI_EINVAL_DOM", "PAPI_EATTR", "PAPI_ECOUNT", "PAPI_ECOMBO", "PAPI_ECMP_DISABLED",
    "PAPI_EDELAY_INIT", "PAPI_EMULPASS",
};

const char *sb_papi_strerror(int code, char *buf, size_t len)
{
    const char *text = PAPI_strerror(code);

    if (code <= 0 && -code < (int)(sizeof error_names / sizeof error_names[0]))
        snprintf(buf, len, "%s (%s)", error_names[-code], text ? text : "no description");
    else
        snprintf(buf, len, "PAPI error %d (%s)", code, text ? text : "no description");
    return buf;
}

int sb_papi_init(char *why, size_t len)
{
    static int result = 1; /* 1: not tried yet */
    static char result_why[256];

    if (result == 1) {
        int version = PAPI_library_init(PAPI_VER_CURRENT);
        if (version == PAPI_VER_CURRENT) {
            result = PAPI_OK;
        } else if (version > 0) {
            result = PAPI_EINVAL;
            snprintf(result_why, sizeof result_why, "PAPI_library_init: the library is version "
                     "%d.%d, scanbench was built against %d.%d", PAPI_VERSION_MAJOR(version),
                     PAPI_VERSION_MINOR(version), PAPI_VERSION_MAJOR(PAPI_VER_CURRENT),
                     PAPI_VERSION_MINOR(PAPI_VER_CURRENT));
        } else {
            char err[160];
            result = version;
            snprintf(result_why, sizeof result_why, "PAPI_library_init: %s",
                     sb_papi_strerror(version, err, sizeof err));
        }
    }
    if (result != PAPI_OK)
        snprintf(why, len, "%s", result_why);
    return result;
}

void sb_papi_host_probe(struct sb_papi_host *host)
{
    const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
    int version = PAPI_get_opt(PAPI_LIB_VERSION, NULL);

    memset(host, 0, sizeof *host);
    host->core_counters = -1;
    host->core_component = host->uncore_component = -1;
    snprintf(host->version, sizeof host->version, "%d.%d.%d.%d", PAPI_VERSION_MAJOR(version),
             PAPI_VERSION_MINOR(version), PAPI_VERSION_REVISION(version),
             PAPI_VERSION_INCREMENT(version));
    host->ncomponents = PAPI_num_components();
    if (host->ncomponents > SB_PAPI_MAX_COMPONENTS)
        host->ncomponents = SB_PAPI_MAX_COMPONENTS;
    for (int c = 0; c < host->ncomponents; c++) {
        const PAPI_component_info_t *ci = PAPI_get_component_info(c);
        struct sb_papi_component *out = &host->components[c];
        if (!ci)
            continue;
        snprintf(out->name, sizeof out->name, "%s", ci->name);
        snprintf(out->description, sizeof out->description, "%s", ci->description);
        out->disabled = ci->disabled != 0;
        snprintf(out->disabled_reason, sizeof out->disabled_reason, "%s", ci->disabled_reason);
        out->counters = ci->num_cntrs;
        if (strcmp(ci->name, "perf_event") == 0) {
            host->core_component = c;
            host->core_counters = out->disabled ? 0 : ci->num_cntrs;
        } else if (strcmp(ci->name, "perf_event_uncore") == 0) {
            host->uncore_component = c;
        }
    }
    if (hw) {
        host->virtualized = hw->virtualized != 0;
        snprintf(host->vm_vendor, sizeof host->vm_vendor, "%s", hw->virtual_vendor_string);
    }
}

int sb_papi_try_event(const char *name, int *component, char *why, size_t len)
{
    int set = PAPI_NULL, code, status;
    char err[160];

    *component = -1;
    status = PAPI_event_name_to_code(name, &code);
    if (status != PAPI_OK) {
        snprintf(why, len, "PAPI_event_name_to_code: %s",
                 sb_papi_strerror(status, err, sizeof err));
        return status;
    }
    *component = PAPI_get_event_component(code);
    status = PAPI_create_eventset(&set);
    if (status != PAPI_OK) {
        snprintf(why, len, "PAPI_create_eventset: %s", sb_papi_strerror(status, err, sizeof err));
        return status;
    }
    status = PAPI_add_event(set, code);
    if (status != PAPI_OK)
        snprintf(why, len, "PAPI_add_event: %s", sb_papi_strerror(status, err, sizeof err));
    PAPI_cleanup_eventset(set);
    PAPI_destroy_eventset(&set);
    return status;
}
