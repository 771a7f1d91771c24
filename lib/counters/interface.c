/* SPDX-License-Identifier: BSD-3-Clause */
/* interface.c: the roles' names, and opening and closing a run's counters with its backend
 * (the backends' registry: backends.c). */
#include "config.h"
#include "counters/interface.h"

#include <stdlib.h>
#include <string.h>


const char *const sb_phase_names[SB_NPHASES] = {"copy_in", "op", "writeback"};

const char *const sb_role_names[SB_NROLES] = {
    [SB_ROLE_CYCLES] = "cycles",
    [SB_ROLE_INSTRUCTIONS] = "instructions",
    [SB_ROLE_L2_MISS] = "l2_miss",
    [SB_ROLE_L2_WRITEBACK] = "l2_writeback",
    [SB_ROLE_MEM_READ_BYTES] = "mem_read_bytes",
    [SB_ROLE_MEM_WRITE_BYTES] = "mem_write_bytes",
    [SB_ROLE_L1D_HIT] = "l1d_hit",
    [SB_ROLE_L1D_MISS] = "l1d_miss",
    [SB_ROLE_L1D_WRITEBACK] = "l1d_writeback",
    [SB_ROLE_L2_HIT] = "l2_hit",
    [SB_ROLE_L3_HIT] = "l3_hit",
    [SB_ROLE_L3_MISS] = "l3_miss",
    [SB_ROLE_L3_WRITEBACK] = "l3_writeback",
};

int sb_counters_open(struct sb_counters *c, const struct sb_counter_backend *backend,
                     const struct sb_counting *run, unsigned nreps, struct sb_error *err)
{
    int status;

    memset(c, 0, sizeof *c);
    c->backend = backend;
    c->nreps = nreps;
    c->values = calloc(nreps ? nreps : 1, sizeof *c->values);
    if (!c->values)
        return sb_fail(err, SB_ERR_RUN, "out of memory for counter values");
    status = backend->open(c, run, err);
    if (status == SB_OK && run->require && strcmp(c->status, "unavailable") == 0)
        status = sb_fail(err, SB_ERR_COUNTERS, "%s: counters %s unavailable and "
                         "require_counters=yes: %s", run->name, backend->name, c->reason);
    return status;
}

void sb_counters_close(struct sb_counters *c)
{
    if (c->backend)
        c->backend->close(c);
    free(c->values);
    c->values = NULL;
    free(c->phase_values);
    c->phase_values = NULL;
    free(c->phase_counts);
    c->phase_counts = NULL;
    c->have_phases = false;
}
