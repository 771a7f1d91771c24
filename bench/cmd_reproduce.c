/* cmd_reproduce.c: `scanbench reproduce [NAME...|all] [--quick] [--pg] [-o DIR] [--set K=V]...`:
 * reruns the experiments of the 2007 thread (configs/experiments/NAME.ini with a [thread] section)
 * on this host, with the cache model's counters when it is built, and prints each in the
 * thread's layout beside the thread's figures, with a verdict; -o DIR (a new directory) keeps
 * one report per experiment and the printed text. Progress and an ETA go to stderr. With --pg,
 * each experiment also runs on a live PostgreSQL server (pg/runner.h), one throwaway cluster
 * for all of them: a `postgresql` column beside this host's figures. */
#include "config.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "core/core.h"
#include "counters/counters.h"
#include "pg/pg.h"
#include "plan/plan.h"
#include "render/render.h"
#include "report/report.h"
#include "reproduce_emulation.h"
#include "reproduce_search.h"
#include "run_args.h"
#include "runner/runner.h"
#include "stats/stats.h"
#include "setup.h"
#include "vocab/vocab.h"
#include "cachesim/cachesim.h"

#define MAX_EXPERIMENTS 64
/* What a reproduction may take (repetitions = auto): time_budget, else these, twice as much
 * with --twice. */
#define SB_FULL_BUDGET 600.0
#define SB_QUICK_BUDGET 60.0

struct reproduction {
    char names[MAX_EXPERIMENTS][64];
    int n;
    struct sb_setup setups[MAX_EXPERIMENTS]; /* each experiment read and planned */
    bool pg;   /* --pg: also on live PostgreSQL servers */
    const char *servers[SB_PG_SERVERS_MAX]; /* --server BINDIR..., in order */
    int nservers;
    struct sb_pg_session *sessions[SB_PG_SERVERS_MAX]; /* a cluster per server */
    int nsessions;
    bool quick; /* --quick */
    bool twice; /* --twice: every experiment's schedule twice, with different seeds */
    double budget; /* seconds all the rounds may take (time_budget, or the default) */
    struct sb_pg_jobs pg_jobs[MAX_EXPERIMENTS], pg_all;
    /* the thread's slow [0] and fast [1] pools scaled to this host (plan/scaling.h), run in
     * the same rounds; scaled_why says why an experiment has none */
    struct sb_scaled_pool scaled[MAX_EXPERIMENTS][2];
    bool has_scaled[MAX_EXPERIMENTS];
    char scaled_why[MAX_EXPERIMENTS][256];
    /* what each experiment was read from, and the sets applied (the emulation reads them
     * again) */
    char paths[MAX_EXPERIMENTS][1024];
    const char *sets[5 + 256];
    int nsets;
    json_t *emulations[MAX_EXPERIMENTS]; /* each experiment's emulation block */
    struct sb_machine_factors factors;    /* the core factor each machine was calibrated to */
};

/* The experiments that carry a [thread] section, by name, from the first configs directory
 * that has any, sorted. */
