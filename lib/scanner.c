/* scanner.c: one scanner's loops (own pool or shared pool, per source), its validating pass and
 * the pool checks. */
#include "config.h"
#include "scanner.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dma_fill.h"
#include "mem.h"
#include "source_file.h"

int sb_pool_create(struct sb_pool *pool, const struct sb_run_params *p, int home_node,
                   struct sb_error *err)
{
    memset(pool, 0, sizeof *pool);
    pool->nbuffers = (uint32_t)(p->pool_size / p->page_size);
    pool->bytes = (size_t)p->pool_size;
    pool->buffers = sb_mem_alloc_placed(pool->bytes, &p->pool_node, home_node, &pool->placement);
    pool->tag = malloc(pool->nbuffers * sizeof *pool->tag);
    if (!pool->buffers || !pool->tag) {
        sb_pool_destroy(pool);
        return sb_fail(err, SB_ERR_RUN, "cannot allocate the %zu-byte pool", (size_t)p->pool_size);
    }
    for (uint32_t b = 0; b < pool->nbuffers; b++)
        pool->tag[b] = -1;
    return SB_OK;
}

void sb_pool_destroy(struct sb_pool *pool)
{
    sb_mem_free(pool->buffers, pool->bytes);
    free(pool->tag);
    memset(pool, 0, sizeof *pool);
}

/* How a page reaches its buffer. */
enum fetch_kind {
    FETCH_COPY,       /* memory: the kernel's copy */
    FETCH_DMA,        /* memory bigtable: the DMA-like fill of the frame, then the copy */
    FETCH_PREAD,      /* file: pread from the warm page cache */
    FETCH_PREAD_DROP, /* file bigtable: pread, and the pages behind dropped */
};

static enum fetch_kind fetch_kind_of(const struct sb_scanner *s)
{
    if (s->ioc->file)
        return s->p->bigtable ? FETCH_PREAD_DROP : FETCH_PREAD;
    return s->p->bigtable ? FETCH_DMA : FETCH_COPY;
}

static inline void fetch(struct sb_scanner *s, enum fetch_kind kind, uint64_t block, uint8_t *dst)
{
    const struct sb_iocache *ioc = s->ioc;
    const uint32_t page_size = ioc->page_size;
    ssize_t n;

    switch (kind) {
    case FETCH_DMA:
        sb_dma_fill(ioc->pages + block * page_size, page_size);
        /* fall through */
    case FETCH_COPY:
        s->p->kernel->copy(dst, ioc->pages + block * page_size, page_size);
        return;
    case FETCH_PREAD:
    case FETCH_PREAD_DROP:
        n = pread(ioc->file->fd, dst, page_size, (off_t)(block * page_size));
        if (n != (ssize_t)page_size && !s->io_errno) {
            s->io_errno = n < 0 ? errno : EIO;
            s->io_block = block;
        }
        if (kind == FETCH_PREAD_DROP && (block + 1) % SB_FILE_DROP_PAGES == 0) {
            sb_file_drop(ioc, block + 1 - SB_FILE_DROP_PAGES, block + 1);
            s->drops++;
        }
        return;
    }
}

/* The original hot loop (memory source, own pool): no checks but the op's row count, which the
 * caller validates. With victims non-NULL (a tracing counter backend) it also records the
 * buffer of every page. */
static uint64_t scan_memory(const struct sb_run_params *p, const struct sb_iocache *ioc,
                            struct sb_pool *pool, struct sb_policy_state *ps, uint32_t *victims,
                            uint64_t first, uint64_t end)
{
    uint32_t (*const victim)(struct sb_policy_state *) = p->policy->victim;
    const sb_copy_fn copy = p->kernel->copy;
    const sb_op_fn pass = p->op->pass;
    const uint32_t page_size = p->page_size;
    const uint8_t *src = ioc->pages + first * page_size;
    uint64_t rows = 0;

    for (uint64_t block = first; block < end; block++, src += page_size) {
        uint32_t b = victim(ps);
        uint8_t *dst = pool->buffers + (size_t)b * page_size;
        copy(dst, src, page_size);
        pool->tag[b] = (int64_t)block;
        if (victims)
            victims[block] = b;
        if (pass)
            rows += pass(dst, page_size);
    }
    return rows;
}

