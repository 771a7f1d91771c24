/* iocache.c: building the table in memory (the simulated kernel IO cache) or, through
 * source_file.c, as a file; and its checksums. */
#include "config.h"
#include "iocache.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "plan.h"
#include "source_file.h"

static int create_in_memory(struct sb_iocache *ioc, uint64_t table_size,
                            const struct sb_heap_layout *layout, const struct sb_placement *node,
                            int home_node, struct sb_error *err)
{
    memset(ioc, 0, sizeof *ioc);
    ioc->page_size = layout->page_size;
    ioc->layout = *layout;
    ioc->npages = table_size / layout->page_size;
    ioc->node = *node;
    ioc->pages = sb_mem_alloc_placed(ioc->npages * ioc->page_size, node, home_node,
                                     &ioc->placement);
    ioc->sum_copy = calloc(ioc->npages, sizeof *ioc->sum_copy);
    if (!ioc->pages || !ioc->sum_copy) {
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

int sb_iocache_build(struct sb_iocache *ioc, const struct sb_run_params *p, int home_node,
                     struct sb_error *err)
{
    int status;

    if (p->source->is_file)
        return sb_file_table_create(ioc, p, home_node, err);
    status = create_in_memory(ioc, p->table_size, &p->layout, &p->iocache_node, home_node, err);
    if (status == SB_OK)
        ioc->source = p->source;
    return status;
}

bool sb_iocache_serves(const struct sb_iocache *ioc, const struct sb_run_params *p)
{
    const struct sb_source *source = ioc->source ? ioc->source : sb_source_find("memory");

    return ioc->pages && ioc->npages * ioc->page_size == p->table_size &&
           ioc->layout.page_size == p->layout.page_size &&
           ioc->layout.row_width == p->layout.row_width &&
           ioc->layout.dead_pct == p->layout.dead_pct && source == p->source &&
           ioc->node.kind == p->iocache_node.kind && ioc->node.node == p->iocache_node.node &&
           (!ioc->file || sb_file_table_in(ioc, p->data_dir));
}

void sb_iocache_note_page(struct sb_iocache *ioc, uint64_t block, const uint8_t *page,
                          uint32_t live)
{
    ioc->live_rows += live;
    ioc->sum_copy[block] = sb_page_checksum(page, ioc->page_size);
}

const uint32_t *sb_iocache_sums_after(const struct sb_iocache *ioc, const struct sb_op *op)
{
    if (!op->pass)
        return ioc->sum_copy;
    for (int i = 0; i < SB_IOCACHE_OPS; i++)
        if (ioc->after[i].op == op)
            return ioc->after[i].sums;
    return NULL;
}

int sb_iocache_expect_op(struct sb_iocache *ioc, const struct sb_op *op, struct sb_error *err)
{
    int i;
    uint8_t *scratch;
    uint32_t *sums;

    if (sb_iocache_sums_after(ioc, op))
        return SB_OK;
    for (i = 0; i < SB_IOCACHE_OPS && ioc->after[i].op; i++)
        ;
    if (i == SB_IOCACHE_OPS)
        return sb_fail(err, SB_ERR_RUN, "op %s: a table keeps checksums for %d ops", op->name,
                       SB_IOCACHE_OPS);
    scratch = aligned_alloc(64, ioc->page_size);
    sums = malloc(ioc->npages * sizeof *sums);
    if (!scratch || !sums) {
        free(scratch);
        free(sums);
        return sb_fail(err, SB_ERR_RUN, "out of memory for the checksums after op %s", op->name);
    }
    for (uint64_t b = 0; b < ioc->npages; b++) {
        memcpy(scratch, sb_iocache_page(ioc, b), ioc->page_size);
        op->pass(scratch, ioc->page_size);
        sums[b] = sb_page_checksum(scratch, ioc->page_size);
    }
    free(scratch);
    ioc->after[i] = (struct sb_iocache_sums){op, sums};
    return SB_OK;
}

void sb_iocache_destroy(struct sb_iocache *ioc)
{
    if (ioc->file)
        sb_file_table_destroy(ioc);
    else
        sb_mem_free(ioc->pages, ioc->npages * ioc->page_size);
    free(ioc->sum_copy);
    for (int i = 0; i < SB_IOCACHE_OPS; i++)
        free(ioc->after[i].sums);
    memset(ioc, 0, sizeof *ioc);
}
