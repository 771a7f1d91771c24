/* scanner.c: one scanner's loops (own pool or shared pool, per source), its validating pass and
 * the pool checks. */
#include "config.h"
#include "engine/scanner.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "engine/source_file.h"
#include "engine/source_ops.h"
#include "vocab/vocab.h"

int sb_pool_create(struct sb_pool *pool, const struct sb_run_params *p, int home_node,
                   struct sb_error *err)
{
    memset(pool, 0, sizeof *pool);
    pool->nbuffers = (uint32_t)(p->pool_size / p->page_size);
    pool->bytes = (size_t)p->pool_size;
    pool->buffers = sb_mem_alloc_placed(pool->bytes, &p->pool_node, home_node, &pool->placement);
    pool->tag = malloc(pool->nbuffers * sizeof *pool->tag);
    pool->tag_op = malloc(pool->nbuffers * sizeof *pool->tag_op);
    if (!pool->buffers || !pool->tag || !pool->tag_op) {
        sb_pool_destroy(pool);
        return sb_fail(err, SB_ERR_RUN, "cannot allocate the %zu-byte pool", (size_t)p->pool_size);
    }
    for (uint32_t b = 0; b < pool->nbuffers; b++) {
        pool->tag[b] = -1;
        pool->tag_op[b] = p->op; /* the hot loop runs op alone and leaves this as it is */
    }
    return SB_OK;
}

void sb_pool_destroy(struct sb_pool *pool)
{
    sb_mem_free(pool->buffers, pool->bytes);
    free(pool->tag);
    free(pool->tag_op);
    memset(pool, 0, sizeof *pool);
}

static enum sb_fetch fetch_kind_of(const struct sb_scanner *s)
{
    return s->p->bigtable ? s->ioc->ops->fetch_bigtable : s->ioc->ops->fetch;
}

static inline void fetch(struct sb_scanner *s, enum sb_fetch kind, uint64_t block, uint8_t *dst)
{
    const struct sb_iocache *ioc = s->ioc;
    const uint32_t page_size = ioc->page_size;
    ssize_t n;

    switch (kind) {
    case SB_FETCH_DMA:
        sb_dma_fill(ioc->pages + block * page_size, page_size);
        /* fall through */
    case SB_FETCH_COPY:
        s->p->kernel->copy(dst, ioc->pages + block * page_size, page_size);
        return;
    case SB_FETCH_PREAD:
    case SB_FETCH_PREAD_DROP:
        n = pread(ioc->file->fd, dst, page_size, (off_t)(block * page_size));
        if (n != (ssize_t)page_size && !s->io_errno) {
            s->io_errno = n < 0 ? errno : EIO;
            s->io_block = block;
        }
        if (kind == SB_FETCH_PREAD_DROP && (block + 1) % SB_FILE_DROP_PAGES == 0) {
            sb_file_drop(ioc, block + 1 - SB_FILE_DROP_PAGES, block + 1);
            s->drops++;
        }
        return;
    }
}

/* The original hot loop (memory source, own pool): no checks but the op's row count, which the
 * caller validates. With victims non-NULL (a tracing counter backend) it also records the
 * buffer of every page. */
static uint64_t scan_memory(const struct sb_run_params *p, const struct sb_op *op,
                            const struct sb_iocache *ioc, struct sb_pool *pool,
                            struct sb_policy_state *ps, uint32_t *victims, uint64_t first,
                            uint64_t end)
{
    uint32_t (*const victim)(struct sb_policy_state *) = p->policy->victim;
    const sb_copy_fn copy = p->kernel->copy;
    const sb_op_fn pass = op->pass;
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

/* The other sources into an own pool, and any source with a policy told of each release
 * (PostgreSQL's UnpinBuffer, with VACUUM's hint when the op is vacuum) or a statement sequence. */
static uint64_t scan_own_pool(struct sb_scanner *s, enum sb_fetch kind, uint64_t first,
                              uint64_t end)
{
    uint32_t (*const victim)(struct sb_policy_state *) = s->p->policy->victim;
    void (*const release)(struct sb_policy_state *, uint32_t, bool) = s->p->policy->release;
    const bool vacuum = s->op == sb_op_find("vacuum");
    const sb_op_fn pass = s->op->pass;
    const uint32_t page_size = s->p->page_size;
    struct sb_pool *pool = s->pool;
    uint64_t rows = 0;

    for (uint64_t block = first; block < end; block++) {
        uint32_t b = victim(s->ps);
        uint8_t *dst = pool->buffers + (size_t)b * page_size;
        fetch(s, kind, block, dst);
        pool->tag[b] = (int64_t)block;
        pool->tag_op[b] = s->op;
        if (s->victims)
            s->victims[block] = b;
        if (pass)
            rows += pass(dst, page_size);
        if (release)
            release(s->ps, b, vacuum);
    }
    return rows;
}

/* Any source into the shared pool: pin, read, op, unpin. */
static uint64_t scan_shared_pool(struct sb_scanner *s, enum sb_fetch kind, uint64_t first,
                                 uint64_t end)
{
    const sb_op_fn pass = s->op->pass;
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
    enum sb_fetch kind = fetch_kind_of(s);

    s->pages += end - first;
    if (s->shared)
        return scan_shared_pool(s, kind, first, end);
    if (kind == SB_FETCH_COPY && !s->p->policy->release && s->p->nstatements <= 1)
        return scan_memory(s->p, s->op, s->ioc, s->pool, s->ps, s->victims, first, end);
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
    const struct sb_op *op = s->op;
    const struct sb_iocache *ioc = s->ioc;
    const int64_t tag_base = (int64_t)s->table_id * (int64_t)ioc->npages;
    enum sb_fetch kind = fetch_kind_of(s);
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
            if (op->pass)
                *rows += op->pass(dst, p->page_size);
            sum = sb_page_checksum(dst, p->page_size);
            if (sum != sb_iocache_sums_after(ioc, op)[block])
                status = sb_fail(err, SB_ERR_RUN, "%s: validation failed: page %llu after op "
                                 "%s has checksum %08x, expected %08x", p->name,
                                 (unsigned long long)block, op->name, sum,
                                 sb_iocache_sums_after(ioc, op)[block]);
            else
                v->pages_checked_after_op++;
        }
        if (s->shared) {
            s->acquisitions++;
            sb_shared_pool_release(s->shared, b, tag_base + (int64_t)block);
        } else {
            s->pool->tag[b] = (int64_t)block;
            s->pool->tag_op[b] = op;
            if (p->policy->release)
                p->policy->release(s->ps, b, op == sb_op_find("vacuum"));
        }
    }
    return status;
}

int sb_pool_check(const struct sb_run_params *p, const struct sb_iocache *ioc,
                  const struct sb_pool *pool, uint64_t *touched, uint64_t *checked,
                  struct sb_error *err)
{
    for (uint32_t b = 0; b < pool->nbuffers; b++) {
        /* statements: the op that last ran over the page in b */
        const uint32_t *expected = sb_iocache_sums_after(ioc, pool->tag_op[b]);
        uint32_t sum;
        if (pool->tag[b] < 0)
            continue;
        (*touched)++;
        sum = sb_page_checksum(pool->buffers + (size_t)b * p->page_size, p->page_size);
        if (sum != expected[pool->tag[b]])
            return sb_fail(err, SB_ERR_RUN, "%s: validation failed: buffer %u holds page %lld "
                           "with checksum %08x, expected %08x (after op %s)", p->name, b,
                           (long long)pool->tag[b], sum, expected[pool->tag[b]],
                           pool->tag_op[b]->name);
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
