/* SPDX-License-Identifier: BSD-3-Clause */
/* spearman.h: Spearman's rank correlation of paired figures (the host's fit: predicted against
 * measured MB/s over a sweep): Pearson's correlation of the two samples' ranks, tied values
 * taking the mean of the ranks they span. */
#ifndef SB_SPEARMAN_H
#define SB_SPEARMAN_H

#include <stdbool.h>
#include <stddef.h>

/* The ranks of v[0..n) into rank (1 for the smallest; ties their mean rank). false when out of
 * memory. */
bool sb_ranks(const double *v, size_t n, double *rank);

/* Spearman's rho of the pairs (x[i], y[i]), in [-1, 1]; NAN when n < 2, when either sample has
 * one value throughout (no order to compare), or out of memory. */
double sb_spearman(const double *x, const double *y, size_t n);

#endif
