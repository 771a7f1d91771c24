/* runner.h: runs every run of a checked plan, in order, into a report: builds the table in the
 * IO cache (again only when the table's shape changes), runs the scan, adds the record.
 * Shared by `scanbench run` and `scanbench reproduce`. Progress goes to stderr unless quiet. */
#ifndef SB_RUNNER_H
#define SB_RUNNER_H

#include <jansson.h>
#include <stdbool.h>

#include "error.h"
#include "plan.h"
#include "topo.h"

/* The host topology with the plan's overrides (l1d_size, ..., line_size) applied. */
void sb_runner_topology(const struct sb_plan *plan, struct sb_topology *topo);

/* Runs the plan, appending one record per run to report's "runs". */
int sb_runner_run(const struct sb_plan *plan, json_t *report, bool quiet, struct sb_error *err);

#endif
