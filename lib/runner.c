/* runner.c: running a plan's runs into a report. */
#include "config.h"
#include "runner.h"

#include <stdio.h>

#include "iocache.h"
#include "report.h"
#include "scan.h"
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

static bool same_table(const struct sb_iocache *ioc, const struct sb_run_params *p)
{
    return ioc->pages && ioc->npages * ioc->page_size == p->table_size &&
           ioc->layout.page_size == p->layout.page_size &&
           ioc->layout.row_width == p->layout.row_width &&
           ioc->layout.dead_pct == p->layout.dead_pct;
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

int sb_runner_run(const struct sb_plan *plan, json_t *report, bool quiet, struct sb_error *err)
{
    struct sb_iocache ioc = {0};
    int status = check_required_counters(plan, err);

    for (size_t i = 0; i < plan->nruns && status == SB_OK; i++) {
        const struct sb_run_params *p = &plan->runs[i];
        struct sb_run_result res;
        char size[32];

        if (!same_table(&ioc, p)) {
            sb_iocache_destroy(&ioc);
            if (!quiet)
                fprintf(stderr, "scanbench: building the %s table in the IO cache\n",
                        sb_format_size(p->table_size, size, sizeof size));
            status = sb_iocache_create(&ioc, p->table_size, &p->layout, err);
            if (status != SB_OK)
                break;
        }
        if (!quiet)
            fprintf(stderr, "scanbench: run %zu/%zu: %s: op %s, policy %s, kernel %s ...",
                    i + 1, plan->nruns, p->name, p->op->name, p->policy->name, p->kernel->name);
        status = sb_scan_run(p, &ioc, &res, err);
        if (status == SB_OK) {
            if (!quiet)
                fprintf(stderr, " %.0f MB/s median, validation ok\n", res.mbps.median);
            sb_report_add_run(report, p, &res);
        } else if (!quiet) {
            fprintf(stderr, " failed\n");
        }
        sb_run_result_free(&res);
    }
    sb_iocache_destroy(&ioc);
    return status;
}
