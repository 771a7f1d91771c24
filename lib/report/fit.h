/* SPDX-License-Identifier: BSD-3-Clause */
/* fit.h: the host's fit: how well the time model explains this host's MB/s over a sweep. Each
 * run whose record has a prediction (runs[].predicted.mbps: counters=sim with a machine that has
 * [costs], e.g. a `scanbench probe` file of this host) is paired with its measured median MB/s;
 * the fit gives each pair's relative error (predicted / measured - 1), the median of their
 * absolute values, Spearman's rank correlation of the pairs, and a sentence:
 *   "explained: ..."      at least SB_FIT_MIN_RUNS pairs, rho >= SB_FIT_MIN_RHO and median
 *                         |error| <= SB_FIT_MAX_ERROR: the model orders the runs as the host
 *                         does and is near their figures;
 *   "not explained: ..."  otherwise, naming what the model gets wrong: for each op, the pools
 *                         grouped by where they fit in the host's caches (context.caches: L1d,
 *                         L2, L3, memory beyond the last), every two groups the model orders
 *                         one way and the host, by more than 10%, the other ("L2-resident
 *                         destinations are slower here than L3-resident ones"); else the run
 *                         whose ranks differ most; else the error's size and direction;
 *   "not judged: ..."     fewer than SB_FIT_MIN_RUNS pairs;
 * with "; and the measured MB/s are too noisy here to weigh it (identical configurations could
 * differ by N%)" added where the report's analysis flagged the host (analysis.noise.too_noisy). The report's analysis
 * must be built first.
 * Computed from the report alone, so a report from another host fits the same. */
#ifndef SB_FIT_H
#define SB_FIT_H

#include <jansson.h>

#define SB_FIT_MIN_RUNS 4
#define SB_FIT_MIN_RHO 0.8
#define SB_FIT_MAX_ERROR 0.25
#define SB_FIT_GROUP_MARGIN 0.10 /* measured groups this far apart are ordered */

/* The report's "fit" block, or NULL when no run has a prediction (or out of memory). */
json_t *sb_fit_build(const json_t *report);

#endif
