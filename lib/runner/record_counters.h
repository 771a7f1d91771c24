/* SPDX-License-Identifier: BSD-3-Clause */
/* record_counters.h: the figures a run's report derives from its counters (`counters.derived`:
 * L2 misses and write-backs per page, memory bytes read and written per table byte, medians
 * over the counted scans) and, when the backend split the counts by phase (the cache model:
 * copy-in, op, write-back), the same per phase (`counters.phases`). */
#ifndef SB_RECORD_COUNTERS_H
#define SB_RECORD_COUNTERS_H

#include <jansson.h>

#include "counters/counters.h"
#include "engine/engine.h"

/* `counters.derived` of the whole scan; NULL when out of memory. */
json_t *sb_report_derived_json(const struct sb_counters *c, const struct sb_run_result *res);

/* `counters.phases`: for each phase (sb_phase_names), {"values": {role: one count per
 * counted scan}, "derived": as sb_report_derived_json of that phase's counts}; json null when
 * the backend did not split its counts (c->have_phases false); NULL when out of memory. */
json_t *sb_report_phases_json(const struct sb_counters *c, const struct sb_run_result *res);

#endif
