/* threads.h: concurrent scans (threads > 1, or the shared pool): `threads` scanners, each its
 * own thread, pinned with hwloc to a core of its own (the cores in hwloc's order; with
 * oversubscribe, round robin), all started together by a barrier before every scan. Each scans
 * its own table (tables[i]), or all divide one (shared_table: pages handed out
 * SB_PARALLEL_CHUNK_PAGES at a time from one atomic counter, as PostgreSQL's parallel
 * sequential scan hands out blocks); each reads into its own pool with its own policy, or all
 * into the shared pool (shared_pool.h). The run's MB/s is that of all scanners together: the
 * table bytes every scanner read / the time from the first scanner's start to the last one's
 * finish; each scanner's own MB/s is in its record. Validation: every page's checksums in the
 * validation scan, each page of each table read exactly once there, every scanner's row count
 * in every scan (the sum of them, and of the pages, for a shared table), no buffer of the shared
 * pool left pinned after a scan and as many pins as pages, and every pool's pages at the end. */
#ifndef SB_THREADS_H
#define SB_THREADS_H

#include <stdint.h>

#include "iocache.h"
#include "plan.h"
#include "scan.h"

#define SB_PARALLEL_CHUNK_PAGES 16

/* The NUMA node scanner i of run p will run on (-1: unknown): where "local" is. */
int sb_threads_home_node(const struct sb_run_params *p, uint32_t i);

/* Runs p with its scanners over tables[0 .. sb_run_tables(p) - 1]. */
int sb_scan_run_concurrent(const struct sb_run_params *p, struct sb_iocache *tables,
                           struct sb_run_result *res, struct sb_error *err);

#endif
