/* SPDX-License-Identifier: BSD-3-Clause */
/* shared_pool.c: the clock-swept pool shared by concurrent scanners (see shared_pool.h). */
#include "config.h"
#include "engine/shared_pool.h"

#include <stdlib.h>
#include <string.h>

#include "core/core.h"

int sb_shared_pool_create(struct sb_shared_pool *sp, uint32_t nbuffers, uint32_t page_size,
                          const struct sb_placement *node, int home_node, struct sb_error *err)
{
    memset(sp, 0, sizeof *sp);
    sp->nbuffers = nbuffers;
    sp->bytes = (size_t)nbuffers * page_size;
    sp->buffers = sb_mem_alloc_placed(sp->bytes, node, home_node, &sp->placement);
    sp->state = calloc(nbuffers, sizeof *sp->state);
    sp->tag = calloc(nbuffers, sizeof *sp->tag);
    if (!sp->buffers || !sp->state || !sp->tag) {
        sb_shared_pool_destroy(sp);
        return sb_fail(err, SB_ERR_RUN, "cannot allocate the %u-buffer shared pool", nbuffers);
    }
    for (uint32_t b = 0; b < nbuffers; b++) {
        atomic_init(&sp->state[b], 0);
        atomic_init(&sp->tag[b], -1);
    }
    atomic_init(&sp->hand, 0);
    atomic_init(&sp->next_free, 0);
    return SB_OK;
}

void sb_shared_pool_destroy(struct sb_shared_pool *sp)
{
    sb_mem_free_placed(sp->buffers, sp->bytes, &sp->placement);
    free(sp->state);
    free(sp->tag);
    memset(sp, 0, sizeof *sp);
}

uint32_t sb_shared_pool_acquire(struct sb_shared_pool *sp, uint64_t *visits)
{
    /* the free list first: a buffer nobody has used yet is nobody's */
    if (atomic_load_explicit(&sp->next_free, memory_order_relaxed) < sp->nbuffers) {
        uint32_t b = atomic_fetch_add_explicit(&sp->next_free, 1, memory_order_relaxed);
        if (b < sp->nbuffers) {
            uint32_t expected = 0;
            (*visits)++;
            if (atomic_compare_exchange_strong_explicit(&sp->state[b], &expected,
                                                        SB_SHARED_PIN_ONE | SB_SHARED_USAGE_ONE,
                                                        memory_order_acquire,
                                                        memory_order_relaxed))
                return b;
        }
    }
    for (;;) {
        uint32_t b = (uint32_t)(atomic_fetch_add_explicit(&sp->hand, 1, memory_order_relaxed) %
                                sp->nbuffers);
        uint32_t state = atomic_load_explicit(&sp->state[b], memory_order_relaxed);

        (*visits)++;
        while ((state & SB_SHARED_PIN_MASK) == 0) {
            uint32_t next = state >= SB_SHARED_USAGE_ONE
                                ? state - SB_SHARED_USAGE_ONE           /* one lap less */
                                : SB_SHARED_PIN_ONE | SB_SHARED_USAGE_ONE; /* the victim */
            if (atomic_compare_exchange_weak_explicit(&sp->state[b], &state, next,
                                                      memory_order_acquire,
                                                      memory_order_relaxed)) {
                if (state < SB_SHARED_USAGE_ONE)
                    return b;
                break;
            }
        }
    }
}

void sb_shared_pool_release(struct sb_shared_pool *sp, uint32_t buffer, int64_t tag)
{
    atomic_store_explicit(&sp->tag[buffer], tag, memory_order_relaxed);
    atomic_fetch_sub_explicit(&sp->state[buffer], SB_SHARED_PIN_ONE, memory_order_release);
}

uint32_t sb_shared_pool_pinned(struct sb_shared_pool *sp)
{
    uint32_t pinned = 0;

    for (uint32_t b = 0; b < sp->nbuffers; b++)
        pinned += (atomic_load(&sp->state[b]) & SB_SHARED_PIN_MASK) != 0;
    return pinned;
}
