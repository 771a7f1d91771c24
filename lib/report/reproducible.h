/* SPDX-License-Identifier: BSD-3-Clause */
/* reproducible.h: whether two analyses of the same experiment (its whole schedule run twice,
 * with different seeds: `--twice`) agree. They do when no comparison got contradicting calls
 * (faster and slower; or the same within one pass's threshold and, in the other, an interval
 * wholly beyond it; an inconclusive or withheld call agrees with anything; calls by the host's
 * level compare quiet with quiet and busy with busy, and a single call contradicts them only
 * where it contradicts both), and every knee
 * agrees: both without a clear knee (no drop, or no clear knee),
 * or their intervals overlap (the steps of two clear knees; the x50 intervals otherwise), and
 * their two x50 lie at most one step of the sweep apart. Where calls contradict, why also gives
 * each schedule's host level (the median MB/s of its A-A run). */
#ifndef SB_REPRODUCIBLE_H
#define SB_REPRODUCIBLE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* true when they agree; else false, and why names what disagreed (several, separated by
 * "; "). */
bool sb_reproducible(const json_t *first, const json_t *second, char *why, size_t len);

/* What an analysis decided: its decided calls (faster, slower, the same; or one per third where
 * called by the host's level) and its knees that
 * say something (clear, or no drop). Two analyses that decided nothing agree vacuously. */
size_t sb_analysis_decided(const json_t *analysis);

/* --twice: second (the whole schedule again, after first) judged against first, the one rule
 * `scanbench run --twice` and `reproduce --twice` share: second's `reproducibility` block set
 * to {reproducible, vacuous (they agree and neither decided anything), first_seed (first's
 * schedule.seed), why ("" when they agree)}, and returned (second's). */
const json_t *sb_reproducibility_judge(const json_t *first, json_t *second);

#endif