static int known_experiments(char names[][64], int max)
{
    const char *dirs[SB_CONFIGS_MAX_DIRS];
    int ndirs = sb_configs_dirs(dirs), n = 0;

    for (int d = 0; d < ndirs && n == 0; d++) {
        char path[1024];
        DIR *dir;
        struct dirent *e;
        snprintf(path, sizeof path, "%s/experiments", dirs[d]);
        if (!(dir = opendir(path)))
            continue;
        while ((e = readdir(dir)) != NULL && n < max) {
            size_t len = strlen(e->d_name);
            char file[1400];
            FILE *f;
            char line[256];
            bool thread = false;
            if (len < 5 || len >= 64 || strcmp(e->d_name + len - 4, ".ini") != 0)
                continue;
            snprintf(file, sizeof file, "%s/%s", path, e->d_name);
            if (!(f = fopen(file, "r")))
                continue;
            while (!thread && fgets(line, sizeof line, f))
                thread = strncmp(line, "[thread]", 8) == 0;
            fclose(f);
            if (thread) {
                memcpy(names[n], e->d_name, len - 4);
                names[n++][len - 4] = '\0';
            }
        }
        closedir(dir);
    }
    qsort(names, (size_t)n, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    return n;
}

static int pick(struct reproduction *r, int argc, char **argv, const char **sets, int *nsets,
                bool *quick, const char **outdir, struct sb_error *err)
{
    char known[MAX_EXPERIMENTS][64];
    int nknown = known_experiments(known, MAX_EXPERIMENTS);
    bool all = false;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *assignment;
        if (sb_args_take_set(argc, argv, &i, &assignment))
            sets[(*nsets)++] = assignment;
        else if (strcmp(a, "--quick") == 0)
            *quick = true;
        else if (strcmp(a, "--pg") == 0)
            r->pg = true;
        else if (strcmp(a, "--server") == 0 && i + 1 < argc) {
            if (r->nservers == SB_PG_SERVERS_MAX)
                return sb_fail(err, SB_ERR_INPUT, "--server %s: at most %d servers",
                               argv[i + 1], SB_PG_SERVERS_MAX);
            r->servers[r->nservers++] = argv[++i];
            r->pg = true; /* a server is measured: --pg */
        }
        else if (strcmp(a, "--twice") == 0)
            r->twice = true;
        else if (strcmp(a, "-o") == 0 && i + 1 < argc && *outdir)
            return sb_fail(err, SB_ERR_INPUT, "-o %s: -o given twice (already -o %s)",
                           argv[i + 1], *outdir);
        else if (strcmp(a, "-o") == 0 && i + 1 < argc)
            *outdir = argv[++i];
        else if (a[0] == '-')
            return sb_fail(err, SB_ERR_INPUT, "%s: unknown option (usage: scanbench reproduce "
                           SB_ARGS_REPRODUCE ")", a);
        else if (strcmp(a, "all") == 0)
            all = true;
        else {
            int k;
            char list[1024] = "";
            size_t used = 0;
            for (k = 0; k < nknown && strcmp(known[k], a) != 0; k++)
                ;
            if (k < nknown) {
                for (int j = 0; j < r->n; j++)
                    if (strcmp(r->names[j], a) == 0)
                        return sb_fail(err, SB_ERR_INPUT, "%s: experiment named twice", a);
                snprintf(r->names[r->n++], sizeof r->names[0], "%s", a);
                continue;
            }
            for (k = 0; k < nknown; k++)
                used += (size_t)snprintf(list + used, used < sizeof list ? sizeof list - used : 0,
                                         "%s%s", k ? ", " : "", known[k]);
            return sb_fail(err, SB_ERR_INPUT, "%s: unknown experiment (known: %s)", a,
                           nknown ? list : "none found: no configs/experiments directory");
        }
    }
    if (all || r->n == 0) {
        if (nknown == 0)
            return sb_fail(err, SB_ERR_INPUT, "no experiments found (configs/experiments/NAME.ini "
                           "with a [thread] section)");
        r->n = nknown;
        memcpy(r->names, known, sizeof known[0] * (size_t)nknown);
    }
    return SB_OK;
}

/* Whether the run writes into the placement the thread names ("clock 16MB"), as the verdict
 * finds runs by it (report/runs.h: the policy and its footprint). */
static bool has_placement(const struct sb_run_params *run, const char *placement)
{
    char size[32], name[64];

    sb_format_size(sb_policy_footprint(run->policy, run->pool_size, run->ring_size,
                                       run->page_size), size, sizeof size);
    snprintf(name, sizeof name, "%s %s", run->policy->name, size);
    return strcmp(name, placement) == 0;
}

/* The [thread] section's slow and fast placements must each be a run of every op the plan runs
 * (after --quick and --set): else the verdict leaves the op out without a word. */
static int check_thread_placements(const struct reproduction *r, int i, struct sb_error *err)
{
    const struct sb_plan *plan = &r->setups[i].plan;
    const struct sb_thread *thread = &r->setups[i].exp.thread;
    const char *const placements[2] = {thread->slow, thread->fast};

    for (size_t a = 0; a < plan->nruns; a++) {
        const char *op = plan->runs[a].op->name;
        for (int p = 0; p < 2; p++) {
            bool found = !placements[p][0];
            for (size_t b = 0; b < plan->nruns && !found; b++)
                found = strcmp(plan->runs[b].op->name, op) == 0 &&
                        has_placement(&plan->runs[b], placements[p]);
            if (!found)
                return sb_fail(err, SB_ERR_INPUT, "%s: [thread] %s = %s: no run of op %s has "
                               "that placement (the verdict compares slow and fast)",
                               r->setups[i].exp.source, p ? "fast" : "slow", placements[p], op);
        }
    }
    return SB_OK;
}

/* A thread placement "clock 16MB" as its policy and its pool (only policies whose footprint is
 * the pool are scaled); false otherwise. */
