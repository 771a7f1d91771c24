/* SPDX-License-Identifier: BSD-3-Clause */
/* runner_scans.c: the scans of a job on a session's table: the op's statement and its count
 * checked, pg_buffercache's count of the table's buffers, and the instrumented scan (EXPLAIN
 * (ANALYZE, BUFFERS) or VACUUM (VERBOSE), the server's write counters across it between
 * settled CHECKPOINTs) for the first scan since a load and for the buffer figures. */
#include "config.h"
#include "pg/session_state.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "pg/client.h"
#include "pg/parse.h"
#include "pg/session.h"
#include "pg/sql.h"

#define EXPLAIN_MAX 65536
#define COUNTERS_MAX 16384
#define REPORT_WAIT_SECONDS 10.0 /* for the checkpointer's statistics after a CHECKPOINT */

/* Op's statement (count, vacuum) as this server speaks it, with the job's VACUUM ring. */
void sb_pg_session_op_statement(const struct sb_pg_session *s, const struct sb_pg_job *job,
                                const char *op, char *buf, size_t len)
{
    if (strcmp(op, "count") == 0)
        snprintf(buf, len, "SELECT count(*) FROM " SB_PG_TABLE_NAME);
    else
        sb_pg_sql_vacuum(s->server.num, false, job->knobs.buffer_usage_limit,
                         SB_PG_TABLE_NAME, buf, len);
}

/* A count(*)'s value (which: "" for the job's own, or which statement it was) against the live
 * rows loaded, counted into m. */
int sb_pg_session_check_rows(const struct sb_pg_job *job, const char *value, const char *which,
                             struct sb_pg_measurement *m, struct sb_error *err)
{
    m->rows_counted = strtoull(value, NULL, 10);
    m->scans_counted++;
    if (m->rows_counted == job->table.rows_live)
        return SB_OK;
    m->counts_ok = false;
    return sb_fail(err, SB_ERR_RUN, "%s: count(*)%s returned %" PRIu64 ", but %" PRIu64 " live "
                   "rows were loaded", job->run->name, which, m->rows_counted,
                   job->table.rows_live);
}

/* One scan of the job's op; count(*) is checked against the live rows. */
int sb_pg_session_scan(struct sb_pg_session *s, const struct sb_pg_job *job, double *seconds,
                       struct sb_pg_measurement *m, struct sb_error *err)
{
    char value[64], sql[128];
    int status;

    sb_pg_session_op_statement(s, job, job->op, sql, sizeof sql);
    status = sb_pg_client_exec(&s->client, sql, value, sizeof value, seconds, err);
    if (status != SB_OK || strcmp(job->op, "count") != 0)
        return status;
    return sb_pg_session_check_rows(job, value, "", m, err);
}

/* The table's buffers after a scan. The query names the file and the database by number, so
 * that it reads no catalog page: in a small pool those would take the ring's buffers back. */
int sb_pg_session_occupancy(struct sb_pg_session *s, struct sb_pg_measurement *m,
                            struct sb_error *err)
{
    char value[128], sql[320];
    long long table = 0, used = 0;
    int status;

    if (!s->buffercache) {
        snprintf(m->occupancy_why, sizeof m->occupancy_why, "pg_buffercache unavailable: %s",
                 s->buffercache_why);
        return SB_OK;
    }
    sb_pg_sql_occupancy(s->server.num, s->filenode, s->database_oid, sql, sizeof sql);
    status = sb_pg_client_exec(&s->client, sql, value, sizeof value, NULL, err);
    if (status != SB_OK)
        return status;
    if (sscanf(value, "%lld %lld", &table, &used) != 2)
        return sb_fail(err, SB_ERR_RUN, "pg_buffercache returned \"%s\"", value);
    m->have_occupancy = true;
    m->table_buffers = table;
    m->used_buffers = used;
    return SB_OK;
}

/* The occupancy query once, its answer dropped: the backend's catalog caches then hold what
 * it needs (pg_buffercache's view and function), so that the query that counts reads no catalog
 * page into shared_buffers after the scan. Without it, in an 85-buffer pool of 8.1 and 8.2 the
 * first count found 34 to 39 of the table's pages where the next, minutes later, found 85. */
