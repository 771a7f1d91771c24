/* SPDX-License-Identifier: BSD-3-Clause */
/* team.h: the scanners of one configuration, as threads that run phases together. A team of
 * one runs each phase in the calling thread (no thread, no barrier: the single scanner's path
 * costs nothing extra); a team of n > 1 has n threads, each pinned with hwloc to a core of its
 * own (the cores in hwloc's order; more scanners than cores go round robin), started together
 * by a barrier for every phase, and the caller waits for all of them at a second barrier. The
 * threads live as long as the team: a configuration keeps its team across the rounds of a
 * schedule. */
#ifndef SB_TEAM_H
#define SB_TEAM_H

#include <stdbool.h>
#include <stdint.h>

#include "core/core.h"
#include "host/host.h"

/* What a worker does in one phase: fn(ctx, worker index, phase). */
typedef void (*sb_team_fn)(void *ctx, uint32_t worker, const void *phase);

struct sb_team;

/* Where scanner i of n would run (cpu_place.h); n of 1 is never pinned: it runs in the caller's
 * thread wherever the OS puts it. */
void sb_team_place_of(uint32_t n, uint32_t i, struct sb_cpu_place *place);

/* Starts n workers that call fn with ctx. SB_ERR_RUN when a thread cannot be made. */
int sb_team_start(struct sb_team **team, uint32_t n, sb_team_fn fn, void *ctx,
                  struct sb_error *err);

/* Runs one phase on every worker and returns when all have finished it. */
void sb_team_run(struct sb_team *team, const void *phase);

/* Whether worker i was pinned where sb_team_place_of said (false for a team of one). */
bool sb_team_pinned(const struct sb_team *team, uint32_t i);

/* Ends the workers and frees the team (NULL: nothing). */
void sb_team_stop(struct sb_team *team);

#endif
