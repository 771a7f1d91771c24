/* rule.c: PostgreSQL's own placement rule for a scan (see rule.h). */
#include "config.h"
#include "pg/rule.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"

/* The ring's bytes: 256KB, but never more than an eighth of shared_buffers (GetAccessStrategy:
 * ring_size = Min(NBuffers / 8, ring_size)). */
static uint64_t ring_bytes(uint64_t nbuffers, uint32_t page_size, char *note, size_t len)
{
    uint64_t buffers = SB_PG_RING_SIZE / page_size;

    note[0] = '\0';
    if (nbuffers / 8 < buffers) {
        buffers = nbuffers / 8;
        snprintf(note, len, ", cut to shared_buffers / 8: %" PRIu64 " buffers", buffers);
    }
    return buffers * page_size;
}

void sb_pg_placement_decide(const char *op, uint64_t table_pages, uint64_t nbuffers,
                            uint32_t page_size, int server_num, struct sb_pg_placement *out)
{
    char table[32], pool[32], quarter[32], cut[96];

    sb_format_size(table_pages * page_size, table, sizeof table);
    sb_format_size(nbuffers * page_size, pool, sizeof pool);
    sb_format_size(nbuffers / 4 * page_size, quarter, sizeof quarter);
    if (server_num < 80300) {
        /* before 8.3 no rings (BAS_BULKREAD and BAS_VACUUM arrived with it); VACUUM's pages
         * go back to the free list's tail (bufmgr.c, strategy_hint_vacuum, REL8_1_STABLE
         * 1314e285, REL8_2_STABLE 6ea98f5c): after the eviction, every buffer is free, so it
         * cycles through all of them */
        out->policy = "clock";
        out->ring_size = 0;
        snprintf(out->why, sizeof out->why, "%s: no ring before PostgreSQL 8.3, %s over all of "
                 "shared_buffers (%s) for a table of %s",
                 strcmp(op, "vacuum") == 0 ? "VACUUM" : "a sequential scan",
                 strcmp(op, "vacuum") == 0 ? "its buffers back on the free list's tail, cycling"
                                           : "the clock sweep",
                 pool, table);
    } else if (strcmp(op, "vacuum") == 0) {
        out->policy = "ring";
        out->ring_size = ring_bytes(nbuffers, page_size, cut, sizeof cut);
        snprintf(out->why, sizeof out->why, "VACUUM always reads through its own 256KB ring "
                 "(BAS_VACUUM%s%s), whatever the table's size",
                 server_num >= 160000 ? "; vacuum_buffer_usage_limit = 256kB" : "", cut);
    } else if (table_pages > nbuffers / 4) {
        out->policy = "ring";
        out->ring_size = ring_bytes(nbuffers, page_size, cut, sizeof cut);
        snprintf(out->why, sizeof out->why, "the table (%s, %" PRIu64 " pages) is larger than "
                 "shared_buffers / 4 (%s of %s, %" PRIu64 " buffers): the 256KB BAS_BULKREAD "
                 "ring%s", table, table_pages, quarter, pool, nbuffers / 4, cut);
    } else {
        out->policy = "clock";
        out->ring_size = 0;
        snprintf(out->why, sizeof out->why, "the table (%s, %" PRIu64 " pages) is not larger "
                 "than shared_buffers / 4 (%s of %s, %" PRIu64 " buffers): no ring, the clock "
                 "sweep over all of shared_buffers", table, table_pages, quarter, pool,
                 nbuffers / 4);
    }
    out->footprint = out->ring_size ? out->ring_size : nbuffers * page_size;
}
