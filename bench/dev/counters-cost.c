/* SPDX-License-Identifier: BSD-3-Clause */
/* counters-cost.c: what reading counters costs a timed scan: the papi backend's start() +
 * stop() (PAPI_start, then PAPI_stop, which reads), timed over 1000 cycles, with (1) this
 * host's events map, whatever it can count, and (2) a map of one software event
 * (perf::TASK-CLOCK), which every Linux host counts through PAPI's perf_event component: a
 * real perf_event start/read/stop cycle even on a host without a PMU. Each is also given as a
 * share of one timed scan of the default 512MB table at 0.05s.
 *     counters-cost [CYCLES]    (default 1000; the median of 11 rounds) */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/timer.h"
#include "counters/counters.h"
#include "plan/experiment.h"
#include "plan/plan.h"
#include "stats/stats.h"

#define ROUNDS 11
#define SCAN_SECONDS 0.05 /* one timed scan of the default 512MB table on this VM */

static int plan_with(const char *events, const char *map_path, struct sb_experiment *exp,
                     struct sb_plan *plan, struct sb_error *err)
{
    char set[1200];
    struct sb_mem_limit limit = {.bytes = 1ull << 40, .source = "none"};
    int status = sb_experiment_init(exp, err);

    if (status == SB_OK)
        status = sb_experiment_set(exp, "counters=papi", err);
    if (status == SB_OK)
        status = sb_experiment_set(exp, "table_size=1M", err);
    if (status == SB_OK && (events || map_path)) {
        snprintf(set, sizeof set, "events=%s", events ? events : map_path);
        status = sb_experiment_set(exp, set, err);
    }
    if (status == SB_OK)
        status = sb_plan_build(exp, &limit, plan, err);
    return status;
}

/* Median seconds of one start+stop cycle over ROUNDS rounds of cycles each. */
static int measure(const char *label, const char *map_path, unsigned cycles)
{
    struct sb_experiment exp;
    struct sb_plan plan = {0};
    struct sb_counters c;
    struct sb_counting counting;
    struct sb_error err = {0};
    double per_cycle[ROUNDS], median;
    int status = plan_with(NULL, map_path, &exp, &plan, &err);

    if (status == SB_OK) {
        sb_run_counting(&plan.runs[0], &counting);
        status = sb_counters_open(&c, plan.runs[0].counters, &counting, cycles, &err);
    }
    if (status != SB_OK) {
        fprintf(stderr, "counters-cost: %s\n", err.msg);
        goto out;
    }
    for (int round = 0; round < ROUNDS; round++) {
        double t0 = sb_timer_now();
        for (unsigned rep = 0; rep < cycles; rep++) {
            c.backend->start(&c, rep);
            c.backend->stop(&c, rep);
        }
        per_cycle[round] = (sb_timer_now() - t0) / cycles;
    }
    median = sb_median(per_cycle, ROUNDS);
    printf("%-44s status %-11s %9.0f ns per start+stop  = %.5f%% of a %.2fs scan\n", label,
           c.status, median * 1e9, 100 * median / SCAN_SECONDS, SCAN_SECONDS);
    if (c.reason[0])
        printf("%-44s (%s)\n", "", c.reason);
    sb_counters_close(&c);
out:
    sb_plan_free(&plan);
    sb_experiment_free(&exp);
    return status;
}

int main(int argc, char **argv)
{
    unsigned cycles = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 1000;
    char path[] = "/tmp/counters-cost-XXXXXX";
    FILE *f;
    int fd, status;

    if (cycles == 0 || cycles > SB_COUNTERS_MAX_REPS)
        cycles = 1000;
    printf("papi backend start()+stop(), median of %d rounds of %u cycles\n", ROUNDS, cycles);
    status = measure("this host's events map (auto)", NULL, cycles);
    fd = mkstemp(path);
    f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f)
        return 1;
    fputs("[map]\ndescription = one software event\npmus = perf\n"
          "[cycles]\nevents = perf::TASK-CLOCK\ncounts = task clock (ns)\n", f);
    fclose(f);
    status |= measure("one software event (perf::TASK-CLOCK)", path, cycles);
    remove(path);
    return status ? 1 : 0;
}
