/* SPDX-License-Identifier: BSD-3-Clause */
/* placement.h: NUMA placement of the IO cache and the pool (keys iocache_node and pool_node):
 * `local` (the node of the CPU the scanner runs on), `remote` (the nearest other node),
 * `interleave` (page by page over every node), or a node number. With libnuma the memory is
 * bound (mbind, MPOL_BIND or MPOL_INTERLEAVE) before its first touch, or, for memory the kernel
 * allocates for us (a file's page cache), the allocating thread's own policy is set around the
 * reads and writes (set_mempolicy); afterwards a sample of pages is looked up (move_pages with no
 * target nodes) and the nodes found are reported. Without libnuma only `local` is accepted, and
 * the placement is first touch, not verified. On a host with one node, `local` binds nothing
 * (first touch is already local): the baseline allocation is untouched. */
#ifndef SB_PLACEMENT_H
#define SB_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sb_placement_kind {
    SB_PLACE_LOCAL = 0, /* zero: the default of a zeroed run */
    SB_PLACE_REMOTE,
    SB_PLACE_INTERLEAVE,
    SB_PLACE_NODE,
};

struct sb_placement {
    enum sb_placement_kind kind;
    int node; /* SB_PLACE_NODE */
};

#define SB_PLACEMENT_SAMPLE 64     /* pages looked up by the verification */
#define SB_PLACEMENT_MAX_NODES 64  /* nodes counted in a verification */

/* What was asked, what was done, and what the verification found. */
struct sb_placement_found {
    char asked[32];        /* "local", "remote", "interleave", "node 1" */
    char policy[128];      /* what was done, e.g. "mbind MPOL_BIND node 1" */
    int home_node;         /* node of the scanner's CPU (-1: unknown) */
    bool verified;         /* the sample was looked up */
    bool ok;               /* every page found lies where asked (true when not verified) */
    unsigned sampled;      /* pages looked up */
    unsigned on_node[SB_PLACEMENT_MAX_NODES];
    unsigned unknown;      /* pages move_pages could not place (not resident...) */
    char note[192];        /* why not verified, or what went wrong */
    uint64_t keep_tag;     /* sb_mem_alloc_placed's: mem.h's tag of the placement asked */
    /* sb_mem_alloc_fresh's (layout.h): the whole mapping to unmap, never kept (map_len 0:
       sb_mem_alloc_placed's), and the pages it asked for ("4KB", "THP (madvise)", "hugetlb") */
    void *map_base;
    size_t map_len;
    char pages[48];
};

/* Parses local | remote | interleave | NODE (syntax only). */
bool sb_placement_parse(const char *text, struct sb_placement *placement);

/* Checks a placement against this host: false with the reason (bad input: a node that does not
 * exist, remote on a one-node host, anything but local without libnuma). */
bool sb_placement_check(const struct sb_placement *placement, char *why, size_t len);

/* The NUMA node of a CPU (os index), or of the CPU running the caller; -1 when unknown. */
int sb_numa_node_of_cpu(int cpu);
int sb_numa_node_here(void);

/* NUMA nodes this process may allocate on (1 without libnuma). */
int sb_numa_nodes(void);

/* Binds [addr, addr + len), not yet touched, as asked; home_node is the scanner's node. */
void sb_placement_bind(void *addr, size_t len, const struct sb_placement *placement,
                       int home_node, struct sb_placement_found *found);

/* Sets the calling thread's memory policy as asked (for the page cache it makes the kernel
 * allocate), and back to the default. */
void sb_placement_thread_begin(const struct sb_placement *placement, int home_node,
                               struct sb_placement_found *found);
void sb_placement_thread_end(void);

/* A page-aligned anonymous mapping of len bytes, zeroed (mem.h's sb_mem_alloc; freed by
 * sb_mem_free_placed), bound as placement asks before the first touch (home_node: the node of
 * the scanner that will use it), populated, then verified on a sample of its pages into found.
 * A mapping of the same length and placement freed before is taken again (mem.h's
 * sb_mem_keep_take). NULL on failure. */
void *sb_mem_alloc_placed(size_t len, const struct sb_placement *placement, int home_node,
                          struct sb_placement_found *found);
/* Frees a mapping of sb_mem_alloc_placed, found its found (kept for a mapping of the same
 * length and placement). */
void sb_mem_free_placed(void *ptr, size_t len, const struct sb_placement_found *found);

/* Looks up the nodes of a sample of [addr, addr + len); touch reads each sampled page first (a
 * file mapping whose pages are resident but not yet mapped). Sets verified, ok, on_node. */
void sb_placement_verify(const void *addr, size_t len, bool touch,
                         struct sb_placement_found *found);

#endif