static bool placement_pool(const char *placement, uint64_t *bytes)
{
    char policy[32], size[32];
    const struct sb_policy *p;

    if (sscanf(placement, "%31s %31s", policy, size) != 2 || !sb_parse_size(size, bytes))
        return false;
    p = sb_policy_find(policy);
    return p && sb_policy_footprint(p, *bytes, 0, SB_MACHINE_PAGE) == *bytes;
}

/* The scaled pools of experiment i, from the thread machine's L2 and this host's L2 and last
 * level (its topology as planned); false with scaled_why said when there are none. */
static bool scale_pools(struct reproduction *r, int i, const struct sb_mem_limit *limit)
{
    const struct sb_thread *th = &r->setups[i].exp.thread;
    const struct sb_topology *topo = &r->setups[i].topo;
    uint64_t host_l2 = topo->cache[SB_L2].size.value, l3 = topo->cache[SB_L3].size.value;
    uint64_t pools[2], cap = SB_SCALE_SCATTER_CAP;
    struct sb_machine m;
    struct sb_error err = {0};
    char *why = r->scaled_why[i];
    const char *placements[2] = {th->slow, th->fast};

    if (!th->present || !th->machine[0] || !th->slow[0] || !th->fast[0]) {
        snprintf(why, sizeof r->scaled_why[0], "the [thread] section names no machine, or no "
                 "slow and fast placements");
        return false;
    }
    if (!host_l2) {
        snprintf(why, sizeof r->scaled_why[0], "this host's L2 size is unknown");
        return false;
    }
    if (sb_machine_load(th->machine, &m, &err) != SB_OK || m.config.nlevels < 2) {
        snprintf(why, sizeof r->scaled_why[0], "machine %s: %s", th->machine,
                 err.msg[0] ? err.msg : "no L2");
        return false;
    }
    for (int k = 0; k < 2; k++)
        if (!placement_pool(placements[k], &pools[k])) {
            snprintf(why, sizeof r->scaled_why[0], "%s: not a pool size to scale",
                     placements[k]);
            return false;
        }
    if (limit->bytes > 0 && limit->bytes / 4 < cap)
        cap = limit->bytes / 4;
    for (int k = 0; k < 2; k++)
        sb_scale_pool(pools[k], m.config.level[1].size, k == 0, host_l2, l3 ? l3 : host_l2,
                      l3 ? "L3" : "L2", cap, SB_MACHINE_PAGE, &r->scaled[i][k]);
    return true;
}

/* --quick: the runs only the scaled column needs are timed without the cache model's replay
 * (counters = none): the replay of a scattered pool is most of their time outside the rounds,
 * and the scaled column shows MB/s only. */
