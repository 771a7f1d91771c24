/* SPDX-License-Identifier: BSD-3-Clause */
/* rule.c: PostgreSQL's own placement rule for a scan, version by version (see rule.h). */
#include "config.h"
#include "pg/rule.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PG16 160000
#define PG17 170000
#define PG18 180000
#define REFCOUNT_ARRAY_ENTRIES 8 /* bufmgr.c: pins GetAdditionalPinLimit assumes held */

void sb_pg_rule_defaults(int server_num, uint32_t block_size, uint64_t nbuffers,
                         struct sb_pg_rule_inputs *in)
{
    memset(in, 0, sizeof *in);
    in->server_num = server_num;
    in->block_size = block_size ? block_size : 8192;
    in->nbuffers = nbuffers;
    /* guc_tables.c: vacuum_buffer_usage_limit 256 in 16 (1cbbee03), 2048 from 17 (98f320eb) */
    in->vacuum_limit_kb = server_num >= PG17 ? 2048 : server_num >= PG16 ? 256 : -1;
    in->statement_limit_kb = -1;
    /* bufmgr.h: DEFAULT_IO_COMBINE_LIMIT = 128kB / BLCKSZ (17 on); 18's defaults of
     * effective_io_concurrency and maintenance_io_concurrency, 16 */
    in->io_combine_limit = 128 * 1024 / in->block_size;
    in->effective_io_concurrency = server_num >= PG18 ? 16 : 1;
    in->maintenance_io_concurrency = server_num >= PG18 ? 16 : 10;
    /* postinit.c InitializeMaxBackends (18): max_connections 100 + autovacuum_worker_slots 16 +
     * max_worker_processes 8 + max_wal_senders 10 + NUM_SPECIAL_WORKER_PROCS 2; proc.h
     * NUM_AUXILIARY_PROCS = 6 + MAX_IO_WORKERS (32) */
    in->max_backends = 100 + 16 + 8 + 10 + 2;
    in->auxiliary_procs = server_num >= PG18 ? 6 + 32 : 6;
}

const char *sb_pg_rule_settings_names(int server_num)
{
    if (server_num >= PG18)
        return "'shared_buffers','block_size','vacuum_buffer_usage_limit','io_combine_limit',"
               "'io_max_combine_limit','effective_io_concurrency','maintenance_io_concurrency',"
               "'max_connections','autovacuum_worker_slots','max_worker_processes',"
               "'max_wal_senders'";
    if (server_num >= PG16)
        return "'shared_buffers','block_size','vacuum_buffer_usage_limit'";
    return NULL;
}

/* One name=number of the server's answer into in; false for a number that is none. */
static bool take_setting(const char *name, const char *value, struct sb_pg_rule_inputs *in,
                         uint64_t *combine, uint64_t *max_combine, uint64_t *backends)
{
    char *end;
    unsigned long long v = strtoull(value, &end, 10);

    if (end == value || *end || value[0] == '-')
        return false;
    if (strcmp(name, "shared_buffers") == 0)
        in->nbuffers = v;
    else if (strcmp(name, "block_size") == 0)
        in->block_size = (uint32_t)v;
    else if (strcmp(name, "vacuum_buffer_usage_limit") == 0)
        in->vacuum_limit_kb = (int64_t)v;
    else if (strcmp(name, "io_combine_limit") == 0)
        *combine = v;
    else if (strcmp(name, "io_max_combine_limit") == 0)
        *max_combine = v;
    else if (strcmp(name, "effective_io_concurrency") == 0)
        in->effective_io_concurrency = v;
    else if (strcmp(name, "maintenance_io_concurrency") == 0)
        in->maintenance_io_concurrency = v;
    else if (strcmp(name, "max_connections") == 0 || strcmp(name, "max_worker_processes") == 0 ||
             strcmp(name, "max_wal_senders") == 0 || strcmp(name, "autovacuum_worker_slots") == 0)
        *backends += v; /* MaxBackends is their sum, with NUM_SPECIAL_WORKER_PROCS */
    return true;
}

int sb_pg_rule_inputs_parse(const char *text, struct sb_pg_rule_inputs *in,
                            struct sb_error *err)
{
    uint64_t combine = in->io_combine_limit, max_combine = UINT64_MAX, backends = 0;
    const char *p = text;
    bool any_backends = false;

