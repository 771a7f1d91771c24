/* SPDX-License-Identifier: BSD-3-Clause */
/* run_args.h: the command line that `scanbench run` and `scanbench pg` share,
 * [EXPERIMENT.ini] [--set KEY=VALUE]... [-o REPORT.json] [-q], parsed in one place, and the
 * pieces other subcommands take from it: --set in its three spellings (reproduce), and the
 * command line as the report records it. */
#ifndef SB_RUN_ARGS_H
#define SB_RUN_ARGS_H

#include <stdbool.h>

#include "core/core.h"

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
};

/* Parses argv[1..argc-1] (argv[0] is the subcommand) into args. usage is the subcommand's
 * usage line ("scanbench run [EXPERIMENT.ini] ..."), quoted by the unknown-option error.
 * SB_OK, or SB_ERR_INPUT with one line naming the argument and what is wrong. */
int sb_run_args_parse(int argc, char **argv, const char *usage, struct sb_run_args *args,
                      struct sb_error *err);

/* Whether argv[*i] is a --set: `--set KEY=VALUE`, `-s KEY=VALUE` or `--set=KEY=VALUE`. If so,
 * *assignment is the KEY=VALUE and *i moves to the last argument taken. A --set with nothing
 * after it is not one (the caller's unknown-option error names it). */
bool sb_args_take_set(int argc, char **argv, int *i, const char **assignment);

/* "scanbench ARG ARG...", the report's `command` (bytes that are not UTF-8 written as \xNN);
 * NULL when out of memory (free it). */
char *sb_args_command_line(int argc, char **argv);

#endif
