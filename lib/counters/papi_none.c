/* SPDX-License-Identifier: BSD-3-Clause */
/* papi_none.c: the `papi` backend in a build without PAPI: the row stays (so an
 * experiment that asks for it still runs, timed), and says why there are no counters. */
#include "config.h"
#include "counters/papi.h"

#include <stdio.h>

int sb_papi_open(struct sb_counters *c, const struct sb_counting *run, struct sb_error *err)
{
    (void)run;
    (void)err;
    c->status = "unavailable";
    snprintf(c->reason, sizeof c->reason, "built without PAPI (configure --with-papi)");
    for (int role = 0; role < SB_NROLES; role++)
        snprintf(c->role_reason[role], sizeof c->role_reason[role], "built without PAPI");
    return SB_OK;
}

void sb_papi_start(struct sb_counters *c, unsigned rep)
{
    (void)c;
    (void)rep;
}

void sb_papi_stop(struct sb_counters *c, unsigned rep)
{
    (void)c;
    (void)rep;
}

void sb_papi_close(struct sb_counters *c) { (void)c; }
