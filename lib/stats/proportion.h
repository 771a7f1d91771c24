/* SPDX-License-Identifier: BSD-3-Clause */
/* proportion.h: how sure a share of trials is: the Wilson score interval of k successes in n
 * trials (Wilson 1927; Brown, Cai and DasGupta, "Interval estimation for a binomial
 * proportion", Statistical Science 2001, recommend it for small n). Unlike the textbook
 * p +- z sqrt(p(1 - p) / n) it never leaves [0, 1] and does not collapse to a point at 0 of n
 * or n of n: 0 of 100 gives [0, 0.037] at 95%. scanbench power states its detection and
 * false-call shares with it. */
#ifndef SB_PROPORTION_H
#define SB_PROPORTION_H

/* The standard normal quantile: z with P(Z <= z) = p, 0 < p < 1 (1.959964 for 0.975). */
double sb_normal_quantile(double p);

/* The two-sided Wilson score interval of k successes in n trials (k <= n) at level (0.95)
 * into [*lo, *hi]; n = 0 says nothing: [0, 1]. */
void sb_wilson_interval(unsigned k, unsigned n, double level, double *lo, double *hi);

#endif
