/* SPDX-License-Identifier: BSD-3-Clause */
/* rule.h: where a live PostgreSQL server puts the pages of a scan, by its own rules (not
 * scanbench's `policy` key, which a server cannot be told), computed as the server of that
 * version computes them, from the inputs it reads (read back from the running server: rule
 * inputs below):
 *   - a sequential scan (SELECT count(*)) uses the BAS_BULKREAD ring only when the table has
 *     more pages than NBuffers / 4 (heapam.c, initscan: rs_nblocks > NBuffers / 4); otherwise
 *     its pages go where the clock sweep finds buffers, over all of shared_buffers. The ring is
 *     256KB from 8.3 to 17; from 18, 256kB + io_combine_limit x effective_io_concurrency blocks,
 *     capped at the pin limit but never below 256kB (freelist.c GetAccessStrategy, 15f0cb26);
 *   - VACUUM reads through its BAS_VACUUM ring: 256KB from 8.3 to 15; from 16 the statement's
 *     BUFFER_USAGE_LIMIT, else vacuum_buffer_usage_limit (default 256kB in 16, 2MB from 17,
 *     98f320eb), 0 for none: then the clock sweep (vacuum.c, GetAccessStrategyWithSize);
 *   - a ring is never more than NBuffers / 8 buffers (GetAccessStrategyWithSize).
 * Before 8.3 (8.1, 8.2: the thread's servers) there are no rings: a scan's pages go where the
 * clock sweep finds buffers, and VACUUM's back on the free list's tail, which after an eviction
 * cycles through the whole pool. From 18 a scan reads through a read stream whose look-ahead
 * is bounded by the pin limit, NBuffers / (MaxBackends + NUM_AUXILIARY_PROCS) (bufmgr.c,
 * InitBufferManagerAccess; read_stream.c, read_stream_begin_impl): the placement says how many
 * buffers it may pin ahead. The sources: postgresql-cfbot/postgresql REL_16_STABLE 894da35b,
 * REL_17_STABLE 3704870b, REL_18_STABLE 828d602f, REL_19_STABLE 7673dfe7, master b5978350;
 * adunstan/pg-cvs-mirror for 8.1 to 8.3. Pure. */
#ifndef SB_PG_RULE_H
#define SB_PG_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

#define SB_PG_MIN_SHARED_BUFFERS (128u * 1024u) /* PostgreSQL's minimum: 16 buffers of 8KB */
#define SB_PG_RING_SIZE (256u * 1024u)          /* BAS_BULKREAD (to 17) and BAS_VACUUM (to 15) */

/* What the rule reads, as the server has it. Every field is set by sb_pg_rule_defaults for
 * the version; sb_pg_rule_inputs_parse overwrites them with what the running server says. */
struct sb_pg_rule_inputs {
    int server_num;               /* server_version_num: 80121, 180004 */
    uint32_t block_size;          /* BLCKSZ */
    uint64_t nbuffers;            /* NBuffers: shared_buffers in buffers */
    int64_t vacuum_limit_kb;      /* vacuum_buffer_usage_limit (16 on; -1 before) */
    int64_t statement_limit_kb;   /* the statement's BUFFER_USAGE_LIMIT (-1: none given) */
    uint64_t io_combine_limit;    /* blocks a read combines: Min(io_combine_limit,
                                     io_max_combine_limit) (17 on; 18 the ring's input) */
    uint64_t effective_io_concurrency;   /* 18 on: the ring's input and a scan's reads ahead */
    uint64_t maintenance_io_concurrency; /* 18 on: VACUUM's reads ahead */
    uint64_t max_backends;        /* MaxBackends as InitializeMaxBackends computes it from
                                     max_connections, the autovacuum workers,
                                     max_worker_processes and max_wal_senders (18 on) */
    uint64_t auxiliary_procs;     /* NUM_AUXILIARY_PROCS of the version (18 on: 6 + 32) */
};

struct sb_pg_placement {
    const char *policy;  /* "ring" or "clock" (scanbench's names for the two behaviours) */
    uint64_t ring_size;  /* the ring's bytes (0 for clock) */
    uint64_t footprint;  /* bytes the scan writes into: the ring, or all of shared_buffers */
    uint64_t pin_limit;  /* 18 on: MaxProportionalPins, NBuffers / (MaxBackends +
                            NUM_AUXILIARY_PROCS) (0 before 18) */
    uint64_t stream_pins; /* 18 on: the buffers the scan's read stream may pin at once
                             (read_stream_begin_impl's max_pinned_buffers, and at most the pin
                             limit less the 8 pins GetAdditionalPinLimit assumes held, at least
                             1; 0 before 18) */
    char why[768];       /* the rule, with this run's numbers, in words */
};

/* The inputs a server of this version has by default (nothing set): PostgreSQL's own
 * defaults of max_connections (100), autovacuum_worker_slots (16) or autovacuum_max_workers
 * (3), max_worker_processes (8), max_wal_senders (10). */
void sb_pg_rule_defaults(int server_num, uint32_t block_size, uint64_t nbuffers,
                         struct sb_pg_rule_inputs *in);

/* The pg_settings names the rule reads from a server of this version, as an SQL list
 * ("'a','b'"), or NULL when the version's rule reads nothing but shared_buffers. */
const char *sb_pg_rule_settings_names(int server_num);

/* Overwrites in's fields with the server's answer to
 *   SELECT string_agg(name || '=' || setting, ' ') FROM pg_settings WHERE name IN (names)
 * ("effective_io_concurrency=16 io_combine_limit=16 max_connections=110 ..."; settings in
 * pg_settings' units: kB for vacuum_buffer_usage_limit, blocks for io_combine_limit).
 * SB_ERR_RUN naming the item that is no name=number. */
int sb_pg_rule_inputs_parse(const char *text, struct sb_pg_rule_inputs *in,
                            struct sb_error *err);

/* The placement for op ("count" or "vacuum") over a table of table_pages pages. */
void sb_pg_placement_rule(const char *op, uint64_t table_pages,
                          const struct sb_pg_rule_inputs *in, struct sb_pg_placement *out);

/* The same with the version's defaults (sb_pg_rule_defaults). */
void sb_pg_placement_decide(const char *op, uint64_t table_pages, uint64_t nbuffers,
                            uint32_t page_size, int server_num, struct sb_pg_placement *out);

#endif
