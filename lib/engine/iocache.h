/* SPDX-License-Identifier: BSD-3-Clause */
/* iocache.h: the table scanned, as its source holds it: for `memory` a region of table_size
 * bytes standing for the kernel's IO cache ("memtable" in the thread); for `file` a read-only
 * mapping of the scratch file (source_file.h), which the scans read with pread. Either way it
 * keeps each page's expected checksum after the copy and after each op, so every run can be
 * validated, and where its pages lie (NUMA, placement.h). A run that writes back (issue 18)
 * changes its pages: the table then keeps each page's state and the checksums of each state. */
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
    uint32_t *live;            /* memory source: each page's visible tuples (a slice's row
                                  check); NULL: only the whole table's are known */
    struct sb_iocache_sums after[SB_IOCACHE_OPS]; /* made by sb_iocache_expect_op */
    /* A table written back into (issue 18): each page's state (heap.h: 0 generated, 1 hinted,
     * 2 vacuumed; all 0 when built) and the checksums of each state (state_sums[0] is
     * sum_copy; 1 and 2 made by sb_iocache_expect_states). NULL until a run writes back. */
    uint8_t *state;
    const uint32_t *state_sums[SB_PAGE_NSTATES];
    uint32_t *state_sums_owned[SB_PAGE_NSTATES];
    const struct sb_source *source;      /* NULL: memory (sb_iocache_create) */
    const struct sb_source_ops *ops;     /* its source's implementation (source_ops.h) */
    struct sb_file_table *file;          /* source file: the scratch file, else NULL */
    struct sb_placement node;            /* iocache_node it was built with */
    struct sb_placement_found placement; /* and where its pages were found */
};

/* The visible tuples of pages [first, end) (the whole table's without per-page counts). */
uint64_t sb_iocache_live_rows(const struct sb_iocache *ioc, uint64_t first, uint64_t end);

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

/* Readies the table for write-backs: each page's state (0: as built), and the checksums of
 * states 1 and 2 (count's and vacuum's output), unless made before. */
int sb_iocache_expect_states(struct sb_iocache *ioc, struct sb_error *err);

/* The state a page in state `state` is in after op: max(state, sb_op_state(op)). */
static inline unsigned sb_page_state_after(unsigned state, const struct sb_op *op)
{
    unsigned level = sb_op_state(op);
    return state > level ? state : level;
}

/* The checksum of page `block` after op ran on it as copied in state `state`: from state 0 the
 * sums of sb_iocache_expect_op (any op), else those of the state op leaves it in. */
static inline uint32_t sb_iocache_expected(const struct sb_iocache *ioc, const struct sb_op *op,
                                           unsigned state, uint64_t block)
{
    if (state == SB_PAGE_GENERATED)
        return sb_iocache_sums_after(ioc, op)[block];
    return ioc->state_sums[sb_page_state_after(state, op)][block];
}

/* The state of page block in the IO cache (0 for a table no run writes back). */
static inline unsigned sb_iocache_state(const struct sb_iocache *ioc, uint64_t block)
{
    return ioc->state ? ioc->state[block] : SB_PAGE_GENERATED;
}

static inline const uint8_t *sb_iocache_page(const struct sb_iocache *ioc, uint64_t block)
{
    return ioc->pages + block * ioc->page_size;
}

/* Fills the checksums and live rows of page `block` just generated at `page`. */
void sb_iocache_note_page(struct sb_iocache *ioc, uint64_t block, const uint8_t *page,
                          uint32_t live);

void sb_iocache_destroy(struct sb_iocache *ioc);

#endif
