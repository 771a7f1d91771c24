/* timemodel.h: a machine's events turned into seconds with its costs (costs.h). A phase's
 * events (what the cache model counted while the phase ran) cost:
 *   - each hit at level l: hit_cycles[l] / clock;
 *   - fills from memory, in `streams` independent sequential streams (a page's lines): the first
 *     fill of a stream its full latency, each further one the larger of its transfer time
 *     (line / mem_read_gbps: bandwidth-bound) and its latency less what the prefetcher hides,
 *     shared by the mlp fills in flight (latency * (1 - prefetch_hidden) / mlp); so an isolated
 *     fill (a stream of one line) costs mem_latency_ns;
 *   - bytes written back to memory at mem_write_gbps;
 *   - bytes of WC streaming stores at nt_write_gbps.
 * The parts add up (nothing overlaps); the CPU work of the op is the caller's. */
#ifndef SB_TIMEMODEL_H
#define SB_TIMEMODEL_H

#include <stdint.h>

#include "cachesim/costs.h"
#include "cachesim/model.h"

struct sb_time_events {
    uint64_t hits[3];         /* lines hit in L1d, L2, L3 */
    uint64_t fills;           /* lines filled from memory (loads, RFOs, prefetches) */
    uint64_t streams;         /* the independent sequential streams the fills came in (0: each
                                 fill isolated) */
    uint64_t writeback_bytes; /* dirty lines written back to memory */
    uint64_t wc_bytes;        /* WC streaming stores (whole lines and partial flushes) */
    uint32_t line_size;       /* bytes a fill brings */
};

/* The seconds each part took (sb_time_model_parts). */
struct sb_time_parts {
    double hits;
    double fills;
    double writebacks;
    double wc;
};

/* A phase's events from the model's counts n over `pages` pages (each page one stream of
 * fills); line_size the model's. */
void sb_time_events_from_counts(const struct sb_cachesim_counts *n, uint64_t pages,
                                uint32_t line_size, struct sb_time_events *ev);

/* The seconds the events take on a machine with costs c (see above), and its parts. */
double sb_time_model_seconds(const struct sb_machine_costs *c, const struct sb_time_events *ev);
double sb_time_model_parts(const struct sb_machine_costs *c, const struct sb_time_events *ev,
                           struct sb_time_parts *parts);

#endif
