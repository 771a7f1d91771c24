/* SPDX-License-Identifier: BSD-3-Clause */
/* record_scanners.h: the parts of a run's record about where its pages came from and who
 * scanned them: `bigtable`, `io` (the source's copy, the device rate, the page cache residency),
 * `placement` (NUMA: asked and found, and the NUMA-balancing state) and `scanners` (each
 * scanner's PU, core and node, the CPUs it ran on, its own MB/s; the shared pool's accounting),
 * plus `validation.pages_read_once`. */
#ifndef SB_REPORT_SCANNERS_H
#define SB_REPORT_SCANNERS_H

#include <jansson.h>

#include "engine/engine.h"
#include "plan/plan.h"

/* Adds those fields to the run record `run`. */
void sb_report_add_scanners(json_t *run, const struct sb_run_params *p,
                            const struct sb_run_result *res);

#endif
