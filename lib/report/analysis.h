/* SPDX-License-Identifier: BSD-3-Clause */
/* analysis.h: what a report's rounds say, computed from the report alone (so a report from
 * another host analyses the same): the host's noise floor from the A-A pair (the first run timed
 * twice in each round), its MB/s trace and drift; each run's median MB/s with its interval; the
 * paired comparisons (estimate.h), each called faster or slower when its interval lies beyond
 * the threshold delta = max(2%, noise floor), the same when it lies inside, inconclusive
 * otherwise, with the smallest difference it could have resolved (a floor above 5% is flagged
 * "too noisy", a warning: it raises delta and silences nothing); and, for every sweep of the clock policy over at least 4 pool sizes, the
 * knee with its uncertainty (knee.h). The comparisons: with a [thread] block naming slow and fast
 * placements, fast against slow for each op; otherwise each run against the first run of its op
 * (the run table's first column). Bonferroni over all the comparisons of the report. */
#ifndef SB_ANALYSIS_H
#define SB_ANALYSIS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The report's "analysis" block (NULL when out of memory). Reports of schema 1 (no rounds) get
 * a block that says the analysis needs rounds. */
json_t *sb_analysis_build(const json_t *report);

/* The same block without the host's level (no round_levels, no comparison's host_level): what
 * repetitions = auto reads after each round (sb_analysis_settled), without the level's bootstrap
 * of every comparison. */
json_t *sb_analysis_build_provisional(const json_t *report);

/* repetitions = auto: whether more rounds would change nothing that matters: every comparison's
 * interval is precise to `precision` (half-width in log terms) and every knee is settled (no
 * drop, a clear step, or an x50 interval no wider than one step of the sweep). Never on "it
 * became significant". */
bool sb_analysis_settled(const json_t *analysis, double precision);

/* Whether a call ("faster", "slower", "same", "inconclusive", an older report's "withheld")
 * decided something: faster, slower or the same. */
bool sb_call_decided(const char *call);

/* Whether a comparison (analysis.comparisons[], or a verdict's) is called by the host's level
 * (its level_call: its own call inconclusive, its ratio following the level, both thirds
 * called), and, where quiet and busy are not NULL, the calls of its quietest and busiest thirds
 * ("faster", "slower", "same"; "" where there are none). */
bool sb_level_call(const json_t *comparison, const char **quiet, const char **busy);

/* Whether some comparison of the array is called by the host's level. */
bool sb_any_level_call(const json_t *comparisons);

/* A comparison's ratio with its 95% interval, as every paired line prints it, into buf:
 * "0.98x [0.91, 1.05]"; "0.98x [no interval]" or "no ratio" where the report has none (its
 * interval_why, or its text, says why). Returns buf. */
const char *sb_comparison_ratio_text(const json_t *comparison, char *buf, size_t len);

/* A comparison's mark in a table, into buf: "+" faster, "-" slower, "=" the same, "?"
 * inconclusive, "!" the "withheld" of reports made before calls replaced withholding; called by
 * the host's level, its quiet and busy thirds' marks, as "-/+". Returns buf. */
const char *sb_call_mark(const json_t *comparison, char buf[4]);

#endif
