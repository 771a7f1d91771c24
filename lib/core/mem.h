/* mem.h: the big allocations (IO cache, pool) and how much memory the host can give them:
 * MemAvailable from /proc/meminfo, bounded by RLIMIT_AS and by the process's cgroup (v2
 * memory.max, v1 limit_in_bytes, the tightest of its own and its ancestors').
 * libnuma and hwloc are not asked: on this kind of VM they report one node's figure, not what
 * the process may use. */
#ifndef SB_MEM_H
#define SB_MEM_H

#include <stddef.h>
#include <stdint.h>

/* The host's cache line, as far as keeping threads' data apart goes: what is written by one
 * thread at a high rate sits on lines of its own (128 would also cover adjacent-line
 * prefetching; 64 is every x86-64's and most ARM64s' line). */
#define SB_HOST_LINE 64

struct sb_mem_limit {
    uint64_t bytes;      /* what a run may allocate, the smallest of the limits found */
    char source[640];    /* which limit decided it, with its figures, e.g. "MemAvailable",
                            "RLIMIT_AS (ulimit -v) 292MB less 31MB mapped (VmSize)" or
                            "/sys/fs/cgroup/a/memory.max 1GB less memory.current 200MB" */
};

/* Reads the limits: MemAvailable (/proc/meminfo); the address space left under RLIMIT_AS
 * (/proc/self/limits less VmSize of /proc/self/status); the memory left in this process's own
 * cgroup and each of its ancestors, the tightest (/proc/self/cgroup: v2's "0::/PATH", memory.max
 * less memory.current under /sys/fs/cgroup/PATH; v1's memory controller, memory.limit_in_bytes
 * less memory.usage_in_bytes under /sys/fs/cgroup/memory/PATH). proc_root and cgroup_root are
 * "" on a real host; tests pass a fake tree (PROC_ROOT/proc/..., CGROUP_ROOT/sys/fs/cgroup/...). */
void sb_mem_limit_read(struct sb_mem_limit *limit, const char *proc_root, const char *cgroup_root);

/* Page-aligned anonymous mapping of len bytes, zeroed and touched so that page faults happen
 * here and not in a timed region (a mapping of that length freed before is taken again: see
 * sb_mem_keep_take); NULL on failure. */
void *sb_mem_alloc(size_t len);
void sb_mem_free(void *ptr, size_t len);

/* Freed mappings kept for the next allocation of the same length and tag (mem_keep.c): the tag
 * tells placements apart (0: none; placement.h's sb_mem_alloc_placed gives its own). At most
 * SB_MEM_KEEP_MAX bytes are kept, and no more than an eighth of what sb_mem_limit_read finds;
 * shorter mappings go first to keep a longer one. take returns a kept mapping, zeroed, or NULL;
 * put keeps p or unmaps it; drop_all unmaps every kept mapping. Thread-safe. */
#define SB_MEM_KEEP_MAX (4ull << 30)
void *sb_mem_keep_take(size_t len, uint64_t tag);
void sb_mem_keep_put(void *p, size_t len, uint64_t tag);
void sb_mem_keep_drop_all(void);

/* Backs every page of [p, p + len) now (where the memory policy set on it says), not at its
 * first touch in a timed region (sb_mem_alloc does it; placement.h's sb_mem_alloc_placed does it
 * after binding). */
void sb_mem_populate(void *p, size_t len);

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