    while (*p) {
        size_t len = strcspn(p, " ");
        char item[128], *eq;
        if (len == 0) {
            p++;
            continue;
        }
        snprintf(item, sizeof item, "%.*s", (int)len, p);
        eq = strchr(item, '=');
        if (!eq || len >= sizeof item)
            return sb_fail(err, SB_ERR_RUN, "pg_settings: \"%s\" is no name=value", item);
        *eq = '\0';
        any_backends |= strcmp(item, "max_connections") == 0;
        if (!take_setting(item, eq + 1, in, &combine, &max_combine, &backends))
            return sb_fail(err, SB_ERR_RUN, "pg_settings: %s = \"%s\" is not a whole number",
                           item, eq + 1);
        p += len;
    }
    /* io_combine_limit's assign hook: Min(io_max_combine_limit, io_combine_limit) (18) */
    in->io_combine_limit = combine < max_combine ? combine : max_combine;
    if (any_backends)
        in->max_backends = backends + 2; /* NUM_SPECIAL_WORKER_PROCS */
    return SB_OK;
}

/* GetAccessStrategyWithSize: kB to buffers, 0 for none, at most NBuffers / 8; note says a cut. */
static uint64_t ring_buffers(uint64_t kb, const struct sb_pg_rule_inputs *in, char *note,
                             size_t len)
{
    uint64_t buffers = kb / (in->block_size / 1024);

    note[0] = '\0';
    if (buffers && in->nbuffers / 8 < buffers) {
        buffers = in->nbuffers / 8;
        snprintf(note, len, ", cut to shared_buffers / 8: %" PRIu64 " buffers", buffers);
    }
    return buffers;
}

/* 18's BAS_BULKREAD ring in kB: 256kB + io_combine_limit x effective_io_concurrency blocks,
 * at most the pin limit's kB but never below 256kB (freelist.c GetAccessStrategy, 15f0cb26). */
static uint64_t bulkread_kb_18(const struct sb_pg_rule_inputs *in, uint64_t pin_limit)
{
    uint64_t block_kb = in->block_size / 1024;
    uint64_t kb = 256, most = pin_limit * block_kb;

    if (most < 256)
        most = 256;
    kb += block_kb * in->io_combine_limit * in->effective_io_concurrency;
    return kb < most ? kb : most;
}

/* read_stream_begin_impl (18): (max_ios + 1) x io_combine_limit, at most the strategy's pin
 * limit (a bulk-read ring's buffers, half of another ring's) and the pin limit, at least 1;
 * and GetAdditionalPinLimit leaves the pin limit less the 8 it assumes held, the tighter of the
 * two pin bounds. */
static uint64_t stream_pins_18(uint64_t max_ios, uint64_t ring, bool bulkread,
                               const struct sb_pg_rule_inputs *in, uint64_t pin_limit)
{
    uint64_t pins = (max_ios + 1) * in->io_combine_limit;
    uint64_t strategy = ring ? (bulkread ? ring : ring / 2) : in->nbuffers;
    uint64_t additional = pin_limit > REFCOUNT_ARRAY_ENTRIES ? pin_limit -
                          REFCOUNT_ARRAY_ENTRIES : 0;

    if (pins > strategy)
        pins = strategy;
    if (pins > additional)
        pins = additional;
    return pins ? pins : 1;
}

static void before_rings(const char *op, const char *pool, const char *table,
                         struct sb_pg_placement *out)
{
    /* before 8.3 no rings (BAS_BULKREAD and BAS_VACUUM arrived with it); VACUUM's pages go
     * back to the free list's tail (bufmgr.c, strategy_hint_vacuum, REL8_1_STABLE 1314e285,
     * REL8_2_STABLE 6ea98f5c): after the eviction, every buffer is free, so it cycles through
     * all of them */
    bool vacuum = strcmp(op, "vacuum") == 0;

    snprintf(out->why, sizeof out->why, "%s: no ring before PostgreSQL 8.3, %s over all of "
             "shared_buffers (%s) for a table of %s", vacuum ? "VACUUM" : "a sequential scan",
             vacuum ? "its buffers back on the free list's tail, cycling" : "the clock sweep",
             pool, table);
}

/* VACUUM's ring (8.3 on): the statement's, the setting's (16 on) or 256KB. */
static uint64_t vacuum_ring(const struct sb_pg_rule_inputs *in, struct sb_pg_placement *out)
{
    char cut[96], why[256];
    uint64_t kb = 256, buffers;

    if (in->server_num >= PG16 && in->statement_limit_kb >= 0) {
        kb = (uint64_t)in->statement_limit_kb;
        snprintf(why, sizeof why, "VACUUM (BUFFER_USAGE_LIMIT '%" PRIu64 "kB')", kb);
    } else if (in->server_num >= PG16) {
        kb = (uint64_t)in->vacuum_limit_kb;
        snprintf(why, sizeof why, "vacuum_buffer_usage_limit = %" PRIu64 "kB (%s)", kb,
                 in->server_num >= PG17 ? "2MB by default from 17, 98f320eb"
                                        : "256kB by default in 16, 1cbbee03");
    } else
        snprintf(why, sizeof why, "BAS_VACUUM, 256KB from 8.3 to 15");
    buffers = ring_buffers(kb, in, cut, sizeof cut);
    if (buffers == 0)
        snprintf(out->why, sizeof out->why, "VACUUM without a ring (%s: 0 is none), the clock "
                 "sweep over all of shared_buffers", why);
    else
        snprintf(out->why, sizeof out->why, "VACUUM reads through its ring, whatever the "
                 "table's size: %" PRIu64 " buffers (%s%s)", buffers, why, cut);
    return buffers;
}

