/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_topo.c: `scanbench topo`: the topology and where each figure came from; with --sweep,
 * each level's effective size from a sweep of working sets (host/probe.h). */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "core/core.h"
#include "host/host.h"

static void print_figure(const char *what, const struct sb_figure *f, int is_size)
{
    char buf[32];

    if (!f->value)
        printf("  %-22s %-10s (%s)\n", what, "unknown", f->source);
    else if (is_size)
        printf("  %-22s %-10s (%s)\n", what, sb_format_size(f->value, buf, sizeof buf), f->source);
    else
        printf("  %-22s %-10llu (%s)\n", what, (unsigned long long)f->value, f->source);
}

/* Each level's effective size by the sweep, beside the nominal; a line of its own where it is
 * under half of it (a VM's share of a socket's L3). */
static int print_effective(const struct sb_topology *topo)
{
    struct sb_error err = {0};
    struct sb_probe_sweep *sw = calloc(1, sizeof *sw);
    char a[32], b[32];
    int status = sw ? sb_probe_sweep(topo, false, sw, &err)
                    : sb_fail(&err, SB_ERR_RUN, "topo: out of memory");

    for (unsigned l = 0; status == SB_OK && l < sw->levels; l++) {
        const struct sb_steps_level *e = &sw->by_latency[l];
        if (e->why != SB_STEPS_FOUND) {
            printf("  %-3s effective size    %-10s (latency sweep: %s)\n", sb_probe_level_names[l],
                   "unknown", sb_steps_why_names[e->why]);
            continue;
        }
        printf("  %-3s effective size    %-10s (latency sweep: %.1f ns up to it, %.1f ns beyond)\n",
               sb_probe_level_names[l], sb_format_size(e->size, a, sizeof a), e->own, e->next);
        if (e->size * 2 < sw->nominal[l])
            printf("  note: a core here can use %s of the %s %s the topology reports\n",
                   sb_format_size(e->size, a, sizeof a),
                   sb_format_size(sw->nominal[l], b, sizeof b),
                   sb_probe_level_names[l]);
    }
    if (status != SB_OK)
        fprintf(stderr, "scanbench: %s\n", err.msg);
    free(sw);
    return status;
}

enum { SWEEP = 1 };

const struct sb_options sb_options_topo = {
    .command = "topo",
    .prefix = "scanbench topo: ",
    .unknown = "unknown argument",
    .options = {
        {SWEEP, "--sweep", NULL, SB_OPT_FLAG, NULL, false,
         "each cache level's effective size from a latency sweep (about\n"
         "25 s): where a core's loads step up, beside the nominal size", NULL, 0, 0},
        {0},
    },
};

/* --sweep into ctx (sb_option_take). */
static int take(void *ctx, const struct sb_option_arg *arg, struct sb_error *err)
{
    (void)arg;
    (void)err;
    *(bool *)ctx = true;
    return SB_OK;
}

int sb_cmd_topo(int argc, char **argv)
{
    static const char *names[SB_NLEVELS] = {"L1d", "L2", "L3"};
    struct sb_topology topo;
    char label[64];
    struct sb_error err = {0};
    bool sweep = false;

    if (sb_options_parse(&sb_options_topo, argc, argv, take, &sweep, &err) != SB_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return err.status;
    }
    sb_topology_detect(&topo, "");
    printf("topology (figure, source: hwloc, sysfs, cpuid, config or unknown)\n");
    for (int l = 0; l < SB_NLEVELS; l++) {
        snprintf(label, sizeof label, "%s size", names[l]);
        print_figure(label, &topo.cache[l].size, 1);
        snprintf(label, sizeof label, "%s line", names[l]);
        print_figure(label, &topo.cache[l].line, 1);
        snprintf(label, sizeof label, "%s associativity", names[l]);
        print_figure(label, &topo.cache[l].assoc, 0);
    }
    print_figure("cores", &topo.cores, 0);
    print_figure("hardware threads", &topo.pus, 0);
    print_figure("NUMA nodes", &topo.numa_nodes, 0);
    if (!sweep) {
        printf("  effective sizes        not measured (scanbench topo --sweep: about 25 s)\n");
        return 0;
    }
    return print_effective(&topo);
}
