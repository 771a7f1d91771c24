/* SPDX-License-Identifier: BSD-3-Clause */
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

/* Whether the run's op or a statement of its sequence runs 8.1's buffer manager. */
static bool needs_buffer_manager(const struct sb_run_params *p)
{
    bool needs = sb_op_uses_buffer_manager(p->op);

    for (uint32_t i = 0; i < p->nstatements; i++)
        needs = needs || sb_op_uses_buffer_manager(p->statements[i]);
    return needs;
}

int sb_pool_create(struct sb_pool *pool, const struct sb_run_params *p, int home_node,
                   struct sb_error *err)
{
    memset(pool, 0, sizeof *pool);
    pool->nbuffers = (uint32_t)(p->pool_size / p->page_size);
    pool->bytes = (size_t)p->pool_size;
    pool->buffers = p->pool_layout == SB_LAYOUT_HUGEPAGES
                        ? sb_mem_alloc_fresh(pool->bytes, &p->pool_node, home_node, true,
                                             true, &pool->placement)
                        : sb_mem_alloc_placed(pool->bytes, &p->pool_node, home_node,
                                              &pool->placement);
    pool->tag = malloc(pool->nbuffers * sizeof *pool->tag);
    pool->dirty = calloc(pool->nbuffers, sizeof *pool->dirty);
    pool->state = calloc(pool->nbuffers, sizeof *pool->state);
    pool->applied = calloc(pool->nbuffers, sizeof *pool->applied);
    if (!pool->buffers || !pool->tag || !pool->dirty || !pool->state || !pool->applied) {
        sb_pool_destroy(pool);
        return sb_fail(err, SB_ERR_RUN, "cannot allocate the %zu-byte pool", (size_t)p->pool_size);
    }
    for (uint32_t b = 0; b < pool->nbuffers; b++)
        pool->tag[b] = -1;
    if (needs_buffer_manager(p)) {
        const uint32_t nbuffers = pool->nbuffers; /* the message's, after the pool is gone */
        pool->exec_shared = sb_exec_shared_create(nbuffers);
        if (!pool->exec_shared) {
            sb_pool_destroy(pool);
            return sb_fail(err, SB_ERR_RUN, "cannot allocate 8.1's buffer structures for %u "
                           "buffers", (unsigned)nbuffers);
        }
    }
    return SB_OK;
}

void sb_pool_destroy(struct sb_pool *pool)
{
    sb_mem_free_placed(pool->buffers, pool->bytes, &pool->placement);
    free(pool->tag);
    free(pool->dirty);
    free(pool->state);
    free(pool->applied);
    sb_exec_shared_destroy(pool->exec_shared);
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
            rows += pass(dst, page_size, NULL);
    }
    return rows;
}

/* --- the write-back ---------------------------------------------------------------------- */

bool sb_scanner_original_loop(const struct sb_scanner *s)
{
    return s->p->writeback == SB_WRITEBACK_NONE && s->ioc->layout.hint_bits_set &&
           !s->p->policy->release && s->p->nstatements <= 1;
}

uint32_t sb_scanner_checkpoint_pages(const struct sb_scanner *s)
{
    return s->p->checkpoint_pages ? s->p->checkpoint_pages : s->pool->nbuffers;
}

const struct sb_kernel *sb_scanner_writeback_kernel(const struct sb_scanner *s)
{
    if (s->p->writeback_kernel)
        return s->p->writeback_kernel;
    return s->ioc->file ? &sb_kernel_pwrite : s->p->kernel;
}

/* The validation scan's check of a write-back of buffer b (page block, state): the IO cache
 * page equals the buffer, and both have the checksum of that state. */
