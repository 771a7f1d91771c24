/* SPDX-License-Identifier: BSD-3-Clause */
/* estimate.c: the least time a plan's scans can take on any host (plan.h's
 * sb_plan_least_seconds), and the refusal of a plan beyond plan_limit. */
#include "config.h"
#include "plan/plan.h"

#include <math.h>
#include <stdio.h>

/* Faster than any one core copies and scans pages (a 2026 server core's memcpy runs at 10 to
 * 30 GB/s from cache; DRAM streams slower): a pass at this rate is a floor, not a guess. */
#define SB_PLAN_FASTEST_BYTES_PER_S 100e9

/* A timed scan of run: a slice of slice_seconds, else whole passes of at least
 * min_scan_seconds, each pass at least its bytes at the fastest rate. */
static double least_timed_scan(const struct sb_run_params *run)
{
    double pass = (double)run->table_size / SB_PLAN_FASTEST_BYTES_PER_S;

    if (run->slice_seconds > 0 && !run->slice_off)
        return run->slice_seconds;
    return fmax(run->min_scan_seconds, pass);
}

double sb_plan_least_seconds(const struct sb_plan *plan, uint32_t *rounds)
{
    const struct sb_schedule_params *s = &plan->schedule;
    double total = 0.0;

    *rounds = s->rounds ? s->rounds : SB_AUTO_ROUNDS_MIN;
    for (size_t i = 0; i < plan->nruns; i++) {
        const struct sb_run_params *run = &plan->runs[i];
        double scan = least_timed_scan(run);
        /* the interleaved schedule has a second instance of the first run, validated, warmed
           and timed once a round like every run (the A-A pair) */
        unsigned per_round = s->kind == SB_SCHEDULE_INTERLEAVED && i == 0 ? 2u : 1u;
        /* the validation pass and the warm-up, whole passes */
        total += per_round * (1.0 + run->warmup) * (double)run->table_size /
                 SB_PLAN_FASTEST_BYTES_PER_S;
        total += (double)*rounds * per_round * scan;
    }
    return total;
}

/* "1.5 h", "25 min", "40 s", "0.3 s". */
static const char *duration(double seconds, char *buf, size_t len)
{
    if (seconds >= 5400)
        snprintf(buf, len, "%.1f h", seconds / 3600);
    else if (seconds >= 120)
        snprintf(buf, len, "%.0f min", seconds / 60);
    else
        snprintf(buf, len, seconds < 10 ? "%.1f s" : "%.0f s", seconds);
    return buf;
}

void sb_plan_estimate_text(const struct sb_plan *plan, char *buf, size_t len)
{
    uint32_t rounds;
    double least = sb_plan_least_seconds(plan, &rounds);
    char a[32], b[32];

    const char *runs = plan->nruns == 1 ? "run" : "runs";

    if (plan->schedule.rounds)
        snprintf(buf, len, "%zu %s, %u round%s: the scans take at least %s on any host",
                 plan->nruns, runs, rounds, rounds == 1 ? "" : "s",
                 duration(least, a, sizeof a));
    else
        snprintf(buf, len, "%zu %s, repetitions auto: the scans take at least %s on any host "
                 "(%u rounds), and up to the time budget of %s", plan->nruns, runs,
                 duration(least, a, sizeof a), rounds,
                 duration(fmax(least, plan->schedule.time_budget), b, sizeof b));
}

int sb_plan_check_limit(const struct sb_plan *plan, double limit, const char *origin,
                        struct sb_error *err)
{
    uint32_t rounds;
    double least = sb_plan_least_seconds(plan, &rounds);
    double most = plan->schedule.rounds ? least : fmax(least, plan->schedule.time_budget);
    char a[32], b[32];

    if (limit <= 0 || most <= limit)
        return SB_OK;
    if (plan->schedule.rounds || least > limit)
        return sb_fail(err, SB_ERR_INPUT, "%s: %zu runs of %u rounds take at least %s on any host, "
                       "past plan_limit (%s): fewer runs or rounds, or --set plan_limit=SECONDS "
                       "(0: none)", origin, plan->nruns, rounds, duration(least, a, sizeof a),
                       duration(limit, b, sizeof b));
    return sb_fail(err, SB_ERR_INPUT, "%s: %zu runs, repetitions auto: a time budget of %s, past "
                   "plan_limit (%s): --set time_budget=SECONDS, fewer runs, or --set "
                   "plan_limit=SECONDS (0: none)", origin, plan->nruns,
                   duration(most, a, sizeof a), duration(limit, b, sizeof b));
}
