/* record.c: a live-server measurement as a report run record (see record.h). */
#include "config.h"
#include "pg/record.h"

#include <stdio.h>

#include "stats/stats.h"

bool sb_pg_occupancy_consistent(const struct sb_pg_placement *placement, uint64_t table_pages,
                                uint32_t block_size, int64_t table_buffers)
{
    if (placement->ring_size)
        return table_buffers >= 0 &&
               table_buffers <= 2 * (int64_t)(placement->ring_size / block_size);
    return table_buffers == (int64_t)table_pages;
}

static json_t *occupancy_json(const struct sb_pg_job *job, const struct sb_pg_measurement *m)
{
    uint64_t pages = m->block_size ? m->relation_bytes / m->block_size : 0;
    bool consistent;
    char expect[160];

    if (!m->have_occupancy)
        return json_pack("{s:n, s:n, s:s}", "table_buffers", "used_buffers", "unavailable",
                         m->occupancy_why);
    consistent = sb_pg_occupancy_consistent(&m->placement, pages, m->block_size,
                                            m->table_buffers);
    if (m->placement.ring_size)
        snprintf(expect, sizeof expect, "ring: at most %llu buffers, twice the ring's %llu "
                 "(fewer where the backend's own pages take ring buffers back)",
                 (unsigned long long)(2 * m->placement.ring_size / m->block_size),
                 (unsigned long long)(m->placement.ring_size / m->block_size));
    else
        snprintf(expect, sizeof expect, "clock: every page of the table (%llu buffers)",
                 (unsigned long long)pages);
    (void)job;
    return json_pack("{s:I, s:I, s:I, s:s, s:b, s:s}", "table_buffers",
                     (json_int_t)m->table_buffers, "used_buffers", (json_int_t)m->used_buffers,
                     "nbuffers", (json_int_t)m->nbuffers, "expected", expect, "consistent",
                     consistent, "when", "after one scan that started with none of the "
                     "table's pages in shared_buffers (pg_buffercache, main fork)");
}

static json_t *buffers_json(const struct sb_pg_measurement *m)
{
    if (!m->buffers.have)
        return json_null();
    return json_pack("{s:s, s:I, s:I, s:I, s:s}", "source", m->buffers_source, "shared_hit",
                     (json_int_t)m->buffers.hit, "shared_read", (json_int_t)m->buffers.read,
                     "shared_dirtied", (json_int_t)m->buffers.dirtied, "when",
                     "one scan that started with none of the table's pages in shared_buffers");
}

/* The run's repetitions: each timed scan's seconds. */
static json_t *repetitions_json(const struct sb_pg_measurement *m)
{
    json_t *seconds = json_array();

    for (uint32_t r = 0; r < m->nreps; r++)
        json_array_append_new(seconds, json_real(m->seconds[r]));
    return seconds;
}

/* The run's timed scans: the server's scans are timed one run after another, so a run's
 * repetition r is "round" r, at position 0, with no time of day. */
static json_t *scans_json(const struct sb_pg_measurement *m)
{
    json_t *scans = json_array();

    for (uint32_t r = 0; r < m->nreps; r++)
        json_array_append_new(scans, json_pack("{s:i, s:i, s:n, s:f, s:i, s:I, s:f}", "round",
                                               (int)r, "position", 0, "at", "seconds",
                                               m->seconds[r], "passes", 1, "bytes",
                                               (json_int_t)m->relation_bytes, "mbps",
                                               m->seconds[r] > 0 ? (double)m->relation_bytes /
                                                                       m->seconds[r] / 1e6
                                                                 : 0.0));
    return scans;
}

/* What was checked: count(*) against the live rows, or VACUUM's completing. */
static json_t *validation_json(const struct sb_pg_job *job, const struct sb_pg_measurement *m,
                               bool counts)
{
    return json_pack("{s:b, s:[s, s], s:I, s:I, s:I}", "ok", m->counts_ok, "checked",
                     counts ? "count(*) of every scan against the live rows loaded"
                            : "VACUUM completed every time",
                     "rows inserted and deleted by the load (PQcmdTuples)", "rows_expected",
                     (json_int_t)job->table.rows_live, "scans_row_checked",
                     (json_int_t)m->scans_counted, "rows_counted", (json_int_t)m->rows_counted);
}

