/* SPDX-License-Identifier: BSD-3-Clause */
/* reproduce.h: the 2007 thread's experiments (configs/experiments/NAME.ini with a [thread]
 * section) reproduced on this host (doc/reproduction.md). Each experiment is read and planned
 * before any runs, its thread's slow and fast pools scaled to this host and run in the same
 * rounds (placements.h); the budget is shared by the questions each answers (budget.h); the
 * thread's machine is emulated with each mechanism switched off in turn (emulation.h); the
 * buffer search's share is timed (search.h); with --pg every experiment also runs on live
 * PostgreSQL servers; with --twice each schedule runs twice. Each experiment is printed in the
 * thread's layout (render/reproduction.h) and its report kept in an output directory.
 * `scanbench reproduce` is the command line over it. */
#ifndef SB_REPRODUCE_H
#define SB_REPRODUCE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/core.h"
#include "pg/pg.h"
#include "plan/plan.h"
#include "render/render.h"
#include "reproduce/emulation.h"
#include "reproduce/estimate.h"
#include "runner/runner_setup.h"

#define SB_REPRODUCE_MAX_EXPERIMENTS 64
#define SB_REPRODUCE_NAME_MAX SB_CONFIGS_NAME_MAX
#define SB_REPRODUCE_MAX_SETS 261 /* the reproduction's own 5 and a command line's 256 */
#define SB_REPRODUCE_MAX_POOLS SB_MAX_LIST /* an experiment's pools, its scaled ones added */

/* A reproduction: zeroed, then its experiments named (sb_reproduce_name, sb_reproduce_name_all),
 * quick, twice and servers set, then prepared, its servers opened, run, freed. */
struct sb_reproduction {
    char names[SB_REPRODUCE_MAX_EXPERIMENTS][SB_REPRODUCE_NAME_MAX];
    int n;
    /* the experiments known (sb_reproduce_known), read once, when the first is named */
    char known[SB_REPRODUCE_MAX_EXPERIMENTS][SB_REPRODUCE_NAME_MAX];
    int nknown;
    bool known_read;
    struct sb_setup setups[SB_REPRODUCE_MAX_EXPERIMENTS]; /* each experiment read and planned */
    const char *servers[SB_PG_SERVERS_MAX]; /* --server BINDIR..., in order */
    int nservers;
    struct sb_pg_session *sessions[SB_PG_SERVERS_MAX]; /* a cluster per server */
    int nsessions;
    bool quick; /* --quick */
    bool twice; /* --twice: every experiment's schedule twice, with different seeds */
    double budget; /* seconds all the rounds may take (time_budget, or the default) */
    char budget_from[64]; /* whose budget it is, for the estimate: "--quick's", "time_budget's" */
    /* what each experiment asks of the host, and the rates measured so far (estimate.h) */
    struct sb_reproduce_work work[SB_REPRODUCE_MAX_EXPERIMENTS];
    struct sb_reproduce_rates rates;
    struct sb_mem_limit limit; /* the host's memory limit, read once when prepared */
    struct sb_pg_jobs pg_jobs[SB_REPRODUCE_MAX_EXPERIMENTS], pg_all;
    /* per experiment, its ops on the newest server at that server's own defaults */
    struct sb_pg_jobs pg_defaults[SB_REPRODUCE_MAX_EXPERIMENTS];
    /* the thread's slow [0] and fast [1] pools scaled to this host (plan/scaling.h), run in
     * the same rounds; scaled_why says why an experiment has none */
    struct sb_scaled_pool scaled[SB_REPRODUCE_MAX_EXPERIMENTS][2];
    bool has_scaled[SB_REPRODUCE_MAX_EXPERIMENTS];
    char scaled_why[SB_REPRODUCE_MAX_EXPERIMENTS][256];
    /* what each experiment was read from, and the sets applied */
    char paths[SB_REPRODUCE_MAX_EXPERIMENTS][1024];
    const char *sets[SB_REPRODUCE_MAX_SETS];
    int nsets;
    json_t *emulations[SB_REPRODUCE_MAX_EXPERIMENTS]; /* each experiment's emulation block */
    struct sb_machine_factors factors; /* the core factor each machine was calibrated to */
};

/* The experiments that carry a [thread] section, by name, from the first configs directory
 * that has any, sorted; their number (at most max). */
int sb_reproduce_known(char names[][SB_REPRODUCE_NAME_MAX], int max);

/* Adds experiment name (one of the known) to r. SB_ERR_INPUT when it is not known (the
 * message lists those that are) or named twice. */
int sb_reproduce_name(struct sb_reproduction *r, const char *name, struct sb_error *err);

/* Names every known experiment (replacing any named); SB_ERR_INPUT when there are none. */
int sb_reproduce_name_all(struct sb_reproduction *r, struct sb_error *err);

/* Reads and plans every experiment named before running any, so bad input stops everything:
 * each file, then repetitions=auto, --quick's sets, the cache model's counters when built,
 * and sets (the command line's --set, nsets at most 256), in that order; pools scaled, a
 * --quick sweep trimmed, the thread's placements checked; the budget set. */
int sb_reproduce_prepare(struct sb_reproduction *r, const char *const *sets, int nsets,
                         struct sb_error *err);

/* --pg: the server measurements of every experiment (pools below PostgreSQL's minimum left out
 * with a note), and a cluster per server (each of servers, else the one found) to make them,
 * opened before any run; the same server twice is bad input. */
int sb_reproduce_open_pg(struct sb_reproduction *r, struct sb_error *err);

/* Every experiment (twice with twice): its table and verdict into out, counted into t, its
 * reports saved in dir (NULL: none). Progress on stderr. */
int sb_reproduce_all(struct sb_reproduction *r, FILE *out, struct sb_outdir *dir,
                     struct sb_reproduction_tally *t, struct sb_error *err);

/* Closes the servers and frees what r holds. */
void sb_reproduce_free(struct sb_reproduction *r);

/* the rest of the subsystem's interface */
#include "reproduce/budget.h"
#include "reproduce/placements.h"
#include "reproduce/search.h"

#endif
