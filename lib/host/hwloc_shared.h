/* SPDX-License-Identifier: BSD-3-Clause */
/* hwloc_shared.h: the process's one hwloc topology (host only: topo.c reads the caches and
 * cores from it, cpu_place.c places and binds the scanners' threads with it), loaded at its
 * first use and destroyed at exit. */
#ifndef SB_HWLOC_SHARED_H
#define SB_HWLOC_SHARED_H

#ifdef HAVE_HWLOC
#include <hwloc.h>

/* The host's topology, or NULL when hwloc could not read it. Thread-safe. */
hwloc_topology_t sb_hwloc_topology(void);
#endif

#endif
