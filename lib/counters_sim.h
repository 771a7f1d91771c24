/* counters_sim.h: the `sim` counter backend (its row is in counters.c): after each timed scan
 * it replays the scan's exact memory accesses, in order, through the cache model (lib/cachesim)
 * of the run's machine (lib/machine), and reports the model's counts as the roles l1d_*, l2_*,
 * l3_*, mem_read_bytes and mem_write_bytes, marked simulated. Timing is unaffected: the model
 * runs after the timed region. The model persists across repetitions (its state carries over,
 * as the hardware's would); the counts are per repetition. cycles and instructions are not
 * modelled (absent). */
#ifndef SB_COUNTERS_SIM_H
#define SB_COUNTERS_SIM_H

#include <stdint.h>

#include "cachesim.h"
#include "counters.h"

int sb_sim_open(struct sb_counters *c, const struct sb_run_params *run, struct sb_error *err);
void sb_sim_start(struct sb_counters *c, unsigned rep);
void sb_sim_stop(struct sb_counters *c, unsigned rep);
void sb_sim_replay(struct sb_counters *c, unsigned rep, const struct sb_scan_trace *trace);
void sb_sim_close(struct sb_counters *c);

/* Where the model sees the two regions: each at its own 1TB-aligned base (see counters_sim.c). */
#define SB_SIM_IOCACHE_BASE (1ull << 40)
#define SB_SIM_POOL_BASE (2ull << 40)

/* Feeds the model one scan of the trace (the backend's replay without the counting): for each
 * page in block order the copy (each line of the IO-cache page read, each line of the pool
 * buffer written: stored by a temporal kernel, streamed through the WC buffers and fenced by
 * `nt`), then the op's reads and writes, walked on the source page. Returns the live tuples
 * the op's walk saw (the op's own count; 0 for op none). */
uint64_t sb_sim_feed_scan(struct sb_cachesim *sim, const struct sb_scan_trace *trace);

#endif
