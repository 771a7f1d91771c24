/* SPDX-License-Identifier: BSD-3-Clause */
/* topo.h: the host's cache and core topology, and where each figure came from: hwloc when
 * built with it, else Linux sysfs, else unknown; any figure can be overridden from the config
 * (l1d_size, l2_size, l3_size, line_size). Code that depends on cache sizes takes a struct
 * sb_topology, so tests can hand it a synthetic one. */
#ifndef SB_TOPO_H
#define SB_TOPO_H

#include <stdint.h>

/* One number and its provenance: "hwloc", "sysfs", "config", or "unknown" (value 0). */
struct sb_figure {
    uint64_t value;
    const char *source;
};

struct sb_cache_level {
    struct sb_figure size, line, assoc; /* assoc 0 with source "hwloc"/"sysfs": fully assoc. */
};

enum { SB_L1D = 0, SB_L2 = 1, SB_L3 = 2, SB_NLEVELS = 3 };

struct sb_topology {
    struct sb_cache_level cache[SB_NLEVELS];
    struct sb_figure cores;      /* physical cores */
    struct sb_figure pus;        /* hardware threads */
    struct sb_figure numa_nodes;
};

/* Reads the topology: hwloc (if built with it), then sysfs below sysfs_root ("/" normally)
 * for whatever is still unknown, then CPUID for caches still unknown (cache_cpuid.h: a VM may
 * show no sysfs cache directories). Each figure names its source. */
void sb_topology_detect(struct sb_topology *topo, const char *sysfs_root);

/* Reads only sysfs (used by sb_topology_detect and by the tests on a fake tree). */
void sb_topology_from_sysfs(struct sb_topology *topo, const char *sysfs_root);

/* Fills only hwloc figures from a synthetic description such as
 * "pack:1 l3:1(size=32MiB) l2:2(size=1MiB) l1d:1(size=32KiB) core:1 pu:1"
 * (hwloc reads KB/MB as decimal, KiB/MiB as binary); 0 on success, -1 if
 * built without hwloc or the description is invalid. */
int sb_topology_from_hwloc_synthetic(struct sb_topology *topo, const char *description);

/* Applies a config override: level SB_L1D..SB_L3 size, or the line size of every level. */
void sb_topology_override_size(struct sb_topology *topo, int level, uint64_t bytes);
void sb_topology_override_line(struct sb_topology *topo, uint64_t bytes);

#endif
