/* SPDX-License-Identifier: BSD-3-Clause */
/* mem_limit.h: how much memory the host can give a run: MemAvailable from /proc/meminfo,
 * bounded by RLIMIT_AS and by the process's cgroup (v2 memory.max, v1 limit_in_bytes, the
 * tightest of its own and its ancestors'). libnuma and hwloc are not asked: on this kind of VM
 * they report one node's figure, not what the process may use. */
#ifndef SB_MEM_LIMIT_H
#define SB_MEM_LIMIT_H

#include <stdint.h>

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

#endif
