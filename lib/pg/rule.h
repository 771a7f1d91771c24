/* rule.h: where a live PostgreSQL server puts the pages of a scan, by its own rules (not
 * scanbench's `policy` key, which a server cannot be told):
 *   - a sequential scan (SELECT count(*)) uses the 256KB BAS_BULKREAD ring only when the table
 *     has more pages than NBuffers / 4 (heapam.c, initscan: rs_nblocks > NBuffers / 4);
 *     otherwise its pages go where the clock sweep finds buffers, over all of shared_buffers;
 *   - VACUUM always uses its own 256KB BAS_VACUUM ring (up to PostgreSQL 15; from 16 the ring
 *     is vacuum_buffer_usage_limit, which scanbench sets to 256kB);
 *   - a ring is never more than NBuffers / 8 buffers (freelist.c, GetAccessStrategy).
 * From 8.3 no setting turns the seqscan ring off. Before 8.3 (8.1, 8.2: the thread's servers)
 * there are no rings: a scan's pages go where the clock sweep finds buffers, and VACUUM's back
 * on the free list's tail, which after an eviction cycles through the whole pool. Pure. */
#ifndef SB_PG_RULE_H
#define SB_PG_RULE_H

#include <stdint.h>

#define SB_PG_MIN_SHARED_BUFFERS (128u * 1024u) /* PostgreSQL's minimum: 16 buffers of 8KB */
#define SB_PG_RING_SIZE (256u * 1024u)          /* BAS_BULKREAD and BAS_VACUUM */

struct sb_pg_placement {
    const char *policy;  /* "ring" or "clock" (scanbench's names for the two behaviours) */
    uint64_t ring_size;  /* the ring's bytes (SB_PG_RING_SIZE, or shared_buffers / 8 when that
                            is smaller; 0 for clock) */
    uint64_t footprint;  /* bytes the scan writes into: the ring, or all of shared_buffers */
    char why[384];       /* the rule, with this run's numbers, in one sentence */
};

/* The placement for op ("count" or "vacuum") over a table of table_pages pages with
 * shared_buffers of nbuffers buffers of page_size bytes, on a server of this version (as
 * server_version_num). */
void sb_pg_placement_decide(const char *op, uint64_t table_pages, uint64_t nbuffers,
                            uint32_t page_size, int server_num, struct sb_pg_placement *out);

#endif
