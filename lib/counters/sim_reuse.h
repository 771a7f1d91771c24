/* SPDX-License-Identifier: BSD-3-Clause */
/* sim_reuse.h: a run's replays reused by a later run that feeds the model the same inputs.
 * The replay is a function of the model's configuration and of the traced scans, in order:
 * each scan's buffers, op, kernel, source, write-back, pool and the table's bytes (sim_replay.h:
 * addresses are relative to fixed bases, never the mappings'). Two runs of a process with the
 * same key get the same counts from it, so the second takes the first's (reproduce's
 * experiments share pools, ops and tables; the emulation's configurations share the thread's).
 * The key is 128 bits of a hash of those inputs; at most SB_SIM_REUSE_KEPT replays are kept. */
#ifndef SB_COUNTERS_SIM_REUSE_H
#define SB_COUNTERS_SIM_REUSE_H

#include <stdbool.h>
#include <stdint.h>

#include "cachesim/cachesim.h"
#include "counters/interface.h"

#define SB_SIM_REUSE_KEPT 256
#define SB_SIM_REUSE_SCANS 8 /* traced scans a kept replay may have */

struct sb_sim_key {
    uint64_t h[2];
    const uint8_t *table; /* the table last hashed, and its hash (one table per run) */
    uint64_t table_bytes;
    uint64_t table_hash[2];
};

/* A key over the model's configuration, then each traced scan added in order. */
void sb_sim_key_start(struct sb_sim_key *k, const struct sb_cachesim_config *cfg);
void sb_sim_key_add(struct sb_sim_key *k, const struct sb_scan_trace *t);

/* The counts of the nscans scans replayed under key k (whole: n[nscans]; by phase:
 * phases[nscans * SB_NPHASES]) if a run kept them; false if none did. */
bool sb_sim_reuse_find(const struct sb_sim_key *k, unsigned nscans, struct sb_cachesim_counts *n,
                       struct sb_cachesim_counts *phases);

/* Keeps the counts of a replay (nscans at most SB_SIM_REUSE_SCANS) under key k, the oldest
 * kept replay going when SB_SIM_REUSE_KEPT are kept. */
void sb_sim_reuse_keep(const struct sb_sim_key *k, unsigned nscans,
                       const struct sb_cachesim_counts *n, const struct sb_cachesim_counts *phases);

/* Forgets every kept replay (tests). */
void sb_sim_reuse_forget(void);

#endif