/* A sequential scan's BAS_BULKREAD ring (8.3 on), for a table above NBuffers / 4. */
static uint64_t bulkread_ring(const struct sb_pg_rule_inputs *in, uint64_t pin_limit,
                              char *why, size_t len)
{
    char cut[96];
    uint64_t kb = SB_PG_RING_SIZE / 1024, buffers;

    if (in->server_num >= PG18)
        kb = bulkread_kb_18(in, pin_limit);
    buffers = ring_buffers(kb, in, cut, sizeof cut);
    if (in->server_num >= PG18)
        snprintf(why, len, "the BAS_BULKREAD ring of %" PRIu64 " buffers (18 on: 256kB + "
                 "io_combine_limit %" PRIu64 " x effective_io_concurrency %" PRIu64 " blocks, at "
                 "most the pin limit %" PRIu64 " but never below 256kB%s)", buffers,
                 in->io_combine_limit, in->effective_io_concurrency, pin_limit, cut);
    else
        snprintf(why, len, "the 256KB BAS_BULKREAD ring%s", cut);
    return buffers;
}

void sb_pg_placement_rule(const char *op, uint64_t table_pages,
                          const struct sb_pg_rule_inputs *in, struct sb_pg_placement *out)
{
    char table[32], pool[32], quarter[32], ring_why[384];
    uint64_t bs = in->block_size, buffers = 0, nbuffers = in->nbuffers;
    bool vacuum = strcmp(op, "vacuum") == 0, bulkread = false;

    memset(out, 0, sizeof *out);
    sb_format_size(table_pages * bs, table, sizeof table);
    sb_format_size(nbuffers * bs, pool, sizeof pool);
    sb_format_size(nbuffers / 4 * bs, quarter, sizeof quarter);
    if (in->server_num >= PG18) /* bufmgr.c InitBufferManagerAccess: MaxProportionalPins */
        out->pin_limit = nbuffers / (in->max_backends + in->auxiliary_procs);
    if (in->server_num < 80300)
        before_rings(op, pool, table, out);
    else if (vacuum)
        buffers = vacuum_ring(in, out);
    else if (table_pages > nbuffers / 4) {
        buffers = bulkread_ring(in, out->pin_limit, ring_why, sizeof ring_why);
        bulkread = true;
        snprintf(out->why, sizeof out->why, "the table (%s, %" PRIu64 " pages) is larger than "
                 "shared_buffers / 4 (%s of %s, %" PRIu64 " buffers): %s", table, table_pages,
                 quarter, pool, nbuffers / 4, ring_why);
    } else
        snprintf(out->why, sizeof out->why, "the table (%s, %" PRIu64 " pages) is not larger "
                 "than shared_buffers / 4 (%s of %s, %" PRIu64 " buffers): no ring, the clock "
                 "sweep over all of shared_buffers", table, table_pages, quarter, pool,
                 nbuffers / 4);
    out->policy = buffers ? "ring" : "clock";
    out->ring_size = buffers * bs;
    out->footprint = buffers ? out->ring_size : nbuffers * bs;
    if (in->server_num >= PG18) {
        size_t used = strlen(out->why);
        out->stream_pins = stream_pins_18(vacuum ? in->maintenance_io_concurrency
                                                 : in->effective_io_concurrency,
                                          buffers, bulkread || !buffers, in, out->pin_limit);
        snprintf(out->why + used, sizeof out->why - used, "; its read stream pins at most "
                 "%" PRIu64 " buffers ahead (pin limit %" PRIu64 " = NBuffers %" PRIu64 " / "
                 "(MaxBackends %" PRIu64 " + %" PRIu64 " auxiliary processes))",
                 out->stream_pins, out->pin_limit, nbuffers, in->max_backends,
                 in->auxiliary_procs);
    }
}

void sb_pg_placement_decide(const char *op, uint64_t table_pages, uint64_t nbuffers,
                            uint32_t page_size, int server_num, struct sb_pg_placement *out)
{
    struct sb_pg_rule_inputs in;

    sb_pg_rule_defaults(server_num, page_size, nbuffers, &in);
    sb_pg_placement_rule(op, table_pages, &in, out);
}
