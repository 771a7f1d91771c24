/* SPDX-License-Identifier: BSD-3-Clause */
/* prepare.c: every experiment of a reproduction read and planned before any runs (see
 * reproduce.h): the thread's pools scaled to this host added to its pool list, a --quick
 * sweep trimmed, the runs only the scaled column needs left uncounted with --quick, the
 * thread's placements checked, the budget set, and what each experiment asks of the host
 * (estimate.h). Each plan is built once and edited as a value (sb_plan_set_pools). */
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

/* The pool list of experiment i (n sizes, room for SB_REPRODUCE_MAX_POOLS) with its scaled
 * pools appended (those not already in it), into pools; whether any was. *too_many: one had no
 * room. */
static bool add_scaled(struct sb_reproduction *r, int i, uint64_t *pools, int *n,
                       bool *too_many)
{
    struct sb_setup *s = &r->setups[i];
    bool added = false;

    *too_many = false;
    r->has_scaled[i] = sb_reproduce_scale_pools(&s->exp.thread, &s->topo, &r->limit,
                                                r->scaled[i], r->scaled_why[i],
                                                sizeof r->scaled_why[0]);
    for (int k = 0; r->has_scaled[i] && k < 2; k++) {
        bool known = false;
        for (int v = 0; v < *n; v++)
            known |= pools[v] == r->scaled[i][k].bytes;
        if (!known && *n == SB_REPRODUCE_MAX_POOLS)
            *too_many = true;
        else if (!known)
            pools[(*n)++] = r->scaled[i][k].bytes;
        added |= !known;
    }
    return added;
}

/* --quick: a sweep's pools above QUICK_POOL_CAP_TABLES tables and twice the last-level cache
 * are left out of pools (n of them; not the thread's placements): over a 64MB table, a 256MB
 * pool already finds no page in any cache, and the larger ones only cost the time to fault in
 * and replay their gigabytes. Says on stderr which it left out; whether it left any. */
#define QUICK_POOL_CAP_TABLES 4
static bool quick_trim_sweep(struct sb_reproduction *r, int i, uint64_t *pools, int *n)
{
    struct sb_setup *s = &r->setups[i];
    const struct sb_setting *pool = &s->exp.settings[SB_K_POOL_SIZE];
    const struct sb_setting *table = &s->exp.settings[SB_K_TABLE_SIZE];
    const struct sb_topology *topo = &s->topo;
    uint64_t llc = topo->cache[SB_L3].size.value ? topo->cache[SB_L3].size.value
                                                 : topo->cache[SB_L2].size.value;
    uint64_t biggest = 0, cap, keep[2] = {0, 0}, kept[SB_MAX_LIST];
    char dropped[512] = "", word[32];
    size_t dused = 0;
    int nkept = 0, ndropped = 0;

    if (pool->nvalues < SB_KNEE_MIN_POINTS)
        return false;
    for (int v = 0; v < table->nvalues; v++)
        biggest = table->numbers[v] > biggest ? table->numbers[v] : biggest;
    cap = QUICK_POOL_CAP_TABLES * biggest > 2 * llc ? QUICK_POOL_CAP_TABLES * biggest : 2 * llc;
    sb_reproduce_placement_pool(&s->exp.thread.slow, &keep[0]);
    sb_reproduce_placement_pool(&s->exp.thread.fast, &keep[1]);
    for (int v = 0; v < pool->nvalues; v++) {
        uint64_t b = pool->numbers[v];
        if (b <= cap || b == keep[0] || b == keep[1])
            kept[nkept++] = b;
        else if (ndropped++, dused < sizeof dropped) /* the rest cut from the words */
            dused += (size_t)snprintf(dropped + dused, sizeof dropped - dused, "%s%s",
                                      dused ? ", " : "", pool->values[v]);
    }
    if (!ndropped || nkept < SB_KNEE_MIN_POINTS)
        return false;
    fprintf(stderr, "scanbench: --quick: %s: pools above %s (%d tables, and twice the last "
            "level) left out: %s\n", r->names[i], sb_format_size_word(cap, word, sizeof word),
            QUICK_POOL_CAP_TABLES, dropped);
    memcpy(pools, kept, (size_t)nkept * sizeof *kept);
    *n = nkept;
    return true;
}

