/* policy.c: the buffer replacement policies (one victim function + one registry row each). */
#include "config.h"
#include "vocab/policy.h"

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

const struct sb_policy sb_policies[] = {
    {"clock", "PostgreSQL 8.2 clock sweep over the whole pool (scattered)", victim_clock, 0, NULL},
    {"ring", "a ring of ring_size bytes, PostgreSQL 8.3 BufferAccessStrategy (L2-confined)",
     victim_ring, 1, NULL},
    {"single", "one buffer for every page (Luke Lonergan's proposal)", victim_single, 0, NULL},
    {"random", "a uniformly random buffer of the pool", victim_random, 0, NULL},
    {NULL, NULL, NULL, 0, NULL},
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
    return s->usage ? 0 : -1;
}

void sb_policy_state_destroy(struct sb_policy_state *s)
{
    free(s->usage);
    s->usage = NULL;
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
