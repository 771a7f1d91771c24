/* cmd_topo.c: `scanbench topo`: the topology and where each figure came from. */
#include "config.h"

#include <stdio.h>

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

int sb_cmd_topo(int argc, char **argv)
{
    static const char *names[SB_NLEVELS] = {"L1d", "L2", "L3"};
    struct sb_topology topo;
    char label[64];

    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "scanbench topo: takes no arguments\n");
        return 2;
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
    return 0;
}
