/* probe.h: `scanbench probe`'s measurements of this host: for each cache level the topology
 * gives, and for memory, the load-to-use latency (a pointer chase over a random cyclic
 * permutation of the lines of a working set about half the level's size; memory's well beyond
 * the last level, capped) and the streaming read, temporal write and non-temporal write
 * bandwidths over the same set; the memory chase again in address order (what the prefetcher
 * hides); and the core's clock from a dependent add chain timed against the wall clock (a VM's
 * /proc/cpuinfo MHz is kept beside it, not used). Latencies are the median of the repetitions,
 * bandwidths and the clock the best. Nothing here knows the machine file: cachesim turns it
 * into costs (costs_probe.c). */
#ifndef SB_PROBE_H
#define SB_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/core.h"
#include "host/topo.h"

/* The levels probed: SB_L1D, SB_L2, SB_L3 (topo.h), then memory; their names ("L1d", "L2",
 * "L3", "memory"). */
enum { SB_PROBE_MEM = SB_NLEVELS, SB_PROBE_LEVELS = SB_NLEVELS + 1 };
extern const char *const sb_probe_level_names[SB_PROBE_LEVELS];

struct sb_probe_level {
    bool measured;        /* false: the level is unknown here (no size in the topology) */
    uint64_t level_size;  /* bytes: the topology's size (0 for memory) */
    uint64_t working_set; /* bytes the chase and the streams cover */
    double latency_ns;    /* median over the repetitions of the chase's ns per load */
    double read_gbps;     /* best over the repetitions; 10^9 bytes per second */
    double write_gbps;    /* temporal stores: the lines read for ownership and written back */
    double nt_write_gbps; /* non-temporal stores (0 when the build has none) */
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
    double seconds;           /* the probe's whole duration */
};

/* Measures every level the topology knows (L1d and L2 required: SB_ERR_INPUT otherwise) and
 * memory. SB_ERR_RUN when the working set cannot be mapped. progress, when not NULL, gets one
 * line per level as it is done. */
/* This core's clock (GHz): the best of `rounds` dependent add chains of `seconds` each (one add
 * a cycle), as sb_probe_run measures clock_ghz. */
double sb_probe_clock_ghz(unsigned rounds, double seconds);

int sb_probe_run(const struct sb_topology *topo, const struct sb_probe_options *opt,
                 struct sb_probe *out, FILE *progress, struct sb_error *err);

#endif
