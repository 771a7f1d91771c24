/* SPDX-License-Identifier: BSD-3-Clause */
/* estimate.c: the least time a plan's scans can take on any host (plan.h's
 * sb_plan_least_seconds), and the refusal of a plan beyond plan_limit. */
#include "config.h"
#include "plan/plan.h"

#include <math.h>
#include <stdio.h>

/* Faster than any scanner moves a table's bytes, from any level of any host: more than a core
 * loads from its L1 (Zen 5: two 64-byte loads a cycle at 5.7 GHz, 730 GB/s; Golden Cove with
 * AVX-512: 128 bytes a cycle at 6 GHz, 768 GB/s), let alone from its L2, L3 or memory (12
 * channels of DDR5-6000: 576 GB/s for a whole socket). A pass at this rate is a floor on any
 * host, not a guess: 100 GB/s, the figure before, is slower than an L2 or L3 streams on a 2024
 * core, and a table that fits there would pass faster. */
#define SB_PLAN_FASTEST_BYTES_PER_S 1e12

/* One pass over run's table, at the fastest rate: scanners with their own tables each pass over
 * one at once; on a shared table they divide its pages. */
static double least_pass(const struct sb_run_params *run)
{
    double bytes = (double)run->table_size;

    if (run->threads > 1 && run->shared_table)
        bytes /= run->threads;
    return bytes / SB_PLAN_FASTEST_BYTES_PER_S;
}

/* Whether the engine's warm-up scans size the timed scans' passes or slices (phases.c): then
 * warmup = 0 still makes one. */
static bool sizes_scans(const struct sb_run_params *run)
{
    return run->min_scan_seconds > 0 || (run->slice_seconds > 0 && !run->slice_off);
}

/* A timed scan of run, as the engine makes it from the last warm-up pass (phases.c,
 * sb_config_warm): whole passes, as many as last min_scan_seconds at that pass's speed (one at
 * least); where slice_ms allows, a slice of about slice_seconds, but only where that pass lasted
 * two slices or more, which a fast host's need not: the shorter of the two, then. */
static double least_timed_scan(const struct sb_run_params *run)
{
    double whole = fmax(run->min_scan_seconds, least_pass(run));

    if (run->slice_seconds > 0 && !run->slice_off)
        return fmin(run->slice_seconds, whole);
    return whole;
}

double sb_plan_least_seconds(const struct sb_plan *plan, uint32_t *rounds)
{
    const struct sb_schedule_params *s = &plan->schedule;
    double total = 0.0;

    /* repetitions auto: both schedules make SB_AUTO_ROUNDS_MIN rounds before the time budget
       or the precision may stop them (runner.c) */
    *rounds = s->rounds ? s->rounds : SB_AUTO_ROUNDS_MIN;
    for (size_t i = 0; i < plan->nruns; i++) {
        const struct sb_run_params *run = &plan->runs[i];
        uint32_t warm = run->warmup ? run->warmup : sizes_scans(run) ? 1 : 0;
        /* the interleaved schedule has a second instance of the first run, validated, warmed
           and timed once a round like every run (the A-A pair) */
        unsigned per_round = s->kind == SB_SCHEDULE_INTERLEAVED && i == 0 ? 2u : 1u;
        /* the validation pass and the warm-up, whole passes */
        total += per_round * (1.0 + warm) * least_pass(run);
        total += (double)*rounds * per_round * least_timed_scan(run);
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
