/* runner.c: running a plan's runs into a report. */
#include "config.h"
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>

#include "iocache.h"
#include "report.h"
#include "scan.h"
#include "stop.h"
#include "threads.h"
#include "units.h"

void sb_runner_topology(const struct sb_plan *plan, struct sb_topology *topo)
{
    sb_topology_detect(topo, "");
    for (int l = 0; l < SB_NLEVELS; l++)
        if (plan->override_size[l])
            sb_topology_override_size(topo, l, plan->override_size[l]);
    if (plan->override_line)
        sb_topology_override_line(topo, plan->override_line);
}

/* The tables run p scans are already built (a sweep builds them once). */
static bool tables_serve(const struct sb_iocache *tables, uint32_t ntables,
                         const struct sb_run_params *p)
{
    if (ntables != sb_run_tables(p))
        return false;
    for (uint32_t t = 0; t < ntables; t++)
        if (!sb_iocache_serves(&tables[t], p))
            return false;
    return true;
}

static void tables_destroy(struct sb_iocache *tables, uint32_t *ntables)
{
    for (uint32_t t = 0; t < *ntables; t++)
        sb_iocache_destroy(&tables[t]);
    *ntables = 0;
}

/* Builds run p's tables (each placed for the scanner that reads it). */
static int tables_build(struct sb_iocache *tables, uint32_t *ntables,
                        const struct sb_run_params *p, bool quiet, struct sb_error *err)
{
    uint32_t want = sb_run_tables(p);
    char size[32];

    tables_destroy(tables, ntables);
    if (!quiet) {
        char count[32] = "the";
        if (want > 1)
            snprintf(count, sizeof count, "%u", want);
        fprintf(stderr, "scanbench: %s %s %s table%s %s%s\n",
                p->source->is_file ? "writing" : "building", count,
                sb_format_size(p->table_size, size, sizeof size), want > 1 ? "s" : "",
                !p->source->is_file ? "in the IO cache"
                : want > 1         ? "into scratch files in "
                                   : "into a scratch file in ",
                p->source->is_file ? p->data_dir : "");
    }
    sb_stop_test_pause("build");
    for (; *ntables < want; (*ntables)++) {
        int status = sb_iocache_build(&tables[*ntables], p, sb_threads_home_node(p, *ntables),
                                      err);
        if (status != SB_OK)
            return status;
    }
    return SB_OK;
}

/* require_counters=yes: the backend is opened once before anything runs (counters, events
 * and require_counters take one value, so every run has the same), so that counters that are
 * unavailable end the command (exit 3) before a table is built. */
static int check_required_counters(const struct sb_plan *plan, struct sb_error *err)
{
    struct sb_counters c;
    int status;

    if (plan->nruns == 0 || !plan->runs[0].require_counters)
        return SB_OK;
    status = sb_counters_open(&c, plan->runs[0].counters, &plan->runs[0], 1, err);
    sb_counters_close(&c);
    return status;
}

/* A signal or the watchdog stopped run i (lib/stop.h): the report keeps the runs before it and
 * says which one was stopped; err says it in words. */
static int stopped(const struct sb_plan *plan, size_t i, json_t *report, struct sb_error *err)
{
    char why[320], planned[64] = "";
    size_t done = json_array_size(json_object_get(report, "runs"));

    sb_stop_reason(why, sizeof why);
    sb_report_mark_interrupted(report, why, plan->runs[i].name, i + 1, plan->nruns);
    if (plan->nruns > done + 1)
        snprintf(planned, sizeof planned, "; %zu more not run", plan->nruns - done - 1);
    if (sb_stop_signal())
        return sb_fail(err, SB_ERR_RUN, "interrupted (%s) during run %zu/%zu %s: the report "
                       "keeps the %zu runs finished, marked incomplete%s", why, i + 1,
                       plan->nruns, plan->runs[i].name, done, planned);
    return sb_fail(err, SB_ERR_RUN, "run %zu/%zu %s ran longer than its run_timeout of %.0f s: "
                   "stopped; the report keeps the %zu runs finished, marked incomplete%s", i + 1,
                   plan->nruns, plan->runs[i].name, plan->runs[i].run_timeout, done, planned);
}

int sb_runner_run(const struct sb_plan *plan, json_t *report, bool quiet, struct sb_error *err)
{
    struct sb_iocache *tables = calloc(SB_MAX_THREADS, sizeof *tables);
    uint32_t ntables = 0;
    int status = tables ? check_required_counters(plan, err)
                        : sb_fail(err, SB_ERR_RUN, "out of memory");

    sb_report_mark_complete(report);
    for (size_t i = 0; i < plan->nruns && status == SB_OK; i++) {
        const struct sb_run_params *p = &plan->runs[i];
        struct sb_run_result res = {0};
        char what[320];

        /* the watchdog bounds the run, its table's build included */
        snprintf(what, sizeof what, "run %zu/%zu %s", i + 1, plan->nruns, p->name);
        sb_watchdog_arm(p->run_timeout, what);
        status = sb_stop_check(err);
        if (status != SB_OK) {
            status = stopped(plan, i, report, err);
            break;
        }
        if (!tables_serve(tables, ntables, p)) {
            status = tables_build(tables, &ntables, p, quiet, err);
            if (status != SB_OK)
                break;
        }
        if (!quiet)
            fprintf(stderr, "scanbench: run %zu/%zu: %s: op %s, policy %s, kernel %s ...",
                    i + 1, plan->nruns, p->name, p->op->name, p->policy->name, p->kernel->name);
        status = sb_run_concurrent(p) ? sb_scan_run_concurrent(p, tables, &res, err)
                                      : sb_scan_run(p, &tables[0], &res, err);
        sb_watchdog_disarm();
        if (status == SB_OK) {
            if (!quiet)
                fprintf(stderr, " %.0f MB/s median, validation ok\n", res.mbps.median);
            if (!res.iocache_placement.ok || !res.pool_placement.ok)
                fprintf(stderr, "scanbench: warning: %s: %s pages found elsewhere than asked "
                        "(the report's placement)\n", p->name,
                        res.iocache_placement.ok ? "pool" : "table");
            sb_report_add_run(report, p, &res);
        } else if (!quiet) {
            fprintf(stderr, " %s\n", sb_stop_requested() ? "stopped" : "failed");
        }
        sb_run_result_free(&res);
        if (status != SB_OK && sb_stop_requested())
            status = stopped(plan, i, report, err);
    }
    sb_watchdog_disarm();
    if (tables)
        tables_destroy(tables, &ntables);
    free(tables);
    return status;
}
