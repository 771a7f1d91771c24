/* SPDX-License-Identifier: BSD-3-Clause */
/* scaling.h: the thread's pool sizes scaled to this host (issue 19, `reproduce`'s fourth
 * column): a pool keeps its ratio to the thread machine's L2 (Luke's 680KB on a 1MB L2 is 0.66 x
 * this host's L2), and the thread's scattered (slow) pool is put beyond this host's last-level
 * cache: at least twice it, a power of two, within a cap (what may be allocated). Pure
 * arithmetic on sizes: tested on made-up topologies. */
#ifndef SB_SCALING_H
#define SB_SCALING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest scattered pool the reproduction allocates (also at most a quarter of what the
 * host's memory limit allows). */
#define SB_SCALE_SCATTER_CAP (1ull << 30)

struct sb_scaled_pool {
    uint64_t bytes;   /* the pool here: a whole number of pages, at least one */
    double ratio;     /* the thread's pool / the thread machine's L2 */
    bool scattered;   /* the thread's slow (scattered) placement */
    bool beyond_llc;  /* scattered: the pool here is larger than this host's last level */
    char how[320];    /* in words: how the size was scaled, and what it could not be */
};

/* Scales a pool of thread_bytes on a machine whose L2 is thread_l2 to this host (L2 host_l2,
 * last-level cache host_llc: its L3, or its L2 without one), in pages of page bytes; cap: the
 * most a scattered pool may take. llc_name: "L3" or "L2", for the words. */
void sb_scale_pool(uint64_t thread_bytes, uint64_t thread_l2, bool scattered, uint64_t host_l2,
                   uint64_t host_llc, const char *llc_name, uint64_t cap, uint32_t page,
                   struct sb_scaled_pool *out);

#endif
