/* SPDX-License-Identifier: BSD-3-Clause */
/* results.c: a run's results: the CPUs a scanner ran on, the summary of its timed scans
 * (MB/s over all scanners and each one's own), and their release. */
#include "config.h"
#include "engine/engine.h"

#include <sched.h>
#include <stdlib.h>

#include "core/core.h"

void sb_scanner_record_cpu(struct sb_scanner_record *rec)
{
    int cpu = sched_getcpu();

    for (unsigned i = 0; i < rec->ncpus_seen; i++)
        if (rec->cpus_seen[i] == cpu)
            return;
    if (cpu >= 0 && rec->ncpus_seen < SB_MAX_CPUS_SEEN)
        rec->cpus_seen[rec->ncpus_seen++] = cpu;
}

void sb_run_result_summarise(struct sb_run_result *res)
{
    double *seconds = malloc((res->nreps ? res->nreps : 1) * sizeof *seconds);
    double *per_page = malloc((res->nreps ? res->nreps : 1) * sizeof *per_page);
    uint64_t page_size = res->pages_per_scan ? res->bytes_per_scan / res->passes /
                                               res->pages_per_scan : 0;

    if (!seconds || !per_page || res->nreps == 0) {
        free(seconds);
        free(per_page);
        return;
    }
    for (uint32_t r = 0; r < res->nreps; r++)
        seconds[r] = res->scans[r].seconds;
    sb_stats_from_seconds(seconds, res->nreps, res->bytes_per_scan, &res->mbps);
    for (uint32_t i = 0; i < res->nscanners; i++) {
        struct sb_scanner_record *rec = &res->scanners[i];
        size_t n = 0;
        for (uint32_t r = 0; r < res->nreps; r++)
            if (rec->pages[r] > 0)
                per_page[n++] = rec->seconds[r] / (double)rec->pages[r];
        if (n > 0)
            sb_stats_from_seconds(per_page, n, page_size, &rec->mbps);
    }
    free(seconds);
    free(per_page);
}

void sb_run_result_free(struct sb_run_result *res)
{
    free(res->scans);
    res->scans = NULL;
    for (uint32_t i = 0; res->scanners && i < res->nscanners; i++) {
        free(res->scanners[i].seconds);
        free(res->scanners[i].pages);
    }
    free(res->scanners);
    res->scanners = NULL;
    res->nscanners = 0;
    free(res->layouts);
    res->layouts = NULL;
    res->nlayouts = res->layouts_cap = 0;
    sb_counters_close(&res->counters);
}
