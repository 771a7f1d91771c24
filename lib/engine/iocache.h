/* iocache.h: the table scanned, as its source holds it: for `memory` a region of table_size
 * bytes standing for the kernel's IO cache ("memtable" in the thread); for `file` a read-only
 * mapping of the scratch file (source_file.h), which the scans read with pread. Either way it
 * keeps each page's expected checksum after the copy and after each op, so every run can be
 * validated, and where its pages lie (NUMA, placement.h). */
#ifndef SB_IOCACHE_H
#define SB_IOCACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/core.h"
#include "host/host.h"
#include "vocab/vocab.h"

struct sb_run_params;   /* plan.h */
struct sb_file_table;   /* source_file.h */
struct sb_source;       /* source.h */
struct sb_source_ops;   /* source_ops.h */

/* The ops a table keeps checksums for (each configuration that scans it has one). */
#define SB_IOCACHE_OPS 8

struct sb_iocache_sums {
    const struct sb_op *op;
    uint32_t *sums;            /* each page's checksum after op ran on it */
};

struct sb_iocache {
    uint8_t *pages;            /* npages * page_size bytes (file: mapped read-only) */
    uint64_t npages;
    uint32_t page_size;
    struct sb_heap_layout layout;
    uint64_t live_rows;        /* visible tuples in the whole table */
    uint32_t *sum_copy;        /* checksum of each page as generated (= after a correct copy) */
    struct sb_iocache_sums after[SB_IOCACHE_OPS]; /* made by sb_iocache_expect_op */
    const struct sb_source *source;      /* NULL: memory (sb_iocache_create) */
    const struct sb_source_ops *ops;     /* its source's implementation (source_ops.h) */
    struct sb_file_table *file;          /* source file: the scratch file, else NULL */
    struct sb_placement node;            /* iocache_node it was built with */
    struct sb_placement_found placement; /* and where its pages were found */
};

/* Allocates and fills the table in memory, placed `local` to the caller. Status SB_ERR_RUN on
 * allocation failure. */
int sb_iocache_create(struct sb_iocache *ioc, uint64_t table_size,
                      const struct sb_heap_layout *layout, struct sb_error *err);

/* Builds the table run p scans, from its source, placed as iocache_node asks relative to
 * home_node (the node of the scanner that reads it). */
int sb_iocache_build(struct sb_iocache *ioc, const struct sb_run_params *p, int home_node,
                     struct sb_error *err);

/* Whether ioc is the table p would build (so a sweep builds it once). */
bool sb_iocache_serves(const struct sb_iocache *ioc, const struct sb_run_params *p);

/* Computes the checksums after op (a copy of each page run through the op once, untimed),
 * unless they were made before: every configuration that scans the table keeps its own op's. */
int sb_iocache_expect_op(struct sb_iocache *ioc, const struct sb_op *op, struct sb_error *err);

/* The checksum of each page after op (sb_iocache_expect_op made them; NULL if it did not). */
const uint32_t *sb_iocache_sums_after(const struct sb_iocache *ioc, const struct sb_op *op);

static inline const uint8_t *sb_iocache_page(const struct sb_iocache *ioc, uint64_t block)
{
    return ioc->pages + block * ioc->page_size;
}

/* Fills the checksums and live rows of page `block` just generated at `page`. */
void sb_iocache_note_page(struct sb_iocache *ioc, uint64_t block, const uint8_t *page,
                          uint32_t live);

void sb_iocache_destroy(struct sb_iocache *ioc);

#endif
