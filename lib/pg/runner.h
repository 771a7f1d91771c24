/* SPDX-License-Identifier: BSD-3-Clause */
/* runner.h: running pg_jobs on a live PostgreSQL server, for `scanbench pg` and
 * `scanbench reproduce --pg`. A session is one throwaway cluster: opened (free disk checked
 * first, then the server's programs, the user, initdb, start), used for any number of job
 * lists (the table is loaded again only when its shape changes, the server restarted only when
 * shared_buffers changes), and closed (server stopped, cluster removed) on every path.
 *
 * Per job: the table's buffers are evicted before every scan (the table moves between two
 * tablespaces: a block copy that drops its buffers) and its file is read into the OS cache, so
 * every scan, on both sides of PostgreSQL's ring rule, reads every page from the OS cache into
 * shared_buffers (EXPLAIN's shared read says so); one untimed scan first (the count checked;
 * VACUUM removes the dead rows), `warmup` untimed scans, `repetitions` timed ones (each count
 * checked); then pg_buffercache's count of the table's buffers, and EXPLAIN (ANALYZE, BUFFERS)
 * or VACUUM (VERBOSE) on one more scan for the buffer figures. That scan, and the first one when
 * it is the table's first since its load (hint bits unset), are instrumented for the buffers
 * written: the statement's own figures and the server's write counters (pg_stat_io from 16,
 * pg_stat_bgwriter before) across it, between two CHECKPOINTs whose statistics are awaited.
 * Without libpq every call says scanbench was built without it (runner_none.c). */
#ifndef SB_PG_RUNNER_H
#define SB_PG_RUNNER_H

#include <jansson.h>
#include <stdbool.h>

#include "core/core.h"
#include "pg/jobs.h"

struct sb_pg_session;

/* false when scanbench was built without libpq; then why says so, naming the package. */
bool sb_pg_built(char *why, size_t len);

/* jobs: every job the session will run (for the disk check and the first shared_buffers);
 * bindir: the server's (NULL: SCANBENCH_PG_BINDIR, else the discovery of server.h). */
#define SB_PG_SERVERS_MAX 8  /* servers measured at once (--server) */
#define SB_PG_VERSION_MAX 128

/* The servers in bindirs[0..n-1] (n 0: the one of SCANBENCH_PG_BINDIR, else the discovery of
 * server.h), without a cluster: each version string ("8.1.21", "15.20 (Debian ...)") into
 * versions[]; SB_ERR_INPUT when one has none, is one scanbench pg does not measure, or is
 * given twice (naming both --server). */
int sb_pg_servers_find(const char *const *bindirs, size_t n,
                       char (*versions)[SB_PG_VERSION_MAX], struct sb_error *err);

int sb_pg_session_open(struct sb_pg_session **session, const char *bindir,
                       const struct sb_pg_jobs *jobs, bool quiet,
                       struct sb_error *err);

/* Runs the jobs, appending one run record (record.h) per job to runs. Each job, its table's
 * load included, is bounded by its run's run_timeout (the watchdog of stop.h, which cancels the
 * statement in flight): past it, SB_ERR_RUN "pg run J/N NAME ran longer than its run_timeout
 * of S s: stopped", and sb_watchdog_overran() is true. */
int sb_pg_session_run(struct sb_pg_session *session, const struct sb_pg_jobs *jobs, json_t *runs,
                      bool quiet, struct sb_error *err);

/* The report's `postgresql` block: server, settings, how the table was loaded, how scans are
 * timed and evicted, pg_buffercache's availability. */
json_t *sb_pg_session_json(const struct sb_pg_session *session);

/* The session's server version as server_version_num (180004). */
int sb_pg_session_version_num(const struct sb_pg_session *session);

/* Stops the server and removes the cluster; frees the session. NULL is fine. */
void sb_pg_session_close(struct sb_pg_session *session);

#endif
