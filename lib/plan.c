/* plan.c: from an experiment's settings to a checked list of runs. */
#include "config.h"
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_id.h"
#include "topo.h"
#include "units.h"

/* The value of key for the run at position idx of the product. */
static const char *text_of(const struct sb_experiment *exp, const int *idx, enum sb_key_id key)
{
    return exp->settings[key].values[idx[key]];
}

static uint64_t number_of(const struct sb_experiment *exp, const int *idx, enum sb_key_id key)
{
    return exp->settings[key].numbers[idx[key]];
}

static int bad(struct sb_error *err, const struct sb_experiment *exp, enum sb_key_id key,
               const char *fmt, const char *a, const char *b)
{
    char what[512];
    snprintf(what, sizeof what, fmt, a, b);
    return sb_fail(err, SB_ERR_INPUT, "%s: %s: %s", exp->settings[key].origin, sb_keys[key].name,
                   what);
}

static int check_run(const struct sb_experiment *exp, const int *idx, struct sb_run_params *run,
                     const struct sb_mem_limit *limit, struct sb_error *err)
{
    char a[32], b[32], c[32];
    uint64_t need;

    if (run->page_size < 1024 || (run->page_size & (run->page_size - 1)))
        return bad(err, exp, SB_K_PAGE_SIZE, "%s is not a power of two from 1KB to 32KB%s",
                   sb_format_size(run->page_size, a, sizeof a), "");
    sb_format_size(run->page_size, b, sizeof b);
    if (run->table_size % run->page_size)
        return bad(err, exp, SB_K_TABLE_SIZE, "%s is not a multiple of the page size (%s)",
                   sb_format_size(run->table_size, a, sizeof a), b);
    if (run->pool_size % run->page_size)
        return bad(err, exp, SB_K_POOL_SIZE, "%s is not a multiple of the page size (%s)",
                   sb_format_size(run->pool_size, a, sizeof a), b);
    if (run->pool_size / run->page_size > UINT32_MAX)
        return bad(err, exp, SB_K_POOL_SIZE, "%s holds more than 2^32 buffers%s",
                   sb_format_size(run->pool_size, a, sizeof a), "");
    if (run->policy->uses_ring) {
        if (run->ring_size % run->page_size)
            return bad(err, exp, SB_K_RING_SIZE, "%s is not a multiple of the page size (%s)",
                       sb_format_size(run->ring_size, a, sizeof a), b);
        if (run->ring_size > run->pool_size)
            return bad(err, exp, SB_K_RING_SIZE, "%s ring is larger than the pool (pool_size %s)",
                       sb_format_size(run->ring_size, a, sizeof a),
                       sb_format_size(run->pool_size, c, sizeof c));
    }
    if (!sb_heap_layout_init(&run->layout, run->page_size, (uint32_t)number_of(exp, idx,
                             SB_K_ROW_WIDTH), (uint32_t)number_of(exp, idx, SB_K_DEAD_PCT)))
        return bad(err, exp, SB_K_ROW_WIDTH, "no %s-byte row fits on a %s page",
                   text_of(exp, idx, SB_K_ROW_WIDTH), b);
    need = run->table_size + run->pool_size + SB_RUN_OVERHEAD_BYTES;
    if (need < run->table_size || need > limit->bytes) {
        char what[256];
        snprintf(what, sizeof what, "table %s + pool %s + %s overhead is more than this host can "
                 "give (%s, %s)", sb_format_size(run->table_size, a, sizeof a),
                 sb_format_size(run->pool_size, b, sizeof b),
                 sb_format_size(SB_RUN_OVERHEAD_BYTES, c, sizeof c),
                 sb_format_size(limit->bytes & ~((1ull << 20) - 1), (char[32]){0}, 32),
                 limit->source);
        return bad(err, exp, run->table_size >= run->pool_size ? SB_K_TABLE_SIZE : SB_K_POOL_SIZE,
                   "%s%s", what, "");
    }
    return SB_OK;
}