/* No counters on a live server: the block every run carries, saying so. */
static json_t *counters_json(void)
{
    return json_pack("{s:s, s:s, s:n, s:b, s:n, s:{}, s:{}, s:{}, s:n, s:n, s:{}, s:n}",
                     "backend", "none", "status", "not requested", "reason", "simulated", 0,
                     "model", "events", "values", "reasons", "machine", "multiplex", "derived",
                     "accuracy");
}

/* The server's side: version, placement rule, pool and relation, timing, buffers, occupancy,
 * the statement and how each timed scan starts. */
static json_t *postgresql_json(const struct sb_pg_job *job, const struct sb_pg_measurement *m,
                               uint64_t pages, bool counts)
{
    const struct sb_pg_table_shape *t = &job->table;

    return json_pack(
        "{s:s, s:s, s:I, s:i, s:I, s:i, s:I, s:s, s:o, s:o, s:s, s:s, s:i}",
        "server_version", m->server_version, "rule", m->placement.why,
        "nbuffers", (json_int_t)m->nbuffers, "block_size", (int)m->block_size,
        "relation_pages", (json_int_t)pages, "tuple_data_bytes", (int)t->data_bytes,
        "rows_loaded", (json_int_t)t->rows,
        "timing", "client-side CLOCK_MONOTONIC_RAW around the statement (PQexec), one round "
                  "trip over the Unix socket included",
        "buffers", buffers_json(m), "occupancy", occupancy_json(job, m),
        "statement", counts ? "SELECT count(*) FROM lineitem"
                            : "VACUUM (DISABLE_PAGE_SKIPPING) lineitem",
        "each_timed_scan", m->evictions_by_restart
                               ? "starts with none of the table's pages in shared_buffers (the "
                                 "server restarted just before: ALTER TABLE ran out of unpinned "
                                 "buffers in this pool) and its file read into the OS cache"
                               : "starts with none of the table's pages in shared_buffers (the "
                                 "table moved to the other tablespace just before) and its file "
                                 "read into the OS cache",
        "evictions_by_restart", (int)m->evictions_by_restart);
}

json_t *sb_pg_record(const struct sb_pg_job *job, const struct sb_pg_measurement *m)
{
    const struct sb_pg_table_shape *t = &job->table;
    uint64_t pages = m->block_size ? m->relation_bytes / m->block_size : 0;
    struct sb_stats mbps = {0};
    bool counts = job->op[0] == 'c';

    if (m->nreps)
        sb_stats_from_seconds(m->seconds, m->nreps, m->relation_bytes, &mbps);
    return json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:i, s:i, s:i, s:i, s:n, s:i, s:i, "
        "s:I, s:I, s:o, s:o, s:{s:f, s:f, s:f, s:f, s:f}, s:n, s:o, s:o, s:o, s:o}",
        "name", job->run->name,
        "source", "postgresql",
        "policy", m->placement.policy,
        "kernel", "postgresql",
        "op", job->op,
        "table_size", (json_int_t)t->table_size,
        "pool_size", (json_int_t)job->pool_size,
        "ring_size", (json_int_t)m->placement.ring_size,
        "footprint", (json_int_t)m->placement.footprint,
        "page_size", (int)t->page_size,
        "row_width", (int)t->row_width,
        "rows_per_page", (int)t->rows_per_page,
        "dead_pct", (int)t->dead_pct,
        "seed",
        "threads", (int)job->threads,
        "warmup", (int)job->warmup,
        "pages", (json_int_t)pages,
        "bytes_per_scan", (json_int_t)m->relation_bytes,
        "repetitions", repetitions_json(m), "scans", scans_json(m),
        "mbps", "best", mbps.best, "median", mbps.median, "min", mbps.min, "max", mbps.max,
        "cv", mbps.cv,
        "clock_visits_per_page",
        "buffers_touched", m->have_occupancy ? json_integer((json_int_t)m->table_buffers)
                                             : json_null(),
        "validation", validation_json(job, m, counts),
        "counters", counters_json(),
        "postgresql", postgresql_json(job, m, pages, counts));
}
