/* SPDX-License-Identifier: BSD-3-Clause */
/* record.c: a live-server measurement as a report run record (see record.h). */
#include "config.h"
#include "pg/record.h"

#include <stdio.h>
#include <string.h>

#include "stats/stats.h"

#define MODEL_RULE                                                                             \
    "scanbench's model with writeback = evict: an op dirties a page only when it changes it "   \
    "(count and vacuum store the hint bits they find missing; vacuum also prunes dead rows, as " \
    "8.1's lazy_scan_heap), so the first COUNT or VACUUM after the load writes and later ones " \
    "write nothing"

const char *sb_pg_model_expects(const char *op, bool first_after_load)
{
    (void)op; /* count and vacuum follow the same rule */
    return first_after_load ? "writes" : "writes nothing";
}

const char *sb_pg_server_writes(const struct sb_pg_scan_writes *w)
{
    const struct sb_pg_buffers *b = &w->buffers;
    const struct sb_pg_write_counters *c = &w->counters;
    bool writes;

    if (!w->measured)
        return NULL;
    if (b->have) /* the statement's own figures: the table's (and its maps') buffers */
        writes = b->dirtied > 0 || (b->have_written && b->written > 0);
    else if (c->have) /* the whole server's: a catalog row VACUUM updates counts too */
        writes = c->backend > 0 || c->checkpointer > 0 || c->bgwriter > 0;
    else
        return NULL;
    return writes ? "writes" : "writes nothing";
}

bool sb_pg_occupancy_consistent(const struct sb_pg_placement *placement, uint64_t table_pages,
                                uint32_t block_size, int64_t table_buffers, int64_t used_buffers)
{
    int64_t nbuffers = (int64_t)(placement->footprint / block_size);

    if (placement->ring_size)
        return table_buffers >= 0 &&
               table_buffers <= 2 * (int64_t)(placement->ring_size / block_size);
    if ((int64_t)table_pages <= nbuffers)
        return table_buffers == (int64_t)table_pages;
    return used_buffers == nbuffers && table_buffers > nbuffers / 2;
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
                                            m->table_buffers, m->used_buffers);
    if (m->placement.ring_size)
        snprintf(expect, sizeof expect, "ring: at most %llu buffers, twice the ring's %llu "
                 "(fewer where the backend's own pages take ring buffers back)",
                 (unsigned long long)(2 * m->placement.ring_size / m->block_size),
                 (unsigned long long)(m->placement.ring_size / m->block_size));
    else if (pages <= m->placement.footprint / m->block_size)
        snprintf(expect, sizeof expect, "clock: every page of the table (%llu buffers)",
                 (unsigned long long)pages);
    else
        snprintf(expect, sizeof expect, "clock: the table fills the pool (all %llu buffers "
                 "used, more than half of them the table's)",
                 (unsigned long long)(m->placement.footprint / m->block_size));
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
    return json_pack("{s:s, s:I, s:I, s:I, s:o, s:s}", "source", m->buffers_source,
                     "shared_hit", (json_int_t)m->buffers.hit, "shared_read",
                     (json_int_t)m->buffers.read, "shared_dirtied", (json_int_t)m->buffers.dirtied,
                     "shared_written", m->buffers.have_written
                                           ? json_integer((json_int_t)m->buffers.written)
                                           : json_null(),
                     "when", "one scan that started with none of the table's pages in "
                             "shared_buffers");
}

/* The server's write counters across a scan, and where they come from. */
static json_t *write_counters_json(const struct sb_pg_scan_writes *w)
{
    const struct sb_pg_write_counters *c = &w->counters;
    json_t *o, *by_context;

    if (!c->have)
        return json_pack("{s:s}", "unavailable", w->counters_why);
    o = json_pack("{s:s, s:I, s:I, s:I}", "source",
                  c->from_io ? "pg_stat_io (relation writes of client backends, the checkpointer "
                               "and the background writer), differences across the statement"
                             : "pg_stat_bgwriter (buffers_backend, buffers_checkpoint, "
                               "buffers_clean), differences across the statement",
                  "backend", (json_int_t)c->backend, "checkpointer", (json_int_t)c->checkpointer,
                  "bgwriter", (json_int_t)c->bgwriter);
    if (c->from_io) {
        by_context = json_object();
        for (int k = 0; k < SB_PG_IO_NCONTEXTS; k++)
            json_object_set_new(by_context, sb_pg_io_context_names[k],
                                json_integer((json_int_t)c->backend_by_context[k]));
        json_object_set_new(o, "backend_by_context", by_context);
    }
    json_object_set_new(o, "when", json_string("a CHECKPOINT (its statistics awaited) just "
                                               "before the statement and one just after it: "
                                               "checkpointer = what the statement left dirty"));
    return o;
}

