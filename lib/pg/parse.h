/* SPDX-License-Identifier: BSD-3-Clause */
/* parse.h: reading what a PostgreSQL server prints: `postgres --version`, the buffer
 * figures of EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) (shared blocks hit, read, dirtied and
 * written, from the top plan node, which includes its children), of VACUUM (VERBOSE) ("buffer
 * usage: N hits, M misses, K dirtied": no written figure), and the server's cumulative write
 * counters (pg_stat_io from PostgreSQL 16, pg_stat_bgwriter before), asked for as one JSON
 * object by the query sb_pg_write_counters_sql gives for the server's version. Pure. */
#ifndef SB_PG_PARSE_H
#define SB_PG_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sb_pg_buffers {
    bool have;
    int64_t hit;     /* shared blocks found in shared_buffers */
    int64_t read;    /* shared blocks read in (from the OS cache): VACUUM's "misses" */
    int64_t dirtied; /* shared blocks dirtied */
    bool have_written;
    int64_t written; /* shared blocks written by the statement's backend (EXPLAIN only) */
    bool have_rows;
    int64_t rows;    /* EXPLAIN: the rows the top node's first child returned (count(*)'s
                        Seq Scan: the visible rows) */
};

/* The contexts pg_stat_io splits a client backend's writes by (PostgreSQL 16+). */
enum sb_pg_io_context {
    SB_PG_IO_NORMAL,
    SB_PG_IO_BULKREAD,
    SB_PG_IO_BULKWRITE,
    SB_PG_IO_VACUUM,
    SB_PG_IO_NCONTEXTS
};
extern const char *const sb_pg_io_context_names[SB_PG_IO_NCONTEXTS];

/* The server's cumulative buffer writes (shared buffers of relations), by who wrote them. */
struct sb_pg_write_counters {
    bool have;
    bool from_io;                   /* pg_stat_io (16+); else pg_stat_bgwriter */
    int64_t checkpoints_requested;  /* CHECKPOINT commands done: the sign of a fresh report */
    int64_t backend;                /* written by client backends (buffers_backend; pg_stat_io:
                                       backend_type 'client backend', object 'relation') */
    int64_t backend_by_context[SB_PG_IO_NCONTEXTS]; /* pg_stat_io only */
    int64_t checkpointer;           /* buffers_checkpoint; pg_stat_io 'checkpointer' */
    int64_t bgwriter;               /* buffers_clean; pg_stat_io 'background writer' */
};

/* "postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)\n" -> "15.20 (Debian
 * 15.20-0+deb12u1)" and 15 (for 9.6: 9). False if the text is not one. */
bool sb_pg_parse_version(const char *text, char *version, size_t len, int *major);

/* A version as server_version_num would give it: "8.1.21" -> 80121, "9.6.24" -> 90624,
 * "15.20 (Debian ...)" -> 150020, "17devel" -> 170000, "8.3beta1" -> 80300; 0 if it is not
 * one. Before 10 a release is major.minor.patch, from 10 on major.minor. */
int sb_pg_version_num(const char *version);

/* EXPLAIN (..., FORMAT JSON) output -> the top plan node's shared hit/read/dirtied blocks. */
bool sb_pg_parse_explain(const char *json_text, struct sb_pg_buffers *out);

/* VACUUM (VERBOSE) messages (all of them, concatenated) -> the buffer usage of the first
 * relation whose "vacuuming" line names `relation` (e.g. "public.lineitem": its TOAST table
 * comes after it and is skipped). */
bool sb_pg_parse_vacuum_verbose(const char *messages, const char *relation,
                                struct sb_pg_buffers *out);

/* The query that returns the write counters of a server of this major version as one JSON
 * object: pg_stat_io's rows with writes and the requested checkpoints (pg_stat_bgwriter's
 * checkpoints_req in 16, pg_stat_checkpointer's num_requested from 17) from 16; pg_stat_bgwriter
 * (buffers_backend, buffers_checkpoint, buffers_clean, checkpoints_req) from 9.4
 * (json_build_object); NULL before. */
const char *sb_pg_write_counters_sql(int server_major);

/* That query's answer -> the counters. False when it is not one. */
bool sb_pg_parse_write_counters(const char *json_text, struct sb_pg_write_counters *out);

/* after - before, field by field (have: both have; from_io: after's). */
void sb_pg_write_counters_delta(const struct sb_pg_write_counters *before,
                                const struct sb_pg_write_counters *after,
                                struct sb_pg_write_counters *out);

#endif
