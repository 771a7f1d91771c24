/* SPDX-License-Identifier: BSD-3-Clause */
/* placements.c: the thread's placements in a reproduction's plan, and its pools scaled to this
 * host (see placements.h). */
#include "config.h"
#include "reproduce/placements.h"

#include <stdio.h>
#include <string.h>

#include "cachesim/cachesim.h"
#include "vocab/vocab.h"

struct sb_placement_name sb_reproduce_run_placement(const struct sb_run_params *run)
{
    return (struct sb_placement_name){
        .policy = run->policy,
        .footprint = sb_policy_footprint(run->policy, run->pool_size, run->ring_size,
                                         run->page_size)};
}

bool sb_reproduce_has_placement(const struct sb_run_params *run,
                                const struct sb_placement_name *placement)
{
    struct sb_placement_name mine = sb_reproduce_run_placement(run);

    return sb_placement_name_equal(&mine, placement);
}

int sb_reproduce_check_placements(const struct sb_plan *plan, const struct sb_thread *thread,
                                  const char *source, struct sb_error *err)
{
    const struct sb_placement_name *const placements[2] = {&thread->slow, &thread->fast};
    char name[64];

    for (size_t a = 0; a < plan->nruns; a++) {
        const char *op = plan->runs[a].op->name;
        for (int p = 0; p < 2; p++) {
            bool found = !placements[p]->policy;
            for (size_t b = 0; b < plan->nruns && !found; b++)
                found = strcmp(plan->runs[b].op->name, op) == 0 &&
                        sb_reproduce_has_placement(&plan->runs[b], placements[p]);
            if (!found)
                return sb_fail(err, SB_ERR_INPUT, "%s: [thread] %s = %s: no run of op %s has "
                               "that placement (the verdict compares slow and fast)", source,
                               p ? "fast" : "slow",
                               sb_placement_name_format(placements[p], name, sizeof name), op);
        }
    }
    return SB_OK;
}

bool sb_reproduce_placement_pool(const struct sb_placement_name *placement, uint64_t *bytes)
{
    const struct sb_policy *p = placement->policy;

    if (!p || sb_policy_footprint(p, placement->footprint, 0, SB_MACHINE_PAGE) !=
                  placement->footprint)
        return false;
    *bytes = placement->footprint;
    return true;
}

bool sb_reproduce_scale_pools(const struct sb_thread *th, const struct sb_topology *topo,
                              const struct sb_mem_limit *limit, struct sb_scaled_pool scaled[2],
                              char *why, size_t len)
{
    uint64_t host_l2 = topo->cache[SB_L2].size.value, l3 = topo->cache[SB_L3].size.value;
    uint64_t pools[2], cap = SB_SCALE_SCATTER_CAP;
    struct sb_machine m;
    struct sb_error err = {0};
    const struct sb_placement_name *placements[2] = {&th->slow, &th->fast};
    char name[64];

    if (!th->present || !th->machine[0] || !th->slow.policy || !th->fast.policy) {
        snprintf(why, len, "the [thread] section names no machine, or no slow and fast "
                 "placements");
        return false;
    }
    if (!host_l2) {
        snprintf(why, len, "this host's L2 size is unknown");
        return false;
    }
    if (sb_machine_load(th->machine, &m, &err) != SB_OK || m.config.nlevels < 2) {
        snprintf(why, len, "machine %s: %s", th->machine, err.msg[0] ? err.msg : "no L2");
        return false;
    }
    for (int k = 0; k < 2; k++)
        if (!sb_reproduce_placement_pool(placements[k], &pools[k])) {
            snprintf(why, len, "%s: not a pool size to scale",
                     sb_placement_name_format(placements[k], name, sizeof name));
            return false;
        }
    if (limit->bytes > 0 && limit->bytes / 4 < cap)
        cap = limit->bytes / 4;
    for (int k = 0; k < 2; k++)
        sb_scale_pool(pools[k], m.config.level[1].size, k == 0, host_l2, l3 ? l3 : host_l2,
                      l3 ? "L3" : "L2", cap, SB_MACHINE_PAGE, &scaled[k]);
    return true;
}

json_t *sb_reproduce_scaled_json(const struct sb_thread *th, bool has,
                                 const struct sb_scaled_pool scaled[2], const char *why)
{
    const char *roles[2] = {"slow", "fast"};
    json_t *block;

    if (!has)
        return json_pack("{s:b, s:s}", "available", 0, "why", why);
    block = json_pack("{s:b, s:s}", "available", 1, "why", "");
    for (int k = 0; k < 2; k++) {
        const struct sb_scaled_pool *sp = &scaled[k];
        char thread[64], here[64];
        struct sb_placement_name scaled_here = {.policy = sb_policy_find("clock"),
                                                .footprint = sp->bytes};
        sb_placement_name_format(k ? &th->fast : &th->slow, thread, sizeof thread);
        json_object_set_new(block, roles[k], json_pack(
            "{s:s, s:s, s:I, s:f, s:b, s:b, s:s}", "thread", thread,
            "here", sb_placement_name_format(&scaled_here, here, sizeof here), "bytes",
            (json_int_t)sp->bytes, "ratio_to_l2", sp->ratio,
            "scattered", sp->scattered, "beyond_llc", sp->beyond_llc, "how", sp->how));
    }
    return block;
}
