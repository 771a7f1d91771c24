/* SPDX-License-Identifier: BSD-3-Clause */
/* runs.h: a report's runs as its readers see them (compare, the verdict, the
 * reproduction table): the placement that names a run, its median MB/s, the MB/s of each timed
 * repetition, and finding a run by op and placement. Reads only what lib/report/read.c checks
 * every run has. */
#ifndef SB_REPORT_RUNS_H
#define SB_REPORT_RUNS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The phases a run's counters may be split by (`counters.phases`, written when the backend
 * split them: the cache model): the keys, as counters/interface.h's sb_phase_names
 * (test_report checks that they agree), and their names in text. */
#define SB_REPORT_NPHASES 3
extern const char *const sb_report_phase_keys[SB_REPORT_NPHASES];   /* "copy_in", ... */
extern const char *const sb_report_phase_labels[SB_REPORT_NPHASES]; /* "copy-in", ... */
extern const char sb_report_phases_legend[]; /* what each phase is, in one line of text */

/* The report's noise floor (analysis.noise.floor: a number, or NULL when it has none). */
const json_t *sb_report_noise_floor(const json_t *report);
/* The A-A pair's bound (analysis.noise.bound); a report of an earlier version has none, and its
 * floor was the bound: then the floor, or NULL. */
const json_t *sb_report_noise_bound(const json_t *report);

/* "policy footprint", e.g. "clock 16MB": how the thread and the verdict name a placement. */
void sb_run_placement(const json_t *run, char *buf, size_t len);

/* The run named name in runs, or NULL. */
const json_t *sb_find_run_named(const json_t *runs, const char *name);

/* The run of op at placement in runs (POLICY SIZE, compared by policy and size in bytes: clock
 * 16M finds clock 16MB), or NULL (also when placement is not one). */
const json_t *sb_find_run(const json_t *runs, const char *op, const char *placement);

/* The analysis' interval of the run's median ({"name", "median", "lo", "hi"} in its "runs"),
 * or NULL. */
const json_t *sb_analysis_run(const json_t *analysis, const json_t *run);

/* The analysis' comparison whose "a" is the run (against the first run of its op), or NULL. */
const json_t *sb_analysis_comparison(const json_t *analysis, const json_t *run);

/* The median of the run's timed repetitions in MB/s (its "mbps" block). */
double sb_run_median_mbps(const json_t *run);

/* The MB/s of each timed repetition (table bytes / its seconds / 10^6, as the median is), in a
 * new array of *n values (free it); NULL when out of memory. */
double *sb_run_mbps_samples(const json_t *run, size_t *n);

/* The layout of each of the n samples sb_run_mbps_samples returns (its "repetitions" and its
 * "scans" list the timed scans in one order: scan i's "layout"; a scan without one, layout 0,
 * as sb_report_round_layouts reads it), in a new array (free it); NULL when no scan names a
 * layout (reports from before layouts: one layout), when the run has not n scans, or out of
 * memory. */
uint32_t *sb_run_mbps_layouts(const json_t *run, size_t n);

/* Per round r (0 .. nrounds - 1), the MB/s of the run's timed scan in that round (NaN where it
 * has none), from its "scans" (report schema 2); a new array (free it), NULL when out of
 * memory. The first scan of a round counts. */
double *sb_run_round_mbps(const json_t *run, size_t nrounds);
double *sb_scans_round_mbps(const json_t *scans, size_t nrounds);

/* The A-A pair of an interleaved report: the run timed twice in every round (the one
 * schedule.reference names; NULL without one), and its second timings (schedule.reference.scans;
 * NULL without). */
const json_t *sb_report_reference_run(const json_t *report);
const json_t *sb_report_reference_scans(const json_t *report);

/* The rounds a report's runs were timed in: one more than the highest round of any scan (0 for
 * a report without scans: schema 1). */
size_t sb_report_rounds(const json_t *report);

/* The layout each round ran on (key layout: a scan's "layout"), nrounds long, read off every
 * run's scans (the reference's too); NULL when no scan names one (reports from before layouts:
 * one layout) or out of memory. */
uint32_t *sb_report_round_layouts(const json_t *report, size_t nrounds);

/* Whether the run's counters were split by phase (a `counters.phases` object). */
bool sb_run_has_phases(const json_t *run);

/* The figures derived from phase k's counts (`counters.phases.KEY.derived`: per page and per
 * table byte, as `counters.derived`), or NULL when the run has no such phase. */
const json_t *sb_run_phase_derived(const json_t *run, int phase);

/* The size of the host's cache level ("L1d", "L2", "L3") in the report's context: its effective
 * size where the context has one (scanbench probe's sweep), else the nominal; 0: unknown. */
uint64_t sb_report_cache_size(const json_t *report, const char *level);

#endif
