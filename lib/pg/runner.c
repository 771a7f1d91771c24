/* SPDX-License-Identifier: BSD-3-Clause */
/* runner.c: running pg_jobs on a throwaway PostgreSQL cluster (see runner.h). */
#include "config.h"
#include "pg/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "pg/client.h"
#include "pg/conf.h"
#include "pg/copier.h"
#include "pg/parse.h"
#include "pg/record.h"
#include "pg/rule.h"
#include "pg/server.h"
#include "pg/session.h"
#include "pg/sql.h"

#define EXPLAIN_MAX 65536
#define COUNTERS_MAX 16384
#define LOAD_POOL (16ull << 20) /* shared_buffers during a load, at least */
#define REPORT_WAIT_SECONDS 10.0 /* for the checkpointer's statistics after a CHECKPOINT */

struct sb_pg_session {
    struct sb_pg_server server;
    struct sb_pg_client client;
    bool connected;
    uint64_t running_pool;          /* shared_buffers the server runs with; 0: stopped */
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

bool sb_pg_built(char *why, size_t len)
{
    (void)why;
    (void)len;
    return true;
}

void sb_pg_progress(bool quiet, const char *fmt, ...)
{
    va_list ap;

    if (quiet)
        return;
    va_start(ap, fmt);
    fprintf(stderr, "scanbench: pg: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

static int exec_sql(struct sb_pg_session *s, const char *sql, struct sb_error *err)
{
    return sb_pg_client_exec(&s->client, sql, NULL, 0, NULL, err);
}

/* What the ring rule reads, read back from the server just started (rule.h): its version's
 * defaults, then what pg_settings says where the version's rule reads more than
 * shared_buffers, and the io_method in force; once per start, as none of it changes while the
 * server runs (shared_buffers and BLCKSZ each measurement takes from the session). */
static int read_rule_inputs(struct sb_pg_session *s, struct sb_error *err)
{
    const char *names = sb_pg_rule_settings_names(s->server.num);
    char sql[800], value[2048];
    int status;

    sb_pg_rule_defaults(s->server.num, s->block_size, 0, &s->rule);
    if (!names)
        return SB_OK;
    if (s->server.num >= 180000) {
        status = sb_pg_client_exec(&s->client, "SHOW io_method", s->io_method,
                                   sizeof s->io_method, NULL, err);
        if (status != SB_OK)
            return status;
    }
    snprintf(sql, sizeof sql, "SELECT string_agg(name || '=' || setting, ' ') FROM pg_settings "
             "WHERE name IN (%s)", names);
    status = sb_pg_client_exec(&s->client, sql, value, sizeof value, NULL, err);
    if (status == SB_OK)
        status = sb_pg_rule_inputs_parse(value, &s->rule, err);
    return status;
}

/* (Re)starts the server with shared_buffers = pool and the cluster's settings of knobs (NULL:
 * none), connects, pins the I/O workers where io_worker_cpu asks and reads what the ring rule
 * reads. */
static int start_with_pool(struct sb_pg_session *s, uint64_t pool,
                           const struct sb_pg_knobs *knobs, struct sb_error *err)
{
    struct sb_pg_conf conf;
    int status;

    status = sb_pg_client_stop_check(err);
    if (status != SB_OK)
        return status;
    if (s->connected) {
        sb_pg_client_close(&s->client);
        s->connected = false;
    }
    if (s->running_pool) {
        s->running_pool = 0;
        status = sb_pg_server_stop(&s->server, err);
        if (status != SB_OK)
            return status;
    }
    sb_pg_knobs_cluster(knobs, &s->running);
    sb_pg_conf_build(&conf, s->server.num, s->server.dir, pool, 0, &s->running);
    status = sb_pg_server_start(&s->server, &conf, err);
    if (status != SB_OK)
        return status;
    s->running_pool = pool;
    status = sb_pg_client_connect(&s->client, s->server.dir, err);
    s->connected = status == SB_OK;
    if (status == SB_OK)
        status = sb_pg_pin_io_workers(&s->client, s->running.io_worker_cpu, s->pinned,
                                      sizeof s->pinned, err);
    if (status == SB_OK)
        status = read_rule_inputs(s, err);
    return status;
}

/* pg_buffercache: CREATE EXTENSION from 9.1; before, contrib's script, where the server's
 * `make install` put it (share/postgresql/contrib, or share/contrib under a prefix that names
 * PostgreSQL). */
static int install_buffercache(struct sb_pg_session *s, struct sb_error *err)
{
    static const char *const dirs[] = {"../share/postgresql/contrib", "../share/contrib"};
    char path[700];
    char *script = NULL;
    int status;

    if (sb_pg_sql_extensions(s->server.num))
        return sb_pg_client_exec(&s->client, "CREATE EXTENSION IF NOT EXISTS pg_buffercache",
                                 NULL, 0, NULL, err);
    for (size_t d = 0; d < sizeof dirs / sizeof *dirs && !script; d++) {
        snprintf(path, sizeof path, "%s/%s/pg_buffercache.sql", s->server.bindir, dirs[d]);
        script = sb_pg_read_text(path);
    }
    if (!script)
        return sb_fail(err, SB_ERR_RUN, "no pg_buffercache.sql beside %s (contrib/pg_buffercache "
                       "not installed)", s->server.bindir);
    status = sb_pg_client_exec(&s->client, script, NULL, 0, NULL, err);
    free(script);
    return status;
}

/* First start: block size, tablespaces, pg_buffercache, the settings in force. */
static int prepare_cluster(struct sb_pg_session *s, const struct sb_pg_jobs *jobs,
                           struct sb_error *err)
{
    char sql[600], value[8192];
    uint64_t block;
    int status = sb_pg_client_u64(&s->client, "SHOW block_size", &block, err);

    if (status != SB_OK)
        return status;
    s->block_size = (uint32_t)block;
    for (size_t j = 0; j < jobs->n; j++)
        if (jobs->jobs[j].table.page_size != s->block_size)
            return sb_fail(err, SB_ERR_INPUT, "page_size: %u bytes, but this server's pages "
                           "(BLCKSZ) are %u bytes: set page_size=%u", jobs->jobs[j].table.page_size,
                           s->block_size, s->block_size);
    for (int t = 0; t < 2 && status == SB_OK; t++) {
        snprintf(sql, sizeof sql, "CREATE TABLESPACE sb_%c LOCATION '%s/ts_%c'", 'a' + t,
                 s->server.dir, 'a' + t);
        status = exec_sql(s, sql, err);
    }
    if (status != SB_OK)
        return status;
    if (install_buffercache(s, err) == SB_OK) {
        s->buffercache = true;
    } else {
        if (sb_stop_signal())
            return SB_ERR_RUN;
        snprintf(s->buffercache_why, sizeof s->buffercache_why, "%s", err->msg);
    }
    status = sb_pg_client_u64(&s->client, "SELECT oid FROM pg_database WHERE datname = "
                              "current_database()", &s->database_oid, err);
    if (status != SB_OK)
        return status;
    status = sb_pg_client_exec(&s->client, sb_pg_sql_settings(s->server.num), value,
                               sizeof value, NULL, err);
    if (status == SB_OK)
        s->settings = json_loads(value, 0, NULL);
    return status;
}

int sb_pg_session_open_at(struct sb_pg_session **out, const char *bindir, uint64_t pool,
                          const struct sb_pg_knobs *knobs, const struct sb_pg_jobs *jobs,
                          bool quiet, struct sb_error *err)
{
    struct sb_pg_session *s = calloc(1, sizeof *s);
    char size[32];
    int status;

    *out = s;
    if (!s)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    s->loads = json_array();
    status = sb_pg_server_find(&s->server, bindir, err);
    if (status == SB_OK)
        status = sb_pg_server_choose_user(&s->server, err);
    if (status != SB_OK)
        return status;
    status = sb_pg_cluster_create(&s->server, sb_pg_parent_dir(), err);
    if (status != SB_OK)
        return status;
    sb_pg_progress(quiet, "PostgreSQL %s (%s), cluster in %s, run as %s", s->server.version,
                   s->server.bindir, s->server.dir, s->server.user);
    status = start_with_pool(s, pool, knobs, err);
    if (status == SB_OK)
        status = prepare_cluster(s, jobs, err);
    if (status == SB_OK)
        sb_pg_progress(quiet, "server up, shared_buffers %s, pg_buffercache %s",
                       sb_format_size(s->running_pool, size, sizeof size),
                       s->buffercache ? "available" : "unavailable");
    return status;
}

int sb_pg_session_open(struct sb_pg_session **out, const char *bindir,
                       const struct sb_pg_jobs *jobs, bool quiet, struct sb_error *err)
{
    int status = sb_pg_check_disk(sb_pg_parent_dir(), sb_pg_jobs_disk_need(jobs),
                                  sb_pg_jobs_largest_table(jobs), err);

    *out = NULL;
    if (status != SB_OK)
        return status;
    return sb_pg_session_open_at(out, bindir,
                                 jobs->n ? jobs->jobs[0].pool_size : SB_PG_MIN_SHARED_BUFFERS,
                                 jobs->n ? &jobs->jobs[0].knobs : NULL, jobs, quiet, err);
}

int sb_pg_servers_find(const char *const *bindirs, size_t n,
                       char (*versions)[SB_PG_VERSION_MAX], struct sb_error *err)
{
    for (size_t v = 0; v < (n ? n : 1); v++) {
        struct sb_pg_server server;
        int status;
        memset(&server, 0, sizeof server);
        status = sb_pg_server_find(&server, n ? bindirs[v] : NULL, err);
        if (status != SB_OK)
            return status;
        snprintf(versions[v], SB_PG_VERSION_MAX, "%s", server.version);
        for (size_t w = 0; w < v; w++)
            if (strcmp(versions[w], versions[v]) == 0)
                return sb_fail(err, SB_ERR_INPUT, "--server %s: PostgreSQL %s is given twice "
                               "(also --server %s)", bindirs[v], versions[v], bindirs[w]);
    }
    return SB_OK;
}

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
    status = exec_sql(s, "BEGIN", err);
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
        status = exec_sql(s, stmt, err);
        if (status == SB_OK && step == SB_PG_LOAD_CREATE)
            s->table_exists = true;
        if (status == SB_OK)
            status = check_load_step(s, shape, step, err);
    }
    if (status == SB_OK)
        status = exec_sql(s, "COMMIT", err);
    if (status == SB_OK)
        status = exec_sql(s, "CHECKPOINT", err);
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

/* Reads every segment of the table's main fork (path relative to the data directory) into the
 * OS cache, and writes back what the move left dirty there, so no writeback runs during a
 * timed scan. */
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
        if (status == SB_OK && (n < 0 || fdatasync(fd) != 0))
            status = sb_fail(err, SB_ERR_RUN, "%s: %s", path, strerror(errno));
        close(fd);
    }
    return status;
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
static int evict(struct sb_pg_session *s, struct sb_pg_measurement *m, struct sb_error *err)
{
    char sql[128];
    int status;

    s->tablespace ^= 1;
    snprintf(sql, sizeof sql, "ALTER TABLE " SB_PG_TABLE_NAME " SET TABLESPACE sb_%c",
             'a' + s->tablespace);
    status = exec_sql(s, sql, err);
    if (status != SB_OK && !sb_stop_signal() && out_of_unpinned_buffers(err)) {
        s->tablespace ^= 1; /* it did not move */
        status = start_with_pool(s, s->running_pool, &s->running, err);
        if (status == SB_OK && m)
            m->evictions_by_restart++;
    }
    if (status == SB_OK)
        status = warm_os_cache(s, err);
    return status;
}

/* One scan of the job's op; count(*) is checked against the live rows. */
/* Op's statement (count, vacuum) as this server speaks it, with the job's VACUUM ring. */
static void op_statement(const struct sb_pg_session *s, const struct sb_pg_job *job,
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
static int check_rows(const struct sb_pg_job *job, const char *value, const char *which,
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

static int scan(struct sb_pg_session *s, const struct sb_pg_job *job, double *seconds,
                struct sb_pg_measurement *m, struct sb_error *err)
{
    char value[64], sql[128];
    int status;

    op_statement(s, job, job->op, sql, sizeof sql);
    status = sb_pg_client_exec(&s->client, sql, value, sizeof value, seconds, err);
    if (status != SB_OK || strcmp(job->op, "count") != 0)
        return status;
    return check_rows(job, value, "", m, err);
}

/* The table's buffers after a scan. The query names the file and the database by number, so
 * that it reads no catalog page: in a small pool those would take the ring's buffers back. */
static int occupancy(struct sb_pg_session *s, struct sb_pg_measurement *m, struct sb_error *err)
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
        status = exec_sql(s, "CHECKPOINT", err);
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
        return scan(s, job, NULL, m, err);
    }
    if (strcmp(job->op, "count") != 0) {
        w->buffers_source = "VACUUM (VERBOSE): buffer usage, dirtied (it has no written figure)";
        sb_pg_client_notices_clear(&s->client);
        sb_pg_sql_vacuum(s->server.num, true, job->knobs.buffer_usage_limit, SB_PG_TABLE_NAME,
                         vacuum, sizeof vacuum);
        status = exec_sql(s, vacuum, err);
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
        status = exec_sql(s, "SELECT pg_stat_force_next_flush()", err);
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
static int buffer_figures(struct sb_pg_session *s, const struct sb_pg_job *job,
                          struct sb_pg_measurement *m, struct sb_error *err)
{
    int status = evict(s, m, err);

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
static int first_scan(struct sb_pg_session *s, const struct sb_pg_job *job,
                      struct sb_pg_measurement *m, struct sb_error *err)
{
    int status;

    if (s->table_scanned) {
        snprintf(m->first_scan.why, sizeof m->first_scan.why, "not in this run: the table's "
                 "first scan since its load was run %s's", s->first_scanner);
        return scan(s, job, NULL, m, err);
    }
    s->table_scanned = true;
    snprintf(s->first_scanner, sizeof s->first_scanner, "%s", job->run->name);
    status = instrumented_scan(s, job, true, &m->first_scan, m, err);
    if (status == SB_OK && !m->first_scan.buffers.have_rows && strcmp(job->op, "count") == 0)
        status = scan(s, job, NULL, m, err); /* EXPLAIN did not say the rows: count them */
    return status;
}

/* The job's table loaded (a load in a tiny pool runs out of unpinned buffers: load in at
 * least LOAD_POOL) and the server running with the job's pool; *nbuffers, its shared_buffers
 * in buffers. */
static int prepare_job(struct sb_pg_session *s, const struct sb_pg_job *job, bool quiet,
                       uint64_t *nbuffers, struct sb_error *err)
{
    struct sb_pg_knobs cluster;
    int status = SB_OK;

    sb_pg_knobs_cluster(&job->knobs, &cluster);
    if (!s->have_table || !sb_pg_table_same(&s->table, &job->table)) {
        if (s->running_pool < LOAD_POOL)
            status = start_with_pool(s, LOAD_POOL, &job->knobs, err);
        if (status == SB_OK)
            status = load_table(s, &job->table, quiet, err);
    }
    if (status == SB_OK && (s->running_pool != job->pool_size ||
                            !sb_pg_knobs_same(&s->running, &cluster)))
        status = start_with_pool(s, job->pool_size, &job->knobs, err);
    if (status == SB_OK)
        status = sb_pg_client_u64(&s->client, "SELECT setting::bigint FROM pg_settings WHERE "
                                  "name = 'shared_buffers'", nbuffers, err);
    return status;
}

/* The measurement's server, table and pool, and where PostgreSQL's rule puts the pages. */
static void measurement_start(const struct sb_pg_session *s, const struct sb_pg_job *job,
                              uint64_t nbuffers, const double *seconds,
                              struct sb_pg_measurement *m)
{
    struct sb_pg_rule_inputs in = s->rule;

    snprintf(m->server_version, sizeof m->server_version, "%s", s->server.version);
    sb_pg_session_statement(s, job, m->statement, sizeof m->statement);
    m->relation_bytes = s->relation_bytes;
    m->block_size = s->block_size;
    m->nbuffers = nbuffers;
    m->seconds = seconds;
    in.nbuffers = nbuffers;
    in.block_size = s->block_size;
    in.statement_limit_kb = job->knobs.buffer_usage_limit >= 0
                                ? job->knobs.buffer_usage_limit / 1024 : -1;
    m->rule = in;
    sb_pg_placement_rule(job->op, s->relation_bytes / s->block_size, &in, &m->placement);
    sb_pg_copier_text(s->server.num, s->io_method, s->pinned, m->copier, sizeof m->copier);
}

/* The occupancy query once, its answer dropped: the backend's catalog caches then hold what
 * it needs (pg_buffercache's view and function), so that the query that counts reads no catalog
 * page into shared_buffers after the scan. Without it, in an 85-buffer pool of 8.1 and 8.2 the
 * first count found 34 to 39 of the table's pages where the next, minutes later, found 85. */
static int warm_occupancy(struct sb_pg_session *s, struct sb_error *err)
{
    struct sb_pg_measurement scratch;

    memset(&scratch, 0, sizeof scratch);
    return occupancy(s, &scratch, err);
}

/* The first scan (hint bits set for count, dead rows removed for vacuum; instrumented when it
 * is the table's first since its load) and the warm-up; each after an eviction; then the
 * occupancy query warmed. */
static int untimed_scans(struct sb_pg_session *s, const struct sb_pg_job *job,
                         struct sb_pg_measurement *m, struct sb_error *err)
{
    int status = SB_OK;

    for (uint32_t w = 0; w <= job->warmup && status == SB_OK; w++) {
        status = evict(s, m, err);
        if (status == SB_OK)
            status = w == 0 ? first_scan(s, job, m, err) : scan(s, job, NULL, m, err);
    }
    if (status == SB_OK)
        status = warm_occupancy(s, err);
    return status;
}

int sb_pg_session_before(struct sb_pg_session *s, const struct sb_pg_job *job,
                         struct sb_pg_measurement *m, struct sb_error *err)
{
    char sql[128], value[64];
    int status = SB_OK;

    for (uint32_t k = 0; k < job->nbefore && status == SB_OK; k++) {
        op_statement(s, job, job->before[k], sql, sizeof sql);
        status = sb_pg_client_exec(&s->client, sql, value, sizeof value, NULL, err);
        if (status == SB_OK && m && strcmp(job->before[k], "count") == 0)
            status = check_rows(job, value, " before the timed statement", m, err);
    }
    return status;
}

/* The untimed scans, then the timed repetitions into seconds[]; each after an eviction (and
 * the statements before the op). */
static int job_scans(struct sb_pg_session *s, const struct sb_pg_job *job, double *seconds,
                     struct sb_pg_measurement *m, struct sb_error *err)
{
    int status = untimed_scans(s, job, m, err);

    for (uint32_t r = 0; r < job->repetitions && status == SB_OK; r++) {
        status = evict(s, m, err);
        if (status == SB_OK)
            status = sb_pg_session_before(s, job, m, err);
        if (status == SB_OK)
            status = scan(s, job, &seconds[r], m, err);
        if (status == SB_OK)
            m->nreps++;
    }
    return status;
}

static int run_job(struct sb_pg_session *s, const struct sb_pg_job *job, json_t *runs, bool quiet,
                   struct sb_error *err)
{
    struct sb_pg_measurement m;
    double *seconds = calloc(job->repetitions ? job->repetitions : 1, sizeof *seconds);
    uint64_t nbuffers;
    char size[32], pool[32];
    int status;
    json_t *record;

    memset(&m, 0, sizeof m);
    m.counts_ok = true;
    m.name = job->label;
    if (!seconds)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    status = prepare_job(s, job, quiet, &nbuffers, err);
    if (status != SB_OK)
        goto out;
    measurement_start(s, job, nbuffers, seconds, &m);
    sb_pg_progress(quiet, "%s: %s, %s table, shared_buffers %s: %s", job->run->name, job->op,
                   sb_format_size(job->table.table_size, size, sizeof size),
                   sb_format_size(job->pool_size, pool, sizeof pool), m.placement.why);
    status = job_scans(s, job, seconds, &m, err);
    if (status == SB_OK)
        status = occupancy(s, &m, err);
    if (status == SB_OK)
        status = buffer_figures(s, job, &m, err);
    if (status != SB_OK)
        goto out;
    record = sb_pg_record(job, &m);
    if (!record) {
        status = sb_fail(err, SB_ERR_RUN, "cannot build the record of %s", job->run->name);
        goto out;
    }
    json_array_append_new(runs, record);
out:
    free(seconds);
    return status;
}

/* --- the steps of one session, for the interleaved schedule (session.h) ------------------- */

int sb_pg_session_prepare(struct sb_pg_session *s, const struct sb_pg_job *job, bool quiet,
                          struct sb_pg_measurement *m, struct sb_error *err)
{
    uint64_t nbuffers;
    int status = prepare_job(s, job, quiet, &nbuffers, err);

    if (status == SB_OK)
        measurement_start(s, job, nbuffers, NULL, m);
    if (status == SB_OK)
        status = untimed_scans(s, job, m, err);
    return status;
}

int sb_pg_session_evict(struct sb_pg_session *s, struct sb_pg_measurement *m,
                        struct sb_error *err)
{
    return evict(s, m, err);
}

void sb_pg_session_statement(const struct sb_pg_session *s, const struct sb_pg_job *job,
                             char *buf, size_t len)
{
    op_statement(s, job, job->op, buf, len);
}

struct sb_pg_client *sb_pg_session_client(struct sb_pg_session *s)
{
    return &s->client;
}

int sb_pg_session_check_count(const struct sb_pg_job *job, const char *value,
                              struct sb_pg_measurement *m, struct sb_error *err)
{
    return strcmp(job->op, "count") == 0 ? check_rows(job, value, "", m, err) : SB_OK;
}

int sb_pg_session_finish(struct sb_pg_session *s, const struct sb_pg_job *job,
                         struct sb_pg_measurement *m, struct sb_error *err)
{
    int status = warm_occupancy(s, err);

    if (status == SB_OK)
        status = evict(s, m, err);
    if (status == SB_OK)
        status = scan(s, job, NULL, m, err);
    if (status == SB_OK)
        status = occupancy(s, m, err);
    if (status == SB_OK)
        status = buffer_figures(s, job, m, err);
    return status;
}

int sb_pg_session_run(struct sb_pg_session *s, const struct sb_pg_jobs *jobs, json_t *runs,
                      bool quiet, struct sb_error *err)
{
    int status = SB_OK;

    for (size_t j = 0; j < jobs->n && status == SB_OK; j++) {
        const struct sb_pg_job *job = &jobs->jobs[j];
        char what[320], more[64] = "";

        /* the watchdog bounds the job, its table's load included, as runner.c bounds a run:
         * past run_timeout it cancels the statement in flight and the job stops */
        snprintf(what, sizeof what, "pg run %zu/%zu %s", j + 1, jobs->n, job->run->name);
        sb_watchdog_arm(job->run->run_timeout, what);
        status = run_job(s, job, runs, quiet, err);
        sb_watchdog_disarm();
        if (status != SB_OK && sb_watchdog_overran() && !sb_stop_signal()) {
            if (jobs->n > j + 1)
                snprintf(more, sizeof more, "; %zu more not run", jobs->n - j - 1);
            status = sb_fail(err, SB_ERR_RUN, "%s ran longer than its run_timeout of %.0f s: "
                             "stopped%s", what, job->run->run_timeout, more);
        }
    }
    return status;
}

json_t *sb_pg_session_json(const struct sb_pg_session *s)
{
    json_t *settings = sb_pg_conf_json(&s->server.conf);
    json_t *in_force = s->settings ? json_deep_copy(s->settings) : json_null();

    /* shared_buffers is each run's pool_size */
    json_object_set_new(settings, "shared_buffers", json_string("each run's pool_size"));
    if (json_is_object(in_force))
        json_object_set_new(in_force, "shared_buffers", json_string("each run's pool_size"));
    return json_pack(
        "{s:s, s:i, s:s, s:s, s:s, s:o, s:o, s:s, s:{s:s, s:s, s:O}, s:s, s:s, s:s}",
        "server_version", s->server.version, "major", s->server.major, "bindir",
        s->server.bindir, "user", s->server.user, "cluster",
        "initdb into a new directory under $TMPDIR (else /tmp), removed at exit; only a Unix "
        "socket in that directory",
        "settings", settings,
        "pg_settings", in_force,
        "pg_buffercache", s->buffercache ? "available" : s->buffercache_why,
        "load", "method", "INSERT ... SELECT over generate_series(1, rows), in the transaction "
                          "that creates the table (wal_level = minimal: no WAL), then DELETE of "
                          "the rows whose l_orderkey % 100 < dead_pct, COMMIT, CHECKPOINT",
        "columns", "TPC-H lineitem's, money as integer cents, l_comment padded to row_width "
                   "bytes of user data a row",
        "loads", s->loads,
        "timing", "client-side CLOCK_MONOTONIC_RAW around PQexec of the statement; MB/s = "
                  "pg_relation_size / seconds / 10^6",
        "eviction", "before every scan the table moves to the other of two tablespaces (ALTER "
                    "TABLE ... SET TABLESPACE: a block copy that drops its buffers) and its file "
                    "is read into the OS cache: every scan reads every page from the OS cache",
        "ring", "PostgreSQL has no setting that turns the seqscan ring off (VACUUM's, from 16: "
                "BUFFER_USAGE_LIMIT 0, key buffer_usage_limit): where a COUNT(*) uses its ring, "
                "PostgreSQL 8.2's clock sweep over the whole pool is only in scanbench's own "
                "column (scanbench run --set policy=clock)");
}

int sb_pg_session_version_num(const struct sb_pg_session *s)
{
    return s->server.num;
}

void sb_pg_session_close(struct sb_pg_session *s)
{
    if (!s)
        return;
    if (s->connected)
        sb_pg_client_close(&s->client);
    sb_pg_cluster_remove(&s->server);
    json_decref(s->loads);
    json_decref(s->settings);
    free(s);
}
