/* SPDX-License-Identifier: BSD-3-Clause */
/* probe.h: `scanbench probe`'s measurements of this host: first a sweep of working sets from a
 * quarter of the L1d to memory's set (a pointer chase's latency and a streaming read at each),
 * in which each level's effective size is where the cost steps up (stats/steps.h): on a VM the
 * L3 a core can use is often far below the one CPUID reports. Then for each cache level the
 * topology gives, and for memory, the load-to-use latency (a pointer chase over a random cyclic
 * permutation of the lines of a working set half the level's effective size by the chase, or
 * half its nominal size where the sweep found no step; memory's well beyond the last level,
 * capped) and the streaming read, temporal write and non-temporal write bandwidths over the
 * same set; over memory's set loads and stores of the same lines beside the stores alone, which
 * says how many of a temporal store stream's lines are read first (write-allocate); the memory
 * chase again in address order (what the prefetcher hides); and the core's clock from a
 * dependent add chain timed against the wall clock (a VM's /proc/cpuinfo MHz is kept beside
 * it, not used). Latencies are the median of the repetitions, bandwidths and the clock the
 * best. Nothing here knows the machine file: cachesim turns it into costs (costs_probe.c). */
#ifndef SB_PROBE_H
#define SB_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/core.h"
#include "host/topo.h"
#include "stats/stats.h"

/* The levels probed: SB_L1D, SB_L2, SB_L3 (topo.h), then memory; their names ("L1d", "L2",
 * "L3", "memory"). */
enum { SB_PROBE_MEM = SB_NLEVELS, SB_PROBE_LEVELS = SB_NLEVELS + 1 };
extern const char *const sb_probe_level_names[SB_PROBE_LEVELS];

struct sb_probe_level {
    bool measured;        /* false: the level is unknown here (no size in the topology) */
    uint64_t level_size;  /* bytes: the topology's size (0 for memory) */
    uint64_t working_set; /* bytes the chase and the streams cover */
    uint64_t latency_set; /* bytes the chase covers where it differs (memory's: probe.c), or 0 */
    double latency_ns;    /* median over the repetitions of the chase's ns per load */
    double read_gbps;     /* best over the repetitions; 10^9 bytes per second */
    double write_gbps;    /* temporal stores: the lines read for ownership and written back */
    double nt_write_gbps; /* non-temporal stores (0 when the build has none) */
};

/* The sweep: working sets 2^(1/4) apart up to 64MB, 2^(1/2) beyond (2^(1/2) throughout with
 * quick), from a quarter of the L1d to memory's set, in 3 passes (1 with quick): each point's
 * latency the median of its passes', its read the best. */
#define SB_PROBE_SWEEP_MAX 96
struct sb_probe_point {
    uint64_t working_set;
    double latency_ns; /* the chase, median of the repetitions */
    double read_gbps;  /* the streaming read, best of the repetitions */
};

struct sb_probe_sweep {
    size_t npoints;
    struct sb_probe_point point[SB_PROBE_SWEEP_MAX];
    unsigned levels;                  /* the cache levels the topology gives */
    uint64_t nominal[SB_NLEVELS];     /* their sizes */
    struct sb_steps_level by_latency[SB_NLEVELS]; /* the effective sizes by the chase */
    struct sb_steps_level by_read[SB_NLEVELS];    /* ... by the read's time per byte */
    double seconds;
};

struct sb_probe_options {
    bool quick;           /* short: small working sets (memory's 64MB), 2 repetitions */
    unsigned repetitions; /* 0: 5 (2 with quick) */
};

struct sb_probe {
    struct sb_probe_level level[SB_PROBE_LEVELS];
    double mem_in_order_ns;   /* memory's chase with the lines in address order (median) */
    double clock_ghz;         /* the add chain's best */
    double cpuinfo_mhz;       /* /proc/cpuinfo's first "cpu MHz", 0 when absent */
    bool nt_stores;           /* the build has non-temporal stores (SSE2) */
    bool huge_pages;          /* transparent huge pages were asked for (madvise) */
    unsigned repetitions;
    double ms_per_measurement; /* what each repetition of each figure aims at */
    char mem_set_why[256];    /* how memory's working set was chosen, in words */
    struct sb_probe_sweep sweep;
    double rmw_gbps;          /* memory's set: loads and stores of the same lines (GB/s of the
                                 set: each byte read and written), median of the pairs */
    double rfo_share;         /* of a temporal store stream's lines, the share read first: in
                                 pairs of the stores alone (W) and loads and stores (M) taken in
                                 turn, 2 x M / W - 1 (the stores alone move (1 + share) / 2 of
                                 the loads-and-stores' traffic); the pairs' median, in 0..1 */
    double seconds;           /* the probe's whole duration */
};

/* The sweep alone (what `scanbench topo` shows): its own mapping of memory's set (64MB at most
 * with quick). SB_ERR_INPUT when the L1d or L2 size is unknown, SB_ERR_RUN when the set cannot
 * be mapped. */
int sb_probe_sweep(const struct sb_topology *topo, bool quick, struct sb_probe_sweep *out,
                   struct sb_error *err);

/* Measures every level the topology knows (L1d and L2 required: SB_ERR_INPUT otherwise) and
 * memory. SB_ERR_RUN when the working set cannot be mapped. progress, when not NULL, gets one
 * line per level as it is done. */
/* This core's clock (GHz): the best of `rounds` dependent add chains of `seconds` each (one add
 * a cycle), as sb_probe_run measures clock_ghz. */
double sb_probe_clock_ghz(unsigned rounds, double seconds);

int sb_probe_run(const struct sb_topology *topo, const struct sb_probe_options *opt,
                 struct sb_probe *out, FILE *progress, struct sb_error *err);

#endif