static void check_writeback(struct sb_scanner *s, uint32_t b, uint64_t block, unsigned state,
                            bool by_checkpoint)
{
    const uint32_t page_size = s->p->page_size;
    uint32_t in_pool = sb_page_checksum(s->pool->buffers + (size_t)b * page_size, page_size);
    uint32_t in_cache = sb_page_checksum(sb_iocache_page(s->ioc, block), page_size);
    uint32_t want = s->ioc->state_sums[state][block];

    if (s->writeback_status != SB_OK)
        return;
    if (in_pool == in_cache && in_cache == want && !s->io_errno) {
        s->check_writebacks->writebacks_checked++;
        return;
    }
    s->writeback_status = sb_fail(s->writeback_err, SB_ERR_RUN, "%s: validation failed: page "
                                  "%llu written back from buffer %u (%s, kernel %s) has checksum "
                                  "%08x in the IO cache, the buffer %08x, expected %08x (state "
                                  "%u)", s->p->name, (unsigned long long)block, b,
                                  by_checkpoint ? "checkpoint" : "eviction",
                                  sb_scanner_writeback_kernel(s)->name, in_cache, in_pool, want,
                                  state);
}

/* Writes dirty buffer b back to its page: the write-back kernel's copy into the IO cache, or
 * pwrite into the table file (whose mapping sees it); the page takes the buffer's state. */
static void write_back(struct sb_scanner *s, uint32_t b, bool by_checkpoint)
{
    struct sb_pool *pool = s->pool;
    const struct sb_iocache *ioc = s->ioc;
    const uint32_t page_size = s->p->page_size;
    const uint64_t block = (uint64_t)pool->tag[b];
    const uint8_t *src = pool->buffers + (size_t)b * page_size;
    unsigned state = sb_page_state_after(pool->state[b], pool->applied[b]);

    if (ioc->file) {
        ssize_t n = pwrite(ioc->file->fd, src, page_size, (off_t)(block * page_size));
        if (n != (ssize_t)page_size && !s->io_errno) {
            s->io_errno = n < 0 ? errno : EIO;
            s->io_block = block;
        }
    } else {
        sb_scanner_writeback_kernel(s)->copy(ioc->pages + block * page_size, src, page_size);
    }
    ioc->state[block] = (uint8_t)state;
    pool->dirty[b] = 0;
    if (by_checkpoint)
        s->written_checkpoint++;
    else
        s->written_evict++;
    if (s->check_writebacks)
        check_writeback(s, b, block, state, by_checkpoint);
}

/* A checkpoint: every dirty buffer written back, in buffer order (BufferSync). */
static void checkpoint(struct sb_scanner *s)
{
    for (uint32_t b = 0; b < s->pool->nbuffers; b++)
        if (s->pool->dirty[b] && s->pool->tag[b] >= 0)
            write_back(s, b, true);
}

/* Before buffer b is reused: a dirty one goes back (evict, or checkpoint when no checkpoint
 * reached it). */
static inline void before_reuse(struct sb_scanner *s, uint32_t b)
{
    if (s->p->writeback != SB_WRITEBACK_NONE && s->pool->dirty[b] && s->pool->tag[b] >= 0)
        write_back(s, b, false);
}

/* After the op on buffer b holding block (copied in state state_in): its dirt, the policy's
 * release (UnpinBuffer, with VACUUM's strategy hint for vacuum) and the checkpoint's count. */
static inline void after_op(struct sb_scanner *s, uint32_t b, uint64_t block, unsigned state_in,
                            bool dirtied)
{
    struct sb_pool *pool = s->pool;

    pool->tag[b] = (int64_t)block;
    pool->state[b] = (uint8_t)state_in;
    pool->applied[b] = s->op;
    pool->dirty[b] |= dirtied;
    if (s->p->policy->release)
        s->p->policy->release(s->ps, b, sb_op_state(s->op) == SB_PAGE_VACUUMED);
    if (s->p->writeback == SB_WRITEBACK_CHECKPOINT && --s->to_checkpoint == 0) {
        s->to_checkpoint = sb_scanner_checkpoint_pages(s);
        checkpoint(s);
    }
}

/* Every other case of an own pool: the other sources, the bigtables, the write-back, a table
 * whose hint bits are unset, a policy with a release hook. */
