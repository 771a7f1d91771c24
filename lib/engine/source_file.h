/* SPDX-License-Identifier: BSD-3-Clause */
/* source_file.h: source `file`: the table as a real file of heap pages in a scratch directory
 * (data_dir). The file never has a name (O_TMPFILE, else mkstemp and unlink at once): nothing is
 * left behind however the run ends, SIGINT, SIGTERM and SIGKILL included, so no signal handler
 * is needed. Its pages are generated and written once (their checksums noted as they go), synced
 * (so the page cache may drop them), and mapped read-only: the mapping serves mincore, the
 * untimed checks and the cache model's replay, while the scans read with pread() straight into
 * the pool buffer. A warm file is read once before a run and its residency checked (mincore)
 * before each timed scan; a bigtable file is dropped from the page cache (posix_fadvise
 * DONTNEED) before each scan and behind it every SB_FILE_DROP_PAGES pages, so every read comes
 * from the device. */
#ifndef SB_SOURCE_FILE_H
#define SB_SOURCE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

struct sb_iocache;     /* iocache.h */
struct sb_run_params;  /* plan.h */

#define SB_FILE_DROP_PAGES 256 /* a bigtable scan drops the pages behind it in steps of this */

struct sb_file_table {
    int fd;
    const char *scratch;          /* how the file was made nameless */
    char dir[512];
    uint64_t bytes;
    size_t sys_pages;             /* the file's pages of the system page size (mincore's) */
    unsigned char *resident;      /* mincore's vector */
    double write_seconds;         /* generating, writing and syncing it */
};

/* Builds ioc as p's table in a scratch file of p->data_dir (page cache placed as
 * p->iocache_node asks, relative to home_node), warm. */
int sb_file_table_create(struct sb_iocache *ioc, const struct sb_run_params *p, int home_node,
                         struct sb_error *err);
void sb_file_table_destroy(struct sb_iocache *ioc);

/* Whether the table's file lies in dir. */
bool sb_file_table_in(const struct sb_iocache *ioc, const char *dir);

/* Reads the whole file once (into the page cache). */
int sb_file_warm(const struct sb_iocache *ioc, struct sb_error *err);

/* The fraction of the file's pages resident in the page cache (mincore), 0..1; -1 on error. */
double sb_file_resident(const struct sb_iocache *ioc);

/* Drops table pages [first, end) from the page cache (posix_fadvise DONTNEED; a table written
 * back into is synced first: DONTNEED skips dirty pages); pages mapped
 * by the table's mapping stay: sb_file_drop_all unmaps them first (madvise DONTNEED) and drops
 * the whole file. */
void sb_file_drop(const struct sb_iocache *ioc, uint64_t first, uint64_t end);
void sb_file_drop_all(const struct sb_iocache *ioc);

/* sb_file_drop_all until mincore finds none of the file resident, or SB_FILE_DROP_TRIES drops
 * a millisecond apart: a page the kernel is still reading (readahead of the previous pass, or of
 * a partial settling pass) is locked and survives a drop. Returns the fraction resident after the
 * last drop (sb_file_resident). */
#define SB_FILE_DROP_TRIES 50
double sb_file_drop_all_settled(const struct sb_iocache *ioc);

/* The device rate: the file dropped, then read page by page with pread into buffer (one page),
 * in MB/s; the file is dropped again after. 0 on a read error. */
double sb_file_device_mbps(const struct sb_iocache *ioc, uint8_t *buffer);

#endif