static void name_run(const struct sb_experiment *exp, const int *idx, struct sb_run_params *run)
{
    size_t used = (size_t)snprintf(run->name, sizeof run->name, "%s",
                                   exp->settings[SB_K_NAME].values[0]);
    for (int k = 0; k < SB_NKEYS; k++) {
        if (exp->settings[k].nvalues < 2 || used >= sizeof run->name)
            continue;
        used += (size_t)snprintf(run->name + used, sizeof run->name - used, " %s=%s",
                                 sb_keys[k].name, text_of(exp, idx, (enum sb_key_id)k));
    }
}

/* The events map, read and checked before any run when a counting backend that uses one
 * (papi) is asked for, or when `events` names a file: a bad map is bad input. */
static int load_events(const struct sb_experiment *exp, struct sb_events_choice *events,
                       struct sb_error *err)
{
    const struct sb_setting *setting = &exp->settings[SB_K_EVENTS];
    const struct sb_setting *counters = &exp->settings[SB_K_COUNTERS];
    bool wanted = strcmp(setting->values[0], "auto") != 0;

    for (int i = 0; i < counters->nvalues; i++)
        wanted |= strcmp(counters->values[i], "papi") == 0;
    if (!wanted) {
        snprintf(events->why, sizeof events->why, "not read: no backend asked for one");
        return SB_OK;
    }
    return sb_events_choose(setting->values[0], setting->origin, events, err);
}

/* The cache model's machines (one per value of `machine`), read and checked before any run:
 * every named model (a bad machine file is bad input whatever the backend), and `auto` (the
 * host's topology, with the l1d_size.. overrides) when counters=sim asks for it. */
static int load_machines(const struct sb_experiment *exp, struct sb_plan *plan,
                         struct sb_error *err)
{
    const struct sb_setting *setting = &exp->settings[SB_K_MACHINE];
    bool sim = false;

    for (int i = 0; i < exp->settings[SB_K_COUNTERS].nvalues; i++)
        sim |= strcmp(exp->settings[SB_K_COUNTERS].values[i], "sim") == 0;
    plan->machines = calloc((size_t)setting->nvalues, sizeof *plan->machines);
    if (!plan->machines)
        return sb_fail(err, SB_ERR_RUN, "out of memory for the machine models");
    for (int i = 0; i < setting->nvalues; i++) {
        int status;
        if (strcmp(setting->values[i], "auto") == 0) {
            struct sb_topology topo;
            struct sb_cpu_id cpu;
            if (!sim)
                continue;
            sb_topology_detect(&topo, "");
            for (int l = 0; l < SB_NLEVELS; l++)
                if (plan->override_size[l])
                    sb_topology_override_size(&topo, l, plan->override_size[l]);
            if (plan->override_line)
                sb_topology_override_line(&topo, plan->override_line);
            sb_cpu_id_detect(&cpu);
            status = sb_machine_from_topology(&topo, cpu.vendor, &plan->machines[i], err);
        } else {
            status = sb_machine_load(setting->values[i], &plan->machines[i], err);
        }
        if (status != SB_OK) {
            sb_error_prefix(err, "%s: machine", setting->origin);
            return status;
        }
    }
    return SB_OK;
}

int sb_plan_build(const struct sb_experiment *exp, const struct sb_mem_limit *limit,
                  struct sb_plan *plan, struct sb_error *err)
{
    int idx[SB_NKEYS] = {0};
    size_t total = 1;
    int status = SB_OK;