/* The other sources into an own pool. */
static uint64_t scan_own_pool(struct sb_scanner *s, enum fetch_kind kind, uint64_t first,
                              uint64_t end)
{
    uint32_t (*const victim)(struct sb_policy_state *) = s->p->policy->victim;
    const sb_op_fn pass = s->p->op->pass;
    const uint32_t page_size = s->p->page_size;
    struct sb_pool *pool = s->pool;
    uint64_t rows = 0;

    for (uint64_t block = first; block < end; block++) {
        uint32_t b = victim(s->ps);
        uint8_t *dst = pool->buffers + (size_t)b * page_size;
        fetch(s, kind, block, dst);
        pool->tag[b] = (int64_t)block;
        if (s->victims)
            s->victims[block] = b;
        if (pass)
            rows += pass(dst, page_size);
    }
    return rows;
}

/* Any source into the shared pool: pin, read, op, unpin. */
static uint64_t scan_shared_pool(struct sb_scanner *s, enum fetch_kind kind, uint64_t first,
                                 uint64_t end)
{
    const sb_op_fn pass = s->p->op->pass;
    const uint32_t page_size = s->p->page_size;
    struct sb_shared_pool *sp = s->shared;
    const int64_t tag_base = (int64_t)s->table_id * (int64_t)s->ioc->npages;
    uint64_t rows = 0;

    for (uint64_t block = first; block < end; block++) {
        uint32_t b = sb_shared_pool_acquire(sp, &s->visits);
        uint8_t *dst = sp->buffers + (size_t)b * page_size;
        fetch(s, kind, block, dst);
        if (pass)
            rows += pass(dst, page_size);
        sb_shared_pool_release(sp, b, tag_base + (int64_t)block);
    }
    s->acquisitions += end - first;
    return rows;
}

uint64_t sb_scanner_scan(struct sb_scanner *s, uint64_t first, uint64_t end)
{
    enum fetch_kind kind = fetch_kind_of(s);

    s->pages += end - first;
    if (s->shared)
        return scan_shared_pool(s, kind, first, end);
    if (kind == FETCH_COPY)
        return scan_memory(s->p, s->ioc, s->pool, s->ps, s->victims, first, end);
    return scan_own_pool(s, kind, first, end);
}

int sb_scanner_io_status(const struct sb_scanner *s, struct sb_error *err)
{
    if (!s->io_errno)
        return SB_OK;
    return sb_fail(err, SB_ERR_RUN, "%s: reading page %llu of the table file in %s: %s",
                   s->p->name, (unsigned long long)s->io_block, s->ioc->file->dir,
                   strerror(s->io_errno));
}

int sb_scanner_validate(struct sb_scanner *s, uint64_t first, uint64_t end,
                        _Atomic uint32_t *seen, uint64_t *rows, struct sb_validation *v,
                        struct sb_error *err)
{
    const struct sb_run_params *p = s->p;
    const struct sb_iocache *ioc = s->ioc;
    const int64_t tag_base = (int64_t)s->table_id * (int64_t)ioc->npages;
    enum fetch_kind kind = fetch_kind_of(s);
    int status = SB_OK;

    for (uint64_t block = first; block < end && status == SB_OK; block++) {
        uint32_t b = s->shared ? sb_shared_pool_acquire(s->shared, &s->visits)
                               : p->policy->victim(s->ps);
        uint8_t *dst = (s->shared ? s->shared->buffers : s->pool->buffers) +
                       (size_t)b * p->page_size;
        uint32_t sum;

        fetch(s, kind, block, dst);
        s->pages++;
        if (seen)
            atomic_fetch_add_explicit(&seen[block], 1, memory_order_relaxed);
        status = sb_scanner_io_status(s, err);
        sum = sb_page_checksum(dst, p->page_size);
        if (status == SB_OK && sum != ioc->sum_copy[block])
            status = sb_fail(err, SB_ERR_RUN, "%s: validation failed: page %llu copied by "
                             "kernel %s into buffer %u has checksum %08x, expected %08x",
                             p->name, (unsigned long long)block, p->kernel->name, b, sum,
                             ioc->sum_copy[block]);
        if (status == SB_OK) {
            v->pages_checked_after_copy++;
            if (p->op->pass)
                *rows += p->op->pass(dst, p->page_size);
            sum = sb_page_checksum(dst, p->page_size);
            if (sum != sb_iocache_sums_after(ioc, p->op)[block])
                status = sb_fail(err, SB_ERR_RUN, "%s: validation failed: page %llu after op "
                                 "%s has checksum %08x, expected %08x", p->name,
                                 (unsigned long long)block, p->op->name, sum,
                                 sb_iocache_sums_after(ioc, p->op)[block]);
            else
                v->pages_checked_after_op++;
        }
        if (s->shared) {
            s->acquisitions++;
            sb_shared_pool_release(s->shared, b, tag_base + (int64_t)block);
        } else {
            s->pool->tag[b] = (int64_t)block;
        }
    }
    return status;
}

