/* SPDX-License-Identifier: BSD-3-Clause */
/* build.c: a plan built from an experiment's settings (sb_plan_build): the header, the events
 * map and machine models read, every run of the lists' product filled, named and checked
 * (run_checks.c), the run names shortened where too long; the runs made again after the
 * pool list is edited (sb_plan_set_pools). */
#include "config.h"
#include "plan/plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cachesim/cachesim.h"
#include "core/core.h"
#include "counters/counters.h"
#include "host/host.h"
#include "plan/run_checks.h"
#include "plan/run_values.h"
#include "vocab/vocab.h"

/* The watchdog's limit: run_timeout, or 600 s plus 1 s per 20MB the run copies (every table
 * read and written by the build, the validation scan, the warm-up and the timed scans) plus,
 * with the cache model, 1 s per million lines it replays (three per line of a timed scan). */
static double run_timeout_of(const struct sb_experiment *exp, const int *idx,
                             const struct sb_run_params *run)
{
    /* repetitions = auto: as many rounds as the schedule may make */
    double rounds = number_of(exp, idx, SB_K_REPETITIONS) ? run->repetitions : SB_AUTO_ROUNDS_MAX;
    double scans = 2.0 + run->warmup + 2.0 * rounds;
    double bytes = 2.0 * (double)run->table_size * sb_run_tables(run) * scans;
    double lines = run->machine ? 3.0 * (double)run->table_size / 64 * 3 : 0;

    if (run->writeback != SB_WRITEBACK_NONE) /* every page may go back: one more copy each */
        bytes *= 1.5;
    bytes *= 1.0 + run->extra_ppm / 1e6; /* extra_copy: that many pages more */

    if (number_of(exp, idx, SB_K_RUN_TIMEOUT))
        return (double)number_of(exp, idx, SB_K_RUN_TIMEOUT);
    return 600.0 + bytes / 20e6 + lines / 1e6 + 2.0 * rounds * run->min_scan_seconds;
}

/* The values of key that make runs: op's list is no sweep when statements decide the op. */
static int values_of(const struct sb_experiment *exp, int key)
{
    if (key == SB_K_OP && exp->settings[SB_K_STATEMENTS].values[0][0])
        return 1;
    return exp->settings[key].nvalues;
}

static void resolve_data_dir(const struct sb_experiment *exp, char *dir, size_t len)
{
    snprintf(dir, len, "%s", data_dir_of(exp));
}

/* The experiment's name and every listed key's value ("default op=count policy=clock"), shortened
 * between two characters with "..." when it passes SB_RUN_NAME_MAX (said once in the notes). */
static void name_run(const struct sb_experiment *exp, const int *idx, struct sb_run_params *run,
                     struct sb_plan *plan)
{
    char full[4096];
    size_t used = (size_t)snprintf(full, sizeof full, "%s", exp->settings[SB_K_NAME].values[0]);

