/* SPDX-License-Identifier: BSD-3-Clause */
/* mem_keep.c: big mappings freed by one run, kept for the next allocation of the same length
 * and placement (mem_keep.h). A fresh mapping costs its first touch of every page, and under a
 * hypervisor that shadows the guest's page tables that is about 6 us a 4KB page (mem.c,
 * touch_pages): 1.6 s for a 1GB pool on this project's VMs, paid again by every run and every
 * cache model that maps the same sizes. A kept mapping is zeroed when it is taken again, so
 * whoever takes it sees what a fresh one would hold. At most SB_MEM_KEEP_MAX bytes are kept,
 * and no more than an eighth of what the host can give (mem_limit.h's limits, read once). A longer
 * mapping costs more to make again, so to keep one, shorter ones go, the oldest first; one that
 * would need a longer one to go is unmapped. */
#include "config.h"
#include "core/mem_keep.h"

#include "core/mem_limit.h"

#include <pthread.h>
#include <string.h>
#include <sys/mman.h>

#define KEEP_SLOTS 16

struct kept {
    void *p;
    size_t len;
    uint64_t tag;
    uint64_t age; /* when it was kept: the oldest goes first */
};

static struct {
    pthread_mutex_t lock;
    struct kept slot[KEEP_SLOTS];
    size_t bytes;
    uint64_t limit; /* 0 until read */
    uint64_t clock;
} keep = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* The oldest kept mapping shorter than len, its slot, or -1 when there is none (lock held). */
static int oldest_below(size_t len)
{
    int best = -1;

    for (int k = 0; k < KEEP_SLOTS; k++)
        if (keep.slot[k].p && keep.slot[k].len < len &&
            (best < 0 || keep.slot[k].age < keep.slot[best].age))
            best = k;
    return best;
}

/* Unmaps the kept mapping in slot k (lock held). */
static void drop(int k)
{
    munmap(keep.slot[k].p, keep.slot[k].len);
    keep.bytes -= keep.slot[k].len;
    keep.slot[k].p = NULL;
}

void *sb_mem_keep_take(size_t len, uint64_t tag)
{
    void *p = NULL;

    pthread_mutex_lock(&keep.lock);
    for (int k = 0; k < KEEP_SLOTS && !p; k++)
        if (keep.slot[k].p && keep.slot[k].len == len && keep.slot[k].tag == tag) {
            p = keep.slot[k].p;
            keep.slot[k].p = NULL;
            keep.bytes -= len;
        }
    pthread_mutex_unlock(&keep.lock);
    if (p)
        memset(p, 0, len);
    return p;
}

/* What may be kept: SB_MEM_KEEP_MAX, or an eighth of the host's limit if less (lock held). */
static uint64_t keep_limit(void)
{
    struct sb_mem_limit host;

    if (!keep.limit) {
        sb_mem_limit_read(&host, "", "");
        keep.limit = host.bytes / 8 < SB_MEM_KEEP_MAX ? host.bytes / 8 : SB_MEM_KEEP_MAX;
        keep.limit = keep.limit ? keep.limit : 1;
    }
    return keep.limit;
}

void sb_mem_keep_put(void *p, size_t len, uint64_t tag)
{
    int slot = -1, below;

    pthread_mutex_lock(&keep.lock);
    for (int k = 0; k < KEEP_SLOTS && slot < 0; k++)
        if (!keep.slot[k].p)
            slot = k;
    while ((keep.bytes + len > keep_limit() || slot < 0) && (below = oldest_below(len)) >= 0) {
        drop(below);
        slot = below;
    }
    if (slot >= 0 && keep.bytes + len <= keep.limit) {
        keep.slot[slot] = (struct kept){p, len, tag, ++keep.clock};
        keep.bytes += len;
        p = NULL;
    }
    pthread_mutex_unlock(&keep.lock);
    if (p)
        munmap(p, len);
}

void sb_mem_keep_drop_all(void)
{
    pthread_mutex_lock(&keep.lock);
    for (int k = 0; k < KEEP_SLOTS; k++)
        if (keep.slot[k].p)
            drop(k);
    pthread_mutex_unlock(&keep.lock);
}
