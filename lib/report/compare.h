/* SPDX-License-Identifier: BSD-3-Clause */
/* compare.h: matching the runs of several reports (other hosts, or this host at other times) by
 * their parameters, and saying for each pair how the medians differ and whether the difference
 * is significant (Mann-Whitney U over the timed repetitions), with the counter differences.
 * The first report is the baseline; every other is compared with it. Runs with no partner are
 * listed, never dropped. */
#ifndef SB_COMPARE_H
#define SB_COMPARE_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#define SB_COMPARE_ALPHA 0.05

/* Builds the comparison document ({"schema": "scanbench-compare", ...}, see
 * doc/report-schema.md). */
json_t *sb_compare_build(json_t *const *reports, const char *const *paths, size_t n);

/* Prints the comparison document as a table for people. */
void sb_compare_render(FILE *out, const json_t *comparison);

#endif
