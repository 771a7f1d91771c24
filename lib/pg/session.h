/* SPDX-License-Identifier: BSD-3-Clause */
/* session.h: the steps of one throwaway cluster's session (runner*.c), for the schedule that
 * times several clusters side by side in rounds (rounds.h): a cluster of a chosen server
 * started with its pool once, a job prepared on it (the table loaded, the untimed scans), an
 * eviction before each timed statement, the statement's text and the client to send it on, the
 * count checked, and the job's evidence after its timed scans (occupancy, buffer figures). The
 * session's lifecycle (close) is runner.h's. Private to the pg subsystem. */
#ifndef SB_PG_SESSION_H
#define SB_PG_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/core.h"
#include "pg/client.h"
#include "pg/jobs.h"
#include "pg/record.h"

struct sb_pg_session;

/* A progress line on stderr, "scanbench: pg: ...", unless quiet. */
void sb_pg_progress(bool quiet, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A cluster of the server in bindir (NULL: SCANBENCH_PG_BINDIR, else the discovery of
 * server.h) started with shared_buffers = pool and the server settings of knobs (the
 * cluster's: sb_pg_knobs_cluster; NULL: none); jobs: for the block-size check. The disk is the
 * caller's to check. */
int sb_pg_session_open_at(struct sb_pg_session **session, const char *bindir, uint64_t pool,
                          const struct sb_pg_knobs *knobs, const struct sb_pg_jobs *jobs,
                          bool quiet, struct sb_error *err);

/* The job's table loaded (when its shape is not the one loaded; the pool restarted only for
 * a load in a tiny pool), the server on the job's pool, m begun (a backend whose record is
 * another's gets a scratch one), then the untimed scans, each after an eviction. */
int sb_pg_session_prepare(struct sb_pg_session *s, const struct sb_pg_job *job, bool quiet,
                          struct sb_pg_measurement *m, struct sb_error *err);

/* The table's buffers dropped and its file read into the OS cache (m may be NULL). */
int sb_pg_session_evict(struct sb_pg_session *s, struct sb_pg_measurement *m,
                        struct sb_error *err);

/* The statements the job runs, untimed, after an eviction and before its timed one (key
 * statements: "select, vacuum" counts, then the VACUUM is timed); each count checked into m
 * (NULL: not checked). */
int sb_pg_session_before(struct sb_pg_session *s, const struct sb_pg_job *job,
                         struct sb_pg_measurement *m, struct sb_error *err);

/* The job's statement as this server speaks it. */
void sb_pg_session_statement(const struct sb_pg_session *s, const struct sb_pg_job *job,
                             char *buf, size_t len);

struct sb_pg_client *sb_pg_session_client(struct sb_pg_session *s);

/* The server stopped and started again with the pool and settings it ran with: a new instance
 * (its shared memory mapped anew, its processes new), connected again. */
int sb_pg_session_restart(struct sb_pg_session *s, struct sb_error *err);

/* The postmaster's pid and the connected backend's, as the last start read them (0 when the
 * server does not run). */
pid_t sb_pg_session_postmaster(const struct sb_pg_session *s);
pid_t sb_pg_session_backend(const struct sb_pg_session *s);

/* A count(*)'s value against the live rows loaded (SB_OK for vacuum). */
int sb_pg_session_check_count(const struct sb_pg_job *job, const char *value,
                              struct sb_pg_measurement *m, struct sb_error *err);

/* After the job's timed scans: one scan after an eviction and the table's buffers after it
 * (pg_buffercache), then the buffer figures and the writes of a later scan. */
int sb_pg_session_finish(struct sb_pg_session *s, const struct sb_pg_job *job,
                         struct sb_pg_measurement *m, struct sb_error *err);

#endif
