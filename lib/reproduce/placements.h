/* SPDX-License-Identifier: BSD-3-Clause */
/* placements.h: the thread's slow and fast placements ("clock 16MB", "clock 680KB") in a
 * reproduction's plan: which runs write into one, that every op the plan runs has both (the
 * verdict compares them), and the two pools scaled from the thread machine's L2 to this host's
 * (plan/scaling.h), with the report's thread.scaled block that says how. */
#ifndef SB_REPRODUCE_PLACEMENTS_H
#define SB_REPRODUCE_PLACEMENTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "host/host.h"
#include "plan/plan.h"
#include "vocab/vocab.h"

/* The run's placement: its policy and the bytes it writes into (sb_policy_footprint). */
struct sb_placement_name sb_reproduce_run_placement(const struct sb_run_params *run);

/* Whether the run writes into placement (clock 16MB: the same policy and footprint in bytes),
 * as the verdict finds runs by it (report/runs.h). */
bool sb_reproduce_has_placement(const struct sb_run_params *run,
                                const struct sb_placement_name *placement);

/* The thread's slow and fast placements must each be a run of every op the plan runs (after
 * --quick and --set): else the verdict would leave the op out without a word. SB_ERR_INPUT
 * naming source, the placement and the op otherwise. An empty placement is not checked. */
int sb_reproduce_check_placements(const struct sb_plan *plan, const struct sb_thread *thread,
                                  const char *source, struct sb_error *err);

/* A placement (clock 16MB) as its pool in bytes, for a policy whose footprint is the pool (the
 * only ones scaled); false otherwise (no placement too). */
bool sb_reproduce_placement_pool(const struct sb_placement_name *placement, uint64_t *bytes);

/* The thread's slow (scaled[0]) and fast (scaled[1]) pools scaled from the L2 of the thread's
 * machine (configs/machines) to topo's L2 and last level, a scattered pool capped at
 * SB_SCALE_SCATTER_CAP or a quarter of limit's memory; false with why said (len bytes) when
 * there are none: no machine or placements, no L2 here, a machine that cannot be read. */
bool sb_reproduce_scale_pools(const struct sb_thread *thread, const struct sb_topology *topo,
                              const struct sb_mem_limit *limit, struct sb_scaled_pool scaled[2],
                              char *why, size_t len);

/* The report's thread.scaled block: each scaled placement and how (has: there are scaled
 * pools), or why there are none. */
json_t *sb_reproduce_scaled_json(const struct sb_thread *thread, bool has,
                                 const struct sb_scaled_pool scaled[2], const char *why);

#endif
