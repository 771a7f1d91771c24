/* SPDX-License-Identifier: BSD-3-Clause */
/* runner_table.c: a session's table: loaded when a job's shape is not the one loaded (in a
 * pool of at least LOAD_POOL), the server then restarted with the job's pool; and evicted
 * before every scan (moved to the other tablespace, or the server restarted where the pool is
 * too small for the move) with its new file read into the OS cache. */
#include "config.h"
#include "pg/session_state.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "pg/client.h"
#include "pg/parse.h"
#include "pg/session.h"
#include "pg/sql.h"
#include "pg/table.h"

#define LOAD_POOL (16ull << 20) /* shared_buffers during a load, at least */

/* The rows a load statement just inserted or deleted (PQcmdTuples), against the shape's. */
static int check_load_step(const struct sb_pg_session *s, const struct sb_pg_table_shape *shape,
                           enum sb_pg_load_step step, struct sb_error *err)
{
    if (step == SB_PG_LOAD_INSERT && s->client.affected != shape->rows)
        return sb_fail(err, SB_ERR_RUN, "the load inserted %" PRIu64 " rows, not %" PRIu64,
                       s->client.affected, shape->rows);
    if (step == SB_PG_LOAD_DELETE && s->client.affected != shape->rows_deleted)
        return sb_fail(err, SB_ERR_RUN, "the load deleted %" PRIu64 " rows, not %" PRIu64,
                       s->client.affected, shape->rows_deleted);
    return SB_OK;
}

/* Loads the table of this shape: one transaction (no WAL at wal_level minimal), checked by
 * the rows inserted and deleted, then a checkpoint. */
static int load_table(struct sb_pg_session *s, const struct sb_pg_table_shape *shape, bool quiet,
                      struct sb_error *err)
{
    char sql[2048], size[32];
    double t0 = sb_timer_now(), seconds;
    int status;

    s->have_table = false;
    sb_stop_test_pause("load");
    sb_pg_progress(quiet, "loading a %s table: %" PRIu64 " rows of %u bytes, %u%% deleted "
                   "(INSERT ... SELECT over generate_series)",
                   sb_format_size(shape->table_size, size, sizeof size), shape->rows,
                   shape->row_width, shape->dead_pct);
    status = sb_pg_session_exec(s, "BEGIN", err);
    for (int step = SB_PG_LOAD_DROP; status == SB_OK; step++) {
        const char *stmt = sb_pg_table_load_sql(shape, "sb_a", step, sql, sizeof sql);
        if (!stmt)
            break;
        /* no DROP ... IF EXISTS before 8.2 (tests/data/pg/server-8.1.txt) */
        if (step == SB_PG_LOAD_DROP && s->server.num < 80200) {
            if (!s->table_exists)
                continue;
            stmt = "DROP TABLE " SB_PG_TABLE_NAME;
        }
        status = sb_pg_session_exec(s, stmt, err);
        if (status == SB_OK && step == SB_PG_LOAD_CREATE)
            s->table_exists = true;
        if (status == SB_OK)
            status = check_load_step(s, shape, step, err);
    }
    if (status == SB_OK)
        status = sb_pg_session_exec(s, "COMMIT", err);
    if (status == SB_OK)
        status = sb_pg_session_exec(s, "CHECKPOINT", err);
    if (status == SB_OK)
        status = sb_pg_client_u64(&s->client, "SELECT pg_relation_size('" SB_PG_TABLE_NAME "')",
                                  &s->relation_bytes, err);
    if (status != SB_OK)
        return status;
    seconds = sb_timer_now() - t0;
    if (s->relation_bytes != shape->pages * shape->page_size)
        sb_pg_progress(quiet, "note: the table has %" PRIu64 " pages, not %" PRIu64 " (%u rows "
                       "a page expected): MB/s counts its real size",
                       s->relation_bytes / shape->page_size, shape->pages, shape->rows_per_page);
    json_array_append_new(s->loads, json_pack("{s:I, s:I, s:I, s:I, s:f}", "table_size",
                                              (json_int_t)shape->table_size, "relation_bytes",
                                              (json_int_t)s->relation_bytes, "rows",
                                              (json_int_t)shape->rows, "rows_deleted",
                                              (json_int_t)shape->rows_deleted, "seconds", seconds));
    s->table = *shape;
    s->have_table = true;
    s->table_scanned = false;
    s->tablespace = 0;
    return SB_OK;
}

/* Every dirty page of the file system under the data directory written back (syncfs: the
 * move's copy, the WAL, the loads that a CHECKPOINT with fsync = off leaves dirty, the other
 * clusters' files), so that the kernel's flusher has nothing to write during a timed scan:
 * before, 83-415MB were dirty at a scan's start and the kernel wrote 33MB during 5 or 6 of 160
 * timed scans; after, nothing (results/vm-epyc-zen4-2core-kvm/live-precision-2026-12-08). */