    for (int k = 0; k < SB_NKEYS && used < sizeof full; k++) {
        if (values_of(exp, k) < 2)
            continue;
        used += (size_t)snprintf(full + used, sizeof full - used, " %s=%s", sb_keys[k].name,
                                 k == SB_K_KERNEL ? run->kernel->name
                                                  : text_of(exp, idx, (enum sb_key_id)k));
    }
    if (used < sizeof run->name) {
        memcpy(run->name, full, used + 1);
        return;
    }
    used = sb_utf8_fit(full, sizeof run->name - 4);
    snprintf(run->name, sizeof run->name, "%.*s\xe2\x80\xa6", (int)used, full); /* "..." */
    if (!plan->names_shortened) {
        size_t n = strlen(plan->notes);
        snprintf(plan->notes + n, sizeof plan->notes - n, "%srun names shortened to %zu bytes",
                 n ? "; " : "", sizeof run->name - 1);
        plan->names_shortened = true;
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

/* statements overrides op: op must be left at its default (the registry's or the embedded
 * default experiment's, whose list is then no sweep: values_of) or be one value naming the last
 * statement; the shared pool runs no sequences. */
static int check_statements(const struct sb_experiment *exp, struct sb_error *err)
{
    const struct sb_setting *st = &exp->settings[SB_K_STATEMENTS], *op = &exp->settings[SB_K_OP];
    const struct sb_setting *shared = &exp->settings[SB_K_SHARED_POOL];
    const struct sb_op *ops[SB_MAX_STATEMENTS];
    uint32_t n = 0;
    int status = sb_statements_parse(st->values[0], ops, &n, err);

    bool op_default = strcmp(op->origin, "default") == 0 ||
                      strncmp(op->origin, "embedded default", 16) == 0;

    if (status != SB_OK || n == 0)
        return status;
    if (!op_default && (op->nvalues > 1 || sb_op_find(op->values[0]) != ops[n - 1]))
        return sb_fail(err, SB_ERR_INPUT, "%s: op: op = %s disagrees with statements = %s (set "
                       "at %s): the last statement is the op measured; leave op unset or make "
                       "it %s", op->origin, op->values[0], st->values[0], st->origin,
                       ops[n - 1]->name);
    for (int i = 0; i < shared->nvalues; i++)
        if (shared->numbers[i])
            return sb_fail(err, SB_ERR_INPUT, "%s: statements: the shared pool (shared_pool = "
                           "yes, %s) runs one op, not a sequence", st->origin, shared->origin);
    return SB_OK;
}

/* Every executor given runs every op and statement given (vacuum-dirty: minimal only). */
static int check_executor(const struct sb_experiment *exp, struct sb_error *err)
{
    const struct sb_setting *ex = &exp->settings[SB_K_EXECUTOR], *op = &exp->settings[SB_K_OP];
    const struct sb_op *ops[SB_MAX_STATEMENTS + SB_MAX_LIST];
    uint32_t n = 0;
    int status = sb_statements_parse(exp->settings[SB_K_STATEMENTS].values[0], ops, &n, err);

    for (int i = 0; status == SB_OK && i < op->nvalues; i++)
        ops[n++] = sb_op_find(op->values[i]);
    for (int e = 0; status == SB_OK && e < ex->nvalues; e++)
        for (uint32_t i = 0; status == SB_OK && i < n; i++)
            if (!sb_op_with_executor(ops[i], ex->values[e]))
                status = sb_fail(err, SB_ERR_INPUT, "%s: executor: %s does not run op %s (it "
                                 "is scanbench's own: executor = minimal)", ex->origin,
                                 ex->values[e], ops[i]->name);
    return status;
}

/* A name's index in names (0, the registry's first, when not found: checked when read). */
static int name_index(const char *const *names, const char *name)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return 0;
}

/* The schedule's keys; an automatic seed from the clock. */
static void schedule_of(const struct sb_experiment *exp, struct sb_schedule_params *s)
{
    const struct sb_setting *seed = &exp->settings[SB_K_SCHEDULE_SEED];

    s->kind = strcmp(exp->settings[SB_K_SCHEDULE].values[0], "blocked") == 0
                  ? SB_SCHEDULE_BLOCKED : SB_SCHEDULE_INTERLEAVED;
    s->rounds = (uint32_t)exp->settings[SB_K_REPETITIONS].numbers[0];
    s->time_budget = (double)exp->settings[SB_K_TIME_BUDGET].numbers[0];
    s->time_budget_auto = strcmp(exp->settings[SB_K_TIME_BUDGET].values[0], "auto") == 0;
    s->seed_auto = strcmp(seed->values[0], "auto") == 0;
    s->seed = s->seed_auto ? (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) : seed->numbers[0];
    s->layout = (enum sb_layout_kind)name_index(sb_layout_names,
                                                exp->settings[SB_K_LAYOUT].values[0]);
    /* an odd count is rounded up: a draw never splits a round from its reverse */
    s->layout_rounds = (uint32_t)exp->settings[SB_K_LAYOUT_ROUNDS].numbers[0];
    s->layout_rounds += s->layout_rounds % 2;
}

/* The number of runs the lists make (their product), refused past SB_MAX_RUNS. */
static int count_runs(const struct sb_experiment *exp, size_t *total, struct sb_error *err)
{
    *total = 1;
    for (int k = 0; k < SB_NKEYS; k++) {
        *total *= (size_t)values_of(exp, k);
        if (*total > SB_MAX_RUNS)
            return sb_fail(err, SB_ERR_INPUT, "%s: %s: the lists make more than %d runs",
                           exp->settings[k].origin, sb_keys[k].name, SB_MAX_RUNS);
    }
    return SB_OK;
}

/* The [thread] section's calibrate, when it has one (experiment.c checked it names a figure). */
static void plan_calibration(const struct sb_thread *t, struct sb_plan_calibration *cal)
{
    const struct sb_thread_figure *f = &t->figures[t->calibrate_figure];

    memset(cal, 0, sizeof *cal);
    if (!t->present || !t->calibrate[0])
        return;
    cal->present = true;
    snprintf(cal->machine, sizeof cal->machine, "%s", t->machine);
    snprintf(cal->figure, sizeof cal->figure, "%s", t->calibrate);
    snprintf(cal->op, sizeof cal->op, "%s", f->op);
    snprintf(cal->policy, sizeof cal->policy, "%s", f->placement.policy->name);
    cal->footprint = f->placement.footprint;
    if (strcmp(f->unit, "MB/s") == 0)
        cal->thread_mbps = f->value;
    else if (t->table_size)
        cal->thread_mbps = (double)t->table_size / f->value / SB_MB_DECIMAL;
}

/* What the plan says of the whole experiment: its names, notes, the topology overrides and the
 * schedule. */
static void plan_header(const struct sb_experiment *exp, struct sb_plan *plan)
{
    snprintf(plan->experiment, sizeof plan->experiment, "%s", exp->settings[SB_K_NAME].values[0]);
    snprintf(plan->description, sizeof plan->description, "%s",
             exp->settings[SB_K_DESCRIPTION].values[0]);
    snprintf(plan->config_source, sizeof plan->config_source, "%s", exp->source);
    snprintf(plan->notes, sizeof plan->notes, "%s", exp->notes);
    plan->override_size[0] = exp->settings[SB_K_L1D_SIZE].numbers[0];
    plan->override_size[1] = exp->settings[SB_K_L2_SIZE].numbers[0];
    plan->override_size[2] = exp->settings[SB_K_L3_SIZE].numbers[0];
    plan->override_line = exp->settings[SB_K_LINE_SIZE].numbers[0];
    schedule_of(exp, &plan->schedule);
    plan_calibration(&exp->thread, &plan->calibration);
    snprintf(plan->thread_scan.machine, sizeof plan->thread_scan.machine, "%s",
             exp->thread.present ? exp->thread.machine : "");
    plan->thread_scan.scanners = exp->thread.scanners ? exp->thread.scanners : 1;
}

/* The server keys' values: -1 (and index 0) where the key says `default`. */
static void server_knobs(const struct sb_experiment *exp, const int *idx,
                         struct sb_pg_knobs *k)
{
    uint64_t limit = number_of(exp, idx, SB_K_BUFFER_USAGE_LIMIT);
    uint64_t eic = number_of(exp, idx, SB_K_EFFECTIVE_IO_CONCURRENCY);
    uint64_t combine = number_of(exp, idx, SB_K_IO_COMBINE_LIMIT);
    uint64_t workers = number_of(exp, idx, SB_K_IO_WORKERS);

