/* SPDX-License-Identifier: BSD-3-Clause */
/* scanbench.c: the one program; dispatches to its subcommands (a table, one row each: its
 * option table, whose usage `scanbench --help` and `scanbench NAME --help` print, and what it
 * does). */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "core/core.h"

#define EXIT_HELP "Exit status: 0 done, 1 a run failed or stdout could not be written, 2 bad " \
                  "input, 3 counters\nrequired (require_counters=yes) but unavailable; 129, " \
                  "130, 131, 143, ...: stopped by\nSIGHUP, SIGINT, SIGQUIT, SIGTERM or another " \
                  "signal (128 + the signal), the runs finished\nkept.\n"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const struct sb_options *table; /* its option table: its usage line and help (options.h) */
    const char *summary;            /* what it does, in one line */
} commands[] = {
    {"run", sb_cmd_run, &sb_options_run,
     "the experiment on scanbench's own scan loop: the thread-style table, the JSON report"},
    {"topo", sb_cmd_topo, &sb_options_topo,
     "the caches, cores and NUMA nodes, with their source"},
    {"probe", sb_cmd_probe, &sb_options_probe,
     "latency and bandwidth of each cache level and memory here, as a machine file with [costs]"},
    {"list", sb_cmd_list, &sb_options_list,
     "kernels, policies, ops, sources, backends and keys"},
    {"events", sb_cmd_events, &sb_options_events,
     "hardware counters here: PAPI, PMU, the events map, each role"},
    {"reproduce", sb_cmd_reproduce, &sb_options_reproduce,
     "the thread's tables on this host"},
    {"compare", sb_cmd_compare, &sb_options_compare, "runs matched across reports"},
    {"plot", sb_cmd_plot, &sb_options_plot,
     "MB/s and counters against pool size (gnuplot)"},
    {"pg", sb_cmd_pg, &sb_options_pg,
     "the experiment on live PostgreSQL servers (throwaway clusters, side by side in rounds)"},
    {"power", sb_cmd_power, &sb_options_power,
     "how often this host's rounds find a difference of known size (a minute or two)"},
    {NULL, NULL, NULL, NULL},
};

static void usage(FILE *out)
{
    char line[SB_OPTIONS_LINE];

    fprintf(out, "usage: scanbench COMMAND [ARGS]   (scanbench COMMAND --help: its own usage)\n");
    for (int i = 0; commands[i].name; i++) {
        sb_options_usage_line(commands[i].table, line, sizeof line);
        fprintf(out, "  scanbench %s%s%s\n      %s\n", commands[i].name, line[0] ? " " : "",
                line, commands[i].summary);
    }
    fprintf(out, "  scanbench --version\n" EXIT_HELP);
}

static bool asks_for_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

/* `scanbench NAME --help`: the command's usage, what it does and its arguments, on stdout. */
static int command_usage(int i)
{
    char line[SB_OPTIONS_LINE];

    sb_options_usage_line(commands[i].table, line, sizeof line);
    printf("usage: scanbench %s%s%s\n%s\n", commands[i].name, line[0] ? " " : "", line,
           commands[i].summary);
    sb_options_help(stdout, commands[i].table);
    printf(EXIT_HELP);
    return 0;
}

/* What main returns once the command is done: a write to stdout that failed (a full disk, a
 * reader that went away: SIGPIPE is ignored, `ulimit -f`: so is SIGXFSZ) makes it 1, with one line on stderr; the result
 * files the command wrote stay. */
static int with_stdout_checked(int status)
{
    int failed, saved_errno;

    errno = 0;
    failed = fflush(stdout) != 0 || ferror(stdout);
    saved_errno = errno;

    if (!failed && fclose(stdout) != 0 && errno != EBADF) { /* EBADF: closed, nothing written */
        failed = 1;
        saved_errno = errno;
    }
    if (!failed)
        return status;
    fprintf(stderr, "scanbench: cannot write the output (stdout): %s\n",
            saved_errno ? strerror(saved_errno) : "a write to it failed");
    return status == 0 ? 1 : status;
}

static int dispatch(int argc, char **argv)
{
    struct sb_error err = {0};

    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (asks_for_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("scanbench %s (%s)\n", PACKAGE_VERSION, sb_build_git());
        return 0;
    }
    for (int i = 0; commands[i].name; i++) {
        if (strcmp(argv[1], commands[i].name) != 0)
            continue;
        /* --help or -h anywhere among the command's arguments */
        for (int a = 2; a < argc; a++)
            if (asks_for_help(argv[a]))
                return command_usage(i);
        /* every command reads configs/ (lib/core/configs_path.h): a $SCANBENCH_CONFIGS that is not
         * a directory is bad input, not a directory to pass over */
        if (sb_configs_check_env(&err) != SB_OK) {
            fprintf(stderr, "scanbench: %s\n", err.msg);
            return err.status;
        }
        return commands[i].run(argc - 1, argv + 1);
    }
    fprintf(stderr, "scanbench: %s: unknown command (try scanbench --help)\n", argv[1]);
    return 2;
}

int main(int argc, char **argv)
{
    sb_mem_one_arena(); /* before any thread: the memory check counts every thread's stack */
    sb_stop_ignore_write_signals();
    return with_stdout_checked(dispatch(argc, argv));
}
