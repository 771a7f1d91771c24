/* SPDX-License-Identifier: BSD-3-Clause */
/* analysis_level.h: the host's level in a report's rounds, and each comparison's dependence on
 * it (stats/level.h), computed from the report alone. A round's level is the per-run centred
 * mean ln MB/s of its timed scans over every run and the A-A pair's second timing
 * (schedule.reference.scans): below 0 where the whole round ran slower, the host busy. For a
 * comparison a / b the level leaves a and b out (where another run was timed in the round), and
 * the comparison says whether its per-round ratio follows the level (Spearman's rho, its
 * bootstrap interval excluding 0) and the ratio in the quietest and the busiest thirds of the
 * rounds. */
#ifndef SB_ANALYSIS_LEVEL_H
#define SB_ANALYSIS_LEVEL_H

#include <jansson.h>
#include <stddef.h>

/* The level of each round r < nrounds over every run and the A-A pair's second timing, in a new
 * array (free it; NaN where no scan has a figure); NULL when out of memory. */
double *sb_report_round_levels(const json_t *report, size_t nrounds);

/* The same, with run `run` (an index into the report's runs) left out of every round in which
 * another run has a value (stats/level.h's sb_round_levels). */
double *sb_report_round_levels_without(const json_t *report, size_t nrounds, size_t run);

/* analysis.round_levels: one object per round, {"round", "level", "steal" (seconds summed over
 * the round's timed scans, null when none says), "at" (its earliest scan's start, null when
 * none says)}; NULL when out of memory. */
json_t *sb_analysis_round_levels(const json_t *report, size_t nrounds);

/* Adds "host_level" to each comparison of `comparisons` (analysis.comparisons, made from
 * report: "a" and "b" name its runs, "level" is its confidence level): {"available", "why"
 * (when not), "rounds", "fallback_rounds", "rho", "lo", "hi", "depends", "quiet", "busy",
 * "text"}; and "level_call" ({"quiet", "busy", "text"}) where the
 * comparison's own call is inconclusive, its ratio depends on the level and both thirds are
 * called (its "text" then says them too). Returns comparisons (a comparison whose runs it cannot find is left as it is). */
json_t *sb_analysis_host_levels(const json_t *report, json_t *comparisons, size_t nrounds);

#endif
