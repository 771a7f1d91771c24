/* SPDX-License-Identifier: BSD-3-Clause */
/* runner.c: a plan's runs on their schedule: the tables, each run's phases (engine.h) in
 * rounds or blocks, the reference (a second instance of the first run), the layouts drawn
 * between rounds, the watchdog per run, stopping early, and the report. */
#include "config.h"
#include "runner/runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "engine/engine.h"
#include "report/report.h"
#include "runner/record.h"
#include "runner/record_layouts.h"
#include "stats/stats.h"

/* The tables that runs of one shape scan (one, or one per scanner). */
struct table_group {
    const struct sb_run_params *shape;
    struct sb_iocache *tables;
    uint32_t want, built;
};

struct runner {
    const struct sb_plan *plan;
    json_t *report;
    bool quiet;
    struct table_group *groups;
    size_t ngroups;
    size_t *group_of;             /* per instance (the reference's: the first run's, or its own
                                     where the first run writes back into its table) */
    struct sb_config **cfgs;      /* per run, then (interleaved) the reference: a second,
                                     separately allocated instance of the first run, timed once
                                     per round like every run (index nruns) */
    size_t ninstances;            /* nruns, or nruns + 1 with the reference */
    bool *recorded;               /* per run: its record is in the report */
    json_t **records;             /* per run: that record (borrowed from the report) */
    double *used;                 /* per instance: seconds of its own steps (the watchdog's) */
    struct sb_scan_record *reference; /* the reference's timed scans, one per round */
    uint32_t nreference, rounds_done, rounds_cap;
    double t0;
    const char *stopped_by;       /* why the rounds ended */
    double rounds_seconds;        /* the rounds' own time (the rest: tables, preparing,
                                     validating, warming, finishing) */
    double progress_at;           /* when the last round's progress line was written */
    size_t failed;                /* the run that failed or was stopped; nruns: none */
    struct sb_aggressor *aggressor; /* key contention: working only during timed scans */
    uint32_t layout;              /* key layout: the layout the rounds run on now */
    uint32_t layout_from;         /* its first round */
    uint32_t layout_rounds;       /* rounds per layout now (the key, or auto's) */
    uint64_t colour_bytes;        /* one way of the L2: the page colours the frames are counted on */
    double draws_seconds;         /* every draw's time */
};

/* layout_rounds = auto: draws take at most this share of the rounds' time. */
#define LAYOUT_SHARE 0.1
/* repetitions = auto stops for precision only after this many layouts (layout random). */
#define SB_AUTO_LAYOUTS_MIN 5

/* Instance i's parameters: run i's, or the first run's for the reference. */
static const struct sb_run_params *params_of(const struct runner *r, size_t i)
{
    return &r->plan->runs[i < r->plan->nruns ? i : 0];
}

/* The order instances are prepared, validated, warmed and drawn anew in: shuffled by the
 * schedule's seed and the layout (plan order with layout fixed, as one allocation per run). */
static void instance_order(const struct runner *r, uint32_t layout, uint32_t *order)
{
    struct sb_rng rng;

    for (uint32_t k = 0; k < r->ninstances; k++)
        order[k] = k;
    if (r->plan->schedule.layout == SB_LAYOUT_FIXED)
        return;
    sb_rng_seed(&rng, r->plan->schedule.seed ^ (0x1a7u + ((uint64_t)layout << 32)));
    sb_shuffle_u32(order, r->ninstances, &rng);
}

void sb_runner_topology(const struct sb_plan *plan, struct sb_topology *topo)
{
    sb_topology_detect(topo, "");
    for (int l = 0; l < SB_NLEVELS; l++)
        if (plan->override_size[l])
            sb_topology_override_size(topo, l, plan->override_size[l]);
    if (plan->override_line)
        sb_topology_override_line(topo, plan->override_line);
}

/* --- tables ------------------------------------------------------------------------------- */

