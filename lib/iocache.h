/* iocache.h: the `memory` source: a region of table_size bytes standing for the kernel's IO
 * cache ("memtable" in the thread), holding the table's heap pages, with each page's expected
 * checksum after the copy and after each op, so every run can be validated. */
#ifndef SB_IOCACHE_H
#define SB_IOCACHE_H

#include <stdint.h>

#include "error.h"
#include "heap.h"
#include "op.h"

struct sb_iocache {
    uint8_t *pages;            /* npages * page_size bytes */
    uint64_t npages;
    uint32_t page_size;
    struct sb_heap_layout layout;
    uint64_t live_rows;        /* visible tuples in the whole table */
    uint32_t *sum_copy;        /* checksum of each page as generated (= after a correct copy) */
    uint32_t *sum_after_op;    /* checksum of each page after `op_for_sums` ran on it */
    const struct sb_op *op_for_sums;
};

/* Allocates and fills the table. Status SB_ERR_RUN on allocation failure. */
int sb_iocache_create(struct sb_iocache *ioc, uint64_t table_size,
                      const struct sb_heap_layout *layout, struct sb_error *err);

/* Computes sum_after_op for op (a page copy is run through the op once, untimed). */
int sb_iocache_expect_op(struct sb_iocache *ioc, const struct sb_op *op, struct sb_error *err);

static inline const uint8_t *sb_iocache_page(const struct sb_iocache *ioc, uint64_t block)
{
    return ioc->pages + block * ioc->page_size;
}

void sb_iocache_destroy(struct sb_iocache *ioc);

#endif
