/* SPDX-License-Identifier: BSD-3-Clause */
/* layout.h: fresh mappings for a pool's layout (plan's key layout): memory the kernel places
 * now, never a mapping kept from before (mem_keep.h), on base pages or on 2MB pages. */
#ifndef SB_LAYOUT_ALLOC_H
#define SB_LAYOUT_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

#include "host/placement.h"

#define SB_HUGE_PAGE_BYTES (2ull << 20)

/* A fresh, zeroed mapping of len bytes, bound as placement asks, populated and verified as
 * sb_mem_alloc_placed does (unless not populate: the caller's first stores back the pages it
 * needs, then it verifies: sb_placement_verify); huge: on 2MB pages, MAP_HUGETLB where the free reserved huge pages
 * (/proc/meminfo HugePages_Free) hold it, else transparent huge pages asked with MADV_HUGEPAGE
 * on a 2MB-aligned range (PostgreSQL's huge_pages = on takes the reserved ones). found->pages
 * says which; sb_mem_free_placed unmaps it. NULL on failure. */
void *sb_mem_alloc_fresh(size_t len, const struct sb_placement *placement, int home_node,
                         bool huge, bool populate, struct sb_placement_found *found);

/* Whether transparent huge pages can be asked for here (/sys/kernel/mm/transparent_hugepage/
 * enabled is always or madvise), else why not, for the report. */
bool sb_thp_available(char *why, size_t len);

#endif
