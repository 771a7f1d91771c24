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
#include <time.h>

#include "commands.h"
#include "core/core.h"
#include "power/power.h"
#include "run_args.h"

enum { QUICK = 1, TRIALS, SET, OUTDIR, QUIET, PG, SERVER };

const struct sb_options sb_options_power = {
    .command = "power",
    .unknown = "unknown argument",
    .options = {
        {QUICK, "--quick", NULL, SB_OPT_FLAG, NULL, false,
         "fewer trials and kinds, shorter trials: about 30 s", NULL, 0, 0},
        {TRIALS, "--trials", NULL, SB_OPT_COUNT, "N", false,
         "trials of each kind (A-A, and each extra_copy size; default 5,\n--quick 3)", NULL, 1,
         SB_POWER_MAX_TRIALS},
        SB_OPTION_SET(SET, SB_SET_HELP "\n(not extra_copy or seed: each trial sets them)"),
        {OUTDIR, "-o", NULL, SB_OPT_TEXT, "DIR", false,
         "a new directory: power.json (every trial) and power.txt", ": no DIR after it", 0, 0},
        {QUIET, "-q", "--quiet", SB_OPT_FLAG, NULL, false, "no progress on stderr", NULL, 0, 0},
        {PG, "--pg", NULL, SB_OPT_FLAG, NULL, false,
         "live A-A trials of scanbench pg instead (default 20, --quick 5):\n"
         "how often the same settings on two clusters are called different,\n"
         "and the smallest shift of their real differences found 80% of the time", NULL, 0, 0},
        {SERVER, "--server", NULL, SB_OPT_TEXT, "BINDIR", false,
         "--pg: the server's bin directory (default: as scanbench pg finds one)",
         ": no BINDIR after it", 0, 0},
        {0},
    },
};

/* What the command line says, as parse gathers it. */
struct parsed {
    struct sb_power *pw;
    bool trials_set;
    bool pg;
    const char *server;
};

/* One option into p (sb_option_take). */
static int take(void *ctx, const struct sb_option_arg *a, struct sb_error *err)
{
    struct parsed *p = ctx;
    struct sb_power *pw = p->pw;
    char line[SB_OPTIONS_LINE];

    switch (a->id) {
    case SET:
        if (pw->nuser == SB_POWER_USER_SETS)
            return sb_fail(err, SB_ERR_INPUT, "more than %d --set", SB_POWER_USER_SETS);
        pw->user_sets[pw->nuser++] = a->text;
        return SB_OK;
    case QUICK:
        pw->quick = true;
        return SB_OK;
    case QUIET:
        pw->quiet = true;
        return SB_OK;
    case TRIALS:
        pw->per_kind = (unsigned)a->count;
        p->trials_set = true;
        return SB_OK;
    case PG:
        p->pg = true;
        return SB_OK;
    case SERVER:
        p->server = a->text;
        return SB_OK;
    default: /* -o DIR */
        if (!pw->outdir) {
            pw->outdir = a->text;
            return SB_OK;
        }
        sb_options_usage_line(&sb_options_power, line, sizeof line);
        return sb_fail(err, SB_ERR_INPUT, "-o: -o given twice (usage: scanbench power %s)",
                       line);
    }
}

static int parse(int argc, char **argv, struct parsed *p, struct sb_error *err)
{
    int status = sb_options_parse(&sb_options_power, argc, argv, take, p, err);

    if (status == SB_OK && p->server && !p->pg)
        status = sb_fail(err, SB_ERR_INPUT, "--server %s: takes --pg (the engine's trials run "
                         "no server)", p->server);
    if (status == SB_OK && !p->pg)
        sb_power_settle(p->pw, p->trials_set);
    return status;
}

/* --pg: the live trials, with the command line's --set, -o, -q and --trials (or --quick's). */
static int power_pg(const struct parsed *p, const char *command, struct sb_error *err)
{
    const struct sb_power *pw = p->pw;
    struct sb_power_pg o = {p->server, pw->user_sets, pw->nuser,
                            p->trials_set ? pw->per_kind
                            : pw->quick ? SB_POWER_PG_QUICK_TRIALS : SB_POWER_PG_TRIALS,
                            (uint64_t)time(NULL), pw->outdir, pw->quiet};

    for (int i = 0; i < pw->nuser; i++)
        if (strncmp(pw->user_sets[i], "schedule_seed=", 14) == 0)
            return sb_fail(err, SB_ERR_INPUT, "--set %s: power --pg gives each trial a "
                           "schedule_seed of its own", pw->user_sets[i]);
    return sb_power_pg_run(&o, command, err);
}

int sb_cmd_power(int argc, char **argv)
{
    static struct sb_power pw;
    static struct sb_outdir dir;
    struct sb_error err = {0}, stop;
    struct parsed p = {.pw = &pw};
    char *command = NULL;
    int status;

    memset(&pw, 0, sizeof pw);
    status = parse(argc, argv, &p, &err);
    if (status == SB_OK && p.pg) {
        command = sb_args_command_line(argc, argv);
        sb_stop_install();
        status = power_pg(&p, command, &err);
        goto out;
    }
    if (status == SB_OK)
        status = sb_power_prepare(&pw, &err);
    if (status == SB_OK && pw.outdir)
        status = sb_outdir_create(&dir, pw.outdir, "power", &err);
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
