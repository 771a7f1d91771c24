/* SPDX-License-Identifier: BSD-3-Clause */
/* record_layouts.h: the report's layouts (key layout): each run's and the reference's layouts,
 * with where their pages landed, and the schedule's layout block. */
#ifndef SB_RECORD_LAYOUTS_H
#define SB_RECORD_LAYOUTS_H

#include <jansson.h>
#include <stdint.h>

#include "engine/engine.h"
#include "plan/plan.h"

/* [{index, first_round, at, seconds, pages, frames}, ...] of res's layouts (t0: what `at`
 * counts from); NULL when out of memory. */
json_t *sb_report_layouts_json(const struct sb_run_result *res, double t0);

/* The schedule's "layout" block: the kind, how many layouts the rounds ran on, the rounds per
 * layout (the key, or auto's last) and the draws' time. */
json_t *sb_report_layout_json(const struct sb_schedule_params *s, uint32_t layouts,
                              uint32_t layout_rounds, double draws_seconds);

#endif
