/* SPDX-License-Identifier: BSD-3-Clause */
/* iocache.c: the table, whichever source built it (source_ops.h: source_memory.c,
 * source_file.c): its checksums, whether it serves a run, and what a run asks of its source. */
#include "config.h"
#include "engine/iocache.h"

#include <stdlib.h>
#include <string.h>

#include "engine/scan.h"
#include "engine/source_ops.h"
#include "plan/plan.h"

int sb_iocache_build(struct sb_iocache *ioc, const struct sb_run_params *p, int home_node,
                     struct sb_error *err)
{
    const struct sb_source_ops *ops = p->source->is_file ? &sb_source_file_ops
                                                         : &sb_source_memory_ops;
    return ops->build(ioc, p, home_node, err);
}

bool sb_iocache_serves(const struct sb_iocache *ioc, const struct sb_run_params *p)
{
    const struct sb_source *source = ioc->source ? ioc->source : sb_source_find("memory");

    return ioc->pages && ioc->npages * ioc->page_size == p->table_size &&
           ioc->layout.page_size == p->layout.page_size &&
           ioc->layout.row_width == p->layout.row_width &&
           ioc->layout.dead_pct == p->layout.dead_pct &&
           ioc->layout.hint_bits_set == p->layout.hint_bits_set && source == p->source &&
           !ioc->state && /* a table written back is no longer as built */
           ioc->node.kind == p->iocache_node.kind && ioc->node.node == p->iocache_node.node &&
           (!ioc->ops->serves || ioc->ops->serves(ioc, p));
}

void sb_iocache_note_page(struct sb_iocache *ioc, uint64_t block, const uint8_t *page,
                          uint32_t live)
{
    ioc->live_rows += live;
    if (ioc->live)
        ioc->live[block] = live;
    ioc->sum_copy[block] = sb_page_checksum(page, ioc->page_size);
}

uint64_t sb_iocache_live_rows(const struct sb_iocache *ioc, uint64_t first, uint64_t end)
{
    uint64_t rows = 0;

    if (first == 0 && end >= ioc->npages)
        return ioc->live_rows;
    for (uint64_t b = first; ioc->live && b < end; b++)
        rows += ioc->live[b];
    return rows;
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

/* The checksums after pass of a copy of each page (as built), into a new array. */
static uint32_t *sums_after_pass(const struct sb_iocache *ioc, sb_op_fn pass)
{
    uint8_t *scratch = aligned_alloc(64, ioc->page_size);
    uint32_t *sums = malloc(ioc->npages * sizeof *sums);

    if (!scratch || !sums) {
        free(scratch);
        free(sums);
        return NULL;
    }
    for (uint64_t b = 0; b < ioc->npages; b++) {
        memcpy(scratch, sb_iocache_page(ioc, b), ioc->page_size);
        pass(scratch, ioc->page_size, NULL);
        sums[b] = sb_page_checksum(scratch, ioc->page_size);
    }
    free(scratch);
    return sums;
}

int sb_iocache_expect_op(struct sb_iocache *ioc, const struct sb_op *op, struct sb_error *err)
{
    int i;
    uint32_t *sums;

    if (sb_iocache_sums_after(ioc, op))
        return SB_OK;
    for (i = 0; i < SB_IOCACHE_OPS && ioc->after[i].op; i++)
        ;
    if (i == SB_IOCACHE_OPS)
        return sb_fail(err, SB_ERR_RUN, "op %s: a table keeps checksums for %d ops", op->name,
                       SB_IOCACHE_OPS);
    sums = sums_after_pass(ioc, op->pass);
    if (!sums)
        return sb_fail(err, SB_ERR_RUN, "out of memory for the checksums after op %s", op->name);
    ioc->after[i] = (struct sb_iocache_sums){op, sums};
    return SB_OK;
}

int sb_iocache_expect_states(struct sb_iocache *ioc, struct sb_error *err)
{
    if (ioc->state)
        return SB_OK;
    ioc->state_sums[SB_PAGE_GENERATED] = ioc->sum_copy;
    ioc->state_sums_owned[SB_PAGE_HINTED] = sums_after_pass(ioc, sb_heap_count);
    ioc->state_sums_owned[SB_PAGE_VACUUMED] = sums_after_pass(ioc, sb_heap_vacuum);
    ioc->state = calloc(ioc->npages, 1);
    if (!ioc->state_sums_owned[SB_PAGE_HINTED] || !ioc->state_sums_owned[SB_PAGE_VACUUMED] ||
        !ioc->state) {
        free(ioc->state);
        ioc->state = NULL;
        return sb_fail(err, SB_ERR_RUN, "out of memory for the checksums of the table's states");
    }
    ioc->state_sums[SB_PAGE_HINTED] = ioc->state_sums_owned[SB_PAGE_HINTED];
    ioc->state_sums[SB_PAGE_VACUUMED] = ioc->state_sums_owned[SB_PAGE_VACUUMED];
    return SB_OK;
}

void sb_iocache_destroy(struct sb_iocache *ioc)
{
    if (ioc->ops)
        ioc->ops->destroy(ioc);
    free(ioc->sum_copy);
    free(ioc->live);
    free(ioc->state);
    for (int i = 0; i < SB_PAGE_NSTATES; i++)
        free(ioc->state_sums_owned[i]);
    for (int i = 0; i < SB_IOCACHE_OPS; i++)
        free(ioc->after[i].sums);
    memset(ioc, 0, sizeof *ioc);
}

int sb_source_prepare(const struct sb_run_params *p, const struct sb_iocache *ioc,
                      uint8_t *buffer, struct sb_io_result *io, struct sb_error *err)
{
    memset(io, 0, sizeof *io);
    io->resident_min = io->resident_max_start = io->resident_after_drop = -1;
    return ioc->ops->prepare ? ioc->ops->prepare(p, ioc, buffer, io, err) : SB_OK;
}

int sb_source_settle(const struct sb_run_params *p, const struct sb_iocache *ioc,
                     struct sb_error *err)
{
    return ioc->ops->settle ? ioc->ops->settle(p, ioc, err) : SB_OK;
}

void sb_source_before_scan(const struct sb_run_params *p, const struct sb_iocache *ioc,
                           bool timed, struct sb_io_result *io)
{
    if (ioc->ops->before_scan)
        ioc->ops->before_scan(p, ioc, timed, io);
}
