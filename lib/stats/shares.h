/* SPDX-License-Identifier: BSD-3-Clause */
/* shares.h: where a figure's variance between observations (a live scan's seconds, round by
 * round) comes from. For parts that add up to it (the backend's time on a CPU, waiting for
 * one, and off a CPU, which sum to the scan's seconds) the share of each is cov(part, y) /
 * var(y): the shares sum to 1, a part can take more than all (another less than none) when
 * parts move against each other. For a covariate (a number measured beside each observation)
 * or a factor (a label: the server instance, the run timed just before) the share is the
 * adjusted R^2 of y on it (a straight line; the factor's group means), which is about 0, not
 * (k - 1) / (n - 1), when it explains nothing; a covariate's and a factor's shares overlap and
 * do not add up. Each comes with a percentile bootstrap interval over the observations, moved
 * by the resamples' bias. */
#ifndef SB_SHARES_H
#define SB_SHARES_H

#include <stddef.h>
#include <stdint.h>

/* A share and its interval; NAN where it cannot be computed (fewer than 3 observations, no
 * variance, out of memory). */
struct sb_share {
    double share, lo, hi;
};

/* How the intervals are drawn. */
struct sb_share_bootstrap {
    double level;       /* e.g. 0.95 */
    uint32_t resamples; /* e.g. 1000 */
    uint64_t seed;
};

/* cov(parts[k], y) / var(y) for each of nparts parts, into out[k]. */
void sb_shares_additive(const double *y, const double *const *parts, size_t nparts, size_t n,
                        const struct sb_share_bootstrap *b, struct sb_share *out);

/* Adjusted R^2 of y on a straight line in x (NAN when x is the same throughout). */
void sb_share_covariate(const double *y, const double *x, size_t n,
                        const struct sb_share_bootstrap *b, struct sb_share *out);

/* Adjusted R^2 of y on the means of its groups (labels, any values). */
void sb_share_factor(const double *y, const uint32_t *groups, size_t n,
                     const struct sb_share_bootstrap *b, struct sb_share *out);

/* The statistics themselves, on one sample (NAN when they cannot be computed). */
double sb_share_cov_ratio(const double *y, const double *x, size_t n);
double sb_share_r2_line(const double *y, const double *x, size_t n);
double sb_share_r2_groups(const double *y, const uint32_t *groups, size_t n);

#endif