int sb_pg_session_warm_occupancy(struct sb_pg_session *s, struct sb_error *err)
{
    struct sb_pg_measurement scratch;

    memset(&scratch, 0, sizeof scratch);
    return sb_pg_session_occupancy(s, &scratch, err);
}

/* The write counters once the checkpointer has reported a CHECKPOINT asked for now: it
 * absorbs the backends' write counts (PostgreSQL 15 and before: md.c register_dirty_segment ->
 * checkpointer.c ForwardSyncRequest, num_backend_writes) and writes what is dirty, and reports
 * its statistics only after the CHECKPOINT command has returned (CheckpointerMain: ckpt_done,
 * then pgstat_report_checkpointer), so the count of requested checkpoints is awaited. No
 * counters (c->have false, why says why) is not an error. */
static int settled_counters(struct sb_pg_session *s, struct sb_pg_write_counters *c, char *why,
                            size_t len, struct sb_error *err)
{
    const char *sql = sb_pg_write_counters_sql(s->server.major);
    char value[COUNTERS_MAX];
    struct sb_pg_write_counters before;
    double t0;
    int status;

    memset(c, 0, sizeof *c);
    if (!sql) {
        snprintf(why, len, "PostgreSQL %d has no json_build_object to ask pg_stat_bgwriter with",
                 s->server.major);
        return SB_OK;
    }
    status = sb_pg_client_exec(&s->client, sql, value, sizeof value, NULL, err);
    if (status == SB_OK && !sb_pg_parse_write_counters(value, &before))
        status = sb_fail(err, SB_ERR_RUN, "the write counters are not as expected: %.80s", value);
    if (status == SB_OK)
        status = sb_pg_session_exec(s, "CHECKPOINT", err);
    for (t0 = sb_timer_now(); status == SB_OK; usleep(10000)) {
        status = sb_pg_client_exec(&s->client, sql, value, sizeof value, NULL, err);
        if (status == SB_OK && sb_pg_parse_write_counters(value, c) &&
            c->checkpoints_requested > before.checkpoints_requested)
            return SB_OK;
        if (status == SB_OK && sb_timer_now() - t0 > REPORT_WAIT_SECONDS)
            status = sb_fail(err, SB_ERR_RUN, "the checkpointer's statistics did not come "
                             "within %.0f s of a CHECKPOINT", REPORT_WAIT_SECONDS);
    }
    memset(c, 0, sizeof *c);
    if (sb_stop_signal() || sb_watchdog_overran())
        return status;
    snprintf(why, len, "%s", err->msg);
    return SB_OK;
}

/* The job's statement, instrumented: EXPLAIN (ANALYZE, BUFFERS) for count (its Seq Scan's rows
 * are checked as a count(*) is), VACUUM (VERBOSE) for vacuum. */
static int explained_scan(struct sb_pg_session *s, const struct sb_pg_job *job,
                          struct sb_pg_scan_writes *w, struct sb_pg_measurement *m,
                          struct sb_error *err)
{
    static char explain[EXPLAIN_MAX];
    char vacuum[128];
    int status;