/* Which runs share tables, and how many each group needs; the reference shares the first run's
 * unless that run writes back into its tables (sb_plan_same_table: such a run shares them with
 * no other, not even its second instance). */
static int groups_plan(struct runner *r, struct sb_error *err)
{
    const struct sb_plan *plan = r->plan;

    r->groups = calloc(plan->nruns + 1, sizeof *r->groups);
    r->group_of = calloc(plan->nruns + 1, sizeof *r->group_of);
    if (!r->groups || !r->group_of)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    for (size_t i = 0; i < plan->nruns; i++) {
        const struct sb_run_params *p = &plan->runs[i];
        size_t g;
        for (g = 0; g < r->ngroups && !sb_plan_same_table(r->groups[g].shape, p); g++)
            ;
        if (g == r->ngroups)
            r->groups[r->ngroups++].shape = p;
        if (sb_run_tables(p) > r->groups[g].want)
            r->groups[g].want = sb_run_tables(p);
        r->group_of[i] = g;
    }
    if (r->ninstances > plan->nruns) {
        r->group_of[plan->nruns] = r->group_of[0];
        if (plan->runs[0].writeback != SB_WRITEBACK_NONE) {
            r->groups[r->ngroups] = (struct table_group){.shape = &plan->runs[0],
                                                         .want = sb_run_tables(&plan->runs[0])};
            r->group_of[plan->nruns] = r->ngroups++;
        }
    }
    for (size_t g = 0; g < r->ngroups; g++)
        if (!(r->groups[g].tables = calloc(r->groups[g].want, sizeof *r->groups[g].tables)))
            return sb_fail(err, SB_ERR_RUN, "out of memory");
    return SB_OK;
}

static void group_destroy(struct table_group *g)
{
    for (uint32_t t = 0; t < g->built; t++)
        sb_iocache_destroy(&g->tables[t]);
    g->built = 0;
}

/* Builds run p's group's tables, each placed for the scanner that reads it. */
static int group_build(struct runner *r, struct table_group *g, const struct sb_run_params *p,
                       struct sb_error *err)
{
    char size[32], count[32] = "the";
    int status = SB_OK;

    if (g->built == g->want)
        return SB_OK;
    if (g->want > 1)
        snprintf(count, sizeof count, "%u", g->want);
    if (!r->quiet)
        fprintf(stderr, "scanbench: %s %s %s table%s %s%s\n",
                p->source->is_file ? "writing" : "building", count,
                sb_format_size(p->table_size, size, sizeof size), g->want > 1 ? "s" : "",
                !p->source->is_file ? "in the IO cache"
                : g->want > 1       ? "into scratch files in "
                                    : "into a scratch file in ",
                p->source->is_file ? p->data_dir : "");
    sb_stop_test_pause("build");
    for (; g->built < g->want && status == SB_OK; g->built++)
        status = sb_iocache_build(&g->tables[g->built], p, sb_engine_home_node(p, g->built),
                                  err);
    if (status != SB_OK)
        g->built--; /* the one that failed cleaned up after itself */
    return status;
}

/* --- one run's steps, each under the watchdog ----------------------------------------------- */

enum step_kind { STEP_PREPARE, STEP_VALIDATE, STEP_WARM, STEP_TIMED, STEP_REDRAW, STEP_FINISH };

/* Tests only: SCANBENCH_TEST_FAIL=prepare:K makes run K's preparation fail (1-based: an
 * allocation that fails mid-sweep), =round:R the first timed scan of round R (1-based), so that
 * the tests can check what a failure keeps. */
static bool test_failure(const struct runner *r, enum step_kind kind, size_t i)
{
    const char *spec = getenv("SCANBENCH_TEST_FAIL");
    unsigned long n;

    if (!spec)
        return false;
    if (kind == STEP_PREPARE && sscanf(spec, "prepare:%lu", &n) == 1)
        return n == i + 1;
    return kind == STEP_TIMED && sscanf(spec, "round:%lu", &n) == 1 && n == r->rounds_done + 1 &&
           r->plan->schedule.kind == SB_SCHEDULE_INTERLEAVED;
}

