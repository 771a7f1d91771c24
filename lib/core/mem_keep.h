/* SPDX-License-Identifier: BSD-3-Clause */
/* mem_keep.h: big mappings freed by one run, kept for the next allocation of the same length
 * and placement (mem_keep.c). */
#ifndef SB_MEM_KEEP_H
#define SB_MEM_KEEP_H

#include <stddef.h>
#include <stdint.h>

/* Freed mappings kept for the next allocation of the same length and tag (mem_keep.c): the tag
 * tells placements apart (0: none; placement.h's sb_mem_alloc_placed gives its own). At most
 * SB_MEM_KEEP_MAX bytes are kept, and no more than an eighth of what sb_mem_limit_read finds;
 * shorter mappings go first to keep a longer one. take returns a kept mapping, zeroed, or NULL;
 * put keeps p or unmaps it; drop_all unmaps every kept mapping. Thread-safe. */
#define SB_MEM_KEEP_MAX (4ull << 30)
void *sb_mem_keep_take(size_t len, uint64_t tag);
void sb_mem_keep_put(void *p, size_t len, uint64_t tag);
void sb_mem_keep_drop_all(void);

#endif