static uint64_t scan_own_pool(struct sb_scanner *s, enum sb_fetch kind, uint64_t first,
                              uint64_t end)
{
    uint32_t (*const victim)(struct sb_policy_state *) = s->p->policy->victim;
    const sb_op_fn pass = s->op->pass;
    const uint32_t page_size = s->p->page_size;
    struct sb_pool *pool = s->pool;
    uint64_t rows = 0;

    for (uint64_t block = first; block < end; block++) {
        uint32_t b = victim(s->ps);
        uint8_t *dst = pool->buffers + (size_t)b * page_size;
        unsigned state_in;
        bool dirtied = false;

        before_reuse(s, b);
        /* after the victim's write-back, which may have been this very page's (a pool larger
           than the table holds copies of one page in several buffers) */
        state_in = sb_iocache_state(s->ioc, block);
        fetch(s, kind, block, dst);
        if (s->victims)
            s->victims[block] = b;
        if (pass)
            rows += pass(dst, page_size, &dirtied);
        after_op(s, b, block, state_in, dirtied);
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
            rows += pass(dst, page_size, NULL);
        sb_shared_pool_release(sp, b, tag_base + (int64_t)block);
    }
    s->acquisitions += end - first;
    return rows;
}

/* --- extra_copy ------------------------------------------------------------------------- */

#define PPM 1000000u

/* Whether block b of a pass is followed by an extra fetch: floor((b + 1) f) > floor(b f). */
static bool gets_extra(uint32_t ppm, uint64_t b)
{
    return (b + 1) * ppm / PPM > b * ppm / PPM;
}

/* The first block from b on that is followed by an extra fetch (ppm > 0): the (k + 1)-th of
 * the pass, k = floor(b f) the ones before b. */
static uint64_t next_extra(uint32_t ppm, uint64_t b)
{
    uint64_t k = b * ppm / PPM;
    return ((k + 1) * PPM + ppm - 1) / ppm - 1;
}

/* The page half a table away from block: as far from the caches as the pass's own pages. */
static uint64_t extra_block(const struct sb_iocache *ioc, uint64_t block)
{
    return (block + ioc->npages / 2) % ioc->npages;
}

/* The extra fetch after block, into the spare buffer, as the pass fetches (a bigtable file's
 * drops are left to the pass's own reads). */
static void fetch_extra(struct sb_scanner *s, enum sb_fetch kind, uint64_t block)
{
    fetch(s, kind == SB_FETCH_PREAD_DROP ? SB_FETCH_PREAD : kind, extra_block(s->ioc, block),
          s->spare);
    s->extra_pages++;
}

int sb_scanner_spare_alloc(struct sb_scanner *s, struct sb_error *err)
{
    void *spare = NULL;

    if (posix_memalign(&spare, 4096, s->p->page_size) != 0)
        return sb_fail(err, SB_ERR_RUN, "%s: out of memory for the extra_copy buffer",
                       s->p->name);
    s->spare = spare;
    return SB_OK;
}

/* One pass's pages [first, end): the loop its source and pool call for. */
static uint64_t scan_pages(struct sb_scanner *s, uint64_t first, uint64_t end)
{
    enum sb_fetch kind = fetch_kind_of(s);

    s->pages += end - first;
    if (s->shared)
        return scan_shared_pool(s, kind, first, end);
    if (kind == SB_FETCH_COPY && sb_scanner_original_loop(s))
        return scan_memory(s->p, s->op, s->ioc, s->pool, s->ps, s->victims, first, end);
    return scan_own_pool(s, kind, first, end);
}

/* The pool's 8.1 buffer structures for this thread's passes (none: the executor's stand-in,
 * as for a shared pool), until unbound after the scan. */
static void bind_buffer_manager(const struct sb_scanner *s)
{
    sb_exec_shared_bind(s->pool ? s->pool->exec_shared : NULL);
}

uint64_t sb_scanner_scan(struct sb_scanner *s, uint64_t first, uint64_t end)
{
    const uint32_t ppm = s->p->extra_ppm;
    uint64_t rows = 0;

    bind_buffer_manager(s);
    if (!ppm || !s->spare) {
        rows = scan_pages(s, first, end);
    } else { /* the loop runs unchanged from one extra fetch to the next */
        for (uint64_t at = first; at < end;) {
            uint64_t next = next_extra(ppm, at), stop = next < end ? next + 1 : end;
            rows += scan_pages(s, at, stop);
            if (next < end)
                fetch_extra(s, fetch_kind_of(s), next);
            at = stop;
        }
    }
    sb_exec_shared_bind(NULL);
    return rows;
}