static int step(struct runner *r, size_t i, enum step_kind kind, struct sb_scan_record *rec,
                struct sb_error *err)
{
    const struct sb_run_params *p = params_of(r, i);
    struct table_group *g = &r->groups[r->group_of[i]];
    bool settle = r->plan->schedule.kind == SB_SCHEDULE_INTERLEAVED;
    double t = sb_timer_now(), left = p->run_timeout - r->used[i];
    char what[320];
    int status;

    /* finishing (the pool check, the summary) happens after a stop too */
    if (kind == STEP_FINISH)
        return sb_config_finish(r->cfgs[i], err);
    status = sb_stop_check(err);
    if (status != SB_OK) {
        if (r->failed == r->plan->nruns)
            r->failed = i < r->plan->nruns ? i : 0;
        return status; /* a signal, or the watchdog at the end of a step before */
    }
    /* the run's own time so far counts: past its run_timeout, the step in progress is its last */
    if (i < r->plan->nruns)
        snprintf(what, sizeof what, "run %zu/%zu %s", i + 1, r->plan->nruns, p->name);
    else
        snprintf(what, sizeof what, "the reference (run 1/%zu %s again)", r->plan->nruns,
                 p->name);
    sb_watchdog_arm(left > 0 ? left : 1e-6, what);
    if (test_failure(r, kind, i))
        status = sb_fail(err, SB_ERR_RUN, "%s: cannot allocate (a failure injected by "
                         "SCANBENCH_TEST_FAIL)", p->name);
    else if (kind == STEP_PREPARE && (status = group_build(r, g, p, err)) == SB_OK) {
        status = sb_config_prepare(&r->cfgs[i], p, g->tables, r->rounds_cap, err);
        if (status == SB_OK)
            status = sb_config_layout_note(r->cfgs[i], 0, 0, r->colour_bytes, err);
    } else if (kind == STEP_VALIDATE)
        status = sb_config_validate(r->cfgs[i], err);
    else if (kind == STEP_WARM)
        status = sb_config_warm(r->cfgs[i], err);
    else if (kind == STEP_REDRAW)
        status = sb_config_redraw(r->cfgs[i], r->layout + 1, r->rounds_done, r->colour_bytes,
                                  err);
    else if (kind == STEP_TIMED) {
        sb_aggressor_resume(r->aggressor); /* its settling pass and its passes contended */
        status = sb_config_timed(r->cfgs[i], settle, i >= r->plan->nruns, rec, err);
        sb_aggressor_pause(r->aggressor);
    }
    sb_watchdog_disarm();
    r->used[i] += sb_timer_now() - t;
    if ((status != SB_OK || sb_stop_requested()) && r->failed == r->plan->nruns)
        r->failed = i < r->plan->nruns ? i : 0; /* the run whose step a failure, a signal or
                                                   the watchdog stopped */
    return status;
}

/* Every instance through one step, in instance_order's order for the layout. */
static int all_runs(struct runner *r, enum step_kind kind, uint32_t layout, struct sb_error *err)
{
    uint32_t *order = malloc(r->ninstances * sizeof *order);
    int status = order ? SB_OK : sb_fail(err, SB_ERR_RUN, "out of memory");

    if (order)
        instance_order(r, layout, order);
    for (size_t k = 0; k < r->ninstances && status == SB_OK; k++)
        status = step(r, order[k], kind, NULL, err);
    free(order);
    return status;
}

/* --- rounds --------------------------------------------------------------------------------- */