    k->buffer_usage_limit = limit == SB_SERVER_DEFAULT ? -1 : (int64_t)limit;
    k->effective_io_concurrency = eic == SB_SERVER_DEFAULT ? -1 : (int64_t)eic;
    k->io_combine_limit = combine ? (int64_t)combine : -1; /* 0: the or_word, default */
    k->io_workers = workers ? (int64_t)workers : -1;
    k->io_method = name_index(sb_io_method_names, text_of(exp, idx, SB_K_IO_METHOD));
    k->huge_pages = name_index(sb_huge_pages_names, text_of(exp, idx, SB_K_HUGE_PAGES));
    k->io_worker_cpu = name_index(sb_io_worker_cpu_names, text_of(exp, idx, SB_K_IO_WORKER_CPU));
}

/* Run r's parameters: idx (the mixed-radix digits of r, the last key varying fastest) picks
 * each key's value. */
static void fill_run(const struct sb_experiment *exp, size_t r, int *idx,
                     const struct sb_plan *plan, struct sb_run_params *run)
{
    memset(run, 0, sizeof *run); /* a slot a skipped run left */
    for (int k = SB_NKEYS - 1; k >= 0; k--) {
        idx[k] = (int)(r % (size_t)values_of(exp, k));
        r /= (size_t)values_of(exp, k);
    }
    run->source = sb_source_find(text_of(exp, idx, SB_K_SOURCE));
    run->bigtable = number_of(exp, idx, SB_K_BIGTABLE) != 0;
    resolve_data_dir(exp, run->data_dir, sizeof run->data_dir);
    sb_placement_parse(text_of(exp, idx, SB_K_IOCACHE_NODE), &run->iocache_node);
    sb_placement_parse(text_of(exp, idx, SB_K_POOL_NODE), &run->pool_node);
    run->shared_table = number_of(exp, idx, SB_K_SHARED_TABLE) != 0;
    run->shared_pool = number_of(exp, idx, SB_K_SHARED_POOL) != 0;
    run->table_size = number_of(exp, idx, SB_K_TABLE_SIZE);
    run->pool_size = number_of(exp, idx, SB_K_POOL_SIZE);
    run->ring_size = number_of(exp, idx, SB_K_RING_SIZE);
    run->page_size = (uint32_t)number_of(exp, idx, SB_K_PAGE_SIZE);
    run->op = sb_op_find(text_of(exp, idx, SB_K_OP));
    /* checked when read: the last statement, when there are any, is the op measured */
    sb_statements_parse(exp->settings[SB_K_STATEMENTS].values[0], run->statements,
                        &run->nstatements, &(struct sb_error){0});
    if (run->nstatements)
        run->op = run->statements[run->nstatements - 1];
    /* the executor's row of each (checked when read: every executor runs every op) */
    run->op = sb_op_with_executor(run->op, text_of(exp, idx, SB_K_EXECUTOR));
    for (uint32_t i = 0; i < run->nstatements; i++)
        run->statements[i] = sb_op_with_executor(run->statements[i],
                                                 text_of(exp, idx, SB_K_EXECUTOR));
    run->kernel = sb_kernel_find(text_of(exp, idx, SB_K_KERNEL));
    run->policy = sb_policy_find(text_of(exp, idx, SB_K_POLICY));
    run->writeback = sb_writeback_find(text_of(exp, idx, SB_K_WRITEBACK))->mode;
    run->checkpoint_pages = (uint32_t)number_of(exp, idx, SB_K_CHECKPOINT_PAGES);
    if (!run->checkpoint_pages) /* auto: the pool's buffers */
        run->checkpoint_pages = (uint32_t)(run->pool_size / run->page_size);
    run->hint_bits_set = strcmp(text_of(exp, idx, SB_K_HINT_BITS), "set") == 0;
    run->threads = (uint32_t)number_of(exp, idx, SB_K_THREADS);
    /* a run alone (and a server run) with repetitions = auto makes the rounds' minimum */
    run->repetitions = plan->schedule.rounds ? plan->schedule.rounds : SB_AUTO_ROUNDS_MIN;
    run->warmup = (uint32_t)number_of(exp, idx, SB_K_WARMUP);
    run->min_scan_seconds = (double)number_of(exp, idx, SB_K_MIN_SCAN_MS) / 1000.0;
    run->slice_seconds = (double)number_of(exp, idx, SB_K_SLICE_MS) / 1000.0;
    run->seed = number_of(exp, idx, SB_K_SEED);
    run->pool_layout = plan->schedule.layout;
    run->extra_ppm = (uint32_t)number_of(exp, idx, SB_K_EXTRA_COPY);
    run->counters = sb_counter_backend_find(text_of(exp, idx, SB_K_COUNTERS));
    run->events = &plan->events;
    run->require_counters = number_of(exp, idx, SB_K_REQUIRE_COUNTERS) != 0;
    run->machine = strcmp(run->counters->name, "sim") == 0
                       ? &plan->machines[idx[SB_K_MACHINE]] : NULL;
    run->prefetch = strcmp(text_of(exp, idx, SB_K_PREFETCH), "machine") == 0 ? -1
                    : strcmp(text_of(exp, idx, SB_K_PREFETCH), "yes") == 0;
    run->run_timeout = run_timeout_of(exp, idx, run);
    server_knobs(exp, idx, &run->server);
}

/* Every run of the lists, filled, checked and named into plan->runs (room for total); a file
 * run copies with pread whatever copy kernel the list names: one run, not one per kernel (a
 * half kernel, `read` or `write`, is refused with source file). */
static int plan_runs(const struct sb_experiment *exp, const struct sb_mem_limit *limit,
                     size_t total, struct sb_plan *plan, struct sb_error *err)
{
    int idx[SB_NKEYS] = {0};
    int status = SB_OK;
    struct plan_host host = {0};

    for (size_t r = 0; r < total && status == SB_OK; r++) {
        struct sb_run_params *run = &plan->runs[plan->nruns];
        fill_run(exp, r, idx, plan, run);
        if (run->source->is_file && idx[SB_K_KERNEL] > 0 && run->kernel->side == SB_KERNEL_COPY)
            continue;
        status = sb_plan_check_run(exp, idx, run, limit, err);
        if (status == SB_OK)
            status = sb_plan_check_source(exp, run, &host, err);
        if (status == SB_OK)
            status = sb_plan_check_writeback(exp, idx, run, err);
        if (status == SB_OK)
            status = sb_plan_check_half_kernel(exp, idx, run, err);
        if (status == SB_OK)
            sb_plan_slices(plan, run, &host);
        name_run(exp, idx, run, plan);
        if (status == SB_OK)
            status = sb_plan_check_placements(exp, run, err);
        if (status == SB_OK)
            status = sb_plan_check_concurrency(exp, idx, run, &host, err);
        if (status == SB_OK)
            plan->nruns++;
    }
    return status;
}

static bool reads_file(const struct sb_run_params *r) { return r->source->is_file; }
static bool checkpoints(const struct sb_run_params *r)
{
    return r->writeback == SB_WRITEBACK_CHECKPOINT;
}
static bool writes_back(const struct sb_run_params *r) { return r->writeback != SB_WRITEBACK_NONE; }
static bool models(const struct sb_run_params *r) { return r->machine != NULL; }
static bool rings(const struct sb_run_params *r) { return r->policy->uses_ring; }

/* A key the experiment sets (its file or a --set, not the default) that no run of the plan
 * uses: a note, in the output and the report, not a refusal (issue 25 item 14). */
static void note_unused_keys(const struct sb_experiment *exp, struct sb_plan *plan)
{
    static const struct {
        enum sb_key_id key;
        bool (*used)(const struct sb_run_params *);
        const char *why;
    } rules[] = {
        {SB_K_DATA_DIR, reads_file, "no run reads a table file (source memory)"},
        {SB_K_CHECKPOINT_PAGES, checkpoints, "no run writes back at checkpoints"},
        {SB_K_WRITEBACK_KERNEL, writes_back, "no run writes back (writeback none)"},
        {SB_K_PREFETCH, models, "it sets the cache model's prefetcher, and counters is not sim"},
        {SB_K_RING_SIZE, rings, "no run's policy uses a ring"},
    };

    for (size_t k = 0; k < sizeof rules / sizeof rules[0]; k++) {
        const char *origin = exp->settings[rules[k].key].origin;
        bool used = false;
        size_t n = strlen(plan->notes);
        for (size_t i = 0; i < plan->nruns && !used; i++)
            used = rules[k].used(&plan->runs[i]);
        if (!used && origin && strcmp(origin, "default") != 0)
            snprintf(plan->notes + n, sizeof plan->notes - n, "%s%s (%s) applies to no run: %s",
                     n ? "; " : "", sb_keys[rules[k].key].name, origin, rules[k].why);
    }
}

/* The runs of exp's lists into plan (its header, events map and machines already there): every
 * run filled and checked, the notes on keys no run uses, the automatic time budget, and the
 * checks on the plan as a whole. */
static int expand(const struct sb_experiment *exp, const struct sb_mem_limit *limit,
                  struct sb_plan *plan, struct sb_error *err)
{
    size_t total;
    int status = count_runs(exp, &total, err);

