/* SPDX-License-Identifier: BSD-3-Clause */
/* slices.c: whether a run may slice its timed scans (key slice_ms), and how far a slice's
 * settling pass reaches: the engine times a slice of the table (about slice_ms, sized by the
 * warm-up scan) after an untimed pass over the pages before it, so that many short paired units
 * replace a few long ones on a noisy host (doc/statistics.md, Slices). */
#include "config.h"

#include <string.h>

#include "plan/run_checks.h"

/* The last-level cache (the L3, else the L2) with the plan's overrides; 0 when unknown. */
static uint64_t llc_bytes(const struct sb_plan *plan, struct plan_host *host)
{
    if (!host->llc_read) {
        struct sb_topology topo;
        sb_topology_detect(&topo, "");
        for (int l = 0; l < SB_NLEVELS; l++)
            if (plan->override_size[l])
                sb_topology_override_size(&topo, l, plan->override_size[l]);
        host->llc = topo.cache[SB_L3].size.value ? topo.cache[SB_L3].size.value
                                                 : topo.cache[SB_L2].size.value;
        host->llc_read = true;
    }
    return host->llc;
}

/* Why run must make whole passes although slice_ms asks for slices (NULL: it may slice). */
static const char *whole_passes_because(const struct sb_run_params *run)
{
    if (run->source->is_file)
        return "source file: the kernel's reads are timed in whole passes";
    if (strcmp(run->counters->name, "sim") == 0)
        return "counters=sim replays whole passes";
    if (sb_run_concurrent(run))
        return "concurrent scanners share whole passes";
    if (run->nstatements)
        return "statements are recorded in whole passes";
    return NULL;
}

void sb_plan_slices(const struct sb_plan *plan, struct sb_run_params *run,
                    struct plan_host *host)
{
    uint64_t llc;

    run->slice_off = NULL;
    run->settle_cap_pages = 0;
    if (run->slice_seconds <= 0)
        return;
    run->slice_off = whole_passes_because(run);
    if (run->slice_off)
        return;
    /* the copy reads a source page and writes a buffer: LLC / page_size pages move the LLC's
     * size twice over, their double four times: whatever the previous run left is gone */
    llc = llc_bytes(plan, host);
    run->settle_cap_pages = llc ? 2 * llc / run->page_size : 0;
}