/* The runs' records so far, for the analysis that decides whether more rounds are needed. */
static json_t *provisional_report(const struct runner *r)
{
    json_t *runs = json_array();
    json_t *brief = json_pack("{s:o, s:O*, s:o}", "runs", runs, "thread",
                              json_object_get(r->report, "thread"), "schedule",
                              sb_report_schedule_json(r->plan, r->reference, r->nreference,
                                                      r->rounds_done, NULL, r->t0));

    for (size_t i = 0; brief && i < r->plan->nruns; i++)
        json_array_append_new(runs, sb_report_run_brief(&r->plan->runs[i],
                                                        sb_config_result(r->cfgs[i]), r->t0));
    return brief;
}

/* repetitions = auto: whether the analysis of the rounds so far is precise enough (and, with
 * layouts drawn, over enough of them). */
static bool settled(const struct runner *r)
{
    if (sb_schedule_draws_layouts(&r->plan->schedule) && r->layout + 1 < SB_AUTO_LAYOUTS_MIN)
        return false;
    json_t *brief = provisional_report(r),
           *analysis = brief ? sb_analysis_build_provisional(brief) : NULL;
    bool done = analysis && sb_analysis_settled(analysis, SB_AUTO_PRECISION);

    json_decref(analysis);
    json_decref(brief);
    return done;
}

/* One round: every instance once (every run and the reference), in the round's shuffle. */
static int one_round(struct runner *r, uint32_t round, uint32_t *order, struct sb_error *err)
{
    const uint32_t n = (uint32_t)r->plan->nruns;
    int status = SB_OK;

    sb_schedule_round_order(r->plan->schedule.seed, round, n + 1, order);
    for (uint32_t k = 0; k <= n && status == SB_OK; k++) {
        struct sb_scan_record rec = {.round = round, .position = k, .layout = r->layout};
        status = step(r, order[k], STEP_TIMED, &rec, err);
        if (status == SB_OK && order[k] == n)
            r->reference[r->nreference++] = rec;
    }
    return status;
}

/* Key layout: every instance's pools drawn anew before round `round`, in a shuffled order;
 * layout_rounds = auto then sets the rounds until the next draw so that draws take at most
 * LAYOUT_SHARE of the rounds' time (round_seconds: a round's mean so far). */
static int draw_layouts(struct runner *r, double round_seconds, struct sb_error *err)
{
    double t = sb_timer_now(), took;
    int status = all_runs(r, STEP_REDRAW, r->layout + 1, err);

    if (status != SB_OK)
        return status;
    took = sb_timer_now() - t;
    r->draws_seconds += took;
    r->layout++;
    r->layout_from = r->rounds_done;
    if (!r->plan->schedule.layout_rounds && round_seconds > 0) {
        double want = ceil(took / (LAYOUT_SHARE * round_seconds));
        uint32_t k = want > SB_AUTO_ROUNDS_MAX ? SB_AUTO_ROUNDS_MAX : (uint32_t)want;
        r->layout_rounds = k < 2 ? 2 : k + k % 2;
    }
    return SB_OK;
}

/* A line after a round, at most every PROGRESS_SECONDS (and after the first and the last). */
#define PROGRESS_SECONDS 2.0

static void round_progress(struct runner *r, double round_seconds)
{
    const struct sb_schedule_params *s = &r->plan->schedule;
    double elapsed = sb_timer_now() - r->t0;

    if (r->quiet || (r->rounds_done > 1 && r->rounds_done < r->rounds_cap &&
                     elapsed - r->progress_at < PROGRESS_SECONDS))
        return;
    r->progress_at = elapsed;
    if (s->rounds)
        fprintf(stderr, "scanbench: round %u/%u done (%zu runs), %.0f s, about %.0f s left\n",
                r->rounds_done, s->rounds, r->plan->nruns, elapsed,
                round_seconds * (s->rounds - r->rounds_done));
    else
        fprintf(stderr, "scanbench: round %u done (%zu runs, repetitions auto: %u to %u, "
                "budget %.0f s), %.0f s\n", r->rounds_done, r->plan->nruns, SB_AUTO_ROUNDS_MIN,
                SB_AUTO_ROUNDS_MAX, s->time_budget, elapsed);
}

