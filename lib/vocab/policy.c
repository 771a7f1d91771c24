/* SPDX-License-Identifier: BSD-3-Clause */
/* policy.c: the buffer replacement policies (one victim function + one registry row each). */
#include "config.h"
#include "vocab/policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PostgreSQL 8.2 StrategyGetBuffer: take from the free list while it lasts, then sweep: a
 * buffer with usage_count 0 is the victim, any other has its count decremented. A page read
 * into a buffer gets usage_count 1 (one pin); no buffer is pinned when the next is chosen. */
static uint32_t victim_clock(struct sb_policy_state *s)
{
    if (s->next_free < s->nbuffers) {
        uint32_t b = s->next_free++;
        s->usage[b] = 1;
        s->visits++;
        return b;
    }
    for (;;) {
        uint32_t b = s->hand;
        s->hand = b + 1 == s->nbuffers ? 0 : b + 1;
        s->visits++;
        if (s->usage[b] == 0) {
            s->usage[b] = 1;
            return b;
        }
        s->usage[b]--;
    }
}

/* PostgreSQL 8.3 BufferAccessStrategy (BAS_BULKREAD): the scan reuses its own ring. The ring's
 * buffers are the first nring of the pool (in a fresh pool they come off the free list). */
static uint32_t victim_ring(struct sb_policy_state *s)
{
    uint32_t b = s->hand;
    s->hand = b + 1 == s->nring ? 0 : b + 1;
    return b;
}

static uint32_t victim_single(struct sb_policy_state *s)
{
    (void)s;
    return 0;
}

static uint32_t victim_random(struct sb_policy_state *s)
{
    uint64_t x = s->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    s->rng = x;
    return (uint32_t)((x >> 32) * s->nbuffers >> 32);
}

/* PostgreSQL 8.2, freelist.c StrategyGetBuffer, with bufmgr.c BufferAlloc around it. The free
 * list first: its head is taken off unconditionally and used if unpinned with usage_count 0
 * (else dropped, and the next tried). Then the clock sweep from nextVictimBuffer: an unpinned
 * buffer at usage_count 0 is the victim; any buffer with a count above 0 (pinned or not) has it
 * decremented and the sweep's patience (trycounter) renewed. BufferAlloc then gives the new
 * page usage_count 0 ("any recency of use of the old content is no longer relevant") and the
 * buffer its pin. Every buffer header looked at is a visit. */
static uint32_t victim_pg82(struct sb_policy_state *s)
{
    uint32_t b, patience = s->nbuffers;

    while (s->free_head >= 0) {
        b = (uint32_t)s->free_head;
        s->free_head = s->free_next[b];
        s->free_next[b] = SB_FREE_NOT_IN_LIST;
        s->visits++;
        if (s->pins[b] == 0 && s->usage[b] == 0)
            goto take;
    }
    for (;;) {
        b = s->hand;
        s->hand = b + 1 == s->nbuffers ? 0 : b + 1;
        s->visits++;
        if (s->pins[b] == 0 && s->usage[b] == 0)
            break;
        if (s->usage[b] > 0) {
            s->usage[b]--;
            patience = s->nbuffers;
        } else if (--patience == 0) {
            break; /* 8.2 errors out ("no unpinned buffers available"); not reached here: a
                      scanner pins one buffer at a time */
        }
    }
take:
    s->usage[b] = 0;
    s->pins[b]++;
    return b;
}

/* freelist.c StrategyFreeBuffer(buf, at_head = false): to the list's tail, unless already on
 * it. */
static void free_list_append(struct sb_policy_state *s, uint32_t b)
{
    if (s->free_next[b] != SB_FREE_NOT_IN_LIST)
        return;
    s->free_next[b] = SB_FREE_END;
    if (s->free_head < 0)
        s->free_head = (int32_t)b;
    else
        s->free_next[s->free_tail] = (int32_t)b;
    s->free_tail = (int32_t)b;
}

/* PostgreSQL 8.2, bufmgr.c UnpinBuffer (a normal access): the last pin dropped raises
 * usage_count by one up to BM_MAX_USAGE_COUNT, unless strategy_hint_vacuum is set (vacuum.c
 * sets it through StrategyHintVacuum for the whole VACUUM): then the count is left alone, and a
 * buffer left unpinned at usage_count 0 is sent to the free list's tail for near-term reuse. */
