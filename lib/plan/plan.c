/* SPDX-License-Identifier: BSD-3-Clause */
/* plan.c: what a plan's runs are made of (tables, pools, whether they scan concurrently, which
 * runs share a table, what they count) and a plan freed; the plan is built in build.c. */
#include "config.h"
#include "plan/plan.h"

#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "counters/counters.h"

uint32_t sb_run_tables(const struct sb_run_params *run)
{
    return run->threads > 1 && !run->shared_table ? run->threads : 1;
}

uint32_t sb_run_pools(const struct sb_run_params *run)
{
    return run->threads > 1 && !run->shared_pool ? run->threads : 1;
}

bool sb_run_concurrent(const struct sb_run_params *run)
{
    return run->threads > 1 || run->shared_pool;
}

const char *const sb_schedule_names[] = {"interleaved", "blocked"};
const char *const sb_layout_names[] = {"random", "fixed", "hugepages", NULL};
const char *const sb_io_method_names[] = {"default", "sync", "worker", "io_uring", NULL};
const char *const sb_huge_pages_names[] = {"default", "off", "on", "try", NULL};
const char *const sb_io_worker_cpu_names[] = {"default", "same", "other", NULL};

bool sb_pg_knobs_same(const struct sb_pg_knobs *a, const struct sb_pg_knobs *b)
{
    return a->buffer_usage_limit == b->buffer_usage_limit &&
           a->io_combine_limit == b->io_combine_limit &&
           a->effective_io_concurrency == b->effective_io_concurrency &&
           a->io_method == b->io_method && a->io_workers == b->io_workers &&
           a->io_worker_cpu == b->io_worker_cpu &&
           a->huge_pages == b->huge_pages;
}

bool sb_schedule_draws_layouts(const struct sb_schedule_params *s)
{
    return s->layout != SB_LAYOUT_FIXED && s->kind == SB_SCHEDULE_INTERLEAVED;
}

/* A run that writes back changes its table: it shares it with no other run. */
bool sb_plan_same_table(const struct sb_run_params *a, const struct sb_run_params *b)
{
    if (a == b)
        return true;
    if (a->writeback != SB_WRITEBACK_NONE || b->writeback != SB_WRITEBACK_NONE)
        return false;
    return a->layout.hint_bits_set == b->layout.hint_bits_set && a->source == b->source &&
           a->table_size == b->table_size &&
           a->page_size == b->page_size && a->layout.row_width == b->layout.row_width &&
           a->layout.dead_pct == b->layout.dead_pct &&
           a->iocache_node.kind == b->iocache_node.kind &&
           a->iocache_node.node == b->iocache_node.node &&
           (!a->source->is_file || strcmp(a->data_dir, b->data_dir) == 0);
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

void sb_run_counting(const struct sb_run_params *run, struct sb_counting *c)
{
    *c = (struct sb_counting){.name = run->name, .require = run->require_counters,
                              .events = run->events, .machine = run->machine,
                              .prefetch = run->prefetch, .op = run->op};
}
