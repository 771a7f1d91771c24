/* SPDX-License-Identifier: BSD-3-Clause */
/* timemodel.h: a machine's events turned into seconds with its costs (costs.h). A phase's
 * events (what the cache model counted while the phase ran) cost:
 *   - each hit at level l: hit_cycles[l] / clock; where the machine gives the level's stream
 *     bandwidth (hit_read_gbps: l2_read_gbps, l3_read_gbps), the hits in L2 or L3 come in
 *     `pages` sequential streams as the fills do: each stream's first hit at that latency, each
 *     further one at the larger of line / hit_read_gbps and the latency less what the
 *     prefetcher hides, shared by the mlp in flight (the ECM model's in-cache transfers);
 *   - fills from memory, in `streams` independent sequential streams (a page's lines): the first
 *     fill of a stream its full latency, each further one the larger of its transfer time
 *     (line / mem_read_gbps: bandwidth-bound) and its latency less what the prefetcher hides,
 *     shared by the mlp fills in flight (latency * (1 - prefetch_hidden) / mlp); so an isolated
 *     fill (a stream of one line) costs mem_latency_ns;
 *   - bytes written back to memory at mem_write_gbps;
 *   - bytes of WC streaming stores at nt_write_gbps;
 *   - under write_allocate = full_line_loaded (costs.h), when at least rfo_evasion_scanners
 *     scanners share the memory, rfo_evasion_share of the fills whole-line stores made to read
 *     their lines first (full_line_rfos) are not made: SpecI2M's evasion, which Laukemann,
 *     Gruber, Hager et al. (IPDPS 2024) find only near the memory's saturation, never for one
 *     serial stream. (full_line's evasion is the cache model's: those reads are never counted.)
 * Those are a phase's parts. A scan's time overlaps them (sb_time_scan_combine), an
 * Execution-Cache-Memory / roofline-class rule (Treibig and Hager 2010; Williams, Waterman and
 * Patterson 2009), doc/cache-model.md "The time model":
 *   1. the core's work (the op's CPU work, the caller's) and what it waits for (the hits and
 *      the demand fills from memory, a miss costing more than the reorder buffer hides) add up:
 *      the stalls;
 *   2. dirty write-backs and WC flushes are posted: the core does not wait for them; they cost
 *      the memory's time only;
 *   3. the memory moves one transfer at a time: its busy time is every line filled at
 *      mem_read_gbps, every byte written back at mem_write_gbps, every WC byte at
 *      nt_write_gbps; `sharing` scanners on one memory each take that much of it for their own
 *      share, so a scanner's bus time is theirs summed (sharing times its own);
 *   4. the scan takes the larger of the two: max(stalls + core, bus), memory-bound when the
 *      bus is the larger. A prefetcher's part is in the fills' cost above (prefetch_hidden). */
#ifndef SB_TIMEMODEL_H
#define SB_TIMEMODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "cachesim/costs.h"
#include "cachesim/model_types.h"

struct sb_time_events {
    uint64_t hits[3];         /* lines hit in L1d, L2, L3 */
    uint64_t fills;           /* lines filled from memory (loads, RFOs, prefetches) */
    uint64_t streams;         /* the independent sequential streams the fills came in (0: each
                                 fill isolated) */
    uint64_t writeback_bytes; /* dirty lines written back to memory */
    uint64_t wc_bytes;        /* WC streaming stores (whole lines and partial flushes) */
    uint32_t line_size;       /* bytes a fill brings */
    uint64_t pages;           /* the pages: a stream each, of hits at a level as of fills */
    uint64_t full_line_rfos;  /* of the fills, those whole-line stores made (model_types.h) */
    unsigned sharing;         /* scanners sharing the memory (0 or 1: one) */
};

/* The seconds each part took (sb_time_model_parts); bus_reads: the fills' transfer time alone
 * (fills x line / mem_read_gbps), the memory's share of them. */
struct sb_time_parts {
    double hits;
    double fills;
    double writebacks;
    double wc;
    double bus_reads;
    uint64_t rfos_evaded; /* the whole-line stores' fills full_line_loaded did not make */
};

/* A scan's time under the overlap rules (see above). */
struct sb_time_scan {
    double stalls;     /* the hits and demand fills the core waited for */
    double core;       /* the op's CPU work */
    double bus;        /* the memory's busy time, the sharing scanners' together */
    double seconds;    /* max(stalls + core, bus) */
    bool memory_bound; /* bus > stalls + core */
};

/* A phase's events from the model's counts n over `pages` pages (each page one stream of
 * fills); line_size the model's. */
void sb_time_events_from_counts(const struct sb_cachesim_counts *n, uint64_t pages,
                                uint32_t line_size, struct sb_time_events *ev);

/* The seconds the events' parts take on a machine with costs c (see above), added up (hits +
 * fills + writebacks + wc: what a phase would take if nothing overlapped), and its parts. */
double sb_time_model_seconds(const struct sb_machine_costs *c, const struct sb_time_events *ev);
double sb_time_model_parts(const struct sb_machine_costs *c, const struct sb_time_events *ev,
                           struct sb_time_parts *parts);

/* Rules 1 to 4 over a scan's parts: stalls (its phases' hits + fills), core (the CPU work),
 * bus (its phases' bus_reads + writebacks + wc: one scanner's) and the scanners sharing its
 * memory (0 or 1: none). */
void sb_time_scan_combine(double stalls, double core, double bus, unsigned sharing,
                          struct sb_time_scan *out);

#endif
