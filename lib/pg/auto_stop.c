/* SPDX-License-Identifier: BSD-3-Clause */
/* auto_stop.c: repetitions = auto's rule for the live rounds (see rounds.h). */
#include "config.h"
#include "pg/rounds.h"

const char *sb_pg_auto_stop(const struct sb_pg_auto *a, bool (*settled)(void *ctx), void *ctx)
{
    if (a->rounds < SB_PG_ROUNDS_MIN)
        return NULL;
    if (a->elapsed + a->last_round > a->budget)
        return "time_budget";
    if (a->rounds % 2 == 0 && a->instances >= SB_PG_INSTANCES_MIN && settled && settled(ctx))
        return "precision";
    return NULL;
}
