/* SPDX-License-Identifier: BSD-3-Clause */
/* layouts.h: estimates whose rounds come in layouts (the memory behind each configuration,
 * drawn again every few rounds: where its pages landed, when, beside what). Variation lives at
 * two levels, between layouts and between the rounds of one layout (Kalibera and Jones,
 * "Rigorous benchmarking in reasonable time", ISMM 2013), so the intervals resample both: a
 * two-stage bootstrap (Davison and Hinkley, Bootstrap Methods, 1997, 3.8: layouts with
 * replacement, then rounds with replacement within each layout drawn), its percentiles widened
 * for the few layouts a run has (Hesterberg's expanded percentile interval, "What teachers
 * should know about the bootstrap", The American Statistician 69(4), 2015). group[r] names the
 * layout behind round r (any number; rounds of one layout need not be adjacent); group NULL,
 * or one layout only, gives exactly estimate.h's one-stage results (the same resamples). The
 * unpaired estimate (two reports' samples, no rounds shared) resamples each side so. */
#ifndef SB_LAYOUTS_H
#define SB_LAYOUTS_H

#include <stddef.h>
#include <stdint.h>

#include "stats/estimate.h"

/* The distinct layouts among the rounds r where keep is NULL or keep[r] is set (it cannot fail:
 * without memory for a sorted copy it counts by a quadratic scan). */
size_t sb_layouts_count(const uint32_t *group, const unsigned char *keep, size_t n);

/* sb_paired_estimate with the rounds' layouts: the same ratio (exp(median d) over every usable
 * round) and Wilcoxon test; the interval by the two-stage bootstrap of the pooled median d,
 * read as estimate.c reads its own (sb_sorted_quantile at (1 - L) / 2 and (1 + L) / 2) at the
 * expanded level L = sb_layouts_expanded_level(level, g), g the layouts among the usable rounds.
 * -1 (out as sb_paired_estimate leaves it on failure) under 2 usable rounds or without memory. */
int sb_paired_estimate_layouts(const double *a, const double *b, const uint32_t *group, size_t n,
                               double level, unsigned resamples, uint64_t seed,
                               struct sb_paired *out);

/* sb_unpaired_estimate with each sample's layout (ga[i] of a[i], gb[i] of b[i]; NULL: one
 * layout): the same ratio, median(b) / median(a) over the usable values (finite and > 0), and
 * the same failures (-1, all NaN, under 2 usable values a side, or without memory). When
 * neither side has 2 layouts or more among its usable values, exactly sb_unpaired_estimate's
 * result. Otherwise each resample draws each side two-stage (its layouts with replacement,
 * then its values within each layout drawn; a side of one layout: its values, as the one-stage
 * bootstrap), the statistic median(b*) / median(a*), read as the functions above at the
 * expanded level L = sb_layouts_expanded_level(level, g), where g is the smaller of the two
 * sides' layout counts that is 2 or more: the expansion grows as g falls, so the side with the
 * fewest layouts (the interval's least known part) sets it, the conservative choice. */
int sb_unpaired_estimate_layouts(const double *a, const uint32_t *ga, size_t na, const double *b,
                                 const uint32_t *gb, size_t nb, double level, unsigned resamples,
                                 uint64_t seed, double *ratio, double *lo, double *hi);

/* sb_median_interval with the rounds' layouts (NaN skipped, as there; the layouts counted
 * among the rounds left). */
void sb_median_interval_layouts(const double *x, const uint32_t *group, size_t n, double level,
                                unsigned resamples, uint64_t seed, double *lo, double *hi);

/* sb_noise_bound with the rounds' layouts (the 95th percentile of |median d| over two-stage
 * resamples, widened as the upper end of a two-sided 90% interval: read at (1 + L) / 2,
 * L = sb_layouts_expanded_level(0.90, g), which is 0.95 for g < 2). */
double sb_noise_bound_layouts(const double *x1, const double *x2, const uint32_t *group,
                              size_t n, unsigned resamples, uint64_t seed);

/* The spread between layouts of a series y (logs, e.g. ln MB/s less the round's level): the
 * standard deviation between the layouts' means with the rounds' own noise removed (one-way
 * random effects, method of moments: max(0, var of layout means - mean of within variance /
 * rounds)), as sigma in log terms; NaN with fewer than 2 layouts of at least 2 finite values
 * each. *medians (optional, ngroups long, in order of first appearance) gets each layout's median
 * of y, NaN where it has none; *ngroups the number of layouts. Only finite y take part; the
 * layouts' means and variances use n - 1 denominators; group NULL is one layout (NaN). */
double sb_layouts_spread(const double *y, const uint32_t *group, size_t n, double *medians,
                         size_t max_medians, size_t *ngroups);

/* Student's t quantile: P(T <= t) = p for dof degrees of freedom (exact for 1 and 2; the
 * Cornish-Fisher expansion of Abramowitz and Stegun 26.7.5 beyond: at p = 0.975 within 1.2e-3
 * relative at dof 3, 1.1e-4 at 5, 4e-6 at 10; worse further out, 8e-3 at dof 3, p = 0.995).
 * p of 0 and 1 give -inf and inf; dof 0 or p outside [0, 1] NaN. */
double sb_t_quantile(double p, unsigned dof);

/* The two-sided level at which the percentiles of a bootstrap over g layouts are read so that
 * the interval has `level` (Hesterberg's expansion: z' = sqrt(g / (g - 1)) t_{g-1}(1 - a/2),
 * a' = 2 (1 - Phi(z'))); level itself for g < 2. */
double sb_layouts_expanded_level(double level, size_t g);

#endif