static void release_pg82(struct sb_policy_state *s, uint32_t b, bool vacuum)
{
    if (s->pins[b] == 0 || --s->pins[b] > 0)
        return;
    if (!vacuum) {
        if (s->usage[b] < SB_PG82_MAX_USAGE)
            s->usage[b]++;
    } else if (s->usage[b] == 0) {
        free_list_append(s, b);
    }
}

const struct sb_policy sb_policies[] = {
    {.name = "clock", .description = "PostgreSQL 8.2 clock sweep over the whole pool (scattered)",
     .victim = victim_clock, .uses_ring = 0, .release = NULL},
    {.name = "ring",
     .description = "a ring of ring_size bytes, PostgreSQL 8.3 BufferAccessStrategy "
                    "(L2-confined)",
     .victim = victim_ring, .uses_ring = 1, .release = NULL},
    {.name = "single", .description = "one buffer for every page (Luke Lonergan's proposal)",
     .victim = victim_single, .uses_ring = 0, .release = NULL},
    {.name = "random", .description = "a uniformly random buffer of the pool",
     .victim = victim_random, .uses_ring = 0, .release = NULL},
    {.name = "pg82",
     .description = "PostgreSQL 8.2's buffer manager: the free list, then the clock sweep; "
                    "VACUUM's strategy hint sends its buffers back to the free list",
     .victim = victim_pg82, .uses_ring = 0, .release = release_pg82},
    {.name = NULL},
};

const struct sb_policy *sb_policy_find(const char *name)
{
    for (const struct sb_policy *p = sb_policies; p->name; p++)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

int sb_policy_state_init(struct sb_policy_state *s, uint32_t nbuffers, uint32_t nring,
                         uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->nbuffers = nbuffers;
    s->nring = nring ? nring : 1;
    s->rng = seed ? seed : 0x2545F4914F6CDD1Dull;
    s->usage = calloc(nbuffers ? nbuffers : 1, 1);
    s->pins = calloc(nbuffers ? nbuffers : 1, 1);
    s->free_next = malloc((nbuffers ? nbuffers : 1) * sizeof *s->free_next);
    if (!s->usage || !s->pins || !s->free_next) {
        sb_policy_state_destroy(s);
        return -1;
    }
    /* buf_init.c InitBufferPool links every buffer into the free list in order; freelist.c
     * StrategyInitialize takes it whole (first 0, last NBuffers - 1) */
    for (uint32_t b = 0; b < nbuffers; b++)
        s->free_next[b] = b + 1 < nbuffers ? (int32_t)(b + 1) : SB_FREE_END;
    s->free_head = nbuffers ? 0 : SB_FREE_END;
    s->free_tail = nbuffers ? (int32_t)(nbuffers - 1) : SB_FREE_END;
    return 0;
}

void sb_policy_state_destroy(struct sb_policy_state *s)
{
    free(s->usage);
    free(s->pins);
    free(s->free_next);
    s->usage = NULL;
    s->pins = NULL;
    s->free_next = NULL;
}

uint64_t sb_policy_footprint(const struct sb_policy *policy, uint64_t pool_size,
                             uint64_t ring_size, uint32_t page_size)
{
    if (policy->uses_ring)
        return ring_size;
    if (policy->victim == victim_single)
        return page_size;
    return pool_size;
}

/* Whether seq repeats with period k after its first k pages. */
static bool has_period(const uint32_t *seq, uint64_t n, uint64_t k)
{
    for (uint64_t i = k; i < n; i++)
        if (seq[i] != seq[i - k])
            return false;
    return true;
}

void sb_policy_sequence_shape(const uint32_t *seq, uint64_t n, uint32_t nbuffers,
                              uint32_t *distinct, char *buf, size_t len)
{
    uint8_t *seen = calloc(nbuffers ? nbuffers : 1, 1);
    uint32_t count = 0;

    for (uint64_t i = 0; seen && i < n; i++)
        if (seq[i] < nbuffers && !seen[seq[i]]) {
            seen[seq[i]] = 1;
            count++;
        }
    free(seen);
    *distinct = count;
    if (n == 0)
        snprintf(buf, len, "no pages");
    else if (count == 1)
        snprintf(buf, len, "one buffer (%u)", seq[0]);
    else if (count == 2 && n > 2 && seq[0] != seq[1] && has_period(seq, n, 2))
        snprintf(buf, len, "alternates between buffers %u and %u", seq[0], seq[1]);
    else if (count < n && has_period(seq, n, count))
        snprintf(buf, len, "cycles %u buffers", count);
    else if (count == n)
        snprintf(buf, len, "%u buffers, each once", count);
    else
        snprintf(buf, len, "%u buffers, no simple cycle", count);
}
