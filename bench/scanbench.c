/* scanbench.c: the one program; dispatches to its subcommands (a table, one row each). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
} commands[] = {
    {"run", sb_cmd_run, "run [EXPERIMENT.ini] [--set KEY=VALUE]... [-o REPORT.json]"},
    {"topo", sb_cmd_topo, "topo            the caches, cores and NUMA nodes, with their source"},
    {"list", sb_cmd_list, "list            kernels, policies, ops, sources, backends and keys"},
    {"events", sb_cmd_events, "events [--set events=FILE]  hardware counters here: PAPI, PMU, "
                              "the events map, each role"},
    {"reproduce", sb_cmd_reproduce,
     "reproduce [NAME...|all] [--quick] [--pg] [-o DIR]   the thread's tables on this host"},
    {"compare", sb_cmd_compare, "compare REPORT REPORT... [--json]   runs matched across reports"},
    {"plot", sb_cmd_plot, "plot REPORT [-o FILE.png|FILE.svg]  MB/s and counters against pool size"},
    {"pg", sb_cmd_pg, "pg [EXPERIMENT.ini] [--set KEY=VALUE]... [-o REPORT.json]   the same on a "
                      "live PostgreSQL server"},
    {NULL, NULL, NULL},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: scanbench COMMAND [ARGS]\n");
    for (int i = 0; commands[i].name; i++)
        fprintf(out, "  scanbench %s\n", commands[i].usage);
    fprintf(out, "  scanbench --version\n"
                 "Exit status: 0 done, 1 a run failed, 2 bad input, 3 counters required "
                 "(require_counters=yes) but unavailable.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("scanbench %s (%s)\n", PACKAGE_VERSION, SB_GIT_HASH);
        return 0;
    }
    for (int i = 0; commands[i].name; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "scanbench: %s: unknown command (try scanbench --help)\n", argv[1]);
    return 2;
}