int sb_scanner_io_status(const struct sb_scanner *s, struct sb_error *err)
{
    if (!s->io_errno)
        return SB_OK;
    return sb_fail(err, SB_ERR_RUN, "%s: %s page %llu of the table file in %s: %s",
                   s->p->name, s->written_evict + s->written_checkpoint ? "reading or writing"
                                                                        : "reading",
                   (unsigned long long)s->io_block, s->ioc->file->dir, strerror(s->io_errno));
}

/* The validation scan's page `block` in buffer b (copied in state state_in): its checksum after
 * the copy and after the op. */
static int validate_page(struct sb_scanner *s, uint32_t b, uint64_t block, unsigned state_in,
                         bool *dirtied, uint64_t *rows, struct sb_validation *v,
                         struct sb_error *err)
{
    const struct sb_run_params *p = s->p;
    const struct sb_iocache *ioc = s->ioc;
    uint8_t *dst = (s->shared ? s->shared->buffers : s->pool->buffers) + (size_t)b * p->page_size;
    uint32_t sum, want;

    if (p->kernel->side != SB_KERNEL_COPY) { /* op none, no write-back: sb_plan_check_half_kernel */
        if (!sb_kernel_half_done(p->kernel, dst, sb_iocache_page(ioc, block), p->page_size))
            return sb_fail(err, SB_ERR_RUN, "%s: validation failed: buffer %u does not hold "
                           "what kernel %s leaves for page %llu", p->name, b, p->kernel->name,
                           (unsigned long long)block);
        v->pages_checked_after_copy++;
        return SB_OK;
    }
    sum = sb_page_checksum(dst, p->page_size);
    want = state_in ? ioc->state_sums[state_in][block] : ioc->sum_copy[block];
    if (sum != want)
        return sb_fail(err, SB_ERR_RUN, "%s: validation failed: page %llu copied by kernel %s "
                       "into buffer %u has checksum %08x, expected %08x", p->name,
                       (unsigned long long)block, p->kernel->name, b, sum, want);
    v->pages_checked_after_copy++;
    if (s->op->pass)
        *rows += s->op->pass(dst, p->page_size, dirtied);
    sum = sb_page_checksum(dst, p->page_size);
    want = sb_iocache_expected(ioc, s->op, state_in, block);
    if (sum != want)
        return sb_fail(err, SB_ERR_RUN, "%s: validation failed: page %llu after op %s has "
                       "checksum %08x, expected %08x", p->name, (unsigned long long)block,
                       s->op->name, sum, want);
    v->pages_checked_after_op++;
    return SB_OK;
}

/* The validation scan's extra fetch after block: the spare buffer then holds the page half a
 * table away as the IO cache has it. */
static int validate_extra(struct sb_scanner *s, enum sb_fetch kind, uint64_t block,
                          struct sb_validation *v, struct sb_error *err)
{
    const struct sb_iocache *ioc = s->ioc;
    const uint64_t other = extra_block(ioc, block);
    const unsigned state = sb_iocache_state(ioc, other);
    const uint32_t want = state ? ioc->state_sums[state][other] : ioc->sum_copy[other];
    uint32_t sum;
    int status;

    fetch_extra(s, kind, block);
    sum = sb_page_checksum(s->spare, s->p->page_size);
    status = sb_scanner_io_status(s, err);
    if (status != SB_OK)
        return status;
    if (sum != want)
        return sb_fail(err, SB_ERR_RUN, "%s: validation failed: extra_copy: page %llu copied "
                       "by kernel %s into the spare buffer has checksum %08x, expected %08x",
                       s->p->name, (unsigned long long)other, s->p->kernel->name, sum, want);
    v->extra_copies_checked++;
    return SB_OK;
}

int sb_scanner_validate(struct sb_scanner *s, uint64_t first, uint64_t end,
                        _Atomic uint32_t *seen, uint64_t *rows, struct sb_validation *v,
                        struct sb_error *err)
{
    const struct sb_run_params *p = s->p;
    const int64_t tag_base = (int64_t)s->table_id * (int64_t)s->ioc->npages;
    enum sb_fetch kind = fetch_kind_of(s);
    int status = SB_OK;

