/* SPDX-License-Identifier: BSD-3-Clause */
/* budget.c: the reproduction's budget shared by the questions (see budget.h). */
#include "config.h"
#include "reproduce/budget.h"

#include <string.h>

#include "report/report.h"
#include "reproduce/placements.h"
#include "stats/stats.h"
#include "vocab/vocab.h"

unsigned sb_reproduce_questions(const struct sb_plan *plan, const struct sb_thread *th,
                                bool has_scaled)
{
    unsigned n = 0;

    for (const struct sb_op *o = sb_ops; o->name; o++) {
        bool slow = false, fast = false;
        size_t clock = 0;
        for (size_t j = 0; j < plan->nruns; j++) {
            const struct sb_run_params *run = &plan->runs[j];
            if (strcmp(run->op->name, o->name) != 0)
                continue;
            slow |= th->slow.policy && sb_reproduce_has_placement(run, &th->slow);
            fast |= th->fast.policy && sb_reproduce_has_placement(run, &th->fast);
            clock += strcmp(run->policy->name, "clock") == 0;
        }
        n += (unsigned)(slow && fast) * (has_scaled ? 2u : 1u);
        n += clock >= SB_KNEE_MIN_POINTS;
    }
    return n;
}

double sb_reproduce_budget_share(double budget, bool twice, double spent, unsigned questions,
                                 unsigned questions_left, size_t runs_left,
                                 double outside_per_run)
{
    double left = budget * SB_REPRODUCE_BUDGET_PLANNED - spent -
                  outside_per_run * (double)runs_left * (twice ? 2.0 : 1.0);
    double share = questions_left ? (double)questions / (double)questions_left : 1.0;

    return (left > 0 ? left : 1.0) * share / (twice ? 2.0 : 1.0);
}

double sb_reproduce_outside_rounds(const json_t *report, double elapsed)
{
    const json_t *s = sb_field(report, "schedule.seconds");
    double rounds = json_number_value(json_object_get(s, "rounds"));

    return elapsed > rounds ? elapsed - rounds : 0.0;
}
