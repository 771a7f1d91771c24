/* SPDX-License-Identifier: BSD-3-Clause */
/* sim.h: the `sim` counter backend (its row is in backends.c): after the last timed
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

#include "counters/interface.h"

int sb_sim_open(struct sb_counters *c, const struct sb_counting *run, struct sb_error *err);
void sb_sim_start(struct sb_counters *c, unsigned rep);
void sb_sim_stop(struct sb_counters *c, unsigned rep);
void sb_sim_replay(struct sb_counters *c, unsigned rep, const struct sb_scan_trace *trace);
void sb_sim_finish(struct sb_counters *c);
void sb_sim_close(struct sb_counters *c);

/* The slices to use on this host: the CPUs this process may run on, rounded down to a power of
 * two, at most 1 << SB_CACHESIM_MAX_SLICE_SHIFT. */
unsigned sb_sim_default_slices(void);

/* The slices the sim backend uses: $SCANBENCH_SIM_THREADS (1 to 64, rounded down to a power of
 * two and to what the model allows; 1: the replay on the scanning thread) if set, else
 * sb_sim_default_slices(). SB_ERR_INPUT naming the variable if its value is not such a number. */
int sb_sim_slices_wanted(unsigned *slices, struct sb_error *err);

#endif
