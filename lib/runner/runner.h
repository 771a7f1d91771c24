/* SPDX-License-Identifier: BSD-3-Clause */
/* runner.h: runs a checked plan on its schedule into a report. Interleaved (the default): every
 * table is built once, every run is prepared (its pools stay allocated), validated and warmed,
 * then rounds follow: each round times every run once, and the plan's first run a second time
 * (the A-A pair that measures the host's noise), in a seeded shuffle that the next round
 * reverses (schedule.h), each timed scan after a settling pass (engine.h). repetitions = auto
 * (the default) runs 10 rounds, then more, in pairs, until the report's analysis (analysis.h)
 * says every comparison is precise to 1%, the next pair would pass the time_budget (auto: 5 s
 * per run), or 200 rounds: it stops on precision, never on a call. Blocked: one run after another, all its timed
 * scans together (as before rounds existed, kept for comparison). A signal, the watchdog or a
 * failure stops the schedule between scans: the report keeps every scan done, marked
 * incomplete, naming the run and why. With key contention, the plan's aggressor
 * (host/aggressor.h) starts before the tables and works only during each timed scan (its
 * settling pass included); the schedule block keeps what it moved. Shared by `scanbench run`
 * and `scanbench reproduce`. Progress goes to stderr unless quiet. */
#ifndef SB_RUNNER_H
#define SB_RUNNER_H

#include <jansson.h>
#include <stdbool.h>

#include "core/core.h"
#include "host/host.h"
#include "plan/plan.h"

/* The host topology with the plan's overrides (l1d_size, ..., line_size) applied. */
void sb_runner_topology(const struct sb_plan *plan, struct sb_topology *topo);

/* Runs the plan, appending one record per run to report's "runs" and the "schedule" block.
 * The report's "thread" block, when set before, decides which comparisons repetitions = auto
 * waits for (analysis.h). */
int sb_runner_run(const struct sb_plan *plan, json_t *report, bool quiet, struct sb_error *err);

/* the rest of the subsystem's interface */
#include "runner/predict.h"
#include "runner/record.h"

#endif