/* repetitions = auto: whether the time budget ends before a new layout would have its rounds
 * (timed: the rounds' seconds so far): the rounds then go on in the layout they have, rather
 * than draw one that a few rounds would weigh as much as the others. */
static bool budget_ends_layout(const struct runner *r, double from, double timed)
{
    const struct sb_schedule_params *s = &r->plan->schedule;
    double per_round = r->rounds_done ? timed / r->rounds_done : 0.0;

    return !s->rounds &&
           sb_timer_now() - from + (r->layout_rounds + 2.0) * per_round > s->time_budget;
}

/* repetitions = auto: the most of the run's time that asking whether it has settled may take
 * (the provisional analysis bootstraps every comparison over every round so far: at 700 rounds
 * it took 0.2 s, longer than the pair of rounds it followed). A pair of rounds after which the
 * asking has had its share goes on without asking. */
#define SETTLED_SHARE 0.05

/* Rounds until the planned number, or (auto) until settled, the budget (the next pair of rounds
 * would pass it) or the most. */
static int rounds(struct runner *r, struct sb_error *err)
{
    const struct sb_schedule_params *s = &r->plan->schedule;
    uint32_t *order = malloc((r->plan->nruns + 1) * sizeof *order);
    int status = order ? SB_OK : sb_fail(err, SB_ERR_RUN, "out of memory");
    double asking = 0.0; /* seconds spent asking whether the rounds have settled */
    double timed = 0.0;  /* seconds of the rounds themselves */
    double from = s->budget_rounds_only ? sb_timer_now() : r->t0; /* what the budget counts */

    r->stopped_by = s->rounds ? "rounds" : "max_rounds";
    while (status == SB_OK && r->rounds_done < r->rounds_cap) {
        double t, took;
        if (sb_schedule_draws_layouts(s) && r->rounds_done - r->layout_from >= r->layout_rounds &&
            !budget_ends_layout(r, from, timed))
            status = draw_layouts(r, timed / r->rounds_done, err);
        if (status != SB_OK)
            break;
        t = sb_timer_now();
        status = one_round(r, r->rounds_done, order, err);
        if (status != SB_OK)
            break;
        r->rounds_done++;
        took = sb_timer_now() - t;
        timed += took;
        round_progress(r, took);
        /* auto stops only after whole pairs of rounds (a shuffle and its reverse) */
        if (s->rounds || r->rounds_done < SB_AUTO_ROUNDS_MIN || r->rounds_done % 2)
            continue;
        t = sb_timer_now();
        if (asking <= SETTLED_SHARE * (t - r->t0)) {
            bool done = settled(r);
            asking += sb_timer_now() - t;
            if (done) {
                r->stopped_by = "precision";
                break;
            }
        }
        if (sb_timer_now() - from + 2.0 * took > s->time_budget) {
            r->stopped_by = "time_budget";
            break;
        }
    }
    free(order);
    return status;
}

static int interleaved(struct runner *r, struct sb_error *err)
{
    int status;

    if (!r->quiet)
        fprintf(stderr, "scanbench: preparing, validating and warming %zu runs and the "
                "reference (the first run's second instance)%s\n", r->plan->nruns,
                r->plan->schedule.layout == SB_LAYOUT_FIXED ? ""
                                                            : ", in a shuffled order");
    status = all_runs(r, STEP_PREPARE, 0, err);
    if (status == SB_OK)
        status = all_runs(r, STEP_VALIDATE, 0, err);
    if (status == SB_OK)
        status = all_runs(r, STEP_WARM, 0, err);
    if (status == SB_OK) {
        double t = sb_timer_now();
        status = rounds(r, err);
        r->rounds_seconds = sb_timer_now() - t;
    }
    return status;
}

