/* SPDX-License-Identifier: BSD-3-Clause */
/* analysis_layouts.h: what the layouts did to each run of a report (key layout): each layout's
 * median MB/s and rounds, and the spread between layouts with the host's drift and the rounds'
 * own noise taken out (stats/layouts.h), computed from the report alone. */
#ifndef SB_ANALYSIS_LAYOUTS_H
#define SB_ANALYSIS_LAYOUTS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* Adds to each entry of `runs` (analysis.runs, in the report's run order) "layouts" (how many
 * its rounds ran on), "layout_medians" ([{"layout", "rounds", "median"}]) and "layout_spread":
 * exp(2 sigma) - 1, sigma the standard deviation between its layouts of ln MB/s less the
 * round's level over the other runs and the reference (analysis_level.h), how far apart a
 * layout one sigma slow and one sigma fast run; null with fewer than 2 layouts. groups: each round's layout (NULL: one).
 * Returns 0, or -1 when out of memory. */
int sb_analysis_add_layouts(const json_t *report, json_t *runs, size_t nrounds,
                            const uint32_t *groups);

#endif
