/* SPDX-License-Identifier: BSD-3-Clause */
/* sim_reuse.c: replays kept under a hash of their inputs, for a later run with the same inputs
 * (see sim_reuse.h). */
#include "config.h"
#include "counters/sim_reuse.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "vocab/vocab.h"

struct kept {
    uint64_t h[2];
    unsigned nscans;
    struct sb_cachesim_counts n[SB_SIM_REUSE_SCANS];
    struct sb_cachesim_counts phases[SB_SIM_REUSE_SCANS * SB_NPHASES];
};

static struct {
    pthread_mutex_t lock;
    struct kept *slot[SB_SIM_REUSE_KEPT];
    unsigned next; /* the slot the next kept replay takes (the oldest, once all are taken) */
} kept = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Two 64-bit lanes, each a multiply and a shift per word (two odd constants of splitmix64 and
 * of murmur3's finaliser): a different lane a different function of the same words. */
static inline void mix(uint64_t h[2], uint64_t w)
{
    h[0] = (h[0] ^ w) * 0x9e3779b97f4a7c15ull;
    h[0] ^= h[0] >> 29;
    h[1] = (h[1] + w) * 0xff51afd7ed558ccdull;
    h[1] ^= h[1] >> 32;
}

static void mix_bytes(uint64_t h[2], const void *p, size_t len)
{
    const unsigned char *b = p;
    size_t i = 0;

    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        mix(h, w);
    }
    for (; i < len; i++)
        mix(h, b[i]);
    mix(h, len);
}

static void mix_text(uint64_t h[2], const char *s)
{
    mix_bytes(h, s ? s : "", s ? strlen(s) : 0);
}

void sb_sim_key_start(struct sb_sim_key *k, const struct sb_cachesim_config *cfg)
{
    memset(k, 0, sizeof *k);
    k->h[0] = 0x6a09e667f3bcc908ull;
    k->h[1] = 0xbb67ae8584caa73bull;
    mix(k->h, cfg->nlevels);
    for (unsigned l = 0; l < cfg->nlevels; l++) {
        const struct sb_cachesim_level_config *L = &cfg->level[l];
        mix(k->h, L->size);
        mix(k->h, L->line_size);
        mix(k->h, L->associativity);
        mix(k->h, (uint64_t)L->replacement);
        mix(k->h, (uint64_t)L->inclusion);
    }
    mix(k->h, cfg->wc_buffers);
    mix(k->h, cfg->prefetch);
}

void sb_sim_key_add(struct sb_sim_key *k, const struct sb_scan_trace *t)
{
    const uint64_t bytes = t->npages * t->page_size;

    if (k->table != t->pages || k->table_bytes != bytes) { /* the op's walk reads the bytes */
        k->table = t->pages;
        k->table_bytes = bytes;
        k->table_hash[0] = 0x3c6ef372fe94f82bull;
        k->table_hash[1] = 0xa54ff53a5f1d36f1ull;
        mix_bytes(k->table_hash, t->pages, bytes);
    }
    mix(k->h, k->table_hash[0]);
    mix(k->h, k->table_hash[1]);
    mix(k->h, t->npages);
    mix(k->h, t->page_size);
    mix_text(k->h, t->op ? t->op->name : NULL);
    mix(k->h, t->temporal);
    mix(k->h, t->bigtable);
    mix_bytes(k->h, t->victims, t->npages * sizeof *t->victims);
    mix(k->h, (uint64_t)t->writeback);
    mix(k->h, t->checkpoint_pages);
    mix_text(k->h, t->writeback_kernel ? t->writeback_kernel->name : NULL);
    mix(k->h, t->nbuffers);
    mix(k->h, (uint64_t)t->side);
}

bool sb_sim_reuse_find(const struct sb_sim_key *k, unsigned nscans, struct sb_cachesim_counts *n,
                       struct sb_cachesim_counts *phases)
{
    bool found = false;

    pthread_mutex_lock(&kept.lock);
    for (unsigned i = 0; i < SB_SIM_REUSE_KEPT && !found; i++) {
        const struct kept *e = kept.slot[i];
        if (!e || e->h[0] != k->h[0] || e->h[1] != k->h[1] || e->nscans != nscans)
            continue;
        memcpy(n, e->n, nscans * sizeof *n);
        memcpy(phases, e->phases, nscans * SB_NPHASES * sizeof *phases);
        found = true;
    }
    pthread_mutex_unlock(&kept.lock);
    return found;
}

void sb_sim_reuse_keep(const struct sb_sim_key *k, unsigned nscans,
                       const struct sb_cachesim_counts *n, const struct sb_cachesim_counts *phases)
{
    struct kept *e;

    if (nscans > SB_SIM_REUSE_SCANS)
        return;
    pthread_mutex_lock(&kept.lock);
    e = kept.slot[kept.next];
    if (!e)
        e = kept.slot[kept.next] = malloc(sizeof *e);
    if (e) {
        e->h[0] = k->h[0];
        e->h[1] = k->h[1];
        e->nscans = nscans;
        memcpy(e->n, n, nscans * sizeof *n);
        memcpy(e->phases, phases, nscans * SB_NPHASES * sizeof *phases);
        kept.next = (kept.next + 1) % SB_SIM_REUSE_KEPT;
    }
    pthread_mutex_unlock(&kept.lock);
}

void sb_sim_reuse_forget(void)
{
    pthread_mutex_lock(&kept.lock);
    for (unsigned i = 0; i < SB_SIM_REUSE_KEPT; i++) {
        free(kept.slot[i]);
        kept.slot[i] = NULL;
    }
    kept.next = 0;
    pthread_mutex_unlock(&kept.lock);
}