static void uncount_scaled(struct reproduction *r, int i)
{
    struct sb_plan *plan = &r->setups[i].plan;
    const struct sb_thread *th = &r->setups[i].exp.thread;

    for (size_t j = 0; j < plan->nruns; j++) {
        struct sb_run_params *run = &plan->runs[j];
        bool scaled = false;
        for (int k = 0; k < 2; k++) {
            char size[32], here[64];
            snprintf(here, sizeof here, "clock %s",
                     sb_format_size(r->scaled[i][k].bytes, size, sizeof size));
            scaled |= has_placement(run, here);
        }
        if (scaled && !has_placement(run, th->slow) && !has_placement(run, th->fast))
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
static int replan_pools(struct reproduction *r, int i, const char *set,
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
static int add_scaled_runs(struct reproduction *r, int i, const struct sb_mem_limit *limit,
                           struct sb_error *err)
{
    struct sb_setup *s = &r->setups[i];
    const struct sb_setting *pool = &s->exp.settings[SB_K_POOL_SIZE];
    char set[2048] = "pool_size=", word[32];
    size_t used = strlen(set);
    bool added = false;

    if (!(r->has_scaled[i] = scale_pools(r, i, limit)))
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
static int quick_trim_sweep(struct reproduction *r, int i, const struct sb_mem_limit *limit,
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
    placement_pool(s->exp.thread.slow, &keep[0]);
    placement_pool(s->exp.thread.fast, &keep[1]);
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

/* The report's thread.scaled block of experiment i: each scaled placement and how, or why
 * there is none. */
static json_t *scaled_json(const struct reproduction *r, int i)
{
    const char *roles[2] = {"slow", "fast"};
    const struct sb_thread *th = &r->setups[i].exp.thread;
    json_t *block;

    if (!r->has_scaled[i])
        return json_pack("{s:b, s:s}", "available", 0, "why", r->scaled_why[i]);
    block = json_pack("{s:b, s:s}", "available", 1, "why", "");
    for (int k = 0; k < 2; k++) {
        const struct sb_scaled_pool *sp = &r->scaled[i][k];
        char size[32], placement[64];
        snprintf(placement, sizeof placement, "clock %s",
                 sb_format_size(sp->bytes, size, sizeof size));
        json_object_set_new(block, roles[k], json_pack(
            "{s:s, s:s, s:I, s:f, s:b, s:b, s:s}", "thread", k ? th->fast : th->slow,
            "here", placement, "bytes", (json_int_t)sp->bytes, "ratio_to_l2", sp->ratio,
            "scattered", sp->scattered, "beyond_llc", sp->beyond_llc, "how", sp->how));
    }
    return block;
}

/* Reads and plans every experiment before running any, so bad input stops everything: each
 * file, then repetitions=auto, --quick's sets, the cache model's counters when built, and the
 * command line's --set, in that order. */
static int prepare(struct reproduction *r, const char **sets, int nsets, bool quick,
                   struct sb_error *err)
{
    /* --quick: 64MB tables, no warm-up, timed scans of 15 ms: the 88 runs' 10 rounds take about
     * 15 s of timed scans, and the whole reproduction (tables, validation, the cache model's
     * replays) fits its 60 s */
    static const char *const quick_sets[] = {"table_size=64M", "warmup=0", "min_scan_ms=15"};
    const char *all_sets[5 + 256];
    int nall = 0, status = SB_OK;
    struct sb_mem_limit limit;

    r->quick = quick;
    all_sets[nall++] = "repetitions=auto";
    for (size_t q = 0; quick && q < sizeof quick_sets / sizeof *quick_sets; q++)
        all_sets[nall++] = quick_sets[q];
    if (sb_counter_backend_find("sim"))
        all_sets[nall++] = "counters=sim";
    for (int s = 0; s < nsets; s++)
        all_sets[nall++] = sets[s];
    sb_mem_limit_read(&limit, "", "");
    for (int i = 0; i < r->n && status == SB_OK; i++) {
        char *path = r->paths[i];
        status = sb_configs_find("experiments", r->names[i], path, sizeof r->paths[0], err);
        if (status == SB_OK)
            status = sb_setup_read(&r->setups[i], path, all_sets, nall, err);
        if (status == SB_OK)
            status = sb_setup_plan(&r->setups[i], &limit, err);
        if (status == SB_OK && quick)
            status = quick_trim_sweep(r, i, &limit, err);
        if (status == SB_OK)
            status = add_scaled_runs(r, i, &limit, err);
        if (status == SB_OK)
            status = check_thread_placements(r, i, err);
    }
    memcpy(r->sets, all_sets, sizeof all_sets[0] * (size_t)nall);
    r->nsets = nall;
    r->quick = quick;
    r->budget = (quick ? SB_QUICK_BUDGET : SB_FULL_BUDGET) * (r->twice ? 2.0 : 1.0);
    if (status == SB_OK && r->n > 0 &&
        strncmp(r->setups[0].exp.settings[SB_K_TIME_BUDGET].origin, "--set", 5) == 0)
        r->budget = r->setups[0].plan.schedule.time_budget;
    return status;
}

/* Writes text as DIR/name without replacing anything (outdir.h), saying on stderr when the
 * name appeared during the run or the files had to move to a new directory. */
static int save_text(struct sb_outdir *dir, const char *name, const char *text, const char *what,
                     struct sb_error *err)
{
    char used[SB_OUTFILE_MAX], asked[SB_OUTFILE_MAX + 64];
    int status = sb_outdir_write(dir, name, text, strlen(text), used, err);

    if (dir->note[0])
        fprintf(stderr, "scanbench: %s\n", dir->note);
    dir->note[0] = '\0';
    snprintf(asked, sizeof asked, "%s/%s", dir->path, name);
    if (status == SB_OK && strcmp(asked, used) != 0)
        fprintf(stderr, "scanbench: %s appeared during the run; the %s is kept as %s\n", asked,
                what, used);
    return status;
}

/* The experiment's report as DIR/NAME.json. */
static int save_report(struct sb_outdir *dir, const char *name, json_t *report,
                       struct sb_error *err)
{
    char file[128], *text = sb_report_text(report);
    int status;

    if (!text)
        return sb_fail(err, SB_ERR_RUN, "%s: out of memory for the report", name);
    snprintf(file, sizeof file, "%s.json", name);
    status = save_text(dir, file, text, "report", err);
    free(text);
    return status;
}

/* --pg: the server measurements of every experiment (pools below PostgreSQL's minimum left out
 * with a note), and a cluster per server (each --server, else the one found) to make them,
 * opened before any run; the same server twice is bad input. */
static int open_pg(struct reproduction *r, struct sb_error *err)
{
    char why[256];
    int status = SB_OK;

    if (!sb_pg_built(why, sizeof why))
        return sb_fail(err, SB_ERR_INPUT, "--pg: %s", why);
    for (int i = 0; i < r->n && status == SB_OK; i++) {
        status = sb_pg_jobs_build(&r->setups[i].plan, &r->setups[i].exp, false, &r->pg_jobs[i],
                                  err);
        if (status == SB_OK)
            status = sb_pg_jobs_append(&r->pg_all, &r->pg_jobs[i], err);
    }
    if (status == SB_OK && r->nservers) {
        static char versions[SB_PG_SERVERS_MAX][SB_PG_VERSION_MAX];
        status = sb_pg_servers_find(r->servers, (size_t)r->nservers, versions, err);
    }
    for (int v = 0; v < (r->nservers ? r->nservers : 1) && status == SB_OK; v++) {
        status = sb_pg_session_open(&r->sessions[v], r->nservers ? r->servers[v] : NULL,
                                    &r->pg_all, false, err);
        r->nsessions = v + 1;
    }
    return status;
}

/* The experiment's server runs on every server, one after another, as the report's
 * `postgresql` block: the first server's {server, runs, notes}, and with several `servers`,
 * one such block each (when stopped, the runs finished). */
static int add_pg_runs(struct reproduction *r, int i, json_t *report, struct sb_error *err)
{
    json_t *servers = json_array(), *first = NULL;
    int status = SB_OK;

    for (int v = 0; v < r->nsessions && (status == SB_OK); v++) {
        json_t *runs = json_array();
        status = sb_pg_session_run(r->sessions[v], &r->pg_jobs[i], runs, true, err);
        if (status == SB_OK || sb_stop_requested())
            json_array_append_new(servers, json_pack("{s:o, s:o, s:s}", "server",
                                                     sb_pg_session_json(r->sessions[v]), "runs",
                                                     runs, "notes", r->pg_jobs[i].notes));
        else
            json_decref(runs);
    }
    first = json_array_get(servers, 0);
    if (first) {
        json_t *block = json_deep_copy(first);
        if (r->nsessions > 1)
            json_object_set(block, "servers", servers);
        json_object_set_new(report, "postgresql", block);
    }
    json_decref(servers);
    return status;
}

/* The part of the budget the rounds are planned to: the rest is for what the estimate of the
 * time outside the rounds misses (the first experiment has none; pools differ in size). */
#define BUDGET_PLANNED 0.9

/* The questions experiment i's rounds answer, about as the analysis will ask them: per op, the
 * thread's fast against slow, again at this host's scale where it has scaled pools, and a
 * clock sweep's knee where the op has at least SB_KNEE_MIN_POINTS clock runs. */
static unsigned questions_of(const struct reproduction *r, int i)
{
    const struct sb_plan *plan = &r->setups[i].plan;
    const struct sb_thread *th = &r->setups[i].exp.thread;
    unsigned n = 0;

    for (const struct sb_op *o = sb_ops; o->name; o++) {
        bool slow = false, fast = false;
        size_t clock = 0;
        for (size_t j = 0; j < plan->nruns; j++) {
            const struct sb_run_params *run = &plan->runs[j];
            if (strcmp(run->op->name, o->name) != 0)
                continue;
            slow |= th->slow[0] && has_placement(run, th->slow);
            fast |= th->fast[0] && has_placement(run, th->fast);
            clock += strcmp(run->policy->name, "clock") == 0;
        }
        n += (unsigned)(slow && fast) * (r->has_scaled[i] ? 2u : 1u);
        n += clock >= SB_KNEE_MIN_POINTS;
    }
    return n;
}

/* The seconds an experiment's schedule may take: its share (by the questions it answers) of what
 * is left, less what the runs left will spend outside their rounds (building tables,
 * validating, the cache model's replays, the emulation), as the experiments so far spent it
 * per run. An experiment that answers nothing gets its least rounds (SB_AUTO_ROUNDS_MIN). */
static double budget_of(const struct reproduction *r, unsigned questions, double t0,
                        size_t runs_left, unsigned questions_left, double outside_per_run)
{
    double left = r->budget * BUDGET_PLANNED - (sb_timer_now() - t0) -
                  outside_per_run * (double)runs_left * (r->twice ? 2.0 : 1.0);
    double share = questions_left ? (double)questions / (double)questions_left : 1.0;
    return (left > 0 ? left : 1.0) * share / (r->twice ? 2.0 : 1.0);
}

/* The seconds of a pass that took `elapsed` spent outside its rounds (its report's schedule
 * block): building tables, validating, the cache model's replays, the emulation, the verdict. */
static double outside_rounds(const json_t *report, double elapsed)
{
    const json_t *s = json_object_get(json_object_get(report, "schedule"), "seconds");
    double rounds = json_number_value(json_object_get(s, "rounds"));
    return elapsed > rounds ? elapsed - rounds : 0.0;
}

/* Experiment i's thread machine emulated (its prediction and the attribution), once: when its
 * plan names no calibration of its own, an experiment that calibrates the same machine is
 * emulated first, so that i can borrow its machine's core factor (one per machine). */
static int emulate(struct reproduction *r, int i, struct sb_error *err)
{
    const struct sb_setup *s = &r->setups[i];
    int status = SB_OK;
    json_t *holder;

    if (r->emulations[i])
        return SB_OK;
    for (int j = 0; j < r->n && status == SB_OK && !s->plan.calibration.present; j++)
        if (j != i && r->setups[j].plan.calibration.present &&
            strcmp(r->setups[j].exp.thread.machine, s->exp.thread.machine) == 0)
            status = emulate(r, j, err);
    if (status != SB_OK)
        return status;
    if (!(holder = json_object()))
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    json_object_set_new(holder, "thread", sb_thread_json(&s->exp.thread));
    if (s->exp.thread.machine[0])
        fprintf(stderr, "scanbench: emulating %s for %s\n", s->exp.thread.machine, r->names[i]);
    status = sb_reproduce_emulate(r->paths[i], r->sets, r->nsets, r->quick, s, &r->factors,
                                  holder, err);
    if (status == SB_OK)
        r->emulations[i] = json_incref(json_object_get(holder, "emulation"));
    json_decref(holder);
    return status;
}

/* One schedule of experiment i (pass 1: --twice's second, another seed): runs, its --pg server
 * runs, the analysis and the verdict. The report is set even when it fails. */
static int reproduce_one(struct reproduction *r, int i, int pass, double budget, json_t **out,
                         struct sb_error *err)
{
    struct sb_setup *s = &r->setups[i];
    json_t *report;
    int status;

    s->plan.schedule.time_budget = budget;
    s->plan.schedule.budget_rounds_only = true; /* budget_of left out the time outside them */
    s->plan.schedule.seed += (uint64_t)pass;
    report = *out = sb_setup_report(s, "scanbench reproduce");
    if (!report)
        return sb_fail(err, SB_ERR_RUN, "cannot build the report");
    json_object_set_new(report, "thread", sb_thread_json(&s->exp.thread));
    json_object_set_new(json_object_get(report, "thread"), "scaled", scaled_json(r, i));
    status = sb_runner_run(&s->plan, report, true, err);
    /* the thread's machine emulated (before any rounds, once: it has no noise to show twice) */
    if (pass == 0 && r->emulations[i])
        json_object_set(report, "emulation", r->emulations[i]);
    if (status == SB_OK && json_object_get(report, "thread"))
        json_object_set_new(report, "buffer_search", sb_reproduce_buffer_search(report));
    if (status == SB_OK && r->nsessions && pass == 0)
        status = add_pg_runs(r, i, report, err);
    json_object_set_new(report, "analysis", sb_analysis_build(report));
    json_object_set_new(report, "verdict",
                        sb_verdict_build(report, json_object_get(report, "analysis")));
    return status;
}

/* Saves a report as DIR/NAME.json (NAME.2.json for --twice's second); a failure after a stop
 * is said, not returned (the stop's status stands). */
static int keep_report(struct sb_outdir *dir, const char *name, int pass, json_t *report,
                       int status, struct sb_error *err)
{
    char file[96];
    struct sb_error write_err = {0};

    if (!dir)
        return status;
    snprintf(file, sizeof file, "%s%s", name, pass ? ".2" : "");
    return sb_setup_settle_write(status, save_report(dir, file, report, &write_err), &write_err,
                                 err);
}

/* --twice: whether experiment name's two schedules agree, said in out and kept in the second
 * report (its `reproducibility`). */
static void say_reproducible(FILE *out, const char *name, json_t *first, json_t *second)
{
    char why[2048];
    bool same = sb_reproducible(json_object_get(first, "analysis"),
                                json_object_get(second, "analysis"), why, sizeof why);

    bool vacuous = same && !sb_analysis_decided(json_object_get(first, "analysis")) &&
                   !sb_analysis_decided(json_object_get(second, "analysis"));
    json_int_t seed = json_integer_value(json_object_get(json_object_get(first, "schedule"),
                                                         "seed"));

    if (vacuous)
        fprintf(out, "\n%s: REPRODUCIBLE only vacuously: neither schedule decided anything "
                     "(every call inconclusive, no clear knee)\n", name);
    else
        fprintf(out, "\n%s: %s%s\n", name, same ? "REPRODUCIBLE" : "NOT REPRODUCIBLE: ",
                same ? " (its two schedules agree on every comparison and knee)" : why);
    json_object_set_new(second, "reproducibility",
                        json_pack("{s:b, s:b, s:I, s:s}", "reproducible", same, "vacuous",
                                  vacuous, "first_seed", seed, "why", same ? "" : why));
}

/* Where the reproduction stands: the runs left and done, and the seconds spent outside the
 * rounds so far (for each experiment's share of the budget). */
struct progress {
    size_t runs_left, runs_done;
    unsigned questions_left;
    double t0, outside;
};

/* One schedule of experiment i (pass 1: --twice's second): run, printed into out with its
 * verdict (and, after the second, whether the two agree), counted into t, its report kept. */
static int reproduce_pass(struct reproduction *r, int i, int pass, double budget, FILE *out,
                          struct sb_outdir *dir, json_t *reports[2],
                          struct sb_reproduction_tally *t, struct sb_error *err)
{
    int status = reproduce_one(r, i, pass, budget, &reports[pass], err);
    bool stopped = status != SB_OK && sb_stop_requested();

    if (status == SB_OK && i == r->n - 1 && pass == (r->twice ? 1 : 0))
        sb_stop_work_done(); /* a signal from now on changes nothing */
    if (status == SB_OK || stopped) {
        fprintf(out, "%s", i || pass ? "\n" : "");
        if (stopped)
            fprintf(out, "== %s: interrupted: %s\n", r->names[i], err->msg);
        sb_render_reproduction(out, reports[pass]);
    }
    if (pass == 1 && status == SB_OK)
        say_reproducible(out, r->names[i], reports[0], reports[1]);
    if (status == SB_OK || stopped)
        sb_reproduction_tally_add(t, reports[pass]);
    fflush(out);
    if (reports[pass] && (status == SB_OK || stopped))
        status = keep_report(dir, r->names[i], pass, reports[pass], status, err);
    return status;
}

/* Every experiment (twice with --twice), its table and verdict into out, its reports saved. */
static int reproduce_all(struct reproduction *r, FILE *out, struct sb_outdir *dir,
                         struct sb_reproduction_tally *t, struct sb_error *err)
{
    struct progress p = {0, 0, 0, sb_timer_now(), 0.0};
    int status = SB_OK;

    for (int i = 0; i < r->n; i++) {
        p.runs_left += r->setups[i].plan.nruns;
        p.questions_left += questions_of(r, i);
    }
    /* every thread machine emulated first: its cost (the x4500's took 3.5 s a run of its
     * experiments against 1 s for the rest of what lies outside the rounds) is then spent, not
     * estimated, when the rounds' shares are made */
    for (int i = 0; i < r->n && status == SB_OK; i++)
        status = emulate(r, i, err);
    for (int i = 0; i < r->n && status == SB_OK; i++) {
        json_t *reports[2] = {NULL, NULL};
        size_t nruns = r->setups[i].plan.nruns;
        unsigned questions = questions_of(r, i);
        double budget = budget_of(r, questions, p.t0, p.runs_left, p.questions_left,
                                  p.runs_done ? p.outside / p.runs_done : 0.0);
        fprintf(stderr, "scanbench: experiment %d/%d: %s (%zu runs, %u questions, up to %.0f s "
                "of rounds%s)\n", i + 1, r->n, r->names[i], nruns, questions, budget,
                r->twice ? ", twice" : "");
        for (int pass = 0; pass < (r->twice ? 2 : 1) && status == SB_OK; pass++) {
            double start = sb_timer_now();
            status = reproduce_pass(r, i, pass, budget, out, dir, reports, t, err);
            if (reports[pass]) {
                p.outside += outside_rounds(reports[pass], sb_timer_now() - start);
                p.runs_done += nruns;
            }
        }
        json_decref(reports[0]);
        json_decref(reports[1]);
        p.runs_left -= nruns;
        p.questions_left -= questions;
    }
    return status;
}

/* Everything before the first run: the command line, every experiment read and planned, the
 * output directory made, the signals caught, the --pg cluster started. */
static int start(struct reproduction *r, int argc, char **argv, const char **outdir,
                 struct sb_outdir *dir, struct sb_error *err)
{
    const char *sets[256];
    int nsets = 0, status;
    bool quick = false;

    if (argc > 256)
        return sb_fail(err, SB_ERR_INPUT, "too many arguments");
    status = pick(r, argc, argv, sets, &nsets, &quick, outdir, err);
    if (status == SB_OK)
        status = prepare(r, sets, nsets, quick, err);
    if (status == SB_OK && *outdir)
        status = sb_outdir_create(dir, *outdir, err);
    /* a signal (INT, TERM, HUP, QUIT) and the watchdog stop the reproduction between scans
     * (lib/core/stop.h), with --pg also the server's statement in flight */
    if (status == SB_OK)
        sb_stop_install();
    if (status == SB_OK && r->pg)
        status = open_pg(r, err);
    return status;
}

/* The reproduction's text on stdout and, with -o, as DIR/reproduction.txt. */
static int print_text(const char *text, struct sb_outdir *dir, int status, struct sb_error *err)
{
    struct sb_error write_err = {0};

    fputs(text, stdout);
    if (!dir)
        return status;
    return sb_setup_settle_write(status, save_text(dir, "reproduction.txt", text, "text",
                                                   &write_err), &write_err, err);
}

int sb_cmd_reproduce(int argc, char **argv)
{
    static struct reproduction r;
    static struct sb_outdir dir;
    const char *outdir = NULL;
    struct sb_error err = {0};
    struct sb_reproduction_tally t = {0};
    char *text = NULL;
    size_t text_len = 0;
    FILE *out = NULL;
    double t0 = sb_timer_now();
    int status;

    memset(&r, 0, sizeof r);
    status = start(&r, argc, argv, &outdir, &dir, &err);
    if (status == SB_OK && !(out = open_memstream(&text, &text_len)))
        status = sb_fail(&err, SB_ERR_RUN, "out of memory");
    if (status != SB_OK)
        goto out;
    status = reproduce_all(&r, out, outdir ? &dir : NULL, &t, &err);
    if (status == SB_OK)
        sb_render_reproduction_overall(out, &t);
    fflush(out);
    if (status == SB_OK || sb_stop_requested())
        status = print_text(text, outdir ? &dir : NULL, status, &err);
    else
        fputs(text, stdout); /* a failure: what was done still reaches stdout */
    if (status == SB_OK && outdir && dir.kept)
        status = sb_fail(&err, SB_ERR_RUN, "%s does not hold every result: from the first that "
                         "could not be written there on, they are kept in %s", dir.asked,
                         dir.path);
    if (status == SB_OK)
        fprintf(stderr, "scanbench: reproduced %d experiments in %.0f s%s%s\n", r.n,
                sb_timer_now() - t0, outdir ? ", reports in " : "", outdir ? dir.path : "");
    if (status == SB_OK && sb_timer_now() - t0 > r.budget * 1.05)
        fprintf(stderr, "scanbench: over its budget of %.0f s: this host could not meet it "
                "(every experiment runs at least %d rounds, and the time outside the rounds, "
                "the tables, pools, validation and replays, is spent whatever the budget)\n",
                r.budget, SB_AUTO_ROUNDS_MIN);
out:
    for (int v = 0; v < r.nsessions; v++)
        sb_pg_session_close(r.sessions[v]);
    if (status != SB_OK)
        fprintf(stderr, "scanbench: %s\n", err.msg);
    if (out)
        fclose(out);
    free(text);
    for (int i = 0; i < MAX_EXPERIMENTS; i++) {
        sb_setup_free(&r.setups[i]);
        sb_pg_jobs_free(&r.pg_jobs[i]);
        json_decref(r.emulations[i]);
    }
    sb_pg_jobs_free(&r.pg_all);
    sb_stop_finish(); /* after every cleanup: a signal received ends the process here */
    return status;
}
