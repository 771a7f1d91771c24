/* SPDX-License-Identifier: BSD-3-Clause */
/* run_args.h: the command line that `scanbench run` and `scanbench pg` share,
 * [EXPERIMENT.ini] [--set KEY=VALUE]... [-o REPORT.json] [-q], parsed in one place (each
 * command's option table names the options it has: options.h), the table entries other
 * subcommands take from it (--set in its three spellings), and the command line as the report
 * records it. */
#ifndef SB_RUN_ARGS_H
#define SB_RUN_ARGS_H

#include <stdbool.h>

#include "core/core.h"
#include "options.h"

#define SB_RUN_ARGS_MAX_SETS 256

#define SB_RUN_ARGS_MAX_SERVERS 8

struct sb_run_args {
    const char *file;                       /* the experiment file; NULL: the embedded default */
    const char *output;                     /* -o REPORT.json, or NULL */
    const char *sets[SB_RUN_ARGS_MAX_SETS]; /* every --set KEY=VALUE, in order */
    int nsets;
    bool quiet;                             /* -q, --quiet: no progress on stderr */
    bool twice;                             /* --twice (where the usage offers it) */
    const char *servers[SB_RUN_ARGS_MAX_SERVERS]; /* every --server BINDIR (pg), in order */
    int nservers;
    bool cleanup;                           /* --cleanup (pg): the stale clusters removed */
};

/* The options sb_run_args_parse knows, by their id in a command's table. */
enum sb_run_option { SB_RUN_SET = 1, SB_RUN_OUTPUT, SB_RUN_QUIET, SB_RUN_TWICE, SB_RUN_SERVER,
                       SB_RUN_CLEANUP };

/* --set in its three spellings (--set KEY=VALUE, -s KEY=VALUE, --set=KEY=VALUE), with its help */
#define SB_SET_HELP "sets an experiment key (also --set=KEY=VALUE), checked like a line of\n" \
                    "the file; a list (pool_size=256K,16M) makes a sweep; scanbench list\n"   \
                    "shows every key"
#define SB_OPTION_SET(id, help) {id, "--set", "-s", SB_OPT_TEXT, "KEY=VALUE", true, help, NULL, 0, 0}

/* The table's entries run and pg share: [EXPERIMENT.ini], -o REPORT.json, -q */
#define SB_RUN_OPERANDS .operands = "[EXPERIMENT.ini]", .operand_label = "EXPERIMENT.ini", \
    .operand_help = "the experiment (without one: the embedded default)",                   \
    .unknown = "unknown option or missing value"
#define SB_RUN_OPTION_OUTPUT                                                                   \
    {SB_RUN_OUTPUT, "-o", NULL, SB_OPT_TEXT, "REPORT.json", false,                              \
     "writes the report (a name that exists is refused before any run; if\none appears "       \
     "during the run, the report is kept as REPORT-2.json)", NULL, 0, 0}
#define SB_RUN_OPTION_QUIET                                                                    \
    {SB_RUN_QUIET, "-q", "--quiet", SB_OPT_FLAG, NULL, false, "no progress on stderr", NULL, 0, 0}

/* Parses argv[1..argc-1] (argv[0] is the subcommand) into args by the command's table spec
 * (its options: those of enum sb_run_option). SB_OK, or SB_ERR_INPUT with one line naming the
 * argument and what is wrong. */
int sb_run_args_parse(const struct sb_options *spec, int argc, char **argv,
                      struct sb_run_args *args, struct sb_error *err);

/* "scanbench ARG ARG...", the report's `command` (bytes that are not UTF-8 written as \xNN);
 * NULL when out of memory (free it). */
char *sb_args_command_line(int argc, char **argv);

#endif
