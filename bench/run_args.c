/* SPDX-License-Identifier: BSD-3-Clause */
/* run_args.c: the command line of `scanbench run` and `scanbench pg` (see run_args.h). */
#include "config.h"
#include "run_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

bool sb_args_take_set(int argc, char **argv, int *i, const char **assignment)
{
    const char *arg = argv[*i];

    if ((strcmp(arg, "--set") == 0 || strcmp(arg, "-s") == 0) && *i + 1 < argc) {
        *i += 1;
        *assignment = argv[*i];
        return true;
    }
    if (strncmp(arg, "--set=", 6) == 0) {
        *assignment = arg + 6;
        return true;
    }
    return false;
}

int sb_run_args_parse(int argc, char **argv, const char *usage, struct sb_run_args *args,
                      struct sb_error *err)
{
    memset(args, 0, sizeof *args);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *assignment;

        if (sb_args_take_set(argc, argv, &i, &assignment)) {
            if (args->nsets == SB_RUN_ARGS_MAX_SETS)
                return sb_fail(err, SB_ERR_INPUT, "--set %s: more than %d --set", assignment,
                               SB_RUN_ARGS_MAX_SETS);
            args->sets[args->nsets++] = assignment;
        } else if (strcmp(arg, "-o") == 0 && i + 1 < argc) {
            if (args->output)
                return sb_fail(err, SB_ERR_INPUT, "-o %s: -o given twice (already -o %s)",
                               argv[i + 1], args->output);
            args->output = argv[++i];
        } else if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) {
            args->quiet = true;
        } else if (strcmp(arg, "--server") == 0 && i + 1 < argc && strstr(usage, "--server")) {
            if (args->nservers == SB_RUN_ARGS_MAX_SERVERS)
                return sb_fail(err, SB_ERR_INPUT, "--server %s: more than %d --server",
                               argv[i + 1], SB_RUN_ARGS_MAX_SERVERS);
            if (!argv[i + 1][0])
                return sb_fail(err, SB_ERR_INPUT, "--server \"\": an empty directory name");
            args->servers[args->nservers++] = argv[++i];
        } else if (strcmp(arg, "--twice") == 0 && strstr(usage, "--twice")) {
            args->twice = true;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return sb_fail(err, SB_ERR_INPUT, "%s: unknown option or missing value (usage: %s)",
                           arg, usage);
        } else if (args->file) {
            return sb_fail(err, SB_ERR_INPUT, "%s: only one experiment file (already %s)", arg,
                           args->file);
        } else {
            args->file = arg;
        }
    }
    return SB_OK;
}

char *sb_args_command_line(int argc, char **argv)
{
    char *line = NULL;
    size_t len = 0;
    bool ok = true;
    FILE *f = open_memstream(&line, &len);

    if (!f)
        return NULL;
    fputs("scanbench", f);
    for (int i = 0; i < argc && ok; i++) {
        /* a file name of another locale: its bytes as \xNN, so that the report can hold it */
        char *arg = sb_utf8_escape(argv[i]);
        ok = arg != NULL;
        if (ok)
            fprintf(f, " %s", arg);
        free(arg);
    }
    if (fclose(f) != 0 || !ok) {
        free(line);
        return NULL;
    }
    return line;
}
