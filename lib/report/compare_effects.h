/* SPDX-License-Identifier: BSD-3-Clause */
/* compare_effects.h: the effects beside compare's per-run table: each comparison the reports
 * made themselves (analysis.comparisons: per op, the thread's slow/fast pair or each run
 * against its op's first, paired by round within one report), one row per comparison matched
 * across the reports by what it compares (the op and its two sides), one column per report,
 * each cell the report's own ratio, interval and call as its run table shows them. Private to
 * lib/report (compare.c builds and prints it). */
#ifndef SB_REPORT_COMPARE_EFFECTS_H
#define SB_REPORT_COMPARE_EFFECTS_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* The "effects" array: [{"comparison": "count ring 256KB / clock 16MB", "op", "a", "b",
 * "reports": [one per report: {"ratio", "lo", "hi", "call"[, "level_call"]} or null]}], rows in
 * the order the reports first list them. A report without an analysis has it made as `run`
 * makes it (sb_analysis_build); one whose analysis has no comparisons adds none. NULL when out
 * of memory. */
json_t *sb_compare_effects(json_t *const *reports, size_t n);

/* Prints the effects table of a comparison document, with its legend; nothing when it has no
 * effects. */
void sb_compare_effects_render(FILE *out, const json_t *doc);

#endif
