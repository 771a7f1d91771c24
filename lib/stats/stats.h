/* SPDX-License-Identifier: BSD-3-Clause */
/* stats.h: summary statistics of a run's timed repetitions (the warm-up is never included):
 * best, median, min, max and coefficient of variation, in MB/s. */
#ifndef SB_STATS_H
#define SB_STATS_H

#include <stddef.h>
#include <stdint.h>

struct sb_stats {
    double best;   /* highest MB/s (the fastest repetition) */
    double median;
    double min;
    double max;    /* equal to best */
    double cv;     /* sample standard deviation / mean of the MB/s figures (0 for one sample) */
};

/* MB/s (10^6 bytes per second) for each repetition's seconds, then the summary. n >= 1. */
void sb_stats_from_seconds(const double *seconds, size_t n, uint64_t bytes, struct sb_stats *out);

/* The median of n values (sorted copy; mean of the middle two for even n). */
double sb_median(const double *values, size_t n);

/* the rest of the subsystem's interface */
#include "stats/estimate.h"
#include "stats/knee.h"
#include "stats/layouts.h"
#include "stats/level.h"
#include "stats/mannwhitney.h"
#include "stats/order_stat.h"
#include "stats/proportion.h"
#include "stats/schedule.h"
#include "stats/shares.h"
#include "stats/spearman.h"
#include "stats/steps.h"
#include "stats/wilcoxon.h"

#endif
