/* SPDX-License-Identifier: BSD-3-Clause */
/* scanner.h: one scanner's passes over pages [first, end) of its table, run by engine.c (one
 * scanner, the calling thread, or a team of them: team.h). For each page the policy picks a buffer
 * (of the scanner's own pool, or of the shared pool: shared_pool.h), the source brings the page
 * into it (a CPU kernel's copy from memory; the DMA-like fill of the frame, then that copy;
 * pread from the file) and the op runs over it. The loop is chosen once per call, never per
 * page: the memory source with its own pool runs the original loop unchanged (the baseline the
 * speed goal is measured with); the other sources and the shared pool have loops of their own.
 * Also: the validating pass (every page's checksum after the copy and after the op, and a count
 * of how often each page was read), and the check of a pool's pages after the timed scans.
 *
 * The write-back (issue 18): a buffer the op stored into is dirty until it goes back to its
 * page in the IO cache, with the write-back kernel (pwrite for source file): before it is reused
 * (writeback evict, or checkpoint when no checkpoint reached it yet: PostgreSQL's BufferAlloc ->
 * FlushBuffer -> smgrwrite) and every checkpoint_pages pages, every dirty buffer in buffer order
 * (checkpoint: BufferSync). The IO cache then keeps each page's state (iocache.h), and a buffer
 * the state of the page it holds as it was copied in. With writeback none, a table built with
 * its hint bits and a policy without a release hook, the memory source's original loop runs.
 *
 * extra_copy (the run's extra_ppm, the power check's injected work): block b of a pass is
 * followed by one extra fetch when floor((b + 1) f) > floor(b f), f the fraction, so a pass
 * over n pages makes floor(n f) of them, evenly spread: the page half a table away is fetched
 * again, the way the pass fetches its pages (the kernel's copy, the bigtable's fill, pread),
 * into the scanner's spare buffer, outside the pool. The loops above run unchanged between two
 * extra fetches. The validating pass checks each extra copy's checksum. */
#ifndef SB_SCANNER_H
#define SB_SCANNER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/iocache.h"
#include "engine/scan.h"
#include "engine/shared_pool.h"
#include "plan/plan.h"
#include "vocab/vocab.h"

/* A scanner's own pool: its buffers and the page each holds. */
struct sb_pool {
    uint8_t *buffers;
    size_t bytes;
    uint32_t nbuffers;
    int64_t *tag; /* the block each buffer holds, -1 for none */
    uint8_t *dirty;               /* per buffer: the op stored into it since it was copied in
                                     or last written back */
    uint8_t *state;               /* per buffer: the state of its page as copied in (heap.h) */
    const struct sb_op **applied; /* per buffer: the op run over it (the loops other than the
                                     memory source's original one) */
    struct sb_exec_shared *exec_shared; /* 8.1's buffer structures at the pool's size, for
                                           executor pg81 (vocab/executor.h); else NULL */
    struct sb_placement_found placement;
};

int sb_pool_create(struct sb_pool *pool, const struct sb_run_params *p, int home_node,
                   struct sb_error *err);
void sb_pool_destroy(struct sb_pool *pool);

struct sb_scanner {
    const struct sb_run_params *p;
    const struct sb_op *op;         /* the op its loops run (p->op; a statement's) */
    const struct sb_iocache *ioc;   /* its table */
    uint32_t table_id;              /* shared pool tags: table_id * npages + block */
    struct sb_pool *pool;           /* its own pool and policy state, or */
    struct sb_policy_state *ps;
    struct sb_shared_pool *shared;  /* the shared pool */
    uint32_t *victims;              /* NULL, or the buffer of every block (tracing backends) */
    uint64_t pages;                 /* pages read so far */
    uint8_t *spare;                 /* extra_copy: where the extra fetches go (NULL: none) */
    uint64_t extra_pages;           /* extra_copy: extra fetches so far */
    uint64_t acquisitions;          /* shared pool: buffers pinned so far */
    uint64_t visits;                /* shared pool: buffer headers examined so far */
    uint64_t drops;                 /* bigtable file: DONTNEED calls so far */
    int io_errno;                   /* a pread or pwrite failed (0: none), at io_block */
    uint64_t io_block;
    uint64_t written_evict;         /* pages written back before their buffer's reuse */
    uint64_t written_checkpoint;    /* pages written back by a checkpoint */
    uint32_t to_checkpoint;         /* checkpoint: pages left to read before the next one */
    /* The validation scan: each write-back checked (the IO cache page equals the buffer and
     * the checksum of its state); the first failure kept here. */
    struct sb_validation *check_writebacks;
    int writeback_status;
    struct sb_error *writeback_err;
};

/* Whether s's scans run the memory source's original loop (no write-back, no hint bits to
 * set, no release hook). */
bool sb_scanner_original_loop(const struct sb_scanner *s);

/* Pages read between checkpoints (the run's, else the pool's buffers). */
uint32_t sb_scanner_checkpoint_pages(const struct sb_scanner *s);

/* The write-back kernel s uses (the run's, else the copy-in kernel's, pwrite for a file). */
const struct sb_kernel *sb_scanner_writeback_kernel(const struct sb_scanner *s);

/* One pass over [first, end); returns the live rows the op counted. */
uint64_t sb_scanner_scan(struct sb_scanner *s, uint64_t first, uint64_t end);

/* The validating pass over [first, end): every page's checksum after the copy and after the op
 * (SB_ERR_RUN naming the page, buffer and sums on a mismatch); seen[block] counts the reads;
 * adds the live rows to *rows and the pages checked to v. */
int sb_scanner_validate(struct sb_scanner *s, uint64_t first, uint64_t end,
                        _Atomic uint32_t *seen, uint64_t *rows, struct sb_validation *v,
                        struct sb_error *err);

/* extra_copy: the spare buffer of s (one page) when its run copies extra pages. */
int sb_scanner_spare_alloc(struct sb_scanner *s, struct sb_error *err);

/* SB_ERR_RUN when a pread failed. */
int sb_scanner_io_status(const struct sb_scanner *s, struct sb_error *err);

/* Every buffer of s's own pool that holds a page must hold it as the op left it. Adds the
 * buffers holding a page to *touched and the pages checked to *checked. */
int sb_pool_check(const struct sb_scanner *s, uint64_t *touched, uint64_t *checked,
                  struct sb_error *err);

/* After a run that wrote back: every page of s's table must have the checksum of its state.
 * Adds the pages checked to *checked. */
int sb_iocache_check_states(const struct sb_scanner *s, uint64_t *checked, struct sb_error *err);

/* The same for the shared pool, whose tags name the table (tables[tag / npages]). */
int sb_shared_pool_check(const struct sb_run_params *p, const struct sb_iocache *tables,
                         struct sb_shared_pool *sp, uint64_t *touched, uint64_t *checked,
                         struct sb_error *err);

#endif
