/* counters.c: the counter-backend registry and the `none` backend (nothing requested). */
#include "config.h"
#include "counters.h"

#include <stdlib.h>
#include <string.h>

#include "counters_papi.h"
#include "counters_sim.h"
#include "plan.h"

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

static int none_open(struct sb_counters *c, const struct sb_run_params *run, struct sb_error *err)
{
    (void)run;
    (void)err;
    c->status = "not requested";
    return SB_OK;
}

static void none_region(struct sb_counters *c, unsigned rep)
{
    (void)c;
    (void)rep;
}

static void none_close(struct sb_counters *c) { (void)c; }

const struct sb_counter_backend sb_counter_backends[] = {
    {"none", "no counters: times only", none_open, none_region, none_region, NULL, NULL,
     none_close},
    {"papi", "hardware counters through PAPI (events from configs/events; `scanbench events`)",
     sb_papi_open, sb_papi_start, sb_papi_stop, NULL, NULL, sb_papi_close},
    {"sim", "the cache model (lib/cachesim) fed the scan's exact line addresses; machine= picks "
     "the model", sb_sim_open, sb_sim_start, sb_sim_stop, sb_sim_replay, sb_sim_finish,
     sb_sim_close},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};

const struct sb_counter_backend *sb_counter_backend_find(const char *name)
{
    for (const struct sb_counter_backend *b = sb_counter_backends; b->name; b++)
        if (strcmp(b->name, name) == 0)
            return b;
    return NULL;
}

int sb_counters_open(struct sb_counters *c, const struct sb_counter_backend *backend,
                     const struct sb_run_params *run, unsigned nreps, struct sb_error *err)
{
    int status;

    memset(c, 0, sizeof *c);
    c->backend = backend;
    c->nreps = nreps;
    c->values = calloc(nreps ? nreps : 1, sizeof *c->values);
    if (!c->values)
        return sb_fail(err, SB_ERR_RUN, "out of memory for counter values");
    status = backend->open(c, run, err);
    if (status == SB_OK && run->require_counters && strcmp(c->status, "unavailable") == 0)
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
}