    free(plan->runs);
    plan->runs = NULL;
    plan->nruns = 0;
    plan->names_shortened = false;
    snprintf(plan->notes, sizeof plan->notes, "%s", exp->notes);
    if (status == SB_OK && !(plan->runs = calloc(total, sizeof *plan->runs)))
        status = sb_fail(err, SB_ERR_RUN, "out of memory for %zu runs", total);
    if (status == SB_OK)
        status = plan_runs(exp, limit, total, plan, err);
    if (status == SB_OK)
        note_unused_keys(exp, plan);
    if (plan->schedule.time_budget_auto)
        plan->schedule.time_budget = fmax(SB_AUTO_BUDGET_MIN,
                                          SB_AUTO_BUDGET_PER_RUN * (double)plan->nruns);
    if (status == SB_OK)
        status = sb_plan_check_limit(plan, (double)exp->settings[SB_K_PLAN_LIMIT].numbers[0],
                                     plan->config_source, err);
    if (status == SB_OK)
        status = sb_plan_check_contention(exp, plan, limit, err);
    if (status == SB_OK && plan->schedule.kind == SB_SCHEDULE_INTERLEAVED)
        status = sb_plan_check_memory_together(exp, plan, limit, err);
    return status;
}

int sb_plan_build(const struct sb_experiment *exp, const struct sb_mem_limit *limit,
                  struct sb_plan *plan, struct sb_error *err)
{
    size_t total;
    int status;

    memset(plan, 0, sizeof *plan);
    status = count_runs(exp, &total, err);
    if (status != SB_OK)
        return status;
    plan_header(exp, plan);
    status = sb_plan_check_data_dir(exp, err);
    if (status == SB_OK)
        status = check_statements(exp, err);
    if (status == SB_OK)
        status = check_executor(exp, err);
    if (status == SB_OK)
        status = sb_plan_check_sim_threads(exp, err);
    if (status == SB_OK)
        status = load_events(exp, &plan->events, err);
    if (status == SB_OK)
        status = load_machines(exp, plan, err);
    if (status == SB_OK)
        status = expand(exp, limit, plan, err);
    if (status != SB_OK)
        sb_plan_free(plan);
    return status;
}

int sb_plan_set_pools(struct sb_plan *plan, struct sb_experiment *exp, const uint64_t *bytes,
                      int n, const char *origin, const struct sb_mem_limit *limit,
                      struct sb_error *err)
{
    int status = sb_experiment_set_sizes(exp, SB_K_POOL_SIZE, bytes, n, origin, err);

    if (status == SB_OK)
        status = expand(exp, limit, plan, err);
    if (status != SB_OK)
        sb_plan_free(plan);
    return status;
}