static int write_back_all(const struct sb_pg_session *s, struct sb_error *err)
{
    int fd = open(s->server.datadir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;

    if (fd < 0)
        return sb_fail(err, SB_ERR_RUN, "%s: %s", s->server.datadir, strerror(errno));
#ifdef __linux__
    rc = syncfs(fd);
#else
    sync();
    rc = 0;
#endif
    close(fd);
    return rc == 0 ? SB_OK
                   : sb_fail(err, SB_ERR_RUN, "%s: syncfs: %s", s->server.datadir,
                             strerror(errno));
}

/* Reads every segment of the table's main fork (path relative to the data directory) into the
 * OS cache, then writes back everything dirty on its file system (write_back_all). */
static int warm_os_cache(struct sb_pg_session *s, struct sb_error *err)
{
    char sql[300], value[600], rel[512], path[900];
    static char buf[1 << 20];
    int status;

    sb_pg_sql_relation_file(s->server.num, SB_PG_TABLE_NAME, sql, sizeof sql);
    status = sb_pg_client_exec(&s->client, sql, value, sizeof value, NULL, err);
    if (status == SB_OK &&
        !sb_pg_parse_relation_file(s->server.num, value, &s->filenode, rel, sizeof rel))
        status = sb_fail(err, SB_ERR_RUN, "the table's file: the server said \"%s\"", value);

    for (int segment = 0; status == SB_OK; segment++) {
        int fd;
        ssize_t n = 0;
        if (segment == 0)
            snprintf(path, sizeof path, "%s/%s", s->server.datadir, rel);
        else
            snprintf(path, sizeof path, "%s/%s.%d", s->server.datadir, rel, segment);
        fd = open(path, O_RDONLY);
        if (fd < 0) {
            if (segment == 0 || errno != ENOENT)
                status = sb_fail(err, SB_ERR_RUN, "%s: cannot read the table's file: %s", path,
                                 strerror(errno));
            break;
        }
        /* a big table takes a while: a signal or the watchdog stops the reading */
        while (status == SB_OK &&
               ((n = read(fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)))
            status = sb_pg_client_stop_check(err);
        if (status == SB_OK && n < 0)
            status = sb_fail(err, SB_ERR_RUN, "%s: %s", path, strerror(errno));
        close(fd);
    }
    return status == SB_OK ? write_back_all(s, err) : status;
}

/* Whether a statement failed because the pool had no buffer left to evict. PostgreSQL raises
 * this with elog(ERROR, "no unpinned buffers available") (freelist.c), not ereport with an
 * errcode: its SQLSTATE is the catch-all XX000 (internal error), which says nothing, so the
 * message text (never translated: elog's are not) is the only signal there is. */
static bool out_of_unpinned_buffers(const struct sb_error *err)
{
    return strstr(err->msg, "no unpinned buffers available") != NULL;
}

/* Drops the table's pages from shared_buffers (it moves to the other tablespace: a block copy;
 * the old file's buffers are invalidated and go back on the free list) and reads its new file
 * into the OS cache. In the smallest pools ALTER TABLE itself can run out of unpinned buffers:
 * then the server is restarted instead (its pool starts empty; in so small a pool, mapping the
 * few buffers a scan uses costs little) and the job's record says so. */
int sb_pg_session_evict(struct sb_pg_session *s, struct sb_pg_measurement *m, struct sb_error *err)
{
    char sql[128];
    int status;

    s->tablespace ^= 1;
    snprintf(sql, sizeof sql, "ALTER TABLE " SB_PG_TABLE_NAME " SET TABLESPACE sb_%c",
             'a' + s->tablespace);
    status = sb_pg_session_exec(s, sql, err);
    if (status != SB_OK && !sb_stop_signal() && out_of_unpinned_buffers(err)) {
        s->tablespace ^= 1; /* it did not move */
        status = sb_pg_session_start(s, s->running_pool, &s->running, err);
        if (status == SB_OK && m)
            m->evictions_by_restart++;
    }
    if (status == SB_OK)
        status = warm_os_cache(s, err);
    return status;
}

/* The job's table loaded (a load in a tiny pool runs out of unpinned buffers: load in at
 * least LOAD_POOL) and the server running with the job's pool; *nbuffers, its shared_buffers
 * in buffers. */
int sb_pg_session_set_up(struct sb_pg_session *s, const struct sb_pg_job *job, bool quiet,
                         uint64_t *nbuffers, struct sb_error *err)
{
    struct sb_pg_knobs cluster;
    int status = SB_OK;

    sb_pg_knobs_cluster(&job->knobs, &cluster);
    if (!s->have_table || !sb_pg_table_same(&s->table, &job->table)) {
        if (s->running_pool < LOAD_POOL)
            status = sb_pg_session_start(s, LOAD_POOL, &job->knobs, err);
        if (status == SB_OK)
            status = load_table(s, &job->table, quiet, err);
    }
    if (status == SB_OK && (s->running_pool != job->pool_size ||
                            !sb_pg_knobs_same(&s->running, &cluster)))
        status = sb_pg_session_start(s, job->pool_size, &job->knobs, err);
    if (status == SB_OK)
        status = sb_pg_client_u64(&s->client, "SELECT setting::bigint FROM pg_settings WHERE "
                                  "name = 'shared_buffers'", nbuffers, err);
    return status;
}
