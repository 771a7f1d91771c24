/* SPDX-License-Identifier: BSD-3-Clause */
/* record.h: one live-server measurement as a run record of the scanbench report (report.h),
 * so that renderers, `compare` and `reproduce` read it like any other run: source and kernel
 * `postgresql`, policy `ring` or `clock` as PostgreSQL's rule decided, pool_size =
 * shared_buffers, footprint the ring or the pool, MB/s from pg_relation_size over the
 * client-side elapsed time; plus a `postgresql` block: the server's version, the rule and why,
 * the buffer figures of EXPLAIN (ANALYZE, BUFFERS) or VACUUM (VERBOSE), pg_buffercache's
 * count of the table's buffers after a scan, with whether it agrees with the rule, and the
 * buffers written by the first scan after the table's load and by a later scan, each beside
 * what scanbench's model (writeback = evict) expects of it in kind. Pure. */
#ifndef SB_PG_RECORD_H
#define SB_PG_RECORD_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "pg/jobs.h"
#include "pg/parse.h"
#include "pg/around.h"
#include "pg/rule.h"

/* The writes of one instrumented scan: the statement's own buffer figures and the server's
 * write counters between a settled CHECKPOINT before it and one after it. */
struct sb_pg_scan_writes {
    bool measured;                 /* false: why says why not */
    char why[192];
    bool first_after_load;         /* the table's first scan since it was loaded */
    struct sb_pg_buffers buffers;  /* from buffers_source */
    const char *buffers_source;
    struct sb_pg_write_counters counters; /* the difference across the statement */
    char counters_why[192];        /* why there are no counters */
};

struct sb_pg_measurement {
    char server_version[128];
    char statement[160];        /* the timed statement as this server speaks it */
    uint64_t relation_bytes;    /* pg_relation_size (main fork): the MB/s numerator */
    uint32_t block_size;        /* the server's BLCKSZ */
    uint64_t nbuffers;          /* shared_buffers, in buffers, as the server runs */
    struct sb_pg_placement placement;
    struct sb_pg_rule_inputs rule;  /* what the placement was computed from (the server's) */
    char copier[640];               /* who copies a page into shared_buffers (copier.h) */
    uint32_t nreps;
    const double *seconds;      /* each timed statement, client-side (with backends > 1: from
                                   the first send to the last result) */
    /* interleaved (rounds.h): each timed scan's round, position in it and time since the
     * rounds began; NULL: blocked, repetition r is round r at position 0 */
    const uint32_t *rounds, *positions;
    const double *at;
    uint32_t backends;          /* statements at once, each on its own server (0 or 1: one) */
    const double *backend_seconds; /* nreps x backends: each backend's own time */
    const uint32_t *layouts;    /* interleaved: each timed scan's server instance (restarts
                                   between them); NULL: one instance, no layout recorded */
    const struct sb_pg_around *around; /* each timed scan's first backend, from the kernel
                                          (around.h); NULL: not recorded */
    const char *name;           /* the record's name; NULL: the job's run's */
    uint64_t scans_counted;     /* statements whose count(*) was checked (count) */
    uint64_t rows_counted;      /* what the last count(*) returned */
    bool counts_ok;
    struct sb_pg_buffers buffers; /* from buffers_source, one scan after an eviction */
    const char *buffers_source;
    bool have_occupancy;
    int64_t table_buffers;      /* pg_buffercache: buffers holding the table's main fork */
    int64_t used_buffers;       /* pg_buffercache: buffers holding any page */
    char occupancy_why[256];    /* why there is no occupancy figure */
    uint32_t evictions_by_restart; /* evictions done by restarting the server (a pool too small
                                      for ALTER TABLE), of all the job's scans */
    struct sb_pg_scan_writes first_scan; /* the job's first scan, if the table's first since
                                            its load (else why names the run that had it) */
    struct sb_pg_scan_writes later_scan; /* the scan after the timed ones */
};

/* What scanbench's model (writeback = evict) expects of a scan in kind, "writes" or "writes
 * nothing": count and vacuum dirty a page only when they change it (hint bits missing, and for
 * vacuum dead rows to prune), that is in the first scan after the load (the server's load
 * leaves the hint bits unset; that scan sets them, and a first VACUUM prunes), and later ones
 * write nothing. */
const char *sb_pg_model_expects(const char *op, bool first_after_load);

/* What the server did in kind: "writes" when the statement dirtied or wrote a shared buffer
 * (EXPLAIN's dirtied and written, VACUUM VERBOSE's dirtied: the table's own buffers and its
 * maps'; every buffer dirtied is written once, by the backend or later), "writes nothing" when
 * it did neither. Only without those figures, the server's write counters across the statement
 * decide (they also count catalog pages, e.g. the pg_database row a VACUUM updates). NULL when
 * no figure was taken. */
const char *sb_pg_server_writes(const struct sb_pg_scan_writes *w);

/* True when the occupancy agrees with the placement: a ring leaves at most twice its own
 * buffers of the table in the pool (after VACUUM, or in a small pool where the backend's own
 * pages take ring buffers back, fewer, down to none); the clock sweep over a pool that holds
 * the table leaves every page of it; over a smaller pool (8.1 and 8.2 have no ring) it fills
 * the pool: every buffer used, most of them (more than half) the table's, none more than it
 * has pages. */
bool sb_pg_occupancy_consistent(const struct sb_pg_placement *placement, uint64_t table_pages,
                                uint32_t block_size, int64_t table_buffers, int64_t used_buffers);

/* The timed scans in the report's format (round, position, at, seconds, bytes, MB/s; each
 * backend's seconds with several). */
json_t *sb_pg_scans_json(const struct sb_pg_measurement *m);

/* The run record. */
json_t *sb_pg_record(const struct sb_pg_job *job, const struct sb_pg_measurement *m);

#endif