    s->check_writebacks = v;
    s->writeback_err = err;
    s->writeback_status = SB_OK;
    bind_buffer_manager(s);
    for (uint64_t block = first; block < end && status == SB_OK; block++) {
        uint32_t b = s->shared ? sb_shared_pool_acquire(s->shared, &s->visits)
                               : p->policy->victim(s->ps);
        unsigned state_in;
        bool dirtied = false;

        if (!s->shared)
            before_reuse(s, b);
        state_in = sb_iocache_state(s->ioc, block); /* after the write-back, as above */
        status = s->writeback_status;
        fetch(s, kind, block, (s->shared ? s->shared->buffers : s->pool->buffers) +
                                  (size_t)b * p->page_size);
        s->pages++;
        if (seen)
            atomic_fetch_add_explicit(&seen[block], 1, memory_order_relaxed);
        if (status == SB_OK)
            status = sb_scanner_io_status(s, err);
        if (status == SB_OK)
            status = validate_page(s, b, block, state_in, &dirtied, rows, v, err);
        if (status == SB_OK && s->spare && gets_extra(p->extra_ppm, block))
            status = validate_extra(s, kind, block, v, err);
        if (s->shared) {
            s->acquisitions++;
            sb_shared_pool_release(s->shared, b, tag_base + (int64_t)block);
        } else {
            after_op(s, b, block, state_in, dirtied);
        }
        if (status == SB_OK)
            status = s->writeback_status;
    }
    sb_exec_shared_bind(NULL);
    s->check_writebacks = NULL;
    return status;
}

int sb_pool_check(const struct sb_scanner *s, uint64_t *touched, uint64_t *checked,
                  struct sb_error *err)
{
    const struct sb_run_params *p = s->p;
    const struct sb_pool *pool = s->pool;
    const bool original = sb_scanner_original_loop(s);

    for (uint32_t b = 0; b < pool->nbuffers; b++) {
        uint32_t sum, want;
        if (pool->tag[b] < 0)
            continue;
        (*touched)++;
        if (p->kernel->side != SB_KERNEL_COPY) {
            if (!sb_kernel_half_done(p->kernel, pool->buffers + (size_t)b * p->page_size,
                                     sb_iocache_page(s->ioc, (uint64_t)pool->tag[b]),
                                     p->page_size))
                return sb_fail(err, SB_ERR_RUN, "%s: validation failed: buffer %u does not "
                               "hold what kernel %s leaves for page %lld", p->name, b,
                               p->kernel->name, (long long)pool->tag[b]);
            (*checked)++;
            continue;
        }
        /* the original loop keeps no per-buffer state: its pages were copied in state 0 */
        want = original || !pool->applied[b]
                   ? sb_iocache_sums_after(s->ioc, s->op)[pool->tag[b]]
                   : sb_iocache_expected(s->ioc, pool->applied[b], pool->state[b],
                                         (uint64_t)pool->tag[b]);
        sum = sb_page_checksum(pool->buffers + (size_t)b * p->page_size, p->page_size);
        if (sum != want)
            return sb_fail(err, SB_ERR_RUN, "%s: validation failed: buffer %u holds page %lld "
                           "with checksum %08x, expected %08x", p->name, b,
                           (long long)pool->tag[b], sum, want);
        (*checked)++;
    }
    return SB_OK;
}

int sb_iocache_check_states(const struct sb_scanner *s, uint64_t *checked, struct sb_error *err)
{
    const struct sb_iocache *ioc = s->ioc;

    for (uint64_t block = 0; ioc->state && block < ioc->npages; block++) {
        uint32_t sum = sb_page_checksum(sb_iocache_page(ioc, block), ioc->page_size);
        uint32_t want = ioc->state_sums[ioc->state[block]][block];
        if (sum != want)
            return sb_fail(err, SB_ERR_RUN, "%s: validation failed: page %llu of the table has "
                           "checksum %08x after the scans, expected %08x (state %u)", s->p->name,
                           (unsigned long long)block, sum, want, ioc->state[block]);
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