    if (!sb_pg_sql_explains_buffers(s->server.num)) {
        w->buffers_source = "not measured: EXPLAIN (BUFFERS) and VACUUM VERBOSE's buffer usage "
                            "arrived in PostgreSQL 9.0";
        return sb_pg_session_scan(s, job, NULL, m, err);
    }
    if (strcmp(job->op, "count") != 0) {
        w->buffers_source = "VACUUM (VERBOSE): buffer usage, dirtied (it has no written figure)";
        sb_pg_client_notices_clear(&s->client);
        sb_pg_sql_vacuum(s->server.num, true, job->knobs.buffer_usage_limit, SB_PG_TABLE_NAME,
                         vacuum, sizeof vacuum);
        status = sb_pg_session_exec(s, vacuum, err);
        if (status == SB_OK)
            sb_pg_parse_vacuum_verbose(s->client.notices, "public." SB_PG_TABLE_NAME,
                                       &w->buffers);
        return status;
    }
    w->buffers_source = "EXPLAIN (ANALYZE, BUFFERS): Shared Dirtied Blocks, Shared Written Blocks";
    status = sb_pg_client_exec(&s->client, "EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT "
                               "JSON) SELECT count(*) FROM " SB_PG_TABLE_NAME, explain,
                               sizeof explain, NULL, err);
    if (status != SB_OK || !sb_pg_parse_explain(explain, &w->buffers) || !w->buffers.have_rows)
        return status;
    m->rows_counted = (uint64_t)w->buffers.rows;
    m->scans_counted++;
    if (m->rows_counted != job->table.rows_live) {
        m->counts_ok = false;
        return sb_fail(err, SB_ERR_RUN, "%s: count(*) saw %" PRIu64 " rows, but %" PRIu64
                       " live rows were loaded", job->run->name, m->rows_counted,
                       job->table.rows_live);
    }
    return SB_OK;
}

/* One instrumented scan (the caller evicted the table's buffers just before): its own buffer
 * figures and the server's write counters across it, between a settled CHECKPOINT before and
 * one after (which writes what the statement left dirty). From PostgreSQL 15 the backend is
 * told to flush its pending statistics (pg_stat_io counts its writes there, from 16). */
static int instrumented_scan(struct sb_pg_session *s, const struct sb_pg_job *job,
                             bool first_after_load, struct sb_pg_scan_writes *w,
                             struct sb_pg_measurement *m, struct sb_error *err)
{
    struct sb_pg_write_counters before, after;
    int status;

    memset(w, 0, sizeof *w);
    w->first_after_load = first_after_load;
    status = settled_counters(s, &before, w->counters_why, sizeof w->counters_why, err);
    if (status == SB_OK)
        status = explained_scan(s, job, w, m, err);
    if (status == SB_OK && s->server.major >= 15)
        status = sb_pg_session_exec(s, "SELECT pg_stat_force_next_flush()", err);
    if (status == SB_OK && before.have)
        status = settled_counters(s, &after, w->counters_why, sizeof w->counters_why, err);
    if (status != SB_OK)
        return status;
    if (before.have && after.have)
        sb_pg_write_counters_delta(&before, &after, &w->counters);
    w->measured = true;
    return SB_OK;
}

/* One more scan after an eviction, for the buffer figures of EXPLAIN or VACUUM VERBOSE and the
 * writes of a later scan. */
int sb_pg_session_buffer_figures(struct sb_pg_session *s, const struct sb_pg_job *job,
                                 struct sb_pg_measurement *m, struct sb_error *err)
{
    int status = sb_pg_session_evict(s, m, err);

    if (status == SB_OK)
        status = instrumented_scan(s, job, false, &m->later_scan, m, err);
    if (status == SB_OK) {
        m->buffers = m->later_scan.buffers;
        m->buffers_source = strcmp(job->op, "count") == 0 ? "EXPLAIN (ANALYZE, BUFFERS)"
                                                           : "VACUUM (VERBOSE)";
    }
    return status;
}

/* The job's first scan: instrumented when it is the table's first since the load. */
int sb_pg_session_first_scan(struct sb_pg_session *s, const struct sb_pg_job *job,
                             struct sb_pg_measurement *m, struct sb_error *err)
{
    int status;

    if (s->table_scanned) {
        snprintf(m->first_scan.why, sizeof m->first_scan.why, "not in this run: the table's "
                 "first scan since its load was run %s's", s->first_scanner);
        return sb_pg_session_scan(s, job, NULL, m, err);
    }
    s->table_scanned = true;
    snprintf(s->first_scanner, sizeof s->first_scanner, "%s", job->run->name);
    status = instrumented_scan(s, job, true, &m->first_scan, m, err);
    if (status == SB_OK && !m->first_scan.buffers.have_rows && strcmp(job->op, "count") == 0)
        /* EXPLAIN did not say the rows: count them */
        status = sb_pg_session_scan(s, job, NULL, m, err);
    return status;
}