int sb_pool_check(const struct sb_run_params *p, const struct sb_iocache *ioc,
                  const struct sb_pool *pool, uint64_t *touched, uint64_t *checked,
                  struct sb_error *err)
{
    const uint32_t *expected = sb_iocache_sums_after(ioc, p->op);

    for (uint32_t b = 0; b < pool->nbuffers; b++) {
        uint32_t sum;
        if (pool->tag[b] < 0)
            continue;
        (*touched)++;
        sum = sb_page_checksum(pool->buffers + (size_t)b * p->page_size, p->page_size);
        if (sum != expected[pool->tag[b]])
            return sb_fail(err, SB_ERR_RUN, "%s: validation failed: buffer %u holds page %lld "
                           "with checksum %08x, expected %08x", p->name, b,
                           (long long)pool->tag[b], sum, expected[pool->tag[b]]);
        (*checked)++;
    }
    return SB_OK;
}

int sb_shared_pool_check(const struct sb_run_params *p, const struct sb_iocache *tables,
                         struct sb_shared_pool *sp, uint64_t *touched, uint64_t *checked,
                         struct sb_error *err)
{
    const uint64_t npages = tables[0].npages;

    for (uint32_t b = 0; b < sp->nbuffers; b++) {
        int64_t tag = atomic_load(&sp->tag[b]);
        const struct sb_iocache *ioc;
        uint64_t block;
        uint32_t sum;

        if (tag < 0)
            continue;
        (*touched)++;
        ioc = &tables[(uint64_t)tag / npages];
        block = (uint64_t)tag % npages;
        sum = sb_page_checksum(sp->buffers + (size_t)b * p->page_size, p->page_size);
        if (sum != sb_iocache_sums_after(ioc, p->op)[block])
            return sb_fail(err, SB_ERR_RUN, "%s: validation failed: shared buffer %u holds page "
                           "%llu of table %llu with checksum %08x, expected %08x", p->name, b,
                           (unsigned long long)block, (unsigned long long)((uint64_t)tag / npages),
                           sum, sb_iocache_sums_after(ioc, p->op)[block]);
        (*checked)++;
    }
    return SB_OK;
}

int sb_source_prepare(const struct sb_run_params *p, const struct sb_iocache *ioc,
                      uint8_t *buffer, struct sb_io_result *io, struct sb_error *err)
{
    memset(io, 0, sizeof *io);
    io->resident_min = io->resident_max_start = io->resident_after_drop = -1;
    if (ioc->file) {
        io->scratch = ioc->file->scratch;
        io->write_seconds = ioc->file->write_seconds;
    }
    if (!p->bigtable)
        return ioc->file ? sb_file_warm(ioc, err) : SB_OK;
    if (ioc->file) {
        io->device_mbps = sb_file_device_mbps(ioc, buffer);
        if (io->device_mbps <= 0)
            return sb_fail(err, SB_ERR_RUN, "%s: reading the table file in %s failed", p->name,
                           ioc->file->dir);
        io->resident_after_drop = sb_file_drop_all_settled(ioc);
    } else {
        io->device_mbps = sb_dma_device_mbps(ioc->pages, ioc->npages, ioc->page_size);
    }
    return SB_OK;
}

void sb_source_before_scan(const struct sb_run_params *p, const struct sb_iocache *ioc,
                           bool timed, struct sb_io_result *io)
{
    double resident;

    if (!ioc->file)
        return;
    if (p->bigtable) {
        resident = sb_file_drop_all_settled(ioc);
        if (resident > io->resident_max_start)
            io->resident_max_start = resident;
    } else if (timed) {
        resident = sb_file_resident(ioc);
        if (io->resident_min < 0 || resident < io->resident_min)
            io->resident_min = resident;
    }
}
