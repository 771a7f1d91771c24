/* SPDX-License-Identifier: BSD-3-Clause */
/* policy.h: where the next page lands in the pool. A registry of replacement policies:
 * `clock` (PostgreSQL 8.2's clock sweep with usage counts over the whole pool: "scattered"),
 * `ring` (a ring of ring_size bytes: PostgreSQL 8.3's BufferAccessStrategy, "L2-confined"),
 * `single` (one buffer: Luke Lonergan's proposal), `random` (uniform over the pool), `pg82`
 * (PostgreSQL 8.2's whole buffer manager as it chose buffers: the free list, then the clock
 * sweep, with UnpinBuffer's usage bump and VACUUM's strategy hint: uses `release`). */
#ifndef SB_POLICY_H
#define SB_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sb_policy_state {
    uint32_t nbuffers;  /* buffers in the pool */
    uint32_t nring;     /* buffers in the ring (ring policy) */
    uint32_t next_free; /* clock: next buffer on the free list (all buffers start there) */
    uint32_t hand;      /* clock: nextVictimBuffer; ring: next slot */
    uint8_t *usage;     /* clock: usage_count per buffer (owned by the state) */
    uint64_t rng;       /* random: xorshift64 state */
    uint64_t visits;    /* buffer headers examined (clock sweep work), for the report */
    /* pg82: the free list (freelist.c's firstFreeBuffer, lastFreeBuffer and each buffer's
     * freeNext: SB_FREE_END ends the list, SB_FREE_NOT_IN_LIST marks a buffer off it) and each
     * buffer's pins (owned by the state) */
    int32_t *free_next;
    int32_t free_head, free_tail;
    uint8_t *pins;
};

#define SB_FREE_END (-1)
#define SB_FREE_NOT_IN_LIST (-2)
/* bufmgr.c (buf_internals.h): the most a buffer's usage_count is raised to */
#define SB_PG82_MAX_USAGE 5

struct sb_policy {
    const char *name;
    const char *description;
    /* Returns the buffer (0..nbuffers-1) the next page is read into. */
    uint32_t (*victim)(struct sb_policy_state *state);
    int uses_ring; /* 1 when ring_size decides the footprint */
    /* NULL, or called when the op is done with the buffer (PostgreSQL's UnpinBuffer): vacuum
     * is set when the statement runs with VACUUM's strategy hint (8.2 strategy_hint_vacuum). */
    void (*release)(struct sb_policy_state *state, uint32_t buffer, bool vacuum);
};

extern const struct sb_policy sb_policies[]; /* terminated by an entry whose name is NULL */

const struct sb_policy *sb_policy_find(const char *name);

/* Sets up the state for a pool of nbuffers and a ring of nring buffers; 0, or -1 when out of
 * memory. seed drives `random` (a seed of 0 is replaced by a fixed non-zero one). */
int sb_policy_state_init(struct sb_policy_state *state, uint32_t nbuffers, uint32_t nring,
                         uint64_t seed);
void sb_policy_state_destroy(struct sb_policy_state *state);

/* The bytes a policy writes into: the whole pool, the ring, or one buffer. */
uint64_t sb_policy_footprint(const struct sb_policy *policy, uint64_t pool_size,
                             uint64_t ring_size, uint32_t page_size);

/* The shape of a buffer sequence (the buffers n pages went to), in words: "one buffer (4)",
 * "alternates between buffers 4 and 5", "cycles 8 buffers", or "12 buffers, no simple cycle".
 * Writes the distinct buffers into *distinct (n_buffers: the pool's size). */
void sb_policy_sequence_shape(const uint32_t *seq, uint64_t n, uint32_t nbuffers,
                              uint32_t *distinct, char *buf, size_t len);

#endif