/* One instrumented scan's writes beside what scanbench's model expects of it. */
static json_t *scan_writes_json(const char *op, const struct sb_pg_scan_writes *w,
                                const char *when)
{
    const char *server = sb_pg_server_writes(w);
    const char *expects = sb_pg_model_expects(op, w->first_after_load);
    const struct sb_pg_buffers *b = &w->buffers;

    if (!w->measured)
        return json_pack("{s:s}", "unavailable", w->why);
    return json_pack("{s:s, s:s?, s:o, s:o, s:o, s:o, s:o, s:b, s:o}", "when", when,
                     "buffers_source", w->buffers_source,
                     "shared_dirtied", b->have ? json_integer((json_int_t)b->dirtied) : json_null(),
                     "shared_written", b->have_written ? json_integer((json_int_t)b->written)
                                                       : json_null(),
                     "counters", write_counters_json(w),
                     "server", server ? json_string(server) : json_null(),
                     "scanbench_expects", json_string(expects),
                     "first_after_load", w->first_after_load,
                     "agreement", server ? json_string(strcmp(server, expects) == 0 ? "agrees"
                                                                                    : "disagrees")
                                         : json_null());
}

static json_t *writes_json(const struct sb_pg_job *job, const struct sb_pg_measurement *m)
{
    return json_pack("{s:o, s:o, s:s}", "first_scan_after_load",
                     scan_writes_json(job->op, &m->first_scan, "the table's first scan since it "
                                      "was loaded (its tuples' hint bits unset; for VACUUM, its "
                                      "dead rows still there), after an eviction"),
                     "later_scan",
                     scan_writes_json(job->op, &m->later_scan, "one scan after the timed ones, "
                                      "after an eviction (hint bits set and, for VACUUM, dead "
                                      "rows removed by the scans before)"),
                     "scanbench_rule", MODEL_RULE);
}

/* The run's repetitions: each timed scan's seconds. */
static json_t *repetitions_json(const struct sb_pg_measurement *m)
{
    json_t *seconds = json_array();

    for (uint32_t r = 0; r < m->nreps; r++)
        json_array_append_new(seconds, json_real(m->seconds[r]));
    return seconds;
}

static uint32_t backends_of(const struct sb_pg_measurement *m)
{
    return m->backends > 1 ? m->backends : 1;
}

/* The run's timed scans. Blocked (no rounds): the server's scans are timed one run after
 * another, so repetition r is "round" r, at position 0, with no time of day. Interleaved: each
 * scan's round, position and time. With several backends, a scan's bytes are all their
 * tables', its seconds until the last finished, and each backend's own seconds beside. */
json_t *sb_pg_scans_json(const struct sb_pg_measurement *m)
{
    json_t *scans = json_array();
    uint32_t nb = backends_of(m);
    uint64_t bytes = m->relation_bytes * nb;

    for (uint32_t r = 0; r < m->nreps; r++) {
        json_t *scan = json_pack("{s:i, s:i, s:o, s:f, s:i, s:I, s:f}", "round",
                                 m->rounds ? (int)m->rounds[r] : (int)r, "position",
                                 m->positions ? (int)m->positions[r] : 0, "at",
                                 m->at ? json_real(m->at[r]) : json_null(), "seconds",
                                 m->seconds[r], "passes", 1, "bytes", (json_int_t)bytes,
                                 "mbps", m->seconds[r] > 0 ? (double)bytes / m->seconds[r] / 1e6
                                                           : 0.0);
        if (scan && m->layouts)
            json_object_set_new(scan, "layout", json_integer(m->layouts[r]));
        if (scan && m->around) /* the first backend's: its own seconds with several */
            json_object_set_new(scan, "around", sb_pg_around_json(
                &m->around[r], nb > 1 && m->backend_seconds ? m->backend_seconds[(size_t)r * nb]
                                                            : m->seconds[r]));
        if (scan && nb > 1 && m->backend_seconds) {
            json_t *each = json_array();
            for (uint32_t b = 0; b < nb; b++)
                json_array_append_new(each, json_real(m->backend_seconds[(size_t)r * nb + b]));
            json_object_set_new(scan, "backend_seconds", each);
        }
        json_array_append_new(scans, scan);
    }
    return scans;
}

