/* SPDX-License-Identifier: BSD-3-Clause */
/* prepare.c: every experiment of a reproduction read and planned before any runs (see
 * reproduce.h): the thread's pools scaled to this host added to its pool list, a --quick
 * sweep trimmed, the runs only the scaled column needs left uncounted with --quick, the
 * thread's placements checked, the budget set. */
#include "config.h"
#include "reproduce/reproduce.h"

#include <stdio.h>
#include <string.h>

#include "counters/counters.h"
#include "stats/stats.h"

/* --quick: the runs only the scaled column needs are timed without the cache model's replay
 * (counters = none): the replay of a scattered pool is most of their time outside the rounds,
 * and the scaled column shows MB/s only. */
static void uncount_scaled(struct sb_reproduction *r, int i)
{
    struct sb_plan *plan = &r->setups[i].plan;
    const struct sb_thread *th = &r->setups[i].exp.thread;

    for (size_t j = 0; j < plan->nruns; j++) {
        struct sb_run_params *run = &plan->runs[j];
        bool scaled = false;
        for (int k = 0; k < 2; k++) {
            struct sb_placement_name here = {.policy = sb_policy_find("clock"),
                                             .footprint = r->scaled[i][k].bytes};
            scaled |= sb_reproduce_has_placement(run, &here);
        }
        if (scaled && !sb_reproduce_has_placement(run, &th->slow) &&
            !sb_reproduce_has_placement(run, &th->fast))
            run->counters = sb_counter_backend_find("none");
    }
}

/* bytes (whole KB) as a size the keys read back exactly: 1G, 16M or 680K. */
static const char *size_word(uint64_t bytes, char *buf, size_t len)
{
    if (bytes % (1ull << 30) == 0)
        snprintf(buf, len, "%lluG", (unsigned long long)(bytes >> 30));
    else if (bytes % (1ull << 20) == 0)
        snprintf(buf, len, "%lluM", (unsigned long long)(bytes >> 20));
    else
        snprintf(buf, len, "%lluK", (unsigned long long)(bytes >> 10));
    return buf;
}

/* Experiment i planned again with the pool list set (a `pool_size=...` line). */
static int replan_pools(struct sb_reproduction *r, int i, const char *set,
                        const struct sb_mem_limit *limit, struct sb_error *err)
{
    struct sb_setup *s = &r->setups[i];
    int status;

    sb_plan_free(&s->plan);
    memset(&s->plan, 0, sizeof s->plan);
    status = sb_experiment_set(&s->exp, set, err);
    return status == SB_OK ? sb_setup_plan(s, limit, err) : status;
}

/* Experiment i's pool list with its scaled pools added (those not already in it), planned
 * again: the scaled runs are timed in the same rounds as the thread's sizes. */
static int add_scaled_runs(struct sb_reproduction *r, int i, const struct sb_mem_limit *limit,
                           struct sb_error *err)
{
    struct sb_setup *s = &r->setups[i];
    const struct sb_setting *pool = &s->exp.settings[SB_K_POOL_SIZE];
    char set[2048] = "pool_size=", word[32];
    size_t used = strlen(set);
    bool added = false;

    r->has_scaled[i] = sb_reproduce_scale_pools(&s->exp.thread, &s->topo, limit, r->scaled[i],
                                                r->scaled_why[i], sizeof r->scaled_why[0]);
    if (!r->has_scaled[i])
        return SB_OK;
    for (int v = 0; v < pool->nvalues; v++)
        used += (size_t)snprintf(set + used, sizeof set - used, "%s%s", v ? "," : "",
                                 pool->values[v]);
    for (int k = 0; k < 2; k++) {
        bool known = false;
        for (int v = 0; v < pool->nvalues; v++)
            known |= pool->numbers[v] == r->scaled[i][k].bytes;
        if (k == 1 && r->scaled[i][1].bytes == r->scaled[i][0].bytes)
            known = true;
        if (!known && used < sizeof set)
            used += (size_t)snprintf(set + used, sizeof set - used, ",%s",
                                     size_word(r->scaled[i][k].bytes, word, sizeof word));
        added |= !known;
    }
    if (!added)
        return SB_OK;
    if (used >= sizeof set) {
        sb_plan_free(&s->plan);
        memset(&s->plan, 0, sizeof s->plan);
        return sb_fail(err, SB_ERR_INPUT, "%s: too many pool sizes to add the scaled ones",
                       r->names[i]);
    }
    int status = replan_pools(r, i, set, limit, err);
    if (status == SB_OK && r->quick)
        uncount_scaled(r, i);
    return status;
}

/* --quick: a sweep's pools above QUICK_POOL_CAP_TABLES tables and twice the last-level cache
 * are left out (not the thread's placements): over a 64MB table, a 256MB pool already finds no
 * page in any cache, and the larger ones only cost the time to fault in and replay their
 * gigabytes. Says on stderr which it left out. */
