/* SPDX-License-Identifier: BSD-3-Clause */
/* shared_pool.h: one pool shared by concurrent scanners (shared_pool = yes), swept by one clock
 * as PostgreSQL's buffer manager does it with atomics (StrategyGetBuffer, PinBuffer and
 * UnpinBuffer since 9.5): each buffer has a header whose state word holds its pin count and its
 * usage count, changed only by compare-and-swap; the hand (nextVictimBuffer) is one atomic
 * counter; a fresh pool hands out its buffers from the free list first. A scanner pins the
 * buffer it is given (pin count 1, usage count 1), reads its page into it, runs the op and
 * unpins it. The sweep skips pinned buffers, decrements the usage count of an unpinned one, and
 * takes the first unpinned one it finds at zero. Every buffer remembers the page it holds (its
 * tag), so the pool can be checked afterwards. */
#ifndef SB_SHARED_POOL_H
#define SB_SHARED_POOL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "host/host.h"

#define SB_SHARED_PIN_ONE 1u         /* the pin count is the state's low 16 bits */
#define SB_SHARED_PIN_MASK 0xffffu
#define SB_SHARED_USAGE_ONE (1u << 16) /* the usage count the bits above */

struct sb_shared_pool {
    uint8_t *buffers;
    size_t bytes;
    uint32_t nbuffers;
    _Atomic uint32_t *state;      /* per buffer: pins | usage << 16 */
    _Atomic int64_t *tag;         /* per buffer: the page it holds (table * npages + block), -1 */
    _Atomic uint64_t hand;        /* the clock hand, modulo nbuffers */
    _Atomic uint32_t next_free;   /* the free list: buffers [next_free, nbuffers) never used */
    struct sb_placement_found placement;
};

/* A pool of nbuffers of page_size, placed as asked (relative to home_node). */
int sb_shared_pool_create(struct sb_shared_pool *sp, uint32_t nbuffers, uint32_t page_size,
                          const struct sb_placement *node, int home_node, struct sb_error *err);
void sb_shared_pool_destroy(struct sb_shared_pool *sp);

/* A buffer for the next page, pinned by the caller; *visits counts the headers examined. */
uint32_t sb_shared_pool_acquire(struct sb_shared_pool *sp, uint64_t *visits);

/* Records the page a pinned buffer now holds, and unpins it. */
void sb_shared_pool_release(struct sb_shared_pool *sp, uint32_t buffer, int64_t tag);

/* Buffers pinned now (0 when no scanner is in the pool). */
uint32_t sb_shared_pool_pinned(struct sb_shared_pool *sp);

#endif