/* Run i's pool check and summary, and its record in the report. */
static int record(struct runner *r, size_t i, struct sb_error *err)
{
    const struct sb_run_params *p = &r->plan->runs[i];
    struct sb_run_result *res;
    int status = step(r, i, STEP_FINISH, NULL, err);

    if (status != SB_OK)
        return status;
    res = sb_config_result(r->cfgs[i]);
    if (!res->iocache_placement.ok || !res->pool_placement.ok)
        fprintf(stderr, "scanbench: warning: %s: %s pages found elsewhere than asked (the "
                "report's placement)\n", p->name, res->iocache_placement.ok ? "pool" : "table");
    if (!(r->records[i] = sb_report_add_run(r->report, p, res, r->t0)))
        return sb_fail(err, SB_ERR_RUN, "%s: cannot add its record to the report", p->name);
    r->recorded[i] = true;
    return SB_OK;
}

/* Blocked: each run alone, its scans together; its tables kept while the next run uses them. */
static int blocked(struct runner *r, struct sb_error *err)
{
    int status = SB_OK;

    r->stopped_by = "rounds";
    for (size_t i = 0; i < r->plan->nruns && status == SB_OK; i++) {
        const struct sb_run_params *p = &r->plan->runs[i];
        if (!r->quiet)
            fprintf(stderr, "scanbench: run %zu/%zu: %s: op %s, policy %s, kernel %s ...\n",
                    i + 1, r->plan->nruns, p->name, p->op->name, p->policy->name,
                    p->kernel->name);
        for (size_t g = 0; g < r->ngroups; g++)
            if (g != r->group_of[i])
                group_destroy(&r->groups[g]);
        status = step(r, i, STEP_PREPARE, NULL, err);
        if (status == SB_OK)
            status = step(r, i, STEP_VALIDATE, NULL, err);
        if (status == SB_OK)
            status = step(r, i, STEP_WARM, NULL, err);
        for (uint32_t k = 0; status == SB_OK && k < r->rounds_cap; k++) {
            struct sb_scan_record rec = {.round = k, .position = 0};
            status = step(r, i, STEP_TIMED, &rec, err);
        }
        if (status == SB_OK)
            r->rounds_done = r->rounds_cap;
        if (status == SB_OK)
            status = record(r, i, err);
        sb_config_release(r->cfgs[i]);
        r->cfgs[i] = NULL;
    }
    return status;
}

/* --- the end: records, and why it stopped -------------------------------------------------- */

/* After a stop or a failure: the records of every other run with timed scans (a failure's run
 * itself is left out: its figures did not validate). */
static void record_the_rest(struct runner *r)
{
    for (size_t i = 0; i < r->plan->nruns; i++) {
        struct sb_error ignored = {0};
        if (r->recorded[i] || !r->cfgs[i] || sb_config_scans(r->cfgs[i]) == 0 ||
            (i == r->failed && !sb_stop_requested()))
            continue;
        if (record(r, i, &ignored) != SB_OK)
            fprintf(stderr, "scanbench: %s\n", ignored.msg);
    }
}

static size_t recorded(const struct runner *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->plan->nruns; i++)
        n += r->recorded[i];
    return n;
}

/* The emulated machine's predicted MB/s on each record (predict.h), once every run is done. */
static void predictions(struct runner *r)
{
    struct sb_run_result **results = calloc(r->plan->nruns ? r->plan->nruns : 1,
                                            sizeof *results);

    if (!results)
        return;
    for (size_t i = 0; i < r->plan->nruns; i++)
        results[i] = r->recorded[i] && r->cfgs[i] ? sb_config_result(r->cfgs[i]) : NULL;
    sb_predict_plan(r->plan, results, r->records);
    free(results);
}

