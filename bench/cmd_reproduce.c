/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_reproduce.c: `scanbench reproduce [NAME...|all] [--quick] [--pg] [-o DIR] [--set K=V]...`:
 * reruns the experiments of the 2007 thread (configs/experiments/NAME.ini with a [thread] section)
 * on this host, with the cache model's counters when it is built, and prints each in the
 * thread's layout beside the thread's figures, with a verdict; -o DIR (a new directory) keeps
 * one report per experiment and the printed text. Progress and an ETA go to stderr. With --pg,
 * each experiment also runs on a live PostgreSQL server (pg/runner.h), one throwaway cluster
 * for all of them: a `postgresql` column beside this host's figures. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "core/core.h"
#include "render/render.h"
#include "reproduce/reproduce.h"
#include "run_args.h"
#include "runner/runner_setup.h"

enum { QUICK = 1, TWICE, PG, SERVER, OUTDIR, SET };

const struct sb_options sb_options_reproduce = {
    .command = "reproduce",
    .operands = "[NAME...|all]",
    .operand_label = "NAME...|all",
    .operand_help = "experiments of configs/experiments with a [thread] section (default all)",
    .unknown = "unknown option",
    .options = {
        {QUICK, "--quick", NULL, SB_OPT_FLAG, NULL, false,
         "a 64MB table, no warm-up, 15 ms scans, a 60 s budget (what it\nneeds is said before "
         "it starts)", NULL, 0, 0},
        {TWICE, "--twice", NULL, SB_OPT_FLAG, NULL, false,
         "each experiment's schedule twice, with different seeds", NULL, 0, 0},
        {PG, "--pg", NULL, SB_OPT_FLAG, NULL, false,
         "also on a live PostgreSQL server (a column beside this host's)", NULL, 0, 0},
        {SERVER, "--server", NULL, SB_OPT_TEXT, "BINDIR", true,
         "also on this server (again for another: a column each; implies\n--pg)", NULL, 0, 0},
        {OUTDIR, "-o", NULL, SB_OPT_TEXT, "DIR", false,
         "a new directory: one report per experiment and reproduction.txt", NULL, 0, 0},
        SB_OPTION_SET(SET, SB_SET_HELP),
        {0},
    },
};

/* What the command line says, as pick gathers it. */
struct picked {
    struct sb_reproduction *r;
    const char **sets; /* every --set, in order */
    int nsets;
    bool pg;           /* --pg, --server */
    const char *outdir; /* -o DIR */
    bool all;
};

/* One option or experiment name into p (sb_option_take). */
static int take(void *ctx, const struct sb_option_arg *a, struct sb_error *err)
{
    struct picked *p = ctx;

    switch (a->id) {
    case SET:
        p->sets[p->nsets++] = a->text;
        return SB_OK;
    case QUICK:
        p->r->quick = true;
        return SB_OK;
    case PG:
        p->pg = true;
        return SB_OK;
    case SERVER:
        if (p->r->nservers == SB_PG_SERVERS_MAX)
            return sb_fail(err, SB_ERR_INPUT, "--server %s: at most %d servers", a->text,
                           SB_PG_SERVERS_MAX);
        p->r->servers[p->r->nservers++] = a->text;
        p->pg = true; /* a server is measured: --pg */
        return SB_OK;
    case TWICE:
        p->r->twice = true;
        return SB_OK;
    case OUTDIR:
        if (p->outdir)
            return sb_fail(err, SB_ERR_INPUT, "-o %s: -o given twice (already -o %s)", a->text,
                           p->outdir);
        p->outdir = a->text;
        return SB_OK;
    default: /* an experiment's name, or all */
        if (a->text[0] == '-')
            return sb_options_refuse(&sb_options_reproduce, a->text, err);
        if (strcmp(a->text, "all") == 0) {
            p->all = true;
            return SB_OK;
        }
        return sb_reproduce_name(p->r, a->text, err);
    }
}

/* The command line into r, sets (every --set, in order), pg (--pg, --server) and outdir
 * (-o DIR). */
