/* SPDX-License-Identifier: BSD-3-Clause */
/* budget.h: the time a reproduction may take, shared among its experiments by the questions
 * each answers: repetitions = auto stops an experiment's rounds at its share, so the time goes
 * where there is something to resolve. */
#ifndef SB_REPRODUCE_BUDGET_H
#define SB_REPRODUCE_BUDGET_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "plan/plan.h"

/* What a reproduction may take when time_budget is not set: these, twice as much with
 * --twice. */
#define SB_REPRODUCE_FULL_BUDGET 600.0
#define SB_REPRODUCE_QUICK_BUDGET 60.0

/* The part of the budget the rounds are planned to: the rest is for what the estimate of the
 * time outside the rounds misses (the first experiment has none; pools differ in size). */
#define SB_REPRODUCE_BUDGET_PLANNED 0.9

/* The questions a plan's rounds answer, about as the analysis will ask them: per op, the
 * thread's fast against slow, again at this host's scale when it has scaled pools
 * (has_scaled), and a clock sweep's knee where the op has at least SB_KNEE_MIN_POINTS clock
 * runs. */
unsigned sb_reproduce_questions(const struct sb_plan *plan, const struct sb_thread *thread,
                                bool has_scaled);

/* The seconds an experiment's schedule may take: its share (questions of questions_left) of
 * what is left of budget (SB_REPRODUCE_BUDGET_PLANNED of it) after spent seconds, less what the
 * runs left will spend outside their rounds (building tables, validating, the cache model's
 * replays, the emulation) at outside_per_run each (twice as many with twice); with twice, half
 * of the share for each of the two schedules. With nothing left, the share of 1 s; with
 * questions_left 0 (nothing to answer), all of what is left. */
double sb_reproduce_budget_share(double budget, bool twice, double spent, unsigned questions,
                                 unsigned questions_left, size_t runs_left,
                                 double outside_per_run);

/* The seconds of a pass that took elapsed spent outside its rounds (its report's schedule
 * block): building tables, validating, the cache model's replays, the emulation, the verdict. */
double sb_reproduce_outside_rounds(const json_t *report, double elapsed);

#endif
