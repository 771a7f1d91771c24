/* SPDX-License-Identifier: BSD-3-Clause */
/* analysis_knee.h: the knees of a report: its runs of the clock policy grouped into sweeps over
 * pool sizes (runs that differ in nothing but the pool), each sweep of at least 4 pool sizes
 * analysed by knee.h (a sweep of 3 says it has too few points), with a sentence in bytes and in
 * units of the host's L2 (from the report's context). */
#ifndef SB_ANALYSIS_KNEE_H
#define SB_ANALYSIS_KNEE_H

#include <jansson.h>
#include <stddef.h>

/* The "knees" list of the analysis block. */
json_t *sb_analysis_knees(const json_t *report, size_t nrounds);

#endif