/* The report marked incomplete; err says what stopped it and what was kept. */
static int stopped(struct runner *r, struct sb_error *err)
{
    const struct sb_plan *plan = r->plan;
    size_t i = r->failed < plan->nruns ? r->failed : 0, done = recorded(r);
    char why[800], kept[160];
    bool signal = sb_stop_signal() != 0, timeout = sb_watchdog_overran();

    if (signal)
        sb_stop_reason(why, sizeof why);
    else if (timeout) /* the watchdog knew the run's time left, not its run_timeout */
        snprintf(why, sizeof why, "run_timeout: run %zu/%zu %s ran longer than its run_timeout "
                 "of %g s", i + 1, plan->nruns, plan->runs[i].name, plan->runs[i].run_timeout);
    else
        snprintf(why, sizeof why, "error: %s", err->msg);
    sb_report_mark_interrupted(r->report, why, plan->runs[i].name, i + 1, plan->nruns);
    json_object_set_new(json_object_get(r->report, "interrupted"), "rounds_done",
                        json_integer(r->rounds_done));
    snprintf(kept, sizeof kept, "the report keeps %zu of %zu runs (%u whole rounds), marked "
             "incomplete", done, plan->nruns, r->rounds_done);
    if (signal)
        return sb_fail(err, SB_ERR_RUN, "interrupted (%s) during run %zu/%zu %s: %s", why, i + 1,
                       plan->nruns, plan->runs[i].name, kept);
    if (timeout) /* why without its "run_timeout: " */
        return sb_fail(err, SB_ERR_RUN, "%s: stopped; %s", strchr(why, ' ') + 1, kept);
    snprintf(why, sizeof why, "%s", err->msg);
    return sb_fail(err, err->status ? err->status : SB_ERR_RUN, "%s; %s", why, kept);
}

static int runner_init(struct runner *r, const struct sb_plan *plan, json_t *report, bool quiet,
                       struct sb_error *err)
{
    const size_t n = plan->nruns ? plan->nruns : 1;

    struct sb_topology topo;

    memset(r, 0, sizeof *r);
    r->plan = plan;
    r->ninstances = plan->nruns + (plan->schedule.kind == SB_SCHEDULE_INTERLEAVED && plan->nruns);
    r->layout_rounds = plan->schedule.layout_rounds ? plan->schedule.layout_rounds : 2;
    sb_runner_topology(plan, &topo);
    if (topo.cache[SB_L2].assoc.value)
        r->colour_bytes = topo.cache[SB_L2].size.value / topo.cache[SB_L2].assoc.value;
    r->report = report;
    r->quiet = quiet;
    r->failed = plan->nruns;
    r->t0 = sb_timer_now();
    r->rounds_cap = plan->schedule.rounds ? plan->schedule.rounds
                    : plan->schedule.kind == SB_SCHEDULE_BLOCKED ? SB_AUTO_ROUNDS_MIN
                                                                 : SB_AUTO_ROUNDS_MAX;
    r->cfgs = calloc(n + 1, sizeof *r->cfgs);
    r->recorded = calloc(n, sizeof *r->recorded);
    r->records = calloc(n, sizeof *r->records);
    r->used = calloc(n + 1, sizeof *r->used);
    r->reference = calloc(r->rounds_cap, sizeof *r->reference);
    if (!r->cfgs || !r->recorded || !r->records || !r->used || !r->reference)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    return groups_plan(r, err);
}

static void runner_free(struct runner *r)
{
    sb_aggressor_stop(r->aggressor); /* its thread ended, its buffers unmapped */
    r->aggressor = NULL;
    for (size_t i = 0; r->cfgs && i < r->ninstances; i++)
        sb_config_release(r->cfgs[i]);
    for (size_t g = 0; g < r->ngroups; g++) {
        group_destroy(&r->groups[g]);
        free(r->groups[g].tables);
    }
    free(r->groups);
    free(r->group_of);
    free(r->cfgs);
    free(r->recorded);
    free(r->records);
    free(r->used);
    free(r->reference);
}

/* require_counters=yes: the backend is opened once before anything runs (counters, events
 * and require_counters take one value, so every run has the same), so that counters that are
 * unavailable end the command (exit 3) before a table is built. */