/* What was checked: count(*) against the live rows, or VACUUM's completing. */
static json_t *validation_json(const struct sb_pg_job *job, const struct sb_pg_measurement *m,
                               bool counts)
{
    return json_pack("{s:b, s:[s, s], s:I, s:I, s:I}", "ok", m->counts_ok, "checked",
                     counts ? "count(*) of every scan against the live rows loaded"
                     : job->nbefore ? "VACUUM completed every time, and the count(*) before it "
                                      "against the live rows loaded"
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

/* How each timed scan starts: the eviction (a move to the other tablespace, or a restart where
 * ALTER TABLE ran out of unpinned buffers), then with key statements the ones before it. */
static const char *each_timed_scan(const struct sb_pg_job *job, const struct sb_pg_measurement *m)
{
    if (job->nbefore)
        return "its eviction (none of the table's pages in shared_buffers, its file read into "
               "the OS cache) is followed by the statements before it, untimed, which leave some "
               "of the table's pages in shared_buffers";
    return m->evictions_by_restart
               ? "starts with none of the table's pages in shared_buffers (the server restarted "
                 "just before: ALTER TABLE ran out of unpinned buffers in this pool) and its file "
                 "read into the OS cache"
               : "starts with none of the table's pages in shared_buffers (the table moved to "
                 "the other tablespace just before) and its file read into the OS cache";
}

/* What the rule was computed from, as the server had it (rule.h), and what it gave beside the
 * ring: the inputs a version's rule does not read are left out. */
static json_t *rule_json(const struct sb_pg_measurement *m)
{
    const struct sb_pg_rule_inputs *in = &m->rule;
    json_t *o = json_pack("{s:I, s:i}", "nbuffers", (json_int_t)in->nbuffers, "block_size",
                          (int)in->block_size);

    if (in->server_num >= 160000) {
        json_object_set_new(o, "vacuum_buffer_usage_limit_kb",
                            json_integer((json_int_t)in->vacuum_limit_kb));
        json_object_set_new(o, "buffer_usage_limit_kb", in->statement_limit_kb >= 0
                            ? json_integer((json_int_t)in->statement_limit_kb) : json_null());
    }
    if (in->server_num >= 180000) {
        json_object_set_new(o, "io_combine_limit", json_integer((json_int_t)in->io_combine_limit));
        json_object_set_new(o, "effective_io_concurrency",
                            json_integer((json_int_t)in->effective_io_concurrency));
        json_object_set_new(o, "maintenance_io_concurrency",
                            json_integer((json_int_t)in->maintenance_io_concurrency));
        json_object_set_new(o, "max_backends", json_integer((json_int_t)in->max_backends));
        json_object_set_new(o, "auxiliary_procs",
                            json_integer((json_int_t)in->auxiliary_procs));
        json_object_set_new(o, "pin_limit", json_integer((json_int_t)m->placement.pin_limit));
        json_object_set_new(o, "stream_pins",
                            json_integer((json_int_t)m->placement.stream_pins));
    }
    return o;
}

/* The server settings the run asked for (keys buffer_usage_limit ... huge_pages), each the
 * server's own (`default`) or the value asked. */
static json_t *asked_json(const struct sb_pg_knobs *k)
{
    json_t *o = json_object();

    json_object_set_new(o, "buffer_usage_limit", k->buffer_usage_limit >= 0
                        ? json_integer((json_int_t)k->buffer_usage_limit) : json_string("default"));
    json_object_set_new(o, "io_combine_limit", k->io_combine_limit >= 0
                        ? json_integer((json_int_t)k->io_combine_limit) : json_string("default"));
    json_object_set_new(o, "effective_io_concurrency", k->effective_io_concurrency >= 0
                        ? json_integer((json_int_t)k->effective_io_concurrency)
                        : json_string("default"));
    json_object_set_new(o, "io_method", json_string(sb_io_method_names[k->io_method]));
    json_object_set_new(o, "io_workers", k->io_workers >= 0
                        ? json_integer((json_int_t)k->io_workers) : json_string("default"));
    json_object_set_new(o, "io_worker_cpu",
                        json_string(sb_io_worker_cpu_names[k->io_worker_cpu]));
    json_object_set_new(o, "huge_pages", json_string(sb_huge_pages_names[k->huge_pages]));
    return o;
}

/* The server's side: version, placement rule, pool and relation, timing, buffers, occupancy,
 * the statement and how each timed scan starts. */
static json_t *postgresql_json(const struct sb_pg_job *job, const struct sb_pg_measurement *m,
                               uint64_t pages)
{
    const struct sb_pg_table_shape *t = &job->table;

    return json_pack(
        "{s:s, s:s, s:I, s:i, s:I, s:i, s:I, s:s, s:o, s:o, s:o, s:s, s:s, s:i}",
        "server_version", m->server_version, "rule", m->placement.why,
        "nbuffers", (json_int_t)m->nbuffers, "block_size", (int)m->block_size,
        "relation_pages", (json_int_t)pages, "tuple_data_bytes", (int)t->data_bytes,
        "rows_loaded", (json_int_t)t->rows,
        "timing", "client-side CLOCK_MONOTONIC_RAW around the statement (PQexec), one round "
                  "trip over the Unix socket included",
        "buffers", buffers_json(m), "occupancy", occupancy_json(job, m),
        "writes", writes_json(job, m),
        "statement", m->statement,
        "each_timed_scan", each_timed_scan(job, m),
        "evictions_by_restart", (int)m->evictions_by_restart);
}

json_t *sb_pg_record(const struct sb_pg_job *job, const struct sb_pg_measurement *m)
{
    const struct sb_pg_table_shape *t = &job->table;
    uint64_t pages = m->block_size ? m->relation_bytes / m->block_size : 0;
    struct sb_stats mbps = {0};
    bool counts = job->op[0] == 'c';

    json_t *record, *block;

    if (m->nreps)
        sb_stats_from_seconds(m->seconds, m->nreps, m->relation_bytes * backends_of(m), &mbps);
    record = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:i, s:i, s:i, s:i, s:n, s:i, s:i, "
        "s:I, s:I, s:o, s:o, s:{s:f, s:f, s:f, s:f, s:f}, s:n, s:o, s:o, s:o, s:o}",
        "name", m->name ? m->name : job->run->name,
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
        "bytes_per_scan", (json_int_t)(m->relation_bytes * backends_of(m)),
        "repetitions", repetitions_json(m), "scans", sb_pg_scans_json(m),
        "mbps", "best", mbps.best, "median", mbps.median, "min", mbps.min, "max", mbps.max,
        "cv", mbps.cv,
        "clock_visits_per_page",
        "buffers_touched", m->have_occupancy ? json_integer((json_int_t)m->table_buffers)
                                             : json_null(),
        "validation", validation_json(job, m, counts),
        "counters", counters_json(),
        "postgresql", postgresql_json(job, m, pages));
    block = json_object_get(record, "postgresql");
    if (block) {
        json_object_set_new(block, "rule_inputs", rule_json(m));
        json_object_set_new(block, "asked", asked_json(&job->knobs));
        json_object_set_new(block, "copier", json_string(m->copier));
    }
    if (record && job->nbefore) { /* key statements: run's format, the last one timed */
        json_t *list = json_array();
        for (uint32_t k = 0; k <= job->nbefore; k++)
            json_array_append_new(list, json_pack(
                "{s:s, s:b, s:s}", "op", k < job->nbefore ? job->before[k] : job->op,
                "measured", k == job->nbefore, "shape", k < job->nbefore
                    ? "untimed, right after each timed scan's eviction, on the same backend"
                    : "timed, right after the statements before it"));
        json_object_set_new(record, "statements", list);
    }
    if (block && backends_of(m) > 1)
        json_object_set_new(block, "backends", json_pack(
            "{s:i, s:s}", "count", (int)backends_of(m), "how",
            "the statement sent at once to that many servers of this version and pool, each "
            "scanning its own copy of the table (as Greenplum's segments are PostgreSQL "
            "instances of their own); a scan's seconds run from the first send to the last "
            "result, its bytes are all the tables': MB/s summed"));
    return record;
}
