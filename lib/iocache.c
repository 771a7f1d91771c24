/* iocache.c: building the in-memory table (the simulated kernel IO cache) and its checksums. */
#include "config.h"
#include "iocache.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"

int sb_iocache_create(struct sb_iocache *ioc, uint64_t table_size,
                      const struct sb_heap_layout *layout, struct sb_error *err)
{
    memset(ioc, 0, sizeof *ioc);
    ioc->page_size = layout->page_size;
    ioc->layout = *layout;
    ioc->npages = table_size / layout->page_size;
    ioc->pages = sb_mem_alloc(ioc->npages * ioc->page_size);
    ioc->sum_copy = calloc(ioc->npages, sizeof *ioc->sum_copy);
    ioc->sum_after_op = calloc(ioc->npages, sizeof *ioc->sum_after_op);
    if (!ioc->pages || !ioc->sum_copy || !ioc->sum_after_op) {
        sb_iocache_destroy(ioc);
        return sb_fail(err, SB_ERR_RUN, "cannot allocate the %llu-page table",
                       (unsigned long long)table_size / layout->page_size);
    }
    for (uint64_t b = 0; b < ioc->npages; b++) {
        uint8_t *page = ioc->pages + b * ioc->page_size;
        ioc->live_rows += sb_heap_fill_page(layout, page, b);
        ioc->sum_copy[b] = sb_page_checksum(page, ioc->page_size);
    }
    return SB_OK;
}

int sb_iocache_expect_op(struct sb_iocache *ioc, const struct sb_op *op, struct sb_error *err)
{
    uint8_t *scratch;

    if (ioc->op_for_sums == op)
        return SB_OK;
    if (!op->pass) {
        memcpy(ioc->sum_after_op, ioc->sum_copy, ioc->npages * sizeof *ioc->sum_copy);
        ioc->op_for_sums = op;
        return SB_OK;
    }
    scratch = aligned_alloc(64, ioc->page_size);
    if (!scratch)
        return sb_fail(err, SB_ERR_RUN, "cannot allocate a scratch page");
    for (uint64_t b = 0; b < ioc->npages; b++) {
        memcpy(scratch, sb_iocache_page(ioc, b), ioc->page_size);
        op->pass(scratch, ioc->page_size);
        ioc->sum_after_op[b] = sb_page_checksum(scratch, ioc->page_size);
    }
    free(scratch);
    ioc->op_for_sums = op;
    return SB_OK;
}

void sb_iocache_destroy(struct sb_iocache *ioc)
{
    sb_mem_free(ioc->pages, ioc->npages * ioc->page_size);
    free(ioc->sum_copy);
    free(ioc->sum_after_op);
    memset(ioc, 0, sizeof *ioc);
}
