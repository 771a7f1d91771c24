/* SPDX-License-Identifier: BSD-3-Clause */
/* jobs.h: from a checked plan (plan.h) to the measurements a live PostgreSQL server can
 * make: one job per distinct (table, page size, row width, dead rows, op, pool), in the plan's
 * order. Keys a server cannot be told (source, kernel, policy, ring_size, seed, counters and
 * the cache model's keys) do not make jobs of their own; op `none` has no server statement.
 * Checks what the server would refuse: a pool below PostgreSQL's 128kB minimum, a row width
 * the lineitem-like table cannot have; and keys the server runs do not honour (bigtable,
 * threads...: sb_pg_check_keys). Pure. */
#ifndef SB_PG_JOBS_H
#define SB_PG_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "pg/table.h"
#include "plan/plan.h"

struct sb_pg_job {
    const struct sb_run_params *run; /* the first plan run it stands for (name, op, sizes) */
    struct sb_pg_table_shape table;
    uint64_t pool_size;              /* shared_buffers */
    const char *op;                  /* "count" or "vacuum" */
    uint32_t repetitions, warmup;
    uint32_t threads;                /* backends at once (scanbench pg, interleaved); else 1 */
    /* key statements: the ops run, untimed, after each timed scan's eviction and before its
     * statement ("select, vacuum": a count, then the VACUUM timed: the thread's history) */
    const char *before[SB_MAX_STATEMENTS];
    uint32_t nbefore;
    struct sb_pg_knobs knobs;        /* the server settings the run asks for (plan.h) */
    const char *label;               /* the record's name, for a job that stands for no plan
                                        run of its own (NULL: the run's) */
};

struct sb_pg_jobs {
    struct sb_pg_job *jobs;
    size_t n;
    char notes[1024];                /* runs left out: said once, for the user */
    bool strict;                     /* scanbench pg's: threads make jobs (backends at once) */
};

/* strict (scanbench pg): a pool below 128kB, a bad row width or a key sb_pg_check_keys
 * refuses is bad input (SB_ERR_INPUT, naming the input); otherwise (reproduce --pg) such runs
 * are left out, and such keys left aside, with a note. */
int sb_pg_jobs_build(const struct sb_plan *plan, const struct sb_experiment *exp, bool strict,
                     struct sb_pg_jobs *jobs, struct sb_error *err);
void sb_pg_jobs_free(struct sb_pg_jobs *jobs);

/* PostgreSQL's default shared_buffers: 16384 buffers of 8kB (guc_tables.c, every version
 * scanbench pg measures from 9.6 on). */
#define SB_PG_DEFAULT_SHARED_BUFFERS (128ull << 20)

/* A server at its own defaults (reproduce: the thread's table's row for the newest server):
 * per op of src, in src's order, a copy of its first job with shared_buffers at PostgreSQL's
 * default (SB_PG_DEFAULT_SHARED_BUFFERS), no server key set, named "defaults op=OP", into
 * out (which it allocates). */
int sb_pg_jobs_defaults(const struct sb_pg_jobs *src, struct sb_pg_jobs *out,
                        struct sb_error *err);

/* Appends copies of src's jobs to dst (which may start zeroed): one list for a session that
 * runs several plans (reproduce --pg). */
int sb_pg_jobs_append(struct sb_pg_jobs *dst, const struct sb_pg_jobs *src, struct sb_error *err);

/* Keys that ask for a measurement the server runs do not make (bigtable, data_dir,
 * iocache_node, pool_node, threads, shared_table, shared_pool, oversubscribe,
 * require_counters), set to a value other than the default: SB_ERR_INPUT naming the first, its
 * origin and why, e.g. "x.ini:7: threads: scanbench pg runs one client; threads = 2 is not
 * supported". backends: threads is allowed (the interleaved schedule of rounds.h runs a job's
 * statement on `threads` servers at once). Needs no plan: `scanbench pg` calls it before
 * planning. */
int sb_pg_check_keys(const struct sb_experiment *exp, bool backends, struct sb_error *err);

/* The settings of knobs a cluster is started with: all but buffer_usage_limit (VACUUM's
 * statement's option), which is left at -1; knobs NULL: none set. */
void sb_pg_knobs_cluster(const struct sb_pg_knobs *knobs, struct sb_pg_knobs *cluster);

/* The server keys (buffer_usage_limit, io_combine_limit, effective_io_concurrency, io_method,
 * io_workers, io_worker_cpu, huge_pages) the experiment sets against a server's version
 * (postgres --version's text, "18.4"; bindir names it): SB_ERR_INPUT naming the key, its
 * origin, the server and the version that brought the setting, when the server is older; and
 * io_worker_cpu with threads above 1 (every backend would be pinned to one CPU). */
int sb_pg_check_server_keys(const struct sb_experiment *exp, const char *version,
                            const char *bindir, struct sb_error *err);

/* Which keys the experiment sets that a server cannot be told (source, kernel, policy,
 * ring_size, seed, counters, events, machine, prefetch: a value other than the default, or a
 * list), and what the server does instead, in one line ("" when none). */
void sb_pg_ignored_keys_note(const struct sb_experiment *exp, char *buf, size_t len);

/* The job whose server measurement stands for a plan run with these parameters (op, table,
 * page size, row width, dead rows, pool), or NULL. */
const struct sb_pg_job *sb_pg_jobs_find(const struct sb_pg_jobs *jobs,
                                        const struct sb_run_params *run);

/* Bytes of disk a cluster for these jobs needs: twice the largest table (it is copied when it
 * moves between tablespaces to evict its buffers), an eighth more for its free space and
 * visibility maps, and 256MB for the cluster itself and its WAL. */
uint64_t sb_pg_jobs_disk_need(const struct sb_pg_jobs *jobs);

/* The largest table (bytes), for messages. */
uint64_t sb_pg_jobs_largest_table(const struct sb_pg_jobs *jobs);

#endif
