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

/* The command line into r, sets (every --set, in order), pg (--pg, --server) and outdir
 * (-o DIR). */
static int pick(struct sb_reproduction *r, int argc, char **argv, const char **sets, int *nsets,
                bool *pg, const char **outdir, struct sb_error *err)
{
    bool all = false;
    int status = SB_OK;

    for (int i = 1; i < argc && status == SB_OK; i++) {
        const char *a = argv[i], *assignment;
        if (sb_args_take_set(argc, argv, &i, &assignment))
            sets[(*nsets)++] = assignment;
        else if (strcmp(a, "--quick") == 0)
            r->quick = true;
        else if (strcmp(a, "--pg") == 0)
            *pg = true;
        else if (strcmp(a, "--server") == 0 && i + 1 < argc) {
            if (r->nservers == SB_PG_SERVERS_MAX)
                return sb_fail(err, SB_ERR_INPUT, "--server %s: at most %d servers",
                               argv[i + 1], SB_PG_SERVERS_MAX);
            r->servers[r->nservers++] = argv[++i];
            *pg = true; /* a server is measured: --pg */
        }
        else if (strcmp(a, "--twice") == 0)
            r->twice = true;
        else if (strcmp(a, "-o") == 0 && i + 1 < argc && *outdir)
            return sb_fail(err, SB_ERR_INPUT, "-o %s: -o given twice (already -o %s)",
                           argv[i + 1], *outdir);
        else if (strcmp(a, "-o") == 0 && i + 1 < argc)
            *outdir = argv[++i];
        else if (a[0] == '-')
            return sb_fail(err, SB_ERR_INPUT, "%s: unknown option (usage: scanbench reproduce "
                           SB_ARGS_REPRODUCE ")", a);
        else if (strcmp(a, "all") == 0)
            all = true;
        else
            status = sb_reproduce_name(r, a, err);
    }
    if (status == SB_OK && (all || r->n == 0))
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
        status = sb_outdir_create(dir, *outdir, err);
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
