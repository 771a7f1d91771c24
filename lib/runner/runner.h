/* runner.h: runs a checked plan on its schedule into a report. Interleaved (the default): every
 * table is built once, every run is prepared (its pools stay allocated), validated and warmed,
 * then rounds follow: each round times every run once, and the plan's first run a second time
 * (the A-A pair that measures the host's noise), in a fresh seeded shuffle (schedule.h), each
 * timed scan after a settling pass (engine.h). repetitions = auto runs 10 rounds, then more
 * until the report's analysis (analysis.h) says every comparison is precise to 1%, the
 * time_budget would be passed, or 60 rounds. Blocked: one run after another, all its timed
 * scans together (as before rounds existed, kept for comparison). A signal, the watchdog or a
 * failure stops the schedule between scans: the report keeps every scan done, marked
 * incomplete, naming the run and why. Shared by `scanbench run` and `scanbench reproduce`.
 * Progress goes to stderr unless quiet. */
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
