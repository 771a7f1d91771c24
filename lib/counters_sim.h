/* counters_sim.h: the `sim` counter backend (its row is in counters.c): after the last timed
 * scan it replays the first timed scans' exact memory accesses (each scan's first pass), in
 * order, through the cache model (lib/cachesim) of the run's machine (lib/machine), and reports
 * the model's counts as the roles l1d_*, l2_*, l3_*, mem_read_bytes and mem_write_bytes, marked
 * simulated. Timing is unaffected: the model runs after the rounds. The model persists across
 * the replayed scans (its state carries over, as the hardware's would); the counts are per
 * scan. The model exists only from the first replay to finish, so a schedule holds one model at
 * a time, however many runs it interleaves. cycles and instructions are not modelled (absent). */
#ifndef SB_COUNTERS_SIM_H
#define SB_COUNTERS_SIM_H

#include <stdint.h>

#include "counters.h"

int sb_sim_open(struct sb_counters *c, const struct sb_run_params *run, struct sb_error *err);
void sb_sim_start(struct sb_counters *c, unsigned rep);
void sb_sim_stop(struct sb_counters *c, unsigned rep);
void sb_sim_replay(struct sb_counters *c, unsigned rep, const struct sb_scan_trace *trace);
void sb_sim_finish(struct sb_counters *c);
void sb_sim_close(struct sb_counters *c);

#endif