/* Experiment i's plan (built) edited as a value: with --quick its sweep trimmed, then its
 * scaled pools added to its pool list, and its runs made again once when either changed it
 * (sb_plan_set_pools: no file read again); with --quick the runs only the scaled column needs
 * left uncounted. */
static int edit_pools(struct sb_reproduction *r, int i, struct sb_error *err)
{
    struct sb_setup *s = &r->setups[i];
    const struct sb_setting *pool = &s->exp.settings[SB_K_POOL_SIZE];
    uint64_t pools[SB_REPRODUCE_MAX_POOLS];
    int n = pool->nvalues, status;
    bool trimmed, added, too_many;

    memcpy(pools, pool->numbers, (size_t)n * sizeof *pools);
    trimmed = r->quick && quick_trim_sweep(r, i, pools, &n);
    added = add_scaled(r, i, pools, &n, &too_many);
    if (too_many) {
        sb_plan_free(&s->plan);
        return sb_fail(err, SB_ERR_INPUT, "%s: too many pool sizes to add the scaled ones (at "
                       "most %d in all)", r->names[i], SB_REPRODUCE_MAX_POOLS);
    }
    if (!trimmed && !added)
        return SB_OK;
    status = sb_plan_set_pools(&s->plan, &s->exp, pools, n,
                               added ? "scanbench reproduce: pool_size with the thread's pools "
                                       "scaled to this host" : NULL, &r->limit, err);
    if (status == SB_OK && added && r->quick)
        uncount_scaled(r, i);
    return status;
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
    sb_mem_limit_read(&r->limit, "", "");
    for (int i = 0; i < r->n && status == SB_OK; i++) {
        char *path = r->paths[i];
        status = sb_configs_find("experiments", r->names[i], path, sizeof r->paths[0], err);
        if (status == SB_OK)
            status = sb_setup_read(&r->setups[i], path, all_sets, nall, err);
        if (status == SB_OK)
            status = sb_experiment_check_no_server_keys(&r->setups[i].exp,
                                                        "scanbench reproduce", err);
        if (status == SB_OK)
            status = sb_setup_plan(&r->setups[i], &r->limit, err);
        if (status == SB_OK)
            status = edit_pools(r, i, err);
        if (status == SB_OK)
            status = sb_reproduce_check_placements(&r->setups[i].plan,
                                                   &r->setups[i].exp.thread,
                                                   r->setups[i].exp.source, err);
    }
    r->budget = (r->quick ? SB_REPRODUCE_QUICK_BUDGET : SB_REPRODUCE_FULL_BUDGET) *
                (r->twice ? 2.0 : 1.0);
    snprintf(r->budget_from, sizeof r->budget_from, "%s%s", r->quick ? "--quick" : "the default",
             r->twice ? (r->quick ? " --twice's" : " with --twice:") : (r->quick ? "'s" : ""));
    if (status == SB_OK && r->n > 0 &&
        strncmp(r->setups[0].exp.settings[SB_K_TIME_BUDGET].origin, "--set", 5) == 0) {
        r->budget = r->setups[0].plan.schedule.time_budget;
        snprintf(r->budget_from, sizeof r->budget_from, "time_budget's");
    }
    sb_reproduce_rates_init(&r->rates);
    for (int i = 0; i < r->n && status == SB_OK; i++) {
        sb_reproduce_work_of(&r->setups[i].plan, &r->work[i]);
        r->work[i].configurations = sb_reproduce_emulation_work(r->quick, &r->setups[i],
                                                                &r->work[i].emulation_bytes);
    }
    return status;
}
