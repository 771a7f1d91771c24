/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_power.c: `scanbench power [--quick] [--trials N] [--set KEY=VALUE]... [-o DIR] [-q]`: how
 * often this host's rounds find a difference of known size, and how often they call identical
 * configurations different (lib/power/power.h: the trials, their two arms, what is printed).
 * Printed on stdout; -o DIR (a new directory) keeps power.json (every trial), power.txt (the
 * text) and trials.jsonl (each trial as it ends). Stopped by a signal, it prints and writes
 * the trials done. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "core/core.h"
#include "power/power.h"
#include "run_args.h"

static int parse_trials(const char *text, unsigned *n, struct sb_error *err)
{
    uint64_t v;

    if (!text || !sb_parse_uint(text, &v) || v < 1 || v > SB_POWER_MAX_TRIALS)
        return sb_fail(err, SB_ERR_INPUT, "--trials %s: want a whole number from 1 to %d",
                       text ? text : "(missing)", SB_POWER_MAX_TRIALS);
    *n = (unsigned)v;
    return SB_OK;
}

static int parse(int argc, char **argv, struct sb_power *pw, struct sb_error *err)
{
    bool trials_set = false;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *assignment;
        int status = SB_OK;
        if (sb_args_take_set(argc, argv, &i, &assignment)) {
            if (pw->nuser == SB_POWER_USER_SETS)
                return sb_fail(err, SB_ERR_INPUT, "more than %d --set", SB_POWER_USER_SETS);
            pw->user_sets[pw->nuser++] = assignment;
        } else if (strcmp(a, "--quick") == 0) {
            pw->quick = true;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            pw->quiet = true;
        } else if (strcmp(a, "--trials") == 0) {
            status = parse_trials(i + 1 < argc ? argv[++i] : NULL, &pw->per_kind, err);
            trials_set = true;
        } else if (strcmp(a, "-o") == 0 && i + 1 < argc && !pw->outdir) {
            pw->outdir = argv[++i];
        } else {
            bool o = strcmp(a, "-o") == 0;
            return sb_fail(err, SB_ERR_INPUT, "%s: %s (usage: scanbench power " SB_ARGS_POWER
                           ")", a, !o ? "unknown argument" : pw->outdir ? "-o given twice"
                                                                        : "no DIR after it");
        }
        if (status != SB_OK)
            return status;
    }
    sb_power_settle(pw, trials_set);
    return SB_OK;
}

int sb_cmd_power(int argc, char **argv)
{
    static struct sb_power pw;
    static struct sb_outdir dir;
    struct sb_error err = {0}, stop;
    char *command = NULL;
    int status;

    memset(&pw, 0, sizeof pw);
    status = parse(argc, argv, &pw, &err);
    if (status == SB_OK)
        status = sb_power_prepare(&pw, &err);
    if (status == SB_OK && pw.outdir)
        status = sb_outdir_create(&dir, pw.outdir, &err);
    if (status != SB_OK)
        goto out;
    command = sb_args_command_line(argc, argv);
    /* a signal (INT, TERM, HUP, QUIT) stops the trial in progress between scans (core/stop.h):
     * the trials done are printed and written */
    sb_stop_install();
    status = sb_power_run(&pw, pw.outdir ? &dir : NULL, &err);
    stop = err;
    if (status == SB_OK || sb_stop_requested())
        status = sb_power_conclude(&pw, command, pw.outdir ? &dir : NULL, status, &stop, &err);
    if (status == SB_OK && pw.outdir && dir.kept)
        status = sb_fail(&err, SB_ERR_RUN, "%s could not be written into: the results are kept "
                         "in %s", dir.asked, dir.path);
out:
    if (status != SB_OK)
        fprintf(stderr, "scanbench: %s\n", err.msg);
    sb_power_free(&pw);
    free(command);
    sb_stop_finish(); /* after every cleanup: a signal received ends the process here */
    return status;
}
