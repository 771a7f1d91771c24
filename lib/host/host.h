/* SPDX-License-Identifier: BSD-3-Clause */
/* host.h: the host subsystem's public header. What the machine is and where things run on it:
 * caches, cores and NUMA nodes with their sources (topo.h; the caches CPUID describes,
 * cache_cpuid.h), the CPU's vendor, family and
 * model (cpu_id.h), NUMA placement of memory and threads (placement.h), where the scanners'
 * threads run (cpu_place.h), the kernel's perf facts (perf_host.h) and the contention thread
 * (aggressor.h). hwloc is read once per
 * process, here only (hwloc_shared.h, internal). On core. */
#ifndef SB_HOST_H
#define SB_HOST_H

#include "host/aggressor.h"
#include "host/cache_cpuid.h"
#include "host/cpu_id.h"
#include "host/cpu_place.h"
#include "host/perf_host.h"
#include "host/frames.h"
#include "host/layout.h"
#include "host/placement.h"
#include "host/probe.h"
#include "host/topo.h"

#endif
