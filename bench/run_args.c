/* SPDX-License-Identifier: BSD-3-Clause */
/* run_args.c: the command line of `scanbench run` and `scanbench pg` (see run_args.h). */
#include "config.h"
#include "run_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

/* One option or the experiment file into args (sb_option_take). */
static int take(void *ctx, const struct sb_option_arg *a, struct sb_error *err)
{
    struct sb_run_args *args = ctx;

    switch (a->id) {
    case SB_RUN_SET:
        if (args->nsets == SB_RUN_ARGS_MAX_SETS)
            return sb_fail(err, SB_ERR_INPUT, "--set %s: more than %d --set", a->text,
                           SB_RUN_ARGS_MAX_SETS);
        args->sets[args->nsets++] = a->text;
        return SB_OK;
    case SB_RUN_OUTPUT:
        if (args->output)
            return sb_fail(err, SB_ERR_INPUT, "-o %s: -o given twice (already -o %s)", a->text,
                           args->output);
        args->output = a->text;
        return SB_OK;
    case SB_RUN_QUIET:
        args->quiet = true;
        return SB_OK;
    case SB_RUN_TWICE:
        args->twice = true;
        return SB_OK;
    case SB_RUN_CLEANUP:
        args->cleanup = true;
        return SB_OK;
    case SB_RUN_SERVER:
        if (args->nservers == SB_RUN_ARGS_MAX_SERVERS)
            return sb_fail(err, SB_ERR_INPUT, "--server %s: more than %d --server", a->text,
                           SB_RUN_ARGS_MAX_SERVERS);
        if (!a->text[0])
            return sb_fail(err, SB_ERR_INPUT, "--server \"\": an empty directory name");
        args->servers[args->nservers++] = a->text;
        return SB_OK;
    default: /* the operand */
        if (args->file)
            return sb_fail(err, SB_ERR_INPUT, "%s: only one experiment file (already %s)",
                           a->text, args->file);
        args->file = a->text;
        return SB_OK;
    }
}

int sb_run_args_parse(const struct sb_options *spec, int argc, char **argv,
                      struct sb_run_args *args, struct sb_error *err)
{
    memset(args, 0, sizeof *args);
    return sb_options_parse(spec, argc, argv, take, args, err);
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
