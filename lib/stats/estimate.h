/* SPDX-License-Identifier: BSD-3-Clause */
/* estimate.h: paired estimates of how two configurations differ, from rounds in which both were
 * timed (Kalibera and Jones, "Rigorous benchmarking in reasonable time", ISMM 2013; criterion.rs's
 * bootstrap with a noise threshold). Per round r, d_r = ln(a_r) - ln(b_r) for MB/s a and b; the
 * ratio a/b is exp(median d), and its confidence interval the percentile bootstrap over whole
 * rounds (rounds resampled with replacement, the median of each resample). A call is made only
 * when the whole interval lies beyond the threshold delta (faster or slower), or wholly inside
 * it (the same within delta); otherwise it is inconclusive. The noise floor comes from an A-A
 * pair: the same configuration timed twice in each round. Every function is deterministic: the
 * resamples are drawn from schedule.h's generator with the seed given. */
#ifndef SB_ESTIMATE_H
#define SB_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/wilcoxon.h"

#define SB_BOOTSTRAP_RESAMPLES 2000
#define SB_BOOTSTRAP_SEED 20070304u /* the thread's first post, 2007-03-04 */
#define SB_CONFIDENCE 0.95
/* The smallest threshold a difference must clear to be called (2%); the noise floor raises it. */
#define SB_DELTA_MIN 0.02
/* An A-A bound above this is flagged "too noisy" (a warning: the calls are still made against
 * the threshold delta = max(2%, floor), never withheld). */
#define SB_NOISE_FLOOR_MAX 0.05

struct sb_paired {
    size_t n;       /* rounds used: both figures finite and positive */
    double ratio;   /* exp(median d): a / b */
    double lo, hi;  /* the interval of the ratio at `level` */
    double level;   /* the confidence level of [lo, hi] */
    struct sb_wilcoxon wilcoxon; /* on the same d */
};

/* a[r] and b[r]: the MB/s of two configurations in round r (NaN or <= 0: missing; such rounds
 * are skipped). Returns 0, or -1 when fewer than 2 rounds have both (out is then zeroed with
 * ratio, lo and hi NaN). */
int sb_paired_estimate(const double *a, const double *b, size_t n, double level,
                       unsigned resamples, uint64_t seed, struct sb_paired *out);

/* The level of each of m comparisons so that all m hold together at `level` (Bonferroni):
 * 1 - (1 - level) / m; m of 0 or 1 gives level. */
double sb_bonferroni_level(double level, size_t m);

enum sb_call {
    SB_CALL_INCONCLUSIVE, /* the interval straddles a threshold: more rounds needed */
    SB_CALL_FASTER,       /* lo > 1 + delta: a is faster than b by more than delta */
    SB_CALL_SLOWER,       /* hi < 1 / (1 + delta) */
    SB_CALL_SAME          /* 1 / (1 + delta) <= lo and hi <= 1 + delta */
};
extern const char *const sb_call_names[]; /* "inconclusive", "faster", "slower", "same" */

enum sb_call sb_paired_call(const struct sb_paired *e, double delta);

/* The threshold of a report: max(SB_DELTA_MIN, noise floor); a NaN floor gives SB_DELTA_MIN. */
double sb_delta(double noise_floor);

/* The noise floor of an A-A pair (x1[r], x2[r]: the same configuration timed twice in round r):
 * how far apart the two came out, exp(|median d|) - 1. The comparisons' intervals carry their
 * own sampling noise; the floor raises the threshold by the difference this run showed between
 * identical configurations. NaN with fewer than 2 usable rounds. */
double sb_noise_floor(const double *x1, const double *x2, size_t n);

/* The A-A pair's bound: exp(q) - 1, q the 95th percentile of |median d| over `resamples`
 * bootstrap resamples of the rounds: how far apart identical configurations could plausibly
 * come out at this many rounds (above SB_NOISE_FLOOR_MAX: "too noisy", a warning). NaN with
 * fewer than 2 usable rounds. */
double sb_noise_bound(const double *x1, const double *x2, size_t n, unsigned resamples,
                      uint64_t seed);

/* Two samples with no pairing (runs of two reports: separate sessions share no rounds): the
 * ratio of their medians, median(b) / median(a), and its interval at `level` by resampling each
 * sample independently. Values that are not finite and positive are skipped; -1 (and NaN) with
 * fewer than 2 in either. */
int sb_unpaired_estimate(const double *a, size_t na, const double *b, size_t nb,
                         double level, unsigned resamples, uint64_t seed, double *ratio,
                         double *lo, double *hi);

/* The interval of the median of x[0 .. n-1] at `level` (percentile bootstrap); NaN values are
 * skipped; lo and hi are NaN with fewer than 2 values. */
void sb_median_interval(const double *x, size_t n, double level, unsigned resamples,
                        uint64_t seed, double *lo, double *hi);

/* The drift of a series: the least-squares slope of ln(y) against t (seconds), as a fraction
 * per minute (exp(slope * 60) - 1); NaN with fewer than 3 points or no spread in t. */
double sb_drift_per_minute(const double *t, const double *y, size_t n);

/* The smallest difference a run with this interval could have resolved: a true ratio 1 + D is
 * called (faster or slower) when an interval of the same log half-width h around it clears the
 * threshold, ln(1 + D) - h > ln(1 + delta): D = (1 + delta) exp(h) - 1. NaN for a NaN or
 * non-positive interval. */
double sb_resolvable(double lo, double hi, double delta);

/* Whether an interval is precise enough to stop adding rounds: its half-width in log terms,
 * (ln hi - ln lo) / 2, is at most ln(1 + precision). */
bool sb_interval_precise(double lo, double hi, double precision);

#endif