static int check_required_counters(const struct sb_plan *plan, struct sb_error *err)
{
    struct sb_counters c;
    struct sb_counting counting;
    int status;

    if (plan->nruns == 0 || !plan->runs[0].require_counters)
        return SB_OK;
    sb_run_counting(&plan->runs[0], &counting);
    status = sb_counters_open(&c, plan->runs[0].counters, &counting, 1, err);
    sb_counters_close(&c);
    return status;
}

/* Key contention: the aggressor started, paused until the first timed scan (step). */
static int start_contention(struct runner *r, struct sb_error *err)
{
    const struct sb_aggressor_plan *c = &r->plan->contention;
    char size[32];

    if (c->kind == SB_CONTENTION_NONE)
        return SB_OK;
    if (!r->quiet)
        fprintf(stderr, "scanbench: contention: %s aggressor on CPU %d (%u x %s), during the "
                "timed scans\n", sb_contention_names[c->kind], c->cpu, c->buffers,
                sb_format_size(c->working_set_bytes, size, sizeof size));
    return sb_aggressor_start(&r->aggressor, c, err);
}

/* The schedule's layout block, and the reference's layouts. */
static void record_layouts(struct runner *r)
{
    json_t *schedule = json_object_get(r->report, "schedule");
    struct sb_config *ref = r->ninstances > r->plan->nruns ? r->cfgs[r->plan->nruns] : NULL;

    json_object_set_new(schedule, "layout",
                        sb_report_layout_json(&r->plan->schedule, r->layout + 1,
                                              r->layout_rounds, r->draws_seconds));
    if (ref)
        json_object_set_new(json_object_get(schedule, "reference"), "layouts",
                            sb_report_layouts_json(sb_config_result(ref), r->t0));
}

/* The schedule's contention block: what the aggressor did (paused now). */
static void record_contention(struct runner *r)
{
    struct sb_aggressor_result res;

    sb_aggressor_result(r->aggressor, &res);
    json_object_set_new(json_object_get(r->report, "schedule"), "contention",
                        sb_report_contention_json(&r->plan->contention, &res));
}

int sb_runner_run(const struct sb_plan *plan, json_t *report, bool quiet, struct sb_error *err)
{
    struct runner r;
    int status = check_required_counters(plan, err);

    if (status != SB_OK)
        return status;
    status = runner_init(&r, plan, report, quiet, err);
    sb_report_mark_complete(report);
    if (status == SB_OK && !quiet) {
        char estimate[256];
        sb_plan_estimate_text(plan, estimate, sizeof estimate);
        fprintf(stderr, "scanbench: %s\n", estimate);
    }
    if (status == SB_OK)
        status = start_contention(&r, err);
    if (status == SB_OK)
        status = plan->schedule.kind == SB_SCHEDULE_BLOCKED ? blocked(&r, err)
                                                            : interleaved(&r, err);
    for (size_t i = 0; status == SB_OK && i < plan->nruns; i++)
        if (!r.recorded[i])
            status = record(&r, i, err);
    if (status == SB_OK && r.ninstances > plan->nruns)
        status = step(&r, plan->nruns, STEP_FINISH, NULL, err); /* the reference's pool check */
    if (status != SB_OK && r.failed < plan->nruns) {
        record_the_rest(&r);
        status = stopped(&r, err);
    }
    predictions(&r);
    json_object_set_new(report, "schedule",
                        sb_report_schedule_json(plan, r.reference, r.nreference, r.rounds_done,
                                                r.stopped_by, r.t0));
    json_object_set_new(json_object_get(report, "schedule"), "seconds",
                        json_pack("{s:f, s:f}", "all", sb_timer_now() - r.t0, "rounds",
                                  r.rounds_seconds));
    record_layouts(&r);
    record_contention(&r);
    runner_free(&r);
    return status;
}
