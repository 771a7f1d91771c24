/* SPDX-License-Identifier: BSD-3-Clause */
/* source_memory.c: source `memory` (source_ops.h): the table in a region of RAM standing for
 * the kernel's IO cache ("memtable" in the thread), placed as iocache_node asks; its bigtable
 * DMA-fills each frame just before its copy (dma_fill.h). */
#include "config.h"
#include "engine/source_ops.h"

#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "engine/iocache.h"
#include "engine/scan.h"
#include "plan/plan.h"
#include "vocab/vocab.h"

static int create_in_memory(struct sb_iocache *ioc, uint64_t table_size,
                            const struct sb_heap_layout *layout, const struct sb_placement *node,
                            int home_node, struct sb_error *err)
{
    memset(ioc, 0, sizeof *ioc);
    ioc->ops = &sb_source_memory_ops;
    ioc->page_size = layout->page_size;
    ioc->layout = *layout;
    ioc->npages = table_size / layout->page_size;
    ioc->node = *node;
    ioc->pages = sb_mem_alloc_placed(ioc->npages * ioc->page_size, node, home_node,
                                     &ioc->placement);
    ioc->sum_copy = calloc(ioc->npages, sizeof *ioc->sum_copy);
    ioc->live = calloc(ioc->npages, sizeof *ioc->live);
    if (!ioc->pages || !ioc->sum_copy || !ioc->live) {
        sb_iocache_destroy(ioc);
        return sb_fail(err, SB_ERR_RUN, "cannot allocate the %llu-page table",
                       (unsigned long long)table_size / layout->page_size);
    }
    for (uint64_t b = 0; b < ioc->npages; b++) {
        uint8_t *page = ioc->pages + b * ioc->page_size;
        sb_iocache_note_page(ioc, b, page, sb_heap_fill_page(layout, page, b));
    }
    return SB_OK;
}

int sb_iocache_create(struct sb_iocache *ioc, uint64_t table_size,
                      const struct sb_heap_layout *layout, struct sb_error *err)
{
    static const struct sb_placement local = {SB_PLACE_LOCAL, 0};
    return create_in_memory(ioc, table_size, layout, &local, -1, err);
}

static int memory_build(struct sb_iocache *ioc, const struct sb_run_params *p, int home_node,
                        struct sb_error *err)
{
    int status = create_in_memory(ioc, p->table_size, &p->layout, &p->iocache_node, home_node,
                                  err);
    if (status == SB_OK)
        ioc->source = p->source;
    return status;
}

static void memory_destroy(struct sb_iocache *ioc)
{
    sb_mem_free_placed(ioc->pages, ioc->npages * ioc->page_size, &ioc->placement);
}

/* A bigtable's device rate: one pass of fills alone. */
static int memory_prepare(const struct sb_run_params *p, const struct sb_iocache *ioc,
                          uint8_t *buffer, struct sb_io_result *io, struct sb_error *err)
{
    (void)buffer;
    (void)err;
    if (p->bigtable)
        io->device_mbps = sb_dma_device_mbps(ioc->pages, ioc->npages, ioc->page_size);
    return SB_OK;
}

const struct sb_source_ops sb_source_memory_ops = {
    .name = "memory",
    .build = memory_build,
    .destroy = memory_destroy,
    .fetch = SB_FETCH_COPY,
    .fetch_bigtable = SB_FETCH_DMA,
    .prepare = memory_prepare,
};
