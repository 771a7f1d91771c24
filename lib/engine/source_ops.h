/* SPDX-License-Identifier: BSD-3-Clause */
/* source_ops.h: the sources a table's pages come from, behind one interface: `memory` (a region
 * in RAM; its bigtable is the DMA-like fill of each frame before its copy, dma_fill.h:
 * source_memory.c) and `file` (a nameless scratch file read with pread; its bigtable drops the
 * file from the page cache: source_file.c). A table is built by its source's implementation,
 * which it keeps (sb_iocache.ops); a run over it prepares it, settles it and readies each scan
 * through the same implementation. A page is fetched the way `fetch` (or `fetch_bigtable`) names,
 * inline in the scan loops (scanner.c): the interface is never called per page. */
#ifndef SB_SOURCE_OPS_H
#define SB_SOURCE_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/core.h"

struct sb_iocache;     /* iocache.h */
struct sb_io_result;   /* scan.h */
struct sb_run_params;  /* plan.h */

/* How a page reaches its buffer. */
enum sb_fetch {
    SB_FETCH_COPY,       /* memory: the kernel's copy */
    SB_FETCH_DMA,        /* memory bigtable: the DMA-like fill of the frame, then the copy */
    SB_FETCH_PREAD,      /* file: pread from the warm page cache */
    SB_FETCH_PREAD_DROP, /* file bigtable: pread, and the pages behind dropped */
};

struct sb_source_ops {
    const char *name;
    /* Builds ioc as p's table (placed as p->iocache_node asks, relative to home_node). */
    int (*build)(struct sb_iocache *ioc, const struct sb_run_params *p, int home_node,
                 struct sb_error *err);
    /* NULL, or whether the table also serves p beyond its layout, size and placement. */
    bool (*serves)(const struct sb_iocache *ioc, const struct sb_run_params *p);
    void (*destroy)(struct sb_iocache *ioc);
    enum sb_fetch fetch, fetch_bigtable; /* how a run without and with bigtable fetches */
    bool kernel_reads; /* the kernel reads the pages into memory of its own (the page cache):
                          the scanning threads' memory policy follows iocache_node */
    /* NULL, or before a run's scans (io already reset: sb_source_prepare). */
    int (*prepare)(const struct sb_run_params *p, const struct sb_iocache *ioc, uint8_t *buffer,
                   struct sb_io_result *io, struct sb_error *err);
    /* NULL, or before each settling pass. */
    int (*settle)(const struct sb_run_params *p, const struct sb_iocache *ioc,
                  struct sb_error *err);
    /* NULL, or before each scan. */
    void (*before_scan)(const struct sb_run_params *p, const struct sb_iocache *ioc, bool timed,
                        struct sb_io_result *io);
};

extern const struct sb_source_ops sb_source_memory_ops; /* source_memory.c */
extern const struct sb_source_ops sb_source_file_ops;   /* source_file.c */

/* Before a run's scans: io's residency figures start at -1 (not measured); a warm file is read
 * once more (a bigtable run before may have dropped it); a bigtable's device rate is measured
 * (buffer: one page of scratch). */
int sb_source_prepare(const struct sb_run_params *p, const struct sb_iocache *ioc,
                      uint8_t *buffer, struct sb_io_result *io, struct sb_error *err);

/* Before a settling pass: a warm file is read again (another configuration may have dropped
 * it). */
int sb_source_settle(const struct sb_run_params *p, const struct sb_iocache *ioc,
                     struct sb_error *err);

/* Before each scan: a bigtable file is dropped from the page cache, and what stays resident is
 * noted; a warm file's residency is noted before each timed scan. */
void sb_source_before_scan(const struct sb_run_params *p, const struct sb_iocache *ioc,
                           bool timed, struct sb_io_result *io);

#endif