static int pick(struct sb_reproduction *r, int argc, char **argv, const char **sets, int *nsets,
                bool *pg, const char **outdir, struct sb_error *err)
{
    struct picked p = {.r = r, .sets = sets};
    int status = sb_options_parse(&sb_options_reproduce, argc, argv, take, &p, err);

    *nsets = p.nsets;
    *pg = p.pg;
    *outdir = p.outdir;
    if (status == SB_OK && (p.all || r->n == 0))
        status = sb_reproduce_name_all(r, err);
    return status;
}

/* Everything before the first run: the command line, every experiment read and planned, the
 * output directory made, the signals caught, the --pg cluster started. */
static int start(struct sb_reproduction *r, int argc, char **argv, const char **outdir,
                 struct sb_outdir *dir, struct sb_error *err)
{
    const char *sets[256];
    int nsets = 0, status;
    bool pg = false;

    if (argc > 256)
        return sb_fail(err, SB_ERR_INPUT, "too many arguments");
    status = pick(r, argc, argv, sets, &nsets, &pg, outdir, err);
    if (status == SB_OK)
        status = sb_reproduce_prepare(r, sets, nsets, err);
    if (status == SB_OK && *outdir)
        status = sb_outdir_create(dir, *outdir, "reproduce", err);
    /* a signal (INT, TERM, HUP, QUIT) and the watchdog stop the reproduction between scans
     * (lib/core/stop.h), with --pg also the server's statement in flight */
    if (status == SB_OK)
        sb_stop_install();
    if (status == SB_OK && pg)
        status = sb_reproduce_open_pg(r, err);
    return status;
}

/* The reproduction's text on stdout and, with -o, as DIR/reproduction.txt. */
static int print_text(const char *text, struct sb_outdir *dir, int status, struct sb_error *err)
{
    struct sb_error write_err = {0};

    fputs(text, stdout);
    if (!dir)
        return status;
    return sb_setup_settle_write(status, sb_setup_save(dir, "reproduction.txt", text, "text",
                                                       &write_err), &write_err, err);
}

int sb_cmd_reproduce(int argc, char **argv)
{
    static struct sb_reproduction r;
    static struct sb_outdir dir;
    const char *outdir = NULL;
    struct sb_error err = {0};
    struct sb_reproduction_tally t = {0};
    char *text = NULL;
    size_t text_len = 0;
    FILE *out = NULL;
    double t0 = sb_timer_now();
    int status;

    memset(&r, 0, sizeof r);
    status = start(&r, argc, argv, &outdir, &dir, &err);
    if (status == SB_OK && !(out = open_memstream(&text, &text_len)))
        status = sb_fail(&err, SB_ERR_RUN, "out of memory");
    if (status != SB_OK)
        goto out;
    status = sb_reproduce_all(&r, out, outdir ? &dir : NULL, &t, &err);
    if (status == SB_OK)
        sb_render_reproduction_overall(out, &t);
    fflush(out);
    if (status == SB_OK || sb_stop_requested())
        status = print_text(text, outdir ? &dir : NULL, status, &err);
    else
        fputs(text, stdout); /* a failure: what was done still reaches stdout */
    if (status == SB_OK && outdir && dir.kept)
        status = sb_fail(&err, SB_ERR_RUN, "%s does not hold every result: from the first that "
                         "could not be written there on, they are kept in %s", dir.asked,
                         dir.path);
    if (status == SB_OK)
        fprintf(stderr, "scanbench: reproduced %d experiments in %.0f s%s%s\n", r.n,
                sb_timer_now() - t0, outdir ? ", reports in " : "", outdir ? dir.path : "");
    if (status == SB_OK && sb_timer_now() - t0 > r.budget * 1.05)
        fprintf(stderr, "scanbench: over its budget of %.0f s: this host could not meet it "
                "(every experiment runs at least %d rounds, and the time outside the rounds, "
                "the tables, pools, validation and replays, is spent whatever the budget)\n",
                r.budget, SB_AUTO_ROUNDS_MIN);
out:
    sb_reproduce_free(&r);
    if (status != SB_OK)
        fprintf(stderr, "scanbench: %s\n", err.msg);
    if (out)
        fclose(out);
    free(text);
    sb_stop_finish(); /* after every cleanup: a signal received ends the process here */
    return status;
}
