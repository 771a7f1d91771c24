/* SPDX-License-Identifier: BSD-3-Clause */
/* session_state.h: the state of one session (struct sb_pg_session: the server, the client, the
 * table loaded and where it lies, pg_buffercache) and the steps its files share: the cluster
 * (runner.c), the table (runner_table.c), the scans (runner_scans.c) and the measurement
 * (runner_measure.c). Internal to those files. */
#ifndef SB_PG_SESSION_STATE_H
#define SB_PG_SESSION_STATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/core.h"
#include "pg/client.h"
#include "pg/jobs.h"
#include "pg/record.h"
#include "pg/rule.h"
#include "pg/server.h"
#include "pg/table.h"

struct sb_pg_session {
    struct sb_pg_server server;
    struct sb_pg_client client;
    bool connected;
    uint64_t running_pool;          /* shared_buffers the server runs with; 0: stopped */
    pid_t postmaster, backend;      /* this start's, read once at it (0: stopped) */
    struct sb_pg_knobs running;     /* the experiment's settings it runs with (the cluster's:
                                       buffer_usage_limit is the statement's) */
    struct sb_pg_rule_inputs rule;  /* what the ring rule reads, as the server has it */
    char io_method[16];             /* in force (18 on; "" before) */
    char pinned[256];               /* io_worker_cpu: what was pinned where ("": nothing) */
    uint32_t block_size;
    bool have_table;
    bool table_exists; /* a load created it (it may be half-loaded: have_table false) */
    struct sb_pg_table_shape table; /* what is loaded */
    bool table_scanned;             /* scanned since it was loaded */
    char first_scanner[128];        /* the run whose job scanned it first */
    uint64_t relation_bytes;        /* pg_relation_size of it */
    int tablespace;                 /* 0: sb_a, 1: sb_b (where the table lies now) */
    uint64_t database_oid;          /* of database postgres */
    uint64_t filenode;              /* the table's file now (pg_relation_filenode) */
    bool buffercache;
    char buffercache_why[256];
    json_t *loads;                  /* every load: size, rows, seconds */
    json_t *settings;               /* pg_settings not at their defaults, at the first start */
};

/* runner.c: the cluster */

/* One statement whose answer is dropped. */
int sb_pg_session_exec(struct sb_pg_session *s, const char *sql, struct sb_error *err);

/* (Re)starts the server with shared_buffers = pool and the cluster's settings of knobs (NULL:
 * none), connects, pins the I/O workers and reads what the ring rule reads. */
int sb_pg_session_start(struct sb_pg_session *s, uint64_t pool, const struct sb_pg_knobs *knobs,
                        struct sb_error *err);

/* runner_table.c: the table (sb_pg_session_evict is session.h's) */

/* The job's table loaded and the server running with the job's pool; *nbuffers, its
 * shared_buffers in buffers. */
int sb_pg_session_set_up(struct sb_pg_session *s, const struct sb_pg_job *job, bool quiet,
                         uint64_t *nbuffers, struct sb_error *err);

/* runner_scans.c: the scans */

/* Op's statement (count, vacuum) as this server speaks it, with the job's VACUUM ring. */
void sb_pg_session_op_statement(const struct sb_pg_session *s, const struct sb_pg_job *job,
                                const char *op, char *buf, size_t len);

/* A count(*)'s value (which: "" for the job's own, or which statement it was) against the live
 * rows loaded, counted into m. */
int sb_pg_session_check_rows(const struct sb_pg_job *job, const char *value, const char *which,
                             struct sb_pg_measurement *m, struct sb_error *err);

/* One scan of the job's op (timed into *seconds unless NULL); count(*) is checked. */
int sb_pg_session_scan(struct sb_pg_session *s, const struct sb_pg_job *job, double *seconds,
                       struct sb_pg_measurement *m, struct sb_error *err);

/* The table's buffers after a scan (pg_buffercache), into m. */
int sb_pg_session_occupancy(struct sb_pg_session *s, struct sb_pg_measurement *m,
                            struct sb_error *err);

/* The occupancy query once, its answer dropped (the catalog caches warmed). */
int sb_pg_session_warm_occupancy(struct sb_pg_session *s, struct sb_error *err);

/* The job's first scan: instrumented when it is the table's first since the load. */
int sb_pg_session_first_scan(struct sb_pg_session *s, const struct sb_pg_job *job,
                             struct sb_pg_measurement *m, struct sb_error *err);

/* One more scan after an eviction, for the buffer figures and the writes of a later scan. */
int sb_pg_session_buffer_figures(struct sb_pg_session *s, const struct sb_pg_job *job,
                                 struct sb_pg_measurement *m, struct sb_error *err);

#endif
