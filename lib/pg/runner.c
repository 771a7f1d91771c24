/* SPDX-License-Identifier: BSD-3-Clause */
/* runner.c: a session's throwaway PostgreSQL cluster (see runner.h): the servers found, the
 * cluster opened (the disk checked, initdb, the first start, tablespaces, pg_buffercache, the
 * settings in force), the server (re)started with a pool, the session described for the
 * report, and the cluster closed. The table is runner_table.c's, the scans runner_scans.c's,
 * the measurement runner_measure.c's. */
#include "config.h"
#include "pg/runner.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "pg/client.h"
#include "pg/conf.h"
#include "pg/copier.h"
#include "pg/rule.h"
#include "pg/server.h"
#include "pg/session.h"
#include "pg/session_state.h"
#include "pg/sql.h"
#include "pg/stale.h"

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

int sb_pg_session_exec(struct sb_pg_session *s, const char *sql, struct sb_error *err)
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

/* The postmaster's pid and the connected backend's, once per start: each timed scan's kernel
 * readings (around.h) follow them. */
static int read_pids(struct sb_pg_session *s, struct sb_error *err)
{
    uint64_t backend = 0;
    int status = sb_pg_client_u64(&s->client, "SELECT pg_backend_pid()", &backend, err);

    s->backend = (pid_t)backend;
    s->postmaster = sb_pg_postmaster_of(s->server.datadir);
    return status;
}

/* (Re)starts the server with shared_buffers = pool and the cluster's settings of knobs (NULL:
 * none), connects, pins the I/O workers where io_worker_cpu asks and reads what the ring rule
 * reads. */
int sb_pg_session_start(struct sb_pg_session *s, uint64_t pool,
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
    s->postmaster = s->backend = 0;
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
        status = read_pids(s, err);
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
        status = sb_pg_session_exec(s, sql, err);
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
    status = sb_pg_session_start(s, pool, knobs, err);
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

int sb_pg_session_restart(struct sb_pg_session *s, struct sb_error *err)
{
    struct sb_pg_knobs knobs = s->running;

    return sb_pg_session_start(s, s->running_pool, &knobs, err);
}

pid_t sb_pg_session_postmaster(const struct sb_pg_session *s) { return s->postmaster; }

pid_t sb_pg_session_backend(const struct sb_pg_session *s) { return s->backend; }
