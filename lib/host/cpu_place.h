/* SPDX-License-Identifier: BSD-3-Clause */
/* cpu_place.h: where the scanners of a team run, and binding a thread there: scanner i of n on
 * the (i mod cores)th core, on that core's first PU, in hwloc's order (the host's one topology:
 * hwloc_shared.h). Without hwloc, or when it cannot say, nothing is pinned, and why is said. */
#ifndef SB_CPU_PLACE_H
#define SB_CPU_PLACE_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where one scanner would run: its PU (os index), core (logical index) and NUMA node, -1 where
 * not pinned or unknown; pinnable false (with why) when hwloc cannot pin. */
struct sb_cpu_place {
    bool pinnable;
    int pu, core, node;
    char why[160];
};

/* The places of scanners 0 .. n - 1 into place[0 .. n - 1]. */
void sb_cpu_places(uint32_t n, struct sb_cpu_place *place);

/* The CPUs this process may run on (sched_getaffinity: taskset, a cpuset) into allowed, and
 * them as a list ("0", "0-3,8") into list, cut with "..." where len is short: how many, or 0
 * where the kernel does not say (list then says why). The scanners, the aggressor (key
 * contention) and a server's backends all need one of these each. */
int sb_cpus_allowed(cpu_set_t *allowed, char *list, size_t len);

/* Binds the calling thread to place's PU; false when it is not pinnable or the binding failed. */
bool sb_cpu_bind(const struct sb_cpu_place *place);

#endif
