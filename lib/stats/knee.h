/* SPDX-License-Identifier: BSD-3-Clause */
/* knee.h: where MB/s falls as the pool grows, with its uncertainty (kneedle's "no knee" answer,
 * made statistical). Input: a sweep of npoints pool sizes x[0] < x[1] < ... timed in nrounds
 * rounds, mbps[r * npoints + i] (NaN: missing). Each round is centred (its mean of ln MB/s over
 * the points it has is subtracted), and the curve is each point's median over the rounds.
 *
 * - fall: exp(high - low) - 1, high the mean of the curve's first two points, low of its last
 *   two, with its percentile bootstrap interval over whole rounds at `level`. An interval wholly
 *   below SB_KNEE_MIN_FALL answers SB_KNEE_NO_DROP; one that reaches across it answers
 *   SB_KNEE_FALL_UNSURE (more rounds could tell); only a fall whose interval lies wholly at or
 *   above it has a knee.
 * - x50: where the curve first crosses (high + low) / 2 going from x[0] up, interpolated
 *   linearly in log2(x) between the two points around the crossing; its interval the
 *   percentile bootstrap over whole rounds at `level` (a resample whose curve has no crossing
 *   is counted at the nearer end; the share of such resamples is reported).
 * - the steepest step: i with the largest curve[i] - curve[i + 1]. Its bootstrap distribution
 *   over whole rounds decides: SB_KNEE_CLEAR when one step takes at least SB_KNEE_STEP_PROB of
 *   the resamples (step_width 1), or two neighbouring steps together do (step_width 2: the knee
 *   lies between x[step] and x[step + 2]); else SB_KNEE_UNCLEAR with the three most likely
 *   steps and their shares. */
#ifndef SB_KNEE_H
#define SB_KNEE_H

#include <stddef.h>
#include <stdint.h>

#define SB_KNEE_MIN_POINTS 4
#define SB_KNEE_MIN_FALL 0.10
#define SB_KNEE_STEP_PROB 0.80
#define SB_KNEE_LEVEL 0.90

enum sb_knee_kind {
    SB_KNEE_TOO_FEW, /* fewer than SB_KNEE_MIN_POINTS points, or fewer than 2 rounds */
    SB_KNEE_NO_DROP, /* the curve falls less than SB_KNEE_MIN_FALL */
    SB_KNEE_CLEAR,   /* the steepest step is where at least SB_KNEE_STEP_PROB of resamples put it */
    SB_KNEE_UNCLEAR, /* "no clear knee": the bootstrap spreads the steepest step */
    SB_KNEE_FALL_UNSURE /* the fall's interval reaches across SB_KNEE_MIN_FALL */
};
/* "too few points", "no drop", "clear", "no clear knee", "fall undecided" */
extern const char *const sb_knee_kind_names[];

struct sb_knee {
    enum sb_knee_kind kind;
    size_t npoints, nrounds;
    double fall;                 /* NaN when TOO_FEW */
    double fall_lo, fall_hi;     /* its interval at the level of x50's; NaN when TOO_FEW */
    double x50, x50_lo, x50_hi;  /* bytes; NaN unless the curve falls (CLEAR or UNCLEAR) */
    double x50_level;            /* the level of [x50_lo, x50_hi] */
    double x50_uncrossed;        /* share of resamples whose curve did not cross */
    size_t step, step_width;     /* CLEAR: between x[step] and x[step + step_width] */
    double step_prob;            /* CLEAR: the share of resamples behind it */
    size_t ntop;                 /* UNCLEAR (and CLEAR, for the record): up to 3 steps */
    size_t top[3];               /* step i: from x[i] to x[i + 1], most likely first */
    double top_prob[3];
};

/* curve (npoints values, may be NULL): the centred median curve. Returns 0, or -1 when out of
 * memory. */
int sb_knee_estimate(const double *x, size_t npoints, const double *mbps, size_t nrounds,
                     double level, unsigned resamples, uint64_t seed, struct sb_knee *out,
                     double *curve);

#endif
