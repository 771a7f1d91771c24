/* SPDX-License-Identifier: BSD-3-Clause */
/* mem.h: the big allocations (IO cache, pool); with them, what the host can give them
 * (mem_limit.h) and the freed mappings kept for the next (mem_keep.h). */
#ifndef SB_MEM_H
#define SB_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "core/mem_keep.h"
#include "core/mem_limit.h"

/* The host's cache line, as far as keeping threads' data apart goes: what is written by one
 * thread at a high rate sits on lines of its own (128 would also cover adjacent-line
 * prefetching; 64 is every x86-64's and most ARM64s' line). */
#define SB_HOST_LINE 64

/* Page-aligned anonymous mapping of len bytes, zeroed and touched so that page faults happen
 * here and not in a timed region (a mapping of that length freed before is taken again: see
 * sb_mem_keep_take); NULL on failure. */
void *sb_mem_alloc(size_t len);
void sb_mem_free(void *ptr, size_t len);

/* Backs every page of [p, p + len) now (where the memory policy set on it says), not at its
 * first touch in a timed region (sb_mem_alloc does it; placement.h's sb_mem_alloc_placed does it
 * after binding). */
void sb_mem_populate(void *p, size_t len);

/* Backs [p, p + len) in one madvise (MADV_POPULATE_WRITE), without the user stores that
 * sb_mem_populate adds: for a caller whose own stores follow at once. */
void sb_mem_populate_only(void *p, size_t len);

/* Peak resident set size of this process so far, in bytes. */
uint64_t sb_mem_peak_rss(void);

/* The address space a thread scanbench starts takes: its stack as pthread_create makes it by
 * default (RLIMIT_STACK's, a guard page added). The threads' malloc arenas take none of their
 * own: sb_mem_one_arena puts every thread in the main one. */
uint64_t sb_mem_thread_bytes(void);

/* Every thread allocates from the main arena (glibc's M_ARENA_MAX 1): a thread's own arena
 * reserves 64MB to 128MB of address space at its first malloc, which a `ulimit -v` counts and
 * the memory check could not. Called first thing in main. */
void sb_mem_one_arena(void);

#endif