    memset(plan, 0, sizeof *plan);
    for (int k = 0; k < SB_NKEYS; k++) {
        total *= (size_t)exp->settings[k].nvalues;
        if (total > SB_MAX_RUNS)
            return sb_fail(err, SB_ERR_INPUT, "%s: %s: the lists make more than %d runs",
                           exp->settings[k].origin, sb_keys[k].name, SB_MAX_RUNS);
    }
    snprintf(plan->experiment, sizeof plan->experiment, "%s", exp->settings[SB_K_NAME].values[0]);
    snprintf(plan->description, sizeof plan->description, "%s",
             exp->settings[SB_K_DESCRIPTION].values[0]);
    snprintf(plan->config_source, sizeof plan->config_source, "%s", exp->source);
    snprintf(plan->notes, sizeof plan->notes, "%s", exp->notes);
    plan->override_size[0] = exp->settings[SB_K_L1D_SIZE].numbers[0];
    plan->override_size[1] = exp->settings[SB_K_L2_SIZE].numbers[0];
    plan->override_size[2] = exp->settings[SB_K_L3_SIZE].numbers[0];
    plan->override_line = exp->settings[SB_K_LINE_SIZE].numbers[0];
    status = load_events(exp, &plan->events, err);
    if (status != SB_OK)
        return status;
    status = load_machines(exp, plan, err);
    if (status != SB_OK) {
        sb_plan_free(plan);
        return status;
    }
    plan->runs = calloc(total, sizeof *plan->runs);
    if (!plan->runs) {
        sb_plan_free(plan);
        return sb_fail(err, SB_ERR_RUN, "out of memory for %zu runs", total);
    }

    for (size_t r = 0; r < total; r++) {
        struct sb_run_params *run = &plan->runs[r];
        size_t rest = r;

        /* idx: the mixed-radix digits of r, the last key varying fastest */
        for (int k = SB_NKEYS - 1; k >= 0; k--) {
            idx[k] = (int)(rest % (size_t)exp->settings[k].nvalues);
            rest /= (size_t)exp->settings[k].nvalues;
        }
        run->source = sb_source_find(text_of(exp, idx, SB_K_SOURCE));
        run->table_size = number_of(exp, idx, SB_K_TABLE_SIZE);
        run->pool_size = number_of(exp, idx, SB_K_POOL_SIZE);
        run->ring_size = number_of(exp, idx, SB_K_RING_SIZE);
        run->page_size = (uint32_t)number_of(exp, idx, SB_K_PAGE_SIZE);
        run->op = sb_op_find(text_of(exp, idx, SB_K_OP));
        run->kernel = sb_kernel_find(text_of(exp, idx, SB_K_KERNEL));
        run->policy = sb_policy_find(text_of(exp, idx, SB_K_POLICY));
        run->threads = (uint32_t)number_of(exp, idx, SB_K_THREADS);
        run->repetitions = (uint32_t)number_of(exp, idx, SB_K_REPETITIONS);
        run->warmup = (uint32_t)number_of(exp, idx, SB_K_WARMUP);
        run->seed = number_of(exp, idx, SB_K_SEED);
        run->counters = sb_counter_backend_find(text_of(exp, idx, SB_K_COUNTERS));
        run->events = &plan->events;
        run->require_counters = number_of(exp, idx, SB_K_REQUIRE_COUNTERS) != 0;
        run->machine = strcmp(run->counters->name, "sim") == 0
                           ? &plan->machines[idx[SB_K_MACHINE]] : NULL;
        run->prefetch = strcmp(text_of(exp, idx, SB_K_PREFETCH), "machine") == 0 ? -1
                        : strcmp(text_of(exp, idx, SB_K_PREFETCH), "yes") == 0;
        name_run(exp, idx, run);
        status = check_run(exp, idx, run, limit, err);
        if (status != SB_OK)
            break;
        plan->nruns++;
    }
    if (status != SB_OK)
        sb_plan_free(plan);
    return status;
}

void sb_plan_free(struct sb_plan *plan)
{
    free(plan->runs);
    plan->runs = NULL;
    plan->nruns = 0;
    sb_events_choice_free(&plan->events);
    free(plan->machines);
    plan->machines = NULL;
}
