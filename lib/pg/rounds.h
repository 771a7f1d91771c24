/* SPDX-License-Identifier: BSD-3-Clause */
/* rounds.h: `scanbench pg`'s interleaved schedule: every setting that needs a server of its
 * own (a server version, a shared_buffers, a table, a backend of several) gets a cluster of its
 * own, all running side by side, each on its own socket; then the timed scans run in rounds,
 * every (server, job) once per round in a seeded shuffle (stats/schedule.h: each shuffle
 * followed by its reverse), the first of them a second time on twin clusters prepared as its
 * own (the A-A pair of the noise floor), each after an eviction of its table's buffers, with
 * what the kernel says of its backend around it (around.h). Every SB_PG_INSTANCE_ROUNDS rounds
 * every cluster is restarted: a new server instance, the live path's layout, which each scan
 * names. repetitions = auto rounds until every pair (the A-A pair too) is within
 * SB_PG_PRECISION over SB_PG_INSTANCES_MIN instances, or the budget.
 * The host's drift lands on every server and setting alike, and each round is a paired sample:
 * the report's analysis pairs runs by round as it does for `run`. A job with threads = N sends
 * its statement at once to N clusters of its server and pool, each scanning its own copy of the
 * table (Greenplum's segments are PostgreSQL instances of their own): MB/s summed. */
#ifndef SB_PG_ROUNDS_H
#define SB_PG_ROUNDS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "pg/jobs.h"
#include "pg/runner.h"

#define SB_PG_ROUNDS_MIN 10  /* repetitions = auto: at least this many rounds */
#define SB_PG_ROUNDS_MAX 1000 /* and at most this many (the most a report holds) */
#define SB_PG_PRECISION 0.02 /* auto stops when every pair's interval is within +-2% */
#define SB_PG_INSTANCES_MIN 5 /* over at least this many instances of each cluster */
#define SB_PG_BUDGET_PER_RUN 60.0 /* time_budget = auto: seconds of rounds per run, at most */
#define SB_PG_INSTANCE_ROUNDS 6 /* rounds on one instance: every cluster restarted after them */

/* Where repetitions = auto stands after a round. */
struct sb_pg_auto {
    uint32_t rounds;     /* finished */
    uint32_t instances;  /* the clusters' instances they ran on */
    double elapsed;      /* seconds of rounds so far */
    double last_round;   /* seconds the last round took (its restarts included) */
    double budget;       /* time_budget */
};

/* Why auto stops after these rounds, or NULL to go on: "time_budget" when another round of
 * the last one's length would pass the budget; "precision" when settled(ctx) says every pair
 * is within the precision, asked only after a whole pair of rounds (an even count) and on at
 * least SB_PG_INSTANCES_MIN instances; never before SB_PG_ROUNDS_MIN rounds, and never because
 * a difference looked significant (settled asks for narrow intervals, whatever they say). */
const char *sb_pg_auto_stop(const struct sb_pg_auto *a, bool (*settled)(void *ctx), void *ctx);

/* Whether the rounds so far answer within the precision: given the report's runs (each with
 * its scans and paired_with) and schedule, as the analysis reads them. */
typedef bool (*sb_pg_settled_fn)(const json_t *runs, const json_t *schedule, double precision);

struct sb_pg_rounds_params {
    const char *servers[SB_PG_SERVERS_MAX]; /* bin directories (--server); none: discovery */
    size_t nservers;
    uint32_t rounds;    /* repetitions; 0: auto (rounds until time_budget, within the bounds) */
    double time_budget; /* seconds of rounds, for auto */
    uint64_t seed;      /* the shuffles' */
    sb_pg_settled_fn settled; /* auto: asked after each pair of rounds, from
                                 SB_PG_INSTANCES_MIN instances on; NULL: the budget alone */
    bool quiet;
};

struct sb_pg_fleet;

/* The servers found (each refused as server.h refuses one; the same server twice is bad
 * input), the disk checked for every cluster, the clusters created and started. */
int sb_pg_fleet_open(struct sb_pg_fleet **fleet, const struct sb_pg_jobs *jobs,
                     const struct sb_pg_rounds_params *params, struct sb_error *err);

/* How many runs the fleet times (a record each: servers x jobs). */
size_t sb_pg_fleet_runs(const struct sb_pg_fleet *fleet);

/* After a stop: the whole rounds finished, and the run in flight (its 0-based index among the
 * runs, its name). */
uint32_t sb_pg_fleet_rounds_done(const struct sb_pg_fleet *fleet, size_t *unit,
                                 const char **name);

/* Prepares every job on its clusters, times the rounds, appends one record per (server, job)
 * to runs (named "RUN server=VERSION" with several servers) and sets *schedule to the report's
 * schedule block (with the reference's second timings). A stop (signal, watchdog) during the
 * rounds keeps the rounds finished: the records are built from them, *partial true. */
int sb_pg_fleet_run(struct sb_pg_fleet *fleet, json_t *runs, json_t **schedule, bool *partial,
                    struct sb_error *err);

/* The report's `postgresql` block: the first cluster's (server.h), with every server and
 * cluster listed. */
json_t *sb_pg_fleet_json(const struct sb_pg_fleet *fleet);

/* Stops every server, removes every cluster; NULL is fine. */
void sb_pg_fleet_close(struct sb_pg_fleet *fleet);

#endif
