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
