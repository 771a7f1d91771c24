/* SPDX-License-Identifier: BSD-3-Clause */
/* backends.c: the counter backends' registry, a row each, and the `none` backend
 * (nothing requested). */
#include "config.h"
#include "counters/interface.h"

#include <string.h>

#include "counters/papi.h"
#include "counters/sim.h"

static int none_open(struct sb_counters *c, const struct sb_counting *run, struct sb_error *err)
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
    {.name = "none", .description = "no counters: times only", .open = none_open,
     .start = none_region, .stop = none_region, .replay = NULL, .finish = NULL,
     .close = none_close},
    {.name = "papi",
     .description = "hardware counters through PAPI (events from configs/events; `scanbench "
                    "events`)",
     .open = sb_papi_open, .start = sb_papi_start, .stop = sb_papi_stop, .replay = NULL,
     .finish = NULL, .close = sb_papi_close},
    {.name = "sim",
     .description = "the cache model (lib/cachesim) fed the scan's exact line addresses; "
                    "machine= picks the model",
     .open = sb_sim_open, .start = sb_sim_start, .stop = sb_sim_stop, .replay = sb_sim_replay,
     .finish = sb_sim_finish, .close = sb_sim_close},
    {.name = NULL},
};

const struct sb_counter_backend *sb_counter_backend_find(const char *name)
{
    for (const struct sb_counter_backend *b = sb_counter_backends; b->name; b++)
        if (strcmp(b->name, name) == 0)
            return b;
    return NULL;
}
