/* SPDX-License-Identifier: BSD-3-Clause */
/* order_stat.h: order statistics for the bootstraps of estimate.c and knee.c (internal): the
 * median of a scratch buffer by quickselect (in place, no sort: a bootstrap takes thousands of
 * medians), and a quantile of sorted values. */
#ifndef SB_ORDER_STAT_H
#define SB_ORDER_STAT_H

#include <stddef.h>

/* The median of v[0 .. n-1], the mean of the middle two for even n (as sb_median); reorders v.
 * NaN when n is 0. v must hold no NaN. */
double sb_select_median(double *v, size_t n);

/* The p-quantile (0 <= p <= 1) of sorted[0 .. n-1], interpolated linearly between the order
 * statistics (Hyndman and Fan's type 7, R's default). NaN when n is 0. */
double sb_sorted_quantile(const double *sorted, size_t n, double p);

/* qsort's comparison of doubles (no NaN). */
int sb_compare_doubles(const void *a, const void *b);

#endif
