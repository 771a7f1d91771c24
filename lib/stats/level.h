/* SPDX-License-Identifier: BSD-3-Clause */
/* level.h: the host's level in each round, and whether a paired comparison's per-round ratio
 * depends on it. On a shared host (a cloud VM) neighbours take the L3 and the memory bandwidth,
 * so in a busy round every run scans slower, but not every run alike: a 256KB ring that stays
 * in L2 loses less than a 16MB pool in L3, and the ratio of the two grows with the load.
 *
 * A round's level is the mean, over the runs timed in it, of each run's ln MB/s less that run's
 * mean ln MB/s over its rounds (centred per run, so that runs of different speeds and missing
 * scans do not bias it): near 0 in an ordinary round, below 0 in a busy one. A comparison's own
 * two runs can be left out of it, so that their noise does not correlate with their ratio.
 *
 * A comparison depends on the level when Spearman's rho of its per-round d = ln(a / b) with the
 * level has a percentile bootstrap interval (whole rounds resampled) that excludes 0. The ratio
 * is then worth giving apart in the quietest third of the rounds (the highest levels) and the
 * busiest third (the lowest), each as exp(median d) with its bootstrap interval (estimate.h's
 * semantics). Deterministic: the resamples come from schedule.h's generator with the seed
 * given. */
#ifndef SB_LEVEL_H
#define SB_LEVEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The fewest rounds (d and level both known) a dependence is looked for in: 3 per third. */
#define SB_LEVEL_MIN_ROUNDS 9

/* level[r] for each round r < nrounds, from x[j * nrounds + r], the MB/s of run j < nruns in
 * round r (NaN, infinite or <= 0: none). The runs leave[0 .. nleave) are left out of every
 * round in which another run has a value; a round in which only they have one takes them all
 * (counted in *fell_back, which may be NULL). NaN where no run has a value. Returns 0, or -1 out
 * of memory (every level NaN). */
int sb_round_levels(const double *x, size_t nruns, size_t nrounds, const size_t *leave,
                    size_t nleave, double *level, size_t *fell_back);

struct sb_level_third {
    size_t rounds;        /* rounds in the third */
    double ratio, lo, hi; /* exp(median d) over them, and its bootstrap interval at `conf` */
};

struct sb_level_dependence {
    bool available;     /* at least SB_LEVEL_MIN_ROUNDS usable rounds, and d and level vary */
    const char *why;    /* why not, when not available (a constant string); NULL otherwise */
    size_t n;           /* usable rounds: d and level both finite */
    double conf;        /* the confidence level of every interval */
    double rho, lo, hi; /* Spearman's rho of d with the level, and its bootstrap interval */
    bool depends;       /* [lo, hi] excludes 0 */
    struct sb_level_third quiet, busy; /* the n / 3 rounds of the highest, the lowest levels */
};

/* The dependence of d[r] (ln a - ln b in round r; NaN: missing) on level[r] over n rounds, with
 * intervals at conf from `resamples` bootstrap resamples (0: SB_BOOTSTRAP_RESAMPLES). Rounds
 * of equal level are ordered by round. Returns 0, or -1 when not available (out->why says why;
 * the figures are then NaN and the thirds empty). */
int sb_level_dependence(const double *d, const double *level, size_t n, double conf,
                        unsigned resamples, uint64_t seed, struct sb_level_dependence *out);

#endif