#define QUICK_POOL_CAP_TABLES 4
static int quick_trim_sweep(struct sb_reproduction *r, int i, const struct sb_mem_limit *limit,
                            struct sb_error *err)
{
    struct sb_setup *s = &r->setups[i];
    const struct sb_setting *pool = &s->exp.settings[SB_K_POOL_SIZE];
    const struct sb_setting *table = &s->exp.settings[SB_K_TABLE_SIZE];
    const struct sb_topology *topo = &s->topo;
    uint64_t llc = topo->cache[SB_L3].size.value ? topo->cache[SB_L3].size.value
                                                 : topo->cache[SB_L2].size.value;
    uint64_t biggest = 0, cap, keep[2] = {0, 0};
    char set[2048] = "pool_size=", dropped[512] = "", word[32];
    size_t used = strlen(set), dused = 0;
    int kept = 0;

    if (pool->nvalues < SB_KNEE_MIN_POINTS)
        return SB_OK;
    for (int v = 0; v < table->nvalues; v++)
        biggest = table->numbers[v] > biggest ? table->numbers[v] : biggest;
    cap = QUICK_POOL_CAP_TABLES * biggest > 2 * llc ? QUICK_POOL_CAP_TABLES * biggest : 2 * llc;
    sb_reproduce_placement_pool(&s->exp.thread.slow, &keep[0]);
    sb_reproduce_placement_pool(&s->exp.thread.fast, &keep[1]);
    for (int v = 0; v < pool->nvalues && used < sizeof set && dused < sizeof dropped; v++) {
        uint64_t b = pool->numbers[v];
        if (b <= cap || b == keep[0] || b == keep[1])
            used += (size_t)snprintf(set + used, sizeof set - used, "%s%s", kept++ ? "," : "",
                                     pool->values[v]);
        else
            dused += (size_t)snprintf(dropped + dused, sizeof dropped - dused, "%s%s",
                                      dused ? ", " : "", pool->values[v]);
    }
    if (!dused || kept < SB_KNEE_MIN_POINTS || used >= sizeof set || dused >= sizeof dropped)
        return SB_OK;
    fprintf(stderr, "scanbench: --quick: %s: pools above %s (%d tables, and twice the last "
            "level) left out: %s\n", r->names[i], size_word(cap, word, sizeof word),
            QUICK_POOL_CAP_TABLES, dropped);
    return replan_pools(r, i, set, limit, err);
}

int sb_reproduce_prepare(struct sb_reproduction *r, const char *const *sets, int nsets,
                         struct sb_error *err)
{
    /* --quick: 64MB tables, no warm-up, timed scans of 15 ms: the 88 runs' 10 rounds take about
     * 15 s of timed scans, and the whole reproduction (tables, validation, the cache model's
     * replays) fits its 60 s */
    static const char *const quick_sets[] = {"table_size=64M", "warmup=0", "min_scan_ms=15"};
    const char **all_sets = r->sets;
    int nall = 0, status = SB_OK;
    struct sb_mem_limit limit;

    if (nsets > SB_REPRODUCE_MAX_SETS - 5)
        return sb_fail(err, SB_ERR_INPUT, "--set given %d times: at most %d", nsets,
                       SB_REPRODUCE_MAX_SETS - 5);
    all_sets[nall++] = "repetitions=auto";
    for (size_t q = 0; r->quick && q < sizeof quick_sets / sizeof *quick_sets; q++)
        all_sets[nall++] = quick_sets[q];
    if (sb_counter_backend_find("sim"))
        all_sets[nall++] = "counters=sim";
    for (int s = 0; s < nsets; s++)
        all_sets[nall++] = sets[s];
    r->nsets = nall;
    sb_mem_limit_read(&limit, "", "");
    for (int i = 0; i < r->n && status == SB_OK; i++) {
        char *path = r->paths[i];
        status = sb_configs_find("experiments", r->names[i], path, sizeof r->paths[0], err);
        if (status == SB_OK)
            status = sb_setup_read(&r->setups[i], path, all_sets, nall, err);
        if (status == SB_OK)
            status = sb_experiment_check_no_server_keys(&r->setups[i].exp,
                                                        "scanbench reproduce", err);
        if (status == SB_OK)
            status = sb_setup_plan(&r->setups[i], &limit, err);
        if (status == SB_OK && r->quick)
            status = quick_trim_sweep(r, i, &limit, err);
        if (status == SB_OK)
            status = add_scaled_runs(r, i, &limit, err);
        if (status == SB_OK)
            status = sb_reproduce_check_placements(&r->setups[i].plan,
                                                   &r->setups[i].exp.thread,
                                                   r->setups[i].exp.source, err);
    }
    r->budget = (r->quick ? SB_REPRODUCE_QUICK_BUDGET : SB_REPRODUCE_FULL_BUDGET) *
                (r->twice ? 2.0 : 1.0);
    if (status == SB_OK && r->n > 0 &&
        strncmp(r->setups[0].exp.settings[SB_K_TIME_BUDGET].origin, "--set", 5) == 0)
        r->budget = r->setups[0].plan.schedule.time_budget;
    return status;
}
